//! The traced tools (traced builds only): `explain`, `graph` and `node`, and with
//! [`McpAdapterOptions::raw_trace_tools`](super::McpAdapterOptions::raw_trace_tools) the JSON tools `trace_state`,
//! `trace_lookup`, `why`, `why_not`, `waiting_on`, `history` and `snapshot_at`. `explain` and `node` take an optional
//! `run` and then answer for that earlier run (`past.rs`).
//!
//! Each call reads the trace log on the graph thread ([`ExposureHandle::on_graph`]) and renders its answer there, so
//! nothing but text and JSON crosses threads. The compact answers are bounded: `explain` at most
//! [`EXPLAIN_MAX_CHARS`] (plus, in the full form, at most [`STEPS_MAX_CHARS`] of dispatched steps after it),
//! `graph` at most [`GRAPH_MAX_CHARS`], a page of `node` at most [`NODE_PAGE_MAX_CHARS`]; `trace_state` pages
//! through the nodes.
//!
//! A node argument is an exposed node name (`Exposure::node`), a node name (label or `let` binding), `#id`,
//! `name#id` or an identity path `/owner/name`; a miss is a tool error that lists the exposed nodes.

pub(crate) mod answers;
mod args;
mod past;
mod raw;

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, MetaObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

pub use super::explain::EXPLAIN_MAX_CHARS;
pub(crate) use super::explain::resolve;
use super::{dispatch, explain as explainer, schema, text};
use crate::exposure::ExposureHandle;

/// The tool names, in the order `tools/list` returns them (after the untraced tools).
pub(crate) const EXPLAIN: &str = "explain";
/// See [`EXPLAIN`].
pub(crate) const GRAPH: &str = "graph";
/// See [`EXPLAIN`].
pub(crate) const NODE: &str = "node";
/// See [`EXPLAIN`].
pub(crate) const TRACE_STATE: &str = "trace_state";
/// See [`EXPLAIN`].
pub(crate) const TRACE_LOOKUP: &str = "trace_lookup";
/// See [`EXPLAIN`].
pub(crate) const WHY: &str = "why";
/// See [`EXPLAIN`].
pub(crate) const WHY_NOT: &str = "why_not";
/// See [`EXPLAIN`].
pub(crate) const WAITING_ON: &str = "waiting_on";
/// See [`EXPLAIN`].
pub(crate) const HISTORY: &str = "history";
/// See [`EXPLAIN`].
pub(crate) const SNAPSHOT_AT: &str = "snapshot_at";
/// See [`EXPLAIN`].
pub(crate) const DUMP: &str = "dump";

/// The longest part of an `explain` answer that reports the dispatched messages.
pub const STEPS_MAX_CHARS: usize = 1_000;
/// The longest `graph` answer, in characters.
pub const GRAPH_MAX_CHARS: usize = 2_000;
/// The longest page of `node`, in characters.
pub const NODE_PAGE_MAX_CHARS: usize = 4_000;

/// Whether `name` is one of the traced tools (listed or not).
pub(crate) fn is_traced_tool(name: &str) -> bool {
    [
        EXPLAIN,
        GRAPH,
        NODE,
        TRACE_STATE,
        TRACE_LOOKUP,
        WHY,
        WHY_NOT,
        WAITING_ON,
        HISTORY,
        SNAPSHOT_AT,
        DUMP,
    ]
    .contains(&name)
}

