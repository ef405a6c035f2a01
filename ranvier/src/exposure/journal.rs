//! The journal: every accepted message, with the version it produced and who sent it.
//!
//! In memory the journal is a ring: it keeps the newest [`DEFAULT_JOURNAL_CAPACITY`] entries within
//! [`DEFAULT_JOURNAL_BYTES`] of arguments (both set with [`Exposure::journal_capacity`](super::Exposure::journal_capacity)),
//! and counts the older ones it dropped ([`ExposureHandle::journal_dropped`](super::ExposureHandle::journal_dropped)).
//! The journal file (`RANVIER_JOURNAL`) is complete: every accepted message is appended to it, whatever the ring drops.

use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use tokio::sync::broadcast;

use super::error::ExposeError;
use super::interrupts::ApprovalRecord;

/// The environment variable naming a file each accepted message is appended to, as one JSON line
/// (`{"name":…,"args":…,"version":…,"sender":…,"changes":[[name,old,new],…]}`, plus `"approval":{…}` for a message a
/// person answered; `changes` are the exposed values a message that ran changed, its step line's data).
/// A denied message's line has `"approval":{"approved":false,…}`: it did not run, and a replay skips it. So does a
/// refused answer's line (`"approval":{"approved":false,"refused":true,…}`: someone tried to answer without the
/// right to; the interrupt stayed open, and its message did not run then).
pub const JOURNAL_ENV: &str = "RANVIER_JOURNAL";

/// How many entries the in-memory journal keeps by default (the newest; older ones are dropped from memory).
pub const DEFAULT_JOURNAL_CAPACITY: usize = 1024;

/// How many bytes of arguments (as JSON text, about) the in-memory journal keeps by default: 8 MiB. The newest entry
/// is kept whatever its size.
pub const DEFAULT_JOURNAL_BYTES: usize = 8 << 20;

/// One accepted message, as recorded in the journal (and as one JSON line in the journal file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// The message's name.
    pub name: String,
    /// Its arguments, as sent.
    pub args: Value,
    /// The version once it and its effects had run.
    pub version: u64,
    /// Who sent it: `"app"` for in-process dispatch, `"person"` for the live page, the MCP client's name for the
    /// adapter (a client named `app` or `person` is recorded as `mcp:app` or `mcp:person`).
    pub sender: String,
    /// For a message that needed approval: who answered and how. A denied message did not run (its `version` is
    /// the version when it was denied). A refused answer ([`ApprovalRecord::refused`]) is no answer: the entry
    /// says someone tried, the message did not run, and its interrupt stayed open. `None` for every other message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalRecord>,
}

/// One line of the journal file for a message that ran: the entry, then `"changes": [[name, old, new], ...]`, the
/// exposed values it changed in registration order (its step line's data; `[]` when it changed none). A replay
/// with `--check` compares them with the new build's; a line without `changes` (a message that did not run, or a
/// journal written before they were recorded) is read as before and checks nothing.
#[derive(Serialize)]
struct FileLine<'a> {
    #[serde(flatten)]
    entry: &'a JournalEntry,
    changes: &'a [(String, Value, Value)],
}

/// How many journal events a [`JournalEvents`] reader may fall behind before it skips the oldest.
const EVENTS_BUFFER: usize = 256;

/// One journal entry as it was recorded, with the exposed values its message changed: what [`JournalEvents`]
/// streams.
#[derive(Clone, Debug, PartialEq)]
pub struct Journaled {
    /// The entry's number: the n-th message journaled is number n, so [`ExposureHandle::journal`]`()[i]` is number
    /// [`journal_dropped`]`() + i + 1`.
    ///
    /// [`ExposureHandle::journal`]: super::ExposureHandle::journal
    /// [`journal_dropped`]: super::ExposureHandle::journal_dropped
    pub seq: u64,
    /// The entry, as the journal records it.
    pub entry: JournalEntry,
    /// The exposed values the message changed, `(name, old, new)`, in registration order (empty for a message that
    /// changed nothing exposed, and for a denied or expired one, which did not run).
    pub changes: Vec<(String, Value, Value)>,
}

