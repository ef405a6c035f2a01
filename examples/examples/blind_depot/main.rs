//! A parts warehouse's stock and order picking (six parts in their bins, customer orders reserved against stock with
//! back-orders, picking waves, shipments and returns, the clock that lets unpaid reservations lapse, and two services
//! over the network), split over nine files as an app developer would write it, with ordinary mistakes that were not
//! planted with `explain` in mind: a blind test of whether one `explain` call over MCP names the faulty line, written
//! by a tester who had not read how `explain` diagnoses.
//!
//! The depot: its opening stock goes on the shelves when it opens, on Monday at 08:00 (initial commands of
//! `Mvu::with_commands`). A customer's order is opened (`place_order`, with the carrier zone it ships to) and takes
//! lines (`add_line`): each reserves what the shelf has free and back-orders the rest, and a part whose free units
//! fall to its reorder point is reordered from its supplier (a `reorder` command). The customer pays (`pay`); an
//! order still unpaid four hours after it was placed lapses when the clock moves on (`advance`, an `expire` command
//! per order), and its reservations go back on the shelf, to the orders waiting for the part first (`allocate`
//! commands). `release_wave` puts up to three paid, fully reserved orders into a picking wave; the picker confirms
//! what was taken (`pick`), and a fully picked order is packed and shipped (`ship`: its weight and parcels). Goods
//! come back (`return_goods`: undamaged ones go back on the shelf and to waiting orders, damaged ones are written
//! off), arrive from a supplier (`receive`, also given to waiting orders), or move to another bin (`relocate`).
//! Derived: the clock, the stock as a keyed collection (`ranvier::collection`) with each part's shelf label as a row
//! memo and views over it (the shelves in walking order from a `sort_by`, the parts down to their reorder point from
//! a `filter`, the empty bins from a `count_by`), every order and where it stands, the demand per part, the latest
//! wave's pick list and the write-offs; and from two services over the network, as async memos: the carrier's price
//! for each shipment and when each reorder should arrive (the suppliers' lead times).
//!
//! Files: `model.rs` (the types, the messages, the depot's rules as constants, a hand-written `Default` and
//! `PartialEq`), `update.rs` (`update`, with commands, and its helpers), `reserve.rs` and `picking.rs` (rules),
//! `graph.rs` (the `#[expose]` desk, the `#[node]` builder, the desk's lists), `stock.rs` (the collection, its row
//! memo and views), `services.rs` (the async memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module or an `if slip
//! == ...` branch next to the correct code. `--slip <key>` (or `BLIND_DEPOT_SLIP=<key>`) runs the depot with that
//! one mistake; without it the depot is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and
//! the `explain` arguments that show it (`BLIND_DEPOT_SLIP=<key> ranvier-mcp call target/debug/examples/blind_depot
//! explain '<those>'` asks by hand). `cargo run -p ranvier-examples --features blind --example blind_depot -- --report` (a debug build: only traced builds
//! list `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's
//! length (`--answers` adds each answer). Otherwise the depot serves MCP over stdio.

use ranvier_examples::harness;

pub mod graph;
pub mod model;
pub mod picking;
pub mod remote;
pub mod reserve;
pub mod services;
pub mod stock;
pub mod update;

