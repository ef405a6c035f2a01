//! samara-signals 0.2.0 (wuzekang/samara): an alien-signals-style engine on a thread-local slotmap. Signal writes
//! always notify (no equality check on write); `memo` cuts off on `PartialEq`. Cleanup disposes the root scope.

use samara_signals::{Computed, Signal};

use crate::framework::{ReactiveFramework, Read, Value, Write};

/// The samara-signals adapter.
pub struct Samara;

impl<T: Value> Read<T> for Signal<T> {
    #[inline]
    fn read(&self) -> T {
        self.get()
    }
}

impl<T: Value> Write<T> for Signal<T> {
    #[inline]
    fn write(&self, value: T) {
        self.set(value)
    }
}

impl<T: Value> Read<T> for Computed<T> {
    #[inline]
    fn read(&self) -> T {
        self.get()
    }
}

impl ReactiveFramework for Samara {
    const NAME: &'static str = "samara-signals";
    const PULL_COUNTS: bool = true;
    type Signal<T: Value> = Signal<T>;
    type Computed<T: Value> = Computed<T>;

    fn signal<T: Value>(value: T) -> Self::Signal<T> {
        samara_signals::signal(value)
    }
    fn computed<T: Value>(f: impl Fn() -> T + 'static) -> Self::Computed<T> {
        samara_signals::memo(f)
    }
    fn effect(f: impl Fn() + 'static) {
        samara_signals::effect(f);
    }
    fn with_batch<R>(f: impl FnOnce() -> R) -> R {
        samara_signals::start_batch();
        let result = f();
        samara_signals::end_batch();
        result
    }
    fn with_build<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
    fn cleanup() {
        samara_signals::cleanup();
    }
}
