//! A clinic's front desk (appointments, a waiting-room board, billing and two services over the network), split over
//! eight files as an app developer would write it, with ordinary mistakes that were not planted with `explain` in
//! mind: the fifth blind test of whether one `explain` call over MCP names the faulty line, written by a tester who
//! had not read how `explain` diagnoses.
//!
//! The desk: three doctors come on duty when the clinic opens at 08:00 (initial commands of `Mvu::with_commands`).
//! The desk books visits (`book`: a doctor, a slot in minutes after opening, a length, urgent or not, the patient's
//! insurance plan; a visit that clashes with the doctor's others is refused with a notice), patients check in
//! (`check_in`), doctors call them in (`call`: the patient is told the room, as a command) and end the visit
//! (`finish`: the patient is charged the doctor's fee and each started five minutes of overtime, as a command);
//! visits are called off (`cancel`: a late one, less than two hours ahead, is charged a fee), lab tests are ordered
//! for a patient who is here (`order`), and the clock moves on (`advance`). Derived: the waiting-room queue (urgent
//! first, then by slot), each doctor's next free slot, the charges and notices; the board, a keyed collection
//! (`ranvier::collection`) with each patient's wait as a row memo and views over it (patients waiting, the longest
//! wait, minutes booked, co-payments due, tests ordered, visits per doctor); the most patients that waited at once
//! (kept by an effect); and from two services over the network, as async memos: the lab results out of range for
//! the patient in the consulting room, and what the insurer covers of the visit of the patient who checked in last.
//!
//! Files: `model.rs` (the types, the messages, hand-written `Default`s), `update.rs` (`update`, with commands),
//! `rules.rs` and `billing.rs` (helpers), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the desk's memos
//! and the effect), `board.rs` (the collection, its row factory and views), `labs.rs` (the async memos), `remote.rs`
//! (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_CLINIC_SLIP=<key>`) runs the desk with that one mistake; without it the
//! desk is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_CLINIC_SLIP=<key> ranvier-mcp call target/debug/examples/blind_clinic explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_clinic -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the desk serves MCP over stdio.

use ranvier_examples::harness;

pub mod billing;
pub mod board;
pub mod graph;
pub mod labs;
pub mod model;
pub mod remote;
pub mod rules;
pub mod update;

use graph::{ClinicApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the desk that has it.
pub const SLIPS: [(&str, &str, Slip); 14] = [
    (
        "first_visit_id",
        "a counter in a hand-written `Default` starts at 0, not 1",
        Slip::FirstVisitId,
    ),
    (
        "cancel_window",
        "an `update` helper subtracts the wrong way round",
        Slip::CancelWindow,
    ),
    (
        "order_arm",
        "a `match` in an `update` helper sends one case to the wrong arm",
        Slip::OrderArm,
    ),
    (
        "overlap_touch",
        "`<=` for `<` in a helper of another module",
        Slip::OverlapTouch,
    ),
    (
        "overtime_blocks",
        "a helper rounds down where it should round up",
        Slip::OvertimeBlocks,
    ),
    (
        "copay_order",
        "an integer division done before the multiplication",
        Slip::CopayOrder,
    ),
    (
        "queue_urgent",
        "a `bool` sort key in the wrong direction in a long memo",
        Slip::QueueUrgent,
    ),
    (
        "peak_effect",
        "an effect overwrites the running maximum it keeps",
        Slip::PeakEffect,
    ),
    (
        "wait_since",
        "a row memo counts from the wrong field",
        Slip::WaitSince,
    ),
    (
        "waiting_called",
        "a collection filter negated twice",
        Slip::WaitingCalled,
    ),
    (
        "booked_fold",
        "a `fold` view's inverse adds instead of subtracting",
        Slip::BookedFold,
    ),
    (
        "flags_or",
        "`&&` for `||` in an async memo's future",
        Slip::FlagsOr,
    ),
    (
        "coverage_basis",
        "an async memo reads basis points as percent",
        Slip::CoverageBasis,
    ),
    (
        "room_latest",
        "an async memo picks its key by the wrong field",
        Slip::RoomLatest,
    ),
];

/// What the graph thread keeps: the desk and its exposure.
pub type ClinicHost = harness::ExposedHost<ClinicApp>;

/// Starts the desk with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_clinic(slip: Slip) -> Result<ClinicHost, HostError> {
    harness::start_exposed(move || graph::clinic(slip))
}

