//! The blind payroll (`examples/examples/blind_payroll/`): a small firm's payroll split over nine files, with twelve
//! ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos' futures, two
//! in a keyed collection's row memo and its `sort_by` view, two in `update`'s helpers, three in timesheet and tax
//! rules called from the pay memos, one in a hand-written `Default`, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct payroll holds the expected
//!   value and the payroll with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_payroll::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run; the explain tests its first run did not pass are ignored, each
//! saying what the answer quoted, but for those named since (each says by which rule).

use crate::examples::blind_payroll as blind;
use crate::examples::values;

crate::examples::blind_harness!("payroll");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "timesheet.rs",
        "tax.rs",
        "graph.rs",
        "staff.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_first_period => "first_period",
    values_leave_balance => "leave_balance",
    values_no_accrual => "no_accrual",
    values_night_window => "night_window",
    values_band_slice => "band_slice",
    values_pension_unit => "pension_unit",
    values_night_rate => "night_rate",
    values_ytd_tax => "ytd_tax",
    values_row_overtime => "row_overtime",
    values_busiest_order => "busiest_order",
    values_tax_code_lookup => "tax_code_lookup",
    values_bank_rejection => "bank_rejection",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        // missed on first run (quoted graph.rs:180, graph.rs:181, graph.rs:182, graph.rs:183); a hit since a field
        // the node reads that the model holds as it was made is quoted at the literal that set it (339 characters),
        // a rule drawn from this miss
        explain_first_period => "first_period",
        #[ignore = "first run: not named; the answer quoted graph.rs:189, graph.rs:201, graph.rs:202, update.rs:153; named since a written literal's field set from a local brings its let, but at 403"]
        explain_leave_balance => "leave_balance",
        explain_no_accrual => "no_accrual",
        #[ignore = "first run: named at 582 characters, past 400"]
        explain_night_window => "night_window",
        // first run: named at 647 characters, past 400; a hit since session 32 (an `if` block that leaves the loop leads with its `break`: 245)
        explain_band_slice => "band_slice",
        #[ignore = "first run: not named; the answer quoted graph.rs:356, graph.rs:374, graph.rs:355, model.rs:9"]
        explain_pension_unit => "pension_unit",
        explain_night_rate => "night_rate",
        // missed on first run (quoted graph.rs:454, graph.rs:473, graph.rs:453, model.rs:9); a hit since a body that
        // overwrites in a loop what it adds up is quoted by that line first (144 characters)
        explain_ytd_tax => "ytd_tax",
        #[ignore = "first run: not named; the answer quoted graph.rs:219, graph.rs:220, graph.rs:221, graph.rs:222"]
        explain_row_overtime => "row_overtime",
        explain_busiest_order => "busiest_order",
        explain_tax_code_lookup => "tax_code_lookup",
        explain_bank_rejection => "bank_rejection",
    );
}
