//! A blind set: a coach tour operator, written as an ordinary app split over ten files, with twelve ordinary mistakes
//! to find, one at a time, with `explain`.
//!
//! The operator runs day and multi-day coach tours, each on a coach of so many seats. Parties book by age band
//! (child, adult, senior) and pay fares with a group discount and, on multi-day tours, a supplement for a room of
//! their own; a party that does not fit waits, and a cancellation (refunded less as the departure nears) promotes the
//! waiting parties that now fit. Drivers log their hours, limited a day, and need a rest day after several days in a
//! row; a day counter moves on with `advance`. The app computes each tour's load, the full and multi-day tours, the
//! order of departures, the boarding list of the next departure and the drivers' roster; a fuel supplier answers
//! later with the day's diesel price (the fuel surcharge) and a hotel with the room blocks of multi-day tours.
//!
//! Files: `model.rs` (the model, the messages, a hand-written `Default`), `update.rs` (`update` with its helpers,
//! Elmish with commands), `fares.rs` (fares, group discount, refunds), `drivers.rs` (hours and the roster),
//! `seating.rs` (the boarding list and the waiting passengers), `tours.rs` (the tours as a keyed collection with a row
//! memo and views), `graph.rs` (the `#[expose]` app and its builder), `services.rs` (the async memos), `remote.rs`
//! (the simulated services) and this file (the harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_coach` serves the correct app over MCP on stdio;
//! `--slip KEY` (or `BLIND_COACH_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's faulty line and
//! the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where the answer names
//! the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod drivers;
pub mod fares;
pub mod graph;
pub mod model;
pub mod remote;
pub mod seating;
pub mod services;
pub mod tours;
pub mod update;

