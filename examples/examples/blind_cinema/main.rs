//! A cinema's box office (a day's schedule of five showings in two screens, bookings with adult and child tickets,
//! cancellations and exchanges, a seating chart and two services over the network), split over eight files as an
//! app developer would write it, with ordinary mistakes that were not planted with `explain` in mind: the seventh
//! blind test of whether one `explain` call over MCP names the faulty line, written by a tester who had not read how
//! `explain` diagnoses.
//!
//! The box office: today's showings go on the schedule when it opens at 10:00 (initial commands of
//! `Mvu::with_commands`). A customer books adult and child tickets for a showing (`book`: refused with a notice when
//! the showing is no longer on sale or has not the room; priced with a 3D surcharge, less a discount by time of day,
//! early before noon and matinee before 17:00, then less the club discount for members; the charge, and a notice
//! when the last seat goes, are commands), cancels (`cancel`: the seats go back on sale, and a booking cancelled an
//! hour or more before its showing is refunded, a command), moves a booking to another showing (`exchange`), and the
//! clock moves on (`advance`: showings that started close their sales). Derived: the board of showings on sale with
//! their seats left, each film's next showing with seats, the takings and notices; the seating chart, a keyed
//! collection (`ranvier::collection`) with each showing's occupancy as a row memo and views over it (seats sold,
//! showings sold out, showings nearly full, the fullest showing); and from two services over the network, as async
//! memos: the bookings that bring children to a film not for children (the classification board's certificates), and
//! the best-reviewed film still on sale (a review site's scores).
//!
//! Files: `model.rs` (the types, the messages, hand-written `Default`s and `PartialEq`s), `update.rs` (`update`,
//! with commands), `rules.rs` and `pricing.rs` (helpers), `graph.rs` (the `#[expose]` app, the `#[node]` builder,
//! the board's memos), `seating.rs` (the collection, its row factory and views), `services.rs` (the async memos),
//! `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_CINEMA_SLIP=<key>`) runs the box office with that one mistake; without it
//! the box office is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain`
//! arguments that show it (`BLIND_CINEMA_SLIP=<key> ranvier-mcp call target/debug/examples/blind_cinema explain
//! '<those>'` asks by hand). `cargo run -p ranvier-examples --features blind --example blind_cinema -- --report` (a debug build: only traced builds list
//! `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length
//! (`--answers` adds each answer). Otherwise the box office serves MCP over stdio.
//!
//! The first scored run (`--report`, before any change made for the set): 6 of 13 named in one call; 4 within the
//! first 400 characters of the answer (`board_sort`, `band_order`, `nearly_full_edge`, `cert_string`, the last at
//! 398); median answer 975 characters. `last_seats` and `close_stale` were named past the 400 characters.

use ranvier_examples::harness;

pub mod graph;
pub mod model;
pub mod pricing;
pub mod remote;
pub mod rules;
pub mod seating;
pub mod services;
pub mod update;

use graph::{Cinema, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the box office that has it.
pub const SLIPS: [(&str, &str, Slip); 13] = [
    (
        "showing_eq",
        "a hand-written `PartialEq` leaves out a field, so a select's cutoff hides a change",
        Slip::ShowingEq,
    ),
    (
        "board_sort",
        "a sort on the wrong key in a long memo",
        Slip::BoardSort,
    ),
    (
        "sold_out_break",
        "`break` for `continue` in a long memo's loop",
        Slip::SoldOutBreak,
    ),
    (
        "last_seats",
        "`<` for `<=` in a rule of another module: the last seats are refused",
        Slip::LastSeats,
    ),
    (
        "band_order",
        "an `if`/`else if` chain in the wrong order makes a branch unreachable, in a helper of another module",
        Slip::BandOrder,
    ),
    (
        "member_discount",
        "integer division: `percent / 100` is 0, in a helper of another module",
        Slip::MemberDiscount,
    ),
    (
        "cancel_refund",
        "an early `return` of the notice leaves out the refund command",
        Slip::CancelRefund,
    ),
    (
        "close_stale",
        "the clock read before it moves, so the check uses the old time",
        Slip::CloseStale,
    ),
    (
        "exchange_order",
        "a field read after it was overwritten (two statements in the wrong order)",
        Slip::ExchangeOrder,
    ),
    (
        "occupancy_order",
        "a row memo divides before it multiplies (integer division)",
        Slip::OccupancyOrder,
    ),
    (
        "nearly_full_edge",
        "`>` for `>=` in a `filter` view",
        Slip::NearlyFullEdge,
    ),
    (
        "cert_string",
        "an async memo's future compares certificates as strings",
        Slip::CertString,
    ),
    (
        "best_pick",
        "`min_by_key` for `max_by_key` in an async memo's future",
        Slip::BestPick,
    ),
];

/// What the graph thread keeps: the box office and its exposure.
pub type CinemaHost = harness::ExposedHost<Cinema>;

/// Starts the box office with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_cinema(slip: Slip) -> Result<CinemaHost, HostError> {
    harness::start_exposed(move || graph::cinema(slip))
}

/// The box office with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::cinema(slip), "blind-cinema")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the box office, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("seating.rs", include_str!("seating.rs")),
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

