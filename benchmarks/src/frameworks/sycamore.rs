//! sycamore-reactive 0.9: an eager engine that topologically sorts the written node's cone. Computeds use
//! `create_selector` (the `PartialEq` cutoff; `create_memo` has none). One root per thread (sycamore leaks every
//! root), one child scope per build.

use std::cell::{OnceCell, RefCell};

use sycamore_reactive::{NodeHandle, ReadSignal, RootHandle, Signal};

use crate::framework::{ReactiveFramework, Read, Value, Write};

/// The sycamore-reactive adapter.
pub struct Sycamore;

thread_local! {
    static ROOT: OnceCell<RootHandle> = const { OnceCell::new() };
    static SCOPES: RefCell<Vec<NodeHandle>> = const { RefCell::new(Vec::new()) };
}

fn root() -> RootHandle {
    ROOT.with(|r| *r.get_or_init(|| sycamore_reactive::create_root(|| {})))
}

impl<T: Value> Read<T> for Signal<T> {
    #[inline]
    fn read(&self) -> T {
        self.get_clone()
    }
}

impl<T: Value> Write<T> for Signal<T> {
    #[inline]
    fn write(&self, value: T) {
        self.set(value)
    }
}

impl<T: Value> Read<T> for ReadSignal<T> {
    #[inline]
    fn read(&self) -> T {
        self.get_clone()
    }
}

impl ReactiveFramework for Sycamore {
    const NAME: &'static str = "sycamore-reactive";
    const PULL_COUNTS: bool = false;
    type Signal<T: Value> = Signal<T>;
    type Computed<T: Value> = ReadSignal<T>;

    fn signal<T: Value>(value: T) -> Self::Signal<T> {
        root().run_in(|| sycamore_reactive::create_signal(value))
    }
    fn computed<T: Value>(f: impl Fn() -> T + 'static) -> Self::Computed<T> {
        root().run_in(|| sycamore_reactive::create_selector(f))
    }
    fn effect(f: impl Fn() + 'static) {
        root().run_in(|| sycamore_reactive::create_effect(f))
    }
    fn with_batch<R>(f: impl FnOnce() -> R) -> R {
        root().run_in(|| sycamore_reactive::batch(f))
    }
    fn with_build<R>(f: impl FnOnce() -> R) -> R {
        root().run_in(|| {
            let mut out = None;
            let scope = sycamore_reactive::create_child_scope(|| out = Some(f()));
            SCOPES.with(|s| s.borrow_mut().push(scope));
            out.expect("the build closure ran")
        })
    }
    fn cleanup() {
        let scopes = SCOPES.with(|s| std::mem::take(&mut *s.borrow_mut()));
        for scope in scopes {
            scope.dispose();
        }
    }
}
