//! The blind print shop (`examples/examples/blind_printshop/`): a print shop split over ten files, with twelve
//! ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos' futures, two
//! in a keyed collection's row memo and its `sort_by` view, two in `update`'s helpers, three in rule modules (a
//! pricing rule and a press rule called from `update`, a bench rule called from a memo), one in a hand-written
//! `Default`, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct shop holds the expected value
//!   and the shop with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_printshop::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_printshop as blind;
use crate::examples::values;

crate::examples::blind_harness!("print shop");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "presses.rs",
        "finishing.rs",
        "graph.rs",
        "jobs.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_offset_setup => "offset_setup",
    values_proof_rounds => "proof_rounds",
    values_flat_finish_dropped => "flat_finish_dropped",
    values_click_per_sheet => "click_per_sheet",
    values_bind_minutes => "bind_minutes",
    values_imposition_args => "imposition_args",
    values_press_load_printed => "press_load_printed",
    values_reserved_carried => "reserved_carried",
    values_carton_count => "carton_count",
    values_due_order => "due_order",
    values_courier_weight => "courier_weight",
    values_mill_unlisted => "mill_unlisted",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_offset_setup => "offset_setup",
        explain_proof_rounds => "proof_rounds",
        explain_flat_finish_dropped => "flat_finish_dropped",
        explain_click_per_sheet => "click_per_sheet",
        explain_bind_minutes => "bind_minutes",
        explain_imposition_args => "imposition_args",
        explain_press_load_printed => "press_load_printed",
        explain_reserved_carried => "reserved_carried",
        explain_carton_count => "carton_count",
        explain_due_order => "due_order",
        explain_courier_weight => "courier_weight",
        explain_mill_unlisted => "mill_unlisted",
    );
}
