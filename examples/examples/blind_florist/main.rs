//! A florist's shop (stems bought by the bunch that keep a number of days in the cold room, bouquets made from
//! recipes, orders with a delivery day and zone, weddings and funerals with deposits, weekly subscriptions, the
//! wilted stems thrown away each morning, the day's van round, the day's sheet and the week's takings, and two
//! services over the network), split over ten files as an app developer would write it, with twelve ordinary
//! mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call names the faulty
//! line, written by a tester who had not read how `explain` diagnoses.
//!
//! The shop: it opens on day 15, a Monday (day 1 was a Monday), with five flowers in its catalogue (rose, 20 stems a
//! bunch at £12.00, keeping 7 days, par 50 stems; tulip, 10 at £4.50, 5 days, par 30; lily, 5 at £7.50, 8 days, par
//! 20; gypsophila, 10 at £5.00, 6 days, par 20; eucalyptus, 10 at £3.00, 10 days, par 20), a bucket of each in the
//! cold room (40 roses bought on day 12, 20 tulips on day 11, 10 lilies on day 14, 20 gypsophila on day 13, 10
//! eucalyptus on day 10), four recipes (posy £17.50, classic £38.00, spray £73.50, bridal £113.50: the stems' cost
//! three times over and the labour, rounded up to 50p), one subscription (Mr Khan, a posy every Wednesday) and last
//! week's takings. Each morning (the initial command, and after `advance`) the wilted buckets are thrown away and the
//! day's subscription drops become orders. `order` prices an order, charges delivery by zone (£5.00, £8.00, £12.00;
//! free from £60.00 of flowers in zones 1 and 2) and takes a deposit (half a wedding, a funeral in full); `make`
//! takes the stems from the cold room, the oldest first; `deliver` takes the rest of the price. The van does zones 1
//! and 2 (ten boxes; a bouquet takes one, a funeral piece two, a wedding's four); the courier quotes zone 3. The
//! orders are a keyed collection (`ranvier::collection`) with each order's line as a row memo and views over it (the
//! delivery sheet from a `sort_by`, the weddings and funerals still to go out from a `filter`, the orders still to
//! deliver from a `count_by`); two services over the network are async memos: restocking to par at the wholesaler's
//! prices today, and the courier's quotes.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, methods on the model's types), `update.rs`
//! (`update`, its helpers, with commands), `pricing.rs` (prices and deposits), `stock.rs` (the cold room's rules and
//! the stock sheet), `delivery.rs` (delivery charges and the van's load), `graph.rs` (the `#[expose]` app, the
//! `#[node]` builder, the day's sheet and the week's takings), `orders.rs` (the collection, its row factory and
//! views), `services.rs` (the async memos), `remote.rs` (the services).
//!
//! The mistakes (see [`SLIPS`]): two in async memos' futures (a wrong variable multiplied, swapped arguments), two in
//! the keyed collection (a factor left out of the row memo, the sort key's fields in the wrong order), two in
//! `update`'s helpers (a subtraction left out, an accumulator not reset), three in rule modules (a wrong arm, a
//! missing condition, a division rounded down), two in long memos (an off-by-one in the week's first day, a check
//! that forgets the new item), and one in a model type's method (`>` for `>=`).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_FLORIST_SLIP=<key>`) runs the shop with that one mistake; without it the
//! shop is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_FLORIST_SLIP=<key> ranvier-mcp call target/debug/examples/blind_florist explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_florist -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the shop serves MCP over stdio.

use ranvier_examples::harness;

pub mod delivery;
pub mod graph;
pub mod model;
pub mod orders;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod stock;
pub mod update;

use graph::{FloristShop, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the shop that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "restock_cost",
        "async memo: wrong variable",
        Slip::RestockCost,
    ),
    (
        "courier_quote",
        "async memo: swapped arguments",
        Slip::CourierQuote,
    ),
    (
        "row_total",
        "collection row memo: missing factor",
        Slip::RowTotal,
    ),
    (
        "round_order",
        "collection view: sort key order",
        Slip::RoundOrder,
    ),
    (
        "deliver_balance",
        "update helper: missing subtraction",
        Slip::DeliverBalance,
    ),
    (
        "wastage_total",
        "update helper: accumulator not reset",
        Slip::WastageTotal,
    ),
    ("funeral_deposit", "rule: wrong arm", Slip::FuneralDeposit),
    (
        "free_delivery",
        "rule: missing condition",
        Slip::FreeDelivery,
    ),
    (
        "bunches_to_order",
        "rule: rounded down",
        Slip::BunchesToOrder,
    ),
    ("week_takings", "long memo: off by one", Slip::WeekTakings),
    ("van_load", "long memo: wrong comparison", Slip::VanLoad),
    (
        "wilted_day",
        "model method: wrong operator",
        Slip::WiltedDay,
    ),
];

