//! A community food bank (donations logged by category and best-before day, stock by category, parcels sized by
//! household, volunteers' shifts at the packing tables, deliveries to households who cannot collect, the week's
//! report, and two services over the network), split over nine files as an app developer would write it, with
//! ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call over
//! MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The food bank opens on day 1, a Monday. A donation is logged (`donate`: donor, category, grams, best-before day)
//! and goes on the shelves; a household registers (`register`: its people, its zone, and whether it cannot collect);
//! a parcel is packed for it (`pack`: so much per person and category, capped, taken from the food that goes off
//! first, and for a household that cannot collect the van is booked for the next day, as a `BookDelivery`
//! command); a volunteer takes a shift at a packing table (`shift`, times as `hhmm`); the day is closed (`next_day`):
//! what is past its best-before day is thrown away. Derived: the day, the stock by category, what the shelves are
//! short of for every household's next parcel, today's parcels, tomorrow's deliveries, who is at each table while
//! the doors are open (10:00 to 13:00), each volunteer's hours this week and the week's report; the shelves, a keyed
//! collection (`ranvier::collection`) with each donation's label as a row memo and views over it (the labels in the
//! order to use the food, from a `sort_by`, the fresh lots from a `count_by`, the loose lots from a `filter`); and
//! from two services over the network, as async memos: tomorrow's delivery round (a routing service's driving
//! times) and what the regional warehouse can give towards the shortfall.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update`, its helpers, the
//! commands), `rules.rs` (the parcel's portions) and `rota.rs` (shift lengths, who is on while open), `graph.rs`
//! (the `#[expose]` app, the memos, the `#[node]` builder), `shelves.rs` (the collection, its row factory and
//! views), `services.rs` (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_FOODBANK_SLIP=<key>`) runs the food bank with that one mistake; without it
//! the food bank is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain`
//! arguments that show it (`BLIND_FOODBANK_SLIP=<key> ranvier-mcp call target/debug/examples/blind_foodbank explain
//! '<those>'` asks by hand). `cargo run -p ranvier-examples --features blind --example blind_foodbank -- --report` (a debug build: only traced builds list
//! `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length
//! (`--answers` adds each answer). Otherwise the food bank serves MCP over stdio.

use ranvier_examples::harness;

pub mod graph;
pub mod model;
pub mod remote;
pub mod rota;
pub mod rules;
pub mod services;
pub mod shelves;
pub mod update;

use graph::{FoodBank, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the food bank that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "pack_no_van",
        "a command not sent: `update` returns a new empty list, not the commands its `pack` helper pushed the van's booking to",
        Slip::PackNoVan,
    ),
    (
        "waste_on_the_day",
        "`<=` for `<` in an `update` helper: food on its best-before day is thrown away (off by one)",
        Slip::WasteOnTheDay,
    ),
    (
        "stock_taken",
        "a wrong accumulator in an `update` helper: `=` for `+=`, so what a parcel got is only the last lot's share",
        Slip::StockTaken,
    ),
    (
        "fresh_portion",
        "a wrong match arm in a rule called from `update`: fresh food gets dairy's portion",
        Slip::FreshPortion,
    ),
    (
        "shift_length",
        "a wrong unit in a rule called from a memo: a shift's length from `hhmm` times, not minutes",
        Slip::ShiftLength,
    ),
    (
        "open_overlap",
        "`||` for `&&` in a rule called from a memo: a shift after closing counts as on while the doors are open",
        Slip::OpenOverlap,
    ),
    (
        "report_week",
        "a missing condition in a long memo: the week's report counts every week's parcels",
        Slip::ReportWeek,
    ),
    (
        "shortfall_filter",
        "an inverted filter in a long memo: the categories in stock are listed as short, the short ones left out",
        Slip::ShortfallFilter,
    ),
    (
        "label_days_left",
        "the wrong field in a row factory's memo: the days left counted from the day received, not the best-before",
        Slip::LabelDaysLeft,
    ),
    (
        "use_first_order",
        "a wrong sort key in a `sort_by` view: the lightest lot first, not the one that goes off first",
        Slip::UseFirstOrder,
    ),
    (
        "round_legs",
        "the wrong variable in an async memo's future: every leg of the round driven from the depot",
        Slip::RoundLegs,
    ),
    (
        "warehouse_silent",
        "a failure turned into a default in an async memo's future: a category the warehouse has none of is offered 0.0 kg",
        Slip::WarehouseSilent,
    ),
];

