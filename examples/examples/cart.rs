//! A shopping cart an MCP client can read and drive while it runs.
//!
//! `cargo run --example cart` serves it over stdio (register that command with an MCP client);
//! `cargo run --example cart -- --demo` dispatches a few messages in process and prints the steps instead;
//! `cargo run --example cart -- --http 127.0.0.1:8900` serves Streamable HTTP at `http://127.0.0.1:8900/mcp` instead
//! (loopback only; `RANVIER_MCP_TOKEN` sets a bearer token), and adding `--stdio` serves both at once from one graph.
//!
//! Messages: `add_item {sku, unitPrice, quantity}` (an existing sku adds to its quantity), `remove_item {sku}`
//! (an unknown sku changes nothing), `set_discount {percent}` (0 to 100) and `clear {}`. Exposed values, in order:
//! `count` (total quantity), `subtotal` (Σ unitPrice × quantity), `discount` (percent) and `total`
//! (subtotal × (100 − discount) / 100, integer division).

use ranvier::exposure::{Exposure, ExposureHandle, MessageDecoder};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Memo, Mvu};
use serde_json::{Value, json};

/// One line of the cart.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The product's stock-keeping unit.
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

/// The cart's messages.
#[derive(Debug)]
pub enum Msg {
    /// Adds `quantity` units of `sku`; an existing sku adds to its quantity.
    AddItem {
        /// The product.
        sku: String,
        /// Price of one unit, in cents.
        unit_price: u64,
        /// Units to add, at least 1.
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
        percent: u64,
    },
    /// Empties the cart and drops the discount.
    Clear,
}

/// The cart's update.
///
/// # Panics
///
/// When adding to a line would overflow its quantity (the model is then left unchanged by the dispatcher).
pub fn update(msg: Msg, cart: &Cart) -> Cart {
    let mut next = cart.clone();
    match msg {
        Msg::AddItem {
            sku,
            unit_price,
            quantity,
        } => match next.items.iter_mut().find(|item| item.sku == sku) {
            Some(item) => {
                item.quantity = item.quantity.checked_add(quantity).unwrap_or_else(|| {
                    panic!(
                        "the quantity of {sku} would overflow ({} + {quantity})",
                        item.quantity
                    )
                });
            }
            None => next.items.push(Item {
                sku,
                unit_price,
                quantity,
            }),
        },
        Msg::RemoveItem { sku } => next.items.retain(|item| item.sku != sku),
        Msg::SetDiscount { percent } => next.discount = percent,
        Msg::Clear => next = Cart::default(),
    }
    next
}

fn object(args: &Value) -> Result<&serde_json::Map<String, Value>, String> {
    args.as_object()
        .ok_or_else(|| format!("arguments must be a JSON object, got {args}"))
}

fn string(args: &Value, field: &str) -> Result<String, String> {
    match object(args)?.get(field) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(format!("`{field}` must be a string, got {other}")),
        None => Err(format!("missing `{field}`")),
    }
}

fn integer(args: &Value, field: &str, min: u64, max: u64) -> Result<u64, String> {
    let value = object(args)?
        .get(field)
        .ok_or_else(|| format!("missing `{field}`"))?;
    match value.as_u64() {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ if value.is_i64() || value.is_u64() => Err(format!(
            "`{field}` must be between {min} and {max}, got {value}"
        )),
        _ => Err(format!("`{field}` must be an integer, got {value}")),
    }
}

/// The decoders, shapes and argument schemas of the cart's messages.
type Registration = (
    Vec<(String, MessageDecoder<Msg>)>,
    Vec<(String, String)>,
    Vec<(String, Value)>,
);

