//! The queries over the trace log: why a node holds its value, why it has not re-run, what it read untracked, its
//! history and origin, snapshots of the graph, and lookup by name, `#id` or identity path.
//!
//! Every query runs on the current thread's graph and returns a typed answer whose `Display` is the compact text
//! (see [`render`](super::render)). The answers name nodes as `name#id` and carry the names they need, so they can be
//! rendered after the graph moved on.

use super::diagnose::{self, Finding};
use super::log::{Event, EventKind, NodeRecord, Tracer, Writer};
use super::names;
use crate::graph::{AnyNode, NodeId, NodeKind};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt;
use std::panic::Location;
use std::rc::Rc;

/// The longest value text an answer carries, in characters; a longer value is cut to end with `…`.
pub const VALUE_TEXT_MAX: usize = 120;

/// The longest cause chain [`why`] follows.
pub const WHY_MAX_STEPS: usize = 256;

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

/// A query that could not be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceError {
    /// The node is not in this thread's graph (made on another thread, or before the graph was disposed).
    UnknownNode(NodeId),
    /// The node was made in this graph but dropped, long enough ago that the trace no longer keeps its record (it
    /// keeps those of the living nodes and of the [`DROPPED_KEPT`](super::DROPPED_KEPT) dropped last).
    Dropped(NodeId),
    /// This build records no trace: a release build without the cargo feature `trace` (see
    /// [`TRACED`](super::TRACED)).
    NotTraced,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::UnknownNode(id) => write!(
                f,
                "node {id} is not in this thread's graph (expected a node created on this thread since the graph \
                 was last disposed)"
            ),
            TraceError::Dropped(id) => write!(
                f,
                "node {id} was dropped, and the trace no longer keeps its record (it keeps the living nodes' and \
                 the {} dropped last)",
                super::DROPPED_KEPT
            ),
            TraceError::NotTraced => f.write_str(
                "this build records no trace (expected a debug build, or a release build with the cargo feature \
                 `ranvier/trace`)",
            ),
        }
    }
}

impl std::error::Error for TraceError {}

/// A node as the answers name it: its label, else the `let` binding at its creation site, else its kind; then `#id`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeName {
    /// The node.
    pub id: NodeId,
    /// Its name, without the `#id`.
    pub name: Rc<str>,
}

/// Where a node was created.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The file, relative to the root of the crate build that created the node.
    pub file: &'static str,
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1.
    pub column: u32,
}

impl Site {
    pub(crate) fn of(location: &'static Location<'static>) -> Self {
        Site {
            file: location.file(),
            line: location.line(),
            column: location.column(),
        }
    }

    /// The file's name without its directories: `cart.rs`.
    pub fn file_name(&self) -> &'static str {
        names::file_name(self.file)
    }
}

/// The names of the nodes an answer mentions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names(pub BTreeMap<NodeId, Rc<str>>);

impl Names {
    /// The node's name (its kind-less `Node` name when unknown).
    pub fn of(&self, id: NodeId) -> NodeName {
        NodeName {
            id,
            name: self.0.get(&id).cloned().unwrap_or_else(|| Rc::from("node")),
        }
    }
}

/// A node with what the compact line shows: `name#id Kind file.rs:line = value reads [a#1, b#2]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeInfo {
    /// The node.
    pub node: NodeName,
    /// Its kind.
    pub kind: NodeKind,
    /// Where it was created.
    pub site: Site,
    /// Its label, if one was set.
    pub label: Option<Rc<str>>,
    /// Its current value as `Debug` text (none for effects and for memos that never ran).
    pub value: Option<String>,
    /// The failure of its last run, if it panicked.
    pub error: Option<Rc<str>>,
    /// What its last run read, in read order.
    pub sources: Vec<NodeName>,
    /// The live computations that read it.
    pub observers: Vec<NodeName>,
    /// The computation whose run created it.
    pub owner: Option<NodeName>,
    /// Its identity path.
    pub path: String,
    /// How many runs started (0 for signals).
    pub runs: u32,
    /// Whether it was disposed.
    pub disposed: bool,
}

/// What the cause chain of a node's last run starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhyRoot {
    /// A message dispatched to an [`Mvu`](crate::Mvu) (the outermost one, for commands).
    Message {
        /// The `Message` event.
        seq: u64,
        /// The `Mvu`'s model signal.
        target: NodeId,
        /// The message's name.
        name: Rc<str>,
        /// Its arguments' text.
        args: Rc<str>,
    },
    /// The program wrote a signal, outside any computation or message.
    ProgramWrite {
        /// The `Write` event.
        seq: u64,
        /// The signal.
        node: NodeId,
        /// The line of the `set`, `update` or `write` call, when it is the signal's latest move.
        at: Option<Site>,
    },
    /// The node's creation: a signal's initial value, or an effect's first run.
    Created {
        /// The `NodeNew` event, or the `RunStart` of the first run.
        seq: u64,
        /// The node.
        node: NodeId,
    },
    /// A memo ran because something read it: a computation, or the program (`by` is `None`).
    Pulled {
        /// The `RunStart` event.
        seq: u64,
        /// The reader.
        by: Option<NodeId>,
    },
    /// The chain reaches an event the ring has dropped.
    PastRing {
        /// The dropped event.
        seq: u64,
        /// The oldest event the ring still holds.
        oldest: u64,
    },
    /// A memo that nothing has read yet: it never ran.
    NeverRan,
    /// The chain stops at an event with no recorded cause.
    NoCause {
        /// The event.
        seq: u64,
    },
}

