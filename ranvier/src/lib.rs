//! ranvier: a reactive graph an AI agent can inspect and drive while the app runs.
//!
//! An app keeps its state in a graph; an exposure names the parts of it an agent may read and the messages it may
//! send; the adapter serves the exposure over MCP. Each is built on the one before it, and each can be used alone.
//!
//! 1. **The graph** holds the state. [`Signal`]s hold what the program writes, [`Memo`]s derive values from them
//!    (lazily, cached, and cut off when a re-run gives an equal value), [`Effect`]s react, and an [`Mvu`] is an
//!    Elm-style model that changes only through messages; [`AsyncSource`]s and [`AsyncMemo`]s hold values that arrive
//!    later (a read says whether they are pending, ready or failed). Built on those: [`EffectOn`] acts only when the
//!    value it watches changes; [`Editable`] and [`Draft`] hold a value being edited over a derived seed, with a dirty
//!    flag, commit and revert; [`Memo::option`] keeps its `Some` while the value inside is equal; [`timed`] nodes
//!    debounce and throttle a source on a clock; a [`Boundary`] shows a fallback while its body waits on an async read,
//!    or a value recovered from a failure ([`boundary`]). The graph is glitch-free: after a write everything runs at most once,
//!    after everything it reads ([`flush`] runs queued effects at once, inside a batch too). Nodes belong to their
//!    thread's graph (they are `!Send`); [`Scope`]s own and dispose them, and an [`Owner`] captured in one place lets
//!    code elsewhere create nodes there. See [`graph`].
//!    Lists are [`Collection`]s: a row per key in a scope of its own, reused while its key stays, with views that
//!    follow changes row by row (a sum over 10,000 rows costs O(1) per changed row) and [`Selector`]s that wake two
//!    rows when the selection moves. See [`collection`].
//! 2. **The trace** ([`trace`]) records, in debug builds, why every node holds its value: `trace::explain(&total)`
//!    answers with the chain from the message or write that started its last run, and the line at fault.
//! 3. **The host and the exposure.** A [`GraphHost`](host::GraphHost) runs the graph on a thread of its own. On that
//!    thread an [`Exposure`](exposure::Exposure) registers named values, messages and nodes, and hands out an
//!    [`ExposureHandle`](exposure::ExposureHandle) that any thread uses: versioned JSON snapshots of the values,
//!    dispatch of messages decoded from JSON, waits, a journal, approvals.
//! 4. **The adapter.** [`McpAdapter`](mcp::McpAdapter) serves an exposure to any MCP client (over stdio, or
//!    Streamable HTTP with the feature `http`): tools to read the state, dispatch messages and ask why.
//!
//! The macros write the registration at compile time: `#[derive(Messages)]` turns an enum into messages with
//! decoders, one-line shapes and JSON Schemas; `#[expose]` marks the fields of an app struct to register; `#[node]`
//! on a function labels the nodes it builds with their `let` names, for the trace; on a field of an `#[expose]`
//! struct it also registers that node under the field's name, so an agent's `explain` and `node` can ask about it.
//!
//! # Your first app
//!
//! One dependency, `ranvier-rs = "0.1"` (the package's library is `ranvier`; serde, schemars and tokio are
//! re-exported, so an app needs none of them). This `src/main.rs` serves a to-do list over stdio; the README's "Your
//! first app" drives it with `ranvier-mcp call target/debug/todos dispatch …` and `… explain …`, and registers it for
//! an MCP client. It is `examples/examples/todos.rs` in the repository, word for word.
//!
//! ```no_run
//! //! Your first ranvier app: a to-do list an agent reads and drives over MCP.
//! //!
//! //! `cargo run` serves it over stdio; `ranvier-mcp call target/debug/todos snapshot` reads it from a shell.
//!
//! use ranvier::mcp::{McpAdapterOptions, ServeError, run_stdio};
//! use ranvier::serde::Serialize;
//! use ranvier::{Memo, Messages, Mvu, expose, node};
//!
//! /// One thing to do.
//! #[derive(Debug, Clone, PartialEq, Serialize)]
//! #[serde(crate = "ranvier::serde")]
//! pub struct Todo {
//!     title: String,
//!     done: bool,
//! }
//!
//! /// The model: every to-do, in the order added.
//! #[derive(Debug, Clone, Default, PartialEq, Serialize)]
//! #[serde(crate = "ranvier::serde")]
//! pub struct Todos {
//!     items: Vec<Todo>,
//! }
//!
//! /// What an agent may send: `add {title}` and `done {index}`.
//! #[derive(Debug, Messages)]
//! pub enum Msg {
//!     /// Adds a to-do titled `title`.
//!     Add { title: String },
//!     /// Marks the to-do at `index` (from 0) done.
//!     Done { index: usize },
//! }
//!
//! /// The next model; a message naming no to-do is refused, and nothing changes.
//! fn update(msg: Msg, todos: &Todos) -> Result<Todos, String> {
//!     let mut next = todos.clone();
//!     match msg {
//!         Msg::Add { title } => next.items.push(Todo { title, done: false }),
//!         Msg::Done { index } => match next.items.get_mut(index) {
//!             Some(todo) => todo.done = true,
//!             None => return Err(format!("no to-do at index {index}")),
//!         },
//!     }
//!     Ok(next)
//! }
//!
//! /// What an agent may see: the model (and its messages), and how many to-dos are left.
//! #[expose]
//! pub struct App {
//!     #[expose(messages, value)]
//!     todos: Mvu<Todos, Msg>,
//!     #[expose]
//!     #[node]
//!     left: Memo<usize>,
//! }
//!
//! /// Builds the graph; `#[node]` names each node after its `let`, for `explain`.
//! #[node]
//! fn app() -> App {
//!     let todos = Mvu::try_new(Todos::default(), update);
//!     let left = todos.select(|todos| todos.items.iter().filter(|todo| !todo.done).count());
//!     App { todos, left }
//! }
//!
//! fn main() -> Result<(), ServeError> {
//!     run_stdio(
//!         McpAdapterOptions::new("todos", env!("CARGO_PKG_VERSION")),
//!         app,
//!     )
//! }
//! ```
//!
//! # The long form
//!
//! What [`mcp::run_stdio`] does, step by step, for an app that needs more (approvals, a journal, two transports, its
//! own runtime): a counter an agent can drive, the graph, its exposure, and the adapter that would serve it.
//!
//! ```
//! # #[cfg(feature = "mcp")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use ranvier::exposure::{ExposeError, Exposure};
//! use ranvier::host::{GraphHost, block_on};
//! use ranvier::mcp::{McpAdapter, McpAdapterOptions};
//! use ranvier::{Expose, Memo, Messages, Mvu, expose};
//! use serde_json::json;
//!
//! /// What an agent may send.
//! #[derive(Debug, Messages)]
//! enum Msg {
//!     /// Adds `amount` to the count.
//!     Add { amount: i64 },
//!     /// Back to zero.
//!     Reset,
//! }
//!
//! /// What an agent may read and send, marked on the fields.
//! #[expose]
//! struct Counter {
//!     #[expose(messages, value)]
//!     count: Mvu<i64, Msg>,
//!     #[expose]
//!     doubled: Memo<i64>,
//! }
//!
//! // The graph lives on the host's thread; `setup` builds it there and registers what is exposed.
//! let host = GraphHost::start(|| {
//!     let count = Mvu::new(0_i64, |msg, count| match msg {
//!         Msg::Add { amount } => count + amount,
//!         Msg::Reset => 0,
//!     });
//!     let doubled = count.select(|count| count * 2);
//!     let counter = Counter { count, doubled };
//!     let mut exposure = Exposure::new();
//!     counter.expose(&mut exposure)?;
//!     Ok::<_, ExposeError>((counter, exposure.start()?))
//! })?;
//!
//! // Any thread: dispatch a message as an agent would, and read the snapshot it led to.
//! let exposure = host.invoke(|(_, handle)| handle.clone()).wait()?;
//! let snapshot = block_on(exposure.dispatch("add", json!({"amount": 21})))?.ran().expect("add needs no approval");
//! assert_eq!(snapshot.get("doubled"), Some(&json!(42)));
//! let refused = block_on(exposure.dispatch("add", json!({"amount": "lots"}))).unwrap_err();
//! assert!(refused.to_string().starts_with("add rejected its arguments: `amount`: expected an integer"));
//!
//! // The same exposure over MCP: `ranvier::mcp::serve_stdio(adapter).await?` in an async main.
//! let adapter = McpAdapter::new(exposure, McpAdapterOptions::new("counter", "0.1.0"));
//! adapter.dispose();
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "mcp"))]
//! # fn main() {}
//! ```
//!
//! `examples/examples/cart.rs` in the repository is a whole app served over stdio.
//!
//! # Features
//!
//! | feature | default | what it adds | what it needs |
//! |---|---|---|---|
//! | (none) | | the graph, node kinds (async ones too: their flights run with [`graph::run_flights`]), scopes, `Mvu`, the trace, `#[node]`, `#[trace_fn]` | std and `ranvier-macros` |
//! | `host` | | [`host`]: `GraphHost`, the graph on its own thread, which polls async flights itself | tokio's channels and runtime handle, tokio-util, thiserror |
//! | `exposure` | | [`exposure`], [`Messages`], [`Expose`], `#[derive(Messages)]`, `#[expose]` | `host`, serde, serde_json, schemars |
//! | `mcp` | yes | [`mcp`]: the adapter, served over stdio | `exposure`, rmcp, tokio's runtime |
//! | `http` | | `mcp::http`: Streamable HTTP beside stdio, and the live page for people (`mcp::http::page`) | `mcp`, axum |
//! | `trace` | | the trace in release builds too (debug builds always trace) | |
//!
//! For the graph alone: `ranvier = { version = "0.1", default-features = false }`. The API is the same in every build
//! profile: in a release build without `trace`, the trace's queries answer [`trace::TraceError::NotTraced`].
//!
//! # Architecture
//!
//! ```text
//!   app code:  #[derive(Messages)]  #[expose]  #[node]     (ranvier-macros: registration written at compile time)
//!      │
//!   ┌──┴────────────────────────────── core: std only ──────────────────────────────────┐
//!   │  graph/           node storage, the per-thread runtime, scheduling, the node pool, │
//!   │                   scopes (graph/scope), the recorder its hooks write (graph/record)│
//!   │  signal memo effect    the node kinds, on graph/                                   │
//!   │  owner mvu        create_root and cleanups over graph/scope; the message model     │
//!   │  collection selector  keyed rows, each in a scope; views over their changes        │
//!   │  trace/           the questions asked of the recorder: why, explain, dump, lookup  │
//!   └──┬─────────────────────────────────────────────────────────────────────────────────┘
//!   host         GraphHost: the graph's thread, work sent to it from any other           (feature host)
//!   exposure     Exposure on the graph thread; ExposureHandle (Send + Sync) everywhere:  (feature exposure)
//!                snapshots, dispatch, waits, journal, approvals
//!   mcp          McpAdapter on rmcp: tools, resources, subscriptions, traced tools;      (feature mcp, default)
//!                stdio, and Streamable HTTP on axum                                      (feature http)
//! ```
//!
//! Each layer uses only the layers above it in this drawing. The graph's runtime keeps its scopes and its recorder
//! under `graph/`, so it calls nothing above it; `owner` and `trace` are the public faces of those two. The host
//! knows nothing of the exposure: it offers a per-thread shutdown hook, and the exposure registers the closing of its
//! streams there. Inside the adapter, `text` and `caller` come first, then `dispatch`, then `approval`. Every `!Send`
//! thing stays on the graph thread; what crosses threads is a message or an immutable snapshot. The text an agent
//! reads is written in one place per layer (`trace`'s renderers, the exposure's rejections, `mcp`'s text module).
//!
//! `python3 ranvier/imports.py` draws who uses whom among these files (`a -> b` per file, a path through a re-export
//! counted for the module that defines the item) and prints the cycles. None runs through the exposure: the
//! interrupt book (`exposure/interrupts`) comes first, then the journal and its records, what a started exposure
//! holds (`registry`), the dispatch sequence, the handle, and on top the answering of interrupts (`approval`);
//! `__private` only re-exports `exposure::schema`'s message tables; the async memos reach flights only through the
//! flight registry of `graph/flights`. Under `trace`, the queries and their answers (`query`, with the findings'
//! types) come before the diagnosis (`diagnose`, which also gathers `explain`); under the stdio transport, the
//! error responses (`stdio/response`) come before the line reader, and the reader before the validation. CI runs
//! `imports.py --check exposure __private --knots trace mcp`: no cycle through the exposure or `__private`, and no
//! knot between siblings under `trace` or `mcp`. The cycles it still prints are within a module and its children: a
//! parent file that defines what its children share (`graph.rs`'s `NodeId`, `mcp.rs`'s options) and uses them, and
//! one knot between siblings, the engine's core (`graph`'s runtime, nodes, edges, scopes and recorder).
#![deny(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly rustdoc): each item shows the features it needs, e.g. `mcp::http` "Available on crate
// feature http only".
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(clippy::undocumented_unsafe_blocks)]

