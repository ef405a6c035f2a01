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
//! Code that runs outside any body but creates nodes that belong somewhere (a callback, an async memo's flight after
//! an `await`) captures the owner with [`Owner::current`] and creates them inside [`run_with_owner`].
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
///
/// # Panics
///
/// Inside a pure function (the `compute` of an [`EffectOn`](crate::EffectOn), the `select` of a
/// [`Memo::option`](crate::Memo::option)), with a message naming the line: see [pure functions](Owner#pure-functions).
#[track_caller]
pub fn create_root<R>(f: impl FnOnce(&Scope) -> R) -> (R, Scope) {
    refuse_if_pure("a scope (create_root)");
    let scope = Scope::new_detached();
    let parent = with_runtime(|rt| {
        rt.scope
            .borrow()
            .clone()
            .unwrap_or_else(|| rt.root.borrow().clone())
    });
    parent.adopt_scope(&scope);
    let value = run_in_scope(&scope, || f(&scope));
    (value, scope)
}

/// Runs `f` with `scope` as the owner of the nodes and cleanups it creates (and no body running), then restores the
/// previous owner, panics included.
pub(crate) fn run_in_scope<R>(scope: &Scope, f: impl FnOnce() -> R) -> R {
    let _restore = enter_scope(scope);
    f()
}

/// Makes `scope` the owner of the nodes and cleanups created (and no body running) until the returned guard drops.
/// For callers that must not wrap the creation in a closure: a `#[track_caller]` chain stops at a closure.
pub(crate) fn enter_scope(scope: &Scope) -> impl Drop {
    let (prev_scope, prev_running) =
        with_runtime(|rt| (rt.scope.replace(Some(scope.clone())), rt.take_running()));
    struct Restore(Option<Scope>, Option<Running>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let (scope, running) = (self.0.take(), self.1.take());
            with_runtime(|rt| {
                *rt.scope.borrow_mut() = scope;
                rt.set_running(running);
            });
        }
    }
    Restore(prev_scope, prev_running)
}

/// A new scope that belongs to the current owner: disposed with the running body's run (before its next run), else
/// with the current scope, else with the graph. Node kinds made of several nodes keep their parts in one.
pub(crate) fn owned_scope() -> Scope {
    let scope = Scope::new_detached();
    with_runtime(|rt| {
        if rt.running().is_some() {
            let scope = scope.clone();
            rt.on_cleanup(Box::new(move || scope.dispose()));
            return;
        }
        let parent = rt
            .scope
            .borrow()
            .clone()
            .unwrap_or_else(|| rt.root.borrow().clone());
        parent.adopt_scope(&scope);
    });
    scope
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
///
/// # Panics
///
/// Inside a pure function, with a message naming the line: see [pure functions](Owner#pure-functions).
#[track_caller]
pub fn on_cleanup(f: impl FnOnce() + 'static) {
    refuse_if_pure("a cleanup (on_cleanup)");
    with_runtime(|rt| rt.on_cleanup(Box::new(f)));
}

/// Panics, naming the caller's line, if a pure function is running: `what` may not be created in one.
#[track_caller]
fn refuse_if_pure(what: &str) {
    let site = std::panic::Location::caller();
    if let Err(message) = with_runtime(|rt| rt.check_not_pure(|| format!("{what} at {site}"))) {
        std::panic::panic_any(message);
    }
}

/// Where new nodes and cleanups go: a scope, or the run of a memo or effect. Capture it with [`Owner::current`] where
/// the nodes belong, and create them later, elsewhere, with [`run_with_owner`]: in a callback, or in an async memo's
/// flight after an `await` (which runs outside the memo's body, so what it creates would otherwise belong to the
/// graph's root and live until the graph is disposed).
///
/// Cheap to clone; `!Send`.
///
/// # Pure functions
///
/// Some functions are *pure*: they compute a value and own nothing. They are the `compute` of an
/// [`EffectOn`](crate::EffectOn) and the `select` of a [`Memo::option`](crate::Memo::option) (a memo's own function,
/// [`Memo::new`](crate::Memo::new)'s, owns what it creates). Creating a memo, an effect, a scope, a cleanup or an
/// owner in a pure function (inside [`untrack`](crate::untrack) too) panics with a message naming the line of the
/// creation and the node whose function it is; the run fails with that message even if the function catches the
/// panic. A memo the pure function reads runs its own function, which may own nodes as usual. Signals have no owner,
/// so a pure function may create one, as any function may; note that a function that runs again creates a new one
/// each time, starting from its initial value.
///
/// # Examples
///
/// ```
/// use ranvier::{create_root, run_with_owner, Effect, Owner, Signal};
/// use std::{cell::Cell, rc::Rc};
///
/// let clicks = Signal::new(0);
/// let runs = Rc::new(Cell::new(0));
/// let (on_click, scope) = create_root(|_| {
///     let owner = Owner::current();
///     let (clicks, runs) = (clicks.clone(), runs.clone());
///     // A callback the UI calls later, outside the scope: its effect still belongs to the scope.
///     move || {
///         let (clicks, runs) = (clicks.clone(), runs.clone());
///         run_with_owner(&owner, || Effect::new(move || { clicks.get(); runs.set(runs.get() + 1); }));
///     }
/// });
/// on_click();
/// clicks.set(1);
/// assert_eq!(runs.get(), 2);
/// scope.dispose(); // the callback's effect goes with the scope
/// clicks.set(2);
/// assert_eq!(runs.get(), 2);
/// ```
#[derive(Clone)]
pub struct Owner {
    scope: Scope,
}

impl Owner {
    /// The current owner: inside the function of a memo or effect, its current run (what is created through it is
    /// disposed before the next run, with the run's own nodes); inside [`create_root`], its scope; anywhere else, the
    /// graph's root.
    ///
    /// # Panics
    ///
    /// Inside a pure function, with a message naming the line: see [pure functions](Owner#pure-functions).
    #[track_caller]
    pub fn current() -> Owner {
        refuse_if_pure("an owner (Owner::current)");
        let scope = with_runtime(|rt| {
            if rt.running().is_some() {
                return None;
            }
            Some(
                rt.scope
                    .borrow()
                    .clone()
                    .unwrap_or_else(|| rt.root.borrow().clone()),
            )
        });
        Owner {
            scope: scope.unwrap_or_else(owned_scope),
        }
    }

    /// Runs `f` with this owner as the owner of the nodes and cleanups `f` creates; tracking is unchanged. Under an
    /// owner that is already disposed, a node is disposed as it is created and a cleanup runs at once.
    #[track_caller]
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        refuse_if_pure("a change of owner (run_with_owner)");
        run_in_scope(&self.scope, f)
    }

    /// Whether the owner has been disposed (its run ended and was cleaned up, or its scope was disposed).
    pub fn is_disposed(&self) -> bool {
        self.scope.is_disposed()
    }
}

impl std::fmt::Debug for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Owner")
            .field("disposed", &self.is_disposed())
            .finish()
    }
}

/// Runs `f` with `owner` as the owner of the nodes and cleanups it creates: [`Owner::run`].
///
/// # Panics
///
/// Inside a pure function, with a message naming the line: see [pure functions](Owner#pure-functions).
#[track_caller]
pub fn run_with_owner<R>(owner: &Owner, f: impl FnOnce() -> R) -> R {
    owner.run(f)
}

/// Runs `f`, the pure function `what` of the running body: an owned creation in it is refused (see [pure
/// functions](Owner#pure-functions)).
pub(crate) fn pure_body<R>(what: &'static str, f: impl FnOnce() -> R) -> R {
    with_runtime(|rt| rt.run_pure(what, f))
}
