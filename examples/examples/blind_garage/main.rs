//! A car repair garage's front desk (customers and their cars, bookings into three service bays by the hour, jobs
//! with labour and parts, a parts store with reorders from suppliers, mechanics and their skills, MOT due dates,
//! invoices with VAT and discounts, and the day's board), split over ten files as an app developer would write it,
//! with ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call
//! over MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The garage opens on Monday 7 December 2026 with three mechanics (Ravi: MOT and service, 8 h; Jo: electrics,
//! service and tyres, 8 h; Sam: bodywork and tyres, 6 h), three bays open from 08:00 to 18:00, and six parts in its
//! store. The desk adds customers (`add_customer`, a trade account or not) and their cars (`add_car`, with the day the
//! MOT runs out), books a car into the first bay free for its hours (`book`), gives the job to a mechanic trained for
//! the work (`assign`), and the car goes into its bay (`start_job`). The mechanic logs labour (`log_labour`) and fits
//! parts from the store (`fit_part`): a fit that leaves a part at or below its reorder level orders it to a full shelf
//! (a `reorder` command), and a shelf short of the part stops the job until it comes (and orders it too). A delivery
//! (`receive`) fills the shelf and fits the part on the jobs waiting for it (`fit_part` commands). A finished job
//! (`finish_job`) raises its invoice (a `raise_invoice` command: labour by the started quarter hour at £72 an hour,
//! parts at their shelf price, 10% off parts for the trade, 5% off labour for regulars, 20% VAT); the customer pays
//! and collects the car (`collect`); `next_day` closes the day. Derived: today's date, the day's board (today's
//! bookings bay by bay), each mechanic's day, the cars whose MOT runs out within 30 days, the invoices and the
//! takings, the parts on order and the desk's notices; the store, a keyed collection (`ranvier::collection`) with each
//! part's stock line as a row memo and views over it (the shelf in bin order from a `sort_by`, the parts running low
//! from a `filter`, how many are out from a `count_by`); and from two services over the network, as async memos: when
//! the parts on order come (the suppliers' lead times) and the MOT history of the cars booked in for a test today.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default` and `PartialEq`), `update.rs` (`update`, with
//! commands), `workshop.rs` (its helpers for the diary and the jobs), `pricing.rs` and `calendar.rs` (rules: the
//! invoice; dates and when an MOT falls due), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the desk's
//! screens), `stock.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs`
//! (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_GARAGE_SLIP=<key>`) runs the garage with that one mistake; without it the
//! garage is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_GARAGE_SLIP=<key> ranvier-mcp call target/debug/examples/blind_garage explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_garage -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the garage serves MCP over stdio.

use ranvier_examples::harness;

pub mod calendar;
pub mod graph;
pub mod model;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod stock;
pub mod update;
pub mod workshop;

use graph::{GarageDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the garage that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "labour_rate_unit",
        "a hand-written `Default` gives the labour rate in pounds where pence are meant (a wrong unit)",
        Slip::LabourRateUnit,
    ),
    (
        "bay_adjacent",
        "`<=` for `<` in the overlap test of an `update` helper: a booking starting as another ends is put in the next bay (off by one)",
        Slip::BayAdjacent,
    ),
    (
        "fit_merged_qty",
        "the wrong variable in an `update` helper: the shelf gives up all the job's pads, not the ones just fitted",
        Slip::FitMergedQty,
    ),
    (
        "short_no_reorder",
        "a command not sent: a job short of a part waits for it, and the part is never ordered",
        Slip::ShortNoReorder,
    ),
    (
        "discount_sign",
        "`+` for `-` in a pricing rule called from `update`: the discount is added to the invoice",
        Slip::DiscountSign,
    ),
    (
        "mot_days_swapped",
        "swapped arguments in a date rule called from a memo: every car's MOT reads as overdue",
        Slip::MotDaysSwapped,
    ),
    (
        "board_waiting_arm",
        "a wrong match arm in a long memo (copied from the arm above): a job waiting for parts shows as in the bay",
        Slip::BoardWaitingArm,
    ),
    (
        "mechanic_any_day",
        "a missing condition in a long memo: a mechanic's hours count their bookings of every day, not today's",
        Slip::MechanicAnyDay,
    ),
    (
        "reorder_to_level",
        "the wrong field in a row factory's memo: the order fills the shelf to the reorder level, not to full",
        Slip::ReorderToLevel,
    ),
    (
        "shelf_by_name",
        "a `sort_by` view's key on the wrong field: the shelf walked by part name, not by bin",
        Slip::ShelfByName,
    ),
    (
        "delivery_from_today",
        "the wrong captured value in an async memo's future: a delivery counted from today, not from the day it was ordered",
        Slip::DeliveryFromToday,
    ),
    (
        "mot_record_default",
        "a failure turned into a default in an async memo's future: a car with no MOT history reads as 0 tests, failed",
        Slip::MotRecordDefault,
    ),
];

