//! The blind pharmacy dispensary (`examples/examples/blind_pharmacy/`): a community pharmacy's dispensary split over
//! nine files, with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in
//! async memos' futures, two in a keyed collection's row memo and its `sort_by` view, two in `update`'s helpers, two
//! in a charging rule called from `update` and one in an interaction rule a memo calls, one in a hand-written
//! `Default`, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct dispensary holds the expected
//!   value and the dispensary with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_pharmacy::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(key)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_pharmacy as blind;
use crate::examples::values;

crate::examples::blind_harness!("dispensary");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "charges.rs",
        "checks.rs",
        "graph.rs",
        "stock.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_validity_months => "validity_months",
    values_age_exempt => "age_exempt",
    values_prepayment_arm => "prepayment_arm",
    values_interaction_one_way => "interaction_one_way",
    values_owing_not_sent => "owing_not_sent",
    values_receive_swapped => "receive_swapped",
    values_short_dated_edge => "short_dated_edge",
    values_shelf_order => "shelf_order",
    values_repeat_due_from => "repeat_due_from",
    values_takings_exempt => "takings_exempt",
    values_token_counter => "token_counter",
    values_quote_default => "quote_default",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_validity_months => "validity_months",
        explain_age_exempt => "age_exempt",
        explain_prepayment_arm => "prepayment_arm",
        explain_interaction_one_way => "interaction_one_way",
        explain_owing_not_sent => "owing_not_sent",
        explain_receive_swapped => "receive_swapped",
        explain_short_dated_edge => "short_dated_edge",
        explain_shelf_order => "shelf_order",
        explain_repeat_due_from => "repeat_due_from",
        explain_takings_exempt => "takings_exempt",
        explain_token_counter => "token_counter",
        explain_quote_default => "quote_default",
    );
}
