//! Reading a dump back: [`read_dump`] parses the JSON lines [`dump`](super::dump) wrote (of this process or of one
//! that is gone) into typed data: the header, the node table's lines, and the events exactly as
//! [`events`](crate::trace::events) gave them when the dump was taken.
//!
//! The trace has no JSON library (the dump is written by hand), so a small reader of JSON values is here too; it
//! reads what any JSON writer writes, not only the dump's own layout.

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use crate::graph::{NodeId, NodeKind};
use crate::graph::record::log::{
    Census, Event, EventKind, FlightEvent, KeptMessage, Ran, SiteRef, TimerEvent, TracerState, Writer, intern_file,
};

/// The version of the dump's layout; it changes whenever a field changes meaning or goes away.
pub const DUMP_SCHEMA: u32 = 2;

/// A site as the dump writes it, `file:line:column`, read back (the file may hold `:`).
pub(crate) fn parse_site(text: &str) -> Option<SiteRef> {
    let mut parts = text.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    Some(SiteRef::read(file, line, column))
}

/// A dump read back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dump {
    /// The layout's version ([`DUMP_SCHEMA`](DUMP_SCHEMA) when this build wrote it).
    pub schema: u32,
    /// The latest sequence number when the dump was taken.
    pub clock: u64,
    /// The oldest event the ring held.
    pub oldest: u64,
    /// The ring's capacity in events.
    pub capacity: u64,
    /// The node table's records, by id.
    pub nodes: Vec<DumpNode>,
    /// The events the ring held, oldest first.
    pub events: Vec<Event>,
    /// The names an exposure gave nodes (`Exposure::node`), when the dump was taken through one (the MCP tool
    /// `dump`); empty for a dump of `trace::dump()`.
    pub exposed: Vec<(String, NodeId)>,
    /// The tracer's side tables (what `load_dump` restores besides the ring and the node table).
    pub(crate) state: TracerState,
}

/// One node of a dump's node table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpNode {
    /// The node.
    pub id: NodeId,
    /// Its kind.
    pub kind: NodeKind,
    /// Its name (label, `let` binding or kind), without `#id`.
    pub name: String,
    /// Its label, if set.
    pub label: Option<String>,
    /// Its creation site, `file:line:column`.
    pub site: String,
    /// Its identity path.
    pub path: String,
    /// The computation whose run created it.
    pub owner: Option<NodeId>,
    /// Its `NodeNew` event.
    pub created: u64,
    /// The creating run's `RunStart`, or 0.
    pub creating_run: u64,
    /// How many runs it started.
    pub runs: u32,
    /// Its latest `RunStart`.
    pub last_run_start: u64,
    /// Its latest `RunEnd`.
    pub last_run_end: u64,
    /// Its latest moving write or run end.
    pub last_moved: u64,
    /// Its latest write.
    pub last_write: u64,
    /// Its latest cutoff: the `RunEnd` and the value kept.
    pub last_cutoff: Option<(u64, String)>,
    /// Its `Dispose` event, or 0.
    pub disposed: u64,
    /// What its last run read, in read order.
    pub sources: Vec<NodeId>,
    /// Its value when the dump was taken, as text.
    pub value: Option<String>,
    /// The rest of its record (what `load_dump` restores).
    pub(crate) extra: NodeExtra,
}

/// The fields of a node's record a dump holds beside [`DumpNode`]'s public ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NodeExtra {
    pub value_now: Option<String>,
    pub recorded: Option<String>,
    pub last_mark: u64,
    pub first_mark_since_run: u64,
    pub first_mark_dirty: bool,
    pub previous_cutoff: Option<(u64, String)>,
    pub cutoff_computed: Option<(u64, String)>,
    /// The type of the value `cutoff_computed` holds (`std::any::type_name`).
    pub cutoff_type: Option<String>,
    pub untracked: Vec<(NodeId, u64, Option<SiteRef>)>,
    pub last_check: u64,
    pub last_schedule: u64,
    pub is_model: bool,
    pub read_sites: Vec<(u32, SiteRef)>,
    pub moved_by: Option<(Writer, SiteRef)>,
    pub program_reads: Vec<(u64, SiteRef)>,
    pub disposed_at: Option<SiteRef>,
    pub custom_comparer: bool,
    pub update_fn: Option<String>,
}

impl Dump {
    /// The node `id`'s line, if the dump holds it.
    pub fn node(&self, id: NodeId) -> Option<&DumpNode> {
        self.nodes
            .binary_search_by_key(&id, |n| n.id)
            .ok()
            .map(|i| &self.nodes[i])
    }
}

/// A dump that could not be read: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpError {
    /// The line, from 1 (0 when the text is empty).
    pub line: usize,
    /// What was wrong, and what was expected.
    pub reason: String,
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dump line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for DumpError {}

