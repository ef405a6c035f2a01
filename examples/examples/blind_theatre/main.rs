//! A theatre's box office over one week (three shows in eight performances, a small house of stalls, circle and two
//! boxes with each show's price bands, holds that lapse after a quarter of an hour, bookings with concessions and a
//! group discount, returns for sold-out performances, their waiting lists, exchanges between performances of a show
//! for a fee, the bar's interval orders, the house manager's counts, the week's takings, and two services over the
//! network), split over ten files as an app developer would write it, with ordinary mistakes that were not planted
//! with `explain` in mind: a blind test of whether one `explain` call over MCP names the faulty line, written by a
//! tester who had not read how `explain` diagnoses.
//!
//! The box office: it opens on Monday at 10:00 with the week planned show by show (Hamlet on Monday 19:30, Wednesday
//! 14:30 and Friday 19:30; Private Lives on Tuesday 19:30 and Friday 14:30; The Pirates on Wednesday 19:30 and
//! Saturday 14:30 and 19:30); the week starts (initial commands of `Mvu::with_commands`) with the Friends of the
//! Theatre's box of four for the first night. It sells seats (`book`: a section, a number of seats, and a concession,
//! `child` at half price, `student` or `senior` £5 off but not on a peak night; a matinee is £6 cheaper, a Friday or
//! Saturday evening £4 dearer; ten seats or more are a group, ten per cent off; a booking fee each), holds them for a
//! customer (`hold`, lapsing after fifteen minutes: the clock's `advance` sends a `Release` command for each lapsed
//! hold) and turns a hold into a booking (`confirm`). A sold-out performance takes a waiting list (`wait`) and
//! returns (`return_seats`: refunded less a fee per seat, the seats offered to the first customer waiting as an
//! `OfferReturn` command). A booking moves to another performance of its show (`exchange`, a fee per seat and any
//! difference in price). The bar takes interval orders (`interval_order`). Derived: the clock; the week, a keyed
//! collection (`ranvier::collection`) with each performance's seats left as a row memo and views over it (the
//! programme in date order, from a `sort_by`; the performances on sale, a `filter`; how many are sold out, a
//! `count_by`); the bookings, the holds and the waiting lists; the house manager's counts for today's performances;
//! the interval orders; the week's takings with their VAT; and from two services over the network, as async memos,
//! each performance's card takings as the acquirer settles them and the royalties owed on each show at the rights
//! agency's rates.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, methods on the model's types), `update.rs`
//! (`update`, its helpers, with commands), `tariff.rs` (prices, concessions, fees), `limits.rs` (holds, seats a
//! booking, returns, the bar's last orders), `accounts.rs` (VAT and royalty receipts), `graph.rs` (the `#[expose]`
//! app, the `#[node]` builder, the longer memos), `performances.rs` (the collection, its row factory and views),
//! `services.rs` (the async memos), `remote.rs` (the services).
//!
//! The mistakes, one per key of [`SLIPS`]: two in async memos' futures (an early exit from a loop, a rate in basis
//! points taken as per cent), two in the keyed collection (its row memo forgets the held seats, its `sort_by` key has
//! its fields swapped), two in `update`'s helpers (a copy-pasted field written, swapped arguments), three in rule
//! modules (an inverted guard in the tariff `update` calls, an off-by-one comparison in the limits `update` calls, a
//! wrong formula in the accounts the memos call), two in long memos (a read that does not subscribe, an or-pattern
//! too wide), and one in a method of a model type (`||` and `&&` without their parentheses).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_THEATRE_SLIP=<key>`) runs the box office with that one mistake; without it
//! the box office is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain`
//! arguments that show it (`BLIND_THEATRE_SLIP=<key> ranvier-mcp call target/debug/examples/blind_theatre explain
//! '<those>'` asks by hand). `cargo run -p ranvier-examples --features blind --example blind_theatre -- --report` (a debug build: only traced builds list
//! `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length
//! (`--answers` adds each answer). Otherwise the box office serves MCP over stdio.

use ranvier_examples::harness;

pub mod accounts;
pub mod graph;
pub mod limits;
pub mod model;
pub mod performances;
pub mod remote;
pub mod services;
pub mod tariff;
pub mod update;

