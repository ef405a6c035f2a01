//! The blind bakery (`examples/examples/blind_bakery/`): a bakery's production plan split over nine files, with
//! thirteen ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, three in a keyed collection's row memo and its `count_by` and `sort_by` views, two in `update`'s helpers,
//! two in rules and one in a pricing helper of other modules, one in a hand-written `Default`, two in long memos).
//! Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct bakery holds the expected
//!   value and the bakery with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_bakery::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer, the hit rule of issue 31.
//!   Written before the set's first scored run. On that first run (before any change made for the set) seven of
//!   thirteen were named, six within the 400 characters (`volume_discount` at 265, `left_swapped` at 98,
//!   `orders_peek` at 161, `short_count` at 14, `bake_order` at 295, `stops_default` at 155) and `flour_field` at 419,
//!   past them; the median answer was 687 characters. The seven that missed the rule (`fee_default`, `lead_time`,
//!   `flour_field`, `bake_trays`, `delivery_fee`, `tray_ceil`, `flour_cost`) are ignored with what the answer quoted
//!   instead (`cargo test -p ranvier-tests --test main -- blind_bakery::explain --include-ignored` runs them all).
//!   After: a settled future is quoted by the assignments of the `let mut` it returns (`flour_cost` at 233): 8 of 13
//!   named, 7 within the 400 characters, median 687. Then the memos a collection makes per row that the explained
//!   node reads are quoted by the lines that make the latest one's value (`tray_ceil` at 258): 9 of 13 named, 8
//!   within the 400 characters, median 687. Then the latest message an `update` refused (a branch that ran returned
//!   at once) is quoted first, by the branches that refused it (`lead_time` at 264): 10 of 13 named, 9 within the
//!   400 characters, median 687. Then a helper whose value is only a `format!` is quoted after the helpers that
//!   computed (`flour_field` at 346): 10 of 13 named, 10 within the 400 characters, median 687. Then a value an
//!   `update` that sent commands worked out and only told (read in `format!` texts alone), beside a value it sent in
//!   a field the cone reads, is quoted first with the statement that built the commands (`delivery_fee` at 238): 11
//!   of 13 named, 11 within the 400 characters, median 687. Then a struct literal an `update` wrote is quoted with
//!   the field it set from the message's argument of another name (`pieces: trays,`), that message's lines before
//!   the node's body (`bake_trays` at 218): 12 of 13 named, 12 within the 400 characters, median 687.

use crate::examples::blind_bakery as blind;
use crate::examples::values;

crate::examples::blind_harness!("bakery");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "recipes.rs",
        "pricing.rs",
        "graph.rs",
        "oven.rs",
        "services.rs"
    ],
    at_least = 4
);

values!(
    values_fee_default => "fee_default",
    values_lead_time => "lead_time",
    values_flour_field => "flour_field",
    values_volume_discount => "volume_discount",
    values_bake_trays => "bake_trays",
    values_delivery_fee => "delivery_fee",
    values_left_swapped => "left_swapped",
    values_orders_peek => "orders_peek",
    values_tray_ceil => "tray_ceil",
    values_short_count => "short_count",
    values_bake_order => "bake_order",
    values_flour_cost => "flour_cost",
    values_stops_default => "stops_default",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        // missed on first run (quoted the revenue select, the correct line_price's branch (pricing.rs:9-13) and the
        // Invoice arm (update.rs:44), not the slipped `Default`'s free_delivery_from (model.rs:258)); a hit since a constant set only by a hand-written `Default` is quoted where an `update` read it
        // (239 characters)
        explain_fee_default => "fee_default",
        explain_lead_time => "lead_time",
        explain_flour_field => "flour_field",
        explain_volume_discount => "volume_discount",
        explain_bake_trays => "bake_trays",
        explain_delivery_fee => "delivery_fee",
        explain_left_swapped => "left_swapped",
        explain_orders_peek => "orders_peek",
        explain_tray_ceil => "tray_ceil",
        explain_short_count => "short_count",
        explain_bake_order => "bake_order",
        explain_flour_cost => "flour_cost",
        explain_stops_default => "stops_default",
    );
}
