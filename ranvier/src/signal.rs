//! Signals: the values a program writes.
//!
//! A [`Signal`] holds a value. Reading it with [`get`](Signal::get) or [`with`](Signal::with) inside a memo or
//! effect makes it a source of that computation; [`peek`](Signal::peek) reads without tracking. Writing it with
//! [`set`](Signal::set) or [`update`](Signal::update) wakes what read it, unless the new value equals the old one
//! (by `PartialEq`, or by the comparer given to [`Signal::with_comparer`]): an equal write does nothing at all.

use crate::graph::{
    AnyNode, CallSite, Comparer, Core, NodeBody, NodeId, NodeKind, NodeRc, State, with_runtime,
};
use std::cell::{Cell, RefCell};
use std::fmt;

/// A writable value in the graph.
///
/// Cheap to clone (all clones are the same signal), and `!Send`: a signal stays on the thread that made it.
///
/// # Examples
///
/// ```
/// use ranvier::Signal;
///
/// let count = Signal::new(1);
/// count.set(2);
/// count.update(|n| *n += 1);
/// assert_eq!(count.get(), 3);
/// ```
pub struct Signal<T: 'static> {
    pub(crate) inner: NodeRc<SignalInner<T>>,
}

#[repr(C)]
pub(crate) struct SignalInner<T> {
    core: Core,
    pub(crate) value: RefCell<T>,
    eq: Comparer<T>,
    /// The runtime's run count when this signal last notified its observers (0: never).
    notified: Cell<u64>,
}

impl<T> Clone for Signal<T> {
    fn clone(&self) -> Self {
        Signal {
            inner: self.inner.clone(),
        }
    }
}

