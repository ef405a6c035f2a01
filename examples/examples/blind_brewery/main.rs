//! A small brewery (three recipes with their ingredients by weight, batches moving by the day through the mash tun,
//! the kettle, fermenters and conditioning tanks, gravity readings and strength, ingredient lots with best-before
//! dates, kegs and bottles filled from bright batches, wholesale orders with deposits on kegs, duty owed by strength
//! and the week's production report, and two services over the network), split over nine files as an app developer
//! would write it, with ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one
//! `explain` call over MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The brewery opens on a Monday (day 0, `Mon wk1`) with its deliveries waiting (initial commands of
//! `Mvu::with_commands`): two lots of Maris Otter (one good for three days only), crystal malt, roasted barley,
//! Cascade and Fuggles hops, and two yeasts. `receive` takes a lot into store. `brew` puts a batch of a recipe into
//! the mash tun and sends a `draw` per ingredient (commands), scaled to the litres brewed; a draw takes from the lots
//! still good, the one that goes off first first, and notes on the batch what the store could not give. `advance`
//! moves the clock on: each morning a batch whose stage has ended moves on (mash a day, boil a day, then the
//! recipe's days in a fermenter and in a conditioning tank, then bright, waiting in its tank), into a free tank of
//! the kind it needs. `gravity` records a reading (the first is the original gravity). `package` fills kegs from a
//! bright batch and bottles with the rest, into the cellar. `order` takes a wholesale order, `ship` sends it out of
//! the cellar and charges the deposit on its kegs (a `charge_deposit` command), `return_kegs` refunds deposits on
//! empties. Derived: today, the tank board, the stores, the cellar, the keg accounts, the week's production report;
//! the batches, a keyed collection (`ranvier::collection`) with each batch's brew log line as a row memo and views
//! over it (the brew log, the batches brewed short of an ingredient from a `filter`, how many are fermenting from a
//! `count_by`, the strongest first from a `sort_by`); and from two services over the network, as async memos, the
//! shipped orders' invoices (the wholesaler's trade price list) and the duty owed on the week's packaged beer (the
//! duty office's rates by band).
//!
//! Files: `model.rs` (the types, the messages, hand-written `Default`s), `update.rs` (`update`, with commands, and
//! its helpers), `brewing.rs` and `trade.rs` (rules), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the
//! boards and the report), `batches.rs` (the collection, its row memo and views), `services.rs` (the async memos),
//! `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_BREWERY_SLIP=<key>`) runs the brewery with that one mistake; without it
//! the brewery is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments
//! that show it (`BLIND_BREWERY_SLIP=<key> ranvier-mcp call target/debug/examples/blind_brewery explain '<those>'`
//! asks by hand). `cargo run -p ranvier-examples --features blind --example blind_brewery -- --report` (a debug build: only traced builds list `explain`)
//! prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers`
//! adds each answer). Otherwise the brewery serves MCP over stdio.

use ranvier_examples::harness;

pub mod batches;
pub mod brewing;
pub mod graph;
pub mod model;
pub mod remote;
pub mod services;
pub mod trade;
pub mod update;

use graph::{Brewhouse, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the brewery that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "ship_new_customer",
        "a command not sent: `ship` charges the deposit only to a customer who already has a keg account",
        Slip::ShipNewCustomer,
    ),
    (
        "bottles_unit",
        "a wrong unit in an `update` helper: the litres left are divided by the bottle's millilitres",
        Slip::BottlesUnit,
    ),
    (
        "draw_expired",
        "a missing condition in a rule called from `update`: lots past their best-before are drawn from",
        Slip::DrawExpired,
    ),
    (
        "ferment_arm",
        "a wrong match arm in a rule of another module: fermentation ends with the batch staying in its fermenter",
        Slip::FermentArm,
    ),
    (
        "band_edge",
        "`<=` for `<` at a band's edge in a rule called from an async memo: 3.5% beer pays the reduced rate",
        Slip::BandEdge,
    ),
    (
        "tank_day",
        "the wrong field in a long memo: days counted from the brew day, not from the day the stage began",
        Slip::TankDay,
    ),
    (
        "report_accumulator",
        "a wrong accumulator in a long memo: the litres packaged are added to the litres brewed",
        Slip::ReportAccumulator,
    ),
    (
        "final_gravity",
        "the wrong element in a row memo's slice pattern: the second reading taken as the final gravity",
        Slip::FinalGravity,
    ),
    (
        "short_filter",
        "an inverted `filter` view: the batches brewed in full are listed as short",
        Slip::ShortFilter,
    ),
    (
        "invoice_swapped",
        "swapped arguments in an async memo's future: bottles priced as kegs and kegs as bottles",
        Slip::InvoiceSwapped,
    ),
    (
        "duty_default",
        "a failure turned into a default in an async memo's future: rates not published become zero duty",
        Slip::DutyDefault,
    ),
    (
        "batch_stage",
        "a wrong default in a hand-written `Default`: a new batch starts in the boil, not the mash",
        Slip::BatchStage,
    ),
];

