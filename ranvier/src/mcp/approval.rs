//! Human approval over MCP: the `resume` tool, paused `dispatch` results, and elicitation in both protocol eras.
//!
//! When a dispatched message needs a person's approval (see [`crate::exposure::approval`]), `dispatch` runs nothing
//! of it and answers, in text, that it paused: each open interrupt's id, message, arguments and prompt, the messages
//! not run yet, and how to answer with `resume {id, approve, reason}`. Where the client can elicit (it declared
//! form elicitation), the adapter asks the client's user directly instead:
//!
//! - protocol 2025-11-25 and older: an `elicitation/create` request while the `dispatch` call waits (for the
//!   user, the app answering first, or the interrupt's expiry);
//! - protocol 2026-07-28: an `InputRequiredResult` holding the elicitation, with `requestState`
//!   `ranvier-approval:<id>`; the client's retry carries the answer.
//!
//! The user's accept with `approve: true` runs the message (and the ones after it); `approve: false`, decline and
//! cancel drop it. The journal records who answered: the caller's sender name (the client's name, or the adapter's
//! fixed [`sender`](super::McpAdapterOptions::sender); `<sender> (elicitation)` when its user answered an
//! elicitation).
//!
//! Who may answer is [`Answerers`]: by default only the session that opened the interrupt, which alone is shown its
//! id (in `snapshot`, in the lists errors give, in the refusal of a dispatch made while it is open); with
//! [`Answerers::AnySession`] every session sees and may answer every open interrupt. Everything a client sent that
//! these texts echo (names, arguments, prompts, ids, reasons) is quoted and escaped on one line.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ElicitRequest,
    ElicitRequestParams, ElicitationAction, ElicitationSchema, InputRequest, InputRequests,
    InputRequiredResult, JsonObject, ProtocolVersion, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use serde_json::{Value, json};

use super::caller::Caller;
use super::{dispatch, schema, text};
use crate::exposure::approval::interrupt_line;
use crate::exposure::{AnswerError, Answered, Closed, ExposureHandle, Interrupt, InterruptEvent};

/// The name of the tool that answers an interrupt.
pub(crate) const RESUME: &str = "resume";

/// The `requestState` prefix of a 2026-07-28 elicitation round; the interrupt id follows it.
const STATE_PREFIX: &str = "ranvier-approval:";

/// The key of the elicitation in `inputRequests`/`inputResponses`.
const INPUT_KEY: &str = "approval";

/// The sentence the server instructions gain when some message needs approval.
pub(crate) const INSTRUCTIONS: &str = " Some messages need a person's approval: `dispatch` of one runs nothing \
of it and answers that it paused, with the interrupt's id and prompt. Ask the user the prompt, then call `resume \
{id, approve, reason}` with their answer; never approve on your own. Open interrupts are listed by `snapshot`.";

const RESUME_DESCRIPTION: &str = "Answer an interrupt a paused `dispatch` opened, with the user's answer to its \
prompt: {\"id\": \"i-…\", \"approve\": true} runs the paused message and then the messages after it that were not \
run; {\"id\": \"i-…\", \"approve\": false, \"reason\": \"...\"} drops them. Each interrupt is answered once; an \
unknown or already answered id is an error listing the open ones.";

/// Adds what approval needs to the tool list when some message is gated: `resume` after `dispatch`, and the
/// `interrupts` property in `snapshot`'s output schema.
pub(crate) fn extend_tools(tools: &mut Vec<Tool>, handle: &ExposureHandle) {
    if handle.gated_messages().is_empty() {
        return;
    }
    for tool in tools
        .iter_mut()
        .filter(|tool| tool.name == schema::SNAPSHOT)
    {
        if let Some(output) = &tool.output_schema {
            let mut output = (**output).clone();
            if let Some(Value::Object(properties)) = output.get_mut("properties") {
                properties.insert("interrupts".into(), interrupts_schema());
            }
            tool.output_schema = Some(Arc::new(output));
        }
    }
    let at = tools
        .iter()
        .position(|tool| tool.name == schema::DISPATCH)
        .map_or(tools.len(), |at| at + 1);
    tools.insert(at, tool());
}

