//! The graph thread's flight executor: the futures of [`AsyncMemo`](crate::AsyncMemo) runs, and the settles other
//! threads send to [`AsyncSource`](crate::AsyncSource)s.
//!
//! It needs std only. Each graph thread has one: a table of local tasks (`!Send` futures are fine, they never leave
//! the thread) and a `Send` queue that wakers and [`Settler`](crate::async_source::Settler)s push to from any thread.
//! [`run_flights`](crate::graph::run_flights) drains it: it runs the queued settles, then polls the woken flights,
//! until nothing is ready. A [`GraphHost`](crate::host::GraphHost) drains it by itself (a wake posts one drain job to
//! the host's inbox); without a host the program calls `run_flights` on the graph thread.
//!
//! It also keeps the thread's one flight registry: the async memos that have flights, so the trace
//! ([`trace::waiting_on`](crate::trace::waiting_on)) and the exposure (a dispatch that waits for its flights to settle)
//! list flights from here, never from `async_memo`'s insides.
//!
//! A cancelled flight's future is dropped at once (if it is being polled, as soon as its poll returns). A flight
//! whose poll panics is caught here: its completion callback gets the panic's text.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use super::{DynNodeRc, NodeId, WeakNode};

/// A flight's future, boxed: it resolves to the flight's outcome, or `Err` with the text of why it failed.
pub(crate) type FlightFuture<T> = Pin<Box<dyn Future<Output = Result<T, String>>>>;

/// Work sent from another thread, run on the graph thread at the next drain.
pub(crate) type Job = Box<dyn FnOnce() + Send>;

/// Called when the queue goes from empty to non-empty (the host posts a drain job).
pub(crate) type Notify = Arc<dyn Fn() + Send + Sync>;

/// What other threads share with the graph thread's executor.
pub(crate) struct Shared {
    /// Flights woken since the last drain.
    ready: Mutex<Vec<u64>>,
    /// Settles and other work sent from other threads.
    jobs: Mutex<Vec<Job>>,
    /// Whether a drain was requested since the last one began.
    requested: AtomicBool,
    notify: Mutex<Option<Notify>>,
    /// How many times this thread's pending flights changed (a flight finished or was cancelled, a memo left the
    /// registry): what [`FlightsChanged`] waits on.
    changes: AtomicU64,
    /// The wakers of the [`FlightsChanged`] futures waiting for the next change, by key.
    watchers: Mutex<Watchers>,
}

/// The futures waiting for a change of the pending flights.
#[derive(Default)]
struct Watchers {
    next: u64,
    wakers: HashMap<u64, Waker>,
}

impl Shared {
    fn request(&self) {
        if !self.requested.swap(true, Ordering::AcqRel) {
            let notify = self
                .notify
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            if let Some(notify) = notify {
                notify();
            }
        }
    }

    /// Counts a change of the pending flights and wakes every [`FlightsChanged`] waiting for one.
    fn flights_changed(&self) {
        self.changes.fetch_add(1, Ordering::AcqRel);
        let wakers = std::mem::take(
            &mut self
                .watchers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .wakers,
        );
        for waker in wakers.into_values() {
            waker.wake();
        }
    }

    /// How many times the pending flights changed so far: read it before looking at the flights, then wait with
    /// [`changed_since`](Self::changed_since), and no change between the two is missed.
    #[cfg_attr(
        not(feature = "exposure"),
        allow(dead_code, reason = "the exposure waits on it")
    )]
    pub(crate) fn changes(&self) -> u64 {
        self.changes.load(Ordering::Acquire)
    }

    /// A future that resolves once the pending flights changed after [`changes`](Self::changes) read `seen`.
    /// Any thread may await it: the graph thread's executor wakes it. Dropped, it leaves nothing behind.
    #[cfg_attr(
        not(feature = "exposure"),
        allow(dead_code, reason = "the exposure waits on it")
    )]
    pub(crate) fn changed_since(self: &Arc<Self>, seen: u64) -> FlightsChanged {
        FlightsChanged {
            remote: self.clone(),
            seen,
            key: None,
        }
    }

    /// Queues `job` to run on the graph thread at the next drain.
    pub(crate) fn post(&self, job: Job) {
        self.jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(job);
        self.request();
    }
}

