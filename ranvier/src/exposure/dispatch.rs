//! Dispatching exposed messages: the outcomes a caller sees (a message ran, or paused for a person's approval, or was
//! rejected), and the graph-side run of one message or a sequence.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::errors::ErrorKind;
use super::interrupts::{ApprovalRecord, Interrupt, Sent};
use super::journal::JournalEntry;
use super::registry::{Failure, GraphSide};
use super::snapshot::Snapshot;
use crate::escape::quote;
use crate::host::HostError;

/// What a dispatch that was not rejected led to: the message ran, or it waits for a person's approval.
///
/// `T` is what a run gives: the snapshot once the message and its effects had run
/// ([`ExposureHandle::dispatch`](super::ExposureHandle::dispatch)), or its [`Step`]
/// ([`ExposureHandle::dispatch_step_as`](super::ExposureHandle::dispatch_step_as)). A pause is not a rejection:
/// the arguments were accepted, and the message runs once someone approves it.
///
/// # Examples
///
/// ```
/// use ranvier::exposure::{Dispatched, Exposure};
/// use ranvier::host::{block_on, GraphHost};
/// use ranvier::Mvu;
///
/// let host = GraphHost::start(|| {
///     let total = Mvu::new(0_i64, |refund: i64, total| total - refund);
///     let mut exposure = Exposure::new();
///     exposure.value("total", { let total = total.clone(); move || total.model() })?;
///     exposure.messages(&total, vec![("refund".to_owned(), Box::new(|_: &serde_json::Value| Ok(5)))])?;
///     exposure.confirm("refund", "Refund 5?")?;
///     exposure.start()
/// })?;
/// let exposure = host.invoke(|handle| handle.clone()).wait()?;
/// match block_on(exposure.dispatch("refund", serde_json::json!({})))? {
///     Dispatched::Ran(snapshot) => unreachable!("refund waits for a person, got {snapshot:?}"),
///     Dispatched::AwaitingApproval { interrupt } => assert_eq!(interrupt.prompt, "Refund 5?"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Dispatched<T = Arc<Snapshot>> {
    /// The message ran: what it led to.
    Ran(T),
    /// The message needs a person's approval: it paused, nothing of it ran, and the interrupt is open until someone
    /// answers it ([`ExposureHandle::answer`](super::ExposureHandle::answer)) or it expires.
    AwaitingApproval {
        /// The open interrupt: id, message, arguments, prompt, and the messages that were not run.
        interrupt: Box<Interrupt>,
    },
}

impl<T> Dispatched<T> {
    /// What the message led to, when it ran (`None` when it paused).
    pub fn ran(self) -> Option<T> {
        match self {
            Dispatched::Ran(ran) => Some(ran),
            Dispatched::AwaitingApproval { .. } => None,
        }
    }

    /// The interrupt the message waits on, when it paused.
    pub fn interrupt(&self) -> Option<&Interrupt> {
        match self {
            Dispatched::Ran(_) => None,
            Dispatched::AwaitingApproval { interrupt } => Some(interrupt),
        }
    }

    /// Whether the message paused for approval.
    pub fn is_paused(&self) -> bool {
        matches!(self, Dispatched::AwaitingApproval { .. })
    }
}

