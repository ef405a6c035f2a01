//! A blind set: a dental practice, written as an ordinary app split over ten files, with twelve ordinary mistakes to
//! find, one at a time, with `explain`.
//!
//! The practice keeps its patients (private or on a monthly plan that covers two check-ups a year and discounts
//! treatment), each dentist's diary of 15-minute slots with a lunch break and a daily maximum, the charges (three
//! price bands, a fee for missed appointments after two misses, the plan's monthly fee), and the impressions sent to
//! the lab for crowns; an `advance` message moves the day on. It computes each patient's standing, the desk's lists,
//! the quotes for what is booked, today's sheet for each dentist, the recalls (every 6 or 12 months by risk) and the
//! hygienist's list. Two services answer later: the insurer, which checks the plan's claims, and the lab, which says
//! when each crown arrives.
//!
//! Files: `model.rs` (the model, the messages, the practice's hand-written `Default`), `update.rs` (`update` with its
//! helpers, Elmish with commands), `charges.rs` (the price rule and the quotes), `diary.rs` (the lunch rule and the day
//! sheets), `recalls.rs` (the recalls and the hygienist's list), `patients.rs` (the patients as a keyed collection with
//! a row memo and views), `graph.rs` (the `#[expose]` app and its builder), `services.rs` (the async memos),
//! `remote.rs` (the simulated services) and this file (the harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_dental` serves the correct app over MCP on stdio;
//! `--slip KEY` (or `BLIND_DENTAL_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's faulty line
//! and the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where the answer
//! names the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod charges;
pub mod diary;
pub mod graph;
pub mod model;
pub mod patients;
pub mod recalls;
pub mod remote;
pub mod services;
pub mod update;

use graph::{DentalApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "claim_swapped",
        "async memo: swapped operands in the future",
        Slip::ClaimSwapped,
    ),
    (
        "lab_saturday",
        "async memo: missing case in the service the future awaits",
        Slip::LabSaturday,
    ),
    ("row_due_field", "row memo: wrong field", Slip::RowDueField),
    (
        "debtors_order",
        "collection view: sort_by key not reversed",
        Slip::DebtorsOrder,
    ),
    (
        "advance_assign",
        "update: `=` for `+=`",
        Slip::AdvanceAssign,
    ),
    (
        "miss_threshold",
        "update helper: `>=` for `>`",
        Slip::MissThreshold,
    ),
    (
        "plan_discount",
        "rule used by a memo and update: wrong formula",
        Slip::PlanDiscount,
    ),
    (
        "lunch_end",
        "rule used by a memo: missing term",
        Slip::LunchEnd,
    ),
    (
        "missed_break",
        "long memo: `break` for `continue`",
        Slip::MissedBreak,
    ),
    (
        "recall_default",
        "long memo: wrong `unwrap_or` default",
        Slip::RecallDefault,
    ),
    (
        "risk_boundary",
        "model method: `>` for `>=`",
        Slip::RiskBoundary,
    ),
    (
        "lunch_unit",
        "hand-written Default: wrong unit",
        Slip::LunchUnit,
    ),
];

/// The app on its graph thread, exposed.
pub type DentalHost = harness::ExposedHost<DentalApp>;

