//! A shop till (point of sale) written as an app developer would write it, with ordinary mistakes that were not
//! planted with `explain` in mind: a blind test of whether one `explain` call over MCP names the faulty line.
//!
//! The till: the cashier scans items (the `times` key first multiplies the next scan), voids a line, applies a
//! coupon or a staff discount (the better of the two counts), sets the sales-tax rate, and takes cash (in cents, or
//! as whole-euro notes). Derived: the item count, the subtotal, a bulk discount (10 % off every line of 10 units or
//! more), the net after discounts, the sales tax (rounded half up), the total, the cash total (rounded to the
//! nearest 5 cents), what was paid, the balance still due, the change due, and the last scanned sku shown on the
//! customer display.
//!
//! Each mistake sits on the line after a `// BUG(<key>)` comment. A mistake in the graph lives in its own variant
//! of the till (the correct builder swapped for a faulty one), so no two interfere; the three mistakes in `update`
//! sit in arms of messages that no other variant dispatches, and the one in `Default` only reaches the till started
//! with `Till::default()`.
//!
//! `cargo run -p ranvier-examples --features blind --example blind_till` (a debug build: only traced builds list `explain`) prints, per mistake, whether
//! one call named the faulty `blind_till.rs:<line>`, where, and the whole answer.

use ranvier_examples::harness;

use std::any::Any;

use harness::{Shape, Started};
use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Effect, Memo, Messages, Mvu, Signal, untrack};
use serde_json::{Value, json};

/// A line of units of bulk that earns the bulk discount.
const BULK_UNITS: u64 = 10;

/// One line of the receipt.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The product.
    pub sku: String,
    /// Price of one unit, in cents.
    pub unit_price: u64,
    /// Units on the line.
    pub quantity: u64,
}

/// The till's model: the sale in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Till {
    /// The receipt's lines, in the order their skus were first scanned.
    pub lines: Vec<Line>,
    /// Units the next scan adds (the `times` key), back to 1 after each scan.
    pub multiplier: u64,
    /// Coupon, percent off.
    pub coupon_percent: u64,
    /// Staff discount, percent off.
    pub staff_percent: u64,
    /// Sales tax in basis points (800 = 8 %).
    pub tax_bp: u64,
    /// Cash taken, in cents.
    pub paid: u64,
}

impl Till {
    /// The till as it opens for the day: 8 % sales tax, a multiplier of 1.
    pub fn opening() -> Till {
        Till {
            lines: Vec::new(),
            multiplier: 1,
            coupon_percent: 0,
            staff_percent: 0,
            tax_bp: 800,
            paid: 0,
        }
    }
}

impl Default for Till {
    fn default() -> Till {
        Till {
            lines: Vec::new(),
            // BUG(multiplier_default): the multiplier starts at 0, so a plain scan adds no units (should be 1)
            multiplier: 0,
            coupon_percent: 0,
            staff_percent: 0,
            tax_bp: 800,
            paid: 0,
        }
    }
}

/// What the cashier can do.
#[derive(Clone, Debug, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Scans one product: adds `multiplier` units of it.
    Scan {
        /// The product.
        sku: String,
        /// Price of one unit, in cents.
        unit_price: u64,
    },
    /// The `times` key: the next scan adds `n` units.
    Times {
        /// Units, 1 to 99.
        #[message(range(min = 1, max = 99))]
        n: u64,
    },
    /// Voids the line of `sku`.
    Void {
        /// The product.
        sku: String,
    },
    /// Applies a coupon.
    ApplyCoupon {
        /// Percent off.
        #[message(range(min = 0, max = 100))]
        percent: u64,
    },
    /// Applies a staff discount.
    StaffDiscount {
        /// Percent off.
        #[message(range(min = 0, max = 100))]
        percent: u64,
    },
    /// Sets the sales-tax rate.
    SetTaxRate {
        /// Basis points, 0 to 10000.
        #[message(range(min = 0, max = 10000))]
        basis_points: u64,
    },
    /// Takes cash, in cents.
    Tender {
        /// Cents.
        cents: u64,
    },
    /// Takes a banknote.
    TenderNote {
        /// Whole euros.
        euros: u64,
    },
    /// Closes the sale and starts the next one (the tax rate stays).
    NewSale,
}

