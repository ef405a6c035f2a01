//! The blind football league (`examples/examples/blind_league/`): an amateur league's season split over nine files,
//! with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, two in a keyed collection's row memo and its `sort_by` view, three in `update` and its helpers, a
//! disciplinary rule called from `update` and a table rule called from a memo in modules of their own, one in a
//! hand-written rules value, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct league holds the expected
//!   value and the league with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_league::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_league as blind;
use crate::examples::values;

crate::examples::blind_harness!("league");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "discipline.rs",
        "standings.rs",
        "graph.rs",
        "squad.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_correction_fine_unit => "correction_fine_unit",
    values_send_off_no_fine => "send_off_no_fine",
    values_correction_swapped => "correction_swapped",
    values_ban_served_postponed => "ban_served_postponed",
    values_second_yellow_arm => "second_yellow_arm",
    values_table_goal_difference => "table_goal_difference",
    values_table_away_conceded => "table_away_conceded",
    values_ledger_net => "ledger_net",
    values_status_last_matchday => "status_last_matchday",
    values_discipline_order => "discipline_order",
    values_kickoff_unbooked => "kickoff_unbooked",
    values_inspection_season => "inspection_season",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_correction_fine_unit => "correction_fine_unit",
        explain_send_off_no_fine => "send_off_no_fine",
        explain_correction_swapped => "correction_swapped",
        explain_ban_served_postponed => "ban_served_postponed",
        explain_second_yellow_arm => "second_yellow_arm",
        explain_table_goal_difference => "table_goal_difference",
        explain_table_away_conceded => "table_away_conceded",
        explain_ledger_net => "ledger_net",
        explain_status_last_matchday => "status_last_matchday",
        explain_discipline_order => "discipline_order",
        explain_kickoff_unbooked => "kickoff_unbooked",
        explain_inspection_season => "inspection_season",
    );
}