/// What the graph thread keeps: the food bank and its exposure.
pub type FoodBankHost = harness::ExposedHost<FoodBank>;

/// Starts the food bank with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_food_bank(slip: Slip) -> Result<FoodBankHost, HostError> {
    harness::start_exposed(move || graph::food_bank(slip))
}

/// The food bank with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::food_bank(slip), "blind-foodbank")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the food bank, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("rota.rs", include_str!("rota.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("shelves.rs", include_str!("shelves.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the food bank holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the food bank")
}

fn donate(donor: &str, category: &str, grams: u32, best_before: u32) -> Value {
    msg(
        "donate",
        json!({"donor": donor, "category": category, "grams": grams, "bestBefore": best_before}),
    )
}
fn register(household: &str, people: u32, zone: &str, delivery: bool) -> Value {
    msg(
        "register",
        json!({"household": household, "people": people, "zone": zone, "delivery": delivery}),
    )
}
fn pack(household: &str) -> Value {
    msg("pack", json!({ "household": household }))
}
fn shift(volunteer: &str, table: u32, from: u32, to: u32) -> Value {
    msg(
        "shift",
        json!({"volunteer": volunteer, "table": table, "from": from, "to": to}),
    )
}
fn next_day() -> Value {
    msg("next_day", json!({}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the food bank opens on day 1; a parcel gives per person 800 g of tins and of pasta (at most 3.2 kg),
/// 500 g of fresh food (at most 2.5 kg) and 300 g of dairy (at most 1.2 kg); the doors are open 10:00 to 13:00; the
/// van leaves the depot at 10:00 and stays 10 minutes at a stop, depot-east 9 minutes, depot-south 15, east-south 11;
/// the warehouse has 5.0 kg of tins, 1.0 kg of pasta, 2.0 kg of dairy and no fresh food).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Kim cannot collect: her parcel goes on tomorrow's van; shows nobody
        "pack_no_van" => (
            "deliveries",
            json!([
                register("Kim", 2, "north", true),
                donate("Ann", "tins", 5000, 9),
                pack("Kim")
            ]),
        ),
        // the milk keeps until the end of day 2: still on the shelf on day 2; shows the shelves empty
        "waste_on_the_day" => (
            "stock",
            json!([donate("Ann", "dairy", 1000, 2), next_day()]),
        ),
        // two people: 1.6 kg of tins, 1.0 kg from Ann's lot and 0.6 kg from Bo's; shows 0.6 kg
        "stock_taken" => (
            "parcels",
            json!([
                register("Kim", 2, "north", false),
                donate("Ann", "tins", 1000, 4),
                donate("Bo", "tins", 1000, 9),
                pack("Kim")
            ]),
        ),
        // two people: 1.0 kg of fresh food; shows 0.6 kg
        "fresh_portion" => (
            "parcels",
            json!([
                register("Kim", 2, "north", false),
                donate("Ann", "fresh", 5000, 5),
                pack("Kim")
            ]),
        ),
        // 09:30 to 12:00 is 2h30; shows 4h30
        "shift_length" => ("volunteer_hours", json!([shift("Ana", 1, 930, 1200)])),
        // Ben comes at 14:00, after closing; shows Ben at table 1 too
        "open_overlap" => (
            "tables",
            json!([shift("Ana", 1, 1000, 1300), shift("Ben", 1, 1400, 1600)]),
        ),
        // Kim's parcel was packed in week 1; week 2 has none; shows 1 parcel for 2 people
        "report_week" => (
            "report",
            json!([
                register("Kim", 2, "north", false),
                donate("Ann", "tins", 5000, 30),
                pack("Kim"),
                next_day(),
                next_day(),
                next_day(),
                next_day(),
                next_day(),
                next_day(),
                next_day()
            ]),
        ),
        // tins in stock, the rest short; shows tins short of 0 g and nothing else
        "shortfall_filter" => (
            "shortfall",
            json!([
                register("Kim", 2, "north", false),
                donate("Ann", "tins", 5000, 9)
            ]),
        ),
        // best before day 5, today day 1: 4 days left; shows "use today"
        "label_days_left" => ("use_first", json!([donate("Ann", "tins", 400, 5)])),
        // Bo's milk (day 3), then Cy's pasta (day 6), then Ann's tins (day 9); shows them by weight
        "use_first_order" => (
            "use_first",
            json!([
                donate("Ann", "tins", 400, 9),
                donate("Bo", "dairy", 1000, 3),
                donate("Cy", "pasta", 200, 6)
            ]),
        ),
        // Kim in the east at 10:09, then Lee in the south at 10:30; shows Lee at 10:34
        "round_legs" => (
            "round",
            json!([
                register("Kim", 2, "east", true),
                register("Lee", 1, "south", true),
                donate("Ann", "tins", 5000, 9),
                pack("Kim"),
                pack("Lee")
            ]),
        ),
        // the warehouse has no fresh food; shows 0.0 kg of fresh food offered
        "warehouse_silent" => ("top_up", json!([register("Kim", 2, "north", false)])),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct food bank after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "pack_no_van" => json!(["Kim (north)"]),
        "waste_on_the_day" => json!(["dairy: 1.0 kg in 1 lot, first due day 2"]),
        "stock_taken" => json!(["Kim, 2 people: tins 1.6 kg"]),
        "fresh_portion" => json!(["Kim, 2 people: fresh 1.0 kg"]),
        "shift_length" => json!(["Ana: 2h30"]),
        "open_overlap" => json!(["Table 1: Ana", "Table 2: nobody", "Table 3: nobody"]),
        "report_week" => json!([
            "Week 2, days 8 to 14",
            "0.0 kg donated",
            "0 parcels, 0.0 kg, for 0 people",
            "0 delivered",
            "0.0 kg thrown away"
        ]),
        "shortfall_filter" => json!([
            {"category": "Pasta", "grams": 1600},
            {"category": "Fresh", "grams": 1000},
            {"category": "Dairy", "grams": 600}
        ]),
        "label_days_left" => json!(["#1 0.4 kg tins from Ann: 4 days left"]),
        "use_first_order" => json!([
            "#2 1.0 kg dairy from Bo: use soon, 2 days left",
            "#3 0.2 kg pasta from Cy: 5 days left",
            "#1 0.4 kg tins from Ann: 8 days left"
        ]),
        "round_legs" => json!(["10:09 Kim (east)", "10:30 Lee (south)"]),
        "warehouse_silent" => json!([
            "tins: 1.6 kg short, 1.6 kg from the warehouse",
            "pasta: 1.6 kg short, 1.0 kg from the warehouse",
            "fresh: 1.0 kg short, warehouse: no fresh surplus this week",
            "dairy: 0.6 kg short, 0.6 kg from the warehouse"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a food bank started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the food bank does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_food_bank(slip)?, node, messages).await
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
    || start(Slip::PackNoVan),
    || start(Slip::WasteOnTheDay),
    || start(Slip::StockTaken),
    || start(Slip::FreshPortion),
    || start(Slip::ShiftLength),
    || start(Slip::OpenOverlap),
    || start(Slip::ReportWeek),
    || start(Slip::ShortfallFilter),
    || start(Slip::LabelDaysLeft),
    || start(Slip::UseFirstOrder),
    || start(Slip::RoundLegs),
    || start(Slip::WarehouseSilent),
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
                "blind_foodbank: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_FOODBANK_SLIP", &SLIPS, Slip::None)?;
        let host = start_food_bank(slip)?;
        let options = McpAdapterOptions::new("blind-foodbank", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_foodbank: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_foodbank: {error}");
        std::process::exit(1);
    }
}