/// The till's update.
#[ranvier::trace_fn]
pub fn update(msg: Msg, till: &Till) -> Till {
    let mut next = till.clone();
    match msg {
        Msg::Scan { sku, unit_price } => {
            let units = next.multiplier;
            match next.lines.iter_mut().find(|line| line.sku == sku) {
                Some(line) => line.quantity += units,
                None => next.lines.push(Line {
                    sku,
                    unit_price,
                    quantity: units,
                }),
            }
            next.multiplier = 1;
        }
        Msg::Times { n } => next.multiplier = n,
        // BUG(void_keeps_only): `==` keeps only the voided line and drops the rest (should be `!=`)
        Msg::Void { sku } => next.lines.retain(|line| line.sku == sku),
        Msg::ApplyCoupon { percent } => next.coupon_percent = percent,
        // BUG(staff_sets_coupon): the staff discount is stored as the coupon (should set `staff_percent`)
        Msg::StaffDiscount { percent } => next.coupon_percent = percent,
        Msg::SetTaxRate { basis_points } => next.tax_bp = basis_points,
        Msg::Tender { cents } => next.paid += cents,
        // BUG(note_in_euros): a note's euros are added as if they were cents (should be `euros * 100`)
        Msg::TenderNote { euros } => next.paid += euros,
        Msg::NewSale => {
            next = Till {
                tax_bp: till.tax_bp,
                ..Till::opening()
            }
        }
    }
    next
}

// ---- the derived values, correct ---------------------------------------------------------------------------------

/// 10 % off every line of `BULK_UNITS` units or more.
fn bulk_discount(till: &Mvu<Till, Msg>) -> Memo<u64> {
    till.select(|till| {
        till.lines
            .iter()
            .filter(|line| line.quantity >= BULK_UNITS)
            .map(|line| line.unit_price * line.quantity / 10)
            .sum()
    })
}

/// The subtotal less the bulk discount, less the better of the coupon and the staff discount.
fn net(subtotal: &Memo<u64>, bulk: &Memo<u64>, coupon: &Memo<u64>, staff: &Memo<u64>) -> Memo<u64> {
    let (subtotal, bulk, coupon, staff) = (
        subtotal.clone(),
        bulk.clone(),
        coupon.clone(),
        staff.clone(),
    );
    Memo::new(move |_| {
        let before = subtotal.get() - bulk.get();
        let off = coupon.get().max(staff.get());
        before * (100 - off) / 100
    })
}

/// Sales tax on the net, rounded half up to the cent.
fn tax(net: &Memo<u64>, rate: &Memo<u64>) -> Memo<u64> {
    let (net, rate) = (net.clone(), rate.clone());
    Memo::new(move |_| {
        let rate = rate.get();
        (net.get() * rate + 5_000) / 10_000
    })
}

/// The total rounded to the nearest 5 cents, for a cash payment.
fn cash_total(total: &Memo<u64>) -> Memo<u64> {
    let total = total.clone();
    Memo::new(move |_| {
        let cents = total.get();
        (cents + 2) / 5 * 5
    })
}

/// What the customer gets back.
fn change_due(paid: &Memo<u64>, total: &Memo<u64>) -> Memo<u64> {
    let (paid, total) = (paid.clone(), total.clone());
    Memo::new(move |_| {
        let paid = paid.get();
        paid.saturating_sub(total.get())
    })
}

/// Shows the last scanned product on the customer display.
fn customer_display(till: &Mvu<Till, Msg>, shown: &Signal<String>) -> Effect {
    let (till, shown) = (till.clone(), shown.clone());
    Effect::new(move || {
        let last = till.with_model(|till| till.lines.last().map(|line| line.sku.clone()));
        if let Some(sku) = last {
            shown.set(sku);
        }
    })
}

// ---- the derived values, as the faulty variants wrote them -------------------------------------------------------

mod faulty {
    use super::*;