/// A stream of every later journal entry, from [`ExposureHandle::journal_events`](super::ExposureHandle::journal_events).
#[derive(Debug)]
pub struct JournalEvents {
    receiver: broadcast::Receiver<Journaled>,
    skipped: u64,
}

impl JournalEvents {
    /// The next entry, as soon as it is recorded. A reader that fell more than 256 entries behind skips the oldest
    /// ones ([`skipped`](Self::skipped) counts them; [`ExposureHandle::journal`](super::ExposureHandle::journal)
    /// still holds them). Never ends while the exposure lives: select it with something that does (its
    /// [`Publications`](super::Publications), which end with the host).
    pub async fn next(&mut self) -> Option<Journaled> {
        loop {
            match self.receiver.recv().await {
                Ok(event) => return Some(event),
                Err(broadcast::error::RecvError::Lagged(n)) => self.skipped += n,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }

    /// How many entries this reader skipped because it fell behind.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }
}

pub(super) struct Journal {
    ring: Mutex<Ring>,
    file: Option<JournalFile>,
    events: broadcast::Sender<Journaled>,
}

/// The newest entries, within a count and a byte budget.
struct Ring {
    entries: VecDeque<(JournalEntry, usize)>,
    /// The sum of the entries' sizes.
    bytes: usize,
    /// Entries dropped from the front so far.
    dropped: u64,
    capacity: usize,
    max_bytes: usize,
}

impl Ring {
    fn new(capacity: usize, max_bytes: usize) -> Self {
        Ring {
            entries: VecDeque::new(),
            bytes: 0,
            dropped: 0,
            capacity: capacity.max(1),
            max_bytes,
        }
    }

    fn push(&mut self, entry: JournalEntry) {
        let size = entry_bytes(&entry);
        self.entries.push_back((entry, size));
        self.bytes += size;
        // the newest entry stays, whatever its size
        while self.entries.len() > 1
            && (self.entries.len() > self.capacity || self.bytes > self.max_bytes)
        {
            let (_, size) = self.entries.pop_front().expect("more than one entry");
            self.bytes -= size;
            self.dropped += 1;
        }
    }
}

/// About how many bytes an entry holds: its strings and the JSON text of its arguments, without serializing them.
fn entry_bytes(entry: &JournalEntry) -> usize {
    fn value_bytes(value: &Value) -> usize {
        match value {
            Value::Null | Value::Bool(_) | Value::Number(_) => 8,
            Value::String(s) => s.len() + 2,
            Value::Array(items) => 2 + items.iter().map(|v| value_bytes(v) + 1).sum::<usize>(),
            Value::Object(map) => {
                2 + map
                    .iter()
                    .map(|(k, v)| k.len() + 4 + value_bytes(v))
                    .sum::<usize>()
            }
        }
    }
    std::mem::size_of::<JournalEntry>()
        + entry.name.len()
        + entry.sender.len()
        + value_bytes(&entry.args)
        + entry.approval.as_ref().map_or(0, |a| {
            a.interrupt.len() + a.by.len() + a.reason.as_ref().map_or(0, String::len)
        })
}

struct JournalFile {
    path: PathBuf,
    file: Mutex<File>,
    failed: AtomicBool,
}

impl Journal {
    /// A journal keeping `capacity` entries within `max_bytes` in memory, appending to the file named by
    /// `RANVIER_JOURNAL` when it is set and not empty.
    pub(super) fn from_env(capacity: usize, max_bytes: usize) -> Result<Journal, ExposeError> {
        match std::env::var_os(JOURNAL_ENV) {
            Some(path) if !path.is_empty() => {
                Journal::open(PathBuf::from(path), capacity, max_bytes)
            }
            _ => Ok(Journal::in_memory(capacity, max_bytes)),
        }
    }

    /// A journal keeping `capacity` entries within `max_bytes` in memory, and appending to no file.
    pub(super) fn in_memory(capacity: usize, max_bytes: usize) -> Journal {
        Journal {
            ring: Mutex::new(Ring::new(capacity, max_bytes)),
            file: None,
            events: broadcast::channel(EVENTS_BUFFER).0,
        }
    }

    /// A journal keeping `capacity` entries within `max_bytes` in memory, appending to `path` (created if missing).
    pub(super) fn open(
        path: PathBuf,
        capacity: usize,
        max_bytes: usize,
    ) -> Result<Journal, ExposeError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| ExposeError::Journal {
                path: path.display().to_string(),
                source: crate::host::Cause::new(e),
            })?;
        Ok(Journal {
            ring: Mutex::new(Ring::new(capacity, max_bytes)),
            file: Some(JournalFile {
                path,
                file: Mutex::new(file),
                failed: AtomicBool::new(false),
            }),
            events: broadcast::channel(EVENTS_BUFFER).0,
        })
    }

