//! JSON-RPC validation of one line (or one HTTP body): whether it is a message for rmcp, nothing to answer, or what
//! to answer instead, in the words the stdio layer and the HTTP transport both use.

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, ClientResult, JsonRpcError,
    JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId,
};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::reader::{content, parse_json};
use super::response::{INVALID_REQUEST, error_line};
use crate::mcp::{keys, text};

/// What one line holds.
pub(super) enum Decoded {
    /// A JSON-RPC message, for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing to hand on or answer.
    Ignored,
    /// The line answering it, newline included.
    Answer(Vec<u8>),
}

/// The answer the stdio layer gives to `body` as a line (without its newline), when that is not a message for rmcp:
/// the HTTP transport answers a bad body with the same words. `None` for a message, a blank body or a notification
/// rmcp ignores.
#[cfg(feature = "http")]
pub(crate) fn answer_to(body: &[u8]) -> Option<Vec<u8>> {
    match decode(body) {
        Decoded::Answer(mut line) => {
            line.pop();
            Some(line)
        }
        Decoded::Message(_) | Decoded::Ignored => None,
    }
}

/// Decodes one line (without its newline).
pub(super) fn decode(line: &[u8]) -> Decoded {
    let Some((line, skipped)) = content(line) else {
        return Decoded::Ignored;
    };
    // the way rmcp's transport reads a line, so every message it takes goes through as it would
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(message) => {
            return match keys::first_duplicate(line) {
                None => Decoded::Message(Box::new(message)),
                Some(duplicate) => {
                    let id = match &message {
                        ClientJsonRpcMessage::Request(request) => {
                            serde_json::to_value(&request.id).unwrap_or(Value::Null)
                        }
                        _ => Value::Null,
                    };
                    Decoded::Answer(duplicate_line(&duplicate, id))
                }
            };
        }
        Err(error) => error,
    };
    let value = match parse_json(line, skipped) {
        Ok((_, value)) => value,
        Err(error) => return Decoded::Answer(error.line()),
    };
    if ignored_by_rmcp(&value) {
        return Decoded::Ignored;
    }
    let (id, reason) = not_a_message(&value, &error);
    if let Some(duplicate) = keys::first_duplicate(line) {
        return Decoded::Answer(duplicate_line(&duplicate, id));
    }
    Decoded::Answer(error_line(
        INVALID_REQUEST,
        &text::not_a_message(&reason),
        id,
    ))
}

/// The answer to a message that names `duplicate` twice: with `id`, unless the key repeated is the id itself.
pub(super) fn duplicate_line(duplicate: &keys::Duplicate, id: Value) -> Vec<u8> {
    let id = if duplicate.path.is_empty() && duplicate.key == "id" {
        Value::Null
    } else {
        id
    };
    error_line(
        INVALID_REQUEST,
        &text::not_a_message(&text::duplicate_key(&duplicate.key, &duplicate.place())),
        id,
    )
}

/// Why `value`, JSON that rmcp did not read as a message (`error` says why, in serde's words), is not one; and the
/// id to answer with: the request's, when it reads as one, or null.
pub(super) fn not_a_message(value: &Value, error: &serde_json::Error) -> (Value, String) {
    let message = match value {
        Value::Object(message) => message,
        Value::Array(_) => return (Value::Null, text::BATCH.to_owned()),
        other => return (Value::Null, text::not_an_object(other)),
    };
    let has = |key: &str| message.contains_key(key);
    let is_response = has("result") || has("error");
    let (id, bad_id) = match message.get("id") {
        None => (Value::Null, None),
        Some(id) if serde_json::from_value::<RequestId>(id.clone()).is_err() => {
            (Value::Null, Some(text::bad_id(id)))
        }
        // a response's id counts the server's requests: answering with it would answer one of the client's
        Some(_) if is_response => (Value::Null, None),
        Some(id) => (id.clone(), None),
    };
    let reason = bad_id
        .or_else(|| match message.get("jsonrpc") {
            None => Some(text::MISSING_JSONRPC.to_owned()),
            Some(Value::String(version)) if version == "2.0" => None,
            Some(other) => Some(text::bad_jsonrpc(other)),
        })
        .unwrap_or_else(|| shape_reason(message, error));
    (id, reason)
}

