//! A blind set: a skip hire firm, written as an ordinary app split over ten files, with twelve ordinary mistakes to
//! find, one at a time, with `explain`.
//!
//! The yard hires out skips in three sizes (mini, midi, builder's): a hire price covering a free week, a daily rate
//! after it, a weight limit per size with an overweight charge per tonne, a hazardous-waste surcharge and, for a skip
//! standing on the road, a council permit charged per started week. Drivers' collection rounds lift at most three
//! skips a day each and pay a tip fee per tonne at the landfill; customers on account are billed when a skip is
//! collected and have a credit limit; `advance` moves the day counter on. Two services answer later: the landfill's
//! weighbridge (the net load of the last skip collected) and the council's permit desk (the permit fees).
//!
//! Files: `model.rs` (the model, the messages, a hand-written `Default`), `update.rs` (`update` with its helpers,
//! Elmish with commands: a collection sends a `bill`), `charges.rs` (the tariff and the permit rules), `skips.rs`
//! (the skips out as a keyed collection with a row memo, and its views), `rounds.rs` (the drivers' rounds, with a
//! hand-written `PartialEq`), `accounts.rs` (credit standing and overweight charges), `graph.rs` (the `#[expose]`
//! app and its builder), `services.rs` (the async memos), `remote.rs` (the simulated services) and this file (the
//! harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_skiphire` serves the correct app over MCP on
//! stdio; `--slip KEY` (or `BLIND_SKIPHIRE_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's
//! faulty line and the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where
//! the answer names the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build
//! (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod accounts;
pub mod charges;
pub mod graph;
pub mod model;
pub mod remote;
pub mod rounds;
pub mod services;
pub mod skips;
pub mod update;

use graph::{SkipApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    ("weigh_gross", "async memo: wrong field", Slip::WeighGross),
    (
        "council_early_return",
        "async memo: early return",
        Slip::CouncilEarlyReturn,
    ),
    (
        "row_permit_field",
        "row memo: wrong field",
        Slip::RowPermitField,
    ),
    (
        "unrounded_inverted",
        "collection view: inverted condition",
        Slip::UnroundedInverted,
    ),
    (
        "post_overwrites",
        "update helper: = for +=",
        Slip::PostOverwrites,
    ),
    (
        "collect_args_swapped",
        "update helper: swapped arguments",
        Slip::CollectArgsSwapped,
    ),
    (
        "overweight_unit",
        "rule used by a memo and update: wrong unit",
        Slip::OverweightUnit,
    ),
    (
        "permit_weeks_floor",
        "rule used by a memo: rounds down",
        Slip::PermitWeeksFloor,
    ),
    (
        "round_cap_off_by_one",
        "long memo: > for >=",
        Slip::RoundCapOffByOne,
    ),
    (
        "credit_wrong_field",
        "long memo: wrong variable",
        Slip::CreditWrongField,
    ),
    (
        "open_today_excluded",
        "model method: < for <=",
        Slip::OpenTodayExcluded,
    ),
    ("default_limit", "Default: wrong value", Slip::DefaultLimit),
];

/// The app on its graph thread, exposed.
pub type SkipHost = harness::ExposedHost<SkipApp>;

