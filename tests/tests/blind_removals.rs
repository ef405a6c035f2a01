//! The removals firm's blind set (`examples/examples/blind_removals/`): twelve ordinary mistakes in an app split over
//! ten files, each shown by its case (`values_*`: the correct firm holds the expected value, the firm with the
//! mistake another) and each to be named by one `explain` call within the first 400 characters of the answer
//! (`explain_*`, traced builds).
//!
//! Written before the set's first scored run. That run named 10 of twelve, 7 within the 400 characters (not named:
//! `book_day` and `pay_total`; named past 400: `cancel_fee` at 843, `late_grace` at 634 and `week_invoiced` at 522;
//! median answer 952 characters). The explains that did not hit within 400 are ignored with what that run answered.
//! Since session 32's changes: 11 named, 9 within 400 (`pay_total` at 396, `week_invoiced` at 151).

use crate::examples::blind_removals as blind;
use crate::examples::values;

crate::examples::blind_harness!("removals firm");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "quotes.rs",
        "crews.rs",
        "jobs.rs",
        "storage.rs",
        "graph.rs",
        "services.rs"
    ],
    at_least = 7
);

values!(
    values_road_fallback => "road_fallback",
    values_fuel_cap => "fuel_cap",
    values_row_balance => "row_balance",
    values_invoice_filter => "invoice_filter",
    values_book_day => "book_day",
    values_receive_stock => "receive_stock",
    values_stairs_lift => "stairs_lift",
    values_cancel_fee => "cancel_fee",
    values_late_grace => "late_grace",
    values_pay_total => "pay_total",
    values_week_invoiced => "week_invoiced",
    values_reorder_point => "reorder_point",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_road_fallback => "road_fallback",
        explain_fuel_cap => "fuel_cap",
        explain_row_balance => "row_balance",
        explain_invoice_filter => "invoice_filter",
        #[ignore = "first run: not named; the answer quoted jobs.rs:68, jobs.rs:116, crews.rs:33"]
        explain_book_day => "book_day",
        explain_receive_stock => "receive_stock",
        explain_stairs_lift => "stairs_lift",
        #[ignore = "first run: named at 843, past 400"]
        explain_cancel_fee => "cancel_fee",
        #[ignore = "first run: named at 634, past 400"]
        explain_late_grace => "late_grace",
        // first run: not named; the answer quoted crews.rs:33, quotes.rs:125, crews.rs:84; a hit since session 32 (a rule that returned a literal early refused no message: 396)
        explain_pay_total => "pay_total",
        // first run: named at 522, past 400; a hit since session 32 (an `if` block that leaves the loop leads with its `break`: 151)
        explain_week_invoiced => "week_invoiced",
        explain_reorder_point => "reorder_point",
    );
}
