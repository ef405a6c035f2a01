//! The JSON dump of the log: one header line, one line per node of the node table, one line of the tracer's side
//! tables, one line per event the ring holds; [`read_dump`] (`dump/read.rs`) reads one back, and [`load_dump`]
//! (`graph/record/log/state.rs`) loads it into a thread's log, where every query answers from it.
//!
//! The dump holds no addresses, times or hash orders, so the same program dumps the same bytes on every run (as long
//! as its values' `Debug` text is itself deterministic: a `HashMap`'s is not).

use std::fmt::Write as _;

mod read;

pub use read::{DUMP_SCHEMA, Dump, DumpError, DumpNode, read_dump};
pub(crate) use read::parse_site;

use super::TraceError;
use super::log::{Event, EventKind, Ran, SiteRef, TracerState, Writer};
use super::query::Ctx;
use crate::graph::NodeId;


/// The current thread's trace log as JSON lines:
///
/// ```text
/// {"schema":1,"clock":42,"oldest":1,"capacity":65536,"nodes":5}
/// {"node":{"id":1,"kind":"Signal","name":"price","label":"price","site":"tests/tests/trace.rs:12:17",...}}
/// {"tracer":{"lastMessage":0,"messages":[],"batches":[],...,"census":[1,0,0,0]}}
/// {"seq":7,"cause":0,"kind":"Write","node":1,"by":"program","moved":true,"value":"3"}
/// ```
///
/// Every line is one JSON object; keys are written in a fixed order. A node line holds the node's whole record
/// (where each source was read, who wrote it last and where, its untracked reads, ...), and the `tracer` line what
/// the log keeps beside the ring (the table of messages, batch sites, what ran in `update`): all that
/// [`load_dump`] needs to answer every query as this process would have when the dump was taken.
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
            let cutoff = r.last_cutoff.as_ref().map(pair_json);
            let mut read_sites = Vec::new();
            for (i, (_, site)) in r.read_sites.iter().enumerate() {
                if read_sites.last().is_none_or(|(_, last)| last != site) {
                    read_sites.push((i, *site));
                }
            }
            let read_sites: Vec<String> = read_sites
                .iter()
                .map(|(i, site)| format!("[{i},{}]", Object::string(&site.to_string())))
                .collect();
            let untracked: Vec<String> = r
                .untracked
                .iter()
                .map(|(source, seq, site)| {
                    let mut out = format!("[{},{seq},", source.0);
                    site.map(|s| s.to_string()).as_deref().write(&mut out);
                    out.push(']');
                    out
                })
                .collect();
            let program_reads: Vec<String> = r
                .program_reads
                .iter()
                .map(|(seq, site)| format!("[{seq},{}]", Object::string(&site.to_string())))
                .collect();
            let moved_by = r
                .moved_by
                .map(|(by, site)| format!("[{},{}]", writer_json(by), Object::string(&site.to_string())));
            let node = Object::new()
                .field("id", id(r.id))
                .field("kind", r.kind.name())
                .field("name", &*ctx.base_name(r.id))
                .field("label", r.label.as_deref())
                .field("site", r.site.to_string().as_str())
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
                .field("valueNow", tracer.value_now(r.id).as_deref())
                .field("recorded", r.value.as_deref())
                .field("lastMark", r.last_mark)
                .field("firstMarkSinceRun", r.first_mark_since_run)
                .field("firstMarkDirty", r.first_mark_dirty)
                .field("previousCutoff", r.previous_cutoff.as_ref().map(pair_json).as_deref().map(Raw))
                .field("cutoffComputed", r.cutoff_computed.as_ref().map(pair_json).as_deref().map(Raw))
                .field("cutoffType", r.cutoff_type)
                .field("untracked", Raw(&list(&untracked)))
                .field("lastCheck", r.last_check)
                .field("lastSchedule", r.last_schedule)
                .field("isModel", r.is_model)
                .field("readSites", Raw(&list(&read_sites)))
                .field("movedBy", moved_by.as_deref().map(Raw))
                .field("programReads", Raw(&list(&program_reads)))
                .field("disposedAt", r.disposed_at.map(|s| s.to_string()).as_deref())
                .field("customComparer", r.custom_comparer)
                .field("updateFn", r.update_fn)
                .end();
            out.push_str(&Object::new().field("node", Raw(&node)).end());
            out.push('\n');
        }
        let mut state = tracer.state();
        (state.roots, state.source_root) = super::names::roots();
        out.push_str(&Object::new().field("tracer", Raw(&state_json(&state))).end());
        out.push('\n');
        for event in tracer.events() {
            out.push_str(&event_json(&event));
            out.push('\n');
        }
        out
    })
}

