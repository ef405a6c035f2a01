//! A small shop whose shipping quote comes from a remote service: an async memo an MCP client sees go pending and
//! settle.
//!
//! `cargo run --example shipping` serves it over stdio (register that command with an MCP client);
//! `cargo run --example shipping -- --demo` dispatches a few messages in process and prints the steps, the pending
//! quote, and what the trace says about it, instead. `--raw-trace-tools` (`RANVIER_MCP_RAW_TRACE_TOOLS=1`) also
//! lists the JSON trace tools (`waiting_on` among them) in a debug build.
//!
//! Messages: `add_goods {cents, grams}` (adds to the order), `set_zone {zone}` (`domestic`, `europe` or `world`; any
//! other zone has no rates, and the quote fails) and `clear {}`. Exposed values, in order: `goods` (cents), `grams`,
//! `zone`, `shipping` (the quote, an [`AsyncMemo`]: the "service" answers after `SHIPPING_QUOTE_MS` milliseconds,
//! 300 by default) and `total` (goods + shipping, pending while the quote is). A pending value reads
//! `{"pending": true, "last": 450}` in snapshots and resources, and `(pending)` in step lines.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ranvier::exposure::{Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{AsyncMemo, AsyncState, Memo, Messages, Mvu};
use serde_json::json;

/// The order.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// Price of the goods, in cents.
    pub goods: u64,
    /// Their weight, in grams.
    pub grams: u64,
    /// Where they go.
    pub zone: String,
}

impl Default for Order {
    fn default() -> Self {
        Order {
            goods: 0,
            grams: 0,
            zone: "domestic".to_owned(),
        }
    }
}

/// The shop's messages.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Adds goods to the order: their price in cents and their weight in grams.
    AddGoods {
        /// Price, in cents.
        cents: u64,
        /// Weight, in grams.
        grams: u64,
    },
    /// Ships to `zone`: `domestic`, `europe` or `world`.
    SetZone {
        /// The destination zone.
        zone: String,
    },
    /// Empties the order.
    Clear,
}

/// The order after `msg`.
pub fn update(msg: Msg, order: &Order) -> Order {
    match msg {
        Msg::AddGoods { cents, grams } => Order {
            goods: order.goods.saturating_add(cents),
            grams: order.grams.saturating_add(grams),
            ..order.clone()
        },
        Msg::SetZone { zone } => Order {
            zone,
            ..order.clone()
        },
        Msg::Clear => Order::default(),
    }
}

/// What the shipping service charges, in cents: a base per zone plus a rate per started 100 g.
///
/// # Errors
///
/// The service's answer for a zone it has no rates for.
pub fn quote(zone: &str, grams: u64) -> Result<u64, String> {
    let (base, per_100g) = match zone {
        "domestic" => (300, 10),
        "europe" => (900, 25),
        "world" => (1_500, 60),
        other => {
            return Err(format!(
                "the shipping service has no rates for zone {other:?}"
            ));
        }
    };
    Ok(base + grams.div_ceil(100) * per_100g)
}

/// How long the simulated service takes to answer (`SHIPPING_QUOTE_MS`, 300 ms by default).
pub fn quote_delay() -> Duration {
    let ms = std::env::var("SHIPPING_QUOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(300);
    Duration::from_millis(ms)
}

/// The app on the graph thread.
pub struct ShopApp {
    /// The order.
    pub order: Mvu<Order, Msg>,
    /// The shipping quote.
    pub shipping: AsyncMemo<u64>,
    /// The exposure's handle.
    pub exposure: ExposureHandle,
}

/// Starts the shop on its graph thread, the service answering after [`quote_delay`]. Call it inside a tokio
/// runtime: the quote's timer is tokio's.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_shop() -> Result<GraphHost<ShopApp>, HostError> {
    let delay = u64::try_from(quote_delay().as_millis()).unwrap_or(u64::MAX);
    start_shop_with(Arc::new(AtomicU64::new(delay)))
}

