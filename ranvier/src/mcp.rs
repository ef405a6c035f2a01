//! The MCP adapter: serves an exposure's state and messages to any MCP client over rmcp.
//!
//! [`McpAdapter`] implements [`rmcp::ServerHandler`](https://docs.rs/rmcp/3/rmcp/handler/server/trait.ServerHandler.html)
//! (a link to docs.rs: `cargo doc --no-deps` builds no page of rmcp's to link to) over an [`ExposureHandle`]. It lists four tools:
//!
//! - `snapshot` reads every exposed value, as the `ranvier://state` document `{"version": n, "values": {...}}`, now
//!   or (`{"version": 3}`) as an earlier version published it, while the exposure's [history](crate::exposure::history)
//!   keeps it, followed by a line naming the journaled message that made it (`v3: made by add_item {...} by
//!   "claude-code"`);
//! - `dispatch` (listed only when messages are exposed) sends one message, `{"message": name, "args": {...}}`, or a
//!   sequence, `{"messages": [...]}`, and answers one line per message, such as
//!   `2 set_discount {"percent":10} → v3: discount 0→10, total 500→450`, then every value at the final version,
//!   `v3: count=2, subtotal=500, discount=10, total=450`;
//! - `wait_version` waits for the state to reach a version (`timeoutMs` default 5000, at most 60000);
//! - `diff {from, to}` says what changed between two versions, value by value in the words of a step line
//!   (`v1→v3: discount 0→10, total 500→450`), then the journaled messages that made the versions in between;
//! - `errors {after?}` lists the [errors](crate::exposure::errors) the app kept (panicking memos and effects, failed
//!   flights, refused messages), one line each, in every build; the resource `ranvier://errors` holds the same list
//!   as `{"errors": [...], "dropped": n}`, and its subscribers are notified of each new error.
//!
//! In a traced build (see [`crate::trace`]) it also lists `explain`, `graph` and `node`, which read the trace log
//! on the graph thread and answer in compact text (see the `traced` tools below); with
//! [`McpAdapterOptions::raw_trace_tools`] also `trace_state`, `trace_lookup`, `why`, `why_not`, `waiting_on`,
//! `history` and `snapshot_at`, which answer JSON, and `dump`, the whole trace log as JSON lines, which
//! [`Postmortem`] (`ranvier-mcp postmortem`) serves after the app is gone. An untraced build lists none of them, and
//! calling one is an unknown-tool error.
//!
//! - `explain {node, messages}` dispatches `messages` (as `dispatch` does), then explains why `node` holds its
//!   value in a few lines: the node line `total#5 Memo cart.rs:155 = 1200 reads [subtotal#4]` and its source line,
//!   the cause chain, why it has not re-run, and the lines at fault (`unread:`, `cutoff:`, `earlier cutoff:`,
//!   `comparer:`), each followed by the source line to fix;
//! - `graph` gives node counts by kind, the exposed nodes and the nodes the last message moved (at most 2,000
//!   characters);
//! - `node {node, around, detail, limit, cursor}` gives a node and its sources and observers within `around` hops,
//!   one line each, in pages of at most 4,000 characters.
//!
//! Every rejection is a tool result with `isError: true` and a reason a model can act on. The resources
//! `ranvier://state` and `ranvier://state/{name}` hold the same documents; clients subscribe to them with
//! `resources/subscribe` (protocol 2025-11-25 and older) or `subscriptions/listen` (2026-07-28), and each
//! publication notifies `ranvier://state` and every value whose encoding changed, to that URI's subscribers only.
//!
//! # One session: order, ids and the handshake
//!
//! A session is one stdio connection ([`serve_stdio`], [`serve_lines`]) or one HTTP `Mcp-Session-Id` (see
//! the `http` module, feature `http`); each stateless 2026-07-28 HTTP request is a session of its own. Within a session:
//!
//! - the requests that change something (`dispatch`, `resume`, `explain`, `resources/subscribe` and
//!   `resources/unsubscribe`) are applied in the order they arrived, even when a client writes them back to back
//!   without waiting for the answers (rmcp runs each request in a task of its own; the transports number them as
//!   they arrive). Fifty `dispatch` calls written at once run one after another, the n-th making the n-th version.
//!   Reads (`snapshot`, `wait_version`, `resources/read`, the lists) never wait: one sent after a `dispatch` may
//!   answer the state before it. A `dispatch` holds the requests after it only until its messages are queued for the
//!   graph thread, not while they run or while a person is asked to approve one. Answers may come back in any
//!   order; match them by id. Sessions are not ordered with one another (the
//!   graph applies one message at a time, whichever comes first);
//! - a request whose id is the id of one of the session's requests still in flight (neither answered nor
//!   cancelled) is refused with -32600 naming the id, and the one in flight is answered as usual;
//! - a second `initialize` is refused with -32600, `the session is already initialized`: the session keeps its
//!   handshake, its client name (the sender journaled for its dispatches) and its subscriptions. Open a new session
//!   to start over;
//! - a cancelled request (`notifications/cancelled`) stops: a cancelled `wait_version`, or a cancelled `dispatch`
//!   waiting for its flights to `settle`, lets go of its wait at once
//!   ([`ExposureHandle::waiting`](crate::exposure::ExposureHandle::waiting) counts the waiting ones).
//!
//! A message that names a key twice in one object, anywhere (`{"message":"set_discount","message":"clear"}` in a
//! tool's arguments), is refused with -32600 naming the key and where it is, over stdio and HTTP alike. Each
//! `subscriptions/listen` reports every change made after it was accepted, however many listens are accepted at
//! once: a client may dispatch as soon as it reads the acknowledgement.
//!
//! Build the adapter once the exposure has started; it is cheap to clone, usable from any thread, and several
//! servers may share it, each with its own subscriptions. [`McpAdapter::dispose`] stops every notification.
//!
//! ```
//! use ranvier::exposure::Exposure;
//! use ranvier::host::GraphHost;
//! use ranvier::mcp::{McpAdapter, McpAdapterOptions};
//! use ranvier::Mvu;
//! use ranvier::mcp::rmcp::ServerHandler as _;
//!
//! let host = GraphHost::start(|| {
//!     let counter = Mvu::new(0_i64, |add: i64, count| count + add);
//!     let mut exposure = Exposure::new();
//!     exposure.value("count", move || counter.model())?;
//!     exposure.start()
//! })?;
//! // Built on the graph thread once the exposure has started; then usable from any thread.
//! let adapter = host.invoke(|handle| McpAdapter::new(handle.clone(), McpAdapterOptions::new("counter", "0.1.0"))).wait()?;
//! assert_eq!(adapter.get_info().server_info.name, "counter");
//! // In an async main: `ranvier::mcp::serve_stdio(adapter.clone()).await?;`
//! adapter.dispose();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// The rmcp crate the adapter is built on, re-exported so apps serve it with the same version.
///
/// ranvier depends on rmcp `^3.11` (built and tested with 3.11.0): this is the rmcp 3.x your build resolved, the
/// one the adapter's types come from. Use it (or a dependency on the same rmcp 3.x) for the transports and types
/// you pass in; an rmcp of another major version is a different crate to the compiler.
pub use rmcp;