    pub fn bulk_discount(till: &Mvu<Till, Msg>) -> Memo<u64> {
        till.select(|till| {
            till.lines
                .iter()
                // BUG(bulk_boundary): `>` leaves out a line of exactly 10 units (should be `>=`)
                .filter(|line| line.quantity > BULK_UNITS)
                .map(|line| line.unit_price * line.quantity / 10)
                .sum()
        })
    }

    pub fn net(
        subtotal: &Memo<u64>,
        bulk: &Memo<u64>,
        coupon: &Memo<u64>,
        staff: &Memo<u64>,
    ) -> Memo<u64> {
        let (subtotal, bulk, coupon, staff) = (
            subtotal.clone(),
            bulk.clone(),
            coupon.clone(),
            staff.clone(),
        );
        Memo::new(move |_| {
            let before = subtotal.get() - bulk.get();
            let off = coupon.get().max(staff.get());
            // BUG(discount_kept): keeps the percent off instead of what is left after it (should be `100 - off`)
            before * off / 100
        })
    }

    /// Reads the rate once, when the till is built.
    pub fn tax_read_once(net: &Memo<u64>, till: &Mvu<Till, Msg>) -> Memo<u64> {
        let net = net.clone();
        // BUG(tax_rate_read_once): the rate is read once at setup, so a later set_tax_rate is never seen
        let rate = till.model().tax_bp;
        Memo::new(move |_| (net.get() * rate + 5_000) / 10_000)
    }

    /// Taxes the subtotal.
    pub fn tax_before_discount(
        subtotal: &Memo<u64>,
        _net: &Memo<u64>,
        rate: &Memo<u64>,
    ) -> Memo<u64> {
        let (subtotal, rate) = (subtotal.clone(), rate.clone());
        Memo::new(move |_| {
            let rate = rate.get();
            // BUG(tax_before_discount): the tax is charged on the subtotal before discounts (should be the net)
            (subtotal.get() * rate + 5_000) / 10_000
        })
    }

    pub fn cash_total(total: &Memo<u64>) -> Memo<u64> {
        let total = total.clone();
        Memo::new(move |_| {
            let cents = total.get();
            // BUG(cash_floor): rounds down to 5 cents instead of to the nearest 5 cents (should be `(cents + 2) / 5 * 5`)
            cents / 5 * 5
        })
    }

    pub fn change_due(paid: &Memo<u64>, total: &Memo<u64>) -> Memo<u64> {
        let (paid, total) = (paid.clone(), total.clone());
        Memo::new(move |_| {
            let paid = paid.get();
            // BUG(change_untracked): the total is read untracked, so scanning after a payment leaves the change stale
            let due = untrack(|| total.get());
            paid.saturating_sub(due)
        })
    }

    pub fn customer_display(till: &Mvu<Till, Msg>, shown: &Signal<String>) -> Effect {
        let (till, shown) = (till.clone(), shown.clone());
        Effect::new(move || {
            // BUG(display_first): shows the first line's sku instead of the last scanned one (should be `last()`)
            let last = till.with_model(|till| till.lines.first().map(|line| line.sku.clone()));
            if let Some(sku) = last {
                shown.set(sku);
            }
        })
    }
}

// ---- the app ------------------------------------------------------------------------------------------------------

/// Which builder is the faulty one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    /// Every builder correct (the mistakes in `update` and `Default` still apply).
    Correct,
    BulkBoundary,
    DiscountKept,
    TaxReadOnce,
    TaxBeforeDiscount,
    CashFloor,
    ChangeUntracked,
    DisplayFirst,
}

type Keep = Vec<Box<dyn Any>>;

struct TillApp {
    _till: Mvu<Till, Msg>,
    exposure: ExposureHandle,
    _keep: Keep,
}

/// Exposes `memo` as a value and as a node under `name`.
fn expose(x: &mut Exposure, name: &str, memo: &Memo<u64>) -> Result<(), ExposeError> {
    let read = memo.clone();
    x.value(name, move || read.get())?.node(name, memo)?;
    Ok(())
}

