//! A gallery of defects for `explain`: small till apps, each with one ordinary mistake of a different shape, and the
//! four of `defects.rs`. Each mistake sits on the line after a `// FAULT` comment (in `defects.rs`, on the line a
//! search string names); `tests/tests/gallery.rs` asserts that one `explain` call over MCP names that `file:line`
//! within the first 600 characters after the node line.
//!
//! `cargo run --example gallery -- --report` prints, per shape, whether one call named the line, the answer's
//! length and where the line first appears (after the node line, and from the answer's start), then the median
//! length (a debug build: only traced builds list `explain`).
//!
//! The shapes: an untracked read in an effect, `untrack` in a memo, an effect writing a wrong value, a setup write,
//! a value captured by a closure, a comparer over a collection, a memo reading the wrong of two similar sources, a
//! select over the wrong part of the model, a disposed source, a previous value kept, a value peeked before a later
//! effect in the same flush wrote it, a batch hiding an intermediate value, and a row factory of a keyed
//! collection computing a row's figure wrongly. Then three in the parcel desk of
//! `parcel/`, an app split over five files (`// FAULT` markers there too): an `update` arm in its own module writing
//! the wrong field, a helper in another module with a wrong boundary, and an effect writing the wrong signal.

#[allow(dead_code)]
#[path = "defects.rs"]
mod defects;

#[allow(dead_code)]
#[path = "parcel/mod.rs"]
mod parcel;

use std::any::Any;

use ranvier::collection::Collection;
use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{AsyncMemo, Effect, Memo, Messages, Mvu, Signal, batch, create_root, untrack};
use serde_json::{Value, json};

pub use ranvier_examples::harness::*;

/// One line of the till.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The product.
    pub sku: String,
    /// Price of one unit, in cents.
    pub unit_price: u64,
    /// How many units.
    pub quantity: u64,
}

/// The till's model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Till {
    /// The lines, in the order they were added.
    pub lines: Vec<Item>,
    /// The member discount, percent.
    pub discount: u64,
    /// A coupon's discount, percent.
    pub coupon: u64,
    /// The tax rate, percent.
    pub tax_percent: u64,
    /// Express delivery.
    pub express: bool,
}

/// The till's messages.
#[derive(Clone, Debug, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Adds a line.
    AddItem {
        /// The product.
        sku: String,
        /// Price of one unit, in cents.
        unit_price: u64,
        /// Units.
        quantity: u64,
    },
    /// Sets the quantity of a line.
    SetQuantity {
        /// The product.
        sku: String,
        /// Units.
        quantity: u64,
    },
    /// Sets the member discount.
    SetDiscount {
        /// Percent, 0 to 100.
        #[message(range(min = 0, max = 100))]
        percent: u64,
    },
    /// Applies a coupon.
    SetCoupon {
        /// Percent, 0 to 100.
        #[message(range(min = 0, max = 100))]
        percent: u64,
    },
    /// Sets the tax rate.
    SetTaxRate {
        /// Percent.
        #[message(range(min = 0, max = 100))]
        percent: u64,
    },
    /// Chooses express delivery, or not.
    SetExpress {
        /// Express or standard.
        express: bool,
    },
}

/// The till's update.
pub fn update(msg: Msg, till: &Till) -> Till {
    let mut next = till.clone();
    match msg {
        Msg::AddItem {
            sku,
            unit_price,
            quantity,
        } => next.lines.push(Item {
            sku,
            unit_price,
            quantity,
        }),
        Msg::SetQuantity { sku, quantity } => {
            for line in next.lines.iter_mut().filter(|l| l.sku == sku) {
                line.quantity = quantity;
            }
        }
        Msg::SetDiscount { percent } => next.discount = percent,
        Msg::SetCoupon { percent } => next.coupon = percent,
        Msg::SetTaxRate { percent } => next.tax_percent = percent,
        Msg::SetExpress { express } => next.express = express,
    }
    next
}

/// The sum of price × quantity.
fn amount(till: &Till) -> u64 {
    till.lines.iter().map(|l| l.unit_price * l.quantity).sum()
}

/// Handles a shape keeps alive on the graph thread.
type Keep = Vec<Box<dyn Any>>;

/// What the graph thread keeps for one shape.
pub struct GalleryApp {
    /// The till.
    pub till: Mvu<Till, Msg>,
    /// The exposure.
    pub exposure: ExposureHandle,
    _keep: Keep,
}

