//! ranvier: a reactive graph an AI agent can inspect and drive while the app runs.
#![deny(missing_docs)]

pub mod graph;
mod signal;
mod memo;
mod effect;
mod owner;
mod mvu;
pub mod trace;
pub mod host;
pub mod exposure;
pub mod mcp;
#[doc(hidden)]
pub mod __private;

pub use effect::Effect;
pub use graph::{batch, untrack, AnyNode, NodeError, NodeId};
pub use memo::Memo;
pub use mvu::{DispatchError, Mvu};
pub use owner::{create_root, on_cleanup, Scope};
pub use signal::Signal;