impl<T: fmt::Debug + 'static> Signal<T> {
    /// Creates a signal holding `value`. Writes equal to the current value (by `PartialEq`) do nothing.
    #[track_caller]
    pub fn new(value: T) -> Self
    where
        T: PartialEq,
    {
        Self::build(value, T::eq)
    }

    /// Creates a signal whose writes are compared to the current value with `eq`; a write `eq` calls equal does
    /// nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{Effect, Signal};
    /// use std::{cell::Cell, rc::Rc};
    ///
    /// // Compare names case-insensitively.
    /// let name = Signal::with_comparer("Ada".to_string(), |a, b| a.eq_ignore_ascii_case(b));
    /// let runs = Rc::new(Cell::new(0));
    /// let _e = Effect::new({
    ///     let (name, runs) = (name.clone(), runs.clone());
    ///     move || { name.get(); runs.set(runs.get() + 1); }
    /// });
    /// name.set("ADA".to_string()); // equal by the comparer: nothing happens
    /// assert_eq!(name.get(), "Ada");
    /// assert_eq!(runs.get(), 1);
    /// ```
    #[track_caller]
    pub fn with_comparer(value: T, eq: impl Fn(&T, &T) -> bool + 'static) -> Self {
        let signal = Self::build(value, eq);
        with_runtime(|rt| trace_hook!(rt, custom_comparer(signal.id())));
        signal
    }

    #[track_caller]
    pub(crate) fn build(value: T, eq: impl Fn(&T, &T) -> bool + 'static) -> Self {
        Self::build_at(value, eq, std::panic::Location::caller())
    }

    /// [`build`](Signal::build), recording `site` as where the signal was made (a keyed collection's rows record the
    /// collection's line).
    #[inline(always)]
    pub(crate) fn build_at(
        value: T,
        eq: impl Fn(&T, &T) -> bool + 'static,
        site: &'static std::panic::Location<'static>,
    ) -> Self {
        with_runtime(|rt| {
            let id = rt.next_id();
            let inner = NodeRc::new_with(|| SignalInner {
                core: Core::new(id, NodeKind::Signal, site),
                value: RefCell::new(value),
                eq: Box::new(eq),
                notified: Cell::new(0),
            });
            trace_hook!(
                rt,
                node_new(id, NodeKind::Signal, site, None, rt.running_id(), || {
                    inner.downgrade()
                })
            );
            Signal { inner }
        })
    }

    /// Sets the node's label, the name the trace and the MCP tools give it (`count#3`), and returns the signal.
    pub fn labelled(self, label: &str) -> Self {
        self.inner.core.set_label(label);
        self
    }

    /// Returns a clone of the value, and makes the signal a source of the running memo or effect.
    #[inline]
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn get(&self) -> T
    where
        T: Clone,
    {
        if crate::graph::clone_is_copy::<T>() {
            self.track(crate::graph::call_site());
            // SAFETY: cloning a `T` is a copy (`clone_is_copy`): no code runs that could write the value while the
            // reference lives; the flag is still checked (a writer panics, as `borrow` does).
            return unsafe { self.inner.value.try_borrow_unguarded() }
                .expect("value")
                .clone();
        }
        self.with(T::clone)
    }

    /// Calls `f` with the value, and makes the signal a source of the running memo or effect.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.with_at(crate::graph::call_site(), f)
    }

    /// [`with`](Signal::with), recording the read at `site` (traced builds).
    #[inline]
    pub(crate) fn with_at<R>(&self, site: CallSite, f: impl FnOnce(&T) -> R) -> R {
        self.track(site);
        f(&self.inner.value.borrow())
    }

    /// Returns a clone of the value without tracking.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn peek(&self) -> T
    where
        T: Clone,
    {
        self.with_untracked(T::clone)
    }

    /// Calls `f` with the value without tracking.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn with_untracked<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        let site = crate::graph::call_site();
        with_runtime(|rt| {
            trace_hook!(
                rt,
                untracked_read(rt.running_id(), self.inner.core.id, site)
            )
        });
        f(&self.inner.value.borrow())
    }

    /// Calls `f` with the value, recording nothing: the read an [`Mvu`](crate::Mvu)'s dispatch makes on behalf of
    /// its `update`.
    pub(crate) fn with_unrecorded<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.inner.value.borrow())
    }

    /// Writes `value`. If it equals the current value, nothing happens; otherwise the signal's readers are marked and
    /// the effects it wakes run at the end of this write (or of the outermost batch).
    ///
    /// # Panics
    ///
    /// Panics if called while the value is borrowed by [`with`](Signal::with) on the same signal.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn set(&self, value: T) {
        self.set_at(crate::graph::call_site(), value);
    }

    /// [`set`](Signal::set), recording the write at `site` (traced builds).
    #[inline]
    pub(crate) fn set_at(&self, site: CallSite, value: T) {
        let inner = &self.inner;
        let moved = !(inner.eq)(&inner.value.borrow(), &value);
        with_runtime(|rt| {
            if !moved {
                trace_hook!(
                    rt,
                    write(inner.core.id, rt.running_id(), false, &value, site)
                );
                return;
            }
            *inner.value.borrow_mut() = value;
            trace_hook!(
                rt,
                write(
                    inner.core.id,
                    rt.running_id(),
                    true,
                    &*inner.value.borrow(),
                    site
                )
            );
            // A second write in a batch finds its observers still marked: skip the walk (traced builds walk it
            // again, so each write's marks are in the log).
            let runs = rt.run_count.get();
            if inner.notified.replace(runs) != runs || rt.tracer.enabled() {
                notify(rt, &inner.core);
            }
            rt.request_flush();
        });
    }

    /// Changes the value in place with `f`, then compares it to the old value: an equal result does nothing.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn update(&self, f: impl FnOnce(&mut T))
    where
        T: Clone,
    {
        let site = crate::graph::call_site();
        let mut value = self.inner.value.borrow().clone();
        f(&mut value);
        self.set_at(site, value);
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.inner.core.id
    }

    fn track(&self, site: CallSite) {
        let inner = &self.inner;
        with_runtime(|rt| {
            rt.track(&inner.core, inner.as_ptr(), site, || inner.erase());
        });
    }
}

/// Marks every observer of a moved source dirty.
pub(crate) fn notify(rt: &crate::graph::Runtime, core: &Core) {
    let observers = core.observers.borrow();
    for observer in observers.iter() {
        crate::graph::mark(observer, State::Dirty, core.id, rt);
    }
}

/// The longest live value text the trace reads from a node, in bytes, as long as a recorded one
/// (`VALUE_TEXT_CAP`): a model of a hundred thousand items is not formatted whole to show its first line.
pub(crate) const LIVE_TEXT_MAX: usize = crate::graph::record::log::VALUE_TEXT_CAP;

impl<T: fmt::Debug> SignalInner<T> {
    /// The part every node has.
    pub(crate) fn core(&self) -> &Core {
        &self.core
    }

    fn debug_text(&self) -> String {
        crate::text::debug_within(&*self.value.borrow(), LIVE_TEXT_MAX)
    }
}

// The layout the engine relies on, checked at compile time (for one value type: `repr(C)` puts `core` first
// whatever it is).
assert_node_layout!(SignalInner<u8>);

// SAFETY: `#[repr(C)]`, `core` first (asserted above).
unsafe impl<T: fmt::Debug + 'static> NodeBody for SignalInner<T> {
    fn value_text(&self) -> Option<String> {
        Some(self.debug_text())
    }
}

impl<T: 'static> AnyNode for Signal<T> {
    fn node_id(&self) -> NodeId {
        self.inner.core.id
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for Signal<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signal")
            .field("id", &self.inner.core.id)
            .field("value", &self.inner.value.borrow())
            .finish()
    }
}
