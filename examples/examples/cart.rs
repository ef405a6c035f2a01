//! A shopping cart an MCP client can read and drive while it runs.
//!
//! `cargo run --example cart` serves it over stdio (register that command with an MCP client);
//! `cargo run --example cart -- --demo` dispatches a few messages in process and prints the steps instead;
//! `cargo run --example cart -- --http 127.0.0.1:8900` serves Streamable HTTP at `http://127.0.0.1:8900/mcp` instead
//! (loopback only; `RANVIER_MCP_TOKEN` sets a bearer token), and adding `--stdio` serves both at once from one graph.
//! It prints the live page's address with the page's key (`…/?key=<key>`; `RANVIER_PAGE_KEY` chooses the key): open it
//! in a browser, the agent never needs it.
//! `--confirm` (or `RANVIER_CART_CONFIRM=1`) makes `clear` wait for a person's approval: `dispatch` then pauses and
//! the client answers with `resume` (or its user is asked directly, where the client supports elicitation).
//! `--raw-trace-tools` (`RANVIER_MCP_RAW_TRACE_TOOLS=1`) also lists the JSON trace tools in a debug build,
//! `--always-load` (`RANVIER_MCP_ALWAYS_LOAD=1`) marks `dispatch` and `explain` always-load for Claude Code,
//! `--sender NAME` (`RANVIER_MCP_SENDER`) records every client's messages as sent by NAME, and `--answerers any`
//! (`RANVIER_MCP_ANSWERERS=any`) lets any session answer an interrupt (by default only the one that opened it).
//!
//! Messages: `add_item {sku, unitPrice, quantity}` (an existing sku adds to its quantity), `remove_item {sku}`
//! (an unknown sku changes nothing), `set_discount {percent}` (0 to 100) and `clear {}`. Exposed values, in order:
//! `count` (total quantity), `subtotal` (Σ unitPrice × quantity), `discount` (percent), `total`
//! (subtotal × (100 − discount) / 100, integer division). The lines are a keyed collection, the node `lines`: one
//! row per sku (`lines[apple]`), each with its own total (unitPrice × quantity, the node `lines[apple]/total`).
//! `count` is a `sum_by` view over the rows (a change to one line costs that line, not the list) and `subtotal` adds
//! up the rows' totals. An `add_item` that would take a line's quantity, `count` or
//! `subtotal` past `u64::MAX` is refused with a tool error naming the value, and the cart is unchanged.

use ranvier::collection::Collection;
use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Expose, Memo, Messages, Mvu, expose, node};
use serde_json::json;

/// One line of the cart (a row of the `lines` value: `{"key": sku, "unitPrice", "quantity", "total"}`).
#[derive(Clone, Debug, PartialEq, ranvier::serde::Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Item {
    /// The product's stock-keeping unit (the row's key).
    #[serde(skip)]
    pub sku: String,
    /// Price of one unit, in cents.
    pub unit_price: u64,
    /// How many units.
    pub quantity: u64,
}

/// The cart's model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cart {
    /// The lines, in the order their skus were first added.
    pub items: Vec<Item>,
    /// Discount percent, 0 to 100.
    pub discount: u64,
}

/// The cart's messages: `#[derive(Messages)]` generates their decoders, one-line shapes and JSON Schemas.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Adds `quantity` units of `sku`; an existing sku adds to its quantity.
    AddItem {
        /// The product.
        sku: String,
        /// Price of one unit, in cents.
        #[message(range(min = 0))]
        unit_price: u64,
        /// Units to add, at least 1.
        #[message(range(min = 1))]
        quantity: u64,
    },
    /// Removes the line of `sku`; an unknown sku changes nothing.
    RemoveItem {
        /// The product.
        sku: String,
    },
    /// Sets the discount percent.
    SetDiscount {
        /// 0 to 100.
        #[message(range(min = 0, max = 100))]
        percent: u64,
    },
    /// Empties the cart and drops the discount. With approval on (`--confirm`), it waits for a person's yes.
    #[message(confirm = "Empty the cart and drop its discount?")]
    Clear,
}

