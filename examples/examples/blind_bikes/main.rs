//! A bike-rental shop's counter (rentals, returns, a price list with a day price and late fees, a fleet board and
//! two services over the network), split over eight files as an app developer would write it, with ordinary
//! mistakes that were not planted with `explain` in mind: the sixth blind test of whether one `explain` call over MCP
//! names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The counter: six bikes (city bikes, e-bikes, a kids' bike) are stocked when the shop opens at 09:00 (initial
//! commands of `Mvu::with_commands`). A customer rents a bike for a number of hours (`rent`; a bike that is out,
//! damaged or in the workshop is refused with a notice), phones to keep it longer (`extend`), and brings it back
//! (`return_bike`, with the kilometres ridden: the ride is charged per started hour, at most the day price, less 10 %
//! for club members, and a late fee per started quarter hour past the due time once past the grace, as commands; a
//! bike that has ridden its kilometres since its service goes to the workshop, a command too). Bikes are found
//! damaged (`damage`) and come back from the workshop (`repair`), and the clock moves on (`advance`). Derived: the
//! bikes ready to go out (by kind, the least ridden first), the rentals overdue, the takings and notices; the fleet
//! board, a keyed collection (`ranvier::collection`) with each bike's kilometres left before its service as a row
//! memo and views over it (bikes out, bikes in the workshop, kilometres ridden today, the bike due for its service
//! first); and from two services over the network, as async memos: the deposit the card terminal holds for the
//! latest rental, and the riders out who will be caught in the rain before they are due back.
//!
//! Files: `model.rs` (the types, the messages, hand-written `Default`s), `update.rs` (`update`, with commands),
//! `rules.rs` and `pricing.rs` (helpers), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the floor's
//! memos), `fleet.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs` (the
//! services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_BIKES_SLIP=<key>`) runs the shop with that one mistake; without it the
//! shop is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_BIKES_SLIP=<key> ranvier-mcp call target/debug/examples/blind_bikes explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_bikes -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the shop serves MCP over stdio.

use ranvier_examples::harness;

pub mod fleet;
pub mod graph;
pub mod model;
pub mod pricing;
pub mod remote;
pub mod rules;
pub mod services;
pub mod update;

use graph::{BikeShop, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the shop that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "kids_rate",
        "a hand-written `Default` copies the line above's value",
        Slip::KidsRate,
    ),
    (
        "service_after",
        "a command's condition read before the state it tests changes, so the command is not sent",
        Slip::ServiceAfter,
    ),
    (
        "day_cap",
        "`max` for `min` in a helper of another module",
        Slip::DayCap,
    ),
    (
        "late_blocks",
        "rounding up by adding one in a helper of another module",
        Slip::LateBlocks,
    ),
    (
        "extend_hours",
        "an `update` helper sets a field where it should add to it",
        Slip::ExtendHours,
    ),
    (
        "least_worn",
        "a sort comparator's operands swapped in a long memo",
        Slip::LeastWorn,
    ),
    (
        "late_shadow",
        "a shadowing `let` in a long memo changes a value used below it",
        Slip::LateShadow,
    ),
    (
        "rent_damaged",
        "a rule checks one refused case instead of the one allowed",
        Slip::RentDamaged,
    ),
    (
        "km_left_swap",
        "a row memo's `saturating_sub` operands swapped",
        Slip::KmLeftSwap,
    ),
    (
        "km_today_field",
        "a `sum_by` view sums the wrong field",
        Slip::KmTodayField,
    ),
    (
        "member_half",
        "an `if`'s branches swapped in an async memo's future",
        Slip::MemberHalf,
    ),
    (
        "rain_hour",
        "an async memo's future indexes by minutes after opening, not the hour of day",
        Slip::RainHour,
    ),
];

/// What the graph thread keeps: the shop and its exposure.
pub type ShopHost = harness::ExposedHost<BikeShop>;

/// Starts the shop with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_shop(slip: Slip) -> Result<ShopHost, HostError> {
    harness::start_exposed(move || graph::bike_shop(slip))
}

/// The shop with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::bike_shop(slip), "blind-bikes")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the shop, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("fleet.rs", include_str!("fleet.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the shop holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the shop")
}

