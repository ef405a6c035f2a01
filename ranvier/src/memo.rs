//! Memos: derived values, cached, computed on demand, and cut off when they do not change.
//!
//! A [`Memo`] runs its function the first time something reads it, caches the result, and runs again only when a
//! node it read has moved *and* something reads it. When a re-run returns a value equal to the cached one (by
//! `PartialEq`, or by the comparer given to [`Memo::with_comparer`]), the memo keeps its value and nothing that reads
//! it runs: that is the cutoff.
//!
//! # Reading
//!
//! The names mean what they mean on every node kind: [`get`](Memo::get) returns the value and makes the memo a
//! source of the running memo or effect; [`peek`](Memo::peek) returns the same value without tracking (the memo is
//! brought up to date first, as for `get`). [`cached`](Memo::cached) is the memo's own: what it holds now, without
//! running it (`None` before its first run).
//!
//! # Failures
//!
//! A memo whose function panics records the failure and keeps its previous value; the graph stays usable. Reading a
//! failed memo with [`get`](Memo::get) or [`with`](Memo::with) panics with the recorded message (so a memo or effect
//! reading it fails in turn, and records it); [`try_get`](Memo::try_get) returns the failure as a [`NodeError`].
//! The memo runs again when one of its sources moves.

use crate::graph::{
    AnyNode, Computation, Core, DynNodeRc, Edges, NodeBody, NodeError, NodeId, NodeKind, NodeRc,
    Runtime, State, is_live, remove_live, with_runtime,
};
use std::cell::{RefCell, UnsafeCell};
use std::fmt;
use std::marker::PhantomData;
use std::rc::Rc;

/// A derived, cached value.
///
/// Cheap to clone (all clones are the same memo), and `!Send`.
///
/// # Examples
///
/// ```
/// use ranvier::{Memo, Signal};
///
/// let price = Signal::new(250);
/// let quantity = Signal::new(2);
/// let total = Memo::new({
///     let (price, quantity) = (price.clone(), quantity.clone());
///     move |_| price.get() * quantity.get()
/// });
/// assert_eq!(total.get(), 500);
/// quantity.set(3);
/// assert_eq!(total.get(), 750);
/// ```
pub struct Memo<T: 'static> {
    /// A `MemoInner<T, F>`: the function lives in the node's own allocation, and the memo reaches the rest through
    /// [`MemoHead`], which does not depend on the function's type.
    node: DynNodeRc,
    _value: PhantomData<T>,
}

/// The part of a memo that does not depend on its function's type.
#[repr(C)]
struct MemoHead<T> {
    core: Core,
    comp: Computation,
    value: RefCell<Option<T>>,
}

/// A memo: its head, then its comparer and its function, whose types are known here, so that a derived `PartialEq`
/// (`Memo::new`) is called inline rather than through a box.
#[repr(C)]
struct MemoInner<T, F, E> {
    head: MemoHead<T>,
    eq: E,
    /// The function. Reached only inside its own run's body, where the computation's `running` flag turns every
    /// re-entry away (`update_derived` returns, a read of the memo panics), so no borrow flag is needed.
    f: UnsafeCell<F>,
}

// The layout `Memo::inner` and the engine rely on, checked at compile time (`repr(C)` puts `core` and `comp` before
// the value whatever its type, so one value type stands for all).
assert_node_layout!(MemoHead<u8>, computation);
const _: () = assert!(
    std::mem::offset_of!(MemoInner<u8, fn(Option<&u8>) -> u8, fn(&u8, &u8) -> bool>, head) == 0,
    "a MemoInner must begin with its MemoHead (Memo::inner reads it through the node's pointer)"
);

impl<T> Clone for Memo<T> {
    fn clone(&self) -> Self {
        Memo {
            node: self.node.clone(),
            _value: PhantomData,
        }
    }
}

impl<T> Memo<T> {
    /// The memo's value and state.
    #[inline(always)]
    fn inner(&self) -> &MemoHead<T> {
        // SAFETY: `node` was made from a `MemoInner<T, F>` (in `Memo::with_comparer`, the only constructor), which is
        // `#[repr(C)]` and begins with its `MemoHead<T>`; the handle keeps it alive.
        unsafe { &*(self.node.as_ptr() as *const MemoHead<T>) }
    }
}

