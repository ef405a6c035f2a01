//! The adapter every library implements: a Rust mirror of js-reactivity-benchmark's `ReactiveFramework`.
//!
//! The suite's cases are written once, generic over [`ReactiveFramework`], and monomorphised per library, so no
//! dynamic dispatch is added on top of what the library itself does. Handles are read with [`Read::read`] (tracked,
//! returns a clone, like `signal.read()` in the suite) and written with [`Write::write`].
//!
//! [`Counting`] wraps any framework and counts how many times computed and effect bodies run. The harness uses it
//! for the untimed verification pass, so the timed passes carry no counting code.

use std::cell::Cell;
use std::marker::PhantomData;

/// A value a node can hold. `Debug` because ranvier's trace renders values; `Send + Sync` because
/// reactive_graph stores values behind locks.
pub trait Value: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static {}
impl<T: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static> Value for T {}

/// A readable handle (signal or computed).
pub trait Read<T>: Clone + 'static {
    /// Reads the current value, tracked by the running computation or effect.
    fn read(&self) -> T;
}

/// A writable handle (a signal).
pub trait Write<T>: Read<T> {
    /// Writes a new value.
    fn write(&self, value: T);
}

/// One reactive library, as the benchmark sees it. All methods work on the calling thread's graph.
pub trait ReactiveFramework: 'static {
    /// Name shown in the results (the suite's `framework` column).
    const NAME: &'static str;
    /// Whether computeds are lazy (only run when read), so computed-execution counts can be asserted on graphs
    /// where only some leaves are read (the suite's `testPullCounts`).
    const PULL_COUNTS: bool;
    /// The deepest dependency chain this library is run on; deeper cases are reported as skipped.
    const MAX_DEPTH: usize = usize::MAX;
    /// Signal handle.
    type Signal<T: Value>: Write<T>;
    /// Computed (memo) handle.
    type Computed<T: Value>: Read<T>;

    /// Creates a signal.
    fn signal<T: Value>(value: T) -> Self::Signal<T>;
    /// Creates a computed with an equality cutoff.
    fn computed<T: Value>(f: impl Fn() -> T + 'static) -> Self::Computed<T>;
    /// Creates an effect that runs now and again whenever what it read changes.
    fn effect(f: impl Fn() + 'static);
    /// Runs `f` with effects deferred to its end, where the library supports it.
    fn with_batch<R>(f: impl FnOnce() -> R) -> R;
    /// Runs `f`, which builds a graph, inside whatever owner/scope the library needs.
    fn with_build<R>(f: impl FnOnce() -> R) -> R;
    /// Disposes everything built since the last cleanup.
    fn cleanup();
}

/// A signal or a computed, for places where the suite mixes them (a chain starts at a signal).
pub enum Src<F: ReactiveFramework, T: Value> {
    /// A signal.
    Signal(F::Signal<T>),
    /// A computed.
    Computed(F::Computed<T>),
}

impl<F: ReactiveFramework, T: Value> Clone for Src<F, T> {
    fn clone(&self) -> Self {
        match self {
            Src::Signal(s) => Src::Signal(s.clone()),
            Src::Computed(c) => Src::Computed(c.clone()),
        }
    }
}

impl<F: ReactiveFramework, T: Value> Src<F, T> {
    /// Reads whichever it is.
    #[inline]
    pub fn read(&self) -> T {
        match self {
            Src::Signal(s) => s.read(),
            Src::Computed(c) => c.read(),
        }
    }
}

thread_local! {
    static RUNS: Cell<u64> = const { Cell::new(0) };
}

/// Wraps a framework so every computed and effect body execution is counted (see [`runs`]).
pub struct Counting<F>(PhantomData<F>);

/// Computed + effect body executions counted by [`Counting`] on this thread since the last [`reset_runs`].
pub fn runs() -> u64 {
    RUNS.with(Cell::get)
}

/// Resets the [`Counting`] counter.
pub fn reset_runs() {
    RUNS.with(|r| r.set(0));
}

fn bump() {
    RUNS.with(|r| r.set(r.get() + 1));
}

impl<F: ReactiveFramework> ReactiveFramework for Counting<F> {
    const NAME: &'static str = F::NAME;
    const PULL_COUNTS: bool = F::PULL_COUNTS;
    const MAX_DEPTH: usize = F::MAX_DEPTH;
    type Signal<T: Value> = F::Signal<T>;
    type Computed<T: Value> = F::Computed<T>;

    fn signal<T: Value>(value: T) -> Self::Signal<T> {
        F::signal(value)
    }
    fn computed<T: Value>(f: impl Fn() -> T + 'static) -> Self::Computed<T> {
        F::computed(move || {
            bump();
            f()
        })
    }
    fn effect(f: impl Fn() + 'static) {
        F::effect(move || {
            bump();
            f()
        })
    }
    fn with_batch<R>(f: impl FnOnce() -> R) -> R {
        F::with_batch(f)
    }
    fn with_build<R>(f: impl FnOnce() -> R) -> R {
        F::with_build(f)
    }
    fn cleanup() {
        F::cleanup()
    }
}
