//! The blind clinic desk (`examples/examples/blind_clinic/`): a clinic's front desk split over eight files, with
//! fourteen ordinary mistakes written by a tester who had not read how `explain` diagnoses (three in async memos,
//! three in a keyed collection's row memo and views, one in an effect). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct desk holds the expected value
//!   and the desk with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_clinic::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer, the hit rule of issue 31.
//!   Written before the set's first scored run and not run by its author. On that first run (before any change made
//!   for the set) three of fourteen were hits and a fourth was named past the 400 characters; the tests of the cases
//!   missed are ignored with what the answer quoted instead (`cargo test -p ranvier-tests --test main --
//!   blind_clinic::explain --include-ignored` runs them all). Since session 16 an earlier cutoff of a source the
//!   explained node reads, when the node has not moved since, comes first: `wait_since` is a hit. Since session 17
//!   a fold's inverse that repeats its step's code is quoted first: `booked_fold` is a hit; a helper's arm that did not
//!   match and would have written what the node reads leads the answer: `order_arm` is a hit.

use crate::examples::blind_clinic as blind;
use crate::examples::values;

crate::examples::blind_harness!("desk");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "rules.rs",
        "billing.rs",
        "graph.rs",
        "board.rs",
        "labs.rs"
    ],
    at_least = 4
);

values!(
    values_first_visit_id => "first_visit_id",
    values_cancel_window => "cancel_window",
    values_order_arm => "order_arm",
    values_overlap_touch => "overlap_touch",
    values_overtime_blocks => "overtime_blocks",
    values_copay_order => "copay_order",
    values_queue_urgent => "queue_urgent",
    values_peak_effect => "peak_effect",
    values_wait_since => "wait_since",
    values_waiting_called => "waiting_called",
    values_booked_fold => "booked_fold",
    values_flags_or => "flags_or",
    values_coverage_basis => "coverage_basis",
    values_room_latest => "room_latest",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        #[ignore = "missed on first run: quoted the queue memo's body (graph.rs:192-204) and rules.rs's clock, not the \
                    hand-written `Default` of model.rs that starts the visit counter"]
        explain_first_visit_id => "first_visit_id",
        // missed on the first run (it quoted the billed select and the Charge arm, not the `let` whose subtraction
        // chose the charge); named since an `update` that sent commands is quoted by the branches that chose them
        // and the `let`s their conditions read, before the command's own arm
        explain_cancel_window => "cancel_window",
        // missed on the first run (quoted the sum_by view and the row factory (board.rs:96-124) and the Notify
        // command, not the `match` arm of the order helper in update.rs); a hit since session 17: an arm that did not
        // match and would have written a field the node reads leads its message's finding, which goes first
        explain_order_arm => "order_arm",
        #[ignore = "missed on first run: quoted next_free's loop (graph.rs:224-240) and rules.rs's constants and \
                    b_end, not the `<=` of the overlap test in rules.rs; still missed: named at 531 characters, in \
                    the `ran:` finding after the memo's body lines"]
        explain_overlap_touch => "overlap_touch",
        // missed on the first run (named at character 554, after the billed select and the Charge arm); within 400
        // since the sender of a command comes before the command's arm
        explain_overtime_blocks => "overtime_blocks",
        // missed on first run (quoted the sum_by view, the row factory and billing.rs:18, not the division before the
        // multiplication in billing.rs); named since session 14, within 400 since session 15: a kept value with
        // nothing to quote is left out of the short form
        explain_copay_order => "copay_order",
        explain_queue_urgent => "queue_urgent",
        explain_peak_effect => "peak_effect",
        // missed on first run (quoted the longest_wait memo and the row factory (board.rs:94-105) and an earlier
        // cutoff
        // of the row memo, not the row memo's field; since session 14 named (the row memo's tail with the lets it
        // reads) but 738 characters in, after the call message's lines); a hit since session 16
        explain_wait_since => "wait_since",
        explain_waiting_called => "waiting_called",
        // missed on the first run (it quoted the fold's filter (board.rs:208) and the CheckIn arm, not the fold's
        // inverse); a hit since session 17: a closure that repeats the first one's code line for line (an inverse
        // doing what its step does) is quoted first
        explain_booked_fold => "booked_fold",
        // missed on the first run (it quoted the future's `let flagged = results`, not the `.filter` of that
        // statement); named since a statement of several lines is quoted by the lines that pass a closure or compare
        explain_flags_or => "flags_or",
        // missed on the first run (it quoted an early `return Ok(None)` and three lines around the faulty one);
        // named since a future keeps five value lines and drops those that cannot have made the value it settled
        explain_coverage_basis => "coverage_basis",
        #[ignore = "missed on first run: quoted the future's lines (labs.rs:85-96) and remote.rs, not the key chosen \
                    by the wrong field"]
        explain_room_latest => "room_latest",
    );
}