/// Replaces the current thread's trace log with `dump`'s, so that every query on this thread answers as it answered
/// in the process that wrote the dump when it was taken: `explain`, `why`, `why_not`, `history`, `snapshot_at`,
/// `lookup`, `summary`, `snapshot`... The post-mortem of a process that is gone (a crash, a CI run, a customer's
/// log): `ranvier-mcp postmortem <dump>` serves these over MCP.
///
/// The thread must have made no node of its own (load on a fresh thread), and should make none after: the dump's
/// nodes hold their ids. No node is alive, so what a query reads from a living node it reads from the dump: a value
/// now is the value when the dump was taken, a node's observers are the readers its node table lists, and a node's
/// name is the one the dumped process gave it. Source lines (what `explain` quotes, a `let` binding) are read from
/// the files the dump names, relative to the current directory or the source root (`set_source_root`), as the live
/// process read them; a file that is not here leaves its lines out.
///
/// # Errors
///
/// A [`DumpError`] (line 0) when the thread has made nodes of its own, when the dump's events are not consecutive
/// or a site is not `file:line:column`, or in an untraced build, which keeps no log to load into.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2).labelled("price");
/// let total = Memo::new({
///     let price = price.clone();
///     move |_| price.get() * 3
/// })
/// .labelled("total");
/// total.get();
/// price.set(5);
/// assert_eq!(total.get(), 15);
/// # if !trace::TRACED { assert!(trace::load_dump(&trace::Dump::default()).is_err()); return; }
/// let live = trace::explain(&total).unwrap().to_string();
/// let text = trace::dump().unwrap();
///
/// // another thread: a process that has the dump and nothing else
/// let answered = std::thread::spawn(move || {
///     trace::load_dump(&trace::read_dump(&text).unwrap()).unwrap();
///     trace::explain(trace::lookup("total").unwrap()).unwrap().to_string()
/// })
/// .join()
/// .unwrap();
/// assert_eq!(answered, live);
/// ```
pub fn load_dump(dump: &Dump) -> Result<(), DumpError> {
    let failed = |reason: String| DumpError { line: 0, reason };
    super::with_log(|tracer| {
        if !tracer.is_loaded() && tracer.id_bound() > 0 {
            return Err(failed(
                "this thread's graph has made nodes of its own (expected a thread that has made none: load the \
                 dump on a fresh thread)"
                    .to_owned(),
            ));
        }
        tracer.load(dump).map_err(failed)?;
        // the sources are looked for where the dumped process looked (a file that is not here is left out)
        for root in &dump.state.roots {
            super::names::add_crate_root(root);
        }
        if let Some(root) = &dump.state.source_root {
            super::set_source_root(root);
        }
        Ok(())
    })
    .map_err(|e| failed(format!("{e}: there is no log to load the dump into")))?
}

/// The files the log's creation sites name that cannot be read here (in id order of first use): in a post-mortem,
/// the sources the dumped process had that this machine does not, whose lines answers leave out.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn missing_sources() -> Vec<String> {
    super::with_log(|tracer| {
        let mut files: Vec<&'static str> = Vec::new();
        tracer.scan(|r| {
            if !files.contains(&r.site.file()) {
                files.push(r.site.file());
            }
        });
        files
            .into_iter()
            .filter(|file| super::names::file_lines(file).is_none())
            .map(str::to_owned)
            .collect()
    })
    .unwrap_or_default()
}

fn id(node: NodeId) -> u32 {
    node.0
}

/// Who wrote a value: `"program"`, `{"message":seq}` or `{"computation":id}`.
fn writer_json(by: Writer) -> String {
    match by {
        Writer::Program => Object::string("program"),
        Writer::Message(seq) => Object::new().field("message", seq).end(),
        Writer::Computation(c) => Object::new().field("computation", id(c)).end(),
    }
}