/// The cart's update.
///
/// A message that would overflow a line's quantity, the `count` or the `subtotal` is refused (see [`refuse`]): the
/// dispatcher answers with the reason, and the model is unchanged.
pub fn update(msg: Msg, cart: &Cart) -> Cart {
    let mut next = cart.clone();
    match msg {
        Msg::AddItem {
            sku,
            unit_price,
            quantity,
        } => {
            match next.items.iter_mut().find(|item| item.sku == sku) {
                Some(item) => {
                    item.quantity = item.quantity.checked_add(quantity).unwrap_or_else(|| {
                        refuse(format!(
                            "the quantity of {sku} would overflow ({} + {quantity})",
                            item.quantity
                        ))
                    });
                }
                None => next.items.push(Item {
                    sku,
                    unit_price,
                    quantity,
                }),
            }
            if let Err(reason) = totals(&next) {
                refuse(reason);
            }
        }
        Msg::RemoveItem { sku } => next.items.retain(|item| item.sku != sku),
        Msg::SetDiscount { percent } => next.discount = percent,
        Msg::Clear => next = Cart::default(),
    }
    next
}

/// The cart's `(count, subtotal)`.
///
/// # Errors
///
/// The value that would overflow `u64`, and why: `count` (the quantities add up past it) or `subtotal` (a line's
/// `unitPrice × quantity`, or the lines together).
pub fn totals(cart: &Cart) -> Result<(u64, u64), String> {
    let (mut count, mut subtotal) = (0_u64, 0_u64);
    for item in &cart.items {
        count = count.checked_add(item.quantity).ok_or_else(|| {
            format!(
                "count would overflow: the quantities add up past {}",
                u64::MAX
            )
        })?;
        let line = item.unit_price.checked_mul(item.quantity).ok_or_else(|| {
            format!(
                "subtotal would overflow: unitPrice × quantity of {:?} is {} × {}, past {}",
                item.sku,
                item.unit_price,
                item.quantity,
                u64::MAX
            )
        })?;
        subtotal = subtotal.checked_add(line).ok_or_else(|| {
            format!(
                "subtotal would overflow: the lines add up past {}",
                u64::MAX
            )
        })?;
    }
    Ok((count, subtotal))
}

/// Refuses the message `update` is applying: the dispatcher answers `reason` and leaves the model unchanged.
///
/// It unwinds as a panic does (the dispatcher catches both) but without running the panic hook, so a message that
/// is merely refused prints nothing on stderr.
fn refuse(reason: String) -> ! {
    std::panic::resume_unwind(Box::new(reason))
}

/// The cart as an agent sees it: `#[expose]` registers the marked fields, in field order.
///
/// `cart` is the message source (`add_item`, `remove_item`, `set_discount`, `clear`, with `clear`'s approval
/// prompt); `count`, `subtotal`, `discount` and `total` are the exposed values, and the last three are also nodes the
/// trace tools may name, as are `lines` and its rows (`lines[apple]`, `lines[apple]/total`).
#[expose]
pub struct CartApp {
    /// The cart's model and update: its messages are what an agent may send.
    #[expose(messages)]
    pub cart: Mvu<Cart, Msg>,
    /// Total quantity.
    #[expose]
    pub count: Memo<u64>,
    /// Σ unitPrice × quantity.
    #[expose]
    #[node]
    pub subtotal: Memo<u64>,
    /// Discount percent.
    #[expose]
    #[node]
    pub discount: Memo<u64>,
    /// subtotal × (100 − discount) / 100.
    #[expose]
    #[node]
    pub total: Memo<u64>,
    /// The lines, one row per sku, each with its total.
    #[expose]
    #[node]
    pub lines: Lines,
}

