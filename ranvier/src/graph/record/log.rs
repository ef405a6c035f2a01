//! The traced build's log: the [`Tracer`] a graph's runtime holds, its node table, and what the queries read from it.
//! The event model is in `event.rs`, the bounded storage in `ring.rs`, the hooks the engine calls in `hooks.rs`.

use super::{EVENT_BYTES, initial_capacity};
use super::table::NodeTable;
use super::{Recordable, Scalar};
use crate::graph::{NodeId, NodeKind, DynNodeRc, WeakNode, with_runtime};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::fmt;
use std::num::NonZeroU64;
use std::panic::Location;
use std::rc::Rc;
use std::time::Duration;

mod event;
mod hooks;
mod ring;

pub use event::*;
use ring::{EventRing, Slot, TextRef, TextRing, ValueRef};

/// What the tracer keeps about a node: [`NodeRecord`] with its texts in the text ring.
#[derive(Clone, Debug)]
struct Rec {
    id: NodeId,
    kind: NodeKind,
    site: &'static Location<'static>,
    label: Option<Rc<str>>,
    owner: Option<NodeId>,
    created: u64,
    creating_run: u64,
    last_mark: u64,
    first_mark_since_run: u64,
    last_run_start: u64,
    last_run_end: u64,
    runs: u32,
    last_cutoff: Option<(u64, ValueRef)>,
    previous_cutoff: Option<(u64, ValueRef)>,
    /// The value a memo computed and dropped at a cutoff (its equality called it equal to the kept one), with that
    /// run's `RunEnd`; values that are not scalars only.
    cutoff_computed: Option<(u64, ValueRef)>,
    last_moved: u64,
    last_write: u64,
    value: Option<ValueRef>,
    disposed: u64,
    untracked: Vec<(NodeId, u64, Option<Loc>)>,
    last_check: u64,
    last_schedule: u64,
    sources: Vec<NodeId>,
    is_model: bool,
    first_mark_dirty: bool,
    read_sites: Vec<(NodeId, Loc)>,
    /// Where each source is in `read_sites`, once it holds more than [`READ_SITES_SCANNED`].
    /// Boxed: most records never have one, and every record stays a pointer wide for it.
    #[allow(clippy::box_collection)]
    read_index: Option<Box<IdMap<usize>>>,
    moved_by: Option<(Writer, Loc)>,
    program_reads: Vec<(u64, Loc)>,
    disposed_at: Option<Loc>,
    custom_comparer: bool,
    update_fn: Option<&'static str>,
}

type Loc = &'static Location<'static>;

/// The facts of a node's record that a scan of the whole table reads, borrowed from the table (see
/// [`Tracer::scan`]).
pub(crate) struct Brief<'r> {
    pub id: NodeId,
    pub kind: NodeKind,
    pub site: Loc,
    pub label: Option<&'r Rc<str>>,
    pub owner: Option<NodeId>,
    pub creating_run: u64,
    pub disposed: u64,
    pub last_moved: u64,
    /// What its last run read, in read order.
    pub sources: &'r [NodeId],
    /// Whether the program read it outside any memo or effect.
    pub program_read: bool,
}

impl<'r> Brief<'r> {
    fn of(r: &'r Rec) -> Self {
        Brief {
            id: r.id,
            kind: r.kind,
            site: r.site,
            label: r.label.as_ref(),
            owner: r.owner,
            creating_run: r.creating_run,
            disposed: r.disposed,
            last_moved: r.last_moved,
            sources: &r.sources,
            program_read: !r.program_reads.is_empty(),
        }
    }
}

/// A hasher for node ids, which are small dense numbers: one multiplication (as in rustc's FxHash), where the
/// default SipHash took most of the cost of recording a memo that reads thousands of sources.
#[derive(Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.write_u64(u64::from(*byte));
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by node ids, hashed by [`IdHasher`].
pub(crate) type IdMap<V> =
    std::collections::HashMap<NodeId, V, std::hash::BuildHasherDefault<IdHasher>>;

/// Up to this many read sites a node's record finds one by scanning; past it, by an index.
const READ_SITES_SCANNED: usize = 16;

