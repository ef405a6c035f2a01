//! A blind set: a self-storage warehouse, written as an ordinary app split over ten files, with twelve ordinary
//! mistakes to find, one at a time, with `explain`.
//!
//! The warehouse lets units in four sizes (lockers to large rooms), by the week or by the month (a month is 52 weeks
//! over 12 at the weekly rate, less 10%). A move-in may come with an offer off the first bill (a free week, or half
//! the first month), insurance cover on the declared value of the goods (99p a week per £1,000 or part of it, at
//! least £1,000), and the van (four move-ins a day; £25 on a weekly plan). Bills fall due as the calendar moves on; a
//! balance unpaid past five days takes a late fee (£15, or 10% if that is more), past fourteen days the tenant is
//! locked out, and at ninety days the unit's contents go to auction. Two services answer later: the insurer's rate
//! for the block policy on all the cover the warehouse carries, and the auction house's valuation of each lot.
//!
//! Files: `model.rs` (units, rentals, the house rules with their `Default`, the tenant's name with its `PartialEq`,
//! the messages), `update.rs` (`update` and its handlers: move-in, bills, payments, the daily round, the van),
//! `pricing.rs` (rates, offers, the insurance premium), `units.rs` (the keyed collection of units, each row with its
//! next bill, the chase order and the billing total), `arrears.rs` (the arrears stages, the late fee and the arrears
//! report), `moveins.rs` (the quote for an enquiry, the van's day), `graph.rs` (the app and its builder),
//! `services.rs` (the block premium and the auction estimate, async), `remote.rs` (the simulated insurer and auction
//! house) and this file (the harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_storage` serves the correct app over MCP on
//! stdio; `--slip KEY` (or `BLIND_STORAGE_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's
//! faulty line and the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where
//! the answer names the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build
//! (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod arrears;
pub mod graph;
pub mod model;
pub mod moveins;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod units;
pub mod update;

use graph::{Slip, StorageApp};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "insurer_cents",
        "async memo's future: wrong unit (cents divided as pounds)",
        Slip::InsurerCents,
    ),
    (
        "auction_gross",
        "async memo's future: wrong variable (gross for net)",
        Slip::AuctionGross,
    ),
    (
        "row_weekly_plan",
        "row memo: wrong variable (the weekly plan for the rental's plan)",
        Slip::RowWeeklyPlan,
    ),
    (
        "chase_by_paid",
        "collection view: wrong sort key (paid for balance)",
        Slip::ChaseByPaid,
    ),
    (
        "payment_assign",
        "update helper: `=` for `+=`",
        Slip::PaymentAssign,
    ),
    (
        "van_inverted",
        "update helper: inverted condition",
        Slip::VanInverted,
    ),
    (
        "premium_floor",
        "rule: rounding down for up",
        Slip::PremiumFloor,
    ),
    (
        "lockout_boundary",
        "rule: `<=` for `<`",
        Slip::LockoutBoundary,
    ),
    (
        "auction_missing",
        "long memo: missing case (auction counted as locked out)",
        Slip::AuctionMissing,
    ),
    (
        "long_stay_boundary",
        "long memo: `>` for `>=`",
        Slip::LongStayBoundary,
    ),
    (
        "vacant_cover",
        "model method: wrong default (empty units insured)",
        Slip::VacantCover,
    ),
    (
        "late_fee_pounds",
        "hand-written Default: wrong unit (pounds for cents)",
        Slip::LateFeePounds,
    ),
];

/// The app on its graph thread, exposed.
pub type StorageHost = harness::ExposedHost<StorageApp>;