mod approval;
mod caller;
mod dispatch;
mod env;
mod explain;
mod forks;
#[cfg(feature = "http")]
pub mod http;
mod keys;
mod order;
mod params;
mod postmortem;
mod resources;
mod schema;
mod serve;
mod state;
pub mod stdio;
mod text;
mod traced;

pub use env::{
    ALWAYS_LOAD_ENV, ANSWERERS_ENV, EnvError, PROTOCOL_ENV, RAW_TRACE_TOOLS_ENV, SENDER_ENV,
};
pub use forks::{DEFAULT_FORK_IDLE_TIMEOUT, DEFAULT_MAX_FORKS};
pub use postmortem::{Postmortem, PostmortemError, serve_postmortem_stdio};
pub use serve::{ServeError, run_stdio, serve_app_stdio};
#[cfg(feature = "http")]
pub use serve::{run_http, serve_app_http};
pub use text::state_line;
pub use traced::{EXPLAIN_MAX_CHARS, GRAPH_MAX_CHARS, NODE_PAGE_MAX_CHARS, STEPS_MAX_CHARS};

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, Implementation, InitializeRequestParams, InitializeResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use tokio::sync::watch;

use crate::exposure::ExposureHandle;

/// Which MCP protocol eras the adapter serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ProtocolEra {
    /// Both eras: `initialize` sessions up to 2025-11-25, and stateless 2026-07-28 requests (the default).
    #[default]
    Both,
    /// Only the `initialize` era, pinned to 2025-11-25 (older clients still get their own version).
    Legacy,
    /// Only 2026-07-28: `initialize` is refused.
    Modern,
}

