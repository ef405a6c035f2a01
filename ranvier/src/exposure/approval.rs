//! Human approval: messages that pause for a person before they run.
//!
//! A message registered with [`Exposure::confirm`](super::Exposure::confirm) (or `#[message(confirm = "…")]` with
//! the derive) never runs straight from a dispatch. Its arguments are decoded (bad ones are rejected as usual),
//! then the dispatch pauses there and answers [`Dispatched::AwaitingApproval`](super::Dispatched) (not an error):
//! an open [`Interrupt`] holds the message, its arguments, the prompt built from them, who asked, and the messages of the
//! sequence that were not run yet. Nothing of it has run.
//!
//! Someone then answers it, once: the app's own code or UI with [`ExposureHandle::answer`], an MCP client through
//! the `resume` tool or an elicitation (see [`crate::mcp`]). The first answer wins; a later one is refused with
//! [`AnswerError::NotOpen`]. An approval runs the message and then the messages that were not run (a later gated
//! message pauses again); a denial runs nothing. The journal records each answer with who gave it
//! ([`JournalEntry::approval`](super::JournalEntry::approval)). An interrupt nobody answers expires after the
//! [approval timeout](super::Exposure::approval_timeout) (10 minutes by default) and is dropped; the journal records
//! the expiry too (`approved: false, by: "expiry", expired: true`). An answer refused for want of the right to
//! give it (the live page's `/page/answer` without a page session) is journaled too, once per open interrupt, with
//! `approved: false, refused: true`: it is no answer, the interrupt stays open, and a replay skips it.
//!
//! While an interrupt is open, other dispatches are refused by default ([`WhilePending`]): the person approves
//! against the state they were shown. [`Exposure::while_pending`](super::Exposure::while_pending) lets them run.
//!
//! Interrupt ids are random (`i-` and a version 4 UUID), so nobody answers an interrupt by guessing its id. Who may
//! answer it over MCP is the adapter's [`Answerers`](crate::mcp::Answerers) option.
//!
//! [`ExposureHandle::interrupts`] lists the open ones and [`ExposureHandle::interrupt_events`] streams every
//! opening, answer and expiry, so a person at the app can approve what an agent asked.
//!
//! # Examples
//!
//! ```
//! use ranvier::exposure::{Dispatched, Exposure};
//! use ranvier::host::{block_on, GraphHost};
//! use ranvier::Mvu;
//!
//! #[derive(Debug)]
//! enum Msg {
//!     Refund(i64),
//! }
//!
//! let host = GraphHost::start(|| {
//!     let refunded = Mvu::new(0_i64, |Msg::Refund(amount), total| total + amount);
//!     let mut exposure = Exposure::new();
//!     exposure.value("refunded", { let refunded = refunded.clone(); move || refunded.model() })?;
//!     exposure.messages(&refunded, vec![(
//!         "refund".to_owned(),
//!         Box::new(|args: &serde_json::Value| {
//!             args["amount"].as_i64().map(Msg::Refund).ok_or_else(|| "`amount` must be an integer".into())
//!         }),
//!     )])?;
//!     exposure.confirm("refund", "Refund {amount} cents?")?;
//!     exposure.start()
//! })?;
//! let exposure = host.invoke(|handle| handle.clone()).wait()?;
//!
//! // An agent's dispatch pauses: nothing ran.
//! let paused = block_on(exposure.dispatch_as("agent", "refund", serde_json::json!({"amount": 250})))?;
//! let Dispatched::AwaitingApproval { interrupt } = paused else { panic!("{paused:?}") };
//! assert_eq!(interrupt.prompt, "Refund 250 cents?");
//! assert_eq!(exposure.snapshot().get("refunded"), Some(&serde_json::json!(0)));
//!
//! // A person at the app approves it: it runs now, once.
//! let answered = block_on(exposure.answer(&interrupt.id, true, None))?;
//! assert!(answered.outcome.unwrap().is_complete());
//! assert_eq!(exposure.snapshot().get("refunded"), Some(&serde_json::json!(250)));
//! assert!(block_on(exposure.answer(&interrupt.id, true, None)).is_err());
//! let entry = &exposure.journal()[0];
//! assert_eq!((entry.sender.as_str(), entry.approval.as_ref().unwrap().by.as_str()), ("agent", "app"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::dispatch::{self, SequenceOutcome};
use super::handle::{APP_SENDER, ExposureHandle};
pub use super::interrupts::{
    AnswerError, ApprovalRecord, Closed, DEFAULT_APPROVAL_TIMEOUT, EXPIRY, Interrupt,
    InterruptEvent, InterruptEvents, WhilePending, fill_prompt, interrupt_line,
};
use super::journal::JournalEntry;
use super::registry;
use crate::host::HostError;

