//! A harbour desk (port logistics), split over nine files as an app developer would write it, with ordinary
//! mistakes that were not planted with `explain` in mind: the fourth blind test of whether one `explain` call over MCP
//! names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The desk: the quay has three berths and opens with the coaster `LAKU7` alongside at `B1` (initial commands of
//! `Mvu::with_commands`). Agents announce ships (`announce`), the desk gives them berths (`assign`: a free berth the
//! ship fits, with a metre of water under the keel), ships make fast (`arrive`) and leave (`depart`: the ship is
//! billed its port dues and the first ship still without a berth is told the berth is free, both as commands). Ships
//! land containers into the yard (`land`); reefers are plugged in (`plug`), hauliers book truck slots (`book`),
//! trucks take boxes out (`gate_out`); the clock moves on by hours (`advance`). Derived: the ships waiting (earliest
//! first), the berth board, the berth suggested for the next ship without one (the shortest free berth it fits), the
//! dues run up alongside (per metre-hour, at least four hours, night hours 22:00–06:00 with a 25 % surcharge) and
//! billed; the yard as a keyed collection (`ranvier::collection`) with a fee memo per box (storage after 48 free
//! hours, power while plugged in) and views over it (weight, reefers, fees due, gate order); and from two services
//! over the network, as async memos: whether the next ship in clears the approach channel on the tide at the hour it
//! comes in, and what customs said about the ship that made fast last.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update`, with commands),
//! `rules.rs` and `tariff.rs` (helpers), `graph.rs` (the `#[expose]` app, the `#[node]` builder and the quay's memos),
//! `yard.rs` (the collection, its row factory and views, a hand-written `PartialEq`), `arrivals.rs` (the async
//! memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_HARBOR_SLIP=<key>`) runs the desk with that one mistake; without it the
//! desk is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_HARBOR_SLIP=<key> ranvier-mcp call target/debug/examples/blind_harbor explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_harbor -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the desk serves MCP over stdio.

use ranvier_examples::harness;

pub mod arrivals;
pub mod graph;
pub mod model;
pub mod remote;
pub mod rules;
pub mod tariff;
pub mod update;
pub mod yard;

use graph::{HarbourApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the desk that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "assign_first",
        "an `update` helper writes the berth to the first ship waiting (a lookup that ignores its key)",
        Slip::AssignFirst,
    ),
    (
        "bill_dropped",
        "an `update` arm drops the commands its helper returned",
        Slip::BillDropped,
    ),
    (
        "tariff_default",
        "two rates swapped in a hand-written `Default`",
        Slip::TariffDefault,
    ),
    (
        "fits_field",
        "a helper in another module compares with the wrong field",
        Slip::FitsField,
    ),
    (
        "min_charge",
        "`min` for `max` in a minimum charge",
        Slip::MinCharge,
    ),
    (
        "night_range",
        "an inclusive range counts one hour too many",
        Slip::NightRange,
    ),
    (
        "board_departed",
        "a `find` in a long memo misses a condition",
        Slip::BoardDeparted,
    ),
    (
        "yard_key",
        "a keyed collection keyed by a field that is not unique",
        Slip::YardKey,
    ),
    (
        "plug_capture",
        "a row factory reads its item once, outside the row's memo",
        Slip::PlugCapture,
    ),
    (
        "box_comparer",
        "a comparer on the collection's source list compares the keys only",
        Slip::BoxComparer,
    ),
    (
        "tide_now",
        "an async memo asks the service with the wrong argument",
        Slip::TideNow,
    ),
    (
        "customs_cached",
        "an async memo keeps its previous value for another key",
        Slip::CustomsCached,
    ),
];

/// What the graph thread keeps: the desk and its exposure.
pub type HarbourHost = harness::ExposedHost<HarbourApp>;

/// Starts the desk with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_harbour(slip: Slip) -> Result<HarbourHost, HostError> {
    harness::start_exposed(move || graph::harbour(slip))
}

