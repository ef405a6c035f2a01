//! The trace log: why every node holds its value.
//!
//! In a traced build (every debug build, and release builds with the cargo feature `trace`) each graph keeps an
//! append-only log of what happened to its nodes, with a sequence clock: creations, writes, marks, schedules, check
//! walks, runs and their results, cutoffs, flushes, batches, disposals, and the messages dispatched to an
//! [`Mvu`](crate::Mvu). Every event carries the sequence number of the event that caused it, recorded when the cause
//! was notified, so a node's last run can be followed back to the message or write that started it.
//!
//! The log is bounded: a ring of recent events ([`DEFAULT_CAPACITY`], change it with [`set_capacity`]) beside a table
//! of every node's latest facts, which is kept whatever the ring drops.
//!
//! In an untraced build every hook compiles to nothing, arguments included, and [`TRACED`] is `false`.

#[cfg(any(debug_assertions, feature = "trace"))]
mod log;
#[cfg(any(debug_assertions, feature = "trace"))]
pub use log::*;

#[cfg(not(any(debug_assertions, feature = "trace")))]
mod off;
#[cfg(not(any(debug_assertions, feature = "trace")))]
pub(crate) use off::Tracer;

/// Whether this build records the trace log.
pub const TRACED: bool = cfg!(any(debug_assertions, feature = "trace"));

/// How many events the ring keeps by default.
pub const DEFAULT_CAPACITY: usize = 65_536;
