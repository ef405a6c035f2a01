//! The `dispatch` tool: one message or a sequence, answered with step lines and the final state line (the call
//! itself, with elicitation for messages that need approval, is in `approval.rs`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::JsonObject;
use serde_json::Value;

use super::caller::Caller;
use super::text;
use crate::async_memo::FlightInfo;
use crate::exposure::{
    DispatchRejection, ExposureHandle, Interrupt, SequenceOutcome, Snapshot, Step,
};

/// One requested message, or the reason its entry is malformed.
type Entry = Result<(String, Value), String>;

/// Dispatches what the call's arguments hold (`message`/`args` or `messages`) and returns whether it was rejected
/// (entirely or part way) and the answer's text. `explain` dispatches through it (traced builds).
pub(crate) async fn run(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> (bool, String) {
    let (failed, text, _) = run_pausing(handle, caller, arguments).await;
    (failed, text)
}

/// [`run`], also returning the interrupt the dispatch paused at (a message needing approval); a pause is not a
/// rejection, and its text says how to answer (see [`super::approval`]).
pub(crate) async fn run_pausing(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> (bool, String, Option<Interrupt>) {
    let known = handle.message_names();
    let settle = match settle_option(arguments) {
        Ok(settle) => settle,
        Err(reason) => return (true, reason, None),
    };
    let stripped = arguments.map(|arguments| {
        let mut arguments = arguments.clone();
        arguments.remove("settle");
        arguments.remove("settleMs");
        arguments
    });
    let arguments = stripped.as_ref();
    // Flights that start from here on were started by these messages (or by messages sent meanwhile).
    let began = Instant::now();
    let entries = match parse(arguments, &known) {
        Ok(entries) => entries,
        Err(reason) => return (true, reason, None),
    };
    let total = entries.len();
    // dispatch the well-formed prefix: a malformed or unknown entry stops the sequence where it stands
    let mut prefix = Vec::new();
    let mut malformed = None;
    for (index, entry) in entries.into_iter().enumerate() {
        match entry {
            Ok((name, _)) if !known.contains(&name) => {
                let unknown = DispatchRejection::UnknownMessage {
                    name,
                    known: known.clone(),
                };
                malformed = Some((index + 1, unknown.to_string()));
                break;
            }
            Ok(message) => prefix.push(message),
            Err(reason) => {
                malformed = Some((index + 1, reason));
                break;
            }
        }
    }
    let outcome = if prefix.is_empty() {
        None
    } else {
        Some(handle.dispatch_all_as(&caller.sender, prefix).await)
    };
    let snapshot = outcome
        .as_ref()
        .map_or_else(|| handle.snapshot(), |o| o.snapshot.clone());
    let steps = outcome.as_ref().map_or(&[][..], |o| &o.steps[..]);
    let stopped = outcome
        .as_ref()
        .and_then(|o| o.stopped.as_ref())
        .map(|stop| (stop.position, rejection_text(&stop.rejection, Some(caller))))
        .or(malformed);
    if let Some(interrupt) = outcome.as_ref().and_then(SequenceOutcome::paused) {
        caller.opened(interrupt, handle);
        let lines = text::step_lines(steps);
        let text = text::paused_text(
            &lines,
            interrupt,
            Some(total),
            &caller.visible(handle),
            &snapshot,
        );
        return (false, text, Some(interrupt.clone()));
    }
    match settle {
        Some(timeout) if stopped.is_none() => {
            let Some((settled, pending)) = wait_settled(handle, caller, began, timeout).await
            else {
                return (true, text::CANCELLED.to_owned(), None);
            };
            let (failed, text) = render(steps, None, Some(total), &settled);
            let changes = snapshot.changes_to(&settled);
            (
                failed,
                text::settled_text(&text, settled.version, &changes, timeout, &pending),
                None,
            )
        }
        _ => {
            let (failed, text) = render(steps, stopped, Some(total), &snapshot);
            (failed, text, None)
        }
    }
}

/// `settle` and `settleMs`: how long to wait for the flights the messages start (`None`: answer at once).
/// `settle: true` waits up to [`text::DEFAULT_TIMEOUT_MS`]; `settleMs` (at most [`text::MAX_TIMEOUT_MS`]) sets the
/// bound and implies `settle`, unless `settle` is `false`.
fn settle_option(arguments: Option<&JsonObject>) -> Result<Option<Duration>, String> {
    let Some(arguments) = arguments else {
        return Ok(None);
    };
    let settle = match arguments.get("settle") {
        None => None,
        Some(Value::Bool(settle)) => Some(*settle),
        Some(other) => return Err(text::bad_settle(other)),
    };
    let ms = match arguments.get("settleMs") {
        None => None,
        Some(value) => match value.as_u64() {
            Some(ms) => Some(ms.min(text::MAX_TIMEOUT_MS)),
            None => return Err(text::bad_settle_ms(value)),
        },
    };
    Ok(match (settle, ms) {
        (Some(false), _) | (None, None) => None,
        (_, Some(ms)) => Some(Duration::from_millis(ms)),
        (Some(true), None) => Some(Duration::from_millis(text::DEFAULT_TIMEOUT_MS)),
    })
}

/// Waits until no flight started since `began` is pending, `timeout` ran out, or the client cancelled the call
/// (then at once, letting go of the wait: `None`). Returns the snapshot then, and the flights still pending (empty when all
/// settled), one line each. A memo is named `name#id` by its exposed name, else by the trace (traced builds), else
/// `#id`.
async fn wait_settled(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    began: Instant,
    timeout: Duration,
) -> Option<(Arc<Snapshot>, Vec<String>)> {
    let settled = tokio::select! {
        settled = handle.wait_settled(began, timeout) => settled,
        // rmcp keeps running a cancelled request's handler: let go of the wait now (its answer is dropped)
        () = caller.cancelled.cancelled() => return None,
    };
    if settled.pending.is_empty() {
        return Some((settled.snapshot, Vec::new()));
    }
    let exposed = handle.node_names();
    let flights = settled.pending.clone();
    let named = handle
        .on_graph(move || pending_lines(&flights, &exposed))
        .await
        .unwrap_or_else(|_| pending_lines_untraced(&settled.pending, &handle.node_names()));
    Some((settled.snapshot, named))
}

/// The pending flights, one line each, named on the graph thread (the trace names unexposed memos there).
fn pending_lines(flights: &[FlightInfo], exposed: &[(String, crate::NodeId)]) -> Vec<String> {
    flights
        .iter()
        .map(|flight| {
            let name = match exposed.iter().find(|(_, id)| *id == flight.node) {
                Some((name, id)) => format!("{name}{id}"),
                None => crate::trace::info(flight.node)
                    .map(|info| info.node.to_string())
                    .unwrap_or_else(|_| flight.node.to_string()),
            };
            flight_line(&name, flight)
        })
        .collect()
}

/// [`pending_lines`] without the graph thread (the host is gone): exposed names, else `#id`.
fn pending_lines_untraced(
    flights: &[FlightInfo],
    exposed: &[(String, crate::NodeId)],
) -> Vec<String> {
    flights
        .iter()
        .map(|flight| {
            let name = match exposed.iter().find(|(_, id)| *id == flight.node) {
                Some((name, id)) => format!("{name}{id}"),
                None => flight.node.to_string(),
            };
            flight_line(&name, flight)
        })
        .collect()
}

fn flight_line(name: &str, flight: &FlightInfo) -> String {
    format!(
        "{name} flight {} (started by run {}, {} ms ago): {}",
        flight.number,
        flight.run,
        flight.age.as_millis(),
        flight.stage.text()
    )
}

/// The text of a dispatch: the step lines and the state line, or for a rejection its reason (alone when the call
/// held one message). Returns whether it is a rejection.
fn render(
    steps: &[Step],
    stopped: Option<(usize, String)>,
    total: Option<usize>,
    snapshot: &Snapshot,
) -> (bool, String) {
    let lines: Vec<String> = steps.iter().map(step_line).collect();
    let state = text::state_line(snapshot.version, &snapshot.values);
    match stopped {
        None => (false, text::dispatch_result(&lines, &state)),
        Some((_, reason)) if total == Some(1) || (total.is_none() && lines.is_empty()) => {
            (true, reason)
        }
        Some((position, reason)) => (
            true,
            text::sequence_stopped(position, total, &reason, &lines, &state),
        ),
    }
}

/// The text `dispatch` answers for `outcome`; see [`crate::mcp::sequence_text`].
pub(crate) fn sequence_text(outcome: &SequenceOutcome) -> String {
    if let Some(interrupt) = outcome.paused() {
        let lines = text::step_lines(&outcome.steps);
        return text::paused_text(&lines, interrupt, None, &[], &outcome.snapshot);
    }
    let stopped = outcome
        .stopped
        .as_ref()
        .map(|stop| (stop.position, rejection_text(&stop.rejection, None)));
    render(&outcome.steps, stopped, None, &outcome.snapshot).1
}

fn step_line(step: &Step) -> String {
    text::step_line(
        step.position,
        &step.name,
        &step.args,
        step.version,
        &step.changes,
    )
}

/// Reads `{message, args}` or `{messages: [...]}` into entries; an error here dispatches nothing.
fn parse(arguments: Option<&JsonObject>, known: &[String]) -> Result<Vec<Entry>, String> {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    match (arguments.get("message"), arguments.get("messages")) {
        (Some(_), Some(_)) => Err(text::both_message_forms()),
        (None, None) => Err(text::missing_message(known)),
        (Some(_), None) => entry(arguments, known).map(|message| vec![Ok(message)]),
        (None, Some(_)) if let Some(key) = arguments.keys().find(|key| *key != "messages") => {
            Err(text::unknown_sequence_property(key))
        }
        (None, Some(Value::Array(items))) if !items.is_empty() => Ok(items
            .iter()
            .map(|item| match item {
                Value::Object(fields) => entry(fields, known),
                other => Err(text::bad_entry(other)),
            })
            .collect()),
        (None, Some(other)) => Err(text::bad_messages(other)),
    }
}

/// One `{message, args}` object; `args` defaults to `{}`. Any other property is an error (a misspelt `args` would
/// otherwise send the message without its arguments).
fn entry(fields: &JsonObject, known: &[String]) -> Entry {
    if let Some(key) = fields
        .keys()
        .find(|key| !matches!(key.as_str(), "message" | "args"))
    {
        return Err(text::unknown_message_property(key));
    }
    let name = match fields.get("message") {
        Some(Value::String(name)) => name.clone(),
        Some(other) => return Err(text::non_string_message(other, known)),
        None => return Err(text::missing_message(known)),
    };
    let args = fields
        .get("args")
        .cloned()
        .unwrap_or_else(|| Value::Object(JsonObject::new()));
    Ok((name, args))
}

/// The reason a model reads for a rejection from the exposure: its `Display`, except that a refusal while an
/// interrupt is open names the interrupt as `caller` may see it.
fn rejection_text(rejection: &DispatchRejection, caller: Option<&Caller<'_>>) -> String {
    match (rejection, caller) {
        (DispatchRejection::PendingApproval { name, interrupt }, Some(caller)) => {
            text::pending_text(name, interrupt, caller.sees(interrupt))
        }
        (other, _) => other.to_string(),
    }
}