/// The desk with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::clinic(slip), "blind-clinic")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the desk, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("billing.rs", include_str!("billing.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("board.rs", include_str!("board.rs")),
    ("labs.rs", include_str!("labs.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the desk holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the desk")
}

fn book(patient: &str, doctor: &str, slot: u32, minutes: u32, urgent: bool, plan: &str) -> Value {
    msg(
        "book",
        json!({"patient": patient, "doctor": doctor, "slot": slot, "minutes": minutes, "urgent": urgent, "plan": plan}),
    )
}
fn check_in(visit: u32) -> Value {
    msg("check_in", json!({ "visit": visit }))
}
fn call(visit: u32) -> Value {
    msg("call", json!({ "visit": visit }))
}
fn finish(visit: u32) -> Value {
    msg("finish", json!({ "visit": visit }))
}
fn cancel(visit: u32) -> Value {
    msg("cancel", json!({ "visit": visit }))
}
fn order(visit: u32, test: &str) -> Value {
    msg("order", json!({"visit": visit, "test": test}))
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; minute 0 is 08:00; Dr Ng's fee is 60.00, Dr Osei's 80.00, Dr Park's 120.00).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // visit 1 (Ada, 09:00) checked in; shows Ben (09:30), the second booked
        "first_visit_id" => (
            "queue",
            json!([
                book("Ada", "dr_ng", 60, 15, false, "basic"),
                book("Ben", "dr_ng", 90, 15, false, "basic"),
                check_in(1)
            ]),
        ),
        // at 08:30 Ada's 12:00 visit is called off in time (no fee), Ben's 09:30 one late (25.00); shows 50.00
        "cancel_window" => (
            "billed",
            json!([
                book("Ada", "dr_ng", 240, 15, false, "basic"),
                book("Ben", "dr_osei", 90, 15, false, "basic"),
                advance(30),
                cancel(1),
                cancel(2)
            ]),
        ),
        // a test ordered for Ada, checked in and waiting: 1; shows 0
        "order_arm" => (
            "tests_ordered",
            json!([
                book("Ada", "dr_ng", 0, 15, false, "basic"),
                check_in(1),
                order(1, "glucose")
            ]),
        ),
        // at 09:00 Dr Ng has Ada 09:00-09:15: free at 09:15; shows 09:30
        "overlap_touch" => (
            "next_free",
            json!([book("Ada", "dr_ng", 60, 15, false, "basic"), advance(60)]),
        ),
        // a 15-minute visit that took 22: 80.00 + two started blocks × 5.00 = 90.00; shows 85.00
        "overtime_blocks" => (
            "billed",
            json!([
                book("Ada", "dr_osei", 0, 15, false, "basic"),
                check_in(1),
                call(1),
                advance(22),
                finish(1)
            ]),
        ),
        // 30 % of 60.00 = 18.00; shows 0
        "copay_order" => (
            "copays_due",
            json!([
                book("Ada", "dr_ng", 0, 15, false, "basic"),
                check_in(1),
                call(1),
                advance(15),
                finish(1)
            ]),
        ),
        // Ben is urgent: first; shows Ada first
        "queue_urgent" => (
            "queue",
            json!([
                book("Ada", "dr_ng", 60, 15, false, "basic"),
                book("Ben", "dr_osei", 75, 15, true, "plus"),
                advance(50),
                check_in(1),
                check_in(2)
            ]),
        ),
        // three waited at once before Ada was called: 3; shows 2
        "peak_effect" => (
            "peak_waiting",
            json!([
                book("Ada", "dr_ng", 0, 15, false, "basic"),
                book("Ben", "dr_osei", 0, 15, false, "basic"),
                book("Cy", "dr_park", 0, 15, false, "gold"),
                check_in(1),
                check_in(2),
                check_in(3),
                call(1)
            ]),
        ),
        // Ada, due 08:30, checked in at 08:50 and was called at 08:55: waited 5; shows 25
        "wait_since" => (
            "longest_wait",
            json!([
                book("Ada", "dr_ng", 30, 15, false, "basic"),
                advance(50),
                check_in(1),
                advance(5),
                call(1)
            ]),
        ),
        // three checked in, Ada called: Ben and Cy wait, 2; shows 1
        "waiting_called" => (
            "waiting_count",
            json!([
                book("Ada", "dr_ng", 0, 15, false, "basic"),
                book("Ben", "dr_ng", 15, 15, false, "basic"),
                book("Cy", "dr_osei", 0, 30, false, "none"),
                check_in(1),
                check_in(2),
                check_in(3),
                call(1)
            ]),
        ),
        // 15 + 30 minutes booked, neither ended: 45; shows 75 after Ada checks in
        "booked_fold" => (
            "booked_minutes",
            json!([
                book("Ada", "dr_ng", 0, 15, false, "basic"),
                book("Ben", "dr_ng", 30, 30, false, "basic"),
                check_in(1)
            ]),
        ),
        // Ada's glucose 96 is normal, her potassium 59 high; shows no flag
        "flags_or" => (
            "flags",
            json!([
                book("Ada", "dr_ng", 0, 15, false, "basic"),
                check_in(1),
                call(1),
                order(1, "glucose"),
                order(1, "potassium")
            ]),
        ),
        // the insurer pays 70.00 % of 80.00 = 56.00, Ada 24.00; shows the insurer paying 5,600.00
        "coverage_basis" => (
            "coverage",
            json!([book("Ada", "dr_osei", 0, 15, false, "basic"), check_in(1)]),
        ),
        // Ben, called in last (08:05), with his glucose 62 low; shows Ada (the later slot), no flag
        "room_latest" => (
            "flags",
            json!([
                book("Ada", "dr_ng", 30, 15, false, "basic"),
                book("Ben", "dr_osei", 0, 15, false, "plus"),
                check_in(1),
                check_in(2),
                order(2, "glucose"),
                call(1),
                advance(5),
                call(2)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct desk after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "first_visit_id" => json!(["09:00 Ada for dr_ng, waiting 0 min"]),
        "cancel_window" => json!(2500),
        "order_arm" => json!(1),
        "overlap_touch" => json!(["dr_ng: 09:15", "dr_osei: 09:00", "dr_park: 09:00"]),
        "overtime_blocks" => json!(9000),
        "copay_order" => json!(1800),
        "queue_urgent" => json!([
            "09:15 Ben for dr_osei, urgent, waiting 0 min",
            "09:00 Ada for dr_ng, waiting 0 min"
        ]),
        "peak_effect" => json!(3),
        "wait_since" => json!(5),
        "waiting_called" => json!(2),
        "booked_fold" => json!(45),
        "flags_or" => json!({"patient": "Ada", "flagged": ["potassium 59 (35-50)"]}),
        "coverage_basis" => {
            json!({"patient": "Ada", "plan": "basic", "insurer_pays": 5600, "patient_pays": 2400})
        }
        "room_latest" => json!({"patient": "Ben", "flagged": ["glucose 62 (70-99)"]}),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a desk started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the desk does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_clinic(slip)?, node, messages).await
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
const STARTS: [fn() -> Result<Started, HostError>; 14] = [
    || start(Slip::FirstVisitId),
    || start(Slip::CancelWindow),
    || start(Slip::OrderArm),
    || start(Slip::OverlapTouch),
    || start(Slip::OvertimeBlocks),
    || start(Slip::CopayOrder),
    || start(Slip::QueueUrgent),
    || start(Slip::PeakEffect),
    || start(Slip::WaitSince),
    || start(Slip::WaitingCalled),
    || start(Slip::BookedFold),
    || start(Slip::FlagsOr),
    || start(Slip::CoverageBasis),
    || start(Slip::RoomLatest),
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
                "blind_clinic: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_CLINIC_SLIP", &SLIPS, Slip::None)?;
        let host = start_clinic(slip)?;
        let options = McpAdapterOptions::new("blind-clinic", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_clinic: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_clinic: {error}");
        std::process::exit(1);
    }
}
