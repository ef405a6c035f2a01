//! A municipal swimming pool's desk (lanes booked by clubs by the half hour, swimming lessons with levels and waiting
//! lists, casual tickets with concessions and members' swims, the lifeguards on the poolside with their
//! qualifications and breaks, the water tests with their limits and the closures they cause, the café's tills, the
//! day's report, and two services over the network), split over ten files as an app developer would write it, with
//! ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call over MCP
//! names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The pool: the doors open at 06:00 with today's timetable of five lessons and four lifeguards on the rota; the day
//! starts (initial commands of `Mvu::with_commands`) with Ana and Ben on the poolside and the opening water test. The
//! desk sells tickets (`admit`: adult, child, senior or student, a concession on a leisure card, or a member's free
//! swim on a member's card; an adult's swim before 09:00 is the early price), memberships (`join`), and books lanes to
//! clubs (`book_lane`: on the half hour, refused while another club has the lane). Children are enrolled in lessons
//! (`enrol`: a place while there is one, else the waiting list) and withdrawn (`withdraw`: the place goes to the first
//! child waiting, as a `Promote` command). A water test (`reading`) out of its limits closes the pool (a `Close`
//! command) and a good one reopens it (`Reopen`). Lifeguards come on and off duty (`on_duty`, `off_duty`); when the
//! clock moves on (`advance`) a guard two hours on the poolside is sent on a break (a `Break` command) and comes back
//! a quarter of an hour later. The café sells at three tills (`sell`, cash or card). Derived: the clock, whether the
//! pool is open, the last water test and whether the next is due, who has each lane now and the day's bookings, the
//! lifeguards on the poolside against the bathers in the water, the notices and the day's report; the timetable, a
//! keyed collection (`ranvier::collection`) with each lesson's places as a row memo and views over it (the lessons in
//! time order, from a `sort_by`; those with a place left, a `filter`; how many have a waiting list, a `count_by`); and
//! from two services over the network, as async memos: the card payments each till settled with the terminal provider,
//! and the concession tickets whose leisure card the council's registry does not vouch for.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, methods on the model's types), `update.rs`
//! (`update`, its helpers, with commands), `admissions.rs` (the tariff), `water.rs` (the water's limits), `rota.rs`
//! (the lifeguards' rules), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the longer memos), `lessons.rs`
//! (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_POOL_SLIP=<key>`) runs the pool with that one mistake; without it the pool
//! is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that show it
//! (`BLIND_POOL_SLIP=<key> ranvier-mcp call target/debug/examples/blind_pool explain '<those>'` asks by hand).
//! `cargo run -p ranvier-examples --features blind --example blind_pool -- --report` (a debug build: only traced builds list `explain`) prints, per
//! mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the pool serves MCP over stdio.

use ranvier_examples::harness;

pub mod admissions;
pub mod graph;
pub mod lessons;
pub mod model;
pub mod remote;
pub mod rota;
pub mod services;
pub mod update;
pub mod water;

use graph::{PoolDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the pool that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "card_payments",
        "a capture in an async memo's future: it settles the till's cash sales with the card payments",
        Slip::CardPayments,
    ),
    (
        "unlisted_card",
        "a failure turned into a default in an async memo's future: a card the registry does not know passes",
        Slip::UnlistedCard,
    ),
    (
        "places_left",
        "the wrong field in a row factory's memo: places left counted from the waiting list, not the enrolled",
        Slip::PlacesLeft,
    ),
    (
        "open_lessons",
        "an inverted `filter` view: the full lessons are offered, the open ones not",
        Slip::OpenLessons,
    ),
    (
        "withdraw_promote",
        "a command not sent by an `update` helper: a place given up does not go to the first child waiting",
        Slip::WithdrawPromote,
    ),
    (
        "lane_clash",
        "swapped arguments in an `update` helper: the clash check gets the end before the start",
        Slip::LaneClash,
    ),
    (
        "reading_due",
        "a wrong unit in a rule a memo calls: hours compared with minutes, so a test is always due",
        Slip::ReadingDue,
    ),
    (
        "early_child",
        "a wrong match arm in a rule `update` calls: the early price's arm catches every ticket before 09:00",
        Slip::EarlyChild,
    ),
    (
        "guards_needed",
        "off by one in a rule a long memo calls: a rounding up that adds a guard at every multiple of twenty",
        Slip::GuardsNeeded,
    ),
    (
        "poolside_break",
        "a missing condition in a long memo: guards on a break are counted on the poolside",
        Slip::PoolsideBreak,
    ),
    (
        "report_cafe",
        "a wrong accumulator in a long memo: the café's sales are added to the tickets",
        Slip::ReportCafe,
    ),
    (
        "lane_board",
        "a wrong operator in a model type's method: `||` for `&&`, so a booking covers the whole day",
        Slip::LaneBoard,
    ),
];

