//! The blind campsite: a campsite's office split over ten files as an app grows, with twelve ordinary mistakes that
//! can be switched on one at a time, to test whether `explain` names the faulty line.
//!
//! The campsite (`model.rs`): eight pitches (tents `T1`–`T3`, caravans `C1`, `C2`, hardstandings with a metered
//! electric hook-up `H1`–`H3`) booked by the night and paid for when booked, a shop with its stock and its till, and a
//! ledger of every card payment. Today is day 194 (the 13th of July). Messages (`update.rs`, with commands):
//! `book {pitch, name, arrive, nights, adults, children, dogs}`, `arrive {booking, meter?}`,
//! `depart {booking, meter?, late?}` (sends `mark_to_clean`), `cancel {booking}` (refunds by notice), `cleaned
//! {pitch}`, `sell {item, qty}`, `restock {item, qty}` and `next_day {}` (sends `close_till`, which banks the till).
//! Prices (`pricing.rs`): each night by its season (low, high from day 135, peak days 196–243), per pitch kind, plus
//! £5 an adult, £2.50 a child and £2 a dog; rules (`policy.rs`): party sizes, clashes, late checkout fees and the
//! cancellation refund (four weeks' notice: all but £10, two weeks: half); the shop (`shop.rs`): prices, shower
//! tokens five for £2, reordering. The field is a keyed collection (`pitches.rs`): a row per pitch with what its party
//! pays tonight, and `count_by`, `filter` and `sort_by` views. Exposed values (`graph.rs`): `today`, `pitches`,
//! `board` (the warden's), `occupancy`, `hookups`, `night_audit`, `bookings`, `shop`, `takings` (the week's, by day),
//! and two async memos over network services (`services.rs`, faked in `remote.rs`): `hookup_bills` (the electricity
//! supplier's rate) and `payout` (the card processor's terms).
//!
//! The mistakes (see [`SLIPS`]): two in async memos' futures (swapped arguments, a wrong unit), two in the keyed
//! collection (its row memo passes the wrong field, its `filter` view misses a condition), two in `update`'s helpers
//! (a wrong operator, a dropped command), three in rule modules (an off-by-one boundary in the refund policy and a
//! wrong enum arm in the season, both called from memos and from `update`; a wrong rounding in the shop's prices,
//! called from `update` and from a memo), two in long memos (a stale, untracked read of today; an accumulator not
//! reset), and one in a model type's hand-written `PartialEq` (a field left out, in the `Pitch::same_as` it calls).
//! Each sits on the line after a `// BUG(<key>)` comment, in a full copy of its fn in a `pub mod slipped` at the end of
//! the same file; the correct fn makes no mention of it. `graph.rs` picks the copy when that slip is on: a memo's
//! builder in a `match` on the slip, the rest through fn values (`update::Helpers` from `Slip::helpers`, the pitches'
//! row factory, and the `Pitch::same_as` each pitch is built with). Session 27 rewrote the set's inline `match slip()`
//! switches as these `slipped` copies (a harness change); the figures after it come from the rewritten set.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_campsite` serves the correct campsite over MCP on stdio; `--slip <key>` (or
//! `BLIND_CAMPSITE_SLIP=<key>`) serves it with that mistake; `--cases` prints each mistake's key, faulty line and
//! `explain` arguments; `--report [--answers]` runs `explain` on each (a debug build).

use ranvier_examples::harness;

pub mod graph;
pub mod model;
pub mod pitches;
pub mod policy;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod shop;
pub mod update;

