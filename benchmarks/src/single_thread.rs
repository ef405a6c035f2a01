//! Running reactive_graph on one thread (with the `compare` feature): the futures crate's single-thread pool as
//! `any_spawner`'s executor, drained by `Executor::poll_local`, and a wrapper that lets a single-threaded benchmark
//! hand reactive_graph values holding `Rc`s.

use any_spawner::{CustomExecutor, Executor, PinnedFuture, PinnedLocalFuture};
use futures::executor::LocalPool;
use futures::task::LocalSpawnExt;
use std::cell::RefCell;

/// The futures crate's single-thread pool as reactive_graph's executor on this thread.
struct Pool {
    pool: RefCell<LocalPool>,
    spawner: futures::executor::LocalSpawner,
}

impl CustomExecutor for Pool {
    fn spawn(&self, fut: PinnedFuture<()>) {
        self.spawner.spawn_local(fut).expect("the pool is alive");
    }
    fn spawn_local(&self, fut: PinnedLocalFuture<()>) {
        self.spawner.spawn_local(fut).expect("the pool is alive");
    }
    fn poll_local(&self) {
        if let Ok(mut pool) = self.pool.try_borrow_mut() {
            pool.run_until_stalled();
        }
    }
}

/// Makes a single-thread pool this thread's executor (once: a second call leaves the first in place). Tasks run when
/// the benchmark calls `Executor::poll_local`.
pub fn init_executor() {
    let pool = LocalPool::new();
    let spawner = pool.spawner();
    let _ = Executor::init_local_custom_executor(Pool {
        pool: RefCell::new(pool),
        spawner,
    });
}

/// reactive_graph's signals and effects want `Send + Sync` values: this carries a thread-local value (an `Rc`, a
/// closure capturing one) through them. Sound only because a benchmark builds and runs each graph on one thread.
pub struct AssertSendSync<T>(pub T);

// SAFETY: the benchmarks build and run every reactive_graph graph on the thread that made the value, and the
// executor above polls on it too; nothing is sent elsewhere.
unsafe impl<T> Send for AssertSendSync<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for AssertSendSync<T> {}

impl<T> AssertSendSync<T> {
    /// The wrapped value (a method, so closures capture the wrapper rather than its field).
    pub fn get(&self) -> &T {
        &self.0
    }
}
