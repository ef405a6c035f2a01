//! The crate's internal macros, and the one place that says which builds record the trace.
//!
//! A build is *traced* when it has debug assertions (every debug build) or the cargo feature `trace`. Code that only
//! a traced build holds goes inside `cfg_traced!`, its untraced stand-in inside `cfg_untraced!` (in the manner
//! of tokio's `cfg_*!` macros). Code that must type-check in both builds tests [`TRACED`](crate::trace::TRACED)
//! instead, a constant the optimizer folds away. One attribute repeats the predicate, since a `macro_rules!` macro
//! cannot add an attribute to a function it does not wrap: the public entry points whose caller a traced build
//! records carry `#[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]` (an untraced build passes no
//! location, so they cost what they did).

/// Items compiled in traced builds only (debug builds, and release builds with the feature `trace`).
macro_rules! cfg_traced {
    ($($item:item)*) => {
        $(
            #[cfg(any(debug_assertions, feature = "trace"))]
            $item
        )*
    };
}

/// Items compiled in untraced builds only: the stand-ins for what `cfg_traced!` leaves out.
macro_rules! cfg_untraced {
    ($($item:item)*) => {
        $(
            #[cfg(not(any(debug_assertions, feature = "trace")))]
            $item
        )*
    };
}

/// Calls a trace hook. Both builds type-check the call against their tracer (the log in `graph/record/log.rs`, the
/// empty one in `graph/record/off.rs`); an untraced build tests a constant `false`, so the call and its arguments are never
/// evaluated and no code is generated for them.
macro_rules! trace_hook {
    ($rt:expr, $method:ident ( $($arg:expr),* $(,)? )) => {{
        if $crate::graph::record::TRACED {
            $rt.tracer.$method($($arg),*);
        }
    }};
}

/// Fails to compile unless the node type `$node` (one instantiation of it) is laid out as `NodeBody`'s safety
/// contract says (`graph/node.rs`): its `core: Core` at offset 0 and, for a memo or an effect (`computation`), its
/// `comp: Computation` where the engine reads it. Each node kind states it next to its type, so a reordered field
/// is a compile error there instead of undefined behaviour in the engine.
macro_rules! assert_node_layout {
    ($node:ty) => {
        const _: () = assert!(
            ::std::mem::offset_of!($node, core) == 0,
            concat!(
                stringify!($node),
                " must begin with its `core: Core` (NodeBody's safety contract)"
            )
        );
    };
    ($node:ty, computation) => {
        assert_node_layout!($node);
        const _: () = assert!(
            ::std::mem::offset_of!($node, comp) == $crate::graph::COMPUTATION_OFFSET,
            concat!(
                stringify!($node),
                " must have its `comp: Computation` right after its `core` (NodeBody's safety contract)"
            )
        );
    };
}
