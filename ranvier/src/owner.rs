//! Ownership: who disposes a memo or effect, and when cleanups run.
//!
//! Every memo and effect has an owner. Created inside the body of another memo or effect, it belongs to that run,
//! and is disposed before the next run; created inside [`create_root`], it belongs to the returned [`Scope`];
//! created anywhere else, it belongs to the graph's root and lives until the graph is disposed. Signals have no owner:
//! they live as long as a handle or a reader holds them.
//!
//! Disposing an owner runs its cleanups (last registered first), then disposes what was created in it (last created
//! first). A disposed memo keeps its last value and stops tracking; a disposed effect never runs again.
//!
//! A node or scope disposed on its own, before its owner, is released by the owner soon after (the owner's list
//! drops disposed entries each time it doubles), so a long-lived owner such as the root does not keep them. A graph
//! left undisposed when its thread ends is freed without running anything (see
//! [`graph::dispose_current`](crate::graph::dispose_current)).
//!
//! # Examples
//!
//! ```
//! use ranvier::{create_root, on_cleanup, Effect, Signal};
//! use std::{cell::RefCell, rc::Rc};
//!
//! let log = Rc::new(RefCell::new(Vec::new()));
//! let count = Signal::new(0);
//! let ((), scope) = create_root(|_| {
//!     let (count, log) = (count.clone(), log.clone());
//!     Effect::new(move || {
//!         let n = count.get();
//!         let log = log.clone();
//!         on_cleanup(move || log.borrow_mut().push(format!("cleanup {n}")));
//!     });
//! });
//! count.set(1);
//! scope.dispose();
//! count.set(2); // the effect is gone
//! assert_eq!(*log.borrow(), ["cleanup 0", "cleanup 1"]);
//! ```

use crate::graph::{Running, with_runtime};

pub use crate::graph::scope::Scope;

/// Runs `f` in a new [`Scope`] and returns its value with the scope.
///
/// The scope belongs to the enclosing scope (or the graph's root), not to a running memo or effect: it outlives the
/// run that created it, until it, its parent scope, or the graph is disposed.
///
/// # Examples
///
/// ```
/// use ranvier::{create_root, Memo, Signal};
///
/// let n = Signal::new(2);
/// let (double, scope) = create_root(|_| {
///     let n = n.clone();
///     Memo::new(move |_| n.get() * 2)
/// });
/// assert_eq!(double.get(), 4);
/// scope.dispose();
/// n.set(5);
/// assert_eq!(double.get(), 4); // a disposed memo keeps its last value
/// ```
pub fn create_root<R>(f: impl FnOnce(&Scope) -> R) -> (R, Scope) {
    let scope = Scope::new_detached();
    let parent = with_runtime(|rt| {
        rt.scope
            .borrow()
            .clone()
            .unwrap_or_else(|| rt.root.borrow().clone())
    });
    parent.adopt_scope(&scope);
    let (prev_scope, prev_running) =
        with_runtime(|rt| (rt.scope.replace(Some(scope.clone())), rt.running.take()));
    struct Restore(Option<Scope>, Option<Running>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let (scope, running) = (self.0.take(), self.1.take());
            with_runtime(|rt| {
                *rt.scope.borrow_mut() = scope;
                rt.running.set(running);
            });
        }
    }
    let _restore = Restore(prev_scope, prev_running);
    let value = f(&scope);
    (value, scope)
}

/// Runs `f` in a new [`Scope`] that is a child of `parent` (disposed with it), whatever owner is current: the scope
/// of one row of a keyed collection, made while the collection's own node runs.
pub(crate) fn create_child<R>(parent: &Scope, f: impl FnOnce() -> R) -> (R, Scope) {
    struct Restore(Option<Scope>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let scope = self.0.take();
            with_runtime(|rt| *rt.scope.borrow_mut() = scope);
        }
    }
    let _restore = Restore(with_runtime(|rt| rt.scope.replace(Some(parent.clone()))));
    create_root(|_| f())
}

/// Registers `f` to run when the current owner is cleaned up: before the running memo or effect runs again or is
/// disposed, or when the enclosing [`Scope`] (else the graph) is disposed.
///
/// # Examples
///
/// ```
/// use ranvier::{on_cleanup, Effect, Signal};
/// use std::{cell::RefCell, rc::Rc};
///
/// let log = Rc::new(RefCell::new(Vec::new()));
/// let count = Signal::new(0);
/// let effect = Effect::new({
///     let (count, log) = (count.clone(), log.clone());
///     move || {
///         let n = count.get();
///         let log = log.clone();
///         on_cleanup(move || log.borrow_mut().push(n)); // runs before the next run, and at disposal
///     }
/// });
/// count.set(1);
/// effect.dispose();
/// assert_eq!(*log.borrow(), [0, 1]);
/// ```
pub fn on_cleanup(f: impl FnOnce() + 'static) {
    with_runtime(|rt| rt.on_cleanup(Box::new(f)));
}