fn interrupts_schema() -> Value {
    json!({
        "type": "array",
        "description": "The open interrupts (present only when some are open): messages waiting for a person's \
                        approval; answer them with `resume`.",
        "items": {
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "message": {"type": "string"},
                "args": {"type": "object"},
                "prompt": {"type": "string"},
                "sender": {"type": "string"},
                "expiresInMs": {"type": "integer", "minimum": 0}
            },
            "required": ["id", "message", "args", "prompt", "sender", "expiresInMs"]
        }
    })
}

/// The `resume` tool.
pub(crate) fn tool() -> Tool {
    let input = json!({
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "The interrupt's id, as `dispatch` gave it (such as \"i-9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d\")."},
            "approve": {"type": "boolean", "description": "The user's answer: true runs the message, false drops it."},
            "reason": {"type": "string", "description": "Why, in the user's words (recorded in the journal)."}
        },
        "required": ["id", "approve"]
    });
    let Value::Object(input) = input else {
        unreachable!("an object literal")
    };
    Tool::new(RESUME, RESUME_DESCRIPTION, Arc::new(input))
        .with_title("Answer a paused message")
        .with_annotations(
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(false)
                .open_world(false),
        )
}

/// `snapshot`'s result with the open interrupts `caller` is shown added to the document (text and structured
/// content), when any.
pub(crate) fn with_interrupts(
    mut result: CallToolResult,
    handle: &ExposureHandle,
    caller: &Caller<'_>,
) -> CallToolResult {
    let open = caller.visible(handle);
    if open.is_empty() {
        return result;
    }
    let listed = Value::Array(open.iter().map(interrupt_json).collect());
    if let Some(Value::Object(document)) = &mut result.structured_content {
        document.insert("interrupts".into(), listed.clone());
    }
    for block in &mut result.content {
        if let Some(raw) = block.as_text().map(|t| t.text.clone())
            && let Some(body) = raw.strip_suffix('}')
        {
            *block = ContentBlock::text(format!(
                "{body},\"interrupts\":{}}}",
                text::compact(&listed)
            ));
        }
    }
    result
}

fn interrupt_json(interrupt: &Interrupt) -> Value {
    json!({
        "id": interrupt.id,
        "message": interrupt.message,
        "args": interrupt.args,
        "prompt": interrupt.prompt,
        "sender": interrupt.sender,
        "expiresInMs": u64::try_from(interrupt.remaining().as_millis()).unwrap_or(u64::MAX),
    })
}

/// The text of an answered interrupt, and whether it is an error (the resumed sequence stopped at a rejection).
pub(crate) fn answered_text(answered: &Answered, handle: &ExposureHandle) -> (bool, String) {
    let Answered {
        interrupt,
        record,
        outcome,
    } = answered;
    let reason = record
        .reason
        .as_deref()
        .map(|reason| format!(" (reason: {})", text::quoted(reason)))
        .unwrap_or_default();
    let mut out = format!(
        "interrupt {} {} by {}{reason}",
        text::quoted(&interrupt.id),
        if record.approved {
            "approved"
        } else {
            "denied"
        },
        text::quoted(&record.by)
    );
    if interrupt.position > 1 {
        out.push_str(&format!(
            "; messages 1 to {} of its dispatch ran before the pause",
            interrupt.position - 1
        ));
    }
    out.push('\n');
    let Some(outcome) = outcome else {
        out.push_str(&format!(
            "{} {} was not dispatched",
            interrupt.message,
            text::compact(&interrupt.args)
        ));
        if !interrupt.not_run.is_empty() {
            let names: Vec<&str> = interrupt.not_run.iter().map(|(n, _)| n.as_str()).collect();
            out.push_str(&format!(
                ", nor the messages after it ({})",
                names.join(", ")
            ));
        }
        out.push('\n');
        let snapshot = handle.snapshot();
        out.push_str(&text::state_line(snapshot.version, &snapshot.values));
        return (false, out);
    };
    let failed = outcome.stopped.is_some();
    out.push_str(&dispatch::sequence_text(outcome));
    (failed, out)
}

