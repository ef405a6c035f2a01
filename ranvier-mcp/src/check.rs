//! Behaviour diffs: the step lines a journal recorded (`changes` on each line) against the ones a build answers when
//! the journal is replayed into it (`replay --check`, the supervisor's reload), and two builds against each other
//! (`compare`). Step lines are compared without their position and version (`add_item {…} → count 1→2`), so a
//! build that publishes one more version elsewhere still compares message by message.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::JsonObject;
use serde_json::{Value, json};

use crate::Failure;
use crate::app::{self, Launch, Session};
use crate::call::call_tool;
use crate::journal::{self, Message};
use crate::replay::stopped_at;
use crate::text;

/// The step line the app that wrote the journal answered for `message`, at `position` of a replay: `None` when the
/// line recorded no changes.
pub fn recorded_step(position: usize, message: &Message) -> Option<String> {
    let changes = message.changes.clone()?;
    let version = message.version.unwrap_or(0);
    let snapshot = Arc::new(ranvier::exposure::Snapshot {
        version,
        values: Vec::new(),
    });
    let outcome = ranvier::exposure::SequenceOutcome {
        steps: vec![ranvier::exposure::Step {
            position,
            name: message.name.clone(),
            args: message.args.clone(),
            version,
            changes,
            snapshot: snapshot.clone(),
        }],
        stopped: None,
        interrupt: None,
        snapshot,
    };
    ranvier::mcp::sequence_text(&outcome)
        .lines()
        .next()
        .map(str::to_owned)
}

/// The step lines of a `dispatch` answer for `messages`, in order (fewer when the sequence stopped).
pub fn step_lines(answer: &str, messages: &[Message]) -> Vec<String> {
    let mut steps = Vec::new();
    for line in answer.lines() {
        let Some(message) = messages.get(steps.len()) else {
            break;
        };
        if line.starts_with(&format!("{} {} ", steps.len() + 1, message.name)) {
            steps.push(line.to_owned());
        }
    }
    steps
}

/// A step line without its position and version: `add_item {…} → count 1→2`.
pub fn normalized(step: &str) -> String {
    let body = step.split_once(' ').map_or(step, |(_, rest)| rest);
    match body.split_once(" → v") {
        Some((head, tail)) => match tail.split_once(": ") {
            Some((_, changes)) => format!("{head} → {changes}"),
            None => body.to_owned(),
        },
        None => body.to_owned(),
    }
}

/// The first position (1-based) where `expected` and `got` differ: a step missing on one side is a difference;
/// an expected step that is `None` (not recorded) matches anything.
pub fn first_difference(expected: &[Option<String>], got: &[String]) -> Option<usize> {
    (0..expected.len().max(got.len())).find_map(|i| {
        let differs = match (expected.get(i), got.get(i)) {
            (Some(None), _) => false,
            (Some(Some(want)), Some(have)) => normalized(want) != normalized(have),
            _ => true,
        };
        differs.then_some(i + 1)
    })
}

/// Replays `messages` into `session` in one `dispatch`; the answer's text and whether it was an error.
async fn replay_into(
    session: &Session,
    messages: &[Message],
    timeout: Duration,
) -> Result<(String, bool), Failure> {
    let result = if messages.is_empty() {
        call_tool(session, "snapshot", None, timeout).await?
    } else {
        let mut arguments = JsonObject::new();
        let entries: Vec<Value> = messages.iter().map(Message::entry).collect();
        arguments.insert("messages".into(), json!(entries));
        call_tool(session, "dispatch", Some(arguments), timeout).await?
    };
    let failed = result.get("isError").and_then(Value::as_bool) == Some(true);
    Ok((text::result_text(&result), failed))
}

/// What a replay answered instead of step `position`: the reason it stopped there, or that it stopped earlier.
fn missing_step(answer: &str, position: usize) -> String {
    match stopped_at(answer) {
        Some(stop) if stop == position => answer
            .lines()
            .find(|line| line.starts_with("stopped at message "))
            .unwrap_or("stopped")
            .to_owned(),
        _ => "no step (the replay answered fewer steps)".to_owned(),
    }
}

/// The journal at `path`, or a usage failure naming it.
fn read_journal(path: &Path) -> Result<journal::Journal, Failure> {
    let journal = journal::read(path, false).map_err(|e| {
        Failure::Usage(format!(
            "cannot read the journal {}: {}",
            path.display(),
            app::io_reason(&e)
        ))
    })?;
    if let Some((line, reason)) = &journal.unreadable {
        return Err(Failure::Usage(format!(
            "line {line} of {} cannot be read: {reason}",
            path.display()
        )));
    }
    Ok(journal)
}

