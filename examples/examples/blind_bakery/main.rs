//! A bakery's production plan (five products, customers' orders for a day, the trays baked, deliveries and their
//! invoices, the bakehouse's plan for the oven and two services over the network), split over nine files as an app
//! developer would write it, with ordinary mistakes that were not planted with `explain` in mind: a blind test of
//! whether one `explain` call over MCP names the faulty line, written by a tester who had not read how `explain`
//! diagnoses.
//!
//! The bakery: its range is added when it opens on day 1, a Tuesday (initial commands of `Mvu::with_commands`). A
//! customer orders pieces of a product for a day (`order`: refused with a notice for a day gone by, or without the
//! product's notice: a sourdough or a rye loaf needs a day's), an order can be cancelled (`cancel`), trays come out
//! of the oven (`bake`), a customer's orders of the day are delivered (`deliver`: the goods, with a volume discount
//! on a large line, and the delivery fee for a small delivery, are invoiced as commands), and the day ends
//! (`close_day`). Derived: what is left to bake, today's open orders, the flour they take, the revenue and notices;
//! the bakehouse's plan, a keyed collection (`ranvier::collection`) with each product's trays still to bake as a row
//! memo and views over it (the products short, from a `count_by`; the oven's run, hottest first, from a `sort_by`;
//! the oven's time); and from two services over the network, as async memos: today's flour at the mill's prices, and
//! the van's stops, nearest first (a route planner).
//!
//! Files: `model.rs` (the types, the messages, hand-written `Default`s), `update.rs` (`update`, with commands),
//! `recipes.rs` and `pricing.rs` (helpers), `graph.rs` (the `#[expose]` app, the `#[node]` builder, today's lists),
//! `oven.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs` (the
//! services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_BAKERY_SLIP=<key>`) runs the bakery with that one mistake; without it the
//! bakery is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_BAKERY_SLIP=<key> ranvier-mcp call target/debug/examples/blind_bakery explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_bakery -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the bakery serves MCP over stdio.
//!
//! The first scored run (`--report`, on 2026-12-05, before any change made for the set): "7 of 13 named in one
//! call; 6 within the first 400 characters of the answer; median answer 687 characters". Within the 400 characters
//! (from the answer's start): `volume_discount` at 265, `left_swapped` at 98, `orders_peek` at 161, `short_count` at
//! 14, `bake_order` at 295, `stops_default` at 155; `flour_field` named at 419, past them. Not named: `fee_default`,
//! `lead_time`, `bake_trays`, `delivery_fee`, `tray_ceil`, `flour_cost`.
//!
//! After: a settled future is quoted by the assignments of the `let mut` it returns: `flour_cost` at 233; "8 of 13
//! named in one call; 7 within the first 400 characters of the answer; median answer 687 characters".
//! Then the memos a collection makes per row that the explained node reads are quoted by the lines that make the
//! latest one's value: `tray_ceil` at 258; "9 of 13 named in one call; 8 within the first 400 characters of the
//! answer; median answer 687 characters".
//! Then the latest message an `update` refused is quoted first, by the branches that refused it: `lead_time` at
//! 264; "10 of 13 named in one call; 9 within the first 400 characters of the answer; median answer 687 characters".
//! Then a helper whose value is only a `format!` is quoted after the helpers that computed: `flour_field` at 346;
//! "10 of 13 named in one call; 10 within the first 400 characters of the answer; median answer 687 characters".
//! Then a value an `update` worked out and only told, beside one it sent in a field the cone reads, is quoted first
//! with the statement that built the commands: `delivery_fee` at 238; "11 of 13 named in one call; 11 within the
//! first 400 characters of the answer; median answer 687 characters".
//! Then a struct literal an `update` wrote is quoted with the field it set from the message's argument of another
//! name, that message's lines before the node's body: `bake_trays` at 218; "12 of 13 named in one call; 12 within the
//! first 400 characters of the answer; median answer 687 characters".

use ranvier_examples::harness;

pub mod graph;
pub mod model;
pub mod oven;
pub mod pricing;
pub mod recipes;
pub mod remote;
pub mod services;
pub mod update;