    /// Records `entry`, a message that did not run (a denied, expired or refused answer).
    pub(super) fn record(&self, entry: JournalEntry) {
        self.record_entry(entry, Vec::new(), false);
    }

    /// Records `entry`, a message that ran, and streams it with the values its message `changes` to the
    /// [`JournalEvents`] readers. The file's line holds the changes too (its step, for `replay --check`).
    pub(super) fn record_changes(&self, entry: JournalEntry, changes: Vec<(String, Value, Value)>) {
        self.record_entry(entry, changes, true);
    }

    fn record_entry(&self, entry: JournalEntry, changes: Vec<(String, Value, Value)>, ran: bool) {
        if let Some(journal) = &self.file {
            journal.append(&entry, ran.then_some(&changes[..]));
        }
        let mut ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        let event = (self.events.receiver_count() > 0).then(|| entry.clone());
        ring.push(entry);
        if let Some(entry) = event {
            // sent under the lock: the stream's order is the journal's
            let _ = self.events.send(Journaled {
                seq: ring.dropped + ring.entries.len() as u64,
                entry,
                changes,
            });
        }
    }

    /// A new stream of the entries recorded from now on.
    pub(super) fn events(&self) -> JournalEvents {
        JournalEvents {
            receiver: self.events.subscribe(),
            skipped: 0,
        }
    }

    /// The entries held in memory, oldest first.
    pub(super) fn entries(&self) -> Vec<JournalEntry> {
        let ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        ring.entries
            .iter()
            .map(|(entry, _)| entry.clone())
            .collect()
    }

    /// The newest `count` entries numbered below `before`, and the number of the first (see
    /// [`ExposureHandle::journal_window`](super::ExposureHandle::journal_window)).
    pub(super) fn window(&self, before: u64, count: usize) -> (u64, Vec<JournalEntry>) {
        let ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        // entry i of the ring is number dropped + i + 1
        let end = before
            .saturating_sub(ring.dropped + 1)
            .min(ring.entries.len() as u64) as usize;
        let start = end.saturating_sub(count);
        let entries = ring
            .entries
            .range(start..end)
            .map(|(entry, _)| entry.clone())
            .collect();
        (ring.dropped + start as u64 + 1, entries)
    }

    /// The entry in memory of the message that made `version`: the first that ran and reached it (a message that
    /// changed nothing exposed also carries the version it left, and a denied one the version when it was denied).
    pub(super) fn made(&self, version: u64) -> Option<JournalEntry> {
        if version == 0 {
            return None; // the state at start: a message journaled at 0 changed nothing
        }
        let ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        ring.entries
            .iter()
            .rev()
            .skip_while(|(entry, _)| entry.version > version)
            .take_while(|(entry, _)| entry.version == version)
            .filter(|(entry, _)| entry.approval.as_ref().is_none_or(|a| a.approved))
            .last()
            .map(|(entry, _)| entry.clone())
    }