/// Who may answer an interrupt over MCP: with `resume`, or by answering the elicitation a paused `dispatch` sent.
///
/// The app itself ([`ExposureHandle::answer`](crate::exposure::ExposureHandle::answer)) may answer every interrupt
/// whatever this says. A session is one stdio connection (or one [`serve_lines`] stream), or one Streamable HTTP
/// session (`Mcp-Session-Id`). A 2026-07-28 request over HTTP carries no session: an interrupt it opened is
/// answered by whoever holds its id, which only its own answer showed (ids are random, so nobody guesses one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Answerers {
    /// Only the session whose `dispatch` opened the interrupt (the default). Other sessions do not see its id:
    /// their `snapshot` lists only their own interrupts, and a dispatch they make meanwhile is refused without it.
    /// Another agent connected to the same app cannot approve what this one asked for.
    #[default]
    OwnSession,
    /// Any session, given the id (`snapshot` lists every open interrupt to everyone): for a person who approves
    /// from a client of their own (an inspector, a dashboard) what an agent asked for.
    AnySession,
}

/// How an [`McpAdapter`] presents itself.
///
/// # Examples
///
/// ```
/// use ranvier::mcp::{McpAdapterOptions, ProtocolEra};
///
/// let options = McpAdapterOptions::new("cart", "1.2.0")
///     .protocol(ProtocolEra::Legacy)
///     .always_load(true)
///     .raw_trace_tools(true)
///     .source_root("/src/cart")
///     .sender("claude-on-ci")
///     .answerers(ranvier::mcp::Answerers::AnySession);
/// assert_eq!(options.name, "cart");
/// assert!(options.raw_trace_tools);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct McpAdapterOptions {
    /// The server name clients show, usually the app's package name.
    pub name: String,
    /// The server version, usually the app's package version.
    pub version: String,
    /// The protocol eras served; [`ProtocolEra::Both`] by default.
    pub protocol: ProtocolEra,
    /// Replaces the built-in instructions, which tell a model how to use the tools.
    pub instructions: Option<String>,
    /// Marks `dispatch` and (in a traced build) `explain` with `_meta["anthropic/alwaysLoad"]: true`, so Claude
    /// Code loads them without a tool search. Always-loaded tools join the head of the prompt: a session starts with
    /// a cold prompt cache unless one with the same tools ran within the cache's lifetime.
    pub always_load: bool,
    /// In a traced build, also lists `trace_state` (the node table, paged), `trace_lookup`, `why`, `why_not`,
    /// `waiting_on`, `history` (a node's runs) and `snapshot_at` (the graph at an earlier event, paged), which answer
    /// JSON documents. No effect in an untraced build.
    pub raw_trace_tools: bool,
    /// The directory whose files give a creation site's line text (a site's path is relative to it, as the
    /// compiler recorded it). `None` (the default) keeps the trace's own default: the current directory, then the
    /// nearest directory holding `.git` at or above it. The trace reads sources process-wide, so setting it here
    /// sets it for every graph of the process ([`crate::trace`]'s `set_source_root`). No effect in an untraced
    /// build.
    pub source_root: Option<PathBuf>,
    /// The name recorded as the sender of every message (and answer) MCP clients send: in the journal, in an
    /// interrupt's `sender` and in the texts that name who asked or answered. `None` (the default) records each
    /// client's own name (`clientInfo.name`, or `mcp` when it gave none). Like every client-supplied string, it
    /// is quoted and escaped wherever another client reads it. The names the app and the live page record,
    /// `app` and `person` (in any case, spaces around them ignored), are reserved: an MCP client so named is recorded
    /// as `mcp:app` or `mcp:person`, so it never reads as the app or a person.
    pub sender: Option<String>,
    /// Who may answer an interrupt over MCP; [`Answerers::OwnSession`] by default.
    pub answerers: Answerers,
    /// How many forks (`fork`, `dispatch {conversation}`) live at once; [`DEFAULT_MAX_FORKS`] by default. 0 lists
    /// no fork tools (`dispatch {dryRun: true}` still works when the app can be forked).
    pub max_forks: usize,
    /// How long a fork lives without a call naming it; [`DEFAULT_FORK_IDLE_TIMEOUT`] (10 minutes) by default.
    pub fork_idle_timeout: std::time::Duration,
}

