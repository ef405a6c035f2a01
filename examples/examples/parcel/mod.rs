//! A parcel desk split over five files, as an app grows: the model and its messages (`model.rs`), `update` in a
//! module of its own (`update.rs`), pricing helpers (`rules.rs`), the graph of memos that calls them (`graph.rs`) and
//! this file, which starts it. The gallery (`gallery.rs`) explains its values to check that `explain` follows the
//! code into whichever file it lives in. Each mistake sits on the line after a `// FAULT(<key>)` comment; they touch
//! different messages and nodes, so none hides another.

pub mod graph;
pub mod model;
pub mod rules;
pub mod update;

use ranvier::Mvu;
use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use std::any::Any;

/// What the graph thread keeps of the desk.
pub struct ParcelApp {
    /// The parcel being sent.
    pub parcel: Mvu<model::Parcel, model::Msg>,
    /// The exposure.
    pub exposure: ExposureHandle,
    _keep: Vec<Box<dyn Any>>,
}

/// Starts the desk on its own graph thread, and its MCP adapter.
///
/// # Errors
///
/// When the graph thread does not start or a name is exposed twice.
pub fn start() -> Result<(McpAdapter, GraphHost<ParcelApp>), HostError> {
    let host = GraphHost::start(|| {
        let parcel = Mvu::with_commands((model::Parcel::default(), Vec::new()), update::update)
            .labelled("parcel");
        let mut exposure = Exposure::new();
        let keep = graph::build(&parcel, &mut exposure)?;
        exposure.messages_of(&parcel)?;
        Ok::<_, ExposeError>(ParcelApp {
            parcel,
            exposure: exposure.start()?,
            _keep: keep,
        })
    })?;
    let adapter = host
        .invoke(|app| {
            McpAdapter::new(
                app.exposure.clone(),
                McpAdapterOptions::new("ranvier-parcel", "1.0.0"),
            )
        })
        .wait()?;
    Ok((adapter, host))
}
