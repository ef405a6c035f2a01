//! The self-storage warehouse's blind set (`examples/examples/blind_storage/`): twelve ordinary mistakes in an app
//! split over ten files, each shown by its case (`values_*`: the correct app holds the expected value, the app with
//! the mistake another) and each to be named by one `explain` call within the first 400 characters of the answer
//! (`explain_*`, traced builds).
//!
//! Written before the set's first scored run.

use crate::examples::blind_storage as blind;
use crate::examples::values;

crate::examples::blind_harness!("storage warehouse");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "units.rs",
        "arrears.rs",
        "moveins.rs",
        "graph.rs",
        "services.rs",
        "remote.rs"
    ],
    at_least = 7
);

values!(
    values_insurer_cents => "insurer_cents",
    values_auction_gross => "auction_gross",
    values_row_weekly_plan => "row_weekly_plan",
    values_chase_by_paid => "chase_by_paid",
    values_payment_assign => "payment_assign",
    values_van_inverted => "van_inverted",
    values_premium_floor => "premium_floor",
    values_lockout_boundary => "lockout_boundary",
    values_auction_missing => "auction_missing",
    values_long_stay_boundary => "long_stay_boundary",
    values_vacant_cover => "vacant_cover",
    values_late_fee_pounds => "late_fee_pounds",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_insurer_cents => "insurer_cents",
        explain_auction_gross => "auction_gross",
        explain_row_weekly_plan => "row_weekly_plan",
        explain_chase_by_paid => "chase_by_paid",
        explain_payment_assign => "payment_assign",
        explain_van_inverted => "van_inverted",
        explain_premium_floor => "premium_floor",
        explain_lockout_boundary => "lockout_boundary",
        explain_auction_missing => "auction_missing",
        explain_long_stay_boundary => "long_stay_boundary",
        explain_vacant_cover => "vacant_cover",
        explain_late_fee_pounds => "late_fee_pounds",
    );
}