use graph::{DepotDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the depot that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "relocate_lost",
        "a hand-written `PartialEq` that leaves out a field: a part moved to another bin compares equal to the part \
         before the move, so the move is dropped",
        Slip::RelocateLost,
    ),
    (
        "hold_boundary",
        "`>` for `>=` against the hold's end in an `update` helper: an unpaid order lapses a tick late (off by one)",
        Slip::HoldBoundary,
    ),
    (
        "return_no_allocate",
        "a command not sent: an `update` helper drops the `allocate` its restocking helper returned, so returned \
         goods never reach the order waiting for them",
        Slip::ReturnNoAllocate,
    ),
    (
        "expired_backorder",
        "a missing condition in a reservation rule: back-orders are filled for lapsed orders too, oldest first",
        Slip::ExpiredBackorder,
    ),
    (
        "release_ordered",
        "the wrong field in a reservation rule: a lapsed order gives back the units it ordered, not those it held",
        Slip::ReleaseOrdered,
    ),
    (
        "wave_again",
        "a wrong match arm in a picking rule: an order already in a wave counts as ready for the next one",
        Slip::WaveAgain,
    ),
    (
        "demand_tally",
        "the wrong accumulator in a long memo: the units short are added to the units reserved",
        Slip::DemandTally,
    ),
    (
        "write_off_filter",
        "an inverted filter in a long memo: the undamaged returns are written off instead of the damaged",
        Slip::WriteOffFilter,
    ),
    (
        "headroom_swapped",
        "swapped operands of a `saturating_sub` in a row factory's memo: the headroom above the reorder point",
        Slip::HeadroomSwapped,
    ),
    (
        "walk_order",
        "a `sort_by` view's wrong key: the bin's name where the picker's walking position is meant",
        Slip::WalkOrder,
    ),
    (
        "quote_grams",
        "a wrong unit in an async memo's future: grams passed to the carrier where kilograms are asked for",
        Slip::QuoteGrams,
    ),
    (
        "due_from_today",
        "the wrong captured value in an async memo's future: a reorder's due day counted from today, not from the day \
         it was raised",
        Slip::DueFromToday,
    ),
];

/// What the graph thread keeps: the depot and its exposure.
pub type DepotHost = harness::ExposedHost<DepotDesk>;

/// Starts the depot with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_depot(slip: Slip) -> Result<DepotHost, HostError> {
    harness::start_exposed(move || graph::depot_desk(slip))
}