/// Why a dispatched message did not happen. Nothing was dispatched, and the model is as it was.
///
/// Its `Display` is written for the sender (an agent, say) to act on: it names the message and what to change. It is
/// the text the MCP adapter answers with, so an app that shows a rejection shows what an agent reads, word for word:
/// the message, what was wrong, and what to send instead. Names a client sent (an unknown message's, say) are quoted
/// and escaped (one line, no control characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DispatchRejection {
    /// No message of that name is exposed.
    #[error("unknown message {}; {}", quote(.name), known_messages(.known))]
    UnknownMessage {
        /// The name asked for.
        name: String,
        /// The exposed messages, in registration order.
        known: Vec<String>,
    },
    /// The message's decoder refused its arguments.
    #[error("{name} rejected its arguments: {error}{}", expected(.name, .shape))]
    InvalidArgs {
        /// The message.
        name: String,
        /// The decoder's error text.
        error: String,
        /// The message's one-line shape, when registered.
        shape: Option<String>,
    },
    /// The message's decoder panicked on its arguments (a missing property, say).
    #[error(
        "{name} could not decode its arguments (the decoder panicked: {panic}); nothing was dispatched{}",
        expected(.name, .shape)
    )]
    DecoderPanicked {
        /// The message.
        name: String,
        /// The panic's text.
        panic: String,
        /// The message's one-line shape, when registered.
        shape: Option<String>,
    },
    /// `update` panicked: the model write it would have made did not happen. (A fault rather than a refusal:
    /// see [`is_fault`](Self::is_fault).)
    #[error("{name} failed: {error}; the model is unchanged")]
    UpdatePanicked {
        /// The message.
        name: String,
        /// The [`DispatchError`](crate::DispatchError) text, `update panicked: ...`.
        error: String,
    },
    /// `update` refused the message ([`Mvu::try_new`](crate::Mvu::try_new)): nothing was applied. A refusal, like a
    /// decoder's, not a fault. The reason may splice in what a client sent: it reads as one line, its unsafe
    /// characters escaped.
    #[error("{name} was refused: {}; nothing was applied", crate::escape::inline(.reason))]
    Refused {
        /// The message.
        name: String,
        /// The reason `update` gave.
        reason: String,
    },
    /// The host could not run the message (it is disposed, typically).
    /// (Its text holds the host's error, which is therefore not its `source` too.)
    #[error("{}", host_gone(&.0.to_string()))]
    Host(HostError),
    /// Refused because another message waits for a person's approval ([`WhilePending::Refuse`], the default):
    /// nothing ran. Answer the interrupt (or let it expire), then dispatch again.
    ///
    /// [`WhilePending::Refuse`]: super::WhilePending::Refuse
    #[error(
        "{} was refused: the app waits for a person's answer to interrupt {} ({} {} — {}, expires in {} s); \
         nothing ran. Answer it first, or dispatch again once it is answered or has expired",
        quote(.name),
        quote(&.interrupt.id),
        .interrupt.message,
        crate::escape::json(&.interrupt.args),
        quote(&.interrupt.prompt),
        .interrupt.remaining().as_secs_f64().ceil() as u64
    )]
    PendingApproval {
        /// The refused message.
        name: String,
        /// The open interrupt the app waits on (the oldest, when several are).
        interrupt: Box<Interrupt>,
    },
}

impl DispatchRejection {
    /// The message this rejection is about (`None` for [`Host`](Self::Host)).
    pub fn message_name(&self) -> Option<&str> {
        match self {
            DispatchRejection::UnknownMessage { name, .. }
            | DispatchRejection::InvalidArgs { name, .. }
            | DispatchRejection::DecoderPanicked { name, .. }
            | DispatchRejection::UpdatePanicked { name, .. }
            | DispatchRejection::Refused { name, .. }
            | DispatchRejection::PendingApproval { name, .. } => Some(name),
            DispatchRejection::Host(_) => None,
        }
    }

    /// Whether the message was accepted but `update` panicked (as opposed to refused before running).
    pub fn is_fault(&self) -> bool {
        matches!(self, DispatchRejection::UpdatePanicked { .. })
    }
}

/// `\nexpected: NAME SHAPE` after a rejection of a message whose one-line shape is registered, else nothing.
fn expected(name: &str, shape: &Option<String>) -> String {
    match shape {
        Some(shape) => format!("\nexpected: {name} {shape}"),
        None => String::new(),
    }
}

/// The exposed message names, as a rejection lists them: `known messages: a, b`.
pub(crate) fn known_messages(names: &[String]) -> String {
    if names.is_empty() {
        "this app exposes no messages".to_owned()
    } else {
        format!("known messages: {}", names.join(", "))
    }
}

