//! ranvier: a reactive graph an AI agent can inspect and drive while the app runs.
#![deny(missing_docs)]

/// Calls a trace hook in a traced build. In an untraced build the call sits behind `if false`: it is type-checked
/// against the empty tracer in `trace/off.rs`, its arguments are never evaluated, and no code is generated for it.
macro_rules! trace_hook {
    ($rt:expr, $method:ident ( $($arg:expr),* $(,)? )) => {{
        #[cfg(any(debug_assertions, feature = "trace"))]
        {
            $rt.tracer.$method($($arg),*);
        }
        #[cfg(not(any(debug_assertions, feature = "trace")))]
        #[allow(clippy::overly_complex_bool_expr)]
        if false {
            $rt.tracer.$method($($arg),*);
        }
    }};
}

#[doc(hidden)]
pub mod __private;
mod effect;
mod escape;
pub mod exposure;
pub mod graph;
pub mod host;
pub mod mcp;
mod memo;
mod messages;
mod mvu;
mod owner;
mod signal;
pub mod trace;

pub use effect::Effect;
pub use graph::{AnyNode, NodeError, NodeId, batch, untrack};
pub use memo::Memo;
pub use messages::{Decoder, Expose, Messages};
pub use mvu::{DispatchError, Mvu};
pub use owner::{Scope, create_root, on_cleanup};
pub use ranvier_macros::{Messages, expose, node};
pub use signal::Signal;
