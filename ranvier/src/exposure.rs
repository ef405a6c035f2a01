//! State and messages published from the graph thread: named values as versioned JSON snapshots, named messages
//! dispatched from any thread, and the nodes the traced tools may name.
//!
//! Two halves:
//!
//! - [`Exposure`] is the graph-side registry (`!Send`). Inside [`GraphHost::start`](crate::host::GraphHost::start)'s
//!   setup, register [values](Exposure::value), [messages](Exposure::messages) with their
//!   [shapes](Exposure::message_shapes) and [schemas](Exposure::message_schemas), and [nodes](Exposure::node),
//!   then call [`start`](Exposure::start). Names use `[A-Za-z0-9_.~-]` and are unique within their kind.
//! - [`ExposureHandle`] is what `start` returns: `Clone + Send + Sync`, usable from any thread without entering
//!   the graph. It reads the current [`Snapshot`], [dispatches](ExposureHandle::dispatch) messages,
//!   [waits for a version](ExposureHandle::wait_version), streams [`Publication`]s and reads the [journal](JournalEntry).
//!
//! # Snapshots
//!
//! `start` creates one effect that reads every value and publishes `Snapshot { version, values }`:
//!
//! - every value in a snapshot comes from the same flush;
//! - a flush that changes any value's encoding publishes once, one version higher (the snapshot taken by `start`
//!   is version 0); a [`batch`](crate::batch) publishes once;
//! - a memo cutoff, an equal write, or a re-run whose encodings all match publishes nothing.
//!
//! A value whose read panics (a memo whose body panicked, say) or whose encoding fails is published as
//! `{"error": "<what went wrong>"}`, and is read again on the next flush that moves its sources.
//!
//! # Dispatch
//!
//! [`ExposureHandle::dispatch`] decodes the message's JSON arguments on the graph thread, runs the message with
//! [`Mvu::dispatch_traced`](crate::Mvu::dispatch_traced) and resolves to the snapshot published once the message
//! and its effects have run ([`Dispatched::Ran`]), or to the interrupt of a message that waits for a person's approval
//! ([`Dispatched::AwaitingApproval`], see below). A [`DispatchRejection`] says why nothing happened: an unknown message, arguments its
//! decoder refused (or panicked on), or an `update` that panicked (the model is unchanged). Every accepted message
//! is recorded in the journal with the version it produced and who sent it; when the environment variable
//! `RANVIER_JOURNAL` names a file, each is also appended to it as a JSON line. In memory the journal keeps the newest
//! [`DEFAULT_JOURNAL_CAPACITY`] entries within [`DEFAULT_JOURNAL_BYTES`] of arguments ([`Exposure::journal_capacity`]
//! changes both) and counts the older ones it dropped ([`ExposureHandle::journal_dropped`]); the file keeps them all.
//!
//! # Approval
//!
//! A message registered with [`Exposure::confirm`] pauses for a person instead of running: see [`approval`] for
//! the interrupts it opens and how the app lists, answers and subscribes to them.
//! [`Exposure::require_approval`] turns the pause off for the whole exposure (the cart example's default; its
//! `--confirm` turns it on).
//!
//! # Examples
//!
//! ```
//! use ranvier::exposure::{DispatchRejection, Exposure, ExposureHandle};
//! use ranvier::host::{block_on, GraphHost};
//! use ranvier::Mvu;
//!
//! #[derive(Debug)]
//! enum Msg {
//!     Add(i64),
//! }
//!
//! let host = GraphHost::start(|| {
//!     let counter = Mvu::new(0_i64, |Msg::Add(n), count| count + n);
//!     let mut exposure = Exposure::new();
//!     exposure.value("count", {
//!         let counter = counter.clone();
//!         move || counter.model()
//!     })?;
//!     exposure.messages(
//!         &counter,
//!         vec![(
//!             "add".to_owned(),
//!             Box::new(|args: &serde_json::Value| {
//!                 args["amount"].as_i64().map(Msg::Add).ok_or_else(|| "`amount` must be an integer".into())
//!             }),
//!         )],
//!     )?;
//!     exposure.message_shapes(vec![("add".into(), "{amount: integer}".into())])?;
//!     exposure.start()
//! })?;
//! let exposure: ExposureHandle = host.invoke(|handle| handle.clone()).wait()?;
//!
//! // From any thread, without entering the graph:
//! assert_eq!(exposure.snapshot().version, 0);
//! let snapshot = block_on(exposure.dispatch("add", serde_json::json!({"amount": 2}))).unwrap().ran().unwrap();
//! assert_eq!((snapshot.version, snapshot.get("count")), (1, Some(&serde_json::json!(2))));
//!
//! let rejected = block_on(exposure.dispatch("add", serde_json::json!({"amount": "two"}))).unwrap_err();
//! assert!(matches!(rejected, DispatchRejection::InvalidArgs { .. }));
//! assert_eq!(rejected.to_string(), "add rejected its arguments: `amount` must be an integer\nexpected: add {amount: integer}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod approval;
mod dispatch;
mod error;
pub mod errors;
pub mod fork;
mod handle;
pub mod history;
mod interrupts;
mod journal;
pub(crate) mod messages;
pub mod redact;
mod registry;
pub(crate) mod rows;
pub(crate) mod schema;
mod settle;
mod snapshot;
mod timer;