/// `gallery.rs:<n>` for the first code line after `// FAULT(key)`.
fn fault(key: &str) -> String {
    fault_in(include_str!("gallery.rs"), "gallery.rs", key)
}

/// `<file>:<n>` for the first code line of `source` (the text of `file`) after `// FAULT(key)`.
fn fault_in(source: &str, file: &str, key: &str) -> String {
    let marker = format!("// FAULT({key})");
    let lines: Vec<&str> = source.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&marker))
        .unwrap_or_else(|| panic!("no {marker}"));
    let line = (at + 1..lines.len())
        .find(|i| !lines[*i].trim_start().starts_with("//"))
        .expect("a line after the marker");
    format!("{file}:{}", line + 1)
}

/// `defects.rs:<n>` for the first line of `defects.rs` holding `search`.
fn defect(search: &str) -> String {
    let source = include_str!("defects.rs");
    let at = source
        .lines()
        .position(|l| l.contains(search) && !l.trim_start().starts_with("//"))
        .unwrap_or_else(|| panic!("no line holds {search:?}"));
    format!("defects.rs:{}", at + 1)
}

fn item(sku: &str, unit_price: u64, quantity: u64) -> Value {
    json!({"message": "add_item", "args": {"sku": sku, "unitPrice": unit_price, "quantity": quantity}})
}

/// Starts a till on its own graph thread with `build` adding the shape's nodes, and its MCP adapter.
fn start_till(
    build: fn(&Mvu<Till, Msg>, &mut Exposure) -> Result<Keep, ExposeError>,
) -> Result<Started, HostError> {
    let host = GraphHost::start(move || {
        let till = Mvu::new(
            Till {
                tax_percent: 10,
                ..Till::default()
            },
            update,
        )
        .labelled("till");
        let mut exposure = Exposure::new();
        let keep = build(&till, &mut exposure)?;
        exposure.messages_of(&till)?;
        let exposure = exposure.start()?;
        Ok::<_, ExposeError>(GalleryApp {
            till,
            exposure,
            _keep: keep,
        })
    })?;
    let adapter = host
        .invoke(|app| {
            McpAdapter::new(
                app.exposure.clone(),
                McpAdapterOptions::new("ranvier-gallery", "1.0.0"),
            )
        })
        .wait()?;
    Ok((adapter, Box::new(move || host.dispose())))
}

/// The parcel desk of `parcel/` (five files), as a shape's app.
fn start_parcel() -> Result<Started, HostError> {
    let (adapter, host) = parcel::start()?;
    Ok((adapter, Box::new(move || host.dispose())))
}

/// The defects app of `defects.rs`, as a shape's app.
fn start_defects() -> Result<Started, HostError> {
    let host = defects::start_defects()?;
    let adapter =
        defects::defects_adapter(&host, McpAdapterOptions::new("ranvier-defects", "1.0.0"))?;
    Ok((adapter, Box::new(move || host.dispose())))
}

// ---- the shapes -------------------------------------------------------------------------------------------------

fn peek_in_an_effect(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let items = till.select(|t| t.lines.iter().map(|l| l.quantity).sum::<u64>());
    let express = till.select(|t| t.express);
    let badge = Signal::new(String::new());
    let refresh = Effect::new({
        let (badge, items) = (badge.clone(), items.clone());
        move || {
            let speed = if express.get() { "express" } else { "standard" };
            // FAULT(peek_in_an_effect): peek does not subscribe, so the badge misses new items
            let count = items.peek();
            badge.set(format!("{count} items, {speed}"));
        }
    });
    x.value("items", move || items.get())?;
    let shown = badge.clone();
    x.value("badge", move || shown.get())?;
    x.node("badge", &badge)?;
    Ok(vec![Box::new(refresh)])
}

fn untrack_in_a_memo(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    let rate = till.select(|t| t.tax_percent);
    let tax = Memo::new({
        let subtotal = subtotal.clone();
        move |_| {
            // FAULT(untrack_in_a_memo): the rate is read untracked, so the tax misses a new rate
            let percent = untrack(|| rate.get());
            subtotal.get() * percent / 100
        }
    });
    let total = Memo::new(move |_| subtotal.get() + tax.get());
    let shown = total.clone();
    x.value("total", move || shown.get())?;
    x.node("total", &total)?;
    Ok(Vec::new())
}

