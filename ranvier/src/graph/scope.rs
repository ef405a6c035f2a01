//! Scopes: the engine's record of who owns which memos, effects, cleanups and child scopes, and how disposing an owner
//! releases them (cleanups last registered first, then what it created, last created first). The public API over it
//! (`create_root`, `on_cleanup`, and the rules) is in [`owner`](crate::owner); memos and effects own what their
//! running body creates through the same list (`Computation::take_scope`).

use super::{DynNodeRc, with_runtime};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A disposal scope: it owns the memos, effects and cleanups created inside it.
///
/// Cheap to clone; all clones are the same scope. Dropping a `Scope` does not dispose it: call [`Scope::dispose`].
#[derive(Clone)]
pub struct Scope(Rc<ScopeInner>);

mod owned;

use owned::OwnedList;

struct ScopeInner {
    owned: RefCell<OwnedList>,
    disposed: Cell<bool>,
    /// The length of `owned` at which disposed entries are next dropped from it (see [`Scope::own`]).
    prune_at: Cell<usize>,
    /// The graph's disposal count when `owned` was last pruned: if nothing was disposed since, nothing is pruned.
    pruned_after: Cell<u64>,
}

/// The shortest `owned` list that is ever pruned.
const PRUNE_FROM: usize = 32;

enum Owned {
    Node(DynNodeRc),
    Cleanup(Box<dyn FnOnce()>),
    Scope(Scope),
    /// A cleanup that has run (during disposal).
    Done,
}

impl Scope {
    pub(crate) fn new_detached() -> Self {
        Scope(Rc::new(ScopeInner {
            owned: RefCell::new(OwnedList::default()),
            disposed: Cell::new(false),
            prune_at: Cell::new(PRUNE_FROM),
            pruned_after: Cell::new(0),
        }))
    }

    /// Adds an entry. A long-lived scope (the graph's root, above all) sees nodes and child scopes disposed one by
    /// one long before it is: when the list has doubled since it was last pruned, the entries already disposed are
    /// dropped from it, so their memory goes back at once and the list does not grow without bound. The order of the
    /// rest is kept; the cost is amortised O(1) per entry, and nothing when nothing in the graph was disposed since
    /// the last time.
    #[inline]
    fn own(&self, item: Owned) {
        let mut owned = self.0.owned.borrow_mut();
        owned.push(item);
        if owned.len() >= self.0.prune_at.get() {
            self.prune(&mut owned);
        }
    }

    #[cold]
    #[inline(never)]
    fn prune(&self, owned: &mut OwnedList) {
        let disposals = with_runtime(|rt| rt.disposals.get());
        if self.0.pruned_after.replace(disposals) != disposals {
            owned.retain(|item| match item {
                Owned::Node(node) => !node.computation().is_some_and(|c| c.disposed.get()),
                Owned::Scope(scope) => !scope.is_disposed(),
                Owned::Cleanup(_) => true,
                Owned::Done => false,
            });
        }
        self.0.prune_at.set((owned.len() * 2).max(PRUNE_FROM));
    }

    /// Makes `child` one of this scope's owned entries (disposed with it, after what was created before it).
    pub(crate) fn adopt_scope(&self, child: &Scope) {
        self.own(Owned::Scope(child.clone()));
    }

    pub(crate) fn adopt(&self, node: DynNodeRc) {
        if self.0.disposed.get() {
            // Created in a disposed scope: dispose at once, as the original does.
            node.dispose(&node);
            return;
        }
        self.own(Owned::Node(node));
    }

    pub(crate) fn add_cleanup(&self, f: Box<dyn FnOnce()>) {
        if self.0.disposed.get() {
            f();
            return;
        }
        self.own(Owned::Cleanup(f));
    }

