//! What every node shares: identity, freshness, edges, and (for memos and effects) the run scope.

use super::NodeId;
use super::edges::Edges;
use super::runtime::Runtime;
use std::cell::{Cell, RefCell};
use std::panic::Location;
use std::rc::Rc;

/// How a node compares a new value with the old one.
pub(crate) type Comparer<T> = Box<dyn Fn(&T, &T) -> bool>;

pub(crate) use super::handle::DynNodeRc;

/// How current a computation is. Ordered: `Clean < Check < Dirty`. One byte whose value is the discriminant, which
/// [`Computation::flags`] relies on.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub(crate) enum State {
    /// Up to date.
    Clean,
    /// A source further up may have moved: ask the sources before running.
    Check,
    /// A source moved: run again.
    Dirty,
}

/// The kind of a node, as the trace and the MCP tools name it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum NodeKind {
    /// A writable value.
    Signal,
    /// A derived, cached value.
    Memo,
    /// A side effect.
    Effect,
}

impl NodeKind {
    /// The kind's name: `Signal`, `Memo` or `Effect`.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Signal => "Signal",
            NodeKind::Memo => "Memo",
            NodeKind::Effect => "Effect",
        }
    }
}

/// The part every node has.
pub(crate) struct Core {
    pub id: NodeId,
    pub kind: NodeKind,
    pub site: &'static Location<'static>,
    /// Whether the node has a label (kept in the runtime's side table, since few nodes have one).
    pub labelled: Cell<bool>,
    /// Computations that read this node at their last run, in subscription order.
    pub observers: RefCell<Edges>,
    /// The run stamp of the last computation run that recorded this node as a source (dedupes repeated reads).
    pub stamp: Cell<u32>,
    /// 0 for signals (and effects, which need none); for a memo, one more than the highest of its sources. Live
    /// memos are brought up to date in height order, so a memo runs after everything it reads.
    pub height: Cell<u32>,
    /// Whether the node waits in a runtime queue: a live memo in the height-ordered queue, an effect in the effect
    /// queue.
    pub queued: Cell<bool>,
}

impl Core {
    pub fn new(id: NodeId, kind: NodeKind, site: &'static Location<'static>) -> Self {
        Core {
            id,
            kind,
            site,
            labelled: Cell::new(false),
            observers: RefCell::new(Edges::Empty),
            stamp: Cell::new(0),
            height: Cell::new(0),
            queued: Cell::new(false),
        }
    }

    /// Names the node, for error messages and the trace.
    pub fn set_label(&self, label: &str) {
        self.labelled.set(true);
        super::with_runtime(|rt| {
            rt.labels
                .borrow_mut()
                .insert(self.label_key(), Rc::from(label));
            trace_hook!(rt, label(self.id, label));
        });
    }

    pub fn label(&self) -> Option<Rc<str>> {
        if !self.labelled.get() {
            return None;
        }
        super::with_runtime(|rt| rt.labels.borrow().get(&self.label_key()).cloned())
    }

    /// The node's key in the runtime's label table: its address, unique while it lives (the entry goes with it).
    fn label_key(&self) -> usize {
        self as *const Core as usize
    }

    /// Removes one occurrence of `observer` from this node's observers.
    pub fn remove_observer(&self, observer: *const ()) {
        let mut observers = self.observers.borrow_mut();
        if let Edges::One(only) = &*observers {
            if only.as_ptr() == observer {
                *observers = Edges::Empty;
            }
            return;
        }
        // From the end: scopes dispose last created first, so the observer that goes is usually the last one added.
        if let Some(i) = observers.iter().rposition(|o| o.as_ptr() == observer) {
            observers.swap_remove(i);
        }
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        // The trace holds a weak handle to every node, to read live values; once the node is gone it could only keep
        // the node's block from the pool.
        if super::record::TRACED {
            let (id, me) = (self.id, self as *const Core as *const ());
            super::runtime::try_with_runtime(|rt| rt.tracer.node_dropped(id, me));
        }
        if self.labelled.get() {
            let key = self.label_key();
            // The runtime may already be gone when a node outlives it at thread exit; its table went with it.
            super::runtime::try_with_runtime(|rt| {
                if let Ok(mut labels) = rt.labels.try_borrow_mut() {
                    labels.remove(&key);
                }
            });
        }
    }
}