/// [`start_shop`], the service answering after `delay_ms` milliseconds, read as each quote starts (the tests change
/// it between quotes).
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_shop_with(delay_ms: Arc<AtomicU64>) -> Result<GraphHost<ShopApp>, HostError> {
    GraphHost::start(move || {
        let order = Mvu::new(Order::default(), update).labelled("order");
        let goods = order.select(|order| order.goods);
        let grams = order.select(|order| order.grams);
        let zone = order.select(|order| order.zone.clone());
        // The remote call: reads `grams` and `zone` (tracked), then waits for the "service".
        let shipping = AsyncMemo::try_new({
            let (grams, zone) = (grams.clone(), zone.clone());
            move |_| {
                let (grams, zone) = (grams.get(), zone.get());
                let delay = Duration::from_millis(delay_ms.load(Ordering::Relaxed));
                async move {
                    tokio::time::sleep(delay).await;
                    quote(&zone, grams)
                }
            }
        })
        .labelled("shipping");
        let total = Memo::new({
            let (goods, shipping) = (goods.clone(), shipping.clone());
            move |_| {
                let goods = goods.get();
                shipping.get().map(|shipping| goods + shipping)
            }
        })
        .labelled("total");

        let mut exposure = Exposure::new();
        exposure.value("goods", {
            let goods = goods.clone();
            move || goods.get()
        })?;
        exposure.value("grams", move || grams.get())?;
        exposure.value("zone", move || zone.get())?;
        exposure.value("shipping", {
            let shipping = shipping.clone();
            move || shipping.get()
        })?;
        exposure.value("total", {
            let total = total.clone();
            move || total.get()
        })?;
        exposure
            .messages(&order, Msg::decoders())?
            .message_shapes(Msg::shapes())?
            .message_schemas(Msg::schemas())?;
        exposure
            .node("goods", &goods)?
            .node("shipping", &shipping)?
            .node("total", &total)?;
        let exposure = exposure.start()?;
        Ok::<_, ranvier::exposure::ExposeError>(ShopApp {
            order,
            shipping,
            exposure,
        })
    })
}

async fn demo(host: &GraphHost<ShopApp>) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let exposure = host.invoke(|app| app.exposure.clone()).wait()?;
    let outcome = exposure
        .dispatch_all_as(
            "demo",
            vec![
                ("add_goods".to_owned(), json!({"cents": 2400, "grams": 750})),
                ("set_zone".to_owned(), json!({"zone": "europe"})),
            ],
        )
        .await;
    println!("{}", ranvier::mcp::sequence_text(&outcome));

    // The quote is in flight: what does the trace say it waits for?
    let waiting = host
        .invoke(|app| match ranvier::trace::waiting_on(&app.shipping) {
            Ok(waiting) => waiting.to_string(),
            Err(error) => format!("({error})"),
        })
        .wait()?;
    println!("\n{waiting}");

    // The service answers: a settle publishes a version like any write.
    let settled = until_settled(&exposure).await?;
    println!(
        "\nsettled → v{}: shipping={}, total={}",
        settled.version,
        settled.get("shipping").cloned().unwrap_or_default(),
        settled.get("total").cloned().unwrap_or_default()
    );
    let state = host.invoke(|app| app.shipping.peek()).wait()?;
    if let AsyncState::Ready(cents) = state {
        println!("the quote is ready: {cents} cents");
    }

    // A zone without rates: the quote fails, and says why.
    let outcome = exposure
        .dispatch_all_as(
            "demo",
            vec![("set_zone".to_owned(), json!({"zone": "moon"}))],
        )
        .await;
    println!("\n{}", ranvier::mcp::sequence_text(&outcome));
    let failed = until_settled(&exposure).await?;
    println!(
        "settled → v{}: shipping={}",
        failed.version,
        failed.get("shipping").cloned().unwrap_or_default()
    );
    Ok(())
}

/// The first snapshot whose `shipping` is no longer pending.
async fn until_settled(
    exposure: &ExposureHandle,
) -> Result<std::sync::Arc<ranvier::exposure::Snapshot>, Box<dyn std::error::Error + Send + Sync>> {
    loop {
        let snapshot = exposure.snapshot();
        let pending = snapshot
            .get("shipping")
            .is_some_and(|shipping| shipping.get("pending").is_some());
        if !pending {
            return Ok(snapshot);
        }
        exposure
            .wait_version(snapshot.version + 1, Duration::from_secs(10))
            .await
            .ok_or("the quote did not settle within 10 s")?;
    }
}

#[tokio::main]
async fn main() {
    if let Err(error) = run().await {
        eprintln!("ranvier-shipping: {error}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let host = start_shop()?;
    if args.iter().any(|arg| arg == "--demo") {
        demo(&host).await?;
    } else {
        let mut options =
            McpAdapterOptions::new("shipping", env!("CARGO_PKG_VERSION")).with_env()?;
        if args.iter().any(|arg| arg == "--raw-trace-tools") {
            options = options.raw_trace_tools(true);
        }
        let adapter = host
            .invoke(move |app| McpAdapter::new(app.exposure.clone(), options))
            .wait()?;
        eprintln!("ranvier-shipping: serving MCP over stdio");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
    }
    host.dispose();
    Ok(())
}