/// What the graph thread keeps: the garage and its exposure.
pub type GarageHost = harness::ExposedHost<GarageDesk>;

/// Starts the garage with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_garage(slip: Slip) -> Result<GarageHost, HostError> {
    harness::start_exposed(move || graph::garage_desk(slip))
}

/// The garage with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::garage_desk(slip), "blind-garage")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the garage, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("workshop.rs", include_str!("workshop.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("calendar.rs", include_str!("calendar.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("stock.rs", include_str!("stock.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the garage holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the garage")
}

fn customer(name: &str, trade: bool) -> Value {
    msg(
        "add_customer",
        json!({"name": name, "phone": "01632 960000", "trade": trade}),
    )
}
fn car(plate: &str, owner: &str, make: &str, mot_due: &str) -> Value {
    msg(
        "add_car",
        json!({"plate": plate, "owner": owner, "make": make, "motDue": mot_due}),
    )
}
fn book(plate: &str, date: &str, start: u32, hours: u32, work: &str) -> Value {
    msg(
        "book",
        json!({"plate": plate, "date": date, "start": start, "hours": hours, "work": work}),
    )
}
fn assign(booking: u32, mechanic: &str) -> Value {
    msg("assign", json!({"booking": booking, "mechanic": mechanic}))
}
fn start_job(booking: u32) -> Value {
    msg("start_job", json!({ "booking": booking }))
}
fn log_labour(booking: u32, minutes: u32, note: &str) -> Value {
    msg(
        "log_labour",
        json!({"booking": booking, "minutes": minutes, "note": note}),
    )
}
fn fit_part(booking: u32, code: &str, qty: u32) -> Value {
    msg(
        "fit_part",
        json!({"booking": booking, "code": code, "qty": qty}),
    )
}
fn finish_job(booking: u32) -> Value {
    msg("finish_job", json!({ "booking": booking }))
}
fn next_day() -> Value {
    msg("next_day", json!({}))
}

/// Jones's Ford Focus (MOT due Sat 19 Dec 2026), booked for a service today from 09:00 for two hours, given to Ravi
/// and in bay 1: booking #1.
fn jones_in_bay() -> Vec<Value> {
    vec![
        customer("Jones", false),
        car("AB12 CDE", "Jones", "Ford Focus", "2026-12-19"),
        book("ab12cde", "2026-12-07", 9, 2, "service"),
        assign(1, "Ravi"),
        start_job(1),
    ]
}

/// `first` then `then`, as one JSON array of messages.
fn after(first: Vec<Value>, then: &[Value]) -> Value {
    let mut all = first;
    all.extend_from_slice(then);
    Value::Array(all)
}