impl<T: fmt::Debug + 'static> Memo<T> {
    /// Creates a memo computing `f`. The argument of `f` is the memo's previous value (`None` on the first run).
    /// A result equal to the previous value (by `PartialEq`) keeps the memo's value and wakes nothing.
    #[track_caller]
    pub fn new(f: impl FnMut(Option<&T>) -> T + 'static) -> Self
    where
        T: PartialEq,
    {
        Self::build(f, T::eq)
    }

    /// Creates a memo whose results are compared to the previous value with `eq`: a result `eq` calls equal keeps the
    /// previous value and wakes nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Memo, Signal};
    ///
    /// let celsius = Signal::new(20.0_f64);
    /// // Readers only care about whole degrees.
    /// let rounded = Memo::with_comparer(
    ///     { let c = celsius.clone(); move |_| c.get() },
    ///     |a, b| a.round() == b.round(),
    /// );
    /// assert_eq!(rounded.get(), 20.0);
    /// celsius.set(20.2);
    /// assert_eq!(rounded.get(), 20.0); // cut off: kept its value
    /// ```
    #[track_caller]
    pub fn with_comparer(
        f: impl FnMut(Option<&T>) -> T + 'static,
        eq: impl Fn(&T, &T) -> bool + 'static,
    ) -> Self {
        let memo = Self::build(f, eq);
        with_runtime(|rt| trace_hook!(rt, custom_comparer(memo.id())));
        memo
    }

    #[track_caller]
    pub(crate) fn build(
        f: impl FnMut(Option<&T>) -> T + 'static,
        eq: impl Fn(&T, &T) -> bool + 'static,
    ) -> Self {
        let site = std::panic::Location::caller();
        with_runtime(|rt| {
            let id = rt.next_id();
            let inner = NodeRc::new_with(|| MemoInner {
                head: MemoHead {
                    core: Core::new(id, NodeKind::Memo, site),
                    comp: Computation::new(),
                    value: RefCell::new(None),
                },
                eq,
                f: UnsafeCell::new(f),
            });
            trace_hook!(
                rt,
                node_new(
                    id,
                    NodeKind::Memo,
                    site,
                    rt.running_id(),
                    rt.running_id(),
                    || inner.downgrade()
                )
            );
            let node = inner.erase();
            rt.adopt(node.clone());
            Memo {
                node,
                _value: PhantomData,
            }
        })
    }

    /// Sets the node's label, the name the trace and the MCP tools give it (`total#5`), and returns the memo.
    pub fn labelled(self, label: &str) -> Self {
        self.inner().core.set_label(label);
        self
    }

    /// Brings the memo up to date, makes it a source of the running memo or effect, and returns a clone of its value.
    ///
    /// # Panics
    ///
    /// Panics if the memo's function panicked on its last run (see [`try_get`](Memo::try_get)), or if the memo reads
    /// itself.
    #[inline]
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn get(&self) -> T
    where
        T: Clone,
    {
        match self.read(true, crate::graph::clone_is_copy::<T>(), T::clone) {
            Ok(value) => value,
            Err(e) => failed_read(e),
        }
    }

    /// Like [`get`](Memo::get), but returns the recorded failure instead of panicking when the memo's function
    /// panicked.
    ///
    /// # Errors
    ///
    /// Returns the [`NodeError`] of the memo's last run if its function panicked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn try_get(&self) -> Result<T, NodeError>
    where
        T: Clone,
    {
        self.try_with(T::clone)
    }

    /// Brings the memo up to date, tracks it, and calls `f` with its value.
    ///
    /// # Panics
    ///
    /// As [`get`](Memo::get).
    #[inline]
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        match self.try_with(f) {
            Ok(r) => r,
            Err(e) => failed_read(e),
        }
    }

    #[inline]
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    fn try_with<R>(&self, f: impl FnOnce(&T) -> R) -> Result<R, NodeError> {
        self.read(true, false, f)
    }

    /// Brings the memo up to date, records the read at the caller (tracked or not), and calls `f` with its value.
    /// `leaf`: `f` runs no program code (a copy), so the value is held without writing its borrow flag.
    #[inline]
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    fn read<R>(&self, tracked: bool, leaf: bool, f: impl FnOnce(&T) -> R) -> Result<R, NodeError> {
        let site = crate::graph::call_site();
        let inner = self.inner();
        with_runtime(|rt| {
            // One test for the common case, a clean memo read while no live memo waits; the rest out of line.
            if inner.comp.flags() & Computation::STATE_RUNNING != 0 || rt.has_eager() {
                self.refresh(rt);
            }
            if tracked {
                rt.track(&inner.core, self.node.as_ptr(), site, || self.node.clone());
            } else {
                trace_hook!(rt, untracked_read(rt.running_id(), inner.core.id, site));
            }
        });
        if inner.comp.has_failed() {
            return Err(self.read_error());
        }
        if leaf {
            // SAFETY: `f` is a copy (`leaf`), so no code runs that could write the value while the reference lives;
            // the flag is still checked (a writer panics, as `borrow` does).
            return match unsafe { inner.value.try_borrow_unguarded() }.expect("value") {
                Some(value) => Ok(f(value)),
                None => Err(self.read_error()),
            };
        }
        match &*inner.value.borrow() {
            Some(value) => Ok(f(value)),
            None => Err(self.read_error()),
        }
    }

    /// Before a read: refuses a memo reading itself, brings the waiting live memos up to date, then this one.
    #[inline(never)]
    fn refresh(&self, rt: &Runtime) {
        let inner = self.inner();
        if inner.comp.running.get() {
            panic!(
                "memo {} reads itself while it runs (a cycle)",
                inner.core.id
            );
        }
        if rt.has_eager() {
            rt.drain_eager();
        }
        if inner.comp.state.get() != State::Clean {
            self.node.update_if_necessary(&self.node, rt);
        }
    }

    /// Why a read has no value: the failure of the memo's last run, or no run yet.
    #[cold]
    #[inline(never)]
    fn read_error(&self) -> NodeError {
        let inner = self.inner();
        NodeError {
            node: inner.core.id,
            message: match inner.comp.error() {
                Some(message) => message.to_string(),
                None => "the memo has no value".into(),
            },
        }
    }

    /// Brings the memo up to date and returns a clone of its value, without tracking: the running memo or effect
    /// does not run again when this memo moves. The untracked form of [`get`](Memo::get), as
    /// [`Signal::peek`](crate::Signal::peek) is of [`Signal::get`](crate::Signal::get). A traced build records the
    /// read, and `explain` reports it (`unread:`) when the memo moved after it.
    ///
    /// # Panics
    ///
    /// As [`get`](Memo::get).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Memo, Signal};
    ///
    /// let s = Signal::new(1);
    /// let double = Memo::new({
    ///     let s = s.clone();
    ///     move |_| s.get() * 2
    /// });
    /// assert_eq!(double.peek(), 2, "computed on the first read");
    /// s.set(5);
    /// assert_eq!(double.peek(), 10, "brought up to date, like get");
    /// ```
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn peek(&self) -> T
    where
        T: Clone,
    {
        match self.read(false, crate::graph::clone_is_copy::<T>(), T::clone) {
            Ok(value) => value,
            Err(e) => failed_read(e),
        }
    }

    /// Returns a clone of the value the memo holds now, without running it and without tracking: `None` before its
    /// first run, and the old value when its sources moved since it last ran (or when its last run failed). A traced
    /// build records the read, as for [`peek`](Memo::peek).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Memo, Signal};
    ///
    /// let s = Signal::new(1);
    /// let double = Memo::new({
    ///     let s = s.clone();
    ///     move |_| s.get() * 2
    /// });
    /// assert_eq!(double.cached(), None, "never run");
    /// assert_eq!(double.get(), 2);
    /// s.set(5);
    /// assert_eq!(double.cached(), Some(2), "not run again: the cached, stale value");
    /// ```
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn cached(&self) -> Option<T>
    where
        T: Clone,
    {
        let site = crate::graph::call_site();
        with_runtime(|rt| {
            trace_hook!(
                rt,
                untracked_read(rt.running_id(), self.inner().core.id, site)
            )
        });
        self.inner().value.borrow().clone()
    }

    /// The failure recorded by the last run, if its function panicked.
    pub fn error(&self) -> Option<NodeError> {
        self.inner().comp.error().map(|m| NodeError {
            node: self.inner().core.id,
            message: m.to_string(),
        })
    }

    /// How many times the memo's function has run.
    pub fn runs(&self) -> u32 {
        self.inner().comp.runs.get()
    }

    /// Disposes the memo: it keeps its last value and stops tracking.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispose(&self) {
        let site = crate::graph::call_site();
        crate::graph::disposing_at(site, || self.node.dispose(&self.node));
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.inner().core.id
    }
}

