//! The traced build's log: the [`Tracer`] a graph's runtime holds, its node table, and what the queries read from it.
//! The event model is in `event.rs`, the bounded storage in `ring.rs`, the hooks the engine calls in `hooks.rs`.

use super::table::NodeTable;
use super::{EVENT_BYTES, initial_capacity};
use super::{Recordable, Scalar};
use crate::graph::{DynNodeRc, NodeId, NodeKind, WeakNode, with_runtime};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::fmt;
use std::num::NonZeroU64;
use std::panic::Location;
use std::rc::Rc;
use std::time::Duration;

mod event;
mod hooks;
mod ring;
mod site;
mod state;

pub use event::*;
pub use site::SiteRef;
pub(crate) use site::intern_file;
pub(crate) use state::TracerState;
use ring::{EventRing, Slot, TextRef, TextRing, ValueRef};

/// What the tracer keeps about a node: [`NodeRecord`] with its texts in the text ring.
#[derive(Clone, Debug)]
struct Rec {
    id: NodeId,
    kind: NodeKind,
    site: Loc,
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
    /// run's `RunEnd`, and its type's name; values that are not scalars only.
    cutoff_computed: Option<(u64, ValueRef, &'static str)>,
    last_moved: u64,
    last_write: u64,
    value: Option<ValueRef>,
    disposed: u64,
    untracked: Vec<(NodeId, u64, Option<Loc>)>,
    last_check: u64,
    last_schedule: u64,
    sources: SmallList<NodeId>,
    is_model: bool,
    first_mark_dirty: bool,
    /// Where `sources` were read, run-length coded: each entry is the index in `sources` from which reads were made
    /// at its site, up to the next entry's (a sum over a list reads thousands of sources at one line: one entry).
    read_sites: SmallList<(u32, Loc)>,
    moved_by: Option<(Writer, Loc)>,
    program_reads: Vec<(u64, Loc)>,
    disposed_at: Option<Loc>,
    custom_comparer: bool,
    update_fn: Option<&'static str>,
}

type Loc = SiteRef;

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
    #[cfg_attr(
        not(test),
        allow(
            dead_code,
            reason = "the census test compares the kept moved nodes with it"
        )
    )]
    pub last_moved: u64,
    /// What its last run read, in read order.
    pub sources: &'r [NodeId],
    /// Whether the program read it outside any memo or effect.
    pub program_read: bool,
    /// How many runs started.
    pub runs: u32,
    /// Its latest `RunEnd`.
    pub last_run_end: u64,
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
            sources: r.sources.as_slice(),
            program_read: !r.program_reads.is_empty(),
            runs: r.runs,
            last_run_end: r.last_run_end,
        }
    }
}

/// A list that holds one element inline: most memos read one source, at one line, and recording their first run
/// then allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) enum SmallList<T> {
    #[default]
    Empty,
    One(T),
    Many(Vec<T>),
}