/// The cart's lines: keyed by sku, each row's factory output its total, published as the row's `total` field.
pub type Lines = Collection<String, Item, (&'static str, Memo<u64>)>;

/// A line's row: its total, `unitPrice × quantity` (the node `lines[sku]/total`, the field `total` of its row in the
/// `lines` value).
fn line_row(row: &ranvier::collection::Row<String, Item>) -> (&'static str, Memo<u64>) {
    let row = row.clone();
    let total = Memo::new(move |_| row.with(|item| item.unit_price.saturating_mul(item.quantity)))
        .labelled("total");
    ("total", total)
}

/// Builds the cart's graph; `#[node]` labels each node with its `let` name for the trace.
#[node]
pub fn cart_graph() -> CartApp {
    let cart = Mvu::new(Cart::default(), update);
    let lines = Collection::keyed(
        cart.select(|cart| cart.items.clone()),
        |item: &Item| item.sku.clone(),
        line_row,
    );
    // `update` refuses a message that would take the count past u64::MAX, so the sum does not overflow
    let count = lines.sum_by(|item| item.quantity);
    let subtotal = Memo::new({
        let lines = lines.clone();
        move |_| {
            lines
                .rows()
                .iter()
                .map(|(_, total)| total.get())
                .fold(0_u64, u64::saturating_add)
        }
    });
    let discount = cart.select(|cart| cart.discount);
    let total = Memo::new({
        let (subtotal, discount) = (subtotal.clone(), discount.clone());
        move |_| {
            let (subtotal, discount) = (
                u128::from(subtotal.get()),
                u128::from(discount.get().min(100)),
            );
            // at most `subtotal`, so it fits
            u64::try_from(subtotal * (100 - discount) / 100).unwrap_or(u64::MAX)
        }
    });
    CartApp {
        cart,
        count,
        subtotal,
        discount,
        total,
        lines,
    }
}

/// What the cart's graph thread keeps: the app and the handle of its exposure.
pub type CartHost = GraphHost<(CartApp, ExposureHandle)>;

/// The environment variable that turns approval on (`1`), as `--confirm` does.
pub const CONFIRM_ENV: &str = "RANVIER_CART_CONFIRM";

/// Starts the cart on its own graph thread and exposes it, with `clear` running straight away.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_cart() -> Result<CartHost, HostError> {
    start_cart_with(false)
}

/// Starts the cart; with `confirm`, `clear` pauses for a person's approval (its `#[message(confirm)]` prompt).
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_cart_with(confirm: bool) -> Result<CartHost, HostError> {
    GraphHost::start(move || {
        let app = cart_graph();
        let mut exposure = Exposure::new();
        exposure.require_approval(confirm);
        app.expose(&mut exposure)?;
        // forks (`fork`, `dispatch {dryRun}`) are built by the same fn, then given the live cart
        exposure.forks(cart_graph);
        let exposure = exposure.start()?;
        Ok::<_, ExposeError>((app, exposure))
    })
}

/// The cart's MCP adapter, built on the graph thread once the exposure has started.
///
/// # Errors
///
/// A [`HostError`] when the host is gone.
pub fn cart_adapter(host: &CartHost, options: McpAdapterOptions) -> Result<McpAdapter, HostError> {
    host.invoke(move |(_, exposure)| McpAdapter::new(exposure.clone(), options))
        .wait()
}

