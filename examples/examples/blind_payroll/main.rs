//! A small firm's payroll (three people on the books when it opens, hourly and salaried contracts, timesheets with
//! overtime and night hours, leave, four-week pay periods closed by the clock, tax bands, pension and deductions,
//! payslips and the year to date, and two services over the network), split over nine files as an app developer
//! would write it, with ordinary mistakes that were not planted with `explain` in mind: a blind test of whether one
//! `explain` call over MCP names the faulty line, written by a tester who had not read how `explain` diagnoses.
//!
//! The firm: Ada (salaried, 39,000.00 a year, with the code from her P45), Ben (16.00 an hour) and Cleo (12.00 an
//! hour, no bank account given yet) are hired when the payroll opens, on day 1 of period 1 (initial commands of
//! `Mvu::with_commands`). The office hires (`hire`: hourly, night hours a quarter more unless a night rate is given,
//! or salaried), sets a pension contribution (`set_pension`, in basis points; 5 % to start), logs shifts (`log_shift`:
//! the hour it started and its minutes; minutes past eight hours are overtime at half the rate again, minutes between
//! 22:00 and 06:00 are at the night rate), grants leave (`request_leave`: granted when the balance covers it), deducts
//! (`deduct`) and moves the clock on (`advance`): every 28 days the open period is closed into a pay run and everyone
//! earns two days of leave (commands). Derived: the clock, the open period's hours, leave balances, every pay run's
//! payslips (gross, pension, tax over three bands on pay after pension, deductions, net) and the tax year's totals; the
//! staff list, a keyed collection (`ranvier::collection`) with what each has earned so far this period as a row memo,
//! and views over it (who worked most, from a `sort_by`; how many are hourly, from a `filter`; how many have no leave
//! left, from a `count_by`); and from two services over the network, as async memos: each employee's tax code (the tax
//! authority, unless they brought a P45) and the bank's answer for each payment of the last pay run.
//!
//! Files: `model.rs` (the types, the messages, a hand-written `Default`), `update.rs` (`update`, with commands, and
//! its helpers), `timesheet.rs` and `tax.rs` (rules), `graph.rs` (the `#[expose]` app, the `#[node]` builder, the pay
//! memos), `staff.rs` (the collection, its row factory and views), `services.rs` (the async memos), `remote.rs` (the
//! services).
//!
//! Selecting a mistake: each sits on the line after a `// BUG(<key>)` comment, in a `slipped` module next to the
//! correct code. `--slip <key>` (or `BLIND_PAYROLL_SLIP=<key>`) runs the payroll with that one mistake; without it the
//! payroll is correct. `--cases` prints, per mistake, its key, its faulty `file:line` and the `explain` arguments that
//! show it (`BLIND_PAYROLL_SLIP=<key> ranvier-mcp call target/debug/examples/blind_payroll explain '<those>'` asks by
//! hand). `cargo run -p ranvier-examples --features blind --example blind_payroll -- --report` (a debug build: only traced builds list `explain`) prints,
//! per mistake, whether one call named the faulty `file:line`, where, and the answer's length (`--answers` adds each
//! answer). Otherwise the payroll serves MCP over stdio.

use ranvier_examples::harness;

pub mod graph;
pub mod model;
pub mod remote;
pub mod services;
pub mod staff;
pub mod tax;
pub mod timesheet;
pub mod update;

use graph::{PayrollDesk, Slip};
use harness::{Shape, Started, message as msg};
use ranvier::host::HostError;
use ranvier::mcp::McpAdapterOptions;
use serde_json::{Value, json};

