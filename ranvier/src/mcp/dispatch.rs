//! The `dispatch` tool: one message or a sequence, answered with step lines and the final state line.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::Value;

use super::text;
use crate::exposure::{DispatchRejection, ExposureHandle, SequenceOutcome, Snapshot, Step};

/// One requested message, or the reason its entry is malformed.
type Entry = Result<(String, Value), String>;

/// Runs `dispatch` with the call's arguments; every rejection is a tool error a model can act on.
/// `sender` names the client in the exposure's journal.
pub(crate) async fn call(
    handle: &ExposureHandle,
    sender: &str,
    arguments: Option<&JsonObject>,
) -> CallToolResult {
    let known = handle.message_names();
    let entries = match parse(arguments, &known) {
        Ok(entries) => entries,
        Err(reason) => return error(reason),
    };
    let total = entries.len();
    // dispatch the well-formed prefix: a malformed or unknown entry stops the sequence where it stands
    let mut prefix = Vec::new();
    let mut malformed = None;
    for (index, entry) in entries.into_iter().enumerate() {
        match entry {
            Ok((name, _)) if !known.contains(&name) => {
                malformed = Some((index + 1, text::unknown_message(&name, &known)));
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
        Some(handle.dispatch_all_as(sender, prefix).await)
    };
    let snapshot = outcome
        .as_ref()
        .map_or_else(|| handle.snapshot(), |o| o.snapshot.clone());
    let steps = outcome.as_ref().map_or(&[][..], |o| &o.steps[..]);
    let stopped = outcome
        .as_ref()
        .and_then(|o| o.stopped.as_ref())
        .map(|stop| (stop.position, rejection_text(&stop.rejection)))
        .or(malformed);
    let (failed, text) = render(steps, stopped, Some(total), &snapshot);
    if failed {
        error(text)
    } else {
        CallToolResult::success(vec![ContentBlock::text(text)])
    }
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
    let stopped = outcome
        .stopped
        .as_ref()
        .map(|stop| (stop.position, rejection_text(&stop.rejection)));
    render(&outcome.steps, stopped, None, &outcome.snapshot).1
}

fn error(reason: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(reason)])
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

/// One `{message, args}` object; `args` defaults to `{}`.
fn entry(fields: &JsonObject, known: &[String]) -> Entry {
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

/// The reason a model reads for a rejection from the exposure.
fn rejection_text(rejection: &DispatchRejection) -> String {
    match rejection {
        DispatchRejection::UnknownMessage { name, known } => text::unknown_message(name, known),
        DispatchRejection::InvalidArgs { name, error, shape } => {
            text::decoder_error(name, error, shape.as_deref())
        }
        DispatchRejection::DecoderPanicked { name, panic, shape } => {
            text::decoder_panic(name, panic, shape.as_deref())
        }
        DispatchRejection::UpdatePanicked { name, error } => text::update_panic(name, error),
        DispatchRejection::Host(error) => text::host_gone(&error.to_string()),
    }
}