/// The options the cart serves with: its name and version, the adapter's environment variables
/// ([`McpAdapterOptions::with_env`]: `RANVIER_MCP_PROTOCOL`, `RANVIER_MCP_RAW_TRACE_TOOLS`, `RANVIER_MCP_ALWAYS_LOAD`,
/// `RANVIER_MCP_SENDER`, `RANVIER_MCP_ANSWERERS`), then the flags in `args`, which win: `--raw-trace-tools`,
/// `--always-load`, `--sender NAME` and `--answerers own|any`.
///
/// # Errors
///
/// A variable or flag with a value it does not take, named with what it takes.
pub fn cart_options(args: &[String]) -> Result<McpAdapterOptions, String> {
    let mut options = McpAdapterOptions::new("ranvier-cart", env!("CARGO_PKG_VERSION"))
        .with_env()
        .map_err(|e| e.to_string())?;
    let value = |flag: &str, expected: &str| -> Result<Option<&String>, String> {
        match args.iter().position(|arg| arg == flag) {
            None => Ok(None),
            Some(at) => match args.get(at + 1) {
                Some(value) if !value.starts_with("--") => Ok(Some(value)),
                _ => Err(format!("{flag} needs {expected}")),
            },
        }
    };
    if args.iter().any(|arg| arg == "--raw-trace-tools") {
        options = options.raw_trace_tools(true);
    }
    if args.iter().any(|arg| arg == "--always-load") {
        options = options.always_load(true);
    }
    if let Some(name) = value("--sender", "a name, like --sender ci-agent")? {
        options = options.sender(name.clone());
    }
    options = match value("--answerers", "own or any")?.map(String::as_str) {
        None => options,
        Some("own") => options.answerers(ranvier::mcp::Answerers::OwnSession),
        Some("any") => options.answerers(ranvier::mcp::Answerers::AnySession),
        Some(other) => return Err(format!("--answerers takes own or any, got {other:?}")),
    };
    Ok(options)
}

async fn demo(exposure: &ExposureHandle) {
    let messages = vec![
        (
            "add_item".to_owned(),
            json!({"sku": "apple", "unitPrice": 120, "quantity": 3}),
        ),
        (
            "add_item".to_owned(),
            json!({"sku": "pear", "unitPrice": 140, "quantity": 1}),
        ),
        ("set_discount".to_owned(), json!({"percent": 10})),
        ("remove_item".to_owned(), json!({"sku": "kiwi"})),
        (
            "add_item".to_owned(),
            json!({"sku": "apple", "unitPrice": 120, "quantity": 2}),
        ),
    ];
    let outcome = exposure.dispatch_all_as("demo", messages).await;
    println!("{}", ranvier::mcp::sequence_text(&outcome));
    let rejected = exposure
        .dispatch_all_as(
            "demo",
            vec![("set_discount".to_owned(), json!({"percent": 150}))],
        )
        .await;
    println!("\n{}", ranvier::mcp::sequence_text(&rejected));
}

/// The address after `--http`, if given.
fn http_address(args: &[String]) -> Result<Option<std::net::SocketAddr>, String> {
    let Some(at) = args.iter().position(|arg| arg == "--http") else {
        return Ok(None);
    };
    let raw = args
        .get(at + 1)
        .ok_or("--http needs an address, like --http 127.0.0.1:8900")?;
    raw.parse()
        .map(Some)
        .map_err(|_| format!("--http needs an address like 127.0.0.1:8900, got {raw:?}"))
}

#[tokio::main]
async fn main() {
    if let Err(error) = run().await {
        eprintln!("ranvier-cart: {error}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let http = http_address(&args)?;
    let confirm = args.iter().any(|arg| arg == "--confirm")
        || std::env::var(CONFIRM_ENV).is_ok_and(|value| value == "1");
    let host = start_cart_with(confirm)?;
    if args.iter().any(|arg| arg == "--demo") {
        let exposure = host.invoke(|(_, exposure)| exposure.clone()).wait()?;
        demo(&exposure).await;
    } else if let Some(addr) = http {
        let adapter = cart_adapter(&host, cart_options(&args)?)?;
        let options = ranvier::mcp::http::HttpOptions::from_env()?;
        let server =
            ranvier::mcp::http::HttpServer::bind(adapter.clone(), addr, "/mcp", options).await?;
        eprintln!("ranvier-cart: serving MCP at {}", server.url());
        if args.iter().any(|arg| arg == "--stdio") {
            // one graph, two transports: stdio until its client leaves, HTTP meanwhile
            eprintln!("ranvier-cart: serving MCP over stdio too");
            ranvier::mcp::serve_stdio(adapter.clone()).await?;
            server.shutdown();
        }
        server.wait().await?;
        adapter.dispose();
    } else {
        let adapter = cart_adapter(&host, cart_options(&args)?)?;
        eprintln!("ranvier-cart: serving MCP over stdio");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
    }
    host.dispose();
    Ok(())
}
