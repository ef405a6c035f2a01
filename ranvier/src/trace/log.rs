//! The traced build's log: the event ring, the node table, and the hooks the engine calls.

use super::DEFAULT_CAPACITY;
use super::table::NodeTable;
use super::{Recordable, Scalar};
use crate::graph::{NodeId, NodeKind, NodeRef, WeakNode, with_runtime};
use std::cell::{Cell, RefCell, UnsafeCell};
use std::fmt;
use std::num::NonZeroU64;
use std::panic::Location;
use std::rc::Rc;

/// One entry of the trace log.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The sequence number, from 1, per graph.
    pub seq: u64,
    /// The sequence number of the event that caused this one, or 0 when it has no recorded cause.
    pub cause: u64,
    /// What happened.
    pub kind: EventKind,
}

/// Who wrote a signal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Writer {
    /// The program, outside any computation or message.
    Program,
    /// The `update` of a dispatched message (the `Message` event's sequence number).
    Message(u64),
    /// A running memo or effect.
    Computation(NodeId),
}

/// What an [`Event`] records.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A node was created. `run` is the sequence number of the creating run's `RunStart` (0 outside any run).
    NodeNew {
        /// The new node.
        node: NodeId,
        /// Its kind.
        kind: NodeKind,
        /// The memo or effect whose run created it, if any.
        owner: Option<NodeId>,
        /// The creating run's `RunStart`, or 0.
        run: u64,
    },
    /// A node was given a label.
    Label {
        /// The node.
        node: NodeId,
        /// The label.
        label: Rc<str>,
    },
    /// A signal was written.
    Write {
        /// The signal.
        node: NodeId,
        /// Who wrote it.
        by: Writer,
        /// Whether the value changed (an equal write changes nothing).
        moved: bool,
        /// The written value's `Debug` text.
        value: Rc<str>,
    },
    /// A computation was marked stale by a source.
    Mark {
        /// The computation marked.
        node: NodeId,
        /// The source that notified it.
        source: NodeId,
        /// `true` for dirty (the source moved), `false` for check (something above may have moved).
        dirty: bool,
    },
    /// An effect was queued.
    Schedule {
        /// The effect.
        node: NodeId,
    },
    /// A computation started asking its sources whether it must re-run.
    CheckStart {
        /// The computation.
        node: NodeId,
    },
    /// A check walk ended.
    CheckResolved {
        /// The computation.
        node: NodeId,
        /// The source that moved (the computation will run), or `None`: checked clean.
        dirty_source: Option<NodeId>,
    },
    /// A memo or effect started a run.
    RunStart {
        /// The computation.
        node: NodeId,
        /// Its run number, from 1.
        run: u32,
        /// The computation whose read or check walk pulled it, if any.
        puller: Option<NodeId>,
    },
    /// A run ended.
    RunEnd {
        /// The computation.
        node: NodeId,
        /// Whether its value moved (always `false` for effects; `false` after a memo's re-run is a cutoff).
        moved: bool,
        /// The panic message, if the body panicked.
        error: Option<Rc<str>>,
        /// The memo's value after the run, as `Debug` text.
        value: Option<Rc<str>>,
    },
    /// An effect was stopped for re-running without end.
    Stopped {
        /// The effect.
        node: NodeId,
        /// The error recorded.
        message: Rc<str>,
    },
    /// A flush of queued effects started.
    FlushStart {
        /// The flush number.
        flush: u32,
    },
    /// A flush ended.
    FlushEnd {
        /// The flush number.
        flush: u32,
    },
    /// A batch opened.
    BatchEnter {
        /// Its depth (1 for the outermost).
        depth: u32,
    },
    /// A batch closed.
    BatchExit {
        /// The depth left open (0 when the outermost closed).
        depth: u32,
    },
    /// A node was disposed.
    Dispose {
        /// The node.
        node: NodeId,
    },
    /// A message was dispatched to an `Mvu`: the root cause of the writes its `update` makes.
    Message {
        /// The `Mvu`'s model signal.
        target: NodeId,
        /// The message's name.
        name: Rc<str>,
        /// Its arguments' text.
        args: Rc<str>,
    },
    /// A computation read a new source.
    EdgeAdd {
        /// The reader.
        node: NodeId,
        /// The source.
        source: NodeId,
    },
    /// A computation stopped reading a source.
    EdgeRemove {
        /// The reader.
        node: NodeId,
        /// The source.
        source: NodeId,
    },
    /// A node was read without tracking (`peek`), by a running computation or by the program (`node` is `None`).
    UntrackedRead {
        /// The reader, if a computation was running.
        node: Option<NodeId>,
        /// The node read.
        source: NodeId,
    },
}