impl<T: Copy> SmallList<T> {
    /// The elements, in order.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match self {
            SmallList::Empty => &[],
            SmallList::One(one) => std::slice::from_ref(one),
            SmallList::Many(many) => many,
        }
    }

    /// How many elements it holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// The last element.
    #[inline]
    pub fn last(&self) -> Option<&T> {
        self.as_slice().last()
    }

    /// Appends `item`.
    #[inline]
    pub fn push(&mut self, item: T) {
        match self {
            SmallList::Empty => *self = SmallList::One(item),
            SmallList::One(first) => *self = SmallList::Many(vec![*first, item]),
            SmallList::Many(many) => many.push(item),
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

impl Rec {
    /// The run read `source` at `site`, a new edge: appended to the sources, its site to the last run of sites
    /// when it is the same line (no hashing, no per-edge entry for a memo that reads a list at one line).
    #[inline]
    fn add_source(&mut self, source: NodeId, site: Loc) {
        let at = self.sources.len() as u32;
        self.sources.push(source);
        if !self
            .read_sites
            .last()
            .is_some_and(|(_, last)| *last == site)
        {
            self.read_sites.push((at, site));
        }
    }

    /// Each source with the line that read it, in read order.
    fn source_sites(&self) -> impl Iterator<Item = (NodeId, Loc)> + '_ {
        let mut runs = self.read_sites.as_slice().iter().peekable();
        let mut site = None;
        self.sources
            .as_slice()
            .iter()
            .enumerate()
            .filter_map(move |(i, source)| {
                while let Some((_, at)) = runs.next_if(|(start, _)| *start as usize <= i) {
                    site = Some(*at);
                }
                Some((*source, site?))
            })
    }

    /// Drops the edges from `removed` (each one's first occurrence in `sources`, as if removed one by one, with
    /// its read site) in one pass over the lists.
    fn remove_sources(&mut self, removed: &[NodeId]) {
        if removed.is_empty() {
            return;
        }
        let mut keep = vec![true; self.sources.len()];
        if removed.len() <= 2 {
            for source in removed {
                if let Some(i) = self
                    .sources
                    .as_slice()
                    .iter()
                    .enumerate()
                    .position(|(i, s)| s == source && keep[i])
                {
                    keep[i] = false;
                }
            }
        } else {
            let mut pending: IdMap<usize> =
                IdMap::with_capacity_and_hasher(removed.len(), Default::default());
            for source in removed {
                *pending.entry(*source).or_default() += 1;
            }
            for (i, s) in self.sources.as_slice().iter().enumerate() {
                if let Some(count) = pending.get_mut(s)
                    && *count > 0
                {
                    *count -= 1;
                    keep[i] = false;
                }
            }
        }
        let mut sources = SmallList::default();
        let mut sites: SmallList<(u32, Loc)> = SmallList::default();
        for ((source, site), kept) in self.source_sites().zip(keep) {
            if !kept {
                continue;
            }
            if !sites
                .last()
                .is_some_and(|(_, last)| *last == site)
            {
                sites.push((sources.len() as u32, site));
            }
            sources.push(source);
        }
        self.sources = sources;
        self.read_sites = sites;
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
    /// The last of `walkers` (the check walk running now, innermost), for `run_start`.
    walking: Cell<Option<NodeId>>,
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
    /// What ran in `#[node]`-built bodies and `#[trace_fn]` fns (branches, fns entered, shadowing `let` values), by
    /// node: the run it ran in (its `RunStart`) and the records, in the order first made (at most [`BRANCHES_KEPT`]
    /// a run).
    branches: RefCell<std::collections::HashMap<NodeId, (u64, Vec<Ran>)>>,
    /// The same records made while an `update` ran (outside any run that started after it), by message: the latest
    /// [`MESSAGES_RAN_KEPT`] messages, oldest first.
    message_branches: RefCell<std::collections::VecDeque<(u64, Vec<Ran>)>>,
    /// The model's `Debug` text before and after the latest [`MESSAGE_MODELS_KEPT`] messages' `update`s that
    /// moved it, oldest first (a text longer than [`MODEL_TEXT_MAX`] bytes is not kept; a dump does not carry them).
    message_models: RefCell<std::collections::VecDeque<ModelChange>>,
    /// Each model's `Debug` text before the first `update` that moved it (at most [`FIRST_MODELS_KEPT`] models): the
    /// model as it was made, kept after the ring of changes dropped that message.
    first_models: RefCell<Vec<(NodeId, Rc<str>)>>,
    /// The model's `Debug` text before and after the latest [`MESSAGE_MODELS_KEPT`] `update`s that returned a model
    /// the old one's `PartialEq` called equal although the two print differently, with the model they were to
    /// move, oldest first: the message left the model as it was, and its change was lost there.
    equal_models: RefCell<std::collections::VecDeque<EqualModel>>,
    /// The records of what ran outside any run and any `update` (a `#[node]` builder's branches: which fn value it
    /// chose), each once, at most [`BUILT_KEPT`].
    built: RefCell<Vec<Ran>>,
    /// The message whose `update` is running, and the clock when it started (`None` outside `update`).
    updating: Cell<Option<u64>>,
    /// The node whose run is dropping edges, and the sources dropped so far (see `hooks.rs`'s `edge_removed`).
    removing: RefCell<(Option<NodeId>, Vec<NodeId>)>,
    /// Nodes whose values are recorded as the redaction marker (an exposure's redacted values).
    redacted: RefCell<Vec<NodeId>>,
    /// Whether `redacted` holds any node: spares every recorded value a look at it when none is redacted.
    any_redacted: Cell<bool>,
    /// How many records the table holds by kind, kept as they change: a summary counts without reading a record.
    census: Cell<Census>,
    /// The nodes moved since the latest message started (all moved nodes before the first).
    moved: RefCell<MovedSet>,
    /// The `Timer` schedule event of each timed node whose timer waits.
    timers: RefCell<std::collections::HashMap<NodeId, u64>>,
    /// The `Timer` fire event whose write comes next: the cause of that write.
    timer_fired: Cell<u64>,
    /// What a log loaded from a dump answers in place of living nodes (`None` in a live one; see `state.rs`).
    loaded: RefCell<Option<Rc<state::Loaded>>>,
}

/// The table's records by kind, as [`GraphSummary`](crate::trace::GraphSummary) counts them: the living signals not
/// disposed, the memos and effects held (living or dropped) not disposed, and the disposed records held.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Census {
    pub signals: usize,
    pub memos: usize,
    pub effects: usize,
    pub disposed: usize,
}

impl Census {
    /// The count a held record of `kind` is in, disposed or not; a dropped signal not disposed is in none.
    fn slot(&mut self, kind: NodeKind, disposed: bool, living: bool) -> Option<&mut usize> {
        match (kind, disposed) {
            (_, true) => Some(&mut self.disposed),
            (NodeKind::Signal, false) if living => Some(&mut self.signals),
            (NodeKind::Signal, false) => None,
            (NodeKind::Memo, false) => Some(&mut self.memos),
            (NodeKind::Effect, false) => Some(&mut self.effects),
        }
    }

    fn add(&mut self, kind: NodeKind, disposed: bool, living: bool) {
        if let Some(count) = self.slot(kind, disposed, living) {
            *count += 1;
        }
    }

    fn remove(&mut self, kind: NodeKind, disposed: bool, living: bool) {
        if let Some(count) = self.slot(kind, disposed, living) {
            *count = count.saturating_sub(1);
        }
    }
}

/// A set of node ids, one bit each, that lists its members in id order and empties in time proportional to them.
#[derive(Default)]
pub(crate) struct MovedSet {
    bits: Vec<u64>,
    /// The words of `bits` that are not zero.
    set: Vec<u32>,
}

impl MovedSet {
    #[inline]
    fn insert(&mut self, id: NodeId) {
        let (word, bit) = (id.0 as usize / 64, id.0 % 64);
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let w = &mut self.bits[word];
        if *w == 0 {
            self.set.push(word as u32);
        }
        *w |= 1 << bit;
    }

    fn clear(&mut self) {
        for word in self.set.drain(..) {
            self.bits[word as usize] = 0;
        }
    }

    /// The members, in id order.
    fn ids(&self) -> Vec<NodeId> {
        let mut words = self.set.clone();
        words.sort_unstable();
        let mut out = Vec::new();
        for word in words {
            let mut bits = self.bits[word as usize];
            while bits != 0 {
                let bit = bits.trailing_zeros();
                out.push(NodeId(word * 64 + bit));
                bits &= bits - 1;
            }
        }
        out
    }
}

/// A dispatched message as the trace's table of messages keeps it, past the ring.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// One record of what ran, made by code `#[node]` or `#[trace_fn]` generated: a branch taken (`match` arm, `if` or
/// `else` block), a `#[trace_fn]` fn entered (its signature's line), a shadowing `let` (its line and the `Debug`
/// text of the value it bound, the latest when it ran more than once), a loop reached (its `for` or `while`
/// line, and whether its body ran at least once in the run), or an `unwrap_or` that gave its default (its line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    /// The file, as `file!()` spells it.
    pub file: &'static str,
    /// The line (1-based).
    pub line: u32,
    /// A shadowing `let`'s value (`Debug` text, at most [`RAN_VALUE_CHARS`] characters); `None` for a branch or a fn.
    pub value: Option<Rc<str>>,
    /// For a loop's record: whether its body ran at least once in the run (a loop reached whose body never ran is
    /// `Some(false)`); `None` for every other record.
    pub entered: Option<bool>,
    /// For an `unwrap_or`'s record (`unwrap_or`, `unwrap_or_default`, `unwrap_or_else`): it gave its default, the
    /// value it was called on being `None` or an `Err`, at least once in the run. `false` for every other record.
    pub defaulted: bool,
}