use std::collections::HashSet;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

pub use approval::Answered;
pub use dispatch::{DispatchRejection, Dispatched, SequenceOutcome, SequenceStop, Step};
#[cfg(feature = "mcp")]
pub(crate) use dispatch::{host_gone, known_messages};
pub use error::{DecodeError, ExposeError, NameKind};
pub use errors::{DEFAULT_ERRORS_KEPT, ErrorKind, ErrorMessage, ErrorRecord, error_line};
pub use handle::{APP_SENDER, ExposureHandle};
pub use history::{DEFAULT_HISTORY_BYTES, DEFAULT_HISTORY_VERSIONS, VersionError};
pub use interrupts::{
    AnswerError, ApprovalRecord, Closed, DEFAULT_APPROVAL_TIMEOUT, EXPIRY, Interrupt,
    InterruptEvent, InterruptEvents, WhilePending, fill_prompt,
};
pub use journal::{
    DEFAULT_JOURNAL_BYTES, DEFAULT_JOURNAL_CAPACITY, JOURNAL_ENV, JournalEntry, JournalEvents,
    Journaled,
};
pub use redact::{REDACTED, is_secret_name};
pub use rows::changed_rows;
pub use settle::Settled;
pub use snapshot::{Publication, Publications, Snapshot};

use crate::graph::{AnyNode, NodeId};
use crate::host::GraphInbox;
use crate::text::panic_text;
use crate::{Effect, Mvu};
use history::History;
use interrupts::{Approvals, PromptFn};
use journal::Journal;
use registry::{Failure, GraphSide, MessageInfo, RunMessage, Shared};
use snapshot::{Callback, Publisher, Read};

/// Decodes one message from its JSON arguments (`ranvier::Decoder`, also `ranvier::exposure::Decoder`): what
/// `#[derive(Messages)]` generates per variant, and what an app registering messages by hand writes. The
/// [`DecodeError`] says which property is wrong and what was expected; its text is shown to the client, followed by
/// the message's shape when one is registered.
pub type Decoder<Msg> = Box<dyn Fn(&Value) -> Result<Msg, DecodeError>>;

/// How many publications a [`Publications`] reader may fall behind before it skips to the latest state (the
/// default of [`Exposure::publication_buffer`]).
pub const DEFAULT_PUBLICATION_BUFFER: usize = 1024;

static NEXT_EXPOSURE_ID: AtomicU64 = AtomicU64::new(1);

fn check_name(kind: NameKind, name: &str) -> Result<(), ExposeError> {
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.~-".contains(&b));
    if valid {
        Ok(())
    } else {
        Err(ExposeError::InvalidName {
            kind,
            name: name.to_owned(),
        })
    }
}

struct MessageSlot {
    name: String,
    run: RunMessage,
    shape: Option<String>,
    schema: Option<Value>,
    confirm: Option<PromptFn>,
}

