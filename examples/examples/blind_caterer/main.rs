//! A blind set: a wedding and events caterer, written as an ordinary app split over ten files, with twelve ordinary
//! mistakes to find, one at a time, with `explain`.
//!
//! The caterer books weddings and parties: an enquiry names the day, the guests and the menu (buffet, classic or
//! banquet, priced per head, cheaper per head from 100 and from 150 guests, and charged for at least 30). A first
//! deposit payment holds the date; once the deposit (a quarter of the quote, rounded up to the pound) is in, the
//! event confirms itself, and the rest of the bill falls due four weeks before the day. A tasting adds its fee to the
//! quote. Staff are rostered per event (a four-hour minimum call, overtime past eight hours, a weekend premium); the
//! kitchen sheet counts the covers of the coming fortnight by diet; the hire list counts the plates, glasses,
//! cutlery, cloths and marquees. Two services answer later: the hire company's quote for the hire list, and the card
//! processor's payout of the deposits after its fees.
//!
//! Files: `model.rs` (the book, the events, the terms and their `Default`, the messages), `update.rs` (`update`, the
//! payment helper and the policy they price by), `menus.rs` (the price per head, the quote, the deposit rule, the
//! deposits due and the kitchen sheet), `events.rs` (the keyed collection of events with its balance row memo, and
//! its views), `staffing.rs` (the crew rule and the staff cost), `hire.rs` (the hire list), `graph.rs` (the app and
//! its builder), `services.rs` (the two async memos), `remote.rs` (the simulated services) and this file (the
//! harness).
//!
//! Each mistake is a copy of one fn, in a `slipped` module at the end of its file, with the mistake on the line after
//! its `// BUG(key)` marker; `graph.rs` builds the app with that copy in place of the correct fn. `SLIPS` lists the
//! keys.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_caterer` serves the correct app over MCP on
//! stdio; `--slip KEY` (or `BLIND_CATERER_SLIP=KEY`) serves it with one mistake. `--cases` prints each mistake's
//! faulty line and the `explain` arguments that show it; `--report` runs one `explain` per mistake and prints where
//! the answer names the faulty line (`--answers` also prints the answers, on stderr). The report needs a debug build
//! (the trace).

// `#[node]` names a node after the `let` that binds it, so a builder binds its node before returning it
#![allow(clippy::let_and_return)]

use ranvier_examples::harness;

pub mod events;
pub mod graph;
pub mod hire;
pub mod menus;
pub mod model;
pub mod remote;
pub mod services;
pub mod staffing;
pub mod update;

use graph::{CatererApp, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// The mistakes: (key, class, slip).
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "tasting_fee_pounds",
        "Default: wrong unit (pounds for cents)",
        Slip::TastingFeePounds,
    ),
    (
        "covers_held_left_out",
        "model method: missing case",
        Slip::CoversHeldLeftOut,
    ),
    (
        "per_head_break",
        "rule used by memos: > for >=",
        Slip::PerHeadBreak,
    ),
    (
        "deposit_rounded_down",
        "rule used by a memo and update: rounding down for up",
        Slip::DepositRoundedDown,
    ),
    ("balance_due_day", "row memo: >= for >", Slip::BalanceDueDay),
    (
        "running_order_key",
        "collection view: wrong sort key",
        Slip::RunningOrderKey,
    ),
    ("minimum_call", "long memo: min for max", Slip::MinimumCall),
    (
        "marquees_for_settings",
        "long memo: wrong variable",
        Slip::MarqueesForSettings,
    ),
    (
        "bulk_plates_threshold",
        "async memo's future: > for >=",
        Slip::BulkPlatesThreshold,
    ),
    (
        "card_fee_per_mille",
        "async memo's future: wrong unit (per mille for basis points)",
        Slip::CardFeePerMille,
    ),
    (
        "payment_overwrites",
        "update helper: = for +=",
        Slip::PaymentOverwrites,
    ),
    (
        "confirm_at_deposit",
        "update: > for >=",
        Slip::ConfirmAtDeposit,
    ),
];

/// The app on its graph thread, exposed.
pub type CatererHost = harness::ExposedHost<CatererApp>;

/// Starts the app with `slip`, exposed, on a graph thread of its own.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_caterer(slip: Slip) -> Result<CatererHost, HostError> {
    harness::start_exposed(move || graph::caterer_app(slip))
}

fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::caterer_app(slip), "blind-caterer")
}

/// The app's files, for the markers.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("menus.rs", include_str!("menus.rs")),
    ("events.rs", include_str!("events.rs")),
    ("staffing.rs", include_str!("staffing.rs")),
    ("hire.rs", include_str!("hire.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// The faulty line of mistake `key`, as `file.rs:<n>`.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the caterer")
}

fn enquire(id: &str, day: u32, guests: u32, tier: &str, outdoor: bool) -> Value {
    msg(
        "enquire",
        json!({
            "id": id,
            "client": format!("the {id} party"),
            "day": day,
            "guests": guests,
            "tier": tier,
            "outdoor": outdoor,
        }),
    )
}

fn pay(id: &str, amount: u64) -> Value {
    msg("pay_deposit", json!({ "id": id, "amount": amount }))
}

fn confirm(id: &str) -> Value {
    msg("confirm", json!({ "id": id }))
}

fn book_tasting(id: &str, day: u32) -> Value {
    msg("book_tasting", json!({ "id": id, "day": day }))
}