/// Starts the app with `slip`, exposed, on a graph thread of its own.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_storage(slip: Slip) -> Result<StorageHost, HostError> {
    harness::start_exposed(move || graph::storage_app(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::storage_app(slip), "blind-storage")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("units.rs", include_str!("units.rs")),
    ("arrears.rs", include_str!("arrears.rs")),
    ("moveins.rs", include_str!("moveins.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the storage warehouse")
}

fn move_in(unit: &str, tenant: &str, plan: &str, declared_value: u64, van: bool) -> Value {
    msg(
        "move_in",
        json!({
            "unit": unit,
            "tenant": tenant,
            "plan": plan,
            "declared_value": declared_value,
            "van": van
        }),
    )
}

fn pay(unit: &str, amount: u64) -> Value {
    msg("pay", json!({ "unit": unit, "amount": amount }))
}

fn pass_days(days: u32) -> Value {
    msg("pass_days", json!({ "days": days }))
}

fn enquire(size: &str, plan: &str, weeks: u32, declared_value: u64) -> Value {
    msg(
        "enquire",
        json!({
            "size": size,
            "plan": plan,
            "weeks": weeks,
            "declared_value": declared_value,
            "van": false
        }),
    )
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "insurer_cents" => (
            "block_premium",
            json!([move_in("B1", "Ada Shaw", "weekly", 2_500, false)]),
        ),
        "auction_gross" => (
            "auction",
            json!([
                move_in("A1", "Tom Reed", "weekly", 500, false),
                pass_days(90)
            ]),
        ),
        "row_weekly_plan" => (
            "billing_due",
            json!([move_in("C1", "Mia Cole", "monthly", 1_000, false)]),
        ),
        "chase_by_paid" => (
            "by_balance",
            json!([
                move_in("A1", "Tom Reed", "weekly", 1_000, false),
                move_in("D1", "Sam Hart", "weekly", 1_000, false),
                pay("D1", 6_000)
            ]),
        ),
        "payment_assign" => (
            "takings",
            json!([
                move_in("B1", "Ada Shaw", "weekly", 1_000, false),
                pay("B1", 1_000),
                pay("B1", 1_000)
            ]),
        ),
        "van_inverted" => (
            "van_today",
            json!([move_in("A1", "Tom Reed", "weekly", 1_000, true)]),
        ),
        "premium_floor" => ("quote", json!([enquire("small", "weekly", 2, 2_500)])),
        "lockout_boundary" => (
            "lockouts",
            json!([
                move_in("B1", "Ada Shaw", "weekly", 1_000, false),
                pass_days(14)
            ]),
        ),
        "auction_missing" => (
            "arrears",
            json!([
                move_in("A1", "Tom Reed", "weekly", 500, false),
                pass_days(90)
            ]),
        ),
        "long_stay_boundary" => ("quote", json!([enquire("medium", "monthly", 26, 1_000)])),
        "vacant_cover" => (
            "insured_cover",
            json!([
                move_in("B1", "Ada Shaw", "weekly", 2_500, false),
                move_in("C2", "Mia Cole", "monthly", 400, false)
            ]),
        ),
        "late_fee_pounds" => (
            "arrears",
            json!([
                move_in("B1", "Ada Shaw", "weekly", 1_000, false),
                pass_days(6)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        // cover £2,500: three started thousands at the insurer's 60p
        "insurer_cents" => json!(180),
        // 90 days unpaid: the locker's contents fetch £80, less 20%; the £64 all goes against £183.87 owed
        "auction_gross" => json!({
            "lots": 1,
            "gross_cents": 8_000,
            "commission_cents": 1_600,
            "recovered_cents": 6_400,
            "surplus_cents": 0
        }),
        // a medium month: 4,200 × 52 / 12 = 18,200, less 10% = 16,380; insurance (99 × 52 / 12) = 429
        "row_weekly_plan" => json!(16_809),
        // A1 owes 1,299; D1 owed 6,599 and paid 6,000, so 599; the empty units owe nothing (ties by id)
        "chase_by_paid" => json!(["A1", "D1", "A2", "B1", "B2", "C1", "C2", "D2"]),
        // two payments of £10 on a bill of £25.99
        "payment_assign" => json!(2_000),
        // one of the van's four slots taken today
        "van_inverted" => json!(3),
        // two weeks of a small unit at £25, with £2,500 of cover: three thousands at 99p a week
        "premium_floor" => json!({
            "periods": 2,
            "rent_cents": 5_000,
            "discount_cents": 0,
            "insurance_cents": 594,
            "van_cents": 0,
            "total_cents": 5_594
        }),
        // fourteen days unpaid: locked out
        "lockout_boundary" => json!(1),
        // 1,299 billed on day 1, the £15 late fee, then twelve more weeks at 1,299 by day 91
        "auction_missing" => json!({
            "owed_cents": 18_387,
            "late_fees_cents": 1_500,
            "due": 0,
            "late": 0,
            "locked_out": [],
            "for_auction": ["A1"],
            "oldest_days": 90,
            "auction_in_days": 0
        }),
        // 26 weeks is six months of 16,380, 5% off for a long stay; insurance 429 a month
        "long_stay_boundary" => json!({
            "periods": 6,
            "rent_cents": 98_280,
            "discount_cents": 4_914,
            "insurance_cents": 2_574,
            "van_cents": 0,
            "total_cents": 95_940
        }),
        // £2,500 declared, and £400 raised to the £1,000 minimum; the six empty units carry none
        "vacant_cover" => json!(350_000),
        // 2,599 billed on day 1, six days unpaid on day 7: the £15 late fee (10% would be 259)
        "late_fee_pounds" => json!({
            "owed_cents": 4_099,
            "late_fees_cents": 1_500,
            "due": 0,
            "late": 1,
            "locked_out": [],
            "for_auction": [],
            "oldest_days": 6,
            "auction_in_days": 84
        }),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` after `messages` and the flights they started settled, in a fresh app with `slip`.
///
/// # Errors
///
/// When the app does not start, a message is refused, a flight does not settle or there is no such node.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_storage(slip)?, node, messages).await
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
    || start(Slip::InsurerCents),
    || start(Slip::AuctionGross),
    || start(Slip::RowWeeklyPlan),
    || start(Slip::ChaseByPaid),
    || start(Slip::PaymentAssign),
    || start(Slip::VanInverted),
    || start(Slip::PremiumFloor),
    || start(Slip::LockoutBoundary),
    || start(Slip::AuctionMissing),
    || start(Slip::LongStayBoundary),
    || start(Slip::VacantCover),
    || start(Slip::LateFeePounds),
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
                "blind_storage: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_STORAGE_SLIP", &SLIPS, Slip::None)?;
        let host = start_storage(slip)?;
        let options = McpAdapterOptions::new("blind-storage", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_storage: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_storage: {error}");
        std::process::exit(1);
    }
}