/// Every mistake: its key, its class, and the version of the payroll that has it.
pub const SLIPS: [(&str, &str, Slip); 12] = [
    (
        "first_period",
        "a hand-written `Default` (as a copy) starts the periods at 0 where they count from 1 (a wrong default)",
        Slip::FirstPeriod,
    ),
    (
        "leave_balance",
        "`<` for `<=` against the leave balance in an `update` helper: asking for exactly what is left is declined (off by one)",
        Slip::LeaveBalance,
    ),
    (
        "no_accrual",
        "a command not sent: the clock helper of `update` closes the period but sends no `AccrueLeave`",
        Slip::NoAccrual,
    ),
    (
        "night_window",
        "`/` for `%` in a timesheet rule called through a fn value: the minute of the day is the day, so every minute reads as night (wrong operator)",
        Slip::NightWindow,
    ),
    (
        "band_slice",
        "the wrong variable in a tax rule: each band taxes the whole pay above its floor, not the slice up to its top",
        Slip::BandSlice,
    ),
    (
        "pension_unit",
        "a wrong unit in a pension rule: basis points divided by 1,000, so 5 % is taken as 50 %",
        Slip::PensionUnit,
    ),
    (
        "night_rate",
        "the wrong field in a long memo: night minutes paid at the day `rate`, not the contract's `night_rate`",
        Slip::NightRate,
    ),
    (
        "ytd_tax",
        "a wrong accumulator in a long memo: `=` for `+=`, so the year's tax is the last period's",
        Slip::YtdTotals,
    ),
    (
        "row_overtime",
        "swapped arguments in a row factory's memo: `split_overtime(limit, worked)`, so a long shift has no overtime and a short one has some",
        Slip::RowOvertime,
    ),
    (
        "busiest_order",
        "a wrong sort key in a `sort_by` view: the number of shifts, not the minutes worked",
        Slip::BusiestOrder,
    ),
    (
        "tax_code_lookup",
        "an inverted filter in an async memo's future: the authority is asked about those who brought a P45, not the others",
        Slip::TaxCodeLookup,
    ),
    (
        "bank_rejection",
        "a failure turned into a default in an async memo's future: a payment the bank refused reads as paid",
        Slip::BankRejection,
    ),
];

/// What the graph thread keeps: the payroll and its exposure.
pub type PayrollHost = harness::ExposedHost<PayrollDesk>;

/// Starts the payroll with `slip` on its own graph thread, and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_payroll(slip: Slip) -> Result<PayrollHost, HostError> {
    harness::start_exposed(move || graph::payroll_desk(slip))
}

