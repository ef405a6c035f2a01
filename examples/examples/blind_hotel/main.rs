//! A hotel's front desk (six rooms on three floors, reservations, check-in and check-out, the night audit that
//! charges each night, housekeeping's board and two services over the network), split over eight files as an app
//! developer would write it, with ordinary mistakes that were not planted with `explain` in mind: the eighth blind
//! test of whether one `explain` call over MCP names the faulty line, written by a tester who had not read how
//! `explain` diagnoses.
//!
//! The desk: its rooms open for sale when it opens on day 4, a Friday (initial commands of `Mvu::with_commands`). A
//! guest reserves a room of a kind for some nights (`reserve`), checks in (`check_in`: refused with a notice when
//! the stay has not begun or is over; the clean free room of that kind with the lowest number is given), and checks
//! out (`check_out`: the city tax, per adult and night, and a late check-out's fee are charged as commands, and the
//! room needs cleaning). The night audit (`night_audit`) charges every guest in the hotel tonight's night (the room's
//! rate, a surcharge on Friday and Saturday nights, breakfast per guest), as commands, and moves the day on. The
//! minibar is charged (`minibar`), housekeeping reports a room clean (`cleaned`) and maintenance takes rooms out of
//! service (`out_of_order`). Derived: today's arrivals, the guests in the hotel, those who should have left, the
//! revenue and notices; housekeeping's board, a keyed collection (`ranvier::collection`) with each room's cleaning
//! minutes as a row memo and views over it (the rooms ready to sell, the route through the rooms to clean, from a
//! `sort_by`, and the work left); and from two services over the network, as async memos: the bills of guests from
//! abroad in their own currency (an exchange-rate service), and the guests who get a welcome gift (the loyalty
//! programme's tiers).
//!
//! Files: `model.rs` (the types, the messages, hand-written `Default`s and a `PartialEq`), `update.rs` (`update`,
//! with commands), `rules.rs` and `folio.rs` (helpers), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the
//! desk's lists), `housekeeping.rs` (the collection, its row factory and views), `services.rs` (the async memos),
//! `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_HOTEL_SLIP=<key>`) runs the desk with that one mistake; without it the
//! desk is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_HOTEL_SLIP=<key> ranvier-mcp call target/debug/examples/blind_hotel explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_hotel -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the desk serves MCP over stdio.
//!
//! The first scored run (`--report`, before any change made for the set): 7 of 12 named in one call, all 7 within
//! the first 400 characters of the answer (`weekend_days` at 361, `departure_day` at 298, `ready_rooms` at 14,
//! `route_order` at 145, `bill_swap` at 295, `gifts_non_member` at 302, `arrivals_peek` at 139); median answer 1,079
//! characters. Not named: `breakfast_unit`, `pick_room_or`, `audit_checked_out`, `checkout_tax`, `minutes_floor`.
//! Now (2026-12-06, class rules found on other sets, `tests/tests/blind_hotel.rs` tells which): 11 of 12 named, all
//! within 400, median 815; `breakfast_unit` is still missed.

use ranvier_examples::harness;

pub mod folio;
pub mod graph;
pub mod housekeeping;
pub mod model;
pub mod remote;
pub mod rules;
pub mod services;
pub mod update;

