//! The blind veterinary practice (`examples/examples/blind_vet/`): a vet's front desk split over nine files, with
//! twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, three in a keyed collection's row memo and its `filter` and `sort_by` views, three in `update`'s helpers,
//! one in a dosing rule and one in a price rule of other modules, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct practice holds the expected
//!   value and the practice with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_vet::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_vet as blind;
use crate::examples::values;

crate::examples::blind_harness!("practice");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "clinical.rs",
        "fees.rs",
        "graph.rs",
        "pharmacy.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_back_to_back => "back_to_back",
    values_treat_charge => "treat_charge",
    values_undispensed => "undispensed",
    values_dose_weight_unit => "dose_weight_unit",
    values_medium_run_rate => "medium_run_rate",
    values_due_swapped => "due_swapped",
    values_boarding_bucket => "boarding_bucket",
    values_reorder_par => "reorder_par",
    values_reorder_discontinued => "reorder_discontinued",
    values_shelf_order => "shelf_order",
    values_claim_default => "claim_default",
    values_quote_packs => "quote_packs",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_back_to_back => "back_to_back",
        explain_treat_charge => "treat_charge",
        explain_undispensed => "undispensed",
        explain_dose_weight_unit => "dose_weight_unit",
        explain_medium_run_rate => "medium_run_rate",
        explain_due_swapped => "due_swapped",
        explain_boarding_bucket => "boarding_bucket",
        explain_reorder_par => "reorder_par",
        explain_reorder_discontinued => "reorder_discontinued",
        explain_shelf_order => "shelf_order",
        explain_claim_default => "claim_default",
        explain_quote_packs => "quote_packs",
    );
}
