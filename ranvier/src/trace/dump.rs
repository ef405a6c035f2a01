//! The JSON dump of the log: one header line, one line per node of the node table, one line per event the ring holds;
//! [`read_dump`] (`dump/read.rs`) reads one back.
//!
//! The dump holds no addresses, times or hash orders, so the same program dumps the same bytes on every run (as long
//! as its values' `Debug` text is itself deterministic: a `HashMap`'s is not).

use std::fmt::Write as _;

mod read;

pub use read::{Dump, DumpError, DumpNode, read_dump};

use super::TraceError;
use super::log::{Event, EventKind, Writer};
use super::query::Ctx;
use crate::graph::NodeId;

/// The version of the dump's layout; it changes whenever a field changes meaning or goes away.
pub const DUMP_SCHEMA: u32 = 1;

/// The current thread's trace log as JSON lines:
///
/// ```text
/// {"schema":1,"clock":42,"oldest":1,"capacity":65536,"nodes":5}
/// {"node":{"id":1,"kind":"Signal","name":"price","label":"price","site":"tests/tests/trace.rs:12:17",...}}
/// {"seq":7,"cause":0,"kind":"Write","node":1,"by":"program","moved":true,"value":"3"}
/// ```
///
/// Every line is one JSON object; keys are written in a fixed order.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Signal};
///
/// let n = Signal::new(1);
/// n.set(2);
/// # if !trace::TRACED { assert_eq!(trace::dump(), Err(trace::TraceError::NotTraced)); return; }
/// let dump = trace::dump().unwrap();
/// assert!(dump.starts_with(&format!("{{\"schema\":{},", trace::DUMP_SCHEMA)));
/// assert!(dump.lines().any(|line| line.contains(r#""kind":"Write""#)));
/// ```
pub fn dump() -> Result<String, TraceError> {
    super::with_log(|tracer| {
        let ctx = Ctx::new(tracer);
        let records: Vec<_> = ctx.records().cloned().collect();
        let mut out = Object::new()
            .field("schema", DUMP_SCHEMA)
            .field("clock", tracer.clock())
            .field("oldest", ctx.oldest)
            .field("capacity", tracer.capacity())
            .field("nodes", records.len())
            .end();
        out.push('\n');
        for r in &records {
            let site = format!("{}:{}:{}", r.site.file(), r.site.line(), r.site.column());
            let cutoff = r.last_cutoff.as_ref().map(|(seq, value)| {
                let mut pair = String::from("[");
                seq.write(&mut pair);
                pair.push(',');
                value.write(&mut pair);
                pair.push(']');
                pair
            });
            let node = Object::new()
                .field("id", id(r.id))
                .field("kind", r.kind.name())
                .field("name", &*ctx.base_name(r.id))
                .field("label", r.label.as_deref())
                .field("site", site.as_str())
                .field("path", ctx.path(r.id).as_str())
                .field("owner", r.owner.map(id))
                .field("created", r.created)
                .field("creatingRun", r.creating_run)
                .field("runs", r.runs)
                .field("lastRunStart", r.last_run_start)
                .field("lastRunEnd", r.last_run_end)
                .field("lastMoved", r.last_moved)
                .field("lastWrite", r.last_write)
                .field("lastCutoff", cutoff.as_deref().map(Raw))
                .field("disposed", r.disposed)
                .field("sources", r.sources.iter().map(|s| id(*s)).collect::<Vec<_>>().as_slice())
                .field("value", ctx.value(r.id).as_deref())
                .end();
            out.push_str(&Object::new().field("node", Raw(&node)).end());
            out.push('\n');
        }
        for event in tracer.events() {
            out.push_str(&event_json(&event));
            out.push('\n');
        }
        out
    })
}

fn id(node: NodeId) -> u32 {
    node.0
}