use graph::{CampsiteApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: key, class, and the slip that switches it on.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "meter_units",
        "swapped arguments in an async memo's future: the meter readings given last-first",
        Slip::MeterUnits,
    ),
    (
        "card_fee",
        "wrong unit in an async memo's future: basis points divided as tenths of a percent",
        Slip::CardFee,
    ),
    (
        "child_rate",
        "wrong field in a keyed collection's row memo: the party's adults passed again as its children",
        Slip::ChildRate,
    ),
    (
        "free_hookups",
        "missing condition in a keyed collection's filter view: pitches still to clean count as free",
        Slip::FreeHookups,
    ),
    (
        "close_till",
        "dropped command in an update helper: the night passes without banking the till",
        Slip::CloseTill,
    ),
    (
        "stock_left",
        "wrong operator in an update helper: a sale adds to the stock",
        Slip::StockLeft,
    ),
    (
        "refund_notice",
        "off by one in a rule module: exactly four weeks' notice is not enough for a full refund",
        Slip::RefundNotice,
    ),
    (
        "peak_nights",
        "wrong enum arm in a rule module: peak nights priced as high season",
        Slip::PeakNights,
    ),
    (
        "token_bundles",
        "wrong rounding in a rule module: shower-token bundles rounded up",
        Slip::TokenBundles,
    ),
    (
        "board_day",
        "stale value in a long memo: today read untracked, so the board keeps yesterday",
        Slip::BoardDay,
    ),
    (
        "day_totals",
        "accumulator not reset in a long memo: each day's takings carry the days before",
        Slip::DayTotals,
    ),
    (
        "pitch_eq",
        "a hand-written PartialEq leaves a field out: a pitch marked to clean compares equal",
        Slip::PitchEq,
    ),
];

/// What the graph thread keeps: the campsite and its exposure.
pub type CampsiteHost = harness::ExposedHost<CampsiteApp>;

/// Starts the campsite with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_campsite(slip: Slip) -> Result<CampsiteHost, HostError> {
    harness::start_exposed(move || graph::campsite(slip))
}

/// The campsite with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::campsite(slip), "blind-campsite")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the campsite, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("policy.rs", include_str!("policy.rs")),
    ("shop.rs", include_str!("shop.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("pitches.rs", include_str!("pitches.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the campsite holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the campsite")
}

fn book(pitch: &str, arrive: u32, nights: u32, adults: u32, children: u32, dogs: u32) -> Value {
    msg(
        "book",
        json!({"pitch": pitch, "name": "Smith", "arrive": arrive, "nights": nights, "adults": adults,
               "children": children, "dogs": dogs}),
    )
}
fn arrive(booking: u32, meter: u32) -> Value {
    msg("arrive", json!({"booking": booking, "meter": meter}))
}
fn depart(booking: u32, meter: u32) -> Value {
    msg("depart", json!({"booking": booking, "meter": meter}))
}
fn cancel(booking: u32) -> Value {
    msg("cancel", json!({ "booking": booking }))
}
fn sell(item: &str, qty: u32) -> Value {
    msg("sell", json!({"item": item, "qty": qty}))
}
fn next_day() -> Value {
    msg("next_day", json!({}))
}

/// A night on H1 from today: the Smiths arrive with the meter at 1200, and leave tomorrow with it at 1214.
fn night_on_h1() -> Value {
    json!([
        book("H1", 194, 1, 2, 0, 0),
        arrive(1, 1200),
        next_day(),
        depart(1, 1214)
    ])
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). Today is day 194, high season (peak from day 196); tents £16 a night in high season and £20 in
/// peak, hardstandings £28 in high season; £5 an adult, £2.50 a child, £2 a dog; electricity 34.5p a unit; the card
/// processor keeps 1.75% and 20p a payment; milk £1.20, shower tokens 50p or five for £2.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // 14 units at 34.5p: £4.83; shows 0 units, £0.00
        "meter_units" => ("hookup_bills", night_on_h1()),
        // £60.00 less 1.75% (£1.05) and 20p: £58.75; shows fees of £10.70, £49.30
        "card_fee" => ("payout", json!([book("T1", 200, 2, 2, 0, 0)])),
        // H1 tonight for 2 adults, a child and a dog: £28 + £10 + £2.50 + £2 = £42.50; shows £45.00 (two children)
        "child_rate" => (
            "night_audit",
            json!([book("H1", 194, 2, 2, 1, 1), arrive(1, 1200)]),
        ),
        // H1 left and not cleaned: only H2 and H3 are free; shows H1 too
        "free_hookups" => ("hookups", night_on_h1()),
        // the till is banked overnight: empty; shows yesterday's sale still in it
        "close_till" => ("shop", json!([sell("milk", 2), next_day()])),
        // 2 of 12 pints sold: 10 left; shows 14
        "stock_left" => ("shop", json!([sell("milk", 2)])),
        // cancelled 28 days before arrival: £60.00 less the £10 fee, £50.00 back; shows half, £30.00
        "refund_notice" => ("bookings", json!([book("T1", 222, 2, 2, 0, 0), cancel(1)])),
        // two peak nights on T1 for two adults: 2 × (£20 + £10) = £60.00; shows £52.00
        "peak_nights" => ("bookings", json!([book("T1", 196, 2, 2, 0, 0)])),
        // 7 tokens: a bundle of five and two singles, £3.00; shows £5.00
        "token_bundles" => ("takings", json!([sell("shower token", 7)])),
        // tomorrow's arrival is on the board once the night has passed; shows day 194 and no arrival
        "board_day" => ("board", json!([book("T1", 195, 2, 2, 1, 1), next_day()])),
        // day 194 a booking (£60.00), day 195 milk (£2.40): day 195 takes £2.40; shows £62.40
        "day_totals" => (
            "takings",
            json!([book("T1", 200, 2, 2, 0, 0), next_day(), sell("milk", 2)]),
        ),
        // the Smiths left H1: it is to clean; shows nothing to clean
        "pitch_eq" => ("board", night_on_h1()),
        other => panic!("no mistake {other}"),
    }
}