/// The payroll with `slip`, as a shape's app: its MCP adapter, and what disposes it.
fn start(slip: Slip) -> Result<Started, HostError> {
    harness::start_shape(move || graph::payroll_desk(slip), "blind-payroll")
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// The files of the payroll, by name.
const FILES: [(&str, &str); 9] = [
    ("main.rs", include_str!("main.rs")),
    ("model.rs", include_str!("model.rs")),
    ("update.rs", include_str!("update.rs")),
    ("timesheet.rs", include_str!("timesheet.rs")),
    ("tax.rs", include_str!("tax.rs")),
    ("graph.rs", include_str!("graph.rs")),
    ("staff.rs", include_str!("staff.rs")),
    ("services.rs", include_str!("services.rs")),
    ("remote.rs", include_str!("remote.rs")),
];

/// `<file>:<n>` for the first code line after `// BUG(key)`, in whichever file of the payroll holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do.
pub fn bug(key: &str) -> String {
    harness::marked_line(&FILES, key, "the payroll")
}

fn hire(id: &str, contract: &str, rate: u64, ni: &str) -> Value {
    msg(
        "hire",
        json!({"id": id, "name": id, "contract": contract, "rate": rate, "ni": ni, "account": format!("20-11-04 {ni}")}),
    )
}
fn log_shift(id: &str, start: u32, minutes: u32) -> Value {
    msg(
        "log_shift",
        json!({"id": id, "start": start, "minutes": minutes}),
    )
}
fn request_leave(id: &str, days: u32) -> Value {
    msg("request_leave", json!({"id": id, "days": days}))
}
fn advance(days: u32) -> Value {
    msg("advance", json!({ "days": days }))
}

/// The node whose value is visibly wrong with `key`'s mistake, and the messages that show it (expected vs shown in
/// the comment; the payroll opens on day 1 of period 1 with Ada, salaried 39,000.00 a year (3,000.00 a period) with
/// a P45 code, Ben, 16.00 an hour (20.00 at night), and Cleo, 12.00 an hour (15.00 at night) with no bank account;
/// each with 3 days of leave and 5 % pension; periods of 28 days; tax 0 % to 1,000.00, 20 % to 4,000.00, 40 % above).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn case(key: &str) -> (&'static str, Value) {
    match key {
        // three days on: day 4 of period 1; shows period 0
        "first_period" => ("clock", json!([advance(3)])),
        // Ben asks for his 3 days: granted; shows declined
        "leave_balance" => ("leave", json!([request_leave("ben", 3)])),
        // Ada takes 2 days, the period closes: everyone earns 2; shows nobody earning
        "no_accrual" => ("leave", json!([request_leave("ada", 2), advance(28)])),
        // Ben works 20:00 to 06:00: 8h00 at night; shows 10h00
        "night_window" => ("hours", json!([log_shift("ben", 20, 600)])),
        // Dev, salaried 78,000.00 (6,000.00 a period): tax 1,280.00 on 5,700.00 after pension; shows 1,620.00
        "band_slice" => (
            "payslips",
            json!([hire("dev", "salaried", 7_800_000, "DK777888D"), advance(28)]),
        ),
        // one period: Ada's pension 150.00 (5 %); shows 1,500.00
        "pension_unit" => ("ytd", json!([advance(28)])),
        // Ben works 22:00 to 06:00: 8 hours at 20.00, 160.00; shows 128.00
        "night_rate" => ("payslips", json!([log_shift("ben", 22, 480), advance(28)])),
        // two periods: Ada's tax 740.00 for the year; shows 370.00
        "ytd_tax" => ("ytd", json!([advance(56)])),
        // Ben 10 hours (2 overtime), Cleo 6; shows Ben without overtime and Cleo with 2 hours
        "row_overtime" => (
            "staff",
            json!([log_shift("ben", 8, 600), log_shift("cleo", 9, 360)]),
        ),
        // Ben one shift of 9 hours, Cleo two of 3: Ben first; shows Cleo first
        "busiest_order" => (
            "busiest",
            json!([
                log_shift("ben", 8, 540),
                log_shift("cleo", 9, 180),
                log_shift("cleo", 14, 180)
            ]),
        ),
        // Dev hired without a P45: the authority gives Ben, Cleo and Dev their codes; shows only Ada's, twice
        "tax_code_lookup" => (
            "tax_codes",
            json!([hire("dev", "hourly", 1_400, "DK777888D")]),
        ),
        // Cleo works a day, the period closes: her pay is not paid (no account), nor Ben's (nothing to pay); shows both paid
        "bank_rejection" => ("payments", json!([log_shift("cleo", 9, 480), advance(28)])),
        other => panic!("no mistake {other}"),
    }
}

