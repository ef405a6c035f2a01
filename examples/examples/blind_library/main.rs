//! A public library's lending desk (members on three card tiers, loans with due dates and renewals, a holds queue
//! per title, fines by the day late with a cap, copies sent between branches, the reading room's seats, the week's
//! figures, and two services over the network), split over nine files as an app developer would write it, with
//! ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one `explain` call over
//! MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The desk: its catalogue (five titles, eight copies at three branches: Central, Harbour and Northside) is shelved
//! when the desk opens, on day 0, a Monday (initial commands of `Mvu::with_commands`). A member joins on a child,
//! adult or premium card (`join`: 3, 6 or 10 loans at once, for 14, 21 or 28 days, renewed at most 1, 2 or 3 times),
//! borrows a copy (`borrow`: from the shelf, or from the hold shelf when it is kept for them; not while they owe
//! 10.00 or more, nor past their card's limit: the desk's notices say why), returns it (`return`: a fine after two
//! days' grace, 0.10 a day on a child card, 0.25 adult, 0.20 premium, capped at 3.00 or 8.00 a loan; then the copy
//! goes to the first member waiting for its title, as a command: `fill_hold` to the hold shelf at its branch, or
//! `transfer` on the van to theirs), renews a loan (`renew`: nobody waiting, renewals left, and due within a week),
//! places a hold (`place_hold`), pays (`pay`), takes and leaves a reading-room seat (`take_seat`, `leave_seat`), and
//! the days go by (`advance`: the van's copies arrive, as `arrived` commands). Derived: today, the holds queues, the
//! hold shelves, what members owe, each member's card (loans of the limit, next due day, holds, owed or blocked), the
//! seats, the week's figures and the notices; the loans list, a keyed collection (`ranvier::collection`) with a row
//! memo per loan (its status line: due day and renewals left, or days late and the fine so far) and views over it
//! (the overdue loans from a `filter`, the loans by due day from a `sort_by`, the renewed ones from a `count_by`);
//! and from two services over the network, as async memos: where in the region to borrow a title more members wait
//! for than the library has copies of (the regional catalogue), and the reminders sent for late loans (the reminder
//! service).
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default` and `PartialEq`), `update.rs` (`update`, its
//! lending helpers, with commands), `policy.rs` (what each card allows, who may take a copy, renewals, the holds
//! queue) and `fines.rs` (the fine rules), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the desk's lists,
//! the cards and the week's figures), `shelf.rs` (the loans collection, its row memo and views), `services.rs` (the
//! async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_LIBRARY_SLIP=<key>`) runs the desk with that one mistake; without it the
//! desk is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_LIBRARY_SLIP=<key> ranvier-mcp call target/debug/examples/blind_library explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_library -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the desk serves MCP over stdio.

use ranvier_examples::harness;

pub mod fines;
pub mod graph;
pub mod model;
pub mod policy;
pub mod remote;
pub mod services;
pub mod shelf;
pub mod update;

use graph::{LibraryDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the desk that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "block_at_euros",
        "a hand-written `Default` gives the blocking debt in euros where the desk counts cents (a wrong unit)",
        Slip::BlockAtEuros,
    ),
    (
        "loan_limit_off_by_one",
        "`>` for `>=` against the card's loan limit in an `update` helper: one loan too many (off by one)",
        Slip::LoanLimitOffByOne,
    ),
    (
        "return_hold_not_filled",
        "a command not sent in an `update` helper: a returned copy goes on the van for a hold at another branch, \
         but `fill_hold` is never sent for a hold at its own",
        Slip::ReturnHoldNotFilled,
    ),
    (
        "fine_cap_max",
        "`max` for `min` against the cap in a rule of another module, called through a fn value: every fine is at \
         least the cap (a wrong operator)",
        Slip::FineCapMax,
    ),
    (
        "renew_window_swapped",
        "swapped arguments to `days_between` in a renewal rule of another module: a loan due in weeks is renewed",
        Slip::RenewWindowSwapped,
    ),
    (
        "hold_shelf_taken",
        "a wrong match arm in a rule of another module: a copy kept on the hold shelf for one member is \
         lent to another",
        Slip::HoldShelfTaken,
    ),
    (
        "cards_all_loans",
        "the wrong variable in a long memo: every member's card counts all the loans out, not theirs",
        Slip::CardsAllLoans,
    ),
    (
        "week_late_days",
        "a wrong accumulator in a long memo: the late returns are counted by their days late",
        Slip::WeekLateDays,
    ),
    (
        "status_due_out_day",
        "the wrong field in a collection's row memo: a loan's status shows the day it went out as its due day",
        Slip::StatusDueOutDay,
    ),
    (
        "overdue_filter_inverted",
        "an inverted `filter` view: the overdue list holds the loans that are not late",
        Slip::OverdueFilterInverted,
    ),
    (
        "regional_most_copies",
        "the wrong key in an async memo's future: the library with the most copies, not the soonest",
        Slip::RegionalMostCopies,
    ),
    (
        "reminders_read_in_future",
        "a read moved into an async memo's future, untracked: the reminders never follow the loans",
        Slip::RemindersReadInFuture,
    ),
];

