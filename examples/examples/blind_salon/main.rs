//! A hair salon, served over MCP: a blind set for `explain`, written as a developer would write the app, with twelve
//! ordinary mistakes that can each be switched in.
//!
//! Cuts, colours and blow-dries are priced by hair length and by the stylist's level (junior, senior, director),
//! 10% off on weekday mornings. A booking takes a fifth of the price as a deposit; cancelling 24 hours ahead or more
//! gets it back, a no-show pays half the price. Stylists earn a commission on the week's services above £500 and a
//! share of their retail sales; the day's tips are split among the stylists who worked. Retail products have stock
//! and reorder points, gift vouchers a balance and a last day, clients a loyalty card (a point per pound, a £10
//! voucher at 100). The till, the week's takings and the commission sheet are memos; the supplier's prices and the
//! online booking site are two network services, read by async memos.
//!
//! The files:
//! - `model.rs`: the salon, its messages, money and days;
//! - `update.rs`: `update` (with commands: `award` after an appointment, `check_stock` after a sale) and its helpers;
//! - `pricing.rs`: prices, the discount, deposits, no-show fees, VAT, reorder points;
//! - `vouchers.rs`: loyalty points, gift vouchers, and their lists;
//! - `stylists.rs`: the commission rule and the weekly commission sheet;
//! - `bookings.rs`: the bookings as a keyed collection (a row memo, `sort_by`, `count_by` and `filter` views);
//! - `services.rs` and `remote.rs`: the async memos and the simulated services they call;
//! - `graph.rs`: the exposed app, its builder, the day's till and the week's takings.
//!
//! The mistakes (`SLIPS`: key, class), each a copy of one fn in a `slipped` module at the end of its file:
//! `supplier_order` and `online_requests` (async memos' futures), `row_due` (the collection's row memo), `by_time` (a
//! view), `free_cancel` and `tip_split` (`update`'s helpers), `length_price`, `loyalty_points` and `commission`
//! (rules), `day_till` and `week_takings` (long memos), `voucher_expiry` (a model method).
//!
//! `cargo run -p ranvier-examples --features blind --example blind_salon` serves the correct salon over MCP on stdio; `-- --slip KEY` (or
//! `BLIND_SALON_SLIP=KEY`) serves it with one mistake; `-- --cases` prints each mistake's faulty line and the
//! `explain` arguments that show it; `-- --report [--answers]` asks `explain` about each mistake (debug builds).

use ranvier_examples::harness;

pub mod bookings;
pub mod graph;
pub mod model;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod stylists;
pub mod update;
pub mod vouchers;

use graph::{SalonApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: key, class, and the slip that switches it in.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "supplier_order",
        "async memo: wrong field",
        Slip::SupplierOrder,
    ),
    (
        "online_requests",
        "async memo: missing condition",
        Slip::OnlineRequests,
    ),
    ("row_due", "row memo: missing term", Slip::RowDue),
    ("by_time", "view: swapped sort keys", Slip::ByTime),
    (
        "free_cancel",
        "update helper: comparison the wrong way round",
        Slip::FreeCancel,
    ),
    (
        "tip_split",
        "update helper: missing condition",
        Slip::TipSplit,
    ),
    ("length_price", "rule: wrong arm", Slip::LengthPrice),
    (
        "loyalty_points",
        "rule: pence for pounds",
        Slip::LoyaltyPoints,
    ),
    ("commission", "rule: swapped arguments", Slip::Commission),
    ("day_till", "long memo: wrong operator", Slip::DayTill),
    ("week_takings", "long memo: off by one", Slip::WeekTakings),
    (
        "voucher_expiry",
        "model method: comparison off by one",
        Slip::VoucherExpiry,
    ),
];

/// What the salon's graph thread keeps.
pub type SalonHost = harness::ExposedHost<SalonApp>;

