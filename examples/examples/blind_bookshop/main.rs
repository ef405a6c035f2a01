//! A blind test of `explain`: a bookshop split over ten files as a developer would write it, with twelve ordinary
//! mistakes, one per key, each switched on by itself.
//!
//! The shop sells new books (a list price, bought at the publisher's trade discount) and second-hand books taken in
//! on consignment (the seller gets a share of the sale after a handling fee). The shelves have reorder points; the
//! customers place orders, special orders with a deposit, and preorders for books not yet published (ready on
//! publication day); a loyalty card gives a stamp per £10 spent and a free book at ten stamps; book club members get
//! a discount on the month's pick; books come back within 14 days; mail orders pay postage by weight band. The shop
//! keeps the day's till sheet, the week's takings and the consignors' payouts at the month's end, and asks two
//! network services (async memos): the distributor's availability feed and the courier's quote.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update` with commands and its
//! helpers), `pricing.rs` and `loyalty.rs` (the rules `update` and the memos call), `stock.rs` (the stock sheet, the
//! reorders and the payouts: long memos), `orders.rs` (the orders as a keyed collection with a row memo and
//! `filter`, `sort_by` and `count_by` views), `services.rs` (the async memos) over `remote.rs` (the simulated
//! services), `graph.rs` (the `#[expose]` app, its builder and the week's takings) and this file.
//!
//! Each mistake is a full copy of a fn in a `slipped` module at the end of its file, on the line after a
//! `// BUG(<key>)` comment; `graph.rs` builds the shop with the copy in place of the fn when its key is chosen:
//! `cargo run -p ranvier-examples --features blind --example blind_bookshop -- --slip <key>` (or `BLIND_BOOKSHOP_SLIP=<key>`) serves
//! that shop over MCP on stdio, the correct one without. `--cases` prints each key, its faulty `file:line` and the
//! `explain` call that shows it; `--report [--answers]` runs every call and scores the answers (debug builds).
// `#[node]` names each node after its `let`, so the builders bind a node before returning it; the orders' rows are
// made through a closure over the row factory the graph picked (the app as it was first scored).
#![allow(clippy::let_and_return, clippy::redundant_closure)]

use ranvier_examples::harness;

pub mod graph;
pub mod loyalty;
pub mod model;
pub mod orders;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod stock;
pub mod update;

use graph::{Bookshop, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Each mistake: its key, its class and the slip that switches it on.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    ("club_price", "rule: wrong operator", Slip::ClubPrice),
    (
        "consignor_share",
        "rule: fee taken after the share",
        Slip::ConsignorShare,
    ),
    ("stamps_for", "rule: unit mix-up", Slip::StampsFor),
    (
        "card_stamps",
        "update helper: overwrites the accumulator",
        Slip::CardStamps,
    ),
    ("refund", "update helper: wrong field", Slip::Refund),
    (
        "publication_day",
        "model method: boundary off by one",
        Slip::PublicationDay,
    ),
    ("order_row", "row memo: wrong field", Slip::OrderRow),
    (
        "ready_filter",
        "view: filter keeps the wrong items",
        Slip::ReadyFilter,
    ),
    (
        "restock_feed",
        "async memo: wrong default",
        Slip::RestockFeed,
    ),
    (
        "courier_quote",
        "async memo: wrong variable",
        Slip::CourierQuote,
    ),
    (
        "week_takings",
        "long memo: accumulator not reset",
        Slip::WeekTakings,
    ),
    ("payouts", "long memo: early exit", Slip::Payouts),
];

/// The shop on a graph thread of its own, exposed.
pub type BookshopHost = harness::ExposedHost<Bookshop>;

