//! Text the tools print: tool results, JSON errors with their position, state lines.

use std::fmt::Write as _;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::Value;

/// The text of a tool result's content blocks (JSON, as sent), one block a line; non-text blocks are named, and a
/// result with no content shows its structured content.
pub fn result_text(result: &Value) -> String {
    let mut lines = Vec::new();
    for block in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        match (
            block.get("type").and_then(Value::as_str),
            block.get("text").and_then(Value::as_str),
        ) {
            (Some("text"), Some(text)) => lines.push(text.to_owned()),
            (kind, _) => {
                let mime = block.get("mimeType").and_then(Value::as_str).unwrap_or("");
                lines.push(format!("[{} {mime}]", kind.unwrap_or("content")).replace(" ]", "]"));
            }
        }
    }
    if lines.is_empty()
        && let Some(structured) = result.get("structuredContent")
    {
        lines.push(structured.to_string());
    }
    lines.join("\n")
}

/// The reason `text` is not valid JSON, with the line and column and a caret under the position.
pub fn json_error(what: &str, text: &str, error: &serde_json::Error) -> String {
    let mut message = format!("{what} are not valid JSON: {error}");
    if let Some(line) = text.lines().nth(error.line().saturating_sub(1)) {
        let column = error.column().saturating_sub(1).min(line.chars().count());
        let _ = write!(message, "\n  {line}\n  {}^", " ".repeat(column));
    }
    message
}

/// `v3: count=2, total=450, lines=[apple]`: a version and every value, in the order given, as the app's own
/// answers end ([`ranvier::mcp::state_line`]: a collection by its keys).
pub fn state_line(version: u64, values: &[(String, Value)]) -> String {
    ranvier::mcp::state_line(version, values)
}

/// The `ranvier://state` document, its values kept in the order the app wrote them.
#[derive(Debug, Deserialize)]
pub struct StateDocument {
    /// The state's version.
    pub version: u64,
    /// Every exposed value, in registration order.
    pub values: Ordered,
}

/// A JSON object's members in document order.
#[derive(Debug, Default)]
pub struct Ordered(pub Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderedVisitor;
        impl<'de> Visitor<'de> for OrderedVisitor {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, Value>()? {
                    members.push(member);
                }
                Ok(Ordered(members))
            }
        }
        deserializer.deserialize_map(OrderedVisitor)
    }
}

/// The state line of a `snapshot` result's text, when it is a state document.
pub fn snapshot_state_line(text: &str) -> Option<String> {
    let document: StateDocument = serde_json::from_str(text).ok()?;
    Some(state_line(document.version, &document.values.0))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn result_text_joins_text_blocks_and_names_others() {
        let result = json!({"content": [
            {"type": "text", "text": "one"},
            {"type": "image", "data": "..", "mimeType": "image/png"},
            {"type": "text", "text": "two"}
        ]});
        assert_eq!(result_text(&result), "one\n[image image/png]\ntwo");
        assert_eq!(
            result_text(&json!({"content": [], "structuredContent": {"a": 1}})),
            r#"{"a":1}"#
        );
    }

    #[test]
    fn json_errors_point_at_the_position() {
        let text = r#"{"sku" 1}"#;
        let error = serde_json::from_str::<Value>(text).unwrap_err();
        let message = json_error("the arguments", text, &error);
        assert!(message.contains("line 1 column 8"), "{message}");
        assert!(message.ends_with("  {\"sku\" 1}\n         ^"), "{message}");
    }

    #[test]
    fn snapshot_text_keeps_the_apps_order() {
        let line =
            snapshot_state_line(r#"{"version":3,"values":{"total":450,"count":2,"name":"x"}}"#);
        assert_eq!(line.as_deref(), Some(r#"v3: total=450, count=2, name="x""#));
        assert_eq!(snapshot_state_line("not json"), None);
    }
}
