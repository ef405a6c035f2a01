//! The read-only tools, `snapshot`, `wait_version` and `diff`: the `ranvier://state` document (now or at an earlier
//! version the exposure's history keeps) as text and structured content, and what changed between two versions.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::Value;

use super::text;
use crate::exposure::{ExposureHandle, Snapshot};

/// The state document as a tool result: compact text (values in registration order) and structured content.
pub(crate) fn document_result(snapshot: &Snapshot) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text::state_document_text(
        snapshot.version,
        &snapshot.values,
    ))]);
    result.structured_content = Some(text::state_document(snapshot.version, &snapshot.values));
    result
}

/// `snapshot {version?}`: the current state document, or the one published at `version`.
pub(crate) fn snapshot(handle: &ExposureHandle, arguments: Option<&JsonObject>) -> CallToolResult {
    let read = || -> Result<(Arc<Snapshot>, bool), String> {
        refuse_unknown(
            arguments,
            "snapshot",
            &["version"],
            "\"version\" (a non-negative integer, optional)",
        )?;
        match version_argument(arguments, "version")? {
            Some(version) => handle
                .snapshot_at(version)
                .map(|snapshot| (snapshot, true))
                .map_err(|e| e.to_string()),
            None => Ok((handle.snapshot(), false)),
        }
    };
    match read() {
        Ok((snapshot, asked)) => {
            let mut result = document_result(&snapshot);
            // an earlier version says what made it
            if asked {
                result
                    .content
                    .push(ContentBlock::text(made_by_line(handle, snapshot.version)));
            }
            result
        }
        Err(reason) => CallToolResult::error(vec![ContentBlock::text(reason)]),
    }
}

/// `v3: made by add_item {"sku":"apple",…} by "claude-code"` (the live page's words): the journaled message that
/// made `version`, its arguments and sender quoted and escaped (a client sent them).
fn made_by_line(handle: &ExposureHandle, version: u64) -> String {
    if version == 0 {
        return "v0: the state at start".to_owned();
    }
    match handle.made_by(version) {
        Some(entry) => format!(
            "v{version}: made by {} {} by {}",
            crate::escape::inline(&entry.name),
            text::compact(&entry.args),
            crate::escape::quote(&entry.sender)
        ),
        None => format!(
            "v{version}: made by the app on its own, or by a message the in-memory journal no longer holds"
        ),
    }
}

/// `diff {from, to?}`: what changed between the two versions, value by value, and the journaled messages that made
/// the versions after `from`.
pub(crate) fn diff(handle: &ExposureHandle, arguments: Option<&JsonObject>) -> CallToolResult {
    let answer = || -> Result<String, String> {
        refuse_unknown(
            arguments,
            "diff",
            &["from", "to"],
            "\"from\" (a version) and \"to\" (a version, default the current one)",
        )?;
        let from = version_argument(arguments, "from")?
            .ok_or("missing \"from\": pass the older version to compare, a non-negative integer")?;
        let to = match version_argument(arguments, "to")? {
            Some(to) => handle.snapshot_at(to).map_err(|e| e.to_string())?,
            None => handle.snapshot(),
        };
        let old = handle.snapshot_at(from).map_err(|e| e.to_string())?;
        let (low, high) = (from.min(to.version), from.max(to.version));
        let (all, newest) = handle.journal_between(low, high, text::DIFF_MESSAGES_MAX);
        let messages: Vec<(u64, String, Value, String)> = newest
            .into_iter()
            .map(|entry| (entry.version, entry.name, entry.args, entry.sender))
            .collect();
        Ok(text::diff_text(
            from,
            to.version,
            &old.changes_to(&to),
            all - messages.len(),
            &messages,
        ))
    };
    match answer() {
        Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
        Err(reason) => CallToolResult::error(vec![ContentBlock::text(reason)]),
    }
}

/// `errors {after?}`: the kept errors (those numbered after `after`, when given), one line each, and as structured
/// content `{"errors": [...], "dropped": n}`.
pub(crate) fn errors(handle: &ExposureHandle, arguments: Option<&JsonObject>) -> CallToolResult {
    let answer = || -> Result<CallToolResult, String> {
        refuse_unknown(
            arguments,
            "errors",
            &["after"],
            "\"after\" (an error's seq: only later errors are listed; optional)",
        )?;
        let after = version_argument(arguments, "after")?.unwrap_or(0);
        let (mut kept, dropped) = handle.errors();
        kept.retain(|record| record.seq > after);
        let mut result = CallToolResult::success(vec![ContentBlock::text(text::errors_text(
            &kept, dropped, after,
        ))]);
        result.structured_content = Some(text::errors_document(&kept, dropped));
        Ok(result)
    };
    answer().unwrap_or_else(|reason| CallToolResult::error(vec![ContentBlock::text(reason)]))
}

/// Refuses a property `tool` does not take (a misspelt `version` would otherwise read the current state).
fn refuse_unknown(
    arguments: Option<&JsonObject>,
    tool: &str,
    known: &[&str],
    takes: &str,
) -> Result<(), String> {
    match arguments.and_then(|a| a.keys().find(|key| !known.contains(&key.as_str()))) {
        Some(unknown) => Err(text::unknown_history_property(tool, unknown, takes)),
        None => Ok(()),
    }
}

/// The optional version argument `property`: absent or null is `None`.
fn version_argument(arguments: Option<&JsonObject>, property: &str) -> Result<Option<u64>, String> {
    match arguments.and_then(|a| a.get(property)) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => integer(n)
            .map(Some)
            .ok_or_else(|| text::bad_version_argument(property, &Value::Number(n.clone()))),
        Some(other) => Err(text::bad_version_argument(property, other)),
    }
}

