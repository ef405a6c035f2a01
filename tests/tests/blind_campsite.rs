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
        explain_meter_units => "meter_units",
        explain_card_fee => "card_fee",
        explain_child_rate => "child_rate",
        explain_free_hookups => "free_hookups",
        explain_close_till => "close_till",
        explain_stock_left => "stock_left",
        explain_refund_notice => "refund_notice",
        explain_peak_nights => "peak_nights",
        explain_token_bundles => "token_bundles",
        explain_board_day => "board_day",
        explain_day_totals => "day_totals",
        explain_pitch_eq => "pitch_eq",
    );
}
