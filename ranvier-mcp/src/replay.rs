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
/// rejected, paused for a person's approval, or a line could not be read (the messages before it still ran).
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
    // a message the app gates for a person's approval pauses the dispatch (not an error); nobody can answer it,
    // since the app stops with the replay, so the replay stopped there
    let paused = if rejected { None } else { paused_at(&out) };
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
    } else if let Some(position) = paused
        && let Some(message) = journal.messages.get(position - 1)
    {
        let _ = write!(
            out,
            "\nthe replay stopped at message {position} (line {} of {}): {} needs a person's approval in this \
             build, and the app stops with the replay, so it cannot be answered; nothing from line {} on ran",
            message.line,
            path.display(),
            message.name,
            message.line
        );
    }
    if let Some((line, reason)) = &journal.unreadable {
        let _ = write!(
            out,
            "\nline {line} of {} cannot be read: {reason}\nnothing from line {line} on was dispatched",
            path.display()
        );
        return Err(Failure::Tool(out));
    }
    if rejected || paused.is_some() {
        Err(Failure::Tool(out))
    } else {
        Ok(out)
    }
}

/// The position in `stopped at message P …` of a stopped dispatch's text.
pub fn stopped_at(text: &str) -> Option<usize> {
    position_after(text, "stopped at message ")
}

/// The position in `paused at message P …` of the text of a dispatch that paused for a person's approval.
pub fn paused_at(text: &str) -> Option<usize> {
    position_after(text, "paused at message ")
}

fn position_after(text: &str, prefix: &str) -> Option<usize> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(prefix)?;
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
