//! A print shop (customers' jobs quoted by paper, size, colour and quantity, proofs approved or sent back, two
//! presses with their queues and set-up times, the paper stock by sheet size, the bench that cuts, folds and
//! stitches, and the door the finished jobs leave by, with two services over the network), split over ten files as
//! an app developer would write it, with ordinary mistakes that were not planted with `explain` in mind: a blind test
//! of whether one `explain` call over MCP names the faulty line, written by a tester who had not read how `explain`
//! diagnoses.
//!
//! The shop opens on Monday at 08:00 with two presses (Indigo, digital, on SRA3 sheets, 10 minutes to set up, 2,400
//! sheets an hour; Speedmaster, offset, on B2 sheets, 45 minutes to set up, 9,000 sheets an hour) and paper on five
//! shelves (silk 150 and uncoated 100 in SRA3 and B2, card 300 in SRA3). A customer orders a job (`order`: paper,
//! size, mono or colour, copies, finishing, courier or collected, the day it is due): it goes to the offset press from
//! 2,000 copies (card never does), and it is quoted at once (make-ready, paper and clicks per press sheet, the bench).
//! A proof goes out (`send_proof`) and comes back approved (`approve`: the job is booked on its press, as a
//! `Schedule` command, with the sheets it takes reserved) or sent back (`reject`: two rounds are free, the third and
//! later are charged). A press prints the first job in its queue (`run`: the sheets come off the shelf and the clock
//! moves on; flat sheets are finished at once, as a `Finish` command), the bench finishes the rest (`finish`), and a
//! finished job goes (`dispatch`: invoiced). Paper arrives (`restock`). Derived: the clock, the quotes, the press
//! load, the paper free on each shelf, the bench's work, the jobs ready to go and what was invoiced; the job board, a
//! keyed collection (`ranvier::collection`) with each job's cartons as a row memo and views over it (the proofs out,
//! from a `filter`, the colour jobs, from a `count_by`, and the jobs by the day they are due, from a `sort_by`); and
//! from two services over the network, as async memos: what the courier charges for each parcel, and when the paper
//! mill can deliver the paper that runs short.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update`, with commands, and
//! its helpers), `pricing.rs`, `presses.rs` and `finishing.rs` (the rules), `graph.rs` (the `#[expose]` app, the
//! `#[node]` builder, the memos), `jobs.rs` (the collection, its row factory and views), `services.rs` (the async
//! memos), `remote.rs` (the services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_PRINTSHOP_SLIP=<key>`) runs the shop with that one mistake; without it the
//! shop is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_PRINTSHOP_SLIP=<key> ranvier-mcp call target/debug/examples/blind_printshop explain '<those>'`
//! asks by hand). `cargo run -p ranvier-examples --features blind --example blind_printshop -- --report` (a debug build: only traced builds list
//! `explain`) prints, per mistake, whether one call named the faulty `file:line`, where, and the answer's length
//! (`--answers` adds each answer). Otherwise the shop serves MCP over stdio.

use ranvier_examples::harness;

pub mod finishing;
pub mod graph;
pub mod jobs;
pub mod model;
pub mod presses;
pub mod pricing;
pub mod remote;
pub mod services;
pub mod update;

