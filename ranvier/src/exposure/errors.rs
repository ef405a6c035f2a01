//! The errors an agent can see: a bounded list of what went wrong in the running app, kept in every build (traced
//! and untraced).
//!
//! An entry is recorded for
//!
//! - a memo (or an async memo's function) whose body panicked, and an effect whose body panicked or that was
//!   stopped for re-running without end ([`ErrorKind::MemoPanicked`], [`ErrorKind::EffectPanicked`],
//!   [`ErrorKind::EffectStopped`]);
//! - a flight that failed or panicked, and an [`AsyncSource`](crate::AsyncSource) that was failed
//!   ([`ErrorKind::FlightFailed`]);
//! - a message `update` refused, or panicked on ([`ErrorKind::Refused`], [`ErrorKind::UpdatePanicked`]).
//!
//! Each names the node (its exposed name, else its label, else its kind and id) and, in a traced build, the line
//! that made it; the message being applied when it happened (or, for a failure between messages, the last message
//! that ran, marked `running: false`) with its sender; the version current then; and the panic text or reason.
//! The list keeps the newest [`DEFAULT_ERRORS_KEPT`] entries (each text clipped to [`ERROR_TEXT_MAX`] characters)
//! and counts the older ones it dropped. [`ExposureHandle::errors`](super::ExposureHandle::errors) reads it,
//! [`ExposureHandle::error_events`](super::ExposureHandle::error_events) wakes on each new entry; the MCP adapter
//! serves it as the `errors` tool and the `ranvier://errors` resource, and the live page shows it.
//!
//! # Examples
//!
//! ```
//! use ranvier::exposure::{ErrorKind, Exposure};
//! use ranvier::host::{block_on, GraphHost};
//! use ranvier::{Memo, Mvu};
//!
//! let host = GraphHost::start(|| {
//!     let counter = Mvu::new(0_i64, |add: i64, count| count + add);
//!     let half = Memo::new({
//!         let counter = counter.clone();
//!         move |_| {
//!             let count = counter.model();
//!             assert!(count < 10, "too many: {count}");
//!             count / 2
//!         }
//!     });
//!     let mut exposure = Exposure::new();
//!     exposure.value("half", move || half.get())?;
//!     let add: ranvier::Decoder<i64> = Box::new(|args| args["n"].as_i64().ok_or_else(|| "`n`: an integer".into()));
//!     exposure.messages(&counter, vec![("add".into(), add)])?;
//!     exposure.start()
//! })?;
//! let exposure = host.invoke(|handle| handle.clone()).wait()?;
//! block_on(exposure.dispatch("add", serde_json::json!({"n": 12}))).unwrap();
//! let (errors, dropped) = exposure.errors();
//! assert_eq!((errors.len(), dropped), (1, 0));
//! assert_eq!(errors[0].kind, ErrorKind::MemoPanicked);
//! assert!(errors[0].text.contains("too many: 12"));
//! assert_eq!(errors[0].message.as_ref().map(|m| m.name.as_str()), Some("add"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use serde::Serialize;
use serde_json::Value;
use tokio::sync::watch;

use crate::graph::NodeId;
use crate::graph::failures::{self, FailureKind, NodeFailure};

/// How many entries the errors list keeps by default (the newest; older ones are dropped and counted).
pub const DEFAULT_ERRORS_KEPT: usize = 200;

/// The longest panic text or reason an entry keeps, in characters (a longer one is clipped, ending with `…`).
pub const ERROR_TEXT_MAX: usize = 2_000;

/// What went wrong.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// A memo's body (or an async memo's function) panicked.
    MemoPanicked,
    /// An effect's body panicked.
    EffectPanicked,
    /// An effect was stopped for re-running without end in one flush.
    EffectStopped,
    /// A flight failed or panicked, or an async source was failed.
    FlightFailed,
    /// `update` refused a message: nothing was applied.
    Refused,
    /// `update` panicked on a message: the model is unchanged.
    UpdatePanicked,
}

impl ErrorKind {
    /// The kind as the answers name it: `memo_panicked`, `refused`, ….
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::MemoPanicked => "memo_panicked",
            ErrorKind::EffectPanicked => "effect_panicked",
            ErrorKind::EffectStopped => "effect_stopped",
            ErrorKind::FlightFailed => "flight_failed",
            ErrorKind::Refused => "refused",
            ErrorKind::UpdatePanicked => "update_panicked",
        }
    }
}

/// The message that led to an error.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorMessage {
    /// The message's name.
    pub name: String,
    /// Who sent it (as the journal records it).
    pub sender: String,
    /// Its arguments, with redacted fields replaced by the marker.
    pub args: Value,
    /// `true` when the error happened while this message was applied; `false` when it happened later (a flight
    /// failing, say), this being the last message that ran before it.
    pub running: bool,
}

/// One error in the list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorRecord {
    /// Its number, from 1, in the order they were recorded.
    pub seq: u64,
    /// What went wrong.
    pub kind: ErrorKind,
    /// The node: its exposed name, else its label, else its kind and id (`Memo#7`); `None` for a refused message.
    pub node: Option<String>,
    /// Where the node was made, `file.rs:line`: traced builds only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// The message that led to it, when one had run.
    pub message: Option<ErrorMessage>,
    /// The version current when it happened.
    pub version: u64,
    /// The panic text, failure message or refusal reason, clipped to [`ERROR_TEXT_MAX`] characters.
    pub text: String,
}