/// `replay --check`: replays the journal and fails on the first step that differs from the recorded one.
pub async fn replay_check(
    launch: &Launch,
    path: &Path,
    timeout: Duration,
) -> Result<String, Failure> {
    let journal = read_journal(path)?;
    let messages = &journal.messages;
    let expected: Vec<Option<String>> = messages
        .iter()
        .enumerate()
        .map(|(i, message)| recorded_step(i + 1, message))
        .collect();
    let recorded = expected.iter().filter(|step| step.is_some()).count();
    if recorded == 0 {
        return Err(Failure::Usage(format!(
            "{} records no step lines (no line has \"changes\": it was written before ranvier recorded them, or holds \
             no message that ran), so there is nothing to check; replay it without --check",
            path.display()
        )));
    }
    let session = app::connect(launch).await?;
    let replayed = replay_into(&session, messages, timeout).await;
    session.stop().await;
    let (answer, _) = replayed?;
    let got = step_lines(&answer, messages);
    match first_difference(&expected, &got) {
        None => Ok(format!(
            "{answer}\ncheck passed: the {recorded} recorded step{} match{}",
            if recorded == 1 { "" } else { "s" },
            if recorded < messages.len() {
                format!(
                    " ({} message(s) without a recorded step ran unchecked)",
                    messages.len() - recorded
                )
            } else {
                String::new()
            }
        )),
        Some(position) => {
            let message = &messages[position - 1];
            let mut out = format!(
                "check failed at message {position} of {} (line {} of {}): {} {}",
                messages.len(),
                message.line,
                path.display(),
                message.name,
                message.args
            );
            let _ = write!(
                out,
                "\n  recorded: {}\n  replayed: {}",
                expected[position - 1]
                    .as_deref()
                    .unwrap_or("(not recorded)"),
                got.get(position - 1)
                    .cloned()
                    .unwrap_or_else(|| missing_step(&answer, position))
            );
            Err(Failure::Tool(out))
        }
    }
}

/// `compare`: replays the journal into two builds and reports the first message after which their snapshots
/// differ, value by value, with both step lines.
pub async fn compare(
    a: &Launch,
    b: &Launch,
    path: &Path,
    timeout: Duration,
) -> Result<String, Failure> {
    let journal = read_journal(path)?;
    let messages = &journal.messages;
    let (first, second) = tokio::join!(app::connect(a), app::connect(b));
    let (first, second) = match (first, second) {
        (Ok(first), Ok(second)) => (first, second),
        (Err(e), Ok(session)) | (Ok(session), Err(e)) => {
            session.stop().await;
            return Err(e);
        }
        (Err(e), Err(_)) => return Err(e),
    };
    let outcome = compare_sessions(&first, &second, messages, path, timeout).await;
    tokio::join!(first.stop(), second.stop());
    let (report, differ) = outcome?;
    if differ {
        Err(Failure::Tool(report))
    } else {
        Ok(report)
    }
}

async fn compare_sessions(
    a: &Session,
    b: &Session,
    messages: &[Message],
    path: &Path,
    timeout: Duration,
) -> Result<(String, bool), Failure> {
    let (start_a, start_b) = tokio::join!(state_at(a, None, timeout), state_at(b, None, timeout));
    let (start_a, start_b) = (start_a?, start_b?);
    if start_a.1 != start_b.1 {
        return Ok((
            format!(
                "the builds differ before any message:\n{}",
                values_diff(&start_a.1, &start_b.1)
            ),
            true,
        ));
    }
    let (ra, rb) = tokio::join!(
        replay_into(a, messages, timeout),
        replay_into(b, messages, timeout)
    );
    let ((answer_a, _), (answer_b, _)) = (ra?, rb?);
    let steps_a = step_lines(&answer_a, messages);
    let steps_b = step_lines(&answer_b, messages);
    let expected: Vec<Option<String>> = steps_a.iter().cloned().map(Some).collect();
    let differs_at = first_difference(&expected, &steps_b).filter(|p| *p <= messages.len());
    let Some(position) = differs_at else {
        let last = |answer: &str| answer.lines().last().unwrap_or("").to_owned();
        return Ok((
            format!(
                "no difference: both builds answer the same {} step{} → A {}, B {}",
                steps_a.len(),
                if steps_a.len() == 1 { "" } else { "s" },
                last(&answer_a),
                last(&answer_b)
            ),
            false,
        ));
    };
    let message = &messages[position - 1];
    let step = |steps: &[String], answer: &str| {
        steps
            .get(position - 1)
            .cloned()
            .unwrap_or_else(|| missing_step(answer, position))
    };
    let (step_a, step_b) = (step(&steps_a, &answer_a), step(&steps_b, &answer_b));
    let mut out = format!(
        "the builds differ after message {position} of {} (line {} of {}): {} {}\n  A: {step_a}\n  B: {step_b}",
        messages.len(),
        message.line,
        path.display(),
        message.name,
        message.args
    );
    // the snapshots each build published after that message, value by value
    let (after_a, after_b) = tokio::join!(
        state_at(a, step_version(&step_a), timeout),
        state_at(b, step_version(&step_b), timeout)
    );
    if let (Ok(after_a), Ok(after_b)) = (after_a, after_b) {
        let _ = write!(
            out,
            "\nvalues after it (A v{}, B v{}):\n{}",
            after_a.0,
            after_b.0,
            values_diff(&after_a.1, &after_b.1)
        );
    }
    Ok((out, true))
}

