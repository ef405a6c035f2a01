//! The blind kennels (`examples/examples/blind_kennels/`): a boarding kennels and cattery split over ten files, with
//! twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, a `break` for a `continue` and pence sent as pounds; two in a keyed collection, its row memo pricing every
//! night at the arrival day's season and its `sort_by` view sorting on the arrival day; two in `update`'s helpers,
//! swapped arguments and a command carrying the wrong field; three in rule modules, the tariff a row memo and `update`
//! call, and the pen limit and refund rule `update` calls; two in long memos, a stale capture of today and `=` for
//! `+=`; one in a model type's method, a wrong default). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct kennels hold the expected value
//!   and the kennels with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_kennels::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_kennels as blind;
use crate::examples::values;

crate::examples::blind_harness!("kennels");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "tariffs.rs",
        "limits.rs",
        "rules.rs",
        "graph.rs",
        "stays.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_vet_second_pet => "vet_second_pet",
    values_deposit_pence => "deposit_pence",
    values_bill_season => "bill_season",
    values_departure_order => "departure_order",
    values_cancel_refund => "cancel_refund",
    values_walks_for_pen => "walks_for_pen",
    values_cattery_rate => "cattery_rate",
    values_pen_capacity => "pen_capacity",
    values_refund_tiers => "refund_tiers",
    values_kitchen_total => "kitchen_total",
    values_board_today => "board_today",
    values_meals_default => "meals_default",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_vet_second_pet => "vet_second_pet",
        explain_deposit_pence => "deposit_pence",
        explain_bill_season => "bill_season",
        explain_departure_order => "departure_order",
        explain_cancel_refund => "cancel_refund",
        explain_walks_for_pen => "walks_for_pen",
        explain_cattery_rate => "cattery_rate",
        explain_pen_capacity => "pen_capacity",
        explain_refund_tiers => "refund_tiers",
        explain_kitchen_total => "kitchen_total",
        explain_board_today => "board_today",
        explain_meals_default => "meals_default",
    );
}
