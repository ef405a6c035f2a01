//! The reactive graph itself: node identity, the per-thread runtime, scheduling, batching and tracking.
//!
//! Every thread has one graph, created the first time a node is made on it. Nodes are created with
//! [`Signal::new`](crate::Signal::new), [`Memo::new`](crate::Memo::new) and [`Effect::new`](crate::Effect::new); their
//! handles hold reference-counted pointers into the graph, so they are `!Send` and `!Sync`: the compiler refuses to move
//! a node to another thread. Use a [`GraphHost`](crate::host::GraphHost) to reach a graph from other threads.
//!
//! # The model
//!
//! * **Signals** hold values that the program writes.
//! * **Memos** derive values from signals and other memos. They are lazy (a memo nothing reads never runs), cached,
//!   and cut off: when a memo re-runs to an equal value, nothing below it runs.
//! * **Effects** run side effects. An effect runs once when it is created, then again after any write that moved one
//!   of the nodes it read, at the end of that write or of the outermost [`batch`].
//!
//! A write marks what lies below it *check* (maybe stale) or *dirty* (stale); effects are queued and, when the write
//! ends, each queued effect asks its sources, in the order it read them, to bring themselves up to date. A source
//! that recomputes to a new value makes its readers dirty; one that keeps its value leaves them clean. That is what
//! makes the graph glitch-free: in a diamond the bottom runs once per write, and no effect sees one leg new and the
//! other old.
//!
//! # The engine
//!
//! * A memo that an effect depends on (directly or through other memos) is *live*. A write queues the live memos it
//!   touches by *height* (one more than their highest source) and brings them up to date lowest first before any
//!   effect runs, so a memo that keeps its value queues nothing below it: a write stopped by a cutoff costs the same
//!   whatever lies below. Memos nothing live reads stay lazy, with check marks and a walk of their sources on read.
//!   A queued memo whose readers are all dirty already is left for them to pull: a reader that stops reading it
//!   (`if flag { a } else { expensive }`) does not make it run for nothing.
//! * A node's observers and a computation's sources are edge lists whose first entry is stored inline (`edges.rs`),
//!   so the common one-edge node allocates nothing for its edges; a computation that reads what its last run read,
//!   in the same order, changes no edge at all.
//! * In untraced builds a signal written again before any memo or effect has run skips re-marking its observers,
//!   which are still marked from the first write (a batch of many writes to one signal walks its observers once).
//! * Every node type is `#[repr(C)]` with the same head (`node.rs`), so the engine reaches a node's bookkeeping
//!   without a virtual call; only what differs by node type (running, marking, disposing) goes through its vtable.
//! * A node is one heap block: its counts, its head, its value, and (for memos and effects) its function inline
//!   (`handle.rs`). Node blocks, spilled edge lists and the chunks that list what a scope owns come from a per-thread
//!   pool (`pool.rs`), so a graph that makes and disposes nodes reuses their memory instead of calling the allocator
//!   for each, and never hands it the large frees that make glibc sweep its heap. The pool keeps at most 64 MiB of
//!   free blocks, and returns them at [`dispose_current`] and when the thread ends.
//!
//! # Examples
//!
//! ```
//! use ranvier::{batch, Effect, Memo, Signal};
//! use std::{cell::RefCell, rc::Rc};
//!
//! let width = Signal::new(2);
//! let height = Signal::new(3);
//! let area = Memo::new({
//!     let (width, height) = (width.clone(), height.clone());
//!     move |_| width.get() * height.get()
//! });
//! let seen = Rc::new(RefCell::new(Vec::new()));
//! let _log = Effect::new({
//!     let (area, seen) = (area.clone(), seen.clone());
//!     move || seen.borrow_mut().push(area.get())
//! });
//! batch(|| {
//!     width.set(4);
//!     height.set(5);
//! });
//! assert_eq!(*seen.borrow(), vec![6, 20]); // one run for the whole batch
//! ```

mod edges;
pub(crate) mod failures;
pub(crate) mod flights;
mod handle;
mod node;
mod pool;
pub(crate) mod record;
mod runtime;
pub(crate) mod scope;

pub(crate) use edges::Edges;
pub(crate) use handle::{NodeRc, WeakNode};
pub use node::NodeKind;
pub(crate) use node::{
    COMPUTATION_OFFSET, Comparer, Computation, Core, DynNodeRc, NodeBody, State, is_live, mark,
    mark_or_hand_off, remove_live,
};
pub(crate) use pool::{PoolBox, release_pool};
pub(crate) use runtime::{Running, Runtime, try_with_runtime, with_runtime};

use std::fmt;

