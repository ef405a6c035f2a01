//! A blind set: a driving school, written as an ordinary app split over ten files, with twelve ordinary mistakes to
//! find, one at a time, with `explain`.
//!
//! The school keeps its instructors (manual or automatic, a price per hour, a weekly limit of hours and a day off),
//! their cars (serviced every 6,000 miles), its pupils (prepaid blocks of hours, payments, scores of 1 to 5 for each
//! skill of the syllabus, theory and practical tests) and a diary of lessons of 1 or 2 hours. `advance` moves the day
//! on, and the lessons of the days left behind are driven (commands: `complete`, then `drive` for the car). From them
//! it computes the diary, each pupil's progress (a keyed collection with a row memo, and views: who awaits a
//! practical test, the pupils by hours driven, whose block is running out), their accounts (charges, payments, the
//! cost of cancelling now: less than 48 hours' notice is charged), the instructors' week, the fleet's services and
//! the instructors' pass rates. Two services answer later: the test centre offers practical-test slots, and the fuel
//! card prices what the cars burnt.
//!
//! Files: `model.rs` (the model, the messages, the school's `Default`), `update.rs` (`update` with its helpers,
//! Elmish with commands), `fees.rs` (prices, block discounts, cancellation fees, the accounts), `lessons.rs` (weeks,
//! notice, who may teach, the instructors' week, the fleet), `progress.rs` (the syllabus, readiness, pass rates),
//! `pupils.rs` (the pupils' collection, its row memo and views), `graph.rs` (the `#[expose]` app and its builder),
//! `services.rs` (the async memos), `remote.rs` (the simulated services) and this file (the harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_driving` serves the correct app over MCP on stdio;
//! `--slip KEY` (or `BLIND_DRIVING_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's faulty line
//! and the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where the answer
//! names the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod fees;
pub mod graph;
pub mod lessons;
pub mod model;
pub mod progress;
pub mod pupils;
pub mod remote;
pub mod services;
pub mod update;

use graph::{DrivingApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "slot_notice",
        "async memo: `>` for `>=` on the test centre's notice",
        Slip::SlotNotice,
    ),
    (
        "fuel_litres",
        "async memo: wrong unit, gallons taken for litres",
        Slip::FuelLitres,
    ),
    (
        "next_skill",
        "row memo: `<` for `<=`, a tie takes the later skill",
        Slip::NextSkill,
    ),
    (
        "awaiting_test",
        "view (filter predicate): a condition inverted",
        Slip::AwaitingTest,
    ),
    (
        "advance_day",
        "update: `=` for `+=` on the day counter",
        Slip::AdvanceDay,
    ),
    (
        "book_week",
        "update helper: wrong value, today's week for the lesson's",
        Slip::BookWeek,
    ),
    (
        "late_notice",
        "rule fn (memo and update): `<=` for `<` on the notice",
        Slip::LateNotice,
    ),
    (
        "service_miles",
        "rule fn (memo): wrong field, lesson miles for miles since the service",
        Slip::ServiceMiles,
    ),
    (
        "week_bounds",
        "long memo: off by one, `>` for `>=` at the week's end",
        Slip::WeekBounds,
    ),
    (
        "theory_skip",
        "long memo: early `break` for `continue`",
        Slip::TheorySkip,
    ),
    (
        "billable_cancel",
        "model method: wrong field, the price for the fee",
        Slip::BillableCancel,
    ),
    (
        "default_gearbox",
        "Default: a copy-pasted gearbox",
        Slip::DefaultGearbox,
    ),
];

/// The app on its graph thread, exposed.
pub type DrivingHost = harness::ExposedHost<DrivingApp>;

