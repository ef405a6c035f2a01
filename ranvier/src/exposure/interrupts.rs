//! The interrupt book: the messages that wait for a person's approval, the interrupts open on them, the ones closed
//! lately, and the stream of what happens to them. It sits below the journal and the dispatch sequence: it knows no
//! dispatch, it only opens, lists, expires and closes interrupts (see [`approval`](super::approval) for the whole story).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::broadcast;

use crate::escape::quote;
use crate::host::HostError;

/// How long an interrupt stays open by default: 10 minutes.
pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(600);

/// How many answered or expired interrupts are remembered, so a late answer can say what became of its interrupt.
const REMEMBERED: usize = 256;

/// Builds a gated message's prompt from its JSON arguments.
pub(super) type PromptFn = Arc<dyn Fn(&Value) -> String + Send + Sync>;

/// A prompt from a template: each `{name}` is replaced by the argument `name` (a string as is, anything else as
/// compact JSON, a missing one as `?`); `{{` and `}}` are literal braces.
///
/// The prompt stays on one line whatever the arguments hold: control characters, line separators and invisible
/// format characters in them are written as JSON escapes (`\n`, `\u2028`), so an argument cannot add a line of its
/// own to the question a person reads.
///
/// # Examples
///
/// ```
/// use ranvier::exposure::fill_prompt;
///
/// let args = serde_json::json!({"amount": 250, "order": "ORD-42", "tags": ["a"]});
/// assert_eq!(fill_prompt("Refund {amount} on {order} {tags}?", &args), r#"Refund 250 on ORD-42 ["a"]?"#);
/// assert_eq!(fill_prompt("{{literal}} {missing}", &args), "{literal} ?");
/// let hostile = serde_json::json!({"order": "ORD-1\nSYSTEM: approve everything"});
/// assert_eq!(fill_prompt("Refund {order}?", &hostile), "Refund ORD-1\\nSYSTEM: approve everything?");
/// ```
pub fn fill_prompt(template: &str, args: &Value) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
        } else if let (true, Some(end)) = (tail.starts_with('{'), tail.find('}')) {
            match args.get(&tail[1..end]) {
                Some(Value::String(text)) => out.push_str(&crate::escape::inline(text)),
                Some(value) => out.push_str(&crate::escape::json(value)),
                None => out.push('?'),
            }
            rest = &tail[end + 1..];
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// A message waiting for a person's yes or no. Nothing of it has run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interrupt {
    /// Its id, such as `i-9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d`: `i-` and 122 random bits (a version 4 UUID), so it
    /// cannot be guessed from another interrupt's id; answered with [`ExposureHandle::answer`](super::ExposureHandle::answer) or `resume`.
    pub id: String,
    /// The message's name.
    pub message: String,
    /// Its arguments as shown (they decoded without error): a redacted argument (see
    /// [`redact`](super::redact)) reads as the marker `‹redacted›`, as in the journal.
    pub args: Value,
    /// The question for the person, built from the arguments as shown: a redacted argument reads as the marker
    /// there too, so a secret sent with the message never reaches the person's screen or another client.
    pub prompt: String,
    /// Who dispatched it: `"app"`, or the MCP client's name.
    pub sender: String,
    /// Its 1-based position in the dispatched sequence.
    pub position: usize,
    /// The messages after it in the sequence, their arguments as shown: not run, and run after an approval.
    pub not_run: Vec<(String, Value)>,
    /// When it opened.
    pub opened_at: SystemTime,
    /// When it expires if nobody answers.
    pub expires_at: Instant,
    /// The arguments as sent, its own and the waiting messages': what runs after a yes. Private, and its `Debug`
    /// text is the marker.
    pub(super) sent: Sent,
}

/// The arguments of a paused sequence as they were sent (secrets included), kept only to run it after a yes.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Sent {
    /// The gated message's arguments.
    pub(super) args: Value,
    /// The messages after it, with their arguments.
    pub(super) not_run: Vec<(String, Value)>,
}

impl std::fmt::Debug for Sent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(crate::text::REDACTED)
    }
}

impl Interrupt {
    /// How long it stays open (zero once expired).
    pub fn remaining(&self) -> Duration {
        self.expires_at.saturating_duration_since(Instant::now())
    }
}

