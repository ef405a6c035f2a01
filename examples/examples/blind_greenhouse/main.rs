//! A commercial greenhouse's controller (four zones with their crops, sensor readings against each crop's band,
//! daily irrigation schedules and valves, alarms with acknowledgement and escalation, a harvest plan, the clock that
//! runs it all, and two services over the network), split over nine files as an app developer would write it, with
//! ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call over
//! MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The greenhouse: the controller is switched on on Monday at 06:00 and plants its four zones (A1 tomatoes,
//! fruiting, 120 m²; A2 lettuce, vegetative, 80 m²; B1 cucumbers, flowering, 100 m²; B2 basil, seedlings, 40 m²) and
//! their daily runs (A1 06:30 15 min, A2 07:00 10 min, B1 06:30 20 min and 18:00 10 min, B2 08:00 5 min), as the
//! initial commands of `Mvu::with_commands`. Each zone's crop wants a band (air temperature, humidity, soil
//! moisture) set by its stage and its crop. A zone's sensors report (`reading`): a value outside the band raises an
//! alarm (a `raise_alarm` command) unless one of that kind is open, and a dry zone whose valve is shut gets a top-up
//! (an `open_valve` command: 12 litres a minute, booked as water drawn). The clock moves on (`advance`): the runs that
//! fall due open their valves, and an alarm nobody acknowledged (`acknowledge`) within 30 minutes pages the on-call
//! grower (an `escalate` command). Growers also replant (`plant`), move a crop on (`set_stage`), add runs
//! (`schedule`), water by hand (`open_valve`) and book what they pick (`harvest`). Derived: the clock, the open
//! alarms, the pages, the water drawn, the irrigation plan for the next 24 hours and the season's harvest plan; the
//! zones, a keyed collection (`ranvier::collection`) with each zone's status line as a row memo and views over it
//! (the zones that need water, a `filter`; how many are in alarm, a `count_by`; the board's order, a `sort_by`, and
//! the board itself); and from two services over the network, as async memos: tomorrow night's heating (the weather
//! service's forecast) and the week's water bill (the water utility's prices and quota).
//!
//! Files: `model.rs` (the types, the messages, hand-written `Default`s), `update.rs` (`update`, with commands, and
//! the rules it is built with), `climate.rs` and `irrigation.rs` (rules), `graph.rs` (the `#[expose]` app, the
//! `#[node]` builder, the screens' memos), `zones.rs` (the collection, its row factory and views), `services.rs`
//! (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_GREENHOUSE_SLIP=<key>`) runs the greenhouse with that one mistake; without
//! it the greenhouse is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain`
//! arguments that show it (`BLIND_GREENHOUSE_SLIP=<key> ranvier-mcp call target/debug/examples/blind_greenhouse
//! explain '<those>'` asks by hand). `cargo run -p ranvier-examples --features blind --example blind_greenhouse -- --report` (a debug build: only traced
//! builds list `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the
//! answer's length (`--answers` adds each answer). Otherwise the greenhouse serves MCP over stdio.

use ranvier_examples::harness;

pub mod climate;
pub mod graph;
pub mod irrigation;
pub mod model;
pub mod remote;
pub mod services;
pub mod update;
pub mod zones;

use graph::{GreenhouseApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the greenhouse that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "acknowledged_paged",
        "a missing condition in a method of a model type: an alarm a grower acknowledged is still paged",
        Slip::AcknowledgedPaged,
    ),
    (
        "escalate_in_place",
        "a command not sent in an `update` helper: the overdue alarm is marked escalated in place and the `Escalate` \
         that pages the grower is never sent",
        Slip::EscalateInPlace,
    ),
    (
        "schedule_swapped",
        "swapped arguments in an `update` helper: a new run's start and length change places",
        Slip::ScheduleSwapped,
    ),
    (
        "lettuce_cold",
        "a wrong match arm in a rule module called from `update`: the vegetative stage gets the seedlings' temperatures",
        Slip::LettuceCold,
    ),
    (
        "run_at_end",
        "off by one in a rule module called from `update`: a run due exactly when the clock stops does not run",
        Slip::RunAtEnd,
    ),
    (
        "dry_points",
        "the wrong variable in a keyed collection's row memo: the humidity where the soil moisture is meant",
        Slip::DryPoints,
    ),
    (
        "thirsty_inverted",
        "an inverted `filter` view: the zones that do not need water",
        Slip::ThirstyInverted,
    ),
    (
        "board_alarms_last",
        "a wrong `sort_by` key: the alarm count ascending, so zones in alarm go last",
        Slip::BoardAlarmsLast,
    ),
    (
        "harvest_total",
        "a wrong accumulator in a long memo: what was picked is added to the expected total",
        Slip::HarvestTotal,
    ),
    (
        "plan_humidity",
        "the wrong field in a long memo: the air humidity where the soil moisture is meant decides a skipped run",
        Slip::PlanHumidity,
    ),
    (
        "shoulder_free",
        "a failure turned into a default in an async memo's future: a band the utility does not price is billed at 0",
        Slip::ShoulderFree,
    ),
    (
        "frost_tenths",
        "a wrong unit in an async memo's future: the forecast's tenths of a degree read as degrees",
        Slip::FrostTenths,
    ),
];