use graph::{FrontDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the desk that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "breakfast_unit",
        "a hand-written `Default` gives a rate in euros where cents are meant (a wrong unit)",
        Slip::BreakfastUnit,
    ),
    (
        "weekend_days",
        "weekday numbers off by one in a helper of another module (day 0 taken for a Sunday)",
        Slip::WeekendDays,
    ),
    (
        "pick_room_or",
        "`||` for `&&` in a rule of another module, called through a fn value: a room of another kind is given",
        Slip::PickRoomOr,
    ),
    (
        "departure_day",
        "an off-by-one `- 1` in a rule passed to a memo as a fn value",
        Slip::DepartureDay,
    ),
    (
        "audit_checked_out",
        "a filter that leaves out a condition (guests who left are charged again) in an `update` helper",
        Slip::AuditCheckedOut,
    ),
    (
        "checkout_tax",
        "a command pushed inside the wrong `if` block, so it is missed on the common path",
        Slip::CheckoutTax,
    ),
    (
        "minutes_floor",
        "the wrong field (`floor` for `beds`) in a row factory's memo",
        Slip::MinutesFloor,
    ),
    (
        "ready_rooms",
        "`!= Dirty` for `== Vacant` in a `count_by` view: occupied rooms count as ready",
        Slip::ReadyRooms,
    ),
    (
        "route_order",
        "a `sort_by` view's key without its `Reverse`",
        Slip::RouteOrder,
    ),
    (
        "bill_swap",
        "two arguments swapped in an async memo's future (from and to currencies)",
        Slip::BillSwap,
    ),
    (
        "gifts_non_member",
        "`?` where a failed lookup should be skipped, in an async memo's future",
        Slip::GiftsNonMember,
    ),
    (
        "arrivals_peek",
        "a stale read: `peek` for `get` in a long memo, so it misses the day moving on",
        Slip::ArrivalsPeek,
    ),
];

/// What the graph thread keeps: the desk and its exposure.
pub type HotelHost = harness::ExposedHost<FrontDesk>;

/// Starts the desk with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_hotel(slip: Slip) -> Result<HotelHost, HostError> {
    harness::start_exposed(move || graph::front_desk(slip))
}

/// The desk with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::front_desk(slip), "blind-hotel")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the desk, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("folio.rs", include_str!("folio.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("housekeeping.rs", include_str!("housekeeping.rs")),
    ("services.rs", include_str!("services.rs")),
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

