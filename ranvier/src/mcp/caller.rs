//! Who is calling a tool over MCP (the sender recorded for it and the session it came in on), and which interrupts
//! that caller may see and answer: the identity that `dispatch`, `resume` and the traced tools share.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use super::Answerers;
use crate::exposure::{ExposureHandle, Interrupt};

/// The senders only the app (`app`, in-process dispatch) and a person on the live page (`person`) are recorded as.
pub(crate) const RESERVED_SENDERS: [&str; 2] = ["app", "person"];

/// `name`, unless it is a reserved sender (in any case, spaces around it ignored): then `mcp:<name>`, a name that
/// cannot read as the app or a person.
pub(crate) fn unreserved(name: String) -> String {
    let bare = name.trim();
    if RESERVED_SENDERS
        .iter()
        .any(|reserved| bare.eq_ignore_ascii_case(reserved))
    {
        format!("mcp:{bare}")
    } else {
        name
    }
}

/// Which session opened each interrupt opened over MCP, and so who may see and answer it.
pub(crate) struct Owners {
    answerers: Answerers,
    /// Interrupt id → the session whose call opened it (`None`: a call without a session). Holds only open
    /// interrupts: each registration forgets the ones closed since.
    opened: Mutex<HashMap<String, Option<String>>>,
}

impl Owners {
    pub(crate) fn new(answerers: Answerers) -> Owners {
        Owners {
            answerers,
            opened: Mutex::new(HashMap::new()),
        }
    }

    fn opened(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<String>>> {
        self.opened.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Who is calling a tool: the sender name recorded for it, and the session it came in on.
pub(crate) struct Caller<'a> {
    /// The name recorded as the sender (the client's name, or the adapter's fixed sender).
    pub(crate) sender: String,
    /// The session of the call, when it has one.
    pub(crate) session: Option<String>,
    pub(crate) owners: &'a Owners,
    /// Cancelled when the client cancels the request (`notifications/cancelled`): a wait the call makes (a
    /// `dispatch`'s `settle`) ends then.
    pub(crate) cancelled: tokio_util::sync::CancellationToken,
}

impl Caller<'_> {
    /// Records that this caller's call opened `interrupt` (and forgets the interrupts no longer open).
    pub(crate) fn opened(&self, interrupt: &Interrupt, handle: &ExposureHandle) {
        let open = handle.interrupts();
        let mut opened = self.owners.opened();
        opened.retain(|id, _| open.iter().any(|o| &o.id == id));
        opened.insert(interrupt.id.clone(), self.session.clone());
    }

    /// Whether this caller may answer interrupt `id` (it opened it, or any session may).
    pub(crate) fn may_answer(&self, id: &str) -> bool {
        match self.owners.answerers {
            Answerers::AnySession => true,
            Answerers::OwnSession => self.owners.opened().get(id) == Some(&self.session),
        }
    }

    /// Whether this caller is shown `interrupt`'s id in listings (`snapshot`, the open interrupts an error lists).
    /// A call without a session is shown none: it learns the ids of its own from their answers.
    pub(crate) fn sees(&self, interrupt: &Interrupt) -> bool {
        match self.owners.answerers {
            Answerers::AnySession => true,
            Answerers::OwnSession => {
                self.session.is_some()
                    && self.owners.opened().get(&interrupt.id) == Some(&self.session)
            }
        }
    }

    /// The open interrupts this caller is shown.
    pub(crate) fn visible(&self, handle: &ExposureHandle) -> Vec<Interrupt> {
        handle
            .interrupts()
            .into_iter()
            .filter(|interrupt| self.sees(interrupt))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::unreserved;

    #[test]
    fn reserved_senders_are_renamed() {
        assert_eq!(unreserved("person".into()), "mcp:person");
        assert_eq!(unreserved(" App ".into()), "mcp:App");
        assert_eq!(unreserved("claude".into()), "claude");
        assert_eq!(unreserved("personal".into()), "personal");
    }
}
