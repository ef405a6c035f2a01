//! Timed nodes: a value that follows a source late ([`Debounced`]) or at most once per interval ([`Throttled`]), on a
//! [`Clock`].
//!
//! - [`Debounced`] takes the source's value once the source has kept it for `delay`: every change restarts the wait,
//!   so a burst of changes (keystrokes in a search box) comes out as one, its last.
//! - [`Throttled`] passes a change at once if the last one it passed is at least `interval` old; otherwise it holds
//!   the newest value and passes it when the interval is up (leading and trailing edges), so a steady stream of
//!   changes comes out once per interval, ending on the last value.
//!
//! Both start with the source's value, read `source` like an [`EffectOn`]'s pure, tracked `compute` (a change of
//! what it reads restarts the timing; an equal value does nothing), and hold the result in a [`Signal`] that readers
//! track as any other: the timer's firing is a write of that signal, with its own flush.
//!
//! # Clocks
//!
//! A [`Clock`] schedules the timers. [`TestClock`] is one a test drives by hand: [`advance`](TestClock::advance)
//! moves its time and fires what falls due, in order, so no test sleeps (F# Ranvier's `TimedTestClock`).
//! [`Clock::tokio`] (feature `host`) uses tokio's timers: each timer is a flight on the graph thread's executor,
//! which a [`GraphHost`](crate::host::GraphHost) polls inside the tokio runtime that started it (start the host from
//! within a runtime, e.g. in `#[tokio::main]`). A timer that cannot run there fails, and the failure is recorded in
//! [`graph::take_errors`](crate::graph::take_errors) under the timed node.
//!
//! [`timing`](Debounced::timing) says what a timed node holds, the value its timer waits to pass and when it fires;
//! in a traced build, [`trace::timing`](crate::trace::timing) says the same from the trace, for any node, with the
//! timer's last firing. The timer's schedule, replace, fire and cancel are trace events
//! ([`EventKind::Timer`](crate::trace::EventKind::Timer)), and the write a firing makes is caused by it and recorded
//! at the line that made the node. Disposing a timed node (or its owner) cancels
//! its timer.

use crate::graph::record::log::TimerEvent;
use crate::graph::{AnyNode, CallSite, NodeId, with_runtime};
use crate::{EffectOn, Signal, on_cleanup};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use std::time::Duration;

/// What a clock calls when a timer fires: `Ok`, or `Err` with why the timer could not run.
type Fire = Box<dyn FnOnce(Result<(), String>)>;

/// How a clock keeps time and timers.
trait Timers {
    /// The time since the clock started.
    fn now(&self) -> Duration;
    /// Calls `fire` once `delay` has passed; returns the timer's id.
    fn schedule(&self, delay: Duration, fire: Fire) -> u64;
    /// Cancels a timer that has not fired (nothing for one that has).
    fn cancel(&self, id: u64);
}

/// The clock a timed node schedules its timers on. Cheap to clone; `!Send`.
#[derive(Clone)]
pub struct Clock {
    timers: Rc<dyn Timers>,
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Clock")
            .field("now", &self.timers.now())
            .finish()
    }
}

impl Clock {
    /// A clock on tokio's timers, for a graph run by a [`GraphHost`](crate::host::GraphHost) started inside a tokio
    /// runtime (see the [module docs](self#clocks)).
    #[cfg(feature = "host")]
    pub fn tokio() -> Clock {
        Clock {
            timers: Rc::new(TokioTimers {
                start: std::time::Instant::now(),
            }),
        }
    }

    /// The time since the clock started.
    pub fn now(&self) -> Duration {
        self.timers.now()
    }
}

/// tokio's timers, each one a flight on the graph thread's executor.
#[cfg(feature = "host")]
struct TokioTimers {
    start: std::time::Instant,
}

#[cfg(feature = "host")]
impl Timers for TokioTimers {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn schedule(&self, delay: Duration, fire: Fire) -> u64 {
        crate::graph::flights::spawn(
            Box::pin(async move {
                tokio::time::sleep(delay).await;
                Ok(())
            }),
            fire,
        )
    }

    fn cancel(&self, id: u64) {
        crate::graph::flights::cancel(id);
    }
}