/// A handle on a graph thread's executor that any thread may hold.
pub(crate) type Remote = Arc<Shared>;

/// Resolves once a graph thread's pending flights changed (see [`Shared::changed_since`]).
pub(crate) struct FlightsChanged {
    remote: Remote,
    seen: u64,
    /// Its entry among the watchers, while it waits.
    key: Option<u64>,
}

impl Future for FlightsChanged {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.remote.changes() != self.seen {
            return Poll::Ready(());
        }
        let mut watchers = self
            .remote
            .watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let key = match self.key {
            Some(key) => key,
            None => {
                watchers.next += 1;
                watchers.next
            }
        };
        watchers.wakers.insert(key, cx.waker().clone());
        drop(watchers);
        self.key = Some(key);
        // A change between the first look and the registration took the wakers before this one was in.
        if self.remote.changes() != self.seen {
            return Poll::Ready(());
        }
        Poll::Pending
    }
}

impl Drop for FlightsChanged {
    fn drop(&mut self) {
        if let Some(key) = self.key {
            self.remote
                .watchers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .wakers
                .remove(&key);
        }
    }
}

struct TaskWaker {
    id: u64,
    shared: Arc<Shared>,
}

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.shared
            .ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(self.id);
        self.shared.request();
    }
}

/// Polls a flight's future once, and applies its outcome when it is ready.
type PollFn = Box<dyn FnMut(&mut Context<'_>) -> Poll<()>>;

/// A flight: its future, and what to do with its outcome.
struct Task {
    poll: PollFn,
    waker: Waker,
}

struct Executor {
    shared: Arc<Shared>,
    tasks: RefCell<HashMap<u64, Task>>,
    next: Cell<u64>,
    /// The flight being polled, and whether it was cancelled meanwhile.
    polling: Cell<Option<u64>>,
    cancelled_while_polling: Cell<bool>,
    draining: Cell<bool>,
}

thread_local! {
    static EXECUTOR: Executor = Executor {
        shared: Arc::new(Shared {
            ready: Mutex::new(Vec::new()),
            jobs: Mutex::new(Vec::new()),
            requested: AtomicBool::new(false),
            notify: Mutex::new(None),
            changes: AtomicU64::new(0),
            watchers: Mutex::new(Watchers::default()),
        }),
        tasks: RefCell::new(HashMap::new()),
        next: Cell::new(1),
        polling: Cell::new(None),
        cancelled_while_polling: Cell::new(false),
        draining: Cell::new(false),
    };
}

/// This thread's executor, for other threads to post to.
pub(crate) fn remote() -> Remote {
    EXECUTOR.with(|e| e.shared.clone())
}

/// Sets what a wake calls when the queue needs a drain (the host's "post a drain job").
#[cfg_attr(not(feature = "host"), allow(dead_code, reason = "called by the host"))]
pub(crate) fn set_notify(notify: Option<Notify>) {
    EXECUTOR.with(|e| {
        *e.shared
            .notify
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = notify;
    });
}

/// Starts `future` as a flight on this thread: it is first polled at the next drain. `done` gets its outcome, or
/// the text of its panic. Returns the flight's task id (for [`cancel`]).
pub(crate) fn spawn<T: 'static>(
    future: FlightFuture<T>,
    done: impl FnOnce(Result<T, String>) + 'static,
) -> u64 {
    EXECUTOR.with(|e| {
        let id = e.next.get();
        e.next.set(id + 1);
        let mut future = Some(future);
        let mut done = Some(done);
        let poll = move |cx: &mut Context<'_>| {
            let Some(f) = future.as_mut() else {
                return Poll::Ready(());
            };
            let outcome = match catch_unwind(AssertUnwindSafe(|| f.as_mut().poll(cx))) {
                Ok(Poll::Pending) => return Poll::Pending,
                Ok(Poll::Ready(outcome)) => outcome,
                Err(panic) => Err(format!(
                    "the flight panicked: {}",
                    crate::text::panic_text(&*panic)
                )),
            };
            // The future goes before its outcome is applied: what it held is released first.
            future = None;
            if let Some(done) = done.take() {
                done(outcome);
            }
            Poll::Ready(())
        };
        let waker = Waker::from(Arc::new(TaskWaker {
            id,
            shared: e.shared.clone(),
        }));
        e.tasks.borrow_mut().insert(
            id,
            Task {
                poll: Box::new(poll),
                waker,
            },
        );
        e.shared
            .ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(id);
        e.shared.request();
        id
    })
}

