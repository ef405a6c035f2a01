//! The wedding and events caterer's blind set (`examples/examples/blind_caterer/`): twelve ordinary mistakes in an
//! app split over ten files, each shown by its case (`values_*`: the correct app holds the expected value, the app
//! with the mistake another) and each to be named by one `explain` call within the first 400 characters of the
//! answer (`explain_*`, traced builds).
//!
//! Written before the set's first scored run.

use crate::examples::blind_caterer as blind;
use crate::examples::values;

crate::examples::blind_harness!("caterer");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "menus.rs",
        "events.rs",
        "staffing.rs",
        "hire.rs",
        "graph.rs",
        "services.rs",
        "remote.rs"
    ],
    at_least = 7
);

values!(
    values_tasting_fee_pounds => "tasting_fee_pounds",
    values_covers_held_left_out => "covers_held_left_out",
    values_per_head_break => "per_head_break",
    values_deposit_rounded_down => "deposit_rounded_down",
    values_balance_due_day => "balance_due_day",
    values_running_order_key => "running_order_key",
    values_minimum_call => "minimum_call",
    values_marquees_for_settings => "marquees_for_settings",
    values_bulk_plates_threshold => "bulk_plates_threshold",
    values_card_fee_per_mille => "card_fee_per_mille",
    values_payment_overwrites => "payment_overwrites",
    values_confirm_at_deposit => "confirm_at_deposit",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_tasting_fee_pounds => "tasting_fee_pounds",
        explain_covers_held_left_out => "covers_held_left_out",
        explain_per_head_break => "per_head_break",
        explain_deposit_rounded_down => "deposit_rounded_down",
        explain_balance_due_day => "balance_due_day",
        explain_running_order_key => "running_order_key",
        explain_minimum_call => "minimum_call",
        explain_marquees_for_settings => "marquees_for_settings",
        explain_bulk_plates_threshold => "bulk_plates_threshold",
        explain_card_fee_per_mille => "card_fee_per_mille",
        explain_payment_overwrites => "payment_overwrites",
        explain_confirm_at_deposit => "confirm_at_deposit",
    );
}