const EXPLAIN_DESCRIPTION: &str = "Explain why a node holds its value: the first call of a diagnosis. Pass `node` (an exposed node, a node name, \
`#id` or an identity path) and optionally `messages` ([{\"message\": name, \"args\": {...}}, ...], dispatched \
first, as in `dispatch`, and the async values they set off waited for, up to 5 s: `settle: false` explains at once, `settleMs` sets the bound). Answers in a few lines: the node as `name#id Kind file.rs:line = value reads \
[source#id:line, ...]` with its source lines; then the findings from its whole upstream cone, best first, each \
followed by the line to fix (`  file.rs:line: code`): `unread:` a value read untracked (peek, untrack) that \
moved since, `future read:` a value an async memo's future read (untracked) that moved since, `disposed:` a \
disposed source, `written:` who wrote a signal and where, `captured:` a value copied into a closure that moved \
since, `batch:` moves hidden by a batch, `cutoff:`/`earlier cutoff:` an upstream memo that kept its value (and, \
when it printed differently from the value computed, the fields that differ and the `PartialEq` that called them \
equal), `not re-run since:`, `kept:` a previous value returned, `select:` a select that kept its value on the \
message, `update:` the arm of update that handled the message (with `commands: N` for `Mvu::with_commands`), \
`steady:` a source that did not follow it, `wrote:` what the message wrote elsewhere when a signal did not \
follow it, `comparer:`, `initial:`, `settled:` the lines of an async memo's future that produced its value; then \
how many `messages` it dispatched and the version they left. `detail: \"full\"` adds `why:` (the cause chain), the \
dispatched steps that moved what it reads and the state after them. `run` (a run number, as `history` lists \
them) answers for that earlier run instead: its line, what it read then and its cause chain.";

const GRAPH_DESCRIPTION: &str = "The graph at a glance: node counts by kind, the exposed nodes with their values, and \
the nodes the last message moved, one line each (`name#id Kind file.rs:line = value reads [sources]`). At most 2,000 \
characters.";

const NODE_DESCRIPTION: &str = "One node and its sources and observers within `around` hops (0 to 2, default 1), one \
line each, nearest first. `detail`: `brief` (default) or `full` (adds each node's source line, observers, identity \
path and run count). Pages of at most `limit` neighbours (default 25) and 4,000 characters; pass the `cursor` a page \
ends with to read the next. `run` (a run number) shows the node and its sources as they stood at the end of that \
run instead.";

const TRACE_STATE_DESCRIPTION: &str = "The trace's node table as JSON, paged: {clock, oldest, capacity, total, \
nodes: [{id, name, kind, site, value, error, sources, observers, owner, path, runs, disposed}], nextCursor}. \
`limit` (default 100, at most 500) nodes a page; pass `cursor` from the previous page.";

const TRACE_LOOKUP_DESCRIPTION: &str = "Finds a node by exposed name, node name, `#id`, `name#id` or identity path; \
answers its JSON record {id, name, kind, site, value, sources, observers, path, ...}.";

const WHY_DESCRIPTION: &str = "The cause chain of a node's last run as JSON: {node, run, root, steps: [{seq, cause, \
text}]}, newest step first, back to the root (a message, a program write, a creation or a pull).";

const WHY_NOT_DESCRIPTION: &str = "Why a node has not re-run since its last run, as JSON {node, reason, text}; \
reason is one of signal, never_ran, disposed, queued, unobserved, checked_clean, stopped_at_cutoff, equal_write, \
not_reached.";

const HISTORY_DESCRIPTION: &str = "A node's runs (a signal's writes) that the trace ring holds, oldest first, as \
JSON {node, runs, truncated, total, entries: [{run, start, end, status, moved, error, value, root}]}; the newest \
`limit` (default 50, at most 500). status is moved, kept (a cutoff), equal (an equal write), ran, failed or open.";

const SNAPSHOT_AT_DESCRIPTION: &str = "The graph as it stood right after event `seq` (a sequence number, as `why` and \
`history` print them), rebuilt from what the bounded trace ring holds, as JSON {seq, clock, oldest, total, nodes: \
[{id, name, kind, site, value, sources, owner, runs, disposed}], nextCursor}, paged like trace_state. A seq older \
than `oldest` was dropped and is refused.";

const DUMP_DESCRIPTION: &str = "The whole trace log as JSON lines (`ranvier::trace::dump`, schema \
`ranvier::trace::DUMP_SCHEMA`), with the names nodes are exposed under: save it to a file, and `ranvier-mcp \
postmortem FILE` answers explain, graph, node, history and snapshot_at from it as this app answers them now, after \
the app is gone. `messages` (as in `dispatch`) are dispatched first.";

const WAITING_ON_DESCRIPTION: &str = "What a node waits on, as JSON {node, waitingOn, text}. The graph has no async \
nodes, so waitingOn is `batch` (an effect queued behind an open batch or the running flush), `read` (a memo marked \
stale, or never run, that re-runs only when something reads it) or `nothing` (it is current; text says why it has \
not re-run).";