/// The graph-side registry of what a running app exposes. `!Send`: build it inside the host's setup.
///
/// Every registration returns `Result<&mut Self, ExposeError>`, so registrations chain with `?`. A refused
/// registration changes nothing.
///
/// # Examples
///
/// ```
/// use ranvier::exposure::{ExposeError, Exposure};
/// use ranvier::Signal;
///
/// let total = Signal::new(500);
/// let mut exposure = Exposure::new();
/// exposure.value("total", { let total = total.clone(); move || total.get() })?.node("total", &total)?;
///
/// let error = exposure.value("total", || 0).err().unwrap();
/// assert_eq!(error.to_string(), r#"the value name "total" is already registered; value names must be unique"#);
/// assert!(matches!(exposure.node("a b", &total), Err(ExposeError::InvalidName { .. })));
/// # Ok::<(), ExposeError>(())
/// ```
pub struct Exposure {
    values: Vec<(String, Read)>,
    messages: Vec<MessageSlot>,
    nodes: Vec<(String, NodeId)>,
    callbacks: Vec<Callback>,
    publication_buffer: usize,
    journal_file: Option<std::path::PathBuf>,
    journal_capacity: (usize, usize),
    history: (usize, usize),
    approval_timeout: Duration,
    while_pending: WhilePending,
    require_approval: bool,
    redaction: redact::Choices,
    /// How a fork builds a copy of this app ([`forks`](Self::forks), [`fork_with`](Self::fork_with)).
    fork_setup: Option<ForkSetup>,
    /// The message sources whose models a fork copies, in registration order.
    ports: Vec<registry::ModelPort>,
    /// On a fork: the live version it was made at (its first version; its journal keeps no file).
    fork_of: Option<u64>,
}

impl Default for Exposure {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Exposure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Exposure")
            .field(
                "values",
                &self.values.iter().map(|(name, _)| name).collect::<Vec<_>>(),
            )
            .field(
                "messages",
                &self
                    .messages
                    .iter()
                    .map(|slot| &slot.name)
                    .collect::<Vec<_>>(),
            )
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl Exposure {
    /// An empty registry.
    pub fn new() -> Self {
        Exposure {
            values: Vec::new(),
            messages: Vec::new(),
            nodes: Vec::new(),
            callbacks: Vec::new(),
            publication_buffer: DEFAULT_PUBLICATION_BUFFER,
            journal_file: None,
            journal_capacity: (DEFAULT_JOURNAL_CAPACITY, DEFAULT_JOURNAL_BYTES),
            history: (DEFAULT_HISTORY_VERSIONS, DEFAULT_HISTORY_BYTES),
            approval_timeout: DEFAULT_APPROVAL_TIMEOUT,
            while_pending: WhilePending::default(),
            require_approval: true,
            redaction: redact::Choices::default(),
            fork_setup: None,
            ports: Vec::new(),
            fork_of: None,
        }
    }

    /// Exposes `read()` as the value `name`, encoded to JSON with serde.
    ///
    /// `read` runs inside the publishing effect, so the nodes it reads are tracked.
    ///
    /// # Errors
    ///
    /// [`ExposeError::InvalidName`] or [`ExposeError::DuplicateName`].
    pub fn value<T: Serialize + 'static>(
        &mut self,
        name: &str,
        read: impl Fn() -> T + 'static,
    ) -> Result<&mut Self, ExposeError> {
        self.value_with(name, read, |value: &T| {
            serde_json::to_value(value)
                .unwrap_or_else(|e| error_value(&format!("cannot encode the value: {e}")))
        })
    }

