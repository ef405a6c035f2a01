//! Forks over MCP: the `fork` and `drop_fork` tools, `dispatch {fork}`, `dispatch {dryRun: true}`,
//! `dispatch {conversation}`, `snapshot {fork}` and `diff {fork}`, and the book of live forks (their owners, limits
//! and idle timeout).
//!
//! A fork ([`crate::exposure::fork`]) belongs to the session that made it: other sessions do not see its id, and it
//! is dropped when that session ends (a stdio connection closes; a Streamable HTTP session is deleted, ended at the
//! cap, or idles past its keep-alive), on `drop_fork`, and after
//! [`McpAdapterOptions::fork_idle_timeout`](super::McpAdapterOptions::fork_idle_timeout) without a call naming it.
//! A conversation's fork (`conversation: "..."`, mekik's `conversationId`) belongs to the conversation instead: any
//! session naming the conversation reaches it, and only `drop_fork` or the idle timeout drop it. At most
//! [`McpAdapterOptions::max_forks`](super::McpAdapterOptions::max_forks) forks live at once per adapter; a
//! `dispatch {dryRun: true}` makes a fork that is dropped before it answers and is not counted.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::{Value, json};

use super::caller::Caller;
use super::{dispatch, state, text};
use crate::exposure::ExposureHandle;
use crate::exposure::fork::{Fork, ForkOptions};

/// The `fork` tool's name.
pub(crate) const FORK: &str = "fork";
/// The `drop_fork` tool's name.
pub(crate) const DROP_FORK: &str = "drop_fork";

/// How many forks live at once per adapter by default.
pub const DEFAULT_MAX_FORKS: usize = 8;

/// How long a fork lives without a call naming it, by default: 10 minutes.
pub const DEFAULT_FORK_IDLE_TIMEOUT: Duration = Duration::from_secs(600);

/// How many dropped forks are remembered, so a call naming one says why it is gone.
const REMEMBERED: usize = 64;

/// The longest conversation id taken.
const MAX_CONVERSATION_CHARS: usize = 128;

/// The live forks of one adapter.
pub(crate) struct Forks {
    max: usize,
    idle: Duration,
    book: Mutex<Book>,
}

#[derive(Default)]
struct Book {
    live: HashMap<String, Entry>,
    /// Recently dropped forks and why, oldest first.
    gone: VecDeque<(String, String)>,
}

struct Entry {
    fork: Arc<Fork>,
    /// The session that made it; `None` for a conversation's fork (and for a call without a session).
    session: Option<String>,
    conversation: Option<String>,
    used: Instant,
}

/// Which fork a call names.
enum Target {
    Fork(String),
    Conversation(String),
}