/// An answered interrupt: the answer, and for an approval what the message (and the ones after it) did.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered {
    /// The interrupt, as it was when answered.
    pub interrupt: Interrupt,
    /// The answer, as the journal records it.
    pub record: ApprovalRecord,
    /// For an approval: the message and the messages that were not run, from the interrupt's position on (it may
    /// stop at a rejection, or pause again at another gated message). `None` for a denial.
    pub outcome: Option<SequenceOutcome>,
}

impl ExposureHandle {
    /// The open interrupts, oldest first (expired ones are dropped first).
    pub fn interrupts(&self) -> Vec<Interrupt> {
        self.shared().approvals.list()
    }

    /// What became of interrupt `id` once it is no longer open (`None` while open, or when unknown or forgotten:
    /// the last 256 closed interrupts are remembered).
    pub fn closed_interrupt(&self, id: &str) -> Option<Closed> {
        let approvals = &self.shared().approvals;
        let mut book = approvals.book();
        approvals.sweep(&mut book);
        book.closed
            .iter()
            .find(|(closed, _)| closed == id)
            .map(|(_, closed)| closed.clone())
    }

    /// The messages that need a person's approval, in registration order.
    pub fn gated_messages(&self) -> Vec<String> {
        let approvals = &self.shared().approvals;
        self.message_names()
            .into_iter()
            .filter(|name| approvals.is_gated(name))
            .collect()
    }

    /// A stream of every later opening, answer and expiry of an interrupt.
    pub fn interrupt_events(&self) -> InterruptEvents {
        InterruptEvents {
            receiver: self.shared().approvals.events.subscribe(),
        }
    }

    /// Answers interrupt `id` as the app itself (`"app"` in the journal): `approve` runs its message, then the
    /// messages of its sequence that were not run; a denial runs nothing. `reason` is recorded with the answer.
    ///
    /// # Errors
    ///
    /// [`AnswerError::NotOpen`] when no open interrupt has that id (unknown, answered already, or expired); it
    /// lists the open ones. [`AnswerError::Host`] when the host is gone.
    #[allow(clippy::result_large_err)] // answers are rare; the error lists the open interrupts
    pub async fn answer(
        &self,
        id: &str,
        approve: bool,
        reason: Option<&str>,
    ) -> Result<Answered, AnswerError> {
        self.answer_as(APP_SENDER, id, approve, reason).await
    }