/// `wait_version {version, timeoutMs}`: the first state at or past `version`, or a timeout error.
pub(crate) async fn wait_version(
    handle: &ExposureHandle,
    arguments: Option<&JsonObject>,
) -> CallToolResult {
    let (version, timeout_ms) = match parse(arguments) {
        Ok(parsed) => parsed,
        Err(reason) => return CallToolResult::error(vec![ContentBlock::text(reason)]),
    };
    match handle
        .wait_version(version, Duration::from_millis(timeout_ms))
        .await
    {
        Some(snapshot) => document_result(&snapshot),
        None => CallToolResult::error(vec![ContentBlock::text(text::wait_timeout(
            version,
            timeout_ms,
            handle.snapshot().version,
        ))]),
    }
}

/// `n` as a non-negative integer: JSON `-0` (which serde reads as the float -0.0) is 0.
fn integer(n: &serde_json::Number) -> Option<u64> {
    n.as_u64().or_else(|| {
        n.as_f64()
            .is_some_and(|x| x == 0.0 && x.is_sign_negative())
            .then_some(0)
    })
}

/// Reads `version` (a non-negative integer) and `timeoutMs` (default 5000, clamped to 60000).
pub(crate) fn parse(arguments: Option<&JsonObject>) -> Result<(u64, u64), String> {
    // a misspelt `timeoutMs` would otherwise wait the default 5000 ms without a word
    if let Some(unknown) = arguments.and_then(|a| {
        a.keys()
            .find(|key| !matches!(key.as_str(), "version" | "timeoutMs"))
    }) {
        return Err(text::unknown_wait_property(unknown));
    }
    let version = match arguments.and_then(|a| a.get("version")) {
        Some(Value::Number(n)) => {
            integer(n).ok_or_else(|| text::bad_version(Some(&Value::Number(n.clone()))))?
        }
        other => return Err(text::bad_version(other)),
    };
    let timeout_ms = match arguments.and_then(|a| a.get("timeoutMs")) {
        None | Some(Value::Null) => text::DEFAULT_TIMEOUT_MS,
        Some(Value::Number(n)) => match (integer(n), n.as_i64()) {
            (Some(ms), _) => ms.min(text::MAX_TIMEOUT_MS),
            (None, Some(_)) => return Err(text::negative_timeout(&Value::Number(n.clone()))),
            (None, None) if n.as_f64().is_some_and(|f| f < 0.0) => {
                return Err(text::negative_timeout(&Value::Number(n.clone())));
            }
            (None, None) => return Err(text::bad_timeout(&Value::Number(n.clone()))),
        },
        Some(other) => return Err(text::bad_timeout(other)),
    };
    Ok((version, timeout_ms))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn args(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn version_must_be_a_non_negative_integer() {
        assert_eq!(parse(Some(&args(json!({"version": 3})))), Ok((3, 5_000)));
        for bad in [json!("3"), json!(1.5), json!(-1), json!(null)] {
            let err = parse(Some(&args(json!({"version": bad})))).unwrap_err();
            assert!(
                err.starts_with("\"version\" must be a non-negative integer"),
                "{err}"
            );
        }
        assert!(parse(None).unwrap_err().starts_with("missing \"version\""));
        let negative_zero: JsonObject =
            serde_json::from_str(r#"{"version": -0, "timeoutMs": -0}"#).unwrap();
        assert_eq!(parse(Some(&negative_zero)), Ok((0, 0)), "-0 is 0");
        assert_eq!(
            parse(Some(&args(json!({"version": 1, "timeout_ms": 10})))).unwrap_err(),
            "unknown property \"timeout_ms\"; wait_version takes \"version\" (a non-negative integer) and \
             \"timeoutMs\" (0 to 60000, default 5000)"
        );
    }

    #[test]
    fn timeout_defaults_clamps_and_rejects_negative() {
        assert_eq!(
            parse(Some(&args(json!({"version": 1, "timeoutMs": 10})))),
            Ok((1, 10))
        );
        assert_eq!(
            parse(Some(&args(json!({"version": 1, "timeoutMs": 600_000})))),
            Ok((1, 60_000))
        );
        let negative = parse(Some(&args(json!({"version": 1, "timeoutMs": -5})))).unwrap_err();
        assert!(
            negative.starts_with("\"timeoutMs\" must not be negative"),
            "{negative}"
        );
        let fraction = parse(Some(&args(json!({"version": 1, "timeoutMs": -0.5})))).unwrap_err();
        assert!(
            fraction.starts_with("\"timeoutMs\" must not be negative"),
            "{fraction}"
        );
        let text = parse(Some(&args(json!({"version": 1, "timeoutMs": "soon"})))).unwrap_err();
        assert!(
            text.starts_with("\"timeoutMs\" must be an integer"),
            "{text}"
        );
    }

    #[test]
    fn document_result_has_text_and_structured_content() {
        let snapshot = Snapshot {
            version: 2,
            values: vec![("b".into(), json!(1)), ("a".into(), json!("x"))],
        };
        let result = document_result(&snapshot);
        assert_eq!(result.is_error, Some(false));
        assert_eq!(
            result.structured_content,
            Some(json!({"version": 2, "values": {"b": 1, "a": "x"}}))
        );
        let text = result.content[0].as_text().unwrap().text.clone();
        assert_eq!(text, r#"{"version":2,"values":{"b":1,"a":"x"}}"#);
    }
}