/// One event as a JSON object: `seq`, `cause`, `kind`, then the kind's fields.
pub(super) fn event_json(event: &Event) -> String {
    let head = Object::new()
        .field("seq", event.seq)
        .field("cause", event.cause)
        .field("kind", kind_name(&event.kind));
    match &event.kind {
        EventKind::NodeNew {
            node,
            kind,
            owner,
            run,
        } => head
            .field("node", id(*node))
            .field("nodeKind", kind.name())
            .field("owner", owner.map(id))
            .field("run", *run),
        EventKind::Label { node, label } => head.field("node", id(*node)).field("label", &**label),
        EventKind::Write {
            node,
            by,
            moved,
            value,
        } => {
            let by = match by {
                Writer::Program => Object::string("program"),
                Writer::Message(seq) => Object::new().field("message", *seq).end(),
                Writer::Computation(c) => Object::new().field("computation", id(*c)).end(),
            };
            head.field("node", id(*node))
                .field("by", Raw(&by))
                .field("moved", *moved)
                .field("value", &**value)
        }
        EventKind::Mark {
            node,
            source,
            dirty,
        } => head
            .field("node", id(*node))
            .field("source", id(*source))
            .field("dirty", *dirty),
        EventKind::Schedule { node }
        | EventKind::CheckStart { node }
        | EventKind::Dispose { node } => head.field("node", id(*node)),
        EventKind::CheckResolved { node, dirty_source } => head
            .field("node", id(*node))
            .field("dirtySource", dirty_source.map(id)),
        EventKind::RunStart { node, run, puller } => head
            .field("node", id(*node))
            .field("run", *run)
            .field("puller", puller.map(id)),
        EventKind::RunEnd {
            node,
            moved,
            error,
            value,
        } => head
            .field("node", id(*node))
            .field("moved", *moved)
            .field("error", error.as_deref())
            .field("value", value.as_deref()),
        EventKind::Stopped { node, message } => {
            head.field("node", id(*node)).field("message", &**message)
        }
        EventKind::FlushStart { flush } | EventKind::FlushEnd { flush } => head.field("flush", *flush),
        EventKind::BatchEnter { depth } | EventKind::BatchExit { depth } => head.field("depth", *depth),
        EventKind::Message { target, name, args } => head
            .field("target", id(*target))
            .field("name", &**name)
            .field("args", &**args),
        EventKind::EdgeAdd { node, source } | EventKind::EdgeRemove { node, source } => head
            .field("node", id(*node))
            .field("source", id(*source)),
        EventKind::UntrackedRead { node, source } => head
            .field("node", node.map(id))
            .field("source", id(*source)),
        EventKind::Flight { node, flight, .. } => {
            head.field("node", id(*node)).field("flight", *flight)
        }
        EventKind::Timer {
            node,
            at,
            due,
            value,
            ..
        } => head
            .field("node", id(*node))
            .field("atUs", u64::try_from(at.as_micros()).unwrap_or(u64::MAX))
            .field("dueUs", u64::try_from(due.as_micros()).unwrap_or(u64::MAX))
            .field("value", value.as_deref()),
    }
    .end()
}

// ---------------------------------------------------------------------------------------------------------------
// JSON, written by hand so the trace needs no JSON library: compact, keys in the order written, strings escaped as
// serde_json escapes them (`text::push_json_string`).
// ---------------------------------------------------------------------------------------------------------------

/// A value the dump writes as JSON.
trait Json {
    fn write(&self, out: &mut String);
}

macro_rules! json_number {
    ($($t:ty)*) => {$(
        impl Json for $t {
            fn write(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
        }
    )*};
}
json_number!(u32 u64 usize);

impl Json for bool {
    fn write(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

impl Json for str {
    fn write(&self, out: &mut String) {
        crate::text::push_json_string(out, self);
    }
}

impl<T: Json + ?Sized> Json for &T {
    fn write(&self, out: &mut String) {
        (**self).write(out);
    }
}

impl<T: Json> Json for Option<T> {
    fn write(&self, out: &mut String) {
        match self {
            Some(value) => value.write(out),
            None => out.push_str("null"),
        }
    }
}

impl<T: Json> Json for [T] {
    fn write(&self, out: &mut String) {
        out.push('[');
        for (index, value) in self.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            value.write(out);
        }
        out.push(']');
    }
}

/// Text that is JSON already (a nested object or array).
struct Raw<'a>(&'a str);

impl Json for Raw<'_> {
    fn write(&self, out: &mut String) {
        out.push_str(self.0);
    }
}

/// A JSON object being written, its fields in the order they are added.
struct Object(String);

impl Object {
    fn new() -> Self {
        Object(String::from("{"))
    }

    fn field(mut self, key: &str, value: impl Json) -> Self {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        key.write(&mut self.0);
        self.0.push(':');
        value.write(&mut self.0);
        self
    }

    fn end(mut self) -> String {
        self.0.push('}');
        self.0
    }

    /// `text` as a JSON string.
    fn string(text: &str) -> String {
        let mut out = String::new();
        text.write(&mut out);
        out
    }
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
        EventKind::Flight { what, .. } => what.name(),
        EventKind::Timer { what, .. } => what.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_keep_their_fields_in_order() {
        let nested = Object::new().field("message", 7_u64).end();
        let object = Object::new()
            .field("z", 1_u32)
            .field("a", Some(true))
            .field("n", None::<u32>)
            .field("list", [1_u32, 2].as_slice())
            .field("by", Raw(&nested))
            .end();
        assert_eq!(object, r#"{"z":1,"a":true,"n":null,"list":[1,2],"by":{"message":7}}"#);
    }
}
