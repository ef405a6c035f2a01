//! Async memos: derived values computed by a future.
//!
//! An [`AsyncMemo<T>`] is a function of its previous settled value that reads its sources synchronously (those
//! reads are tracked, as in a [`Memo`](crate::Memo)) and returns a future. Each run starts a **flight**: the future
//! runs on the graph thread as a local task (so it need not be `Send`), and settles the memo when it completes. While
//! a flight is in the air the memo reads as [`AsyncState::Pending`], with the last settled value.
//!
//! - Like a memo it is lazy: it runs (and starts a flight) when something reads it, or, once an effect depends on
//!   it, when one of its sources moves.
//! - A run whose sources moved while a flight is in the air supersedes that flight; the [`FlightPolicy`] says what
//!   happens to it (cancelled by default: its future is dropped).
//! - A settle is a write: it wakes the readers (pending, ready and failed changes always do; an equal ready value
//!   is cut off by the comparer), and flushes.
//! - A future that panics, or a function that panics, fails this memo only ([`AsyncErrorKind::Panicked`]).
//!   A future returning `Err` (with [`AsyncMemo::try_new`]) fails it with [`AsyncErrorKind::Failed`].
//! - Disposing a pending memo cancels its flights and wakes its readers once, with an
//!   [`AsyncErrorKind::Disposed`] failure.
//! - Only the function's reads are tracked. A read inside the future (it runs when the flight is polled, outside the
//!   memo's run) is untracked by design, as in F#: the memo does not re-run when that node moves. Traced builds
//!   record such reads, and `explain` reports one whose node moved after as a `future read:` finding with its line.
//!
//! # Driving flights
//!
//! Flights run on the graph thread's executor, which needs std only, so async memos are in every build. Under a
//! [`GraphHost`](crate::host::GraphHost) the host polls them as they are woken (inside the tokio runtime that
//! started the host, if any, so tokio's timers work in them). Without a host, call
//! [`graph::run_flights`](crate::graph::run_flights) on the graph thread: it polls what is ready and returns how many
//! flights are still pending.
//!
//! # Examples
//!
//! ```
//! use ranvier::{AsyncMemo, AsyncState, Signal, graph};
//!
//! let weight = Signal::new(3_u32);
//! let quote = AsyncMemo::new({
//!     let weight = weight.clone();
//!     move |_| {
//!         let weight = weight.get(); // tracked
//!         async move { weight * 100 } // the "remote call"
//!     }
//! });
//! assert_eq!(quote.get(), AsyncState::Pending { last: None }); // the first read starts a flight
//! graph::run_flights();
//! assert_eq!(quote.get(), AsyncState::Ready(300));
//! weight.set(4);
//! assert_eq!(quote.get(), AsyncState::Pending { last: Some(300) });
//! graph::run_flights();
//! assert_eq!(quote.get().value_or(0), 400);
//! ```

use crate::async_state::{AsyncError, AsyncErrorKind, AsyncState, FlightPolicy};
use crate::graph::flights::{self, FlightFuture, register, unregister};
pub use crate::graph::flights::{FlightInfo, FlightStage};
use crate::graph::record::log::FlightEvent;
use crate::graph::{
    AnyNode, Comparer, Computation, Core, DynNodeRc, NodeBody, NodeId, NodeKind, NodeRc, Runtime,
    State, WeakNode, with_runtime,
};
use crate::memo::{dispose_computation, update_derived};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::time::Instant;

#[cfg(test)]
mod tests;

/// A derived value computed by a future. See the [module docs](self).
///
/// Cheap to clone (all clones are the same memo), and `!Send`.
pub struct AsyncMemo<T: 'static> {
    node: NodeRc<AsyncInner<T>>,
}

impl<T> Clone for AsyncMemo<T> {
    fn clone(&self) -> Self {
        AsyncMemo {
            node: self.node.clone(),
        }
    }
}

type Body<T> = Box<dyn FnMut(Option<&T>) -> FlightFuture<T>>;

#[repr(C)]
struct AsyncInner<T: 'static> {
    core: Core,
    comp: Computation,
    state: RefCell<AsyncState<T>>,
    eq: Comparer<T>,
    f: RefCell<Body<T>>,
    policy: FlightPolicy,
    book: RefCell<Book<T>>,
    /// Whether the memo is in this thread's table of memos with flights (see [`register`]).
    registered: Cell<bool>,
}