/// The value `key`'s node holds in the correct payroll after `key`'s messages (the mistake shows another).
///
/// # Panics
///
/// For a key that is no mistake.
pub fn expected(key: &str) -> Value {
    match key {
        "first_period" => json!("Period 1, day 4 of 28"),
        "leave_balance" => json!([
            "ada: 3 days left, 0 taken",
            "ben: 0 days left, 3 taken",
            "cleo: 3 days left, 0 taken"
        ]),
        "no_accrual" => json!([
            "ada: 3 days left, 2 taken",
            "ben: 5 days left, 0 taken",
            "cleo: 5 days left, 0 taken"
        ]),
        "night_window" => json!(["ben: 10h00 worked, 2h00 overtime, 8h00 at night"]),
        "band_slice" => json!([
            slip(1, "ada", [300_000, 15_000, 37_000, 0, 248_000]),
            slip(1, "ben", [0; 5]),
            slip(1, "cleo", [0; 5]),
            slip(1, "dev", [600_000, 30_000, 128_000, 0, 442_000])
        ]),
        "pension_unit" => json!([
            "ada: 1 periods, gross 3000.00, tax 370.00, pension 150.00, net 2480.00",
            "ben: 1 periods, gross 0.00, tax 0.00, pension 0.00, net 0.00",
            "cleo: 1 periods, gross 0.00, tax 0.00, pension 0.00, net 0.00"
        ]),
        "night_rate" => json!([
            slip(1, "ada", [300_000, 15_000, 37_000, 0, 248_000]),
            slip(1, "ben", [16_000, 800, 0, 0, 15_200]),
            slip(1, "cleo", [0; 5])
        ]),
        "ytd_tax" => json!([
            "ada: 2 periods, gross 6000.00, tax 740.00, pension 300.00, net 4960.00",
            "ben: 2 periods, gross 0.00, tax 0.00, pension 0.00, net 0.00",
            "cleo: 2 periods, gross 0.00, tax 0.00, pension 0.00, net 0.00"
        ]),
        "row_overtime" => json!([
            staff_row("ada", "Ada Byron", "salaried", "salaried, 3000.00 a period"),
            staff_row(
                "ben",
                "Ben Okafor",
                "hourly",
                "10h00 worked, 2h00 overtime, 176.00 so far"
            ),
            staff_row(
                "cleo",
                "Cleo Marsh",
                "hourly",
                "6h00 worked, 0h00 overtime, 72.00 so far"
            )
        ]),
        "busiest_order" => json!(["ben", "cleo", "ada"]),
        "tax_code_lookup" => json!(["ada: 1257L (P45)", "ben: 1100L", "cleo: 1257L", "dev: K120"]),
        "bank_rejection" => json!([
            "ada: 2480.00 paid, BACS-0001-248000",
            "ben: 0.00 not paid: nothing to pay",
            "cleo: 91.20 not paid: no account on file"
        ]),
        other => panic!("no mistake {other}"),
    }
}

/// A payslip as `payslips` publishes it: `[gross, pension, tax, deductions, net]` in cents.
fn slip(period: u32, id: &str, [gross, pension, tax, deductions, net]: [u64; 5]) -> Value {
    json!({"period": period, "id": id, "gross": gross, "pension": pension, "tax": tax, "deductions": deductions, "net": net})
}

/// A row of `staff` as published, with its 3 days of leave.
fn staff_row(id: &str, name: &str, kind: &str, accrued: &str) -> Value {
    json!({"key": id, "name": name, "kind": kind, "leaveLeft": 3, "accrued": accrued})
}

/// The value of `node` in a payroll started with `slip`, after `messages` (a JSON array of `{message, args}`) ran
/// and the flights they started settled.
///
/// # Errors
///
/// When the payroll does not start, a message is refused, or a flight is still pending after five seconds.
pub async fn settled_value(
    slip: Slip,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    harness::settled_in(start_payroll(slip)?, node, messages).await
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
    || start(Slip::FirstPeriod),
    || start(Slip::LeaveBalance),
    || start(Slip::NoAccrual),
    || start(Slip::NightWindow),
    || start(Slip::BandSlice),
    || start(Slip::PensionUnit),
    || start(Slip::NightRate),
    || start(Slip::YtdTotals),
    || start(Slip::RowOvertime),
    || start(Slip::BusiestOrder),
    || start(Slip::TaxCodeLookup),
    || start(Slip::BankRejection),
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
                "blind_payroll: this build records no trace: run it in a debug build (without --release)"
            );
            std::process::exit(1);
        }
        harness::report(&shapes(), args.iter().any(|a| a == "--answers")).await;
        return;
    }
    let served = async {
        let slip = harness::chosen_slip(&args, "BLIND_PAYROLL_SLIP", &SLIPS, Slip::None)?;
        let host = start_payroll(slip)?;
        let options = McpAdapterOptions::new("blind-payroll", "1.0.0").with_env()?;
        let adapter = harness::exposed_adapter(&host, options)?;
        eprintln!("blind_payroll: serving MCP over stdio ({slip:?})");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
        host.dispose();
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    };
    if let Err(error) = served.await {
        eprintln!("blind_payroll: {error}");
        std::process::exit(1);
    }
}