/// The longest value text an event stores, in bytes; longer values are cut and end with `…`.
pub const VALUE_TEXT_CAP: usize = 256;

/// What the log keeps about every node, whatever the ring drops.
#[derive(Clone, Debug)]
pub struct NodeRecord {
    /// The node.
    pub id: NodeId,
    /// Its kind.
    pub kind: NodeKind,
    /// Where it was created.
    pub site: &'static Location<'static>,
    /// Its label, if any.
    pub label: Option<Rc<str>>,
    /// The computation whose run created it.
    pub owner: Option<NodeId>,
    /// The `NodeNew` event.
    pub created: u64,
    /// The creating run's `RunStart`, or 0.
    pub creating_run: u64,
    /// The latest `Mark` of this node.
    pub last_mark: u64,
    /// The first `Mark` since its last run started (the cause of its next run).
    pub first_mark_since_run: u64,
    /// Its latest `RunStart`.
    pub last_run_start: u64,
    /// Its latest `RunEnd`.
    pub last_run_end: u64,
    /// How many runs started.
    pub runs: u32,
    /// Its latest `RunEnd` that kept the value (a cutoff), with the value kept.
    pub last_cutoff: Option<(u64, Rc<str>)>,
    /// The cutoff before that one.
    pub previous_cutoff: Option<(u64, Rc<str>)>,
    /// Its latest `Write` that moved it (signals) or `RunEnd` that moved it (memos).
    pub last_moved: u64,
    /// Its latest write of any kind (signals).
    pub last_write: u64,
    /// The latest value text recorded.
    pub value: Option<Rc<str>>,
    /// Its `Dispose` event, if disposed.
    pub disposed: u64,
    /// Nodes it read untracked during its last run, with the event and the line that read (traced builds record
    /// the caller of `peek`, `with_untracked`, and of any read inside `untrack`).
    pub untracked: Vec<(NodeId, u64, Option<&'static Location<'static>>)>,
    /// Its latest `CheckResolved`.
    pub last_check: u64,
    /// Its latest `Schedule`.
    pub last_schedule: u64,
    /// The sources its last run read, in read order (what the engine holds; kept after the node is dropped).
    pub sources: Vec<NodeId>,
    /// Whether it is the model signal of an [`Mvu`](crate::Mvu) that received a message.
    pub is_model: bool,
    /// Whether `first_mark_since_run` marked it dirty (not check).
    pub first_mark_dirty: bool,
    /// Where each of its sources was first read (the line of the `get` or `with` call), by source.
    pub read_sites: Vec<(NodeId, &'static Location<'static>)>,
    /// Who made its latest write that moved it (signals), and the line of that `set`, `update` or `write` call.
    pub moved_by: Option<(Writer, &'static Location<'static>)>,
    /// Where the program read it outside any memo or effect, with the clock when it did: the first distinct lines,
    /// at most [`PROGRAM_READS_KEPT`].
    pub program_reads: Vec<(u64, &'static Location<'static>)>,
    /// Where the disposal that disposed it was called.
    pub disposed_at: Option<&'static Location<'static>>,
    /// Whether it was made with a comparer of the program's (`with_comparer`).
    pub custom_comparer: bool,
    /// For an `Mvu`'s model: the type name of its `update` (`app::update`, or a closure's `app::main::{{closure}}`).
    pub update_fn: Option<&'static str>,
}

/// How many distinct lines of program reads (reads outside any memo or effect) the trace keeps per node.
pub const PROGRAM_READS_KEPT: usize = 4;

