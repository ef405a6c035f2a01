//! The queries over the trace log: why a node holds its value, why it has not re-run, what it read untracked, its
//! history and origin, snapshots of the graph, and lookup by name, `#id` or identity path.
//!
//! Every query runs on the current thread's graph and returns a typed answer whose `Display` is the compact text
//! (see [`render`](super::render)). The answers name nodes as `name#id` and carry the names they need, so they can be
//! rendered after the graph moved on.

use super::log::{Event, EventKind, NodeRecord, Tracer, Writer};
use super::names;
use crate::graph::{AnyNode, NodeId, NodeKind};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt;
use crate::graph::record::log::SiteRef;
use std::rc::Rc;

mod answers;
mod context;
mod history;
mod lookup;
mod overview;
mod why;

pub use answers::*;
pub use history::{
    EdgeMismatch, PastError, PastNode, PastSnapshot, reconcile, resolve, snapshot_at, why_at, why_depth,
};
#[cfg(feature = "mcp")]
pub(crate) use context::Counts;
pub(crate) use context::Ctx;

impl AnyNode for NodeId {
    fn node_id(&self) -> NodeId {
        *self
    }
}

impl<T: AnyNode + ?Sized> AnyNode for &T {
    fn node_id(&self) -> NodeId {
        (**self).node_id()
    }
}

/// How far [`untracked_read_line`] reads a computation's body.
const BODY_LINES_MAX: usize = 80;