impl McpAdapterOptions {
    /// Options naming the server `name` at `version`, serving both protocol eras.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            protocol: ProtocolEra::Both,
            instructions: None,
            always_load: false,
            raw_trace_tools: false,
            source_root: None,
            sender: None,
            answerers: Answerers::OwnSession,
            max_forks: forks::DEFAULT_MAX_FORKS,
            fork_idle_timeout: forks::DEFAULT_FORK_IDLE_TIMEOUT,
        }
    }

    /// Sets how many forks live at once (see [`max_forks`](Self::max_forks)).
    pub fn max_forks(mut self, forks: usize) -> Self {
        self.max_forks = forks;
        self
    }

    /// Sets how long a fork lives without a call naming it.
    pub fn fork_idle_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.fork_idle_timeout = timeout;
        self
    }

    /// Records every MCP client's messages and answers as sent by `name` (seed 002's `userId`), instead of each
    /// client's own name.
    pub fn sender(mut self, name: impl Into<String>) -> Self {
        self.sender = Some(name.into());
        self
    }

    /// Sets who may answer an interrupt over MCP.
    pub fn answerers(mut self, answerers: Answerers) -> Self {
        self.answerers = answerers;
        self
    }

    /// These options with the adapter's environment variables applied, so an app's user switches options on
    /// without code: [`PROTOCOL_ENV`] (`legacy`, `modern`, `both`), [`RAW_TRACE_TOOLS_ENV`] and
    /// [`ALWAYS_LOAD_ENV`] (`1` or `0`), [`SENDER_ENV`] (a name) and [`ANSWERERS_ENV`] (`own` or `any`). An unset
    /// or empty variable leaves its option as it is.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::mcp::McpAdapterOptions;
    ///
    /// // RANVIER_MCP_ALWAYS_LOAD=1 RANVIER_MCP_RAW_TRACE_TOOLS=1 my-app
    /// let options = McpAdapterOptions::new("my-app", "0.1.0").with_env()?;
    /// # Ok::<(), ranvier::mcp::EnvError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An [`EnvError`] naming the variable, what it holds and what it takes, for a value it does not take.
    pub fn with_env(self) -> Result<Self, EnvError> {
        env::apply(self)
    }

    /// Serves only `protocol`'s era(s).
    pub fn protocol(mut self, protocol: ProtocolEra) -> Self {
        self.protocol = protocol;
        self
    }

    /// Replaces the built-in instructions.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Sets `_meta["anthropic/alwaysLoad"]` on `dispatch` and `explain`.
    pub fn always_load(mut self, always_load: bool) -> Self {
        self.always_load = always_load;
        self
    }

    /// Also lists the JSON trace tools (traced builds).
    pub fn raw_trace_tools(mut self, raw_trace_tools: bool) -> Self {
        self.raw_trace_tools = raw_trace_tools;
        self
    }

    /// Reads creation lines from `root` (traced builds).
    pub fn source_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.source_root = Some(root.into());
        self
    }
}

/// An rmcp server handler over an exposure: the tools `snapshot`, `dispatch` and `wait_version`, and the resources
/// `ranvier://state` and `ranvier://state/{name}` with their subscriptions. See the [module docs](self).
///
/// Cheap to clone (clones share everything) and `Send + Sync`.
#[derive(Clone)]
pub struct McpAdapter {
    inner: Arc<Inner>,
}

struct Inner {
    handle: ExposureHandle,
    names: Vec<String>,
    tools: Vec<Tool>,
    info: ServerConfig,
    versions: &'static [ProtocolVersion],
    disposed: watch::Sender<bool>,
    legacy: Arc<resources::LegacySubscriptions>,
    /// The snapshot current when each `subscriptions/listen` was accepted, oldest first, for `listen` to start from.
    accepted: resources::AcceptedBaselines,
    /// The fixed sender name, when set.
    sender: Option<String>,
    /// Who may answer an interrupt, and which session opened each open one.
    owners: caller::Owners,
    /// The live forks.
    forks: Arc<forks::Forks>,
}

impl std::fmt::Debug for McpAdapter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpAdapter")
            .field("server", &self.inner.info.server_info.name)
            .field("names", &self.inner.names)
            .field("disposed", &self.is_disposed())
            .finish_non_exhaustive()
    }
}

impl McpAdapter {
    /// The names of the tools this adapter lists, for errors that name them.
    fn tool_names(&self) -> Vec<&str> {
        self.inner
            .tools
            .iter()
            .map(|tool| tool.name.as_ref())
            .collect()
    }

