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

use crate::graph::{NodeRef, Running, with_runtime};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A disposal scope: it owns the memos, effects and cleanups created inside it.
///
/// Cheap to clone; all clones are the same scope. Dropping a `Scope` does not dispose it: call [`Scope::dispose`].
#[derive(Clone)]
pub struct Scope(Rc<ScopeInner>);

struct ScopeInner {
    owned: RefCell<Vec<Owned>>,
    disposed: Cell<bool>,
}

enum Owned {
    Node(NodeRef),
    Cleanup(Box<dyn FnOnce()>),
    Scope(Scope),
    /// A cleanup that has run (during disposal).
    Done,
}

impl Scope {
    pub(crate) fn new_detached() -> Self {
        Scope(Rc::new(ScopeInner {
            owned: RefCell::new(Vec::new()),
            disposed: Cell::new(false),
        }))
    }

    pub(crate) fn adopt(&self, node: NodeRef) {
        if self.0.disposed.get() {
            // Created in a disposed scope: dispose at once, as the original does.
            node.dispose(&node);
            return;
        }
        self.0.owned.borrow_mut().push(Owned::Node(node));
    }

    pub(crate) fn add_cleanup(&self, f: Box<dyn FnOnce()>) {
        if self.0.disposed.get() {
            f();
            return;
        }
        self.0.owned.borrow_mut().push(Owned::Cleanup(f));
    }

    /// Disposes the scope: its cleanups run (last registered first), then what was created in it is disposed (last
    /// created first). Disposing twice does nothing.
    pub fn dispose(&self) {
        if self.0.disposed.replace(true) {
            return;
        }
        let owned = std::mem::take(&mut *self.0.owned.borrow_mut());
        with_runtime(|rt| {
            rt.detached(|| {
                let mut owned = owned;
                // Cleanups first, last registered first; then nodes and child scopes, last created first.
                for item in owned.iter_mut().rev() {
                    if let Owned::Cleanup(_) = item
                        && let Owned::Cleanup(cleanup) = std::mem::replace(item, Owned::Done)
                    {
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(cleanup));
                    }
                }
                for item in owned.into_iter().rev() {
                    match item {
                        Owned::Node(node) => node.dispose(&node),
                        Owned::Scope(scope) => scope.dispose(),
                        Owned::Cleanup(_) | Owned::Done => {}
                    }
                }
            })
        });
    }

    /// Whether [`Scope::dispose`] has run.
    pub fn is_disposed(&self) -> bool {
        self.0.disposed.get()
    }
}

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
    parent
        .0
        .owned
        .borrow_mut()
        .push(Owned::Scope(scope.clone()));
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

/// Registers `f` to run when the current owner is cleaned up: before the running memo or effect runs again or is
/// disposed, or when the enclosing [`Scope`] (else the graph) is disposed.
///
/// # Examples
///
/// See the [module docs](self).
pub fn on_cleanup(f: impl FnOnce() + 'static) {
    with_runtime(|rt| rt.on_cleanup(Box::new(f)));
}