/// Reads a dump [`dump`](super::dump) wrote: its header line, one line per node, one per event.
///
/// # Errors
///
/// A [`DumpError`] naming the line and what was expected there: a header of a schema this build does not read, a
/// line that is not JSON, an unknown event kind, a missing or mistyped field.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Signal};
///
/// let n = Signal::new(1);
/// n.set(2);
/// # if !trace::TRACED { return; }
/// let read = trace::read_dump(&trace::dump().unwrap()).unwrap();
/// assert_eq!(read.events, trace::events());
/// assert!(trace::read_dump("{\"schema\":99}").unwrap_err().to_string().contains("schema"));
/// ```
pub fn read_dump(text: &str) -> Result<Dump, DumpError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((index, head)) = lines.next() else {
        return Err(DumpError {
            line: 0,
            reason: "the dump is empty (expected a header line `{\"schema\":1,...}`)".into(),
        });
    };
    let at = |line: usize| move |reason: String| DumpError { line: line + 1, reason };
    let not_a_dump = |why: String| {
        at(index)(format!(
            "{why}: this is not a ranvier dump (expected a header line `{{\"schema\":{},...}}` as `trace::dump` and \
             the MCP tool `dump` write)",
            DUMP_SCHEMA
        ))
    };
    let head = parse(head).map_err(|e| not_a_dump(format!("the first line is not JSON ({e})")))?;
    let head = Fields::of(head).map_err(|_| not_a_dump("the first line is not a JSON object".into()))?;
    if head.get("schema").is_err() {
        return Err(not_a_dump("the first line has no \"schema\"".into()));
    }
    let schema = head.u64("schema").map_err(at(index))?;
    if schema != u64::from(DUMP_SCHEMA) {
        let by = if schema > u64::from(DUMP_SCHEMA) { "a newer" } else { "an older" };
        return Err(at(index)(format!(
            "schema {schema} is not one this build reads (expected {}): the dump was written by {by} ranvier; \
             read it with a ranvier-mcp of the same version as the app that wrote it",
            DUMP_SCHEMA
        )));
    }
    let mut dump = Dump {
        schema: DUMP_SCHEMA,
        clock: head.u64("clock").map_err(at(index))?,
        oldest: head.u64("oldest").map_err(at(index))?,
        capacity: head.u64("capacity").map_err(at(index))?,
        nodes: Vec::new(),
        events: Vec::new(),
        exposed: Vec::new(),
        state: TracerState::default(),
    };
    let nodes = head.u64("nodes").map_err(at(index))?;
    let mut tracer_line = false;
    let mut last = index;
    for (index, line) in lines {
        last = index;
        let value = parse(line).map_err(at(index))?;
        let mut fields = Fields::of(value).map_err(at(index))?;
        // a node line is `{"node": {...}}`; an event's `node` is an id
        if let Some(node @ Json::Object(_)) = fields.0.get("node") {
            let node = Fields::of(node.clone()).map_err(at(index))?;
            dump.nodes.push(node_of(&node).map_err(at(index))?);
        } else if let Some(state) = fields.0.remove("tracer") {
            dump.state = state_of(&Fields::of(state).map_err(at(index))?).map_err(at(index))?;
            tracer_line = true;
        } else if let Some(exposed) = fields.0.remove("exposed") {
            dump.exposed = exposed_of(&exposed).map_err(at(index))?;
        } else {
            dump.events.push(event_of(&fields).map_err(at(index))?);
        }
    }
    // a dump cut short (a process killed while writing it) is named as such, not read as a smaller log
    if dump.nodes.len() as u64 != nodes {
        return Err(at(last)(format!(
            "the dump holds {} node lines where its header says {nodes} (expected the whole dump: is it cut short?)",
            dump.nodes.len()
        )));
    }
    if !tracer_line {
        return Err(at(last)(
            "the dump has no `{\"tracer\":...}` line (expected one after the node lines: is it cut short?)".into(),
        ));
    }
    if let Some(newest) = dump.events.last()
        && newest.seq != dump.clock
    {
        return Err(at(last)(format!(
            "the newest event is #{} where the header's clock is {} (expected the events up to the clock: is the \
             dump cut short?)",
            newest.seq, dump.clock
        )));
    }
    dump.nodes.sort_by_key(|n| n.id);
    Ok(dump)
}

fn kind_of(name: &str) -> Result<NodeKind, String> {
    match name {
        "Signal" => Ok(NodeKind::Signal),
        "Memo" => Ok(NodeKind::Memo),
        "Effect" => Ok(NodeKind::Effect),
        other => Err(format!(
            "unknown node kind {other:?} (expected Signal, Memo or Effect)"
        )),
    }
}

