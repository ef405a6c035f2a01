//! The traced tools' answers about the past: `explain` and `node` with a `run` (the cause chain of that run, the
//! node and its sources as they stood at its end), and the raw tools `history` (one record per run) and
//! `snapshot_at` (the graph at an earlier event, paged). Each answer is bounded like the others; a run or an event
//! the ring dropped is an error naming the oldest kept.

use rmcp::model::{CallToolResult, JsonObject};
use serde_json::{Value, json};

use super::answers::clip_lines;
use super::{args, on_graph, resolve};
use crate::NodeId;
use crate::trace::{self, History, HistoryEntry, PastNode, RunStatus, Why};

/// The most `history` entries one answer holds by default, and at most.
pub(crate) const HISTORY_LIMIT_DEFAULT: u64 = 50;
/// See [`HISTORY_LIMIT_DEFAULT`].
pub(crate) const HISTORY_LIMIT_MAX: u64 = 500;

/// A status as one word: `moved`, `kept` (a cutoff), `equal` (a signal's equal write), `ran`, `failed`, `open`.
fn status_word(entry: &HistoryEntry) -> &'static str {
    match &entry.status {
        RunStatus::Moved => "moved",
        RunStatus::Kept if entry.run == 0 => "equal",
        RunStatus::Kept => "kept",
        RunStatus::Ran => "ran",
        RunStatus::Failed(_) => "failed",
        RunStatus::Open => "open",
    }
}

/// The text of `entry`'s root: `message add_item {..} #30`, `program write to price#1 #7`, ...
fn root_text(history: &History, entry: &HistoryEntry) -> String {
    Why {
        node: history.node.clone(),
        run: entry.run,
        steps: Vec::new(),
        root: entry.root.clone(),
        names: history.names.clone(),
        sites: Default::default(),
        write_sites: Default::default(),
    }
    .root_text()
}

/// The entry of run `run` in `history`, or an error naming the runs it holds.
fn entry_of(history: &History, run: u32) -> Result<&HistoryEntry, String> {
    if let Some(entry) = history.entries.iter().find(|e| e.run == run) {
        return Ok(entry);
    }
    let held: Vec<u32> = history
        .entries
        .iter()
        .map(|e| e.run)
        .filter(|r| *r > 0)
        .collect();
    Err(match (held.first(), held.last()) {
        _ if history.runs == 0 => format!(
            "{} has no run {run}: it has not run (a signal is written, not run; expected a memo or effect that ran)",
            history.node
        ),
        _ if run == 0 || run > history.runs => format!(
            "{} has no run {run}: expected a run from 1 to {}",
            history.node, history.runs
        ),
        (Some(first), Some(last)) => format!(
            "run {run} of {} was dropped from the trace ring: expected a run from {first} to {last}",
            history.node
        ),
        _ => format!(
            "run {run} of {} was dropped from the trace ring, which holds none of its runs",
            history.node
        ),
    })
}

/// `run 3 of 4: #49..#52 moved = 450` (and a failure's message).
fn run_line(history: &History, entry: &HistoryEntry) -> String {
    let mut line = format!("run {} of {}: #{}", entry.run, history.runs, entry.start);
    if entry.end > 0 {
        line.push_str(&format!("..#{}", entry.end));
    }
    line.push(' ');
    line.push_str(status_word(entry));
    if let RunStatus::Failed(message) = &entry.status {
        line.push_str(&format!(": {}", crate::text::clip(message, 120)));
    }
    if let Some(value) = &entry.value {
        line.push_str(&format!(" = {}", crate::text::clip(value, 120)));
    }
    line
}

/// The node and its sources as they stood right after `seq` (the sources' lines follow the node's).
fn lines_then(id: NodeId, seq: u64) -> Result<(PastNode, Vec<PastNode>), String> {
    let then = trace::snapshot_at(seq).map_err(|e| e.to_string())?;
    let node = then
        .node(id)
        .cloned()
        .ok_or_else(|| format!("{id} had not been made at #{seq}"))?;
    let sources = node
        .sources
        .iter()
        .filter_map(|s| then.node(s.id).cloned())
        .collect();
    Ok((node, sources))
}