/// The part memos and effects have: freshness, sources, and the scope of the current run.
pub(crate) struct Computation {
    pub state: Cell<State>,
    pub running: Cell<bool>,
    pub disposed: Cell<bool>,
    /// During a diverged run: where its segment of the runtime's scratch stack begins. Taken when the run diverges
    /// rather than when it starts (its nested runs have all put the stack back as they found it by then), so that a
    /// run that reads what it read last time never looks at the stack.
    pub scratch_base: Cell<u32>,
    /// During a run: how many of `sources` the run has read again, in the same order; once it diverged (read
    /// something the last run did not read at the same position, its new sources then going to the runtime's scratch
    /// stack), with its top bit ([`DIVERGED`](Computation::DIVERGED)) set besides. The bit is the only record of the
    /// divergence: a diverged cursor matches no position of the list, so a read tests it only on its miss path, and
    /// the run's end compares the cursor with the length of its sources once (a diverged cursor equals no length).
    pub cursor: Cell<u32>,
    /// The run stamp of the current run.
    pub run_stamp: Cell<u32>,
    /// How many times it ran.
    pub runs: Cell<u32>,
    /// For memos: how many of its observers are live (effects, or live memos). A memo with a live observer is
    /// *live*: a write that moves one of its sources queues it to be brought up to date in height order, instead of
    /// marking everything below it.
    pub live: Cell<u32>,
    /// Whether the last run failed (its message is in the extras): spares the hot path a look at them.
    failed: Cell<bool>,
    /// Whether the last run created a node or registered a cleanup (they are in the extras): spares the run's start
    /// a look at them.
    scoped: Cell<bool>,
    /// Nodes read by the last run, in read order.
    pub sources: RefCell<Edges>,
    /// What most computations never have, allocated on first use: a run scope and a failure.
    extras: RefCell<Option<Box<Extras>>>,
}

/// A cleanup registered by a run.
pub(crate) type Cleanup = Box<dyn FnOnce()>;

/// The rarely used part of a computation.
#[derive(Default)]
struct Extras {
    /// Nodes created by the last run (disposed before the next run and at disposal, last created first).
    owned: Vec<DynNodeRc>,
    /// Cleanups registered by the last run.
    cleanups: Vec<Cleanup>,
    /// The failure of the last run, if it panicked.
    error: Option<Rc<str>>,
}

// `state`, `running`, `disposed` and `failed` are four consecutive bytes at an offset divisible by four, so the hot
// tests read them as one word ([`Computation::flags`]).
const FLAGS: usize = std::mem::offset_of!(Computation, state);
const _: () = assert!(
    FLAGS.is_multiple_of(4)
        && std::mem::offset_of!(Computation, running) == FLAGS + 1
        && std::mem::offset_of!(Computation, disposed) == FLAGS + 2
        && std::mem::offset_of!(Computation, failed) == FLAGS + 3,
    "Computation::flags reads state, running, disposed and failed as one word"
);

impl Computation {
    /// The top bit of `cursor`: the run diverged.
    pub const DIVERGED: u32 = 1 << 31;

    /// The bytes of [`flags`](Self::flags) that hold the state, `running` and `disposed` (not `failed`).
    pub const STATE_RUNNING_DISPOSED: u32 = u32::from_ne_bytes([0xff, 0xff, 0xff, 0]);

    /// The bytes of [`flags`](Self::flags) that hold the state and `running`: zero for a clean computation that is
    /// not running.
    pub const STATE_RUNNING: u32 = u32::from_ne_bytes([0xff, 0xff, 0, 0]);

    /// [`flags`](Self::flags) masked by [`STATE_RUNNING_DISPOSED`](Self::STATE_RUNNING_DISPOSED) for a computation
    /// in `state` that is neither running nor disposed.
    pub const fn idle_in(state: State) -> u32 {
        u32::from_ne_bytes([state as u8, 0, 0, 0])
    }

    /// `state`, `running`, `disposed` and `failed` in one word, a byte each in that order (as their `Cell`s lie in
    /// memory: asserted above), so that a test of several is one load.
    #[inline(always)]
    pub fn flags(&self) -> u32 {
        // SAFETY: the four `Cell`s are consecutive bytes at an offset divisible by four in `Computation` (asserted at
        // compile time), so the word lies inside `self` and is aligned (`Computation` is aligned to 8); each byte is
        // initialised (a `State` and three `bool`s). The pointer comes from `&Computation`, so it may read all of
        // it; a `Cell` hands out no reference to its value and the graph is single-threaded, so nothing writes the
        // bytes during the read.
        unsafe {
            (std::ptr::from_ref(self).cast::<u8>().add(FLAGS))
                .cast::<u32>()
                .read()
        }
    }

