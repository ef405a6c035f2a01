//! Requests of a method MCP defines whose params rmcp could not read. rmcp hands such a request to the handler as a
//! custom request, and its default answer is "method not found" with the bare method name (`-32601 "tools/call"`),
//! which tells a client nothing about what was wrong. Here they are answered -32602 naming the field at fault and the
//! shape expected; a notification sent with an `id` is -32600 saying so; anything else stays -32601 with its name.

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, ErrorCode, PaginatedRequestParams, ReadResourceRequestParams,
    SubscribeRequestParams, UnsubscribeRequestParams,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::text;

/// The error answering a custom request for `method` with `params`; `tools` and `names` are listed in the reason.
pub(crate) fn custom_request_error(
    method: &str,
    params: Option<&Value>,
    tools: &[&str],
    names: &[String],
) -> ErrorData {
    let reason = match method {
        "tools/call" => Some(tools_call(params, tools)),
        "resources/read" => Some(uri(
            method,
            params,
            names,
            read::<ReadResourceRequestParams>,
        )),
        "resources/subscribe" => Some(uri(method, params, names, read::<SubscribeRequestParams>)),
        "resources/unsubscribe" => {
            Some(uri(method, params, names, read::<UnsubscribeRequestParams>))
        }
        "tools/list" | "resources/list" | "resources/templates/list" => Some(text::bad_params(
            method,
            &read::<PaginatedRequestParams>(params)
                .unwrap_or_else(|| "they do not have the shape it takes".to_owned()),
            "{\"cursor\"?: string}",
        )),
        notification if notification.starts_with("notifications/") => {
            return ErrorData::invalid_request(text::notification_with_id(notification), None);
        }
        _ => None,
    };
    match reason {
        Some(reason) => ErrorData::invalid_params(reason, None),
        None => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_owned(), None),
    }
}

/// What serde says about `params` as `T`, or `None` when they read (which rmcp's fallback makes unexpected).
fn read<T: DeserializeOwned>(params: Option<&Value>) -> Option<String> {
    let params = params.cloned().unwrap_or(Value::Null);
    serde_json::from_value::<T>(params)
        .err()
        .map(|error| error.to_string())
}

/// `tools/call {name, arguments}`.
fn tools_call(params: Option<&Value>, tools: &[&str]) -> String {
    const SHAPE: &str = "{\"name\": tool, \"arguments\": {...}}";
    let tools = format!("tools: {}", tools.join(", "));
    let Some(Value::Object(fields)) = params else {
        return text::bad_params(
            "tools/call",
            &format!("params must be an object, got {}", got(params)),
            &format!("{SHAPE}; {tools}"),
        );
    };
    let reason = match (fields.get("name"), fields.get("arguments")) {
        (None, _) => "missing \"name\"".to_owned(),
        (Some(name), _) if !name.is_string() => format!(
            "\"name\" must be a string naming a tool, got {}",
            text::compact(name)
        ),
        (_, Some(arguments)) if !arguments.is_object() && !arguments.is_null() => format!(
            "\"arguments\" must be an object of the tool's arguments by name, got {}",
            text::compact(arguments)
        ),
        _ => read::<CallToolRequestParams>(params)
            .unwrap_or_else(|| "they do not have the shape it takes".to_owned()),
    };
    text::bad_params("tools/call", &reason, &format!("{SHAPE}; {tools}"))
}

/// `resources/read`, `resources/subscribe` and `resources/unsubscribe`: `{uri}`.
fn uri(
    method: &str,
    params: Option<&Value>,
    names: &[String],
    serde: fn(Option<&Value>) -> Option<String>,
) -> String {
    let reason = match params {
        Some(Value::Object(fields)) => match fields.get("uri") {
            None => "missing \"uri\"".to_owned(),
            Some(uri) if !uri.is_string() => {
                format!("\"uri\" must be a string, got {}", text::compact(uri))
            }
            Some(_) => {
                serde(params).unwrap_or_else(|| "they do not have the shape it takes".to_owned())
            }
        },
        other => format!("params must be an object, got {}", got(other)),
    };
    text::bad_params(
        method,
        &reason,
        &format!("{{\"uri\": string}}; {}", text::resources_list(names)),
    )
}

fn got(params: Option<&Value>) -> String {
    params.map_or_else(|| "none".to_owned(), text::compact)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn message(method: &str, params: Option<Value>) -> (i32, String) {
        let error = custom_request_error(
            method,
            params.as_ref(),
            &["snapshot", "dispatch"],
            &["count".into()],
        );
        (error.code.0, error.message.into_owned())
    }

    #[test]
    fn tools_call_names_the_field() {
        let (code, text) = message("tools/call", Some(json!({"arguments": {}})));
        assert_eq!(code, -32602);
        assert_eq!(
            text,
            "invalid params of tools/call: missing \"name\"; expected {\"name\": tool, \"arguments\": {...}}; tools: \
             snapshot, dispatch"
        );
        let (_, text) = message(
            "tools/call",
            Some(json!({"name": "dispatch", "arguments": "x"})),
        );
        assert!(
            text.contains(
                "\"arguments\" must be an object of the tool's arguments by name, got \"x\""
            ),
            "{text}"
        );
        let (_, text) = message("tools/call", Some(json!({"name": 5})));
        assert!(
            text.contains("\"name\" must be a string naming a tool, got 5"),
            "{text}"
        );
        let (_, text) = message("tools/call", None);
        assert!(
            text.contains("params must be an object, got none"),
            "{text}"
        );
    }

    #[test]
    fn resources_name_the_uri() {
        let (code, text) = message("resources/read", Some(json!({})));
        assert_eq!(code, -32602);
        assert!(text.starts_with("invalid params of resources/read: missing \"uri\"; expected {\"uri\": string}; resources: ranvier://state"), "{text}");
        let (_, text) = message("resources/subscribe", Some(json!({"uri": 7})));
        assert!(text.contains("\"uri\" must be a string, got 7"), "{text}");
    }

    #[test]
    fn notifications_with_an_id_and_unknown_methods() {
        let (code, text) = message("notifications/initialized", None);
        assert_eq!(code, -32600);
        assert!(text.contains("is a notification"), "{text}");
        assert_eq!(
            message("no/such_method", Some(json!({}))),
            (-32601, "no/such_method".to_owned())
        );
    }
}