    /// The entries in memory that made a version after `after` and up to `upto`: how many there are, and the newest
    /// `count` of them, oldest first. Only those are copied.
    #[cfg(feature = "mcp")]
    pub(super) fn between_versions(
        &self,
        after: u64,
        upto: u64,
        count: usize,
    ) -> (usize, Vec<JournalEntry>) {
        let ring = self.ring.lock().unwrap_or_else(PoisonError::into_inner);
        let mut all = 0;
        let mut newest = Vec::new();
        for (entry, _) in ring.entries.iter().rev() {
            if entry.version <= after {
                break; // the ring is in version order
            }
            if entry.version > upto {
                continue;
            }
            all += 1;
            if newest.len() < count {
                newest.push(entry.clone());
            }
        }
        newest.reverse();
        (all, newest)
    }

    /// How many entries were dropped from memory (the oldest first).
    pub(super) fn dropped(&self) -> u64 {
        self.ring
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .dropped
    }
}

impl JournalFile {
    fn append(&self, entry: &JournalEntry, changes: Option<&[(String, Value, Value)]>) {
        let line = match changes {
            Some(changes) => {
                // a collection's change as the rows that came, went or changed: the same step line, not the list
                // twice per message
                let shrunk: Vec<(String, Value, Value)>;
                let changes = if changes
                    .iter()
                    .any(|(_, old, new)| old.is_array() && new.is_array())
                {
                    shrunk = changes
                        .iter()
                        .map(
                            |(name, old, new)| match super::rows::changed_rows(old, new) {
                                Some((old, new)) => (name.clone(), old, new),
                                None => (name.clone(), old.clone(), new.clone()),
                            },
                        )
                        .collect();
                    &shrunk[..]
                } else {
                    changes
                };
                serde_json::to_string(&FileLine { entry, changes })
            }
            None => serde_json::to_string(entry),
        };
        let Ok(mut line) = line else {
            return;
        };
        line.push('\n');
        let written = self
            .file
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .write_all(line.as_bytes());
        // Report the first failure only: the app keeps running, and the in-memory journal keeps the newest entries.
        if let Err(e) = written
            && !self.failed.swap(true, Ordering::Relaxed)
        {
            eprintln!(
                "ranvier: cannot append to the journal file {}: {e}",
                self.path.display()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u64, note: &str) -> JournalEntry {
        JournalEntry {
            name: "add".into(),
            args: serde_json::json!({"n": n, "note": note}),
            version: n,
            sender: "app".into(),
            approval: None,
        }
    }

    #[test]
    fn the_ring_keeps_the_newest_entries_within_its_capacity() {
        let mut ring = Ring::new(3, usize::MAX);
        for n in 1..=10 {
            ring.push(entry(n, ""));
            assert!(ring.entries.len() <= 3);
        }
        let versions: Vec<u64> = ring.entries.iter().map(|(e, _)| e.version).collect();
        assert_eq!(versions, [8, 9, 10]);
        assert_eq!(ring.dropped, 7);
    }

    #[test]
    fn the_ring_keeps_within_its_bytes_but_always_the_newest_entry() {
        let big = "x".repeat(10_000);
        let mut ring = Ring::new(1000, 25_000);
        for n in 1..=10 {
            ring.push(entry(n, &big));
            assert!(ring.bytes <= 25_000, "{} bytes held", ring.bytes);
            assert_eq!(
                ring.bytes,
                ring.entries.iter().map(|(_, s)| s).sum::<usize>()
            );
        }
        assert_eq!(ring.entries.len(), 2);
        assert_eq!(ring.dropped, 8);
        // one entry past the whole budget is still kept, alone
        ring.push(entry(11, &"y".repeat(100_000)));
        let versions: Vec<u64> = ring.entries.iter().map(|(e, _)| e.version).collect();
        assert_eq!((versions, ring.dropped), (vec![11], 10));
        ring.push(entry(12, ""));
        let versions: Vec<u64> = ring.entries.iter().map(|(e, _)| e.version).collect();
        assert_eq!((versions, ring.dropped), (vec![12], 11));
    }

    #[test]
    fn an_entry_size_counts_its_arguments() {
        let small = entry_bytes(&entry(1, ""));
        let large = entry_bytes(&entry(1, &"x".repeat(1000)));
        assert_eq!(large - small, 1000);
    }
}
