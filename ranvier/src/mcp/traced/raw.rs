//! The raw trace tools ([`McpAdapterOptions::raw_trace_tools`](crate::mcp::McpAdapterOptions::raw_trace_tools)):
//! JSON documents for clients that post-process the trace rather than read it.
//!
//! `trace_state` pages through the node table (at most `limit` nodes and [`STATE_PAGE_MAX_CHARS`] a page), since
//! the table grows with the graph. `waiting_on` answers in this graph's terms: an async memo waits on its flights
//! (`flight`, each listed with its number, the run that started it, its age in ms and its stage, and `startedBy`, the
//! cause of the newest run), a pending async source on a settle (`settle`); any other node on an open batch
//! (`batch`), on a reader (`read`), or on nothing.

use rmcp::model::{CallToolResult, JsonObject};
use serde_json::{Value, json};

use super::{TRACE_LOOKUP, WAITING_ON, WHY, WHY_NOT, args, on_graph, resolve};
use crate::trace::{self, NodeInfo, NodeName, WhyNot};

/// The most characters of node records one `trace_state` page holds (a page always holds at least one node).
pub const STATE_PAGE_MAX_CHARS: usize = 32_000;

fn names(list: &[NodeName]) -> Value {
    Value::from(list.iter().map(ToString::to_string).collect::<Vec<_>>())
}

/// A node's JSON record.
fn node_json(info: &NodeInfo) -> Value {
    json!({
        "id": info.node.id.0,
        "name": info.node.to_string(),
        "kind": info.kind.name(),
        "site": format!("{}:{}:{}", info.site.file, info.site.line, info.site.column),
        "value": info.value,
        "error": info.error.as_deref(),
        "sources": names(&info.sources),
        "observers": names(&info.observers),
        "owner": info.owner.as_ref().map(ToString::to_string),
        "path": info.path,
        "runs": info.runs,
        "disposed": info.disposed,
    })
}

fn structured(value: Value) -> CallToolResult {
    CallToolResult::structured(value)
}

/// `trace_state {limit, cursor}`.
pub(super) async fn trace_state(
    handle: &impl super::TraceHost,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let arguments = args::Args::new(super::TRACE_STATE, arguments, &["limit", "cursor"])?;
    let limit = arguments.limit(args::STATE_LIMIT_DEFAULT, args::STATE_LIMIT_MAX)?;
    let cursor = arguments.cursor()?;
    let page = on_graph(handle, move || {
        let snapshot = trace::snapshot().map_err(|untraced| untraced.to_string())?;
        let total = snapshot.nodes.len();
        if cursor > total {
            return Err(format!(
                "\"cursor\" {cursor} is past the last node ({total}); start again without a cursor"
            ));
        }
        let mut nodes = Vec::new();
        let mut used = 0;
        for info in snapshot.nodes.iter().skip(cursor).take(limit) {
            let record = node_json(info);
            let size = record.to_string().len();
            if used + size > STATE_PAGE_MAX_CHARS && !nodes.is_empty() {
                break;
            }
            used += size;
            nodes.push(record);
        }
        let next = cursor + nodes.len();
        Ok(json!({
            "clock": snapshot.clock,
            "oldest": snapshot.oldest,
            "capacity": snapshot.capacity,
            "total": total,
            "cursor": cursor.to_string(),
            "nodes": nodes,
            "nextCursor": (next < total).then(|| next.to_string()),
        }))
    })
    .await??;
    Ok(structured(page))
}

/// `trace_lookup`, `why`, `why_not` and `waiting_on`, each `{node}`.
pub(super) async fn node_tool(
    handle: &impl super::TraceHost,
    tool: &str,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let tool: &'static str = match tool {
        TRACE_LOOKUP => TRACE_LOOKUP,
        WHY => WHY,
        WHY_NOT => WHY_NOT,
        _ => WAITING_ON,
    };
    let query = args::Args::new(tool, arguments, &["node"])?.node()?;
    let exposed = handle.node_names();
    let document = on_graph(handle, move || {
        let id = resolve(&query, &exposed)?;
        let info = trace::info(id).map_err(|e| e.to_string())?;
        let node = info.node.to_string();
        Ok::<_, String>(match tool {
            TRACE_LOOKUP => json!({"query": query, "node": node_json(&info)}),
            WHY => {
                let why = trace::why(id).map_err(|e| e.to_string())?;
                let steps: Vec<Value> = why
                    .step_lines()
                    .into_iter()
                    .map(|(seq, cause, text)| json!({"seq": seq, "cause": cause, "text": text}))
                    .collect();
                json!({"node": node, "run": why.run, "root": why.root_text(), "steps": steps})
            }
            WHY_NOT => {
                let why_not = trace::why_not(id).map_err(|e| e.to_string())?;
                json!({"node": node, "reason": reason(&why_not), "text": why_not.to_string()})
            }
            _ => {
                let waiting = trace::waiting_on(id).map_err(|e| e.to_string())?;
                if waiting.kind != trace::WaitKind::Nothing {
                    let flights: Vec<Value> = waiting
                        .flights
                        .iter()
                        .map(|f| {
                            json!({
                                "flight": f.number,
                                "run": f.run,
                                "ageMs": u64::try_from(f.age.as_millis()).unwrap_or(u64::MAX),
                                "stage": f.stage.text(),
                            })
                        })
                        .collect();
                    return Ok(json!({
                        "node": node,
                        "waitingOn": waiting.kind.name(),
                        "flights": flights,
                        "startedBy": waiting.started_by,
                        "text": waiting.to_string(),
                    }));
                }
                let why_not = trace::why_not(id).map_err(|e| e.to_string())?;
                let (waiting_on, text) = waiting_on(&why_not);
                json!({"node": node, "waitingOn": waiting_on, "text": text})
            }
        })
    })
    .await??;
    Ok(structured(document))
}

/// The `why_not` variant as a snake-case reason.
fn reason(why_not: &WhyNot) -> &'static str {
    match why_not {
        WhyNot::Signal { .. } => "signal",
        WhyNot::NeverRan { .. } => "never_ran",
        WhyNot::Disposed { .. } => "disposed",
        WhyNot::Queued { .. } => "queued",
        WhyNot::Unobserved { .. } => "unobserved",
        WhyNot::CheckedClean { .. } => "checked_clean",
        WhyNot::StoppedAtCutoff { .. } => "stopped_at_cutoff",
        WhyNot::EqualWrite { .. } => "equal_write",
        WhyNot::NotReached { .. } => "not_reached",
    }
}

/// What a node waits on, in this graph's terms: `batch`, `read` or `nothing`, with the reason's text.
fn waiting_on(why_not: &WhyNot) -> (&'static str, String) {
    match why_not {
        WhyNot::Queued { .. } => (
            "batch",
            format!("queued behind the open batch or the running flush: {why_not}"),
        ),
        WhyNot::Unobserved { .. } => (
            "read",
            format!("dirty and unread: it re-runs when something reads it: {why_not}"),
        ),
        WhyNot::NeverRan { .. } => (
            "read",
            format!("it runs when something first reads it: {why_not}"),
        ),
        _ => ("nothing", format!("waits on nothing: {why_not}")),
    }
}