    /// An adapter over `handle`, presented as `options` says. Build it after the exposure has started.
    pub fn new(handle: ExposureHandle, options: McpAdapterOptions) -> Self {
        let names = handle.names();
        let messages: Vec<(String, Option<String>, Option<serde_json::Value>)> = handle
            .message_names()
            .into_iter()
            .map(|name| {
                let shape = handle.message_shape(&name);
                let schema = handle.message_schema(&name);
                (name, shape, schema)
            })
            .collect();
        let mut tools = schema::tools(&schema::ToolInputs {
            names: &names,
            messages: &messages,
            always_load: options.always_load,
            forks: handle.forkable() && !messages.is_empty(),
            kept_forks: options.max_forks > 0,
        });
        // An untraced build lists no traced tools (their queries would only answer that nothing is recorded).
        if crate::trace::TRACED {
            tools.extend(traced::tools(
                &messages,
                options.raw_trace_tools,
                options.always_load,
            ));
            if let Some(root) = &options.source_root {
                crate::trace::set_source_root(root.clone());
            }
        }
        approval::extend_tools(&mut tools, &handle);
        let instructions = options.instructions.clone().unwrap_or_else(|| {
            let mut text = text::instructions(!messages.is_empty(), &names, crate::trace::TRACED);
            if !handle.gated_messages().is_empty() {
                text.push_str(approval::INSTRUCTIONS);
            }
            text
        });
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .build();
        let versions: &'static [ProtocolVersion] = match options.protocol {
            ProtocolEra::Both => ProtocolVersion::KNOWN_VERSIONS,
            ProtocolEra::Legacy => ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25),
            ProtocolEra::Modern => &[ProtocolVersion::V_2026_07_28],
        };
        let mut info = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(
                options.name.clone(),
                options.version.clone(),
            ))
            .with_instructions(instructions);
        if options.protocol == ProtocolEra::Legacy {
            info = info.with_protocol_version(ProtocolVersion::V_2025_11_25);
        }
        let (disposed, _) = watch::channel(false);
        Self {
            inner: Arc::new(Inner {
                handle,
                names,
                tools,
                info,
                versions,
                disposed,
                legacy: Arc::default(),
                accepted: Default::default(),
                sender: options.sender.clone(),
                owners: caller::Owners::new(options.answerers),
                forks: forks::Forks::new(options.max_forks, options.fork_idle_timeout),
            }),
        }
    }

    /// Stops every notification, for every server sharing this adapter; tools and reads keep answering.
    /// Idempotent.
    pub fn dispose(&self) {
        self.inner.disposed.send_replace(true);
        self.inner.legacy.clear();
        self.inner.forks.clear();
    }

    /// How many forks are live (made with `fork` or `dispatch {conversation}`, not yet dropped).
    pub fn fork_count(&self) -> usize {
        self.inner.forks.len()
    }

    /// Drops the forks a session made (it ended): a stdio connection calls it when its client leaves.
    pub(crate) fn end_session(&self, session: &str) {
        self.inner.forks.end_session(session);
    }

    /// Whether [`dispose`](Self::dispose) has been called.
    pub fn is_disposed(&self) -> bool {
        *self.inner.disposed.borrow()
    }

    /// The exposure this adapter serves.
    pub fn handle(&self) -> &ExposureHandle {
        &self.inner.handle
    }

    /// Waits for `context`'s turn among its session's requests (see [`order`]), unless the request is cancelled
    /// first.
    async fn wait_turn(
        turn: Option<&order::Turn>,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Some(turn) = turn else { return Ok(()) };
        tokio::select! {
            () = turn.wait() => Ok(()),
            () = context.ct.cancelled() => Err(ErrorData::invalid_request(text::CANCELLED, None)),
        }
    }

    /// Who is calling: the sender name to record and the session the call came in on.
    fn caller(&self, context: &RequestContext<RoleServer>) -> caller::Caller<'_> {
        let sender = self.inner.sender.clone().unwrap_or_else(|| {
            context
                .client_info()
                .map_or_else(|| "mcp".to_owned(), |client| client.name)
        });
        let sender = caller::unreserved(sender);
        caller::Caller {
            sender,
            session: session_of(context),
            owners: &self.inner.owners,
            cancelled: context.ct.clone(),
        }
    }

    /// Whether the app can be forked and lists the fork arguments (it registered a fork setup and exposes
    /// messages).
    fn forkable(&self) -> bool {
        self.inner.handle.forkable() && self.get_tool(schema::DISPATCH).is_some()
    }

    fn check_uri(&self, uri: &str) -> Result<resources::Target, ErrorData> {
        resources::target(uri, &self.inner.names).ok_or_else(|| {
            ErrorData::resource_not_found(text::unknown_resource(uri, &self.inner.names), None)
        })
    }
}