/// The depot with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::depot_desk(slip), "blind-depot")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the depot, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("reserve.rs", include_str!("reserve.rs")),
    ("picking.rs", include_str!("picking.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("stock.rs", include_str!("stock.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the depot holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the depot")
}

fn place_order(order: u32, customer: &str, zone: &str) -> Value {
    msg(
        "place_order",
        json!({"order": order, "customer": customer, "zone": zone}),
    )
}
fn add_line(order: u32, sku: &str, qty: u32) -> Value {
    msg("add_line", json!({"order": order, "sku": sku, "qty": qty}))
}
fn pay(order: u32) -> Value {
    msg("pay", json!({ "order": order }))
}
fn advance(minutes: u32) -> Value {
    msg("advance", json!({ "minutes": minutes }))
}
fn release_wave() -> Value {
    msg("release_wave", json!({}))
}
fn pick(order: u32, sku: &str, qty: u32) -> Value {
    msg("pick", json!({"order": order, "sku": sku, "qty": qty}))
}
fn ship(order: u32) -> Value {
    msg("ship", json!({ "order": order }))
}
fn return_goods(order: u32, sku: &str, qty: u32, damaged: bool) -> Value {
    msg(
        "return_goods",
        json!({"order": order, "sku": sku, "qty": qty, "damaged": damaged}),
    )
}
fn receive(sku: &str, qty: u32) -> Value {
    msg("receive", json!({"sku": sku, "qty": qty}))
}
fn relocate(sku: &str, bin: &str) -> Value {
    msg("relocate", json!({"sku": sku, "bin": bin}))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the depot opens on Monday at 08:00 with FLT-220 Oil filter in A-01-3 (30 on hand, reorder at 10,
/// Ferro), BRK-110 Brake pad set in A-02-1 (12, at 4, Ferro, 900 g, 24.00), SPK-330 Spark plug in B-04-2 (48, at
/// 12, Ignis), BLT-440 Timing belt in B-01-1 (3, at 2, Ignis), BAT-660 Battery 70Ah in C-01-1 (5, at 2, Voltix) and
/// WPR-550 Wiper blade in C-03-2 (none, at 5, Klar); the picker walks up aisle A, down aisle B, up aisle C; an
/// unpaid order lapses 4 hours after it was placed; the carrier charges per parcel and per started kilogram (N1:
/// 4.50 and 0.80), and Ferro delivers in 2 days).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // the brake pads move to C-02-1, between the battery and the wipers; shows them still in A-02-1
        "relocate_lost" => ("shelves", json!([relocate("BRK-110", "C-02-1")])),
        // Ada's order, unpaid, lapses at 12:00 sharp; shows it still holding 2 until 12:00
        "hold_boundary" => (
            "orders",
            json!([
                place_order(1, "Ada", "N1"),
                add_line(1, "BRK-110", 2),
                advance(240)
            ]),
        ),
        // Bo sends back one of the three belts shipped to him: it goes to Ada, who waits for one; shows her short
        "return_no_allocate" => (
            "orders",
            json!([
                place_order(1, "Bo", "N1"),
                add_line(1, "BLT-440", 3),
                pay(1),
                release_wave(),
                pick(1, "BLT-440", 3),
                ship(1),
                place_order(2, "Ada", "S2"),
                add_line(2, "BLT-440", 1),
                return_goods(1, "BLT-440", 1, false)
            ]),
        ),
        // Ada's order for 3 wipers lapsed; Bo's for 2 gets 2 of the 3 that arrive; shows Bo 2 short (Ada got them)
        "expired_backorder" => (
            "orders",
            json!([
                place_order(1, "Ada", "N1"),
                add_line(1, "WPR-550", 3),
                advance(240),
                place_order(2, "Bo", "S2"),
                add_line(2, "WPR-550", 2),
                receive("WPR-550", 3)
            ]),
        ),
        // Bo (paid) holds 1 belt, Ada 2 of the 4 she ordered; Ada's lapses: 1 held, 2 free; shows 3 free
        "release_ordered" => (
            "shelves",
            json!([
                place_order(1, "Bo", "N1"),
                add_line(1, "BLT-440", 1),
                pay(1),
                place_order(2, "Ada", "N1"),
                add_line(2, "BLT-440", 4),
                advance(240)
            ]),
        ),
        // wave 1 has Ada's order, wave 2 Bo's alone; shows Ada's again in wave 2
        "wave_again" => (
            "pick_list",
            json!([
                place_order(1, "Ada", "N1"),
                add_line(1, "BRK-110", 2),
                pay(1),
                release_wave(),
                place_order(2, "Bo", "S2"),
                add_line(2, "FLT-220", 1),
                pay(2),
                release_wave()
            ]),
        ),
        // Ada waits for 2 wipers and holds 2 belts; shows the wipers as 2 reserved, 0 short
        "demand_tally" => (
            "demand",
            json!([
                place_order(1, "Ada", "N1"),
                add_line(1, "WPR-550", 2),
                add_line(1, "BLT-440", 2)
            ]),
        ),
        // of the 3 brake pad sets shipped to Ada, 1 comes back damaged and 2 undamaged: 1 written off, 24.00; shows 2
        "write_off_filter" => (
            "write_offs",
            json!([
                place_order(1, "Ada", "N1"),
                add_line(1, "BRK-110", 3),
                pay(1),
                release_wave(),
                pick(1, "BRK-110", 3),
                ship(1),
                return_goods(1, "BRK-110", 1, true),
                return_goods(1, "BRK-110", 2, false)
            ]),
        ),
        // Ada holds 2 brake pad sets: 10 free, well above 4; shows every part on the shelves as to reorder
        "headroom_swapped" => (
            "shelves",
            json!([place_order(1, "Ada", "N1"), add_line(1, "BRK-110", 2)]),
        ),
        // the shelves in walking order, down aisle B (B-04-2 before B-01-1); shows B-01-1 first
        "walk_order" => (
            "shelves",
            json!([place_order(1, "Ada", "N1"), add_line(1, "SPK-330", 10)]),
        ),
        // Ada's 3 brake pad sets ship in one parcel of 3.0 kg to N1: 4.50 + 3 × 0.80 = 6.90; shows 2404.50
        "quote_grams" => (
            "quotes",
            json!([
                place_order(1, "Ada", "N1"),
                add_line(1, "BRK-110", 3),
                pay(1),
                release_wave(),
                pick(1, "BRK-110", 3),
                ship(1)
            ]),
        ),
        // the oil filters reordered on Monday from Ferro (2 days) are due Wednesday, tomorrow on Tuesday; shows Thursday
        "due_from_today" => (
            "arrivals",
            json!([
                place_order(1, "Ada", "N1"),
                add_line(1, "FLT-220", 20),
                pay(1),
                advance(1440)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct depot after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    const FLT: &str = "A-01-3 FLT-220 Oil filter: 30 on hand (10.5 kg), 30 free";
    const BRK: &str = "A-02-1 BRK-110 Brake pad set: 12 on hand (10.8 kg), 12 free";
    const SPK: &str = "B-04-2 SPK-330 Spark plug: 48 on hand (2.9 kg), 48 free";
    const BLT: &str = "B-01-1 BLT-440 Timing belt: 3 on hand (1.2 kg), 3 free";
    const BAT: &str = "C-01-1 BAT-660 Battery 70Ah: 5 on hand (90.0 kg), 5 free";
    const WPR: &str = "C-03-2 WPR-550 Wiper blade: 0 on hand (0.0 kg), empty";
    match key {
        "relocate_lost" => json!([
            FLT,
            SPK,
            BLT,
            BAT,
            "C-02-1 BRK-110 Brake pad set: 12 on hand (10.8 kg), 12 free",
            WPR
        ]),
        "hold_boundary" => json!(["#1 Ada (N1): expired"]),
        "return_no_allocate" => json!([
            "#1 Bo (N1): shipped as S1",
            "#2 Ada (S2): 1 of 1 reserved, unpaid until Mon 12:00"
        ]),
        "expired_backorder" => json!([
            "#1 Ada (N1): expired",
            "#2 Bo (S2): 2 of 2 reserved, unpaid until Mon 16:00"
        ]),
        "release_ordered" => json!([
            FLT,
            BRK,
            SPK,
            "B-01-1 BLT-440 Timing belt: 3 on hand (1.2 kg), 2 free, reorder",
            BAT,
            WPR
        ]),
        "wave_again" => json!([
            "wave 2 (#2), released Mon 08:00",
            "A-01-3 FLT-220 ×1 for #2"
        ]),
        "demand_tally" => json!([
            "BLT-440: 2 reserved, 0 short (#1)",
            "WPR-550: 0 reserved, 2 short (#1)"
        ]),
        "write_off_filter" => json!(["BRK-110 Brake pad set: 1 written off, 24.00", "total 24.00"]),
        "headroom_swapped" => json!([
            FLT,
            "A-02-1 BRK-110 Brake pad set: 12 on hand (10.8 kg), 10 free",
            SPK,
            BLT,
            BAT,
            WPR
        ]),
        "walk_order" => json!([
            FLT,
            BRK,
            "B-04-2 SPK-330 Spark plug: 48 on hand (2.9 kg), 38 free",
            BLT,
            BAT,
            WPR
        ]),
        "quote_grams" => json!(["S1 for #1 to N1: 1 parcel, 3.0 kg, 6.90"]),
        "due_from_today" => json!(["FLT-220 ×40 from Ferro: due Wed, tomorrow"]),
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a depot started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the depot does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_depot(slip)?, node, messages).await
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
    || start(Slip::RelocateLost),
    || start(Slip::HoldBoundary),
    || start(Slip::ReturnNoAllocate),
    || start(Slip::ExpiredBackorder),
    || start(Slip::ReleaseOrdered),
    || start(Slip::WaveAgain),
    || start(Slip::DemandTally),
    || start(Slip::WriteOffFilter),
    || start(Slip::HeadroomSwapped),
    || start(Slip::WalkOrder),
    || start(Slip::QuoteGrams),
    || start(Slip::DueFromToday),
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
                "blind_depot: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_DEPOT_SLIP", &SLIPS, Slip::None)?;
        let host = start_depot(slip)?;
        let options = McpAdapterOptions::new("blind-depot", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_depot: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_depot: {error}");
        std::process::exit(1);
    }
}
