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