fn rent(bike: &str, customer: &str, member: bool, hours: u32) -> Value {
    msg(
        "rent",
        json!({"bike": bike, "customer": customer, "member": member, "hours": hours}),
    )
}
fn return_bike(rental: u32, km: u32) -> Value {
    msg("return_bike", json!({"rental": rental, "km": km}))
}
fn extend(rental: u32, hours: u32) -> Value {
    msg("extend", json!({"rental": rental, "hours": hours}))
}
fn damage(bike: &str) -> Value {
    msg("damage", json!({ "bike": bike }))
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; minute 0 is 09:00; a city bike is 8.00 an hour, a kids' bike 5.00, an e-bike 15.00, at most six
/// hours; the late fee is 3.00 per started quarter hour once past 15 minutes' grace).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // the kids' bike for 90 minutes: two hours at 5.00 = 10.00; shows 16.00
        "kids_rate" => (
            "takings",
            json!([rent("k1", "Ada", false, 2), advance(90), return_bike(1, 5)]),
        ),
        // b2 came back at 107 km, past its 100: in the workshop, not on the floor; shows b2 still available
        "service_after" => (
            "available",
            json!([rent("b2", "Ada", false, 1), advance(60), return_bike(1, 12)]),
        ),
        // an e-bike for eight hours: the day price, six hours at 15.00 = 90.00; shows 120.00
        "day_cap" => (
            "takings",
            json!([
                rent("e1", "Ben", false, 8),
                advance(480),
                return_bike(1, 30)
            ]),
        ),
        // a city bike for an hour, back 30 minutes late: two hours (16.00) and two quarter hours (6.00) = 22.00;
        // shows 25.00
        "late_blocks" => (
            "takings",
            json!([rent("b1", "Cy", false, 1), advance(90), return_bike(1, 8)]),
        ),
        // Ada kept b1 two hours more (due 12:00): at 11:30 she is not late; shows her 30 minutes late
        "extend_hours" => (
            "overdue",
            json!([rent("b1", "Ada", false, 1), extend(1, 2), advance(150)]),
        ),
        // city bikes b3 (20 km), b1, b2, then e-bikes e2 (10 km), e1, then k1; shows the most ridden first
        "least_worn" => ("available", json!([advance(10)])),
        // Ada's b1 was due at 10:00; at 10:40 she is 40 minutes late; shows 25
        "late_shadow" => (
            "overdue",
            json!([rent("b1", "Ada", false, 1), advance(100)]),
        ),
        // b1 is damaged: Ada cannot take it, no bike out; shows 1
        "rent_damaged" => (
            "out_count",
            json!([damage("b1"), rent("b1", "Ada", false, 1)]),
        ),
        // b2 has 98 of its 100 km after Ada's ride: 2 km left, the first due; shows b1 with 0
        "km_left_swap" => (
            "next_service",
            json!([rent("b2", "Ada", false, 1), advance(30), return_bike(1, 3)]),
        ),
        // e2 ridden 25 km today, the only ride: 25; shows 360 (the kilometres since service of the fleet)
        "km_today_field" => (
            "km_today",
            json!([rent("e2", "Ada", false, 1), advance(60), return_bike(1, 25)]),
        ),
        // Ada, a club member, leaves half the e-bike's 200.00: 100.00; shows 200.00
        "member_half" => ("deposit", json!([rent("e1", "Ada", true, 2)])),
        // Ada has b1 from 09:00 to 12:00 and rain is likely at 11:00; shows no alert
        "rain_hour" => ("rain_alerts", json!([rent("b1", "Ada", false, 3)])),
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
        "kids_rate" => json!(1000),
        "service_after" => json!([
            "b3 city 20 km",
            "b1 city 40 km",
            "e2 ebike 10 km",
            "e1 ebike 120 km",
            "k1 kids 50 km, service soon"
        ]),
        "day_cap" => json!(9000),
        "late_blocks" => json!(2200),
        "extend_hours" => json!([]),
        "least_worn" => json!([
            "b3 city 20 km",
            "b1 city 40 km",
            "b2 city 95 km, service soon",
            "e2 ebike 10 km",
            "e1 ebike 120 km",
            "k1 kids 50 km, service soon"
        ]),
        "late_shadow" => json!(["b1 Ada: 40 min late"]),
        "rent_damaged" => json!(0),
        "km_left_swap" => json!("b2: 2 km left"),
        "km_today_field" => json!(25),
        "member_half" => json!({"customer": "Ada", "bike": "e1", "cents": 10000}),
        "rain_hour" => json!(["b1 Ada: rain likely at 11:00"]),
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
    harness::settled_in(start_shop(slip)?, node, messages).await
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
    || start(Slip::KidsRate),
    || start(Slip::ServiceAfter),
    || start(Slip::DayCap),
    || start(Slip::LateBlocks),
    || start(Slip::ExtendHours),
    || start(Slip::LeastWorn),
    || start(Slip::LateShadow),
    || start(Slip::RentDamaged),
    || start(Slip::KmLeftSwap),
    || start(Slip::KmTodayField),
    || start(Slip::MemberHalf),
    || start(Slip::RainHour),
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
                "blind_bikes: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_BIKES_SLIP", &SLIPS, Slip::None)?;
        let host = start_shop(slip)?;
        let options = McpAdapterOptions::new("blind-bikes", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_bikes: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_bikes: {error}");
        std::process::exit(1);
    }
}
