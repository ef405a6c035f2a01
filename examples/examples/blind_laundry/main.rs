//! A laundry's day (orders by weight and service: a wash, a wash and tumble dry, or the full service with ironing;
//! five machines with their cycles and faults; the drying and ironing queues; the courier's rounds for bags going
//! back; the loyalty card and the day's takings), split over nine files as an app developer would write it, with
//! ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call over
//! MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The shop opens at 08:00 with three washers (W1 and W2 of 7 kg, W3 of 10 kg) and two dryers (D1, D2, 10 kg),
//! installed by the initial commands of `Mvu::with_commands`. A customer leaves a bag (`drop_off`: its weight in
//! grams, `wash`, `wash_dry` or `full`, and a postcode for the courier or none): it is priced per started kilo
//! (wash 3.00, drying 1.50, ironing 4.50 a bag) and a `Fill` command puts it in the smallest free washer it fits.
//! The clock moves on (`advance`): each cycle that ended sends `Finish` (a wash 45 minutes, a drying 60); the bag
//! moves on to a dryer, the ironing board or the shelf, and the freed machine takes the next bag waiting. A machine
//! breaks down (`fault`): its bag waits for another. The ironing is done by hand (`ironed`). The customer collects
//! and pays (`collect`, by card or cash): the order collected on a full card (three stamps) is half price. Derived:
//! the clock, the orders with their prices, the bags waiting, at the ironing board and ready, the takings and the
//! loyalty cards; the floor, a keyed collection (`ranvier::collection`) of the machines with each one's status line as
//! a row memo and views over it (the free machines from a `filter`, the machines out of order from a `count_by`, the
//! board's order from a `sort_by`); and from two services over the network, as async memos: when the courier brings
//! each ready bag back, and each customer's stamps at the chain's other shops.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, the stages' order), `update.rs` (`update`,
//! with commands, and its helpers), `pricing.rs` and `machines.rs` (the price list and the floor's rules),
//! `graph.rs` (the `#[expose]` app, the `#[node]` builder, the takings and the cards), `floor.rs` (the collection,
//! its row factory and views), `services.rs` (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_LAUNDRY_SLIP=<key>`) runs the laundry with that one mistake; without it
//! the laundry is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments
//! that show it (`BLIND_LAUNDRY_SLIP=<key> ranvier-mcp call target/debug/examples/blind_laundry explain '<those>'`
//! asks by hand). `cargo run -p ranvier-examples --features blind --example blind_laundry -- --report` (a debug build: only traced builds list `explain`)
//! prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers`
//! adds each answer). Otherwise the laundry serves MCP over stdio.

use ranvier_examples::harness;

pub mod floor;
pub mod graph;
pub mod machines;
pub mod model;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod update;

use graph::{LaundryDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the laundry that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "fits_full_drum",
        "`<` for `<=` in a rule of another module: a bag of exactly a drum's load does not fit it (off by one)",
        Slip::FitsFullDrum,
    ),
    (
        "dry_per_kilo",
        "`+` for `*` in a pricing rule called from `update`: drying costs kilos + 1.50, not 1.50 a kilo",
        Slip::DryPerKilo,
    ),
    (
        "load_swapped",
        "swapped arguments in an `update` helper: the order's id and the machine's id given the other way round",
        Slip::LoadSwapped,
    ),
    (
        "fault_ignored",
        "a missing condition in an `update` helper: a machine out of order still counts as free",
        Slip::FaultIgnored,
    ),
    (
        "finish_no_fill",
        "a command not sent: `Fill` only when the bag goes on to a dryer, so a freed washer stays empty",
        Slip::FinishNoFill,
    ),
    (
        "full_skips_iron",
        "a wrong match arm in a model method: a full-service bag goes from the dryer to the shelf, not to ironing",
        Slip::FullSkipsIron,
    ),
    (
        "takings_quoted",
        "the wrong field in a long memo: card takings add the quoted price, not what was charged",
        Slip::TakingsQuoted,
    ),
    (
        "cards_spent_overwrite",
        "a wrong accumulator in a long memo: `=` for `+=`, so a card's spending is its last order's",
        Slip::CardsSpentOverwrite,
    ),
    (
        "minutes_left",
        "the wrong variable in a row factory's memo: minutes left from the cycle's start, not from now",
        Slip::MinutesLeft,
    ),
    (
        "free_inverted",
        "an inverted condition in a `filter` view: the machines with a bag in them counted as free",
        Slip::FreeInverted,
    ),
    (
        "courier_after_now",
        "the wrong captured value in an async memo's future: the clock now, not when the bag was ready",
        Slip::CourierAfterNow,
    ),
    (
        "loyalty_not_member",
        "a failure turned into a default in an async memo's future: a customer the chain does not know has 0 stamps",
        Slip::LoyaltyNotMember,
    ),
];