impl Forks {
    pub(crate) fn new(max: usize, idle: Duration) -> Arc<Forks> {
        Arc::new(Forks {
            max,
            idle,
            book: Mutex::default(),
        })
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many forks are live.
    pub(crate) fn len(&self) -> usize {
        self.book().live.len()
    }

    /// Drops every fork idle for longer than the timeout.
    fn sweep(&self) {
        let now = Instant::now();
        let idle = self.idle;
        let dropped = self.remove_where(
            |entry| now.duration_since(entry.used) >= idle,
            &format!("idle for more than {}", duration_text(idle)),
        );
        drop(dropped);
    }

    /// Removes the forks `which` picks, remembering `why`; returns them, to be disposed outside the lock.
    fn remove_where(&self, which: impl Fn(&Entry) -> bool, why: &str) -> Vec<Arc<Fork>> {
        let mut book = self.book();
        let ids: Vec<String> = book
            .live
            .iter()
            .filter(|(_, entry)| which(entry))
            .map(|(id, _)| id.clone())
            .collect();
        let mut dropped = Vec::new();
        for id in ids {
            if let Some(entry) = book.live.remove(&id) {
                dropped.push(entry.fork);
                book.gone.push_back((id, why.to_owned()));
                while book.gone.len() > REMEMBERED {
                    book.gone.pop_front();
                }
            }
        }
        dropped
    }

    /// Removes fork `id`, remembering `why`; returns it, to be disposed outside the lock.
    fn remove(&self, id: &str, why: &str) -> Option<Arc<Fork>> {
        let mut book = self.book();
        let entry = book.live.remove(id)?;
        book.gone.push_back((id.to_owned(), why.to_owned()));
        while book.gone.len() > REMEMBERED {
            book.gone.pop_front();
        }
        Some(entry.fork)
    }

    /// Drops the forks of `session` (it ended).
    pub(crate) fn end_session(&self, session: &str) {
        let dropped = self.remove_where(
            |entry| entry.session.as_deref() == Some(session),
            "the session that made it ended",
        );
        drop(dropped);
    }

    /// Drops every fork (the adapter is disposed).
    pub(crate) fn clear(&self) {
        let dropped = self.remove_where(|_| true, "the server stopped serving");
        drop(dropped);
    }

    /// The fork `target` names, as `session` may reach it; a conversation's fork is made when it has none yet.
    /// Touches it (its idle time starts again).
    async fn reach(
        self: &Arc<Self>,
        live: &ExposureHandle,
        target: &Target,
        session: Option<&String>,
    ) -> Result<(String, Arc<Fork>, bool), String> {
        self.sweep();
        match target {
            Target::Fork(id) => self
                .touch(id, session)
                .map(|fork| (id.clone(), fork, false)),
            Target::Conversation(conversation) => {
                let found = {
                    let mut book = self.book();
                    let now = Instant::now();
                    book.live
                        .iter_mut()
                        .find(|(_, entry)| entry.conversation.as_ref() == Some(conversation))
                        .map(|(id, entry)| {
                            entry.used = now;
                            (id.clone(), entry.fork.clone())
                        })
                };
                match found {
                    Some((id, fork)) => Ok((id, fork, false)),
                    None => self
                        .make(live, None, Some(conversation.clone()))
                        .await
                        .map(|(id, fork)| (id, fork, true)),
                }
            }
        }
    }

    /// The fork `id`, when `session` may reach it; touched.
    fn touch(&self, id: &str, session: Option<&String>) -> Result<Arc<Fork>, String> {
        let mut book = self.book();
        let reachable = book
            .live
            .get(id)
            .is_some_and(|entry| entry.conversation.is_some() || entry.session.as_ref() == session);
        if reachable && let Some(entry) = book.live.get_mut(id) {
            entry.used = Instant::now();
            return Ok(entry.fork.clone());
        }
        if let Some((_, why)) = book.gone.iter().rev().find(|(gone, _)| gone == id) {
            return Err(format!(
                "fork {} was dropped ({why}); make a new one with fork",
                text::quoted(id)
            ));
        }
        let mut yours: Vec<&String> = book
            .live
            .iter()
            .filter(|(_, entry)| entry.conversation.is_none() && entry.session.as_ref() == session)
            .map(|(id, _)| id)
            .collect();
        yours.sort();
        let yours = if yours.is_empty() {
            "this session has none".to_owned()
        } else {
            let names: Vec<String> = yours.iter().map(|id| text::quoted(id)).collect();
            format!("this session's are {}", names.join(", "))
        };
        Err(format!(
            "no fork {}: {yours} (fork makes one)",
            text::quoted(id)
        ))
    }

    /// Makes a fork of `live` owned by `session` (or by `conversation`), unless the limit is reached.
    async fn make(
        self: &Arc<Self>,
        live: &ExposureHandle,
        session: Option<String>,
        conversation: Option<String>,
    ) -> Result<(String, Arc<Fork>), String> {
        if self.len() >= self.max {
            return Err(format!(
                "at most {} forks live at once on this server, and {} do: drop one with drop_fork {{fork}} (or wait \
                 for an idle one to be dropped after {}), or try a message with dispatch {{dryRun: true}}, which keeps \
                 no fork",
                self.max,
                self.len(),
                duration_text(self.idle)
            ));
        }
        let fork = live
            .fork(ForkOptions::default())
            .await
            .map_err(|e| e.to_string())?;
        let fork = Arc::new(fork);
        let id = format!("f-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        {
            let mut book = self.book();
            if book.live.len() >= self.max {
                return Err(format!(
                    "at most {} forks live at once on this server: drop one with drop_fork {{fork}}",
                    self.max
                ));
            }
            book.live.insert(
                id.clone(),
                Entry {
                    fork: fork.clone(),
                    session: if conversation.is_some() {
                        None
                    } else {
                        session
                    },
                    conversation,
                    used: Instant::now(),
                },
            );
        }
        self.watch_idle(&id);
        Ok((id, fork))
    }

    /// Drops fork `id` once it has been idle for the timeout (a timer on the caller's runtime).
    fn watch_idle(self: &Arc<Self>, id: &str) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return; // swept on the next call instead
        };
        let forks: Weak<Forks> = Arc::downgrade(self);
        let id = id.to_owned();
        runtime.spawn(async move {
            loop {
                let due = {
                    let Some(forks) = forks.upgrade() else { return };
                    let book = forks.book();
                    let Some(entry) = book.live.get(&id) else {
                        return;
                    };
                    entry.used + forks.idle
                };
                tokio::time::sleep_until(due.into()).await;
                let Some(forks) = forks.upgrade() else { return };
                forks.sweep();
            }
        });
    }
}