/// A clock a test drives: time moves only when [`advance`](TestClock::advance) moves it, and the timers that fall due
/// fire then, in order, on the calling thread.
///
/// # Examples
///
/// ```
/// use ranvier::Signal;
/// use ranvier::timed::{Debounced, TestClock};
/// use std::time::Duration;
///
/// let clock = TestClock::new();
/// let query = Signal::new(String::new());
/// let search = Debounced::new(&clock.clock(), Duration::from_millis(300), {
///     let query = query.clone();
///     move || query.get()
/// });
/// for typed in ["r", "ru", "rust"] {
///     query.set(typed.to_string());
///     clock.advance(Duration::from_millis(100));
/// }
/// assert_eq!(search.get(), ""); // still typing
/// clock.advance(Duration::from_millis(200));
/// assert_eq!(search.get(), "rust"); // 300 ms after the last key
/// ```
#[derive(Clone, Default)]
pub struct TestClock {
    state: Rc<TestTimers>,
}

#[derive(Default)]
struct TestTimers {
    now: Cell<Duration>,
    next: Cell<u64>,
    /// Due time and id (ids break ties in scheduling order) → what to call.
    due: RefCell<BTreeMap<(Duration, u64), Fire>>,
}

impl Timers for TestTimers {
    fn now(&self) -> Duration {
        self.now.get()
    }

    fn schedule(&self, delay: Duration, fire: Fire) -> u64 {
        let id = self.next.get() + 1;
        self.next.set(id);
        self.due
            .borrow_mut()
            .insert((self.now.get() + delay, id), fire);
        id
    }

    fn cancel(&self, id: u64) {
        self.due.borrow_mut().retain(|&(_, timer), _| timer != id);
    }
}

impl TestClock {
    /// A clock at time zero with no timers.
    pub fn new() -> TestClock {
        TestClock::default()
    }

    /// The [`Clock`] to give timed nodes.
    pub fn clock(&self) -> Clock {
        Clock {
            timers: self.state.clone(),
        }
    }

    /// Moves time forward by `by`, firing every timer that falls due on the way, earliest first, each at its own due
    /// time (a timer a firing schedules fires too, if it falls due before the end).
    pub fn advance(&self, by: Duration) {
        let end = self.state.now.get() + by;
        loop {
            let next = {
                let mut due = self.state.due.borrow_mut();
                match due.first_key_value() {
                    Some((&(at, _), _)) if at <= end => due.pop_first(),
                    _ => None,
                }
            };
            let Some(((at, _), fire)) = next else { break };
            self.state.now.set(at);
            fire(Ok(()));
        }
        self.state.now.set(end);
    }

    /// The time since the clock started.
    pub fn now(&self) -> Duration {
        self.state.now.get()
    }

    /// How many timers wait to fire.
    pub fn timers(&self) -> usize {
        self.state.due.borrow().len()
    }
}

impl fmt::Debug for TestClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestClock")
            .field("now", &self.now())
            .field("timers", &self.timers())
            .finish()
    }
}

/// What a timed node holds, the value it waits to pass, and when its timer fires (on its clock's time).
#[derive(Clone, Debug, PartialEq)]
pub struct Timing<T> {
    /// The value it holds now.
    pub holds: T,
    /// The value its timer will pass, if a timer waits.
    pub waiting: Option<T>,
    /// When the timer fires, on the clock's time ([`Clock::now`]).
    pub fires_at: Option<Duration>,
}

/// The part of a timed node its timers and handles share.
struct Output<T: 'static> {
    value: Signal<T>,
    watch: RefCell<Option<EffectOn<T>>>,
    /// The timer that waits, if any.
    timer: Cell<Option<u64>>,
    /// The value the timer will pass, and when (on the clock's time).
    waiting: RefCell<Option<T>>,
    due: Cell<Option<Duration>>,
    /// Where the node was created: the trace records its timed writes there (traced builds), so `explain` names the
    /// line of the `Debounced::new` or `Throttled::new` rather than this file.
    site: CallSite,
}