use graph::{BoxOffice, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the box office that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "held_batch",
        "an early exit in an async memo's future: a batch held for review ends the loop, the later ones go unsettled",
        Slip::HeldBatch,
    ),
    (
        "royalty_rate",
        "a wrong unit in an async memo's future: a rate in basis points divided by 100, as if it were per cent",
        Slip::RoyaltyRate,
    ),
    (
        "held_seats",
        "a missing term in a row factory's memo: the seats left forget the seats held",
        Slip::HeldSeats,
    ),
    (
        "date_order",
        "a wrong sort key in a `sort_by` view: time of day before the day, so the matinees come first",
        Slip::DateOrder,
    ),
    (
        "confirm_hold",
        "a wrong field written by an `update` helper: a confirmed hold's seats go back to held, not to sold",
        Slip::ConfirmHold,
    ),
    (
        "exchange_seats",
        "swapped arguments in an `update` helper: an exchange moves the seats from the new performance to the old",
        Slip::ExchangeSeats,
    ),
    (
        "peak_concession",
        "an inverted guard in a rule `update` calls: concessions given at peak and refused off peak",
        Slip::PeakConcession,
    ),
    (
        "hold_lapse",
        "off by one in a rule `update` calls: `<` for `<=`, so a hold outlives its quarter of an hour",
        Slip::HoldLapse,
    ),
    (
        "vat_out",
        "a wrong formula in a rule a memo calls: VAT taken out as a fifth of the gross instead of a sixth",
        Slip::VatOut,
    ),
    (
        "takings_exchanged",
        "a wrong match arm in a long memo: an exchanged booking's money counted again beside the new booking's",
        Slip::TakingsExchanged,
    ),
    (
        "house_today",
        "a read that does not subscribe in a long memo: `peek` on the day, so the house keeps yesterday's performance",
        Slip::HouseToday,
    ),
    (
        "friday_matinee",
        "operator precedence in a model type's method: `a || b && c`, so a Friday matinee is peak",
        Slip::FridayMatinee,
    ),
];

/// What the graph thread keeps: the box office and its exposure.
pub type TheatreHost = harness::ExposedHost<BoxOffice>;

/// Starts the box office with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_theatre(slip: Slip) -> Result<TheatreHost, HostError> {
    harness::start_exposed(move || graph::box_office(slip))
}