/// Why a node holds its value: the cause chain of its last run (or, for a signal, of its last write that moved it).
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// The node asked about.
    pub node: NodeName,
    /// Its last run's number (0 for a signal).
    pub run: u32,
    /// The chain, newest first: the run's start, the mark that woke it, the move or write that caused the mark, and
    /// so on back to the root.
    pub steps: Vec<Event>,
    /// Where the chain starts.
    pub root: WhyRoot,
    /// The names of the nodes the steps mention.
    pub names: Names,
    /// Where each node the steps mention was created.
    pub sites: BTreeMap<NodeId, Site>,
    /// Where the writes among the steps were called, by `Write` event, for the writes the trace still knows the
    /// line of (each signal's latest move).
    pub write_sites: BTreeMap<u64, Site>,
}

/// A memo that re-ran and kept its value, so propagation stopped there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cutoff {
    /// The memo.
    pub node: NodeName,
    /// Its `RunEnd`.
    pub seq: u64,
    /// The value it kept.
    pub value: Rc<str>,
    /// Where the memo was created: the line to look at.
    pub site: Site,
    /// That line's text, when the source can be read.
    pub line: Option<String>,
}

/// One line of source: where, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// The file and line (the column is 1 when the line was found by reading the source).
    pub site: Site,
    /// The line's text, trimmed.
    pub text: String,
}

impl SourceLine {
    /// The line at `location`, with its text read from the source (empty when it cannot be read).
    pub(crate) fn at(location: &'static Location<'static>) -> SourceLine {
        SourceLine {
            site: Site::of(location),
            text: names::line_text(location.file(), location.line()).unwrap_or_default(),
        }
    }
}

/// A node created with a comparer upstream of the explained node: where a later change may stop.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparer {
    /// The node.
    pub info: NodeInfo,
    /// Its creation line's text, when the source can be read.
    pub line: Option<String>,
}

/// An upstream write that changed nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EqualWrite {
    /// The signal.
    pub node: NodeName,
    /// The `Write`.
    pub seq: u64,
    /// The value written (equal to the one held).
    pub value: Rc<str>,
}

/// Why a node has not re-run since its last run.
#[derive(Clone, Debug, PartialEq)]
pub enum WhyNot {
    /// Signals do not run: they change when written.
    Signal {
        /// The node.
        node: NodeName,
        /// Its latest write, or 0.
        last_write: u64,
    },
    /// A memo nothing has read yet.
    NeverRan {
        /// The node.
        node: NodeName,
    },
    /// It was disposed.
    Disposed {
        /// The node.
        node: NodeName,
        /// The `Dispose` event.
        seq: u64,
    },
    /// An effect queued to run at the end of the open batch or the running flush.
    Queued {
        /// The node.
        node: NodeName,
        /// The `Schedule` event.
        schedule: u64,
    },
    /// Marked stale since its last run, but nothing has read it since (a memo re-runs only when read).
    Unobserved {
        /// The node.
        node: NodeName,
        /// The latest `Mark`.
        mark: u64,
        /// The source that notified it, if the ring still holds the mark.
        source: Option<NodeName>,
        /// `true` when marked dirty, `false` for check.
        dirty: bool,
        /// The computations that read it at their last run (they did not read it again since).
        observers: Vec<NodeName>,
    },
    /// It asked its sources whether to re-run, and none had moved.
    CheckedClean {
        /// The node.
        node: NodeName,
        /// The `CheckResolved` event.
        check: u64,
        /// The sources it checked, in read order.
        sources: Vec<NodeName>,
        /// The upstream cutoff that stopped the change, if found.
        cutoff: Option<Cutoff>,
    },
    /// A change upstream stopped at a memo that kept its value.
    StoppedAtCutoff {
        /// The node.
        node: NodeName,
        /// The cutoff.
        cutoff: Cutoff,
    },
    /// The latest write upstream wrote an equal value, which changes nothing.
    EqualWrite {
        /// The node.
        node: NodeName,
        /// The write.
        write: EqualWrite,
    },
    /// Nothing upstream moved since its last run.
    NotReached {
        /// The node.
        node: NodeName,
        /// Its last `RunStart`.
        since: u64,
    },
}

/// A node a computation read untracked (with `peek`) during its last run, and that moved since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// The node read.
    pub node: NodeName,
    /// The `UntrackedRead` event.
    pub read: u64,
    /// Its latest move, after the read.
    pub moved: u64,
    /// Its value now.
    pub value: Option<String>,
    /// The line of the reader's body that reads it untracked (`peek`, `with_untracked`), when the source can be
    /// read and the read sits in the body itself.
    pub at: Option<SourceLine>,
}

/// How a run or write ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// The value moved (a memo's new value, a signal's moving write).
    Moved,
    /// The value was kept: a memo's cutoff, or a signal's equal write.
    Kept,
    /// An effect's run that ended normally.
    Ran,
    /// The body panicked.
    Failed(Rc<str>),
    /// The run has not ended (it is running now, or its end was dropped).
    Open,
}

