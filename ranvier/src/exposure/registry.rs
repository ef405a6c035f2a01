//! What a started exposure holds: [`Shared`], what every thread reads (the snapshot, the journal, the interrupt book),
//! and [`GraphSide`], the graph-side half (the decoders and `Mvu`s, the publisher) kept in a thread-local registry on
//! its graph thread. Below the dispatch sequence and the handle, above the journal and the interrupt book.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::{Arc, PoisonError};

use std::sync::Mutex;
use std::sync::atomic::AtomicUsize;

use serde_json::Value;
use tokio::sync::{broadcast, watch};

use super::history::History;
use super::interrupts::Approvals;
use super::journal::Journal;
use super::snapshot::{Publication, Publisher, Snapshot};
use crate::graph::{NodeId, flights};
use crate::host::GraphInbox;
use crate::{Effect, Mvu};

/// Decodes and dispatches one message on the graph thread: `(args, args as compact JSON, dispatch)`; with
/// `dispatch` false it only decodes (a gated message's arguments are checked before it pauses).
pub(super) type RunMessage = Box<dyn Fn(&Value, &str, bool) -> Result<(), Failure>>;

/// Why a registered message did not run.
pub(super) enum Failure {
    Decode(String),
    DecoderPanicked(String),
    /// The `DispatchError` text, `update panicked: ...`.
    Update(String),
    /// `update` refused the message ([`Mvu::try_new`](crate::Mvu::try_new)): its reason.
    Refused(String),
}

pub(super) struct MessageInfo {
    pub(super) name: String,
    pub(super) shape: Option<String>,
    pub(super) schema: Option<Value>,
}

/// What every thread shares about one started exposure.
pub(super) struct Shared {
    pub(super) id: u64,
    pub(super) inbox: GraphInbox,
    pub(super) names: Vec<String>,
    pub(super) messages: Vec<MessageInfo>,
    pub(super) nodes: Vec<(String, NodeId)>,
    pub(super) snapshot: watch::Receiver<Arc<Snapshot>>,
    /// `None` once the host has shut down.
    pub(super) publications: Mutex<Option<broadcast::Sender<Publication>>>,
    pub(super) journal: Arc<Journal>,
    /// The current snapshot and the versions before it.
    pub(super) history: Arc<History>,
    /// The errors an agent can see.
    pub(super) errors: Arc<super::errors::ErrorLog>,
    /// What is redacted, and the redacted strings seen.
    pub(super) redaction: Arc<super::redact::Redaction>,
    pub(super) approvals: Arc<Approvals>,
    /// How a fork builds a copy of the app, when it registered one: the exposure's `ForkSetup` (kept as `Any`, so
    /// the registry need not name the exposure).
    pub(super) fork_setup: Option<Arc<dyn Any + Send + Sync>>,
    /// How many `wait_version` and `wait_settled` futures are waiting.
    pub(super) waiting: AtomicUsize,
    /// The graph thread's flight executor: it wakes `wait_settled` when a flight finishes or is cancelled.
    pub(super) flights: flights::Remote,
}

/// What only the graph thread may touch: the decoders and `Mvu`s, the publisher, its effect.
pub(super) struct GraphSide {
    pub(super) shared: Arc<Shared>,
    pub(super) messages: HashMap<String, RunMessage>,
    pub(super) publisher: Rc<Publisher>,
    pub(super) effect: Effect,
    /// The message sources whose models a fork copies.
    pub(super) ports: Vec<ModelPort>,
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

// What a fork copies (see `fork.rs`), kept here, below the handle and the fork, so the registry names them without
// reaching up.

/// A model on its way from the live graph thread to a fork's.
pub(super) type Carried = Box<dyn Any + Send>;

/// One message source's model, as a fork copies it: read on the live graph thread, written on the fork's.
pub(super) struct ModelPort {
    /// The model's type, for errors.
    pub(super) type_name: &'static str,
    /// Clones the model; `None` for a model that is not `Send` (it cannot cross to the fork's thread).
    pub(super) export: Option<Box<dyn Fn() -> Carried>>,
    /// Writes a carried model into this source; an error names the type it expected.
    pub(super) import: Box<dyn Fn(Carried) -> Result<(), String>>,
}

impl ModelPort {
    pub(super) fn new<Model, Msg>(mvu: &Mvu<Model, Msg>) -> ModelPort
    where
        Model: Clone + PartialEq + fmt::Debug + Send + 'static,
        Msg: fmt::Debug + 'static,
    {
        let export = {
            let mvu = mvu.clone();
            Box::new(move || Box::new(mvu.peek_model()) as Carried)
        };
        let mvu = mvu.clone();
        ModelPort {
            type_name: std::any::type_name::<Model>(),
            export: Some(export),
            import: Box::new(move |carried: Carried| match carried.downcast::<Model>() {
                Ok(model) => {
                    mvu.replace_model(*model);
                    Ok(())
                }
                Err(_) => Err(std::any::type_name::<Model>().to_owned()),
            }),
        }
    }

    pub(super) fn not_send(type_name: &'static str) -> ModelPort {
        ModelPort {
            type_name,
            export: None,
            import: Box::new(move |_| Err(type_name.to_owned())),
        }
    }
}