/// The kinds of [`Ran`] records a run or an `update` keeps apart: branches, fns and `let`s; loops; defaults taken.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Records {
    /// Branches taken, fns entered, shadowing `let`s.
    Branches,
    /// Loops reached ([`Ran::entered`]).
    Loops,
    /// `unwrap_or`s that gave their default ([`Ran::defaulted`]).
    Defaults,
}

impl Records {
    /// Whether `r` is a record of this kind.
    fn holds(self, r: &Ran) -> bool {
        let kind = if r.entered.is_some() {
            Records::Loops
        } else if r.defaulted {
            Records::Defaults
        } else {
            Records::Branches
        };
        kind == self
    }
}

/// How many characters of a `let`'s `Debug` text a record keeps (longer text ends in `…`).
pub const RAN_VALUE_CHARS: usize = 48;

/// How many messages' `update` records the trace keeps.
const MESSAGES_RAN_KEPT: usize = 64;

/// How many records made outside any run and `update` the trace keeps.
const BUILT_KEPT: usize = 1024;

/// How many messages' models (before and after their `update`) the trace keeps.
const MESSAGE_MODELS_KEPT: usize = 16;

/// The longest model `Debug` text the trace keeps for a message, in bytes: a larger model's change is not recorded.
const MODEL_TEXT_MAX: usize = 64 * 1024;

