//! The JSON dump of the log: one header line, one line per node of the node table, one line per event the ring holds.
//!
//! The dump holds no addresses, times or hash orders, so the same program dumps the same bytes on every run (as long
//! as its values' `Debug` text is itself deterministic: a `HashMap`'s is not).

use super::log::{Event, EventKind, Writer};
use super::query::Ctx;
use crate::graph::{NodeId, with_runtime};
use serde_json::{Value, json};

/// The version of the dump's layout; it changes whenever a field changes meaning or goes away.
pub const DUMP_SCHEMA: u32 = 1;

/// The current thread's trace log as JSON lines:
///
/// ```text
/// {"capacity":65536,"clock":42,"nodes":5,"oldest":1,"schema":1}
/// {"node":{"id":1,"kind":"Signal","name":"price","site":"tests/tests/trace.rs:12:17",...}}
/// {"cause":0,"kind":"Write","moved":true,"node":1,"seq":7,"value":"3","by":"program"}
/// ```
///
/// Every line is one JSON object; keys are written in a fixed order.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Signal};
///
/// let n = Signal::new(1);
/// n.set(2);
/// let dump = trace::dump();
/// let header: serde_json::Value = serde_json::from_str(dump.lines().next().unwrap()).unwrap();
/// assert_eq!(header["schema"], trace::DUMP_SCHEMA);
/// ```
pub fn dump() -> String {
    with_runtime(|rt| {
        let ctx = Ctx::new(&rt.tracer);
        let records: Vec<_> = ctx.records().cloned().collect();
        let mut out = String::new();
        let header = json!({
            "schema": DUMP_SCHEMA,
            "clock": rt.tracer.clock(),
            "oldest": ctx.oldest,
            "capacity": rt.tracer.capacity(),
            "nodes": records.len(),
        });
        push_line(&mut out, &header);
        for r in &records {
            let node = json!({ "node": {
                "id": r.id.0,
                "kind": r.kind.name(),
                "name": &*ctx.base_name(r.id),
                "label": r.label.as_deref(),
                "site": format!("{}:{}:{}", r.site.file(), r.site.line(), r.site.column()),
                "path": ctx.path(r.id),
                "owner": r.owner.map(|o| o.0),
                "created": r.created,
                "creatingRun": r.creating_run,
                "runs": r.runs,
                "lastRunStart": r.last_run_start,
                "lastRunEnd": r.last_run_end,
                "lastMoved": r.last_moved,
                "lastWrite": r.last_write,
                "lastCutoff": r.last_cutoff.as_ref().map(|(seq, value)| json!([seq, &**value])),
                "disposed": r.disposed,
                "sources": r.sources.iter().map(|s| s.0).collect::<Vec<_>>(),
                "value": ctx.value(r.id),
            }});
            push_line(&mut out, &node);
        }
        for event in rt.tracer.events() {
            push_line(&mut out, &event_json(&event));
        }
        out
    })
}

fn push_line(out: &mut String, value: &Value) {
    out.push_str(&value.to_string());
    out.push('\n');
}

fn id(node: NodeId) -> u32 {
    node.0
}

/// One event as a JSON object: `seq`, `cause`, `kind`, then the kind's fields.
pub(super) fn event_json(event: &Event) -> Value {
    let mut fields = match &event.kind {
        EventKind::NodeNew {
            node,
            kind,
            owner,
            run,
        } => {
            json!({"node": id(*node), "nodeKind": kind.name(), "owner": owner.map(id), "run": run})
        }
        EventKind::Label { node, label } => json!({"node": id(*node), "label": &**label}),
        EventKind::Write {
            node,
            by,
            moved,
            value,
        } => {
            let by = match by {
                Writer::Program => json!("program"),
                Writer::Message(seq) => json!({"message": seq}),
                Writer::Computation(c) => json!({"computation": id(*c)}),
            };
            json!({"node": id(*node), "by": by, "moved": moved, "value": &**value})
        }
        EventKind::Mark {
            node,
            source,
            dirty,
        } => json!({"node": id(*node), "source": id(*source), "dirty": dirty}),
        EventKind::Schedule { node }
        | EventKind::CheckStart { node }
        | EventKind::Dispose { node } => {
            json!({"node": id(*node)})
        }
        EventKind::CheckResolved { node, dirty_source } => {
            json!({"node": id(*node), "dirtySource": dirty_source.map(id)})
        }
        EventKind::RunStart { node, run, puller } => {
            json!({"node": id(*node), "run": run, "puller": puller.map(id)})
        }
        EventKind::RunEnd {
            node,
            moved,
            error,
            value,
        } => json!({
            "node": id(*node), "moved": moved, "error": error.as_deref(), "value": value.as_deref()
        }),
        EventKind::Stopped { node, message } => json!({"node": id(*node), "message": &**message}),
        EventKind::FlushStart { flush } | EventKind::FlushEnd { flush } => json!({"flush": flush}),
        EventKind::BatchEnter { depth } | EventKind::BatchExit { depth } => json!({"depth": depth}),
        EventKind::Message { target, name, args } => {
            json!({"target": id(*target), "name": &**name, "args": &**args})
        }
        EventKind::EdgeAdd { node, source } | EventKind::EdgeRemove { node, source } => {
            json!({"node": id(*node), "source": id(*source)})
        }
        EventKind::UntrackedRead { node, source } => {
            json!({"node": node.map(id), "source": id(*source)})
        }
    };
    let mut head = json!({"seq": event.seq, "cause": event.cause, "kind": kind_name(&event.kind)});
    if let (Some(head), Some(fields)) = (head.as_object_mut(), fields.as_object_mut()) {
        head.append(fields);
    }
    head
}

fn kind_name(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::NodeNew { .. } => "NodeNew",
        EventKind::Label { .. } => "Label",
        EventKind::Write { .. } => "Write",
        EventKind::Mark { .. } => "Mark",
        EventKind::Schedule { .. } => "Schedule",
        EventKind::CheckStart { .. } => "CheckStart",
        EventKind::CheckResolved { .. } => "CheckResolved",
        EventKind::RunStart { .. } => "RunStart",
        EventKind::RunEnd { .. } => "RunEnd",
        EventKind::Stopped { .. } => "Stopped",
        EventKind::FlushStart { .. } => "FlushStart",
        EventKind::FlushEnd { .. } => "FlushEnd",
        EventKind::BatchEnter { .. } => "BatchEnter",
        EventKind::BatchExit { .. } => "BatchExit",
        EventKind::Dispose { .. } => "Dispose",
        EventKind::Message { .. } => "Message",
        EventKind::EdgeAdd { .. } => "EdgeAdd",
        EventKind::EdgeRemove { .. } => "EdgeRemove",
        EventKind::UntrackedRead { .. } => "UntrackedRead",
    }
}