/// What the graph thread keeps: the pool and its exposure.
pub type PoolHost = harness::ExposedHost<PoolDesk>;

/// Starts the pool with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_pool(slip: Slip) -> Result<PoolHost, HostError> {
    harness::start_exposed(move || graph::pool_desk(slip))
}

/// The pool with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::pool_desk(slip), "blind-pool")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the pool, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("admissions.rs", include_str!("admissions.rs")),
    ("water.rs", include_str!("water.rs")),
    ("rota.rs", include_str!("rota.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("lessons.rs", include_str!("lessons.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the pool holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the pool")
}

fn admit(who: &str, ticket: &str, count: u32, card: Option<&str>) -> Value {
    msg(
        "admit",
        json!({"who": who, "ticket": ticket, "count": count, "card": card}),
    )
}
fn book_lane(club: &str, lane: u8, from: &str, half_hours: u32) -> Value {
    msg(
        "book_lane",
        json!({"club": club, "lane": lane, "from": from, "half_hours": half_hours}),
    )
}
fn enrol(child: &str, lesson: u32) -> Value {
    msg("enrol", json!({"child": child, "lesson": lesson}))
}
fn withdraw(child: &str, lesson: u32) -> Value {
    msg("withdraw", json!({"child": child, "lesson": lesson}))
}
fn on_duty(guard: &str) -> Value {
    msg("on_duty", json!({ "guard": guard }))
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}
fn sell(till: u8, item: &str, pence: u32, card: bool) -> Value {
    msg(
        "sell",
        json!({"till": till, "item": item, "pence": pence, "card": card}),
    )
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). The pool opens at 06:00, day 341, with Ana (deep water) and Ben on the poolside and a test at 06:00
/// (chlorine 1.6, pH 7.4, 29.0 °C); lessons 1 Ducklings 09:30 (Cat, 6 places), 2 Beginners 16:00 (Dan, 4),
/// 3 Improvers 16:45 (Dan, 6), 4 Advanced 17:30 (Cat, 8), 5 Beginners 10:15 (Cat, 4); an adult 5.20 (4.00 before
/// 09:00), a child 2.60, a concession 3.40; one guard per twenty bathers; a test every two hours.
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // till 1 settles its one card payment (3.20), not the flapjack paid in cash; shows 2 card payments, 5.20
        "card_payments" => (
            "card_takings",
            json!([
                sell(1, "coffee", 320, true),
                sell(1, "flapjack", 200, false),
                sell(2, "towel", 450, true),
                sell(3, "ice lolly", 150, true)
            ]),
        ),
        // S-999 is not on the registry: Ben's student ticket is in doubt; shows every card good
        "unlisted_card" => (
            "concession_checks",
            json!([
                admit("Ben", "student", 1, Some("S-999")),
                admit("Flo", "senior", 1, Some("P-200"))
            ]),
        ),
        // Ava and Ben in the 16:00 Beginners: 2 places left; shows 4
        "places_left" => ("lessons_today", json!([enrol("Ava", 2), enrol("Ben", 2)])),
        // the 10:15 Beginners is full: the four others are open; shows only the full one
        "open_lessons" => (
            "open_lessons",
            json!([
                enrol("Ava", 5),
                enrol("Ben", 5),
                enrol("Cal", 5),
                enrol("Dot", 5)
            ]),
        ),
        // Ava gives up her place: Eli, first waiting, takes it and Fay waits; shows Eli and Fay waiting
        "withdraw_promote" => (
            "waiting",
            json!([
                enrol("Ava", 2),
                enrol("Ben", 2),
                enrol("Cal", 2),
                enrol("Dot", 2),
                enrol("Eli", 2),
                enrol("Fay", 2),
                withdraw("Ava", 2)
            ]),
        ),
        // the Otters have lane 3 at 07:00: the Sharks are not booked; shows both booked
        "lane_clash" => (
            "bookings",
            json!([
                book_lane("Otters", 3, "07:00", 2),
                book_lane("Sharks", 3, "07:00", 1)
            ]),
        ),
        // half an hour after the 06:00 test, the next is not due; shows it due
        "reading_due" => ("water", json!([advance(30)])),
        // Mia, a child, pays 2.60 at 06:00 and Tom the early adult 4.00: tickets 6.60; shows 8.00
        "early_child" => (
            "report",
            json!([
                admit("Mia", "child", 1, None),
                admit("Tom", "adult", 1, None)
            ]),
        ),
        // 40 bathers need two guards: Ana and Ben cover them; shows three needed, short by one
        "guards_needed" => (
            "poolside",
            json!([
                admit("school", "child", 20, None),
                admit("club", "adult", 20, None)
            ]),
        ),
        // at 08:00 Ana and Ben go on their breaks: Cy alone watches; shows all three
        "poolside_break" => ("poolside", json!([advance(60), on_duty("Cy"), advance(60)])),
        // Tom's early swim 4.00 and a coffee 2.50 in cash: tickets 4.00, café 2.50; shows tickets 6.50, café 0.00
        "report_cafe" => (
            "report",
            json!([
                admit("Tom", "adult", 1, None),
                sell(1, "coffee", 250, false)
            ]),
        ),
        // the Otters had lane 1 until 08:00: at 08:30 every lane is public; shows lane 1 still theirs
        "lane_board" => (
            "lanes",
            json!([book_lane("Otters", 1, "07:00", 2), advance(150)]),
        ),
        other => panic!("no mistake {other}"),
    }
}

