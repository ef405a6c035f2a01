//! An app with ranvier as its only dependency: the message argument and model types derive through ranvier's
//! re-exports of serde and schemars. It is this crate's library (not a test) because only a library target sees the
//! `[dependencies]` alone (ranvier): a `::serde` path in the generated code would not compile here.
use ranvier::mcp::{McpAdapterOptions, serve_app_stdio};
use ranvier::{Messages, Mvu, expose};

#[derive(
    Debug,
    Clone,
    PartialEq,
    ranvier::serde::Serialize,
    ranvier::serde::Deserialize,
    ranvier::schemars::JsonSchema,
)]
#[serde(crate = "ranvier::serde")]
#[schemars(crate = "ranvier::schemars")]
struct Discount {
    percent: u8,
}

#[derive(Debug, Messages)]
enum Msg {
    SetDiscount(Discount),
    Named { discount: Discount },
}

#[derive(Debug, Clone, Default, PartialEq, ranvier::serde::Serialize)]
#[serde(crate = "ranvier::serde")]
struct Model {
    percent: u8,
}

#[expose]
struct App {
    #[expose(messages, value)]
    model: Mvu<Model, Msg>,
}

/// Serves the app over stdio until the client leaves.
///
/// # Errors
///
/// Why serving stopped, if not because the client left.
#[ranvier::tokio::main(crate = "ranvier::tokio")]
pub async fn serve() -> Result<(), ranvier::mcp::ServeError> {
    serve_app_stdio(McpAdapterOptions::new("app", "0.1.0"), || App {
        model: Mvu::new(Model::default(), |msg, _| match msg {
            Msg::SetDiscount(d) | Msg::Named { discount: d } => Model { percent: d.percent },
        }),
    })
    .await
}