/// Starts the salon with `slip` on a graph thread of its own, exposed.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_salon(slip: Slip) -> Result<SalonHost, HostError> {
    harness::start_exposed(move || graph::salon_graph(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::salon_graph(slip), "blind-salon")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("vouchers.rs", include_str!("vouchers.rs")),
    ("stylists.rs", include_str!("stylists.rs")),
    ("bookings.rs", include_str!("bookings.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, `file:line`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the salon")
}

fn book(client: &str, stylist: &str, service: &str, length: &str, day: u32, hour: u32) -> Value {
    msg(
        "book",
        json!({"client": client, "stylist": stylist, "service": service, "length": length, "day": day, "hour": hour}),
    )
}
fn cancel(booking: u32) -> Value {
    msg("cancel", json!({ "booking": booking }))
}
fn finish(booking: u32) -> Value {
    msg("finish", json!({ "booking": booking }))
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}
fn tip(pence: u32) -> Value {
    msg("tip", json!({ "pence": pence }))
}
fn sell(product: &str, qty: u32, stylist: &str) -> Value {
    msg(
        "sell",
        json!({"product": product, "qty": qty, "stylist": stylist}),
    )
}
fn sell_voucher(code: &str, pounds: u32) -> Value {
    msg("sell_voucher", json!({"code": code, "pounds": pounds}))
}

/// The node that shows mistake `key`, and the messages that show it.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "supplier_order" => ("supplier_order", json!([sell("serum", 1, "Kim")])),
        "online_requests" => (
            "online_requests",
            json!([book("Zoe", "Kim", "cut", "short", 1, 10)]),
        ),
        "row_due" => (
            "appointment_book",
            json!([book("Ana", "Kim", "colour", "long", 2, 14)]),
        ),
        "by_time" => (
            "appointment_book",
            json!([
                book("Ana", "Kim", "cut", "short", 3, 10),
                book("Ben", "Sam", "cut", "short", 2, 15)
            ]),
        ),
        "free_cancel" => (
            "notices",
            json!([book("Ana", "Kim", "cut", "short", 3, 10), cancel(1)]),
        ),
        "tip_split" => (
            "tip_sheet",
            json!([
                book("Ana", "Kim", "cut", "short", 1, 11),
                finish(1),
                advance(1),
                book("Ben", "Sam", "cut", "short", 2, 11),
                finish(2),
                tip(900),
                advance(1)
            ]),
        ),
        "length_price" => (
            "appointment_book",
            json!([book("Ana", "Ros", "cut", "medium", 2, 14)]),
        ),
        "loyalty_points" => (
            "loyalty",
            json!([book("Ana", "Kim", "colour", "long", 1, 14), finish(1)]),
        ),
        "commission" => (
            "commission_sheet",
            json!([book("Ana", "Kim", "cut", "short", 1, 14), finish(1)]),
        ),
        "day_till" => (
            "day_till",
            json!([book("Ana", "Kim", "cut", "short", 3, 10), cancel(1)]),
        ),
        "week_takings" => (
            "week_takings",
            json!([book("Ana", "Kim", "cut", "short", 2, 14)]),
        ),
        "voucher_expiry" => ("vouchers", json!([sell_voucher("GIFT1", 20), advance(364)])),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct salon holds in the case's node.
pub fn expected(key: &str) -> Value {
    match key {
        "supplier_order" => json!(["serum: 2 left, order 6 at £11.00, £66.00", "order: £66.00"]),
        "online_requests" => json!([
            "Maya: cut (medium) with Kim, day 2 at 10:00, £32.40",
            "Leo: colour (long) with Sam, day 2 at 14:00, £72.00",
            "Ivy: 18:00 on day 2 is outside our hours"
        ]),
        "row_due" => json!([
            "booking 1, Ana with Kim: colour (long), Tue day 2 at 14:00, £90.00, deposit £18.00, due £72.00"
        ]),
        "by_time" => json!([
            "booking 2, Ben with Sam: cut (short), Tue day 2 at 15:00, £24.00, deposit £4.80, due £19.20",
            "booking 1, Ana with Kim: cut (short), Wed day 3 at 10:00, £27.00, deposit £5.40, due £21.60"
        ]),
        "free_cancel" => json!(["booking 1 cancelled 49 hours ahead: deposit £5.40 refunded"]),
        "tip_split" => json!(["day 2: Sam £9.00"]),
        "length_price" => json!([
            "booking 1, Ana with Ros: cut (medium), Tue day 2 at 14:00, £46.80, deposit £9.36, due £37.44"
        ]),
        "loyalty_points" => json!(["Ana: 90 points, 10 to the next reward"]),
        "commission" => json!([
            "Kim (senior): services £30.00, retail £0.00, commission £0.00",
            "Sam (junior): services £0.00, retail £0.00, commission £0.00",
            "Ros (director): services £0.00, retail £0.00, commission £0.00",
            "commission: £0.00"
        ]),
        "day_till" => json!([
            "deposits: £5.40",
            "refunds: £5.40",
            "tips in the jar: £0.00",
            "takings: £0.00, VAT £0.00"
        ]),
        "week_takings" => json!(["Mon day 1: £6.00 (1 till line)", "week: £6.00, VAT £1.00"]),
        "voucher_expiry" => json!(["GIFT1: £20.00 of £20.00 left, valid to day 365"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` after `messages`, in a fresh salon with `slip`, once its flights settled.
///
/// # Errors
///
/// As [`harness::settled_in`].
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_salon(slip)?, node, messages).await
}

/// The mistakes as the gallery's shapes.
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
    || start(Slip::SupplierOrder),
    || start(Slip::OnlineRequests),
    || start(Slip::RowDue),
    || start(Slip::ByTime),
    || start(Slip::FreeCancel),
    || start(Slip::TipSplit),
    || start(Slip::LengthPrice),
    || start(Slip::LoyaltyPoints),
    || start(Slip::Commission),
    || start(Slip::DayTill),
    || start(Slip::WeekTakings),
    || start(Slip::VoucherExpiry),
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
                "blind_salon: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_SALON_SLIP", &SLIPS, Slip::None)?;
        let host = start_salon(slip)?;
        let options = McpAdapterOptions::new("blind-salon", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_salon: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_salon: {error}");
        std::process::exit(1);
    }
}