fn shop_lines(milk: u32, till: &str) -> Value {
    json!([
        "shower token: 40 left, 50p each, 5 for £2.00",
        format!("milk: {milk} left, £1.20 each"),
        "firewood: 10 left, £6.00 each",
        "gas: 4 left, £25.00 each",
        "ice: 20 left, £1.50 each",
        till
    ])
}

/// The value `key`'s node holds in the correct campsite after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "meter_units" => json!([
            "#1 Smith on H1: 14 units at 34.5p, £4.83",
            "electricity: £4.83"
        ]),
        "card_fee" => json!("1 payment, £60.00; fees £1.25; refunds £0.00; payout £58.75"),
        "child_rate" => json!([
            "H1: Smith, 2 adults, 1 child, 1 dog: £42.50",
            "tonight: £42.50"
        ]),
        "free_hookups" => json!("free hook-ups: H2, H3"),
        "close_till" => shop_lines(10, "till: empty"),
        "stock_left" => shop_lines(10, "till: 1 sale, £2.40"),
        "refund_notice" => json!([
            "#1 Smith, T1, days 222–224, 2 guests and 0 dogs: £60.00 paid, cancelled, refunded £50.00"
        ]),
        "peak_nights" => json!([
            "#1 Smith, T1, days 196–198, 2 guests and 0 dogs: £60.00 paid, booked; cancelled today it would refund £0.00"
        ]),
        "token_bundles" => json!([
            "day 194: pitches £0.00, shop £3.00, late fees £0.00, refunds £0.00: £3.00",
            "week: £3.00"
        ]),
        "board_day" => json!([
            "day 195, high season",
            "arriving: Smith on T1, 2 nights (#1)",
            "nothing to clean",
            "on site: 0 guests, 0 dogs"
        ]),
        "day_totals" => json!([
            "day 194: pitches £60.00, shop £0.00, late fees £0.00, refunds £0.00: £60.00",
            "day 195: pitches £0.00, shop £2.40, late fees £0.00, refunds £0.00: £2.40",
            "week: £62.40"
        ]),
        "pitch_eq" => json!([
            "day 195, high season",
            "to clean: H1",
            "on site: 0 guests, 0 dogs"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a campsite started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the campsite does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_campsite(slip)?, node, messages).await
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
    || start(Slip::MeterUnits),
    || start(Slip::CardFee),
    || start(Slip::ChildRate),
    || start(Slip::FreeHookups),
    || start(Slip::CloseTill),
    || start(Slip::StockLeft),
    || start(Slip::RefundNotice),
    || start(Slip::PeakNights),
    || start(Slip::TokenBundles),
    || start(Slip::BoardDay),
    || start(Slip::DayTotals),
    || start(Slip::PitchEq),
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
                "blind_campsite: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_CAMPSITE_SLIP", &SLIPS, Slip::None)?;
        let host = start_campsite(slip)?;
        let options = McpAdapterOptions::new("blind-campsite", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_campsite: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_campsite: {error}");
        std::process::exit(1);
    }
}