/// The decoders, shapes and argument schemas of the cart's messages, in registration order.
fn messages() -> Registration {
    let decoders: Vec<(String, MessageDecoder<Msg>)> = vec![
        (
            "add_item".into(),
            Box::new(|args: &Value| {
                Ok(Msg::AddItem {
                    sku: string(args, "sku")?,
                    unit_price: integer(args, "unitPrice", 0, u64::MAX)?,
                    quantity: integer(args, "quantity", 1, u64::MAX)?,
                })
            }),
        ),
        (
            "remove_item".into(),
            Box::new(|args: &Value| {
                Ok(Msg::RemoveItem {
                    sku: string(args, "sku")?,
                })
            }),
        ),
        (
            "set_discount".into(),
            Box::new(|args: &Value| {
                Ok(Msg::SetDiscount {
                    percent: integer(args, "percent", 0, 100)?,
                })
            }),
        ),
        ("clear".into(), Box::new(|_: &Value| Ok(Msg::Clear))),
    ];
    let shapes = vec![
        (
            "add_item".into(),
            "{sku: string, unitPrice: integer ≥ 0, quantity: integer ≥ 1}".into(),
        ),
        ("remove_item".into(), "{sku: string}".into()),
        ("set_discount".into(), "{percent: integer 0..=100}".into()),
        ("clear".into(), "{}".into()),
    ];
    let schemas = vec![
        (
            "add_item".into(),
            json!({
                "type": "object",
                "properties": {
                    "sku": {"type": "string"},
                    "unitPrice": {"type": "integer", "minimum": 0},
                    "quantity": {"type": "integer", "minimum": 1}
                },
                "required": ["sku", "unitPrice", "quantity"]
            }),
        ),
        (
            "remove_item".into(),
            json!({"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}),
        ),
        (
            "set_discount".into(),
            json!({
                "type": "object",
                "properties": {"percent": {"type": "integer", "minimum": 0, "maximum": 100}},
                "required": ["percent"]
            }),
        ),
        ("clear".into(), json!({"type": "object", "properties": {}})),
    ];
    (decoders, shapes, schemas)
}

/// What the graph thread keeps: the model and the exposure's handle.
pub struct CartApp {
    /// The cart's model and update.
    pub cart: Mvu<Cart, Msg>,
    /// The exposure of the cart's values and messages.
    pub exposure: ExposureHandle,
}

/// Starts the cart on its own graph thread and exposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_cart() -> Result<GraphHost<CartApp>, HostError> {
    GraphHost::start(|| {
        let cart = Mvu::new(Cart::default(), update);
        let count = cart.select(|cart| {
            cart.items
                .iter()
                .map(|item| item.quantity)
                .fold(0_u64, u64::saturating_add)
        });
        let subtotal = cart.select(|cart| {
            cart.items
                .iter()
                .map(|item| item.unit_price.saturating_mul(item.quantity))
                .fold(0_u64, u64::saturating_add)
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

        let mut exposure = Exposure::new();
        exposure.value("count", move || count.get())?;
        exposure.value("subtotal", {
            let subtotal = subtotal.clone();
            move || subtotal.get()
        })?;
        exposure.value("discount", {
            let discount = discount.clone();
            move || discount.get()
        })?;
        exposure.value("total", {
            let total = total.clone();
            move || total.get()
        })?;
        let (decoders, shapes, schemas) = messages();
        exposure
            .messages(&cart, decoders)?
            .message_shapes(shapes)?
            .message_schemas(schemas)?;
        exposure
            .node("subtotal", &subtotal)?
            .node("discount", &discount)?
            .node("total", &total)?;
        let exposure = exposure.start()?;
        Ok::<_, ranvier::exposure::ExposeError>(CartApp { cart, exposure })
    })
}

/// The cart's MCP adapter, built on the graph thread once the exposure has started.
///
/// # Errors
///
/// A [`HostError`] when the host is gone.
pub fn cart_adapter(
    host: &GraphHost<CartApp>,
    options: McpAdapterOptions,
) -> Result<McpAdapter, HostError> {
    host.invoke(move |app| McpAdapter::new(app.exposure.clone(), options))
        .wait()
}

/// The options the cart serves with: its name and version, and `RANVIER_MCP_PROTOCOL` (`legacy`, `modern` or
/// `both`, the default) to pin an era.
pub fn cart_options() -> McpAdapterOptions {
    let options = McpAdapterOptions::new("ranvier-cart", env!("CARGO_PKG_VERSION"));
    match std::env::var("RANVIER_MCP_PROTOCOL").as_deref() {
        Ok("legacy") => options.protocol(ranvier::mcp::ProtocolEra::Legacy),
        Ok("modern") => options.protocol(ranvier::mcp::ProtocolEra::Modern),
        _ => options,
    }
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
    let host = start_cart()?;
    if args.iter().any(|arg| arg == "--demo") {
        let exposure = host.invoke(|app| app.exposure.clone()).wait()?;
        demo(&exposure).await;
    } else if let Some(addr) = http {
        let adapter = cart_adapter(&host, cart_options())?;
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
        let adapter = cart_adapter(&host, cart_options())?;
        eprintln!("ranvier-cart: serving MCP over stdio");
        ranvier::mcp::serve_stdio(adapter.clone()).await?;
        adapter.dispose();
    }
    host.dispose();
    Ok(())
}