    /// A run starts: the computation is `Clean` and `running`, both set by one store.
    #[inline(always)]
    pub fn start_run(&self) {
        // SAFETY: `state` and `running` are consecutive bytes at `FLAGS` (asserted at compile time), inside `self`, at
        // an offset divisible by four, so the two-byte write lies inside `self` and is aligned. The pointer comes from
        // `&Computation`, and both bytes are `Cell`s (`UnsafeCell`s), which a shared reference may write through; the
        // graph is single-threaded and no reference to a `Cell`'s value exists, so nothing reads the bytes during the
        // write. `State` is `repr(u8)`, so the first byte is `Clean`'s discriminant, the second a `bool` (`true`).
        unsafe {
            (std::ptr::from_ref(self).cast::<u8>().add(FLAGS))
                .cast_mut()
                .cast::<u16>()
                .write(u16::from_ne_bytes([State::Clean as u8, 1]));
        }
    }

    pub fn new() -> Self {
        Computation {
            state: Cell::new(State::Dirty),
            running: Cell::new(false),
            disposed: Cell::new(false),
            scratch_base: Cell::new(0),
            cursor: Cell::new(0),
            run_stamp: Cell::new(0),
            runs: Cell::new(0),
            live: Cell::new(0),
            failed: Cell::new(false),
            scoped: Cell::new(false),
            sources: RefCell::new(Edges::Empty),
            extras: RefCell::new(None),
        }
    }

    fn extras_mut<R>(&self, f: impl FnOnce(&mut Extras) -> R) -> R {
        f(self
            .extras
            .borrow_mut()
            .get_or_insert_with(Default::default))
    }

    /// Whether the last run's body panicked.
    #[inline(always)]
    pub fn has_failed(&self) -> bool {
        self.failed.get()
    }

    /// The failure of the last run, if its body panicked.
    #[inline]
    pub fn error(&self) -> Option<Rc<str>> {
        if !self.failed.get() {
            return None;
        }
        self.extras.borrow().as_ref().and_then(|x| x.error.clone())
    }

    /// Records (or clears) the failure of the last run; returns the previous one.
    #[inline]
    pub fn set_error(&self, error: Option<Rc<str>>) -> Option<Rc<str>> {
        if error.is_none() && !self.failed.get() {
            return None;
        }
        self.failed.set(error.is_some());
        self.extras_mut(|x| std::mem::replace(&mut x.error, error))
    }

    /// Gives a node created by the current run to this computation.
    pub fn own(&self, node: DynNodeRc) {
        self.scoped.set(true);
        self.extras_mut(|x| x.owned.push(node));
    }

    /// Registers a cleanup of the current run.
    pub fn add_cleanup(&self, f: Box<dyn FnOnce()>) {
        self.scoped.set(true);
        self.extras_mut(|x| x.cleanups.push(f));
    }

    /// Whether the last run created a node or registered a cleanup that [`take_scope`](Self::take_scope) has not
    /// taken.
    #[inline(always)]
    pub fn is_scoped(&self) -> bool {
        self.scoped.get()
    }

    /// Takes the last run's scope: the nodes it created and its cleanups.
    #[inline]
    pub fn take_scope(&self) -> Option<(Vec<DynNodeRc>, Vec<Cleanup>)> {
        if !self.scoped.replace(false) {
            return None;
        }
        let mut extras = self.extras.borrow_mut();
        let x = extras.as_mut()?;
        if x.owned.is_empty() && x.cleanups.is_empty() {
            return None;
        }
        Some((
            std::mem::take(&mut x.owned),
            std::mem::take(&mut x.cleanups),
        ))
    }
}

/// The operations the engine performs on any node, whatever its value type.
///
/// # Safety
///
/// An implementor is `#[repr(C)]` and starts with a `core: Core` field, followed by a `comp: Computation` field when
/// its kind is [`NodeKind::Memo`] or [`NodeKind::Effect`]. The engine then reaches both through a `dyn NodeBody` without
/// a virtual call (`<dyn NodeBody>::core` and `<dyn NodeBody>::computation`, below).
pub(crate) unsafe trait NodeBody: 'static {
    /// Brings the node up to date (memos); nothing for signals.
    fn update_if_necessary(&self, _this: &DynNodeRc, _rt: &Runtime) {}

    /// Runs a queued effect if it is still stale.
    fn execute(&self, _this: &DynNodeRc, _rt: &Runtime) {}

    /// Disposes the node: its run scope, its edges to its sources.
    fn dispose(&self, _this: &DynNodeRc) {}

    /// The node's current value as `Debug` text (cut at `LIVE_TEXT_MAX` bytes, ending with `…`), if it has one.
    #[allow(dead_code)]
    fn value_text(&self) -> Option<String> {
        None
    }
}