    /// Exposes `read()` as the value `name`, encoded to JSON with `encode`.
    ///
    /// # Errors
    ///
    /// [`ExposeError::InvalidName`] or [`ExposeError::DuplicateName`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::exposure::Exposure;
    ///
    /// let mut exposure = Exposure::new();
    /// exposure.value_with("price", || 1250_i64, |cents| serde_json::json!(format!("{:.2}", *cents as f64 / 100.0)))?;
    /// # Ok::<(), ranvier::exposure::ExposeError>(())
    /// ```
    pub fn value_with<T: 'static>(
        &mut self,
        name: &str,
        read: impl Fn() -> T + 'static,
        encode: impl Fn(&T) -> Value + 'static,
    ) -> Result<&mut Self, ExposeError> {
        check_name(NameKind::Value, name)?;
        if self.values.iter().any(|(taken, _)| taken == name) {
            return Err(ExposeError::DuplicateName {
                kind: NameKind::Value,
                name: name.to_owned(),
            });
        }
        let read: Read =
            Box::new(
                move || match catch_unwind(AssertUnwindSafe(|| encode(&read()))) {
                    Ok(value) => value,
                    Err(panic) => error_value(&panic_text(panic.as_ref())),
                },
            );
        self.values.push((name.to_owned(), read));
        Ok(self)
    }

    /// Exposes messages of `mvu` for dispatch: each `(name, decoder)` pair names a message and turns its JSON
    /// arguments into a `Msg`. Several `Mvu`s may register messages; names are unique across all of them.
    ///
    /// The decoder runs on the graph thread. An `Err` (or a panic) rejects the message without dispatching
    /// anything; otherwise the message runs through [`Mvu::dispatch_traced`] with its name and compact JSON
    /// arguments.
    ///
    /// # Errors
    ///
    /// [`ExposeError::InvalidName`] or [`ExposeError::DuplicateName`] for the first bad name; nothing is
    /// registered then.
    pub fn messages<Model, Msg>(
        &mut self,
        mvu: &Mvu<Model, Msg>,
        decoders: Vec<(String, Decoder<Msg>)>,
    ) -> Result<&mut Self, ExposeError>
    where
        Model: Clone + PartialEq + fmt::Debug + 'static,
        Msg: fmt::Debug + 'static,
    {
        let mut seen = HashSet::new();
        for (name, _) in &decoders {
            check_name(NameKind::Message, name)?;
            if !seen.insert(name.as_str()) || self.messages.iter().any(|slot| &slot.name == name) {
                return Err(ExposeError::DuplicateName {
                    kind: NameKind::Message,
                    name: name.clone(),
                });
            }
        }
        for (name, decoder) in decoders {
            let mvu = mvu.clone();
            let traced_name = name.clone();
            let run: RunMessage = Box::new(move |args: &Value, args_text: &str, dispatch: bool| {
                let msg = match catch_unwind(AssertUnwindSafe(|| decoder(args))) {
                    Ok(Ok(msg)) => msg,
                    Ok(Err(error)) => return Err(Failure::Decode(error.into_reason())),
                    Err(panic) => {
                        return Err(Failure::DecoderPanicked(panic_text(panic.as_ref())));
                    }
                };
                if !dispatch {
                    return Ok(());
                }
                mvu.dispatch_traced(&traced_name, args_text, msg)
                    .map_err(|e| {
                        if e.refused {
                            Failure::Refused(e.message)
                        } else {
                            Failure::Update(e.message)
                        }
                    })
            });
            self.messages.push(MessageSlot {
                name,
                run,
                shape: None,
                schema: None,
                confirm: None,
            });
        }
        Ok(self)
    }

    /// Describes the arguments of registered messages in one line each (e.g. `{percent: integer}`), shown in
    /// `dispatch`'s description and after a decoder's error.
    ///
    /// # Errors
    ///
    /// [`ExposeError::UnknownMessage`] for a shape of a message not registered (yet), [`ExposeError::DuplicateName`]
    /// for a message that already has one; nothing is registered then.
    pub fn message_shapes(
        &mut self,
        shapes: Vec<(String, String)>,
    ) -> Result<&mut Self, ExposeError> {
        let slots = self.slots_for(
            NameKind::MessageShape,
            shapes.iter().map(|(name, _)| name),
            |slot| slot.shape.is_some(),
        )?;
        for (slot, (_, shape)) in slots.into_iter().zip(shapes) {
            self.messages[slot].shape = Some(shape);
        }
        Ok(self)
    }

    /// Registers the JSON Schema of registered messages' arguments (the MCP `dispatch` tool's input schema uses
    /// them).
    ///
    /// # Errors
    ///
    /// As [`message_shapes`](Self::message_shapes).
    pub fn message_schemas(
        &mut self,
        schemas: Vec<(String, Value)>,
    ) -> Result<&mut Self, ExposeError> {
        let slots = self.slots_for(
            NameKind::MessageSchema,
            schemas.iter().map(|(name, _)| name),
            |slot| slot.schema.is_some(),
        )?;
        for (slot, (_, schema)) in slots.into_iter().zip(schemas) {
            self.messages[slot].schema = Some(schema);
        }
        Ok(self)
    }

    fn slots_for<'a>(
        &self,
        kind: NameKind,
        names: impl Iterator<Item = &'a String>,
        taken: impl Fn(&MessageSlot) -> bool,
    ) -> Result<Vec<usize>, ExposeError> {
        let mut slots = Vec::new();
        for name in names {
            check_name(kind, name)?;
            let Some(slot) = self.messages.iter().position(|slot| &slot.name == name) else {
                return Err(ExposeError::UnknownMessage {
                    kind,
                    name: name.clone(),
                    registered: self.messages.iter().map(|slot| slot.name.clone()).collect(),
                });
            };
            if taken(&self.messages[slot]) || slots.contains(&slot) {
                return Err(ExposeError::DuplicateName {
                    kind,
                    name: name.clone(),
                });
            }
            slots.push(slot);
        }
        Ok(slots)
    }

    /// Marks the registered message `name` as needing a person's approval, with a prompt built from its arguments:
    /// each `{property}` of `template` is replaced by that argument (see [`fill_prompt`]). A dispatch of it then
    /// decodes its arguments and pauses instead of running (see [`approval`]).
    ///
    /// # Errors
    ///
    /// [`ExposeError::UnknownMessage`] when `name` is not registered (yet), [`ExposeError::DuplicateName`] when it
    /// already has a prompt; nothing is registered then.
    ///
    /// # Examples
    ///
    /// ```
    /// # use ranvier::{exposure::Exposure, Mvu};
    /// # let mvu = Mvu::new(0_i64, |n: i64, _| n);
    /// let mut exposure = Exposure::new();
    /// exposure.messages(&mvu, vec![("refund".to_owned(), Box::new(|_: &serde_json::Value| Ok(1)))])?;
    /// exposure.confirm("refund", "Refund {amount} on order {order}?")?;
    /// assert!(exposure.confirm("refund", "again?").is_err());
    /// # Ok::<(), ranvier::exposure::ExposeError>(())
    /// ```
    pub fn confirm(&mut self, name: &str, template: &str) -> Result<&mut Self, ExposeError> {
        let template = template.to_owned();
        self.confirm_with(name, move |args| fill_prompt(&template, args))
    }

    /// [`confirm`](Self::confirm) for several messages at once, `(name, template)` (what `Messages::confirms`
    /// gives).
    ///
    /// # Errors
    ///
    /// As [`confirm`](Self::confirm), for the first bad entry; nothing is registered then.
    pub fn confirms(&mut self, templates: Vec<(String, String)>) -> Result<&mut Self, ExposeError> {
        let slots = self.slots_for(
            NameKind::Confirm,
            templates.iter().map(|(name, _)| name),
            |slot| slot.confirm.is_some(),
        )?;
        for (slot, (_, template)) in slots.into_iter().zip(templates) {
            self.messages[slot].confirm =
                Some(Arc::new(move |args: &Value| fill_prompt(&template, args)));
        }
        Ok(self)
    }

    /// [`confirm`](Self::confirm) with a prompt built by `prompt` from the arguments (it runs on the dispatching
    /// thread; a panic in it gives the prompt `Approve <name>?`).
    ///
    /// # Errors
    ///
    /// As [`confirm`](Self::confirm).
    pub fn confirm_with(
        &mut self,
        name: &str,
        prompt: impl Fn(&Value) -> String + Send + Sync + 'static,
    ) -> Result<&mut Self, ExposeError> {
        let slot = self.slots_for(
            NameKind::Confirm,
            std::iter::once(&name.to_owned()),
            |slot| slot.confirm.is_some(),
        )?[0];
        let fallback = format!("Approve {name}?");
        self.messages[slot].confirm = Some(Arc::new(move |args: &Value| {
            catch_unwind(AssertUnwindSafe(|| prompt(args))).unwrap_or_else(|_| fallback.clone())
        }));
        Ok(self)
    }

    /// How long an interrupt stays open before it expires unanswered (default [`DEFAULT_APPROVAL_TIMEOUT`], 10
    /// minutes).
    pub fn approval_timeout(&mut self, timeout: Duration) -> &mut Self {
        self.approval_timeout = timeout;
        self
    }

    /// Whether the messages marked for approval ([`confirm`](Self::confirm), `#[message(confirm = "...")]`) pause
    /// for a person: `true` (the default) opens an interrupt for each; `false` runs them straight away, as if
    /// unmarked, and lists no prompt (an app's switch for a trusted or scripted run, set in one place whatever
    /// registered the prompts).
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::exposure::Exposure;
    /// use ranvier::host::{block_on, GraphHost};
    /// use ranvier::Mvu;
    ///
    /// let host = GraphHost::start(|| {
    ///     let total = Mvu::new(0_i64, |refund: i64, total| total - refund);
    ///     let mut exposure = Exposure::new();
    ///     exposure.value("total", { let total = total.clone(); move || total.model() })?;
    ///     exposure.messages(&total, vec![("refund".to_owned(), Box::new(|_: &serde_json::Value| Ok(5)))])?;
    ///     exposure.confirm("refund", "Refund 5?")?.require_approval(false);
    ///     exposure.start()
    /// })?;
    /// let exposure = host.invoke(|handle| handle.clone()).wait()?;
    /// // ran without asking anyone
    /// let snapshot = block_on(exposure.dispatch("refund", serde_json::json!({}))).unwrap().ran().unwrap();
    /// assert_eq!(snapshot.get("total"), Some(&serde_json::json!(-5)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn require_approval(&mut self, required: bool) -> &mut Self {
        self.require_approval = required;
        self
    }

    /// What a dispatch does while an interrupt is open: [`WhilePending::Refuse`] (the default) refuses it with
    /// [`DispatchRejection::PendingApproval`], naming the interrupt, until it is answered or expires;
    /// [`WhilePending::Run`] runs it. See [`WhilePending`] for why refusing is the default.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::exposure::{Exposure, WhilePending};
    ///
    /// let mut exposure = Exposure::new();
    /// exposure.while_pending(WhilePending::Run); // a ticking app keeps ticking while a person decides
    /// ```
    pub fn while_pending(&mut self, policy: WhilePending) -> &mut Self {
        self.while_pending = policy;
        self
    }

    /// Exposes `node` under `name` to the traced provenance tools. It does not restrict what the trace shows. In a
    /// traced build a node without a label is labelled `name`, so answers name it even where the source cannot be
    /// read.
    ///
    /// # Errors
    ///
    /// [`ExposeError::InvalidName`] or [`ExposeError::DuplicateName`].
    pub fn node(&mut self, name: &str, node: &impl AnyNode) -> Result<&mut Self, ExposeError> {
        check_name(NameKind::Node, name)?;
        if self.nodes.iter().any(|(taken, _)| taken == name) {
            return Err(ExposeError::DuplicateName {
                kind: NameKind::Node,
                name: name.to_owned(),
            });
        }
        self.nodes.push((name.to_owned(), node.node_id()));
        // an unlabelled node takes the name it is exposed under, so the trace names it without the source
        crate::graph::with_runtime(|rt| trace_hook!(rt, name_if_unnamed(node.node_id(), name)));
        Ok(self)
    }

    /// Redacts the value (and the node) `name`: it is published as [`REDACTED`] in place of its encoding, and a
    /// node of that name is recorded in the trace with the marker in place of its value (see the
    /// [redact module](self::redact)). Names that look like secrets ([`is_secret_name`]) are redacted without this.
    ///
    /// # Errors
    ///
    /// [`ExposeError::NotRegistered`] when no value or node is registered under `name` yet.
    pub fn redact(&mut self, name: &str) -> Result<&mut Self, ExposeError> {
        self.check_value("redact", name)?;
        self.redaction.revealed.remove(name);
        self.redaction.values.insert(name.to_owned());
        Ok(self)
    }

    /// Publishes the value `name` as it is although its name looks like a secret's ([`is_secret_name`]): the
    /// opt-out of the default (`#[expose(redact = false)]`).
    ///
    /// # Errors
    ///
    /// [`ExposeError::NotRegistered`] when no value or node is registered under `name` yet.
    pub fn reveal(&mut self, name: &str) -> Result<&mut Self, ExposeError> {
        self.check_value("reveal", name)?;
        self.redaction.values.remove(name);
        self.redaction.revealed.insert(name.to_owned());
        Ok(self)
    }

    /// Redacts the properties `fields` (at any depth) of message `message`'s arguments in everything recorded and
    /// echoed about it (`#[message(redact)]` on a field); its decoder still gets them.
    ///
    /// # Errors
    ///
    /// [`ExposeError::NotRegistered`] when no message `message` is registered yet.
    pub fn redact_args(
        &mut self,
        message: &str,
        fields: &[&str],
    ) -> Result<&mut Self, ExposeError> {
        self.check_message("redact", message)?;
        let (redacted, revealed) = self.redaction.args.entry(message.to_owned()).or_default();
        for field in fields {
            revealed.remove(*field);
            redacted.insert((*field).to_owned());
        }
        Ok(self)
    }

    /// Shows the properties `fields` of message `message`'s arguments although their names look like secrets'
    /// (`#[message(redact = false)]`).
    ///
    /// # Errors
    ///
    /// [`ExposeError::NotRegistered`] when no message `message` is registered yet.
    pub fn reveal_args(
        &mut self,
        message: &str,
        fields: &[&str],
    ) -> Result<&mut Self, ExposeError> {
        self.check_message("reveal", message)?;
        let (redacted, revealed) = self.redaction.args.entry(message.to_owned()).or_default();
        for field in fields {
            redacted.remove(*field);
            revealed.insert((*field).to_owned());
        }
        Ok(self)
    }

    fn check_value(&self, action: &'static str, name: &str) -> Result<(), ExposeError> {
        let known = self.values.iter().any(|(taken, _)| taken == name)
            || self.nodes.iter().any(|(taken, _)| taken == name);
        if known {
            return Ok(());
        }
        Err(ExposeError::NotRegistered {
            action,
            kind: NameKind::Value,
            name: name.to_owned(),
            registered: self.values.iter().map(|(name, _)| name.clone()).collect(),
        })
    }

    fn check_message(&self, action: &'static str, name: &str) -> Result<(), ExposeError> {
        if self.messages.iter().any(|slot| slot.name == name) {
            return Ok(());
        }
        Err(ExposeError::NotRegistered {
            action,
            kind: NameKind::Message,
            name: name.to_owned(),
            registered: self.messages.iter().map(|slot| slot.name.clone()).collect(),
        })
    }

    /// Runs `callback` on the graph thread for every publication, inside the publishing flush, after the snapshot
    /// holds the new value. (After `start`, use [`ExposureHandle::on_publish`].) A panicking callback is skipped.
    pub fn on_publish(&mut self, callback: impl FnMut(&Publication) + 'static) -> &mut Self {
        self.callbacks.push(Box::new(callback));
        self
    }

    /// How many publications a [`Publications`] reader may fall behind before it skips to the latest state
    /// (default [`DEFAULT_PUBLICATION_BUFFER`]; at least 1).
    pub fn publication_buffer(&mut self, publications: usize) -> &mut Self {
        self.publication_buffer = publications.max(1);
        self
    }

    /// Appends each accepted message to `path` as a JSON line, as the environment variable `RANVIER_JOURNAL`
    /// does (this takes precedence over it).
    pub fn journal_file(&mut self, path: impl Into<std::path::PathBuf>) -> &mut Self {
        self.journal_file = Some(path.into());
        self
    }

    /// How much of the journal is kept in memory: the newest `entries` accepted messages (at least 1) within `bytes`
    /// of arguments, counted as their JSON text (the newest entry is kept whatever its size). The defaults are
    /// [`DEFAULT_JOURNAL_CAPACITY`] and [`DEFAULT_JOURNAL_BYTES`]. Older entries are dropped from memory and counted
    /// ([`ExposureHandle::journal_dropped`]); the journal file, when there is one, keeps every entry.
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
    ///     exposure.journal_capacity(2, 1 << 20);
    ///     exposure.start()
    /// })?;
    /// let exposure = host.invoke(|handle| handle.clone()).wait()?;
    /// for n in 1..=5 {
    ///     block_on(exposure.dispatch("add", serde_json::json!({"n": n}))).unwrap();
    /// }
    /// let kept: Vec<u64> = exposure.journal().iter().map(|entry| entry.version).collect();
    /// assert_eq!((kept, exposure.journal_dropped()), (vec![4, 5], 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn journal_capacity(&mut self, entries: usize, bytes: usize) -> &mut Self {
        self.journal_capacity = (entries.max(1), bytes);
        self
    }

    /// How many earlier versions [`ExposureHandle::snapshot_at`] can give: the newest `versions` before the current
    /// one (0 keeps none) within `bytes` of the values they replaced, counted as their JSON text (the newest change
    /// is kept whatever its size). The defaults are [`DEFAULT_HISTORY_VERSIONS`] and [`DEFAULT_HISTORY_BYTES`]; see
    /// the [history module](self::history) for how it is kept and an example.
    pub fn history(&mut self, versions: usize, bytes: usize) -> &mut Self {
        self.history = (versions, bytes);
        self
    }

    /// Closes registration: creates the effect that publishes snapshots (it runs now and publishes version 0)
    /// and returns the handle other threads use.
    ///
    /// # Errors
    ///
    /// [`ExposeError::NotOnGraphHost`] off a [`GraphHost`](crate::host::GraphHost)'s graph thread;
    /// [`ExposeError::Journal`] when the journal file cannot be opened.
    pub fn start(self) -> Result<ExposureHandle, ExposeError> {
        let inbox = GraphInbox::current().ok_or(ExposeError::NotOnGraphHost)?;
        let (capacity, max_bytes) = self.journal_capacity;
        let journal = Arc::new(match self.journal_file {
            // a fork's journal never reaches a file: nothing it does leaves it
            _ if self.fork_of.is_some() => Journal::in_memory(capacity, max_bytes),
            Some(path) => Journal::open(path, capacity, max_bytes)?,
            None => Journal::from_env(capacity, max_bytes)?,
        });
        let redaction = Arc::new(redact::Redaction::new(&self.redaction));
        let (names, reads): (Vec<String>, Vec<Read>) = self
            .values
            .into_iter()
            .map(|(name, read)| {
                if !self.redaction.value(&name) {
                    return (name, read);
                }
                // read (so its sources are tracked), note it for scrubbing, publish the marker
                let redaction = redaction.clone();
                let read: Read = Box::new(move || {
                    redaction.note(&read());
                    redact::marker()
                });
                (name, read)
            })
            .unzip();
        for (name, node) in &self.nodes {
            if self.redaction.value(name) {
                crate::graph::with_runtime(|rt| trace_hook!(rt, redact(*node)));
            }
        }
        let history = Arc::new(History::new(self.history.0, self.history.1));
        let publisher = Rc::new(Publisher::new(
            names.clone(),
            reads,
            self.callbacks,
            self.publication_buffer,
            self.fork_of.unwrap_or(0),
            {
                let history = history.clone();
                Box::new(move |snapshot, previous, changed| {
                    history.record(snapshot, previous, changed)
                })
            },
        ));
        let errors = Arc::new(errors::ErrorLog::new(DEFAULT_ERRORS_KEPT));
        errors::listen(&errors, self.nodes.clone(), {
            let snapshot = publisher.snapshot_receiver();
            move || snapshot.borrow().version
        });
        let mut infos = Vec::with_capacity(self.messages.len());
        let mut runs = std::collections::HashMap::with_capacity(self.messages.len());
        let mut gates = std::collections::HashMap::new();
        for slot in self.messages {
            if let Some(prompt) = slot.confirm.filter(|_| self.require_approval) {
                gates.insert(slot.name.clone(), prompt);
            }
            infos.push(MessageInfo {
                name: slot.name.clone(),
                shape: slot.shape,
                schema: slot.schema,
            });
            runs.insert(slot.name, slot.run);
        }
        let shared = Arc::new(Shared {
            id: NEXT_EXPOSURE_ID.fetch_add(1, Ordering::Relaxed),
            inbox,
            names,
            messages: infos,
            nodes: self.nodes,
            snapshot: publisher.snapshot_receiver(),
            publications: std::sync::Mutex::new(Some(publisher.publication_sender())),
            approvals: Arc::new(Approvals::new(
                gates,
                self.approval_timeout,
                self.while_pending,
                expiry_journal(&journal, publisher.snapshot_receiver()),
            )),
            journal,
            history,
            errors,
            redaction,
            fork_setup: self
                .fork_setup
                .map(|setup| Arc::new(setup) as Arc<dyn std::any::Any + Send + Sync>),
            waiting: Default::default(),
            flights: crate::graph::flights::remote(),
        });
        let effect = Effect::new({
            let publisher = publisher.clone();
            move || publisher.publish()
        })
        .labelled("ranvier.exposure");
        registry::insert(GraphSide {
            shared: shared.clone(),
            messages: runs,
            publisher,
            effect,
            ports: self.ports,
        });
        Ok(ExposureHandle::new(shared))
    }
}