/// One run of a computation, or one write of a signal.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// The run number (0 for a write).
    pub run: u32,
    /// The `RunStart` or `Write` event.
    pub start: u64,
    /// The `RunEnd` event (the `Write` for a write; 0 when open).
    pub end: u64,
    /// How it ended.
    pub status: RunStatus,
    /// The value after it, as `Debug` text (none for effects).
    pub value: Option<Rc<str>>,
    /// The root of its cause chain.
    pub root: WhyRoot,
}

/// The runs (or writes) of a node that the ring still holds, oldest first.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    /// The node.
    pub node: NodeName,
    /// How many runs started in all (0 for signals).
    pub runs: u32,
    /// The entries, oldest first.
    pub entries: Vec<HistoryEntry>,
    /// Whether the ring dropped events of this node (its older entries are missing).
    pub truncated: bool,
    /// The names of the nodes the roots mention.
    pub names: Names,
}

/// Where a node comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The node.
    pub node: NodeName,
    /// Its kind.
    pub kind: NodeKind,
    /// Its creation site.
    pub site: Site,
    /// The text of the creation line, when the source can be read.
    pub line: Option<String>,
    /// Its label, if set.
    pub label: Option<Rc<str>>,
    /// The `let` binding at its creation site, when the source can be read.
    pub binding: Option<String>,
    /// The computations whose runs created it, innermost first.
    pub owners: Vec<NodeName>,
    /// The `NodeNew` event.
    pub created: u64,
    /// The `RunStart` of the run that created it, or 0.
    pub creating_run: u64,
    /// Its identity path.
    pub path: String,
}

/// The graph as the log knows it: every node with its edges and value.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceSnapshot {
    /// The latest sequence number.
    pub clock: u64,
    /// The oldest event the ring holds.
    pub oldest: u64,
    /// The ring's capacity.
    pub capacity: usize,
    /// Every node the graph created, by id.
    pub nodes: Vec<NodeInfo>,
}

/// What the latest dispatched message was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageInfo {
    /// The `Message` event.
    pub seq: u64,
    /// The `Mvu`'s model signal.
    pub target: NodeName,
    /// The message's name.
    pub name: Rc<str>,
    /// Its arguments' text.
    pub args: Rc<str>,
}

/// The graph at a glance: node counts, the latest message and what moved since it.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphSummary {
    /// Live signals.
    pub signals: usize,
    /// Live memos.
    pub memos: usize,
    /// Live effects.
    pub effects: usize,
    /// Disposed memos and effects.
    pub disposed: usize,
    /// The latest dispatched message, if any.
    pub last_message: Option<MessageInfo>,
    /// The nodes whose value moved since the latest message started (or, with none, every node that moved), by id.
    pub moved: Vec<NodeInfo>,
}

/// How a neighbour relates to the centre of a [`Neighborhood`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// Upstream: the centre reads it (directly or through others).
    Source,
    /// Downstream: it reads the centre (directly or through others).
    Observer,
}

/// A node and what lies within a few hops of it, upstream and downstream.
#[derive(Clone, Debug, PartialEq)]
pub struct Neighborhood {
    /// The node asked about.
    pub center: NodeInfo,
    /// The neighbours: hops away (1 = direct), relation, node; sources first, then observers, nearest first.
    pub nodes: Vec<(u32, Relation, NodeInfo)>,
}

/// Everything `explain` says about one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Explain {
    /// The node.
    pub info: NodeInfo,
    /// Its creation line's text, when the source can be read.
    pub line: Option<String>,
    /// The cause chain of its last run.
    pub why: Why,
    /// Why it has not re-run since (none for signals).
    pub why_not: Option<WhyNot>,
    /// Nodes it read untracked that moved after.
    pub unread: Vec<Unread>,
    /// Upstream cutoffs since its last run.
    pub cutoffs: Vec<Cutoff>,
    /// With no cutoff since its last run: the latest upstream cutoffs before it (at most two).
    pub earlier_cutoffs: Vec<Cutoff>,
    /// With no cutoff at all: up to two upstream nodes created with a comparer, where a later change may stop.
    pub comparers: Vec<Comparer>,
    /// What the search of its whole upstream cone found, best first, each with the line to fix (see
    /// [`Finding`]); this is what the text reports first.
    pub findings: Vec<Finding>,
    /// The lines of its own body where it read its sources, other than its creation line, in line order.
    pub body: Vec<SourceLine>,
    /// Its sources as its node line lists them, with where each was created and whether it was disposed.
    pub reads: Vec<SourceRef>,
}

/// A source in an explanation's `reads [...]`: `subtotal#3:41`, `rate#2:12 (disposed)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceRef {
    /// The source.
    pub node: NodeName,
    /// Where it was created.
    pub site: Site,
    /// Whether it was disposed (it keeps its last value).
    pub disposed: bool,
}

/// A lookup that matched no node, or several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookupError {
    /// What was looked up.
    pub query: String,
    /// Why it failed.
    pub reason: String,
    /// Nodes that come close (or every match, when ambiguous), at most 20.
    pub candidates: Vec<NodeName>,
}

impl std::error::Error for LookupError {}

// ---------------------------------------------------------------------------------------------------------------
// The query context
// ---------------------------------------------------------------------------------------------------------------

