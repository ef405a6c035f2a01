//! The blind auction house (`examples/examples/blind_auction/`): an auction house's sale day split over nine files,
//! with twelve ordinary mistakes written by a tester who had not read how `explain` diagnoses (two in async memos'
//! futures, two in a keyed collection's row memo and its `sort_by` view, two in `update`'s helpers, two in bidding
//! rules and two in charge rules of other modules, called from `update` and from memos, two in long memos). Two
//! halves:
//!
//! - `values_*`: each mistake shows in its node: after the case's messages the correct house holds the expected
//!   value and the house with the mistake another (both profiles: `cargo test -p ranvier-tests --test main --
//!   blind_auction::values`).
//! - `explain_*` (traced builds): one `explain` call over MCP names the faulty `file:line` (the line after the
//!   `// BUG(<key>)` marker) within the first 400 characters of its answer.
//!
//! Written before the set's first scored run.

use crate::examples::blind_auction as blind;
use crate::examples::values;

crate::examples::blind_harness!("auction house");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "bidding.rs",
        "charges.rs",
        "graph.rs",
        "catalogue.rs",
        "services.rs"
    ],
    at_least = 6
);

values!(
    values_band_edge => "band_edge",
    values_book_runner_up => "book_runner_up",
    values_credit_others => "credit_others",
    values_soft_close_book => "soft_close_book",
    values_net_fees_sign => "net_fees_sign",
    values_withdrawal_fee => "withdrawal_fee",
    values_estimate_above => "estimate_above",
    values_top_by_count => "top_by_count",
    values_invoice_vat => "invoice_vat",
    values_commission_running => "commission_running",
    values_card_refused_paid => "card_refused_paid",
    values_broker_grams => "broker_grams",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        explain_band_edge => "band_edge",
        explain_book_runner_up => "book_runner_up",
        explain_credit_others => "credit_others",
        explain_soft_close_book => "soft_close_book",
        explain_net_fees_sign => "net_fees_sign",
        explain_withdrawal_fee => "withdrawal_fee",
        explain_estimate_above => "estimate_above",
        explain_top_by_count => "top_by_count",
        explain_invoice_vat => "invoice_vat",
        explain_commission_running => "commission_running",
        explain_card_refused_paid => "card_refused_paid",
        explain_broker_grams => "broker_grams",
    );
}
