//! [`ExposureHandle`]: the exposure as seen from any thread.

use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::broadcast;

use super::dispatch::{self, DispatchRejection, Dispatched, SequenceOutcome, SequenceStop, Step};
use super::error::ExposeError;
use super::history::VersionError;
use super::journal::{JournalEntry, JournalEvents};
use super::registry::{MessageInfo, Shared};
use super::snapshot::{Publication, Publications, Snapshot};
use super::{registry, timer};
use crate::graph::NodeId;
use crate::host::{HostError, Invoke};

/// The sender recorded for in-process dispatch ([`ExposureHandle::dispatch`] and friends).
pub const APP_SENDER: &str = "app";

/// Counts one waiting `wait_version` (or `wait_settled`) while it lives.
pub(super) struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    pub(super) fn new(count: &'a AtomicUsize) -> Self {
        count.fetch_add(1, Ordering::Relaxed);
        Self(count)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A started exposure, usable from any thread: `Clone + Send + Sync`, and reading it never enters the graph.
///
/// Everything here works from any thread; the futures run under any executor (tokio, or
/// [`block_on`](crate::host::block_on) from a plain thread). Called on the graph thread, `dispatch` and
/// [`on_graph`](Self::on_graph) run at once. After the host is disposed, the snapshot stays readable, dispatch is
/// rejected with [`HostError::Disposed`], and publication streams end.
///
/// For an MCP adapter, the pieces are: [`snapshot`](Self::snapshot) and [`wait_version`](Self::wait_version) for the
/// state; [`dispatch_all_as`](Self::dispatch_all_as) for `dispatch`, whose [`Step`]s carry each message's changes
/// (`name`, old, new) in registration order, whose [`SequenceStop`] says where and why a sequence stopped, and whose
/// `interrupt` is the approval it paused at;
/// [`publications`](Self::publications) for resource notifications; [`message_names`](Self::message_names),
/// [`message_shape`](Self::message_shape) and [`message_schema`](Self::message_schema) for the tool's description
/// and input schema; [`node_names`](Self::node_names) and [`on_graph`](Self::on_graph) for the traced tools.
#[derive(Clone)]
pub struct ExposureHandle {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for ExposureHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExposureHandle")
            .field("version", &self.version())
            .field("names", &self.shared.names)
            .field("messages", &self.message_names())
            .finish_non_exhaustive()
    }
}

impl ExposureHandle {
    pub(super) fn new(shared: Arc<Shared>) -> ExposureHandle {
        ExposureHandle { shared }
    }

