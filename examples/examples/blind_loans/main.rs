//! A library's loans desk, split over six files as an app developer would write it, with ordinary mistakes that were
//! not planted with `explain` in mind: the third blind test of whether one `explain` call over MCP names the faulty
//! line.
//!
//! The desk: it opens with one copy each of three titles (initial commands of `Mvu::with_commands`), more are added, members join (adult, child or staff), books are lent (or the
//! member is put on hold when no copy is on the shelf), returned, renewed (at most twice, and not while someone holds
//! the book), fines are paid, the clock moves on by days. Derived: the open loans, the overdue list (oldest due
//! first), the fines due (days late after a two-day grace, at the borrower's daily rate: a child pays 40 % rounded
//! up, staff nothing), the loans due within three days, the cards at their loan limit, the next reminder, the pickup
//! notices, and from the county catalogue (a remote service, so async memos) the shelf mark of the book on the desk's
//! screen (the last one lent, or the catalogue's first) and the holds on it.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default` and `PartialEq`), `update.rs` (`update`,
//! with commands), `rules.rs` and `fees.rs` (helpers), `catalog.rs` (the remote service), `graph.rs` (the `#[node]`
//! builder and the memos). Each mistake sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next
//! to the correct code; `--slip <key>` (or `BLIND_LOANS_SLIP=<key>`) runs the desk with that one mistake, and without
//! it the desk is correct.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_loans -- --report` (a debug build: only traced builds list `explain`) prints, per
//! mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer); `--cases` prints, per mistake, its key, its faulty line and the `explain` arguments that show it
//! (`ranvier-mcp call target/debug/examples/blind_loans explain '<those>'` with `BLIND_LOANS_SLIP=<key>` asks the
//! same by hand). Otherwise the desk serves MCP over stdio.

use ranvier_examples::harness;

pub mod catalog;
pub mod fees;
pub mod graph;
pub mod model;
pub mod rules;
pub mod update;

use graph::{Keep, Slip};
use harness::{Shape, Started, message as msg};
use model::{Desk, Msg};
use ranvier::Mvu;
use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the desk that has it.
pub const SLIPS: [(&str, &str, Slip); 11] = [
    (
        "return_day",
        "update arm in another module writes the wrong field",
        Slip::ReturnDay,
    ),
    (
        "pickup_notice",
        "an `else if` drops a command",
        Slip::PickupNotice,
    ),
    (
        "renew_limit",
        "off by one in a helper of another module",
        Slip::RenewLimit,
    ),
    ("limit_arm", "wrong `match` arm in a helper", Slip::LimitArm),
    (
        "overdue_order",
        "wrong sort key in a long memo",
        Slip::OverdueOrder,
    ),
    (
        "double_grace",
        "a shadowing `let` in a long memo",
        Slip::DoubleGrace,
    ),
    (
        "child_rounding",
        "a helper rounds down",
        Slip::ChildRounding,
    ),
    (
        "due_soon_peek",
        "untracked read of a memo",
        Slip::DueSoonPeek,
    ),
    (
        "reminder_eq",
        "hand-written `PartialEq` ignores a field",
        Slip::ReminderEq,
    ),
    (
        "shelf_default",
        "async memo turns a failure into a default",
        Slip::ShelfDefault,
    ),
    (
        "holds_after_await",
        "async memo reads the model after its await",
        Slip::HoldsAfterAwait,
    ),
];

/// What the graph thread keeps: the desk, its exposure and its derived nodes.
pub struct DeskApp {
    _desk: Mvu<Desk, Msg>,
    exposure: ExposureHandle,
    _keep: Keep,
}

