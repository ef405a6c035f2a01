//! reactive_graph 0.2 (Leptos): arena `RwSignal`/`Memo` under an `Owner`, synchronous `ImmediateEffect`s.
//!
//! Two known traps shape this adapter (see the crate docs): `effect::batch` loses effect re-runs behind memos, so
//! `with_batch` does not batch; and pulling a memo chain costs time quadratic in its depth (and recursion deep
//! enough to need a big stack), so [`ReactiveFramework::MAX_DEPTH`] caps it at 200.

use std::cell::RefCell;

use reactive_graph::computed::Memo;
use reactive_graph::effect::ImmediateEffect;
use reactive_graph::owner::Owner;
use reactive_graph::signal::RwSignal;
use reactive_graph::traits::{Get, Set};

use crate::framework::{ReactiveFramework, Read, Value, Write};

/// The reactive_graph adapter.
pub struct Leptos;

/// Lets a closure that captures `!Send` benchmark state (counters, other handles) be stored by reactive_graph.
struct AssertSendSync<F>(F);
// SAFETY: the benchmark builds, runs and disposes every reactive_graph graph on one thread; reactive_graph runs
// memo and ImmediateEffect bodies synchronously on the thread that reads or writes (no executor is set up), so the
// wrapped closure is never touched from another thread.
unsafe impl<F> Send for AssertSendSync<F> {}
// SAFETY: as above.
unsafe impl<F> Sync for AssertSendSync<F> {}

impl<F> AssertSendSync<F> {
    fn get(&self) -> &F {
        &self.0
    }
}

thread_local! {
    static OWNER: RefCell<Option<Owner>> = const { RefCell::new(None) };
}

fn owner() -> Owner {
    OWNER.with(|o| o.borrow_mut().get_or_insert_with(Owner::new).clone())
}

impl<T: Value> Read<T> for RwSignal<T> {
    #[inline]
    fn read(&self) -> T {
        self.get()
    }
}

impl<T: Value> Write<T> for RwSignal<T> {
    #[inline]
    fn write(&self, value: T) {
        self.set(value)
    }
}

impl<T: Value> Read<T> for Memo<T> {
    #[inline]
    fn read(&self) -> T {
        self.get()
    }
}

impl ReactiveFramework for Leptos {
    const NAME: &'static str = "reactive_graph";
    const PULL_COUNTS: bool = true;
    const MAX_DEPTH: usize = 200;
    type Signal<T: Value> = RwSignal<T>;
    type Computed<T: Value> = Memo<T>;

    fn signal<T: Value>(value: T) -> Self::Signal<T> {
        owner().with(|| RwSignal::new(value))
    }
    fn computed<T: Value>(f: impl Fn() -> T + 'static) -> Self::Computed<T> {
        let f = AssertSendSync(f);
        owner().with(|| Memo::new(move |_| (f.get())()))
    }
    fn effect(f: impl Fn() + 'static) {
        let f = AssertSendSync(f);
        owner().with(|| ImmediateEffect::new_scoped(move || (f.get())()));
    }
    fn with_batch<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
    fn with_build<R>(f: impl FnOnce() -> R) -> R {
        owner().with(f)
    }
    fn cleanup() {
        if let Some(owner) = OWNER.with(|o| o.borrow_mut().take()) {
            owner.cleanup();
        }
    }
}