impl<T: Clone + PartialEq + fmt::Debug + 'static> Output<T> {
    /// Schedules the timer that passes `value` after `delay`; `then` runs first when it fires.
    fn schedule(
        self: &Rc<Self>,
        clock: &Clock,
        delay: Duration,
        value: T,
        then: impl FnOnce() + 'static,
    ) {
        *self.waiting.borrow_mut() = Some(value);
        self.due.set(Some(clock.now() + delay));
        let output = self.clone();
        // weak: the clock holds this closure until the timer fires
        let timers = Rc::downgrade(&clock.timers);
        let fire: Fire = Box::new(move |outcome| {
            then();
            if let Some(timers) = timers.upgrade() {
                output.fire(&Clock { timers }, outcome);
            }
        });
        self.timer.set(Some(clock.timers.schedule(delay, fire)));
        self.trace(TimerEvent::Schedule, clock);
    }

    /// Records what happened to the timer in the trace (traced builds): the value it waits to pass and when.
    #[inline]
    fn trace(&self, what: TimerEvent, clock: &Clock) {
        if crate::graph::record::TRACED {
            let (node, now, due) = (self.value.id(), clock.now(), self.due.get());
            let watch = self.watch.borrow().as_ref().map(EffectOn::id);
            let waiting = self.waiting.borrow();
            let value = waiting.as_ref().map(|v| v as &dyn fmt::Debug);
            with_runtime(|rt| {
                trace_hook!(rt, timer(node, watch, what, now, due.unwrap_or(now), value))
            });
        }
    }

    /// The waiting value is replaced by `value` (the timer stays as it is).
    fn replace(&self, clock: &Clock, value: T) {
        *self.waiting.borrow_mut() = Some(value);
        self.trace(TimerEvent::Replace, clock);
    }

    /// What a timer does when it fires: writes the waiting value (or records why the timer could not run).
    fn fire(&self, clock: &Clock, outcome: Result<(), String>) {
        self.timer.set(None);
        if outcome.is_ok() && self.waiting.borrow().is_some() {
            self.trace(TimerEvent::Fire, clock);
        }
        self.due.set(None);
        let Some(value) = self.waiting.borrow_mut().take() else {
            return;
        };
        match outcome {
            Ok(()) => self.value.set_at(self.site, value),
            Err(why) => {
                let id = self.value.id();
                with_runtime(|rt| rt.record_error(id, format!("a timer of {id} failed: {why}")));
            }
        }
    }

    fn cancel(&self, clock: &Clock) {
        if let Some(id) = self.timer.take() {
            clock.timers.cancel(id);
            self.trace(TimerEvent::Cancel, clock);
        }
        self.due.set(None);
        drop(self.waiting.borrow_mut().take());
    }
}

/// The source's value once it has kept it for a delay. See the [module docs](self).
///
/// Cheap to clone; `!Send`. The node `#[node]` labels and the trace names is the signal holding the value.
pub struct Debounced<T: 'static> {
    output: Rc<Output<T>>,
    clock: Clock,
}

/// The source's value, passed at most once per interval. See the [module docs](self).
///
/// Cheap to clone; `!Send`. The node `#[node]` labels and the trace names is the signal holding the value.
///
/// # Examples
///
/// ```
/// use ranvier::Signal;
/// use ranvier::timed::{TestClock, Throttled};
/// use std::time::Duration;
///
/// let clock = TestClock::new();
/// let position = Signal::new(0);
/// let shown = Throttled::new(&clock.clock(), Duration::from_millis(100), {
///     let position = position.clone();
///     move || position.get()
/// });
/// clock.advance(Duration::from_millis(100));
/// position.set(1); // the last one passed is 100 ms old: passes at once
/// position.set(2);
/// position.set(3); // held
/// assert_eq!(shown.get(), 1);
/// clock.advance(Duration::from_millis(100));
/// assert_eq!(shown.get(), 3); // the trailing edge
/// ```
pub struct Throttled<T: 'static> {
    output: Rc<Output<T>>,
    clock: Clock,
}

impl<T: Clone + PartialEq + fmt::Debug + 'static> Debounced<T> {
    /// Follows `source` (tracked, pure) on `clock`: holds its first value at once, and each later value once the
    /// source has kept it for `delay`.
    #[track_caller]
    pub fn new(clock: &Clock, delay: Duration, mut source: impl FnMut() -> T + 'static) -> Self {
        let output = start(&mut source);
        let watch = EffectOn::new(source, {
            // weak: the output holds the effect, so a strong reference back would keep both alive for ever
            let (output, clock) = (Rc::downgrade(&output), clock.clone());
            move |value: &T, previous: Option<&T>| {
                let Some(output) = output.upgrade() else {
                    return; // every handle is gone
                };
                if previous.is_none() {
                    return; // the first value is the one the node started with
                }
                output.cancel(&clock);
                output.schedule(&clock, delay, value.clone(), || {});
            }
        });
        finish(&output, watch, clock);
        Debounced {
            output,
            clock: clock.clone(),
        }
    }
}