/// The memo's flights.
struct Book<T> {
    /// Started and not yet applied, oldest first.
    flights: VecDeque<Flight<T>>,
    /// Under [`FlightPolicy::FinishCurrent`]: the newest run's future, started when the flight in the air finishes.
    waiting: Option<(FlightFuture<T>, u32, Instant)>,
    /// The number of the last flight started (from 1).
    started: u32,
}

struct Flight<T> {
    number: u32,
    task: u64,
    run: u32,
    started: Instant,
    superseded: bool,
    /// Under [`FlightPolicy::Queue`]: its outcome, once it finished, while an older flight is still in the air.
    outcome: Option<Result<T, String>>,
}

impl<T: Clone + fmt::Debug + 'static> AsyncMemo<T> {
    /// Creates an async memo: `f` gets the last settled value (`None` before the first) and returns the future of the
    /// next one. Ready values equal to the previous one (by `PartialEq`) wake nothing. Superseded flights are
    /// cancelled ([`FlightPolicy::CancelPrevious`]).
    #[track_caller]
    pub fn new<Fut>(mut f: impl FnMut(Option<&T>) -> Fut + 'static) -> Self
    where
        T: PartialEq,
        Fut: Future<Output = T> + 'static,
    {
        let site = std::panic::Location::caller();
        Self::build(
            Box::new(move |prev| {
                let fut = f(prev);
                Box::pin(async move { Ok(fut.await) })
            }),
            Box::new(T::eq),
            FlightPolicy::default(),
            site,
        )
    }

    /// Like [`new`](Self::new), for a future that can fail: an `Err` fails the memo with its text
    /// ([`AsyncErrorKind::Failed`]), keeping the last settled value.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{AsyncMemo, graph};
    ///
    /// let user = AsyncMemo::try_new(|_| async { Err::<String, _>("404: no such user") });
    /// let _ = user.get();
    /// graph::run_flights();
    /// assert_eq!(user.get().error().map(|e| e.message.as_str()), Some("404: no such user"));
    /// ```
    #[track_caller]
    pub fn try_new<Fut, E>(mut f: impl FnMut(Option<&T>) -> Fut + 'static) -> Self
    where
        T: PartialEq,
        Fut: Future<Output = Result<T, E>> + 'static,
        E: fmt::Display,
    {
        let site = std::panic::Location::caller();
        Self::build(
            Box::new(move |prev| {
                let fut = f(prev);
                Box::pin(async move { fut.await.map_err(|e| e.to_string()) })
            }),
            Box::new(T::eq),
            FlightPolicy::default(),
            site,
        )
    }

    /// Like [`try_new`](Self::try_new), with a flight policy and a comparer for ready values.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::{AsyncMemo, FlightPolicy, Signal, graph};
    ///
    /// let query = Signal::new("a");
    /// let results = AsyncMemo::with_options(
    ///     {
    ///         let query = query.clone();
    ///         move |_| {
    ///             let q = query.get();
    ///             async move { Ok::<_, String>(q.len()) }
    ///         }
    ///     },
    ///     FlightPolicy::Queue,
    ///     |a: &usize, b: &usize| a == b,
    /// );
    /// let _ = results.get();
    /// query.set("ab");
    /// let _ = results.get(); // a second flight; the first is not cancelled
    /// assert_eq!(results.flights().len(), 2);
    /// graph::run_flights();
    /// assert_eq!(results.get().value_or(0), 2);
    /// ```
    #[track_caller]
    pub fn with_options<Fut, E>(
        mut f: impl FnMut(Option<&T>) -> Fut + 'static,
        policy: FlightPolicy,
        eq: impl Fn(&T, &T) -> bool + 'static,
    ) -> Self
    where
        Fut: Future<Output = Result<T, E>> + 'static,
        E: fmt::Display,
    {
        let site = std::panic::Location::caller();
        let memo = Self::build(
            Box::new(move |prev| {
                let fut = f(prev);
                Box::pin(async move { fut.await.map_err(|e| e.to_string()) })
            }),
            Box::new(eq),
            policy,
            site,
        );
        with_runtime(|rt| trace_hook!(rt, custom_comparer(memo.id())));
        memo
    }

    fn build(
        f: Body<T>,
        eq: Comparer<T>,
        policy: FlightPolicy,
        site: &'static std::panic::Location<'static>,
    ) -> Self {
        with_runtime(|rt| {
            let id = rt.next_id();
            let inner = NodeRc::new_with(|| AsyncInner {
                core: Core::new(id, NodeKind::Memo, site),
                comp: Computation::new(),
                state: RefCell::new(AsyncState::Pending { last: None }),
                eq,
                f: RefCell::new(f),
                policy,
                book: RefCell::new(Book {
                    flights: VecDeque::new(),
                    waiting: None,
                    started: 0,
                }),
                registered: Cell::new(false),
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
            rt.adopt(inner.erase());
            AsyncMemo { node: inner }
        })
    }

    /// Sets the node's label (the name the trace and the MCP tools give it) and returns the memo.
    pub fn labelled(self, label: &str) -> Self {
        self.node.core.set_label(label);
        self
    }

    /// Brings the memo up to date (a run starts a flight if its sources moved), tracks it, and returns its state.
    ///
    /// # Panics
    ///
    /// Panics if the memo reads itself (a cycle).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn get(&self) -> AsyncState<T> {
        self.with(AsyncState::clone)
    }

    /// The value when ready, else `fallback`; tracked, as [`get`](Self::get).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn value_or(&self, fallback: T) -> T {
        self.get().value_or(fallback)
    }

    /// Brings the memo up to date, tracks it, and calls `f` with its state.
    ///
    /// # Panics
    ///
    /// As [`get`](Self::get).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn with<R>(&self, f: impl FnOnce(&AsyncState<T>) -> R) -> R {
        self.read(true, f)
    }

    /// Brings the memo up to date, records the read at the caller (tracked or not), and calls `f` with its state.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    fn read<R>(&self, tracked: bool, f: impl FnOnce(&AsyncState<T>) -> R) -> R {
        let site = crate::graph::call_site();
        let inner = &*self.node;
        if inner.comp.running.get() {
            panic!(
                "async memo {} reads itself while it runs (a cycle)",
                inner.core.id
            );
        }
        with_runtime(|rt| {
            if rt.has_eager() {
                rt.drain_eager();
            }
            if inner.comp.state.get() != State::Clean {
                let node = self.node.erase();
                node.update_if_necessary(&node, rt);
            }
            if tracked {
                rt.track(&inner.core, self.node.as_ptr(), site, || self.node.erase());
            } else {
                trace_hook!(rt, untracked_read(rt.running_id(), inner.core.id, site));
            }
        });
        f(&inner.state.borrow())
    }

    /// Brings the memo up to date (a run starts a flight if its sources moved) and returns its state, without
    /// tracking: the untracked form of [`get`](Self::get), as [`Memo::peek`](crate::Memo::peek) is of
    /// [`Memo::get`](crate::Memo::get). A traced build records the read (`explain` reports it as `unread:` when the
    /// memo moved after it).
    ///
    /// # Panics
    ///
    /// As [`get`](Self::get).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn peek(&self) -> AsyncState<T> {
        self.read(false, AsyncState::clone)
    }

    /// The state the memo holds now, without running it and without tracking: a memo whose sources moved since it
    /// last ran returns its old state here, and one never run is pending. A traced build records the read, as for
    /// [`peek`](Self::peek).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn cached(&self) -> AsyncState<T> {
        let site = crate::graph::call_site();
        with_runtime(|rt| {
            trace_hook!(rt, untracked_read(rt.running_id(), self.node.core.id, site))
        });
        self.node.state.borrow().clone()
    }

    /// The memo's flights that have not been applied yet, oldest first (empty when it is not pending).
    pub fn flights(&self) -> Vec<FlightInfo> {
        self.node
            .flight_infos()
            .into_iter()
            .map(|(_, flight)| flight)
            .collect()
    }

    /// The memo's flight policy.
    pub fn policy(&self) -> FlightPolicy {
        self.node.policy
    }

    /// How many times the memo's function has run (each run started one flight, or failed).
    pub fn runs(&self) -> u32 {
        self.node.comp.runs.get()
    }

    /// Disposes the memo: its flights are cancelled; if it was pending, its readers are woken once and read an
    /// [`AsyncErrorKind::Disposed`] failure. It stops tracking.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispose(&self) {
        let site = crate::graph::call_site();
        let node = self.node.erase();
        crate::graph::disposing_at(site, || node.dispose(&node));
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.node.core.id
    }
}

