//! The trace log: why every node holds its value.
//!
//! In a traced build (every debug build, and release builds with the cargo feature `trace`) each graph keeps an
//! append-only log of what happened to its nodes, with a sequence clock: creations, writes, marks, schedules, check
//! walks, runs and their results, cutoffs, flushes, batches, disposals, and the messages dispatched to an
//! [`Mvu`](crate::Mvu). Every event carries the sequence number of the event that caused it, recorded when the cause
//! was notified, so a node's last run can be followed back to the message or write that started it.
//!
//! The log is bounded: a ring of recent events ([`DEFAULT_RING_BYTES`], [`DEFAULT_CAPACITY`] events; change it with
//! `set_ring_bytes` or `set_capacity`) beside a table of every living node's latest facts (site, label, edges, last
//! run, last cutoff), which is kept whatever the ring drops, so the queries keep answering for every node's latest
//! run; an answer that reaches past the ring says so, naming the message the dropped events belonged to from a table
//! of the latest `MESSAGES_KEPT` messages, which also outlives the ring.
//! A node's record outlives the node for a while: the table keeps the records of the `DROPPED_KEPT` (1024) nodes
//! dropped last, so that the events still in the ring can name them, and lets older ones go, so that a program that
//! keeps making and dropping nodes does not grow its trace (`records_held` says how many it holds).
//!
//! # Queries
//!
//! In a traced build the functions of this module answer on the current thread's graph, for a node given as any
//! handle (`&Signal`, `&Memo`, `&Effect`, `&Mvu`) or a [`NodeId`](crate::NodeId):
//!
//! * `why`: the cause chain of the node's last run, newest first, back to a root (a dispatched message, a program
//!   write, its creation, or a pull);
//! * `why_not`: why it has not re-run since (disposed, queued, unobserved, checked clean, stopped at a cutoff or an
//!   equal write upstream, not reached);
//! * `unread`: what it read untracked (with `peek`) that moved after;
//! * `history` (one line per run: its start, status, root cause and value then), `origin`, `info`, `neighborhood`,
//!   `snapshot`, `summary`;
//! * looking back, within what the ring holds: `why_at` (the cause chain of an earlier run), `why_depth` (a chain
//!   bounded to its newest steps), `snapshot_at` (the graph right after an earlier event: nodes, values then, owners,
//!   edges; a point the ring dropped is refused naming the oldest kept), `resolve` (a node by identity path, such as
//!   `/owner/name` or a collection row's `items[apple]/line_total`) and `reconcile` (the engine's live edges against
//!   the edges the log folded; empty when healthy);
//! * `explain`: all of the above for one node, and the [`Finding`]s of a search of its whole upstream cone
//!   (`cone`): untracked reads that moved after, disposed sources, who wrote a signal and where, values captured by
//!   a closure, moves a batch hid, cutoffs, previous values kept, selects that kept their value on a message, the arm
//!   of `update` that handled it — best first, each with the `file:line` to fix;
//! * `waiting_on`: what an async node waits for (its flights: started when, by which run, and why; or a settle),
//!   and `flights`: every pending flight;
//! * `timing`: what a timed node holds, the value its timer waits to pass and when it fires, and its last firing;
//! * `lookup`: a node by name, `#id`, `name#id` or identity path;
//! * `dump`: the log as JSON lines, byte-identical for the same program; `read_dump` reads one back (of this process
//!   or of one that is gone) into its header, node table and the very events `events` gave, and `load_dump` loads it
//!   into a fresh thread's log, where every query above answers as it answered in the process that wrote it (a
//!   post-mortem; `ranvier::mcp::Postmortem` serves it over MCP).
//!
//! Every answer's `Display` is the compact text agents read (one line per step, nodes as `name#id`, node lines as
//! `name#id Kind file.rs:line = value reads [a#1, b#2]`). A node's name is its label (an exposed node without one
//! takes the name it is exposed under), else the `let` binding at its creation site (read from the source, see
//! `set_source_root`), else its kind.
//!
//! # Call sites
//!
//! In a traced build the reads (`get`, `with`, `peek`, `with_untracked`, and reads inside `untrack`), the writes
//! (`set`, `update`), `batch` and the disposals (`dispose`) are `#[track_caller]`, and the log keeps where each was
//! called: the line of every source a computation read, of its untracked reads, of a signal's latest moving write, of
//! the reads the program made outside any computation, of each batch and of the disposal that disposed a node. The
//! answers name those lines without reading the source. In an untraced build none of these functions takes the
//! caller's location, so they cost what they did.
//!
//! # Untraced builds
//!
//! A release build without the feature `trace` records nothing: every hook compiles to nothing, arguments included,
//! and [`TRACED`] is `false`. The API is the same in every build, so an app that calls it builds in both: each query
//! (`dump`, `snapshot` and `summary` included) answers [`TraceError::NotTraced`], and `lookup` a [`LookupError`]
//! saying so, while what describes the log itself answers for an empty one: `events` is empty, `records_held` and
//! `capacity` are 0, and `set_capacity` has no effect.
//!
//! # Examples
//!
//! ```
//! use ranvier::{trace, Memo, Mvu};
//!
//! #[derive(Debug)]
//! enum Msg { Add(i64) }
//!
//! let cart = Mvu::new(0_i64, |Msg::Add(n), total| total + n).labelled("cart");
//! let doubled = cart.select(|total| total * 2);
//! doubled.get();
//! cart.dispatch(Msg::Add(5)).unwrap();
//! assert_eq!(doubled.get(), 10);
//!
//! match trace::why(&doubled) {
//!     Ok(why) => {
//!         assert!(matches!(&why.root, trace::WhyRoot::Message { name, .. } if &**name == "Add"));
//!         // `doubled#2 Memo ...:13 = 10 reads [cart#1]`, then the chain from the message to its last run.
//!         println!("{}", trace::explain(&doubled).unwrap());
//!     }
//!     // A release build without the feature `trace`.
//!     Err(trace::TraceError::NotTraced) => assert!(!trace::TRACED),
//!     Err(other) => panic!("{other}"),
//! }
//! ```