/// Starts the shop with `slip` on its graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_bookshop(slip: Slip) -> Result<BookshopHost, HostError> {
    harness::start_exposed(move || graph::bookshop(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::bookshop(slip), "blind-bookshop")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("loyalty.rs", include_str!("loyalty.rs")),
    ("stock.rs", include_str!("stock.rs")),
    ("orders.rs", include_str!("orders.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty `file:line` of mistake `key`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the bookshop")
}

fn sell(code: &str, qty: u32, customer: &str, member: bool) -> Value {
    msg(
        "sell",
        json!({"code": code, "qty": qty, "customer": customer, "member": member}),
    )
}
fn order(customer: &str, code: &str, qty: u32, mail: bool) -> Value {
    msg(
        "order",
        json!({"customer": customer, "code": code, "qty": qty, "mail": mail}),
    )
}
fn collect(order: u32) -> Value {
    msg("collect", json!({ "order": order }))
}
fn give_back(sale: u32) -> Value {
    msg("return", json!({ "sale": sale }))
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// The node to explain for mistake `key`, and the messages that show it.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "club_price" => ("till_sheet", json!([sell("hobbit", 1, "", false)])),
        "consignor_share" => ("payouts", json!([sell("farm", 1, "", false)])),
        "stamps_for" => ("cards", json!([sell("dune", 2, "Ms Eve", false)])),
        "card_stamps" => (
            "cards",
            json!([
                sell("dune", 1, "Ms Eve", false),
                sell("hobbit", 1, "Ms Eve", false)
            ]),
        ),
        "refund" => (
            "till_sheet",
            json!([sell("hobbit", 1, "Mr Cole", true), give_back(1)]),
        ),
        "publication_day" => (
            "order_book",
            json!([order("Ms Eve", "lighthouse", 1, false), advance(2)]),
        ),
        "order_row" => ("order_book", json!([order("Mr Cole", "atlas", 3, false)])),
        "ready_filter" => (
            "ready_to_collect",
            json!([
                order("Mr Cole", "dune", 1, false),
                order("Ms Eve", "hobbit", 1, false),
                collect(1)
            ]),
        ),
        "restock_feed" => (
            "restock",
            json!([sell("atlas", 1, "", false), sell("dune", 3, "", false)]),
        ),
        "courier_quote" => (
            "courier_quotes",
            json!([order("Ms Eve", "hobbit", 3, true)]),
        ),
        "week_takings" => (
            "week_takings",
            json!([
                sell("hobbit", 1, "", false),
                advance(1),
                sell("dune", 1, "", false)
            ]),
        ),
        "payouts" => (
            "payouts",
            json!([sell("hobbit", 1, "", false), sell("farm", 1, "", false)]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct shop's node holds after the case's messages.
pub fn expected(key: &str) -> Value {
    match key {
        "club_price" => json!(["sale 1, 1 × The Hobbit: £12.99", "till on day 1: £12.99"]),
        "consignor_share" | "payouts" => json!([
            "Mr Hale: 1 sold, £4.20 due",
            "Mrs Ward: nothing sold",
            "payouts on day 30: £4.20"
        ]),
        "stamps_for" | "card_stamps" => json!(["Ms Eve: 2 stamps, 0 free books"]),
        "refund" => json!([
            "sale 1, 1 × The Hobbit: £11.69",
            "refund of sale 1: -£11.69",
            "till on day 1: £0.00"
        ]),
        "publication_day" => json!([
            "order 1, Ms Eve: 1 × The Lighthouse Year, £18.99, deposit £3.79, to pay £15.20, ready"
        ]),
        "order_row" => json!([
            "order 1, Mr Cole: 3 × Road Atlas, £75.00, deposit £15.00, to pay £60.00, waiting, due day 1"
        ]),
        "ready_filter" => json!(["order 2 for Ms Eve: The Hobbit"]),
        "restock_feed" => json!([
            "Road Atlas: 4 wanted, none available",
            "Dune: 5 wanted, 3 at £6.59, £19.77",
            "restock: £19.77"
        ]),
        "courier_quote" => json!(["order 1, 1060 g: courier £6.95, second class £5.60"]),
        "week_takings" => json!([
            "Mon day 1: £12.99 (1 entry)",
            "Tue day 2: £10.99 (1 entry)",
            "week: £23.98, deposits £0.00"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` after `messages`, in a fresh shop with `slip`, once its flights settled.
///
/// # Errors
///
/// When the shop cannot start, a message is refused or a flight is still pending.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_bookshop(slip)?, node, messages).await
}

/// Every mistake as a gallery shape.
pub fn shapes() -> Vec<Shape> {
    SLIPS
        .iter()
        .zip(STARTS)
        .map(|(&(key, class, _), start)| {
            let (node, messages) = case(key);
            Shape {
                name: key,
                class,
                node,
                messages,
                faulty: bug(key),
                start,
            }
        })
        .collect()
}

const STARTS: [fn() -> Result<Started, HostError>; 12] = [
    || start(Slip::ClubPrice),
    || start(Slip::ConsignorShare),
    || start(Slip::StampsFor),
    || start(Slip::CardStamps),
    || start(Slip::Refund),
    || start(Slip::PublicationDay),
    || start(Slip::OrderRow),
    || start(Slip::ReadyFilter),
    || start(Slip::RestockFeed),
    || start(Slip::CourierQuote),
    || start(Slip::WeekTakings),
    || start(Slip::Payouts),
];

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--cases") {
        for shape in shapes() {
            let explain = json!({"node": shape.node, "messages": shape.messages});
            println!("{}\t{}\t{explain}", shape.name, shape.faulty);
        }
        return;
    }
    if args.iter().any(|a| a == "--report") {
        if !ranvier::trace::TRACED {
            eprintln!(
                "blind_bookshop: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_BOOKSHOP_SLIP", &SLIPS, Slip::None)?;
        let host = start_bookshop(slip)?;
        let options = McpAdapterOptions::new("blind-bookshop", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_bookshop: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_bookshop: {error}");
        std::process::exit(1);
    }
}
