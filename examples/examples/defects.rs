//! A checkout with four planted defects, one of each kind the traced `explain` tool exists for. Each is marked
//! `DEFECT` below; `tests/tests/mcp_traced.rs` asserts that one `explain` call names its line.
//!
//! 1. `rounded_subtotal`'s comparer calls subtotals in the same thousand equal, so `total` misses a real change
//!    (`explain total` → `cutoff:` and the comparer's line).
//! 2. `shipping` reads `weight` with `peek`, so it goes stale when only the weight moves (`explain shipping` →
//!    `unread:` and the line of the peek).
//! 3. Nothing observes `points`, so it keeps the value it had when the app read it at startup (`explain points` →
//!    `not re-run since: ... nothing has read it since (unobserved ...)` under its creation line).
//! 4. `billable_units` caps at 10, so `handling` stops growing (`explain handling` → `cutoff:` upstream and the
//!    cap's line).
//!
//! `cargo run --example defects` serves it over stdio (a debug build lists `explain`, `graph` and `node`);
//! `cargo run --example defects -- --demo` reproduces each defect in process and prints what `explain` answers.
//!
//! Messages: `add_item {sku, unitPrice, quantity, grams}` (grams per unit), `set_discount {percent}` (0 to 100),
//! `set_express {express}`. Exposed values: `count`, `subtotal`, `weight`, `discount`, `shipping`, `total`,
//! `handling`; exposed nodes: the same but `count`, `discount`, plus `points`.

use ranvier::exposure::{Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Memo, Messages, Mvu};

/// One line of the order.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The product.
    pub sku: String,
    /// Price of one unit, in cents.
    pub unit_price: u64,
    /// How many units.
    pub quantity: u64,
    /// Weight of one unit, in grams.
    pub grams: u64,
}

/// The order's model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Order {
    /// The lines, in the order they were added.
    pub lines: Vec<Line>,
    /// Discount percent, 0 to 100.
    pub discount: u64,
    /// Express shipping.
    pub express: bool,
}

/// The order's messages.
#[derive(Clone, Debug, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Adds a line.
    AddItem {
        /// The product.
        sku: String,
        /// Price of one unit, in cents.
        unit_price: u64,
        /// Units, at least 1.
        #[message(range(min = 1))]
        quantity: u64,
        /// Weight of one unit, in grams.
        grams: u64,
    },
    /// Sets the discount percent.
    SetDiscount {
        /// 0 to 100.
        #[message(range(min = 0, max = 100))]
        percent: u64,
    },
    /// Chooses express shipping, or not.
    SetExpress {
        /// Express or standard.
        express: bool,
    },
}

/// The order's update.
pub fn update(msg: Msg, order: &Order) -> Order {
    let mut next = order.clone();
    match msg {
        Msg::AddItem {
            sku,
            unit_price,
            quantity,
            grams,
        } => next.lines.push(Line {
            sku,
            unit_price,
            quantity,
            grams,
        }),
        Msg::SetDiscount { percent } => next.discount = percent.min(100),
        Msg::SetExpress { express } => next.express = express,
    }
    next
}

fn sum(order: &Order, f: impl Fn(&Line) -> u64) -> u64 {
    order.lines.iter().map(f).fold(0, u64::saturating_add)
}

/// What the graph thread keeps.
pub struct DefectsApp {
    /// The order's model and update.
    pub order: Mvu<Order, Msg>,
    /// The loyalty points shown at startup.
    pub welcome_points: u64,
    /// The exposure.
    pub exposure: ExposureHandle,
}