fn report(tickets: &str, cafe: &str, bathers: u32, total: &str) -> Value {
    json!([
        format!("bathers: {bathers}"),
        format!("tickets: {tickets}"),
        format!("café: {cafe}"),
        "memberships: £0.00",
        "lane hire: £0.00",
        format!("total: {total}"),
        "closures: 0"
    ])
}

/// The value `key`'s node holds in the correct pool after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "card_payments" => json!([
            "till 1: 1 card payment, £3.20 less £0.09 fees",
            "till 2: 1 card payment, £4.50 less £0.11 fees",
            "till 3: not settled, the card reader of till 3 does not answer"
        ]),
        "unlisted_card" => json!(["ticket 1 (Ben, student): card S-999 is not on the registry"]),
        "places_left" => json!([
            "09:30 Ducklings (Cat): 6 places left",
            "10:15 Beginners (Cat): 4 places left",
            "16:00 Beginners (Dan): 2 places left",
            "16:45 Improvers (Dan): 6 places left",
            "17:30 Advanced (Cat): 8 places left"
        ]),
        "open_lessons" => json!([
            "09:30 Ducklings (Cat)",
            "16:00 Beginners (Dan)",
            "16:45 Improvers (Dan)",
            "17:30 Advanced (Cat)"
        ]),
        "withdraw_promote" => json!(["16:00 Beginners (Dan): Fay"]),
        "lane_clash" => json!(["lane 3 07:00–08:00 Otters"]),
        "reading_due" => json!("06:00: chlorine 1.6 mg/l, pH 7.4, 29.0 °C, within limits"),
        "early_child" => report("£6.60", "£0.00", 2, "£6.60"),
        "guards_needed" => json!("Ana, Ben for 40 bathers, 2 needed: covered"),
        "poolside_break" => json!("Cy for 0 bathers, 1 needed: covered"),
        "report_cafe" => report("£4.00", "£2.50", 1, "£6.50"),
        "lane_board" => json!([
            "lane 1: public swim",
            "lane 2: public swim",
            "lane 3: public swim",
            "lane 4: public swim",
            "lane 5: public swim",
            "lane 6: public swim"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a pool started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the pool does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_pool(slip)?, node, messages).await
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
    || start(Slip::CardPayments),
    || start(Slip::UnlistedCard),
    || start(Slip::PlacesLeft),
    || start(Slip::OpenLessons),
    || start(Slip::WithdrawPromote),
    || start(Slip::LaneClash),
    || start(Slip::ReadingDue),
    || start(Slip::EarlyChild),
    || start(Slip::GuardsNeeded),
    || start(Slip::PoolsideBreak),
    || start(Slip::ReportCafe),
    || start(Slip::LaneBoard),
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
                "blind_pool: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_POOL_SLIP", &SLIPS, Slip::None)?;
        let host = start_pool(slip)?;
        let options = McpAdapterOptions::new("blind-pool", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_pool: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_pool: {error}");
        std::process::exit(1);
    }
}