/// The host or graph is gone, so nothing can be dispatched or read.
pub(crate) fn host_gone(reason: &str) -> String {
    format!("the application is not running any more: {reason}")
}

/// One accepted message: what ran, the version it led to and the values it changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// 1-based position in its sequence (1 for a single dispatch).
    pub position: usize,
    /// The message's name.
    pub name: String,
    /// Its arguments, as sent.
    pub args: Value,
    /// The version once it and its effects had run (the previous version when it changed nothing exposed).
    pub version: u64,
    /// The exposed values it changed, `(name, old, new)`, in registration order.
    pub changes: Vec<(String, Value, Value)>,
    /// The snapshot at [`version`](Self::version).
    pub snapshot: Arc<Snapshot>,
}

/// Where a sequence stopped: the rejected message's 1-based position and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceStop {
    /// 1-based position of the rejected message; the messages before it stay dispatched.
    pub position: usize,
    /// Why it was rejected.
    pub rejection: DispatchRejection,
}

impl fmt::Display for SequenceStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "message {} rejected: {}", self.position, self.rejection)
    }
}

/// The result of [`ExposureHandle::dispatch_all`](super::ExposureHandle::dispatch_all).
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceOutcome {
    /// The messages that ran, in order.
    pub steps: Vec<Step>,
    /// The first rejected message, when the sequence stopped early.
    pub stopped: Option<SequenceStop>,
    /// The interrupt the sequence paused at, when a message needs a person's approval: the messages before it ran,
    /// it and the rest wait on the interrupt ([`Interrupt::not_run`]).
    pub interrupt: Option<Interrupt>,
    /// The snapshot after the last message that ran.
    pub snapshot: Arc<Snapshot>,
}

impl SequenceOutcome {
    /// Whether every message ran (none was rejected, none paused).
    pub fn is_complete(&self) -> bool {
        self.stopped.is_none() && self.interrupt.is_none()
    }

    /// The interrupt the sequence paused at, when a message needs a person's approval.
    pub fn paused(&self) -> Option<&Interrupt> {
        self.interrupt.as_ref()
    }
}

/// Runs the messages in order on the graph thread, each after the previous one's effects, stopping at the first
/// rejection or pausing at a message that needs approval (or, while an interrupt is open and the exposure refuses
/// dispatches meanwhile, at the first message).
pub(super) fn run_sequence(
    side: &GraphSide,
    messages: Vec<(String, Value)>,
    sender: &str,
) -> SequenceOutcome {
    run_sequence_from(side, messages, sender, 1, None)
}

/// [`run_sequence`], numbering from `first_position`; with `approval`, the first message is the approved one (it
/// runs without pausing, and its journal entry carries the answer).
pub(super) fn run_sequence_from(
    side: &GraphSide,
    messages: Vec<(String, Value)>,
    sender: &str,
    first_position: usize,
    mut approval: Option<ApprovalRecord>,
) -> SequenceOutcome {
    let mut steps = Vec::with_capacity(messages.len());
    let mut stopped = None;
    let mut paused = None;
    let mut messages = messages.into_iter();
    let mut position = first_position;
    while let Some((name, args)) = messages.next() {
        let approved = approval.take();
        let pending = approved
            .is_none()
            .then(|| side.shared.approvals.refusing())
            .flatten();
        let result = if let Some(interrupt) = pending {
            Err(DispatchRejection::PendingApproval {
                name,
                interrupt: Box::new(interrupt),
            })
        } else if approved.is_none() && side.shared.approvals.is_gated(&name) {
            match pause(side, position, name, args, sender, messages.as_slice()) {
                Ok(interrupt) => {
                    paused = Some(interrupt);
                    break;
                }
                Err(rejection) => Err(rejection),
            }
        } else {
            run_one(side, position, name, args, sender, approved)
        };
        match result {
            Ok(step) => steps.push(step),
            Err(rejection) => {
                stopped = Some(SequenceStop {
                    position,
                    rejection,
                });
                break;
            }
        }
        position += 1;
    }
    SequenceOutcome {
        steps,
        stopped,
        interrupt: paused,
        snapshot: side.publisher.current(),
    }
}