/// Starts the app with `slip`, exposed, on a graph thread of its own.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_driving(slip: Slip) -> Result<DrivingHost, HostError> {
    harness::start_exposed(move || graph::driving_app(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::driving_app(slip), "blind-driving")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("fees.rs", include_str!("fees.rs")),
    ("lessons.rs", include_str!("lessons.rs")),
    ("progress.rs", include_str!("progress.rs")),
    ("pupils.rs", include_str!("pupils.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the driving school")
}

fn enrol(pupil: &str, automatic: bool) -> Value {
    msg("enrol", json!({ "pupil": pupil, "automatic": automatic }))
}

fn book(pupil: &str, instructor: &str, day: u32, hours: u32) -> Value {
    msg(
        "book",
        json!({ "pupil": pupil, "instructor": instructor, "day": day, "hours": hours }),
    )
}

fn score(pupil: &str, skill: &str, score: u8) -> Value {
    msg(
        "score",
        json!({ "pupil": pupil, "skill": skill, "score": score }),
    )
}

fn sit(pupil: &str, practical: bool, passed: bool) -> Value {
    msg(
        "sit_test",
        json!({ "pupil": pupil, "practical": practical, "passed": passed }),
    )
}

fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// Ann, learning in a manual with Priya, scored 4 in every skill, with her theory test passed.
fn ready_for_test() -> Value {
    let mut messages = vec![enrol("Ann", false), book("Ann", "Priya", 1, 1)];
    for skill in progress::SYLLABUS {
        messages.push(score("Ann", skill, 4));
    }
    messages.push(sit("Ann", false, true));
    Value::Array(messages)
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "slot_notice" => ("test_slots", ready_for_test()),
        "fuel_litres" => (
            "fuel",
            json!([enrol("Ann", false), book("Ann", "Priya", 1, 2), advance(1)]),
        ),
        "next_skill" => (
            "pupils",
            json!([enrol("Ann", false), score("Ann", "controls", 2)]),
        ),
        "awaiting_test" => ("awaiting_test", ready_for_test()),
        "advance_day" => ("today", json!([advance(2), advance(3)])),
        "book_week" => (
            "diary",
            json!([
                enrol("Ann", false),
                book("Ann", "Carol", 1, 2),
                book("Ann", "Carol", 2, 2),
                book("Ann", "Carol", 4, 2),
                book("Ann", "Carol", 8, 2)
            ]),
        ),
        "late_notice" => (
            "accounts",
            json!([enrol("Ann", false), book("Ann", "Priya", 3, 2)]),
        ),
        "service_miles" => (
            "fleet",
            json!([enrol("Ann", false), book("Ann", "Priya", 1, 1), advance(1)]),
        ),
        "week_bounds" => (
            "week_load",
            json!([enrol("Ann", false), book("Ann", "Priya", 8, 2)]),
        ),
        "theory_skip" => (
            "pass_rates",
            json!([
                enrol("Ann", false),
                book("Ann", "Priya", 1, 1),
                sit("Ann", false, true),
                sit("Ann", true, true)
            ]),
        ),
        "billable_cancel" => (
            "accounts",
            json!([
                enrol("Ann", false),
                book("Ann", "Priya", 5, 1),
                msg("cancel", json!({ "lesson": 1 }))
            ]),
        ),
        "default_gearbox" => ("diary", json!([enrol("Bo", true), book("Bo", "Ben", 2, 1)])),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    let load = |instructor: &str, hours: u32, free: u32, lessons: u32| json!({"instructor": instructor, "hours": hours, "free": free, "lessons": lessons});
    let rate = |instructor: &str, sat: u32, passed: u32, rate: u32, first_time: u32| json!({"instructor": instructor, "sat": sat, "passed": passed, "rate": rate, "first_time": first_time});
    let account = |charged: u64, owed: u64, at_risk: u64| json!([{"pupil": "Ann", "charged": charged, "paid": 0, "owed": owed, "at_risk": at_risk}]);
    match key {
        "slot_notice" => json!([{"pupil": "Ann", "day": 11}]),
        "fuel_litres" => json!({"miles": 36, "millilitres": 3636, "pence": 523}),
        "next_skill" => {
            let skills: Vec<Value> = progress::SYLLABUS
                .iter()
                .map(|&skill| json!([skill, if skill == "controls" { 2 } else { 1 }]))
                .collect();
            json!([{
                "key": "Ann", "name": "Ann", "gearbox": "manual", "prepaid_hours": 0, "blocks": 0, "paid": 0,
                "hours_taken": 0, "skills": skills, "theory_passed": false, "passed": false,
                "progress": {"skills_ready": 0, "next_skill": "junctions", "average": 1.2, "ready": false}
            }])
        }
        "awaiting_test" => json!(["Ann"]),
        "advance_day" => json!(6),
        "book_week" => json!([
            "day 1: Ann with Carol (2h, lesson 1)",
            "day 2: Ann with Carol (2h, lesson 2)",
            "day 4: Ann with Carol (2h, lesson 3)",
            "day 8: Ann with Carol (2h, lesson 4)"
        ]),
        "late_notice" => account(7_600, 7_600, 0),
        "service_miles" => json!([
            {"reg": "KM21 PRY", "miles": 41_218, "to_service": 782, "due": false},
            {"reg": "EV70 BEN", "miles": 18_000, "to_service": 6_000, "due": false},
            {"reg": "CA19 ROL", "miles": 63_500, "to_service": 2_500, "due": false}
        ]),
        "week_bounds" => json!([
            load("Priya", 0, 30, 0),
            load("Ben", 0, 30, 0),
            load("Carol", 0, 6, 0)
        ]),
        "theory_skip" => json!([
            rate("Priya", 1, 1, 100, 1),
            rate("Ben", 0, 0, 0, 0),
            rate("Carol", 0, 0, 0, 0)
        ]),
        "billable_cancel" => account(0, 0, 0),
        "default_gearbox" => json!(["day 2: Bo with Ben (1h, lesson 1)"]),
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
    harness::settled_in(start_driving(slip)?, node, messages).await
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
    || start(Slip::SlotNotice),
    || start(Slip::FuelLitres),
    || start(Slip::NextSkill),
    || start(Slip::AwaitingTest),
    || start(Slip::AdvanceDay),
    || start(Slip::BookWeek),
    || start(Slip::LateNotice),
    || start(Slip::ServiceMiles),
    || start(Slip::WeekBounds),
    || start(Slip::TheorySkip),
    || start(Slip::BillableCancel),
    || start(Slip::DefaultGearbox),
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
                "blind_driving: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_DRIVING_SLIP", &SLIPS, Slip::None)?;
        let host = start_driving(slip)?;
        let options = McpAdapterOptions::new("blind-driving", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_driving: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_driving: {error}");
        std::process::exit(1);
    }
}
