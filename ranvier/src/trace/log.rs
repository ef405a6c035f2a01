//! The traced build's log: the event ring, the node table, and the hooks the engine calls.

use super::DEFAULT_CAPACITY;
use crate::graph::{Node, NodeId, NodeKind, with_runtime};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::panic::Location;
use std::rc::{Rc, Weak};

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

/// A writer that stops (with an error, which ends the formatting) once [`VALUE_TEXT_CAP`] bytes are written.
struct Capped<'a> {
    buf: &'a mut String,
    full: bool,
}

impl fmt::Write for Capped<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = VALUE_TEXT_CAP - self.buf.len();
        if s.len() <= room {
            self.buf.push_str(s);
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.buf.push_str(&s[..end]);
        self.full = true;
        Err(fmt::Error)
    }
}

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
    /// Nodes it read untracked during its last run, with the event.
    pub untracked: Vec<(NodeId, u64)>,
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
}

/// The traced build's recorder, one per graph.
pub(crate) struct Tracer {
    clock: Cell<u64>,
    capacity: Cell<usize>,
    /// The ring: each event's cause and kind; sequence numbers follow from the clock.
    events: RefCell<VecDeque<(u64, EventKind)>>,
    /// The buffer value texts are formatted into.
    buf: RefCell<String>,
    pub(super) nodes: RefCell<Vec<Option<NodeRecord>>>,
    live: RefCell<Vec<Weak<dyn Node>>>,
    notifier: Cell<u64>,
    messages: RefCell<Vec<u64>>,
    walkers: RefCell<Vec<NodeId>>,
    last_message: Cell<u64>,
}

impl Tracer {
    pub fn new() -> Self {
        Tracer {
            clock: Cell::new(0),
            capacity: Cell::new(DEFAULT_CAPACITY),
            events: RefCell::new(VecDeque::new()),
            buf: RefCell::new(String::new()),
            nodes: RefCell::new(Vec::new()),
            live: RefCell::new(Vec::new()),
            notifier: Cell::new(0),
            messages: RefCell::new(Vec::new()),
            walkers: RefCell::new(Vec::new()),
            last_message: Cell::new(0),
        }
    }

    pub fn enabled(&self) -> bool {
        true
    }

    pub fn reset(&self) {
        self.clock.set(0);
        self.events.borrow_mut().clear();
        self.nodes.borrow_mut().clear();
        self.live.borrow_mut().clear();
        self.notifier.set(0);
        self.messages.borrow_mut().clear();
        self.walkers.borrow_mut().clear();
        self.last_message.set(0);
    }

    #[inline]
    fn push(&self, cause: u64, kind: EventKind) -> u64 {
        let seq = self.clock.get() + 1;
        self.clock.set(seq);
        let mut events = self.events.borrow_mut();
        if events.len() >= self.capacity.get() {
            events.pop_front();
        }
        events.push_back((cause, kind));
        seq
    }

    /// `value`'s `Debug` text, cut at [`VALUE_TEXT_CAP`] bytes (formatting stops there, so a huge value costs no
    /// more than a small one).
    fn text(&self, value: &dyn fmt::Debug) -> Rc<str> {
        let mut buf = self.buf.borrow_mut();
        buf.clear();
        let mut writer = Capped {
            buf: &mut buf,
            full: false,
        };
        let _ = fmt::write(&mut writer, format_args!("{value:?}"));
        if writer.full {
            buf.push('…');
        }
        Rc::from(buf.as_str())
    }

    /// The sequence number of the oldest event held.
    fn first_seq(&self, held: usize) -> u64 {
        self.clock.get() + 1 - held as u64
    }

    fn with_node<R>(&self, id: NodeId, f: impl FnOnce(&mut NodeRecord) -> R) -> Option<R> {
        self.nodes
            .borrow_mut()
            .get_mut(id.0 as usize)
            .and_then(|r| r.as_mut())
            .map(f)
    }

    fn node_field(&self, id: NodeId, f: impl FnOnce(&NodeRecord) -> u64) -> u64 {
        self.nodes
            .borrow()
            .get(id.0 as usize)
            .and_then(|r| r.as_ref())
            .map_or(0, f)
    }

    pub fn node_new(
        &self,
        id: NodeId,
        kind: NodeKind,
        site: &'static Location<'static>,
        owner: Option<NodeId>,
        running: Option<NodeId>,
        live: impl FnOnce() -> Weak<dyn Node>,
    ) {
        let creating_run = running.map_or(0, |r| self.node_field(r, |n| n.last_run_start));
        let seq = self.push(
            creating_run,
            EventKind::NodeNew {
                node: id,
                kind,
                owner,
                run: creating_run,
            },
        );
        let record = NodeRecord {
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
        };
        let index = id.0 as usize;
        let mut nodes = self.nodes.borrow_mut();
        if nodes.len() <= index {
            nodes.resize(index + 1, None);
        }
        nodes[index] = Some(record);
        let mut lives = self.live.borrow_mut();
        if lives.len() <= index {
            lives.resize_with(index + 1, || {
                Weak::<crate::signal::DeadNode>::new() as Weak<dyn Node>
            });
        }
        lives[index] = live();
    }