/// Checks a gated message's arguments and opens its interrupt: the sequence pauses here, nothing of it ran.
fn pause(
    side: &GraphSide,
    position: usize,
    name: String,
    args: Value,
    sender: &str,
    not_run: &[(String, Value)],
) -> Result<Interrupt, DispatchRejection> {
    check(side, &name, &args, false)?;
    let sent = Sent {
        args,
        not_run: not_run.to_vec(),
    };
    let redaction = &side.shared.redaction;
    Ok(side.shared.approvals.open(
        name,
        sent,
        |name, args| redaction.args(name, args).into_owned(),
        sender,
        position,
    ))
}

/// Decodes `args` for `name` (and dispatches it when `dispatch`), turning a failure into its rejection.
fn check(
    side: &GraphSide,
    name: &str,
    args: &Value,
    dispatch: bool,
) -> Result<(), DispatchRejection> {
    let shared = &side.shared;
    let Some(run) = side.messages.get(name) else {
        return Err(DispatchRejection::UnknownMessage {
            name: name.to_owned(),
            known: shared
                .messages
                .iter()
                .map(|info| info.name.clone())
                .collect(),
        });
    };
    let shape = || {
        shared
            .messages
            .iter()
            .find(|info| info.name == name)
            .and_then(|info| info.shape.clone())
    };
    // the trace records the arguments with their redacted properties masked; the decoder gets them whole
    let shown = shared.redaction.args(name, args);
    let name = name.to_owned();
    // a rejection may quote what it was given: never a redacted argument
    let scrub = |text: String| shared.redaction.scrub(&text).into_owned();
    match run(args, &shown.to_string(), dispatch) {
        Ok(()) => Ok(()),
        Err(Failure::Decode(error)) => Err(DispatchRejection::InvalidArgs {
            shape: shape(),
            name,
            error: scrub(error),
        }),
        Err(Failure::DecoderPanicked(panic)) => Err(DispatchRejection::DecoderPanicked {
            shape: shape(),
            name,
            panic: scrub(panic),
        }),
        Err(Failure::Update(error)) => Err(DispatchRejection::UpdatePanicked {
            name,
            error: scrub(error),
        }),
        Err(Failure::Refused(reason)) => Err(DispatchRejection::Refused {
            name,
            reason: scrub(reason),
        }),
    }
}

/// Decodes and runs one message on the graph thread, and journals it when accepted.
pub(super) fn run_one(
    side: &GraphSide,
    position: usize,
    name: String,
    args: Value,
    sender: &str,
    approval: Option<ApprovalRecord>,
) -> Result<Step, DispatchRejection> {
    let shared = &side.shared;
    let before = side.publisher.current();
    let shown = shared.redaction.args(&name, &args).into_owned();
    shared.errors.running(&name, sender, shown.clone());
    let checked = check(side, &name, &args, true);
    match &checked {
        Err(DispatchRejection::Refused { reason, .. }) => {
            shared
                .errors
                .record(ErrorKind::Refused, None, None, before.version, reason);
        }
        Err(DispatchRejection::UpdatePanicked { error, .. }) => {
            shared
                .errors
                .record(ErrorKind::UpdatePanicked, None, None, before.version, error);
        }
        _ => {}
    }
    shared.errors.finished(checked.is_ok());
    checked?;
    let after = side.publisher.current();
    let changes = before.changes_to(&after);
    shared.journal.record_changes(
        JournalEntry {
            name: name.clone(),
            args: shown.clone(),
            version: after.version,
            sender: sender.to_owned(),
            approval,
        },
        changes.clone(),
    );
    Ok(Step {
        position,
        name,
        args: shown,
        version: after.version,
        changes,
        snapshot: after,
    })
}