/// The nodes created by one run (or at the root) under one name, in creation order.
type SiblingIndex = HashMap<(Option<NodeId>, u64, Rc<str>), Vec<NodeId>>;

/// A view of the tracer for one query: the node table copied, observers indexed, names computed on demand.
pub(super) struct Ctx<'a> {
    pub tracer: &'a Tracer,
    /// In id order.
    records: Vec<NodeRecord>,
    observers: HashMap<NodeId, Vec<NodeId>>,
    pub oldest: u64,
    names: RefCell<HashMap<NodeId, Rc<str>>>,
    siblings: RefCell<Option<SiblingIndex>>,
}

impl<'a> Ctx<'a> {
    pub fn new(tracer: &'a Tracer) -> Self {
        let records = tracer.node_table();
        let mut observers: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        for record in &records {
            if record.disposed != 0 {
                continue;
            }
            for source in &record.sources {
                let list = observers.entry(*source).or_default();
                if !list.contains(&record.id) {
                    list.push(record.id);
                }
            }
        }
        Ctx {
            tracer,
            records,
            observers,
            oldest: tracer.oldest_seq(),
            names: RefCell::new(HashMap::new()),
            siblings: RefCell::new(None),
        }
    }

    pub fn rec(&self, id: NodeId) -> Option<&NodeRecord> {
        let index = self.records.binary_search_by_key(&id, |r| r.id).ok()?;
        Some(&self.records[index])
    }

    pub fn check(&self, id: NodeId) -> Result<&NodeRecord, TraceError> {
        self.rec(id).ok_or_else(|| self.missing(id))
    }

    /// The error for a node the table does not hold.
    pub fn missing(&self, id: NodeId) -> TraceError {
        if self.tracer.ever_made(id) {
            TraceError::Dropped(id)
        } else {
            TraceError::UnknownNode(id)
        }
    }

    pub fn records(&self) -> impl Iterator<Item = &NodeRecord> {
        self.records.iter()
    }

    pub fn event(&self, seq: u64) -> Option<Event> {
        if seq == 0 {
            None
        } else {
            self.tracer.event(seq)
        }
    }