use graph::{BakeryApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the bakery that has it.
pub const SLIPS: [(&str, &str, Slip); 13] = [
    (
        "fee_default",
        "a hand-written `Default` gives a threshold in euros where cents are meant (a wrong unit)",
        Slip::FeeDefault,
    ),
    (
        "lead_time",
        "`<=` for `<` in a rule of another module, called through a fn value: an order with enough notice is refused",
        Slip::LeadTime,
    ),
    (
        "flour_field",
        "the wrong field (`dough_grams` for `flour_grams`) in a helper passed to a memo as a fn value",
        Slip::FlourField,
    ),
    (
        "volume_discount",
        "`>` for `>=` at a threshold in a pricing helper called through a fn value from `update`",
        Slip::VolumeDiscount,
    ),
    (
        "bake_trays",
        "a wrong unit in an `update` helper: trays recorded as pieces",
        Slip::BakeTrays,
    ),
    (
        "delivery_fee",
        "a missing command: the delivery fee is worked out and told, but never invoiced",
        Slip::DeliveryFee,
    ),
    (
        "left_swapped",
        "the operands of a `saturating_sub` swapped in a long memo",
        Slip::LeftSwapped,
    ),
    (
        "orders_peek",
        "a stale read: `peek_model` in a memo, so it misses the day moving on",
        Slip::OrdersPeek,
    ),
    (
        "tray_ceil",
        "integer division rounding down where a part-filled tray counts, in a row factory's memo",
        Slip::TrayCeil,
    ),
    (
        "short_count",
        "`<=` for `<` in a `count_by` view: products with nothing to bake count as short",
        Slip::ShortCount,
    ),
    (
        "bake_order",
        "the wrong field (`bake_minutes` for `temperature`) as a `sort_by` view's key",
        Slip::BakeOrder,
    ),
    (
        "flour_cost",
        "a wrong unit in an async memo's future: grams over 100 where over 1000 is meant",
        Slip::FlourCost,
    ),
    (
        "stops_default",
        "a wrong default on failure in an async memo's future: an unknown address counts as 0 minutes away",
        Slip::StopsDefault,
    ),
];

/// What the graph thread keeps: the bakery and its exposure.
pub type BakeryHost = harness::ExposedHost<BakeryApp>;

/// Starts the bakery with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_bakery(slip: Slip) -> Result<BakeryHost, HostError> {
    harness::start_exposed(move || graph::bakery_app(slip))
}

/// The bakery with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::bakery_app(slip), "blind-bakery")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the bakery, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("recipes.rs", include_str!("recipes.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("oven.rs", include_str!("oven.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the bakery holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the bakery")
}