fn an_effect_writes_a_wrong_value(
    till: &Mvu<Till, Msg>,
    x: &mut Exposure,
) -> Result<Keep, ExposeError> {
    let spent = till.select(amount);
    let points = Signal::new(0_u64);
    let award = Effect::new({
        let points = points.clone();
        move || {
            let cents = spent.get();
            // FAULT(an_effect_writes_a_wrong_value): one point per 10 cents, not per euro (100 cents)
            points.set(cents / 10);
        }
    });
    let shown = points.clone();
    x.value("points", move || shown.get())?;
    x.node("points", &points)?;
    Ok(vec![Box::new(award)])
}

fn a_setup_write(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    let surcharge = Signal::new(0_u64);
    let total = Memo::new({
        let surcharge = surcharge.clone();
        move |_| subtotal.get() * (100 + surcharge.get()) / 100
    });
    // FAULT(a_setup_write): the card surcharge is 2 percent, not 20
    surcharge.set(20);
    let shown = total.clone();
    x.value("total", move || shown.get())?;
    x.node("total", &total)?;
    Ok(Vec::new())
}

fn a_captured_value(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    // FAULT(a_captured_value): copies today's discount into the closure instead of reading it
    let percent = till.model().discount;
    let total = Memo::new(move |_| subtotal.get() * (100 - percent) / 100);
    let shown = total.clone();
    x.value("total", move || shown.get())?;
    x.node("total", &total)?;
    Ok(Vec::new())
}

fn a_comparer_over_a_collection(
    till: &Mvu<Till, Msg>,
    x: &mut Exposure,
) -> Result<Keep, ExposeError> {
    let lines = till.select(|t| t.lines.clone());
    // FAULT(a_comparer_over_a_collection): compares the number of lines, so a new quantity is cut off
    let basket = Memo::with_comparer(move |_| lines.get(), |a, b| a.len() == b.len());
    let subtotal = Memo::new(move |_| {
        basket.with(|items| items.iter().map(|l| l.unit_price * l.quantity).sum::<u64>())
    });
    let shown = subtotal.clone();
    x.value("subtotal", move || shown.get())?;
    x.node("subtotal", &subtotal)?;
    Ok(Vec::new())
}

fn the_wrong_of_two_sources(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let gross = till.select(amount);
    let discount = till.select(|t| t.discount);
    let net = Memo::new({
        let gross = gross.clone();
        move |_| gross.get() * (100 - discount.get()) / 100
    });
    let delivery = till.select(|t| if t.express { 900 } else { 400 });
    let total = Memo::new(move |_| {
        // FAULT(the_wrong_of_two_sources): adds delivery to the gross amount instead of the net one
        let goods = gross.get();
        goods + delivery.get()
    });
    let (shown_net, shown) = (net.clone(), total.clone());
    x.value("net", move || shown_net.get())?;
    x.value("total", move || shown.get())?;
    x.node("total", &total)?;
    Ok(Vec::new())
}

fn a_select_of_the_wrong_part(
    till: &Mvu<Till, Msg>,
    x: &mut Exposure,
) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    // FAULT(a_select_of_the_wrong_part): selects the coupon, not the member discount the till sets
    let discount = till.select(|t| t.coupon);
    let total = Memo::new(move |_| subtotal.get() * (100 - discount.get()) / 100);
    let shown = total.clone();
    x.value("total", move || shown.get())?;
    x.node("total", &total)?;
    Ok(Vec::new())
}

fn a_disposed_source(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    let (coupon, promotion) = create_root(|_| till.select(|t| t.coupon));
    let total = Memo::new(move |_| subtotal.get() * (100 - coupon.get()) / 100);
    let opening = total.get();
    // FAULT(a_disposed_source): ends the promotion's scope while the total still reads its coupon
    promotion.dispose();
    let shown = total.clone();
    x.value("total", move || shown.get())?;
    x.value("opening", move || opening)?;
    x.node("total", &total)?;
    Ok(Vec::new())
}

