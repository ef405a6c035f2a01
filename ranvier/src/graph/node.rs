//! What every node shares: identity, freshness, edges, and (for memos and effects) the run scope.

use super::NodeId;
use super::runtime::Runtime;
use std::cell::{Cell, RefCell};
use std::panic::Location;
use std::rc::Rc;

/// A type-erased strong reference to a node.
pub(crate) type NodeRef = Rc<dyn Node>;

/// How current a computation is. Ordered: `Clean < Check < Dirty`.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum State {
    /// Up to date.
    Clean,
    /// A source further up may have moved: ask the sources before running.
    Check,
    /// A source moved: run again.
    Dirty,
}

/// The kind of a node, as the trace and the MCP tools name it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum NodeKind {
    /// A writable value.
    Signal,
    /// A derived, cached value.
    Memo,
    /// A side effect.
    Effect,
}

impl NodeKind {
    /// The kind's name: `Signal`, `Memo` or `Effect`.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Signal => "Signal",
            NodeKind::Memo => "Memo",
            NodeKind::Effect => "Effect",
        }
    }
}

/// The part every node has.
pub(crate) struct Core {
    pub id: NodeId,
    pub kind: NodeKind,
    pub site: &'static Location<'static>,
    pub label: RefCell<Option<Rc<str>>>,
    /// Computations that read this node at their last run, in subscription order.
    pub observers: RefCell<Vec<NodeRef>>,
    /// The run stamp of the last computation run that recorded this node as a source (dedupes repeated reads).
    pub stamp: Cell<u32>,
}

impl Core {
    pub fn new(id: NodeId, kind: NodeKind, site: &'static Location<'static>) -> Self {
        Core {
            id,
            kind,
            site,
            label: RefCell::new(None),
            observers: RefCell::new(Vec::new()),
            stamp: Cell::new(0),
        }
    }

    pub fn label(&self) -> Option<Rc<str>> {
        self.label.borrow().clone()
    }

    /// Removes one occurrence of `observer` from this node's observers.
    pub fn remove_observer(&self, observer: *const ()) {
        let mut observers = self.observers.borrow_mut();
        if let Some(i) = observers
            .iter()
            .position(|o| Rc::as_ptr(o) as *const () == observer)
        {
            observers.swap_remove(i);
        }
    }
}

/// The part memos and effects have: freshness, sources, and the scope of the current run.
pub(crate) struct Computation {
    pub state: Cell<State>,
    /// Nodes read by the last run, in read order.
    pub sources: RefCell<Vec<NodeRef>>,
    /// During a run: how many of `sources` the run has read again, in the same order.
    pub cursor: Cell<usize>,
    /// During a run: sources read after the first difference from the last run.
    pub new_sources: RefCell<Vec<NodeRef>>,
    /// The run stamp of the current run.
    pub run_stamp: Cell<u32>,
    /// Nodes created by the last run (disposed before the next run and at disposal, last created first).
    pub owned: RefCell<Vec<NodeRef>>,
    /// Cleanups registered by the last run.
    pub cleanups: RefCell<Vec<Box<dyn FnOnce()>>>,
    pub running: Cell<bool>,
    pub disposed: Cell<bool>,
    /// How many times it ran.
    pub runs: Cell<u32>,
    /// The failure of the last run, if it panicked.
    pub error: RefCell<Option<Rc<str>>>,
}

impl Computation {
    pub fn new() -> Self {
        Computation {
            state: Cell::new(State::Dirty),
            sources: RefCell::new(Vec::new()),
            cursor: Cell::new(0),
            new_sources: RefCell::new(Vec::new()),
            run_stamp: Cell::new(0),
            owned: RefCell::new(Vec::new()),
            cleanups: RefCell::new(Vec::new()),
            running: Cell::new(false),
            disposed: Cell::new(false),
            runs: Cell::new(0),
            error: RefCell::new(None),
        }
    }
}

/// The operations the engine performs on any node, whatever its value type.
pub(crate) trait Node: 'static {
    fn core(&self) -> &Core;

    /// The computation part, for memos and effects.
    fn computation(&self) -> Option<&Computation> {
        None
    }

    /// Brings the node up to date (memos); nothing for signals.
    fn update_if_necessary(&self, _this: &NodeRef, _rt: &Runtime) {}

    /// Marks the node stale. Memos pass `Check` on to their observers; effects queue themselves.
    fn mark(&self, _this: &NodeRef, _state: State, _rt: &Runtime) {}

    /// Runs a queued effect if it is still stale.
    fn execute(&self, _this: &NodeRef, _rt: &Runtime) {}

    /// Disposes the node: its run scope, its edges to its sources.
    fn dispose(&self, _this: &NodeRef) {}

    /// The node's current value as `Debug` text, if it has one.
    #[allow(dead_code)]
    fn value_text(&self) -> Option<String> {
        None
    }
}