/// Starts the desk with `slip` on its own graph thread, and its exposure.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_desk(slip: Slip) -> Result<GraphHost<DeskApp>, HostError> {
    GraphHost::start(move || {
        let update = match slip {
            Slip::ReturnDay => update::slipped::update_return_day,
            Slip::PickupNotice => update::slipped::update_pickup,
            Slip::RenewLimit => update::slipped::update_renew_limit,
            _ => update::update,
        };
        let desk =
            Mvu::with_commands((Desk::default(), model::opening_stock()), update).labelled("desk");
        let mut exposure = Exposure::new();
        let keep = graph::desk_graph(&desk, slip, &mut exposure)?;
        exposure.messages_of(&desk)?;
        let exposure = exposure.start()?;
        Ok::<_, ExposeError>(DeskApp {
            _desk: desk,
            exposure,
            _keep: keep,
        })
    })
}

/// The desk's MCP adapter, made on the graph thread.
///
/// # Errors
///
/// A [`HostError`] when the host is gone.
pub fn desk_adapter(
    host: &GraphHost<DeskApp>,
    options: McpAdapterOptions,
) -> Result<McpAdapter, HostError> {
    host.invoke(move |app| McpAdapter::new(app.exposure.clone(), options))
        .wait()
}

/// The desk with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    let host = start_desk(slip)?;
    let adapter = desk_adapter(&host, McpAdapterOptions::new("blind-loans", "1.0.0"))?;
    Ok((adapter, Box::new(move || host.dispose())))
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the desk, by name.
const FILES: [(&str, &str); 6] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("fees.rs", include_str!("fees.rs")),
    ("graph.rs", include_str!("graph.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the desk holds it.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the desk")
}

const PRIDE: &str = "9780141439518";
const HOBBIT: &str = "9780261102217";
const DUNE: &str = "9780441172719";