    pub fn label(&self, id: NodeId, label: &str) {
        let label: Rc<str> = Rc::from(label);
        self.push(
            0,
            EventKind::Label {
                node: id,
                label: label.clone(),
            },
        );
        self.with_node(id, |n| n.label = Some(label));
    }

    pub fn write(&self, id: NodeId, running: Option<NodeId>, moved: bool, value: &dyn fmt::Debug) {
        let (by, cause) = if let Some(&message) = self.messages.borrow().last() {
            (Writer::Message(message), message)
        } else if let Some(r) = running {
            (
                Writer::Computation(r),
                self.node_field(r, |n| n.last_run_start),
            )
        } else {
            (Writer::Program, 0)
        };
        let value = self.text(value);
        let seq = self.push(
            cause,
            EventKind::Write {
                node: id,
                by,
                moved,
                value: value.clone(),
            },
        );
        self.with_node(id, |n| {
            n.last_write = seq;
            if moved {
                n.last_moved = seq;
                n.value = Some(value);
            }
        });
        if moved {
            self.notifier.set(seq);
        }
    }

    pub fn mark(&self, node: NodeId, source: NodeId, dirty: bool) {
        let cause = if dirty {
            self.notifier.get()
        } else {
            self.node_field(source, |n| n.last_mark)
        };
        let seq = self.push(
            cause,
            EventKind::Mark {
                node,
                source,
                dirty,
            },
        );
        self.with_node(node, |n| {
            n.last_mark = seq;
            if n.first_mark_since_run == 0 || dirty && !n.first_mark_dirty {
                n.first_mark_since_run = seq;
                n.first_mark_dirty = dirty;
            }
        });
    }

    pub fn schedule(&self, node: NodeId) {
        let cause = self.node_field(node, |n| n.last_mark);
        let seq = self.push(cause, EventKind::Schedule { node });
        self.with_node(node, |n| n.last_schedule = seq);
    }

    pub fn check_start(&self, node: NodeId) {
        let cause = self.node_field(node, |n| n.last_mark);
        self.push(cause, EventKind::CheckStart { node });
        self.walkers.borrow_mut().push(node);
    }

    pub fn check_resolved(&self, node: NodeId, dirty_source: Option<NodeId>) {
        self.walkers.borrow_mut().pop();
        let cause = dirty_source.map_or(0, |s| self.node_field(s, |n| n.last_moved));
        let seq = self.push(cause, EventKind::CheckResolved { node, dirty_source });
        self.with_node(node, |n| n.last_check = seq);
    }

    pub fn run_start(&self, node: NodeId, run: u32) {
        let puller = self
            .walkers
            .borrow()
            .last()
            .copied()
            .filter(|w| *w != node)
            .or_else(|| with_runtime(|rt| rt.running_id()));
        let cause = self.node_field(node, |n| n.first_mark_since_run);
        let seq = self.push(cause, EventKind::RunStart { node, run, puller });
        self.with_node(node, |n| {
            n.last_run_start = seq;
            n.first_mark_since_run = 0;
            n.first_mark_dirty = false;
            n.runs = run;
            n.untracked.clear();
        });
    }

    pub fn run_end(
        &self,
        node: NodeId,
        moved: bool,
        error: Option<&str>,
        value: Option<&dyn fmt::Debug>,
    ) {
        let (start, kind, kept) = self
            .nodes
            .borrow()
            .get(node.0 as usize)
            .and_then(|r| r.as_ref())
            .map_or((0, NodeKind::Effect, None), |n| {
                (n.last_run_start, n.kind, n.value.clone())
            });
        // A memo that kept its value (or failed and kept it) holds the value last recorded: no need to format it.
        let value: Option<Rc<str>> = match (kind, value) {
            (NodeKind::Memo, Some(value)) => match kept {
                Some(kept) if !moved || error.is_some() => Some(kept),
                _ => Some(self.text(value)),
            },
            _ => None,
        };
        let seq = self.push(
            start,
            EventKind::RunEnd {
                node,
                moved,
                error: error.map(Rc::from),
                value: value.clone(),
            },
        );
        self.with_node(node, |n| {
            n.last_run_end = seq;
            if kind == NodeKind::Memo {
                if moved {
                    n.last_moved = seq;
                } else if n.runs > 1 && error.is_none() {
                    n.previous_cutoff = n.last_cutoff.take();
                    n.last_cutoff = value.clone().map(|v| (seq, v));
                }
                n.value = value;
            }
        });
        if moved {
            self.notifier.set(seq);
        }
    }

    pub fn stopped(&self, node: NodeId, message: &str) {
        let cause = self.node_field(node, |n| n.last_mark);
        self.push(
            cause,
            EventKind::Stopped {
                node,
                message: Rc::from(message),
            },
        );
    }

