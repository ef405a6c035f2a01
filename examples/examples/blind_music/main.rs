//! A blind set: a music school, written as an ordinary app split over ten files, with twelve ordinary mistakes to
//! find, one at a time, with `explain`.
//!
//! The school keeps its pupils (instrument, teacher, 30-, 45- or 60-minute weekly lessons, a bursary, the last grade
//! passed, lessons and practice since), its teachers (a room, the most minutes they teach in a day), the instruments
//! out on hire, and the day of the term, which `advance` moves on. It computes each pupil's term fee (the teaching
//! weeks, half-term skipped, at the price of their lesson length, less the bursary and the credits for lessons
//! cancelled in good time; too late and the lesson is charged), the families' invoices with a sibling discount, the
//! teachers' days against their maximum, who is ready for their next graded exam, and what the hires cost so far. Two
//! services answer later: the exam board checks the entries and quotes their fees, and the hire shop says when each
//! instrument arrives.
//!
//! Files: `model.rs` (the model, the messages, a hand-written `Default`), `update.rs` (`update` with its helpers,
//! Elmish with commands), `fees.rs` (lesson prices, teaching weeks, the invoices), `exams.rs` (the grades' rules, the
//! exam list), `timetable.rs` (the teachers' days), `pupils.rs` (the keyed collection, its row memo and views),
//! `graph.rs` (the `#[expose]` app and its builder), `services.rs` (the async memos), `remote.rs` (the simulated
//! services) and this file (the harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_music` serves the correct app over MCP on stdio;
//! `--slip KEY` (or `BLIND_MUSIC_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's faulty line and
//! the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where the answer names
//! the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod exams;
pub mod fees;
pub mod graph;
pub mod model;
pub mod pupils;
pub mod remote;
pub mod services;
pub mod timetable;
pub mod update;

use graph::{SetApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "board_stops_at_refusal",
        "async memo: early break in the future's loop",
        Slip::BoardStopsAtRefusal,
    ),
    (
        "back_order_default",
        "async memo: wrong unwrap_or default in the future",
        Slip::BackOrderDefault,
    ),
    (
        "half_term_charged",
        "row memo: swapped arguments",
        Slip::HalfTermCharged,
    ),
    (
        "top_grade_entered",
        "filter view: <= for <",
        Slip::TopGradeEntered,
    ),
    ("advance_sets_day", "update: = for +=", Slip::AdvanceSetsDay),
    (
        "notice_boundary",
        "update helper: <= for <",
        Slip::NoticeBoundary,
    ),
    (
        "price_arm",
        "rule fn (memo and update): wrong value in a match arm",
        Slip::PriceArm,
    ),
    (
        "grade_band",
        "rule fn (memos): off-by-one range",
        Slip::GradeBand,
    ),
    (
        "sibling_from_third",
        "long memo: off by one in the index test",
        Slip::SiblingFromThird,
    ),
    (
        "changeover_count",
        "long memo: missing - 1",
        Slip::ChangeoverCount,
    ),
    ("hire_months", "model method: missing + 1", Slip::HireMonths),
    ("deposit_pounds", "Default: wrong unit", Slip::DepositPounds),
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
    harness::start_shape(move || graph::set_app(slip), "blind-music")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("fees.rs", include_str!("fees.rs")),
    ("exams.rs", include_str!("exams.rs")),
    ("timetable.rs", include_str!("timetable.rs")),
    ("pupils.rs", include_str!("pupils.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the music school")
}

fn enrol(name: &str, family: &str, teacher: &str, minutes: u32, grade: u8) -> Value {
    msg(
        "enrol",
        json!({ "name": name, "family": family, "instrument": "violin", "teacher": teacher,
                "minutes": minutes, "bursary": 0, "grade": grade }),
    )
}

fn lessons(name: &str, count: usize) -> Vec<Value> {
    vec![msg("lesson", json!({ "name": name })); count]
}

fn practice(name: &str, days: u32) -> Value {
    msg("practice", json!({ "name": name, "days": days }))
}

fn hire(pupil: &str, instrument: &str) -> Value {
    msg("hire", json!({ "pupil": pupil, "instrument": instrument }))
}

fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// The messages in `parts` (single messages and runs of them), flattened in order.
fn all(parts: Vec<Value>) -> Value {
    let mut messages = Vec::new();
    for part in parts {
        match part {
            Value::Array(run) => messages.extend(run),
            one => messages.push(one),
        }
    }
    Value::Array(messages)
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "board_stops_at_refusal" => (
            "exam_entry",
            all(vec![
                enrol("Ann", "Shah", "Ruth", 30, 5),
                enrol("Ben", "Okafor", "Owen", 30, 0),
                json!(lessons("Ann", 20)),
                json!(lessons("Ben", 10)),
                practice("Ann", 20),
                practice("Ben", 20),
            ]),
        ),
        "back_order_default" => (
            "delivery",
            all(vec![
                enrol("Ann", "Shah", "Ruth", 30, 0),
                enrol("Ben", "Okafor", "Owen", 30, 0),
                hire("Ann", "violin"),
                hire("Ben", "harp"),
            ]),
        ),
        "half_term_charged" => ("pupils", all(vec![enrol("Ann", "Shah", "Ruth", 30, 0)])),
        "top_grade_entered" => (
            "ready_names",
            all(vec![
                enrol("Ann", "Shah", "Ruth", 30, 8),
                enrol("Ben", "Okafor", "Owen", 30, 1),
                json!(lessons("Ann", 20)),
                json!(lessons("Ben", 10)),
                practice("Ann", 20),
                practice("Ben", 20),
            ]),
        ),
        "advance_sets_day" => ("today", all(vec![advance(5), advance(3)])),
        "notice_boundary" => (
            "pupils",
            all(vec![
                enrol("Ann", "Shah", "Ruth", 45, 0),
                msg("cancel", json!({ "name": "Ann", "hours_notice": 24 })),
            ]),
        ),
        "price_arm" => ("invoices", all(vec![enrol("Ann", "Shah", "Ruth", 45, 0)])),
        "grade_band" => (
            "exam_list",
            all(vec![
                enrol("Ann", "Shah", "Ruth", 30, 2),
                json!(lessons("Ann", 10)),
                practice("Ann", 20),
            ]),
        ),
        "sibling_from_third" => (
            "invoices",
            all(vec![
                enrol("Ann", "Okafor", "Ruth", 60, 0),
                enrol("Ben", "Okafor", "Owen", 30, 0),
            ]),
        ),
        "changeover_count" => (
            "timetable",
            all(vec![
                enrol("Ann", "Shah", "Owen", 60, 0),
                enrol("Ben", "Okafor", "Owen", 60, 0),
            ]),
        ),
        "hire_months" => (
            "hire_due",
            all(vec![
                enrol("Ann", "Shah", "Ruth", 30, 0),
                hire("Ann", "violin"),
                advance(10),
            ]),
        ),
        "deposit_pounds" => (
            "refunded",
            all(vec![
                enrol("Ann", "Shah", "Ruth", 30, 0),
                hire("Ann", "violin"),
                msg("return", json!({ "pupil": "Ann" })),
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        "board_stops_at_refusal" => json!({ "pupils": ["Ben"], "fee": 4600 }),
        "back_order_default" => json!([
            { "pupil": "Ann", "instrument": "violin", "day": 3 },
            { "pupil": "Ben", "instrument": "harp", "day": 22 }
        ]),
        "half_term_charged" => json!([{
            "key": "Ann", "name": "Ann", "family": "Shah", "instrument": "violin", "teacher": "Ruth",
            "minutes": 30, "bursary": 0, "grade": 0, "lessons": 0, "practice": 0, "credit": 0, "charged": 0,
            "value": 18000
        }]),
        "top_grade_entered" => json!(["Ben"]),
        "advance_sets_day" => json!(9),
        "notice_boundary" => json!([{
            "key": "Ann", "name": "Ann", "family": "Shah", "instrument": "violin", "teacher": "Ruth",
            "minutes": 45, "bursary": 0, "grade": 0, "lessons": 0, "practice": 0, "credit": 2100, "charged": 0,
            "value": 23100
        }]),
        "price_arm" => json!([{ "family": "Shah", "pupils": 1, "total": 25200 }]),
        "grade_band" => json!([{ "name": "Ann", "instrument": "violin", "grade": 3, "margin": 0 }]),
        "sibling_from_third" => json!([{ "family": "Okafor", "pupils": 2, "total": 48600 }]),
        "changeover_count" => json!([
            { "teacher": "Ruth", "room": "A", "lessons": 0, "busy": 0, "free": 240, "over": false },
            { "teacher": "Owen", "room": "B", "lessons": 2, "busy": 125, "free": 55, "over": false }
        ]),
        "hire_months" => json!(1800),
        "deposit_pounds" => json!(6000),
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
    || start(Slip::BoardStopsAtRefusal),
    || start(Slip::BackOrderDefault),
    || start(Slip::HalfTermCharged),
    || start(Slip::TopGradeEntered),
    || start(Slip::AdvanceSetsDay),
    || start(Slip::NoticeBoundary),
    || start(Slip::PriceArm),
    || start(Slip::GradeBand),
    || start(Slip::SiblingFromThird),
    || start(Slip::ChangeoverCount),
    || start(Slip::HireMonths),
    || start(Slip::DepositPounds),
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
                "blind_music: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_MUSIC_SLIP", &SLIPS, Slip::None)?;
        let host = start_set(slip)?;
        let options = McpAdapterOptions::new("blind-music", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_music: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_music: {error}");
        std::process::exit(1);
    }
}
