//! The answers the queries give: plain data (names, sites, cause chains, findings), each a public type an app or
//! the adapter reads.

use super::*;

/// The longest value text an answer carries, in characters; a longer value is cut to end with `…`.
pub const VALUE_TEXT_MAX: usize = 120;

/// The longest cause chain [`why`] follows.
pub const WHY_MAX_STEPS: usize = 256;

/// A query that could not be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceError {
    /// The node is not in this thread's graph (made on another thread, or before the graph was disposed).
    UnknownNode(NodeId),
    /// The node was made in this graph but dropped, long enough ago that the trace no longer keeps its record (it
    /// keeps those of the living nodes and of the [`DROPPED_KEPT`](crate::trace::DROPPED_KEPT) dropped last).
    Dropped(NodeId),
    /// This build records no trace: a release build without the cargo feature `trace` (see
    /// [`TRACED`](crate::trace::TRACED)).
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
                crate::trace::DROPPED_KEPT
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
    pub(crate) fn of(location: SiteRef) -> Self {
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
        /// The message the dropped event was recorded in, when the trace's table of messages (which outlives the
        /// ring) still holds it.
        message: Option<DroppedIn>,
    },
    /// A memo that nothing has read yet: it never ran.
    NeverRan,
    /// The chain stops at an event with no recorded cause.
    NoCause {
        /// The event.
        seq: u64,
    },
}

/// The message a dropped event was recorded in: named from the trace's table of the latest
/// [`MESSAGES_KEPT`](crate::trace::MESSAGES_KEPT) messages, which outlives the ring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedIn {
    /// The message's `Message` event.
    pub seq: u64,
    /// The model it was dispatched to.
    pub target: NodeId,
    /// Its name.
    pub name: Rc<str>,
    /// Its arguments.
    pub args: Rc<str>,
    /// How many events it recorded (so far, while it is open).
    pub events: u64,
    /// How many of them the ring dropped (the first ones).
    pub dropped: u64,
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
    pub(crate) fn at(location: SiteRef) -> SourceLine {
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

/// What kind of fact a [`Finding`] reports; its label in the text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// An untracked read of a node that moved after it.
    Unread,
    /// A read of a disposed node (or the explained node itself disposed).
    Disposed,
    /// The write that gave a signal its value.
    Written,
    /// A value the program read before making a node that does not read it.
    Captured,
    /// Several moves of one signal inside one batch.
    Batch,
    /// A memo upstream that re-ran and kept its value.
    Cutoff,
    /// An upstream memo that kept its value before the explained node's last run.
    EarlierCutoff,
    /// Why the node has not re-run: nothing read it since it was marked.
    NotReRun,
    /// The node itself re-ran and kept its previous value.
    Kept,
    /// A select that kept its value while the model moved.
    Select,
    /// A node made with a comparer upstream.
    Comparer,
    /// The arm of an `Mvu`'s `update` that handled the latest message.
    Update,
    /// A signal upstream that still holds the value it was made with.
    Initial,
    /// A source that kept its value on the latest message while another source moved.
    Steady,
    /// The writes the latest message made outside the cone of a node that did not follow it.
    Wrote,
    /// A read by an async memo's future (untracked: it runs outside the memo's run) of a node that moved after.
    FutureRead,
    /// An async memo's settled value, with the lines of its future that produced it.
    Settled,
    /// The branches the node's latest run took, in a body `#[node]` built.
    Ran,
    /// A keyed collection upstream that refused its source's list (two items with one key) and kept its rows.
    Refused,
}

impl FindingKind {
    /// The label the finding's line starts with (`unread`, `cutoff`, ...).
    pub fn label(self) -> &'static str {
        match self {
            FindingKind::Unread => "unread",
            FindingKind::Disposed => "disposed",
            FindingKind::Written => "written",
            FindingKind::Captured => "captured",
            FindingKind::Batch => "batch",
            FindingKind::Cutoff => "cutoff",
            FindingKind::EarlierCutoff => "earlier cutoff",
            FindingKind::NotReRun => "not re-run since",
            FindingKind::Kept => "kept",
            FindingKind::Select => "select",
            FindingKind::Comparer => "comparer",
            FindingKind::Update => "update",
            FindingKind::Initial => "initial",
            FindingKind::Steady => "steady",
            FindingKind::Wrote => "wrote",
            FindingKind::FutureRead => "future read",
            FindingKind::Settled => "settled",
            FindingKind::Ran => "ran",
            FindingKind::Refused => "refused",
        }
    }
}

/// One fact `explain` reports, with the line to look at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What kind of fact.
    pub kind: FindingKind,
    /// Higher comes first.
    pub rank: u32,
    /// The line after the label: `weight#4 = 6000 moved #57 after an untracked read #40`.
    pub text: String,
    /// The line to fix.
    pub at: Option<SourceLine>,
    /// More lines that belong to it (the lines of a body that return the previous value).
    pub more: Vec<SourceLine>,
}

/// A finding this strong goes before the explained node's body lines, but leaves them their full count: it leads
/// without standing for them (a fn the run called through a value, whose lines the body's never reach). From 700 up,
/// a finding goes first and the body is cut to a few lines.
pub(crate) const LEADING_FINDING: u32 = 690;

impl Finding {
    pub(in crate::trace) fn new(
        kind: FindingKind,
        rank: u32,
        text: String,
        at: Option<SourceLine>,
    ) -> Self {
        Finding {
            kind,
            rank,
            text,
            at,
            more: Vec::new(),
        }
    }
}