/// `500 ms`, `30 s`, `10 min`.
fn duration_text(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(60_000) {
        format!("{} min", ms / 60_000)
    } else {
        format!("{} s", duration.as_secs())
    }
}

/// Reads the `fork` and `conversation` arguments: `None` when neither is given.
fn target(arguments: Option<&JsonObject>) -> Result<Option<Target>, String> {
    let fork = arguments.and_then(|a| a.get("fork"));
    let conversation = arguments.and_then(|a| a.get("conversation"));
    match (fork, conversation) {
        (None | Some(Value::Null), None | Some(Value::Null)) => Ok(None),
        (Some(fork), Some(conversation)) if !fork.is_null() && !conversation.is_null() => Err(
            "give \"fork\" (a fork's id) or \"conversation\" (a conversation's id), not both"
                .to_owned(),
        ),
        (Some(Value::String(id)), _) => Ok(Some(Target::Fork(id.clone()))),
        (Some(other), _) if !other.is_null() => Err(format!(
            "\"fork\" must be a fork's id, a string such as \"f-3fa85f6457b2\" (the fork tool answers one), got {}",
            text::compact(other)
        )),
        (_, Some(Value::String(conversation)))
            if !conversation.is_empty()
                && conversation.chars().count() <= MAX_CONVERSATION_CHARS =>
        {
            Ok(Some(Target::Conversation(conversation.clone())))
        }
        (_, Some(other)) => Err(format!(
            "\"conversation\" must be a conversation's id, a string of 1 to {MAX_CONVERSATION_CHARS} characters, got {}",
            clipped(other)
        )),
        _ => Ok(None),
    }
}

/// A client's value in an error, clipped.
fn clipped(value: &Value) -> String {
    crate::text::clip(&text::compact(value), 80).into_owned()
}

/// `arguments` without the keys `keys`.
fn without(arguments: Option<&JsonObject>, keys: &[&str]) -> Option<JsonObject> {
    arguments.map(|arguments| {
        let mut arguments = arguments.clone();
        for key in keys {
            arguments.remove(*key);
        }
        arguments
    })
}

fn error(reason: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(reason)])
}

/// How a fork is named in answers: `fork "f-…"`, with its conversation when it has one.
fn label(id: &str, target: &Target) -> String {
    match target {
        Target::Conversation(conversation) => {
            format!(
                "fork {} of conversation {}",
                text::quoted(id),
                text::quoted(conversation)
            )
        }
        Target::Fork(_) => format!("fork {}", text::quoted(id)),
    }
}