/// What the graph thread keeps: the laundry and its exposure.
pub type LaundryHost = harness::ExposedHost<LaundryDesk>;

/// Starts the laundry with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_laundry(slip: Slip) -> Result<LaundryHost, HostError> {
    harness::start_exposed(move || graph::laundry_desk(slip))
}

/// The laundry with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::laundry_desk(slip), "blind-laundry")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the laundry, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("machines.rs", include_str!("machines.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("floor.rs", include_str!("floor.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the laundry holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the laundry")
}

fn drop_off(customer: &str, grams: u32, service: &str, postcode: &str) -> Value {
    msg(
        "drop_off",
        json!({"customer": customer, "grams": grams, "service": service, "postcode": postcode}),
    )
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}
fn fault(machine: u32) -> Value {
    msg("fault", json!({ "machine": machine }))
}
fn collect(order: u32, method: &str) -> Value {
    msg("collect", json!({"order": order, "method": method}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the shop opens at 08:00 with W1 (7 kg, machine 1), W2 (7 kg, 2), W3 (10 kg, 3), D1 (10 kg, 4) and
/// D2 (10 kg, 5); a wash takes 45 minutes, a drying 60; a wash is 3.00 per started kilo, drying 1.50 per started
/// kilo, ironing 4.50 a bag; the fourth order collected (three stamps on the card) is half price).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Ada's 7 kg bag goes into W1 (7 kg); shows it in W3 and W1 free
        "fits_full_drum" => ("board", json!([drop_off("Ada", 7000, "wash", "")])),
        // 2.1 kg washed and dried: 3 kg at 3.00 + 1.50 = 13.50; shows 10.53
        "dry_per_kilo" => ("orders", json!([drop_off("Ada", 2100, "wash_dry", "")])),
        // Ada's 9 kg bag in W3; shows W1 washing a bag #3 and W3 free
        "load_swapped" => ("board", json!([drop_off("Ada", 9000, "wash", "")])),
        // W1 is out of order, so Ada's bag goes into W2; shows W2 free (the bag in W1)
        "fault_ignored" => (
            "board",
            json!([fault(1), drop_off("Ada", 5000, "wash", "")]),
        ),
        // Dee's bag waits for a washer, and goes into W1 when the first washes end; shows W1 free and Dee waiting
        "finish_no_fill" => (
            "board",
            json!([
                drop_off("Ada", 5000, "wash", ""),
                drop_off("Bo", 5000, "wash", ""),
                drop_off("Cy", 8000, "wash", ""),
                drop_off("Dee", 5000, "wash", ""),
                advance(45)
            ]),
        ),
        // Ada's full-service bag, washed and dried, waits at the ironing board; shows nothing to iron
        "full_skips_iron" => (
            "ironing",
            json!([drop_off("Ada", 3000, "full", ""), advance(45), advance(60)]),
        ),
        // Ada's four 1 kg washes, the fourth on a full card by card: 1.50; shows card 3.00
        "takings_quoted" => (
            "takings",
            json!([
                drop_off("Ada", 1000, "wash", ""),
                drop_off("Ada", 1000, "wash", ""),
                drop_off("Ada", 1000, "wash", ""),
                drop_off("Ada", 1000, "wash", ""),
                advance(45),
                advance(45),
                collect(1, "cash"),
                collect(2, "cash"),
                collect(3, "cash"),
                collect(4, "card")
            ]),
        ),
        // Ada collects two 1 kg washes (3.00 each): spent 6.00; shows 3.00
        "cards_spent_overwrite" => (
            "cards",
            json!([
                drop_off("Ada", 1000, "wash", ""),
                drop_off("Ada", 1000, "wash", ""),
                advance(45),
                collect(1, "cash"),
                collect(2, "card")
            ]),
        ),
        // a quarter of an hour into Ada's wash: 30 minutes left; shows 45
        "minutes_left" => (
            "board",
            json!([drop_off("Ada", 5000, "wash", ""), advance(15)]),
        ),
        // Ada's bag in W1: four machines free; shows 1
        "free_inverted" => ("free_machines", json!([drop_off("Ada", 5000, "wash", "")])),
        // Ada's bag for N1 ready at 08:45: the 09:00 round, there at 09:20; asked at 09:15, shows 09:50
        "courier_after_now" => (
            "deliveries",
            json!([drop_off("Ada", 3000, "wash", "N1"), advance(75)]),
        ),
        // Cy is not on the chain's card; shows Cy with 0 stamps
        "loyalty_not_member" => (
            "loyalty",
            json!([
                drop_off("Ada", 2000, "wash", ""),
                drop_off("Cy", 2000, "wash", "")
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct laundry after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "fits_full_drum" => json!([
            "W1 (7 kg): washing #1, 45 min left",
            "W2 (7 kg): free",
            "W3 (10 kg): free",
            "D1 (10 kg): free",
            "D2 (10 kg): free"
        ]),
        "dry_per_kilo" => json!(["#1 Ada 3 kg WashDry: 13.50, Washing"]),
        "load_swapped" => json!([
            "W1 (7 kg): free",
            "W2 (7 kg): free",
            "W3 (10 kg): washing #1, 45 min left",
            "D1 (10 kg): free",
            "D2 (10 kg): free"
        ]),
        "fault_ignored" => json!([
            "W1 (7 kg): out of order",
            "W2 (7 kg): washing #1, 45 min left",
            "W3 (10 kg): free",
            "D1 (10 kg): free",
            "D2 (10 kg): free"
        ]),
        "finish_no_fill" => json!([
            "W1 (7 kg): washing #4, 45 min left",
            "W2 (7 kg): free for 0 min, 1 cycles",
            "W3 (10 kg): free for 0 min, 1 cycles",
            "D1 (10 kg): free",
            "D2 (10 kg): free"
        ]),
        "full_skips_iron" => json!(["#1 Ada, 3 kg"]),
        "takings_quoted" => json!([
            "4 bags, 4 kg",
            "card 1.50",
            "cash 9.00",
            "loyalty discounts 1.50",
            "total 10.50"
        ]),
        "cards_spent_overwrite" => json!(["Ada: 2 visits, 2 stamps, spent 6.00"]),
        "minutes_left" => json!([
            "W1 (7 kg): washing #1, 30 min left",
            "W2 (7 kg): free",
            "W3 (10 kg): free",
            "D1 (10 kg): free",
            "D2 (10 kg): free"
        ]),
        "free_inverted" => json!(4),
        "courier_after_now" => json!(["#1 Ada: courier to N1 at 09:20"]),
        "loyalty_not_member" => json!([
            "Ada: 2 stamps at the chain's other shops",
            "Cy: not a member of the chain's card"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a laundry started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the laundry does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_laundry(slip)?, node, messages).await
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
    || start(Slip::FitsFullDrum),
    || start(Slip::DryPerKilo),
    || start(Slip::LoadSwapped),
    || start(Slip::FaultIgnored),
    || start(Slip::FinishNoFill),
    || start(Slip::FullSkipsIron),
    || start(Slip::TakingsQuoted),
    || start(Slip::CardsSpentOverwrite),
    || start(Slip::MinutesLeft),
    || start(Slip::FreeInverted),
    || start(Slip::CourierAfterNow),
    || start(Slip::LoyaltyNotMember),
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
                "blind_laundry: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_LAUNDRY_SLIP", &SLIPS, Slip::None)?;
        let host = start_laundry(slip)?;
        let options = McpAdapterOptions::new("blind-laundry", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_laundry: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_laundry: {error}");
        std::process::exit(1);
    }
}
