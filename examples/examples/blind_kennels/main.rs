//! A boarding kennels and cattery (pens of four sizes with nightly rates by size and season, stays booked by owners
//! for one or more pets, check-in against the pets' vaccinations, the kitchen's food list and the medication round,
//! the walk rota, add-ons, a deposit at booking refunded by the notice given, a multi-pet discount, the occupancy
//! board, the week's takings, and two services over the network), split over ten files as an app developer would
//! write it, with ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one
//! `explain` call over MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The kennels: day 100, seven pens (two small, two medium, one large, two cattery units), the regulars' pets on
//! file (the Smiths' Rex and Bella, the Patels' Biscuit, the Okafors' cats Tom and Tibbles, the Joneses' Max and
//! Luna), and Kim, Lee and Sam on the walk rota. The desk books stays (`book`: one owner's pets into one pen from an
//! arrival day for a number of nights, refused when a pet does not fit the pen, the pen cannot take that many, or
//! another stay has it; a fifth of the boarding after the multi-pet discount is taken as a deposit), checks them in
//! (`check_in`: on the arrival day, each pet's vaccinations in date until departure; the dogs go on the walk rota by
//! a `PlanWalks` command) and out (`check_out`: the bill less the deposit is paid), cancels them (`cancel`: the
//! deposit comes back in full with a fortnight's notice, half with a week's, by a `Refund` command), books add-ons
//! (`add_on`: grooming, extra walks), records vaccinations (`vaccinate`) and moves the calendar on (`advance`).
//! Derived: today and its season (the Easter holidays, days 103–116, are high season), the occupancy board, the
//! kitchen's food list, the medication round, the walk rota, the week's takings and the notices; the stays, a keyed
//! collection (`ranvier::collection`) with each stay's bill as a row memo and views over it (the departures in order,
//! from a `sort_by`; the stays in house, a `filter`; the arrivals to come, a `count_by`); and from two services over
//! the network, as async memos: the booked pets whose vaccinations, by the vets' record, run out before they go
//! home, and the deposits the card processor holds.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`, methods on the model's types), `update.rs`
//! (`update`, its helpers, with commands), `tariffs.rs` (rates, discount, deposit), `limits.rs` (pens and
//! vaccinations), `rules.rs` (refunds and walks), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the longer
//! memos), `stays.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs` (the
//! services).
//!
//! The mistakes: two in async memos' futures (a `break` for a `continue`, pence sent as pounds), two in the keyed
//! collection (its row memo prices every night at the arrival day's season; its `sort_by` view sorts on the wrong
//! field), two in `update`'s helpers (swapped arguments; a command carrying the pen for the stay), three in rule
//! modules (a merged match arm in the tariff both the row memo and `update` call; `<` for `<=` in the pen limit and
//! refund tiers tested in the wrong order, both called by `update`), two in long memos (a stale capture of today;
//! `=` for `+=`), and one in a model type's method (a wrong default).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_KENNELS_SLIP=<key>`) runs the kennels with that one mistake; without it
//! the kennels are correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain`
//! arguments that show it. `cargo run -p ranvier-examples --features blind --example blind_kennels -- --report` (a debug build: only traced builds list
//! `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length
//! (`--answers` adds each answer). Otherwise the kennels serve MCP over stdio.

use ranvier_examples::harness;

pub mod graph;
pub mod limits;
pub mod model;
pub mod remote;
pub mod rules;
pub mod services;
pub mod stays;
pub mod tariffs;
pub mod update;

use graph::{KennelsDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the kennels that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "vet_second_pet",
        "an early exit in an async memo's future: `break` for `continue`, so a stay's pets after a covered one go unchecked",
        Slip::VetSecondPet,
    ),
    (
        "deposit_pence",
        "a wrong unit in an async memo's future: the deposit in pence sent to a processor that takes pounds",
        Slip::DepositPence,
    ),
    (
        "bill_season",
        "a wrong variable in a row factory's memo: every night priced at the arrival day's season",
        Slip::BillSeason,
    ),
    (
        "departure_order",
        "a wrong sort key in a `sort_by` view: the departures ordered by arrival day",
        Slip::DepartureOrder,
    ),
    (
        "cancel_refund",
        "swapped arguments in an `update` helper: the refund rule gets the notice as the deposit",
        Slip::CancelRefund,
    ),
    (
        "walks_for_pen",
        "a wrong field in an `update` helper's command: the walks are planned for the pen's number, not the stay's",
        Slip::WalksForPen,
    ),
    (
        "cattery_rate",
        "a wrong match arm in the tariff a row memo and `update` call: cattery units charged the small pens' rate",
        Slip::CatteryRate,
    ),
    (
        "pen_capacity",
        "off by one in a limit `update` calls: `<` for `<=`, so a pen never takes as many pets as it holds",
        Slip::PenCapacity,
    ),
    (
        "refund_tiers",
        "tests in the wrong order in a rule `update` calls: the half-refund tier catches a fortnight's notice",
        Slip::RefundTiers,
    ),
    (
        "kitchen_total",
        "a wrong accumulator in a long memo: each pet's grams replace the food's total instead of adding to it",
        Slip::KitchenTotal,
    ),
    (
        "board_today",
        "a stale capture in a long memo's builder: today read once, outside the memo",
        Slip::BoardToday,
    ),
    (
        "meals_default",
        "a wrong default in a model type's method: a pet without a meal plan gets no meals",
        Slip::MealsDefault,
    ),
];