/// `[seq,"value"]`.
fn pair_json((seq, value): &(u64, std::rc::Rc<str>)) -> String {
    let mut pair = format!("[{seq},");
    value.write(&mut pair);
    pair.push(']');
    pair
}

/// Items that are JSON already, as a JSON array.
fn list(items: &[String]) -> String {
    format!("[{}]", items.join(","))
}

/// What ran, as `[file,line,value]` items (a loop's with whether its body ran, a default taken's with `"default"`).
fn ran_json(ran: &[Ran]) -> String {
    let items: Vec<String> = ran
        .iter()
        .map(|r| {
            let mut item = String::from("[");
            r.file.write(&mut item);
            let _ = write!(item, ",{},", r.line);
            r.value.as_deref().write(&mut item);
            if let Some(entered) = r.entered {
                let _ = write!(item, ",{entered}");
            } else if r.defaulted {
                item.push_str(",\"default\"");
            }
            item.push(']');
            item
        })
        .collect();
    list(&items)
}

/// The tracer's side tables (see `TracerState`) as one JSON object.
fn state_json(state: &TracerState) -> String {
    let site = |s: &SiteRef| Object::string(&s.to_string());
    let messages: Vec<String> = state
        .messages
        .iter()
        .map(|m| {
            Object::new()
                .field("seq", m.seq)
                .field("cause", m.cause)
                .field("target", id(m.target))
                .field("name", &*m.name)
                .field("args", &*m.args)
                .field("end", m.end)
                .field("commands", m.commands)
                .end()
        })
        .collect();
    let batches: Vec<String> = state.batches.iter().map(|(seq, s)| format!("[{seq},{}]", site(s))).collect();
    let dispatches: Vec<String> = state
        .dispatches
        .iter()
        .map(|(seq, node, s)| format!("[{seq},{},{}]", node.0, site(s)))
        .collect();
    let flights: Vec<String> = state
        .flights
        .iter()
        .map(|(node, flight, seq)| format!("[{},{flight},{seq}]", node.0))
        .collect();
    let flight_reads: Vec<String> = state
        .flight_reads
        .iter()
        .map(|(memo, node, at, s)| format!("[{},{},{at},{}]", memo.0, node.0, site(s)))
        .collect();
    let branches: Vec<String> = state
        .branches
        .iter()
        .map(|(node, run, ran)| format!("[{},{run},{}]", node.0, ran_json(ran)))
        .collect();
    let message_branches: Vec<String> = state
        .message_branches
        .iter()
        .map(|(seq, ran)| format!("[{seq},{}]", ran_json(ran)))
        .collect();
    let timers: Vec<String> = state.timers.iter().map(|(node, seq)| format!("[{},{seq}]", node.0)).collect();
    let c = state.census;
    Object::new()
        .field("lastMessage", state.last_message)
        .field("messages", Raw(&list(&messages)))
        .field("batches", Raw(&list(&batches)))
        .field("dispatches", Raw(&list(&dispatches)))
        .field("flights", Raw(&list(&flights)))
        .field("flightReads", Raw(&list(&flight_reads)))
        .field("branches", Raw(&list(&branches)))
        .field("messageBranches", Raw(&list(&message_branches)))
        .field("moved", state.moved.iter().map(|n| id(*n)).collect::<Vec<_>>().as_slice())
        .field("timers", Raw(&list(&timers)))
        .field("census", [c.signals, c.memos, c.effects, c.disposed].as_slice())
        .field("roots", state.roots.iter().map(String::as_str).collect::<Vec<_>>().as_slice())
        .field("sourceRoot", state.source_root.as_deref())
        .end()
}