fn a_wrong_row_factory(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let lines = till.select(|t| t.lines.clone());
    let rows = Collection::keyed(
        lines,
        |line: &Item| line.sku.clone(),
        |row| {
            let row = row.clone();
            // FAULT(a_wrong_row_factory): prices the line at one unit, whatever its quantity
            Memo::new(move |_| row.with(|line| line.unit_price)).labelled("line_total")
        },
    )
    .labelled("lines");
    let totals = rows.clone();
    let subtotal = Memo::new(move |_| totals.rows().iter().map(Memo::get).sum::<u64>());
    let shown = subtotal.clone();
    x.value("subtotal", move || shown.get())?;
    x.node("subtotal", &subtotal)?;
    Ok(vec![Box::new(rows)])
}

fn a_previous_value_kept(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    let peak = Memo::new(move |previous: Option<&u64>| {
        let now = subtotal.get();
        match previous {
            // FAULT(a_previous_value_kept): keeps the first non-zero subtotal instead of the highest
            Some(&best) if best > 0 => best,
            _ => now,
        }
    });
    let shown = peak.clone();
    x.value("peak", move || shown.get())?;
    x.node("peak", &peak)?;
    Ok(Vec::new())
}

fn peeked_before_a_later_write(
    till: &Mvu<Till, Msg>,
    x: &mut Exposure,
) -> Result<Keep, ExposeError> {
    let paid = till.select(amount);
    let points = Signal::new(0_u64);
    let receipt = Signal::new(String::new());
    let print = Effect::new({
        let (paid, points, receipt) = (paid.clone(), points.clone(), receipt.clone());
        move || {
            let cents = paid.get();
            // FAULT(peeked_before_a_later_write): `award` writes the points later in this flush; peek misses them
            let earned = points.peek();
            receipt.set(format!("paid {cents}, {earned} points"));
        }
    });
    let award = Effect::new(move || points.set(paid.get() / 100));
    let shown = receipt.clone();
    x.value("receipt", move || shown.get())?;
    x.node("receipt", &receipt)?;
    Ok(vec![Box::new(print), Box::new(award)])
}

fn a_batch_hides_a_value(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let count = till.select(|t| t.lines.len());
    let status = Signal::new("idle");
    let history = Signal::new(Vec::<&'static str>::new());
    let log = Effect::new({
        let (status, history) = (status.clone(), history.clone());
        move || {
            let now = status.get();
            history.update(|h| h.push(now));
        }
    });
    let save = Effect::new(move || {
        count.get();
        // FAULT(a_batch_hides_a_value): the batch hides "saving" from the history
        batch(|| {
            status.set("saving");
            status.set("saved");
        });
    });
    let shown = history.clone();
    x.value("history", move || shown.get())?;
    x.node("history", &history)?;
    Ok(vec![Box::new(log), Box::new(save)])
}

fn a_read_inside_a_future(till: &Mvu<Till, Msg>, x: &mut Exposure) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    let express = till.select(|t| t.express);
    // the delivery quote comes from the carrier's service
    let quote = AsyncMemo::new(move |_| {
        let cents = subtotal.get();
        let express = express.clone();
        async move {
            let base = carrier_rate(cents).await;
            // FAULT(a_read_inside_a_future): read inside the future, untracked: a new choice does not re-run it
            let fee = if express.get() { 900 } else { 400 };
            base + fee
        }
    });
    let shown = quote.clone();
    x.value("quote", move || shown.get().value_or(0))?;
    x.node("quote", &quote)?;
    Ok(vec![Box::new(quote)])
}

/// The carrier's rate for goods worth `cents`: free over 100 euros (a remote call, in a real till).
async fn carrier_rate(cents: u64) -> u64 {
    if cents > 10_000 { 0 } else { 250 }
}

/// The tax service's rate in basis points for `percent`: it knows the rates up to 15 %.
async fn tax_service(percent: u64) -> Result<u64, String> {
    if percent <= 15 {
        Ok(percent * 100)
    } else {
        Err(format!("no rate for {percent} %"))
    }
}

fn a_failure_turned_into_a_default(
    till: &Mvu<Till, Msg>,
    x: &mut Exposure,
) -> Result<Keep, ExposeError> {
    let subtotal = till.select(amount);
    let rate = till.select(|t| t.tax_percent);
    let tax = AsyncMemo::new(move |_| {
        let cents = subtotal.get();
        let percent = rate.get();
        async move {
            // the service answers in basis points
            let reply = tax_service(percent).await;
            let basis_points = reply
                .map(|bp| bp.min(10_000))
                // FAULT(a_failure_turned_into_a_default): a refused rate becomes no tax at all
                .unwrap_or(0);
            cents * basis_points / 10_000
        }
    });
    let shown = tax.clone();
    x.value("tax", move || shown.get().value_or(0))?;
    x.node("tax", &tax)?;
    Ok(vec![Box::new(tax)])
}