/// Builds the till's graph and exposes it.
fn till_graph(
    till: &Mvu<Till, Msg>,
    x: &mut Exposure,
    variant: Variant,
) -> Result<Keep, ExposeError> {
    let item_count = till.select(|till| till.lines.iter().map(|line| line.quantity).sum::<u64>());
    let subtotal = till.select(|till| {
        till.lines
            .iter()
            .map(|line| line.unit_price * line.quantity)
            .sum::<u64>()
    });
    let bulk = match variant {
        Variant::BulkBoundary => faulty::bulk_discount(till),
        _ => bulk_discount(till),
    };
    let coupon = till.select(|till| till.coupon_percent);
    let staff = till.select(|till| till.staff_percent);
    let tax_rate = till.select(|till| till.tax_bp);
    let paid = till.select(|till| till.paid);
    let net = match variant {
        Variant::DiscountKept => faulty::net(&subtotal, &bulk, &coupon, &staff),
        _ => net(&subtotal, &bulk, &coupon, &staff),
    };
    let tax = match variant {
        Variant::TaxReadOnce => faulty::tax_read_once(&net, till),
        Variant::TaxBeforeDiscount => faulty::tax_before_discount(&subtotal, &net, &tax_rate),
        _ => tax(&net, &tax_rate),
    };
    let total = Memo::new({
        let (net, tax) = (net.clone(), tax.clone());
        move |_| net.get() + tax.get()
    });
    let cash = match variant {
        Variant::CashFloor => faulty::cash_total(&total),
        _ => cash_total(&total),
    };
    let balance = Memo::new({
        let (total, paid) = (total.clone(), paid.clone());
        move |_| total.get().saturating_sub(paid.get())
    });
    let change = match variant {
        Variant::ChangeUntracked => faulty::change_due(&paid, &total),
        _ => change_due(&paid, &total),
    };
    let last_scanned = Signal::new(String::new());
    let display = match variant {
        Variant::DisplayFirst => faulty::customer_display(till, &last_scanned),
        _ => customer_display(till, &last_scanned),
    };

    expose(x, "item_count", &item_count)?;
    expose(x, "subtotal", &subtotal)?;
    expose(x, "bulk_discount", &bulk)?;
    expose(x, "coupon", &coupon)?;
    expose(x, "staff_percent", &staff)?;
    expose(x, "tax_rate", &tax_rate)?;
    expose(x, "net", &net)?;
    expose(x, "tax", &tax)?;
    expose(x, "total", &total)?;
    expose(x, "cash_total", &cash)?;
    expose(x, "paid", &paid)?;
    expose(x, "balance", &balance)?;
    expose(x, "change_due", &change)?;
    let shown = last_scanned.clone();
    x.value("last_scanned", move || shown.get())?
        .node("last_scanned", &last_scanned)?;
    Ok(vec![Box::new(display)])
}

/// Starts a till opened with `init`, its graph built as `variant`, and its MCP adapter.
fn start_till(init: fn() -> Till, variant: Variant) -> Result<Started, HostError> {
    let host = GraphHost::start(move || {
        let till = Mvu::new(init(), update).labelled("till");
        let mut exposure = Exposure::new();
        let keep = till_graph(&till, &mut exposure, variant)?;
        exposure.messages_of(&till)?;
        let exposure = exposure.start()?;
        Ok::<_, ExposeError>(TillApp {
            _till: till,
            exposure,
            _keep: keep,
        })
    })?;
    let adapter = host
        .invoke(|app| {
            McpAdapter::new(
                app.exposure.clone(),
                McpAdapterOptions::new("blind-till", "1.0.0"),
            )
        })
        .wait()?;
    Ok((adapter, Box::new(move || host.dispose())))
}

// ---- the test -----------------------------------------------------------------------------------------------------

/// `blind_till.rs:<n>` for the first code line after `// BUG(key)`.
fn bug(key: &str) -> String {
    let source = include_str!("blind_till.rs");
    let marker = format!("// BUG({key})");
    let lines: Vec<&str> = source.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&marker))
        .unwrap_or_else(|| panic!("no {marker}"));
    let line = (at + 1..lines.len())
        .find(|i| !lines[*i].trim_start().starts_with("//"))
        .expect("a line after the marker");
    format!("blind_till.rs:{}", line + 1)
}

