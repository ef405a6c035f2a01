//! The skip hire firm's blind set (`examples/examples/blind_skiphire/`): twelve ordinary mistakes in an app split over
//! ten files, each shown by its case (`values_*`: the correct app holds the expected value, the app with the mistake
//! another) and each to be named by one `explain` call within the first 400 characters of the answer (`explain_*`,
//! traced builds).
//!
//! Written before the set's first scored run.

use crate::examples::blind_skiphire as blind;
use crate::examples::values;

crate::examples::blind_harness!("skip hire firm");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "charges.rs",
        "skips.rs",
        "rounds.rs",
        "accounts.rs",
        "graph.rs",
        "services.rs",
        "remote.rs"
    ],
    at_least = 7
);

values!(
    values_weigh_gross => "weigh_gross",
    values_council_early_return => "council_early_return",
    values_row_permit_field => "row_permit_field",
    values_unrounded_inverted => "unrounded_inverted",
    values_post_overwrites => "post_overwrites",
    values_collect_args_swapped => "collect_args_swapped",
    values_overweight_unit => "overweight_unit",
    values_permit_weeks_floor => "permit_weeks_floor",
    values_round_cap_off_by_one => "round_cap_off_by_one",
    values_credit_wrong_field => "credit_wrong_field",
    values_open_today_excluded => "open_today_excluded",
    values_default_limit => "default_limit",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_weigh_gross => "weigh_gross",
        explain_council_early_return => "council_early_return",
        explain_row_permit_field => "row_permit_field",
        explain_unrounded_inverted => "unrounded_inverted",
        explain_post_overwrites => "post_overwrites",
        explain_collect_args_swapped => "collect_args_swapped",
        explain_overweight_unit => "overweight_unit",
        explain_permit_weeks_floor => "permit_weeks_floor",
        explain_round_cap_off_by_one => "round_cap_off_by_one",
        explain_credit_wrong_field => "credit_wrong_field",
        explain_open_today_excluded => "open_today_excluded",
        explain_default_limit => "default_limit",
    );
}
