//! A blind set: a coffee roastery, written as an ordinary app split over ten files, with twelve ordinary mistakes to
//! find, one at a time, with `explain`.
//!
//! The roastery buys green coffee by the 60 kg sack and keeps it by origin; it schedules roast batches of at most
//! 12 kg (a light roast loses 15% of its weight, a medium 17%, a dark 20%) and plans each morning at the roaster;
//! it sells 250 g and 1 kg bags at retail, kilo bags by the case on wholesale tiers, and subscriptions that ship every
//! one, two or four weeks; it buys an origin again when its free stock falls below its reorder point. A day counter
//! moves on with `advance`, which roasts the batches of the days that passed and places the subscriptions due (two
//! commands). Two services answer later: the green-coffee market's prices (what the reorder list costs) and the
//! courier's rates (by zone and weight band, for the open orders).
//!
//! Files: `model.rs` (the model, the messages, the rule table, a hand-written `Default` and `PartialEq`),
//! `update.rs` (`update` with its helpers, Elmish with commands), `roasting.rs` (the roast loss and the day's plan at
//! the roaster), `pricing.rs` (retail and wholesale prices), `stock.rs` (the reorder list), `orders.rs` (the orders as
//! a keyed collection with a row memo and views), `graph.rs` (the `#[expose]` app and its builder), `services.rs`
//! (the async memos), `remote.rs` (the simulated services) and this file (the harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_roastery` serves the correct app over MCP on
//! stdio; `--slip KEY` (or `BLIND_ROASTERY_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's
//! faulty line and the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where
//! the answer names the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build
//! (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod graph;
pub mod model;
pub mod orders;
pub mod pricing;
pub mod remote;
pub mod roasting;
pub mod services;
pub mod stock;
pub mod update;

use graph::{SetApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "reorder_whole_sacks",
        "async memo: rounds the sacks down instead of up",
        Slip::ReorderWholeSacks,
    ),
    (
        "courier_swapped_args",
        "async memo: swapped arguments",
        Slip::CourierSwappedArgs,
    ),
    (
        "subscription_discount_field",
        "row memo: wrong field",
        Slip::SubscriptionDiscountField,
    ),
    (
        "open_orders_filter",
        "collection view: filter inverted",
        Slip::OpenOrdersFilter,
    ),
    ("advance_days", "update: `=` for `+=`", Slip::AdvanceDays),
    (
        "subscription_due_day",
        "update helper: `<` for `<=`",
        Slip::SubscriptionDueDay,
    ),
    (
        "roasted_weight",
        "rule fn (memo and update): the loss for what is left",
        Slip::RoastedWeight,
    ),
    (
        "wholesale_tier",
        "rule fn (row memo): `>` for `>=` at a tier boundary",
        Slip::WholesaleTier,
    ),
    (
        "reorder_stops_early",
        "long memo: `break` for `continue`",
        Slip::ReorderStopsEarly,
    ),
    (
        "schedule_exact_lot",
        "long memo: `<=` for `<`",
        Slip::ScheduleExactLot,
    ),
    (
        "dark_roast_minutes",
        "model method: two roasts in one arm",
        Slip::DarkRoastMinutes,
    ),
    (
        "opening_reorder_point",
        "Default: grams where kilos are meant",
        Slip::OpeningReorderPoint,
    ),
];

/// The app on its graph thread, exposed.
pub type SetHost = harness::ExposedHost<SetApp>;

