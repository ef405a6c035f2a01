//! A community pharmacy's dispensary (the shelf in batches with expiry dates, patients with their ages, certificates
//! and allergies, prescriptions with items, doses and repeats, interaction and allergy checks, dispensing with owing
//! slips when the shelf is short, the takings sheet with its exemptions, the clock that expires batches and
//! prescriptions, and two services over the network), split over nine files as an app developer would write it, with
//! ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call over
//! MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The dispensary: the opening delivery goes on the shelf on its first morning, day 1 (initial commands of
//! `Mvu::with_commands`). The counter registers a patient (`register`: age, and a prepayment, maternity or medical
//! certificate if they hold one), notes an allergy (`note_allergy`), takes a prescription in (`hand_in`, with the
//! national service's token and the repeats it allows; `add_item` for each medicine, quantity and daily dose), serves
//! a patient (`serve`) and dispenses (`dispense`: the batch that expires first first, out-of-date batches never; an
//! `Owe` command for what the shelf cannot cover; the charge per item, or why the patient pays nothing; later, each
//! repeat once its interval has passed). A delivery (`receive`) goes on the shelf and fills the owing slips it can.
//! The clock moves on (`advance`): batches past their date go to quarantine, and a prescription not dispensed within
//! its validity expires. Derived: today, the prescriptions waiting, the pharmacist's warnings (interactions, also with
//! what the patient already takes, and allergies), the owing slips, the repeats due and the takings sheet; the shelf,
//! a keyed collection (`ranvier::collection`) with each lot's label as a row memo and views over it (the picking
//! order, from a `sort_by`, the lots running low, from a `filter`, and the lots per medicine, from a `group_by`); and
//! from two services over the network, as async memos: the prescription service's word on each waiting token, and
//! the wholesaler's quote and delivery day for what is owed.
//!
//! Files: `model.rs` (the formulary, the types, the messages, hand-written `Default`s), `update.rs` (`update`, with
//! commands, and its helpers), `charges.rs` and `checks.rs` (the charging and the pharmacist's rules),
//! `graph.rs` (the `#[expose]` app, the `#[node]` builder, the counter's lists), `stock.rs` (the collection, its row
//! factory and views), `services.rs` (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_PHARMACY_SLIP=<key>`) runs the dispensary with that one mistake; without
//! it the dispensary is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain`
//! arguments that show it (`BLIND_PHARMACY_SLIP=<key> ranvier-mcp call target/debug/examples/blind_pharmacy explain
//! '<those>'` asks by hand). `cargo run -p ranvier-examples --features blind --example blind_pharmacy -- --report` (a debug build: only traced builds list
//! `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length
//! (`--answers` adds each answer). Otherwise the dispensary serves MCP over stdio.

use ranvier_examples::harness;

pub mod charges;
pub mod checks;
pub mod graph;
pub mod model;
pub mod remote;
pub mod services;
pub mod stock;
pub mod update;

use graph::{Pharmacy, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the dispensary that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "validity_months",
        "a hand-written `Default` gives a prescription's validity in months where days are meant (a wrong unit)",
        Slip::ValidityMonths,
    ),
    (
        "age_exempt",
        "`>` for `>=` against the age limit in a charging rule called from `update` (a wrong operator)",
        Slip::AgeExempt,
    ),
    (
        "prepayment_arm",
        "a wrong match arm in a charging rule: a prepayment certificate folded into the arm of no certificate",
        Slip::PrepaymentArm,
    ),
    (
        "interaction_one_way",
        "a missing condition in a rule a memo calls through a fn value: a pair interacts only in the table's order",
        Slip::InteractionOneWay,
    ),
    (
        "owing_not_sent",
        "a command not sent: an `update` helper builds the `Owe` commands and returns an empty list",
        Slip::OwingNotSent,
    ),
    (
        "receive_swapped",
        "swapped arguments in an `update` helper: a delivery's quantity and expiry day change places",
        Slip::ReceiveSwapped,
    ),
    (
        "short_dated_edge",
        "an exclusive range for an inclusive one in a row factory's memo (off by one): the window's last day is left out",
        Slip::ShortDatedEdge,
    ),
    (
        "shelf_order",
        "a `sort_by` view's key on the day received where the expiry day is meant (a wrong sort key)",
        Slip::ShelfOrder,
    ),
    (
        "repeat_due_from",
        "the wrong field in a long memo: a repeat counted from the day issued, not the day last dispensed",
        Slip::RepeatDueFrom,
    ),
    (
        "takings_exempt",
        "a wrong accumulator in a long memo: exempt items added to the paid tally",
        Slip::TakingsExempt,
    ),
    (
        "token_counter",
        "the wrong captured value in an async memo's future: the patient at the counter for every token",
        Slip::TokenCounter,
    ),
    (
        "quote_default",
        "a failure turned into a default in an async memo's future: a refused order quoted as nothing, due today",
        Slip::QuoteDefault,
    ),
];