/// Starts the checkout on its own graph thread and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_defects() -> Result<GraphHost<DefectsApp>, HostError> {
    GraphHost::start(|| {
        let order = Mvu::new(Order::default(), update);
        let count = order.select(|o| sum(o, |l| l.quantity));
        let subtotal = order.select(|o| sum(o, |l| l.unit_price.saturating_mul(l.quantity)));
        let weight = order.select(|o| sum(o, |l| l.grams.saturating_mul(l.quantity)));
        let discount = order.select(|o| o.discount);
        let express = order.select(|o| o.express);

        let sub = subtotal.clone();
        // DEFECT 1: subtotals in the same thousand compare equal, so a real change stops here.
        let rounded_subtotal = Memo::with_comparer(move |_| sub.get(), |a, b| a / 1000 == b / 1000);

        let heavy = weight.clone();
        let shipping = Memo::new(move |_| {
            if express.get() {
                1500
            } else if heavy.peek() > 5000 {
                // DEFECT 2: `peek` does not subscribe, so shipping misses a weight change.
                900
            } else {
                400
            }
        });

        let total = Memo::new({
            let (discount, shipping) = (discount.clone(), shipping.clone());
            move |_| rounded_subtotal.get() * (100 - discount.get()) / 100 + shipping.get()
        });

        let units = count.clone();
        // DEFECT 4: the cap should be 100; at 10 it keeps its value and `handling` stops growing.
        let billable_units = Memo::new(move |_| units.get().min(10));
        let handling = Memo::new(move |_| billable_units.get() * 25);

        // DEFECT 3: read once at startup and never observed, so it keeps its first value.
        let points = Memo::new({
            let total = total.clone();
            move |_| total.get() / 100
        });
        let welcome_points = points.get();

        let mut exposure = Exposure::new();
        exposure.value("count", move || count.get())?;
        for (name, memo) in [("subtotal", &subtotal), ("weight", &weight)] {
            let memo = memo.clone();
            exposure.value(name, move || memo.get())?;
        }
        exposure.value("discount", move || discount.get())?;
        for (name, memo) in [
            ("shipping", &shipping),
            ("total", &total),
            ("handling", &handling),
        ] {
            let memo = memo.clone();
            exposure.value(name, move || memo.get())?;
        }
        exposure.messages_of(&order)?;
        exposure
            .node("subtotal", &subtotal)?
            .node("weight", &weight)?
            .node("shipping", &shipping)?
            .node("total", &total)?
            .node("handling", &handling)?
            .node("points", &points)?;
        let exposure = exposure.start()?;
        Ok::<_, ranvier::exposure::ExposeError>(DefectsApp {
            order,
            welcome_points,
            exposure,
        })
    })
}

/// The checkout's MCP adapter, built on the graph thread once the exposure has started.
///
/// # Errors
///
/// A [`HostError`] when the host is gone.
pub fn defects_adapter(
    host: &GraphHost<DefectsApp>,
    options: McpAdapterOptions,
) -> Result<McpAdapter, HostError> {
    host.invoke(move |app| McpAdapter::new(app.exposure.clone(), options))
        .wait()
}

/// Each defect: the node to explain and the messages that show it.
pub fn reproductions() -> Vec<(&'static str, &'static str, serde_json::Value)> {
    use serde_json::json;
    vec![
        (
            "comparer cuts off a real change",
            "total",
            json!([
                {"message": "add_item", "args": {"sku": "lamp", "unitPrice": 1000, "quantity": 1, "grams": 800}},
                {"message": "add_item", "args": {"sku": "bulb", "unitPrice": 250, "quantity": 1, "grams": 50}}
            ]),
        ),
        (
            "peek goes stale",
            "shipping",
            json!([{"message": "add_item", "args": {"sku": "anvil", "unitPrice": 900, "quantity": 2, "grams": 3000}}]),
        ),
        (
            "nobody observes it",
            "points",
            json!([{"message": "add_item", "args": {"sku": "lamp", "unitPrice": 1000, "quantity": 3, "grams": 800}}]),
        ),
        (
            "a cutoff upstream",
            "handling",
            json!([
                {"message": "add_item", "args": {"sku": "screw", "unitPrice": 5, "quantity": 12, "grams": 2}},
                {"message": "add_item", "args": {"sku": "nut", "unitPrice": 3, "quantity": 3, "grams": 1}}
            ]),
        ),
    ]
}

#[cfg(any(debug_assertions, feature = "trace"))]
async fn demo() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    for (defect, node, messages) in reproductions() {
        let host = start_defects()?;
        let exposure = host.invoke(|app| app.exposure.clone()).wait()?;
        let messages: Vec<(String, serde_json::Value)> = messages
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                (
                    m["message"].as_str().unwrap_or_default().to_owned(),
                    m["args"].clone(),
                )
            })
            .collect();
        let outcome = exposure.dispatch_all_as("demo", messages).await;
        let id = exposure.node(node).ok_or("the node is exposed")?;
        let explanation = exposure
            .on_graph(move || ranvier::trace::explain(id).map(|e| e.to_string()))
            .await??;
        println!(
            "== {defect}: explain {node}\n{}\n{explanation}\n",
            ranvier::mcp::sequence_text(&outcome)
        );
        host.dispose();
    }
    Ok(())
}

#[cfg(not(any(debug_assertions, feature = "trace")))]
async fn demo() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    Err("this build records no trace: run the demo in a debug build (without --release)".into())
}

#[tokio::main]
async fn main() {
    if let Err(error) = run().await {
        eprintln!("ranvier-defects: {error}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    if std::env::args().skip(1).any(|arg| arg == "--demo") {
        return demo().await;
    }
    let host = start_defects()?;
    let adapter = defects_adapter(
        &host,
        McpAdapterOptions::new("ranvier-defects", env!("CARGO_PKG_VERSION")),
    )?;
    eprintln!("ranvier-defects: serving MCP over stdio");
    ranvier::mcp::serve_stdio(adapter.clone()).await?;
    adapter.dispose();
    host.dispose();
    Ok(())
}
