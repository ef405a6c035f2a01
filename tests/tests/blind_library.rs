//! The blind library desk (`examples/examples/blind_library/`): a public library's lending desk split over nine
//! files, with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async
//! memos' futures, two in a keyed collection's row memo and its `filter` view, two in `update`'s lending helpers,
//! three in rules of other modules called through fn values, one in a hand-written `Default`, two in long memos).
//! Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct desk holds the expected value
//!   and the desk with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_library::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_library as blind;
use crate::examples::values;

crate::examples::blind_harness!("library");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "policy.rs",
        "fines.rs",
        "graph.rs",
        "shelf.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_block_at_euros => "block_at_euros",
    values_loan_limit_off_by_one => "loan_limit_off_by_one",
    values_return_hold_not_filled => "return_hold_not_filled",
    values_fine_cap_max => "fine_cap_max",
    values_renew_window_swapped => "renew_window_swapped",
    values_hold_shelf_taken => "hold_shelf_taken",
    values_cards_all_loans => "cards_all_loans",
    values_week_late_days => "week_late_days",
    values_status_due_out_day => "status_due_out_day",
    values_overdue_filter_inverted => "overdue_filter_inverted",
    values_regional_most_copies => "regional_most_copies",
    values_reminders_read_in_future => "reminders_read_in_future",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_block_at_euros => "block_at_euros",
        explain_loan_limit_off_by_one => "loan_limit_off_by_one",
        explain_return_hold_not_filled => "return_hold_not_filled",
        explain_fine_cap_max => "fine_cap_max",
        explain_renew_window_swapped => "renew_window_swapped",
        explain_hold_shelf_taken => "hold_shelf_taken",
        explain_cards_all_loans => "cards_all_loans",
        explain_week_late_days => "week_late_days",
        explain_status_due_out_day => "status_due_out_day",
        explain_overdue_filter_inverted => "overdue_filter_inverted",
        explain_regional_most_copies => "regional_most_copies",
        explain_reminders_read_in_future => "reminders_read_in_future",
    );
}
