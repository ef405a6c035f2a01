//! A fruit farm's orchard and packhouse (blocks of apples, pears and plums with their picking windows, pickers paid
//! by the bin with a top-up to the minimum wage, bins weighed and graded into class I, class II and juice, cold-store
//! rooms with their capacity and temperature limits, packing runs for customers' orders priced by grade with a volume
//! discount, frost and hail that downgrade a block, the day's picking board and the week's payroll and sales, and two
//! services over the network), split over ten files as an app developer would write it, with ordinary mistakes that
//! were not planted with `explain` in mind: a blind test of whether one `explain` call over MCP names the faulty line,
//! written by a tester who had not read how `explain` diagnoses.
//!
//! The farm: the week opens on day 250 with four blocks (1 Cox, apples, picked days 248–262; 2 Bramley, apples,
//! 244–270; 3 Conference, pears, 245–258; 4 Victoria, plums, 240–252), four pickers (Ana, Ben, Cas, Dov) and two
//! cold-store rooms (1 for four bins, 2 for six); the day starts (initial commands of `Mvu::with_commands`) with the
//! rooms' thermostat readings, 1.0 °C and 3.0 °C. Pickers log their hours (`shift`) and bring bins to the weighbridge
//! (`pick`: refused outside the block's window; graded by variety, fruit size and defects, and the weather the block
//! had), and each bin goes to the first room with space (a `Store` command). Frost or hail over a block (`weather`)
//! marks it and downgrades its bins in store. Customers order a grade (`order`: supermarket, farm shop or juice
//! press); a packing run (`pack`) takes the oldest bins of the grade in store until the weight is made and sends an
//! `Invoice` command, priced by customer and grade with 5% off 500 kg or more. Derived: the day, the picking board,
//! the week's payroll (piece rate £18.00 a bin, topped up to £11.44 an hour), the cold store's rooms with a warning
//! when a room is too warm or cold for the fruit in it, the sales; the blocks, a keyed collection
//! (`ranvier::collection`) with each block's yield as a row memo and views over it (the blocks in the order their
//! windows close, from a `sort_by`; those the weather marked, a `filter`; how many have been started, a `count_by`);
//! and from two services over the network, as async memos: the fruit in store at the wholesale market's prices, and
//! the residue lab's results for the blocks picked.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, methods on the model's types), `update.rs`
//! (`update`, its helpers, with commands), `tariffs.rs` (pay and prices), `grading.rs` (the grading line),
//! `storage.rs` (the cold store's limits), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the longer memos),
//! `blocks.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs` (the
//! services).
//!
//! The mistakes (see [`SLIPS`]): two in async memos' futures (an integer division done first, an early return), two
//! in the keyed collection (a wrong field in the row memo, a wrong key in the `sort_by` view), two in `update`'s
//! helpers (swapped arguments, a wrong field compared), three in rule modules (`min` for `max` in the pay rule a memo
//! calls, `>` for `>=` in the price rule `update` calls, a merged match arm in the storage limits a memo calls), two
//! in long memos (an accumulator not reset per picker, a missing condition), and one in a model type's method (off by
//! one at the end of a window).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_ORCHARD_SLIP=<key>`) runs the orchard with that one mistake; without it
//! the orchard is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments
//! that show it (`BLIND_ORCHARD_SLIP=<key> ranvier-mcp call target/debug/examples/blind_orchard explain '<those>'`
//! asks by hand). `cargo run -p ranvier-examples --features blind --example blind_orchard -- --report` (a debug build: only traced builds list `explain`)
//! prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers`
//! adds each answer). Otherwise the orchard serves MCP over stdio.

use ranvier_examples::harness;

pub mod blocks;
pub mod grading;
pub mod graph;
pub mod model;
pub mod remote;
pub mod services;
pub mod storage;
pub mod tariffs;
pub mod update;