/// The line a dump taken through an exposure ends with: the names it exposes nodes under,
/// `{"exposed":[["total",8],...]}` (see [`Dump::exposed`]).
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn exposed_line(exposed: &[(String, NodeId)]) -> String {
    let items: Vec<String> = exposed
        .iter()
        .map(|(name, node)| format!("[{},{}]", Object::string(name), node.0))
        .collect();
    Object::new().field("exposed", Raw(&list(&items))).end()
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
            let by = writer_json(*by);
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
    use crate::{Memo, Mvu, Signal, batch, trace};

    /// Every query's text about every node, and the whole-graph ones, on the current thread.
    fn answers(ids: &[NodeId]) -> Vec<String> {
        let mut out = vec![
            format!("{:?}", trace::snapshot()),
            format!("{:?}", trace::summary()),
            format!("{:?}", trace::reconcile()),
        ];
        let clock = trace::events().last().map_or(0, |e| e.seq);
        for seq in [1, clock / 2, clock] {
            out.push(format!("{:?}", trace::snapshot_at(seq)));
        }
        for id in ids {
            let name = trace::name(*id).map(|n| n.to_string()).unwrap_or_default();
            out.push(format!("{name}: {:?}", trace::lookup(&name)));
            out.push(format!("{name}: {}", trace::explain(*id).map(|e| e.render(100_000)).unwrap_or_default()));
            out.push(format!("{name}: {:?}", trace::explain(*id)));
            out.push(format!("{name}: {:?}", trace::why(*id)));
            out.push(format!("{name}: {:?}", trace::why_not(*id)));
            out.push(format!("{name}: {:?}", trace::unread(*id)));
            out.push(format!("{name}: {:?}", trace::history(*id)));
            out.push(format!("{name}: {:?}", trace::origin(*id)));
            out.push(format!("{name}: {:?}", trace::info(*id)));
            out.push(format!("{name}: {:?}", trace::neighborhood(*id, 2)));
            out.push(format!("{name}: {:?}", trace::why_at(*id, 1)));
        }
        out
    }

    #[test]
    fn a_loaded_dump_answers_every_query_as_the_live_log_did() {
        #[derive(Debug)]
        enum Msg {
            Add(i64),
            Discount(i64),
        }
        let cart = Mvu::new((0_i64, 0_i64), |msg, (total, discount)| match msg {
            Msg::Add(n) => (total + n, *discount),
            Msg::Discount(d) => (*total, d),
        })
        .labelled("cart");
        let note = Signal::new(String::from("tab\t\"quoted\" ✓"));
        let subtotal = cart.select(|(total, _)| *total);
        let parity = Memo::new({
            let subtotal = subtotal.clone();
            move |_| subtotal.get() % 2
        });
        let shown = Memo::new({
            let (cart, note) = (cart.clone(), note.clone());
            move |_| format!("{} {}", {
                let (t, d) = cart.model();
                t * (100 - d) / 100
            }, note.peek())
        });
        let first = Signal::new(1_u32).labelled("first");
        let watcher = crate::Effect::new({
            let first = first.clone();
            move || {
                first.get();
            }
        });
        assert_eq!((parity.get(), shown.get()), (0, "0 tab\t\"quoted\" ✓".to_owned()));
        cart.dispatch(Msg::Add(4)).unwrap();
        batch(|| {
            note.set("line\nbreak".into());
            first.set(2);
        });
        cart.dispatch(Msg::Add(2)).unwrap();
        cart.dispatch(Msg::Discount(10)).unwrap();
        assert_eq!((parity.get(), shown.get()), (0, "5 line\nbreak".to_owned()));
        watcher.dispose();
        if !trace::TRACED {
            return;
        }
        let text = trace::dump().unwrap();
        let ids: Vec<NodeId> = trace::snapshot().unwrap().nodes.iter().map(|n| n.node.id).collect();
        let live = answers(&ids);
        let (again, loaded) = std::thread::spawn(move || {
            trace::load_dump(&read_dump(&text).unwrap()).unwrap();
            (trace::dump().unwrap(), answers(&ids))
        })
        .join()
        .unwrap();
        for (live, loaded) in live.iter().zip(&loaded) {
            assert_eq!(live, loaded);
        }
        assert_eq!(live.len(), loaded.len());
        assert_eq!(again, trace::dump().unwrap(), "the loaded log dumps the bytes it was loaded from");
        // a thread that made nodes of its own refuses
        let err = trace::load_dump(&read_dump(&again).unwrap()).unwrap_err();
        assert!(err.reason.contains("load the dump on a fresh thread"), "{err}");
    }

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