/// `resume {id, approve, reason}`: answers an interrupt as `caller`.
pub(crate) async fn resume(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    arguments: Option<&JsonObject>,
) -> CallToolResult {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    // a misspelt `reason` would otherwise be dropped without a word
    if let Some(unknown) = arguments
        .keys()
        .find(|key| !matches!(key.as_str(), "id" | "approve" | "reason"))
    {
        let mut out = text::unknown_resume_property(unknown);
        out.push_str(&open_list(&handle.interrupts()));
        return error(out);
    }
    let id = match arguments.get("id") {
        Some(Value::String(id)) => id.clone(),
        other => {
            return error(bad_argument(
                "id",
                "the id dispatch gave, a string such as \"i-9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d\"",
                other,
                handle,
                caller,
            ));
        }
    };
    let approve = match arguments.get("approve") {
        Some(Value::Bool(approve)) => *approve,
        other => {
            return error(bad_argument(
                "approve",
                "true or false",
                other,
                handle,
                caller,
            ));
        }
    };
    let reason = match arguments.get("reason") {
        None | Some(Value::Null) => None,
        Some(Value::String(reason)) => Some(reason.clone()),
        other => return error(bad_argument("reason", "a string", other, handle, caller)),
    };
    record_answer(
        handle,
        caller,
        &caller.sender,
        &id,
        approve,
        reason.as_deref(),
    )
    .await
}

fn bad_argument(
    name: &str,
    expected: &str,
    got: Option<&Value>,
    handle: &ExposureHandle,
    caller: &Caller<'_>,
) -> String {
    let mut out = match got {
        None => format!("missing \"{name}\": pass {expected}"),
        Some(got) => format!("\"{name}\" must be {expected}, got {}", text::compact(got)),
    };
    out.push_str(
        "; resume takes {\"id\": \"i-…\", \"approve\": true or false, \"reason\": \"...\"}",
    );
    out.push_str(&open_list(&caller.visible(handle)));
    out
}

fn open_list(open: &[Interrupt]) -> String {
    if open.is_empty() {
        "\nno interrupt is open".to_owned()
    } else {
        let mut out = "\nopen interrupts:".to_owned();
        for interrupt in open {
            out.push_str(&format!("\n- {}", interrupt_line(interrupt)));
        }
        out
    }
}

/// Answers interrupt `id` as `by` (for `caller`, who must be allowed to answer it) and renders the outcome as the
/// tool's result.
async fn record_answer(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    by: &str,
    id: &str,
    approve: bool,
    reason: Option<&str>,
) -> CallToolResult {
    if !caller.may_answer(id) && handle.interrupts().iter().any(|open| open.id == id) {
        return error(format!(
            "interrupt {} was opened by another session; only that session or the app may answer it{}",
            text::quoted(id),
            open_list(&caller.visible(handle))
        ));
    }
    match handle.answer_as(by, id, approve, reason).await {
        Ok(answered) => {
            if let Some(paused) = answered.outcome.as_ref().and_then(|o| o.paused()) {
                caller.opened(paused, handle);
            }
            result(answered_text(&answered, handle))
        }
        Err(error) => self::error(answer_error_text(&error, caller)),
    }
}

/// An answer's error as `caller` reads it: the open interrupts it lists are the ones `caller` is shown.
fn answer_error_text(error: &AnswerError, caller: &Caller<'_>) -> String {
    match error {
        AnswerError::Host(host) => text::host_gone(&host.to_string()),
        AnswerError::NotOpen { id, closed, open } => AnswerError::NotOpen {
            id: id.clone(),
            closed: closed.clone(),
            open: open.iter().filter(|o| caller.sees(o)).cloned().collect(),
        }
        .to_string(),
    }
}

fn result((failed, text): (bool, String)) -> CallToolResult {
    if failed {
        error(text)
    } else {
        CallToolResult::success(vec![ContentBlock::text(text)])
    }
}

