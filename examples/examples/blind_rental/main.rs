//! A car-hire office (cars in four classes at two branches, bookings with their pick-up and return days and their
//! branches, extras by the day, a deposit taken at pick-up, the mileage and the fuel gauge read at return, damage
//! reports with an excess by class, late returns, one-way fees, a loyalty discount, the day's board and the week's
//! takings, and two services over the network), split over ten files as an app developer would write it, with
//! ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call over
//! MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The office: the week opens on day 100 with seven cars (at York: YK21 AAA economy, 12,000 km; YK21 BBB compact,
//! 31,500 km and due for its service; YK22 CCC compact, diesel, 8,000 km; YK22 GGG compact, 14,000 km; YK19 EEE
//! estate; YK23 FFF van; at Leeds: YK20 DDD compact) and three customers who have hired before (Ada four times, Ben
//! never, Cy eleven times); the desk opens (the initial command of `Mvu::with_commands`). The desk takes bookings
//! (`book`: a class, the pick-up and return days, the branches), extras (`add_extra`: satnav, child seat, extra
//! driver, full cover), hands over the free car of the class with the fewest kilometres that is not due for its
//! service (`pick_up`, which sends a `Deposit` command), notes damage (`damage`) and takes cars back (`return`, with
//! the odometer and the fuel gauge in eighths, which sends a `Settle` command: the days at the class's rate, the
//! extras, the kilometres past 250 a day, the fuel short, a late return's extra days and fee, the one-way fee, less
//! 5% or 10% for loyal customers; the deposit keeps each repair up to the excess, none with full cover). Derived: the
//! day, the day's board (hand-overs, cars due back, cars overdue), the fleet list, the invoices, the week's takings,
//! the notices; the bookings, a keyed collection (`ranvier::collection`) with each booking's line as a row memo and
//! views over it (the schedule in pick-up order, from a `sort_by`; the one-way hires, a `filter`; the cars out on
//! hire, a `count_by`); and from two services over the network, as async memos: what refuelling the cars that came
//! back short costs at the fuel feed's prices, and what the insurer pays towards the damage reported.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, methods on the model's types), `update.rs`
//! (`update`, its helpers, with commands), `tariffs.rs` (rates and charges), `damage.rs` (the excess and the
//! deposit), `fleet.rs` (the service rule and the fleet list), `graph.rs` (the `#[expose]` app, the `#[node]`
//! builder, the day's board and the week's takings), `bookings.rs` (the collection, its row factory and views),
//! `services.rs` (the async memos), `remote.rs` (the services).
//!
//! The mistakes (see [`SLIPS`]): two in async memos' futures, two in the keyed collection (its row memo and a view),
//! two in `update`'s helpers, three in rule modules, two in long memos, one in a model type's method.
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_RENTAL_SLIP=<key>`) runs the office with that one mistake; without it the
//! office is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_RENTAL_SLIP=<key> ranvier-mcp call target/debug/examples/blind_rental explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_rental -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the office serves MCP over stdio.

use ranvier_examples::harness;

pub mod bookings;
pub mod damage;
pub mod fleet;
pub mod graph;
pub mod model;
pub mod remote;
pub mod services;
pub mod tariffs;
pub mod update;

use graph::{RentalOffice, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the office that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    ("fuel_short", "async memo's future", Slip::FuelShort),
    ("claim_total", "async memo's future", Slip::ClaimTotal),
    ("row_days", "collection row memo", Slip::RowDays),
    ("on_hire", "collection view", Slip::OnHire),
    ("free_car", "update helper", Slip::FreeCar),
    ("return_branch", "update helper", Slip::ReturnBranch),
    ("late_fee", "rule module", Slip::LateFee),
    ("damage_excess", "rule module", Slip::DamageExcess),
    ("service_due", "rule module", Slip::ServiceDue),
    ("board_returns", "long memo", Slip::BoardReturns),
    ("week_takings", "long memo", Slip::WeekTakings),
    ("hire_days", "model method", Slip::HireDays),
];

/// What the graph thread keeps: the office and its exposure.
pub type RentalHost = harness::ExposedHost<RentalOffice>;

/// Starts the office with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_rental(slip: Slip) -> Result<RentalHost, HostError> {
    harness::start_exposed(move || graph::rental_office(slip))
}

/// The office with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::rental_office(slip), "blind-rental")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the office, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("tariffs.rs", include_str!("tariffs.rs")),
    ("damage.rs", include_str!("damage.rs")),
    ("fleet.rs", include_str!("fleet.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("bookings.rs", include_str!("bookings.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the office holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the office")
}

fn book(customer: &str, class: &str, days: (u32, u32), from: &str, to: &str) -> Value {
    msg(
        "book",
        json!({"customer": customer, "class": class, "pickup": days.0, "return_day": days.1, "from": from, "to": to}),
    )
}
fn pick_up(booking: u32) -> Value {
    msg("pick_up", json!({ "booking": booking }))
}
fn give_back(booking: u32, km: u32, fuel: u32) -> Value {
    msg(
        "return",
        json!({"booking": booking, "km": km, "fuel": fuel}),
    )
}
fn damage(booking: u32, part: &str, cost: u32) -> Value {
    msg(
        "damage",
        json!({"booking": booking, "part": part, "cost": cost}),
    )
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). Day 100: compacts at York YK21 BBB (31,500 km, due for its service), YK22 CCC (diesel, 8,000 km) and
/// YK22 GGG (14,000 km); a compact is £38.00 a day with a £250.00 deposit, an economy £30.00 with £200.00, a van
/// £65.00 with £400.00; Ada has hired four times (5% off), Ben never; 250 km a day included; tanks of 40 L
/// (economy) and 48 L (compact), diesel £1.52 a litre; the insurer pays 80% for the cars on its policy; a van's
/// excess is £1,500.00.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Ada's economy back full, then Ben's compact with 5/8: 18 L of diesel to buy, £27.36; shows nothing at all
        "fuel_short" => (
            "refuel",
            json!([
                book("Ada", "economy", (100, 102), "York", "York"),
                book("Ben", "compact", (100, 102), "York", "York"),
                pick_up(1),
                pick_up(2),
                advance(2),
                give_back(1, 12_300, 8),
                give_back(2, 8_400, 5)
            ]),
        ),
        // a £400.00 wing on YK22 CCC: the insurer pays £320.00 of £400.00; shows £400.00 of £400.00
        "claim_total" => (
            "claims",
            json!([
                book("Ada", "compact", (100, 102), "York", "York"),
                pick_up(1),
                damage(1, "wing", 40_000)
            ]),
        ),
        // Ada books days 100 to 103: `days 100–103`; shows `days 103–100`
        "row_days" => (
            "booking_lines",
            json!([book("Ada", "compact", (100, 103), "York", "Leeds")]),
        ),
        // Ada's compact collected and returned: none out; shows 1
        "on_hire" => (
            "on_hire",
            json!([
                book("Ada", "compact", (100, 102), "York", "York"),
                pick_up(1),
                advance(2),
                give_back(1, 8_300, 8)
            ]),
        ),
        // Ben collects a compact at York: YK22 CCC, the fewest km; shows YK22 GGG out
        "free_car" => (
            "fleet",
            json!([
                book("Ben", "compact", (100, 101), "York", "York"),
                pick_up(1)
            ]),
        ),
        // Ada's compact one way to Leeds: YK22 CCC stands at Leeds; shows it back at York
        "return_branch" => (
            "fleet",
            json!([
                book("Ada", "compact", (100, 102), "York", "Leeds"),
                pick_up(1),
                advance(2),
                give_back(1, 8_400, 8)
            ]),
        ),
        // Ada's compact back on the day due: no late charge, £72.20; shows a £25.00 late fee
        "late_fee" => (
            "invoices",
            json!([
                book("Ada", "compact", (100, 102), "York", "York"),
                pick_up(1),
                advance(2),
                give_back(1, 8_300, 8)
            ]),
        ),
        // £300.00 of damage to Ben's van: under the van's excess, the deposit keeps £300.00 and gives £100.00 back;
        // shows nothing kept and £400.00 back
        "damage_excess" => (
            "invoices",
            json!([
                book("Ben", "van", (100, 101), "York", "York"),
                pick_up(1),
                damage(1, "door", 30_000),
                advance(1),
                give_back(1, 16_100, 8)
            ]),
        ),
        // only YK21 BBB has run 15,000 km since its service; shows four cars due
        "service_due" => ("fleet", json!([advance(1)])),
        // Ada's compact came back a day early: nothing due on day 102; shows it due back
        "board_returns" => (
            "board",
            json!([
                book("Ada", "compact", (100, 102), "York", "York"),
                pick_up(1),
                advance(1),
                give_back(1, 8_200, 8),
                advance(1)
            ]),
        ),
        // a £200.00 deposit on day 100, £28.50 of hire and the deposit back on day 101: the week £28.50; shows the
        // deposit given back added, £428.50
        "week_takings" => (
            "takings",
            json!([
                book("Ada", "economy", (100, 101), "York", "York"),
                pick_up(1),
                advance(1),
                give_back(1, 12_100, 8)
            ]),
        ),
        // Cy's estate for the day: one day; shows 0 days
        "hire_days" => (
            "booking_lines",
            json!([book("Cy", "estate", (100, 100), "York", "York")]),
        ),
        other => panic!("no mistake {other}"),
    }
}

fn fleet(cars: [&str; 7], free: &str) -> Value {
    let mut lines: Vec<Value> = cars.iter().map(|c| json!(c)).collect();
    lines.push(json!(free));
    Value::Array(lines)
}

const AAA: &str = "YK21 AAA economy (petrol) at York: available, 12000 km";
const BBB: &str = "YK21 BBB compact (petrol) at York: available, 31500 km; due for service";
const CCC: &str = "YK22 CCC compact (diesel) at York: available, 8000 km";
const GGG: &str = "YK22 GGG compact (petrol) at York: available, 14000 km";
const DDD: &str = "YK20 DDD compact (petrol) at Leeds: available, 21000 km";
const EEE: &str = "YK19 EEE estate (diesel) at York: available, 44000 km";
const FFF: &str = "YK23 FFF van (diesel) at York: available, 16000 km";

/// The value `key`'s node holds in the correct office after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "fuel_short" => json!([
            "YK22 CCC (compact, diesel): 3/8 short, 18 L at £1.52, £27.36",
            "to refuel: £27.36"
        ]),
        "claim_total" => json!([
            "YK22 CCC wing: £400.00, the insurer pays £320.00",
            "insurer pays: £320.00 of £400.00"
        ]),
        "row_days" => json!(["#1 Ada: compact, days 100–103 (3 days), York to Leeds, booked"]),
        "on_hire" => json!(0),
        "free_car" => fleet(
            [
                AAA,
                BBB,
                "YK22 CCC compact (diesel) at York: out on #1 until day 101, 8000 km",
                GGG,
                DDD,
                EEE,
                FFF,
            ],
            "free: Leeds 1, York 5",
        ),
        "return_branch" => fleet(
            [
                AAA,
                BBB,
                "YK22 CCC compact (diesel) at Leeds: available, 8400 km",
                GGG,
                DDD,
                EEE,
                FFF,
            ],
            "free: Leeds 2, York 5",
        ),
        "late_fee" => json!([
            "#1 Ada: 2 days £76.00, extras £0.00, km £0.00, fuel £0.00, late £0.00, one-way £0.00, loyalty -£3.80, \
             total £72.20; deposit £250.00, kept £0.00, back £250.00"
        ]),
        "damage_excess" => json!([
            "#1 Ben: 1 days £65.00, extras £0.00, km £0.00, fuel £0.00, late £0.00, one-way £0.00, loyalty -£0.00, \
             total £65.00; deposit £400.00, kept £300.00, back £100.00"
        ]),
        "service_due" => fleet([AAA, BBB, CCC, GGG, DDD, EEE, FFF], "free: Leeds 1, York 6"),
        "board_returns" => json!(["day 102: nothing to hand over or take back"]),
        "week_takings" => json!([
            "day 100: hire £0.00, deposits £200.00, back £0.00, net £200.00",
            "day 101: hire £28.50, deposits £0.00, back £200.00, net -£171.50",
            "week: £28.50"
        ]),
        "hire_days" => json!(["#1 Cy: estate, days 100–100 (1 day), York to York, booked"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in an office started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the office does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_rental(slip)?, node, messages).await
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
    || start(Slip::FuelShort),
    || start(Slip::ClaimTotal),
    || start(Slip::RowDays),
    || start(Slip::OnHire),
    || start(Slip::FreeCar),
    || start(Slip::ReturnBranch),
    || start(Slip::LateFee),
    || start(Slip::DamageExcess),
    || start(Slip::ServiceDue),
    || start(Slip::BoardReturns),
    || start(Slip::WeekTakings),
    || start(Slip::HireDays),
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
                "blind_rental: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_RENTAL_SLIP", &SLIPS, Slip::None)?;
        let host = start_rental(slip)?;
        let options = McpAdapterOptions::new("blind-rental", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_rental: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_rental: {error}");
        std::process::exit(1);
    }
}