fn order(customer: &str, product: &str, pieces: u32, day: u32) -> Value {
    msg(
        "order",
        json!({"customer": customer, "product": product, "pieces": pieces, "day": day}),
    )
}
fn bake(product: &str, trays: u32) -> Value {
    msg("bake", json!({"product": product, "trays": trays}))
}
fn deliver(customer: &str) -> Value {
    msg("deliver", json!({ "customer": customer }))
}
fn close_day() -> Value {
    msg("close_day", json!({}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the bakery opens on day 1; baguette BAG 1.20 a piece, 12 a tray, 25 min at 250°C, 160 g of wheat
/// flour; croissant CRO 1.50, 20 a tray, 18 min at 190°C; sourdough SOU 4.50, a day's notice; rye loaf RYE 4.00, a
/// day's notice; bun BUN 0.60, 30 a tray, 15 min at 200°C; 10% off a line of 50 pieces or more; delivery 5.00 below
/// 30.00 of goods; the oven takes 4 trays at once; wheat flour 0.95 a kilogram at the mill).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // ten baguettes delivered: 12.00, below 30.00, so 5.00 delivery: 17.00; shows 12.00
        "fee_default" => (
            "revenue",
            json!([order("Kiosk Sud", "BAG", 10, 1), deliver("Kiosk Sud")]),
        ),
        // sourdough for tomorrow, ordered today, is a day's notice: open tomorrow; shows nothing (refused)
        "lead_time" => (
            "open_orders",
            json!([order("Hotel Ost", "SOU", 16, 2), close_day()]),
        ),
        // 24 baguettes take 24 x 160 g = 3.84 kg of flour; shows 6.48 kg
        "flour_field" => ("flour_kg", json!([order("Cafe Nord", "BAG", 24, 1)])),
        // 50 buns: 30.00 less 10% = 27.00, plus 5.00 delivery: 32.00; shows 30.00
        "volume_discount" => (
            "revenue",
            json!([order("Hotel Ost", "BUN", 50, 1), deliver("Hotel Ost")]),
        ),
        // 30 baguettes ordered, two trays (24) baked: 6 left; shows 28 left
        "bake_trays" => (
            "to_bake",
            json!([order("Cafe Nord", "BAG", 30, 1), bake("BAG", 2)]),
        ),
        // twelve buns: 7.20, plus 5.00 delivery: 12.20; shows 7.20
        "delivery_fee" => (
            "revenue",
            json!([order("Kiosk Sud", "BUN", 12, 1), deliver("Kiosk Sud")]),
        ),
        // 24 baguettes and 20 croissants to bake; shows nothing
        "left_swapped" => (
            "to_bake",
            json!([
                order("Cafe Nord", "BAG", 24, 1),
                order("Kiosk Sud", "CRO", 20, 1)
            ]),
        ),
        // baguettes ordered for tomorrow: once the day closes they are open; shows nothing
        "orders_peek" => (
            "open_orders",
            json!([order("Cafe Nord", "BAG", 24, 2), close_day()]),
        ),
        // 30 baguettes fill three trays (12, 12, 6); shows two
        "tray_ceil" => ("oven_time", json!([order("Cafe Nord", "BAG", 30, 1)])),
        // every baguette ordered is baked: none short; shows five
        "short_count" => (
            "short",
            json!([order("Cafe Nord", "BAG", 24, 1), bake("BAG", 2)]),
        ),
        // hottest first: baguettes (250), buns (200), croissants (190); shows croissants before buns
        "bake_order" => (
            "oven_run",
            json!([
                order("Cafe Nord", "BAG", 24, 1),
                order("Kiosk Sud", "CRO", 20, 1),
                order("Hotel Ost", "BUN", 30, 1)
            ]),
        ),
        // 3.84 kg of wheat flour at 0.95: 3.64; shows 36.48
        "flour_cost" => ("flour_cost", json!([order("Cafe Nord", "BAG", 24, 1)])),
        // Cafe Nord 12 min away, Deli West unknown to the planner, last; shows Deli West first at 0 min
        "stops_default" => (
            "stops",
            json!([
                order("Cafe Nord", "BAG", 24, 1),
                order("Deli West", "CRO", 20, 1)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct bakery after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "fee_default" => json!(1700),
        "lead_time" => json!(["#1 Hotel Ost: 16 SOU"]),
        "flour_field" => json!("3.84 kg"),
        "volume_discount" => json!(3200),
        "bake_trays" => json!(["baguette: 6 (1 tray)"]),
        "delivery_fee" => json!(1220),
        "left_swapped" => json!(["baguette: 24 (2 trays)", "croissant: 20 (1 tray)"]),
        "orders_peek" => json!(["#1 Cafe Nord: 24 BAG"]),
        "tray_ceil" => json!("3 trays, 25 min"),
        "short_count" => json!(0),
        "bake_order" => json!(["BAG 250C x2", "BUN 200C x1", "CRO 190C x1"]),
        "flour_cost" => json!("3.64"),
        "stops_default" => json!(["Cafe Nord: 12 min", "Deli West: no address, phone them"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a bakery started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the bakery does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_bakery(slip)?, node, messages).await
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
const STARTS: [fn() -> Result<Started, HostError>; 13] = [
    || start(Slip::FeeDefault),
    || start(Slip::LeadTime),
    || start(Slip::FlourField),
    || start(Slip::VolumeDiscount),
    || start(Slip::BakeTrays),
    || start(Slip::DeliveryFee),
    || start(Slip::LeftSwapped),
    || start(Slip::OrdersPeek),
    || start(Slip::TrayCeil),
    || start(Slip::ShortCount),
    || start(Slip::BakeOrder),
    || start(Slip::FlourCost),
    || start(Slip::StopsDefault),
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
                "blind_bakery: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_BAKERY_SLIP", &SLIPS, Slip::None)?;
        let host = start_bakery(slip)?;
        let options = McpAdapterOptions::new("blind-bakery", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_bakery: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_bakery: {error}");
        std::process::exit(1);
    }
}