fn error(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// How the client can be asked directly.
enum Elicit {
    No,
    /// `elicitation/create` during the call (2025-11-25 and older).
    Request,
    /// An `InputRequiredResult` (2026-07-28).
    InputRequired,
}

fn elicitation(context: &RequestContext<RoleServer>) -> Elicit {
    let declared = context
        .client_capabilities()
        .and_then(|caps| caps.elicitation)
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
    if !declared {
        return Elicit::No;
    }
    match context.protocol_version() {
        Some(version) if !version.has_initialize() || version >= ProtocolVersion::V_2026_07_28 => {
            Elicit::InputRequired
        }
        _ => Elicit::Request,
    }
}

/// The elicitation asking the client's user about `interrupt`.
fn elicit_params(interrupt: &Interrupt) -> Option<ElicitRequestParams> {
    let schema = ElicitationSchema::builder()
        .required_bool_with("approve", |b| {
            b.title("Approve")
                .description("Yes runs the message; no drops it.")
        })
        .optional_string_with("reason", |s| s.description("Why (optional)."))
        .build()
        .ok()?;
    Some(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: format!(
            "{} (the agent {} asks to run {} {})",
            interrupt.prompt,
            text::quoted(&interrupt.sender),
            interrupt.message,
            text::compact(&interrupt.args)
        ),
        requested_schema: schema,
    })
}

/// The user's answer in an elicitation result: `(approve, reason)`; decline and cancel drop the message.
///
/// # Errors
///
/// An accepted answer whose `approve` is not a boolean (`"yes"`, or none), or whose `reason` is not a string: what
/// is wrong with it. Such an answer is neither an approval nor a denial.
fn elicited_answer(
    action: &ElicitationAction,
    content: Option<&Value>,
) -> Result<(bool, Option<String>), String> {
    match action {
        ElicitationAction::Accept => {
            let field = |name: &str| content.and_then(|c| c.get(name));
            let approve = match field("approve") {
                Some(Value::Bool(approve)) => *approve,
                None => return Err("\"approve\" is missing; it must be true or false".to_owned()),
                Some(other) => {
                    return Err(format!(
                        "\"approve\" must be true or false, got {}",
                        text::glimpse(other)
                    ));
                }
            };
            let reason = match field("reason") {
                None | Some(Value::Null) => None,
                Some(Value::String(reason)) => Some(reason.clone()).filter(|r| !r.is_empty()),
                Some(other) => {
                    return Err(format!(
                        "\"reason\" must be a string, got {}",
                        text::glimpse(other)
                    ));
                }
            };
            Ok((approve, reason))
        }
        ElicitationAction::Decline => Ok((false, Some("the user declined".to_owned()))),
        _ => Ok((false, Some("the user cancelled".to_owned()))),
    }
}