/// The traced tools to list, after `snapshot`, `dispatch` and `wait_version`.
pub(crate) fn tools(
    messages: &[(String, Option<String>, Option<Value>)],
    raw: bool,
    always_load: bool,
) -> Vec<Tool> {
    let read_only = || ToolAnnotations::new().read_only(true).open_world(false);
    let node_property = json!({
        "type": "string",
        "description": "An exposed node name, a node name (label or `let` binding), `#id`, `name#id`, or an \
                        identity path like `/owner/name`."
    });
    let run_property = json!({
        "type": "integer", "minimum": 1,
        "description": "Answer for this earlier run of the node (a run number, as `history` lists them) instead of its latest."
    });
    let mut explain_properties = serde_json::Map::new();
    explain_properties.insert("node".into(), node_property.clone());
    explain_properties.insert("run".into(), run_property.clone());
    explain_properties.insert(
        "detail".into(),
        json!({"type": "string", "enum": ["brief", "full"], "default": "brief",
               "description": "`brief` (default): the findings and their lines; `full` adds the `why:` cause chain, \
                               the dispatched steps and the state after them."}),
    );
    if !messages.is_empty() {
        let dispatch = schema::dispatch_input_schema(messages);
        if let Some(list) = dispatch.pointer("/properties/messages").cloned() {
            explain_properties.insert("messages".into(), list);
        }
        explain_properties.insert(
            "settle".into(),
            json!({"type": "boolean", "default": true,
                   "description": "With messages: wait until the async values they set off (flights) have settled \
                                   before explaining (default true; bounded by settleMs); false explains at once."}),
        );
        if let Some(ms) = dispatch.pointer("/properties/settleMs").cloned() {
            explain_properties.insert("settleMs".into(), ms);
        }
    }
    let mut explain = Tool::new(
        EXPLAIN,
        EXPLAIN_DESCRIPTION,
        object(json!({"type": "object", "properties": explain_properties, "required": ["node"]})),
    )
    .with_title("Explain a node's value")
    .with_annotations(
        ToolAnnotations::new()
            .read_only(false)
            .destructive(true)
            .idempotent(false)
            .open_world(false),
    );
    if always_load {
        explain = explain.with_meta(always_load_meta());
    }
    let node_only = || {
        object(
            json!({"type": "object", "properties": {"node": node_property}, "required": ["node"]}),
        )
    };
    let mut tools = vec![
        explain,
        Tool::new(GRAPH, GRAPH_DESCRIPTION, object(json!({"type": "object", "properties": {}})))
            .with_title("The graph at a glance")
            .with_annotations(read_only()),
        Tool::new(
            NODE,
            NODE_DESCRIPTION,
            object(json!({
                "type": "object",
                "properties": {
                    "node": node_property,
                    "around": {"type": "integer", "minimum": 0, "maximum": 2, "default": 1,
                               "description": "How many hops of sources and observers to show (0 to 2)."},
                    "detail": {"type": "string", "enum": ["brief", "full"], "default": "brief",
                               "description": "`brief`: one line a node; `full`: also source lines, observers, paths."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": args::NODE_LIMIT_MAX, "default": args::NODE_LIMIT_DEFAULT,
                              "description": "At most this many neighbours a page."},
                    "cursor": {"type": "string", "description": "The cursor the previous page ended with."},
                    "run": run_property
                },
                "required": ["node"]
            })),
        )
        .with_title("A node and its neighbours")
        .with_annotations(read_only()),
    ];
    if raw {
        tools.push(
            Tool::new(
                TRACE_STATE,
                TRACE_STATE_DESCRIPTION,
                object(json!({
                    "type": "object",
                    "properties": {
                        "limit": {"type": "integer", "minimum": 1, "maximum": args::STATE_LIMIT_MAX, "default": args::STATE_LIMIT_DEFAULT},
                        "cursor": {"type": "string", "description": "The nextCursor of the previous page."}
                    }
                })),
            )
            .with_title("The trace's node table")
            .with_annotations(read_only()),
        );
        for (name, description, title) in [
            (TRACE_LOOKUP, TRACE_LOOKUP_DESCRIPTION, "Find a node"),
            (WHY, WHY_DESCRIPTION, "A node's cause chain"),
            (WHY_NOT, WHY_NOT_DESCRIPTION, "Why a node has not re-run"),
            (WAITING_ON, WAITING_ON_DESCRIPTION, "What a node waits on"),
        ] {
            tools.push(
                Tool::new(name, description, node_only())
                    .with_title(title)
                    .with_annotations(read_only()),
            );
        }
        tools.push(
            Tool::new(
                HISTORY,
                HISTORY_DESCRIPTION,
                object(json!({
                    "type": "object",
                    "properties": {
                        "node": node_property,
                        "limit": {"type": "integer", "minimum": 1, "maximum": past::HISTORY_LIMIT_MAX, "default": past::HISTORY_LIMIT_DEFAULT}
                    },
                    "required": ["node"]
                })),
            )
            .with_title("A node's runs")
            .with_annotations(read_only()),
        );
        tools.push(
            Tool::new(
                SNAPSHOT_AT,
                SNAPSHOT_AT_DESCRIPTION,
                object(json!({
                    "type": "object",
                    "properties": {
                        "seq": {"type": "integer", "minimum": 1, "description": "The event to stand at."},
                        "limit": {"type": "integer", "minimum": 1, "maximum": args::STATE_LIMIT_MAX, "default": args::STATE_LIMIT_DEFAULT},
                        "cursor": {"type": "string", "description": "The nextCursor of the previous page."}
                    },
                    "required": ["seq"]
                })),
            )
            .with_title("The graph at an earlier event")
            .with_annotations(read_only()),
        );
        let mut dump_properties = serde_json::Map::new();
        if let Some(list) = explain_properties.get("messages") {
            dump_properties.insert("messages".into(), list.clone());
        }
        tools.push(
            Tool::new(
                DUMP,
                DUMP_DESCRIPTION,
                object(json!({"type": "object", "properties": dump_properties})),
            )
            .with_title("The trace log, for a post-mortem")
            .with_annotations(if messages.is_empty() {
                read_only()
            } else {
                ToolAnnotations::new()
                    .read_only(false)
                    .destructive(true)
                    .idempotent(false)
                    .open_world(false)
            }),
        );
    }
    tools
}

