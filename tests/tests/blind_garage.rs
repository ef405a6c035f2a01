//! The blind garage (`examples/examples/blind_garage/`): a car repair garage's front desk split over ten files, with
//! twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, two in a keyed collection's row memo and its `sort_by` view, two in `update`'s helpers in `workshop.rs`
//! and one in a helper of `update.rs` (a command not sent), two in rules of other modules (an invoice rule called from
//! `update`, a date rule called from a memo), one in a hand-written `Default`, two in long memos). Two halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct garage holds the expected
//!   value and the garage with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_garage::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   mistake's `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_garage as blind;
use crate::examples::values;

crate::examples::blind_harness!("garage");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "workshop.rs",
        "pricing.rs",
        "calendar.rs",
        "graph.rs",
        "stock.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_labour_rate_unit => "labour_rate_unit",
    values_bay_adjacent => "bay_adjacent",
    values_fit_merged_qty => "fit_merged_qty",
    values_short_no_reorder => "short_no_reorder",
    values_discount_sign => "discount_sign",
    values_mot_days_swapped => "mot_days_swapped",
    values_board_waiting_arm => "board_waiting_arm",
    values_mechanic_any_day => "mechanic_any_day",
    values_reorder_to_level => "reorder_to_level",
    values_shelf_by_name => "shelf_by_name",
    values_delivery_from_today => "delivery_from_today",
    values_mot_record_default => "mot_record_default",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_labour_rate_unit => "labour_rate_unit",
        explain_bay_adjacent => "bay_adjacent",
        explain_fit_merged_qty => "fit_merged_qty",
        explain_short_no_reorder => "short_no_reorder",
        explain_discount_sign => "discount_sign",
        explain_mot_days_swapped => "mot_days_swapped",
        explain_board_waiting_arm => "board_waiting_arm",
        explain_mechanic_any_day => "mechanic_any_day",
        explain_reorder_to_level => "reorder_to_level",
        explain_shelf_by_name => "shelf_by_name",
        explain_delivery_from_today => "delivery_from_today",
        explain_mot_record_default => "mot_record_default",
    );
}