fn msg(name: &str, args: Value) -> Value {
    json!({"message": name, "args": args})
}

fn scan(sku: &str, unit_price: u64) -> Value {
    msg("scan", json!({"sku": sku, "unitPrice": unit_price}))
}

/// Each mistake, the messages that show it and the value that is visibly wrong (expected vs shown in `name`).
/// Every mistake, as a gallery shape.
pub fn shapes() -> Vec<Shape> {
    vec![
        Shape {
            // 2 × 250 with a 10 % coupon: net 450, tax 36, total 486; shows 54
            name: "discount_kept",
            class: "wrong arithmetic in a derived value",
            node: "total",
            messages: json!([
                msg("times", json!({"n": 2})),
                scan("apple", 250),
                msg("apply_coupon", json!({"percent": 10}))
            ]),
            faulty: bug("discount_kept"),
            start: || start_till(Till::opening, Variant::DiscountKept),
        },
        Shape {
            // staff_percent should be 20; stays 0
            name: "staff_sets_coupon",
            class: "wrong field in an update arm (value never moved)",
            node: "staff_percent",
            messages: json!([
                scan("apple", 250),
                msg("staff_discount", json!({"percent": 20}))
            ]),
            faulty: bug("staff_sets_coupon"),
            start: || start_till(Till::opening, Variant::Correct),
        },
        Shape {
            // coupon should stay 0; shows 20
            name: "staff_sets_coupon/coupon",
            class: "wrong field in an update arm (wrong value moved)",
            node: "coupon",
            messages: json!([
                scan("apple", 250),
                msg("staff_discount", json!({"percent": 20}))
            ]),
            faulty: bug("staff_sets_coupon"),
            start: || start_till(Till::opening, Variant::Correct),
        },
        Shape {
            // 2 apples + 1 pear, void the pear: 2 items; shows 1
            name: "void_keeps_only",
            class: "inverted condition in an update arm",
            node: "item_count",
            messages: json!([
                msg("times", json!({"n": 2})),
                scan("apple", 250),
                scan("pear", 140),
                msg("void", json!({"sku": "pear"}))
            ]),
            faulty: bug("void_keeps_only"),
            start: || start_till(Till::opening, Variant::Correct),
        },
        Shape {
            // 20 % of 1000: 200; shows 80 (the opening 8 %)
            name: "tax_rate_read_once",
            class: "value read once at setup and reused",
            node: "tax",
            messages: json!([
                msg("set_tax_rate", json!({"basisPoints": 2000})),
                scan("book", 1000)
            ]),
            faulty: bug("tax_rate_read_once"),
            start: || start_till(Till::opening, Variant::TaxReadOnce),
        },
        Shape {
            // 1000 paid, total 324 then 540: change 460; shows 676
            name: "change_untracked",
            class: "forgotten dependency (untracked read)",
            node: "change_due",
            messages: json!([
                scan("bread", 300),
                msg("tender", json!({"cents": 1000})),
                scan("milk", 200)
            ]),
            faulty: bug("change_untracked"),
            start: || start_till(Till::opening, Variant::ChangeUntracked),
        },
        Shape {
            // last scanned: pear; shows apple
            name: "display_first",
            class: "effect writes the wrong thing",
            node: "last_scanned",
            messages: json!([scan("apple", 250), scan("pear", 140)]),
            faulty: bug("display_first"),
            start: || start_till(Till::opening, Variant::DisplayFirst),
        },
        Shape {
            // 1234 + 99 tax = 1333: cash 1335; shows 1330
            name: "cash_floor",
            class: "rounding mistake",
            node: "cash_total",
            messages: json!([scan("cheese", 1234)]),
            faulty: bug("cash_floor"),
            start: || start_till(Till::opening, Variant::CashFloor),
        },
        Shape {
            // total 486, a 5-euro note: balance 0; shows 481
            name: "note_in_euros",
            class: "units mistake in an update arm",
            node: "balance",
            messages: json!([scan("wine", 450), msg("tender_note", json!({"euros": 5}))]),
            faulty: bug("note_in_euros"),
            start: || start_till(Till::opening, Variant::Correct),
        },
        Shape {
            // 10 × 100: bulk discount 100; shows 0
            name: "bulk_boundary",
            class: "off-by-one boundary",
            node: "bulk_discount",
            messages: json!([msg("times", json!({"n": 10})), scan("water", 100)]),
            faulty: bug("bulk_boundary"),
            start: || start_till(Till::opening, Variant::BulkBoundary),
        },
        Shape {
            // one scan: 1 item; shows 0
            name: "multiplier_default",
            class: "wrong initial value",
            node: "item_count",
            messages: json!([scan("apple", 250)]),
            faulty: bug("multiplier_default"),
            start: || start_till(Till::default, Variant::Correct),
        },
        Shape {
            // 1000 with a 50 % coupon: net 500, tax 40, total 540; shows 580
            name: "tax_before_discount",
            class: "wrong one of two similar sources",
            node: "total",
            messages: json!([
                scan("book", 1000),
                msg("apply_coupon", json!({"percent": 50}))
            ]),
            faulty: bug("tax_before_discount"),
            start: || start_till(Till::opening, Variant::TaxBeforeDiscount),
        },
    ]
}

