//! The journal: every accepted message, with the version it produced and who sent it.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ExposeError;
use super::approval::ApprovalRecord;

/// The environment variable naming a file each accepted message is appended to, as one JSON line
/// (`{"name":…,"args":…,"version":…,"sender":…}`, plus `"approval":{…}` for a message a person answered).
/// A denied message's line has `"approval":{"approved":false,…}`: it did not run, and a replay skips it.
pub const JOURNAL_ENV: &str = "RANVIER_JOURNAL";

/// One accepted message, as recorded in the journal (and as one JSON line in the journal file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// The message's name.
    pub name: String,
    /// Its arguments, as sent.
    pub args: Value,
    /// The version once it and its effects had run.
    pub version: u64,
    /// Who sent it: `"app"` for in-process dispatch, the MCP client's name for the adapter.
    pub sender: String,
    /// For a message that needed approval: who answered and how. A denied message did not run (its `version` is
    /// the version when it was denied). `None` for every other message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalRecord>,
}

pub(super) struct Journal {
    entries: Mutex<Vec<JournalEntry>>,
    file: Option<JournalFile>,
}

struct JournalFile {
    path: PathBuf,
    file: Mutex<File>,
    failed: AtomicBool,
}

impl Journal {
    /// A journal appending to the file named by `RANVIER_JOURNAL`, when it is set and not empty.
    pub(super) fn from_env() -> Result<Journal, ExposeError> {
        match std::env::var_os(JOURNAL_ENV) {
            Some(path) if !path.is_empty() => Journal::open(PathBuf::from(path)),
            _ => Ok(Journal {
                entries: Mutex::new(Vec::new()),
                file: None,
            }),
        }
    }

    /// A journal appending to `path` (created if missing).
    pub(super) fn open(path: PathBuf) -> Result<Journal, ExposeError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| ExposeError::Journal {
                path: path.display().to_string(),
                error: e.to_string(),
            })?;
        Ok(Journal {
            entries: Mutex::new(Vec::new()),
            file: Some(JournalFile {
                path,
                file: Mutex::new(file),
                failed: AtomicBool::new(false),
            }),
        })
    }

    pub(super) fn record(&self, entry: JournalEntry) {
        if let Some(journal) = &self.file {
            journal.append(&entry);
        }
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(entry);
    }

    pub(super) fn entries(&self) -> Vec<JournalEntry> {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl JournalFile {
    fn append(&self, entry: &JournalEntry) {
        let Ok(mut line) = serde_json::to_string(entry) else {
            return;
        };
        line.push('\n');
        let written = self
            .file
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .write_all(line.as_bytes());
        // Report the first failure only: the app keeps running, and the in-memory journal stays complete.
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