/// A flight's future that tells the trace, while it is polled, whose future it is (traced builds wrap each flight's
/// future in it; untraced builds never make one).
struct PolledAs<T: 'static> {
    memo: NodeId,
    future: FlightFuture<T>,
}

impl<T> Future for PolledAs<T> {
    type Output = Result<T, String>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        /// Restores the memo polled before, also when the poll panics.
        struct Restore(Option<NodeId>);
        impl Drop for Restore {
            fn drop(&mut self) {
                crate::graph::try_with_runtime(|rt| {
                    rt.tracer.flight_poll(self.0);
                });
            }
        }
        let memo = self.memo;
        let _restore = Restore(with_runtime(|rt| rt.tracer.flight_poll(Some(memo))));
        self.future.as_mut().poll(cx)
    }
}

impl<T: Clone + fmt::Debug + 'static> AsyncInner<T> {
    fn recompute(&self, this: &DynNodeRc, rt: &Runtime) {
        let comp = &self.comp;
        comp.state.set(State::Clean);
        trace_hook!(
            rt,
            run_start(self.core.id, comp.runs.get() + 1, rt.running_id())
        );
        let result = {
            let state = self.state.borrow();
            let mut f = self.f.borrow_mut();
            let last = state.latest();
            rt.run_computation(this, comp, || (*f)(last))
        };
        let run = comp.runs.get();
        let old = self.state.borrow().clone();
        let (new, panic) = match result {
            Ok(future) => {
                self.start(this, future, run);
                (old.to_pending(), None)
            }
            Err(message) => {
                self.supersede();
                self.tidy();
                let message = format!("the function panicked: {message}");
                crate::graph::failures::report(
                    &self.core,
                    crate::graph::failures::FailureKind::MemoPanicked,
                    &message,
                );
                let state = AsyncState::Failed {
                    error: AsyncError {
                        node: self.core.id,
                        kind: AsyncErrorKind::Panicked,
                        message: message.clone(),
                    },
                    last: old.latest().cloned(),
                };
                (state, Some(message))
            }
        };
        let moved = !old.same(&new, &*self.eq);
        if moved {
            *self.state.borrow_mut() = new;
        }
        trace_hook!(
            rt,
            run_end(
                self.core.id,
                moved,
                panic.as_deref(),
                Some(&*self.state.borrow())
            )
        );
        if moved {
            let observers = self.core.observers.borrow();
            for observer in observers.iter() {
                if rt.is_running(observer.as_ptr()) {
                    continue;
                }
                crate::graph::mark(observer, State::Dirty, self.core.id, rt);
            }
        }
        rt.end_body();
    }

    /// Once no flight is left: gives back the flight list's buffer and leaves the table of memos with flights, so a
    /// settled memo costs no more than its node.
    fn tidy(&self) {
        {
            let mut book = self.book.borrow_mut();
            if !book.flights.is_empty() || book.waiting.is_some() {
                return;
            }
            if book.flights.capacity() > 0 {
                book.flights = VecDeque::new();
            }
        }
        if self.registered.replace(false) {
            unregister(self.core.id);
        }
    }

    /// What a new run does to the flights already started, by policy.
    fn supersede(&self) {
        let cancelled = {
            let mut book = self.book.borrow_mut();
            match self.policy {
                FlightPolicy::CancelPrevious => {
                    let waiting = book.waiting.take();
                    let tasks: Vec<(u64, u32)> =
                        book.flights.drain(..).map(|f| (f.task, f.number)).collect();
                    (tasks, waiting)
                }
                FlightPolicy::KeepLatest => {
                    for flight in &mut book.flights {
                        flight.superseded = true;
                    }
                    (Vec::new(), None)
                }
                FlightPolicy::Queue | FlightPolicy::FinishCurrent => (Vec::new(), None),
            }
        };
        for (task, number) in cancelled.0 {
            flights::cancel(task);
            with_runtime(|rt| {
                trace_hook!(rt, flight_end(self.core.id, number, FlightEvent::Cancel))
            });
        }
        drop(cancelled.1);
    }

    /// Starts (or, under `FinishCurrent` with a flight in the air, parks) the flight of run `run`.
    fn start(&self, this: &DynNodeRc, future: FlightFuture<T>, run: u32) {
        self.supersede();
        let parked = {
            let mut book = self.book.borrow_mut();
            if self.policy == FlightPolicy::FinishCurrent && !book.flights.is_empty() {
                book.waiting.replace((future, run, Instant::now()))
            } else {
                drop(book);
                self.spawn(this, future, run, Instant::now());
                None
            }
        };
        // A parked future a newer run replaced is dropped (outside the borrow).
        drop(parked);
    }

    fn spawn(&self, this: &DynNodeRc, future: FlightFuture<T>, run: u32, started: Instant) {
        let number = {
            let mut book = self.book.borrow_mut();
            book.started += 1;
            book.started
        };
        with_runtime(|rt| trace_hook!(rt, flight_start(self.core.id, number)));
        if !self.registered.replace(true) {
            register(self.core.id, this.downgrade(), flights_of::<T>);
        }
        let weak = this.downgrade();
        // traced builds: the future's reads while polled are recorded as this memo's (untracked) flight reads
        let future = if crate::graph::record::TRACED {
            Box::pin(PolledAs {
                memo: self.core.id,
                future,
            })
        } else {
            future
        };
        let task = flights::spawn(future, move |outcome| complete::<T>(&weak, number, outcome));
        self.book.borrow_mut().flights.push_back(Flight {
            number,
            task,
            run,
            started,
            superseded: false,
            outcome: None,
        });
    }

    /// Flight `number` finished with `outcome`.
    fn finished(&self, this: &DynNodeRc, number: u32, outcome: Result<T, String>) {
        if self.comp.disposed.get() {
            return;
        }
        let mut apply: Vec<(u32, Result<T, String>, bool)> = Vec::new();
        {
            let mut book = self.book.borrow_mut();
            let Some(pos) = book.flights.iter().position(|f| f.number == number) else {
                return;
            };
            match self.policy {
                FlightPolicy::CancelPrevious | FlightPolicy::KeepLatest => {
                    let flight = book.flights.remove(pos).expect("found above");
                    if !flight.superseded && pos == book.flights.len() {
                        let more = book.flights.iter().any(|f| !f.superseded);
                        apply.push((number, outcome, more));
                    } else {
                        with_runtime(|rt| {
                            trace_hook!(rt, flight_end(self.core.id, number, FlightEvent::Drop))
                        });
                    }
                }
                FlightPolicy::Queue => {
                    book.flights[pos].outcome = Some(outcome);
                    while book.flights.front().is_some_and(|f| f.outcome.is_some()) {
                        let flight = book.flights.pop_front().expect("checked above");
                        let more = !book.flights.is_empty();
                        apply.push((flight.number, flight.outcome.expect("checked above"), more));
                    }
                }
                FlightPolicy::FinishCurrent => {
                    book.flights.remove(pos);
                    let waiting = book.waiting.take();
                    apply.push((number, outcome, waiting.is_some()));
                    if let Some((future, run, started)) = waiting {
                        drop(book);
                        self.spawn(this, future, run, started);
                    }
                }
            }
        }
        self.tidy();
        for (number, outcome, still_pending) in apply {
            self.settle(number, outcome, still_pending);
        }
    }

    /// Applies an outcome: a write of the memo's state (it wakes the readers if the state moved, and flushes).
    fn settle(&self, number: u32, outcome: Result<T, String>, still_pending: bool) {
        let what = if outcome.is_ok() {
            FlightEvent::Settle
        } else {
            FlightEvent::Fail
        };
        with_runtime(|rt| trace_hook!(rt, flight_end(self.core.id, number, what)));
        let old = self.state.borrow().clone();
        let new = match outcome {
            Ok(value) if still_pending => AsyncState::Pending { last: Some(value) },
            Ok(value) => AsyncState::Ready(value),
            Err(_) if still_pending => old.to_pending(),
            Err(message) => AsyncState::Failed {
                error: AsyncError {
                    node: self.core.id,
                    kind: if message.starts_with("the flight panicked: ") {
                        AsyncErrorKind::Panicked
                    } else {
                        AsyncErrorKind::Failed
                    },
                    message,
                },
                last: old.latest().cloned(),
            },
        };
        if let AsyncState::Failed { error, .. } = &new
            && !matches!(&old, AsyncState::Failed { error: before, .. } if before == error)
        {
            crate::graph::failures::report(
                &self.core,
                crate::graph::failures::FailureKind::FlightFailed,
                &error.message,
            );
        }
        if old.same(&new, &*self.eq) {
            return;
        }
        *self.state.borrow_mut() = new;
        with_runtime(|rt| {
            crate::signal::notify(rt, &self.core);
            rt.request_flush();
        });
    }

    fn flight_infos(&self) -> Vec<(Instant, FlightInfo)> {
        let book = self.book.borrow();
        let now = Instant::now();
        let mut infos: Vec<(Instant, FlightInfo)> = book
            .flights
            .iter()
            .map(|f| {
                (
                    f.started,
                    FlightInfo {
                        node: self.core.id,
                        number: f.number,
                        run: f.run,
                        age: now.saturating_duration_since(f.started),
                        stage: if f.outcome.is_some() {
                            FlightStage::Finished
                        } else if f.superseded {
                            FlightStage::Superseded
                        } else {
                            FlightStage::InTheAir
                        },
                    },
                )
            })
            .collect();
        if let Some((_, run, started)) = &book.waiting {
            infos.push((
                *started,
                FlightInfo {
                    node: self.core.id,
                    number: book.started + 1,
                    run: *run,
                    age: now.saturating_duration_since(*started),
                    stage: FlightStage::Waiting,
                },
            ));
        }
        infos
    }
}

