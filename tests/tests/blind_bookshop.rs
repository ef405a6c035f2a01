//! The bookshop blind set (`examples/examples/blind_bookshop/`): twelve ordinary mistakes in a ten-file shop, each
//! shown by its case (`values_*`: the correct shop holds the expected value, the shop with the mistake another) and
//! asked about once (`explain_*`: one `explain` names the faulty `file:line` within the first 400 characters).
//!
//! Written before the set's first scored run. That run named 8 of twelve, 5 within the 400 characters (week_takings
//! at 118, card_stamps 205, restock_feed 209, courier_quote 246, order_row 272; consignor_share at 486, ready_filter
//! 551 and club_price 576, past 400; stamps_for, refund, publication_day and payouts not named), with a median answer
//! of 865 characters. The tests of the explains that did not hit within 400 are ignored with what that run answered.
//!
//! After it (session 29): `consignor_share` at 151, what the run recorded of a fn called through a value (`share`)
//! leading the answer; `ready_filter` at 180, a source of the node's own that kept its value through the latest
//! change (the view) ranked above a write further up; `payouts` at 175, a `let .. else`'s `else` now recorded as a
//! branch by `#[node]` and `#[trace_fn]`, and one that left a `for` loop by `break` leading the answer. Their tests
//! run. `publication_day` is named since, at 670 (past 400, still ignored): a message that sent no command leads
//! with a `.filter` whose predicate parameter let no item through, and the fns that parameter may hold.

use crate::examples::blind_bookshop as blind;
use crate::examples::values;

crate::examples::blind_harness!("bookshop");

crate::examples::markers!(
    [
        "model.rs",
        "update.rs",
        "pricing.rs",
        "loyalty.rs",
        "stock.rs",
        "orders.rs",
        "graph.rs",
        "services.rs"
    ],
    at_least = 8
);

values!(
    values_club_price => "club_price",
    values_consignor_share => "consignor_share",
    values_stamps_for => "stamps_for",
    values_card_stamps => "card_stamps",
    values_refund => "refund",
    values_publication_day => "publication_day",
    values_order_row => "order_row",
    values_ready_filter => "ready_filter",
    values_restock_feed => "restock_feed",
    values_courier_quote => "courier_quote",
    values_week_takings => "week_takings",
    values_payouts => "payouts",
);

#[cfg(any(debug_assertions, feature = "trace"))]
mod explain {
    use crate::examples::explains;

    explains!(
        #[ignore = "first run: named at 576, past 400"]
        explain_club_price => "club_price",
        explain_consignor_share => "consignor_share",
        #[ignore = "first run: not named; the answer quoted graph.rs:227, loyalty.rs:23, loyalty.rs:24"]
        explain_stamps_for => "stamps_for",
        explain_card_stamps => "card_stamps",
        #[ignore = "first run: not named; the answer quoted graph.rs:208, graph.rs:214, graph.rs:215"]
        explain_refund => "refund",
        #[ignore = "first run: not named; the answer quoted orders.rs:24, orders.rs:28, orders.rs:21"]
        explain_publication_day => "publication_day",
        explain_order_row => "order_row",
        explain_ready_filter => "ready_filter",
        explain_restock_feed => "restock_feed",
        explain_courier_quote => "courier_quote",
        explain_week_takings => "week_takings",
        explain_payouts => "payouts",
    );
}
