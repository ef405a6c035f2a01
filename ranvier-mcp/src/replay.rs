//! `ranvier-mcp replay`: dispatches a journal's messages, in order, into a fresh run of an app.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use rmcp::model::JsonObject;
use serde_json::{Value, json};

use crate::Failure;
use crate::app::{self, Launch};
use crate::call::call_tool;
use crate::journal;
use crate::text;

/// Replays the journal at `path`; returns the steps' text, or [`Failure::Tool`] with it when a message was
/// rejected or a line could not be read (the messages before it still ran).
pub async fn run(launch: &Launch, path: &Path, timeout: Duration) -> Result<String, Failure> {
    let journal = journal::read(path, false).map_err(|e| {
        Failure::Usage(format!(
            "cannot read the journal {}: {}",
            path.display(),
            app::io_reason(&e)
        ))
    })?;
    let session = app::connect(launch).await?;
    let result = if journal.messages.is_empty() {
        call_tool(&session, "snapshot", None, timeout).await
    } else {
        let mut arguments = JsonObject::new();
        let entries: Vec<Value> = journal
            .messages
            .iter()
            .map(journal::Message::entry)
            .collect();
        arguments.insert("messages".into(), json!(entries));
        call_tool(&session, "dispatch", Some(arguments), timeout).await
    };
    session.stop().await;
    let result = result?;
    let rejected = result.get("isError").and_then(Value::as_bool) == Some(true);
    let mut out = text::result_text(&result);
    if journal.messages.is_empty() {
        out = format!(
            "the journal holds no messages{}\n{}",
            journal
                .unreadable
                .as_ref()
                .map_or_else(String::new, |(line, _)| format!(" before line {line}")),
            text::snapshot_state_line(&out).unwrap_or(out)
        );
    } else if rejected
        && let Some(position) = stopped_at(&out).or((journal.messages.len() == 1).then_some(1))
    {
        // the dispatch positions count messages; name the journal line too
        if let Some(message) = journal.messages.get(position - 1) {
            let _ = write!(
                out,
                "\n(message {position} is line {} of {})",
                message.line,
                path.display()
            );
        }
    }
    if let Some((line, reason)) = &journal.unreadable {
        let _ = write!(
            out,
            "\nline {line} of {} cannot be read: {reason}\nnothing from line {line} on was dispatched",
            path.display()
        );
        return Err(Failure::Tool(out));
    }
    if rejected {
        Err(Failure::Tool(out))
    } else {
        Ok(out)
    }
}

/// The position in `stopped at message P …` of a stopped dispatch's text.
pub fn stopped_at(text: &str) -> Option<usize> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix("stopped at message ")?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok().filter(|p| *p > 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_stopped_position() {
        let text = "1 clear {} → v1: no change\nstopped at message 2 of 3: `percent` must be between 0 and 100\nv1: x=1";
        assert_eq!(stopped_at(text), Some(2));
        assert_eq!(stopped_at("v1: x=1"), None);
    }
}