/// Journals an expired interrupt as a message that did not run: `approval: {approved: false, by: "expiry",
/// expired: true}`, at the version current when it expired.
fn expiry_journal(
    journal: &Arc<Journal>,
    snapshot: tokio::sync::watch::Receiver<Arc<Snapshot>>,
) -> interrupts::ExpiredFn {
    let journal = Arc::downgrade(journal);
    Box::new(move |interrupt: &Interrupt, waited: Duration| {
        let Some(journal) = journal.upgrade() else {
            return;
        };
        journal.record(JournalEntry {
            name: interrupt.message.clone(),
            args: interrupt.args.clone(),
            version: snapshot.borrow().version,
            sender: interrupt.sender.clone(),
            approval: Some(ApprovalRecord {
                interrupt: interrupt.id.clone(),
                approved: false,
                by: EXPIRY.to_owned(),
                reason: Some(format!(
                    "nobody answered within {} s",
                    waited.as_secs_f64().round() as u64
                )),
                expired: true,
                refused: false,
            }),
        });
    })
}

/// Builds a fresh copy of an app's graph on the fork's graph thread and registers it on the exposure given; returns
/// what must live as long as the fork (the app struct, usually).
pub(crate) type ForkSetup =
    Arc<dyn Fn(&mut Exposure) -> Result<Box<dyn std::any::Any>, ExposeError> + Send + Sync>;

/// The JSON published for a value that could not be read or encoded.
fn error_value(message: &str) -> Value {
    serde_json::json!({ "error": message })
}