pub(crate) fn always_load_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.insert("anthropic/alwaysLoad".into(), Value::Bool(true));
    meta
}

fn object(value: Value) -> Arc<JsonObject> {
    Arc::new(match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    })
}

fn error(reason: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(reason)])
}

fn success(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// Runs the traced tool `name` (one of [`is_traced_tool`], listed); `caller` is who `explain` dispatches as.
pub(crate) async fn call(
    handle: &ExposureHandle,
    caller: &super::caller::Caller<'_>,
    name: &str,
    arguments: Option<&JsonObject>,
) -> CallToolResult {
    let result = match name {
        EXPLAIN => explain(handle, caller, arguments).await,
        GRAPH => graph(handle, arguments).await,
        NODE => node(handle, arguments).await,
        TRACE_STATE => raw::trace_state(handle, arguments).await,
        HISTORY => past::history(handle, arguments).await,
        SNAPSHOT_AT => past::snapshot_at(handle, arguments).await,
        DUMP => dump(handle, caller, arguments).await,
        _ => raw::node_tool(handle, name, arguments).await,
    };
    scrubbed(handle, result.unwrap_or_else(error))
}

/// The tools a post-mortem serves (`postmortem.rs`): the read-only traced tools, `explain` among them without
/// `messages` (nothing can be dispatched into a process that is gone).
pub(crate) fn postmortem_tools() -> Vec<Tool> {
    tools(&[], true, false)
        .into_iter()
        .filter(|tool| tool.name != DUMP)
        .map(|tool| {
            if tool.name == EXPLAIN {
                tool.with_annotations(ToolAnnotations::new().read_only(true).open_world(false))
            } else {
                tool
            }
        })
        .collect()
}

/// Runs the traced tool `name` of a post-mortem (one of [`postmortem_tools`]) on `host`, the dump's thread.
pub(crate) async fn call_postmortem(
    host: &impl TraceHost,
    name: &str,
    arguments: Option<&JsonObject>,
) -> CallToolResult {
    let result = match name {
        EXPLAIN => explain_dumped(host, arguments).await,
        GRAPH => graph(host, arguments).await,
        NODE => node(host, arguments).await,
        TRACE_STATE => raw::trace_state(host, arguments).await,
        HISTORY => past::history(host, arguments).await,
        SNAPSHOT_AT => past::snapshot_at(host, arguments).await,
        _ => raw::node_tool(host, name, arguments).await,
    };
    scrubbed(host, result.unwrap_or_else(error))
}

/// Dispatches the messages of `call` (as `dispatch` does) before the tool `tool` answers: the steps' text, or the
/// error saying no `what` was made because a message was rejected.
async fn dispatch_first(
    handle: &ExposureHandle,
    caller: &super::caller::Caller<'_>,
    call: &JsonObject,
    what: &str,
    tool: &str,
) -> Result<String, String> {
    let (failed, text) = dispatch::run(handle, caller, Some(call)).await;
    if failed {
        return Err(format!(
            "{text}\nno {what}: the messages were not all dispatched; fix the rejected one and call {tool} again"
        ));
    }
    Ok(text)
}

/// `dump {messages?}`: the messages dispatched (as `explain` dispatches them), then the trace log as JSON lines and
/// the line of exposed names.
async fn dump(
    handle: &ExposureHandle,
    caller: &super::caller::Caller<'_>,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let arguments = args::Args::new(DUMP, arguments, &["messages"])?;
    if let Some(messages) = arguments.get("messages").cloned() {
        let mut call = JsonObject::new();
        call.insert("messages".into(), messages);
        dispatch_first(handle, caller, &call, "dump", DUMP).await?;
    }
    let exposed = handle.node_names();
    let text = on_graph(handle, move || {
        let mut text = crate::trace::dump().map_err(|e| e.to_string())?;
        text.push_str(&crate::trace::exposed_line(&exposed));
        text.push('\n');
        Ok::<_, String>(text)
    })
    .await??;
    Ok(success(text))
}

/// `explain {node, detail, run}` of a post-mortem: as the live `explain` answers without `messages`.
async fn explain_dumped(
    host: &impl TraceHost,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let arguments = args::Args::new(EXPLAIN, arguments, &["node", "messages", "detail", "run"])?;
    if arguments.get("messages").is_some() {
        return Err(
            "this is a post-mortem of a dump: its process is gone, so \"messages\" cannot be dispatched; explain \
             answers for the graph as it was when the dump was taken (pass \"node\", and \"run\" for an earlier \
             run)"
                .to_owned(),
        );
    }
    let query = arguments.node()?;
    let full = arguments.full()?;
    let run = arguments.run()?;
    let exposed = host.node_names();
    let text = on_graph(host, move || {
        let id = resolve(&query, &exposed)?;
        let text = match run {
            Some(run) => past::explain_run(id, run, EXPLAIN_MAX_CHARS),
            None => explainer::explain_on_graph(&id.to_string(), &exposed, full).map(|e| e.text),
        }?;
        // the lines come from the files the dump names, read here: say which are not
        let missing = crate::trace::missing_sources();
        Ok::<_, String>(if missing.is_empty() {
            text
        } else {
            format!(
                "{text}\nsources not found here: {} (the dump names them; their lines are left out: run from the \
                 app's directory or pass --source-root DIR)",
                missing.join(", ")
            )
        })
    })
    .await??;
    Ok(success(text))
}

/// `result` with every redacted string the exposure has seen replaced by the marker, in its text and its
/// structured content (see [`crate::exposure::redact`]): the trace may hold a secret another way than as a
/// redacted value (the `Debug` text of a model that holds it, say).
fn scrubbed(handle: &impl TraceHost, mut result: CallToolResult) -> CallToolResult {
    for block in &mut result.content {
        if let rmcp::model::ContentBlock::Text(text) = block {
            let clean = handle.scrub(&text.text);
            if clean != text.text {
                text.text = clean;
            }
        }
    }
    if let Some(structured) = &result.structured_content {
        let text = structured.to_string();
        let clean = handle.scrub(&text);
        if clean != text {
            result.structured_content = serde_json::from_str(&clean).ok();
        }
    }
    result
}

/// Where the traced tools read the trace: a live app's exposure (its graph thread and exposed names), or a dump
/// loaded for a post-mortem (`postmortem.rs`: a thread of its own, the names the dump recorded).
pub(crate) trait TraceHost: Sync {
    /// The names nodes are exposed under.
    fn node_names(&self) -> Vec<(String, crate::NodeId)>;

    /// Runs `work` on the thread whose trace the tools read; a gone thread is the error a model reads.
    fn run_boxed(&self, work: GraphWork) -> BoxedRun<'_>;

    /// `text` with every secret the host has seen replaced by the redaction marker.
    fn scrub(&self, text: &str) -> String;
}

impl TraceHost for ExposureHandle {
    fn node_names(&self) -> Vec<(String, crate::NodeId)> {
        ExposureHandle::node_names(self)
    }

    fn run_boxed(&self, work: GraphWork) -> BoxedRun<'_> {
        Box::pin(async move {
            self.on_graph(work)
                .await
                .map_err(|e| text::host_gone(&e.to_string()))
        })
    }

    fn scrub(&self, text: &str) -> String {
        ExposureHandle::scrub(self, text)
    }
}