    pub(super) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The current snapshot. Never enters the graph.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.shared.snapshot.borrow().clone()
    }

    /// The current snapshot's version.
    pub fn version(&self) -> u64 {
        self.shared.snapshot.borrow().version
    }

    /// The snapshot as it was published at `version`: the current one, or an earlier one the history still keeps
    /// (see [`history`](super::history)). Never enters the graph.
    ///
    /// # Errors
    ///
    /// [`VersionError::Gone`] for a version older than the oldest kept (it names that one), and
    /// [`VersionError::Future`] for a version not published yet.
    pub fn snapshot_at(&self, version: u64) -> Result<Arc<Snapshot>, VersionError> {
        self.shared.history.at(version)
    }

    /// The versions [`snapshot_at`](Self::snapshot_at) can give now: from the oldest the history keeps to the
    /// current one.
    pub fn kept_versions(&self) -> RangeInclusive<u64> {
        self.shared.history.kept()
    }

    /// The journaled message that made `version`: its name, arguments (redacted as in the journal) and sender.
    /// `None` for version 0 (the state at start), for a version not reached yet, and for one whose message has left
    /// the in-memory journal.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::exposure::{Decoder, Exposure};
    /// use ranvier::host::{block_on, GraphHost};
    /// use ranvier::Mvu;
    /// use serde_json::json;
    ///
    /// let host = GraphHost::start(|| {
    ///     let counter = Mvu::new(0_i64, |add: i64, count| count + add);
    ///     let mut exposure = Exposure::new();
    ///     exposure.value("count", { let counter = counter.clone(); move || counter.model() })?;
    ///     let add: Decoder<i64> = Box::new(|args| args["n"].as_i64().ok_or_else(|| "`n`: an integer".into()));
    ///     exposure.messages(&counter, vec![("add".into(), add)])?;
    ///     exposure.start()
    /// })?;
    /// let exposure = host.invoke(|handle| handle.clone()).wait()?;
    /// block_on(exposure.dispatch_as("claude", "add", json!({"n": 5}))).unwrap();
    /// block_on(exposure.dispatch("add", json!({"n": 0}))).unwrap(); // changes nothing: no new version
    /// let made = exposure.made_by(1).expect("journaled");
    /// assert_eq!((made.name.as_str(), made.sender.as_str()), ("add", "claude"));
    /// assert_eq!(made.args, json!({"n": 5}));
    /// assert!(exposure.made_by(0).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn made_by(&self, version: u64) -> Option<JournalEntry> {
        self.shared.journal.made(version)
    }

    /// How many bytes of replaced values the history holds now (counted as their JSON text, about, plus 16 per
    /// version), against the bound set with [`Exposure::history`](super::Exposure::history).
    pub fn history_bytes(&self) -> usize {
        self.shared.history.bytes()
    }

    /// Dispatches the message `name` with JSON `args`, as the sender `"app"`, and resolves to
    /// [`Dispatched::Ran`] with the snapshot published once the message and its effects have run (the current one if
    /// it changed nothing exposed), or to [`Dispatched::AwaitingApproval`] when the message waits for a person's
    /// approval (see [`approval`](super::approval)).
    ///
    /// # Errors
    ///
    /// A [`DispatchRejection`]; nothing was dispatched and the model is as it was.
    pub async fn dispatch(&self, name: &str, args: Value) -> Result<Dispatched, DispatchRejection> {
        self.dispatch_as(APP_SENDER, name, args).await
    }

    /// [`dispatch`](Self::dispatch), recording `sender` (an MCP client's name, say) in the journal.
    ///
    /// # Errors
    ///
    /// As [`dispatch`](Self::dispatch).
    pub async fn dispatch_as(
        &self,
        sender: &str,
        name: &str,
        args: Value,
    ) -> Result<Dispatched, DispatchRejection> {
        Ok(match self.dispatch_step_as(sender, name, args).await? {
            Dispatched::Ran(step) => Dispatched::Ran(step.snapshot),
            Dispatched::AwaitingApproval { interrupt } => {
                Dispatched::AwaitingApproval { interrupt }
            }
        })
    }

    /// Dispatches one message as `sender` and resolves to its [`Step`] (the version and the values it changed)
    /// when it ran, or to the interrupt it waits on.
    ///
    /// # Errors
    ///
    /// As [`dispatch`](Self::dispatch).
    pub async fn dispatch_step_as(
        &self,
        sender: &str,
        name: &str,
        args: Value,
    ) -> Result<Dispatched<Step>, DispatchRejection> {
        let mut outcome = self
            .dispatch_all_as(sender, vec![(name.to_owned(), args)])
            .await;
        match (
            outcome.stopped.take(),
            outcome.interrupt.take(),
            outcome.steps.pop(),
        ) {
            (Some(stop), _, _) => Err(stop.rejection),
            (None, Some(interrupt), _) => Ok(Dispatched::AwaitingApproval {
                interrupt: Box::new(interrupt),
            }),
            (None, None, Some(step)) => Ok(Dispatched::Ran(step)),
            (None, None, None) => {
                unreachable!("a one-message sequence runs it, pauses at it or stops at it")
            }
        }
    }

    /// Runs the messages in order as the sender `"app"`, each after the previous one's effects, with no other
    /// dispatch in between; stops at the first rejection, keeping the messages before it.
    pub async fn dispatch_all(&self, messages: Vec<(String, Value)>) -> SequenceOutcome {
        self.dispatch_all_as(APP_SENDER, messages).await
    }

    /// [`dispatch_all`](Self::dispatch_all), recording `sender` in the journal.
    ///
    /// The messages are handed to the graph thread when the future is first polled, and the graph thread runs what
    /// it is handed in order: of two dispatches polled one after the other, the first runs first, whichever
    /// resolves first.
    pub async fn dispatch_all_as(
        &self,
        sender: &str,
        messages: Vec<(String, Value)>,
    ) -> SequenceOutcome {
        let shared = self.shared.clone();
        let sender = sender.to_owned();
        let first = messages.first().map(|(name, _)| name.clone());
        let outcome = self
            .shared
            .inbox
            .run(move || {
                let side = registry::get(shared.id).ok_or(HostError::Disposed)?;
                Ok::<_, HostError>(dispatch::run_sequence(&side, messages, &sender))
            })
            .await;
        match outcome.and_then(|outcome| outcome) {
            Ok(outcome) => outcome,
            Err(error) => SequenceOutcome {
                steps: Vec::new(),
                stopped: first.map(|_| SequenceStop {
                    position: 1,
                    rejection: DispatchRejection::Host(error),
                }),
                interrupt: None,
                snapshot: self.snapshot(),
            },
        }
    }

    /// The first snapshot at or past `version`, or `None` once `timeout` elapses (or the host is disposed first).
    /// Never enters the graph.
    pub async fn wait_version(&self, version: u64, timeout: Duration) -> Option<Arc<Snapshot>> {
        let mut receiver = self.shared.snapshot.clone();
        {
            let current = receiver.borrow_and_update();
            if current.version >= version {
                return Some(current.clone());
            }
        }
        let deadline = Instant::now().checked_add(timeout)?;
        let _waiting = Waiting::new(&self.shared.waiting);
        let reached = async move {
            receiver
                .wait_for(|snapshot| snapshot.version >= version)
                .await
                .ok()
                .map(|s| s.clone())
        };
        timer::until(deadline, reached).await.flatten()
    }

    /// How many [`wait_version`](Self::wait_version) and [`wait_settled`](Self::wait_settled) futures are waiting
    /// now: neither resolved, timed out nor dropped. A waiting future holds a timer entry and a receiver (or a waker
    /// with the flight executor) until one of those happens, so a server that
    /// lets go of the waits its clients cancel keeps this at the number its clients are really waiting on.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::future::Future;
    /// use std::task::Poll;
    /// use std::time::Duration;
    ///
    /// use ranvier::exposure::Exposure;
    /// use ranvier::host::{GraphHost, block_on};
    ///
    /// let host = GraphHost::start(|| Exposure::new().start())?;
    /// let handle = host.invoke(|handle| handle.clone()).wait()?;
    /// let mut far = Box::pin(handle.wait_version(1_000, Duration::from_secs(60)));
    /// assert_eq!(handle.waiting(), 0, "a future does nothing until polled");
    /// block_on(std::future::poll_fn(|cx| {
    ///     assert!(far.as_mut().poll(cx).is_pending());
    ///     Poll::Ready(())
    /// }));
    /// assert_eq!(handle.waiting(), 1);
    /// drop(far); // what a cancelled call does with its future
    /// assert_eq!(handle.waiting(), 0);
    /// host.dispose();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn waiting(&self) -> usize {
        self.shared.waiting.load(Ordering::Relaxed)
    }

    /// A new stream of publications, starting after the current snapshot.
    pub fn publications(&self) -> Publications {
        let guard = self
            .shared
            .publications
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let receiver = match &*guard {
            Some(sender) => sender.subscribe(),
            None => {
                // Shut down: an already-closed stream.
                let (sender, receiver) = broadcast::channel(1);
                drop(sender);
                receiver
            }
        };
        drop(guard);
        Publications::new(receiver, self.shared.snapshot.clone())
    }

    /// Runs `callback` on the graph thread for every later publication, inside the publishing flush, after the
    /// snapshot holds the new value. A panicking callback is skipped.
    ///
    /// # Errors
    ///
    /// [`ExposeError::NotOnGraphThread`] off the graph thread (send it with
    /// [`GraphHost::invoke`](crate::host::GraphHost::invoke) or [`on_graph`](Self::on_graph)).
    pub fn on_publish(
        &self,
        callback: impl FnMut(&Publication) + 'static,
    ) -> Result<(), ExposeError> {
        if !self.shared.inbox.is_graph_thread() {
            return Err(ExposeError::NotOnGraphThread);
        }
        let side = registry::get(self.shared.id).ok_or(ExposeError::NotOnGraphThread)?;
        side.publisher.add_callback(Box::new(callback));
        Ok(())
    }

    /// Runs `work` on the graph thread (at once when called there) and resolves to its result, after the effects
    /// it triggered. The traced tools use it to read the trace.
    ///
    /// # Errors
    ///
    /// [`HostError::Panicked`] when `work` panics; [`HostError::Disposed`] after the host is disposed.
    pub fn on_graph<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Invoke<R> {
        self.shared.inbox.run(work)
    }

    /// The graph thread's id.
    pub fn graph_thread_id(&self) -> ThreadId {
        self.shared.inbox.thread_id()
    }

    /// The exposed values' names, in registration order.
    pub fn names(&self) -> Vec<String> {
        self.shared.names.clone()
    }

    /// The exposed messages' names, in registration order.
    pub fn message_names(&self) -> Vec<String> {
        self.shared
            .messages
            .iter()
            .map(|info| info.name.clone())
            .collect()
    }

    /// The one-line shape of message `name`'s arguments, when one was registered.
    pub fn message_shape(&self, name: &str) -> Option<String> {
        self.message(name).and_then(|info| info.shape.clone())
    }

    /// The JSON Schema of message `name`'s arguments, when one was registered.
    pub fn message_schema(&self, name: &str) -> Option<Value> {
        self.message(name).and_then(|info| info.schema.clone())
    }

    /// The exposed nodes' names and ids, in registration order.
    pub fn node_names(&self) -> Vec<(String, NodeId)> {
        self.shared.nodes.clone()
    }

    /// The id of the node exposed as `name`.
    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.shared
            .nodes
            .iter()
            .find(|(taken, _)| taken == name)
            .map(|&(_, id)| id)
    }

    /// The accepted messages the journal holds in memory, oldest first: every one so far until the journal's
    /// capacity ([`Exposure::journal_capacity`](super::Exposure::journal_capacity)) is reached, then the newest
    /// ones. [`journal_dropped`](Self::journal_dropped) says how many older ones were dropped from memory (entry `i`
    /// here is accepted message number `journal_dropped() + i + 1`); the journal file (`RANVIER_JOURNAL`) keeps them
    /// all.
    pub fn journal(&self) -> Vec<JournalEntry> {
        self.shared.journal.entries()
    }

    /// The in-memory journal's entries that made a version after `after` and up to `upto`: how many, and the newest
    /// `count` of them, oldest first (what the MCP `diff` lists, without copying the journal).
    #[cfg(feature = "mcp")]
    pub(crate) fn journal_between(
        &self,
        after: u64,
        upto: u64,
        count: usize,
    ) -> (usize, Vec<JournalEntry>) {
        self.shared.journal.between_versions(after, upto, count)
    }

    /// At most `count` of the in-memory journal's entries: the newest numbered below `before` (`u64::MAX` for the
    /// newest of all), oldest first, and the number of the first of them (the n-th message journaled is number n;
    /// with no entry, the number the next one below `before` would have). Only those entries are copied, not the
    /// journal.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::exposure::{Exposure, Decoder};
    /// use ranvier::host::{block_on, GraphHost};
    /// use ranvier::Mvu;
    ///
    /// let host = GraphHost::start(|| {
    ///     let counter = Mvu::new(0_i64, |add: i64, count| count + add);
    ///     let mut exposure = Exposure::new();
    ///     exposure.value("count", { let counter = counter.clone(); move || counter.model() })?;
    ///     let add: Decoder<i64> = Box::new(|args| args["n"].as_i64().ok_or_else(|| "`n`: an integer".into()));
    ///     exposure.messages(&counter, vec![("add".into(), add)])?;
    ///     exposure.start()
    /// })?;
    /// let handle = host.invoke(|handle| handle.clone()).wait()?;
    /// for n in 1..=5 {
    ///     block_on(handle.dispatch("add", serde_json::json!({"n": n}))).unwrap();
    /// }
    /// let (first, newest) = handle.journal_window(u64::MAX, 2);
    /// assert_eq!((first, newest.len()), (4, 2));
    /// let (first, older) = handle.journal_window(first, 10);
    /// assert_eq!((first, older.len()), (1, 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn journal_window(&self, before: u64, count: usize) -> (u64, Vec<JournalEntry>) {
        self.shared.journal.window(before, count)
    }

    /// How many accepted messages were dropped from the in-memory journal (the oldest), to keep it within its
    /// capacity; 0 while it holds every one.
    pub fn journal_dropped(&self) -> u64 {
        self.shared.journal.dropped()
    }

    /// A stream of every accepted message journaled from now on (and every denied or expired one), each with the
    /// values it changed, as it is recorded: what a live view of the app's messages reads.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::exposure::{Exposure, Decoder};
    /// use ranvier::host::{block_on, GraphHost};
    /// use ranvier::Mvu;
    ///
    /// let host = GraphHost::start(|| {
    ///     let counter = Mvu::new(0_i64, |add: i64, count| count + add);
    ///     let mut exposure = Exposure::new();
    ///     exposure.value("count", { let counter = counter.clone(); move || counter.model() })?;
    ///     let add: Decoder<i64> = Box::new(|args| args["n"].as_i64().ok_or_else(|| "`n`: an integer".into()));
    ///     exposure.messages(&counter, vec![("add".into(), add)])?;
    ///     exposure.start()
    /// })?;
    /// let exposure = host.invoke(|handle| handle.clone()).wait()?;
    /// let mut events = exposure.journal_events();
    /// block_on(exposure.dispatch_as("agent", "add", serde_json::json!({"n": 2}))).unwrap();
    /// let event = block_on(events.next()).unwrap();
    /// assert_eq!((event.entry.sender.as_str(), event.entry.version), ("agent", 1));
    /// assert_eq!(event.changes, vec![("count".into(), 0.into(), 2.into())]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn journal_events(&self) -> JournalEvents {
        self.shared.journal.events()
    }

    /// The errors kept (oldest first) and how many older ones were dropped: panicking memos and effects, failed
    /// flights, refused messages (see the [errors module](super::errors)).
    pub fn errors(&self) -> (Vec<super::ErrorRecord>, u64) {
        self.shared.errors.read()
    }

    /// `text` with every redacted string this exposure has seen replaced by [`REDACTED`](super::REDACTED) (see the
    /// [redact module](super::redact)): for answers made from what the trace recorded.
    pub fn scrub(&self, text: &str) -> String {
        self.shared.redaction.scrub(text).into_owned()
    }

    /// A receiver that wakes on each new error; its value is the newest error's `seq` (0: none yet).
    pub fn error_events(&self) -> tokio::sync::watch::Receiver<u64> {
        self.shared.errors.subscribe()
    }

    fn message(&self, name: &str) -> Option<&MessageInfo> {
        self.shared.messages.iter().find(|info| info.name == name)
    }
}