impl Rec {
    /// Where the node read `source`: the latest site.
    fn set_read_site(&mut self, source: NodeId, site: Loc) {
        let at = match &self.read_index {
            Some(index) => index.get(&source).copied(),
            None => self.read_sites.iter().position(|(s, _)| *s == source),
        };
        match at {
            Some(i) => self.read_sites[i].1 = site,
            None => {
                self.read_sites.push((source, site));
                if let Some(index) = &mut self.read_index {
                    index.insert(source, self.read_sites.len() - 1);
                } else if self.read_sites.len() > READ_SITES_SCANNED {
                    self.read_index = Some(Box::new(
                        self.read_sites
                            .iter()
                            .enumerate()
                            .map(|(i, (s, _))| (*s, i))
                            .collect(),
                    ));
                }
            }
        }
    }

    /// Drops the edges from `removed` (each one's first occurrence in `sources`, as if removed one by one, and its
    /// read site) in one pass over the lists.
    fn remove_sources(&mut self, removed: &[NodeId]) {
        if removed.len() <= 2 {
            for source in removed {
                if let Some(i) = self.sources.iter().position(|s| s == source) {
                    self.sources.remove(i);
                }
            }
        } else {
            let mut pending: IdMap<usize> =
                IdMap::with_capacity_and_hasher(removed.len(), Default::default());
            for source in removed {
                *pending.entry(*source).or_default() += 1;
            }
            self.sources.retain(|s| match pending.get_mut(s) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    false
                }
                _ => true,
            });
        }
        for source in removed {
            let at = match &self.read_index {
                Some(index) => index.get(source).copied(),
                None => self.read_sites.iter().position(|(s, _)| s == source),
            };
            if let Some(i) = at {
                self.read_sites.swap_remove(i);
                if let Some(index) = &mut self.read_index {
                    index.remove(source);
                    if let Some((moved, _)) = self.read_sites.get(i) {
                        index.insert(*moved, i);
                    }
                }
            }
        }
    }
}

/// How many bytes of text (values, labels, messages) the trace keeps per event of ring capacity: texts share one byte
/// ring of `capacity × TEXT_BYTES_PER_EVENT` bytes; a text older than that reads as gone, except a node's current
/// value, which is read from the node itself.
pub const TEXT_BYTES_PER_EVENT: usize = 16;

/// The size of one event's slot in the ring, in bytes.
pub fn slot_bytes() -> usize {
    std::mem::size_of::<(u64, Slot)>()
}

/// The traced build's recorder, one per graph.
pub(crate) struct Tracer {
    clock: Cell<u64>,
    /// The ring: each event's cause and slot; sequence numbers follow from the clock.
    events: EventRing,
    texts: RefCell<TextRing>,
    nodes: RefCell<NodeTable<Rec>>,
    notifier: Cell<u64>,
    /// The open messages, innermost last: each `Message` event with the computation running when it was dispatched.
    messages: RefCell<Vec<(u64, Option<NodeId>)>>,
    walkers: RefCell<Vec<NodeId>>,
    last_message: Cell<u64>,
    /// Where the disposal running now was called (see `graph::disposing_at`).
    disposing: Cell<Option<Loc>>,
    /// The latest outermost batches: their `BatchEnter` and where `batch` was called, oldest first.
    batches: RefCell<std::collections::VecDeque<(u64, Loc)>>,
    /// The latest messages a memo or effect dispatched: their `Message` event, the computation, and where.
    dispatches: RefCell<std::collections::VecDeque<(u64, NodeId, Loc)>>,
    /// The `Flight` start event of each flight not yet ended, by memo and flight number.
    flights: RefCell<std::collections::HashMap<(NodeId, u32), u64>>,
    /// The latest messages, oldest first: what the answers need to name a message and its `update` arm after the
    /// ring dropped its events (at most [`MESSAGES_KEPT`]).
    message_table: RefCell<std::collections::VecDeque<KeptMessage>>,
    /// The async memo whose flight's future is being polled, if one is (outside any run: its reads are untracked).
    polling: Cell<Option<NodeId>>,
    /// Reads made by flights' futures while polled, oldest first: the memo, the node read, the clock then, and
    /// where (one entry per memo and line, its clock the latest; at most [`FLIGHT_READS_KEPT`]).
    flight_reads: RefCell<std::collections::VecDeque<(NodeId, NodeId, u64, Loc)>>,
    /// The branches (`match` arms, `if`/`else` blocks) `#[node]`-built bodies took, by node: the run they were
    /// taken in (its `RunStart`) and their places, in the order first taken (at most [`BRANCHES_KEPT`] a run).
    branches: RefCell<std::collections::HashMap<NodeId, (u64, Vec<Branch>)>>,
    /// The node whose run is dropping edges, and the sources dropped so far (see `hooks.rs`'s `edge_removed`).
    removing: RefCell<(Option<NodeId>, Vec<NodeId>)>,
    /// The `Timer` schedule event of each timed node whose timer waits.
    timers: RefCell<std::collections::HashMap<NodeId, u64>>,
    /// The `Timer` fire event whose write comes next: the cause of that write.
    timer_fired: Cell<u64>,
}