use graph::{SetApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "fuel_total",
        "async memo: `=` for `+=` in the future",
        Slip::FuelTotal,
    ),
    (
        "room_count",
        "async memo: `/ 2` rounds the rooms down in the future",
        Slip::RoomCount,
    ),
    (
        "load_percent",
        "row memo: integer division before the multiplication",
        Slip::LoadPercent,
    ),
    (
        "full_filter",
        "view: `>` for `>=` in a filter",
        Slip::FullFilter,
    ),
    (
        "promote_fit",
        "update helper: `<` for `<=`",
        Slip::PromoteFit,
    ),
    (
        "refund_days",
        "update helper: swapped operands",
        Slip::RefundDays,
    ),
    (
        "group_discount",
        "rule (memo and update): `>` for `>=`",
        Slip::GroupDiscount,
    ),
    (
        "hours_today",
        "rule: `<=` for `==` in a filter",
        Slip::HoursToday,
    ),
    (
        "driving_limit",
        "long memo: wrong constant as the default",
        Slip::DrivingLimit,
    ),
    (
        "boarding_today",
        "long memo: `<=` for `<` skips today's tour",
        Slip::BoardingToday,
    ),
    ("party_size", "model method: wrong field", Slip::PartySize),
    (
        "default_day",
        "Default: wrong starting value",
        Slip::DefaultDay,
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
    harness::start_shape(move || graph::set_app(slip), "blind-coach")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("fares.rs", include_str!("fares.rs")),
    ("drivers.rs", include_str!("drivers.rs")),
    ("seating.rs", include_str!("seating.rs")),
    ("tours.rs", include_str!("tours.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the coach operator")
}

fn tour(code: &str, days: u32, depart_day: u32, seats: u32, adult_fare: u64, km: u32) -> Value {
    msg(
        "add_tour",
        json!({ "code": code, "name": format!("{code} tour"), "days": days, "depart_day": depart_day,
                "seats": seats, "adult_fare": adult_fare, "km": km }),
    )
}

fn book(code: &str, lead: &str, children: u32, adults: u32, seniors: u32, singles: u32) -> Value {
    msg(
        "book",
        json!({ "code": code, "lead": lead, "children": children, "adults": adults, "seniors": seniors,
                "singles": singles }),
    )
}

fn cancel(code: &str, id: u32) -> Value {
    msg("cancel", json!({ "code": code, "id": id }))
}

fn drive(name: &str, hours: u32) -> Value {
    msg("drive", json!({ "name": name, "hours": hours }))
}

fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

fn pickup(code: &str, stop: &str, minute: u32) -> Value {
    msg(
        "add_pickup",
        json!({ "code": code, "stop": stop, "minute": minute }),
    )
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "fuel_total" => (
            "fuel",
            json!([
                tour("YRK", 1, 5, 40, 3_000, 500),
                tour("WHT", 1, 6, 40, 2_800, 300),
                book("YRK", "Ann", 0, 2, 0, 0),
                book("WHT", "Bea", 0, 2, 0, 0)
            ]),
        ),
        "room_count" => (
            "rooms",
            json!([
                tour("SKY", 3, 10, 40, 20_000, 900),
                book("SKY", "Cal", 0, 3, 0, 0)
            ]),
        ),
        "load_percent" => (
            "loads",
            json!([
                tour("BTH", 1, 4, 4, 1_000, 200),
                book("BTH", "Dan", 0, 2, 0, 0)
            ]),
        ),
        "full_filter" => (
            "full_tours",
            json!([
                tour("BTH", 1, 4, 4, 1_000, 200),
                book("BTH", "Eve", 1, 2, 1, 0)
            ]),
        ),
        "promote_fit" => (
            "waiting",
            json!([
                tour("BTH", 1, 4, 4, 1_000, 200),
                book("BTH", "Fay", 0, 2, 0, 0),
                book("BTH", "Gus", 0, 2, 0, 0),
                book("BTH", "Hal", 0, 2, 0, 0),
                cancel("BTH", 1)
            ]),
        ),
        "refund_days" => (
            "refunded",
            json!([
                tour("CHS", 1, 40, 40, 1_000, 250),
                book("CHS", "Ivy", 0, 1, 0, 0),
                cancel("CHS", 1)
            ]),
        ),
        "group_discount" => (
            "loads",
            json!([
                tour("OXF", 1, 3, 20, 100, 150),
                book("OXF", "Jon", 0, 10, 0, 0)
            ]),
        ),
        "hours_today" => (
            "roster",
            json!([drive("Ann", 5), advance(1), drive("Ann", 3)]),
        ),
        "driving_limit" => ("roster", json!([drive("Ann", 5)])),
        "boarding_today" => (
            "boarding",
            json!([
                tour("LDS", 1, 1, 40, 1_500, 120),
                pickup("LDS", "Leeds", 30),
                book("LDS", "Kim", 0, 2, 0, 0)
            ]),
        ),
        "party_size" => (
            "waiting",
            json!([
                tour("BTH", 1, 4, 2, 1_000, 200),
                book("BTH", "Lou", 0, 2, 0, 0),
                book("BTH", "May", 1, 0, 2, 0)
            ]),
        ),
        "default_day" => (
            "refunded",
            json!([
                tour("CHS", 1, 7, 40, 1_000, 250),
                book("CHS", "Ned", 0, 1, 0, 0),
                cancel("CHS", 1)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        "fuel_total" => json!(1680),
        "room_count" => json!([{"code": "SKY", "rooms": 2, "nights": 2, "confirmed": 2}]),
        "load_percent" => json!([
            {"code": "BTH", "taken": 2, "free": 2, "percent": 50, "waiting": 0, "takings": 2000}
        ]),
        "full_filter" => json!(1),
        "promote_fit" => json!(0),
        "refund_days" => json!(1000),
        "group_discount" => json!([
            {"code": "OXF", "taken": 10, "free": 10, "percent": 50, "waiting": 0, "takings": 900}
        ]),
        "hours_today" => json!([
            {"name": "Ann", "hours": 3, "left": 6, "run": 2, "status": "available"},
            {"name": "Bob", "hours": 0, "left": 8, "run": 0, "status": "available"}
        ]),
        "driving_limit" => json!([
            {"name": "Ann", "hours": 5, "left": 4, "run": 1, "status": "available"},
            {"name": "Bob", "hours": 0, "left": 8, "run": 0, "status": "available"}
        ]),
        "boarding_today" => json!(["day 1: LDS (2 aboard)", "08:00 Leeds"]),
        "party_size" => json!(3),
        "default_day" => json!(0),
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
    || start(Slip::FuelTotal),
    || start(Slip::RoomCount),
    || start(Slip::LoadPercent),
    || start(Slip::FullFilter),
    || start(Slip::PromoteFit),
    || start(Slip::RefundDays),
    || start(Slip::GroupDiscount),
    || start(Slip::HoursToday),
    || start(Slip::DrivingLimit),
    || start(Slip::BoardingToday),
    || start(Slip::PartySize),
    || start(Slip::DefaultDay),
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
                "blind_coach: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_COACH_SLIP", &SLIPS, Slip::None)?;
        let host = start_set(slip)?;
        let options = McpAdapterOptions::new("blind-coach", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_coach: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_coach: {error}");
        std::process::exit(1);
    }
}
