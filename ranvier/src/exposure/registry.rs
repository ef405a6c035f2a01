//! The graph-side half of each started exposure, kept in a thread-local registry on its graph thread.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, PoisonError};

use super::dispatch::RunMessage;
use super::handle::Shared;
use super::snapshot::Publisher;
use crate::Effect;
use crate::host::GraphInbox;

/// What only the graph thread may touch: the decoders and `Mvu`s, the publisher, its effect.
pub(super) struct GraphSide {
    pub(super) shared: Arc<Shared>,
    pub(super) messages: HashMap<String, RunMessage>,
    pub(super) publisher: Rc<Publisher>,
    pub(super) effect: Effect,
}

thread_local! {
    static SIDES: RefCell<HashMap<u64, Rc<GraphSide>>> = RefCell::new(HashMap::new());
}

/// Keeps `side` on this graph thread; the first exposure started on the thread registers [`shut_down_thread`] with
/// the host, to run when it shuts down.
pub(super) fn insert(side: GraphSide) {
    let first = SIDES.with_borrow_mut(|sides| {
        let first = sides.is_empty();
        sides.insert(side.shared.id, Rc::new(side));
        first
    });
    if first {
        GraphInbox::on_shutdown(shut_down_thread);
    }
}

/// The graph side of exposure `id`, when called on its graph thread before shutdown.
pub(super) fn get(id: u64) -> Option<Rc<GraphSide>> {
    SIDES.with_borrow(|sides| sides.get(&id).cloned())
}

/// Closes every exposure started on this thread: publication streams end, `wait_version` stops waiting.
/// Runs as the host's shutdown hook (registered by [`insert`]), before the graph is disposed.
fn shut_down_thread() {
    let sides = SIDES.take();
    for side in sides.values() {
        side.publisher.close();
        side.shared
            .publications
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        side.effect.dispose();
    }
}
