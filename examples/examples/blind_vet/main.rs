//! A veterinary practice's front desk (two vets and two consulting rooms, patients and their owners, vaccination
//! reminders, six boarding kennels, the pharmacy shelf, the day's bills, and two services over the network), split
//! over nine files as an app developer would write it, with ordinary mistakes that were not planted with `explain` in
//! mind: a blind test of whether one `explain` call over MCP names the faulty line, written by a tester who had not
//! read how `explain` diagnoses.
//!
//! The practice: when the app starts, on day 500, its four patients are registered and their vaccinations entered
//! from the paper records (initial commands of `Mvu::with_commands`). The desk registers a patient (`register`),
//! weighs one (`weigh`), books an appointment with a vet (`book`: refused when the vet is busy then; the first
//! consulting room free for the whole slot is taken), calls one off (`cancel`), and marks one seen (`see`: the
//! consultation is charged as a command). A vet prescribes a course (`treat`: whole tablets a day by the patient's
//! weight and species, for some days; the tablets are dispensed and charged, as commands) and vaccinates (`vaccinate`,
//! charged). A pet boards in the first free kennel (`board`) and is collected (`collect`: its nights charged at its
//! run's rate, by species and size). The wholesaler delivers (`restock`: a new batch, with its own use-by day). At
//! the end of the day (`close_day`) the appointments nobody came to are charged as no-shows; `open_day` is the next
//! morning. Derived: the day, today's schedule, the vaccination reminders, the kennels, today's bills by owner; the
//! pharmacy shelf, a keyed collection (`ranvier::collection`) with the packs to order as a row memo and views over
//! it (what to order, a `filter`; the shelf in the order to use it, a `sort_by`; how many have run out, a
//! `count_by`); and from two services over the network, as async memos: the insurance claims for today's care (the
//! insurers' policy lookup) and the wholesaler's quote for the order (its price list).
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update`, its helpers, the
//! commands), `clinical.rs` (doses and vaccine schedules) and `fees.rs` (the price list), `graph.rs` (the `#[expose]`
//! app, the `#[node]` builder, the desk's memos), `pharmacy.rs` (the collection, its row factory and views),
//! `services.rs` (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_VET_SLIP=<key>`) runs the practice with that one mistake; without it the
//! practice is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments
//! that show it (`BLIND_VET_SLIP=<key> ranvier-mcp call target/debug/examples/blind_vet explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_vet -- --report` (a debug build: only traced builds list `explain`) prints, per
//! mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the practice serves MCP over stdio.

use ranvier_examples::harness;

pub mod clinical;
pub mod fees;
pub mod graph;
pub mod model;
pub mod pharmacy;
pub mod remote;
pub mod services;
pub mod update;

use graph::{Slip, VetDesk};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the practice that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "back_to_back",
        "`<` for `<=` in an `update` helper's overlap test: a room is busy when the appointment before ends as this one starts (off by one)",
        Slip::BackToBack,
    ),
    (
        "treat_charge",
        "the wrong variable in an `update` helper: a course is charged for one day's tablets, not the whole course's",
        Slip::TreatCharge,
    ),
    (
        "undispensed",
        "a command left out in an `update` helper: the course is charged but its tablets never leave the shelf",
        Slip::Undispensed,
    ),
    (
        "dose_weight_unit",
        "a wrong unit in a dosing rule of another module: grams divided by 100 for kilograms, ten times the dose",
        Slip::DoseWeightUnit,
    ),
    (
        "medium_run_rate",
        "a wrong match arm in a price rule of another module: a medium dog's run charged at the large run's rate",
        Slip::MediumRunRate,
    ),
    (
        "due_swapped",
        "swapped arguments in a long memo: days from the due day to today, so overdue reads as due and the far ones as overdue",
        Slip::DueSwapped,
    ),
    (
        "boarding_bucket",
        "a wrong accumulator in a long memo: boarding added to the care subtotal of the bill",
        Slip::BoardingBucket,
    ),
    (
        "reorder_par",
        "the wrong field in a row factory's memo: packs to bring the shelf to its reorder level, not its par level",
        Slip::ReorderPar,
    ),
    (
        "reorder_discontinued",
        "a missing condition in a `filter` view: a medicine no longer made is put on the order",
        Slip::ReorderDiscontinued,
    ),
    (
        "shelf_order",
        "the wrong sort key in a `sort_by` view: by the day the batch came in, not the day it expires",
        Slip::ShelfOrder,
    ),
    (
        "claim_default",
        "a failure turned into a default in an async memo's future: a pet with no policy gets an empty policy's claim",
        Slip::ClaimDefault,
    ),
    (
        "quote_packs",
        "the wrong captured value in an async memo's future: each line priced at the whole order's packs",
        Slip::QuotePacks,
    ),
];

