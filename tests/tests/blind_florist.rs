//! The florist blind set (`examples/examples/blind_florist/`): twelve ordinary mistakes in a ten-file shop, each
//! shown by its case (`values_*`: the correct shop holds the expected value, the shop with the mistake another) and
//! asked about once (`explain_*`: one `explain` names the faulty `file:line` within the first 400 characters).
//!
//! Written before the set's first scored run.

use crate::examples::blind_florist as blind;
use crate::examples::values;

crate::examples::blind_harness!("florist");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "stock.rs",
        "delivery.rs",
        "graph.rs",
        "orders.rs",
        "services.rs"
    ],
    at_least = 7
);

values!(
    values_restock_cost => "restock_cost",
    values_courier_quote => "courier_quote",
    values_row_total => "row_total",
    values_round_order => "round_order",
    values_deliver_balance => "deliver_balance",
    values_wastage_total => "wastage_total",
    values_funeral_deposit => "funeral_deposit",
    values_free_delivery => "free_delivery",
    values_bunches_to_order => "bunches_to_order",
    values_week_takings => "week_takings",
    values_van_load => "van_load",
    values_wilted_day => "wilted_day",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_restock_cost => "restock_cost",
        explain_courier_quote => "courier_quote",
        explain_row_total => "row_total",
        explain_round_order => "round_order",
        explain_deliver_balance => "deliver_balance",
        explain_wastage_total => "wastage_total",
        explain_funeral_deposit => "funeral_deposit",
        explain_free_delivery => "free_delivery",
        explain_bunches_to_order => "bunches_to_order",
        explain_week_takings => "week_takings",
        explain_van_load => "van_load",
        explain_wilted_day => "wilted_day",
    );
}