impl<T, F, E> std::ops::Deref for MemoInner<T, F, E> {
    type Target = MemoHead<T>;

    #[inline(always)]
    fn deref(&self) -> &MemoHead<T> {
        &self.head
    }
}

impl<T: fmt::Debug + 'static, F: FnMut(Option<&T>) -> T + 'static, E: Fn(&T, &T) -> bool + 'static>
    MemoInner<T, F, E>
{
    /// Runs the memo's function and stores a value that moved, marking its observers; a sole observer may be handed
    /// on to run next instead of queued ([`mark_or_hand_off`](crate::graph::mark_or_hand_off)).
    fn recompute(&self, this: &DynNodeRc, rt: &Runtime) {
        {
            let comp = &self.comp;
            // `run_computation` sets the state `Clean` (with `running`, in one store).
            trace_hook!(
                rt,
                run_start(self.core.id, comp.runs.get() + 1, rt.running_id())
            );
            // The previous value stays in place while the body runs, borrowed without a guard.
            // SAFETY: only `recompute` and `failed_run` (its cold path, after the body) write a memo's value, and
            // `recompute` does not run again while `comp.running` is set (`update_derived` returns at once for a
            // running memo, and a read of it panics: a cycle); so nothing writes the value while `kept` lives, and
            // the body's own shared borrows of it (`cached`, `Debug`) are shared too. The flag is still checked:
            // a `with` closure of this memo that is open around the run is a shared borrow as well.
            // The slot is held as a reference and matched after the body, not taken apart before it: whether it
            // holds a value is then read where it is tested, not kept on the stack across the body.
            let kept = unsafe { self.value.try_borrow_unguarded() }.expect("value");
            let result = rt.run_computation(this, comp, || {
                // SAFETY: the body runs with `comp.running` set, so nothing reaches `f` again until it returns:
                // `update_derived` returns at once for a running memo and a read of it panics (a cycle), and
                // only `recompute` touches `f`.
                let f = unsafe { &mut *self.f.get() };
                f(kept.as_ref())
            });
            let moved = match result {
                Ok(new) => {
                    let had_error = comp.set_error(None).is_some();
                    match kept {
                        Some(prev) if !had_error && (self.eq)(prev, &new) => {
                            trace_hook!(rt, kept_over(self.core.id, &new));
                            false
                        }
                        _ => {
                            // The old value is dropped once the borrow is released (its drop may read the memo).
                            drop(self.value.replace(Some(new)));
                            true
                        }
                    }
                }
                Err(message) => self.failed_run(message),
            };
            trace_hook!(
                rt,
                memo_run_end(self.core.id, moved, comp.error().as_deref(), &self.value)
            );
            if moved {
                // SAFETY: marking runs no program code (it sets states and queues nodes), so nothing links or unlinks
                // an edge of this node while the list is read; the borrow flag is still checked. A handed observer
                // runs (`hand_on`) only after the list's last use: its handle is a clone.
                let observers =
                    unsafe { self.core.observers.try_borrow_unguarded() }.expect("observers");
                if let Edges::One(only) = observers {
                    if !rt.is_running(only.as_ptr())
                        && let Some(next) = crate::graph::mark_or_hand_off(only, &self.core, rt)
                    {
                        rt.end_body();
                        rt.hand_on(next);
                        return;
                    }
                } else {
                    for observer in observers.iter() {
                        if rt.is_running(observer.as_ptr()) {
                            continue;
                        }
                        crate::graph::mark(observer, State::Dirty, self.core.id, rt);
                    }
                }
            }
            rt.end_body();
        }
    }

    /// The run panicked with `message`: the memo keeps its previous value and records the failure. Whether the failure is new.
    #[cold]
    #[inline(never)]
    fn failed_run(&self, message: String) -> bool {
        crate::graph::failures::report(
            &self.core,
            crate::graph::failures::FailureKind::MemoPanicked,
            &message,
        );
        let previous = self.comp.set_error(Some(Rc::from(message.as_str())));
        previous.as_deref() != Some(message.as_str())
    }

    fn debug_text(&self) -> String {
        match &*self.value.borrow() {
            Some(v) => crate::text::debug_within(v, crate::signal::LIVE_TEXT_MAX),
            None => "(no value)".into(),
        }
    }
}