/// A flight's completion, on the graph thread: finds the memo (if it is still there) and applies the outcome.
fn complete<T: Clone + fmt::Debug + 'static>(
    weak: &WeakNode,
    number: u32,
    outcome: Result<T, String>,
) {
    let Some(node) = weak.upgrade() else {
        return;
    };
    // SAFETY: `weak` was made from this memo's own `NodeRc<AsyncInner<T>>` in `spawn`.
    let memo = unsafe { node.clone().into_typed::<AsyncInner<T>>() };
    memo.finished(&node, number, outcome);
}

// The layout the engine relies on, checked at compile time (for one value type: `repr(C)` puts `core` and `comp`
// first whatever it is).
assert_node_layout!(AsyncInner<u8>, computation);

// SAFETY: `#[repr(C)]`, `core` then `comp` first (asserted above).
unsafe impl<T: Clone + fmt::Debug + 'static> NodeBody for AsyncInner<T> {
    fn update_if_necessary(&self, this: &DynNodeRc, rt: &Runtime) {
        update_derived(self, &self.comp, rt, || self.recompute(this, rt));
    }

    fn dispose(&self, this: &DynNodeRc) {
        if self.comp.disposed.get() {
            return;
        }
        let (tasks, waiting) = {
            let mut book = self.book.borrow_mut();
            let tasks: Vec<(u64, u32)> =
                book.flights.drain(..).map(|f| (f.task, f.number)).collect();
            (tasks, book.waiting.take())
        };
        for (task, number) in tasks {
            flights::cancel(task);
            with_runtime(|rt| {
                trace_hook!(rt, flight_end(self.core.id, number, FlightEvent::Cancel))
            });
        }
        drop(waiting);
        self.tidy();
        let was_pending = self.state.borrow().is_pending();
        dispose_computation(this, &self.comp);
        if was_pending {
            let last = self.state.borrow().latest().cloned();
            *self.state.borrow_mut() = AsyncState::Failed {
                error: AsyncError {
                    node: self.core.id,
                    kind: AsyncErrorKind::Disposed,
                    message: "the async memo was disposed while pending".into(),
                },
                last,
            };
            with_runtime(|rt| {
                crate::signal::notify(rt, &self.core);
                rt.request_flush();
            });
        }
    }

    fn value_text(&self) -> Option<String> {
        Some(crate::text::debug_within(
            &*self.state.borrow(),
            crate::signal::LIVE_TEXT_MAX,
        ))
    }
}

impl<T: 'static> AnyNode for AsyncMemo<T> {
    fn node_id(&self) -> NodeId {
        self.node.core.id
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for AsyncMemo<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncMemo")
            .field("id", &self.node.core.id)
            .field("state", &*self.node.state.borrow())
            .finish()
    }
}

fn flights_of<T: Clone + fmt::Debug + 'static>(node: &DynNodeRc) -> Vec<(Instant, FlightInfo)> {
    // SAFETY: registered in `build` with this memo's `T`.
    let memo = unsafe { node.clone().into_typed::<AsyncInner<T>>() };
    memo.flight_infos()
}