/// The version a step line reached (`… → v3: …`).
fn step_version(step: &str) -> Option<u64> {
    let tail = step.split_once(" → v")?.1;
    tail.split_once(':')?.0.parse().ok()
}

/// The state at `version` (the current one when `None`, or when the step has none): its version and values.
async fn state_at(
    session: &Session,
    version: Option<u64>,
    timeout: Duration,
) -> Result<(u64, serde_json::Map<String, Value>), Failure> {
    let arguments = version.map(|version| {
        let mut arguments = JsonObject::new();
        arguments.insert("version".into(), json!(version));
        arguments
    });
    let result = call_tool(session, "snapshot", arguments, timeout).await?;
    let document = result
        .get("structuredContent")
        .cloned()
        .or_else(|| serde_json::from_str(&text::result_text(&result)).ok())
        .unwrap_or_default();
    let version = document.get("version").and_then(Value::as_u64).unwrap_or(0);
    let values = document
        .get("values")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    Ok((version, values))
}

/// One line per value that differs: `  total: A 450, B 900` (a value only one build exposes says so). A collection
/// (rows that each carry a `"key"`) shows the rows that differ, each side's in its order, not the whole lists.
fn values_diff(a: &serde_json::Map<String, Value>, b: &serde_json::Map<String, Value>) -> String {
    let mut lines = Vec::new();
    for (name, left) in a {
        match b.get(name) {
            Some(right) if right == left => {}
            Some(right) => match both_hold_rows(left, right)
                .then(|| ranvier::exposure::changed_rows(left, right))
                .flatten()
            {
                Some((left, right)) => lines.push(format!(
                    "  {name}: A {left} (rows that differ), B {right} (rows that differ)"
                )),
                None => lines.push(format!("  {name}: A {left}, B {right}")),
            },
            None => lines.push(format!("  {name}: A {left}, B (not exposed)")),
        }
    }
    for (name, right) in b {
        if !a.contains_key(name) {
            lines.push(format!("  {name}: A (not exposed), B {right}"));
        }
    }
    if lines.is_empty() {
        "  (every value equal)".to_owned()
    } else {
        lines.join("\n")
    }
}

/// Whether both values are non-empty lists (a side that is empty is shown as it is: all its rows differ).
fn both_hold_rows(a: &Value, b: &Value) -> bool {
    [a, b]
        .iter()
        .all(|v| v.as_array().is_some_and(|rows| !rows.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_differs_by_its_rows() {
        let values = |rows: Value| {
            let mut map = serde_json::Map::new();
            map.insert("total".into(), Value::from(1));
            map.insert("lines".into(), rows);
            map
        };
        let a = values(
            serde_json::json!([{"key": "a", "n": 1}, {"key": "b", "n": 2}, {"key": "c", "n": 3}]),
        );
        let b = values(
            serde_json::json!([{"key": "a", "n": 1}, {"key": "b", "n": 5}, {"key": "c", "n": 3}]),
        );
        assert_eq!(
            values_diff(&a, &b),
            r#"  lines: A [{"key":"b","n":2}] (rows that differ), B [{"key":"b","n":5}] (rows that differ)"#
        );
        // an empty side is a plain value
        let empty = values(serde_json::json!([]));
        assert_eq!(
            values_diff(&empty, &b),
            format!("  lines: A [], B {}", b["lines"])
        );
    }

    fn message(name: &str, changes: Option<Vec<(String, Value, Value)>>) -> Message {
        Message {
            line: 1,
            name: name.into(),
            args: json!({"percent": 10}),
            version: Some(3),
            changes,
        }
    }

    #[test]
    fn a_recorded_step_reads_as_the_dispatch_answers_it() {
        let recorded = message(
            "set_discount",
            Some(vec![("discount".into(), json!(0), json!(10))]),
        );
        assert_eq!(
            recorded_step(2, &recorded).as_deref(),
            Some("2 set_discount {\"percent\":10} → v3: discount 0→10")
        );
        assert_eq!(recorded_step(2, &message("set_discount", None)), None);
    }

    #[test]
    fn steps_compare_without_position_and_version() {
        assert_eq!(
            normalized("2 set_discount {\"percent\":10} → v3: discount 0→10"),
            "set_discount {\"percent\":10} → discount 0→10"
        );
        let want = vec![
            Some("1 a {} → v1: x 0→1".to_owned()),
            None,
            Some("3 c {} → v3: x 1→2".into()),
        ];
        let same = [
            "1 a {} → v4: x 0→1".to_owned(),
            "2 b {} → v5: y 0→1".into(),
            "3 c {} → v6: x 1→2".into(),
        ];
        assert_eq!(first_difference(&want, &same), None);
        let other = [
            "1 a {} → v1: x 0→1".to_owned(),
            "2 b {} → v2: y 0→1".into(),
            "3 c {} → v3: x 1→3".into(),
        ];
        assert_eq!(first_difference(&want, &other), Some(3));
        assert_eq!(first_difference(&want, &same[..1]), Some(3));
    }
}