/// Work for the graph thread, as a [`TraceHost`] takes it.
pub(crate) type GraphWork = Box<dyn FnOnce() + Send + 'static>;
/// What running [`GraphWork`] answers: an error when the thread is gone.
pub(crate) type BoxedRun<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), String>> + Send + 'a>>;

/// Runs `work` on the graph thread; a gone host is the error a model reads.
pub(crate) async fn on_graph<R: Send + 'static>(
    handle: &impl TraceHost,
    work: impl FnOnce() -> R + Send + 'static,
) -> Result<R, String> {
    let (answer, answered) = tokio::sync::oneshot::channel();
    handle
        .run_boxed(Box::new(move || {
            let _ = answer.send(work());
        }))
        .await?;
    answered.await.map_err(|_| {
        "the graph thread stopped before it answered (a panic in the query?)".to_owned()
    })
}

async fn explain(
    handle: &ExposureHandle,
    caller: &super::caller::Caller<'_>,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let arguments = args::Args::new(
        EXPLAIN,
        arguments,
        &["node", "messages", "detail", "run", "settle", "settleMs"],
    )?;
    let query = arguments.node()?;
    let full = arguments.full()?;
    let messages = arguments.get("messages").cloned();
    if messages.is_none()
        && (arguments.get("settle").is_some() || arguments.get("settleMs").is_some())
    {
        return Err(
            "explain's \"settle\" and \"settleMs\" wait for the async values \"messages\" set off; pass the messages \
             too, or leave them out"
                .to_owned(),
        );
    }
    let exposed = handle.node_names();
    if let Some(run) = arguments.run()? {
        if messages.is_some() {
            return Err(
                "explain takes \"run\" (an earlier run) or \"messages\" (dispatched first, then the latest run \
                 explained), not both"
                    .to_owned(),
            );
        }
        let text = on_graph(handle, move || {
            let id = resolve(&query, &exposed)?;
            past::explain_run(id, run, EXPLAIN_MAX_CHARS)
        })
        .await??;
        return Ok(success(text));
    }
    // resolve first: a misspelt node dispatches nothing; a row of a known collection (`lines[kiwi]/total`) may be
    // one the messages make, so it is resolved again after them
    let id = {
        let (query, exposed) = (query.clone(), exposed.clone());
        let later = messages.is_some();
        on_graph(handle, move || match resolve(&query, &exposed) {
            Ok(id) => Ok(Some(id)),
            Err(_) if later && names_a_row_of_a_known_collection(&query, &exposed) => Ok(None),
            Err(miss) => Err(miss),
        })
        .await??
    };
    let mut steps = String::new();
    let mut dispatched_to = 0;
    if let Some(messages) = messages {
        let mut call = JsonObject::new();
        call.insert("messages".into(), messages);
        // the flights the messages set off settle first (bounded), unless the caller says otherwise: a value is
        // explained as the messages left it, not half way
        for key in ["settle", "settleMs"] {
            if let Some(value) = arguments.get(key) {
                call.insert(key.into(), value.clone());
            }
        }
        if !call.contains_key("settle") && !call.contains_key("settleMs") {
            call.insert("settle".into(), true.into());
        }
        steps = dispatch_first(handle, caller, &call, "explanation", EXPLAIN).await?;
        dispatched_to = handle.version();
    }
    let id = match id {
        Some(id) => id,
        None => {
            let (query, exposed) = (query.clone(), exposed.clone());
            on_graph(handle, move || resolve(&query, &exposed))
                .await?
                .map_err(|miss| format!("{steps}\nafter these messages: {miss}"))?
        }
    };
    let explainer::Explained {
        text: explanation,
        cone: cone_names,
    } = explainer::explain(handle, &id.to_string(), full)
        .await
        .map_err(|e| text::host_gone(&e.to_string()))??;
    if steps.is_empty() {
        return Ok(success(explanation));
    }
    if !full {
        // the short form: how many messages went and the version they left, and what did not settle; each step's
        // changes repeat what the findings and the snapshot say (`detail: "full"` lists them)
        let summary = answers::dispatch_summary(&steps, dispatched_to);
        return Ok(success(if summary.is_empty() {
            explanation
        } else {
            format!("{explanation}\n{summary}")
        }));
    }
    let steps = answers::steps_in_cone(&steps, &cone_names);
    let steps = answers::clip_head(&steps, STEPS_MAX_CHARS);
    Ok(success(format!("{explanation}\n{steps}")))
}