use graph::{OrchardOffice, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the orchard that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "stock_value",
        "an integer division done first in an async memo's future: the kilograms become tonnes, rounded down",
        Slip::StockValue,
    ),
    (
        "residue_checks",
        "an early return in an async memo's future: a block without a result hides the blocks after it",
        Slip::ResidueChecks,
    ),
    (
        "yield_per_tree",
        "the wrong field in a row factory's memo: the yield divided by the rows, not the trees",
        Slip::YieldPerTree,
    ),
    (
        "picking_order",
        "a wrong sort key in a `sort_by` view: the blocks by the day their window opens, not closes",
        Slip::PickingOrder,
    ),
    (
        "bin_grade",
        "swapped arguments in an `update` helper: the grading gets the defects as the size and the size as the defects",
        Slip::BinGrade,
    ),
    (
        "hail_downgrade",
        "a wrong field in an `update` helper: the bins to downgrade matched by their number, not their block",
        Slip::HailDowngrade,
    ),
    (
        "top_up",
        "`min` for `max` in a rule a long memo calls: the minimum wage caps the pay instead of topping it up",
        Slip::TopUp,
    ),
    (
        "volume_discount",
        "`>` for `>=` in a rule `update` calls: an order of exactly 500 kg misses the volume discount",
        Slip::VolumeDiscount,
    ),
    (
        "pear_store",
        "a merged match arm in a rule a memo calls: pears kept to the plums' limits",
        Slip::PearStore,
    ),
    (
        "week_hours",
        "an accumulator not reset in a long memo: each picker's hours add the hours of those before",
        Slip::WeekHours,
    ),
    (
        "board_today",
        "a missing condition in a long memo: the day's board counts the bins of every day",
        Slip::BoardToday,
    ),
    (
        "closing_day",
        "off by one in a model type's method: a block's last day is outside its picking window",
        Slip::ClosingDay,
    ),
];

/// What the graph thread keeps: the orchard and its exposure.
pub type OrchardHost = harness::ExposedHost<OrchardOffice>;

/// Starts the orchard with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_orchard(slip: Slip) -> Result<OrchardHost, HostError> {
    harness::start_exposed(move || graph::orchard_office(slip))
}

