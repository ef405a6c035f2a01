//! Fuzzes the journal's reading: `ranvier-mcp`'s reader (`replay` reads a journal file with it) on arbitrary text,
//! and the app's writer against it: every line that reads as a [`JournalEntry`] is written back as the app appends
//! it (`RANVIER_JOURNAL`), and the reader must give back each entry's name and arguments, in order, skipping only
//! the denied ones.

#![no_main]

use libfuzzer_sys::fuzz_target;
use ranvier::exposure::JournalEntry;
use serde_json::{Value, json};

/// `ranvier-mcp`'s journal reader: a binary's module, compiled here as it is there.
#[path = "../../ranvier-mcp/src/journal.rs"]
#[allow(dead_code)]
mod reader;

fuzz_target!(|data: &[u8]| {
    // the reader on anything (`read` takes a file's bytes lossily)
    let text = String::from_utf8_lossy(data);
    let journal = reader::parse(&text);
    let lines = text.lines().count();
    for message in &journal.messages {
        assert!(message.line >= 1 && message.line <= lines);
        assert!(!message.args.is_null(), "a line without args reads as {{}}");
    }
    if let Some((line, reason)) = &journal.unreadable {
        assert!(*line >= 1 && *line <= lines && !reason.is_empty());
    }

    // the writer against the reader
    let entries: Vec<JournalEntry> = text
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    let mut file = String::new();
    for entry in &entries {
        file.push_str(&serde_json::to_string(entry).expect("an entry serializes"));
        file.push('\n');
    }
    let replayed = reader::parse(&file);
    assert_eq!(
        replayed.unreadable, None,
        "the app wrote a line its reader cannot read:\n{file}"
    );
    let expected: Vec<(String, Value)> = entries
        .iter()
        .filter(|entry| {
            entry
                .approval
                .as_ref()
                .is_none_or(|approval| approval.approved)
        })
        .map(|entry| {
            let args = if entry.args.is_null() {
                json!({})
            } else {
                entry.args.clone()
            };
            (entry.name.clone(), args)
        })
        .collect();
    let read: Vec<(String, Value)> = replayed
        .messages
        .iter()
        .map(|message| (message.name.clone(), message.args.clone()))
        .collect();
    assert_eq!(
        read, expected,
        "the reader gave back other messages than the app wrote"
    );
});
