//! The event model: what one entry of the log says, who wrote a value, and what the log keeps about a node.

use super::*;

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
    /// Something happened to a flight of an [`AsyncMemo`](crate::AsyncMemo). A start's cause is the run that
    /// started it; every later event's cause is the start, and the readers a settle or failure wakes are marked with
    /// it as their cause, so `why` follows a settle back to the run that started the flight and its cause.
    Flight {
        /// The async memo.
        node: NodeId,
        /// The flight's number, from 1.
        flight: u32,
        /// What happened.
        what: FlightEvent,
    },
    /// Something happened to the timer of a timed node ([`Debounced`](crate::timed::Debounced) or
    /// [`Throttled`](crate::timed::Throttled)). A schedule's cause is the run of the effect watching the source;
    /// a replace, fire or cancel's cause is the schedule, and a fire is the cause of the write it makes.
    Timer {
        /// The timed node (its value's signal).
        node: NodeId,
        /// What happened.
        what: TimerEvent,
        /// The time on the node's clock when it happened ([`Clock::now`](crate::timed::Clock::now)).
        at: Duration,
        /// When the timer fires (for a fire, when it was due), on the same clock.
        due: Duration,
        /// The value the timer passes (schedule, replace, fire) or dropped (cancel), as `Debug` text.
        value: Option<Rc<str>>,
    },
}

/// What happened to a timed node's timer (see [`EventKind::Timer`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimerEvent {
    /// A timer was scheduled to pass a value.
    Schedule,
    /// The timer that waits was given a newer value to pass (a throttled node's trailing edge).
    Replace,
    /// The timer fired and passed its value.
    Fire,
    /// The timer was cancelled before it fired (a newer value restarted a debounce, or the node was disposed).
    Cancel,
}

impl TimerEvent {
    /// The event's name: `TimerSchedule`, `TimerReplace`, `TimerFire` or `TimerCancel`.
    pub fn name(self) -> &'static str {
        match self {
            TimerEvent::Schedule => "TimerSchedule",
            TimerEvent::Replace => "TimerReplace",
            TimerEvent::Fire => "TimerFire",
            TimerEvent::Cancel => "TimerCancel",
        }
    }
}

/// What happened to a flight (see [`EventKind::Flight`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FlightEvent {
    /// A run started it.
    Start,
    /// It settled the memo with a value.
    Settle,
    /// It failed the memo (its future returned an error or panicked).
    Fail,
    /// A newer run or the memo's disposal cancelled it: its future was dropped.
    Cancel,
    /// It finished, but its outcome was dropped: a newer flight superseded it.
    Drop,
}

impl FlightEvent {
    /// The event's name: `FlightStart`, `FlightSettle`, `FlightFail`, `FlightCancel` or `FlightDrop`.
    pub fn name(self) -> &'static str {
        match self {
            FlightEvent::Start => "FlightStart",
            FlightEvent::Settle => "FlightSettle",
            FlightEvent::Fail => "FlightFail",
            FlightEvent::Cancel => "FlightCancel",
            FlightEvent::Drop => "FlightDrop",
        }
    }
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
    pub site: SiteRef,
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
    /// The value a memo computed at a cutoff and dropped because its equality (`PartialEq` or comparer) called it
    /// equal to the value kept, with that run's `RunEnd`: recorded for values that are not scalars.
    pub cutoff_computed: Option<(u64, Rc<str>)>,
    /// The type of the value [`cutoff_computed`](Self::cutoff_computed) holds, as [`std::any::type_name`] spells
    /// it (`shop::model::Reminder`): which `PartialEq` called the two equal.
    pub cutoff_type: Option<&'static str>,
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
    pub untracked: Vec<(NodeId, u64, Option<SiteRef>)>,
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
    /// Where each of its sources was read (the line of the `get` or `with` call that made the edge), in read order.
    pub read_sites: Vec<(NodeId, SiteRef)>,
    /// Who made its latest write that moved it (signals), and the line of that `set`, `update` or `write` call.
    pub moved_by: Option<(Writer, SiteRef)>,
    /// Where the program read it outside any memo or effect, with the clock when it did: the first distinct lines,
    /// at most [`PROGRAM_READS_KEPT`].
    pub program_reads: Vec<(u64, SiteRef)>,
    /// Where the disposal that disposed it was called.
    pub disposed_at: Option<SiteRef>,
    /// Whether it was made with a comparer of the program's (`with_comparer`).
    pub custom_comparer: bool,
    /// For an `Mvu`'s model: the type name of its `update` (`app::update`, or a closure's `app::main::{{closure}}`).
    pub update_fn: Option<&'static str>,
}

/// How many distinct lines of program reads (reads outside any memo or effect) the trace keeps per node.
pub const PROGRAM_READS_KEPT: usize = 4;