fn roster(id: &str, name: &str, role: &str, hours: u32) -> Value {
    msg(
        "roster",
        json!({ "id": id, "name": name, "role": role, "hours": hours }),
    )
}

/// Mistake `key`'s case: the node to explain and the messages that show the mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        "tasting_fee_pounds" => (
            "deposits_due",
            json!([
                enquire("hall", 60, 80, "classic", false),
                book_tasting("hall", 20)
            ]),
        ),
        "covers_held_left_out" => (
            "covers_this_week",
            json!([
                enquire("barn", 3, 60, "buffet", false),
                pay("barn", 10_000),
                enquire("mill", 5, 70, "classic", false),
                confirm("mill")
            ]),
        ),
        "per_head_break" => (
            "balance_due",
            json!([
                enquire("abbey", 20, 150, "classic", false),
                confirm("abbey")
            ]),
        ),
        "deposit_rounded_down" => (
            "deposits_due",
            json!([
                enquire("court", 90, 45, "classic", false),
                pay("court", 5_000)
            ]),
        ),
        "balance_due_day" => (
            "balance_due",
            json!([
                enquire("grange", 28, 40, "buffet", false),
                pay("grange", 28_000)
            ]),
        ),
        "running_order_key" => (
            "running_order",
            json!([
                enquire("orchard", 40, 60, "banquet", false),
                enquire("quay", 12, 120, "classic", false),
                enquire("vicarage", 25, 90, "buffet", false)
            ]),
        ),
        "minimum_call" => (
            "staff_cost",
            json!([
                enquire("lodge", 10, 80, "classic", false),
                roster("lodge", "Ana", "chef", 6),
                roster("lodge", "Ben", "waiter", 10)
            ]),
        ),
        "marquees_for_settings" => (
            "hire_list",
            json!([
                enquire("meadow", 50, 120, "banquet", true),
                pay("meadow", 10_000)
            ]),
        ),
        "bulk_plates_threshold" => (
            "hire_quote",
            json!([
                enquire("priory", 70, 113, "banquet", false),
                pay("priory", 20_000)
            ]),
        ),
        "card_fee_per_mille" => (
            "net_deposits",
            json!([
                enquire("ferry", 30, 60, "buffet", false),
                pay("ferry", 42_000)
            ]),
        ),
        "payment_overwrites" => (
            "deposits_due",
            json!([
                enquire("chapel", 80, 100, "classic", false),
                pay("chapel", 30_000),
                pay("chapel", 20_000)
            ]),
        ),
        "confirm_at_deposit" => (
            "confirmed",
            json!([
                enquire("manor", 45, 50, "classic", false),
                pay("manor", 57_500)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// What the correct app's node holds after mistake `key`'s messages.
pub fn expected(key: &str) -> Value {
    match key {
        // 80 × £46 + the £120 tasting = £3,800; a quarter: £950
        "tasting_fee_pounds" => json!(95_000),
        // the held barn (60) and the confirmed mill (70)
        "covers_held_left_out" => json!(130),
        // 150 guests: 10% off £46, 150 × £41.40
        "per_head_break" => json!(621_000),
        // 45 × £46 = £2,070; a quarter £517.50, up to £518; less £50 paid
        "deposit_rounded_down" => json!(46_800),
        // 40 × £28 = £1,120, less the £280 deposit, due 28 days before
        "balance_due_day" => json!(84_000),
        "running_order_key" => json!(["quay", "vicarage", "orchard"]),
        // Ana 6 h × £22; Ben 8 h × £14 and 2 h × £21
        "minimum_call" => json!(28_600),
        // 120 guests and 12 spare settings, four courses; one marquee seats the 120
        "marquees_for_settings" => json!({
            "plates": 528,
            "cutlery": 528,
            "glasses": 264,
            "tablecloths": 12,
            "marquees": 1
        }),
        // 500 plates: crockery £612.50 less a tenth, 12 cloths £72, one delivery £75
        "bulk_plates_threshold" => json!(69_825),
        // £420 less 1.40% (£5.88) and 20p
        "card_fee_per_mille" => json!(41_392),
        // 100 × £43.70 = £4,370; a quarter £1,092.50, up to £1,093; less £500 paid
        "payment_overwrites" => json!(59_300),
        // 50 × £46 = £2,300; a quarter, £575, paid exactly
        "confirm_at_deposit" => json!(1),
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
    harness::settled_in(start_caterer(slip)?, node, messages).await
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
    || start(Slip::TastingFeePounds),
    || start(Slip::CoversHeldLeftOut),
    || start(Slip::PerHeadBreak),
    || start(Slip::DepositRoundedDown),
    || start(Slip::BalanceDueDay),
    || start(Slip::RunningOrderKey),
    || start(Slip::MinimumCall),
    || start(Slip::MarqueesForSettings),
    || start(Slip::BulkPlatesThreshold),
    || start(Slip::CardFeePerMille),
    || start(Slip::PaymentOverwrites),
    || start(Slip::ConfirmAtDeposit),
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
                "blind_caterer: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_CATERER_SLIP", &SLIPS, Slip::None)?;
        let host = start_caterer(slip)?;
        let options = McpAdapterOptions::new("blind-caterer", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_caterer: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_caterer: {error}");
        std::process::exit(1);
    }
}