/// Where a text lives in the tracer's text ring: its absolute byte offset (from 1, so `Option<TextRef>` needs no
/// extra word) and its length. Packed to 12 bytes so that an event slot stays at 48.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C, packed(4))]
struct TextRef {
    at: NonZeroU64,
    len: u32,
}

/// A byte ring the texts of events (values, labels, messages, errors) are formatted straight into. An event keeps
/// only a [`TextRef`], so recording a value allocates nothing; a text older than the ring's size is gone, and reads
/// as `None`.
struct TextRing {
    bytes: Vec<u8>,
    /// The next text's absolute offset: 1 plus the bytes written since the start.
    pos: u64,
}

impl TextRing {
    fn new(size: usize) -> Self {
        TextRing {
            bytes: vec![0; size.max(VALUE_TEXT_CAP * 4)],
            pos: 1,
        }
    }

    fn push_bytes(&mut self, mut s: &[u8]) {
        let size = self.bytes.len();
        while !s.is_empty() {
            let at = (self.pos % size as u64) as usize;
            let n = s.len().min(size - at);
            self.bytes[at..at + n].copy_from_slice(&s[..n]);
            self.pos += n as u64;
            s = &s[n..];
        }
    }

    /// Formats `value` (its `Debug` text, cut at [`VALUE_TEXT_CAP`] bytes) into the ring.
    fn format(&mut self, value: &dyn fmt::Debug) -> TextRef {
        let at = NonZeroU64::new(self.pos).expect("text positions start at 1");
        let mut writer = RingWriter {
            ring: self,
            written: 0,
            full: false,
        };
        let _ = fmt::write(&mut writer, format_args!("{value:?}"));
        if writer.full {
            writer.ring.push_bytes("…".as_bytes());
        }
        TextRef {
            at,
            len: (self.pos - at.get()) as u32,
        }
    }

    /// Stores `text` (cut at [`VALUE_TEXT_CAP`] bytes) in the ring.
    fn store(&mut self, text: &str) -> TextRef {
        self.format(&DisplayAsDebug(text))
    }

    /// A larger ring holding the same texts at the same absolute offsets.
    fn resized(&self, size: usize) -> TextRing {
        let held = (self.bytes.len() as u64).min(self.pos - 1);
        let start = self.pos - held;
        let mut ring = TextRing::new(size);
        ring.pos = start;
        if let Some(text) = NonZeroU64::new(start).and_then(|at| {
            self.get(TextRef {
                at,
                len: held as u32,
            })
        }) {
            ring.push_bytes(text.as_bytes());
        }
        ring
    }

    /// The text, if the ring still holds it.
    fn get(&self, text: TextRef) -> Option<Rc<str>> {
        let size = self.bytes.len() as u64;
        let (start, len) = (text.at.get(), text.len);
        if start + size < self.pos {
            return None;
        }
        let mut out = Vec::with_capacity(len as usize);
        let mut at = start;
        let end = start + u64::from(len);
        while at < end {
            let i = (at % size) as usize;
            let n = ((end - at) as usize).min(self.bytes.len() - i);
            out.extend_from_slice(&self.bytes[i..i + n]);
            at += n as u64;
        }
        Some(Rc::from(String::from_utf8_lossy(&out).as_ref()))
    }
}

/// Formats a `str` without quotes through `{:?}`.
struct DisplayAsDebug<'a>(&'a str);

impl fmt::Debug for DisplayAsDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A writer into the text ring that stops (with an error, which ends the formatting) at [`VALUE_TEXT_CAP`] bytes.
struct RingWriter<'a> {
    ring: &'a mut TextRing,
    written: usize,
    full: bool,
}

impl fmt::Write for RingWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = VALUE_TEXT_CAP - self.written;
        if s.len() <= room {
            self.ring.push_bytes(s.as_bytes());
            self.written += s.len();
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.ring.push_bytes(&s.as_bytes()[..end]);
        self.written += end;
        self.full = true;
        Err(fmt::Error)
    }
}

/// A recorded value: common scalars as they are (formatted only when an answer reads them), anything else as its
/// `Debug` text in the text ring.
#[derive(Copy, Clone, Debug)]
enum ValueRef {
    Text(TextRef),
    I64(i64),
    U64(u64),
    F64(f64),
    F32(f32),
    Bool(bool),
}

