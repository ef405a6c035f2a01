//! `ranvier-mcp call`: one tool call against a fresh run of the app, and `--list`.

use std::fmt::Write as _;
use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::{CallToolRequestParams, JsonObject, Tool};
use serde_json::Value;

use crate::Failure;
use crate::app::{self, Launch, Session};
use crate::text;

/// Parses the tool's arguments: a JSON object, or nothing.
///
/// # Errors
///
/// [`Failure::Usage`] with the position of a syntax error, or when the JSON is not an object.
pub fn parse_arguments(json: Option<&str>) -> Result<Option<JsonObject>, Failure> {
    let Some(json) = json else { return Ok(None) };
    match serde_json::from_str::<Value>(json) {
        Ok(Value::Object(arguments)) => Ok(Some(arguments)),
        Ok(other) => Err(Failure::Usage(format!(
            "the tool arguments must be a JSON object, such as '{{\"message\": \"clear\"}}'; got {}",
            kind(&other)
        ))),
        Err(error) => Err(Failure::Usage(text::json_error(
            "the tool arguments",
            json,
            &error,
        ))),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Calls `tool` with `arguments` and returns the result as JSON, or the failure to report.
pub async fn call_tool(
    session: &Session,
    tool: &str,
    arguments: Option<JsonObject>,
    timeout: Duration,
) -> Result<Value, Failure> {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    params.arguments = arguments;
    let answer = tokio::time::timeout(timeout, session.client.call_tool(params)).await;
    match answer {
        Ok(Ok(result)) => serde_json::to_value(&result)
            .map_err(|e| Failure::Usage(format!("cannot read the tool result: {e}"))),
        Ok(Err(ServiceError::McpError(error))) => Err(Failure::Usage(format!(
            "the app refused the call to {tool}: {}",
            error.message
        ))),
        Ok(Err(error)) => Err(Failure::Usage(format!(
            "{} stopped answering during the call to {tool} ({error}){}",
            session.binary().display(),
            session.output()
        ))),
        Err(_) => Err(Failure::Usage(format!(
            "the call to {tool} got no answer within {} s",
            timeout.as_secs_f64()
        ))),
    }
}

/// `call`: prints the result's text; a tool error is [`Failure::Tool`] with that text.
pub async fn run(
    launch: &Launch,
    tool: &str,
    arguments: Option<JsonObject>,
    timeout: Duration,
) -> Result<String, Failure> {
    let session = app::connect(launch).await?;
    let result = call_tool(&session, tool, arguments, timeout).await;
    session.stop().await;
    let result = result?;
    let text = text::result_text(&result);
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        Err(Failure::Tool(text))
    } else {
        Ok(text)
    }
}

/// `call --list`: the server's name, protocol and instructions, then each tool with its argument names and
/// description.
pub async fn list(launch: &Launch, timeout: Duration) -> Result<String, Failure> {
    let session = app::connect(launch).await?;
    let tools = tokio::time::timeout(timeout, session.client.list_all_tools()).await;
    let info = session.client.peer_info();
    session.stop().await;
    let tools = match tools {
        Ok(Ok(tools)) => tools,
        Ok(Err(error)) => {
            return Err(Failure::Usage(format!(
                "the app did not list its tools: {error}"
            )));
        }
        Err(_) => {
            return Err(Failure::Usage(
                "the app did not list its tools in time".into(),
            ));
        }
    };
    let mut out = String::new();
    if let Some(info) = &info {
        let name = info
            .server_info
            .as_ref()
            .map(|s| format!("{} {}", s.name, s.version))
            .unwrap_or_else(|| "server".into());
        let _ = writeln!(out, "{name} (protocol {})", info.protocol_version);
        if let Some(instructions) = &info.instructions {
            let _ = writeln!(out, "\n{}", instructions.trim_end());
        }
    }
    let _ = writeln!(out, "\ntools:");
    for tool in &tools {
        out.push_str(&tool_entry(tool));
    }
    Ok(out.trim_end().to_owned())
}

/// `  name(required, optional?)` then the description, indented.
fn tool_entry(tool: &Tool) -> String {
    let required: Vec<&str> = tool
        .input_schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let arguments: Vec<String> = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, _)| {
            if required.contains(&name.as_str()) {
                name.clone()
            } else {
                format!("{name}?")
            }
        })
        .collect();
    let mut entry = format!("  {}({})\n", tool.name, arguments.join(", "));
    for line in tool.description.as_deref().unwrap_or("").lines() {
        let _ = writeln!(entry, "      {line}");
    }
    entry
}