/// Walks a computation's sources in read order, bringing each up to date, until one makes it dirty.
/// Panics with a failed memo's error (out of line: the read path stays small).
#[cold]
#[inline(never)]
#[track_caller]
fn failed_read(e: NodeError) -> ! {
    panic!("{e}")
}

pub(crate) fn resolve_check(this: &dyn NodeBody, comp: &Computation, rt: &Runtime) {
    trace_hook!(rt, check_start(this.core().id));
    let mut i = 0;
    let mut answered = None;
    loop {
        let source = {
            let sources = comp.sources.borrow();
            match sources.as_slice().get(i) {
                Some(s) => s.clone(),
                None => break,
            }
        };
        source.update_if_necessary(&source, rt);
        if comp.state.get() == State::Dirty {
            answered = Some(source.core().id);
            break;
        }
        i += 1;
    }
    trace_hook!(rt, check_resolved(this.core().id, answered));
    if comp.state.get() == State::Check {
        comp.state.set(State::Clean);
    }
}

// SAFETY: `#[repr(C)]`, and so is its `head`, which begins with `core` then `comp` (asserted above).
unsafe impl<
    T: fmt::Debug + 'static,
    F: FnMut(Option<&T>) -> T + 'static,
    E: Fn(&T, &T) -> bool + 'static,