/// Whether cloning a `T` is a copy that runs no program code: the primitive types a value is most often (decided per
/// type at compile time: each test folds to a constant). A read that clones such a value holds the value's cell
/// without writing its borrow flag (see [`Memo::get`](crate::Memo::get)): nothing can run while the reference lives.
#[inline(always)]
pub(crate) fn clone_is_copy<T: 'static>() -> bool {
    use std::any::TypeId;
    let t = TypeId::of::<T>();
    t == TypeId::of::<i64>()
        || t == TypeId::of::<i32>()
        || t == TypeId::of::<u64>()
        || t == TypeId::of::<u32>()
        || t == TypeId::of::<usize>()
        || t == TypeId::of::<isize>()
        || t == TypeId::of::<f64>()
        || t == TypeId::of::<f32>()
        || t == TypeId::of::<bool>()
        || t == TypeId::of::<u8>()
        || t == TypeId::of::<char>()
}

cfg_traced! {
    /// Where a read, write, batch or disposal was called from: the caller's source location in traced builds (the
    /// public entry points are `#[track_caller]` there), nothing at all in untraced ones.
    pub(crate) type CallSite = &'static std::panic::Location<'static>;

    /// The caller's [`CallSite`]: call it first thing in a `#[track_caller]` function (closures do not carry the
    /// caller's location).
    #[track_caller]
    #[inline(always)]
    pub(crate) fn call_site() -> CallSite {
        std::panic::Location::caller()
    }

    /// Runs `f`, a disposal called at `site`: the trace records `site` as where every node `f` disposes was disposed
    /// (the outermost call's site, when disposals nest).
    #[inline]
    pub(crate) fn disposing_at<R>(site: CallSite, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<record::log::SiteRef>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0;
                runtime::try_with_runtime(|rt| {
                    rt.tracer.set_disposing(previous);
                });
            }
        }
        let previous = with_runtime(|rt| rt.tracer.set_disposing(Some(site.into())));
        let _restore = Restore(previous);
        f()
    }
}

cfg_untraced! {
    /// See the traced definition: an untraced build keeps no call sites.
    pub(crate) type CallSite = ();

    /// See the traced definition.
    #[inline(always)]
    pub(crate) fn call_site() -> CallSite {}

    /// See the traced definition: runs `f`.
    #[inline]
    pub(crate) fn disposing_at<R>(site: CallSite, f: impl FnOnce() -> R) -> R {
        let () = site;
        f()
    }
}

/// Runs what the graph thread's async nodes wait for: the settles other threads sent through
/// [`Settler`](crate::async_source::Settler)s, and the [`AsyncMemo`](crate::AsyncMemo) flights that were woken, polled
/// until nothing is ready. Returns how many flights are still pending.
///
/// A [`GraphHost`](crate::host::GraphHost) calls it by itself whenever something is woken; call it on a graph
/// thread without a host (a test, a UI loop). Called while it runs (from a flight or an effect it woke), it returns
/// at once.
///
/// # Examples
///
/// ```
/// use ranvier::{AsyncMemo, graph};
///
/// let answer = AsyncMemo::new(|_| async { 42 });
/// assert!(answer.get().is_pending());
/// assert_eq!(graph::run_flights(), 0);
/// assert_eq!(answer.get().value_or(0), 42);
/// ```
pub fn run_flights() -> usize {
    flights::drain()
}

/// How many [`AsyncMemo`](crate::AsyncMemo) flights are started and not finished on this thread.
pub fn pending_flights() -> usize {
    flights::pending()
}

/// The identity of a node in its graph: a number from a per-graph counter, starting at 1.
///
/// It displays as `#7`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(pub u32);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Anything that is a node of the graph: [`Signal`](crate::Signal), [`Memo`](crate::Memo),
/// [`Effect`](crate::Effect) and [`Mvu`](crate::Mvu) (its model signal), and the kinds built on them, which answer with
/// the node that holds their value: [`EffectOn`](crate::EffectOn) (its effect), [`Editable`](crate::Editable) and
/// [`Draft`](crate::Draft) (their value memo), the [`timed`](crate::timed) nodes (their value signal).
pub trait AnyNode {
    /// The node's identity in its graph.
    fn node_id(&self) -> NodeId;
}

/// The failure a memo or effect recorded when its body panicked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeError {
    /// The node that failed.
    pub node: NodeId,
    /// What went wrong: the panic message, or why the node was stopped.
    pub message: String,
}

impl fmt::Display for NodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {} failed: {}", self.node, self.message)
    }
}

impl std::error::Error for NodeError {}