/// Starts the app with `slip`, exposed, on a graph thread of its own.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_set(slip: Slip) -> Result<DentalHost, HostError> {
    harness::start_exposed(move || graph::dental_app(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::dental_app(slip), "blind-dental")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("charges.rs", include_str!("charges.rs")),
    ("diary.rs", include_str!("diary.rs")),
    ("recalls.rs", include_str!("recalls.rs")),
    ("patients.rs", include_str!("patients.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the dental practice")
}

fn register(name: &str, plan: bool, risk: u32) -> Value {
    msg(
        "register",
        json!({ "name": name, "plan": plan, "risk": risk }),
    )
}

fn book(patient: &str, dentist: &str, day: u32, slot: u32, band: &str) -> Value {
    msg(
        "book",
        json!({ "patient": patient, "dentist": dentist, "day": day, "slot": slot, "band": band }),
    )
}

fn attend(id: u32) -> Value {
    msg("attend", json!({ "id": id }))
}

fn miss(id: u32) -> Value {
    msg("miss", json!({ "id": id }))
}

fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "claim_swapped" => (
            "claims",
            json!([
                register("Ann", true, 2),
                advance(35),
                book("Ann", "Okafor", 36, 0, "filling"),
                attend(1)
            ]),
        ),
        "lab_saturday" => (
            "crowns",
            json!([
                register("Bo", false, 1),
                book("Bo", "Okafor", 1, 0, "crown"),
                attend(1)
            ]),
        ),
        "row_due_field" => (
            "patients",
            json!([
                register("Cy", false, 1),
                advance(100),
                book("Cy", "Okafor", 101, 0, "checkup"),
                attend(1)
            ]),
        ),
        "debtors_order" => (
            "by_owed",
            json!([
                register("Ann", false, 1),
                register("Bo", false, 1),
                book("Ann", "Okafor", 1, 0, "filling"),
                book("Bo", "Lind", 1, 0, "crown"),
                attend(1),
                attend(2)
            ]),
        ),
        "advance_assign" => ("today", json!([advance(10), advance(5)])),
        "miss_threshold" => (
            "patients",
            json!([
                register("Di", false, 1),
                book("Di", "Okafor", 1, 0, "checkup"),
                miss(1),
                book("Di", "Okafor", 1, 4, "checkup"),
                miss(2)
            ]),
        ),
        "plan_discount" => (
            "quotes",
            json!([
                register("Ann", true, 2),
                book("Ann", "Okafor", 1, 0, "filling")
            ]),
        ),
        "lunch_end" => (
            "day_sheets",
            json!([
                register("Ann", false, 1),
                book("Ann", "Okafor", 1, 15, "filling")
            ]),
        ),
        "missed_break" => (
            "day_sheets",
            json!([
                register("Ann", false, 1),
                register("Bo", false, 1),
                book("Ann", "Okafor", 1, 0, "checkup"),
                book("Bo", "Okafor", 1, 4, "filling"),
                miss(1)
            ]),
        ),
        "recall_default" => ("recalls", json!([register("Ann", false, 1), advance(340)])),
        "risk_boundary" => ("patients", json!([register("Ed", false, 3)])),
        "lunch_unit" => (
            "day_sheets",
            json!([
                register("Ann", false, 1),
                book("Ann", "Okafor", 1, 12, "filling")
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        "claim_swapped" => json!({
            "claims": 1,
            "repaid": 1900,
            "refused": [],
            "reference": "INS-1-9500"
        }),
        "lab_saturday" => json!([{"patient": "Bo", "taken": 1, "arrives": 8, "days_left": 7}]),
        "row_due_field" => json!([
            {
                "key": "Cy",
                "name": "Cy",
                "plan": false,
                "risk": 1,
                "joined": 1,
                "last_checkup": 101,
                "checkups_this_year": 1,
                "misses": 0,
                "owed": 4500,
                "value": {
                    "last_seen": 101,
                    "due": 461,
                    "days_to_recall": 360,
                    "status": "ok"
                }
            }
        ]),
        "debtors_order" => json!(["Bo", "Ann"]),
        "advance_assign" => json!(16),
        "miss_threshold" => json!([
            {
                "key": "Di",
                "name": "Di",
                "plan": false,
                "risk": 1,
                "joined": 1,
                "last_checkup": null,
                "checkups_this_year": 0,
                "misses": 2,
                "owed": 0,
                "value": {
                    "last_seen": 1,
                    "due": 361,
                    "days_to_recall": 360,
                    "status": "warned"
                }
            }
        ]),
        "plan_discount" => json!([
            {
                "id": 1,
                "patient": "Ann",
                "day": 1,
                "band": "filling",
                "price": 7600
            }
        ]),
        "lunch_end" => json!([
            {
                "dentist": "Okafor",
                "booked": 3,
                "free": 21,
                "first_free": "08:00",
                "over_lunch": [
                    1
                ],
                "full": false
            },
            {
                "dentist": "Lind",
                "booked": 0,
                "free": 20,
                "first_free": "08:00",
                "over_lunch": [],
                "full": false
            }
        ]),
        "missed_break" => json!([
            {
                "dentist": "Okafor",
                "booked": 3,
                "free": 21,
                "first_free": "08:00",
                "over_lunch": [],
                "full": false
            },
            {
                "dentist": "Lind",
                "booked": 0,
                "free": 20,
                "first_free": "08:00",
                "over_lunch": [],
                "full": false
            }
        ]),
        "recall_default" => json!([
            {
                "patient": "Ann",
                "due": 361,
                "overdue": false,
                "hygienist": false
            }
        ]),
        "risk_boundary" => json!([
            {
                "key": "Ed",
                "name": "Ed",
                "plan": false,
                "risk": 3,
                "joined": 1,
                "last_checkup": null,
                "checkups_this_year": 0,
                "misses": 0,
                "owed": 0,
                "value": {
                    "last_seen": 1,
                    "due": 181,
                    "days_to_recall": 180,
                    "status": "ok"
                }
            }
        ]),
        "lunch_unit" => json!([
            {
                "dentist": "Okafor",
                "booked": 3,
                "free": 21,
                "first_free": "08:00",
                "over_lunch": [],
                "full": false
            },
            {
                "dentist": "Lind",
                "booked": 0,
                "free": 20,
                "first_free": "08:00",
                "over_lunch": [],
                "full": false
            }
        ]),
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
    || start(Slip::ClaimSwapped),
    || start(Slip::LabSaturday),
    || start(Slip::RowDueField),
    || start(Slip::DebtorsOrder),
    || start(Slip::AdvanceAssign),
    || start(Slip::MissThreshold),
    || start(Slip::PlanDiscount),
    || start(Slip::LunchEnd),
    || start(Slip::MissedBreak),
    || start(Slip::RecallDefault),
    || start(Slip::RiskBoundary),
    || start(Slip::LunchUnit),
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
                "blind_dental: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_DENTAL_SLIP", &SLIPS, Slip::None)?;
        let host = start_set(slip)?;
        let options = McpAdapterOptions::new("blind-dental", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_dental: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_dental: {error}");
        std::process::exit(1);
    }
}