/// The layout every memo and effect begins with (see [`NodeBody`]'s safety contract).
#[repr(C)]
struct Head {
    core: Core,
    comp: Computation,
}

/// Where a memo or an effect keeps its `Computation`: right after its `Core`, as in [`Head`]. Every node type checks
/// its layout against it at compile time (`assert_node_layout!`).
pub(crate) const COMPUTATION_OFFSET: usize = std::mem::offset_of!(Head, comp);

impl dyn NodeBody {
    /// The part every node has.
    #[inline(always)]
    pub fn core(&self) -> &Core {
        // SAFETY: by `NodeBody`'s contract the node is `#[repr(C)]` and begins with its `Core`.
        unsafe { &*(self as *const dyn NodeBody as *const Core) }
    }

    /// The computation part, for memos and effects.
    #[inline(always)]
    pub fn computation(&self) -> Option<&Computation> {
        if self.core().kind == NodeKind::Signal {
            return None;
        }
        // SAFETY: by `NodeBody`'s contract a memo or effect is `#[repr(C)]` and begins with `Core` then `Computation`,
        // so it starts with `Head`'s layout.
        Some(unsafe { &(*(self as *const dyn NodeBody as *const Head)).comp })
    }
}

/// Marks `node`, an observer (a memo or an effect), stale with `state` on account of `source` (recorded by the trace:
/// a dirty mark when `state` is `Dirty`, else a check).
///
/// The same for every kind of node, so not a method of [`NodeBody`]: a write that wakes a chain calls no function
/// through a vtable to mark it. An effect queues itself to run at the next flush. A live memo is queued to run in
/// height order, and nothing below it is touched unless its value moves; a lazy one passes `Check` on to its
/// observers the first time it leaves `Clean`.
#[inline(always)]
pub(crate) fn mark(node: &DynNodeRc, state: State, source: NodeId, rt: &Runtime) {
    mark_in::<false>(node, state, source, 0, rt);
}

/// [`mark`] of the only observer of a memo that moved in a run the height queue's drain took alone (or was handed):
/// a live memo, not running, is returned to run next instead of queued when nothing waits in the height queue (so
/// nothing it reads is left to bring up to date before it: heights rise along every edge), a chain's hand-off with no
/// bucket's push and pop. It is marked (and traced) as [`mark`] marks it, but not flagged `queued`: a mark before it
/// runs queues it as well, and its second turn finds it clean; a run that unwinds before it leaves it dirty and free
/// to be queued by the next mark.
#[inline(always)]
pub(crate) fn mark_or_hand_off(node: &DynNodeRc, source: &Core, rt: &Runtime) -> Option<DynNodeRc> {
    mark_in::<true>(node, State::Dirty, source.id, source.height.get(), rt)
}

#[inline(always)]
fn mark_in<const HAND: bool>(
    node: &DynNodeRc,
    state: State,
    source: NodeId,
    source_height: u32,
    rt: &Runtime,
) -> Option<DynNodeRc> {
    let core = node.core();
    debug_assert!(core.kind != NodeKind::Signal, "a signal observes nothing");
    // SAFETY: observers are memos and effects (only computations read), whose `Computation` sits at
    // `COMPUTATION_OFFSET` by `NodeBody`'s contract.
    let comp =
        unsafe { &*((node.as_ptr() as *const u8).add(COMPUTATION_OFFSET) as *const Computation) };
    let dirty = state == State::Dirty;
    if comp.disposed.get() {
        trace_hook!(rt, mark(core.id, source, dirty));
        return None;
    }
    let current = comp.state.get();
    if core.kind == NodeKind::Effect {
        // `Dirty` is the highest state: marked dirty, the effect is dirty, whatever it was (no compare).
        if state == State::Dirty || state > current {
            comp.state.set(state);
        }
        if !core.queued.replace(true) {
            // The mark and the schedule it causes, recorded with one look-up of the effect's record.
            trace_hook!(rt, mark_scheduled(core.id, source, dirty));
            rt.schedule(node.clone());
        } else {
            trace_hook!(rt, mark(core.id, source, dirty));
        }
        return None;
    }
    trace_hook!(rt, mark(core.id, source, dirty));
    if comp.live.get() > 0 {
        // `Dirty` is the highest state: marked dirty, the memo is dirty, whatever it was (no compare).
        if state == State::Dirty || state > current {
            comp.state.set(state);
        }
        // No body runs when the hand-off may happen (`may_hand_off`), so no computation is running: `running` is
        // set only for the span of `run_computation`'s body, whose context is a body's, and every context change
        // inside a body (`untracked`, `create_root`) keeps it one. The observer's running flag needs no test.
        if HAND && rt.may_hand_off(source_height) {
            debug_assert!(!comp.running.get());
            rt.handed_off(core.height.get());
            return Some(node.clone());
        }
        if !core.queued.replace(true) {
            rt.enqueue_eager(node.clone(), core.height.get());
        }
        return None;
    }
    if state > current {
        comp.state.set(state);
        if current == State::Clean {
            mark_observers_check(core, rt);
        }
    }
    None
}