/// Cancels a flight: its future is dropped (after its poll, if it is being polled) and its outcome never applied.
pub(crate) fn cancel(id: u64) {
    let task = EXECUTOR.with(|e| {
        if e.polling.get() == Some(id) {
            e.cancelled_while_polling.set(true);
            return None;
        }
        e.tasks.borrow_mut().remove(&id)
    });
    // Dropped outside the table's borrow: dropping a future may run code that starts or cancels other flights.
    if task.is_some() {
        drop(task);
        changed();
    }
}

/// Tells the waiters of this thread's executor that the pending flights changed (nothing during thread exit).
fn changed() {
    let _ = EXECUTOR.try_with(|e| e.shared.flights_changed());
}

/// How many flights are started and not finished on this thread.
pub(crate) fn pending() -> usize {
    EXECUTOR
        .try_with(|e| e.tasks.borrow().len() + usize::from(e.polling.get().is_some()))
        .unwrap_or(0)
}

/// Runs the settles other threads sent and polls the woken flights until nothing is ready. Returns how many
/// flights are still pending. Does nothing (returns the count) when called during a drain.
pub(crate) fn drain() -> usize {
    let reentered = EXECUTOR.with(|e| e.draining.replace(true));
    if reentered {
        return pending();
    }
    struct Done;
    impl Drop for Done {
        fn drop(&mut self) {
            let _ = EXECUTOR.try_with(|e| e.draining.set(false));
        }
    }
    let _done = Done;
    loop {
        let (jobs, ready) = EXECUTOR.with(|e| {
            e.shared.requested.store(false, Ordering::Release);
            let jobs =
                std::mem::take(&mut *e.shared.jobs.lock().unwrap_or_else(PoisonError::into_inner));
            let ready = std::mem::take(
                &mut *e
                    .shared
                    .ready
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner),
            );
            (jobs, ready)
        });
        if jobs.is_empty() && ready.is_empty() {
            break;
        }
        for job in jobs {
            // A settle that panics (a comparer, an effect it woke) fails only itself.
            let _ = catch_unwind(AssertUnwindSafe(job));
        }
        for id in ready {
            poll_one(id);
        }
    }
    pending()
}

fn poll_one(id: u64) {
    let Some(mut task) = EXECUTOR.with(|e| {
        let task = e.tasks.borrow_mut().remove(&id);
        if task.is_some() {
            e.polling.set(Some(id));
            e.cancelled_while_polling.set(false);
        }
        task
    }) else {
        // Finished or cancelled since it was woken.
        return;
    };
    let waker = task.waker.clone();
    let mut cx = Context::from_waker(&waker);
    // The outcome is applied inside the poll; a panic there (a comparer, an effect it woke) ends the flight.
    let poll = catch_unwind(AssertUnwindSafe(|| (task.poll)(&mut cx))).unwrap_or(Poll::Ready(()));
    let keep = EXECUTOR.with(|e| {
        e.polling.set(None);
        poll.is_pending() && !e.cancelled_while_polling.replace(false)
    });
    if keep {
        EXECUTOR.with(|e| e.tasks.borrow_mut().insert(id, task));
    } else {
        drop(task);
        changed();
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The flight registry
// ---------------------------------------------------------------------------------------------------------------

/// One flight of an [`AsyncMemo`](crate::AsyncMemo), as [`AsyncMemo::flights`](crate::AsyncMemo::flights) and `trace::waiting_on` list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlightInfo {
    /// The memo.
    pub node: NodeId,
    /// The flight's number (the memo's first flight is 1).
    pub number: u32,
    /// The run of the memo's function that started it (from 1).
    pub run: u32,
    /// How long ago it started.
    pub age: Duration,
    /// Where it stands.
    pub stage: FlightStage,
}

/// Where a flight stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FlightStage {
    /// Its future is running: the memo waits for it.
    InTheAir,
    /// Its future is running, but a newer run superseded it: its outcome will be dropped
    /// ([`FlightPolicy::KeepLatest`](crate::FlightPolicy::KeepLatest)).
    Superseded,
    /// Its future finished; its outcome waits for the older flights' ([`FlightPolicy::Queue`](crate::FlightPolicy::Queue)).
    Finished,
    /// Not started: it starts when the flight in the air finishes ([`FlightPolicy::FinishCurrent`](crate::FlightPolicy::FinishCurrent)).
    Waiting,
}