/// What the graph thread keeps: the dispensary and its exposure.
pub type PharmacyHost = harness::ExposedHost<Pharmacy>;

/// Starts the dispensary with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_pharmacy(slip: Slip) -> Result<PharmacyHost, HostError> {
    harness::start_exposed(move || graph::pharmacy(slip))
}

/// The dispensary with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::pharmacy(slip), "blind-pharmacy")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the dispensary, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("charges.rs", include_str!("charges.rs")),
    ("checks.rs", include_str!("checks.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("stock.rs", include_str!("stock.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the dispensary holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the dispensary")
}

fn register(patient: &str, age: u32, certificate: &str) -> Value {
    msg(
        "register",
        json!({"patient": patient, "age": age, "certificate": certificate}),
    )
}
fn hand_in(patient: &str, token: &str, repeats: u32) -> Value {
    msg(
        "hand_in",
        json!({"patient": patient, "token": token, "repeats": repeats}),
    )
}
fn add_item(id: u32, medicine: &str, quantity: u32, per_day: u32) -> Value {
    msg(
        "add_item",
        json!({"id": id, "medicine": medicine, "quantity": quantity, "perDay": per_day}),
    )
}
fn dispense(id: u32) -> Value {
    msg("dispense", json!({ "id": id }))
}
fn serve(patient: &str) -> Value {
    msg("serve", json!({ "patient": patient }))
}
fn receive(medicine: &str, lot: &str, quantity: u32, expires: u32) -> Value {
    msg(
        "receive",
        json!({"medicine": medicine, "lot": lot, "quantity": quantity, "expires": expires}),
    )
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the dispensary opens on day 1 with lots A1 amoxicillin 21 to day 5, A2 amoxicillin 63 to day 40, W1
/// warfarin 56 to day 90, AS1 aspirin 112 to day 120, S1 simvastatin 28 to day 3, S2 simvastatin 84 to day 60, C1
/// clarithromycin 14 to day 8, M1 metformin 112 to day 30, T1 sertraline 28 to day 45, and no penicillin V; 9.90 an
/// item, free under 16, from 60 and with a certificate; prescriptions valid 180 days, repeats every 28 days, a lot
/// short-dated within 7 days).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Ada's prescription, handed in on day 1, still waits on day 11; shows nothing waiting (expired after 6 days)
        "validity_months" => (
            "waiting",
            json!([
                register("Ada", 45, "none"),
                hand_in("Ada", "RX-1001", 0),
                add_item(1, "metf", 56, 2),
                advance(10)
            ]),
        ),
        // Ed, 60, pays nothing for his warfarin; shows 9.90 paid
        "age_exempt" => (
            "takings",
            json!([
                register("Ed", 60, "none"),
                hand_in("Ed", "RX-1005", 0),
                add_item(1, "warf", 28, 1),
                dispense(1)
            ]),
        ),
        // Ben holds a prepayment certificate: two items free; shows 19.80 paid
        "prepayment_arm" => (
            "takings",
            json!([
                register("Ben", 35, "ppc"),
                hand_in("Ben", "RX-1002", 0),
                add_item(1, "sert", 28, 1),
                add_item(1, "metf", 56, 2),
                dispense(1)
            ]),
        ),
        // clarithromycin then simvastatin on one prescription: a warning; shows none
        "interaction_one_way" => (
            "warnings",
            json!([
                register("Cleo", 52, "none"),
                hand_in("Cleo", "RX-1003", 0),
                add_item(1, "clar", 14, 2),
                add_item(1, "simv", 28, 1)
            ]),
        ),
        // no penicillin V on the shelf: 28 owed to Ben; shows no owing slip
        "owing_not_sent" => (
            "owings",
            json!([
                register("Ben", 35, "none"),
                hand_in("Ben", "RX-1002", 0),
                add_item(1, "penv", 28, 4),
                dispense(1)
            ]),
        ),
        // a delivery of 42 amoxicillin to day 20; shows 20 of them to day 42 (and every lot of the opening delivery so)
        "receive_swapped" => ("shelf", json!([receive("amox", "A3", 42, 20)])),
        // on day 2 a delivery of clarithromycin to day 9 is short-dated (7 days left); shows it in date
        "short_dated_edge" => ("shelf", json!([advance(1), receive("clar", "C2", 28, 9)])),
        // on day 2 amoxicillin to day 20 comes in: picked before A2 (day 40); shows it last
        "shelf_order" => ("shelf", json!([advance(1), receive("amox", "A3", 42, 20)])),
        // Ada's metformin dispensed on day 4 with 2 repeats: the next due day 32; shows day 29
        "repeat_due_from" => (
            "repeats_due",
            json!([
                register("Ada", 45, "none"),
                hand_in("Ada", "RX-1001", 2),
                add_item(1, "metf", 56, 2),
                advance(3),
                dispense(1)
            ]),
        ),
        // Dev, 10, two items free; shows them as paid items (with nothing paid)
        "takings_exempt" => (
            "takings",
            json!([
                register("Dev", 10, "none"),
                hand_in("Dev", "RX-1005", 0),
                add_item(1, "amox", 15, 3),
                add_item(1, "penv", 28, 4),
                dispense(1)
            ]),
        ),
        // Ada at the counter; Ben's token is his; shows Ben's issued to another patient
        "token_counter" => (
            "verifications",
            json!([
                register("Ada", 45, "none"),
                register("Ben", 35, "none"),
                hand_in("Ada", "RX-1001", 0),
                hand_in("Ben", "RX-1002", 0),
                serve("Ada")
            ]),
        ),
        // 14 clarithromycin owed, and the wholesaler no longer supplies it; shows 0 packs, 0.00, due day 1
        "quote_default" => (
            "deliveries",
            json!([
                register("Cleo", 52, "none"),
                hand_in("Cleo", "RX-1003", 0),
                add_item(1, "clar", 28, 2),
                dispense(1)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct dispensary after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "validity_months" => json!(["Rx 1 Ada: 1 item(s), handed in day 1"]),
        "age_exempt" => json!([
            "paid: 0 item(s) on 0 prescription(s), £0.00",
            "exempt, 60 or over: 1 item(s) on 1 prescription(s)",
            "total: 1 item(s), £0.00"
        ]),
        "prepayment_arm" => json!([
            "paid: 0 item(s) on 0 prescription(s), £0.00",
            "exempt, prepayment certificate: 2 item(s) on 1 prescription(s)",
            "total: 2 item(s), £0.00"
        ]),
        "interaction_one_way" => json!([
            "Rx 1 Cleo: Clarithromycin 500mg tablets with Simvastatin 20mg tablets: muscle damage"
        ]),
        "owing_not_sent" => json!(["Rx 1 Ben: 28 × Phenoxymethylpenicillin 250mg tablets owed"]),
        "receive_swapped" => json!([
            "21 × Amoxicillin 500mg capsules, lot A1, use by day 5: short-dated, 4 days left",
            "42 × Amoxicillin 500mg capsules, lot A3, use by day 20: in date",
            "63 × Amoxicillin 500mg capsules, lot A2, use by day 40: in date",
            "112 × Aspirin 75mg tablets, lot AS1, use by day 120: in date",
            "14 × Clarithromycin 500mg tablets, lot C1, use by day 8: short-dated, 7 days left",
            "112 × Metformin 500mg tablets, lot M1, use by day 30: in date",
            "28 × Sertraline 50mg tablets, lot T1, use by day 45: in date",
            "28 × Simvastatin 20mg tablets, lot S1, use by day 3: short-dated, 2 days left",
            "84 × Simvastatin 20mg tablets, lot S2, use by day 60: in date",
            "56 × Warfarin 1mg tablets, lot W1, use by day 90: in date",
        ]),
        "short_dated_edge" => json!([
            "21 × Amoxicillin 500mg capsules, lot A1, use by day 5: short-dated, 3 days left",
            "63 × Amoxicillin 500mg capsules, lot A2, use by day 40: in date",
            "112 × Aspirin 75mg tablets, lot AS1, use by day 120: in date",
            "14 × Clarithromycin 500mg tablets, lot C1, use by day 8: short-dated, 6 days left",
            "28 × Clarithromycin 500mg tablets, lot C2, use by day 9: short-dated, 7 days left",
            "112 × Metformin 500mg tablets, lot M1, use by day 30: in date",
            "28 × Sertraline 50mg tablets, lot T1, use by day 45: in date",
            "28 × Simvastatin 20mg tablets, lot S1, use by day 3: short-dated, 1 day left",
            "84 × Simvastatin 20mg tablets, lot S2, use by day 60: in date",
            "56 × Warfarin 1mg tablets, lot W1, use by day 90: in date",
        ]),
        "shelf_order" => json!([
            "21 × Amoxicillin 500mg capsules, lot A1, use by day 5: short-dated, 3 days left",
            "42 × Amoxicillin 500mg capsules, lot A3, use by day 20: in date",
            "63 × Amoxicillin 500mg capsules, lot A2, use by day 40: in date",
            "112 × Aspirin 75mg tablets, lot AS1, use by day 120: in date",
            "14 × Clarithromycin 500mg tablets, lot C1, use by day 8: short-dated, 6 days left",
            "112 × Metformin 500mg tablets, lot M1, use by day 30: in date",
            "28 × Sertraline 50mg tablets, lot T1, use by day 45: in date",
            "28 × Simvastatin 20mg tablets, lot S1, use by day 3: short-dated, 1 day left",
            "84 × Simvastatin 20mg tablets, lot S2, use by day 60: in date",
            "56 × Warfarin 1mg tablets, lot W1, use by day 90: in date",
        ]),
        "repeat_due_from" => json!(["Rx 1 Ada: 2 repeat(s) left, due day 32"]),
        "takings_exempt" => json!([
            "paid: 0 item(s) on 0 prescription(s), £0.00",
            "exempt, under 16: 2 item(s) on 1 prescription(s)",
            "total: 2 item(s), £0.00"
        ]),
        "token_counter" => json!([
            "Rx 1 Ada (at the counter): RX-1001 valid",
            "Rx 2 Ben: RX-1002 valid"
        ]),
        "quote_default" => json!([
            "Rx 1 Cleo: 14 × Clarithromycin 500mg tablets: cannot order (refused: clar is discontinued)"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a dispensary started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the dispensary does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_pharmacy(slip)?, node, messages).await
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
    || start(Slip::ValidityMonths),
    || start(Slip::AgeExempt),
    || start(Slip::PrepaymentArm),
    || start(Slip::InteractionOneWay),
    || start(Slip::OwingNotSent),
    || start(Slip::ReceiveSwapped),
    || start(Slip::ShortDatedEdge),
    || start(Slip::ShelfOrder),
    || start(Slip::RepeatDueFrom),
    || start(Slip::TakingsExempt),
    || start(Slip::TokenCounter),
    || start(Slip::QuoteDefault),
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
                "blind_pharmacy: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_PHARMACY_SLIP", &SLIPS, Slip::None)?;
        let host = start_pharmacy(slip)?;
        let options = McpAdapterOptions::new("blind-pharmacy", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_pharmacy: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_pharmacy: {error}");
        std::process::exit(1);
    }
}
