//! The graph thread's flight executor: the futures of [`AsyncMemo`](crate::AsyncMemo) runs, and the settles other
//! threads send to [`AsyncSource`](crate::AsyncSource)s.
//!
//! It needs std only. Each graph thread has one: a table of local tasks (`!Send` futures are fine, they never leave
//! the thread) and a `Send` queue that wakers and [`Settler`](crate::async_source::Settler)s push to from any thread.
//! [`run_flights`](crate::graph::run_flights) drains it: it runs the queued settles, then polls the woken flights,
//! until nothing is ready. A [`GraphHost`](crate::host::GraphHost) drains it by itself (a wake posts one drain job to
//! the host's inbox); without a host the program calls `run_flights` on the graph thread.
//!
//! A cancelled flight's future is dropped at once (if it is being polled, as soon as its poll returns). A flight
//! whose poll panics is caught here: its completion callback gets the panic's text.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

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
    drop(task);
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
    }
}