use graph::{PrintShop, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the shop that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "offset_setup",
        "a hand-written `Default` whose offset press line was copied from the digital one and kept its set-up time",
        Slip::OffsetSetup,
    ),
    (
        "proof_rounds",
        "`>=` for `>` in an `update` helper: the second proof sent back is charged, not the third (off by one)",
        Slip::ProofRounds,
    ),
    (
        "flat_finish_dropped",
        "a command not sent: an `update` helper builds the `Finish` for flat sheets and returns an empty list",
        Slip::FlatFinishDropped,
    ),
    (
        "click_per_sheet",
        "missing parentheses in a pricing rule called from `update`: the click is charged once, not per sheet",
        Slip::ClickPerSheet,
    ),
    (
        "bind_minutes",
        "a wrong match arm in a bench rule called from a memo: stitching is timed as folding",
        Slip::BindMinutes,
    ),
    (
        "imposition_args",
        "swapped arguments in a press rule called through a fn value: the copy is laid out on the sheet reversed, 1-up",
        Slip::ImpositionArgs,
    ),
    (
        "press_load_printed",
        "a missing condition in a long memo: jobs already printed still count in a press's queue",
        Slip::PressLoadPrinted,
    ),
    (
        "reserved_carried",
        "an accumulator declared outside the loop in a long memo: each shelf's reserved sheets carry the shelves before",
        Slip::ReservedCarried,
    ),
    (
        "carton_count",
        "rounding down where up is meant in a row factory's memo: a job smaller than a carton packs into none",
        Slip::CartonCount,
    ),
    (
        "due_order",
        "a `sort_by` view's key without its `Reverse`: the smallest job of a day comes first, not the biggest",
        Slip::DueOrder,
    ),
    (
        "courier_weight",
        "the wrong captured value in an async memo's future: each parcel priced at the whole van's weight",
        Slip::CourierWeight,
    ),
    (
        "mill_unlisted",
        "a failure turned into a default in an async memo's future: paper the mill does not list arrives in 0 days",
        Slip::MillUnlisted,
    ),
];

/// What the graph thread keeps: the shop and its exposure.
pub type ShopHost = harness::ExposedHost<PrintShop>;

/// Starts the shop with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_shop(slip: Slip) -> Result<ShopHost, HostError> {
    harness::start_exposed(move || graph::print_shop(slip))
}