/// Starts the app with `slip`, exposed, on a graph thread of its own.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_skiphire(slip: Slip) -> Result<SkipHost, HostError> {
    harness::start_exposed(move || graph::skip_app(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::skip_app(slip), "blind-skiphire")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("charges.rs", include_str!("charges.rs")),
    ("skips.rs", include_str!("skips.rs")),
    ("rounds.rs", include_str!("rounds.rs")),
    ("accounts.rs", include_str!("accounts.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the skip hire firm")
}

fn book(customer: &str, size: &str, on_day: u32, on_road: bool, hazardous: bool) -> Value {
    msg(
        "book",
        json!({
            "customer": customer,
            "size": size,
            "on_day": on_day,
            "on_road": on_road,
            "hazardous": hazardous,
        }),
    )
}

fn assign(id: &str, driver: &str) -> Value {
    msg("assign", json!({ "id": id, "driver": driver }))
}

fn collect(id: &str, tenths: u32) -> Value {
    msg("collect", json!({ "id": id, "tenths": tenths }))
}

fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "weigh_gross" => (
            "weighed",
            json!([book("Ann Lee", "midi", 1, false, false), collect("S1", 18)]),
        ),
        "council_early_return" => (
            "permit_fees",
            json!([
                book("Ann Lee", "mini", 1, true, false),
                advance(29),
                book("Bob Reid", "midi", 30, true, false),
            ]),
        ),
        "row_permit_field" => ("skips", json!([book("Ann Lee", "mini", 1, false, true)])),
        "unrounded_inverted" => (
            "unrounded",
            json!([
                book("Ann Lee", "mini", 1, false, false),
                book("Bob Reid", "midi", 1, false, false),
                book("Cy Moss", "builders", 1, false, false),
                assign("S1", "Dave"),
            ]),
        ),
        "post_overwrites" => (
            "credit",
            json!([
                book("Acme Builders", "midi", 1, false, false),
                book("Acme Builders", "mini", 1, false, false),
                collect("S1", 12),
                collect("S2", 6),
            ]),
        ),
        "collect_args_swapped" => (
            "yard",
            json!([
                book("Cy Moss", "builders", 1, false, false),
                advance(9),
                collect("S1", 30),
            ]),
        ),
        "overweight_unit" => (
            "overweight",
            json!([book("Ann Lee", "mini", 1, false, false), collect("S1", 14)]),
        ),
        "permit_weeks_floor" => (
            "permit_weeks",
            json!([book("Ann Lee", "midi", 1, true, false), advance(3)]),
        ),
        "round_cap_off_by_one" => (
            "round_plan",
            json!([
                book("Ann Lee", "mini", 1, false, false),
                book("Bob Reid", "midi", 1, false, false),
                book("Cy Moss", "builders", 1, false, false),
                book("Acme Builders", "midi", 1, false, false),
                assign("S1", "Dave"),
                assign("S2", "Dave"),
                assign("S3", "Dave"),
                assign("S4", "Dave"),
            ]),
        ),
        "credit_wrong_field" => (
            "credit",
            json!([
                book("Hill Farm", "builders", 1, false, false),
                book("Hill Farm", "midi", 1, false, false),
            ]),
        ),
        "open_today_excluded" => (
            "longest_out",
            json!([
                book("Ann Lee", "mini", 1, false, false),
                book("Bob Reid", "midi", 2, true, false),
                advance(1),
            ]),
        ),
        "default_limit" => (
            "credit",
            json!([book("Acme Builders", "midi", 1, false, false)]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        "weigh_gross" => json!(18),
        "council_early_return" => json!(2500),
        "row_permit_field" => json!([{
            "key": "S1", "id": "S1", "customer": "Ann Lee", "size": "mini", "placed_on": 1,
            "on_road": false, "hazardous": true, "driver": null, "collected_on": null, "tenths": 0,
            "billed": 0, "value": 12600,
        }]),
        "unrounded_inverted" => json!(2),
        "post_overwrites" => json!([
            {"customer": "Hill Farm", "owed": 0, "running": 0, "headroom": 25000, "stopped": false},
            {"customer": "Acme Builders", "owed": 22500, "running": 0, "headroom": 37500, "stopped": false},
        ]),
        "collect_args_swapped" => json!({
            "day": 10,
            "next_id": 2,
            "hires": [{
                "id": "S1", "customer": "Cy Moss", "size": "builders", "placed_on": 1, "on_road": false,
                "hazardous": false, "driver": null, "collected_on": 10, "tenths": 30, "billed": 21450,
            }],
            "accounts": [
                {"customer": "Acme Builders", "limit": 60000, "owed": 0},
                {"customer": "Hill Farm", "limit": 25000, "owed": 0},
            ],
            "cash_taken": 21450,
        }),
        "overweight_unit" => json!([["S1", 3200]]),
        "permit_weeks_floor" => json!(1),
        "round_cap_off_by_one" => json!({
            "rounds": [{"driver": "Dave", "lifts": ["S1", "S2", "S3"], "tenths": 83}],
            "waiting": ["S4"],
            "tip_fees": 95450,
        }),
        "credit_wrong_field" => json!([
            {"customer": "Hill Farm", "owed": 0, "running": 33000, "headroom": -8000, "stopped": true},
            {"customer": "Acme Builders", "owed": 0, "running": 0, "headroom": 60000, "stopped": false},
        ]),
        "open_today_excluded" => json!(["S1", "S2"]),
        "default_limit" => json!([
            {"customer": "Hill Farm", "owed": 0, "running": 0, "headroom": 25000, "stopped": false},
            {"customer": "Acme Builders", "owed": 0, "running": 13500, "headroom": 46500, "stopped": false},
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` after `messages` and the flights they started settled, in a fresh app with `slip`.
///
/// # Errors
///
/// When the app does not start, a message is refused, a flight does not settle or there is no such node.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_skiphire(slip)?, node, messages).await
}

/// Every mistake as a shape for the report.
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

const STARTS: [fn() -> Result<Started, HostError>; 12] = [
    || start(Slip::WeighGross),
    || start(Slip::CouncilEarlyReturn),
    || start(Slip::RowPermitField),
    || start(Slip::UnroundedInverted),
    || start(Slip::PostOverwrites),
    || start(Slip::CollectArgsSwapped),
    || start(Slip::OverweightUnit),
    || start(Slip::PermitWeeksFloor),
    || start(Slip::RoundCapOffByOne),
    || start(Slip::CreditWrongField),
    || start(Slip::OpenTodayExcluded),
    || start(Slip::DefaultLimit),
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
                "blind_skiphire: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_SKIPHIRE_SLIP", &SLIPS, Slip::None)?;
        let host = start_skiphire(slip)?;
        let options = McpAdapterOptions::new("blind-skiphire", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_skiphire: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_skiphire: {error}");
        std::process::exit(1);
    }
}