/// Whether `query` is a row path (`lines[kiwi]` or `lines[kiwi]/total`) whose collection (`lines`) names a node
/// (or several: a collection with views has a node of its own beside its head).
fn names_a_row_of_a_known_collection(query: &str, exposed: &[(String, crate::NodeId)]) -> bool {
    query.trim().split_once('[').is_some_and(|(collection, _)| {
        !collection.is_empty()
            && (resolve(collection, exposed).is_ok()
                || crate::trace::lookup(collection).is_err_and(|miss| {
                    miss.candidates.iter().any(|node| *node.name == *collection)
                }))
    })
}

async fn graph(
    handle: &impl TraceHost,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    args::Args::new(GRAPH, arguments, &[])?;
    let exposed = handle.node_names();
    let text = on_graph(handle, move || answers::graph(&exposed, GRAPH_MAX_CHARS)).await?;
    Ok(success(text))
}

async fn node(
    handle: &impl TraceHost,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let arguments = args::Args::new(
        NODE,
        arguments,
        &["node", "around", "detail", "limit", "cursor", "run"],
    )?;
    let query = arguments.node()?;
    if let Some(run) = arguments.run()? {
        if let Some(other) = ["around", "limit", "cursor"]
            .into_iter()
            .find(|a| arguments.get(a).is_some())
        {
            return Err(format!(
                "node with \"run\" shows the node and its sources at the end of that run, one page: \"{other}\" \
                 does not apply (pass \"node\" and \"run\" alone)"
            ));
        }
        let exposed = handle.node_names();
        let text = on_graph(handle, move || {
            let id = resolve(&query, &exposed)?;
            past::node_run(id, run, NODE_PAGE_MAX_CHARS)
        })
        .await??;
        return Ok(success(text));
    }
    let request = answers::NodeRequest {
        around: arguments.around()?,
        full: arguments.full()?,
        limit: arguments.limit(args::NODE_LIMIT_DEFAULT, args::NODE_LIMIT_MAX)?,
        cursor: arguments.cursor()?,
        max_chars: NODE_PAGE_MAX_CHARS,
    };
    let exposed = handle.node_names();
    let text = on_graph(handle, move || {
        let id = resolve(&query, &exposed)?;
        answers::node_page(id, &request)
    })
    .await??;
    Ok(success(text))
}