/// The shop with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::print_shop(slip), "blind-printshop")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the shop, by name.
const FILES: [(&str, &str); 10] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("pricing.rs", include_str!("pricing.rs")),
    ("presses.rs", include_str!("presses.rs")),
    ("finishing.rs", include_str!("finishing.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("jobs.rs", include_str!("jobs.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the shop holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the print shop")
}

/// A job as the counter takes it: `"silk A5 colour 500 trim courier 2"` is 500 A5 copies on silk, in colour,
/// trimmed, by courier, due on Tuesday (`collect` for collected).
fn order(customer: &str, job: &str) -> Value {
    let f: Vec<&str> = job.split_whitespace().collect();
    msg(
        "order",
        json!({
            "customer": customer,
            "paper": f[0],
            "size": f[1],
            "colour": f[2],
            "quantity": f[3].parse::<u32>().expect("copies"),
            "finish": f[4],
            "courier": f[5] == "courier",
            "due": f[6].parse::<u32>().expect("a day"),
        }),
    )
}
fn send_proof(job: u32) -> Value {
    msg("send_proof", json!({ "job": job }))
}
fn approve(job: u32) -> Value {
    msg("approve", json!({ "job": job }))
}
fn reject(job: u32) -> Value {
    msg("reject", json!({ "job": job }))
}
fn run(press: &str) -> Value {
    msg("run", json!({ "press": press }))
}
fn finish(job: u32) -> Value {
    msg("finish", json!({ "job": job }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the shop opens on Monday at 08:00, Indigo digital on SRA3 (10 min set-up, 2,400 sheets an hour),
/// Speedmaster offset on B2 (45 min, 9,000 an hour) from 2,000 copies; A5 goes 4-up on SRA3, A4 2-up, A6 8-up,
/// A4 4-up on B2; 5% overs; silk 6p a SRA3 sheet, uncoated 4p, card 15p; digital clicks 2p mono, 9p colour).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // 3,000 A4 on the offset press: 788 B2 sheets, 45 min set-up + 6 min: free at 08:51; shows 08:16
        "offset_setup" => (
            "press_load",
            json!([
                order("Cy", "silk A4 colour 3000 fold courier 3"),
                send_proof(1),
                approve(1)
            ]),
        ),
        // Ada sends two proofs back, both free: £34.80; shows £46.80
        "proof_rounds" => (
            "quotes",
            json!([
                order("Ada", "silk A5 colour 500 trim courier 2"),
                send_proof(1),
                reject(1),
                send_proof(1),
                reject(1)
            ]),
        ),
        // Ada's flat sheets come off the press finished and ready to go; shows nothing ready
        "flat_finish_dropped" => (
            "ready",
            json!([
                order("Ada", "uncoated A4 mono 200 flat courier 1"),
                send_proof(1),
                approve(1),
                run("Indigo")
            ]),
        ),
        // 132 sheets at 6p + 9p, £10.00 make-ready, £5.00 trimming: £34.80; shows £23.01
        "click_per_sheet" => (
            "quotes",
            json!([
                order("Ada", "silk A5 colour 500 trim courier 2"),
                order("Bo", "uncoated A4 mono 300 flat collect 2")
            ]),
        ),
        // 400 copies to stitch, ten a minute: 40 min; shows 4 min
        "bind_minutes" => (
            "bench",
            json!([
                order("Bo", "silk A4 colour 400 bind courier 3"),
                send_proof(1),
                approve(1),
                run("Indigo")
            ]),
        ),
        // 500 A5 4-up: 132 silk SRA3 sheets reserved, 1,368 free; shows 525 reserved
        "imposition_args" => (
            "stock",
            json!([
                order("Ada", "silk A5 colour 500 trim courier 2"),
                send_proof(1),
                approve(1)
            ]),
        ),
        // Ada's job printed, Bo's queued: Indigo has one job left; shows both
        "press_load_printed" => (
            "press_load",
            json!([
                order("Ada", "silk A5 colour 500 trim courier 2"),
                send_proof(1),
                approve(1),
                run("Indigo"),
                order("Bo", "uncoated A4 mono 300 flat collect 2"),
                send_proof(2),
                approve(2)
            ]),
        ),
        // 132 silk and 158 uncoated SRA3 sheets reserved; shows 290 on uncoated and on every shelf after
        "reserved_carried" => (
            "stock",
            json!([
                order("Ada", "silk A5 colour 500 trim courier 2"),
                order("Bo", "uncoated A4 mono 300 flat collect 2"),
                send_proof(1),
                approve(1),
                send_proof(2),
                approve(2)
            ]),
        ),
        // 500 A5 on silk, 3,846 to a carton: one carton; shows none
        "carton_count" => (
            "jobs",
            json!([order("Ada", "silk A5 colour 500 trim courier 2")]),
        ),
        // Tuesday's job, then Wednesday's 3,000 before its 500; shows the 500 first
        "due_order" => (
            "due_list",
            json!([
                order("Ada", "silk A5 colour 500 trim courier 3"),
                order("Bo", "silk A4 colour 3000 fold courier 3"),
                order("Cy", "uncoated A4 mono 200 flat collect 2")
            ]),
        ),
        // Ada's 1.6 kg is £6.50, Bo's 2.7 kg £8.95; shows Ada's at £8.95 (the van's 4.3 kg)
        "courier_weight" => (
            "courier",
            json!([
                order("Ada", "uncoated A4 mono 200 flat courier 1"),
                order("Bo", "silk A5 colour 500 trim courier 1"),
                send_proof(1),
                approve(1),
                send_proof(2),
                approve(2),
                run("Indigo"),
                run("Indigo"),
                finish(2)
            ]),
        ),
        // 198 sheets of card booked leave 202, under 250: the mill has no card; shows it delivering in 0 days
        "mill_unlisted" => (
            "reorders",
            json!([
                order("Cy", "card A6 colour 1500 trim collect 4"),
                send_proof(1),
                approve(1)
            ]),
        ),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct shop after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    let shelf = |paper: &str, sheet: &str, on_shelf: u32, reserved: u32, reorder_at: u32| {
        let free = on_shelf - reserved;
        json!({"paper": paper, "sheet": sheet, "onShelf": on_shelf, "reserved": reserved, "free": free,
            "reorder": free < reorder_at})
    };
    match key {
        "offset_setup" => json!([
            "Indigo: idle",
            "Speedmaster: 1 queued, 0h51, free at Mon 08:51"
        ]),
        "proof_rounds" => json!(["J1 Ada: 500 A5 silk 150, colour, trimmed, £34.80 (Quoted)"]),
        "flat_finish_dropped" => json!(["J1 Ada: 1 cartons, 1.6 kg, courier"]),
        "click_per_sheet" => json!([
            "J1 Ada: 500 A5 silk 150, colour, trimmed, £34.80 (Quoted)",
            "J2 Bo: 300 A4 uncoated 100, mono, flat, £19.48 (Quoted)"
        ]),
        "bind_minutes" => json!(["J1 Bo: stitch 400, 40 min", "bench: 0h40"]),
        "imposition_args" => json!([
            shelf("silk", "sra3", 1500, 132, 300),
            shelf("uncoated", "sra3", 1000, 0, 300),
            shelf("card", "sra3", 400, 0, 250),
            shelf("silk", "b2", 4000, 0, 1000),
            shelf("uncoated", "b2", 2000, 0, 1000)
        ]),
        "press_load_printed" => json!([
            "Indigo: 1 queued, 0h14, free at Mon 08:28",
            "Speedmaster: idle"
        ]),
        "reserved_carried" => json!([
            shelf("silk", "sra3", 1500, 132, 300),
            shelf("uncoated", "sra3", 1000, 158, 300),
            shelf("card", "sra3", 400, 0, 250),
            shelf("silk", "b2", 4000, 0, 1000),
            shelf("uncoated", "b2", 2000, 0, 1000)
        ]),
        "carton_count" => json!([{
            "key": 1, "customer": "Ada", "paper": "silk", "size": "A5", "colour": "colour", "quantity": 500,
            "finish": "trim", "courier": true, "due": 2, "stage": "quoted", "proofs": 0, "quote": 3480, "extras": 0,
            "press": null, "sheets": 0, "cartons": 1
        }]),
        "due_order" => json!([
            "Tue J3 Cy: 200 A4 uncoated 100, mono, flat (Quoted)",
            "Wed J2 Bo: 3000 A4 silk 150, colour, folded (Quoted)",
            "Wed J1 Ada: 500 A5 silk 150, colour, trimmed (Quoted)"
        ]),
        "courier_weight" => json!([
            "van: 2 parcels, 4.3 kg",
            "J1 Ada, 1.6 kg: £6.50",
            "J2 Bo, 2.7 kg: £8.95"
        ]),
        "mill_unlisted" => {
            json!(["card 300 SRA3: 202 free, the mill does not list card 300: ask the merchant"])
        }
        other => panic!("no mistake {other}"),
    }
}

/// The value of `node` in a shop started with `slip`, after `messages` (a JSON array of `{message, args}`) ran and
/// the flights they started settled.
///
/// # Errors
///
/// When the shop does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_shop(slip)?, node, messages).await
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
    || start(Slip::OffsetSetup),
    || start(Slip::ProofRounds),
    || start(Slip::FlatFinishDropped),
    || start(Slip::ClickPerSheet),
    || start(Slip::BindMinutes),
    || start(Slip::ImpositionArgs),
    || start(Slip::PressLoadPrinted),
    || start(Slip::ReservedCarried),
    || start(Slip::CartonCount),
    || start(Slip::DueOrder),
    || start(Slip::CourierWeight),
    || start(Slip::MillUnlisted),
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
                "blind_printshop: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_PRINTSHOP_SLIP", &SLIPS, Slip::None)?;
        let host = start_shop(slip)?;
        let options = McpAdapterOptions::new("blind-printshop", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_printshop: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_printshop: {error}");
        std::process::exit(1);
    }
}