/// The three mistakes the visible value did not lead to, asked about one node nearer the fault: not counted above.
fn nearer_shapes() -> Vec<Shape> {
    vec![
        Shape {
            name: "discount_kept/net",
            class: "wrong arithmetic in a derived value",
            node: "net",
            messages: json!([
                msg("times", json!({"n": 2})),
                scan("apple", 250),
                msg("apply_coupon", json!({"percent": 10}))
            ]),
            faulty: bug("discount_kept"),
            start: || start_till(Till::opening, Variant::DiscountKept),
        },
        Shape {
            name: "tax_before_discount/tax",
            class: "wrong one of two similar sources",
            node: "tax",
            messages: json!([
                scan("book", 1000),
                msg("apply_coupon", json!({"percent": 50}))
            ]),
            faulty: bug("tax_before_discount"),
            start: || start_till(Till::opening, Variant::TaxBeforeDiscount),
        },
        Shape {
            name: "multiplier_default/till",
            class: "wrong initial value",
            node: "till",
            messages: json!([scan("apple", 250)]),
            faulty: bug("multiplier_default"),
            start: || start_till(Till::default, Variant::Correct),
        },
    ]
}

#[tokio::main]
async fn main() {
    if !ranvier::trace::TRACED {
        eprintln!(
            "blind_till: this build records no trace: run it in a debug build (without --release)"
        );
        std::process::exit(1);
    }
    let shapes = shapes();
    let (mut named, mut early, mut first_400) = (0, 0, 0);
    let mut lengths = Vec::new();
    for (at, shape) in shapes.iter().chain(&nearer_shapes()).enumerate() {
        if at == shapes.len() {
            println!(
                "{named} of {} named in one call; {early} within the first 600 characters after the node line, \
                 {first_400} within the first 400 of the answer; median answer {} characters\n",
                shapes.len(),
                harness::median(&mut lengths)
            );
            println!("-- not counted: the same mistakes asked about a node nearer the fault --\n");
        }
        match harness::run(shape).await {
            Ok(outcome) => {
                if at < shapes.len() {
                    named += usize::from(outcome.named);
                    early += usize::from(outcome.position.is_some_and(|p| p < 600));
                    first_400 += usize::from(outcome.from_start.is_some_and(|p| p < 400));
                    lengths.push(outcome.answer.chars().count());
                }
                println!(
                    "== {} [{}] node {} faulty {}: named {}, at {} ({} from the start; answer {} chars)\n{}\n",
                    shape.name,
                    shape.class,
                    shape.node,
                    shape.faulty,
                    if outcome.named { "yes" } else { "no" },
                    outcome
                        .position
                        .map_or_else(|| "-".to_owned(), |p| p.to_string()),
                    outcome
                        .from_start
                        .map_or_else(|| "-".to_owned(), |p| p.to_string()),
                    outcome.answer.chars().count(),
                    outcome.answer
                );
            }
            Err(error) => println!("== {} [{}]: error: {error}\n", shape.name, shape.class),
        }
    }
}