/// The list, shared by the graph thread (which records) and every reader.
pub(super) struct ErrorLog {
    inner: Mutex<Inner>,
    /// The number of the newest entry (0: none yet); readers wait on it.
    events: watch::Sender<u64>,
}

struct Inner {
    entries: VecDeque<ErrorRecord>,
    capacity: usize,
    dropped: u64,
    next: u64,
    /// The message being applied now, if any.
    running: Option<ErrorMessage>,
    /// The last message that ran.
    last: Option<ErrorMessage>,
}

impl ErrorLog {
    /// An empty list keeping the newest `capacity` entries (at least 1).
    pub(super) fn new(capacity: usize) -> ErrorLog {
        ErrorLog {
            inner: Mutex::new(Inner {
                entries: VecDeque::new(),
                capacity: capacity.max(1),
                dropped: 0,
                next: 1,
                running: None,
                last: None,
            }),
            events: watch::channel(0).0,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Marks `message` as being applied (until [`finished`](Self::finished)).
    pub(super) fn running(&self, name: &str, sender: &str, args: Value) {
        self.lock().running = Some(ErrorMessage {
            name: name.to_owned(),
            sender: sender.to_owned(),
            args,
            running: true,
        });
    }

    /// The message marked by [`running`](Self::running) is done; `ran` says whether it was applied.
    pub(super) fn finished(&self, ran: bool) {
        let mut inner = self.lock();
        let message = inner.running.take();
        if ran && let Some(mut message) = message {
            message.running = false;
            inner.last = Some(message);
        }
    }

    /// Records an error; `node`, `line` and `text` as [`ErrorRecord`] has them.
    pub(super) fn record(
        &self,
        kind: ErrorKind,
        node: Option<String>,
        line: Option<String>,
        version: u64,
        text: &str,
    ) {
        let seq = {
            let mut inner = self.lock();
            let seq = inner.next;
            inner.next += 1;
            let message = inner.running.clone().or_else(|| inner.last.clone());
            if inner.entries.len() >= inner.capacity {
                inner.entries.pop_front();
                inner.dropped += 1;
            }
            inner.entries.push_back(ErrorRecord {
                seq,
                kind,
                node,
                line,
                message,
                version,
                text: crate::text::clip(text, ERROR_TEXT_MAX).into_owned(),
            });
            seq
        };
        self.events.send_replace(seq);
    }

    /// The kept entries, oldest first, and how many older ones were dropped.
    pub(super) fn read(&self) -> (Vec<ErrorRecord>, u64) {
        let inner = self.lock();
        (inner.entries.iter().cloned().collect(), inner.dropped)
    }

    /// Wakes on each new entry (its value is the newest entry's number).
    pub(super) fn subscribe(&self) -> watch::Receiver<u64> {
        self.events.subscribe()
    }
}

/// Listens to the graph thread's node failures for `log`: each becomes an entry naming the node by `names` (the
/// exposed node names), else its label, else its kind and id, at the version `version` reads. The listener goes
/// when the log does.
pub(super) fn listen(
    log: &Arc<ErrorLog>,
    names: Vec<(String, NodeId)>,
    version: impl Fn() -> u64 + 'static,
) {
    let log: Weak<ErrorLog> = Arc::downgrade(log);
    failures::listen(std::rc::Rc::new(move |failure: &NodeFailure<'_>| {
        let Some(log) = log.upgrade() else {
            return false;
        };
        let node = names
            .iter()
            .find(|(_, id)| *id == failure.node)
            .map(|(name, _)| name.clone())
            .or_else(|| failure.label.as_deref().map(str::to_owned))
            .unwrap_or_else(|| format!("{}{}", failure.kind.name(), failure.node));
        let line = crate::trace::TRACED.then(|| {
            let file = failure.site.file();
            let file = file.rsplit(['/', '\\']).next().unwrap_or(file);
            format!("{file}:{}", failure.site.line())
        });
        let kind = match failure.what {
            FailureKind::MemoPanicked => ErrorKind::MemoPanicked,
            FailureKind::EffectPanicked => ErrorKind::EffectPanicked,
            FailureKind::EffectStopped => ErrorKind::EffectStopped,
            FailureKind::FlightFailed => ErrorKind::FlightFailed,
        };
        log.record(kind, Some(node), line, version(), failure.text);
        true
    }));
}

/// One entry as a line of text: `#3 v2 memo_panicked total (cart.rs:203) during add_item from "agent": too many`.
/// What a client sent (the sender, the text of a refusal) is quoted or escaped, so it reads as one line.
pub fn error_line(record: &ErrorRecord) -> String {
    let mut line = format!(
        "#{} v{} {}",
        record.seq,
        record.version,
        record.kind.as_str()
    );
    if let Some(node) = &record.node {
        line.push(' ');
        line.push_str(&crate::escape::inline(node));
    }
    if let Some(at) = &record.line {
        line.push_str(&format!(" ({at})"));
    }
    if let Some(message) = &record.message {
        line.push_str(&format!(
            " {} {} from {}",
            if message.running { "during" } else { "after" },
            crate::escape::inline(&message.name),
            crate::escape::quote(&message.sender)
        ));
    }
    line.push_str(": ");
    line.push_str(&crate::escape::inline(&record.text));
    line
}