/// Why `message`, an object with a readable id and `"jsonrpc": "2.0"`, is not a message; `error` is serde's reason,
/// for when no better one is found.
pub(super) fn shape_reason(message: &Map<String, Value>, error: &serde_json::Error) -> String {
    let value = Value::Object(message.clone());
    let has_id = message.contains_key("id");
    let reason = |better: Option<String>| better.unwrap_or_else(|| error.to_string());
    match (
        message.get("method"),
        message.get("result"),
        message.get("error"),
    ) {
        (None, None, None) => text::NO_KIND.to_owned(),
        (Some(Value::String(method)), None, None) => {
            if let Some(params) = message.get("params")
                && !params.is_object()
                && !params.is_null()
            {
                return text::bad_message_params(params);
            }
            if has_id {
                let why = serde_error::<JsonRpcRequest<ClientRequest>>(&value);
                text::unreadable_message("request", Some(method), &reason(why))
            } else {
                let why = serde_error::<JsonRpcNotification<ClientNotification>>(&value);
                text::unreadable_message("notification", Some(method), &reason(why))
            }
        }
        (Some(method), None, None) => text::bad_method(method),
        (None, Some(_), None) | (None, None, Some(_)) if !has_id => {
            text::RESPONSE_WITHOUT_ID.to_owned()
        }
        (None, Some(_), None) => {
            let why = serde_error::<JsonRpcResponse<ClientResult>>(&value);
            text::unreadable_message("response", None, &reason(why))
        }
        (None, None, Some(member)) => {
            if !member.get("code").is_some_and(Value::is_i64)
                || !member.get("message").is_some_and(Value::is_string)
            {
                return text::bad_error_member(member);
            }
            let why = serde_error::<JsonRpcError>(&value);
            text::unreadable_message("error response", None, &reason(why))
        }
        _ => text::TWO_KINDS.to_owned(),
    }
}

/// What serde says about `value` as a `T`, or `None` when it reads.
pub(super) fn serde_error<T: DeserializeOwned>(value: &Value) -> Option<String> {
    serde_json::from_value::<T>(value.clone())
        .err()
        .map(|error| error.to_string())
}

/// Whether rmcp's transport skips `value` without an answer when it does not read (rmcp's
/// `should_ignore_notification`, in `transport/async_rw.rs`): a notification whose method MCP does not define, and
/// any message whose method is a `notifications/` one MCP does not define.
pub(super) fn ignored_by_rmcp(value: &Value) -> bool {
    let Some(method) = value.get("method").and_then(Value::as_str) else {
        return false;
    };
    let notification = value.get("id").is_none();
    (notification && !is_mcp_method(method))
        || (method.starts_with("notifications/") && !is_mcp_notification(method))
}

/// The methods rmcp's transport knows as MCP's (its `is_standard_method`).
pub(super) fn is_mcp_method(method: &str) -> bool {
    matches!(
        method,
        "initialize"
            | "ping"
            | "server/discover"
            | "prompts/get"
            | "prompts/list"
            | "resources/list"
            | "resources/read"
            | "resources/subscribe"
            | "resources/unsubscribe"
            | "resources/templates/list"
            | "subscriptions/listen"
            | "tools/call"
            | "tools/list"
            | "completion/complete"
            | "elicitation/create"
            | "logging/setLevel"
            | "roots/list"
            | "sampling/createMessage"
    ) || is_mcp_notification(method)
}

/// The notifications rmcp's transport knows as MCP's (its `is_standard_notification`).
pub(super) fn is_mcp_notification(method: &str) -> bool {
    matches!(
        method,
        "notifications/cancelled"
            | "notifications/initialized"
            | "notifications/message"
            | "notifications/progress"
            | "notifications/prompts/list_changed"
            | "notifications/resources/list_changed"
            | "notifications/resources/updated"
            | "notifications/roots/list_changed"
            | "notifications/subscriptions/acknowledged"
            | "notifications/tools/list_changed"
    )
}