/// What the graph thread keeps: the shop and its exposure.
pub type FloristHost = harness::ExposedHost<FloristShop>;

/// Starts the shop with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_florist(slip: Slip) -> Result<FloristHost, HostError> {
    harness::start_exposed(move || graph::florist_shop(slip))
}

/// The shop with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::florist_shop(slip), "blind-florist")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the shop, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("stock.rs", include_str!("stock.rs")),
    ("delivery.rs", include_str!("delivery.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("orders.rs", include_str!("orders.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the shop holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the florist")
}

fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}
fn buy(flower: &str, bunches: u32) -> Value {
    msg("buy", json!({"flower": flower, "bunches": bunches}))
}
fn order(customer: &str, recipe: &str, qty: u32, day: u32, zone: u32, kind: &str) -> Value {
    msg(
        "order",
        json!({"customer": customer, "recipe": recipe, "qty": qty, "day": day, "zone": zone, "kind": kind}),
    )
}
fn make(order: u32) -> Value {
    msg("make", json!({ "order": order }))
}
fn deliver(order: u32) -> Value {
    msg("deliver", json!({ "order": order }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). Day 15, a Monday; posy £17.50, classic £38.00, spray £73.50, bridal £113.50; delivery £5.00, £8.00,
/// £12.00 by zone, free from £60.00 in zones 1 and 2; the wholesaler's feed: rose £11.00 a bunch, tulip £4.20, lily
/// £8.00, gypsophila £4.80, no eucalyptus; the courier: £4.00 a zone and £1.50 a box.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // 40 roses on hand, par 50: one bunch at £11.00; shows ten bunches' worth, £110.00
        "restock_cost" => ("restock_cost", json!([buy("gypsophila", 1)])),
        // two classic bouquets to zone 3, two boxes: £12.00 + £3.00 = £15.00; shows £12.50
        "courier_quote" => (
            "courier_quotes",
            json!([order("Mrs Lee", "classic", 2, 16, 3, "bouquet")]),
        ),
        // two posies and £5.00 delivery: £40.00; shows £22.50
        "row_total" => (
            "order_book",
            json!([order("Mrs Lee", "posy", 2, 16, 1, "bouquet")]),
        ),
        // day 16 before day 17: Mr Patel's order first; shows Mrs Lee's first (zone 1 before zone 3)
        "round_order" => (
            "delivery_sheet",
            json!([
                order("Mrs Lee", "posy", 1, 17, 1, "bouquet"),
                order("Mr Patel", "posy", 1, 16, 3, "bouquet")
            ]),
        ),
        // a bridal bouquet, £56.75 deposit and £56.75 on delivery: £113.50 taken; shows £170.25
        "deliver_balance" => (
            "week_takings",
            json!([
                order("Ms Ode", "bridal", 1, 15, 1, "wedding"),
                make(1),
                deliver(1)
            ]),
        ),
        // day 20: each flower's wilted stems on its own line; shows running totals, and lilies that did not wilt
        "wastage_total" => ("waste", json!([advance(5)])),
        // a funeral spray is paid in full when ordered; shows nothing paid
        "funeral_deposit" => (
            "order_book",
            json!([order("the Greys", "spray", 1, 17, 2, "funeral")]),
        ),
        // £76.00 of flowers to zone 3: £12.00 delivery, £88.00; shows free delivery
        "free_delivery" => (
            "order_book",
            json!([order("Mrs Lee", "classic", 2, 16, 3, "bouquet")]),
        ),
        // 40 roses, par 50: buy 1 bunch; shows no roses to buy
        "bunches_to_order" => ("stock_sheet", json!([buy("gypsophila", 1)])),
        // a posy delivered on Monday: the week has £22.50; shows Sunday's £85.00 too
        "week_takings" => (
            "week_takings",
            json!([
                order("Mrs Lee", "posy", 1, 15, 1, "bouquet"),
                make(1),
                deliver(1)
            ]),
        ),
        // a wedding's 8 boxes, then 3 posies that do not fit: they wait; shows 11 of 10 boxes loaded
        "van_load" => (
            "van_load",
            json!([
                order("Ms Ode", "bridal", 2, 15, 1, "wedding"),
                order("Mr Patel", "posy", 3, 15, 2, "bouquet")
            ]),
        ),
        // day 16: the tulips bought on day 11 that keep 5 days wilted; shows nothing thrown away
        "wilted_day" => ("waste", json!([advance(1)])),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct shop after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "restock_cost" => json!([
            "rose: 10 stems short, 1 bunch at £11.00, £11.00",
            "tulip: 10 stems short, 1 bunch at £4.20, £4.20",
            "lily: 10 stems short, 2 bunches at £8.00, £16.00",
            "eucalyptus: 10 stems short, no eucalyptus in today's feed",
            "restock: £31.20"
        ]),
        "courier_quote" => json!(["order 1, zone 3, 2 boxes: £15.00", "courier: £15.00"]),
        "row_total" => json!(["order 1, Mrs Lee: 2 × posy (bouquet) for day 16, zone 1, £40.00"]),
        "round_order" => json!([
            "day 16, zone 3: order 2 for Mr Patel",
            "day 17, zone 1: order 1 for Mrs Lee"
        ]),
        "deliver_balance" => json!([
            "Mon day 15: £113.50 (2 payments)",
            "week: £113.50, deposits £56.75"
        ]),
        "wastage_total" => json!([
            "day 20: 40 rose stems wilted",
            "day 20: 20 tulip stems wilted",
            "day 20: 20 gypsophila stems wilted",
            "day 20: 10 eucalyptus stems wilted",
            "wasted: £46.00 at cost"
        ]),
        "funeral_deposit" => json!([
            "order 1, the Greys: 1 × spray (funeral) for day 17, zone 2, £73.50 with free delivery, £73.50 paid"
        ]),
        "free_delivery" => {
            json!(["order 1, Mrs Lee: 2 × classic (bouquet) for day 16, zone 3, £88.00"])
        }
        "bunches_to_order" => json!([
            "rose: 40 stems, oldest sold by day 18; buy 1 bunch",
            "tulip: 20 stems, oldest sold by day 15; buy 1 bunch",
            "lily: 10 stems, oldest sold by day 21; buy 2 bunches",
            "gypsophila: 30 stems, oldest sold by day 18",
            "eucalyptus: 10 stems, oldest sold by day 19; buy 1 bunch"
        ]),
        "week_takings" => json!([
            "Mon day 15: £22.50 (1 payment)",
            "week: £22.50, deposits £0.00"
        ]),
        "van_load" => json!([
            "zone 1: order 1 for Ms Ode, 8 boxes, not made yet",
            "order 2 waits for the second round",
            "van: 8 of 10 boxes, £227.00 of flowers"
        ]),
        "wilted_day" => json!(["day 16: 20 tulip stems wilted", "wasted: £9.00 at cost"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a shop started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the shop does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_florist(slip)?, node, messages).await
}

/// Every mistake, as a gallery shape.
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

/// The starters of [`SLIPS`], in order (a shape's `start` is a plain `fn`).
const STARTS: [fn() -> Result<Started, HostError>; 12] = [
    || start(Slip::RestockCost),
    || start(Slip::CourierQuote),
    || start(Slip::RowTotal),
    || start(Slip::RoundOrder),
    || start(Slip::DeliverBalance),
    || start(Slip::WastageTotal),
    || start(Slip::FuneralDeposit),
    || start(Slip::FreeDelivery),
    || start(Slip::BunchesToOrder),
    || start(Slip::WeekTakings),
    || start(Slip::VanLoad),
    || start(Slip::WiltedDay),
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
                "blind_florist: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_FLORIST_SLIP", &SLIPS, Slip::None)?;
        let host = start_florist(slip)?;
        let options = McpAdapterOptions::new("blind-florist", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_florist: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_florist: {error}");
        std::process::exit(1);
    }
}