/// What the graph thread keeps: the brewery and its exposure.
pub type BreweryHost = harness::ExposedHost<Brewhouse>;

/// Starts the brewery with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_brewery(slip: Slip) -> Result<BreweryHost, HostError> {
    harness::start_exposed(move || graph::brewhouse(slip))
}

/// The brewery with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::brewhouse(slip), "blind-brewery")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the brewery, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("brewing.rs", include_str!("brewing.rs")),
    ("trade.rs", include_str!("trade.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("batches.rs", include_str!("batches.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the brewery holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the brewery")
}

fn brew(recipe: &str, litres: u32) -> Value {
    msg("brew", json!({"recipe": recipe, "litres": litres}))
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}
fn gravity(batch: u32, reading: u32) -> Value {
    msg("gravity", json!({"batch": batch, "reading": reading}))
}
fn package(batch: u32, kegs: u32) -> Value {
    msg("package", json!({"batch": batch, "kegs": kegs}))
}
fn order(customer: &str, beer: &str, kegs: u32, bottles: u32) -> Value {
    msg(
        "order",
        json!({"customer": customer, "beer": beer, "kegs": kegs, "bottles": bottles}),
    )
}
fn ship(order: u32) -> Value {
    msg("ship", json!({ "order": order }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). The brewery opens on Monday, day 0; Pale Ale ferments 7 days and conditions 5 (brewed on day 0, it
/// boils on day 1, ferments from day 2, conditions from day 9 and is bright on day 14, a Monday of week 3); Session
/// Mild ferments 5 days and conditions 4 (bright on day 11, in week 2); a keg holds 30 L, a bottle 330 ml; the lot
/// MO-0411 of Maris Otter (30 kg) is good until day 3.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // The Crown takes 2 kegs: its first order opens its account, 60.00 deposit held; shows no account
        "ship_new_customer" => (
            "accounts",
            json!([
                brew("Pale Ale", 100),
                advance(14),
                package(1, 2),
                order("The Crown", "Pale Ale", 2, 24),
                ship(1)
            ]),
        ),
        // 100 L: 2 kegs take 60 L, the 40 L left fill 121 bottles; shows 0 bottles
        "bottles_unit" => (
            "cellar",
            json!([brew("Pale Ale", 100), advance(14), package(1, 2)]),
        ),
        // on day 5 MO-0411 is past its best-before: the 20 kg come from MO-0502; shows 100.0 kg good, 10.0 kg past
        "draw_expired" => ("stock", json!([advance(5), brew("Pale Ale", 100)])),
        // day 10: Pale Ale #1 has moved to CT1 to condition, FV1 is empty; shows it conditioning in FV1
        "ferment_arm" => ("tanks", json!([brew("Pale Ale", 100), advance(10)])),
        // Session Mild 1.035 → 1.008 is 3.5%, packaged in week 2: the standard rate, 73.53; shows reduced, 31.81
        "band_edge" => (
            "duty",
            json!([
                brew("Session Mild", 100),
                advance(2),
                gravity(1, 1035),
                advance(9),
                gravity(1, 1008),
                package(1, 2)
            ]),
        ),
        // day 4: Pale Ale #1 on its third day in FV1 (fermenting since day 2); shows day 5 of 7
        "tank_day" => ("tanks", json!([brew("Pale Ale", 100), advance(4)])),
        // week 3: Stout brewed (100 L) and Pale Ale packaged (100 L); shows 200 L brewed and 0 L packaged
        "report_accumulator" => (
            "report",
            json!([
                brew("Pale Ale", 100),
                advance(14),
                package(1, 2),
                brew("Stout", 100)
            ]),
        ),
        // readings 1.048, 1.020, 1.012: 4.7%; shows 1.048 → 1.020, 3.6%
        "final_gravity" => (
            "brew_log",
            json!([
                brew("Pale Ale", 100),
                gravity(1, 1048),
                advance(3),
                gravity(1, 1020),
                advance(4),
                gravity(1, 1012)
            ]),
        ),
        // 200 L of Stout want 5 kg of roasted barley and the store has 3: Stout #2 is short; shows Pale Ale #1
        "short_filter" => (
            "short",
            json!([brew("Pale Ale", 100), advance(1), brew("Stout", 200)]),
        ),
        // 2 kegs at 120.00 and 24 bottles at 1.50: 276.00; shows 2883.00
        "invoice_swapped" => (
            "invoices",
            json!([
                brew("Pale Ale", 100),
                advance(14),
                package(1, 2),
                order("The Crown", "Pale Ale", 2, 24),
                ship(1)
            ]),
        ),
        // packaged in week 3, whose rates the duty office has not published: the duty says so; shows 0.00 owed
        "duty_default" => (
            "duty",
            json!([
                brew("Pale Ale", 100),
                gravity(1, 1048),
                advance(14),
                gravity(1, 1010),
                package(1, 2)
            ]),
        ),
        // a new batch is mashing; shows it boiling in the mash tun
        "batch_stage" => ("brew_log", json!([brew("Pale Ale", 100)])),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct brewery after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "ship_new_customer" => json!(["The Crown: 2 kegs out, 60.00 deposit held"]),
        "bottles_unit" => json!(["Pale Ale: 2 kegs, 121 bottles"]),
        "draw_expired" => json!([
            "Cascade: 1.6 kg",
            "Crystal: 8.5 kg",
            "Fuggles: 2.0 kg",
            "Maris Otter: 80.0 kg (30.0 kg past best-before)",
            "Roasted Barley: 3.0 kg",
            "S-04: 0.5 kg",
            "US-05: 0.4 kg"
        ]),
        "ferment_arm" => json!([
            "MT: empty",
            "KT: empty",
            "FV1: empty",
            "FV2: empty",
            "CT1: Pale Ale #1, conditioning day 2 of 5",
            "CT2: empty"
        ]),
        "band_edge" => json!([
            "Session Mild #1 3.5%, 100 L: standard rate, 73.53",
            "week 2: 73.53"
        ]),
        "tank_day" => json!([
            "MT: empty",
            "KT: empty",
            "FV1: Pale Ale #1, fermenting day 3 of 7",
            "FV2: empty",
            "CT1: empty",
            "CT2: empty"
        ]),
        "report_accumulator" => json!([
            "week 3, to Mon wk3",
            "brewed: 1 batches, 100 L",
            "packaged: 100 L into 2 kegs and 121 bottles",
            "shipped: 0 orders, 0 kegs and 0 bottles",
            "in the tanks: 100 L"
        ]),
        "final_gravity" => json!(["Pale Ale #1, 100 L: fermenting in FV1, 1.048 → 1.012, 4.7%"]),
        "short_filter" => json!(["Stout #2: short of Roasted Barley (2.0 kg)"]),
        "invoice_swapped" => {
            json!(["Order 1, The Crown: 2 kegs + 24 bottles of Pale Ale, 276.00 + 60.00 deposit"])
        }
        "duty_default" => json!([
            "week 3: duty not worked out (the duty office has not published rates for week 3)"
        ]),
        "batch_stage" => json!(["Pale Ale #1, 100 L: mashing in MT, no gravity yet"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a brewery started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the brewery does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_brewery(slip)?, node, messages).await
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
    || start(Slip::ShipNewCustomer),
    || start(Slip::BottlesUnit),
    || start(Slip::DrawExpired),
    || start(Slip::FermentArm),
    || start(Slip::BandEdge),
    || start(Slip::TankDay),
    || start(Slip::ReportAccumulator),
    || start(Slip::FinalGravity),
    || start(Slip::ShortFilter),
    || start(Slip::InvoiceSwapped),
    || start(Slip::DutyDefault),
    || start(Slip::BatchStage),
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
                "blind_brewery: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_BREWERY_SLIP", &SLIPS, Slip::None)?;
        let host = start_brewery(slip)?;
        let options = McpAdapterOptions::new("blind-brewery", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_brewery: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_brewery: {error}");
        std::process::exit(1);
    }
}