/// `dispatch`, with elicitation when the client can be asked directly. Nothing awaits before the messages are
/// queued for the graph thread (see [`super::order::released_after_first_poll`]).
pub(crate) async fn dispatch(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> CallToolResponse {
    if let Some(id) = request
        .request_state
        .as_deref()
        .and_then(|state| state.strip_prefix(STATE_PREFIX))
    {
        return retried(handle, caller, id, request).await.into();
    }
    let (failed, text, paused) =
        dispatch::run_pausing(handle, caller, request.arguments.as_ref()).await;
    let Some(interrupt) = paused else {
        return result((failed, text)).into();
    };
    let Some(params) = elicit_params(&interrupt) else {
        return result((false, text)).into();
    };
    match elicitation(context) {
        Elicit::No => result((false, text)).into(),
        Elicit::InputRequired => {
            let mut requests = InputRequests::new();
            requests.insert(
                INPUT_KEY.into(),
                InputRequest::Elicitation(ElicitRequest::new(params)),
            );
            InputRequiredResult::new(
                Some(requests),
                Some(format!("{STATE_PREFIX}{}", interrupt.id)),
            )
            .into()
        }
        Elicit::Request => ask_now(handle, caller, &interrupt, params, text, context)
            .await
            .into(),
    }
}

/// The 2026-07-28 retry: the elicitation's answer is in `inputResponses`.
async fn retried(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    id: &str,
    request: &CallToolRequestParams,
) -> CallToolResult {
    let response = request
        .input_responses
        .as_ref()
        .and_then(|responses| responses.get(INPUT_KEY));
    let answer = match response {
        Some(response) => {
            let action = response
                .get("action")
                .cloned()
                .and_then(|a| serde_json::from_value::<ElicitationAction>(a).ok())
                .unwrap_or(ElicitationAction::Cancel);
            elicited_answer(&action, response.get("content"))
        }
        None => Ok((false, Some("the client sent no answer".to_owned()))),
    };
    let (approve, reason) = match answer {
        Ok(answer) => answer,
        Err(reason) => return unread_answer(handle, id, &reason),
    };
    let by = format!("{} (elicitation)", caller.sender);
    record_answer(handle, caller, &by, id, approve, reason.as_deref()).await
}

/// The legacy era: ask the user now, while the call waits; the app answering first, or the interrupt expiring,
/// ends the wait too.
async fn ask_now(
    handle: &ExposureHandle,
    caller: &Caller<'_>,
    interrupt: &Interrupt,
    params: ElicitRequestParams,
    paused: String,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    let mut events = handle.interrupt_events();
    if !handle
        .interrupts()
        .iter()
        .any(|open| open.id == interrupt.id)
    {
        // answered (or expired) before the question could be asked
        let closed = match handle.closed_interrupt(&interrupt.id) {
            Some(Closed::Answered(record)) => Some(record),
            _ => None,
        };
        return closed_first(handle, interrupt, closed);
    }
    let ask = context
        .peer
        .create_elicitation_with_timeout(params, Some(interrupt.remaining()));
    let closed = async {
        while let Some(event) = events.next().await {
            match event {
                InterruptEvent::Answered {
                    interrupt: i,
                    record,
                } if i.id == interrupt.id => {
                    return Some(record);
                }
                InterruptEvent::Expired(i) if i.id == interrupt.id => return None,
                _ => {}
            }
        }
        None
    };
    let answer = tokio::select! {
        answer = ask => answer,
        record = closed => return closed_first(handle, interrupt, record),
    };
    let (approve, reason) = match &answer {
        Ok(elicited) => match elicited_answer(&elicited.action, elicited.content.as_ref()) {
            Ok(answer) => answer,
            Err(reason) => return unread_answer(handle, &interrupt.id, &reason),
        },
        // the client could not ask: leave the interrupt open for `resume`
        Err(_) => return result((false, paused)),
    };
    let by = format!("{} (elicitation)", caller.sender);
    record_answer(
        handle,
        caller,
        &by,
        &interrupt.id,
        approve,
        reason.as_deref(),
    )
    .await
}

/// The tool error for an elicitation answer that does not read (`reason` says why): nothing is recorded, and the
/// interrupt stays open for `resume`.
fn unread_answer(handle: &ExposureHandle, id: &str, reason: &str) -> CallToolResult {
    let mut out = text::unread_elicited_answer(id, reason);
    out.push_str(&open_list(&handle.interrupts()));
    error(out)
}

/// The answer to a legacy `dispatch` whose interrupt was answered elsewhere (`record`), or expired, before its
/// user answered.
fn closed_first(
    handle: &ExposureHandle,
    interrupt: &Interrupt,
    record: Option<crate::exposure::ApprovalRecord>,
) -> CallToolResult {
    let note = match record {
        Some(record) => format!(
            "interrupt {} was {} by {} before the user answered",
            text::quoted(&interrupt.id),
            if record.approved {
                "approved"
            } else {
                "denied"
            },
            text::quoted(&record.by)
        ),
        None => format!(
            "interrupt {} expired before anyone answered it",
            text::quoted(&interrupt.id)
        ),
    };
    let snapshot = handle.snapshot();
    result((
        false,
        format!(
            "{note}\n{}",
            text::state_line(snapshot.version, &snapshot.values)
        ),
    ))
}
