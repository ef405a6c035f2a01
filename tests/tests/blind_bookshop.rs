//! The bookshop blind set (`examples/examples/blind_bookshop/`): twelve ordinary mistakes in a ten-file shop, each
//! shown by its case (`values_*`: the correct shop holds the expected value, the shop with the mistake another) and
//! asked about once (`explain_*`: one `explain` names the faulty `file:line` within the first 400 characters).
//!
//! Written before the set's first scored run.

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
        explain_club_price => "club_price",
        explain_consignor_share => "consignor_share",
        explain_stamps_for => "stamps_for",
        explain_card_stamps => "card_stamps",
        explain_refund => "refund",
        explain_publication_day => "publication_day",
        explain_order_row => "order_row",
        explain_ready_filter => "ready_filter",
        explain_restock_feed => "restock_feed",
        explain_courier_quote => "courier_quote",
        explain_week_takings => "week_takings",
        explain_payouts => "payouts",
    );
}