/// What the graph thread keeps: the greenhouse and its exposure.
pub type GreenhouseHost = harness::ExposedHost<GreenhouseApp>;

/// Starts the greenhouse with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_greenhouse(slip: Slip) -> Result<GreenhouseHost, HostError> {
    harness::start_exposed(move || graph::greenhouse_app(slip))
}

/// The greenhouse with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::greenhouse_app(slip), "blind-greenhouse")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the greenhouse, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("climate.rs", include_str!("climate.rs")),
    ("irrigation.rs", include_str!("irrigation.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("zones.rs", include_str!("zones.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the greenhouse holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the greenhouse")
}

fn reading(zone: &str, celsius: f64, humidity: u32, soil: u32) -> Value {
    msg(
        "reading",
        json!({"zone": zone, "celsius": celsius, "humidity": humidity, "soil": soil}),
    )
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}
fn acknowledge(alarm: u32) -> Value {
    msg("acknowledge", json!({ "alarm": alarm }))
}
fn schedule(zone: &str, start: &str, minutes: u32) -> Value {
    msg(
        "schedule",
        json!({"zone": zone, "start": start, "minutes": minutes}),
    )
}
fn harvest(zone: &str, kg: u32) -> Value {
    msg("harvest", json!({"zone": zone, "kg": kg}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the controller starts on Monday at 06:00 with the zones and runs of the crate doc; bands: tomato
/// fruiting 18–28 °C, humidity up to 80 %, soil 35–60 %; lettuce vegetative 12–21 °C, 85 %, 45–70 %; cucumber
/// flowering 20–30 °C, 90 %, 40–65 %; basil seedling 21–27 °C, 75 %, 30–55 %).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // A1 too hot (#1, acknowledged), B1 too humid (#2): only #2 is paged at 06:40; shows #1 paged too
        "acknowledged_paged" => (
            "pages",
            json!([
                reading("A1", 31.0, 60, 45),
                reading("B1", 24.0, 95, 50),
                acknowledge(1),
                advance(40)
            ]),
        ),
        // B1 too humid, nobody acknowledges: paged at 06:45; shows no page
        "escalate_in_place" => ("pages", json!([reading("B1", 24.0, 95, 50), advance(45)])),
        // a run of A2 at 21:00 for 25 min; shows one at 00:25 for 1260 min
        "schedule_swapped" => ("irrigation_plan", json!([schedule("A2", "21:00", 25)])),
        // A1 too hot; A2's lettuce at 14.5 °C is within 12–21 °C; shows A2 too cold too
        "lettuce_cold" => (
            "alarms",
            json!([reading("A1", 31.0, 60, 45), reading("A2", 14.5, 70, 55)]),
        ),
        // the 06:30 runs of A1 and B1 fall due as the clock stops at 06:30: 420 L; shows 0
        "run_at_end" => ("water_used", json!([advance(30)])),
        // A1's soil at 30 % is 5 points below 35 %; shows 0 points
        "dry_points" => ("board", json!([reading("A1", 25.0, 70, 30)])),
        // A1 is dry, A2 is not: A1 needs water; shows A2, B1 and B2
        "thirsty_inverted" => (
            "thirsty",
            json!([reading("A1", 25.0, 70, 30), reading("A2", 15.0, 70, 55)]),
        ),
        // B1 in alarm heads the board; shows it last
        "board_alarms_last" => ("board", json!([reading("B1", 24.0, 95, 50)])),
        // 35 kg of tomatoes picked: 10880 kg expected, 35 kg in; shows 10915 kg expected, 0 kg in
        "harvest_total" => ("harvest_plan", json!([harvest("A1", 35)])),
        // A1's soil at 40 % is below 60 %: its 06:30 run goes ahead; shows it skipped (humidity 70 %)
        "plan_humidity" => ("irrigation_plan", json!([reading("A1", 25.0, 70, 40)])),
        // the morning's runs, 600 L booked at 11:30 (shoulder band, billed at peak, 3.10 a m³): 1.86; shows 0.00
        "shoulder_free" => ("water_bill", json!([advance(330)])),
        // Tuesday's low 6.0 °C, 14.0 °C inside: A1, B1 and B2 need heat; shows 60.0 °C and no heating
        "frost_tenths" => ("frost_watch", json!([advance(60)])),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct greenhouse after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    let board_rest = [
        "A2 lettuce (vegetative): no reading yet",
        "B1 cucumber (flowering): no reading yet",
        "B2 basil (seedling): no reading yet",
    ];
    match key {
        "acknowledged_paged" => {
            json!(["Mon 06:40 paged the grower: #2 B1 too humid: 95 %, above 90 %"])
        }
        "escalate_in_place" => {
            json!(["Mon 06:45 paged the grower: #1 B1 too humid: 95 %, above 90 %"])
        }
        "schedule_swapped" => json!([
            "Mon 06:30 A1: 15 min, 180 L",
            "Mon 06:30 B1: 20 min, 240 L",
            "Mon 07:00 A2: 10 min, 120 L",
            "Mon 08:00 B2: 5 min, 60 L",
            "Mon 18:00 B1: 10 min, 120 L",
            "Mon 21:00 A2: 25 min, 300 L",
            "next 24 h: 1020 L"
        ]),
        "lettuce_cold" => json!(["#1 A1 too hot: 31.0 °C, above 28.0 °C, since Mon 06:00"]),
        "run_at_end" => json!(420),
        "dry_points" => json!([
            "A1 tomato (fruiting): 25.0 °C, 70 % humidity, soil 30 %, 5 points dry, 1 alarm",
            board_rest[0],
            board_rest[1],
            board_rest[2]
        ]),
        "thirsty_inverted" => json!(["A1"]),
        "board_alarms_last" => json!([
            "B1 cucumber (flowering): 24.0 °C, 95 % humidity, soil 50 %, 1 alarm",
            "A1 tomato (fruiting): no reading yet",
            board_rest[0],
            board_rest[2]
        ]),
        "harvest_total" => json!([
            "A1 tomato: 4800 kg expected, 35 kg in, 4765 kg to come, picking now",
            "A2 lettuce: 960 kg expected, 0 kg in, 960 kg to come, picking now",
            "B1 cucumber: 5000 kg expected, 0 kg in, 5000 kg to come, ready in 2 weeks",
            "B2 basil: 120 kg expected, 0 kg in, 120 kg to come, ready in 3 weeks",
            "season: 10880 kg expected, 35 kg in (0.3 %)"
        ]),
        "plan_humidity" => json!([
            "Mon 06:30 A1: 15 min, 180 L",
            "Mon 06:30 B1: 20 min, 240 L",
            "Mon 07:00 A2: 10 min, 120 L",
            "Mon 08:00 B2: 5 min, 60 L",
            "Mon 18:00 B1: 10 min, 120 L",
            "next 24 h: 720 L"
        ]),
        "shoulder_free" => json!({"litres": 600, "cost": "1.86", "quotaLeftL": 39400}),
        "frost_tenths" => json!([
            "Tue: low 6.0 °C outside, 14.0 °C kept inside",
            "A1 tomato: heat to 18.0 °C",
            "A2 lettuce: no heating",
            "B1 cucumber: heat to 20.0 °C",
            "B2 basil: heat to 21.0 °C"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a greenhouse started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the greenhouse does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_greenhouse(slip)?, node, messages).await
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
    || start(Slip::AcknowledgedPaged),
    || start(Slip::EscalateInPlace),
    || start(Slip::ScheduleSwapped),
    || start(Slip::LettuceCold),
    || start(Slip::RunAtEnd),
    || start(Slip::DryPoints),
    || start(Slip::ThirstyInverted),
    || start(Slip::BoardAlarmsLast),
    || start(Slip::HarvestTotal),
    || start(Slip::PlanHumidity),
    || start(Slip::ShoulderFree),
    || start(Slip::FrostTenths),
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
                "blind_greenhouse: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_GREENHOUSE_SLIP", &SLIPS, Slip::None)?;
        let host = start_greenhouse(slip)?;
        let options = McpAdapterOptions::new("blind-greenhouse", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_greenhouse: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_greenhouse: {error}");
        std::process::exit(1);
    }
}