/// The line of `reader`'s body (its creation call, from the creation site until the call's brackets close) that
/// reads a node untracked: the first line holding `peek(`, `with_untracked(` or `untrack(` and `source`'s name, else
/// the first holding one of them.
fn untracked_read_line(reader: &NodeRecord, source: &str) -> Option<SourceLine> {
    let file = reader.site.file();
    let lines = names::file_lines(file)?;
    let start = (reader.site.line() as usize).checked_sub(1)?;
    let mut depth: i64 = 0;
    let mut opened = false;
    let mut first: Option<usize> = None;
    for (index, text) in lines.iter().enumerate().skip(start).take(BODY_LINES_MAX) {
        let code: String = if index == start {
            text.chars()
                .skip((reader.site.column() as usize).saturating_sub(1))
                .collect()
        } else {
            text.clone()
        };
        let code = super::source::code_of(&code);
        let reads_untracked = ["peek(", "with_untracked(", "untrack("]
            .iter()
            .any(|call| code.contains(call));
        if reads_untracked {
            if code.contains(source) {
                first = Some(index);
                break;
            }
            first.get_or_insert(index);
        }
        for c in code.chars() {
            match c {
                '(' | '{' | '[' => {
                    depth += 1;
                    opened = true;
                }
                ')' | '}' | ']' => depth -= 1,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            break;
        }
    }
    let index = first?;
    Some(SourceLine {
        site: Site {
            file,
            line: u32::try_from(index + 1).ok()?,
            column: 1,
        },
        text: lines[index].trim().to_owned(),
    })
}

fn escape_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '/' | '[' | ']' | '\\' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` in at most [`VALUE_TEXT_MAX`] characters, ending with `…` when cut.
pub(crate) fn clip(text: &str) -> String {
    crate::text::clip(text, VALUE_TEXT_MAX).into_owned()
}

/// The nodes an event mentions.
pub(super) fn event_nodes(kind: &EventKind) -> Vec<NodeId> {
    match kind {
        EventKind::NodeNew { node, owner, .. } => {
            [Some(*node), *owner].into_iter().flatten().collect()
        }
        EventKind::Label { node, .. }
        | EventKind::Schedule { node }
        | EventKind::CheckStart { node }
        | EventKind::RunEnd { node, .. }
        | EventKind::Stopped { node, .. }
        | EventKind::Dispose { node } => vec![*node],
        EventKind::Write { node, by, .. } => match by {
            Writer::Computation(c) => vec![*node, *c],
            _ => vec![*node],
        },
        EventKind::Mark { node, source, .. }
        | EventKind::EdgeAdd { node, source }
        | EventKind::EdgeRemove { node, source } => vec![*node, *source],
        EventKind::CheckResolved { node, dirty_source } => {
            [Some(*node), *dirty_source].into_iter().flatten().collect()
        }
        EventKind::RunStart { node, puller, .. } => {
            [Some(*node), *puller].into_iter().flatten().collect()
        }
        EventKind::Message { target, .. } => vec![*target],
        EventKind::Flight { node, .. } | EventKind::Timer { node, .. } => vec![*node],
        EventKind::UntrackedRead { node, source } => {
            [*node, Some(*source)].into_iter().flatten().collect()
        }
        EventKind::FlushStart { .. }
        | EventKind::FlushEnd { .. }
        | EventKind::BatchEnter { .. }
        | EventKind::BatchExit { .. } => Vec::new(),
    }
}

fn root_nodes(root: &WhyRoot) -> Vec<NodeId> {
    match root {
        WhyRoot::Message { target, .. } => vec![*target],
        WhyRoot::ProgramWrite { node, .. } | WhyRoot::Created { node, .. } => vec![*node],
        WhyRoot::Pulled { by, .. } => by.iter().copied().collect(),
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The public functions
// ---------------------------------------------------------------------------------------------------------------

fn query<R>(f: impl FnOnce(&Ctx<'_>) -> R) -> Result<R, TraceError> {
    view(f)
}

/// Runs `f` on one view of the current thread's trace: a caller that asks several questions (a tool call) shares
/// the records it copied and the names and indexes it built (see `Ctx`), which reads the node table in place.
pub(crate) fn view<R>(f: impl FnOnce(&Ctx<'_>) -> R) -> Result<R, TraceError> {
    super::with_log(|tracer| f(&Ctx::new(tracer)))
}

/// The nodes `cone` lists, in a view the caller holds.
pub(crate) fn cone_in(ctx: &Ctx<'_>, id: NodeId) -> Vec<NodeId> {
    cone_hops(ctx, id).into_iter().map(|(n, _)| n).collect()
}

/// The most nodes a diagnosis walks.
const CONE_MAX: usize = 4_096;

/// The explained node's cone: every node upstream of it, through tracked and untracked reads and through the
/// writers of its signals, with the hops from the explained node (0 for itself), nearest first.
pub(super) fn cone_hops(ctx: &Ctx<'_>, id: NodeId) -> Vec<(NodeId, u32)> {
    let mut seen = HashSet::from([id]);
    let mut queue = VecDeque::from([(id, 0u32)]);
    let mut out = Vec::new();
    while let Some((node, depth)) = queue.pop_front() {
        out.push((node, depth));
        if out.len() >= CONE_MAX {
            break;
        }
        let Some(r) = ctx.rec(node) else { continue };
        let writer = match r.moved_by {
            Some((Writer::Computation(w), _)) => Some(w),
            _ => None,
        };
        let next = r
            .sources
            .iter()
            .copied()
            .chain(r.untracked.iter().map(|(s, _, _)| *s))
            .chain(writer);
        for n in next {
            if seen.insert(n) {
                queue.push_back((n, depth + 1));
            }
        }
    }
    out
}

/// Why `node` holds its value: the cause chain of its last run back to a root (a dispatched message, a program
/// write, its creation, or a pull), newest first.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2).labelled("price");
/// let total = Memo::new({ let p = price.clone(); move |_| p.get() * 10 }).labelled("total");
/// total.get();
/// price.set(3);
/// total.get();
/// # if !trace::TRACED { assert_eq!(trace::why(&total).unwrap_err(), trace::TraceError::NotTraced); return; }
/// let why = trace::why(&total).unwrap();
/// assert!(matches!(why.root, trace::WhyRoot::ProgramWrite { node, .. } if node == price.id()));
/// println!("{why}");
/// ```
pub fn why(node: impl AnyNode) -> Result<Why, TraceError> {
    query(|c| c.why(node.node_id()))?
}

/// Why `node` has not re-run since its last run: disposed, queued, unobserved, checked clean against its sources,
/// stopped upstream at a cutoff or an equal write, or not reached.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn why_not(node: impl AnyNode) -> Result<WhyNot, TraceError> {
    query(|c| c.why_not(node.node_id()))?
}