fn book(showing: &str, customer: &str, adults: u32, children: u32, member: bool) -> Value {
    msg(
        "book",
        json!({"showing": showing, "customer": customer, "adults": adults, "children": children, "member": member}),
    )
}
fn cancel(booking: u32) -> Value {
    msg("cancel", json!({ "booking": booking }))
}
fn exchange(booking: u32, to: &str) -> Value {
    msg("exchange", json!({"booking": booking, "to": to}))
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the day starts at 10:00; m1 Paddington 10:30 in s2 (40 seats), m2 Dune 14:00 in s1 (60, 3D), m3
/// Paddington 16:00 in s2, m4 Alien 20:00 in s1, m5 Dune 21:30 in s2 (3D); an adult ticket is 12.00, a child's
/// 8.00, 30 % off before noon, 20 % off before 17:00, then 10 % off for club members).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Ada takes two seats of m1: 38 of 40 left; shows 40 of 40
        "showing_eq" => ("now_showing", json!([book("m1", "Ada", 2, 0, false)])),
        // the board in the order the showings start; shows it by film
        "board_sort" => ("now_showing", json!([advance(10)])),
        // m1 is sold out: Paddington's next showing with seats is m3, and Dune and Alien are listed; shows nothing
        "sold_out_break" => ("film_board", json!([book("m1", "Ada", 30, 10, false)])),
        // Ben takes m1's last two seats: one showing sold out; shows 0 (Ben refused)
        "last_seats" => (
            "sold_out",
            json!([
                book("m1", "Ada", 38, 0, false),
                book("m1", "Ben", 2, 0, false)
            ]),
        ),
        // two adults at 10:30, 30 % off 24.00 = 16.80; shows 19.20 (the matinee's 20 %)
        "band_order" => ("takings", json!([book("m1", "Ada", 2, 0, false)])),
        // a club member at 20:00: 12.00 less 10 % = 10.80; shows 12.00
        "member_discount" => ("takings", json!([book("m4", "Ada", 1, 0, true)])),
        // Ben cancels ten hours before his showing: refunded, takings 0; shows 24.00
        "cancel_refund" => (
            "takings",
            json!([book("m4", "Ben", 2, 0, false), cancel(1)]),
        ),
        // at 10:40 m1 (10:30) has started and is off the board; shows it still on sale
        "close_stale" => ("now_showing", json!([advance(40)])),
        // Ada's two seats move from m3 to m4: m3 40 of 40, m4 58 of 60; shows m3 38 and m4 60
        "exchange_order" => (
            "now_showing",
            json!([book("m3", "Ada", 2, 0, false), exchange(1, "m4")]),
        ),
        // 20 of m3's 40 seats sold: 50 %; shows no seats sold
        "occupancy_order" => ("fullest", json!([book("m3", "Ada", 20, 0, false)])),
        // 36 of m1's 40 seats sold, 90 %: nearly full; shows 0
        "nearly_full_edge" => ("nearly_full", json!([book("m1", "Ada", 36, 0, false)])),
        // children at Paddington, rated PG: no warning; shows one
        "cert_string" => ("age_warnings", json!([book("m1", "Ada", 1, 2, false)])),
        // Ada books two seats of m2: Alien (97) is still the best reviewed on sale; shows Dune (83)
        "best_pick" => ("best_pick", json!([book("m2", "Ada", 2, 0, false)])),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct box office after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "showing_eq" => json!([
            "10:30 Paddington (s2): 38 of 40 left",
            "14:00 Dune (s1, 3D): 60 of 60 left",
            "16:00 Paddington (s2): 40 of 40 left",
            "20:00 Alien (s1): 60 of 60 left",
            "21:30 Dune (s2, 3D): 40 of 40 left"
        ]),
        "board_sort" => json!([
            "10:30 Paddington (s2): 40 of 40 left",
            "14:00 Dune (s1, 3D): 60 of 60 left",
            "16:00 Paddington (s2): 40 of 40 left",
            "20:00 Alien (s1): 60 of 60 left",
            "21:30 Dune (s2, 3D): 40 of 40 left"
        ]),
        "sold_out_break" => json!([
            "Alien: 20:00 (s1), 60 left",
            "Dune: 14:00 (s1, 3D), 60 left",
            "Paddington: 16:00 (s2), 40 left"
        ]),
        "last_seats" => json!(1),
        "band_order" => json!(1680),
        "member_discount" => json!(1080),
        "cancel_refund" => json!(0),
        "close_stale" => json!([
            "14:00 Dune (s1, 3D): 60 of 60 left",
            "16:00 Paddington (s2): 40 of 40 left",
            "20:00 Alien (s1): 60 of 60 left",
            "21:30 Dune (s2, 3D): 40 of 40 left"
        ]),
        "exchange_order" => json!([
            "10:30 Paddington (s2): 40 of 40 left",
            "14:00 Dune (s1, 3D): 60 of 60 left",
            "16:00 Paddington (s2): 40 of 40 left",
            "20:00 Alien (s1): 58 of 60 left",
            "21:30 Dune (s2, 3D): 40 of 40 left"
        ]),
        "occupancy_order" => json!("m3 Paddington 16:00: 50 %"),
        "nearly_full_edge" => json!(1),
        "cert_string" => json!([]),
        "best_pick" => json!("Alien (97): 20:00 in s1"),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a box office started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the box office does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_cinema(slip)?, node, messages).await
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
const STARTS: [fn() -> Result<Started, HostError>; 13] = [
    || start(Slip::ShowingEq),
    || start(Slip::BoardSort),
    || start(Slip::SoldOutBreak),
    || start(Slip::LastSeats),
    || start(Slip::BandOrder),
    || start(Slip::MemberDiscount),
    || start(Slip::CancelRefund),
    || start(Slip::CloseStale),
    || start(Slip::ExchangeOrder),
    || start(Slip::OccupancyOrder),
    || start(Slip::NearlyFullEdge),
    || start(Slip::CertString),
    || start(Slip::BestPick),
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
                "blind_cinema: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_CINEMA_SLIP", &SLIPS, Slip::None)?;
        let host = start_cinema(slip)?;
        let options = McpAdapterOptions::new("blind-cinema", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_cinema: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_cinema: {error}");
        std::process::exit(1);
    }
}