#[macro_use]
mod macros;

// The core's behaviour through its public API, as an app sees it (`ranvier::…` paths): part of the lib's tests so the
// memory checkers (`.ci/memcheck.sh`) run them with the core alone.
#[cfg(test)]
extern crate self as ranvier;
#[cfg(test)]
mod collection_tests;
#[cfg(test)]
mod core_tests;
#[cfg(test)]
mod kinds_tests;

#[doc(hidden)]
pub mod __private;
pub mod async_memo;
pub mod async_source;
mod async_state;
pub mod boundary;
pub mod collection;
pub mod editable;
mod effect;
pub mod effect_on;
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
mod mvu;
mod option_memo;
mod owner;
pub mod selector;
mod signal;
mod text;
pub mod timed;
pub mod trace;

pub use async_memo::AsyncMemo;
pub use async_source::AsyncSource;
pub use async_state::{AsyncError, AsyncErrorKind, AsyncState, FlightPolicy};
pub use boundary::{Boundary, BoundaryState, Failure, Interrupt};
pub use collection::Collection;
pub use editable::{Draft, EditState, Editable};
pub use effect::Effect;
pub use effect_on::EffectOn;
#[cfg(feature = "exposure")]
pub use exposure::DecodeError;
#[cfg(feature = "exposure")]
pub use exposure::messages::{Decoder, Expose, Messages};
pub use graph::{AnyNode, NodeError, NodeId, batch, flush, untrack};
pub use memo::Memo;
pub use mvu::{DispatchError, Mvu};
pub use owner::{Owner, Scope, create_root, on_cleanup, run_with_owner};
#[cfg(feature = "exposure")]
pub use ranvier_macros::{Messages, expose};
pub use ranvier_macros::{node, trace_fn};
pub use selector::Selector;
pub use signal::Signal;

/// schemars, re-exported for message argument types of an app's own: `#[derive(ranvier::schemars::JsonSchema)]`
/// with `#[schemars(crate = "ranvier::schemars")]`.
#[cfg(feature = "exposure")]
pub use schemars;
/// serde, re-exported so an app needs no dependency of its own for the model types it exposes:
/// `#[derive(ranvier::serde::Serialize)]` with `#[serde(crate = "ranvier::serde")]` (a message argument type also
/// derives `Deserialize`).
#[cfg(feature = "exposure")]
pub use serde;
/// serde_json, re-exported: the JSON values the exposure reads and dispatches.
#[cfg(feature = "exposure")]
pub use serde_json;
/// tokio, re-exported (with the features the adapter uses: the multi-threaded runtime, macros, time, stdio) for an
/// async `main`: `#[ranvier::tokio::main(crate = "ranvier::tokio")]`. [`mcp::run_stdio`] needs none of it.
#[cfg(feature = "mcp")]
pub use tokio;