/// `fork {conversation?}`: makes a fork of the live app (or finds the conversation's) and answers its id.
pub(crate) async fn fork_tool(
    forks: &Arc<Forks>,
    live: &ExposureHandle,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> CallToolResult {
    if let Some(key) = arguments.and_then(|a| a.keys().find(|key| *key != "conversation")) {
        return error(format!(
            "unknown property {}; fork takes \"conversation\" (optional: a conversation's id, to keep one fork per \
             conversation)",
            text::quoted(key)
        ));
    }
    let target = match target(arguments) {
        Ok(target) => target,
        Err(reason) => return error(reason),
    };
    forks.sweep();
    let (id, fork, made, target) = match target {
        Some(target) => match forks.reach(live, &target, caller.session.as_ref()).await {
            Ok((id, fork, made)) => (id, fork, made, target),
            Err(reason) => return error(reason),
        },
        None => match forks.make(live, caller.session.clone(), None).await {
            Ok((id, fork)) => (id.clone(), fork, true, Target::Fork(id)),
            Err(reason) => return error(reason),
        },
    };
    let snapshot = fork.handle().snapshot();
    let mut answer = format!(
        "{} {} at live v{}: {}\n",
        if made { "made" } else { "reusing" },
        label(&id, &target),
        fork.base_version(),
        text::state_line(snapshot.version, &snapshot.values)
    );
    let _ = write!(
        answer,
        "Try messages with dispatch {{\"fork\": {}, ...}}, compare with the live app with diff {{\"fork\": {}}}, and \
         drop it with drop_fork when done (it is dropped after {} idle{}). Nothing sent to it reaches the live app.",
        text::quoted(&id),
        text::quoted(&id),
        duration_text(forks.idle),
        if matches!(target, Target::Conversation(_)) {
            ""
        } else {
            " or when this session ends"
        }
    );
    let mut result = CallToolResult::success(vec![ContentBlock::text(answer)]);
    let mut structured = json!({"fork": id, "version": fork.base_version()});
    if let Target::Conversation(conversation) = &target {
        structured["conversation"] = Value::from(conversation.clone());
    }
    result.structured_content = Some(structured);
    result
}

/// `drop_fork {fork}` or `drop_fork {conversation}`.
pub(crate) fn drop_tool(
    forks: &Arc<Forks>,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> CallToolResult {
    if let Some(key) = arguments.and_then(|a| {
        a.keys()
            .find(|key| !matches!(key.as_str(), "fork" | "conversation"))
    }) {
        return error(format!(
            "unknown property {}; drop_fork takes \"fork\" (a fork's id) or \"conversation\" (a conversation's id)",
            text::quoted(key)
        ));
    }
    let target = match target(arguments) {
        Ok(Some(target)) => target,
        Ok(None) => {
            return error(
                "missing \"fork\": pass the id the fork tool answered (or \"conversation\" for a conversation's fork)"
                    .to_owned(),
            );
        }
        Err(reason) => return error(reason),
    };
    forks.sweep();
    let id = match &target {
        Target::Fork(id) => match forks.touch(id, caller.session.as_ref()) {
            Ok(_) => id.clone(),
            Err(reason) => return error(reason),
        },
        Target::Conversation(conversation) => {
            let book = forks.book();
            match book
                .live
                .iter()
                .find(|(_, entry)| entry.conversation.as_ref() == Some(conversation))
            {
                Some((id, _)) => id.clone(),
                None => {
                    return error(format!(
                        "conversation {} has no fork",
                        text::quoted(conversation)
                    ));
                }
            }
        }
    };
    let dropped = forks.remove(&id, "dropped on request");
    let answer = format!("dropped {}", label(&id, &target));
    drop(dropped);
    CallToolResult::success(vec![ContentBlock::text(answer)])
}

/// `dispatch` with `fork`, `conversation` or `dryRun`: runs the messages on that fork (or on a fork made for this
/// call and dropped before it answers), with the same step lines as on the live app. `None` when the call names
/// none of them (it goes to the live app).
pub(crate) async fn dispatch(
    forks: &Arc<Forks>,
    live: &ExposureHandle,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> Option<CallToolResult> {
    let dry_run = match arguments.and_then(|a| a.get("dryRun")) {
        None | Some(Value::Null | Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(other) => {
            return Some(error(format!(
                "\"dryRun\" must be true or false (try the messages on a copy of the app, then drop it), got {}",
                clipped(other)
            )));
        }
    };
    let target = match target(arguments) {
        Ok(target) => target,
        Err(reason) => return Some(error(reason)),
    };
    let messages = without(arguments, &["fork", "conversation", "dryRun"]);
    match (dry_run, target) {
        (false, None) => None,
        (true, Some(_)) => Some(error(
            "dryRun makes a fork of its own and drops it: leave out \"fork\" and \"conversation\" (or leave out \
             dryRun to keep trying on that fork)"
                .to_owned(),
        )),
        (true, None) => {
            let fork = match live.fork(ForkOptions::default()).await {
                Ok(fork) => fork,
                Err(reason) => return Some(error(reason.to_string())),
            };
            let (failed, answer) = dispatch::run(fork.handle(), caller, messages.as_ref()).await;
            let head = format!(
                "dry run on a fork of live v{} (dropped now; the live app is unchanged):{}",
                fork.base_version(),
                gated_note(live, messages.as_ref())
            );
            fork.dispose();
            Some(answered(failed, head, &answer))
        }
        (false, Some(target)) => {
            let (id, fork, made) = match forks.reach(live, &target, caller.session.as_ref()).await
            {
                Ok(reached) => reached,
                Err(reason) => return Some(error(reason)),
            };
            let (failed, answer) = dispatch::run(fork.handle(), caller, messages.as_ref()).await;
            let head = format!(
                "on {}{} made at live v{} (the live app is unchanged):{}",
                if made { "new " } else { "" },
                label(&id, &target),
                fork.base_version(),
                gated_note(live, messages.as_ref())
            );
            Some(answered(failed, head, &answer))
        }
    }
}

/// A note for messages of the call that wait for a person's approval on the live app: on a fork they run at once
/// (a fork reaches nothing outside), and the agent is told so rather than left to think a person said yes. Empty
/// when there are none.
fn gated_note(live: &ExposureHandle, messages: Option<&JsonObject>) -> String {
    let Some(messages) = messages else {
        return String::new();
    };
    let named = messages.get("message").into_iter().chain(
        messages
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|m| m.get("message")),
    );
    let gated = live.gated_messages();
    let mut asked: Vec<&str> = Vec::new();
    for name in named.filter_map(Value::as_str) {
        if gated.iter().any(|g| g == name) && !asked.contains(&name) {
            asked.push(name);
        }
    }
    if asked.is_empty() {
        return String::new();
    }
    format!(
        "\n{} would wait for a person's approval on the live app; a fork reaches nothing outside, so here {} without \
         asking",
        asked.join(", "),
        if asked.len() == 1 {
            "it runs"
        } else {
            "they run"
        }
    )
}

fn answered(failed: bool, head: String, answer: &str) -> CallToolResult {
    let text = format!("{head}\n{answer}");
    if failed {
        error(text)
    } else {
        CallToolResult::success(vec![ContentBlock::text(text)])
    }
}

/// `snapshot {fork}`: the fork's state document. `None` when the call names no fork.
pub(crate) async fn snapshot(
    forks: &Arc<Forks>,
    live: &ExposureHandle,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> Option<CallToolResult> {
    let target = match target(arguments) {
        Ok(Some(target)) => target,
        Ok(None) => return None,
        Err(reason) => return Some(error(reason)),
    };
    let (_, fork, _) = match forks.reach(live, &target, caller.session.as_ref()).await {
        Ok(reached) => reached,
        Err(reason) => return Some(error(reason)),
    };
    let rest = without(arguments, &["fork", "conversation"]);
    Some(state::snapshot(fork.handle(), rest.as_ref()))
}

/// `diff {fork}`: what differs between the live app now and the fork, value by value (live→fork), then the
/// messages the fork ran since it was made. `None` when the call names no fork.
pub(crate) async fn diff(
    forks: &Arc<Forks>,
    live: &ExposureHandle,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> Option<CallToolResult> {
    let target = match target(arguments) {
        Ok(Some(target)) => target,
        Ok(None) => return None,
        Err(reason) => return Some(error(reason)),
    };
    if let Some(key) = arguments.and_then(|a| {
        a.keys()
            .find(|key| !matches!(key.as_str(), "fork" | "conversation"))
    }) {
        return Some(error(format!(
            "{} does not go with \"fork\": diff {{fork}} compares the fork now with the live app now",
            text::quoted(key)
        )));
    }
    let (id, fork, _) = match forks.reach(live, &target, caller.session.as_ref()).await {
        Ok(reached) => reached,
        Err(reason) => return Some(error(reason)),
    };
    let (now, tried) = (live.snapshot(), fork.handle().snapshot());
    let mut answer = format!(
        "live v{} → {} v{}: {}",
        now.version,
        label(&id, &target),
        tried.version,
        text::changes_text(&now.changes_to(&tried))
    );
    let journal = fork.handle().journal();
    let shown = journal.len().min(text::DIFF_MESSAGES_MAX);
    if journal.len() > shown {
        let _ = write!(answer, "\n… {} earlier messages", journal.len() - shown);
    }
    for entry in &journal[journal.len() - shown..] {
        let _ = write!(
            answer,
            "\nv{} {} {} (on the fork)",
            entry.version,
            entry.name,
            text::compact(&entry.args)
        );
    }
    if now.version != fork.base_version() {
        let _ = write!(
            answer,
            "\nthe live app moved on since the fork was made at v{}",
            fork.base_version()
        );
    }
    Some(CallToolResult::success(vec![ContentBlock::text(answer)]))
}