/// The desk with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::harbour(slip), "blind-harbor")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the desk, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("tariff.rs", include_str!("tariff.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("yard.rs", include_str!("yard.rs")),
    ("arrivals.rs", include_str!("arrivals.rs")),
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

fn announce(call_sign: &str, name: &str, length_m: u32, draft_dm: u32, eta: u32) -> Value {
    msg(
        "announce",
        json!({"callSign": call_sign, "name": name, "lengthM": length_m, "draftDm": draft_dm, "eta": eta}),
    )
}
fn assign(call_sign: &str, berth: &str) -> Value {
    msg("assign", json!({"callSign": call_sign, "berth": berth}))
}
fn arrive(call_sign: &str) -> Value {
    msg("arrive", json!({"callSign": call_sign}))
}
fn depart(call_sign: &str) -> Value {
    msg("depart", json!({"callSign": call_sign}))
}
fn land(container: &str, call_sign: &str, weight_kg: u32, reefer: bool) -> Value {
    msg(
        "land",
        json!({"container": container, "callSign": call_sign, "weightKg": weight_kg, "reefer": reefer}),
    )
}
fn advance(hours: u32) -> Value {
    msg("advance", json!({"hours": hours}))
}
fn book(container: &str, hour: u32) -> Value {
    msg("book", json!({"container": container, "hour": hour}))
}
fn plug(container: &str) -> Value {
    msg("plug", json!({"container": container}))
}

/// The messages that bring the feeder `OZTN2` (120 m) alongside at `B2` now.
fn tern_alongside() -> [Value; 3] {
    [
        announce("OZTN2", "Tern", 120, 70, 0),
        assign("OZTN2", "B2"),
        arrive("OZTN2"),
    ]
}

