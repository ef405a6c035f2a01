//! A ski resort's lift-pass office and its lifts (passes by the day or the season, priced by age band; scans at the
//! lift gates; lifts stopped and restarted by the wind; the lines and waits at each lift; refunds for days the resort
//! stays shut; tomorrow's wind and the slope report from two services over the network), split over nine files as an
//! app developer would write it, with ordinary mistakes that were not planted with `explain` in mind: a blind test of
//! whether one `explain` call over MCP names the faulty line, written by a tester who had not read how `explain`
//! diagnoses.
//!
//! The resort: the season's day 1 starts at 08:30, when the gondola, two chairs and the nursery drag open (initial
//! commands of `Mvu::with_commands`; the Ridge T-bar stays with its mechanics). The office sells passes (`sell`: a
//! child is twelve or under and pays 60%, a senior sixty-five or over and pays 80%; an adult's day is 62.00 and every
//! day after the first of a multi-day pass is a tenth off; a season is 780.00). A pass held to a gate (`scan`) goes
//! through if the lift runs, within opening hours, on a day the pass covers; the gate log prints each scan. The lift
//! staff report gusts (`wind`: at or over a lift's limit it sends `CloseLift`, which stops it, empties its line and
//! posts a notice; 10 km/h under the limit a lift the wind stopped gets `OpenLift`) and count the lines
//! (`count_queue`). The clock moves on (`advance`): open lifts carry their lines away, and at 16:30 the day ends. A
//! storm shuts the resort (`close_day`): every day pass good today gets its share of the day back, as a `Refund`
//! command. Derived: the clock, the passes, the gate log, the notices, the refunds, the takings and today's skiers by
//! age band; the lifts, a keyed collection (`ranvier::collection`) with each lift's wait as a row memo and views over
//! it (the board, the busiest lines from a `sort_by`, how many run from a `filter` and a `count_by`); and from two
//! services, as async memos: tomorrow's wind at each lift (a weather office) and the slope report (snow sensors).
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update`, with commands, and
//! its helpers), `tariff.rs` and `gates.rs` (rules), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the
//! office's memos), `lifts.rs` (the collection, its row factory and views), `services.rs` (the async memos),
//! `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_SKIPASS_SLIP=<key>`) runs the resort with that one mistake; without it the
//! resort is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_SKIPASS_SLIP=<key> ranvier-mcp call target/debug/examples/blind_skipass explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_skipass -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the resort serves MCP over stdio.

use ranvier_examples::harness;

pub mod gates;
pub mod graph;
pub mod lifts;
pub mod model;
pub mod remote;
pub mod services;
pub mod tariff;
pub mod update;

use graph::{SkiResort, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the resort that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "child_age",
        "`<` for `<=` in a tariff rule called from `update`: a twelve-year-old pays as an adult (off by one)",
        Slip::ChildAge,
    ),
    (
        "multi_day_discount",
        "`+` for `-` in a tariff rule called from `update`: the days after the first cost more, not less (wrong \
         operator)",
        Slip::MultiDayDiscount,
    ),
    (
        "admit_before_start",
        "a missing condition in a gate rule: a pass is let through before its first day",
        Slip::AdmitBeforeStart,
    ),
    (
        "scan_day_minute",
        "swapped arguments in an `update` helper: the day and the minute given to the gate rule the wrong way round",
        Slip::ScanDayMinute,
    ),
    (
        "wind_no_close",
        "a command not sent in an `update` helper: the lift's state written directly instead of `CloseLift`, so no \
         notice and the line stays",
        Slip::WindNoClose,
    ),
    (
        "refund_season",
        "a wrong match arm in an `update` helper: season passes get the closed day's refund, day passes nothing",
        Slip::RefundSeason,
    ),
    (
        "wait_per_hour",
        "a wrong unit in a row factory's memo: riders per hour where riders per minute are meant",
        Slip::WaitPerHour,
    ),
    (
        "busiest_by_rides",
        "a `sort_by` view's key on the wrong field: the rides scanned, not the people in line",
        Slip::BusiestByRides,
    ),
    (
        "outlook_today",
        "the wrong captured value in an async memo's future: today's forecast asked for, not tomorrow's",
        Slip::OutlookToday,
    ),
    (
        "snow_no_reading",
        "a failure turned into a default in an async memo's future: a sensor that does not answer reads 0 cm",
        Slip::SnowNoReading,
    ),
    (
        "takings_refunds",
        "a wrong accumulator in a long memo: refunds added to the day passes' sales instead of the refunds",
        Slip::TakingsRefunds,
    ),
    (
        "skiers_by_lift",
        "the wrong field in a long memo: a scan's lift compared with the pass's id where its pass is meant",
        Slip::SkiersByLift,
    ),
];

/// What the graph thread keeps: the resort and its exposure.
pub type SkiHost = harness::ExposedHost<SkiResort>;

/// Starts the resort with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_resort(slip: Slip) -> Result<SkiHost, HostError> {
    harness::start_exposed(move || graph::ski_resort(slip))
}

/// The resort with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::ski_resort(slip), "blind-skipass")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the resort, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("tariff.rs", include_str!("tariff.rs")),
    ("gates.rs", include_str!("gates.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("lifts.rs", include_str!("lifts.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the resort holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the resort")
}

fn sell(holder: &str, age: u32, days: u32, first_day: u32) -> Value {
    msg(
        "sell",
        json!({"holder": holder, "age": age, "days": days, "first_day": first_day, "season": false}),
    )
}
fn sell_season(holder: &str, age: u32) -> Value {
    msg(
        "sell",
        json!({"holder": holder, "age": age, "days": 1, "first_day": 1, "season": true}),
    )
}
fn scan(pass: u32, lift: u32) -> Value {
    msg("scan", json!({"pass": pass, "lift": lift}))
}
fn wind(lift: u32, kmh: u32) -> Value {
    msg("wind", json!({"lift": lift, "kmh": kmh}))
}
fn count_queue(lift: u32, people: u32) -> Value {
    msg("count_queue", json!({"lift": lift, "people": people}))
}
fn close_day() -> Value {
    msg("close_day", json!({}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; day 1 at 08:30; lifts 1 Village Gondola 2400/h wind limit 70, 2 Eagle Chair 1800/h 55, 3 Summit
/// Chair 1200/h 45, 4 Nursery Drag 600/h 60, 5 Ridge T-bar 900/h 60 (maintenance); an adult's day 62.00, a child
/// 60%, every further day 10% off; a season 780.00 over 120 days).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Mia, twelve, buys a day: a child's 37.20; shows adult, 62.00
        "child_age" => ("passes", json!([sell("Mia", 12, 1, 1)])),
        // Ada buys three days: 186.00 less 2 × 6.20 = 173.60; shows 198.40
        "multi_day_discount" => ("takings", json!([sell("Ada", 35, 3, 1)])),
        // Ada's pass starts tomorrow: refused at the Eagle Chair today; shows ok
        "admit_before_start" => ("gate_log", json!([sell("Ada", 35, 2, 2), scan(1, 2)])),
        // Ada rides the gondola at 08:30: ok; shows refused, outside opening hours
        "scan_day_minute" => ("gate_log", json!([sell("Ada", 35, 1, 1), scan(1, 1)])),
        // a 50 km/h gust stops the Summit Chair: a notice; shows none
        "wind_no_close" => ("notices", json!([wind(3, 50)])),
        // the resort shuts on day 1: Ada's day pass gets 62.00, Bo's season nothing; shows Bo 6.50, Ada nothing
        "refund_season" => (
            "refunds",
            json!([sell("Ada", 35, 1, 1), sell_season("Bo", 40), close_day()]),
        ),
        // 240 in the Eagle Chair's line at 30 a minute: 8 min; shows 1 min
        "wait_per_hour" => ("board", json!([count_queue(2, 240)])),
        // lines of 120 at the Eagle Chair and 50 at the drag, two rides on the gondola: Eagle, drag, gondola; shows
        // the gondola first
        "busiest_by_rides" => (
            "busiest",
            json!([
                count_queue(4, 50),
                count_queue(2, 120),
                sell("Ada", 35, 1, 1),
                scan(1, 1),
                scan(1, 1)
            ]),
        ),
        // day 2's gusts: the Summit Chair likely closed (50 km/h); shows day 1's, every lift running
        "outlook_today" => ("outlook", json!([wind(2, 30)])),
        // the Summit Face's sensor does not answer: no reading; shows 0 cm
        "snow_no_reading" => ("slope_report", json!([wind(3, 50)])),
        // Ada's two days (117.80), the first shut: 58.90 back, net 58.90; shows sales 176.70, refunds 0.00
        "takings_refunds" => ("takings", json!([sell("Ada", 35, 2, 1), close_day()])),
        // Ada rides the Eagle and the Summit chairs: one adult, two rides; shows nobody
        "skiers_by_lift" => (
            "skiers",
            json!([sell("Ada", 35, 1, 1), scan(1, 2), scan(1, 3)]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct resort after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "child_age" => json!(["#1 Mia (child), day 1: 37.20"]),
        "multi_day_discount" => json!([
            "day passes: 1, 173.60",
            "season passes: 0, 0.00",
            "refunds: 0, 0.00",
            "net: 173.60"
        ]),
        "admit_before_start" => {
            json!(["08:30 Eagle Chair: #1 Ada refused: not valid before day 2"])
        }
        "scan_day_minute" => json!(["08:30 Village Gondola: #1 Ada ok"]),
        "wind_no_close" => json!(["08:30 Summit Chair closed: wind 50 km/h"]),
        "refund_season" => json!(["#1 Ada: 62.00 for day 1"]),
        "wait_per_hour" => json!([
            "Village Gondola: no wait",
            "Eagle Chair: 8 min",
            "Summit Chair: no wait",
            "Nursery Drag: no wait",
            "Ridge T-bar: closed (maintenance)"
        ]),
        "busiest_by_rides" => json!([
            "Eagle Chair: 120 waiting",
            "Nursery Drag: 50 waiting",
            "Village Gondola: 0 waiting"
        ]),
        "outlook_today" => json!([
            "Day 2",
            "Village Gondola: running (35 km/h)",
            "Eagle Chair: running (40 km/h)",
            "Summit Chair: likely closed (50 km/h)",
            "Nursery Drag: running (15 km/h)"
        ]),
        "snow_no_reading" => json!([
            "Meadow (green): open, 85 cm",
            "Gondola Trail (red): open, 120 cm",
            "Eagle Bowl (blue): open, 140 cm",
            "Summit Face (black): closed, no reading",
            "Ridge Couloir (black): closed, 95 cm"
        ]),
        "takings_refunds" => json!([
            "day passes: 1, 117.80",
            "season passes: 0, 0.00",
            "refunds: 1, 58.90",
            "net: 58.90"
        ]),
        "skiers_by_lift" => json!([
            "child: 0 on the slopes, 0 rides",
            "adult: 1 on the slopes, 2 rides",
            "senior: 0 on the slopes, 0 rides"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a resort started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the resort does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_resort(slip)?, node, messages).await
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
    || start(Slip::ChildAge),
    || start(Slip::MultiDayDiscount),
    || start(Slip::AdmitBeforeStart),
    || start(Slip::ScanDayMinute),
    || start(Slip::WindNoClose),
    || start(Slip::RefundSeason),
    || start(Slip::WaitPerHour),
    || start(Slip::BusiestByRides),
    || start(Slip::OutlookToday),
    || start(Slip::SnowNoReading),
    || start(Slip::TakingsRefunds),
    || start(Slip::SkiersByLift),
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
                "blind_skipass: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_SKIPASS_SLIP", &SLIPS, Slip::None)?;
        let host = start_resort(slip)?;
        let options = McpAdapterOptions::new("blind-skipass", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_skipass: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_skipass: {error}");
        std::process::exit(1);
    }
}
