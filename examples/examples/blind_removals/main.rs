//! A blind set: a removals firm, written as an ordinary app split over ten files, with twelve ordinary mistakes to
//! find, one at a time, with `explain`.
//!
//! The firm prices moves from the volume of an inventory (cubic metres), the distance, the floors carried without a
//! lift and a weekend or bank-holiday surcharge, plus insurance cover at 2% of the declared value; it takes a deposit
//! on booking and a cancellation fee that falls with the notice given. Crews of two to four movers with vans of three
//! sizes work the jobs, with overtime after eight hours on the day's pay sheet; packing materials (boxes, tape, wrap)
//! are used up by each job and reordered at their reorder points; storage units are rented by the week with a minimum
//! term and a late fee after a week's grace. Two network services answer as async memos: a route planner (road miles)
//! and a fuel-price feed (a surcharge on the booked jobs).
//!
//! Files: `model.rs` (the model, the messages, a hand-written `Default`), `update.rs` (`update` with its helpers, Elmish
//! with commands), `quotes.rs` (the pricing rules and the quote sheet), `crews.rs` (which crew, overtime, the pay
//! sheet), `jobs.rs` (the jobs as a keyed collection, its row memo and views), `storage.rs` (storage units and the
//! store room), `graph.rs` (the `#[expose]` app and its builder, the week's invoices), `services.rs` (the async memos),
//! `remote.rs` (the simulated services) and this file (the harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_removals` serves the correct app over MCP on stdio; `--slip KEY` (or
//! `BLIND_REMOVALS_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's faulty line and the `explain`
//! arguments that show it; `--report` runs one `explain` per mistake and prints where the answer names the faulty line
//! (`--answers` also prints the answers, on stderr). The report needs a debug build (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod crews;
pub mod graph;
pub mod jobs;
pub mod model;
pub mod quotes;
pub mod remote;
pub mod services;
pub mod storage;
pub mod update;

use graph::{RemovalsFirm, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "road_fallback",
        "async memo: wrong default in unwrap_or",
        Slip::RoadFallback,
    ),
    (
        "fuel_cap",
        "async memo: wrong operator (max for min)",
        Slip::FuelCap,
    ),
    (
        "row_balance",
        "collection row memo: swapped arguments",
        Slip::RowBalance,
    ),
    (
        "invoice_filter",
        "collection view: a filter that keeps the wrong items",
        Slip::InvoiceFilter,
    ),
    ("book_day", "update helper: wrong field", Slip::BookDay),
    (
        "receive_stock",
        "update helper: assignment for an addition",
        Slip::ReceiveStock,
    ),
    (
        "stairs_lift",
        "rule (memo and update): wrong operator in a condition",
        Slip::StairsLift,
    ),
    ("cancel_fee", "rule (update): wrong arm", Slip::CancelFee),
    (
        "late_grace",
        "rule (memo): date window off by one",
        Slip::LateGrace,
    ),
    (
        "pay_total",
        "long memo: accumulates the wrong figure",
        Slip::PayTotal,
    ),
    (
        "week_invoiced",
        "long memo: early exit from a loop",
        Slip::WeekInvoiced,
    ),
    (
        "reorder_point",
        "model method: comparison off by one",
        Slip::ReorderPoint,
    ),
];

/// The firm on its graph thread, exposed.
pub type RemovalsHost = harness::ExposedHost<RemovalsFirm>;

