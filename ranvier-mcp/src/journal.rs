//! Reading a journal file: one accepted message a line, as a ranvier app appends them under `RANVIER_JOURNAL`
//! (`{"name":…,"args":…,"version":…,"sender":…}`).

use std::path::Path;

use serde::Deserialize;
use serde_json::{Value, json};

/// One message of a journal, with its line number.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The 1-based line it was read from.
    pub line: usize,
    /// The message's name.
    pub name: String,
    /// Its arguments (`{}` when the line has none).
    pub args: Value,
    /// The version it made, when the line says.
    pub version: Option<u64>,
    /// The exposed values it changed, `(name, old, new)`, as the app that wrote the journal recorded them (its step
    /// line's data); `None` for a line written before apps recorded them.
    pub changes: Option<Vec<(String, Value, Value)>>,
}

impl Message {
    /// The message as a `dispatch` entry, `{"message": name, "args": args}`.
    pub fn entry(&self) -> Value {
        json!({"message": self.name, "args": self.args})
    }
}

/// A journal's messages up to its first unreadable line.
#[derive(Debug, Default)]
pub struct Journal {
    /// The messages, in order, before any unreadable line.
    pub messages: Vec<Message>,
    /// The first line that could not be read: its number and why.
    pub unreadable: Option<(usize, String)>,
}

#[derive(Deserialize)]
struct Line {
    name: String,
    #[serde(default)]
    args: Value,
    /// `{"approved": false, …}` marks a message a person denied (or nobody answered in time): it did not run, so it
    /// is not replayed. `{"refused": true, …}` marks an answer refused for want of the right to give it: no answer
    /// at all (the message did not run then), so it is not replayed either.
    #[serde(default)]
    approval: Option<Value>,
    #[serde(default)]
    version: Option<u64>,
    /// The step's changes, `[[name, old, new], …]` (absent in journals written before they were recorded).
    #[serde(default)]
    changes: Option<Vec<(String, Value, Value)>>,
}

/// Whether a line's approval record says its message did not run: denied, expired, or a refused answer.
fn did_not_run(approval: Option<&Value>) -> bool {
    approval.is_some_and(|a| {
        a.get("approved") == Some(&Value::Bool(false))
            || a.get("refused") == Some(&Value::Bool(true))
    })
}

/// Parses a journal's text. Blank lines are skipped; the first unreadable line stops the reading.
pub fn parse(text: &str) -> Journal {
    let mut journal = Journal::default();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(line) {
            Ok(Line { approval, .. }) if did_not_run(approval.as_ref()) => {}
            Ok(Line {
                name,
                args,
                version,
                changes,
                ..
            }) => journal.messages.push(Message {
                line: index + 1,
                name,
                args: if args.is_null() { json!({}) } else { args },
                version,
                changes,
            }),
            Err(error) => {
                journal.unreadable = Some((
                    index + 1,
                    format!(
                        "{error}; expected a JSON object such as {{\"name\":\"add_item\",\"args\":{{…}},\"version\":1,\"sender\":\"app\"}}"
                    ),
                ));
                break;
            }
        }
    }
    journal
}

/// Reads and parses the journal at `path`; a missing file is an empty journal when `missing_ok`.
///
/// # Errors
///
/// The I/O error when the file cannot be read.
pub fn read(path: &Path, missing_ok: bool) -> std::io::Result<Journal> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(parse(&String::from_utf8_lossy(&bytes))),
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => Ok(Journal::default()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_messages_and_stops_at_the_first_bad_line() {
        let text = concat!(
            r#"{"name":"add_item","args":{"sku":"a"},"version":1,"sender":"ranvier-mcp"}"#,
            "\n\n",
            r#"{"name":"clear","version":2,"sender":"app"}"#,
            "\n",
            "{oops\n",
            r#"{"name":"clear","args":{},"version":3,"sender":"app"}"#,
            "\n"
        );
        let journal = parse(text);
        assert_eq!(journal.messages.len(), 2);
        assert_eq!(journal.messages[0].line, 1);
        assert_eq!(journal.messages[1].line, 3);
        assert_eq!(
            journal.messages[1].entry(),
            json!({"message": "clear", "args": {}})
        );
        let (line, reason) = journal.unreadable.expect("line 4 is unreadable");
        assert_eq!(line, 4);
        assert!(reason.contains("line 1 column 2"), "{reason}");
    }

    #[test]
    fn denied_expired_and_refused_records_are_not_replayed() {
        let text = concat!(
            r#"{"name":"clear","args":{},"version":1,"sender":"agent","approval":{"interrupt":"i-1","approved":false,"by":"page request without a session","reason":"asked to approve without the page's credential; refused, the interrupt stays open","refused":true}}"#,
            "\n",
            r#"{"name":"clear","args":{},"version":1,"sender":"agent","approval":{"interrupt":"i-1","approved":false,"by":"expiry","expired":true}}"#,
            "\n",
            r#"{"name":"clear","args":{},"version":1,"sender":"agent","approval":{"interrupt":"i-2","approved":false,"by":"person"}}"#,
            "\n",
            r#"{"name":"clear","args":{"n":1},"version":2,"sender":"agent","approval":{"interrupt":"i-3","approved":true,"by":"person"}}"#,
            "\n",
            r#"{"name":"clear","args":{"n":2},"version":2,"sender":"agent","approval":{"interrupt":"i-4","approved":true,"by":"?","refused":true}}"#,
            "\n",
        );
        let journal = parse(text);
        assert!(journal.unreadable.is_none(), "{:?}", journal.unreadable);
        let replayed: Vec<(usize, Value)> = journal
            .messages
            .iter()
            .map(|m| (m.line, m.args.clone()))
            .collect();
        assert_eq!(replayed, [(4, json!({"n": 1}))]);
    }

    #[test]
    fn a_refused_record_as_the_runtime_writes_it_is_not_replayed() {
        use ranvier::exposure::JournalEntry;
        use ranvier::exposure::approval::ApprovalRecord;
        let entry = |refused: bool, approved: bool| JournalEntry {
            name: "clear".into(),
            args: json!({"refused": refused}),
            version: 3,
            sender: "agent".into(),
            approval: Some(ApprovalRecord {
                interrupt: "i-1".into(),
                approved,
                by: "person".into(),
                reason: None,
                expired: false,
                refused,
            }),
        };
        let text = [entry(true, false), entry(false, true)]
            .iter()
            .map(|e| serde_json::to_string(e).unwrap() + "\n")
            .collect::<String>();
        assert!(text.contains(r#""refused":true"#), "{text}");
        let journal = parse(&text);
        let replayed: Vec<&Value> = journal.messages.iter().map(|m| &m.args).collect();
        assert_eq!(replayed, [&json!({"refused": false})], "{text}");
    }

    #[test]
    fn a_line_without_a_name_is_unreadable() {
        let journal = parse("{\"args\":{}}\n");
        assert!(journal.messages.is_empty());
        let (line, reason) = journal.unreadable.unwrap();
        assert_eq!(line, 1);
        assert!(reason.contains("missing field `name`"), "{reason}");
    }
}
