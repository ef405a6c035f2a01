//! The changes a collection hands its views: what one applied list (or one write) changed, and the queue of changes
//! each view has not read yet.
//!
//! A view that has not run for long (more changes waiting than there are rows) drops its queue and starts over from
//! the rows, so a view nobody reads holds at most O(n) changes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// One row's change in an applied list.
pub(crate) enum Change<K, T> {
    Added { key: K, item: T },
    Removed { key: K, item: T },
    Changed { key: K, old: T, new: T },
}

/// The changes of one applied list.
pub(crate) struct Batch<K, T> {
    pub changes: Vec<Change<K, T>>,
    /// Whether keys came, went or moved (the order of the rows changed).
    pub reordered: bool,
}

/// The changes a view has not read yet.
pub(crate) struct Queue<K, T> {
    batches: RefCell<Vec<Rc<Batch<K, T>>>>,
    pending: Cell<usize>,
    /// Start over from the rows: the view has not run yet, or too many changes piled up.
    reset: Cell<bool>,
}

impl<K, T> Queue<K, T> {
    pub fn new() -> Rc<Self> {
        Rc::new(Queue {
            batches: RefCell::new(Vec::new()),
            pending: Cell::new(0),
            reset: Cell::new(true),
        })
    }

    /// Queues `batch`; past `rows` (at least 64) changes waiting, drops them all for a fresh start.
    pub fn push(&self, batch: &Rc<Batch<K, T>>, rows: usize) {
        if self.reset.get() {
            return;
        }
        let pending = self.pending.get() + batch.changes.len().max(1);
        if pending > rows.max(64) {
            self.reset.set(true);
            self.batches.borrow_mut().clear();
            self.pending.set(0);
        } else {
            self.pending.set(pending);
            self.batches.borrow_mut().push(batch.clone());
        }
    }

    /// Moves the waiting batches into `into` (empty, and given back emptied after use: its capacity is kept), and
    /// says whether the view must start over.
    pub fn take(&self, into: &mut Vec<Rc<Batch<K, T>>>) -> bool {
        self.pending.set(0);
        std::mem::swap(&mut *self.batches.borrow_mut(), into);
        self.reset.replace(false)
    }
}