    /// [`answer`](Self::answer), recording `by` (an MCP client's name, say) as who answered.
    ///
    /// # Errors
    ///
    /// As [`answer`](Self::answer).
    #[allow(clippy::result_large_err)] // answers are rare; the error lists the open interrupts
    pub async fn answer_as(
        &self,
        by: &str,
        id: &str,
        approve: bool,
        reason: Option<&str>,
    ) -> Result<Answered, AnswerError> {
        let shared = self.shared().clone();
        let record = ApprovalRecord {
            interrupt: id.to_owned(),
            approved: approve,
            by: by.to_owned(),
            reason: reason.map(str::to_owned),
            expired: false,
            refused: false,
        };
        let interrupt = shared.approvals.take(id, &record)?;
        if !approve {
            shared.journal.record(JournalEntry {
                name: interrupt.message.clone(),
                args: interrupt.args.clone(),
                version: self.version(),
                sender: interrupt.sender.clone(),
                approval: Some(record.clone()),
            });
            return Ok(Answered {
                interrupt,
                record,
                outcome: None,
            });
        }
        let run = {
            let interrupt = interrupt.clone();
            let record = record.clone();
            let shared = shared.clone();
            move || {
                let side = registry::get(shared.id).ok_or(HostError::Disposed)?;
                let mut messages = vec![(interrupt.message, interrupt.sent.args)];
                messages.extend(interrupt.sent.not_run);
                Ok::<_, HostError>(dispatch::run_sequence_from(
                    &side,
                    messages,
                    &interrupt.sender,
                    interrupt.position,
                    Some(record),
                ))
            }
        };
        match shared.inbox.run(run).await {
            Ok(Ok(outcome)) => Ok(Answered {
                interrupt,
                record,
                outcome: Some(outcome),
            }),
            Ok(Err(error)) | Err(error) => Err(AnswerError::Host(error)),
        }
    }

    /// Journals a refused answer to interrupt `id`: someone (`by` names what they presented) tried to answer it
    /// without the right to. The entry has the interrupt's message and an [`ApprovalRecord`] with `refused: true`
    /// and `approved: false`, at the current version; the interrupt stays open and nothing runs. Only an open
    /// interrupt's id is journaled, once per interrupt, so made-up ids or repeated tries cannot fill the journal.
    /// Returns the interrupt when it journaled one. The live page calls it for a `/page/answer` without a page
    /// session; an app with a front end of its own can call it for an answer it refuses.
    ///
    /// # Examples
    ///
    /// ```
    /// # use ranvier::exposure::{Dispatched, Exposure};
    /// # use ranvier::host::{block_on, GraphHost};
    /// # use ranvier::Mvu;
    /// # let host = GraphHost::start(|| {
    /// #     let cleared = Mvu::new(0_u32, |(), n| n + 1);
    /// #     let mut exposure = Exposure::new();
    /// #     exposure.messages(&cleared, vec![("clear".to_owned(), Box::new(|_: &serde_json::Value| Ok(())))])?;
    /// #     exposure.confirm("clear", "Clear?")?;
    /// #     exposure.start()
    /// # })?;
    /// # let exposure = host.invoke(|handle| handle.clone()).wait()?;
    /// let Dispatched::AwaitingApproval { interrupt } = block_on(exposure.dispatch_as("agent", "clear", serde_json::json!({})))?
    /// else { panic!("clear waits for a person") };
    /// assert!(exposure.journal_refused_answer(&interrupt.id, "a stranger", "no credential".into()).is_some());
    /// // once per interrupt, and only for an open one
    /// assert!(exposure.journal_refused_answer(&interrupt.id, "a stranger", "again".into()).is_none());
    /// assert!(exposure.journal_refused_answer("i-made-up", "a stranger", "no".into()).is_none());
    /// let record = exposure.journal()[0].approval.clone().unwrap();
    /// assert!(record.refused && !record.approved);
    /// assert_eq!(exposure.interrupts()[0].id, interrupt.id); // still open
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn journal_refused_answer(&self, id: &str, by: &str, reason: String) -> Option<Interrupt> {
        let shared = self.shared();
        let interrupt = shared.approvals.refuse(id)?;
        shared.journal.record(JournalEntry {
            name: interrupt.message.clone(),
            args: interrupt.args.clone(),
            version: self.version(),
            sender: interrupt.sender.clone(),
            approval: Some(ApprovalRecord {
                interrupt: interrupt.id.clone(),
                approved: false,
                by: by.to_owned(),
                reason: Some(reason),
                expired: false,
                refused: true,
            }),
        });
        Some(interrupt)
    }
}
