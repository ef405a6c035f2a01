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
//! Written before the set's first scored run; the explain tests its first run (and session 20's rules after it)
//! did not pass are ignored, each saying what the answer quoted.

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
        #[ignore = "first run: not named; quoted the lots collection's write, the `sold` view's earlier cutoff and the `hammer` message's lines (bidding.rs:33, update.rs:235), not the slipped book rule's call"]
        explain_book_runner_up => "book_runner_up",
        explain_credit_others => "credit_others",
        #[ignore = "first run: not named; quoted the `tick` message's arm (`next.clock += minutes;`), not the `place_bid` helper's soft-close branch of the earlier bid"]
        explain_soft_close_book => "soft_close_book",
        #[ignore = "first run: not named; quoted the settlements memo's first lines; now the fee fn the memo was given (a parameter) is quoted, and the net fn after it falls past the helpers' six lines"]
        explain_net_fees_sign => "net_fees_sign",
        // missed on first run (quoted the memo's first lines); a hit since a call of a parameter holding a fn is
        // followed to the fns its callers pass (341 characters)
        explain_withdrawal_fee => "withdrawal_fee",
        explain_estimate_above => "estimate_above",
        // first run: named at 762 (after the row memos and the view's cutoff); a hit since session 33 (a command that
        // left the model as it was after a sibling moved the node is not the first suspect: 339)
        explain_top_by_count => "top_by_count",
        explain_invoice_vat => "invoice_vat",
        // missed on first run (quoted the memo's first lines and the fee fn); a hit since the body's writes to the
        // fields the latest run changed are quoted (214 characters)
        explain_commission_running => "commission_running",
        #[ignore = "first run: named at 800 (after the future's other lines); still 800"]
        explain_card_refused_paid => "card_refused_paid",
        explain_broker_grams => "broker_grams",
    );
}
