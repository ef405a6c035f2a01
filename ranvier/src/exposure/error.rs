//! The errors of registering and starting an [`Exposure`](super::Exposure): [`ExposeError`] and the [`NameKind`] it
//! names; and [`DecodeError`], a message decoder's refusal. Below everything else in the exposure, so every part of
//! it can refuse with them.

use std::fmt;

use crate::host::Cause;

/// The kinds of names an [`Exposure`](super::Exposure) registers; names are unique within a kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// A value published in snapshots.
    Value,
    /// A message clients may dispatch.
    Message,
    /// The one-line shape of a message's arguments.
    MessageShape,
    /// The JSON Schema of a message's arguments.
    MessageSchema,
    /// A node the traced tools may name.
    Node,
    /// The approval prompt of a message ([`Exposure::confirm`](super::Exposure::confirm)).
    Confirm,
}

impl fmt::Display for NameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NameKind::Value => "value",
            NameKind::Message => "message",
            NameKind::MessageShape => "message shape",
            NameKind::MessageSchema => "message schema",
            NameKind::Node => "node",
            NameKind::Confirm => "approval prompt",
        })
    }
}

/// A registration the [`Exposure`](super::Exposure) refused, or a `start` that could not happen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExposeError {
    /// The name is empty or uses a character outside `[A-Za-z0-9_.~-]`.
    #[error(
        "invalid {kind} name {name:?}: a name is one or more of the characters A-Z a-z 0-9 _ . ~ -"
    )]
    InvalidName {
        /// What the name was for.
        kind: NameKind,
        /// The name as given.
        name: String,
    },
    /// The name is already registered for this kind.
    #[error("the {kind} name {name:?} is already registered; {kind} names must be unique")]
    DuplicateName {
        /// What the name was for.
        kind: NameKind,
        /// The repeated name.
        name: String,
    },
    /// A shape or schema names a message that is not registered (register the message first).
    #[error(
        "the {kind} for {name:?} names no registered message; register the message first ({})",
        registered_list(registered)
    )]
    UnknownMessage {
        /// [`NameKind::MessageShape`] or [`NameKind::MessageSchema`].
        kind: NameKind,
        /// The name given.
        name: String,
        /// The messages registered so far, in registration order.
        registered: Vec<String>,
    },
    /// [`Exposure::redact`](super::Exposure::redact) (or `reveal`, `redact_args`, `reveal_args`) named a value or
    /// message that is not registered (yet).
    #[error(
        "cannot {action} {name:?}: no {kind} of that name is registered; register it first ({})",
        registered_names(.kind, .registered)
    )]
    NotRegistered {
        /// `redact` or `reveal`.
        action: &'static str,
        /// [`NameKind::Value`] or [`NameKind::Message`].
        kind: NameKind,
        /// The name given.
        name: String,
        /// The names of that kind registered so far, in registration order.
        registered: Vec<String>,
    },
    /// [`Exposure::start`](super::Exposure::start) was called outside a [`GraphHost`](crate::host::GraphHost)'s graph thread.
    #[error(
        "Exposure::start must run on a GraphHost's graph thread (inside setup or work sent with invoke)"
    )]
    NotOnGraphHost,
    /// A graph-side operation ([`ExposureHandle::on_publish`](super::ExposureHandle::on_publish)) was called off the exposure's graph thread.
    #[error(
        "this must be called on the exposure's graph thread (inside work sent with GraphHost::invoke)"
    )]
    NotOnGraphThread,
    /// The journal file (named by `RANVIER_JOURNAL` or [`Exposure::journal_file`](super::Exposure::journal_file)) could not be opened; the I/O
    /// error is the source.
    #[error("cannot open the journal file {path:?}")]
    Journal {
        /// The file.
        path: String,
        /// Why it could not be opened (a [`std::io::Error`]).
        #[source]
        source: Cause,
    },
}

/// The registered names of `kind` as [`ExposeError::NotRegistered`] lists them.
fn registered_names(kind: &NameKind, registered: &[String]) -> String {
    if registered.is_empty() {
        format!("no {kind}s are registered yet")
    } else {
        format!("registered {kind}s: {}", registered.join(", "))
    }
}

/// The registered messages as [`ExposeError::UnknownMessage`] lists them.
fn registered_list(registered: &[String]) -> String {
    if registered.is_empty() {
        "no messages are registered yet".to_owned()
    } else {
        format!("registered: {}", registered.join(", "))
    }
}

/// Why a message decoder ([`Decoder`](super::Decoder)) refused a message's JSON arguments: which property is wrong
/// and what was expected (`missing property \`quantity\``, `` `percent`: expected an integer 0..100, got 150 ``).
///
/// Its text (`Display`, [`reason`](DecodeError::reason)) is what the client is shown, followed by the message's
/// shape when one is registered. The decoders `#[derive(Messages)]` generates return it; a decoder written by hand
/// makes one from any text (`"…".into()`, [`DecodeError::new`]) or from a `serde_json::Error` (`?`).
///
/// # Examples
///
/// ```
/// use ranvier::exposure::{DecodeError, Decoder};
///
/// let decode: Decoder<u64> = Box::new(|args| {
///     args["n"].as_u64().ok_or_else(|| DecodeError::new("`n`: expected an integer"))
/// });
/// let error = decode(&serde_json::json!({"n": "two"})).unwrap_err();
/// assert_eq!(error.to_string(), "`n`: expected an integer");
/// assert_eq!(error, "`n`: expected an integer");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct DecodeError {
    reason: String,
}

impl DecodeError {
    /// A refusal saying `reason` (the whole text the client is shown).
    pub fn new(reason: impl Into<String>) -> Self {
        DecodeError {
            reason: reason.into(),
        }
    }

    /// The text the client is shown.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The text the client is shown, by value.
    pub fn into_reason(self) -> String {
        self.reason
    }
}

impl From<String> for DecodeError {
    fn from(reason: String) -> Self {
        DecodeError::new(reason)
    }
}

impl From<&str> for DecodeError {
    fn from(reason: &str) -> Self {
        DecodeError::new(reason)
    }
}

impl From<serde_json::Error> for DecodeError {
    fn from(error: serde_json::Error) -> Self {
        DecodeError::new(error.to_string())
    }
}

impl PartialEq<str> for DecodeError {
    fn eq(&self, other: &str) -> bool {
        self.reason == other
    }
}

impl PartialEq<&str> for DecodeError {
    fn eq(&self, other: &&str) -> bool {
        self.reason == *other
    }
}
