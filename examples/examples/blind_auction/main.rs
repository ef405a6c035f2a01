//! An auction house's sale day (seven lots from three consignors, four sold from the rostrum and three timed lots
//! online, bidders registered with paddles and credit limits, absentee bids, increments by price band, invoices with
//! the buyer's premium and VAT, the consignors' settlements, and two services over the network), split over nine
//! files as an app developer would write it, with ordinary mistakes that were not planted with `explain` in mind: a
//! blind test of whether one `explain` call over MCP names the faulty line, written by a tester who had not read how
//! `explain` diagnoses.
//!
//! The sale: the catalogue is consigned when the sale opens, at 10:00 (initial commands of `Mvu::with_commands`):
//! live lots wait for the auctioneer, timed lots take bids at once. A bidder registers at the desk (`register`: the
//! next paddle from 101, a country, a credit limit in euros and a card) and may leave an absentee bid (`leave_bid`:
//! the auctioneer bids from the book for them, up to their limit, when the lot opens or takes a bid, as an
//! `ExecuteBook` command). The auctioneer opens a live lot (`open`); a bid (`bid`) is taken when it reaches the
//! asking price (half the low estimate, then one increment of its price band more), the bidder does not already
//! lead and their won and leading bids stay within their credit; a bid in a timed lot's last two minutes moves its
//! close. The hammer falls (`hammer`): sold at or over the reserve, else bought in. The clock moves on (`tick`) and
//! closes the timed lots whose time is up (`Close` commands). A consignor withdraws a lot (`withdraw`). Derived: the
//! clock, the clerk's notices, the lots as a keyed collection (`ranvier::collection`) with each lot's screen line as
//! a row memo, and views over it (the catalogue, the top lots from a `sort_by`, the results from a `filter`, the
//! takings from a `sum_by`, the lots bought in from a `count_by`); the invoices (premium 25 %, VAT 20 % on the
//! premium in the EU) and the consignors' settlements (commission 10 %, at least 20.00 a lot; 15.00 for a lot
//! bought in, 10 % of the low estimate for one withdrawn), in cents; and from two services over the network, as
//! async memos: the card authorizations for the invoices, and a shipping broker's quote per buyer.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update`, with commands, and
//! its helpers), `bidding.rs` (increments, asking price, reserve, the absentee book) and `charges.rs` (premium, VAT,
//! commission, fees), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the invoices and settlements),
//! `catalogue.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs` (the
//! services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_AUCTION_SLIP=<key>`) runs the house with that one mistake; without it the
//! house is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_AUCTION_SLIP=<key> ranvier-mcp call target/debug/examples/blind_auction explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_auction -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the house serves MCP over stdio.

use ranvier_examples::harness;

pub mod bidding;
pub mod catalogue;
pub mod charges;
pub mod graph;
pub mod model;
pub mod remote;
pub mod services;
pub mod update;

use graph::{AuctionHouse, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the house that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "band_edge",
        "`<=` for `<` at a band's upper bound in a rule of another module: a bid of exactly 500 is asked 10 more, \
         not 25 (off by one)",
        Slip::BandEdge,
    ),
    (
        "book_runner_up",
        "swapped arguments in a rule of another module: the winning book bid priced at the runner-up's limit",
        Slip::BookRunnerUp,
    ),
    (
        "credit_others",
        "a missing condition in an `update` helper: every lot sold counts against a bidder's credit, not only theirs",
        Slip::CreditOthers,
    ),
    (
        "soft_close_book",
        "a command not sent: an early return in an `update` helper's soft-close branch leaves the book silent",
        Slip::SoftCloseBook,
    ),
    (
        "net_fees_sign",
        "a wrong operator in a charge rule: the fees added to what a consignor is paid, not taken off",
        Slip::NetFeesSign,
    ),
    (
        "withdrawal_fee",
        "a wrong match arm in a charge rule: a withdrawn lot charged the fee for a lot bought in",
        Slip::WithdrawalFee,
    ),
    (
        "estimate_above",
        "the wrong field in a row factory's memo: a bid over the low estimate called above estimate",
        Slip::EstimateAbove,
    ),
    (
        "top_by_count",
        "a wrong sort key in a `sort_by` view: the top lots ordered by how many bids they took, not the highest",
        Slip::TopByCount,
    ),
    (
        "invoice_vat",
        "a wrong accumulator in a long memo: the VAT added to the invoice's premium",
        Slip::InvoiceVat,
    ),
    (
        "commission_running",
        "the wrong variable in a long memo: commission on the consignor's running hammer total, not the lot's",
        Slip::CommissionRunning,
    ),
    (
        "card_refused_paid",
        "a failure turned into a default in an async memo's future: a card refused counts as the whole amount held",
        Slip::CardRefusedPaid,
    ),
    (
        "broker_grams",
        "a wrong unit in an async memo's future: the weight sent to the broker in grams, not kilograms",
        Slip::BrokerGrams,
    ),
];