/// How many models' first texts the trace keeps.
const FIRST_MODELS_KEPT: usize = 8;

/// A message (its `Message` event) and the model's `Debug` text before and after its `update`.
type ModelChange = (u64, Rc<str>, Rc<str>);

/// An `update` whose model compared equal though it printed differently: the message, the model, its `Debug` text
/// before and after.
type EqualModel = (u64, NodeId, Rc<str>, Rc<str>);

/// How many branches of one run the trace keeps.
const BRANCHES_KEPT: usize = 32;

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
            walking: Cell::new(None),
            last_message: Cell::new(0),
            disposing: Cell::new(None),
            batches: RefCell::new(std::collections::VecDeque::new()),
            dispatches: RefCell::new(std::collections::VecDeque::new()),
            removing: RefCell::new((None, Vec::new())),
            redacted: RefCell::new(Vec::new()),
            any_redacted: Cell::new(false),
            polling: Cell::new(None),
            branches: RefCell::new(std::collections::HashMap::new()),
            message_branches: RefCell::new(std::collections::VecDeque::new()),
            message_models: RefCell::new(std::collections::VecDeque::new()),
            first_models: RefCell::new(Vec::new()),
            equal_models: RefCell::new(std::collections::VecDeque::new()),
            built: RefCell::new(Vec::new()),
            updating: Cell::new(None),
            flight_reads: RefCell::new(std::collections::VecDeque::new()),
            message_table: RefCell::new(std::collections::VecDeque::new()),
            census: Cell::new(Census::default()),
            moved: RefCell::new(MovedSet::default()),
            timers: RefCell::new(std::collections::HashMap::new()),
            timer_fired: Cell::new(0),
            loaded: RefCell::new(None),
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
        self.walking.set(None);
        self.last_message.set(0);
        self.disposing.set(None);
        self.batches.borrow_mut().clear();
        self.dispatches.borrow_mut().clear();
        *self.removing.borrow_mut() = (None, Vec::new());
        self.message_table.borrow_mut().clear();
        self.flight_reads.borrow_mut().clear();
        self.branches.borrow_mut().clear();
        self.census.set(Census::default());
        *self.moved.borrow_mut() = MovedSet::default();
        self.message_branches.borrow_mut().clear();
        self.message_models.borrow_mut().clear();
        self.first_models.borrow_mut().clear();
        self.equal_models.borrow_mut().clear();
        self.built.borrow_mut().clear();
        self.updating.set(None);
        self.timers.borrow_mut().clear();
        self.timer_fired.set(0);
        *self.loaded.borrow_mut() = None;
    }

    #[inline]
    fn push(&self, cause: u64, slot: Slot) -> u64 {
        let seq = self.clock.get() + 1;
        self.push_at(seq, cause, slot);
        seq
    }

    /// [`push`](Self::push) by a hook that read the clock at its start (`seq`, the clock plus one) and pushed nothing
    /// since: the clock is not read again (the hook's writes to the node table, through a pointer, made the compiler
    /// load it a second time). Inlined always where optimised; a call in the dev profile, whose unoptimised frames
    /// would otherwise each hold its locals (a deep chain's first run, read recursively, overflowed a test's stack).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn push_at(&self, seq: u64, cause: u64, slot: Slot) {
        debug_assert_eq!(seq, self.clock.get() + 1, "an event pushed since the hook read the clock");
        self.clock.set(seq);
        self.events.push(cause, slot);
    }

    /// Records `node`'s values as the redaction marker from now on (an exposure's redacted values).
    #[cfg_attr(not(feature = "exposure"), allow(dead_code))]
    pub fn redact(&self, node: NodeId) {
        self.redacted.borrow_mut().push(node);
        self.any_redacted.set(true);
    }

    /// Records `node`'s value: [`capture`](Self::capture)d, or the redaction marker for a redacted node.
    #[inline]
    fn capture_of<V: Recordable + ?Sized>(&self, node: NodeId, value: &V) -> ValueRef {
        if self.any_redacted.get() && self.redacted.borrow().contains(&node) {
            return ValueRef::Text(self.store(crate::text::REDACTED));
        }
        self.capture(value)
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

    /// The node table, mutably, for `f` to read and write records in place: its borrow flag is tested (a borrow
    /// held elsewhere panics, as `borrow_mut` would) but not written. `f` must be a leaf: it runs no code that could
    /// reach the table (no program code, no formatting of values, no hook), so no other borrow can start while the
    /// reference lives. Every traced mark and run start passes here: the flag's two writes were 4 of their
    /// instructions.
    #[inline(always)]
    fn with_table_leaf<R>(&self, f: impl FnOnce(&mut NodeTable<Rec>) -> R) -> R {
        // A borrow that ends at once: the flag test `borrow_mut` makes (a write borrow needs no other borrow), whose
        // two writes cancel out.
        drop(self.nodes.try_borrow_mut().expect("nodes"));
        // SAFETY: no borrow of the table is held (tested above), and `f` is a leaf (above): nothing can borrow it
        // while `f` runs, and the tracer is `!Sync`.
        f(unsafe { &mut *self.nodes.as_ptr() })
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
        let live = || self.value_now(rec.id).map(|t| Rc::from(t.as_str()));
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
                .and_then(|(seq, t, _)| Some((seq, self.value_text(t)?))),
            cutoff_type: rec.cutoff_computed.map(|(_, _, ty)| ty),
            last_moved: rec.last_moved,
            last_write: rec.last_write,
            value: rec.value.map(|t| text(t, u64::MAX)),
            disposed: rec.disposed,
            untracked: rec.untracked.clone(),
            last_check: rec.last_check,
            last_schedule: rec.last_schedule,
            sources: rec.sources.as_slice().to_vec(),
            is_model: rec.is_model,
            first_mark_dirty: rec.first_mark_dirty,
            read_sites: rec.source_sites().collect(),
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

    /// The text of the latest value recorded for node `id` (what its copied record's `value` holds), read in place.
    pub(crate) fn recorded_value(&self, id: NodeId) -> Option<Rc<str>> {
        let value = self.nodes.borrow().get_held(id)?.value?;
        Some(self.value_text(value).unwrap_or_else(|| {
            self.value_now(id).map_or_else(
                || Rc::from("(text older than the trace ring)"),
                |t| Rc::from(t.as_str()),
            )
        }))
    }

    /// Whether the table holds node `id`'s record (a living node's, else a dropped one's), read from the table's
    /// occupancy bits, not from the record.
    pub(crate) fn holds(&self, id: NodeId) -> bool {
        self.nodes.borrow().holds(id)
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

    /// How many records the table holds by kind (see [`Census`]), kept as the table changes.
    pub(crate) fn census(&self) -> Census {
        self.census.get()
    }

    /// The nodes that moved since the latest message started (every node that moved, before the first) whose
    /// records the table holds, in id order: found without reading the table.
    pub(crate) fn moved_since_message(&self) -> Vec<NodeId> {
        let nodes = self.nodes.borrow();
        let mut ids = self.moved.borrow().ids();
        ids.retain(|id| nodes.holds(*id));
        ids
    }

    /// Node `id` moved (a write or a run that changed its value).
    #[inline]
    fn note_moved(&self, id: NodeId) {
        self.moved.borrow_mut().insert(id);
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

    /// The first message the table of messages holds that was dispatched to `target` (its `Message` event).
    pub fn first_message_to(&self, target: NodeId) -> Option<u64> {
        self.message_table
            .borrow()
            .iter()
            .find(|m| m.target == target)
            .map(|m| m.seq)
    }

    /// The messages the table of messages holds that were dispatched to `target`, oldest first (their `Message`
    /// events).
    pub fn messages_to(&self, target: NodeId) -> Vec<u64> {
        self.message_table
            .borrow()
            .iter()
            .filter(|m| m.target == target)
            .map(|m| m.seq)
            .collect()
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

    /// What ran in `node`'s latest run (in a body `#[node]` built, and `#[trace_fn]` fns it called), in the order
    /// first recorded.
    pub fn branches_of(&self, node: NodeId) -> Vec<Ran> {
        self.run_records(node, Records::Branches)
    }

    /// The loops `node`'s latest run reached (in a body `#[node]` built, and `#[trace_fn]` fns it called), each with
    /// whether its body ran ([`Ran::entered`]), in the order first reached.
    pub fn loops_of(&self, node: NodeId) -> Vec<Ran> {
        self.run_records(node, Records::Loops)
    }

    /// The `unwrap_or`s whose default `node`'s latest run took (in a body `#[node]` built, and `#[trace_fn]` fns it
    /// called), in the order first taken.
    pub fn defaults_of(&self, node: NodeId) -> Vec<Ran> {
        self.run_records(node, Records::Defaults)
    }

    /// The records of `node`'s latest run of one kind.
    fn run_records(&self, node: NodeId, kind: Records) -> Vec<Ran> {
        let run = self.node_field(node, |n| n.last_run_start);
        self.branches
            .borrow()
            .get(&node)
            .filter(|(at, _)| *at == run)
            .map(|(_, taken)| taken.iter().filter(|r| kind.holds(r)).cloned().collect())
            .unwrap_or_default()
    }

    /// What ran while message `seq`'s `update` ran (`#[trace_fn]` fns, their branches and shadowing `let`s), in the
    /// order first recorded; empty when nothing was recorded or the message is too old.
    pub fn ran_for_message(&self, seq: u64) -> Vec<Ran> {
        self.message_records(seq, Records::Branches)
    }

    /// The loops message `seq`'s `update` reached (in `#[trace_fn]` fns), each with whether its body ran
    /// ([`Ran::entered`]), in the order first reached; empty when none was recorded or the message is too old.
    pub fn loops_for_message(&self, seq: u64) -> Vec<Ran> {
        self.message_records(seq, Records::Loops)
    }

    /// The `unwrap_or`s whose default message `seq`'s `update` took (in `#[trace_fn]` fns), in the order first
    /// taken; empty when none was recorded or the message is too old.
    pub fn defaults_for_message(&self, seq: u64) -> Vec<Ran> {
        self.message_records(seq, Records::Defaults)
    }

    /// The records of message `seq`'s `update` of one kind.
    fn message_records(&self, seq: u64, kind: Records) -> Vec<Ran> {
        self.message_branches
            .borrow()
            .iter()
            .find(|(m, _)| *m == seq)
            .map(|(_, taken)| taken.iter().filter(|r| kind.holds(r)).cloned().collect())
            .unwrap_or_default()
    }

    /// The records made outside any run and any `update` (a `#[node]` builder's branches), in the order first made.
    pub fn built_branches(&self) -> Vec<Ran> {
        self.built.borrow().clone()
    }

    /// The model's `Debug` text before and after message `seq`'s `update`, when the message moved it and is among
    /// the latest [`MESSAGE_MODELS_KEPT`] that did.
    pub fn model_change(&self, seq: u64) -> Option<(Rc<str>, Rc<str>)> {
        self.message_models
            .borrow()
            .iter()
            .find(|(m, _, _)| *m == seq)
            .map(|(_, before, after)| (before.clone(), after.clone()))
    }

    /// The model's `Debug` texts before and after the `update` of each of `messages` (oldest first) that moved it,
    /// as far as the trace still keeps them.
    pub fn model_changes_of(&self, messages: &[u64]) -> Vec<(Rc<str>, Rc<str>)> {
        self.message_models
            .borrow()
            .iter()
            .filter(|(m, _, _)| messages.contains(m))
            .map(|(_, before, after)| (before.clone(), after.clone()))
            .collect()
    }

    /// The updates that returned a model equal to model `target`'s (by its `PartialEq`) that prints differently,
    /// latest first, as far as the trace keeps them: each message, and the model's `Debug` text before and after.
    pub fn equal_models_of(&self, target: NodeId) -> Vec<(u64, Rc<str>, Rc<str>)> {
        self.equal_models
            .borrow()
            .iter()
            .rev()
            .filter(|(_, t, _, _)| *t == target)
            .map(|(m, _, before, after)| (*m, before.clone(), after.clone()))
            .collect()
    }

    /// The `Debug` text of model `target` before the first `update` that moved it: the model as it was made.
    pub fn first_model(&self, target: NodeId) -> Option<Rc<str>> {
        self.first_models.borrow().iter().find(|(t, _)| *t == target).map(|(_, text)| text.clone())
    }

    /// The messages dispatched as commands of message `seq` (its `update`'s, `Mvu::with_commands`), in order, as far
    /// as the table of messages still holds them.
    pub fn commands_of(&self, seq: u64) -> Vec<KeptMessage> {
        let table = self.message_table.borrow();
        let after = table.partition_point(|m| m.seq <= seq);
        table
            .range(after..)
            .filter(|m| m.cause == seq)
            .cloned()
            .collect()
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

/// `value`'s `Debug` text, at most [`RAN_VALUE_CHARS`] characters (cut with `…`): formatting stops there, so a long
/// value costs no more than a short one.
pub(crate) fn bounded_debug(value: &dyn std::fmt::Debug) -> String {
    struct Bounded(String, usize);
    impl std::fmt::Write for Bounded {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            for c in s.chars() {
                if self.1 == RAN_VALUE_CHARS {
                    self.0.push('…');
                    return Err(std::fmt::Error);
                }
                self.0.push(c);
                self.1 += 1;
            }
            Ok(())
        }
    }
    let mut out = Bounded(String::new(), 0);
    let _ = std::fmt::write(&mut out, format_args!("{value:?}"));
    out.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_slot_is_48_bytes() {
        // The README states the ring's memory from this size; texts are 12-byte refs into the text ring.
        assert_eq!(slot_bytes(), 48);
        assert_eq!(
            slot_bytes() + TEXT_BYTES_PER_EVENT,
            crate::graph::record::EVENT_BYTES
        );
        assert_eq!(std::mem::size_of::<Option<TextRef>>(), 12);
        assert_eq!(std::mem::size_of::<Option<ValueRef>>(), 16);
    }

    #[test]
    fn the_event_ring_keeps_the_latest_slots_in_order_across_its_end_and_its_resizes() {
        let causes = |ring: &EventRing| -> Vec<u64> {
            (0..ring.len())
                .map(|i| ring.get(i).expect("held").0)
                .collect()
        };
        let ring = EventRing::new(3);
        assert_eq!(ring.len(), 0);
        assert!(ring.get(0).is_none());
        for cause in 1..=2 {
            ring.push(cause, Slot::FlushStart { flush: 0 });
        }
        assert_eq!(causes(&ring), [1, 2], "filling");
        for cause in 3..=7 {
            ring.push(cause, Slot::FlushStart { flush: 0 });
        }
        assert_eq!(causes(&ring), [5, 6, 7], "wrapped past its end");
        ring.set_capacity(5);
        assert_eq!(causes(&ring), [5, 6, 7], "grown");
        for cause in 8..=10 {
            ring.push(cause, Slot::FlushStart { flush: 0 });
        }
        assert_eq!(causes(&ring), [6, 7, 8, 9, 10], "filled and wrapped after growing");
        ring.set_capacity(2);
        assert_eq!(causes(&ring), [9, 10], "shrunk");
        ring.push(11, Slot::FlushStart { flush: 0 });
        assert_eq!(causes(&ring), [10, 11]);
        ring.clear();
        assert_eq!(ring.len(), 0);
        ring.push(12, Slot::FlushStart { flush: 0 });
        assert_eq!(causes(&ring), [12], "cleared");
    }

    #[test]
    fn a_loop_s_records_say_whether_its_body_ran_in_any_pass_and_stay_apart_from_the_branches() {
        let tracer = Tracer::new();
        // outside any run and `update`: a branch is a builder's, a loop is nothing
        tracer.loop_ran(None, "shop.rs", 3, false);
        tracer.branch_ran(None, "shop.rs", 4, None);
        assert_eq!(
            tracer.built_branches().iter().map(|r| r.line).collect::<Vec<_>>(),
            [4]
        );
        // in an `update`: left three times, its body run in the second pass only
        tracer.update_running(Some(9));
        tracer.loop_ran(None, "shop.rs", 3, false);
        tracer.branch_ran(None, "shop.rs", 5, None);
        tracer.loop_ran(None, "shop.rs", 3, true);
        tracer.loop_ran(None, "shop.rs", 3, false);
        tracer.loop_ran(None, "shop.rs", 7, false);
        tracer.update_running(None);
        let loops: Vec<(u32, Option<bool>)> = tracer.loops_for_message(9).iter().map(|r| (r.line, r.entered)).collect();
        assert_eq!(loops, [(3, Some(true)), (7, Some(false))]);
        let branches: Vec<u32> = tracer.ran_for_message(9).iter().map(|r| r.line).collect();
        assert_eq!(branches, [5]);
    }

    #[test]
    fn a_default_taken_is_kept_once_apart_from_the_branches_and_the_loops() {
        let tracer = Tracer::new();
        // outside any run and `update`: nothing
        tracer.default_taken(None, "shop.rs", 2);
        assert!(tracer.built_branches().is_empty());
        tracer.update_running(Some(4));
        tracer.default_taken(None, "shop.rs", 6);
        tracer.branch_ran(None, "shop.rs", 5, None);
        tracer.default_taken(None, "shop.rs", 6);
        tracer.loop_ran(None, "shop.rs", 3, true);
        tracer.update_running(None);
        let defaults: Vec<(u32, bool)> = tracer.defaults_for_message(4).iter().map(|r| (r.line, r.defaulted)).collect();
        assert_eq!(defaults, [(6, true)]);
        assert_eq!(tracer.ran_for_message(4).iter().map(|r| r.line).collect::<Vec<_>>(), [5]);
        assert_eq!(tracer.loops_for_message(4).iter().map(|r| r.line).collect::<Vec<_>>(), [3]);
        // records of each kind on one line stay apart: a `let` that takes a default (`let x = x.unwrap_or(0);`),
        // a loop over one (`for x in xs.unwrap_or_default() {`)
        tracer.update_running(Some(8));
        tracer.default_taken(None, "shop.rs", 9);
        tracer.branch_ran(None, "shop.rs", 9, Some(&0));
        tracer.default_taken(None, "shop.rs", 10);
        tracer.loop_ran(None, "shop.rs", 10, false);
        tracer.update_running(None);
        let lines = |records: Vec<Ran>| records.iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!(lines(tracer.defaults_for_message(8)), [9, 10]);
        assert_eq!(lines(tracer.ran_for_message(8)), [9]);
        assert_eq!(tracer.ran_for_message(8)[0].value.as_deref(), Some("0"));
        assert_eq!(lines(tracer.loops_for_message(8)), [10]);
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

