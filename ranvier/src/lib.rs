//! ranvier: a reactive graph an AI agent can inspect and drive while the app runs.
#![deny(missing_docs)]

#[macro_use]
mod macros;

#[doc(hidden)]
pub mod __private;
mod effect;
#[cfg(feature = "exposure")]
mod escape;
#[cfg(feature = "exposure")]
pub mod exposure;
pub mod graph;
#[cfg(feature = "host")]
pub mod host;
#[cfg(feature = "mcp")]
pub mod mcp;
mod memo;
#[cfg(feature = "exposure")]
mod messages;
mod mvu;
mod owner;
mod signal;
mod text;
pub mod trace;

pub use effect::Effect;
pub use graph::{AnyNode, NodeError, NodeId, batch, untrack};
pub use memo::Memo;
#[cfg(feature = "exposure")]
pub use messages::{Decoder, Expose, Messages};
pub use mvu::{DispatchError, Mvu};
pub use owner::{Scope, create_root, on_cleanup};
pub use ranvier_macros::node;
#[cfg(feature = "exposure")]
pub use ranvier_macros::{Messages, expose};
pub use signal::Signal;