/// The orchard with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::orchard_office(slip), "blind-orchard")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the orchard, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("tariffs.rs", include_str!("tariffs.rs")),
    ("grading.rs", include_str!("grading.rs")),
    ("storage.rs", include_str!("storage.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("blocks.rs", include_str!("blocks.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the orchard holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the orchard")
}

fn pick(picker: &str, block: u32, kg: u32, size_mm: u32, defects: u32) -> Value {
    msg(
        "pick",
        json!({"picker": picker, "block": block, "kg": kg, "size_mm": size_mm, "defects": defects}),
    )
}
fn shift(picker: &str, hours: u32) -> Value {
    msg("shift", json!({"picker": picker, "hours": hours}))
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}
fn weather(block: u32, event: &str) -> Value {
    msg("weather", json!({"block": block, "event": event}))
}
fn set_temp(room: u8, temp: f64) -> Value {
    msg("set_temp", json!({"room": room, "temp": temp}))
}
fn order(customer: &str, grade: &str, kg: u32) -> Value {
    msg(
        "order",
        json!({"customer": customer, "grade": grade, "kg": kg}),
    )
}
fn pack(order: u32) -> Value {
    msg("pack", json!({ "order": order }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). Day 250: blocks 1 Cox (apples, 240 trees in 12 rows, days 248–262), 2 Bramley (apples, 244–270),
/// 3 Conference (pears, 245–258), 4 Victoria (plums, 240–252); rooms 1 (four bins, 1.0 °C) and 2 (six bins,
/// 3.0 °C); class I from 65 mm for apples, 60 mm for pears, with 3% defects at most; apples class I £900 a tonne at
/// the market; the lab has no sample from Cox and Conference at 0.08 mg/kg; a supermarket pays 95p a kilogram of
/// class I, 5% off 500 kg or more.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // a 300 kg bin of class I Cox in store at £900 a tonne: £270.00; shows £0.00
        "stock_value" => ("stock_value", json!([pick("Ana", 1, 300, 70, 1)])),
        // Cox has no result yet and Conference passed: both listed; shows only Cox
        "residue_checks" => (
            "residue_checks",
            json!([pick("Ana", 1, 300, 70, 1), pick("Ben", 3, 280, 62, 2)]),
        ),
        // 360 kg from Cox's 240 trees: 1.5 kg a tree; shows 30.0 (per row)
        "yield_per_tree" => ("yields", json!([pick("Ana", 1, 360, 70, 1)])),
        // hail on Bramley: the blocks closing soonest first, Victoria, Conference, Cox, Bramley; shows them by the
        // day they opened, Bramley second
        "picking_order" => ("picking_order", json!([weather(2, "hail")])),
        // a Cox bin of 70 mm fruit with 2% defects is class I; shows juice
        "bin_grade" => ("cold_store", json!([pick("Ana", 1, 300, 70, 2)])),
        // hail over Conference after two class I bins were picked: both class II; shows both still class I
        "hail_downgrade" => (
            "cold_store",
            json!([
                pick("Ana", 3, 280, 64, 1),
                pick("Ben", 3, 300, 66, 2),
                weather(3, "hail")
            ]),
        ),
        // Ana picked one bin in eight hours: topped up to 8 × £11.44 = £91.52; shows £18.00 by the bin
        "top_up" => (
            "payroll",
            json!([shift("Ana", 8), pick("Ana", 1, 300, 70, 1)]),
        ),
        // 500 kg of class I for the supermarket: £475.00 less 5%, £451.25; shows £475.00
        "volume_discount" => (
            "sales",
            json!([
                pick("Ana", 1, 300, 70, 1),
                pick("Ben", 1, 300, 68, 2),
                order("supermarket", "class I", 500),
                pack(1)
            ]),
        ),
        // room 1 at 1.5 °C with a bin of pears: too warm for pears (-1.0 to 1.0 °C); shows no warning
        "pear_store" => (
            "cold_store",
            json!([pick("Ana", 3, 280, 64, 1), set_temp(1, 1.5)]),
        ),
        // Ana 8 h and Ben 6 h, no bins: Ben is paid for 6 h, £68.64; shows 14 h, and Cas and Dov with 14 h too
        "week_hours" => ("payroll", json!([shift("Ana", 8), shift("Ben", 6)])),
        // a Cox bin yesterday and one today: today's board has Ben's one bin; shows both days' two bins
        "board_today" => (
            "board",
            json!([
                pick("Ana", 1, 300, 70, 1),
                advance(1),
                pick("Ben", 1, 320, 70, 1)
            ]),
        ),
        // day 252 is Victoria's last day: Ana's plum bin is on the board; shows Victoria gone from the board
        "closing_day" => ("board", json!([advance(2), pick("Ana", 4, 250, 40, 1)])),
        other => panic!("no mistake {other}"),
    }
}

fn no_work(ana: &str, total: &str) -> Value {
    json!([
        ana,
        "Ben: no work this week",
        "Cas: no work this week",
        "Dov: no work this week",
        total
    ])
}

/// The value `key`'s node holds in the correct orchard after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "stock_value" => json!(["apples class I: 300 kg, £270.00", "in store: £270.00"]),
        "residue_checks" => json!([
            "Cox: not tested, no sample from block 1 yet",
            "Conference: 0.08 mg/kg, passed"
        ]),
        "yield_per_tree" => json!([
            "Cox (apples), 240 trees: 1 bin, 360 kg, 1.5 kg a tree",
            "Bramley (apples), 180 trees: not started",
            "Conference (pears), 150 trees: not started",
            "Victoria (plums), 90 trees: not started"
        ]),
        "picking_order" => json!([
            "Victoria: picked until day 252",
            "Conference: picked until day 258",
            "Cox: picked until day 262",
            "Bramley: picked until day 270"
        ]),
        "bin_grade" => json!([
            "room 1, 1.0 °C: 1 of 4 bins, 1 class I",
            "room 2, 3.0 °C: 0 of 6 bins"
        ]),
        "hail_downgrade" => json!([
            "room 1, 1.0 °C: 2 of 4 bins, 2 class II",
            "room 2, 3.0 °C: 0 of 6 bins"
        ]),
        "top_up" => no_work(
            "Ana: 1 bin in 8 h, £91.52 (topped up to the minimum wage)",
            "payroll: £91.52",
        ),
        "volume_discount" => json!([
            "order 1, supermarket: 500 kg class I in 42 trays, £451.25",
            "total: £451.25"
        ]),
        "pear_store" => json!([
            "room 1, 1.5 °C: 1 of 4 bins, 1 class I; too warm for pears (-1.0 to 1.0 °C)",
            "room 2, 3.0 °C: 0 of 6 bins"
        ]),
        "week_hours" => json!([
            "Ana: 0 bins in 8 h, £91.52 (topped up to the minimum wage)",
            "Ben: 0 bins in 6 h, £68.64 (topped up to the minimum wage)",
            "Cas: no work this week",
            "Dov: no work this week",
            "payroll: £160.16"
        ]),
        "board_today" => json!([
            "Cox: 1 bin today, 320 kg (Ben)",
            "Bramley: no bins today",
            "Conference: no bins today",
            "Victoria: no bins today"
        ]),
        "closing_day" => json!([
            "Cox: no bins today",
            "Bramley: no bins today",
            "Conference: no bins today",
            "Victoria: 1 bin today, 250 kg (Ana)"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in an orchard started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the orchard does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_orchard(slip)?, node, messages).await
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
    || start(Slip::StockValue),
    || start(Slip::ResidueChecks),
    || start(Slip::YieldPerTree),
    || start(Slip::PickingOrder),
    || start(Slip::BinGrade),
    || start(Slip::HailDowngrade),
    || start(Slip::TopUp),
    || start(Slip::VolumeDiscount),
    || start(Slip::PearStore),
    || start(Slip::WeekHours),
    || start(Slip::BoardToday),
    || start(Slip::ClosingDay),
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
                "blind_orchard: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_ORCHARD_SLIP", &SLIPS, Slip::None)?;
        let host = start_orchard(slip)?;
        let options = McpAdapterOptions::new("blind-orchard", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_orchard: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_orchard: {error}");
        std::process::exit(1);
    }
}