/// `messages` after `first`, as one JSON array.
fn after(first: &[Value], messages: &[Value]) -> Value {
    Value::Array(first.iter().chain(messages).cloned().collect())
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; `LAKU7` is 150 m, alongside since hour 0, at 1,350 cents an hour, 1,687.5 at night).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // OZTN2 (eta 4) is given B2, PBXQ (eta 6, announced first) has none; shows PBXQ at B2 and OZTN2 without
        "assign_first" => (
            "waiting",
            json!([
                announce("PBXQ", "Baltic Star", 200, 90, 6),
                announce("OZTN2", "Tern", 120, 70, 4),
                assign("OZTN2", "B2")
            ]),
        ),
        // LAKU7 leaves at hour 10: 4 day hours × 1,350 + 6 night hours × 1,687.5 = 15,525 billed; shows 0
        "bill_dropped" => ("invoiced", json!([advance(10), depart("LAKU7")])),
        // a dry box 50 h in the yard: 2 h past the free 48 × 40 = 80; shows 300
        "tariff_default" => (
            "storage_due",
            after(
                &tern_alongside(),
                &[land("MSCU1000001", "OZTN2", 18000, false), advance(50)],
            ),
        ),
        // 230 m, draft 12.5 m: only B3 (15 m of water) takes it; shows B2 (11 m)
        "fits_field" => (
            "suggested",
            json!([announce("V7AB9", "Cape Orion", 230, 125, 8)]),
        ),
        // hour 10: LAKU7 15,525, OZTN2 (8 to 10, charged 4 h × 1,080) 4,320 = 19,845; shows 12,285
        "min_charge" => (
            "dues_now",
            after(
                &[advance(8)],
                &[tern_alongside().as_slice(), &[advance(2)]].concat(),
            ),
        ),
        // hour 23: LAKU7 16 day + 7 night hours = 33,412, OZTN2 4 day + 1 night = 5,670; 39,082; shows 39,690
        "night_range" => (
            "dues_now",
            after(
                &[advance(18)],
                &[tern_alongside().as_slice(), &[advance(5)]].concat(),
            ),
        ),
        // OZTN2 left B2 at hour 3, MAER1 made fast there at hour 5; shows OZTN2 still at B2
        "board_departed" => (
            "board",
            after(
                &tern_alongside(),
                &[
                    advance(3),
                    depart("OZTN2"),
                    announce("MAER1", "Maersk Ohio", 200, 100, 5),
                    assign("MAER1", "B2"),
                    advance(2),
                    arrive("MAER1"),
                ],
            ),
        ),
        // two boxes from one ship: 32,000 kg; shows 20,000
        "yard_key" => (
            "yard_weight",
            after(
                &tern_alongside(),
                &[
                    land("MSCU1000001", "OZTN2", 20000, false),
                    land("MSCU1000002", "OZTN2", 12000, false),
                ],
            ),
        ),
        // a reefer plugged in at hour 2, 10 h of power × 150 = 1,500; shows 0
        "plug_capture" => (
            "storage_due",
            after(
                &tern_alongside(),
                &[
                    land("RFCU2000001", "OZTN2", 22000, true),
                    advance(2),
                    plug("RFCU2000001"),
                    advance(10),
                ],
            ),
        ),
        // two boxes booked, the second for hour 3: both, hour 3 first; shows []
        "box_comparer" => (
            "gate_order",
            after(
                &tern_alongside(),
                &[
                    land("MSCU1000001", "OZTN2", 20000, false),
                    land("MSCU1000002", "OZTN2", 12000, false),
                    book("MSCU1000002", 5),
                    book("MSCU1000001", 3),
                ],
            ),
        ),
        // V7AB9 comes in at hour 9 on 50 cm of tide: does not clear; shows the tide of hour 2 (290 cm), clears
        "tide_now" => (
            "tide",
            json!([
                advance(2),
                announce("V7AB9", "Cape Orion", 230, 125, 9),
                assign("V7AB9", "B3")
            ]),
        ),
        // PBXQ made fast after LAKU7: held for inspection; shows LAKU7's clearance
        "customs_cached" => (
            "customs",
            json!([
                announce("PBXQ", "Baltic Star", 200, 90, 2),
                assign("PBXQ", "B2"),
                advance(2),
                arrive("PBXQ")
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
        "assign_first" => json!([
            "OZTN2 Tern (eta 4, berth B2)",
            "PBXQ Baltic Star (eta 6, no berth)"
        ]),
        "bill_dropped" => json!(15525),
        "tariff_default" => json!(80),
        "fits_field" => json!("V7AB9 → B3"),
        "min_charge" => json!(19845),
        "night_range" => json!(39082),
        "board_departed" => json!([
            "B1: LAKU7 since hour 0 (5 h)",
            "B2: MAER1 since hour 5 (0 h)",
            "B3: free"
        ]),
        "yard_key" => json!(32000),
        "plug_capture" => json!(1500),
        "box_comparer" => json!(["hour 3: MSCU1000001", "hour 5: MSCU1000002"]),
        "tide_now" => json!({"call_sign": "V7AB9", "hour": 9, "tide_cm": 50, "clears": false}),
        "customs_cached" => json!({"call_sign": "PBXQ", "status": "held for inspection"}),
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
    harness::settled_in(start_harbour(slip)?, node, messages).await
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
    || start(Slip::AssignFirst),
    || start(Slip::BillDropped),
    || start(Slip::TariffDefault),
    || start(Slip::FitsField),
    || start(Slip::MinCharge),
    || start(Slip::NightRange),
    || start(Slip::BoardDeparted),
    || start(Slip::YardKey),
    || start(Slip::PlugCapture),
    || start(Slip::BoxComparer),
    || start(Slip::TideNow),
    || start(Slip::CustomsCached),
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
                "blind_harbor: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_HARBOR_SLIP", &SLIPS, Slip::None)?;
        let host = start_harbour(slip)?;
        let options = McpAdapterOptions::new("blind-harbor", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_harbor: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_harbor: {error}");
        std::process::exit(1);
    }
}
