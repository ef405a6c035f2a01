//! A runtime-free deadline for `wait_version`: one lazily started timer thread wakes expired waiters, so the
//! exposure's futures work under any executor (or `block_on`).

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

struct Timer {
    waiters: Mutex<Waiters>,
    changed: Condvar,
}

#[derive(Default)]
struct Waiters {
    next_id: u64,
    by_deadline: BTreeMap<(Instant, u64), Waker>,
}

fn timer() -> &'static Timer {
    static TIMER: OnceLock<&'static Timer> = OnceLock::new();
    TIMER.get_or_init(|| {
        let timer: &'static Timer = Box::leak(Box::new(Timer {
            waiters: Mutex::new(Waiters::default()),
            changed: Condvar::new(),
        }));
        // If the thread cannot start, sleeps still end when polled after their deadline.
        let _ = std::thread::Builder::new()
            .name("ranvier-timer".into())
            .spawn(move || timer.run());
        timer
    })
}

impl Timer {
    fn run(&self) {
        let mut waiters = self.waiters.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let now = Instant::now();
            let mut expired = Vec::new();
            while let Some(entry) = waiters.by_deadline.first_entry() {
                if entry.key().0 > now {
                    break;
                }
                expired.push(entry.remove());
            }
            if !expired.is_empty() {
                drop(waiters);
                expired.into_iter().for_each(Waker::wake);
                waiters = self.waiters.lock().unwrap_or_else(PoisonError::into_inner);
                continue;
            }
            waiters = match waiters.by_deadline.keys().next() {
                Some(&(deadline, _)) => {
                    let wait = deadline.saturating_duration_since(now);
                    self.changed
                        .wait_timeout(waiters, wait)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
                None => self
                    .changed
                    .wait(waiters)
                    .unwrap_or_else(PoisonError::into_inner),
            };
        }
    }
}

/// Resolves at `deadline`.
struct Sleep {
    deadline: Instant,
    key: Option<(Instant, u64)>,
}

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if Instant::now() >= self.deadline {
            return Poll::Ready(());
        }
        let timer = timer();
        let mut waiters = timer.waiters.lock().unwrap_or_else(PoisonError::into_inner);
        let key = match self.key {
            Some(key) => key,
            None => {
                waiters.next_id += 1;
                (self.deadline, waiters.next_id)
            }
        };
        self.key = Some(key);
        waiters.by_deadline.insert(key, cx.waker().clone());
        drop(waiters);
        timer.changed.notify_one();
        Poll::Pending
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if let Some(key) = self.key {
            timer()
                .waiters
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .by_deadline
                .remove(&key);
        }
    }
}

/// `future`'s output, or `None` if `deadline` passes first.
pub(super) async fn until<F: Future>(deadline: Instant, future: F) -> Option<F::Output> {
    let mut future = pin!(future);
    let mut sleep = Sleep {
        deadline,
        key: None,
    };
    std::future::poll_fn(|cx| {
        if let Poll::Ready(output) = future.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        Pin::new(&mut sleep).poll(cx).map(|()| None)
    })
    .await
}