/// Runs `f` with effects deferred to the end of the outermost batch, and returns its value.
///
/// Memos read inside a batch are current: they are pulled on demand. Only effects wait. A batch that panics is still
/// closed, and the effects it woke still run.
///
/// # Examples
///
/// ```
/// use ranvier::{batch, Effect, Signal};
/// use std::{cell::Cell, rc::Rc};
///
/// let a = Signal::new(1);
/// let runs = Rc::new(Cell::new(0));
/// let _e = Effect::new({
///     let (a, runs) = (a.clone(), runs.clone());
///     move || { a.get(); runs.set(runs.get() + 1); }
/// });
/// batch(|| { a.set(2); a.set(3); });
/// assert_eq!(runs.get(), 2); // once at creation, once for the batch
/// ```
#[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
pub fn batch<R>(f: impl FnOnce() -> R) -> R {
    let site = call_site();
    with_runtime(|rt| rt.batch_at(site, f))
}

/// Runs the effects that are queued, now, and returns when they (and the effects they wake) have run.
///
/// Outside a batch there is rarely anything to run: a write runs the effects it wakes before it returns. The rules
/// (F# Ranvier's):
///
/// - **Inside a [`batch`]** it drains the queue at once: the effects woken so far run now, and the batch goes on
///   deferring the effects woken after.
/// - **Inside a running flush** (an effect's function) it does nothing: flushes never nest, and the running flush
///   goes on to run what was queued, after the effect that called it.
/// - **Inside a memo's function** the flush is owed to the end of the outermost function, so no effect runs while a
///   memo is half computed.
///
/// # Examples
///
/// ```
/// use ranvier::{batch, flush, Effect, Signal};
/// use std::{cell::RefCell, rc::Rc};
///
/// let step = Signal::new(0);
/// let seen = Rc::new(RefCell::new(Vec::new()));
/// let _e = Effect::new({
///     let (step, seen) = (step.clone(), seen.clone());
///     move || seen.borrow_mut().push(step.get())
/// });
/// batch(|| {
///     step.set(1);
///     flush(); // the effect sees 1 now, inside the batch
///     step.set(2);
///     step.set(3);
/// });
/// assert_eq!(*seen.borrow(), [0, 1, 3]);
/// ```
pub fn flush() {
    with_runtime(|rt| rt.flush_now());
}

/// Runs `f` without tracking: nodes it reads do not become sources of the running memo or effect.
///
/// # Examples
///
/// ```
/// use ranvier::{untrack, Memo, Signal};
///
/// let a = Signal::new(1);
/// let b = Signal::new(10);
/// let sum = Memo::new({
///     let (a, b) = (a.clone(), b.clone());
///     move |_| a.get() + untrack(|| b.get())
/// });
/// assert_eq!(sum.get(), 11);
/// b.set(20); // not a source: the memo keeps its value
/// assert_eq!(sum.get(), 11);
/// ```
pub fn untrack<R>(f: impl FnOnce() -> R) -> R {
    with_runtime(|rt| rt.untracked(f))
}

/// Disposes the current thread's graph: every scope, memo and effect created on this thread is disposed (cleanups
/// run, last registered first), and the next node created on this thread starts a fresh graph with ids from 1.
///
/// [`GraphHost`](crate::host::GraphHost) calls this on its thread when it shuts down.
///
/// A thread that ends without calling it still frees its graph: the runtime breaks every edge of what the graph owns
/// as the thread's locals are torn down, so nodes that hold each other are released. Nothing runs then, cleanups
/// included (the graph they might use is already gone), so call this first if cleanups must run.
pub fn dispose_current() {
    Runtime::dispose_current();
}

/// Bytes of memory freed by this thread's nodes that the thread keeps for new ones.
///
/// A node's block, its short edge lists and the chunks that list what a scope owns go back to a per-thread pool when
/// they are freed, and the next node of the same size reuses them. The pool keeps at most 64 MiB; this is how much
/// it holds now. [`dispose_current`] gives it all back to the allocator, and so does the thread's end.
///
/// # Examples
///
/// ```
/// use ranvier::{create_root, graph, Effect, Signal};
///
/// let source = Signal::new(0);
/// let ((), rows) = create_root(|_| {
///     for _ in 0..100 {
///         let source = source.clone();
///         Effect::new(move || {
///             source.get();
///         });
///     }
/// });
/// rows.dispose();
/// drop(rows);
/// graph::dispose_current();
/// assert_eq!(graph::pooled_bytes(), 0, "given back to the allocator");
/// ```
pub fn pooled_bytes() -> usize {
    pool::pooled_bytes()
}

/// Errors that effects recorded since the last call, oldest first: panics in effect bodies and effects stopped for
/// re-running without end. They never escape a flush, so this is where to find them.
pub fn take_errors() -> Vec<NodeError> {
    with_runtime(|rt| std::mem::take(&mut *rt.errors.borrow_mut()))
}

/// How many times an effect may re-run within one flush before it is stopped with an error naming it (an effect
/// that keeps moving its own source would otherwise never end).
pub const MAX_EFFECT_RERUNS: u32 = 100;