fn add_book(isbn: &str, title: &str, copies: u32) -> Value {
    msg(
        "add_book",
        json!({"isbn": isbn, "title": title, "copies": copies}),
    )
}
fn join(card: &str, kind: &str) -> Value {
    msg("join", json!({"card": card, "kind": kind}))
}
fn lend(card: &str, isbn: &str) -> Value {
    msg("lend", json!({"card": card, "isbn": isbn}))
}
fn give_back(loan: u32) -> Value {
    msg("return", json!({"loan": loan}))
}
fn renew(loan: u32) -> Value {
    msg("renew", json!({"loan": loan}))
}
fn advance(days: u32) -> Value {
    msg("advance", json!({"days": days}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment).
fn case(key: &str) -> (&'static str, Value) {
    match key {
        // lent day 1, due 15, back day 21: 4 days after grace × 25 = 100; shows 0
        "return_day" => (
            "fines_due",
            json!([
                join("ann", "adult"),
                lend("ann", PRIDE),
                advance(20),
                give_back(1)
            ]),
        ),
        // bob held the book ann returned late: pickups ["bob: ready for pickup: …"]; shows []
        "pickup_notice" => (
            "pickups",
            json!([
                join("ann", "adult"),
                join("bob", "adult"),
                lend("ann", PRIDE),
                lend("bob", PRIDE),
                advance(20),
                give_back(1)
            ]),
        ),
        // two renewals at most: due 15 + 14 + 14 = 43; the third renewal goes through, shows 57
        "renew_limit" => (
            "next_reminder",
            json!([
                join("ann", "adult"),
                lend("ann", PRIDE),
                renew(1),
                renew(1),
                renew(1)
            ]),
        ),
        // a child may hold 3: ["kid"]; shows []
        "limit_arm" => (
            "at_limit",
            json!([
                join("kid", "child"),
                lend("kid", PRIDE),
                lend("kid", HOBBIT),
                lend("kid", DUNE)
            ]),
        ),
        // Dune due day 19 before Pride (renewed, due day 29); shows Pride first
        "overdue_order" => (
            "overdue",
            json!([
                join("ann", "adult"),
                join("bob", "adult"),
                lend("ann", PRIDE),
                renew(1),
                advance(4),
                lend("bob", DUNE),
                advance(40)
            ]),
        ),
        // 4 days after grace × 25 = 100; shows 50
        "double_grace" => (
            "fines_due",
            json!([
                join("ann", "adult"),
                lend("ann", PRIDE),
                advance(20),
                give_back(1)
            ]),
        ),
        // a child at base 26: 10.4 rounded up = 11 a day, × 4 days = 44; shows 40
        "child_rounding" => (
            "fines_due",
            json!([
                msg("set_rate", json!({"cents": 26})),
                join("kid", "child"),
                lend("kid", PRIDE),
                advance(20),
                give_back(1)
            ]),
        ),
        // day 13, due day 15: 1; shows 0
        "due_soon_peek" => (
            "due_soon",
            json!([join("ann", "adult"), lend("ann", PRIDE), advance(12)]),
        ),
        // renewed: due day 29; shows 15
        "reminder_eq" => (
            "next_reminder",
            json!([join("ann", "adult"), lend("ann", PRIDE), renew(1)]),
        ),
        // a book the county catalogue does not know: failed; shows ready ""
        "shelf_default" => (
            "shelf",
            json!([
                add_book("LOCAL-0042", "Parish newsletter 1923", 1),
                join("ann", "adult"),
                lend("ann", "LOCAL-0042")
            ]),
        ),
        // on Pride and Prejudice, the county's holds (none) and bob's: 1; shows 0
        "holds_after_await" => (
            "county_holds",
            json!([
                join("ann", "adult"),
                join("bob", "adult"),
                lend("ann", PRIDE),
                lend("bob", PRIDE)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct desk after `key`'s messages (the mistake shows another).
pub fn expected(key: &str) -> Value {
    let reminder =
        |due_day: u32| json!({"card": "ann", "title": "Pride and Prejudice", "due_day": due_day});
    match key {
        "return_day" | "double_grace" => json!(100),
        "pickup_notice" => json!(["bob: ready for pickup: Pride and Prejudice"]),
        "renew_limit" => reminder(43),
        "limit_arm" => json!(["kid"]),
        "overdue_order" => json!([
            "Dune (bob, due day 19, 26 days late)",
            "Pride and Prejudice (ann, due day 29, 16 days late)"
        ]),
        "child_rounding" => json!(44),
        "due_soon_peek" | "holds_after_await" => json!(1),
        "reminder_eq" => reminder(29),
        "shelf_default" => {
            json!({"error": "the county catalogue has no ISBN \"LOCAL-0042\"", "last": "014 BED"})
        }
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
    let host = start_desk(slip)?;
    let exposure = host.invoke(|app| app.exposure.clone()).wait()?;
    let value = harness::value_after(&exposure, node, messages).await;
    host.dispose();
    value
}

/// Every mistake, as a gallery shape.
pub fn shapes() -> Vec<Shape> {
    SLIPS
        .iter()
        .map(|&(key, class, slip)| {
            let (node, messages) = case(key);
            Shape {
                name: key,
                class,
                node,
                messages,
                faulty: bug(key),
                start: STARTS[SLIPS.iter().position(|s| s.2 == slip).expect("listed")],
            }
        })
        .collect()
}

/// The starters of [`SLIPS`], in order (a shape's `start` is a plain `fn`).
const STARTS: [fn() -> Result<Started, HostError>; 11] = [
    || start(Slip::ReturnDay),
    || start(Slip::PickupNotice),
    || start(Slip::RenewLimit),
    || start(Slip::LimitArm),
    || start(Slip::OverdueOrder),
    || start(Slip::DoubleGrace),
    || start(Slip::ChildRounding),
    || start(Slip::DueSoonPeek),
    || start(Slip::ReminderEq),
    || start(Slip::ShelfDefault),
    || start(Slip::HoldsAfterAwait),
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
                "blind_loans: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_LOANS_SLIP", &SLIPS, Slip::None)?;
        let host = start_desk(slip)?;
        let options = McpAdapterOptions::new("blind-loans", "1.0.0").with_env()?;
        let adapter = desk_adapter(&host, options)?;
        eprintln!("blind_loans: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_loans: {error}");
        std::process::exit(1);
    }
}