#[allow(clippy::too_many_arguments)]
fn reserve(
    guest: &str,
    kind: &str,
    arrival: u32,
    nights: u32,
    adults: u32,
    children: u32,
    breakfast: bool,
    currency: &str,
) -> Value {
    msg(
        "reserve",
        json!({"guest": guest, "kind": kind, "arrival": arrival, "nights": nights, "adults": adults,
               "children": children, "breakfast": breakfast, "currency": currency}),
    )
}
fn check_in(stay: u32) -> Value {
    msg("check_in", json!({ "stay": stay }))
}
fn check_out(stay: u32, late: bool) -> Value {
    msg("check_out", json!({"stay": stay, "late": late}))
}
fn night_audit() -> Value {
    msg("night_audit", json!({}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the desk opens on day 4, a Friday; rooms 101 single 80.00, 102 and 103 double 110.00, 201 single
/// 80.00, 202 double 120.00, 301 suite 200.00 a night; 20.00 more on a Friday or Saturday night, breakfast 15.00 a
/// guest and night, city tax 2.50 an adult and night, a late check-out 30.00).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // two adults with breakfast in 102 on Friday night: 110 + 20 + 2 x 15 = 160.00; shows 130.30
        "breakfast_unit" => (
            "revenue",
            json!([
                reserve("Ada", "double", 4, 1, 2, 0, true, "EUR"),
                check_in(1),
                night_audit()
            ]),
        ),
        // Friday night in 101: 80 + 20 = 100.00; shows 80.00
        "weekend_days" => (
            "revenue",
            json!([
                reserve("Ada", "single", 4, 1, 1, 0, false, "EUR"),
                check_in(1),
                night_audit()
            ]),
        ),
        // Ada's double is 102; shows her in 101, a single
        "pick_room_or" => (
            "in_house",
            json!([
                reserve("Ada", "double", 4, 2, 2, 0, false, "EUR"),
                check_in(1)
            ]),
        ),
        // two nights from day 4: on day 5 Ada stays on; shows her due out
        "departure_day" => (
            "departures",
            json!([
                reserve("Ada", "double", 4, 2, 2, 0, false, "EUR"),
                check_in(1),
                night_audit()
            ]),
        ),
        // Ada stays Friday night and leaves: 100.00 + 2.50 tax; the next audit charges her another night (202.50)
        "audit_checked_out" => (
            "revenue",
            json!([
                reserve("Ada", "single", 4, 1, 1, 0, false, "EUR"),
                check_in(1),
                night_audit(),
                check_out(1, false),
                night_audit()
            ]),
        ),
        // two adults, Friday night in 102, leaving on time: 130.00 + 5.00 tax; shows 130.00
        "checkout_tax" => (
            "revenue",
            json!([
                reserve("Ada", "double", 4, 1, 2, 0, false, "EUR"),
                check_in(1),
                night_audit(),
                check_out(1, false)
            ]),
        ),
        // 102 (two beds, first floor) to clean: 20 + 2 x 10 = 40 minutes; shows 30
        "minutes_floor" => (
            "workload",
            json!([
                reserve("Ada", "double", 4, 1, 2, 0, false, "EUR"),
                check_in(1),
                check_out(1, false)
            ]),
        ),
        // Ada in 102: five rooms ready; shows six
        "ready_rooms" => (
            "ready",
            json!([
                reserve("Ada", "double", 4, 1, 2, 0, false, "EUR"),
                check_in(1)
            ]),
        ),
        // 102 and 301 to clean, from the top floor down: 301 first; shows 102 first
        "route_order" => (
            "route",
            json!([
                reserve("Ada", "double", 4, 1, 2, 0, false, "EUR"),
                reserve("Cleo", "suite", 4, 1, 2, 0, false, "EUR"),
                check_in(1),
                check_in(2),
                check_out(1, false),
                check_out(2, false)
            ]),
        ),
        // Ben's bill, 102.50 EUR, is 110.70 USD; shows 94.90 USD
        "bill_swap" => (
            "bills_abroad",
            json!([
                reserve("Ben", "single", 4, 1, 1, 0, false, "USD"),
                check_in(1),
                night_audit(),
                check_out(1, false)
            ]),
        ),
        // Ada (gold) in 102 gets a gift, Eve (not a member) in 101 none; shows a failure
        "gifts_non_member" => (
            "welcome_gifts",
            json!([
                reserve("Ada", "double", 4, 1, 2, 0, false, "EUR"),
                reserve("Eve", "single", 4, 1, 1, 0, false, "EUR"),
                check_in(1),
                check_in(2)
            ]),
        ),
        // Ben arrives on day 5: after the night audit he is today's arrival; shows nobody
        "arrivals_peek" => (
            "arrivals",
            json!([
                reserve("Ben", "single", 5, 1, 1, 0, false, "EUR"),
                night_audit()
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
        "breakfast_unit" => json!(16000),
        "weekend_days" => json!(10000),
        "pick_room_or" => json!(["102 Ada: 2 adults"]),
        "departure_day" => json!([]),
        "audit_checked_out" => json!(10250),
        "checkout_tax" => json!(13500),
        "minutes_floor" => json!("1 room, 40 min"),
        "ready_rooms" => json!(5),
        "route_order" => json!(["301", "102"]),
        "bill_swap" => json!(["Ben: 110.70 USD (102.50 EUR)"]),
        "gifts_non_member" => json!(["102 Ada (gold)"]),
        "arrivals_peek" => json!(["Ben: single, 1 night, 1 adult"]),
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
    harness::settled_in(start_hotel(slip)?, node, messages).await
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
    || start(Slip::BreakfastUnit),
    || start(Slip::WeekendDays),
    || start(Slip::PickRoomOr),
    || start(Slip::DepartureDay),
    || start(Slip::AuditCheckedOut),
    || start(Slip::CheckoutTax),
    || start(Slip::MinutesFloor),
    || start(Slip::ReadyRooms),
    || start(Slip::RouteOrder),
    || start(Slip::BillSwap),
    || start(Slip::GiftsNonMember),
    || start(Slip::ArrivalsPeek),
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
                "blind_hotel: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_HOTEL_SLIP", &SLIPS, Slip::None)?;
        let host = start_hotel(slip)?;
        let options = McpAdapterOptions::new("blind-hotel", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_hotel: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_hotel: {error}");
        std::process::exit(1);
    }
}
