//! ranvier: `Signal`, `Memo`, `Effect`, `batch`, and one `create_root` scope per build (disposed by cleanup).

use std::cell::RefCell;

use crate::framework::{ReactiveFramework, Read, Value, Write};

/// The ranvier adapter (name `ranvier`, or `ranvier-traced` when built with the `ranvier-trace` feature).
pub struct Ranvier;

thread_local! {
    static SCOPES: RefCell<Vec<ranvier::Scope>> = const { RefCell::new(Vec::new()) };
}

impl<T: Value> Read<T> for ranvier::Signal<T> {
    #[inline]
    fn read(&self) -> T {
        self.get()
    }
}

impl<T: Value> Write<T> for ranvier::Signal<T> {
    #[inline]
    fn write(&self, value: T) {
        self.set(value)
    }
}

impl<T: Value> Read<T> for ranvier::Memo<T> {
    #[inline]
    fn read(&self) -> T {
        self.get()
    }
}

impl ReactiveFramework for Ranvier {
    const NAME: &'static str = if cfg!(feature = "ranvier-trace") {
        "ranvier-traced"
    } else {
        "ranvier"
    };
    const PULL_COUNTS: bool = true;
    type Signal<T: Value> = ranvier::Signal<T>;
    type Computed<T: Value> = ranvier::Memo<T>;

    fn signal<T: Value>(value: T) -> Self::Signal<T> {
        ranvier::Signal::new(value)
    }
    fn computed<T: Value>(f: impl Fn() -> T + 'static) -> Self::Computed<T> {
        ranvier::Memo::new(move |_| f())
    }
    fn effect(f: impl Fn() + 'static) {
        // The build's root scope owns the effect; the handle need not be kept.
        ranvier::Effect::new(f);
    }
    fn with_batch<R>(f: impl FnOnce() -> R) -> R {
        ranvier::batch(f)
    }
    fn with_build<R>(f: impl FnOnce() -> R) -> R {
        let (result, scope) = ranvier::create_root(|_| f());
        SCOPES.with(|s| s.borrow_mut().push(scope));
        result
    }
    fn cleanup() {
        let scopes = SCOPES.with(|s| std::mem::take(&mut *s.borrow_mut()));
        for scope in scopes {
            scope.dispose();
        }
    }
}