/// Starts the app with `slip`, exposed, on a graph thread of its own.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_set(slip: Slip) -> Result<SetHost, HostError> {
    harness::start_exposed(move || graph::set_app(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::set_app(slip), "blind-roastery")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("roasting.rs", include_str!("roasting.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("stock.rs", include_str!("stock.rs")),
    ("orders.rs", include_str!("orders.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the roastery")
}

fn schedule(origin: &str, roast: &str, kg: u32, day: u32) -> Value {
    msg(
        "schedule",
        json!({ "origin": origin, "roast": roast, "kg": kg, "day": day }),
    )
}

fn order(customer: &str, origin: &str, bag: &str, qty: u32, zone: &str) -> Value {
    msg(
        "place_order",
        json!({ "customer": customer, "origin": origin, "bag": bag, "qty": qty, "zone": zone }),
    )
}

fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "reorder_whole_sacks" => (
            "reorder_cost",
            json!([schedule("ethiopia", "medium", 40, 0)]),
        ),
        "courier_swapped_args" => (
            "courier",
            json!([order("Ann", "ethiopia", "250g", 2, "domestic")]),
        ),
        "subscription_discount_field" => (
            "orders",
            json!([order("Cafe Nord", "colombia", "1kg", 6, "domestic")]),
        ),
        "open_orders_filter" => (
            "open_orders",
            json!([
                schedule("ethiopia", "light", 12, 0),
                advance(1),
                order("Cafe Nord", "ethiopia", "1kg", 2, "domestic"),
                order("Ann", "ethiopia", "250g", 1, "europe"),
                msg("ship", json!({ "id": 2 })),
            ]),
        ),
        "advance_days" => ("day", json!([advance(2), advance(3)])),
        "subscription_due_day" => (
            "open_orders",
            json!([
                msg(
                    "subscribe",
                    json!({ "customer": "Bo", "origin": "ethiopia", "bag": "250g", "every_weeks": 1 }),
                ),
                advance(7),
            ]),
        ),
        "roasted_weight" => (
            "roasted",
            json!([schedule("brazil", "dark", 10, 0), advance(1)]),
        ),
        "wholesale_tier" => (
            "orders",
            json!([order("Hotel Lind", "brazil", "1kg", 10, "domestic")]),
        ),
        "reorder_stops_early" => ("reorder", json!([schedule("brazil", "medium", 45, 0)])),
        "schedule_exact_lot" => ("schedule", json!([schedule("ethiopia", "light", 60, 0)])),
        "dark_roast_minutes" => ("schedule", json!([schedule("colombia", "dark", 24, 0)])),
        "opening_reorder_point" => (
            "reorder",
            json!([order("Ann", "colombia", "250g", 1, "domestic")]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        "reorder_whole_sacks" => json!(46800),
        "courier_swapped_args" => json!(750),
        "subscription_discount_field" => json!([{
            "key": 1, "id": 1, "customer": "Cafe Nord", "origin": "colombia", "bag": "1kg", "qty": 6,
            "wholesale": true, "subscription": false, "zone": "domestic", "placed": 0, "shipped": false,
            "price": 15600
        }]),
        "open_orders_filter" => json!([3]),
        "advance_days" => json!(5),
        "subscription_due_day" => json!([1]),
        "roasted_weight" => json!([{ "origin": "brazil", "grams": 8000 }]),
        "wholesale_tier" => json!([{
            "key": 1, "id": 1, "customer": "Hotel Lind", "origin": "brazil", "bag": "1kg", "qty": 10,
            "wholesale": true, "subscription": false, "zone": "domestic", "placed": 0, "shipped": false,
            "price": 23000
        }]),
        "reorder_stops_early" => json!([{ "origin": "brazil", "short_g": 5000 }]),
        "schedule_exact_lot" => json!({
            "day": 0,
            "batches": ["ethiopia #1", "ethiopia #2", "ethiopia #3", "ethiopia #4", "ethiopia #5"],
            "minutes": 120, "out_g": 51000, "later": [], "short": []
        }),
        "dark_roast_minutes" => json!({
            "day": 0, "batches": ["colombia #1", "colombia #2"], "minutes": 56, "out_g": 19200,
            "later": [], "short": []
        }),
        "opening_reorder_point" => json!([]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` after `messages` and the flights they started settled, in a fresh app with `slip`.
///
/// # Errors
///
/// When the app does not start, a message is refused, a flight does not settle or there is no such node.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_set(slip)?, node, messages).await
}

/// Every mistake as a shape for the report.
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
    || start(Slip::ReorderWholeSacks),
    || start(Slip::CourierSwappedArgs),
    || start(Slip::SubscriptionDiscountField),
    || start(Slip::OpenOrdersFilter),
    || start(Slip::AdvanceDays),
    || start(Slip::SubscriptionDueDay),
    || start(Slip::RoastedWeight),
    || start(Slip::WholesaleTier),
    || start(Slip::ReorderStopsEarly),
    || start(Slip::ScheduleExactLot),
    || start(Slip::DarkRoastMinutes),
    || start(Slip::OpeningReorderPoint),
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
                "blind_roastery: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_ROASTERY_SLIP", &SLIPS, Slip::None)?;
        let host = start_set(slip)?;
        let options = McpAdapterOptions::new("blind-roastery", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_roastery: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_roastery: {error}");
        std::process::exit(1);
    }
}
