//! The blind parts depot (`examples/examples/blind_depot/`): a parts warehouse's stock and order picking split over
//! nine files, with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in
//! async memos' futures, two in a keyed collection's row memo and its `sort_by` view, two in `update`'s helpers,
//! two in reservation rules and one in a picking rule of other modules, one in a hand-written `PartialEq`, two in
//! long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct depot holds the expected
//!   value and the depot with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_depot::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(key)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_depot as blind;
use crate::examples::values;

crate::examples::blind_harness!("depot");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "reserve.rs",
        "picking.rs",
        "graph.rs",
        "stock.rs",
        "services.rs",
        "remote.rs"
    ],
    at_least = 7
);

values!(
    values_relocate_lost => "relocate_lost",
    values_hold_boundary => "hold_boundary",
    values_return_no_allocate => "return_no_allocate",
    values_expired_backorder => "expired_backorder",
    values_release_ordered => "release_ordered",
    values_wave_again => "wave_again",
    values_demand_tally => "demand_tally",
    values_write_off_filter => "write_off_filter",
    values_headroom_swapped => "headroom_swapped",
    values_walk_order => "walk_order",
    values_quote_grams => "quote_grams",
    values_due_from_today => "due_from_today",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_relocate_lost => "relocate_lost",
        explain_hold_boundary => "hold_boundary",
        explain_return_no_allocate => "return_no_allocate",
        explain_expired_backorder => "expired_backorder",
        explain_release_ordered => "release_ordered",
        explain_wave_again => "wave_again",
        explain_demand_tally => "demand_tally",
        explain_write_off_filter => "write_off_filter",
        explain_headroom_swapped => "headroom_swapped",
        explain_walk_order => "walk_order",
        explain_quote_grams => "quote_grams",
        explain_due_from_today => "due_from_today",
    );
}