    pub fn observers(&self, id: NodeId) -> &[NodeId] {
        self.observers.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The node's name without `#id`.
    pub fn base_name(&self, id: NodeId) -> Rc<str> {
        if let Some(name) = self.names.borrow().get(&id) {
            return name.clone();
        }
        let name: Rc<str> = match self.rec(id) {
            None => Rc::from("node"),
            Some(r) => match &r.label {
                Some(label) => label.clone(),
                None => match names::binding_at(r.site.file(), r.site.line(), r.site.column()) {
                    Some(binding) => Rc::from(binding),
                    None => Rc::from(r.kind.name()),
                },
            },
        };
        self.names.borrow_mut().insert(id, name.clone());
        name
    }

    pub fn name(&self, id: NodeId) -> NodeName {
        NodeName {
            id,
            name: self.base_name(id),
        }
    }

    pub fn names_of(&self, ids: impl IntoIterator<Item = NodeId>) -> Names {
        Names(ids.into_iter().map(|id| (id, self.base_name(id))).collect())
    }

    /// The current value text: the live node's, else the last recorded.
    pub fn value(&self, id: NodeId) -> Option<String> {
        let r = self.rec(id)?;
        match r.kind {
            NodeKind::Effect => None,
            NodeKind::Memo if r.runs == 0 => None,
            _ => match self.tracer.live(id).and_then(|n| n.value_text()) {
                Some(text) => Some(clip(&text)),
                None => r.value.as_deref().map(clip),
            },
        }
    }

    /// The identity path: the owner chain's names from the root, `/` separated; a repeated name among the nodes
    /// one run created takes `[n]` (n from 2).
    pub fn path(&self, id: NodeId) -> String {
        let mut segments = Vec::new();
        let mut current = Some(id);
        let mut guard = 0;
        while let Some(node) = current {
            guard += 1;
            if guard > 1000 {
                break;
            }
            segments.push(self.segment(node));
            current = self.rec(node).and_then(|r| r.owner);
        }
        let mut path = String::new();
        for segment in segments.iter().rev() {
            path.push('/');
            path.push_str(segment);
        }
        path
    }

    fn segment(&self, id: NodeId) -> String {
        let base = self.base_name(id);
        let escaped = escape_segment(&base);
        let Some(r) = self.rec(id) else {
            return escaped;
        };
        let mut siblings = self.siblings.borrow_mut();
        let index = siblings.get_or_insert_with(|| {
            let mut map: HashMap<(Option<NodeId>, u64, Rc<str>), Vec<NodeId>> = HashMap::new();
            for r in self.records.iter() {
                let key = (
                    r.owner,
                    if r.owner.is_some() { r.creating_run } else { 0 },
                    self.base_name(r.id),
                );
                map.entry(key).or_default().push(r.id);
            }
            map
        });
        let key = (
            r.owner,
            if r.owner.is_some() { r.creating_run } else { 0 },
            base,
        );
        match index
            .get(&key)
            .and_then(|ids| ids.iter().position(|s| *s == id))
        {
            Some(0) | None => escaped,
            Some(k) => format!("{escaped}[{}]", k + 1),
        }
    }

    pub fn info(&self, id: NodeId) -> Option<NodeInfo> {
        let r = self.rec(id)?;
        let error = match self.event(r.last_run_end).map(|e| e.kind) {
            Some(EventKind::RunEnd { error, .. }) => error,
            _ => None,
        };
        Some(NodeInfo {
            node: self.name(id),
            kind: r.kind,
            site: Site::of(r.site),
            label: r.label.clone(),
            value: self.value(id),
            error,
            sources: r.sources.iter().map(|s| self.name(*s)).collect(),
            observers: self.observers(id).iter().map(|o| self.name(*o)).collect(),
            owner: r.owner.map(|o| self.name(o)),
            path: self.path(id),
            runs: r.runs,
            disposed: r.disposed != 0,
        })
    }

    /// Every node upstream of `id` (its sources, theirs, ...), nearest first, each once.
    pub fn upstream(&self, id: NodeId) -> Vec<NodeId> {
        self.walk(id, u32::MAX, |ctx, n| {
            ctx.rec(n).map(|r| r.sources.clone()).unwrap_or_default()
        })
        .into_iter()
        .map(|(n, _)| n)
        .collect()
    }

    /// Breadth-first from `id` along `next`, up to `hops`, excluding `id`.
    fn walk(
        &self,
        id: NodeId,
        hops: u32,
        next: impl Fn(&Self, NodeId) -> Vec<NodeId>,
    ) -> Vec<(NodeId, u32)> {
        let mut seen = HashSet::from([id]);
        let mut queue = VecDeque::from([(id, 0u32)]);
        let mut out = Vec::new();
        while let Some((node, depth)) = queue.pop_front() {
            if depth >= hops {
                continue;
            }
            for n in next(self, node) {
                if seen.insert(n) {
                    out.push((n, depth + 1));
                    queue.push_back((n, depth + 1));
                }
            }
        }
        out
    }

    /// Follows causes from `start`, newest first, to the root.
    pub fn chain(&self, start: u64) -> (Vec<Event>, WhyRoot) {
        let mut steps = Vec::new();
        let mut seq = start;
        loop {
            let Some(event) = self.event(seq) else {
                return (
                    steps,
                    WhyRoot::PastRing {
                        seq,
                        oldest: self.oldest,
                    },
                );
            };
            let cause = event.cause;
            let root = match &event.kind {
                EventKind::Message { target, name, args } if cause == 0 => Some(WhyRoot::Message {
                    seq,
                    target: *target,
                    name: name.clone(),
                    args: args.clone(),
                }),
                EventKind::NodeNew { node, .. } => Some(WhyRoot::Created { seq, node: *node }),
                EventKind::Write {
                    node,
                    by: Writer::Program,
                    ..
                } => Some(WhyRoot::ProgramWrite {
                    seq,
                    node: *node,
                    at: self.write_site(*node, seq),
                }),
                EventKind::RunStart { node, run, puller } if cause == 0 => {
                    Some(match (puller, self.rec(*node)) {
                        (None, Some(r)) if r.kind == NodeKind::Effect && *run == 1 => {
                            WhyRoot::Created { seq, node: *node }
                        }
                        _ => WhyRoot::Pulled { seq, by: *puller },
                    })
                }
                _ if cause == 0 || cause >= seq => Some(WhyRoot::NoCause { seq }),
                _ => None,
            };
            steps.push(event);
            if let Some(root) = root {
                return (steps, root);
            }
            if steps.len() >= WHY_MAX_STEPS {
                return (steps, WhyRoot::NoCause { seq: cause });
            }
            seq = cause;
        }
    }

    /// Where the write `seq` to `node` was called, when it is the node's latest move (the trace keeps that one) and
    /// the program's or a computation's.
    pub fn write_site(&self, node: NodeId, seq: u64) -> Option<Site> {
        let r = self.rec(node)?;
        // a message's model write is made by the dispatcher: its line is the framework's, not the program's
        match r.moved_by {
            Some((Writer::Program | Writer::Computation(_), site)) if r.last_moved == seq => {
                Some(Site::of(site))
            }
            _ => None,
        }
    }

    pub fn names_in(&self, events: &[Event], extra: &[NodeId]) -> Names {
        let mut ids: Vec<NodeId> = extra.to_vec();
        for e in events {
            ids.extend(event_nodes(&e.kind));
        }
        self.names_of(ids)
    }

    pub fn why(&self, id: NodeId) -> Result<Why, TraceError> {
        let r = self.check(id)?;
        let (run, start) = match r.kind {
            NodeKind::Signal => (
                0,
                if r.last_moved != 0 {
                    r.last_moved
                } else {
                    r.created
                },
            ),
            _ => (r.runs, r.last_run_start),
        };
        let (steps, root) = if r.kind != NodeKind::Signal && r.runs == 0 {
            (Vec::new(), WhyRoot::NeverRan)
        } else {
            self.chain(start)
        };
        let mut extra = vec![id];
        extra.extend(root_nodes(&root));
        let names = self.names_in(&steps, &extra);
        let sites = names
            .0
            .keys()
            .filter_map(|n| Some((*n, Site::of(self.rec(*n)?.site))))
            .collect();
        let write_sites = steps
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Write {
                    node, moved: true, ..
                } => Some((e.seq, self.write_site(node, e.seq)?)),
                _ => None,
            })
            .collect();
        Ok(Why {
            node: self.name(id),
            run,
            steps,
            root,
            names,
            sites,
            write_sites,
        })
    }

    /// Cutoffs upstream of `id` whose `RunEnd` lies in `(after, before)`, latest first; a memo reading a message
    /// model alone is left out (it keeps its value by design).
    pub fn cutoffs(&self, id: NodeId, after: u64, before: u64) -> Vec<Cutoff> {
        self.cutoffs_among(self.upstream(id), after, before)
    }

    /// [`cutoffs`](Self::cutoffs) among the nodes of `cone` other than `id`.
    pub fn cutoffs_in(
        &self,
        id: NodeId,
        cone: &HashSet<NodeId>,
        after: u64,
        before: u64,
    ) -> Vec<Cutoff> {
        self.cutoffs_among(
            self.upstream_in(id, cone).into_iter().map(|(n, _)| n),
            after,
            before,
        )
    }

    /// The nodes of `cone` other than `id`, by id.
    pub fn upstream_in(&self, id: NodeId, cone: &HashSet<NodeId>) -> Vec<(NodeId, ())> {
        let mut nodes: Vec<(NodeId, ())> = cone
            .iter()
            .filter(|n| **n != id)
            .map(|n| (*n, ()))
            .collect();
        nodes.sort();
        nodes
    }

    fn cutoffs_among(
        &self,
        nodes: impl IntoIterator<Item = NodeId>,
        after: u64,
        before: u64,
    ) -> Vec<Cutoff> {
        let mut found = Vec::new();
        for n in nodes {
            let Some(r) = self.rec(n) else { continue };
            if self.reads_model_alone(r) {
                continue;
            }
            for (seq, value) in [&r.last_cutoff, &r.previous_cutoff].into_iter().flatten() {
                if *seq > after && *seq < before {
                    found.push(Cutoff {
                        node: self.name(n),
                        seq: *seq,
                        value: value.clone(),
                        site: Site::of(r.site),
                        line: names::line_text(r.site.file(), r.site.line()),
                    });
                    break;
                }
            }
        }
        found.sort_by_key(|c| std::cmp::Reverse(c.seq));
        found
    }

    pub fn reads_model_alone(&self, r: &NodeRecord) -> bool {
        r.sources.len() == 1 && self.rec(r.sources[0]).is_some_and(|s| s.is_model)
    }

    pub fn why_not(&self, id: NodeId) -> Result<WhyNot, TraceError> {
        let r = self.check(id)?;
        let node = self.name(id);
        if r.kind == NodeKind::Signal {
            return Ok(WhyNot::Signal {
                node,
                last_write: r.last_write,
            });
        }
        if r.disposed != 0 {
            return Ok(WhyNot::Disposed {
                node,
                seq: r.disposed,
            });
        }
        if r.kind == NodeKind::Effect
            && r.last_schedule > r.last_run_start
            && r.last_check < r.last_schedule
            && r.last_schedule > r.last_run_end
        {
            return Ok(WhyNot::Queued {
                node,
                schedule: r.last_schedule,
            });
        }
        if r.runs == 0 {
            return Ok(WhyNot::NeverRan { node });
        }
        let since = r.last_run_start;
        if r.last_mark > since && r.last_check < r.last_mark {
            let (source, dirty) = match self.event(r.last_mark).map(|e| e.kind) {
                Some(EventKind::Mark { source, dirty, .. }) => (Some(self.name(source)), dirty),
                _ => (None, false),
            };
            let observers = self.observers(id).iter().map(|o| self.name(*o)).collect();
            return Ok(WhyNot::Unobserved {
                node,
                mark: r.last_mark,
                source,
                dirty,
                observers,
            });
        }
        if r.last_check > since {
            let cutoff = self.cutoffs(id, since, r.last_check).into_iter().next();
            let sources = r.sources.iter().map(|s| self.name(*s)).collect();
            return Ok(WhyNot::CheckedClean {
                node,
                check: r.last_check,
                sources,
                cutoff,
            });
        }
        if let Some(cutoff) = self.cutoffs(id, since, u64::MAX).into_iter().next() {
            return Ok(WhyNot::StoppedAtCutoff { node, cutoff });
        }
        let mut equal: Option<EqualWrite> = None;
        for n in self.upstream(id) {
            let Some(s) = self.rec(n) else { continue };
            if s.kind == NodeKind::Signal && s.last_write > since && s.last_write != s.last_moved {
                if equal.as_ref().is_some_and(|e| e.seq > s.last_write) {
                    continue;
                }
                let value = match self.event(s.last_write).map(|e| e.kind) {
                    Some(EventKind::Write { value, .. }) => value,
                    _ => Rc::from("?"),
                };
                equal = Some(EqualWrite {
                    node: self.name(n),
                    seq: s.last_write,
                    value,
                });
            }
        }
        if let Some(write) = equal {
            return Ok(WhyNot::EqualWrite { node, write });
        }
        Ok(WhyNot::NotReached { node, since })
    }

    pub fn unread(&self, id: NodeId) -> Result<Vec<Unread>, TraceError> {
        let r = self.check(id)?;
        let mut out = Vec::new();
        for (source, read, site) in &r.untracked {
            if r.sources.contains(source) {
                continue;
            }
            let Some(s) = self.rec(*source) else { continue };
            if s.last_moved > *read {
                out.push(Unread {
                    node: self.name(*source),
                    read: *read,
                    moved: s.last_moved,
                    value: self.value(*source),
                    at: site
                        .map(SourceLine::at)
                        .or_else(|| untracked_read_line(r, &self.base_name(*source))),
                });
            }
        }
        Ok(out)
    }

    pub fn history(&self, id: NodeId) -> Result<History, TraceError> {
        let r = self.check(id)?;
        let events = self.tracer.events_of(id);
        let mut entries: Vec<HistoryEntry> = Vec::new();
        let mut open: Option<usize> = None;
        let mut extra = vec![id];
        for e in &events {
            match &e.kind {
                EventKind::Write {
                    node, moved, value, ..
                } if *node == id => {
                    let root = self.chain(e.seq).1;
                    extra.extend(root_nodes(&root));
                    entries.push(HistoryEntry {
                        run: 0,
                        start: e.seq,
                        end: e.seq,
                        status: if *moved {
                            RunStatus::Moved
                        } else {
                            RunStatus::Kept
                        },
                        value: Some(value.clone()),
                        root,
                    });
                }
                EventKind::RunStart { node, run, .. } if *node == id => {
                    let root = self.chain(e.seq).1;
                    extra.extend(root_nodes(&root));
                    open = Some(entries.len());
                    entries.push(HistoryEntry {
                        run: *run,
                        start: e.seq,
                        end: 0,
                        status: RunStatus::Open,
                        value: None,
                        root,
                    });
                }
                EventKind::RunEnd {
                    node,
                    moved,
                    error,
                    value,
                } if *node == id => {
                    if let Some(i) = open.take() {
                        let entry = &mut entries[i];
                        entry.end = e.seq;
                        entry.value = value.clone();
                        entry.status = match (error, r.kind, moved) {
                            (Some(message), _, _) => RunStatus::Failed(message.clone()),
                            (None, NodeKind::Effect, _) => RunStatus::Ran,
                            (None, _, true) => RunStatus::Moved,
                            (None, _, false) => RunStatus::Kept,
                        };
                    }
                }
                _ => {}
            }
        }
        let truncated = r.created < self.oldest;
        let names = self.names_of(extra);
        Ok(History {
            node: self.name(id),
            runs: r.runs,
            entries,
            truncated,
            names,
        })
    }

    pub fn origin(&self, id: NodeId) -> Result<Origin, TraceError> {
        let r = self.check(id)?;
        let mut owners = Vec::new();
        let mut owner = r.owner;
        while let Some(o) = owner {
            if owners.len() > 1000 {
                break;
            }
            owners.push(self.name(o));
            owner = self.rec(o).and_then(|r| r.owner);
        }
        Ok(Origin {
            node: self.name(id),
            kind: r.kind,
            site: Site::of(r.site),
            line: names::line_text(r.site.file(), r.site.line()),
            label: r.label.clone(),
            binding: names::binding_at(r.site.file(), r.site.line(), r.site.column()),
            owners,
            created: r.created,
            creating_run: r.creating_run,
            path: self.path(id),
        })
    }

    pub fn snapshot(&self) -> TraceSnapshot {
        TraceSnapshot {
            clock: self.tracer.clock(),
            oldest: self.oldest,
            capacity: self.tracer.capacity(),
            nodes: self.records().filter_map(|r| self.info(r.id)).collect(),
        }
    }

    pub fn lookup(&self, query: &str) -> Result<NodeId, LookupError> {
        let query_text = query.trim();
        let fail = |reason: String, candidates: Vec<NodeName>| LookupError {
            query: query_text.to_owned(),
            reason,
            candidates: candidates.into_iter().take(20).collect(),
        };
        let all = || self.records().map(|r| self.name(r.id)).collect::<Vec<_>>();
        if query_text.is_empty() {
            return Err(fail(
                "expected a node name, `#id`, `name#id` or an identity path `/a/b`".into(),
                all(),
            ));
        }
        if query_text.starts_with('/') {
            let holders: Vec<&NodeRecord> = self
                .records()
                .filter(|r| self.path(r.id) == query_text)
                .collect();
            return match holders
                .iter()
                .rev()
                .find(|r| r.disposed == 0)
                .or(holders.last())
            {
                Some(r) => Ok(r.id),
                None => Err(fail("no node has this identity path".into(), all())),
            };
        }
        if let Some((name, id)) = query_text.rsplit_once('#') {
            // `name#id:line`, as explanations print their chain and reads, names the same node
            let id = match id.split_once(':') {
                Some((id, line)) if line.chars().all(|c| c.is_ascii_digit()) => id,
                _ => id,
            };
            let Ok(number) = id.parse::<u32>() else {
                return Err(fail(
                    format!("`#{id}` is not a node id (expected `#` and a number, like `#7`)"),
                    all(),
                ));
            };
            let id = NodeId(number);
            if self.rec(id).is_none() {
                let reason = match self.missing(id) {
                    TraceError::UnknownNode(_) => format!("there is no node {id} in this graph"),
                    other => other.to_string(),
                };
                return Err(fail(reason, all()));
            }
            if !name.is_empty() && *self.base_name(id) != *name {
                return Err(fail(
                    format!("node {id} is named `{}`, not `{name}`", self.base_name(id)),
                    all(),
                ));
            }
            return Ok(id);
        }
        let matches: Vec<&NodeRecord> = self
            .records()
            .filter(|r| *self.base_name(r.id) == *query_text)
            .collect();
        let live: Vec<&&NodeRecord> = matches.iter().filter(|r| r.disposed == 0).collect();
        match (live.as_slice(), matches.as_slice()) {
            ([one], _) => Ok(one.id),
            ([], [.., last]) => Ok(last.id),
            ([], []) => {
                let lower = query_text.to_lowercase();
                let close: Vec<NodeName> = self
                    .records()
                    .map(|r| self.name(r.id))
                    .filter(|n| {
                        n.name.to_lowercase().contains(&lower)
                            || lower.contains(&n.name.to_lowercase())
                    })
                    .collect();
                Err(fail(
                    "no node has this name".into(),
                    if close.is_empty() { all() } else { close },
                ))
            }
            (many, _) => Err(fail(
                format!(
                    "{} live nodes have this name; add the id, like `{}`",
                    many.len(),
                    self.name(many[0].id)
                ),
                many.iter().map(|r| self.name(r.id)).collect(),
            )),
        }
    }

    pub fn explain(&self, id: NodeId) -> Result<Explain, TraceError> {
        let r = self.check(id)?;
        let info = self.info(id).ok_or_else(|| self.missing(id))?;
        let why = self.why(id)?;
        let why_not = (r.kind != NodeKind::Signal)
            .then(|| self.why_not(id))
            .transpose()?;
        let unread = self.unread(id)?;
        let since = match r.kind {
            NodeKind::Signal => r.last_write,
            _ => r.last_run_start,
        };
        let cutoffs = self.cutoffs(id, since, u64::MAX);
        let earlier_cutoffs = if cutoffs.is_empty() {
            let mut earlier = self.cutoffs(id, 0, since.max(1));
            earlier.truncate(2);
            earlier
        } else {
            Vec::new()
        };
        let comparers = if cutoffs.is_empty() && earlier_cutoffs.is_empty() {
            self.upstream(id)
                .into_iter()
                .filter(|n| self.rec(*n).is_some_and(|r| r.custom_comparer))
                .take(2)
                .filter_map(|n| {
                    let site = self.rec(n)?.site;
                    Some(Comparer {
                        info: self.info(n)?,
                        line: names::line_text(site.file(), site.line()),
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let line = names::line_text(r.site.file(), r.site.line());
        let (findings, body) = diagnose::diagnose(self, id, why_not.as_ref());
        let reads = r
            .sources
            .iter()
            .filter_map(|s| {
                let source = self.rec(*s)?;
                Some(SourceRef {
                    node: self.name(*s),
                    site: Site::of(source.site),
                    disposed: source.disposed != 0,
                })
            })
            .collect();
        Ok(Explain {
            info,
            line,
            why,
            why_not,
            unread,
            cutoffs,
            earlier_cutoffs,
            comparers,
            findings,
            body,
            reads,
        })
    }

    pub fn summary(&self) -> GraphSummary {
        let (mut signals, mut memos, mut effects, mut disposed) = (0, 0, 0, 0);
        for r in self.records() {
            if r.disposed != 0 {
                disposed += 1;
                continue;
            }
            if r.kind == NodeKind::Signal && self.tracer.live(r.id).is_none() {
                continue;
            }
            match r.kind {
                NodeKind::Signal => signals += 1,
                NodeKind::Memo => memos += 1,
                NodeKind::Effect => effects += 1,
            }
        }
        let last = self.tracer.last_message();
        let last_message = match self.event(last).map(|e| e.kind) {
            Some(EventKind::Message { target, name, args }) => Some(MessageInfo {
                seq: last,
                target: self.name(target),
                name,
                args,
            }),
            _ => None,
        };
        let moved = self
            .records()
            .filter(|r| r.last_moved != 0 && r.last_moved > last)
            .filter_map(|r| self.info(r.id))
            .collect();
        GraphSummary {
            signals,
            memos,
            effects,
            disposed,
            last_message,
            moved,
        }
    }

    pub fn neighborhood(&self, id: NodeId, hops: u32) -> Result<Neighborhood, TraceError> {
        self.check(id)?;
        let center = self.info(id).ok_or_else(|| self.missing(id))?;
        let mut nodes = Vec::new();
        let up = self.walk(id, hops, |ctx, n| {
            ctx.rec(n).map(|r| r.sources.clone()).unwrap_or_default()
        });
        for (n, depth) in up {
            nodes.extend(self.info(n).map(|i| (depth, Relation::Source, i)));
        }
        let down = self.walk(id, hops, |ctx, n| ctx.observers(n).to_vec());
        for (n, depth) in down {
            nodes.extend(self.info(n).map(|i| (depth, Relation::Observer, i)));
        }
        Ok(Neighborhood { center, nodes })
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
        let code = code.split("//").next().unwrap_or_default();
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
    super::with_log(|tracer| f(&Ctx::new(tracer)))
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

/// What `explain` says: the node's line, the cause chain of its last run, why it has not re-run since, what it read
/// untracked that moved, and the cutoffs (or comparers) upstream.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn explain(node: impl AnyNode) -> Result<Explain, TraceError> {
    query(|c| c.explain(node.node_id()))?
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
    query(|c| {
        diagnose::cone(c, node.node_id())
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    })
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