/// The shelf as the garage opens, bin by bin.
fn opening_shelf() -> Value {
    json!([
        "A1 OIL-5W30 engine oil 5W-30, 5 l: 8",
        "A3 FLT-OIL oil filter: 10",
        "B2 BRK-PAD front brake pads: 6",
        "C1 WIPER wiper blades, pair: 3",
        "C4 BULB-H7 H7 headlamp bulb: 0",
        "D1 TYRE-205 tyre 205/55 R16: 4"
    ])
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the garage opens on Mon 7 Dec 2026; the store: BRK-PAD front brake pads 6 (reorder at 2, full 10,
/// 32.00, Motaparts), OIL-5W30 8 (3, 12, 36.00, Lubrico), FLT-OIL 10 (4, 20, 9.50, Motaparts), WIPER 3 (2, 8, 18.00,
/// Motaparts), BULB-H7 0 (2, 10, 7.00, Brightway: 3 days), TYRE-205 4 (4, 12, 89.00, Tyreline)).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // 90 minutes (6 quarters at 72.00 an hour) and 45.50 of parts: 108.00 + 45.50 + VAT; shows labour 1.08
        "labour_rate_unit" => (
            "invoices",
            after(
                jones_in_bay(),
                &[
                    log_labour(1, 90, "oil and filter change"),
                    fit_part(1, "OIL-5W30", 1),
                    fit_part(1, "FLT-OIL", 1),
                    finish_job(1),
                ],
            ),
        ),
        // Patel's Corsa from 11:00, as Jones's Focus leaves bay 1 at 11:00: bay 1; shows bay 2
        "bay_adjacent" => (
            "board",
            json!([
                customer("Jones", false),
                car("AB12 CDE", "Jones", "Ford Focus", "2026-12-19"),
                customer("Patel", false),
                car("CD34 EFG", "Patel", "Vauxhall Corsa", "2027-04-02"),
                book("AB12 CDE", "2026-12-07", 9, 2, "service"),
                book("CD34 EFG", "2026-12-07", 11, 1, "tyres")
            ]),
        ),
        // two fits of one set of pads: 4 left on the shelf; shows 3
        "fit_merged_qty" => (
            "shelf",
            after(
                jones_in_bay(),
                &[fit_part(1, "BRK-PAD", 1), fit_part(1, "BRK-PAD", 1)],
            ),
        ),
        // two H7 bulbs, none on the shelf: the job waits and ten are ordered; shows no order
        "short_no_reorder" => (
            "orders",
            after(jones_in_bay(), &[fit_part(1, "BULB-H7", 2)]),
        ),
        // Fleetline (trade) pays 72.00 of labour and 64.00 of pads less 10% of the pads, 6.40, plus VAT: 155.52;
        // shows 170.88
        "discount_sign" => (
            "invoices",
            json!([
                customer("Fleetline", true),
                car("LV63 KTR", "Fleetline", "Ford Transit", "2027-02-11"),
                book("LV63 KTR", "2026-12-07", 10, 2, "service"),
                assign(1, "Jo"),
                start_job(1),
                log_labour(1, 60, "front brakes"),
                fit_part(1, "BRK-PAD", 2),
                finish_job(1)
            ]),
        ),
        // the Focus's MOT runs out in 12 days, the Corsa's in April: only the Focus, due; shows both overdue
        "mot_days_swapped" => (
            "mot_due",
            json!([
                customer("Jones", false),
                car("AB12 CDE", "Jones", "Ford Focus", "2026-12-19"),
                customer("Patel", false),
                car("CD34 EFG", "Patel", "Vauxhall Corsa", "2027-04-02")
            ]),
        ),
        // the Focus waits for two H7 bulbs; shows it in the bay
        "board_waiting_arm" => ("board", after(jones_in_bay(), &[fit_part(1, "BULB-H7", 2)])),
        // Ravi has the Focus today (2 h) and the Corsa tomorrow (3 h): 2 of 8 hours today; shows 5
        "mechanic_any_day" => (
            "mechanics",
            json!([
                customer("Jones", false),
                car("AB12 CDE", "Jones", "Ford Focus", "2026-12-19"),
                customer("Patel", false),
                car("CD34 EFG", "Patel", "Vauxhall Corsa", "2027-04-02"),
                book("AB12 CDE", "2026-12-07", 9, 2, "service"),
                book("CD34 EFG", "2026-12-08", 9, 3, "mot"),
                assign(1, "Ravi"),
                assign(2, "Ravi")
            ]),
        ),
        // bulbs (0 of 10) and tyres (4 of 12) are low: order 10 and 8; shows 2 and 0
        "reorder_to_level" => ("low_stock", json!([next_day()])),
        // the shelf bin by bin; shows it by name
        "shelf_by_name" => ("shelf", json!([next_day()])),
        // bulbs ordered on Monday from Brightway (3 days) come on Thursday, in 2 days on Tuesday; shows Friday, 3 days
        "delivery_from_today" => (
            "deliveries",
            after(jones_in_bay(), &[fit_part(1, "BULB-H7", 2), next_day()]),
        ),
        // two MOTs today: the Focus has a history, Khan's new Niro none yet; shows the Niro with 0 tests, failed
        "mot_record_default" => (
            "mot_checks",
            json!([
                customer("Jones", false),
                car("AB12 CDE", "Jones", "Ford Focus", "2026-12-19"),
                customer("Khan", false),
                car("XY23 NEW", "Khan", "Kia Niro", "2026-12-20"),
                book("AB12 CDE", "2026-12-07", 9, 1, "mot"),
                book("XY23 NEW", "2026-12-07", 10, 1, "mot")
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct garage after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "labour_rate_unit" => json!([
            "#1 Jones, AB12 CDE: labour 108.00, parts 45.50, less 0.00, VAT 30.70, total 184.20"
        ]),
        "bay_adjacent" => json!([
            "Bay 1 09:00-11:00 AB12 CDE Ford Focus, service (nobody yet): booked",
            "Bay 1 11:00-12:00 CD34 EFG Vauxhall Corsa, tyres (nobody yet): booked"
        ]),
        "fit_merged_qty" => json!([
            "A1 OIL-5W30 engine oil 5W-30, 5 l: 8",
            "A3 FLT-OIL oil filter: 10",
            "B2 BRK-PAD front brake pads: 4",
            "C1 WIPER wiper blades, pair: 3",
            "C4 BULB-H7 H7 headlamp bulb: 0",
            "D1 TYRE-205 tyre 205/55 R16: 4"
        ]),
        "short_no_reorder" => json!(["10 x BULB-H7 from Brightway, ordered Mon 7 Dec 2026"]),
        "discount_sign" => json!([
            "#1 Fleetline, LV63 KTR: labour 72.00, parts 64.00, less 6.40, VAT 25.92, total 155.52"
        ]),
        "mot_days_swapped" => {
            json!(["AB12 CDE (Jones, Ford Focus): due in 12 days, Sat 19 Dec 2026"])
        }
        "board_waiting_arm" => json!([
            "Bay 1 09:00-11:00 AB12 CDE Ford Focus, service (Ravi): waiting for 2 x BULB-H7"
        ]),
        "mechanic_any_day" => json!([
            "Ravi (MOT, service): 2 of 8 hours booked, 0h00 logged, 6 h free",
            "Jo (electrics, service, tyres): 0 of 8 hours booked, 0h00 logged, 8 h free",
            "Sam (bodywork, tyres): 0 of 6 hours booked, 0h00 logged, 6 h free"
        ]),
        "reorder_to_level" => json!([
            "BULB-H7 H7 headlamp bulb: out of stock: order 10",
            "TYRE-205 tyre 205/55 R16: 4 left: order 8"
        ]),
        "shelf_by_name" => opening_shelf(),
        "delivery_from_today" => {
            json!(["10 x BULB-H7 from Brightway: Thu 10 Dec 2026, in 2 days"])
        }
        "mot_record_default" => json!([
            "AB12 CDE: 11 tests, last passed, 2 advisories",
            "XY23 NEW: no MOT on record"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a garage started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the garage does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_garage(slip)?, node, messages).await
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
    || start(Slip::LabourRateUnit),
    || start(Slip::BayAdjacent),
    || start(Slip::FitMergedQty),
    || start(Slip::ShortNoReorder),
    || start(Slip::DiscountSign),
    || start(Slip::MotDaysSwapped),
    || start(Slip::BoardWaitingArm),
    || start(Slip::MechanicAnyDay),
    || start(Slip::ReorderToLevel),
    || start(Slip::ShelfByName),
    || start(Slip::DeliveryFromToday),
    || start(Slip::MotRecordDefault),
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
                "blind_garage: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_GARAGE_SLIP", &SLIPS, Slip::None)?;
        let host = start_garage(slip)?;
        let options = McpAdapterOptions::new("blind-garage", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_garage: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_garage: {error}");
        std::process::exit(1);
    }
}