/// The session a request came in on: its Streamable HTTP session, or the stdio connection ([`serve_lines`]) it
/// was read from; `None` for a sessionless request (2026-07-28 over HTTP) or a transport of rmcp's own.
fn session_of(context: &RequestContext<RoleServer>) -> Option<String> {
    #[cfg(feature = "http")]
    if let Some(parts) = context.extensions.get::<axum::http::request::Parts>() {
        return parts
            .headers
            .get("mcp-session-id")
            .and_then(|id| id.to_str().ok())
            .map(|id| format!("http {id}"));
    }
    context
        .extensions
        .get::<stdio::Connection>()
        .map(stdio::Connection::session)
}

/// The text the `dispatch` tool answers for `outcome`: one line per step, then every exposed value at the final
/// version; or, when the sequence stopped, the steps that stay dispatched, where and why it stopped, and the state.
///
/// Apps use it to print what a dispatch did in the same words an agent reads.
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
///
/// use ranvier::exposure::{SequenceOutcome, Snapshot, Step};
/// use serde_json::json;
///
/// let snapshot = Arc::new(Snapshot { version: 3, values: vec![("discount".into(), json!(10))] });
/// let step = Step {
///     position: 1,
///     name: "set_discount".into(),
///     args: json!({"percent": 10}),
///     version: 3,
///     changes: vec![("discount".into(), json!(0), json!(10))],
///     snapshot: snapshot.clone(),
/// };
/// let outcome = SequenceOutcome { steps: vec![step], stopped: None, interrupt: None, snapshot };
/// assert_eq!(
///     ranvier::mcp::sequence_text(&outcome),
///     "1 set_discount {\"percent\":10} → v3: discount 0→10\nv3: discount=10"
/// );
/// ```
pub fn sequence_text(outcome: &crate::exposure::SequenceOutcome) -> String {
    dispatch::sequence_text(outcome)
}

/// Serves `adapter` over stdin/stdout until the client disconnects (closes stdin).
///
/// Each line of stdin is one JSON-RPC message. Lines are read by ranvier's own line layer, [`stdio::LineTransport`],
/// which hands every message to rmcp and answers every other line at once, so a client never waits on a line that
/// could not be read:
///
/// - an empty or whitespace-only line is ignored;
/// - a line that is not JSON (or not UTF-8, or nested too deep for serde, or longer than [`stdio::MAX_LINE_BYTES`],
///   16 MiB) gets a parse error with `id` null whose message names the problem;
/// - JSON that is not one JSON-RPC message (a batch, a number, no `"jsonrpc": "2.0"`, an object as id, ...) gets an
///   invalid request naming the reason, with the request's id when it can be read, null otherwise.
///
/// ```text
/// → hello, server
/// ← {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: not JSON: expected value at line 1 column 1"}}
/// → [{"jsonrpc":"2.0","id":7,"method":"tools/list"}]
/// ← {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a batch (JSON array) is not supported; send one message per line"}}
/// → {"jsonrpc":"1.0","id":9,"method":"tools/list"}
/// ← {"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid request: \"jsonrpc\" must be \"2.0\", got \"1.0\""}}
/// ```
///
/// A bad line changes nothing: the lines after it are read and answered as if it had not been sent.
///
/// # Errors
///
/// An [`std::io::Error`] when the session cannot start (the client's `initialize` fails, say) or its task fails.
///
/// # Panics
///
/// Outside a Tokio runtime.
pub async fn serve_stdio(adapter: McpAdapter) -> std::io::Result<()> {
    let (stdin, stdout) = rmcp::transport::stdio();
    serve_lines(adapter, stdin, stdout).await
}

/// Serves `adapter` over any byte stream of newline-delimited JSON-RPC messages, `read` from the client and `write`
/// to it, until the client closes `read`: [`serve_stdio`] over another pair (a pipe, a socket, an in-memory duplex),
/// with the same line layer and the same answers to bad lines.
///
/// Returns only once every answer has been written, even when the session never started (a client that sends a bad
/// line and closes its end before `initialize` still reads the answer to it).
///
/// # Examples
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ranvier::exposure::Exposure;
/// use ranvier::host::GraphHost;
/// use ranvier::mcp::{McpAdapter, McpAdapterOptions, serve_lines};
/// use tokio::io::AsyncReadExt as _;
///
/// let host = GraphHost::start(|| Exposure::new().start())?;
/// let adapter = host
///     .invoke(|handle| McpAdapter::new(handle.clone(), McpAdapterOptions::new("app", "0.1.0")))
///     .wait()?;
/// let (mut answers, output) = tokio::io::duplex(4096);
/// // a client that sends one line that is not JSON and hangs up
/// let served = serve_lines(adapter, &b"hello, server\n"[..], output).await;
/// assert!(served.is_err()); // it hung up before `initialize`
/// let mut text = String::new();
/// answers.read_to_string(&mut text).await?;
/// assert_eq!(
///     text,
///     "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\
///      \"message\":\"Parse error: not JSON: expected value at line 1 column 1\"}}\n"
/// );
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// As [`serve_stdio`].
///
/// # Panics
///
/// Outside a Tokio runtime.
pub async fn serve_lines<R, W>(adapter: McpAdapter, read: R, write: W) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let transport = stdio::LineTransport::new(read, write);
    let written = transport.written();
    let session = transport.session();
    let ender = adapter.clone();
    let served = async {
        let running = adapter
            .serve(transport)
            .await
            .map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    };
    let result = served.await;
    // the session has ended: the forks it made go with it
    ender.end_session(&session);
    // rmcp drops a transport it never started a session on without closing it: wait for its answers here
    written.wait().await;
    result
}