fn node_of(f: &Fields) -> Result<DumpNode, String> {
    let last_cutoff = match f.get("lastCutoff")? {
        Json::Null => None,
        Json::Array(pair) => match pair.as_slice() {
            [Json::Number(seq), Json::String(value)] => Some((as_u64(*seq)?, value.clone())),
            _ => return Err("\"lastCutoff\" must be null or [seq, value]".into()),
        },
        _ => return Err("\"lastCutoff\" must be null or [seq, value]".into()),
    };
    let sources = match f.get("sources")? {
        Json::Array(list) => list
            .iter()
            .map(|s| match s {
                Json::Number(n) => Ok(NodeId(as_u32(*n)?)),
                _ => Err("\"sources\" must be a list of node ids".to_owned()),
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err("\"sources\" must be a list of node ids".into()),
    };
    Ok(DumpNode {
        id: f.id("id")?,
        kind: kind_of(&f.string("kind")?)?,
        name: f.string("name")?,
        label: f.opt_string("label")?,
        site: f.string("site")?,
        path: f.string("path")?,
        owner: f.opt_id("owner")?,
        created: f.u64("created")?,
        creating_run: f.u64("creatingRun")?,
        runs: u32::try_from(f.u64("runs")?).map_err(|_| "\"runs\" is too large".to_owned())?,
        last_run_start: f.u64("lastRunStart")?,
        last_run_end: f.u64("lastRunEnd")?,
        last_moved: f.u64("lastMoved")?,
        last_write: f.u64("lastWrite")?,
        last_cutoff,
        disposed: f.u64("disposed")?,
        sources,
        value: f.opt_string("value")?,
        extra: NodeExtra {
            value_now: f.opt_string("valueNow")?,
            recorded: f.opt_string("recorded")?,
            last_mark: f.u64("lastMark")?,
            first_mark_since_run: f.u64("firstMarkSinceRun")?,
            first_mark_dirty: f.bool("firstMarkDirty")?,
            previous_cutoff: opt_pair(f, "previousCutoff")?,
            cutoff_computed: opt_pair(f, "cutoffComputed")?,
            cutoff_type: f.opt_string("cutoffType")?,
            untracked: items(f.get("untracked")?, "untracked", "[id, seq, site or null]", |item| match item {
                [Json::Number(source), Json::Number(seq), site] => Some((
                    NodeId(as_u32(*source).ok()?),
                    as_u64(*seq).ok()?,
                    match site {
                        Json::Null => None,
                        site => Some(site_of(site)?),
                    },
                )),
                _ => None,
            })?,
            last_check: f.u64("lastCheck")?,
            last_schedule: f.u64("lastSchedule")?,
            is_model: f.bool("isModel")?,
            read_sites: items(f.get("readSites")?, "readSites", "[index, site]", |item| match item {
                [Json::Number(at), site] => Some((u32::try_from(as_u64(*at).ok()?).ok()?, site_of(site)?)),
                _ => None,
            })?,
            moved_by: match f.get("movedBy")? {
                Json::Null => None,
                Json::Array(pair) => match pair.as_slice() {
                    [by, site] => Some((
                        writer_of(by)?,
                        site_of(site).ok_or("\"movedBy\" must be null or [by, \"file:line:column\"]")?,
                    )),
                    _ => return Err("\"movedBy\" must be null or [by, \"file:line:column\"]".into()),
                },
                _ => return Err("\"movedBy\" must be null or [by, \"file:line:column\"]".into()),
            },
            program_reads: items(f.get("programReads")?, "programReads", "[seq, site]", |item| match item {
                [Json::Number(seq), site] => Some((as_u64(*seq).ok()?, site_of(site)?)),
                _ => None,
            })?,
            disposed_at: match f.get("disposedAt")? {
                Json::Null => None,
                site => Some(site_of(site).ok_or("\"disposedAt\" must be null or \"file:line:column\"")?),
            },
            custom_comparer: f.bool("customComparer")?,
            update_fn: f.opt_string("updateFn")?,
        },
    })
}

/// A site written as `"file:line:column"`.
fn site_of(value: &Json) -> Option<SiteRef> {
    match value {
        Json::String(text) => parse_site(text),
        _ => None,
    }
}

/// Who wrote: `"program"`, `{"message": seq}` or `{"computation": id}`.
fn writer_of(value: &Json) -> Result<Writer, String> {
    match value {
        Json::String(s) if s == "program" => Ok(Writer::Program),
        Json::Object(by) => match (by.get("message"), by.get("computation")) {
            (Some(Json::Number(seq)), None) => Ok(Writer::Message(as_u64(*seq)?)),
            (None, Some(Json::Number(id))) => Ok(Writer::Computation(NodeId(as_u32(*id)?))),
            _ => Err(BY_EXPECTED.into()),
        },
        _ => Err(BY_EXPECTED.into()),
    }
}

/// A field that is null or `[seq, "value"]`.
fn opt_pair(f: &Fields, key: &str) -> Result<Option<(u64, String)>, String> {
    match f.get(key)? {
        Json::Null => Ok(None),
        Json::Array(pair) => match pair.as_slice() {
            [Json::Number(seq), Json::String(value)] => Ok(Some((as_u64(*seq)?, value.clone()))),
            _ => Err(format!("\"{key}\" must be null or [seq, value]")),
        },
        _ => Err(format!("\"{key}\" must be null or [seq, value]")),
    }
}

/// A list of arrays, each read by `item` (`None`: not what `shape` says).
fn items<T>(
    value: &Json,
    key: &str,
    shape: &str,
    item: impl Fn(&[Json]) -> Option<T>,
) -> Result<Vec<T>, String> {
    let expected = || format!("\"{key}\" must be a list of {shape}");
    match value {
        Json::Array(list) => list
            .iter()
            .map(|i| match i {
                Json::Array(inner) => item(inner).ok_or_else(expected),
                _ => Err(expected()),
            })
            .collect(),
        _ => Err(expected()),
    }
}

/// What ran: `[[file, line, value or null], ...]`, a loop's record with a fourth item, whether its body ran, and an
/// `unwrap_or` that gave its default with `"default"`.
fn ran_of(value: &Json) -> Option<Vec<Ran>> {
    items(value, "ran", "", |item| {
        let (file, line, value, entered, defaulted) = match item {
            [file, line, value] => (file, line, value, None, false),
            [file, line, value, Json::Bool(entered)] => (file, line, value, Some(*entered), false),
            [file, line, value, Json::String(kind)] if kind == "default" => (file, line, value, None, true),
            _ => return None,
        };
        let (Json::String(file), Json::Number(line)) = (file, line) else { return None };
        Some(Ran {
            file: intern_file(file),
            line: u32::try_from(as_u64(*line).ok()?).ok()?,
            value: match value {
                Json::Null => None,
                Json::String(v) => Some(Rc::from(v.as_str())),
                _ => return None,
            },
            entered,
            defaulted,
        })
    })
    .ok()
}

/// The `{"tracer": {...}}` line.
fn state_of(f: &Fields) -> Result<TracerState, String> {
    let id = |j: &Json| match j {
        Json::Number(n) => as_u32(*n).ok().map(NodeId),
        _ => None,
    };
    let num = |j: &Json| match j {
        Json::Number(n) => as_u64(*n).ok(),
        _ => None,
    };
    let messages = match f.get("messages")? {
        Json::Array(list) => list
            .iter()
            .map(|m| {
                let m = Fields::of(m.clone())?;
                Ok(KeptMessage {
                    seq: m.u64("seq")?,
                    cause: m.u64("cause")?,
                    target: m.id("target")?,
                    name: Rc::from(m.string("name")?.as_str()),
                    args: Rc::from(m.string("args")?.as_str()),
                    end: m.u64("end")?,
                    commands: match m.get("commands")? {
                        Json::Null => None,
                        Json::Number(n) => Some(as_u32(*n)?),
                        _ => return Err("\"commands\" must be null or a count".to_owned()),
                    },
                })
            })
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| format!("\"messages\": {e}"))?,
        _ => return Err("\"messages\" must be a list of messages".into()),
    };
    let census = match f.get("census")? {
        Json::Array(c) => match c.as_slice() {
            [a, b, c, d] => {
                let n = |j: &Json| num(j).and_then(|n| usize::try_from(n).ok());
                Census {
                    signals: n(a).ok_or("\"census\" holds counts")?,
                    memos: n(b).ok_or("\"census\" holds counts")?,
                    effects: n(c).ok_or("\"census\" holds counts")?,
                    disposed: n(d).ok_or("\"census\" holds counts")?,
                }
            }
            _ => return Err("\"census\" must be [signals, memos, effects, disposed]".into()),
        },
        _ => return Err("\"census\" must be [signals, memos, effects, disposed]".into()),
    };
    Ok(TracerState {
        last_message: f.u64("lastMessage")?,
        messages,
        batches: items(f.get("batches")?, "batches", "[seq, site]", |i| match i {
            [seq, site] => Some((num(seq)?, site_of(site)?)),
            _ => None,
        })?,
        dispatches: items(f.get("dispatches")?, "dispatches", "[seq, node, site]", |i| match i {
            [seq, node, site] => Some((num(seq)?, id(node)?, site_of(site)?)),
            _ => None,
        })?,
        flights: items(f.get("flights")?, "flights", "[node, flight, seq]", |i| match i {
            [node, flight, seq] => Some((id(node)?, u32::try_from(num(flight)?).ok()?, num(seq)?)),
            _ => None,
        })?,
        flight_reads: items(f.get("flightReads")?, "flightReads", "[memo, node, clock, site]", |i| match i {
            [memo, node, at, site] => Some((id(memo)?, id(node)?, num(at)?, site_of(site)?)),
            _ => None,
        })?,
        branches: items(f.get("branches")?, "branches", "[node, run, [[file, line, value]]]", |i| match i {
            [node, run, ran] => Some((id(node)?, num(run)?, ran_of(ran)?)),
            _ => None,
        })?,
        message_branches: items(f.get("messageBranches")?, "messageBranches", "[seq, [[file, line, value]]]", |i| {
            match i {
                [seq, ran] => Some((num(seq)?, ran_of(ran)?)),
                _ => None,
            }
        })?,
        moved: match f.get("moved")? {
            Json::Array(list) => list
                .iter()
                .map(|j| id(j).ok_or_else(|| "\"moved\" must be a list of node ids".to_owned()))
                .collect::<Result<_, _>>()?,
            _ => return Err("\"moved\" must be a list of node ids".into()),
        },
        timers: items(f.get("timers")?, "timers", "[node, seq]", |i| match i {
            [node, seq] => Some((id(node)?, num(seq)?)),
            _ => None,
        })?,
        census,
        roots: match f.get("roots")? {
            Json::Array(list) => list
                .iter()
                .map(|j| match j {
                    Json::String(root) => Ok(root.clone()),
                    _ => Err("\"roots\" must be a list of directories".to_owned()),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err("\"roots\" must be a list of directories".into()),
        },
        source_root: f.opt_string("sourceRoot")?,
    })
}

/// The `{"exposed": [[name, id], ...]}` line.
fn exposed_of(value: &Json) -> Result<Vec<(String, NodeId)>, String> {
    items(value, "exposed", "[name, node id]", |i| match i {
        [Json::String(name), Json::Number(id)] => Some((name.clone(), NodeId(as_u32(*id).ok()?))),
        _ => None,
    })
}

fn event_of(f: &Fields) -> Result<Event, String> {
    let seq = f.u64("seq")?;
    let cause = f.u64("cause")?;
    let name = f.string("kind")?;
    let text = |key: &str| f.string(key).map(|s| Rc::<str>::from(s.as_str()));
    let u32_of = |key: &str| {
        u32::try_from(f.u64(key)?).map_err(|_| format!("\"{key}\" is too large (expected a u32)"))
    };
    let kind = match name.as_str() {
        "NodeNew" => EventKind::NodeNew {
            node: f.id("node")?,
            kind: kind_of(&f.string("nodeKind")?)?,
            owner: f.opt_id("owner")?,
            run: f.u64("run")?,
        },
        "Label" => EventKind::Label {
            node: f.id("node")?,
            label: text("label")?,
        },
        "Write" => EventKind::Write {
            node: f.id("node")?,
            by: writer_of(f.get("by")?)?,
            moved: f.bool("moved")?,
            value: text("value")?,
        },
        "Mark" => EventKind::Mark {
            node: f.id("node")?,
            source: f.id("source")?,
            dirty: f.bool("dirty")?,
        },
        "Schedule" => EventKind::Schedule { node: f.id("node")? },
        "CheckStart" => EventKind::CheckStart { node: f.id("node")? },
        "Dispose" => EventKind::Dispose { node: f.id("node")? },
        "CheckResolved" => EventKind::CheckResolved {
            node: f.id("node")?,
            dirty_source: f.opt_id("dirtySource")?,
        },
        "RunStart" => EventKind::RunStart {
            node: f.id("node")?,
            run: u32_of("run")?,
            puller: f.opt_id("puller")?,
        },
        "RunEnd" => EventKind::RunEnd {
            node: f.id("node")?,
            moved: f.bool("moved")?,
            error: f.opt_string("error")?.map(|s| Rc::from(s.as_str())),
            value: f.opt_string("value")?.map(|s| Rc::from(s.as_str())),
        },
        "Stopped" => EventKind::Stopped {
            node: f.id("node")?,
            message: text("message")?,
        },
        "FlushStart" => EventKind::FlushStart { flush: u32_of("flush")? },
        "FlushEnd" => EventKind::FlushEnd { flush: u32_of("flush")? },
        "BatchEnter" => EventKind::BatchEnter { depth: u32_of("depth")? },
        "BatchExit" => EventKind::BatchExit { depth: u32_of("depth")? },
        "Message" => EventKind::Message {
            target: f.id("target")?,
            name: text("name")?,
            args: text("args")?,
        },
        "EdgeAdd" => EventKind::EdgeAdd {
            node: f.id("node")?,
            source: f.id("source")?,
        },
        "EdgeRemove" => EventKind::EdgeRemove {
            node: f.id("node")?,
            source: f.id("source")?,
        },
        "UntrackedRead" => EventKind::UntrackedRead {
            node: f.opt_id("node")?,
            source: f.id("source")?,
        },
        flight @ ("FlightStart" | "FlightSettle" | "FlightFail" | "FlightCancel" | "FlightDrop") => {
            EventKind::Flight {
                node: f.id("node")?,
                flight: u32_of("flight")?,
                what: match flight {
                    "FlightStart" => FlightEvent::Start,
                    "FlightSettle" => FlightEvent::Settle,
                    "FlightFail" => FlightEvent::Fail,
                    "FlightCancel" => FlightEvent::Cancel,
                    _ => FlightEvent::Drop,
                },
            }
        }
        timer @ ("TimerSchedule" | "TimerReplace" | "TimerFire" | "TimerCancel") => EventKind::Timer {
            node: f.id("node")?,
            what: match timer {
                "TimerSchedule" => TimerEvent::Schedule,
                "TimerReplace" => TimerEvent::Replace,
                "TimerFire" => TimerEvent::Fire,
                _ => TimerEvent::Cancel,
            },
            at: std::time::Duration::from_micros(f.u64("atUs")?),
            due: std::time::Duration::from_micros(f.u64("dueUs")?),
            value: f.opt_string("value")?.map(|s| Rc::from(s.as_str())),
        },
        other => {
            return Err(format!(
                "unknown event kind {other:?} (expected one of the kinds `dump` writes, like \"Write\" or \
                 \"RunStart\")"
            ));
        }
    };
    Ok(Event { seq, cause, kind })
}

const BY_EXPECTED: &str =
    "\"by\" must be \"program\", {\"message\": seq} or {\"computation\": id}";

// ---------------------------------------------------------------------------------------------------------------
// A small JSON reader.
// ---------------------------------------------------------------------------------------------------------------

/// A JSON value. Numbers are kept as `f64` unless they are whole and fit a `u64`.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Number {
    Whole(u64),
    Other(f64),
}

fn as_u64(n: Number) -> Result<u64, String> {
    match n {
        Number::Whole(n) => Ok(n),
        Number::Other(x) => Err(format!("{x} is not a whole number from 0 (expected one)")),
    }
}

fn as_u32(n: Number) -> Result<u32, String> {
    u32::try_from(as_u64(n)?).map_err(|_| "a node id is too large (expected a u32)".to_owned())
}

/// An object's fields, read by name with what each must be.
struct Fields(BTreeMap<String, Json>);

impl Fields {
    fn of(value: Json) -> Result<Self, String> {
        match value {
            Json::Object(map) => Ok(Fields(map)),
            _ => Err("expected a JSON object".into()),
        }
    }

    fn get(&self, key: &str) -> Result<&Json, String> {
        self.0
            .get(key)
            .ok_or_else(|| format!("the field \"{key}\" is missing"))
    }

    fn u64(&self, key: &str) -> Result<u64, String> {
        match self.get(key)? {
            Json::Number(n) => as_u64(*n).map_err(|e| format!("\"{key}\": {e}")),
            _ => Err(format!("\"{key}\" must be a whole number from 0")),
        }
    }

    fn id(&self, key: &str) -> Result<NodeId, String> {
        match self.get(key)? {
            Json::Number(n) => Ok(NodeId(as_u32(*n)?)),
            _ => Err(format!("\"{key}\" must be a node id (a whole number)")),
        }
    }

    fn opt_id(&self, key: &str) -> Result<Option<NodeId>, String> {
        match self.get(key)? {
            Json::Null => Ok(None),
            _ => self.id(key).map(Some),
        }
    }

    fn bool(&self, key: &str) -> Result<bool, String> {
        match self.get(key)? {
            Json::Bool(b) => Ok(*b),
            _ => Err(format!("\"{key}\" must be true or false")),
        }
    }

    fn string(&self, key: &str) -> Result<String, String> {
        match self.get(key)? {
            Json::String(s) => Ok(s.clone()),
            _ => Err(format!("\"{key}\" must be a string")),
        }
    }

    fn opt_string(&self, key: &str) -> Result<Option<String>, String> {
        match self.get(key)? {
            Json::Null => Ok(None),
            Json::String(s) => Ok(Some(s.clone())),
            _ => Err(format!("\"{key}\" must be a string or null")),
        }
    }
}

/// Parses one JSON value filling `text` (whitespace around it allowed).
fn parse(text: &str) -> Result<Json, String> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let value = reader.value()?;
    reader.space();
    if reader.at != reader.bytes.len() {
        return Err(format!(
            "unexpected text after the JSON value at byte {} (expected one JSON object per line)",
            reader.at
        ));
    }
    Ok(value)
}

/// How deep arrays and objects may nest.
const DEPTH_MAX: usize = 64;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.at += 1;
        }
    }

    fn fail<T>(&self, expected: &str) -> Result<T, String> {
        Err(match self.bytes.get(self.at) {
            Some(b) => format!(
                "unexpected {:?} at byte {} (expected {expected})",
                char::from(*b),
                self.at
            ),
            None => format!("the line ends early (expected {expected})"),
        })
    }

    fn eat(&mut self, literal: &str) -> bool {
        if self.bytes[self.at..].starts_with(literal.as_bytes()) {
            self.at += literal.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.space();
        match self.bytes.get(self.at) {
            Some(b'{') => self.nested(|r| r.object()),
            Some(b'[') => self.nested(|r| r.array()),
            Some(b'"') => self.string().map(Json::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ if self.eat("true") => Ok(Json::Bool(true)),
            _ if self.eat("false") => Ok(Json::Bool(false)),
            _ if self.eat("null") => Ok(Json::Null),
            _ => self.fail("a JSON value"),
        }
    }

    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Result<Json, String>) -> Result<Json, String> {
        self.depth += 1;
        if self.depth > DEPTH_MAX {
            return Err(format!("nested deeper than {DEPTH_MAX} levels"));
        }
        let value = f(self);
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Result<Json, String> {
        self.at += 1;
        let mut map = BTreeMap::new();
        self.space();
        if self.eat("}") {
            return Ok(Json::Object(map));
        }
        loop {
            self.space();
            if self.bytes.get(self.at) != Some(&b'"') {
                return self.fail("a field name in quotes");
            }
            let key = self.string()?;
            self.space();
            if !self.eat(":") {
                return self.fail("`:` after a field name");
            }
            let value = self.value()?;
            map.insert(key, value);
            self.space();
            if self.eat(",") {
                continue;
            }
            if self.eat("}") {
                return Ok(Json::Object(map));
            }
            return self.fail("`,` or `}`");
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.at += 1;
        let mut list = Vec::new();
        self.space();
        if self.eat("]") {
            return Ok(Json::Array(list));
        }
        loop {
            list.push(self.value()?);
            self.space();
            if self.eat(",") {
                continue;
            }
            if self.eat("]") {
                return Ok(Json::Array(list));
            }
            return self.fail("`,` or `]`");
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default();
        if let Ok(n) = text.parse::<u64>() {
            return Ok(Json::Number(Number::Whole(n)));
        }
        match text.parse::<f64>() {
            Ok(x) => Ok(Json::Number(Number::Other(x))),
            Err(_) => Err(format!("{text:?} at byte {start} is not a number")),
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok());
        match digits {
            Some(n) => {
                self.at += 4;
                Ok(n)
            }
            None => self.fail("four hex digits after `\\u`"),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while self
                .bytes
                .get(self.at)
                .is_some_and(|b| *b != b'"' && *b != b'\\')
            {
                self.at += 1;
            }
            // the line is a `&str`, and `"` and `\` are ASCII: the run between them is whole UTF-8
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or_default());
            match self.bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = self.bytes.get(self.at).copied();
                    self.at += 1;
                    match escaped {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'u') => {
                            let high = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&high) && self.eat("\\u") {
                                let low = self.hex4()?;
                                0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF)
                            } else {
                                high
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => {
                            self.at -= 1;
                            return self.fail("an escape: \\\" \\\\ \\/ \\n \\r \\t \\b \\f or \\uXXXX");
                        }
                    }
                }
                _ => return self.fail("the string's closing `\"`"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Memo, Mvu, Signal, trace};

    #[test]
    fn every_kind_of_what_ran_reads_back() {
        let ran = |line, value: Option<&str>, entered, defaulted| Ran {
            file: "shop.rs",
            line,
            value: value.map(Rc::from),
            entered,
            defaulted,
        };
        // a branch, a `let`'s value, a loop that ran no time, a default taken
        let records = vec![
            ran(3, None, None, false),
            ran(4, Some("14"), None, false),
            ran(5, None, Some(false), false),
            ran(6, None, None, true),
        ];
        let text = format!("{{\"ran\":{}}}", super::super::ran_json(&records));
        let Json::Object(fields) = parse(&text).unwrap() else { panic!("{text}") };
        assert_eq!(ran_of(&fields["ran"]), Some(records), "{text}");
    }

    #[test]
    fn json_values_read_back() {
        assert_eq!(
            parse(r#" {"a":[1,-2,2.5,true,null],"s":"q\"\\\n\u00e9\ud83d\ude00/"} "#).unwrap(),
            Json::Object(BTreeMap::from([
                (
                    "a".to_owned(),
                    Json::Array(vec![
                        Json::Number(Number::Whole(1)),
                        Json::Number(Number::Other(-2.0)),
                        Json::Number(Number::Other(2.5)),
                        Json::Bool(true),
                        Json::Null,
                    ])
                ),
                ("s".to_owned(), Json::String("q\"\\\né😀/".to_owned())),
            ]))
        );
        for (bad, expected) in [
            ("{\"a\":1", "expected `,` or `}`"),
            ("[1 2]", "expected `,` or `]`"),
            ("{a:1}", "expected a field name in quotes"),
            ("\"\\x\"", "expected an escape"),
            ("{} x", "expected one JSON object per line"),
            ("nul", "expected a JSON value"),
        ] {
            let err = parse(bad).unwrap_err();
            assert!(err.contains(expected), "{bad}: {err}");
        }
        let deep = "[".repeat(100);
        assert!(parse(&deep).unwrap_err().contains("nested deeper"));
    }

    #[test]
    fn a_dump_reads_back_to_the_events_and_nodes_it_was_taken_from() {
        #[derive(Debug)]
        enum Msg {
            Add(i64),
        }
        let cart = Mvu::new(0_i64, |Msg::Add(n), total| total + n).labelled("cart");
        let note = Signal::new(String::from("tab\t\"quoted\" ✓")).labelled("note");
        let doubled = cart.select(|total| total * 2);
        let text = Memo::new({
            let n = note.clone();
            move |_| n.get().len()
        });
        doubled.get();
        text.get();
        cart.dispatch(Msg::Add(5)).unwrap();
        note.set("line\nbreak".into());
        assert_eq!((doubled.get(), text.get()), (10, 10));
        if !trace::TRACED {
            assert_eq!(trace::dump(), Err(trace::TraceError::NotTraced));
            return;
        }
        let dumped = trace::dump().unwrap();
        let read = read_dump(&dumped).unwrap();
        assert_eq!(read.events, trace::events());
        assert_eq!(read.clock, read.events.last().unwrap().seq);
        assert_eq!(read.oldest, read.events[0].seq);
        let snapshot = trace::snapshot().unwrap();
        assert_eq!(read.nodes.len(), snapshot.nodes.len());
        for info in &snapshot.nodes {
            let node = read.node(info.node.id).unwrap();
            assert_eq!(node.name, *info.node.name);
            assert_eq!(node.value, info.value);
            assert_eq!(node.path, info.path);
            assert_eq!(node.kind, info.kind);
            assert_eq!(
                node.sources,
                info.sources.iter().map(|s| s.id).collect::<Vec<_>>()
            );
        }
        assert_eq!(read.node(note.id()).unwrap().value.as_deref(), Some("\"line\\nbreak\""));
        // a damaged line is named, with what was expected there
        let mut lines: Vec<&str> = dumped.lines().collect();
        let first_event = lines.iter().position(|l| l.starts_with("{\"seq\"")).unwrap();
        let damaged = lines[first_event].replace("\"seq\"", "\"sequence\"");
        lines[first_event] = &damaged;
        let err = read_dump(&lines.join("\n")).unwrap_err();
        assert_eq!(err.line, first_event + 1, "{err}");
        assert!(err.to_string().ends_with("the field \"seq\" is missing"), "{err}");
        assert_eq!(read_dump("").unwrap_err().line, 0);
        let err = read_dump("{\"schema\":3,\"clock\":0,\"oldest\":1,\"capacity\":1,\"nodes\":0}").unwrap_err();
        assert!(
            err.to_string().contains("schema 3 is not one this build reads (expected 2): the dump was written by a newer"),
            "{err}"
        );
        // not a dump: a journal, a text file
        for not_a_dump in [r#"{"message":"add_item","args":{}}"#, "hello", "[1,2]"] {
            let err = read_dump(not_a_dump).unwrap_err();
            assert_eq!(err.line, 1);
            assert!(err.reason.contains("this is not a ranvier dump (expected a header line"), "{err}");
        }
        // cut short: in a line, after the node lines, among the events
        let whole: Vec<&str> = dumped.lines().collect();
        let cut = &dumped[..dumped.len() - 10];
        let err = read_dump(cut).unwrap_err();
        assert_eq!(err.line, whole.len(), "{err}");
        assert!(err.reason.contains("the line ends early"), "{err}");
        let nodes = read.nodes.len();
        let err = read_dump(&whole[..nodes].join("\n")).unwrap_err();
        assert!(
            err.reason.contains(&format!("the dump holds {} node lines where its header says {nodes}", nodes - 1)),
            "{err}"
        );
        let err = read_dump(&whole[..=nodes].join("\n")).unwrap_err();
        assert!(err.reason.contains("the dump has no `{\"tracer\":...}` line"), "{err}");
        let err = read_dump(&whole[..whole.len() - 1].join("\n")).unwrap_err();
        assert!(err.reason.contains("where the header's clock is"), "{err}");
        assert!(err.reason.contains("is the dump cut short?"), "{err}");
    }
}