/// Starts the firm with `slip`, exposed, on a graph thread of its own.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_removals(slip: Slip) -> Result<RemovalsHost, HostError> {
    harness::start_exposed(move || graph::removals_firm(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::removals_firm(slip), "blind-removals")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("quotes.rs", include_str!("quotes.rs")),
    ("crews.rs", include_str!("crews.rs")),
    ("jobs.rs", include_str!("jobs.rs")),
    ("storage.rs", include_str!("storage.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the removals firm")
}

#[allow(clippy::too_many_arguments)]
fn quote(
    customer: &str,
    items: &str,
    from: &str,
    to: &str,
    miles: u32,
    floor: u32,
    lift: bool,
    day: u32,
) -> Value {
    msg(
        "quote",
        json!({"customer": customer, "items": items, "from": from, "to": to, "miles": miles,
               "floor": floor, "lift": lift, "day": day, "declared": 5000}),
    )
}
fn lee(day: u32) -> Value {
    quote(
        "Mrs Lee",
        "sofa:1 bed:1 box:20",
        "LS",
        "YO",
        12,
        0,
        false,
        day,
    )
}
fn book(quote: u32) -> Value {
    msg("book", json!({ "quote": quote }))
}
fn complete(job: u32, hours: u32) -> Value {
    msg("complete", json!({ "job": job, "hours": hours }))
}
fn invoice(job: u32) -> Value {
    msg("invoice", json!({ "job": job }))
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "road_fallback" => (
            "road_miles",
            json!([quote(
                "Mr Patel",
                "bed:2 box:10",
                "LS",
                "BD",
                14,
                0,
                false,
                12
            )]),
        ),
        "fuel_cap" => ("fuel_surcharges", json!([lee(12), book(1)])),
        "row_balance" => ("job_book", json!([lee(12), book(1)])),
        "invoice_filter" => ("invoice_run", json!([lee(12), book(1), complete(1, 6)])),
        "book_day" => ("day_sheet", json!([lee(12), book(1)])),
        "receive_stock" => (
            "materials",
            json!([msg("receive", json!({"material": "boxes", "qty": 50}))]),
        ),
        "stairs_lift" => (
            "quote_sheet",
            json!([quote(
                "Mrs Lee",
                "sofa:1 bed:1 box:20",
                "LS",
                "YO",
                12,
                3,
                true,
                12
            )]),
        ),
        "cancel_fee" => (
            "invoice_run",
            json!([lee(19), book(1), msg("cancel", json!({"job": 1}))]),
        ),
        "late_grace" => (
            "storage",
            json!([
                msg(
                    "rent",
                    json!({"customer": "Mr Patel", "weeks": 4, "large": true})
                ),
                msg("advance", json!({"days": 34}))
            ]),
        ),
        "pay_total" => ("pay_sheet", json!([lee(12), book(1), complete(1, 9)])),
        "week_invoiced" => (
            "week_invoiced",
            json!([
                lee(12),
                quote(
                    "Mr Patel",
                    "sofa:1 bed:1 box:20",
                    "LS",
                    "HG",
                    12,
                    0,
                    false,
                    12
                ),
                book(1),
                book(2),
                complete(1, 6),
                complete(2, 6),
                invoice(2)
            ]),
        ),
        "reorder_point" => (
            "materials",
            json!([
                quote("Mr Okafor", "wardrobe:20", "LS", "M", 44, 0, false, 11),
                book(1),
                complete(1, 8)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct firm's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        "road_fallback" => {
            json!(["quote 1: LS to BD, 14 miles by road (estimate 14), distance £6.00"])
        }
        "fuel_cap" => json!(["diesel 162p a litre: 4% surcharge", "job 1, Mrs Lee: £8.92"]),
        "row_balance" => json!([
            "job 1, Mrs Lee: day 12, crew A, 4 m³, Booked, £223.00 quoted, £50.00 deposit, £173.00 to pay"
        ]),
        "invoice_filter" => json!(["job 1, Mrs Lee: invoice £223.00"]),
        "book_day" => json!(["Fri day 12: job 1 for Mrs Lee, crew A"]),
        "receive_stock" => json!([
            "boxes: 170 in stock (reorder at 40)",
            "tape: 30 in stock (reorder at 10)",
            "wrap: 12 in stock (reorder at 4)"
        ]),
        "stairs_lift" => json!([
            "quote 1, Mrs Lee, day 12: £223.00 (4 m³ £120.00, 12 miles £3.00, cover £100.00 pays up to £4900.00); deposit £50.00"
        ]),
        "cancel_fee" => json!(["job 1, Mrs Lee: invoice £55.75"]),
        "late_grace" => json!([
            "unit 1, Mr Patel: large at £35.00 a week since day 10, paid to day 37, in the grace days",
            "storage: 1 units, £35.00 a week, £0.00 in late fees"
        ]),
        "pay_total" => json!([
            "crew A (2 movers, small van): 8 h + 1 h overtime, £133.00 each, £286.00 with the driver's allowance",
            "pay today: £286.00"
        ]),
        "week_invoiced" => json!(["Wed day 10: £223.00 (1 invoiced)", "week: £223.00"]),
        "reorder_point" => json!([
            "boxes: 40 in stock (reorder at 40), 100 on order",
            "tape: 20 in stock (reorder at 10)",
            "wrap: 8 in stock (reorder at 4)"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` after `messages` and the flights they started settled, in a fresh firm with `slip`.
///
/// # Errors
///
/// When the firm does not start, a message is refused, a flight does not settle or there is no such node.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_removals(slip)?, node, messages).await
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
    || start(Slip::RoadFallback),
    || start(Slip::FuelCap),
    || start(Slip::RowBalance),
    || start(Slip::InvoiceFilter),
    || start(Slip::BookDay),
    || start(Slip::ReceiveStock),
    || start(Slip::StairsLift),
    || start(Slip::CancelFee),
    || start(Slip::LateGrace),
    || start(Slip::PayTotal),
    || start(Slip::WeekInvoiced),
    || start(Slip::ReorderPoint),
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
                "blind_removals: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_REMOVALS_SLIP", &SLIPS, Slip::None)?;
        let host = start_removals(slip)?;
        let options = McpAdapterOptions::new("blind-removals", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_removals: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_removals: {error}");
        std::process::exit(1);
    }
}