/// What the graph thread keeps: the house and its exposure.
pub type AuctionHost = harness::ExposedHost<AuctionHouse>;

/// Starts the house with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_auction(slip: Slip) -> Result<AuctionHost, HostError> {
    harness::start_exposed(move || graph::auction_house(slip))
}

/// The house with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::auction_house(slip), "blind-auction")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the house, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("bidding.rs", include_str!("bidding.rs")),
    ("charges.rs", include_str!("charges.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("catalogue.rs", include_str!("catalogue.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the house holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the auction house")
}

const ANN: (&str, &str, u64, &str) = ("Ann Carter", "FR", 5_000, "4111 1111 1111 1111");
const BEN: (&str, &str, u64, &str) = ("Ben Ito", "US", 1_000, "3782 822463 10005");

fn register((name, country, credit_limit, card): (&str, &str, u64, &str)) -> Value {
    msg(
        "register",
        json!({"name": name, "country": country, "creditLimit": credit_limit, "card": card}),
    )
}
fn leave_bid(paddle: u32, lot: u32, max: u64) -> Value {
    msg(
        "leave_bid",
        json!({"paddle": paddle, "lot": lot, "max": max}),
    )
}
fn open(lot: u32) -> Value {
    msg("open", json!({ "lot": lot }))
}
fn bid(paddle: u32, lot: u32, amount: u64) -> Value {
    msg(
        "bid",
        json!({"paddle": paddle, "lot": lot, "amount": amount}),
    )
}
fn hammer(lot: u32) -> Value {
    msg("hammer", json!({ "lot": lot }))
}
fn withdraw(lot: u32) -> Value {
    msg("withdraw", json!({ "lot": lot }))
}
fn tick(minutes: u32) -> Value {
    msg("tick", json!({ "minutes": minutes }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). The sale opens at 10:00 with lots 1 Delft vases (Mrs Hale, reserve 300, est. 400–600, 3.5 kg),
/// 2 mantel clock (Mr Okafor, 800, 1,000–1,500), 3 oil painting (Mrs Hale, 2,000, 2,500–3,500), 4 card case (Estate
/// of J. Pryce, 150, 200–300) from the rostrum, and timed lots 5 table lamp (Mr Okafor, 250, 300–500, closes 11:00),
/// 6 first editions (the Estate, no reserve, 100–150, 11:05), 7 writing slope (Mrs Hale, 400, 500–700, 11:10); Ann
/// (paddle 101, FR, credit 5,000, a Visa card) and Ben (102, US, credit 1,000, an American Express card).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Ann bids 500 on the clock: the next band's increment, asking 525; shows asking 510
        "band_edge" => (
            "catalogue",
            json!([register(ANN), open(2), bid(101, 2, 500)]),
        ),
        // the book holds Ann to 450 and Ben to 380 on the vases: Ann buys at 390; shows 380
        "book_runner_up" => (
            "results",
            json!([
                register(ANN),
                register(BEN),
                leave_bid(101, 1, 450),
                leave_bid(102, 1, 380),
                open(1),
                hammer(1)
            ]),
        ),
        // Ann buys the painting for 2,500; Ben's 500 on the clock is within his 1,000; shows it refused
        "credit_others" => (
            "notices",
            json!([
                register(ANN),
                register(BEN),
                open(3),
                bid(101, 3, 2_500),
                hammer(3),
                open(2),
                bid(102, 2, 500)
            ]),
        ),
        // Ben's absentee 400 on the lamp; Ann bids 300 at 10:59, the close moves to 11:01 and the book answers 310:
        // Ben buys at 310; shows Ann at 300
        "soft_close_book" => (
            "results",
            json!([
                register(ANN),
                register(BEN),
                leave_bid(102, 5, 400),
                tick(59),
                bid(101, 5, 300),
                tick(5)
            ]),
        ),
        // Ann buys the vases for 450; the timed lots close unsold: Mrs Hale nets 390.00, the others owe 15.00;
        // shows 420.00 and 15.00 owed to them
        "net_fees_sign" => (
            "settlements",
            json!([
                register(ANN),
                open(1),
                bid(101, 1, 450),
                hammer(1),
                tick(70)
            ]),
        ),
        // the Estate withdraws the card case: 10 % of its low estimate, 20.00; shows 15.00
        "withdrawal_fee" => ("settlements", json!([withdraw(4)])),
        // Ann bids 450 on the vases (est. 400–600): within estimate; shows above estimate
        "estimate_above" => (
            "catalogue",
            json!([register(ANN), open(1), bid(101, 1, 450)]),
        ),
        // three bids on the vases up to 220, one of 1,250 on the painting: the painting first; shows the vases first
        "top_by_count" => (
            "top_lots",
            json!([
                register(ANN),
                register(BEN),
                open(1),
                bid(101, 1, 200),
                bid(102, 1, 210),
                bid(101, 1, 220),
                open(3),
                bid(101, 3, 1_250)
            ]),
        ),
        // Ann buys the vases for 450: premium 112.50, VAT 22.50; shows premium 135.00 and no VAT
        "invoice_vat" => (
            "invoices",
            json!([register(ANN), open(1), bid(101, 1, 450), hammer(1)]),
        ),
        // Ann buys Mrs Hale's vases (450) and painting (2,500): commission 45.00 + 250.00; shows 340.00
        "commission_running" => (
            "settlements",
            json!([
                register(ANN),
                open(1),
                bid(101, 1, 450),
                hammer(1),
                open(3),
                bid(101, 3, 2_500),
                hammer(3)
            ]),
        ),
        // Ann (Visa) and Ben (American Express, not taken) buy a lot each: Ben's 225.00 is due at collection;
        // shows it authorized
        "card_refused_paid" => (
            "payments",
            json!([
                register(ANN),
                register(BEN),
                open(1),
                bid(101, 1, 450),
                hammer(1),
                open(4),
                bid(102, 4, 180),
                hammer(4)
            ]),
        ),
        // Ann buys the vases, 3.5 kg to France: 4 kg, 22.00; shows no quote (over 30 kg)
        "broker_grams" => (
            "shipping",
            json!([register(ANN), open(1), bid(101, 1, 450), hammer(1)]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The catalogue's seven lines with the lines of `changed` (lot number, line) in place of the opening ones.
fn catalogue_with(changed: &[(usize, &str)]) -> Value {
    let mut lines = vec![
        "Lot 1 Pair of Delft vases, est. 400–600: opens at 200",
        "Lot 2 Georgian mantel clock, est. 1,000–1,500: opens at 500",
        "Lot 3 Harbour at dusk, oil on canvas, est. 2,500–3,500: opens at 1,250",
        "Lot 4 Silver card case, est. 200–300: opens at 100",
        "Lot 5 Art deco table lamp, est. 300–500: asking 150, closes 11:00",
        "Lot 6 Box of first editions, est. 100–150: asking 50, closes 11:05",
        "Lot 7 Victorian writing slope, est. 500–700: asking 250, closes 11:10",
    ];
    for &(number, line) in changed {
        lines[number - 1] = line;
    }
    json!(lines)
}

/// A consignor's settlement as the house publishes it, in cents.
fn settled(consignor: &str, sold: u32, hammer: u64, commission: u64, fees: u64, net: i64) -> Value {
    json!({
        "consignor": consignor,
        "sold": sold,
        "hammer": hammer,
        "commission": commission,
        "fees": fees,
        "net": net
    })
}

/// The value `key`'s node holds in the correct house after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "band_edge" => catalogue_with(&[(
            2,
            "Lot 2 Georgian mantel clock, est. 1,000–1,500: 500 with paddle 101 (below estimate), asking 525",
        )]),
        "book_runner_up" => json!(["Lot 1 Pair of Delft vases: sold for 390 to paddle 101"]),
        "credit_others" => json!(["10:00 lot 3 sold to paddle 101 for 2,500"]),
        "soft_close_book" => json!(["Lot 5 Art deco table lamp: sold for 310 to paddle 102"]),
        "net_fees_sign" => json!([
            settled("Mrs Hale", 1, 45_000, 4_500, 1_500, 39_000),
            settled("Mr Okafor", 0, 0, 0, 1_500, -1_500),
            settled("Estate of J. Pryce", 0, 0, 0, 1_500, -1_500)
        ]),
        "withdrawal_fee" => json!([
            settled("Mrs Hale", 0, 0, 0, 0, 0),
            settled("Mr Okafor", 0, 0, 0, 0, 0),
            settled("Estate of J. Pryce", 0, 0, 0, 2_000, -2_000)
        ]),
        "estimate_above" => catalogue_with(&[(
            1,
            "Lot 1 Pair of Delft vases, est. 400–600: 450 with paddle 101 (within estimate), asking 460",
        )]),
        "top_by_count" => json!([
            "Lot 3 Harbour at dusk, oil on canvas: 1,250",
            "Lot 1 Pair of Delft vases: 220"
        ]),
        "invoice_vat" => json!([{
            "paddle": 101,
            "buyer": "Ann Carter",
            "country": "FR",
            "lots": [1],
            "hammer": 45_000,
            "premium": 11_250,
            "vat": 2_250,
            "total": 58_500
        }]),
        "commission_running" => json!([
            settled("Mrs Hale", 2, 295_000, 29_500, 0, 265_500),
            settled("Mr Okafor", 0, 0, 0, 0, 0),
            settled("Estate of J. Pryce", 0, 0, 0, 0, 0)
        ]),
        "card_refused_paid" => json!([
            "Paddle 101 Ann Carter: 585.00 authorized",
            "Paddle 102 Ben Ito: 0.00 of 225.00 authorized, 225.00 due at collection"
        ]),
        "broker_grams" => json!(["Paddle 101 to FR: 1 lot(s), 4 kg, 22.00"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a house started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the house does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_auction(slip)?, node, messages).await
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
    || start(Slip::BandEdge),
    || start(Slip::BookRunnerUp),
    || start(Slip::CreditOthers),
    || start(Slip::SoftCloseBook),
    || start(Slip::NetFeesSign),
    || start(Slip::WithdrawalFee),
    || start(Slip::EstimateAbove),
    || start(Slip::TopByCount),
    || start(Slip::InvoiceVat),
    || start(Slip::CommissionRunning),
    || start(Slip::CardRefusedPaid),
    || start(Slip::BrokerGrams),
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
                "blind_auction: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_AUCTION_SLIP", &SLIPS, Slip::None)?;
        let host = start_auction(slip)?;
        let options = McpAdapterOptions::new("blind-auction", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_auction: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_auction: {error}");
        std::process::exit(1);
    }
}