/// A dispatched message as the trace's table of messages keeps it, past the ring.
#[derive(Clone, Debug)]
pub(crate) struct KeptMessage {
    /// Its `Message` event.
    pub seq: u64,
    /// The message it was dispatched inside of (a command), else 0.
    pub cause: u64,
    /// The model it was dispatched to.
    pub target: NodeId,
    /// Its name and arguments, as its event holds them.
    pub name: Rc<str>,
    /// See `name`.
    pub args: Rc<str>,
    /// The last event recorded while it was open (0 while it is).
    pub end: u64,
    /// How many commands its `update` returned, for an `Mvu` made with `Mvu::with_commands` (`None` for others, or
    /// when `update` panicked or refused it).
    pub commands: Option<u32>,
}

/// A branch a `#[node]`-built body took: its file and line.
type Branch = (&'static str, u32);

/// How many branches of one run the trace keeps.
const BRANCHES_KEPT: usize = 16;

/// How many reads by flights' futures (distinct memo and line) the trace keeps.
const FLIGHT_READS_KEPT: usize = 256;

/// How many of the latest messages the trace names after the ring dropped their events.
pub const MESSAGES_KEPT: usize = 1_024;

/// How many outermost batches (and messages dispatched by memos and effects) the trace remembers the call sites of.
const BATCH_SITES_KEPT: usize = 256;

impl Tracer {
    pub fn new() -> Self {
        Tracer {
            clock: Cell::new(0),
            events: EventRing::new(initial_capacity()),
            texts: RefCell::new(TextRing::new(initial_capacity() * TEXT_BYTES_PER_EVENT)),
            nodes: RefCell::new(NodeTable::new()),
            notifier: Cell::new(0),
            flights: RefCell::new(std::collections::HashMap::new()),
            messages: RefCell::new(Vec::new()),
            walkers: RefCell::new(Vec::new()),
            last_message: Cell::new(0),
            disposing: Cell::new(None),
            batches: RefCell::new(std::collections::VecDeque::new()),
            dispatches: RefCell::new(std::collections::VecDeque::new()),
            removing: RefCell::new((None, Vec::new())),
            polling: Cell::new(None),
            branches: RefCell::new(std::collections::HashMap::new()),
            flight_reads: RefCell::new(std::collections::VecDeque::new()),
            message_table: RefCell::new(std::collections::VecDeque::new()),
            timers: RefCell::new(std::collections::HashMap::new()),
            timer_fired: Cell::new(0),
        }
    }

    pub fn enabled(&self) -> bool {
        true
    }

    pub fn reset(&self) {
        self.clock.set(0);
        self.events.clear();
        let size = self.events.capacity() * TEXT_BYTES_PER_EVENT;
        *self.texts.borrow_mut() = TextRing::new(size);
        self.nodes.borrow_mut().clear();
        self.notifier.set(0);
        self.flights.borrow_mut().clear();
        self.messages.borrow_mut().clear();
        self.walkers.borrow_mut().clear();
        self.last_message.set(0);
        self.disposing.set(None);
        self.batches.borrow_mut().clear();
        self.dispatches.borrow_mut().clear();
        *self.removing.borrow_mut() = (None, Vec::new());
        self.message_table.borrow_mut().clear();
        self.flight_reads.borrow_mut().clear();
        self.branches.borrow_mut().clear();
        self.timers.borrow_mut().clear();
        self.timer_fired.set(0);
    }

    #[inline]
    fn push(&self, cause: u64, slot: Slot) -> u64 {
        let seq = self.clock.get() + 1;
        self.clock.set(seq);
        self.events.push(cause, slot);
        seq
    }

    /// Records a value: a scalar as it is, anything else formatted into the text ring.
    #[inline]
    fn capture<V: Recordable + ?Sized>(&self, value: &V) -> ValueRef {
        match value.scalar() {
            Some(Scalar::I64(v)) => ValueRef::I64(v),
            Some(Scalar::U64(v)) => ValueRef::U64(v),
            Some(Scalar::F64(v)) => ValueRef::F64(v),
            Some(Scalar::F32(v)) => ValueRef::F32(v),
            Some(Scalar::Bool(v)) => ValueRef::Bool(v),
            None => ValueRef::Text(self.texts.borrow_mut().format(&value)),
        }
    }

    /// A recorded value's text, if it is still held.
    fn value_text(&self, value: ValueRef) -> Option<Rc<str>> {
        Some(match value {
            ValueRef::Text(t) => return self.texts.borrow().get(t),
            ValueRef::I64(v) => Rc::from(format!("{v:?}").as_str()),
            ValueRef::U64(v) => Rc::from(format!("{v:?}").as_str()),
            ValueRef::F64(v) => Rc::from(format!("{v:?}").as_str()),
            ValueRef::F32(v) => Rc::from(format!("{v:?}").as_str()),
            ValueRef::Bool(v) => Rc::from(format!("{v:?}").as_str()),
        })
    }

    fn get_value(&self, value: ValueRef) -> Rc<str> {
        self.value_text(value)
            .unwrap_or_else(|| Rc::from("(text older than the trace ring)"))
    }

    fn store(&self, text: &str) -> TextRef {
        self.texts.borrow_mut().store(text)
    }

    fn get_text(&self, text: TextRef) -> Rc<str> {
        self.texts
            .borrow()
            .get(text)
            .unwrap_or_else(|| Rc::from("(text older than the trace ring)"))
    }

    /// The sequence number of the oldest event held.
    fn first_seq(&self, held: usize) -> u64 {
        self.clock.get() + 1 - held as u64
    }

    #[inline]
    fn with_node<R>(&self, id: NodeId, f: impl FnOnce(&mut Rec) -> R) -> Option<R> {
        self.nodes.borrow_mut().get_mut(id).map(f)
    }

    #[inline]
    fn node_field(&self, id: NodeId, f: impl FnOnce(&Rec) -> u64) -> u64 {
        self.nodes.borrow().get(id).map_or(0, f)
    }
    // ---- read access for the queries ----

    /// An event as the queries see it, its texts read back from the text ring.
    fn materialize(&self, seq: u64, cause: u64, slot: Slot) -> Event {
        let kind = match slot {
            Slot::NodeNew {
                node,
                kind,
                owner,
                run,
            } => EventKind::NodeNew {
                node,
                kind,
                owner,
                run,
            },
            Slot::Label { node, label } => EventKind::Label {
                node,
                label: self.get_text(label),
            },
            Slot::Write {
                node,
                by,
                moved,
                value,
            } => EventKind::Write {
                node,
                by,
                moved,
                value: self.get_value(value),
            },
            Slot::Mark {
                node,
                source,
                dirty,
            } => EventKind::Mark {
                node,
                source,
                dirty,
            },
            Slot::Schedule { node } => EventKind::Schedule { node },
            Slot::CheckStart { node } => EventKind::CheckStart { node },
            Slot::CheckResolved { node, dirty_source } => {
                EventKind::CheckResolved { node, dirty_source }
            }
            Slot::RunStart { node, run, puller } => EventKind::RunStart { node, run, puller },
            Slot::RunEnd {
                node,
                moved,
                error,
                value,
            } => EventKind::RunEnd {
                node,
                moved,
                error: error.map(|e| self.get_text(e)),
                value: value.map(|v| self.get_value(v)),
            },
            Slot::Stopped { node, message } => EventKind::Stopped {
                node,
                message: self.get_text(message),
            },
            Slot::FlushStart { flush } => EventKind::FlushStart { flush },
            Slot::FlushEnd { flush } => EventKind::FlushEnd { flush },
            Slot::BatchEnter { depth } => EventKind::BatchEnter { depth },
            Slot::BatchExit { depth } => EventKind::BatchExit { depth },
            Slot::Dispose { node } => EventKind::Dispose { node },
            Slot::Message { target, name, args } => EventKind::Message {
                target,
                name: self.get_text(name),
                args: self.get_text(args),
            },
            Slot::EdgeAdd { node, source } => EventKind::EdgeAdd { node, source },
            Slot::EdgeRemove { node, source } => EventKind::EdgeRemove { node, source },
            Slot::UntrackedRead { node, source } => EventKind::UntrackedRead { node, source },
            Slot::Flight { node, flight, what } => EventKind::Flight { node, flight, what },
            Slot::Timer {
                node,
                what,
                at_us,
                due_us,
                value,
            } => EventKind::Timer {
                node,
                what,
                at: Duration::from_micros(at_us),
                due: Duration::from_micros(due_us),
                value: value.map(|v| self.get_text(v)),
            },
        };
        Event { seq, cause, kind }
    }

    /// A node's record as the queries see it. A text the ring no longer holds is the node's current value when the
    /// node has not moved since (its live value), else a note that it is gone.
    fn record_of(&self, rec: &Rec) -> NodeRecord {
        let live = || {
            self.live(rec.id)
                .and_then(|n| n.value_text())
                .map(|t| Rc::from(t.as_str()))
        };
        let text = |t: ValueRef, at: u64| -> Rc<str> {
            self.value_text(t)
                .or_else(|| if rec.last_moved <= at { live() } else { None })
                .unwrap_or_else(|| Rc::from("(text older than the trace ring)"))
        };
        NodeRecord {
            id: rec.id,
            kind: rec.kind,
            site: rec.site,
            label: rec.label.clone(),
            owner: rec.owner,
            created: rec.created,
            creating_run: rec.creating_run,
            last_mark: rec.last_mark,
            first_mark_since_run: rec.first_mark_since_run,
            last_run_start: rec.last_run_start,
            last_run_end: rec.last_run_end,
            runs: rec.runs,
            last_cutoff: rec.last_cutoff.map(|(seq, t)| (seq, text(t, seq))),
            previous_cutoff: rec.previous_cutoff.map(|(seq, t)| (seq, text(t, seq))),
            cutoff_computed: rec
                .cutoff_computed
                .and_then(|(seq, t)| Some((seq, self.value_text(t)?))),
            last_moved: rec.last_moved,
            last_write: rec.last_write,
            value: rec.value.map(|t| text(t, u64::MAX)),
            disposed: rec.disposed,
            untracked: rec.untracked.clone(),
            last_check: rec.last_check,
            last_schedule: rec.last_schedule,
            sources: rec.sources.clone(),
            is_model: rec.is_model,
            first_mark_dirty: rec.first_mark_dirty,
            read_sites: rec.read_sites.clone(),
            moved_by: rec.moved_by,
            program_reads: rec.program_reads.clone(),
            disposed_at: rec.disposed_at,
            custom_comparer: rec.custom_comparer,
            update_fn: rec.update_fn,
        }
    }

    /// Node `id`'s record as the queries see it, if the table holds it (a living node's, else a dropped one's).
    pub fn record(&self, id: NodeId) -> Option<NodeRecord> {
        let nodes = self.nodes.borrow();
        nodes.get_held(id).map(|r| self.record_of(r))
    }

    /// Runs `f` on the few facts of node `id`'s record that names and scans need, read in place.
    pub(crate) fn brief<R>(&self, id: NodeId, f: impl FnOnce(&Brief<'_>) -> R) -> Option<R> {
        let nodes = self.nodes.borrow();
        nodes.get_held(id).map(|r| f(&Brief::of(r)))
    }

    /// Calls `f` with the facts of every record held (living nodes, and the latest dropped ones), in id order, read in
    /// place: a query that counts or indexes the whole table copies no record. `f` must not record anything.
    pub(crate) fn scan(&self, mut f: impl FnMut(&Brief<'_>)) {
        self.nodes.borrow().for_each(|_, r| f(&Brief::of(r)));
    }

    /// One more than the highest node id this graph has recorded.
    pub(crate) fn id_bound(&self) -> usize {
        self.nodes.borrow().id_bound()
    }

    /// Whether node `id` was made in this graph (since it was last disposed), held or not: a node made but not
    /// held was dropped long enough ago that its record is gone.
    pub fn ever_made(&self, id: NodeId) -> bool {
        self.nodes.borrow().ever_held(id)
    }

    /// How many node records the table holds.
    pub fn records_held(&self) -> usize {
        self.nodes.borrow().len()
    }

    /// The event with sequence number `seq`, if the ring still holds it.
    pub fn event(&self, seq: u64) -> Option<Event> {
        let first = self.first_seq(self.events.len());
        if seq < first {
            return None;
        }
        let (cause, slot) = self.events.get((seq - first) as usize)?;
        Some(self.materialize(seq, cause, slot))
    }

    /// The message whose `Message` event is `seq`, from the table of messages (which outlives the ring).
    pub fn kept_message(&self, seq: u64) -> Option<KeptMessage> {
        let table = self.message_table.borrow();
        let i = table.binary_search_by_key(&seq, |m| m.seq).ok()?;
        Some(table[i].clone())
    }

    /// The reads the futures of async memo `memo`'s flights made while polled (untracked), one per line: the node
    /// read, the clock when last read there, and the line.
    pub fn flight_reads_of(&self, memo: NodeId) -> Vec<(NodeId, u64, Loc)> {
        self.flight_reads
            .borrow()
            .iter()
            .filter(|(m, ..)| *m == memo)
            .map(|(_, source, at, site)| (*source, *at, *site))
            .collect()
    }

    /// The branches `node`'s latest run took (in a body `#[node]` built), in the order first taken: their file and
    /// line.
    pub fn branches_of(&self, node: NodeId) -> Vec<(&'static str, u32)> {
        let run = self.node_field(node, |n| n.last_run_start);
        self.branches
            .borrow()
            .get(&node)
            .filter(|(at, _)| *at == run)
            .map(|(_, taken)| taken.clone())
            .unwrap_or_default()
    }

    /// The messages dispatched as commands of message `seq` (its `update`'s, `Mvu::with_commands`), in order, as far
    /// as the table of messages still holds them.
    pub fn commands_of(&self, seq: u64) -> Vec<KeptMessage> {
        let table = self.message_table.borrow();
        let after = table.partition_point(|m| m.seq <= seq);
        table.range(after..).filter(|m| m.cause == seq).cloned().collect()
    }

    /// The innermost message that was open when event `seq` was recorded, if the table still holds it.
    pub fn message_around(&self, seq: u64) -> Option<KeptMessage> {
        let table = self.message_table.borrow();
        let after = table.partition_point(|m| m.seq <= seq);
        table
            .range(..after)
            .rev()
            .find(|m| m.end == 0 || m.end >= seq)
            .cloned()
    }

    /// The events of the ring that write, start or end a run of `id`, oldest first.
    pub fn events_of(&self, id: NodeId) -> Vec<Event> {
        self.events()
            .into_iter()
            .filter(|e| match &e.kind {
                EventKind::Write { node, .. }
                | EventKind::RunStart { node, .. }
                | EventKind::RunEnd { node, .. } => *node == id,
                _ => false,
            })
            .collect()
    }

    /// The timer events of `id` the ring holds, oldest first (no other event is materialized).
    pub fn timer_events_of(&self, id: NodeId) -> Vec<Event> {
        let held = self.events.len();
        let first = self.first_seq(held);
        (0..held)
            .filter_map(|i| {
                let (cause, slot) = self.events.get(i)?;
                matches!(slot, Slot::Timer { node, .. } if node == id)
                    .then(|| self.materialize(first + i as u64, cause, slot))
            })
            .collect()
    }

    pub fn events(&self) -> Vec<Event> {
        let held: Vec<(u64, Slot)> = (0..self.events.len())
            .filter_map(|i| self.events.get(i))
            .collect();
        let first = self.first_seq(held.len());
        held.into_iter()
            .zip(first..)
            .map(|((cause, slot), seq)| self.materialize(seq, cause, slot))
            .collect()
    }

    pub fn oldest_seq(&self) -> u64 {
        self.first_seq(self.events.len())
    }

    pub fn clock(&self) -> u64 {
        self.clock.get()
    }

    pub fn live(&self, id: NodeId) -> Option<DynNodeRc> {
        self.nodes.borrow().live(id)
    }

    pub fn last_message(&self) -> u64 {
        self.last_message.get()
    }

    pub fn set_capacity(&self, capacity: usize) {
        self.events.set_capacity(capacity);
        let size = capacity.max(1) * TEXT_BYTES_PER_EVENT;
        let mut texts = self.texts.borrow_mut();
        if size > texts.bytes.len() {
            // Grow only (a smaller text ring would lose texts the events still point at), keeping every offset.
            *texts = texts.resized(size);
        }
    }

    pub fn capacity(&self) -> usize {
        self.events.capacity()
    }
}

/// Sets how many events the current thread's trace ring keeps (at least 1). Older events are dropped first; the
/// node table is kept whatever the capacity. No effect in an untraced build.
pub fn set_capacity(capacity: usize) {
    with_runtime(|rt| rt.tracer.set_capacity(capacity));
}

/// How many events the current thread's trace ring keeps (0 in an untraced build).
pub fn capacity() -> usize {
    with_runtime(|rt| rt.tracer.capacity())
}

/// Sizes the current thread's trace ring by bytes: `bytes` ÷ [`EVENT_BYTES`] events (at least 1), slots and texts
/// together. The default is [`DEFAULT_RING_BYTES`](crate::trace::DEFAULT_RING_BYTES) (4 MiB, 65,536 events); one message that moves N nodes records
/// about 3 N events, so keeping all of one that moves 100,000 takes about 20 MB. No effect in an untraced build.
///
/// # Examples
///
/// ```
/// use ranvier::trace;
///
/// trace::set_ring_bytes(16 << 20);
/// # if !trace::TRACED { assert_eq!(trace::ring_bytes(), 0); return; }
/// assert_eq!(trace::capacity(), (16 << 20) / trace::EVENT_BYTES);
/// assert_eq!(trace::ring_bytes(), 16 << 20);
/// ```
pub fn set_ring_bytes(bytes: usize) {
    set_capacity((bytes / EVENT_BYTES).max(1));
}

/// How many bytes the current thread's trace ring takes, slots and texts (0 in an untraced build).
pub fn ring_bytes() -> usize {
    capacity() * EVENT_BYTES
}

/// How many node records the current thread's trace holds: one per living node, and those of the nodes dropped last
/// (at most [`DROPPED_KEPT`](crate::trace::DROPPED_KEPT)). Records of nodes dropped before those are let go, so a program
/// that keeps making and dropping nodes holds about as many as it has nodes alive. An untraced build holds none.
///
/// # Examples
///
/// ```
/// use ranvier::{create_root, trace, Signal};
///
/// let before = trace::records_held();
/// for i in 0..10_000 {
///     let ((), row) = create_root(|_| {
///         let _cell = Signal::new(i);
///     });
///     row.dispose();
/// }
/// assert!(trace::records_held() <= before + trace::DROPPED_KEPT + 64);
/// ```
pub fn records_held() -> usize {
    with_runtime(|rt| rt.tracer.records_held())
}

/// A copy of the events the current thread's ring holds, oldest first (none in an untraced build).
pub fn events() -> Vec<Event> {
    with_runtime(|rt| rt.tracer.events())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_slot_is_48_bytes() {
        // The README states the ring's memory from this size; texts are 12-byte refs into the text ring.
        assert_eq!(slot_bytes(), 48);
        assert_eq!(slot_bytes() + TEXT_BYTES_PER_EVENT, crate::graph::record::EVENT_BYTES);
        assert_eq!(std::mem::size_of::<Option<TextRef>>(), 12);
        assert_eq!(std::mem::size_of::<Option<ValueRef>>(), 16);
    }

    #[test]
    fn the_text_ring_keeps_recent_texts_across_its_end_and_drops_old_ones() {
        let mut ring = TextRing::new(VALUE_TEXT_CAP * 4);
        let first = ring.store("first");
        let mut last = first;
        for i in 0..200 {
            last = ring.store(&format!("text {i}"));
        }
        assert_eq!(ring.get(first), None, "the oldest text was overwritten");
        assert_eq!(ring.get(last).as_deref(), Some("text 199"));
        let bigger = ring.resized(VALUE_TEXT_CAP * 8);
        assert_eq!(bigger.get(last).as_deref(), Some("text 199"));
    }
}
