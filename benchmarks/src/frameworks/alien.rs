//! alien-signals 0.1.4 (ohkami-rs): the alien-signals push-pull algorithm. Its nodes live in a global arena that
//! is never freed, so memory grows with every build; effects are disposed at cleanup.

use std::cell::RefCell;

use alien_signals::{Computed, Effect, Signal};

use crate::framework::{ReactiveFramework, Read, Value, Write};

/// The alien-signals adapter.
pub struct Alien;

thread_local! {
    static EFFECTS: RefCell<Vec<Effect>> = const { RefCell::new(Vec::new()) };
}

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

impl ReactiveFramework for Alien {
    const NAME: &'static str = "alien-signals";
    const PULL_COUNTS: bool = true;
    type Signal<T: Value> = Signal<T>;
    type Computed<T: Value> = Computed<T>;

    fn signal<T: Value>(value: T) -> Self::Signal<T> {
        Signal::new(value)
    }
    fn computed<T: Value>(f: impl Fn() -> T + 'static) -> Self::Computed<T> {
        Computed::new(move |_| f())
    }
    fn effect(f: impl Fn() + 'static) {
        let effect = Effect::new(f);
        EFFECTS.with(|e| e.borrow_mut().push(effect));
    }
    fn with_batch<R>(f: impl FnOnce() -> R) -> R {
        alien_signals::start_batch();
        let result = f();
        alien_signals::end_batch();
        result
    }
    fn with_build<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
    fn cleanup() {
        let effects = EFFECTS.with(|e| std::mem::take(&mut *e.borrow_mut()));
        for effect in effects {
            effect.dispose();
        }
    }
}
