//! The blind campsite (`examples/examples/blind_campsite/`): a campsite's office (pitches booked by the night, seasonal
//! prices, a shop with its till, the warden's board, the week's takings) split over ten files, with twelve ordinary
//! mistakes written by a tester who had not read how `explain` diagnoses (two in async memos' futures, swapped
//! arguments and a wrong unit; two in a keyed collection, its row memo passing the wrong field and its `filter` view
//! missing a condition; two in `update`'s helpers, a wrong operator and a dropped command; three in rule modules, an
//! off-by-one boundary in the refund policy and a wrong enum arm in the season, both called from memos and from
//! `update`, and a wrong rounding in the shop's prices; two in long memos, a stale untracked read of today and an
//! accumulator not reset; one in a model type's hand-written `PartialEq`, a field left out). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct campsite holds the expected
//!   value and the campsite with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_campsite::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run. That run (session 26, on its first two rules, neither drawn from this
//! set) named six of twelve, two within the 400 characters (`free_hookups` at 82, `board_day` 225); `day_totals`
//! (628), `refund_notice` (657), `close_till` (893) and `token_bundles` (1007) were named later. `#[ranvier::trace_fn]`
//! marks `update.rs` and the rule modules (`pricing.rs`, `policy.rs`, `shop.rs`), none of the rest. The misses carry
//! `#[ignore]` with what the answer quoted first instead.
//!
//! Session 27 rewrote the set's inline `match slip()` switches as `slipped` copies (a harness change: each mistake in
//! a full copy of its fn at the end of its file, picked by `graph.rs`), and the figures after it come from the
//! rewritten set.

use crate::examples::blind_campsite as blind;
use crate::examples::values;

crate::examples::blind_harness!("campsite");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "policy.rs",
        "shop.rs",
        "graph.rs",
        "pitches.rs",
        "services.rs"
    ],
    at_least = 8
);

values!(
    values_meter_units => "meter_units",
    values_card_fee => "card_fee",
    values_child_rate => "child_rate",
    values_free_hookups => "free_hookups",
    values_close_till => "close_till",
    values_stock_left => "stock_left",
    values_refund_notice => "refund_notice",
    values_peak_nights => "peak_nights",
    values_token_bundles => "token_bundles",
    values_board_day => "board_day",
    values_day_totals => "day_totals",
    values_pitch_eq => "pitch_eq",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        // first run: not named (the answer quoted services.rs:41, 48, 54, 66, the inline switch's lines); named at 258
        // once session 27 rewrote the switches as `slipped` copies
        explain_meter_units => "meter_units",
        #[ignore = "first run: not named; the answer quoted services.rs:78, services.rs:88, services.rs:89, services.rs:90"]
        explain_card_fee => "card_fee",
        // missed on first run: not named; the answer quoted pricing.rs:50, pricing.rs:32, pricing.rs:33, graph.rs:197;
        // within 400 (242) in session 26 through the arm of the set's `match slip()`, a recorded branch; not named
        // from session 27 (the switches rewritten as slipped copies) to session 31, when the row memo's call of its
        // helper was quoted with the helper's lines (242 again)
        explain_child_rate => "child_rate",
        explain_free_hookups => "free_hookups",
        #[ignore = "first run: named at 893, past 400"]
        explain_close_till => "close_till",
        #[ignore = "first run: not named; the answer quoted update.rs:297, shop.rs:34, shop.rs:35, update.rs:299"]
        explain_stock_left => "stock_left",
        #[ignore = "first run: named at 657, past 400"]
        explain_refund_notice => "refund_notice",
        #[ignore = "first run: not named; the answer quoted graph.rs:233, graph.rs:226, graph.rs:239, policy.rs:53"]
        explain_peak_nights => "peak_nights",
        #[ignore = "first run: named at 1007, past 400"]
        explain_token_bundles => "token_bundles",
        explain_board_day => "board_day",
        // first run: named at 628, past 400; at 140 once session 27 rewrote the switches as `slipped` copies (the
        // totals' `let`s above the loop, as an app would have them)
        explain_day_totals => "day_totals",
        // missed on first run: not named; the answer quoted pitches.rs:54, graph.rs:133, graph.rs:165, graph.rs:136;
        // within 400 (376) in session 26 by the `equal model:` finding
        #[ignore = "not named since session 27's rewrite: `PartialEq` now calls a fn value the pitch holds, `(self.same)(self, other)`, which the answer quotes"]
        explain_pitch_eq => "pitch_eq",
    );
}
