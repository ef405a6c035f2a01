//! Failures of node bodies, told to listeners as they happen: a memo or effect whose body panicked, an effect stopped
//! for re-running without end, a flight (an [`AsyncMemo`](crate::AsyncMemo)'s future) or an
//! [`AsyncSource`](crate::AsyncSource) that failed. The exposure listens, to keep the errors an agent can read; the
//! engine's own record of them ([`take_errors`](crate::graph::take_errors), a node's `error()`) is unchanged.
//!
//! Kept in a thread-local of its own rather than in the runtime: only the failing (cold) path consults it.

use std::cell::RefCell;
use std::panic::Location;
use std::rc::Rc;

use super::{Core, NodeId, NodeKind};

/// What failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FailureKind {
    /// A memo's body (or an async memo's function) panicked.
    MemoPanicked,
    /// An effect's body panicked.
    EffectPanicked,
    /// An effect was stopped for re-running without end in one flush.
    EffectStopped,
    /// A flight failed or panicked, or an async source was failed.
    FlightFailed,
}

/// One failure, as a listener sees it (the exposure's errors list reads it; the core alone has no listener).
#[cfg_attr(not(feature = "exposure"), allow(dead_code))]
pub(crate) struct NodeFailure<'a> {
    pub(crate) node: NodeId,
    pub(crate) kind: NodeKind,
    pub(crate) what: FailureKind,
    /// The node's label, when it has one.
    pub(crate) label: Option<Rc<str>>,
    /// Where the node was made (or, for an async source, where it was failed).
    pub(crate) site: &'static Location<'static>,
    /// The panic text or failure message.
    pub(crate) text: &'a str,
}

/// A listener; it answers `false` once it wants no more (it is then dropped).
pub(crate) type Listener = Rc<dyn Fn(&NodeFailure<'_>) -> bool>;

thread_local! {
    static LISTENERS: RefCell<Vec<Listener>> = const { RefCell::new(Vec::new()) };
}

/// Tells `listener` of every failure on this thread from now on, until it answers `false`.
#[cfg_attr(not(feature = "exposure"), allow(dead_code))]
pub(crate) fn listen(listener: Listener) {
    LISTENERS.with_borrow_mut(|listeners| listeners.push(listener));
}

/// Tells the listeners that the body of the node `core` failed with `text`.
#[cold]
pub(crate) fn report(core: &Core, what: FailureKind, text: &str) {
    if LISTENERS.with_borrow(Vec::is_empty) {
        return;
    }
    tell(&NodeFailure {
        node: core.id,
        kind: core.kind,
        what,
        label: core.label(),
        site: core.site,
        text,
    });
}

/// Tells the listeners of a failure described whole (an async source failed from `site`).
#[cold]
pub(crate) fn tell(failure: &NodeFailure<'_>) {
    // a listener may register another: call a copy of the list
    let listeners: Vec<Listener> = LISTENERS.with_borrow(Clone::clone);
    if listeners.is_empty() {
        return;
    }
    let keep: Vec<bool> = listeners.iter().map(|listener| listener(failure)).collect();
    if keep.iter().all(|k| *k) {
        return;
    }
    LISTENERS.with_borrow_mut(|current| {
        current.retain(|listener| {
            listeners
                .iter()
                .zip(&keep)
                .all(|(told, kept)| *kept || !Rc::ptr_eq(told, listener))
        });
    });
}