/// What the graph thread keeps: the desk and its exposure.
pub type LibraryHost = harness::ExposedHost<LibraryDesk>;

/// Starts the desk with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_library(slip: Slip) -> Result<LibraryHost, HostError> {
    harness::start_exposed(move || graph::library_desk(slip))
}

/// The desk with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::library_desk(slip), "blind-library")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the desk, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("policy.rs", include_str!("policy.rs")),
    ("fines.rs", include_str!("fines.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("shelf.rs", include_str!("shelf.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the desk holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the library")
}

fn join(member: &str, tier: &str) -> Value {
    msg("join", json!({"member": member, "tier": tier}))
}
fn borrow(member: &str, barcode: &str) -> Value {
    msg("borrow", json!({"member": member, "barcode": barcode}))
}
fn give_back(barcode: &str) -> Value {
    msg("return", json!({ "barcode": barcode }))
}
fn renew(barcode: &str) -> Value {
    msg("renew", json!({ "barcode": barcode }))
}
fn hold(member: &str, title: u32, pickup: &str) -> Value {
    msg(
        "place_hold",
        json!({"member": member, "title": title, "pickup": pickup}),
    )
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}
fn take_seat(member: &str) -> Value {
    msg("take_seat", json!({ "member": member }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the desk opens on day 0, Monday of week 1; titles 1 Dune, 2 Emma, 3 Ulysses, 4 Matilda, 5 Beloved;
/// copies C101 Dune, C102 Emma, C103 Matilda, C104 Beloved at Central, H201 Dune and H202 Ulysses at Harbour, N301
/// Matilda and N302 Emma at Northside).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Ada (adult) brings Dune back 5 days late, fined 0.75, and borrows Emma; shows her blocked, no loan
        "block_at_euros" => (
            "cards",
            json!([
                join("Ada", "adult"),
                borrow("Ada", "C101"),
                advance(26),
                give_back("C101"),
                borrow("Ada", "C102")
            ]),
        ),
        // Cy (child) asks for four copies: the fourth is refused; shows 4 of 3 loans
        "loan_limit_off_by_one" => (
            "cards",
            json!([
                join("Cy", "child"),
                borrow("Cy", "C101"),
                borrow("Cy", "C102"),
                borrow("Cy", "C103"),
                borrow("Cy", "C104")
            ]),
        ),
        // Ada brings Emma back to Central, where Bo waits for it: it goes on the hold shelf for him; shows none
        "return_hold_not_filled" => (
            "hold_shelf",
            json!([
                join("Ada", "adult"),
                join("Bo", "adult"),
                borrow("Ada", "C102"),
                hold("Bo", 2, "central"),
                give_back("C102")
            ]),
        ),
        // Ada brings Dune back 5 days late: 3 days past the grace at 0.25 = 0.75; shows 8.00 (the cap)
        "fine_cap_max" => (
            "balances",
            json!([
                join("Ada", "adult"),
                borrow("Ada", "C101"),
                advance(26),
                give_back("C101")
            ]),
        ),
        // Ada asks on day 3 to renew Dune, due on day 21: too early, still due Mon wk4; shows Mon wk7
        "renew_window_swapped" => (
            "due_list",
            json!([
                join("Ada", "adult"),
                borrow("Ada", "C101"),
                advance(3),
                renew("C101")
            ]),
        ),
        // Emma kept on the hold shelf for Bo: Cy is refused it; shows the hold shelf empty (Cy took it)
        "hold_shelf_taken" => (
            "hold_shelf",
            json!([
                join("Ada", "adult"),
                join("Bo", "adult"),
                join("Cy", "child"),
                borrow("Ada", "C102"),
                hold("Bo", 2, "central"),
                give_back("C102"),
                borrow("Cy", "C102")
            ]),
        ),
        // Ada has one loan, Bo (child) two; shows 3 of 6 and 3 of 3
        "cards_all_loans" => (
            "cards",
            json!([
                join("Ada", "adult"),
                join("Bo", "child"),
                borrow("Ada", "C101"),
                borrow("Bo", "C102"),
                borrow("Bo", "C104")
            ]),
        ),
        // on Friday of week 4, Ada and Bo bring back Dune and Emma, 4 days late: 2 late returns; shows 8 late
        "week_late_days" => (
            "week",
            json!([
                join("Ada", "adult"),
                join("Bo", "adult"),
                borrow("Ada", "C101"),
                borrow("Bo", "C102"),
                advance(25),
                give_back("C101"),
                give_back("C102"),
                take_seat("Ada")
            ]),
        ),
        // Ada borrows Emma on day 2 (Wed wk1): due Wed wk4; shows due Wed wk1
        "status_due_out_day" => (
            "loans",
            json!([join("Ada", "adult"), advance(2), borrow("Ada", "C102")]),
        ),
        // Ada's Dune is 4 days late, Bo's Beloved just out; shows Beloved overdue and not Dune
        "overdue_filter_inverted" => (
            "overdue",
            json!([
                join("Ada", "adult"),
                join("Bo", "adult"),
                borrow("Ada", "C101"),
                advance(25),
                borrow("Bo", "C104")
            ]),
        ),
        // three wait for Dune, two copies: Eastbrook sends one in 2 days; shows Millford, in 5 days
        "regional_most_copies" => (
            "regional",
            json!([
                join("Bo", "adult"),
                join("Cy", "child"),
                join("Dee", "premium"),
                hold("Bo", 1, "central"),
                hold("Cy", 1, "harbour"),
                hold("Dee", 1, "central")
            ]),
        ),
        // Ada's Dune is 4 days late, past the grace: reminded by email; shows no reminders
        "reminders_read_in_future" => (
            "reminders",
            json!([join("Ada", "adult"), borrow("Ada", "C101"), advance(25)]),
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
        "block_at_euros" => json!(["Ada (adult): 1 of 6 loans, next due Sat wk7, owes 0.75"]),
        "loan_limit_off_by_one" => json!(["Cy (child): 3 of 3 loans, next due Mon wk3"]),
        "return_hold_not_filled" => json!(["C102 Emma for Bo at Central"]),
        "fine_cap_max" => json!(["Ada: 0.75"]),
        "renew_window_swapped" => json!(["Mon wk4: C101 Dune (Ada)"]),
        "hold_shelf_taken" => json!(["C102 Emma for Bo at Central"]),
        "cards_all_loans" => json!([
            "Ada (adult): 1 of 6 loans, next due Mon wk4",
            "Bo (child): 2 of 3 loans, next due Mon wk3"
        ]),
        "week_late_days" => json!([
            "week 4 from Mon wk4",
            "lent 0, returned 2 (2 late)",
            "fines charged 1.00",
            "busiest branch: none",
            "transfers so far: 0",
            "reading room: 1 of 4 seats taken"
        ]),
        "status_due_out_day" => json!([{
            "key": "C102",
            "title": "Emma",
            "member": "Ada",
            "tier": "adult",
            "out": 2,
            "due": 23,
            "renewals": 0,
            "daysLate": 0,
            "status": "due Wed wk4, 2 renewals left"
        }]),
        "overdue_filter_inverted" => json!(["C101 Dune (Ada): 4 days late"]),
        "regional_most_copies" => {
            json!(["Dune: 3 waiting for 2 copies, Eastbrook can send one in 2 days"])
        }
        "reminders_read_in_future" => json!(["Ada: Dune is 4 days late (sent by email)"]),
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
    harness::settled_in(start_library(slip)?, node, messages).await
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
    || start(Slip::BlockAtEuros),
    || start(Slip::LoanLimitOffByOne),
    || start(Slip::ReturnHoldNotFilled),
    || start(Slip::FineCapMax),
    || start(Slip::RenewWindowSwapped),
    || start(Slip::HoldShelfTaken),
    || start(Slip::CardsAllLoans),
    || start(Slip::WeekLateDays),
    || start(Slip::StatusDueOutDay),
    || start(Slip::OverdueFilterInverted),
    || start(Slip::RegionalMostCopies),
    || start(Slip::RemindersReadInFuture),
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
                "blind_library: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_LIBRARY_SLIP", &SLIPS, Slip::None)?;
        let host = start_library(slip)?;
        let options = McpAdapterOptions::new("blind-library", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_library: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_library: {error}");
        std::process::exit(1);
    }
}