macro_rules! till_shape {
    ($name:ident, $class:literal, $node:literal, $messages:expr) => {
        Shape {
            name: stringify!($name),
            class: $class,
            node: $node,
            messages: $messages,
            faulty: fault(stringify!($name)),
            start: || start_till($name),
        }
    };
}

/// Every shape: the fifteen tills, the three of the parcel desk, then the four defects of `defects.rs`.
pub fn shapes() -> Vec<Shape> {
    let mut shapes = vec![
        till_shape!(
            peek_in_an_effect,
            "untracked read in an effect",
            "badge",
            json!([item("pen", 150, 2)])
        ),
        till_shape!(
            untrack_in_a_memo,
            "untracked read upstream",
            "total",
            json!([item("lamp", 1000, 1), {"message": "set_tax_rate", "args": {"percent": 20}}])
        ),
        till_shape!(
            an_effect_writes_a_wrong_value,
            "writer",
            "points",
            json!([item("lamp", 1000, 2)])
        ),
        till_shape!(
            a_setup_write,
            "program write",
            "total",
            json!([item("lamp", 1000, 1)])
        ),
        till_shape!(
            a_captured_value,
            "stale closure capture",
            "total",
            json!([item("lamp", 1000, 1), {"message": "set_discount", "args": {"percent": 10}}])
        ),
        till_shape!(
            a_comparer_over_a_collection,
            "comparer over a collection",
            "subtotal",
            json!([item("pen", 150, 1), {"message": "set_quantity", "args": {"sku": "pen", "quantity": 3}}])
        ),
        till_shape!(
            the_wrong_of_two_sources,
            "reads the wrong of two similar sources",
            "total",
            json!([item("lamp", 1000, 1), {"message": "set_discount", "args": {"percent": 10}}])
        ),
        till_shape!(
            a_select_of_the_wrong_part,
            "select over the wrong part of the model",
            "total",
            json!([item("lamp", 1000, 1), {"message": "set_discount", "args": {"percent": 10}}])
        ),
        till_shape!(
            a_disposed_source,
            "disposed source",
            "total",
            json!([item("lamp", 1000, 1), {"message": "set_coupon", "args": {"percent": 15}}])
        ),
        till_shape!(
            a_previous_value_kept,
            "previous value kept",
            "peak",
            json!([item("pen", 500, 1), item("lamp", 700, 1)])
        ),
        till_shape!(
            a_wrong_row_factory,
            "a row factory's memo",
            "lines[lamp]/line_total",
            json!([item("pen", 150, 1), item("lamp", 1000, 2)])
        ),
        till_shape!(
            peeked_before_a_later_write,
            "effect reads a value written later in the same flush",
            "receipt",
            json!([item("lamp", 1000, 1)])
        ),
        till_shape!(
            a_batch_hides_a_value,
            "batch hides an intermediate",
            "history",
            json!([item("pen", 150, 1)])
        ),
        till_shape!(
            a_read_inside_a_future,
            "an async memo's future reads a signal (untracked)",
            "quote",
            // the first quote settles when the till opens; then the customer asks for express delivery
            json!([{"message": "set_express", "args": {"express": true}}])
        ),
        till_shape!(
            a_failure_turned_into_a_default,
            "an async memo's future turns a failure into a default",
            "tax",
            json!([item("lamp", 1000, 1), {"message": "set_tax_rate", "args": {"percent": 20}}])
        ),
    ];
    // the parcel desk: `update` and the helpers in modules of their own, the graph in a fourth file
    shapes.push(Shape {
        name: "parcel_insure_arm",
        class: "update arm in another module writes the wrong field",
        node: "insurance",
        messages: json!([
            {"message": "declare", "args": {"cents": 8000}},
            {"message": "insure", "args": {}}
        ]),
        faulty: fault_in(
            include_str!("parcel/update.rs"),
            "update.rs",
            "parcel_insure_arm",
        ),
        start: start_parcel,
    });
    shapes.push(Shape {
        name: "parcel_postage_helper",
        class: "boundary in a helper of another module",
        node: "postage",
        messages: json!([{"message": "weigh", "args": {"grams": 2000}}]),
        faulty: fault_in(
            include_str!("parcel/rules.rs"),
            "rules.rs",
            "parcel_postage_helper",
        ),
        start: start_parcel,
    });
    shapes.push(Shape {
        name: "parcel_label_written_elsewhere",
        class: "a message's effect writes the wrong signal",
        node: "price_label",
        messages: json!([{"message": "weigh", "args": {"grams": 1500}}]),
        faulty: fault_in(
            include_str!("parcel/graph.rs"),
            "graph.rs",
            "parcel_label_written_elsewhere",
        ),
        start: start_parcel,
    });
    shapes.push(Shape {
        name: "parcel_quote_equality",
        class: "a hand-written PartialEq in another file ignores a field",
        node: "delivery",
        messages: json!([
            {"message": "weigh", "args": {"grams": 1500}},
            {"message": "set_express", "args": {"express": true}}
        ]),
        faulty: fault_in(
            include_str!("parcel/model.rs"),
            "model.rs",
            "parcel_quote_equality",
        ),
        start: start_parcel,
    });
    shapes.push(Shape {
        name: "parcel_book_commands",
        class: "an update arm sends fewer commands than it should",
        node: "collection",
        messages: json!([{"message": "book", "args": {}}]),
        faulty: fault_in(
            include_str!("parcel/update.rs"),
            "update.rs",
            "parcel_book_commands",
        ),
        start: start_parcel,
    });
    for (name, class, node, search) in [
        (
            "comparer_cuts_off_a_real_change",
            "comparer cutoff",
            "total",
            "let rounded_subtotal = Memo::with_comparer(",
        ),
        (
            "peek_goes_stale",
            "untracked read",
            "shipping",
            "heavy.peek()",
        ),
        (
            "nobody_observes_it",
            "unobserved memo",
            "points",
            "let points = Memo::new(",
        ),
        (
            "a_cutoff_upstream",
            "cutoff upstream",
            "handling",
            "let billable_units = Memo::new(",
        ),
    ] {
        let messages = defects::reproductions()
            .into_iter()
            .find(|(_, n, _)| *n == node)
            .map(|(_, _, m)| m)
            .expect("a reproduction");
        shapes.push(Shape {
            name,
            class,
            node,
            messages,
            faulty: defect(search),
            start: start_defects,
        });
    }
    shapes
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--report") {
        eprintln!("usage: cargo run --example gallery -- --report [--answers]");
        std::process::exit(2);
    }
    let answers = args.iter().any(|a| a == "--answers");
    if !ranvier::trace::TRACED {
        eprintln!(
            "ranvier-gallery: this build records no trace: run it in a debug build (without --release)"
        );
        std::process::exit(1);
    }
    println!(
        "| shape | class | named in one call | answer (chars) | faulty line at (chars after the node line) | \
         faulty line at (chars from the start) |"
    );
    println!("|---|---|---|---|---|---|");
    let (mut named, mut early, mut first_400) = (0, 0, 0);
    let mut lengths = Vec::new();
    let shapes = shapes();
    for shape in &shapes {
        match run(shape).await {
            Ok(outcome) => {
                if answers {
                    eprintln!(
                        "== {} (faulty: {})\n{}\n",
                        shape.name, shape.faulty, outcome.answer
                    );
                }
                named += usize::from(outcome.named);
                early += usize::from(outcome.position.is_some_and(|p| p < 600));
                first_400 += usize::from(outcome.from_start.is_some_and(|p| p < 400));
                lengths.push(outcome.answer.chars().count());
                let at = |p: Option<usize>| p.map_or_else(|| "-".to_owned(), |p| p.to_string());
                println!(
                    "| {} | {} | {} | {} | {} | {} |",
                    shape.name,
                    shape.class,
                    if outcome.named { "yes" } else { "no" },
                    outcome.answer.chars().count(),
                    at(outcome.position),
                    at(outcome.from_start)
                );
            }
            Err(error) => println!("| {} | {} | error: {error} | | |", shape.name, shape.class),
        }
    }
    let median = median(&mut lengths);
    println!(
        "\n{named} of {} named in one call; {early} within the first 600 characters after the node line, \
         {first_400} within the first 400 of the answer; median answer {median} characters",
        shapes.len()
    );
}