/// An event as the ring holds it: like [`EventKind`], with texts as [`TextRef`]s, so a slot is plain data.
#[derive(Copy, Clone, Debug)]
enum Slot {
    NodeNew {
        node: NodeId,
        kind: NodeKind,
        owner: Option<NodeId>,
        run: u64,
    },
    Label {
        node: NodeId,
        label: TextRef,
    },
    Write {
        node: NodeId,
        by: Writer,
        moved: bool,
        value: ValueRef,
    },
    Mark {
        node: NodeId,
        source: NodeId,
        dirty: bool,
    },
    Schedule {
        node: NodeId,
    },
    CheckStart {
        node: NodeId,
    },
    CheckResolved {
        node: NodeId,
        dirty_source: Option<NodeId>,
    },
    RunStart {
        node: NodeId,
        run: u32,
        puller: Option<NodeId>,
    },
    RunEnd {
        node: NodeId,
        moved: bool,
        error: Option<TextRef>,
        value: Option<ValueRef>,
    },
    Stopped {
        node: NodeId,
        message: TextRef,
    },
    FlushStart {
        flush: u32,
    },
    FlushEnd {
        flush: u32,
    },
    BatchEnter {
        depth: u32,
    },
    BatchExit {
        depth: u32,
    },
    Dispose {
        node: NodeId,
    },
    Message {
        target: NodeId,
        name: TextRef,
        args: TextRef,
    },
    EdgeAdd {
        node: NodeId,
        source: NodeId,
    },
    EdgeRemove {
        node: NodeId,
        source: NodeId,
    },
    UntrackedRead {
        node: Option<NodeId>,
        source: NodeId,
    },
}

/// The ring of recent events: a fixed-size buffer of plain slots, overwritten oldest first.
///
/// Every method takes `&self` and copies slots in or out: no reference into the buffer outlives a call, and no call
/// runs other code while it holds one, so the buffer needs no borrow flag (it is `!Sync` through `UnsafeCell`). This
/// keeps a push, which every traced step makes, to a store and an index update.
struct EventRing {
    slots: UnsafeCell<Vec<(u64, Slot)>>,
    /// Where the next slot goes: the end while the ring fills, then the oldest slot.
    head: Cell<usize>,
    capacity: Cell<usize>,
}

impl EventRing {
    fn new(capacity: usize) -> Self {
        EventRing {
            slots: UnsafeCell::new(Vec::new()),
            head: Cell::new(0),
            capacity: Cell::new(capacity.max(1)),
        }
    }

    /// Runs `f` on the buffer. `f` is one of this type's own leaf operations (see the type's docs).
    #[inline(always)]
    fn with<R>(&self, f: impl FnOnce(&mut Vec<(u64, Slot)>) -> R) -> R {
        // SAFETY: the ring is `!Sync`, and the reference lives only inside `f`, which never re-enters the ring.
        f(unsafe { &mut *self.slots.get() })
    }

    #[inline]
    fn push(&self, cause: u64, slot: Slot) {
        let head = self.head.get();
        self.with(|slots| {
            if let Some(at) = slots.get_mut(head) {
                *at = (cause, slot);
                let next = head + 1;
                self.head
                    .set(if next == self.capacity.get() { 0 } else { next });
            } else {
                self.grow(slots, cause, slot);
            }
        });
    }

    /// Appends while the ring is still filling.
    #[cold]
    fn grow(&self, slots: &mut Vec<(u64, Slot)>, cause: u64, slot: Slot) {
        slots.push((cause, slot));
        let next = slots.len();
        self.head
            .set(if next == self.capacity.get() { 0 } else { next });
    }

    fn len(&self) -> usize {
        self.with(|slots| slots.len())
    }

    /// The `i`-th oldest slot held.
    fn get(&self, i: usize) -> Option<(u64, Slot)> {
        self.with(|slots| {
            if i >= slots.len() {
                return None;
            }
            let at = if slots.len() < self.capacity.get() {
                i
            } else {
                (self.head.get() + i) % self.capacity.get()
            };
            slots.get(at).copied()
        })
    }