impl<T: Clone + PartialEq + fmt::Debug + 'static> Throttled<T> {
    /// Follows `source` (tracked, pure) on `clock`: holds its first value at once; a later value passes at once if
    /// the last one passed is at least `interval` old, else the newest is passed when the interval is up.
    #[track_caller]
    pub fn new(clock: &Clock, interval: Duration, mut source: impl FnMut() -> T + 'static) -> Self {
        let output = start(&mut source);
        let last_passed = Rc::new(Cell::new(clock.now()));
        let watch = EffectOn::new(source, {
            // weak, as for a debounced value
            let (output, clock) = (Rc::downgrade(&output), clock.clone());
            move |value: &T, previous: Option<&T>| {
                let Some(output) = output.upgrade() else {
                    return;
                };
                if previous.is_none() {
                    return;
                }
                let now = clock.now();
                let next_slot = last_passed.get() + interval;
                if output.timer.get().is_none() && now >= next_slot {
                    last_passed.set(now);
                    output.value.set_at(output.site, value.clone());
                    return;
                }
                if output.timer.get().is_some() {
                    // The trailing timer passes the newest value.
                    output.replace(&clock, value.clone());
                    return;
                }
                let (last_passed, clock_) = (last_passed.clone(), clock.clone());
                output.schedule(
                    &clock,
                    next_slot.saturating_sub(now),
                    value.clone(),
                    move || {
                        last_passed.set(clock_.now());
                    },
                );
            }
        });
        finish(&output, watch, clock);
        Throttled {
            output,
            clock: clock.clone(),
        }
    }
}

/// Reads the source's first value (untracked) and makes the output signal holding it.
#[track_caller]
fn start<T: Clone + PartialEq + fmt::Debug + 'static>(
    source: &mut impl FnMut() -> T,
) -> Rc<Output<T>> {
    let first = crate::untrack(source);
    Rc::new(Output {
        value: Signal::new(first),
        watch: RefCell::new(None),
        timer: Cell::new(None),
        waiting: RefCell::new(None),
        due: Cell::new(None),
        site: crate::graph::call_site(),
    })
}

/// Keeps the watching effect; when the owner is disposed, cancels the timer and lets go of the effect (whose function
/// holds the output: the two would otherwise keep each other alive).
fn finish<T: Clone + PartialEq + fmt::Debug + 'static>(
    output: &Rc<Output<T>>,
    watch: EffectOn<T>,
    clock: &Clock,
) {
    *output.watch.borrow_mut() = Some(watch);
    let (weak, clock) = (Rc::downgrade(output), clock.clone());
    on_cleanup(move || {
        if let Some(output) = weak.upgrade() {
            output.cancel(&clock);
            drop(output.watch.borrow_mut().take());
        }
    });
}

/// The methods both timed kinds share.
macro_rules! timed_methods {
    ($kind:ident) => {
        impl<T: Clone + PartialEq + fmt::Debug + 'static> $kind<T> {
            /// The value it holds, tracked.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn get(&self) -> T {
                self.output.value.get()
            }

            /// Calls `f` with the value it holds, tracked.
            #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
            pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
                self.output.value.with(f)
            }

            /// Whether a timer waits to pass a value (untracked).
            pub fn is_waiting(&self) -> bool {
                self.output.timer.get().is_some()
            }

            /// What it holds, the value it waits to pass and when the timer fires (untracked).
            pub fn timing(&self) -> Timing<T> {
                Timing {
                    holds: self.output.value.with_unrecorded(T::clone),
                    waiting: self.output.waiting.borrow().clone(),
                    fires_at: self.output.due.get(),
                }
            }

            /// Sets the label of its value's signal (and `NAME.watch` for the effect watching the source), and
            /// returns it.
            pub fn labelled(self, label: &str) -> Self {
                let _ = self.output.value.clone().labelled(label);
                if let Some(watch) = &*self.output.watch.borrow() {
                    let _ = watch.clone().labelled(&format!("{label}.watch"));
                }
                self
            }

            /// Stops following the source and cancels the timer; the value stays as it is.
            pub fn dispose(&self) {
                self.output.cancel(&self.clock);
                let watch = self.output.watch.borrow_mut().take();
                if let Some(watch) = watch {
                    watch.dispose();
                }
            }

            /// The id of its value's signal.
            pub fn id(&self) -> NodeId {
                self.output.value.id()
            }
        }

        impl<T> Clone for $kind<T> {
            fn clone(&self) -> Self {
                $kind {
                    output: self.output.clone(),
                    clock: self.clock.clone(),
                }
            }
        }

        impl<T: 'static> AnyNode for $kind<T> {
            fn node_id(&self) -> NodeId {
                self.output.value.node_id()
            }
        }

        impl<T: Clone + PartialEq + fmt::Debug + 'static> fmt::Debug for $kind<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($kind))
                    .field("id", &self.id())
                    .field("value", &self.output.value.peek())
                    .field("waiting", &self.is_waiting())
                    .finish()
            }
        }
    };
}

timed_methods!(Debounced);
timed_methods!(Throttled);