/// What the graph thread keeps: the kennels and their exposure.
pub type KennelsHost = harness::ExposedHost<KennelsDesk>;

/// Starts the kennels with `slip` on their own graph thread, and exposes them.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_kennels(slip: Slip) -> Result<KennelsHost, HostError> {
    harness::start_exposed(move || graph::kennels_desk(slip))
}

/// The kennels with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::kennels_desk(slip), "blind-kennels")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the kennels, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("tariffs.rs", include_str!("tariffs.rs")),
    ("limits.rs", include_str!("limits.rs")),
    ("rules.rs", include_str!("rules.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("stays.rs", include_str!("stays.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the kennels holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the kennels")
}

fn book(owner: &str, pets: &[&str], pen: u32, arrive: u32, nights: u32) -> Value {
    msg(
        "book",
        json!({"owner": owner, "pets": pets, "pen": pen, "arrive": arrive, "nights": nights}),
    )
}
fn check_in(stay: u32) -> Value {
    msg("check_in", json!({ "stay": stay }))
}
fn cancel(stay: u32) -> Value {
    msg("cancel", json!({ "stay": stay }))
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment). The kennels open on day 100 (low season; days 103–116 high); a night is £18.00 in a small pen,
/// £22.00 medium, £26.00 large, £14.00 in the cattery, a quarter more in high season; two pets sharing take a tenth
/// off; the deposit is a fifth. Pens 1–2 small (one pet), 3–4 medium, 5 large, 6–7 cattery (two pets each).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // Rex is covered until 130 but Bella only until 104, before day 113: Bella is flagged; shows every pet covered
        "vet_second_pet" => (
            "vet_checks",
            json!([book("Smith", &["Rex", "Bella"], 5, 110, 3)]),
        ),
        // Rex's two low-season nights in the large pen, £52.00: a deposit of £10.40 held; shows £1040.00 refused
        "deposit_pence" => ("deposits", json!([book("Smith", &["Rex"], 5, 120, 2)])),
        // Biscuit's nights 101–104: two low at £18.00, two high at £22.50, £81.00; shows £72.00
        "bill_season" => ("stays", json!([book("Patel", &["Biscuit"], 1, 101, 4)])),
        // Luna leaves on day 102, the cats on day 105: Luna first; shows the cats first (they arrive first)
        "departure_order" => (
            "departures",
            json!([
                book("Okafor", &["Tom", "Tibbles"], 6, 100, 5),
                book("Jones", &["Luna"], 3, 101, 1)
            ]),
        ),
        // cancelled twenty days ahead: the whole £10.40 deposit back; shows £0.20 refunded
        "cancel_refund" => (
            "takings",
            json!([book("Smith", &["Rex"], 5, 120, 2), cancel(1)]),
        ),
        // Rex checks in: his three walks on the rota; shows no walks (planned for stay 5, the pen)
        "walks_for_pen" => (
            "walk_rota",
            json!([book("Smith", &["Rex"], 5, 100, 2), check_in(1)]),
        ),
        // Tom's two low-season nights in the cattery: £28.00; shows £36.00
        "cattery_rate" => ("stays", json!([book("Okafor", &["Tom"], 6, 120, 2)])),
        // Tom and Tibbles share cattery unit 6 (it takes two): expected today; shows unit 6 free (refused)
        "pen_capacity" => (
            "occupancy",
            json!([book("Okafor", &["Tom", "Tibbles"], 6, 100, 2)]),
        ),
        // Luna cancelled twenty-five days ahead: the whole £4.40 back; shows £2.20
        "refund_tiers" => (
            "takings",
            json!([book("Jones", &["Luna"], 3, 125, 1), cancel(1)]),
        ),
        // Rex (600g) and Bella (400g) both eat kibble: 1000g a day; shows 400g
        "kitchen_total" => (
            "kitchen",
            json!([book("Smith", &["Rex", "Bella"], 5, 100, 3), check_in(1)]),
        ),
        // Biscuit due on day 102; two days on, the board expects him in pen 1; shows pen 1 free
        "board_today" => (
            "occupancy",
            json!([book("Patel", &["Biscuit"], 1, 102, 2), advance(2)]),
        ),
        // Tom three meals of 80g, Tibbles the usual two of 70g: 380g of wet food; shows 240g, Tibbles 0 meals
        "meals_default" => (
            "kitchen",
            json!([book("Okafor", &["Tom", "Tibbles"], 6, 100, 2), check_in(1)]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct kennels after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "vet_second_pet" => json!([
            "stay 1 (Smith: Rex, Bella): Bella's vaccinations run out on day 104, before day 113"
        ]),
        "deposit_pence" => json!(["stay 1 (Smith: Rex): £10.40 held, fee £0.35"]),
        "bill_season" => json!([stay(
            1,
            ("Patel", &["Biscuit"], 1, "small"),
            (101, 105, 1620),
            "4 nights (2 in high season) for 1: £81.00, less £0.00, extras £0.00, total £81.00; to pay £64.80"
        )]),
        "departure_order" => json!([
            "day 102: stay 2 (Jones: Luna)",
            "day 105: stay 1 (Okafor: Tom, Tibbles)"
        ]),
        "cancel_refund" => takings("£10.40", "£10.40", "£0.00"),
        "walks_for_pen" => json!(["08:00 Rex: Kim", "13:00 Rex: Lee", "18:00 Rex: Sam"]),
        "cattery_rate" => json!([stay(
            1,
            ("Okafor", &["Tom"], 6, "cattery"),
            (120, 122, 560),
            "2 nights (0 in high season) for 1: £28.00, less £0.00, extras £0.00, total £28.00; to pay £22.40"
        )]),
        "pen_capacity" => board(6, "expecting Tom, Tibbles (Okafor)"),
        "refund_tiers" => takings("£4.40", "£4.40", "£0.00"),
        "kitchen_total" => json!(["kibble: 1000g a day (Rex 2×300g, Bella 2×200g)"]),
        "board_today" => board(1, "expecting Biscuit (Patel)"),
        "meals_default" => json!(["wet cat food: 380g a day (Tom 3×80g, Tibbles 2×70g)"]),
        other => panic!("no mistake {other}"),
    }
}

/// A booked stay's row as the collection publishes it: (owner, pets, pen, size), (arrive, depart, deposit), bill.
fn stay(
    id: u32,
    (owner, pets, pen, size): (&str, &[&str], u32, &str),
    days: (u32, u32, u32),
    bill: &str,
) -> Value {
    let (arrive, depart, deposit) = days;
    json!({
        "key": id, "owner": owner, "pets": pets, "pen": pen, "size": size, "arrive": arrive, "depart": depart,
        "booked_on": 100, "deposit": deposit, "addons": [], "status": "booked", "bill": bill
    })
}

/// The week's takings on day 100, with nothing paid at check-out.
fn takings(deposits: &str, refunds: &str, net: &str) -> Value {
    json!([
        "days 94–100",
        format!("deposits: {deposits}"),
        "balances: £0.00",
        format!("refunds: {refunds}"),
        format!("net: {net}")
    ])
}

/// The occupancy board with every pen free but `pen`, which shows `line`.
fn board(pen: u32, line: &str) -> Value {
    let sizes = [
        "small", "small", "medium", "medium", "large", "cattery", "cattery",
    ];
    let lines: Vec<String> = (1..=7_u32)
        .zip(sizes)
        .map(|(id, size)| {
            let what = if id == pen { line } else { "free" };
            format!("pen {id} ({size}): {what}")
        })
        .collect();
    json!(lines)
}

/// The value of `node` in the kennels started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the kennels do not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_kennels(slip)?, node, messages).await
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
    || start(Slip::VetSecondPet),
    || start(Slip::DepositPence),
    || start(Slip::BillSeason),
    || start(Slip::DepartureOrder),
    || start(Slip::CancelRefund),
    || start(Slip::WalksForPen),
    || start(Slip::CatteryRate),
    || start(Slip::PenCapacity),
    || start(Slip::RefundTiers),
    || start(Slip::KitchenTotal),
    || start(Slip::BoardToday),
    || start(Slip::MealsDefault),
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
                "blind_kennels: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_KENNELS_SLIP", &SLIPS, Slip::None)?;
        let host = start_kennels(slip)?;
        let options = McpAdapterOptions::new("blind-kennels", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_kennels: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_kennels: {error}");
        std::process::exit(1);
    }
}