    /// Disposes the scope: its cleanups run (last registered first), then what was created in it is disposed (last
    /// created first). Disposing twice does nothing.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispose(&self) {
        let site = crate::graph::call_site();
        crate::graph::disposing_at(site, || self.dispose_here());
    }

    fn dispose_here(&self) {
        if self.0.disposed.replace(true) {
            return;
        }
        let owned = std::mem::take(&mut *self.0.owned.borrow_mut());
        with_runtime(|rt| {
            rt.count_disposal();
            rt.detached(|| {
                let mut owned = owned;
                // Cleanups first, last registered first; then nodes and child scopes, last created first.
                owned.for_each_newest_first(|item| {
                    if let Owned::Cleanup(_) = item
                        && let Owned::Cleanup(cleanup) = std::mem::replace(item, Owned::Done)
                    {
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(cleanup));
                    }
                });
                while let Some(item) = owned.pop() {
                    match item {
                        Owned::Node(node) => node.dispose(&node),
                        Owned::Scope(scope) => scope.dispose(),
                        Owned::Cleanup(_) | Owned::Done => {}
                    }
                }
            })
        });
    }

    /// Breaks every edge of every node this scope owns, directly or through child scopes and runs, without running
    /// anything: for a graph whose thread is ending, whose runtime is already gone. Nodes hold each other through
    /// their edges, so without this they would never be freed. Cleanups are dropped, not run (they may need the
    /// graph); dispose the graph first ([`graph::dispose_current`](crate::graph::dispose_current)) to run them.
    pub(crate) fn sever(&self) {
        // What a node or cleanup drops is the program's: a `Drop` that uses the graph panics now that it is gone.
        // Such a panic is contained here, since one escaping a thread-local's destructor would abort the process.
        fn contain(f: impl FnOnce()) {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        }
        let mut scopes = vec![self.clone()];
        let mut nodes: Vec<DynNodeRc> = Vec::new();
        // A work list, not recursion: ownership can nest deeper than the stack.
        while let Some(scope) = scopes.pop() {
            scope.0.disposed.set(true);
            let mut owned = std::mem::take(&mut *scope.0.owned.borrow_mut());
            let mut items = Vec::with_capacity(owned.len());
            while let Some(item) = owned.pop() {
                items.push(item);
            }
            // Oldest first, so that `nodes` ends with the newest.
            for item in items.into_iter().rev() {
                match item {
                    Owned::Node(node) => nodes.push(node),
                    Owned::Scope(child) => scopes.push(child),
                    Owned::Cleanup(cleanup) => contain(move || drop(cleanup)),
                    Owned::Done => {}
                }
            }
        }
        // Last created first, as disposal does; a node stays in the list until its turn, so dropping one never
        // cascades down a long chain of others.
        while let Some(node) = nodes.pop() {
            contain(|| {
                let node = node; // moved in, so that it drops inside `contain`
                let me = node.as_ptr();
                if let Some(comp) = node.computation() {
                    comp.disposed.set(true);
                    let sources = std::mem::take(&mut *comp.sources.borrow_mut());
                    for source in sources {
                        source.core().remove_observer(me);
                    }
                    if let Some((owned, cleanups)) = comp.take_scope() {
                        nodes.extend(owned);
                        drop(cleanups);
                    }
                }
                let observers = std::mem::take(&mut *node.core().observers.borrow_mut());
                drop(observers);
            });
        }
    }

    /// Calls `f` with every memo and effect this scope owns itself (not through child scopes), newest first: how a
    /// keyed collection names the nodes a row's factory made.
    pub(crate) fn for_each_node(&self, mut f: impl FnMut(&DynNodeRc)) {
        let mut owned = self.0.owned.borrow_mut();
        owned.for_each_newest_first(|item| {
            if let Owned::Node(node) = item {
                f(node);
            }
        });
    }

    /// Whether [`Scope::dispose`] has run.
    pub fn is_disposed(&self) -> bool {
        self.0.disposed.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{create_root, on_cleanup};

    fn root_entries() -> usize {
        with_runtime(|rt| rt.root.borrow().0.owned.borrow().len())
    }

    #[test]
    fn disposed_child_scopes_do_not_pile_up_in_the_root() {
        for _ in 0..10_000 {
            let ((), scope) = create_root(|_| {});
            scope.dispose();
        }
        let left = root_entries();
        assert!(left < 2 * PRUNE_FROM, "{left} entries left in the root");
    }

    #[test]
    fn live_entries_are_kept_in_order_when_the_root_is_pruned() {
        let order = Rc::new(RefCell::new(Vec::new()));
        for i in 0..100 {
            let ((), scope) = create_root(|_| {
                let order = order.clone();
                on_cleanup(move || order.borrow_mut().push(i));
            });
            if i % 2 == 1 {
                scope.dispose();
            }
        }
        order.borrow_mut().clear();
        crate::graph::dispose_current();
        let expected: Vec<i32> = (0..100).rev().filter(|i| i % 2 == 0).collect();
        assert_eq!(
            *order.borrow(),
            expected,
            "the kept scopes are disposed last created first"
        );
    }
}