    fn capacity(&self) -> usize {
        self.capacity.get()
    }

    fn clear(&self) {
        self.with(Vec::clear);
        self.head.set(0);
    }

    fn set_capacity(&self, capacity: usize) {
        let held: Vec<(u64, Slot)> = (0..self.len()).filter_map(|i| self.get(i)).collect();
        let capacity = capacity.max(1);
        let skip = held.len().saturating_sub(capacity);
        let kept: Vec<(u64, Slot)> = held.into_iter().skip(skip).collect();
        let next = kept.len();
        self.with(|slots| *slots = kept);
        self.capacity.set(capacity);
        self.head.set(if next == capacity { 0 } else { next });
    }
}

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
    moved_by: Option<(Writer, Loc)>,
    program_reads: Vec<(u64, Loc)>,
    disposed_at: Option<Loc>,
    custom_comparer: bool,
    update_fn: Option<&'static str>,
}

type Loc = &'static Location<'static>;

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
}

/// How many outermost batches (and messages dispatched by memos and effects) the trace remembers the call sites of.
const BATCH_SITES_KEPT: usize = 256;

impl Tracer {
    pub fn new() -> Self {
        Tracer {
            clock: Cell::new(0),
            events: EventRing::new(DEFAULT_CAPACITY),
            texts: RefCell::new(TextRing::new(DEFAULT_CAPACITY * TEXT_BYTES_PER_EVENT)),
            nodes: RefCell::new(NodeTable::new()),
            notifier: Cell::new(0),
            messages: RefCell::new(Vec::new()),
            walkers: RefCell::new(Vec::new()),
            last_message: Cell::new(0),
            disposing: Cell::new(None),
            batches: RefCell::new(std::collections::VecDeque::new()),
            dispatches: RefCell::new(std::collections::VecDeque::new()),
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
        self.messages.borrow_mut().clear();
        self.walkers.borrow_mut().clear();
        self.last_message.set(0);
        self.disposing.set(None);
        self.batches.borrow_mut().clear();
        self.dispatches.borrow_mut().clear();
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

    pub fn node_new(
        &self,
        id: NodeId,
        kind: NodeKind,
        site: &'static Location<'static>,
        owner: Option<NodeId>,
        running: Option<NodeId>,
        live: impl FnOnce() -> WeakNode,
    ) {
        let creating_run = running.map_or(0, |r| self.node_field(r, |n| n.last_run_start));
        let seq = self.push(
            creating_run,
            Slot::NodeNew {
                node: id,
                kind,
                owner,
                run: creating_run,
            },
        );
        let record = Rec {
            id,
            kind,
            site,
            label: None,
            owner,
            created: seq,
            creating_run,
            last_mark: 0,
            first_mark_since_run: 0,
            last_run_start: 0,
            last_run_end: 0,
            runs: 0,
            last_cutoff: None,
            previous_cutoff: None,
            last_moved: 0,
            last_write: 0,
            value: None,
            disposed: 0,
            untracked: Vec::new(),
            last_check: 0,
            last_schedule: 0,
            sources: Vec::new(),
            is_model: false,
            first_mark_dirty: false,
            read_sites: Vec::new(),
            moved_by: None,
            program_reads: Vec::new(),
            disposed_at: None,
            custom_comparer: false,
            update_fn: None,
        };
        self.nodes.borrow_mut().insert(id, record, live());
    }

    /// Node `id`, at `node`, is being dropped: let go of its weak handle, so that its block goes back to the pool
    /// now (the handle could no longer be upgraded), and move its record to the table's ring of dropped nodes (see
    /// [`table`](super::table)). An id of a graph since disposed may name a newer node: only this very node's record
    /// moves.
    pub fn node_dropped(&self, id: NodeId, node: *const ()) {
        if let Ok(mut nodes) = self.nodes.try_borrow_mut() {
            nodes.dropped(id, node);
        }
    }

    pub fn label(&self, id: NodeId, label: &str) {
        let text = self.store(label);
        self.push(
            0,
            Slot::Label {
                node: id,
                label: text,
            },
        );
        self.with_node(id, |n| n.label = Some(Rc::from(label)));
    }

    #[inline(always)]
    pub fn write<V: Recordable + ?Sized>(
        &self,
        id: NodeId,
        running: Option<NodeId>,
        moved: bool,
        value: &V,
        site: Loc,
    ) {
        // A write is the message's when it is made where the message was dispatched (its `update`'s model write);
        // a memo or effect running inside the message's flush writes on its own account.
        let open = self.messages.borrow().last().copied();
        let (by, cause) = if let Some((message, _)) = open.filter(|(_, at)| *at == running) {
            (Writer::Message(message), message)
        } else if let Some(r) = running {
            (
                Writer::Computation(r),
                self.node_field(r, |n| n.last_run_start),
            )
        } else {
            (Writer::Program, 0)
        };
        let value = self.capture(value);
        let seq = self.push(
            cause,
            Slot::Write {
                node: id,
                by,
                moved,
                value,
            },
        );
        self.with_node(id, |n| {
            n.last_write = seq;
            if moved {
                n.last_moved = seq;
                n.value = Some(value);
                n.moved_by = Some((by, site));
            }
        });
        if moved {
            self.notifier.set(seq);
        }
    }

    #[inline]
    pub fn mark(&self, node: NodeId, source: NodeId, dirty: bool) {
        let seq = self.clock.get() + 1;
        let cause = {
            let mut nodes = self.nodes.borrow_mut();
            let cause = if dirty {
                self.notifier.get()
            } else {
                nodes.get(source).map_or(0, |n| n.last_mark)
            };
            if let Some(n) = nodes.get_mut(node) {
                n.last_mark = seq;
                if n.first_mark_since_run == 0 || dirty && !n.first_mark_dirty {
                    n.first_mark_since_run = seq;
                    n.first_mark_dirty = dirty;
                }
            }
            cause
        };
        self.push(
            cause,
            Slot::Mark {
                node,
                source,
                dirty,
            },
        );
    }

    #[inline]
    pub fn schedule(&self, node: NodeId) {
        let seq = self.clock.get() + 1;
        let cause = self
            .with_node(node, |n| {
                n.last_schedule = seq;
                n.last_mark
            })
            .unwrap_or(0);
        self.push(cause, Slot::Schedule { node });
    }

    pub fn check_start(&self, node: NodeId) {
        let cause = self.node_field(node, |n| n.last_mark);
        self.push(cause, Slot::CheckStart { node });
        self.walkers.borrow_mut().push(node);
    }

    pub fn check_resolved(&self, node: NodeId, dirty_source: Option<NodeId>) {
        self.walkers.borrow_mut().pop();
        let cause = dirty_source.map_or(0, |s| self.node_field(s, |n| n.last_moved));
        let seq = self.push(cause, Slot::CheckResolved { node, dirty_source });
        self.with_node(node, |n| n.last_check = seq);
    }

    #[inline(always)]
    pub fn run_start(&self, node: NodeId, run: u32, puller: Option<NodeId>) {
        let puller = self
            .walkers
            .borrow()
            .last()
            .copied()
            .filter(|w| *w != node)
            .or(puller);
        let seq = self.clock.get() + 1;
        let cause = self
            .with_node(node, |n| {
                let cause = n.first_mark_since_run;
                n.last_run_start = seq;
                n.first_mark_since_run = 0;
                n.first_mark_dirty = false;
                n.runs = run;
                n.untracked.clear();
                cause
            })
            .unwrap_or(0);
        self.push(cause, Slot::RunStart { node, run, puller });
    }

    #[inline(always)]
    pub fn run_end<V: Recordable + ?Sized>(
        &self,
        node: NodeId,
        moved: bool,
        error: Option<&str>,
        value: Option<&V>,
    ) {
        let seq = self.clock.get() + 1;
        let error_text = error.map(|e| self.store(e));
        let mut nodes = self.nodes.borrow_mut();
        let Some(n) = nodes.get_mut(node) else {
            drop(nodes);
            self.push(
                0,
                Slot::RunEnd {
                    node,
                    moved,
                    error: error_text,
                    value: None,
                },
            );
            return;
        };
        let start = n.last_run_start;
        n.last_run_end = seq;
        // A memo that kept its value (or failed and kept it) holds the value last recorded: no need to capture it.
        let value = match (n.kind, value) {
            (NodeKind::Memo, Some(value)) => match n.value {
                Some(kept) if !moved || error.is_some() => Some(kept),
                _ => Some(self.capture(value)),
            },
            _ => None,
        };
        if n.kind == NodeKind::Memo {
            if moved {
                n.last_moved = seq;
            } else if n.runs > 1 && error.is_none() {
                n.previous_cutoff = n.last_cutoff.take();
                n.last_cutoff = value.map(|v| (seq, v));
            }
            n.value = value;
        }
        drop(nodes);
        self.push(
            start,
            Slot::RunEnd {
                node,
                moved,
                error: error_text,
                value,
            },
        );
        if moved {
            self.notifier.set(seq);
        }
    }

    pub fn stopped(&self, node: NodeId, message: &str) {
        let cause = self.node_field(node, |n| n.last_mark);
        let message = self.store(message);
        self.push(cause, Slot::Stopped { node, message });
    }

    pub fn flush_start(&self, flush: u32) {
        self.push(0, Slot::FlushStart { flush });
    }

    pub fn flush_end(&self, flush: u32) {
        self.push(0, Slot::FlushEnd { flush });
    }

    pub fn batch_enter(&self, depth: u32, site: Loc) {
        let seq = self.push(0, Slot::BatchEnter { depth });
        if depth == 1 {
            let mut batches = self.batches.borrow_mut();
            if batches.len() == BATCH_SITES_KEPT {
                batches.pop_front();
            }
            batches.push_back((seq, site));
        }
    }

    /// Where the outermost batch whose `BatchEnter` is `seq` was opened, if still remembered.
    pub fn batch_site(&self, seq: u64) -> Option<Loc> {
        let batches = self.batches.borrow();
        let i = batches.binary_search_by_key(&seq, |(s, _)| *s).ok()?;
        Some(batches[i].1)
    }

    /// Labels node `id` with `name` unless it has a label: the name it is exposed under (`Exposure::node`), so
    /// answers name it without reading the source.
    #[cfg_attr(not(feature = "exposure"), allow(dead_code, reason = "called by the exposure"))]
    pub fn name_if_unnamed(&self, id: NodeId, name: &str) {
        if let Some(node) = self.live(id)
            && node.core().label().is_none()
        {
            node.core().set_label(name);
        }
    }

    /// Node `model` is the model of an `Mvu` whose `update` has the type name `name`.
    pub fn update_fn(&self, model: NodeId, name: &'static str) {
        self.with_node(model, |n| n.update_fn = Some(name));
    }

    /// The computation that dispatched message `seq` and where, when a memo or effect dispatched it.
    pub fn dispatched_by(&self, seq: u64) -> Option<(NodeId, Loc)> {
        let dispatches = self.dispatches.borrow();
        let i = dispatches.binary_search_by_key(&seq, |(s, _, _)| *s).ok()?;
        Some((dispatches[i].1, dispatches[i].2))
    }

    /// The node was made with a comparer of the program's.
    pub fn custom_comparer(&self, id: NodeId) {
        self.with_node(id, |n| n.custom_comparer = true);
    }

    /// Sets where the disposal running now was called, unless an outer disposal set it; returns what it was.
    pub fn set_disposing(&self, site: Option<Loc>) -> Option<Loc> {
        let previous = self.disposing.get();
        if site.is_none() || previous.is_none() {
            self.disposing.set(site);
        }
        previous
    }

    pub fn batch_exit(&self, depth: u32) {
        self.push(0, Slot::BatchExit { depth });
    }

    pub fn dispose(&self, node: NodeId) {
        let seq = self.push(0, Slot::Dispose { node });
        let site = self.disposing.get();
        self.with_node(node, |n| {
            n.disposed = seq;
            n.disposed_at = site;
        });
    }

    pub fn message_start(
        &self,
        target: NodeId,
        name: &str,
        args: &str,
        running: Option<NodeId>,
        site: Loc,
    ) -> u64 {
        let cause = self.messages.borrow().last().map_or(0, |(m, _)| *m);
        let (name, args) = (self.store(name), self.store(args));
        let seq = self.push(cause, Slot::Message { target, name, args });
        self.with_node(target, |n| n.is_model = true);
        self.messages.borrow_mut().push((seq, running));
        if let Some(by) = running {
            let mut dispatches = self.dispatches.borrow_mut();
            if dispatches.len() == BATCH_SITES_KEPT {
                dispatches.pop_front();
            }
            dispatches.push_back((seq, by, site));
        }
        self.last_message.set(seq);
        seq
    }

    pub fn message_end(&self, token: u64) {
        let mut messages = self.messages.borrow_mut();
        if let Some(i) = messages.iter().rposition(|(m, _)| *m == token) {
            messages.truncate(i);
        }
    }

    pub fn edge_read(&self, node: NodeId, source: NodeId, site: Loc) {
        let cause = self.node_field(node, |n| n.last_run_start);
        self.push(cause, Slot::EdgeAdd { node, source });
        self.with_node(node, |n| {
            n.sources.push(source);
            match n.read_sites.iter_mut().find(|(s, _)| *s == source) {
                Some(entry) => entry.1 = site,
                None => n.read_sites.push((source, site)),
            }
        });
    }

    /// The program read `source` outside any memo or effect, at `site`. No event: the record keeps the first
    /// [`PROGRAM_READS_KEPT`] distinct lines, with the clock when each last read.
    pub fn program_read(&self, source: NodeId, site: Loc) {
        let now = self.clock.get();
        self.with_node(source, |n| {
            match n
                .program_reads
                .iter()
                .position(|(_, s)| std::ptr::eq(*s, site))
            {
                Some(i) => n.program_reads[i].0 = now,
                None if n.program_reads.len() < PROGRAM_READS_KEPT => {
                    n.program_reads.push((now, site));
                }
                None => {}
            }
        });
    }

    pub fn edge_removed(&self, node: NodeId, source: NodeId) {
        let cause = self.node_field(node, |n| n.last_run_start);
        self.push(cause, Slot::EdgeRemove { node, source });
        self.with_node(node, |n| {
            if let Some(i) = n.sources.iter().position(|s| *s == source) {
                n.sources.remove(i);
            }
            if let Some(i) = n.read_sites.iter().position(|(s, _)| *s == source) {
                n.read_sites.swap_remove(i);
            }
        });
    }

    /// A read under `untrack`: a body's untracked read, or (outside any body) a read of the program's.
    pub fn untracked_read_in_body(&self, reader: Option<NodeId>, source: NodeId, site: Loc) {
        if reader.is_some() {
            self.untracked_read(reader, source, site);
        } else {
            self.program_read(source, site);
        }
    }

    /// A read without tracking. A message's `update` reads its model through an unrecorded read (the dispatcher's
    /// own), so every read that reaches here is the program's or a computation's, inside a message or not.
    pub fn untracked_read(&self, reader: Option<NodeId>, source: NodeId, site: Loc) {
        let cause = reader.map_or(0, |r| self.node_field(r, |n| n.last_run_start));
        let seq = self.push(
            cause,
            Slot::UntrackedRead {
                node: reader,
                source,
            },
        );
        if let Some(r) = reader {
            self.with_node(r, |n| {
                if !n.untracked.iter().any(|(s, _, _)| *s == source) {
                    n.untracked.push((source, seq, Some(site)));
                }
            });
        } else {
            self.program_read(source, site);
        }
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

    /// The node table as the queries see it: every record held (living nodes, and the latest dropped ones), in id
    /// order.
    pub fn node_table(&self) -> Vec<NodeRecord> {
        let nodes = self.nodes.borrow();
        nodes
            .records()
            .into_iter()
            .map(|(_, r)| self.record_of(r))
            .collect()
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

    pub fn live(&self, id: NodeId) -> Option<NodeRef> {
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

/// How many node records the current thread's trace holds: one per living node, and those of the nodes dropped last
/// (at most [`DROPPED_KEPT`](super::DROPPED_KEPT)). Records of nodes dropped before those are let go, so a program
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