/// The box office with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::box_office(slip), "blind-theatre")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the box office, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("tariff.rs", include_str!("tariff.rs")),
    ("limits.rs", include_str!("limits.rs")),
    ("accounts.rs", include_str!("accounts.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("performances.rs", include_str!("performances.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the box office holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the box office")
}

fn book(customer: &str, perf: u32, section: &str, seats: u32, concession: Option<&str>) -> Value {
    msg(
        "book",
        json!({"customer": customer, "perf": perf, "section": section, "seats": seats, "concession": concession}),
    )
}
fn hold(customer: &str, perf: u32, section: &str, seats: u32) -> Value {
    msg(
        "hold",
        json!({"customer": customer, "perf": perf, "section": section, "seats": seats}),
    )
}
fn confirm(hold: u32) -> Value {
    msg("confirm", json!({"hold": hold, "concession": null}))
}
fn exchange(booking: u32, to: u32) -> Value {
    msg("exchange", json!({"booking": booking, "to": to}))
}
fn interval_order(perf: u32, item: &str, qty: u32) -> Value {
    msg(
        "interval_order",
        json!({"perf": perf, "item": item, "qty": qty}),
    )
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). The box office opens Monday 10:00 with the Friends' box of four for Monday 19:30 Hamlet (£160.00,
/// a £1.50 fee); performances 1 Mon 19:30 Hamlet, 2 Tue 19:30 Private Lives, 3 Wed 14:30 Hamlet, 4 Wed 19:30 The
/// Pirates, 5 Fri 14:30 Private Lives, 6 Fri 19:30 Hamlet, 7 Sat 14:30 The Pirates, 8 Sat 19:30 The Pirates; stalls
/// 40, circle 24, boxes 8; Hamlet £32/£24/£40, Private Lives £28/£20/£36, The Pirates £36/£26/£44.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Tuesday's batch is held for review: Monday's and Wednesday's are settled; shows Wednesday's missing
        "held_batch" => (
            "settlements",
            json!([
                book("Ann", 2, "stalls", 2, None),
                book("Ben", 4, "circle", 1, None)
            ]),
        ),
        // 10% of £46.66 net on Private Lives is £4.66; shows £466.60
        "royalty_rate" => ("royalties", json!([book("Ann", 2, "stalls", 2, None)])),
        // two stalls held for Tuesday: 38 left in the stalls; shows 40
        "held_seats" => ("programme", json!([hold("Ann", 2, "stalls", 2)])),
        // the programme runs Monday to Saturday; shows the three matinees first
        "date_order" => ("programme", json!([book("Ann", 7, "circle", 2, None)])),
        // Ann's hold of two confirmed: 6 sold and none held tonight; shows 4 sold and 2 held
        "confirm_hold" => ("house", json!([hold("Ann", 1, "stalls", 2), confirm(1)])),
        // Ann's two stalls move from Monday to Friday's Hamlet: Monday 40 left in the stalls, Friday 38; shows Monday
        // 36 and Friday 40
        "exchange_seats" => (
            "programme",
            json!([book("Ann", 1, "stalls", 2, None), exchange(2, 6)]),
        ),
        // Bea, a student on Tuesday, pays £15.00, and Cy, a senior on Saturday evening, the full £30.00; shows £20.00
        // and £25.00
        "peak_concession" => (
            "bookings",
            json!([
                book("Bea", 2, "circle", 1, Some("student")),
                book("Cy", 8, "circle", 1, Some("senior"))
            ]),
        ),
        // at 10:15 Ann's hold from 10:00 has lapsed and Bob's from 10:10 stands; shows both
        "hold_lapse" => (
            "holds",
            json!([
                hold("Ann", 2, "stalls", 2),
                advance(10),
                hold("Bob", 2, "circle", 3),
                advance(5)
            ]),
        ),
        // £240.00 taken, VAT £40.00 of it; shows £48.00
        "vat_out" => (
            "takings",
            json!([
                book("Ann", 1, "stalls", 2, None),
                interval_order(1, "wine", 2)
            ]),
        ),
        // Ann's £64.00 went to Friday's booking (£72.00 with the difference): tickets £232.00; shows £296.00
        "takings_exchanged" => (
            "takings",
            json!([book("Ann", 1, "stalls", 2, None), exchange(2, 6)]),
        ),
        // on Tuesday the house has Private Lives, two sold; shows Monday's Hamlet
        "house_today" => (
            "house",
            json!([book("Ann", 2, "stalls", 2, None), advance(1440)]),
        ),
        // the Friday matinee is off peak: Dan's two student seats £34.00; shows £44.00
        "friday_matinee" => (
            "bookings",
            json!([book("Dan", 5, "stalls", 2, Some("student"))]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The Friends' booking, first of every list of bookings.
const FRIENDS: &str = "1 Friends of the Theatre: 4 boxes, Mon 19:30 Hamlet, £160.00 + £1.50 fee";

/// The value `key`'s node holds in the correct box office after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "held_batch" => json!([
            "Mon 19:30 Hamlet: 1 card payment, £161.50 less £2.13 charges",
            "Tue 19:30 Private Lives: not settled, the acquirer holds the batch for review",
            "Wed 19:30 The Pirates: 1 card payment, £27.50 less £0.53 charges"
        ]),
        "royalty_rate" => json!([
            "Hamlet: no royalty, Hamlet is out of copyright",
            "Private Lives: 10.00% to the Coward estate on £46.66 net: £4.66"
        ]),
        "held_seats" => json!([
            "Mon 19:30 Hamlet: stalls 40, circle 24, boxes 4 left",
            "Tue 19:30 Private Lives: stalls 38, circle 24, boxes 8 left",
            "Wed 14:30 Hamlet: stalls 40, circle 24, boxes 8 left",
            "Wed 19:30 The Pirates: stalls 40, circle 24, boxes 8 left",
            "Fri 14:30 Private Lives: stalls 40, circle 24, boxes 8 left",
            "Fri 19:30 Hamlet: stalls 40, circle 24, boxes 8 left",
            "Sat 14:30 The Pirates: stalls 40, circle 24, boxes 8 left",
            "Sat 19:30 The Pirates: stalls 40, circle 24, boxes 8 left"
        ]),
        "date_order" => json!([
            "Mon 19:30 Hamlet: stalls 40, circle 24, boxes 4 left",
            "Tue 19:30 Private Lives: stalls 40, circle 24, boxes 8 left",
            "Wed 14:30 Hamlet: stalls 40, circle 24, boxes 8 left",
            "Wed 19:30 The Pirates: stalls 40, circle 24, boxes 8 left",
            "Fri 14:30 Private Lives: stalls 40, circle 24, boxes 8 left",
            "Fri 19:30 Hamlet: stalls 40, circle 24, boxes 8 left",
            "Sat 14:30 The Pirates: stalls 40, circle 22, boxes 8 left",
            "Sat 19:30 The Pirates: stalls 40, circle 24, boxes 8 left"
        ]),
        "confirm_hold" => json!(["19:30 Hamlet: 6 sold, 0 held, 66 free, 0 interval orders"]),
        "exchange_seats" => json!([
            "Mon 19:30 Hamlet: stalls 40, circle 24, boxes 4 left",
            "Tue 19:30 Private Lives: stalls 40, circle 24, boxes 8 left",
            "Wed 14:30 Hamlet: stalls 40, circle 24, boxes 8 left",
            "Wed 19:30 The Pirates: stalls 40, circle 24, boxes 8 left",
            "Fri 14:30 Private Lives: stalls 40, circle 24, boxes 8 left",
            "Fri 19:30 Hamlet: stalls 38, circle 24, boxes 8 left",
            "Sat 14:30 The Pirates: stalls 40, circle 24, boxes 8 left",
            "Sat 19:30 The Pirates: stalls 40, circle 24, boxes 8 left"
        ]),
        "peak_concession" => json!([
            FRIENDS,
            "2 Bea: 1 circle (student), Tue 19:30 Private Lives, £15.00 + £1.50 fee",
            "3 Cy: 1 circle (senior), Sat 19:30 The Pirates, £30.00 + £1.50 fee"
        ]),
        "hold_lapse" => json!(["hold 2 Bob: 3 circle, Tue 19:30 Private Lives, until Mon 10:25"]),
        "vat_out" => json!([
            "tickets: £224.00",
            "refunds: £0.00",
            "fees: £3.00",
            "bar: £13.00",
            "total: £240.00",
            "net of VAT: £200.00",
            "VAT: £40.00"
        ]),
        "takings_exchanged" => json!([
            "tickets: £232.00",
            "refunds: £0.00",
            "fees: £8.00",
            "bar: £0.00",
            "total: £240.00",
            "net of VAT: £200.00",
            "VAT: £40.00"
        ]),
        "house_today" => json!(["19:30 Private Lives: 2 sold, 0 held, 70 free, 0 interval orders"]),
        "friday_matinee" => json!([
            FRIENDS,
            "2 Dan: 2 stalls (student), Fri 14:30 Private Lives, £34.00 + £1.50 fee"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a box office started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the box office does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_theatre(slip)?, node, messages).await
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
    || start(Slip::HeldBatch),
    || start(Slip::RoyaltyRate),
    || start(Slip::HeldSeats),
    || start(Slip::DateOrder),
    || start(Slip::ConfirmHold),
    || start(Slip::ExchangeSeats),
    || start(Slip::PeakConcession),
    || start(Slip::HoldLapse),
    || start(Slip::VatOut),
    || start(Slip::TakingsExchanged),
    || start(Slip::HouseToday),
    || start(Slip::FridayMatinee),
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
                "blind_theatre: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_THEATRE_SLIP", &SLIPS, Slip::None)?;
        let host = start_theatre(slip)?;
        let options = McpAdapterOptions::new("blind-theatre", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_theatre: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_theatre: {error}");
        std::process::exit(1);
    }
}
