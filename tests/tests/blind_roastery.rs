//! The roastery's blind set (`examples/examples/blind_roastery/`): twelve ordinary mistakes in an app split over ten files, each
//! shown by its case (`values_*`: the correct app holds the expected value, the app with the mistake another) and each
//! to be named by one `explain` call within the first 400 characters of the answer (`explain_*`, traced builds).
//!
//! Written before the set's first scored run.

use crate::examples::blind_roastery as blind;
use crate::examples::values;

crate::examples::blind_harness!("roastery");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "roasting.rs",
        "pricing.rs",
        "stock.rs",
        "orders.rs",
        "graph.rs",
        "services.rs",
        "remote.rs"
    ],
    at_least = 7
);

values!(
    values_reorder_whole_sacks => "reorder_whole_sacks",
    values_courier_swapped_args => "courier_swapped_args",
    values_subscription_discount_field => "subscription_discount_field",
    values_open_orders_filter => "open_orders_filter",
    values_advance_days => "advance_days",
    values_subscription_due_day => "subscription_due_day",
    values_roasted_weight => "roasted_weight",
    values_wholesale_tier => "wholesale_tier",
    values_reorder_stops_early => "reorder_stops_early",
    values_schedule_exact_lot => "schedule_exact_lot",
    values_dark_roast_minutes => "dark_roast_minutes",
    values_opening_reorder_point => "opening_reorder_point",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_reorder_whole_sacks => "reorder_whole_sacks",
        explain_courier_swapped_args => "courier_swapped_args",
        explain_subscription_discount_field => "subscription_discount_field",
        explain_open_orders_filter => "open_orders_filter",
        explain_advance_days => "advance_days",
        explain_subscription_due_day => "subscription_due_day",
        explain_roasted_weight => "roasted_weight",
        explain_wholesale_tier => "wholesale_tier",
        explain_reorder_stops_early => "reorder_stops_early",
        explain_schedule_exact_lot => "schedule_exact_lot",
        explain_dark_roast_minutes => "dark_roast_minutes",
        explain_opening_reorder_point => "opening_reorder_point",
    );
}
