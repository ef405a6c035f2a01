//! The blind orchard (`examples/examples/blind_orchard/`): a fruit farm's orchard and packhouse split over ten files,
//! with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, an integer division done first and an early return; two in a keyed collection, its row memo and its
//! `sort_by` view; two in `update`'s helpers, swapped arguments and a wrong field compared; three in rule modules,
//! the pay rule and the storage limits memos call and the price rule `update` calls; two in long memos, an
//! accumulator not reset and a missing condition; one in a method of a model type, off by one). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct orchard holds the expected
//!   value and the orchard with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_orchard::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run. That run (session 25, on session 24's rules and on session 25's first
//! eight alike) named eight of twelve, five within the 400 characters (`week_hours` at 112, `top_up` 142,
//! `stock_value` 204, `bin_grade` 250, `residue_checks` 369); `picking_order` (422), `pear_store` (450) and
//! `volume_discount` (716) were named later. The misses carry `#[ignore]` with what the answer quoted first instead.
//! `picking_order` runs since session 29 (188): the view it reads that kept its value through the latest change
//! comes first.

use crate::examples::blind_orchard as blind;
use crate::examples::values;

crate::examples::blind_harness!("orchard");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "tariffs.rs",
        "storage.rs",
        "graph.rs",
        "blocks.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_stock_value => "stock_value",
    values_residue_checks => "residue_checks",
    values_yield_per_tree => "yield_per_tree",
    values_picking_order => "picking_order",
    values_bin_grade => "bin_grade",
    values_hail_downgrade => "hail_downgrade",
    values_top_up => "top_up",
    values_volume_discount => "volume_discount",
    values_pear_store => "pear_store",
    values_week_hours => "week_hours",
    values_board_today => "board_today",
    values_closing_day => "closing_day",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_stock_value => "stock_value",
        explain_residue_checks => "residue_checks",
        #[ignore = "first run: not named; the answer quoted blocks.rs:138, blocks.rs:141, blocks.rs:144, blocks.rs:79; named at 412 since session 26"]
        explain_yield_per_tree => "yield_per_tree",
        explain_picking_order => "picking_order",
        explain_bin_grade => "bin_grade",
        // first run: not named (the answer quoted graph.rs:309, 325, 326, 334); session 27: an `if` in a helper's
        // loop that picked none of the items by the parameter it compares with leads its message (167)
        explain_hail_downgrade => "hail_downgrade",
        explain_top_up => "top_up",
        #[ignore = "first run: named at 716, past 400"]
        explain_volume_discount => "volume_discount",
        #[ignore = "first run: named at 450, past 400"]
        explain_pear_store => "pear_store",
        explain_week_hours => "week_hours",
        // first run: not named (the answer quoted graph.rs:364, 365, 366, 371, the accumulators' lets); session 26's
        // rule for an accumulator's `let` brings the loop that added to it, the faulty line
        explain_board_today => "board_today",
        #[ignore = "first run: not named; the answer quoted graph.rs:223, graph.rs:233, graph.rs:238, graph.rs:248"]
        explain_closing_day => "closing_day",
    );
}