/// Whether `context` serves an `initialize` on a session that already has one: ranvier's stdio layer marks a second
/// one, and over HTTP an `initialize` that names a session (`Mcp-Session-Id`) reaches the adapter only when the
/// session exists (rmcp answers 404 otherwise).
fn repeated_initialize(context: &RequestContext<RoleServer>) -> bool {
    if context
        .extensions
        .get::<stdio::RepeatedInitialize>()
        .is_some()
    {
        return true;
    }
    #[cfg(feature = "http")]
    if let Some(parts) = context.extensions.get::<axum::http::request::Parts>() {
        return parts.headers.contains_key("mcp-session-id");
    }
    false
}

impl ServerHandler for McpAdapter {
    fn get_info(&self) -> ServerConfig {
        self.inner.info.clone()
    }

    /// A second `initialize` on a session is refused with -32600 (the session is already initialized): the
    /// session keeps its handshake, its client name and its subscriptions. ranvier's stdio and HTTP transports tell
    /// the adapter which `initialize` is a repeat; one that reaches it by another transport is answered without
    /// touching the session (rmcp records the handshake of a session's first `initialize` itself).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        if repeated_initialize(&context) {
            return Err(ErrorData::invalid_request(text::ALREADY_INITIALIZED, None));
        }
        self.negotiate_initialize(&request)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(self.inner.versions)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.inner.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner
            .tools
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let handle = &self.inner.handle;
        let arguments = request.arguments.as_ref();
        // The tools that change the state take their turn in the session's arrival order; the others let the
        // requests after them go at once.
        let turn = order::Turn::of(&context);
        let changes = matches!(
            request.name.as_ref(),
            schema::DISPATCH | approval::RESUME | forks::FORK | forks::DROP_FORK
        );
        let changes = changes
            || (crate::trace::TRACED
                && (request.name == traced::EXPLAIN || request.name == traced::DUMP));
        if changes {
            Self::wait_turn(turn.as_ref(), &context).await?;
        } else if let Some(turn) = &turn {
            turn.release();
        }
        let caller = self.caller(&context);
        let forks = &self.inner.forks;
        let result = match request.name.as_ref() {
            schema::SNAPSHOT if self.forkable() => {
                match forks::snapshot(forks, handle, &caller, arguments).await {
                    Some(result) => result,
                    None => approval::with_interrupts(
                        state::snapshot(handle, arguments),
                        handle,
                        &caller,
                    ),
                }
            }
            schema::SNAPSHOT => {
                approval::with_interrupts(state::snapshot(handle, arguments), handle, &caller)
            }
            schema::DIFF if self.forkable() => {
                match forks::diff(forks, handle, &caller, arguments).await {
                    Some(result) => result,
                    None => state::diff(handle, arguments),
                }
            }
            schema::DIFF => state::diff(handle, arguments),
            schema::ERRORS => state::errors(handle, arguments),
            forks::FORK if self.get_tool(forks::FORK).is_some() => {
                forks::fork_tool(forks, handle, &caller, arguments).await
            }
            forks::DROP_FORK if self.get_tool(forks::DROP_FORK).is_some() => {
                forks::drop_tool(forks, &caller, arguments)
            }
            schema::DISPATCH
                if self.forkable()
                    && arguments.is_some_and(|a| {
                        ["fork", "conversation", "dryRun"]
                            .iter()
                            .any(|key| a.contains_key(*key))
                    }) =>
            {
                let ran = forks::dispatch(forks, handle, &caller, arguments).await;
                if let Some(turn) = &turn {
                    turn.release();
                }
                match ran {
                    Some(result) => result,
                    None => {
                        // `dryRun: false` (or a null fork): the live app, without those keys
                        let mut request = request.clone();
                        if let Some(arguments) = &mut request.arguments {
                            for key in ["fork", "conversation", "dryRun"] {
                                arguments.remove(key);
                            }
                        }
                        return Ok(approval::dispatch(handle, &caller, &request, &context).await);
                    }
                }
            }
            schema::WAIT_VERSION => tokio::select! {
                result = state::wait_version(handle, arguments) => result,
                // rmcp keeps running a cancelled request's handler: let go of the waiter now
                () = context.ct.cancelled() => CallToolResult::error(vec![ContentBlock::text(text::CANCELLED)]),
            },
            schema::DISPATCH if self.get_tool(schema::DISPATCH).is_some() => {
                // the messages are queued for the graph in the first poll: the session's next request may queue
                // its own behind them, without waiting for them to run (or for a person to approve them)
                let dispatched = approval::dispatch(handle, &caller, &request, &context);
                return Ok(order::released_after_first_poll(turn.as_ref(), dispatched).await);
            }
            approval::RESUME if self.get_tool(approval::RESUME).is_some() => {
                approval::resume(handle, &caller, arguments).await
            }
            name if traced::is_traced_tool(name) && self.get_tool(name).is_some() => {
                traced::call(handle, &caller, name, arguments).await
            }
            other => {
                let tools: Vec<&str> = self
                    .inner
                    .tools
                    .iter()
                    .map(|tool| tool.name.as_ref())
                    .collect();
                return Err(ErrorData::invalid_params(
                    text::unknown_tool(other, &tools),
                    None,
                ));
            }
        };
        Ok(result.into())
    }

    /// A request of a method MCP defines whose params rmcp could not read arrives here as a custom request; its
    /// error names the field at fault instead of rmcp's bare `-32601 "tools/call"` (see `params`).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let tools = self.tool_names();
        Err(params::custom_request_error(
            &request.method,
            request.params.as_ref(),
            &tools,
            &self.inner.names,
        ))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(resources::list(&self.inner.names))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let target = self.check_uri(&request.uri)?;
        Ok(resources::read(&request.uri, &target, &self.inner.handle).into())
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.check_uri(&request.uri)?;
        Self::wait_turn(order::Turn::of(&context).as_ref(), &context).await?;
        if !self.is_disposed() {
            let disposed = self.inner.disposed.subscribe();
            self.inner
                .legacy
                .subscribe(&context.peer, request.uri, &self.inner.handle, &disposed);
        }
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Self::wait_turn(order::Turn::of(&context).as_ref(), &context).await?;
        self.inner.legacy.unsubscribe(&context.peer, &request.uri);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let uris: Vec<String> = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| resources::target(uri, &self.inner.names).is_some())
            .cloned()
            .collect();
        let mut accepted = SubscriptionFilter::new();
        accepted.resource_subscriptions = Some(uris);
        // rmcp acknowledges the subscription before it calls `listen`, and a client may dispatch as soon as it reads
        // the acknowledgement: the changes `listen` reports count from here.
        self.inner.accepted.push(self.inner.handle.snapshot());
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let accepted: Vec<String> = context
            .accepted()
            .resource_subscriptions
            .clone()
            .unwrap_or_default();
        let mut feed = resources::ChangeFeed::new(&self.inner.handle);
        // the feed sees every publication from here: the session's requests after this one may go
        if let Some(turn) = order::Turn::of(context.request_context()) {
            turn.release();
        }
        let mut disposed = self.inner.disposed.subscribe();
        if *disposed.borrow() {
            return Ok(());
        }
        // What changed between the acknowledgement and now (usually nothing) is reported first.
        if let Some(baseline) = self.inner.accepted.take() {
            for uri in feed
                .changed_since(&baseline)
                .into_iter()
                .filter(|uri| accepted.contains(uri))
            {
                if context.sink().notify_resource_updated(uri).await.is_err() {
                    return Ok(());
                }
            }
        }
        loop {
            let batch = tokio::select! {
                () = context.cancelled() => return Ok(()),
                _ = disposed.wait_for(|d| *d) => return Ok(()),
                batch = feed.next() => batch,
            };
            let Some(batch) = batch else { return Ok(()) };
            for uri in batch.into_iter().filter(|uri| accepted.contains(uri)) {
                if context.sink().notify_resource_updated(uri).await.is_err() {
                    return Ok(());
                }
            }
        }
    }
}