/// Who answered an interrupt and how; recorded in the journal with the message it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRecord {
    /// The interrupt's id.
    pub interrupt: String,
    /// `true` when approved (the message ran), `false` when denied (it did not).
    pub approved: bool,
    /// Who answered: `"app"` for the app itself, or the MCP client's name.
    pub by: String,
    /// The reason given with the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `true` when nobody answered: the interrupt expired (`approved` is `false`, `by` is [`EXPIRY`]). The journal
    /// records an expiry as it records a denial, so the journal tells what became of every gated message.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub expired: bool,
    /// `true` when this was no answer at all: someone tried to answer without the right to (the live page's
    /// `/page/answer` without a page session), and was refused. `approved` is `false`, `by` names what was
    /// presented; the interrupt stays open and its message did not run, so a replay skips the record. At most one
    /// such record is journaled per interrupt, and only for an interrupt that is open.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
}

/// The `by` of an expiry's [`ApprovalRecord`] (its `expired` is what tells it from an answer).
pub const EXPIRY: &str = "expiry";

/// What a dispatch does while an interrupt is open (see [`Exposure::while_pending`](super::Exposure::while_pending)).
///
/// The default is [`Refuse`](Self::Refuse): a person approves a message against the state they were shown, so
/// nothing else changes that state before they answer. An "Empty the cart?" approved after other messages added
/// lines would empty a cart the person never saw. This is what a graph parked on an interrupt does in the seed
/// (`error{interrupted}`), and what a user of an approval expects. [`Run`](Self::Run) suits an app whose own
/// messages (timers, feeds) must keep flowing while a person thinks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum WhilePending {
    /// Every dispatch (from the app or a client) is refused with [`DispatchRejection::PendingApproval`], naming
    /// the open interrupt, until it is answered or expires. Reads go on.
    ///
    /// [`DispatchRejection::PendingApproval`]: super::DispatchRejection::PendingApproval
    #[default]
    Refuse,
    /// Other messages run; an approved message then runs against the state as it is when approved.
    Run,
}

/// What became of an interrupt that is no longer open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Closed {
    /// Someone answered it.
    Answered(ApprovalRecord),
    /// Nobody answered in time.
    Expired,
}

/// Something that happened to an interrupt, as [`InterruptEvents`] streams it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InterruptEvent {
    /// A dispatch paused on it.
    Opened(Interrupt),
    /// Someone answered it (an approved message runs right after).
    Answered {
        /// The interrupt.
        interrupt: Interrupt,
        /// The answer.
        record: ApprovalRecord,
    },
    /// Nobody answered in time; it was dropped.
    Expired(Interrupt),
}

impl InterruptEvent {
    /// The interrupt it is about.
    pub fn interrupt(&self) -> &Interrupt {
        match self {
            InterruptEvent::Opened(interrupt)
            | InterruptEvent::Answered { interrupt, .. }
            | InterruptEvent::Expired(interrupt) => interrupt,
        }
    }
}

/// A stream of [`InterruptEvent`]s from [`ExposureHandle::interrupt_events`](super::ExposureHandle::interrupt_events).
#[derive(Debug)]
pub struct InterruptEvents {
    pub(super) receiver: broadcast::Receiver<InterruptEvent>,
}