/// `explain {node, run}`: the run's line, its cause chain (`why_at`), and what the node read then, within `max`
/// characters.
pub(super) fn explain_run(id: NodeId, run: u32, max: usize) -> Result<String, String> {
    let history = trace::history(id).map_err(|e| e.to_string())?;
    let entry = entry_of(&history, run)?;
    let why = trace::why_at(id, run).map_err(|e| e.to_string())?;
    let at = if entry.end > 0 {
        entry.end
    } else {
        entry.start
    };
    let mut text = format!("{} {}", history.node, run_line(&history, entry));
    if let Ok((_, sources)) = lines_then(id, at) {
        let reads: Vec<String> = sources
            .iter()
            .map(|s| match &s.value {
                Some(value) => format!("{} = {}", s.node, crate::text::clip(value, 60)),
                None => s.node.to_string(),
            })
            .collect();
        if !reads.is_empty() {
            text.push_str(&format!("\nread then: {}", reads.join(", ")));
        }
    }
    text.push('\n');
    text.push_str(&why.to_string());
    Ok(clip_lines(&text, max))
}

/// `node {node, run}`: the node as it stood at the end of that run, then its sources then, one line each.
pub(super) fn node_run(id: NodeId, run: u32, max: usize) -> Result<String, String> {
    let history = trace::history(id).map_err(|e| e.to_string())?;
    let entry = entry_of(&history, run)?;
    let at = if entry.end > 0 {
        entry.end
    } else {
        entry.start
    };
    let (node, sources) = lines_then(id, at)?;
    let mut text = format!("{node}\n{}", run_line(&history, entry));
    for source in sources {
        text.push_str(&format!("\n  source {source}"));
    }
    Ok(clip_lines(&text, max))
}

/// `history {node, limit}`: the node's runs (or writes) the ring holds, newest `limit`, oldest first.
pub(super) async fn history(
    handle: &impl super::TraceHost,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let arguments = args::Args::new(super::HISTORY, arguments, &["node", "limit"])?;
    let query = arguments.node()?;
    let limit = arguments.limit(HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX)?;
    let exposed = handle.node_names();
    let document = on_graph(handle, move || {
        let id = resolve(&query, &exposed)?;
        let history = trace::history(id).map_err(|e| e.to_string())?;
        let total = history.entries.len();
        let entries: Vec<Value> = history
            .entries
            .iter()
            .skip(total.saturating_sub(limit))
            .map(|e| {
                json!({
                    "run": e.run,
                    "start": e.start,
                    "end": e.end,
                    "status": status_word(e),
                    "moved": e.status == RunStatus::Moved,
                    "error": match &e.status { RunStatus::Failed(m) => Some(&**m), _ => None },
                    "value": e.value.as_deref().map(|v| crate::text::clip(v, 120).into_owned()),
                    "root": root_text(&history, e),
                })
            })
            .collect();
        Ok::<_, String>(json!({
            "node": history.node.to_string(),
            "runs": history.runs,
            "truncated": history.truncated,
            "total": total,
            "entries": entries,
        }))
    })
    .await??;
    Ok(CallToolResult::structured(document))
}

/// `snapshot_at {seq, limit, cursor}`: the graph right after event `seq`, a page of nodes.
pub(super) async fn snapshot_at(
    handle: &impl super::TraceHost,
    arguments: Option<&JsonObject>,
) -> Result<CallToolResult, String> {
    let arguments = args::Args::new(super::SNAPSHOT_AT, arguments, &["seq", "limit", "cursor"])?;
    let seq = arguments.seq()?;
    let limit = arguments.limit(args::STATE_LIMIT_DEFAULT, args::STATE_LIMIT_MAX)?;
    let cursor = arguments.cursor()?;
    let page = on_graph(handle, move || {
        let then = trace::snapshot_at(seq).map_err(|e| e.to_string())?;
        let total = then.nodes.len();
        if cursor > total {
            return Err(format!(
                "\"cursor\" {cursor} is past the last node ({total}); start again without a cursor"
            ));
        }
        let mut nodes = Vec::new();
        let mut used = 0;
        for n in then.nodes.iter().skip(cursor).take(limit) {
            let record = json!({
                "id": n.node.id.0,
                "name": n.node.to_string(),
                "kind": n.kind.name(),
                "site": format!("{}:{}:{}", n.site.file, n.site.line, n.site.column),
                "value": n.value,
                "sources": n.sources.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "owner": n.owner.as_ref().map(ToString::to_string),
                "runs": n.runs,
                "disposed": n.disposed,
            });
            let size = record.to_string().len();
            if used + size > super::raw::STATE_PAGE_MAX_CHARS && !nodes.is_empty() {
                break;
            }
            used += size;
            nodes.push(record);
        }
        let next = cursor + nodes.len();
        Ok(json!({
            "seq": then.seq,
            "clock": then.clock,
            "oldest": then.oldest,
            "total": total,
            "cursor": cursor.to_string(),
            "nodes": nodes,
            "nextCursor": (next < total).then(|| next.to_string()),
        }))
    })
    .await??;
    Ok(CallToolResult::structured(page))
}