/// The nodes `node` read untracked (with `peek`) during its last run that moved after that read.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn unread(node: impl AnyNode) -> Result<Vec<Unread>, TraceError> {
    query(|c| c.unread(node.node_id()))?
}

/// The runs (or, for a signal, the writes) of `node` that the ring still holds, oldest first.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn history(node: impl AnyNode) -> Result<History, TraceError> {
    query(|c| c.history(node.node_id()))?
}

/// Where `node` comes from: its creation site and line, label, binding, owners, creating run and identity path.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn origin(node: impl AnyNode) -> Result<Origin, TraceError> {
    query(|c| c.origin(node.node_id()))?
}

/// The nodes `explain` searches for `node`: the node, its sources and theirs, what they read untracked, and the
/// memos and effects that wrote the signals among them, nearest first.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build.
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2);
/// let total = Memo::new({ let p = price.clone(); move |_| p.get() * 10 });
/// total.get();
/// # if !trace::TRACED { assert_eq!(trace::cone(&total), Err(trace::TraceError::NotTraced)); return; }
/// assert_eq!(trace::cone(&total).unwrap(), vec![total.id(), price.id()]);
/// ```
pub fn cone(node: impl AnyNode) -> Result<Vec<NodeId>, TraceError> {
    query(|c| cone_in(c, node.node_id()))
}

/// The node's compact line: `name#id Kind file.rs:line = value reads [a#1, b#2]`, with its observers and path.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn info(node: impl AnyNode) -> Result<NodeInfo, TraceError> {
    let id = node.node_id();
    query(|c| c.info(id).ok_or_else(|| c.missing(id)))?
}

/// The node's name, `name#id`.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn name(node: impl AnyNode) -> Result<NodeName, TraceError> {
    let id = node.node_id();
    query(|c| c.check(id).map(|_| c.name(id)))?
}

/// The node and its sources and observers within `hops` hops (each node once, at its nearest distance).
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn neighborhood(node: impl AnyNode, hops: u32) -> Result<Neighborhood, TraceError> {
    query(|c| c.neighborhood(node.node_id(), hops))?
}

/// Every node of the current thread's graph, with edges and values.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build.
pub fn snapshot() -> Result<TraceSnapshot, TraceError> {
    query(|c| c.snapshot())
}

/// Node counts by kind, the latest dispatched message, and the nodes that moved since it.
///
/// # Errors
///
/// [`TraceError::NotTraced`] in an untraced build.
pub fn summary() -> Result<GraphSummary, TraceError> {
    query(|c| c.summary())
}

/// Finds a node by name (label or `let` binding), `#id`, `name#id`, or identity path (`/owner/name`). A name several
/// live nodes share is ambiguous; a path several nodes held over time resolves to the live one, else the latest.
///
/// # Errors
///
/// A [`LookupError`] naming what was expected, with close candidates (in an untraced build, one saying so).
///
/// # Examples
///
/// ```
/// use ranvier::{trace, Signal};
///
/// let count = Signal::new(0).labelled("count");
/// # if !trace::TRACED { assert!(trace::lookup("count").is_err()); return; }
/// assert_eq!(trace::lookup("count").unwrap(), count.id());
/// assert_eq!(trace::lookup(&count.id().to_string()).unwrap(), count.id());
/// assert!(trace::lookup("nothing").is_err());
/// ```
pub fn lookup(query_text: &str) -> Result<NodeId, LookupError> {
    query(|c| c.lookup(query_text)).unwrap_or_else(|untraced| {
        Err(LookupError {
            query: query_text.to_owned(),
            reason: untraced.to_string(),
            candidates: Vec::new(),
        })
    })
}