impl FlightStage {
    /// The stage as the tools show it.
    pub fn text(self) -> &'static str {
        match self {
            FlightStage::InTheAir => "in the air",
            FlightStage::Superseded => "superseded (its outcome will be dropped)",
            FlightStage::Finished => "finished, waiting for the older flights",
            FlightStage::Waiting => "waiting for the flight in the air to finish",
        }
    }
}

impl fmt::Display for FlightInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "flight {} of {} (started by run {}, {} ms ago): {}",
            self.number,
            self.node,
            self.run,
            self.age.as_millis(),
            self.stage.text()
        )
    }
}

/// Lists one async memo's flights (with when each started), given its node: registered with the memo, which knows
/// its value type.
pub(crate) type FlightsOf = fn(&DynNodeRc) -> Vec<(Instant, FlightInfo)>;

thread_local! {
    /// The async memos of this thread that have flights, by id, so the trace and the exposure can list flights from
    /// an id alone, or all of them.
    static ASYNC_MEMOS: RefCell<HashMap<NodeId, (WeakNode, FlightsOf)>> = RefCell::new(HashMap::new());
    static SWEEP_AT: Cell<usize> = const { Cell::new(64) };
}

pub(crate) fn unregister(id: NodeId) {
    let _ = ASYNC_MEMOS.try_with(|memos| memos.borrow_mut().remove(&id));
    changed();
}

pub(crate) fn register(id: NodeId, weak: WeakNode, flights_of: FlightsOf) {
    ASYNC_MEMOS.with_borrow_mut(|memos| {
        if memos.len() >= SWEEP_AT.get() {
            memos.retain(|_, (weak, _)| weak.upgrade().is_some());
            SWEEP_AT.set((memos.len() * 2).max(64));
        }
        memos.insert(id, (weak, flights_of));
    });
}

/// The flights of the async memo `id` on this thread, oldest first; `None` when `id` is not a live async memo.
pub(crate) fn flights_of_node(id: NodeId) -> Option<Vec<FlightInfo>> {
    let (node, flights_of) = ASYNC_MEMOS.with_borrow(|memos| {
        let (weak, flights_of) = memos.get(&id)?;
        Some((weak.upgrade()?, *flights_of))
    })?;
    (node.core().id == id).then(|| flights_of(&node).into_iter().map(|(_, f)| f).collect())
}

/// Every pending flight of this thread's async memos, oldest first.
pub(crate) fn all_flights() -> Vec<FlightInfo> {
    flights_started_since(None)
}

/// The pending flights of this thread's async memos that started at or after `since` (all with `None`), oldest
/// first.
pub(crate) fn flights_started_since(since: Option<Instant>) -> Vec<FlightInfo> {
    let nodes: Vec<(DynNodeRc, FlightsOf)> = ASYNC_MEMOS.with_borrow(|memos| {
        memos
            .values()
            .filter_map(|(weak, f)| Some((weak.upgrade()?, *f)))
            .collect()
    });
    let mut all: Vec<FlightInfo> = nodes
        .iter()
        .flat_map(|(node, f)| f(node))
        .filter(|(started, _)| since.is_none_or(|since| *started >= since))
        .map(|(_, flight)| flight)
        .collect();
    all.sort_by(|a, b| b.age.cmp(&a.age).then(a.node.cmp(&b.node)));
    all
}
