//! The graph-side half of each started exposure, kept in a thread-local registry on its graph thread.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, PoisonError};

use super::dispatch::RunMessage;
use super::handle::Shared;
use super::snapshot::Publisher;
use crate::Effect;

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

pub(super) fn insert(side: GraphSide) {
    SIDES.with_borrow_mut(|sides| sides.insert(side.shared.id, Rc::new(side)));
}

/// The graph side of exposure `id`, when called on its graph thread before shutdown.
pub(super) fn get(id: u64) -> Option<Rc<GraphSide>> {
    SIDES.with_borrow(|sides| sides.get(&id).cloned())
}

/// Closes every exposure started on this thread: publication streams end, `wait_version` stops waiting.
/// The host calls it on shutdown, before disposing the graph.
pub(crate) fn shut_down_thread() {
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