    pub fn flush_start(&self, flush: u32) {
        self.push(0, EventKind::FlushStart { flush });
    }

    pub fn flush_end(&self, flush: u32) {
        self.push(0, EventKind::FlushEnd { flush });
    }

    pub fn batch_enter(&self, depth: u32) {
        self.push(0, EventKind::BatchEnter { depth });
    }

    pub fn batch_exit(&self, depth: u32) {
        self.push(0, EventKind::BatchExit { depth });
    }

    pub fn dispose(&self, node: NodeId) {
        let seq = self.push(0, EventKind::Dispose { node });
        self.with_node(node, |n| n.disposed = seq);
    }

    pub fn message_start(&self, target: NodeId, name: &str, args: &str) -> u64 {
        let cause = self.messages.borrow().last().copied().unwrap_or(0);
        let seq = self.push(
            cause,
            EventKind::Message {
                target,
                name: Rc::from(name),
                args: Rc::from(args),
            },
        );
        self.with_node(target, |n| n.is_model = true);
        self.messages.borrow_mut().push(seq);
        self.last_message.set(seq);
        seq
    }

    pub fn message_end(&self, token: u64) {
        let mut messages = self.messages.borrow_mut();
        if let Some(i) = messages.iter().rposition(|&m| m == token) {
            messages.truncate(i);
        }
    }

    pub fn edge_read(&self, node: NodeId, source: NodeId) {
        let cause = self.node_field(node, |n| n.last_run_start);
        self.push(cause, EventKind::EdgeAdd { node, source });
        self.with_node(node, |n| n.sources.push(source));
    }

    pub fn edge_removed(&self, node: NodeId, source: NodeId) {
        let cause = self.node_field(node, |n| n.last_run_start);
        self.push(cause, EventKind::EdgeRemove { node, source });
        self.with_node(node, |n| {
            if let Some(i) = n.sources.iter().position(|s| *s == source) {
                n.sources.remove(i);
            }
        });
    }

    /// A read under `untrack` (recorded only when a body is running: outside one every read is untracked).
    pub fn untracked_read_in_body(&self, reader: Option<NodeId>, source: NodeId) {
        if reader.is_some() {
            self.untracked_read(reader, source);
        }
    }

    pub fn untracked_read(&self, reader: Option<NodeId>, source: NodeId) {
        // A message's `update` reads its model untracked on behalf of the message, not of the computation that
        // dispatched it.
        if !self.messages.borrow().is_empty() {
            return;
        }
        let cause = reader.map_or(0, |r| self.node_field(r, |n| n.last_run_start));
        let seq = self.push(
            cause,
            EventKind::UntrackedRead {
                node: reader,
                source,
            },
        );
        if let Some(r) = reader {
            self.with_node(r, |n| {
                if !n.untracked.iter().any(|(s, _)| *s == source) {
                    n.untracked.push((source, seq));
                }
            });
        }
    }

    // ---- read access for the queries ----

    /// The event with sequence number `seq`, if the ring still holds it.
    pub fn event(&self, seq: u64) -> Option<Event> {
        let events = self.events.borrow();
        let first = self.first_seq(events.len());
        if seq < first {
            return None;
        }
        let (cause, kind) = events.get((seq - first) as usize)?;
        Some(Event {
            seq,
            cause: *cause,
            kind: kind.clone(),
        })
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
        let events = self.events.borrow();
        let first = self.first_seq(events.len());
        events
            .iter()
            .zip(first..)
            .map(|((cause, kind), seq)| Event {
                seq,
                cause: *cause,
                kind: kind.clone(),
            })
            .collect()
    }

    pub fn oldest_seq(&self) -> u64 {
        self.first_seq(self.events.borrow().len())
    }

    pub fn clock(&self) -> u64 {
        self.clock.get()
    }

    pub fn live(&self, id: NodeId) -> Option<Rc<dyn Node>> {
        self.live
            .borrow()
            .get(id.0 as usize)
            .and_then(|w| w.upgrade())
    }

    pub fn last_message(&self) -> u64 {
        self.last_message.get()
    }

    pub fn set_capacity(&self, capacity: usize) {
        self.capacity.set(capacity.max(1));
        let mut events = self.events.borrow_mut();
        while events.len() > capacity.max(1) {
            events.pop_front();
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity.get()
    }
}

/// Sets how many events the current thread's trace ring keeps (at least 1). Older events are dropped first; the
/// node table is kept whatever the capacity.
pub fn set_capacity(capacity: usize) {
    with_runtime(|rt| rt.tracer.set_capacity(capacity));
}

/// How many events the current thread's trace ring keeps.
pub fn capacity() -> usize {
    with_runtime(|rt| rt.tracer.capacity())
}

/// A copy of the events the current thread's ring holds, oldest first.
pub fn events() -> Vec<Event> {
    with_runtime(|rt| rt.tracer.events())
}