// The log itself is the graph's (`graph/record`): the runtime writes it. This module asks it questions.
pub use crate::graph::record::{DEFAULT_CAPACITY, DEFAULT_RING_BYTES, EVENT_BYTES, TRACED};
use crate::graph::record::{log, table};

cfg_traced! {
    mod debug_diff;
    mod diagnose;
    mod dump;
    mod names;
    mod query;
    mod render;
    mod source;

    /// Runs `f` on the current thread's trace log.
    pub(crate) fn with_log<R>(f: impl FnOnce(&log::Tracer) -> R) -> Result<R, TraceError> {
        Ok(crate::graph::with_runtime(|rt| f(&rt.tracer)))
    }
}

cfg_untraced! {
    // Compiled for their types and signatures, so the API is the same in every build; nothing reaches their code,
    // since the runtime holds the empty tracer of `graph/record/off.rs` and `with_log` answers `NotTraced`.
    #[allow(dead_code)]
    mod debug_diff;
    #[allow(dead_code)]
    mod diagnose;
    #[allow(dead_code)]
    mod dump;
    #[allow(dead_code)]
    mod names;
    #[allow(dead_code)]
    mod query;
    #[allow(dead_code)]
    mod render;
    #[allow(dead_code)]
    mod source;

    /// [`TraceError::NotTraced`]: this build keeps no log to run `f` on.
    pub(crate) fn with_log<R>(_: impl FnOnce(&log::Tracer) -> R) -> Result<R, TraceError> {
        Err(TraceError::NotTraced)
    }
}

pub use diagnose::explain;
pub(crate) use dump::parse_site;
pub use dump::{DUMP_SCHEMA, Dump, DumpError, DumpNode, dump, load_dump, read_dump};
#[cfg(feature = "mcp")]
pub(crate) use dump::{exposed_line, missing_sources};
pub use log::*;
pub(crate) use names::add_crate_root;
pub use names::set_source_root;
#[cfg(feature = "mcp")]
pub(crate) use query::Counts;
#[cfg(feature = "mcp")]
pub(crate) use query::cone_in;
pub use query::*;
pub(crate) use query::{Ctx, view};
pub use render::render_events;
pub use table::DROPPED_KEPT;
#[cfg(feature = "mcp")]
pub(crate) use timing::timing_in;
pub use timing::{TimerMark, Timing, timing};
#[cfg(feature = "mcp")]
pub(crate) use waiting::waiting_on_in;
pub use waiting::{WaitKind, WaitingOn, flights, waiting_on};

mod timing;
mod waiting;
