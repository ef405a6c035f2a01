//! A ferry terminal's booking desk (today's sailings between Oban, Craignure and Lismore, a passenger certificate and
//! a car deck measured in lane metres on each boat, bookings on foot or with a car, a van or a motorcycle, fares by
//! season with children's and seniors' concessions and a cabin, the harbour's port fee, check-in closing before each
//! departure, standby lists, weather delays and cancellations that move the bookings to the next sailing, the day's
//! manifest and takings, and two services over the network), split over ten files as an app developer would write
//! it, with ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call
//! over MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The terminal: the desk opens at 06:00 on 19 July (the peak season) with six sailings: 07:00, 10:00 Oban→Craignure
//! and 08:30, 11:30 Craignure→Oban on the big ship (120 passengers, 60 lane metres), 09:15 and 13:15 Oban→Lismore on
//! the small boat (40 passengers, 20 lane metres). The desk books parties (`book`: adults, children and seniors, on
//! foot or with a vehicle of a given length, a cabin; an adult pays £12.50, a child half, a senior 70 per cent, a car
//! £8 a lane metre begun, a van £10, a motorcycle £15 flat, a cabin £35, and £1.20 port fee a passenger on top); a
//! party that does not fit the seats or the deck (a vehicle takes its length and half a metre) goes on standby. A
//! party checks in (`check_in`) until 40 minutes before its sailing leaves with a vehicle, 15 on foot; cancels
//! (`cancel`: 80 per cent refunded, and the place goes to the standby list, a `Promote` command). The weather delays
//! a sailing (`delay`, adding to its delay); more than 90 minutes late it is cancelled (a `CancelSailing` command) and
//! its bookings move to the next sailing on the route, confirmed as they fit. `advance` moves the clock. Derived: the
//! clock; the sailings, a keyed collection (`ranvier::collection`) with each sailing's load line as a row memo and
//! views over it (the departures in the order they leave, from a `sort_by`; the sailings still open for booking, a
//! `filter`; how many have a standby list, a `count_by`); the standby list, the bookings with their fares, the
//! bookings still to check in, the manifest, the takings and the notices; and from two services over the network, as
//! async memos: the harbour dues each sailing owes its port of departure, and the wind warnings for the sailings with
//! bookings.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, methods on the model's types), `update.rs`
//! (`update`, its helpers, with commands), `tariffs.rs` (the fares), `limits.rs` (the seats and the deck), `rules.rs`
//! (check-in, delays, the next sailing, the wind), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the longer
//! memos), `sailings.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs`
//! (the services).
//!
//! The mistakes: an accumulator not reset per sailing, and a `return` for a `continue`, in the async memos' futures;
//! swapped operands in the row memo and the wrong sort key in the `sort_by` view; the wrong field in a command and `=`
//! for `+=` in `update`'s helpers; a truncating division in the tariff, the wrong unit in the deck's limit and a
//! wrong match arm in the check-in rule; a missing condition and a wrong operator in two long memos; the wrong
//! default in a model method.
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_FERRY_SLIP=<key>`) runs the terminal with that one mistake; without it the
//! terminal is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments
//! that show it (`BLIND_FERRY_SLIP=<key> ranvier-mcp call target/debug/examples/blind_ferry explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_ferry -- --report` (a debug build: only traced builds list `explain`) prints, per
//! mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the terminal serves MCP over stdio.

use ranvier_examples::harness;

pub mod graph;
pub mod limits;
pub mod model;
pub mod remote;
pub mod rules;
pub mod sailings;
pub mod services;
pub mod tariffs;
pub mod update;

use graph::{FerryTerminal, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the terminal that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "dues_total",
        "an accumulator declared outside the loop in an async memo's future: each sailing is quoted the passengers of \
         the sailings before it too",
        Slip::DuesTotal,
    ),
    (
        "calm_crossing",
        "a `return` for a `continue` in an async memo's future: a calm sailing ends the search for windy ones",
        Slip::CalmCrossing,
    ),
    (
        "seats_left",
        "swapped operands in a row factory's memo: the passengers less the seats, so every sailing reads full",
        Slip::SeatsLeft,
    ),
    (
        "board_order",
        "the wrong sort key in a `sort_by` view: the timetabled time, not the delayed one",
        Slip::BoardOrder,
    ),
    (
        "promote_sailing",
        "the wrong field in a command an `update` helper sends: the booking's reference as the sailing to promote",
        Slip::PromoteSailing,
    ),
    (
        "delay_adds",
        "`=` for `+=` in an `update` helper: a second delay replaces the first instead of adding to it",
        Slip::DelayAdds,
    ),
    (
        "metre_rounding",
        "a truncating division in a rule `update` calls: a vehicle pays for whole metres, not every metre begun",
        Slip::MetreRounding,
    ),
    (
        "deck_units",
        "a wrong unit in a rule `update` calls: the deck's lane metres times ten, not a hundred, against centimetres",
        Slip::DeckUnits,
    ),
    (
        "checkin_arms",
        "a wrong match arm in a rule a memo calls: motorcycles check in with the foot passengers",
        Slip::CheckinArms,
    ),
    (
        "manifest_standby",
        "a missing condition in a long memo: the standby bookings are counted on the manifest",
        Slip::ManifestStandby,
    ),
    (
        "net_takings",
        "a wrong operator in a long memo: the refunds are added to what the operator keeps",
        Slip::NetTakings,
    ),
    (
        "foot_gap",
        "a wrong default in a model type's method: a party on foot takes a vehicle's gap on the deck",
        Slip::FootGap,
    ),
];

/// What the graph thread keeps: the terminal and its exposure.
pub type FerryHost = harness::ExposedHost<FerryTerminal>;

/// Starts the terminal with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_ferry(slip: Slip) -> Result<FerryHost, HostError> {
    harness::start_exposed(move || graph::ferry_terminal(slip))
}

/// The terminal with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::ferry_terminal(slip), "blind-ferry")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the terminal, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("tariffs.rs", include_str!("tariffs.rs")),
    ("limits.rs", include_str!("limits.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("sailings.rs", include_str!("sailings.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the terminal holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the ferry terminal")
}

/// A party on foot.
fn book(name: &str, sailing: u32, adults: u32, children: u32) -> Value {
    msg(
        "book",
        json!({"name": name, "sailing": sailing, "adults": adults, "children": children, "seniors": 0,
               "vehicle": null, "length_cm": null, "cabin": false}),
    )
}
/// A party of `adults` with a vehicle `length_cm` long.
fn book_vehicle(name: &str, sailing: u32, adults: u32, vehicle: &str, length_cm: u32) -> Value {
    msg(
        "book",
        json!({"name": name, "sailing": sailing, "adults": adults, "children": 0, "seniors": 0,
               "vehicle": vehicle, "length_cm": length_cm, "cabin": false}),
    )
}
/// A party of `adults` on foot with a cabin.
fn book_cabin(name: &str, sailing: u32, adults: u32) -> Value {
    msg(
        "book",
        json!({"name": name, "sailing": sailing, "adults": adults, "children": 0, "seniors": 0,
               "vehicle": null, "length_cm": null, "cabin": true}),
    )
}
fn check_in(reference: u32) -> Value {
    msg("check_in", json!({ "reference": reference }))
}
fn cancel(reference: u32) -> Value {
    msg("cancel", json!({ "reference": reference }))
}
fn delay(sailing: u32, minutes: u32) -> Value {
    msg("delay", json!({"sailing": sailing, "minutes": minutes}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). The desk opens at 06:00 on day 200 (peak): sailings 1 07:00 Oban→Craignure, 2 08:30
/// Craignure→Oban, 4 10:00 Oban→Craignure and 5 11:30 Craignure→Oban on the big ship (120 seats, 60 lane metres), 3
/// 09:15 and 6 13:15 Oban→Lismore on the small boat (40 seats, 20 lane metres); the first booking is 1001.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Oban is owed for the 07:00's two passengers, Craignure for the 08:30's three; shows five on the 08:30
        "dues_total" => (
            "harbour_dues",
            json!([book("Ross", 1, 2, 0), book("MacLeod", 2, 3, 0)]),
        ),
        // the 07:00 to Craignure sails in 22 knots, the 09:15 to Lismore is forecast 34, over its boat's 30: one
        // warning; shows none
        "calm_crossing" => (
            "wind_warnings",
            json!([book("Ross", 1, 2, 0), book("Lorn Scouts", 3, 1, 10)]),
        ),
        // two adults and a car on the 07:00: 118 seats left, the others untouched; shows every sailing full
        "seats_left" => (
            "departures",
            json!([book_vehicle("Ross", 1, 2, "car", 430)]),
        ),
        // the 08:30 delayed an hour leaves at 09:30, after the 09:15 to Lismore; shows it before
        "board_order" => ("departures", json!([delay(2, 60)])),
        // the Scouts cancel: the Appin club, on standby for the 09:15, takes their places; shows the club still waiting
        "promote_sailing" => (
            "standby",
            json!([
                book("Lorn Scouts", 3, 30, 0),
                book("Appin Club", 3, 12, 0),
                cancel(1001)
            ]),
        ),
        // two delays of half an hour: the 07:00 leaves at 08:00, Ross's car checks in by 07:20; shows 06:50
        "delay_adds" => (
            "to_check_in",
            json!([
                book_vehicle("Ross", 1, 2, "car", 430),
                delay(1, 30),
                delay(1, 30)
            ]),
        ),
        // a 4.3 m car pays five metres begun: £40 + two adults £25 = £65.00; shows £57.00
        "metre_rounding" => ("bookings", json!([book_vehicle("Ross", 1, 2, "car", 430)])),
        // a car and a van take 11.3 of the 07:00's 60 lane metres: no standby list; shows the van on standby
        "deck_units" => (
            "standby_sailings",
            json!([
                book_vehicle("Ross", 1, 2, "car", 430),
                book_vehicle("Munro", 1, 1, "van", 600)
            ]),
        ),
        // a motorcycle checks in 40 minutes before the 07:00, by 06:20; shows 06:45
        "checkin_arms" => (
            "to_check_in",
            json!([book_vehicle("Skye Bikers", 1, 1, "motorcycle", 220)]),
        ),
        // thirty Scouts sail on the 09:15, the Appin club waits on standby: 30 passengers, 1 of 1 checked in; shows
        // 42 passengers, 1 of 2
        "manifest_standby" => (
            "manifest",
            json!([
                book("Lorn Scouts", 3, 30, 0),
                book("Appin Club", 3, 12, 0),
                check_in(1001)
            ]),
        ),
        // a £60.00 booking with a cabin, cancelled and £48.00 refunded: the operator keeps £12.00; shows £108.00
        "net_takings" => ("takings", json!([book_cabin("Ross", 1, 2), cancel(1001)])),
        // two parties on foot on the 09:15 take no deck: 20.0 m left; shows 19.0 m
        "foot_gap" => (
            "departures",
            json!([book("Ross", 3, 2, 0), book("Lorn Scouts", 3, 4, 8)]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The departures' lines of the untouched sailings, in order, with `changed` in place of sailing `at`'s (from 1 in
/// the timetable's order, which is the order they leave when none is delayed).
fn departures(at: usize, changed: &str) -> Value {
    let mut lines = vec![
        "07:00 Oban→Craignure: 120 seats left, 60.0 m of deck left",
        "08:30 Craignure→Oban: 120 seats left, 60.0 m of deck left",
        "09:15 Oban→Lismore: 40 seats left, 20.0 m of deck left",
        "10:00 Oban→Craignure: 120 seats left, 60.0 m of deck left",
        "11:30 Craignure→Oban: 120 seats left, 60.0 m of deck left",
        "13:15 Oban→Lismore: 40 seats left, 20.0 m of deck left",
    ];
    lines[at - 1] = changed;
    json!(lines)
}

/// The value `key`'s node holds in the correct terminal after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "dues_total" => json!([
            "07:00 Oban→Craignure: 2 passengers, 0 vehicles: £1.70 to Oban",
            "08:30 Craignure→Oban: 3 passengers, 0 vehicles: £1.80 to Craignure"
        ]),
        "calm_crossing" => json!(["09:15 Oban→Lismore: 34 knots forecast, over the 30-knot limit"]),
        "seats_left" => departures(
            1,
            "07:00 Oban→Craignure: 118 seats left, 55.2 m of deck left",
        ),
        "board_order" => json!([
            "07:00 Oban→Craignure: 120 seats left, 60.0 m of deck left",
            "09:15 Oban→Lismore: 40 seats left, 20.0 m of deck left",
            "08:30 Craignure→Oban, delayed to 09:30: 120 seats left, 60.0 m of deck left",
            "10:00 Oban→Craignure: 120 seats left, 60.0 m of deck left",
            "11:30 Craignure→Oban: 120 seats left, 60.0 m of deck left",
            "13:15 Oban→Lismore: 40 seats left, 20.0 m of deck left"
        ]),
        "promote_sailing" => json!([]),
        "delay_adds" => {
            json!(["1001 Ross (car) for the 07:00 Oban→Craignure: check in by 07:20"])
        }
        "metre_rounding" => {
            json!(["1001 Ross, sailing 1: 2 adults, car 4.3 m: £65.00 + £2.40 port fee"])
        }
        "deck_units" => json!(0),
        "checkin_arms" => {
            json!(["1001 Skye Bikers (motorcycle) for the 07:00 Oban→Craignure: check in by 06:20"])
        }
        "manifest_standby" => json!([
            "09:15 Oban→Lismore: 30 passengers (30 adults, 0 children, 0 seniors), 0 vehicles, 0 cabins; \
             1 of 1 bookings checked in"
        ]),
        "net_takings" => json!([
            "bookings made: 1, cancelled: 1",
            "fares: £60.00 (cabins £35.00)",
            "port fees for the harbours: £0.00",
            "refunds: £48.00",
            "kept: £12.00"
        ]),
        "foot_gap" => departures(3, "09:15 Oban→Lismore: 26 seats left, 20.0 m of deck left"),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a terminal started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the terminal does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_ferry(slip)?, node, messages).await
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
    || start(Slip::DuesTotal),
    || start(Slip::CalmCrossing),
    || start(Slip::SeatsLeft),
    || start(Slip::BoardOrder),
    || start(Slip::PromoteSailing),
    || start(Slip::DelayAdds),
    || start(Slip::MetreRounding),
    || start(Slip::DeckUnits),
    || start(Slip::CheckinArms),
    || start(Slip::ManifestStandby),
    || start(Slip::NetTakings),
    || start(Slip::FootGap),
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
                "blind_ferry: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_FERRY_SLIP", &SLIPS, Slip::None)?;
        let host = start_ferry(slip)?;
        let options = McpAdapterOptions::new("blind-ferry", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_ferry: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_ferry: {error}");
        std::process::exit(1);
    }
}