/// What the graph thread keeps: the practice and its exposure.
pub type VetHost = harness::ExposedHost<VetDesk>;

/// Starts the practice with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_vet(slip: Slip) -> Result<VetHost, HostError> {
    harness::start_exposed(move || graph::vet_desk(slip))
}

/// The practice with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::vet_desk(slip), "blind-vet")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the practice, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("clinical.rs", include_str!("clinical.rs")),
    ("fees.rs", include_str!("fees.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("pharmacy.rs", include_str!("pharmacy.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the practice holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the practice")
}

fn book(pet: &str, vet: &str, at: &str) -> Value {
    msg(
        "book",
        json!({"pet": pet, "vet": vet, "in_days": 0, "at": at, "minutes": 20}),
    )
}
fn see(appointment: u32) -> Value {
    msg("see", json!({ "appointment": appointment }))
}
fn treat(pet: &str, drug: &str, days: u32) -> Value {
    msg("treat", json!({"pet": pet, "drug": drug, "days": days}))
}
fn vaccinate(pet: &str, vaccine: &str) -> Value {
    msg("vaccinate", json!({"pet": pet, "vaccine": vaccine}))
}
fn board(pet: &str) -> Value {
    msg("board", json!({ "pet": pet }))
}
fn collect(pet: &str) -> Value {
    msg("collect", json!({ "pet": pet }))
}
fn restock(drug: &str, packs: u32) -> Value {
    msg("restock", json!({"drug": drug, "packs": packs}))
}
fn open_day() -> Value {
    msg("open_day", json!({}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the practice opens on day 500 with Rex (dog, 24.6 kg) and Pip (rabbit) of Ana Ruiz, Bella (cat,
/// 4.2 kg) of Tom Hale and Bruno (dog, 14 kg) of Mei Chen; a consultation of 20 minutes is 45.00; Carprofen 50 mg is
/// 4 mg/kg a day at 0.60 a tablet, 50 on the shelf; Amoxicillin 250 mg 20 mg/kg a day (half for a cat) at 0.45, 80 on
/// the shelf; a medium run 28.00 a night, a hutch 12.00; Rex is insured with PetCover, 80 % past 20.00).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Rex with Dr Okafor 09:00-09:20 in Consult 1, then Bella with Dr Lind at 09:20: Consult 1 again; shows
        // Consult 2
        "back_to_back" => (
            "schedule",
            json!([
                book("Rex", "okafor", "09:00"),
                book("Bella", "lind", "09:20")
            ]),
        ),
        // Bella seen, then a week of Amoxicillin, one tablet a day: 7 × 0.45 = 3.15; shows 0.45
        "treat_charge" => (
            "bills",
            json!([
                book("Bella", "lind", "10:00"),
                see(1),
                treat("Bella", "Amoxicillin 250 mg", 7)
            ]),
        ),
        // a week of Carprofen for Rex, two tablets a day: 36 left; shows 50
        "undispensed" => ("shelf", json!([treat("Rex", "Carprofen 50 mg", 7)])),
        // a week of Amoxicillin for Bella, one tablet a day: 73 left; shows 66 (two a day)
        "dose_weight_unit" => ("shelf", json!([treat("Bella", "Amoxicillin 250 mg", 7)])),
        // Bruno (medium) boards two nights: 2 × 28.00 = 56.00; shows 68.00
        "medium_run_rate" => (
            "bills",
            json!([board("Bruno"), open_day(), open_day(), collect("Bruno")]),
        ),
        // Bella's rabies shot today; Rex's Lepto overdue, Bruno's and Rex's Rabies and Bruno's Lepto due within the
        // month; shows every vaccine overdue but Rex's Lepto, which shows as due
        "due_swapped" => ("reminders", json!([vaccinate("Bella", "rabies")])),
        // Pip boards two nights while Rex is seen: care 45.00 and boarding 24.00; shows care 69.00
        "boarding_bucket" => (
            "bills",
            json!([
                board("Pip"),
                open_day(),
                open_day(),
                book("Rex", "okafor", "09:00"),
                see(1),
                collect("Pip")
            ]),
        ),
        // Carprofen down to 36 (reorder at 40, par 100): 2 packs of 50; shows 1 pack, Meloxicam's 1 not 2
        "reorder_par" => ("to_reorder", json!([treat("Rex", "Carprofen 50 mg", 7)])),
        // Meloxicam restocked: only Methimazole is ordered; shows Ketoprofen too, no longer made
        "reorder_discontinued" => ("to_reorder", json!([restock("Meloxicam 1 mg", 2)])),
        // Meloxicam restocked, new batch to day 865: last on the shelf; shows Carprofen before Amoxicillin
        "shelf_order" => ("shelf", json!([restock("Meloxicam 1 mg", 2)])),
        // Bella (no policy) and Rex seen, Rex given Carprofen: Bella no claim; shows Bella claiming 0.00 from "none"
        "claim_default" => (
            "claims",
            json!([
                book("Bella", "lind", "10:00"),
                book("Rex", "okafor", "10:00"),
                see(1),
                see(2),
                treat("Rex", "Carprofen 50 mg", 7)
            ]),
        ),
        // Carprofen, Meloxicam (2 packs each) and Methimazole (1) ordered: 49.00 + 19.60; shows each line at 5 packs
        "quote_packs" => ("quote", json!([treat("Rex", "Carprofen 50 mg", 7)])),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct practice after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    let shelf = |carprofen: u32, amoxicillin: u32| {
        json!([
            "Ketoprofen 10 mg: 6 tablets, use by day 515",
            "Prednisolone 5 mg: 90 tablets, use by day 530",
            "Meloxicam 1 mg: 24 tablets, use by day 560",
            format!("Amoxicillin 250 mg: {amoxicillin} tablets, use by day 620"),
            "Methimazole 5 mg: 10 tablets, use by day 640",
            format!("Carprofen 50 mg: {carprofen} tablets, use by day 700")
        ])
    };
    match key {
        "back_to_back" => json!([
            "09:00–09:20 Dr Okafor, Consult 1: Rex (dog, Ana Ruiz)",
            "09:20–09:40 Dr Lind, Consult 1: Bella (cat, Tom Hale)"
        ]),
        "treat_charge" => json!(["Tom Hale: care 45.00, medicines 3.15, total 48.15"]),
        "undispensed" => shelf(36, 80),
        "dose_weight_unit" => shelf(50, 73),
        "medium_run_rate" => json!(["Mei Chen: boarding 56.00, total 56.00"]),
        "due_swapped" => json!([
            "Rex (Ana Ruiz): Lepto overdue by 15 days",
            "Bruno (Mei Chen): Rabies due in 5 days",
            "Rex (Ana Ruiz): Rabies due in 15 days",
            "Bruno (Mei Chen): Lepto due in 25 days"
        ]),
        "boarding_bucket" => json!(["Ana Ruiz: care 45.00, boarding 24.00, total 69.00"]),
        "reorder_par" => json!([
            "Carprofen 50 mg: 2 packs of 50",
            "Meloxicam 1 mg: 2 packs of 30",
            "Methimazole 5 mg: 1 pack of 30"
        ]),
        "reorder_discontinued" => json!(["Methimazole 5 mg: 1 pack of 30"]),
        "shelf_order" => json!([
            "Ketoprofen 10 mg: 6 tablets, use by day 515",
            "Prednisolone 5 mg: 90 tablets, use by day 530",
            "Amoxicillin 250 mg: 80 tablets, use by day 620",
            "Methimazole 5 mg: 10 tablets, use by day 640",
            "Carprofen 50 mg: 50 tablets, use by day 700",
            "Meloxicam 1 mg: 84 tablets, use by day 865"
        ]),
        "claim_default" => json!([
            "Bella: no claim, no policy on file",
            "Rex: claim 26.72 of 53.40 from PetCover"
        ]),
        "quote_packs" => json!([
            "Carprofen 50 mg: 2 × 24.50 = 49.00",
            "Meloxicam 1 mg: 2 × 9.80 = 19.60",
            "Methimazole 5 mg: not sold: order it from the compounding pharmacy",
            "delivery 0.00, total 68.60"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a practice started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the practice does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_vet(slip)?, node, messages).await
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
    || start(Slip::BackToBack),
    || start(Slip::TreatCharge),
    || start(Slip::Undispensed),
    || start(Slip::DoseWeightUnit),
    || start(Slip::MediumRunRate),
    || start(Slip::DueSwapped),
    || start(Slip::BoardingBucket),
    || start(Slip::ReorderPar),
    || start(Slip::ReorderDiscontinued),
    || start(Slip::ShelfOrder),
    || start(Slip::ClaimDefault),
    || start(Slip::QuotePacks),
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
                "blind_vet: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_VET_SLIP", &SLIPS, Slip::None)?;
        let host = start_vet(slip)?;
        let options = McpAdapterOptions::new("blind-vet", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_vet: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_vet: {error}");
        std::process::exit(1);
    }
}