> NodeBody for MemoInner<T, F, E>
{
    fn update_if_necessary(&self, this: &DynNodeRc, rt: &Runtime) {
        update_derived(self, &self.comp, rt, || self.recompute(this, rt));
    }

    fn dispose(&self, this: &DynNodeRc) {
        dispose_computation(this, &self.comp);
    }

    fn value_text(&self) -> Option<String> {
        Some(self.debug_text())
    }
}

/// Brings a derived node (a memo, an async memo) up to date: resolves a `Check` against its sources, then runs
/// `recompute` if that left it `Dirty`. Nothing for a disposed node or one that is running.
#[inline(always)]
pub(crate) fn update_derived(
    node: &dyn NodeBody,
    comp: &Computation,
    rt: &Runtime,
    recompute: impl FnOnce(),
) {
    // Disposed, running and the state in one load: the common case, dirty and idle, is one test. `recompute` has
    // one call site (it is inlined there).
    let flags = comp.flags() & Computation::STATE_RUNNING_DISPOSED;
    if flags != Computation::idle_in(State::Dirty) {
        if flags != Computation::idle_in(State::Check) {
            // Clean, running or disposed.
            return;
        }
        // Laid out after the dirty path: without it LLVM tested `Check` first, two more instructions for a run.
        std::hint::cold_path();
        resolve_check(node, comp, rt);
        if comp.state.get() != State::Dirty {
            return;
        }
    }
    recompute();
}

/// Disposes a memo or effect: its run scope, then its edges to its sources.
pub(crate) fn dispose_computation(this: &DynNodeRc, comp: &Computation) {
    let was_live = is_live(&**this);
    if comp.disposed.replace(true) {
        return;
    }
    with_runtime(|rt| {
        rt.count_disposal();
        rt.discharge(comp);
        let me = this.as_ptr();
        let sources = std::mem::take(&mut *comp.sources.borrow_mut());
        for source in sources {
            source.core().remove_observer(me);
            if was_live {
                remove_live(&*source);
            }
        }
        trace_hook!(rt, dispose(this.core().id));
    });
}

impl<T: 'static> AnyNode for Memo<T> {
    fn node_id(&self) -> NodeId {
        self.inner().core.id
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Memo")
            .field("id", &self.inner().core.id)
            .field("value", &self.inner().value.borrow())
            .finish()
    }
}