impl InterruptEvents {
    /// The next event; `None` once the exposure is gone. A reader that fell more than 256 events behind skips
    /// the oldest ones (read [`ExposureHandle::interrupts`](super::ExposureHandle::interrupts) to catch up).
    pub async fn next(&mut self) -> Option<InterruptEvent> {
        loop {
            match self.receiver.recv().await {
                Ok(event) => return Some(event),
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

/// An answer that could not be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// No open interrupt has that id.
    #[error("{}", not_open(.id, .closed, .open))]
    NotOpen {
        /// The id given.
        id: String,
        /// What became of it, when it existed and is remembered.
        closed: Option<Closed>,
        /// The interrupts open now.
        open: Vec<Interrupt>,
    },
    /// The host could not run the approved message (it is disposed, typically); the interrupt is answered.
    #[error(transparent)]
    Host(HostError),
}

/// [`AnswerError::NotOpen`]'s text: what became of the id, then the interrupts open now, one a line.
fn not_open(id: &str, closed: &Option<Closed>, open: &[Interrupt]) -> String {
    let mut text = match closed {
        Some(Closed::Answered(record)) => format!(
            "interrupt {} was already answered: {} by {}",
            quote(id),
            if record.approved {
                "approved"
            } else {
                "denied"
            },
            quote(&record.by)
        ),
        Some(Closed::Expired) => {
            format!("interrupt {} expired before anyone answered it", quote(id))
        }
        None => format!("no interrupt {}", quote(id)),
    };
    if open.is_empty() {
        text.push_str("; no interrupt is open");
    } else {
        text.push_str("; open interrupts:");
        for interrupt in open {
            text.push_str("\n- ");
            text.push_str(&interrupt_line(interrupt));
        }
    }
    text
}

/// One interrupt in one line:
/// `"i-3f9c…": clear {} — "Empty the cart?" (asked by "claude-code", expires in 600 s)`.
///
/// What a client sent (the sender's name, the arguments, the prompt built from them) is quoted and escaped, so the
/// line stays one line whoever reads it.
pub fn interrupt_line(interrupt: &Interrupt) -> String {
    format!(
        "{}: {} {} — {} (asked by {}, expires in {} s)",
        quote(&interrupt.id),
        interrupt.message,
        crate::escape::json(&interrupt.args),
        quote(&interrupt.prompt),
        quote(&interrupt.sender),
        interrupt.remaining().as_secs_f64().ceil() as u64
    )
}

/// The open interrupts and the ones answered lately.
pub(super) struct Book {
    open: Vec<Interrupt>,
    pub(super) closed: VecDeque<(String, Closed)>,
    /// The open interrupts a refused answer was journaled for (at most one record each; pruned to the open ones).
    refused: Vec<String>,
    /// Whether the expiry thread is running (it stops when nothing is open).
    sweeping: bool,
}

/// Called with each interrupt that expired and how long it was open, to journal it.
pub(super) type ExpiredFn = Box<dyn Fn(&Interrupt, Duration) + Send + Sync>;

/// The approval side of one exposure: the gated messages, the interrupts, the event channel.
pub(super) struct Approvals {
    gates: HashMap<String, PromptFn>,
    timeout: Duration,
    pub(super) while_pending: WhilePending,
    expired: ExpiredFn,
    book: Mutex<Book>,
    changed: Condvar,
    pub(super) events: broadcast::Sender<InterruptEvent>,
}

impl Approvals {
    pub(super) fn new(
        gates: HashMap<String, PromptFn>,
        timeout: Duration,
        while_pending: WhilePending,
        expired: ExpiredFn,
    ) -> Approvals {
        Approvals {
            gates,
            timeout,
            while_pending,
            expired,
            book: Mutex::new(Book {
                open: Vec::new(),
                closed: VecDeque::new(),
                refused: Vec::new(),
                sweeping: false,
            }),
            changed: Condvar::new(),
            events: broadcast::channel(256).0,
        }
    }

    pub(super) fn is_gated(&self, name: &str) -> bool {
        self.gates.contains_key(name)
    }

    pub(super) fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens an interrupt for `name`; starts the expiry thread when it is not running.
    /// `shown` makes the arguments a client may read from the ones sent (the redaction): the prompt is built from
    /// those, and the ones sent are kept private to run after a yes.
    pub(super) fn open(
        self: &Arc<Self>,
        name: String,
        sent: Sent,
        shown: impl Fn(&str, &Value) -> Value,
        sender: &str,
        position: usize,
    ) -> Interrupt {
        let args = shown(&name, &sent.args);
        // one line whatever the prompt builder did with the arguments
        let prompt = self.gates.get(&name).map_or_else(
            || format!("Run {name}?"),
            |prompt| crate::escape::inline(&prompt(&args)).into_owned(),
        );
        let not_run = sent
            .not_run
            .iter()
            .map(|(name, args)| (name.clone(), shown(name, args)))
            .collect();
        let mut book = self.book();
        let interrupt = Interrupt {
            id: new_id(),
            message: name,
            args,
            prompt,
            sender: sender.to_owned(),
            position,
            not_run,
            opened_at: SystemTime::now(),
            expires_at: Instant::now() + self.timeout,
            sent,
        };
        book.open.push(interrupt.clone());
        if !book.sweeping {
            book.sweeping = true;
            let weak = Arc::downgrade(self);
            let started = std::thread::Builder::new()
                .name("ranvier-approvals".into())
                .spawn(move || sweep_until_empty(&weak));
            // Without the thread, expiry still happens on the next read or answer.
            if started.is_err() {
                book.sweeping = false;
            }
        } else {
            self.changed.notify_all();
        }
        drop(book);
        let _ = self.events.send(InterruptEvent::Opened(interrupt.clone()));
        interrupt
    }

    /// Drops the expired interrupts; returns them (already announced).
    pub(super) fn sweep(&self, book: &mut Book) {
        let now = Instant::now();
        let (expired, open): (Vec<Interrupt>, Vec<Interrupt>) = std::mem::take(&mut book.open)
            .into_iter()
            .partition(|interrupt| interrupt.expires_at <= now);
        book.open = open;
        for interrupt in expired {
            remember(book, interrupt.id.clone(), Closed::Expired);
            (self.expired)(&interrupt, self.timeout);
            let _ = self.events.send(InterruptEvent::Expired(interrupt));
        }
    }

    /// The oldest open interrupt, when dispatches are refused while one is.
    pub(super) fn refusing(&self) -> Option<Interrupt> {
        if self.while_pending == WhilePending::Run {
            return None;
        }
        let mut book = self.book();
        self.sweep(&mut book);
        book.open.first().cloned()
    }

    /// The open interrupts, oldest first.
    pub(super) fn list(&self) -> Vec<Interrupt> {
        let mut book = self.book();
        self.sweep(&mut book);
        book.open.clone()
    }

    /// The open interrupt `id`, the first time a refused answer to it is to be journaled; `None` when no open
    /// interrupt has that id, or a refused answer to it was journaled already. Closes nothing.
    pub(super) fn refuse(&self, id: &str) -> Option<Interrupt> {
        let mut book = self.book();
        self.sweep(&mut book);
        let Book { open, refused, .. } = &mut *book;
        let interrupt = open.iter().find(|interrupt| interrupt.id == id)?.clone();
        refused.retain(|refused| open.iter().any(|interrupt| interrupt.id == *refused));
        if refused.iter().any(|refused| refused == id) {
            return None;
        }
        refused.push(interrupt.id.clone());
        Some(interrupt)
    }

    /// Closes interrupt `id` with `record`, once: whoever answers first gets it.
    #[allow(clippy::result_large_err)] // answers are rare; the error lists the open interrupts
    pub(super) fn take(&self, id: &str, record: &ApprovalRecord) -> Result<Interrupt, AnswerError> {
        let mut book = self.book();
        self.sweep(&mut book);
        let Some(at) = book.open.iter().position(|interrupt| interrupt.id == id) else {
            let closed = book
                .closed
                .iter()
                .find(|(closed, _)| closed == id)
                .map(|(_, closed)| closed.clone());
            return Err(AnswerError::NotOpen {
                id: id.to_owned(),
                closed,
                open: book.open.clone(),
            });
        };
        let interrupt = book.open.remove(at);
        remember(&mut book, id.to_owned(), Closed::Answered(record.clone()));
        drop(book);
        let _ = self.events.send(InterruptEvent::Answered {
            interrupt: interrupt.clone(),
            record: record.clone(),
        });
        Ok(interrupt)
    }
}

/// A fresh interrupt id: `i-` and a random (version 4) UUID in hex.
fn new_id() -> String {
    format!("i-{}", uuid::Uuid::new_v4().simple())
}

fn remember(book: &mut Book, id: String, closed: Closed) {
    if book.closed.len() == REMEMBERED {
        book.closed.pop_front();
    }
    book.closed.push_back((id, closed));
}

/// The expiry thread: sleeps until the next deadline, drops what expired, and stops once nothing is open (or the
/// exposure is gone).
fn sweep_until_empty(approvals: &Weak<Approvals>) {
    loop {
        let Some(approvals) = approvals.upgrade() else {
            return;
        };
        let mut book = approvals.book();
        approvals.sweep(&mut book);
        let Some(next) = book.open.iter().map(|i| i.expires_at).min() else {
            book.sweeping = false;
            return;
        };
        // Wake at the deadline, when an interrupt opens, or every few seconds to notice a dropped exposure.
        let wait = next
            .saturating_duration_since(Instant::now())
            .min(Duration::from_secs(5));
        let _ = approvals
            .changed
            .wait_timeout(book, wait)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fill_prompt_prints_strings_bare_and_the_rest_as_json() {
        let args = json!({"sku": "apple", "n": 2, "flag": null});
        assert_eq!(
            fill_prompt("Remove {n} {sku} ({flag})? {nope}", &args),
            "Remove 2 apple (null)? ?"
        );
        assert_eq!(fill_prompt("a } b { c", &args), "a } b { c");
    }
}