/// A lazy memo left `Clean`: its observers may have to run.
fn mark_observers_check(core: &Core, rt: &Runtime) {
    for observer in core.observers.borrow().iter() {
        mark(observer, State::Check, core.id, rt);
    }
}

/// Whether `node` keeps what it reads current: an effect that is not disposed, or a memo with a live observer.
#[inline]
pub(crate) fn is_live(node: &dyn NodeBody) -> bool {
    match node.computation() {
        Some(comp) => match node.core().kind {
            NodeKind::Effect => !comp.disposed.get(),
            _ => comp.live.get() > 0,
        },
        None => false,
    }
}

/// `node` gained a live observer: a memo that becomes live makes its own sources live in turn.
#[inline]
pub(crate) fn add_live(node: &dyn NodeBody) {
    if node.core().kind == NodeKind::Memo {
        add_live_memo(node);
    }
}

fn add_live_memo(node: &dyn NodeBody) {
    if let Some(comp) = node.computation() {
        let count = comp.live.get();
        comp.live.set(count + 1);
        if count == 0 {
            for source in comp.sources.borrow().iter() {
                add_live(&**source);
            }
        }
    }
}

/// `node` lost a live observer: a memo that is no longer live releases its own sources in turn.
#[inline]
pub(crate) fn remove_live(node: &dyn NodeBody) {
    if node.core().kind == NodeKind::Memo {
        remove_live_memo(node);
    }
}

fn remove_live_memo(node: &dyn NodeBody) {
    if let Some(comp) = node.computation() {
        let count = comp.live.get();
        if count == 0 {
            return;
        }
        comp.live.set(count - 1);
        if count == 1 {
            for source in comp.sources.borrow().iter() {
                remove_live(&**source);
            }
        }
    }
}

/// Raises `node`'s height to at least `height`, and its observers' above it.
#[inline]
pub(crate) fn raise_height(node: &dyn NodeBody, height: u32) {
    if node.core().height.get() < height {
        raise_height_from(node, height);
    }
}

fn raise_height_from(node: &dyn NodeBody, height: u32) {
    let core = node.core();
    core.height.set(height);
    for observer in core.observers.borrow().iter() {
        raise_height(&**observer, height + 1);
    }
}

#[cfg(test)]
mod tests {
    use crate::graph::with_runtime;
    use crate::{Effect, Memo, Signal};

    fn labels() -> usize {
        with_runtime(|rt| rt.labels.borrow().len())
    }

    #[test]
    fn a_label_lives_as_long_as_its_node() {
        let before = labels();
        let ((a, m), outer) = crate::create_root(|_| {
            let a = Signal::new(1).labelled("a");
            let m = Memo::new({
                let a = a.clone();
                move |_| a.get() + 1
            })
            .labelled("m");
            (a, m)
        });
        assert_eq!(labels(), before + 2);
        let a_node: super::DynNodeRc = a.inner.erase();
        assert_eq!(a_node.core().label().as_deref(), Some("a"));
        drop(a_node);
        let ((), inner) = crate::create_root(|_| {
            for i in 0..100 {
                let _ = Effect::new({
                    let m = m.clone();
                    move || {
                        m.get();
                    }
                })
                .labelled(&format!("e{i}"));
            }
        });
        assert_eq!(labels(), before + 102);
        inner.dispose();
        drop(inner);
        assert_eq!(
            labels(),
            before + 2,
            "dropped effects take their labels with them"
        );
        outer.dispose();
        drop((outer, a, m));
        assert_eq!(labels(), before, "so do the signal and the memo");
    }
}
