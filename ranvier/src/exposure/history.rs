//! The versions before the current one: a bounded history of published snapshots, so a reader can ask what the
//! state was at an earlier version ([`ExposureHandle::snapshot_at`](super::ExposureHandle::snapshot_at)) and what
//! changed between two ([`Snapshot::changes_to`]).
//!
//! A publication keeps only what it changed: for each version, the values it replaced (their encodings as of the
//! version before). An earlier snapshot is rebuilt from the current one by putting those back, newest first, so the
//! history costs memory in proportion to what changed, not to the size of the state. The undo entries are kept in
//! chunks of 64 versions, so a publication allocates nothing of its own (about 1.08× the instructions of a
//! publication without history, for the cart: `benchmarks/README.md`). It keeps the newest
//! [`DEFAULT_HISTORY_VERSIONS`] versions within [`DEFAULT_HISTORY_BYTES`] of replaced values (both set with
//! [`Exposure::history`](super::Exposure::history)); a version older than that has left the history, and asking
//! for it says which is the oldest still kept.
//!
//! # Examples
//!
//! ```
//! use ranvier::exposure::{Decoder, Exposure, VersionError};
//! use ranvier::host::{block_on, GraphHost};
//! use ranvier::Mvu;
//! use serde_json::json;
//!
//! let host = GraphHost::start(|| {
//!     let counter = Mvu::new(0_i64, |add: i64, count| count + add);
//!     let mut exposure = Exposure::new();
//!     exposure.value("count", { let counter = counter.clone(); move || counter.model() })?;
//!     let add: Decoder<i64> = Box::new(|args| args["n"].as_i64().ok_or_else(|| "`n`: an integer".into()));
//!     exposure.messages(&counter, vec![("add".into(), add)])?;
//!     exposure.history(2, 1 << 20);
//!     exposure.start()
//! })?;
//! let exposure = host.invoke(|handle| handle.clone()).wait()?;
//! for n in [5, 10, 20] {
//!     block_on(exposure.dispatch("add", json!({"n": n}))).unwrap();
//! }
//! // versions 3 (current), 2 and 1 are kept; 0 has left
//! assert_eq!(exposure.snapshot_at(1)?.get("count"), Some(&json!(5)));
//! assert_eq!(exposure.kept_versions(), 1..=3);
//! let gone = exposure.snapshot_at(0).unwrap_err();
//! assert_eq!(gone, VersionError::Gone { asked: 0, oldest: 1, current: 3 });
//! assert_eq!(gone.to_string(), "version 0 has left the history; the oldest kept is 1 and the current is 3");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::ops::RangeInclusive;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use super::snapshot::Snapshot;

/// How many versions before the current one the history keeps by default: an afternoon of an agent's work at a
/// message every couple of seconds.
pub const DEFAULT_HISTORY_VERSIONS: usize = 10_000;

/// How many bytes of replaced values (counted as their JSON text, about) the history keeps by default: 16 MiB.
pub const DEFAULT_HISTORY_BYTES: usize = 16 << 20;

/// A version [`ExposureHandle::snapshot_at`](super::ExposureHandle::snapshot_at) cannot give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// The version is older than the oldest the history still keeps.
    #[error(
        "version {asked} has left the history; the oldest kept is {oldest} and the current is {current}"
    )]
    Gone {
        /// The version asked for.
        asked: u64,
        /// The oldest version still kept.
        oldest: u64,
        /// The current version.
        current: u64,
    },
    /// The version has not been published yet.
    #[error("version {asked} is not published yet; the current is {current}")]
    Future {
        /// The version asked for.
        asked: u64,
        /// The current version.
        current: u64,
    },
}

/// The current snapshot and what each kept version replaced; shared by the publisher (which records) and the
/// handle (which reads), behind one lock so a reader never sees a snapshot without its history.
pub(super) struct History {
    inner: Mutex<Inner>,
}

struct Inner {
    current: Option<Arc<Snapshot>>,
    /// Each kept version's number and bytes, oldest first; the last one is the current version's.
    versions: VecDeque<(u64, usize)>,
    /// The undo entries of full chunks, oldest first. Shared, so that a reader takes what it needs under the lock
    /// and rebuilds outside it: the publisher (the graph thread) never waits for a rebuild.
    sealed: VecDeque<Arc<Chunk>>,
    /// The newest entries, filled by each publication and sealed every [`CHUNK_VERSIONS`] versions: a publication
    /// allocates nothing of its own (a reader copies what it needs of these few under the lock).
    open: Chunk,
    bytes: usize,
    max_versions: usize,
    max_bytes: usize,
}

/// How many versions' undo entries a chunk holds before it is sealed.
const CHUNK_VERSIONS: usize = 64;

/// What publishing some consecutive versions replaced: for each, the changed values' indexes and their encodings
/// as of the version before, in publication order.
#[derive(Default)]
struct Chunk {
    /// `(version, index, encoding as of version - 1)`.
    replaced: Vec<(u64, usize, Value)>,
    /// The newest version it holds entries of.
    last: u64,
    /// How many versions it holds entries of.
    versions: usize,
}

impl History {
    /// A history keeping `versions` versions before the current one within `bytes` of replaced values.
    pub(super) fn new(versions: usize, bytes: usize) -> History {
        History {
            inner: Mutex::new(Inner {
                current: None,
                versions: VecDeque::new(),
                sealed: VecDeque::new(),
                open: Chunk::default(),
                bytes: 0,
                max_versions: versions,
                max_bytes: bytes,
            }),
        }
    }

    /// Records the snapshot just published: `changed` holds the indexes of the values that differ from `previous`
    /// (none for the first snapshot).
    pub(super) fn record(
        &self,
        snapshot: &Arc<Snapshot>,
        previous: Option<&Snapshot>,
        changed: &[usize],
    ) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let inner = &mut *inner;
        if let Some(previous) = previous
            && inner.max_versions > 0
        {
            let mut bytes = 16;
            for &i in changed {
                let old = previous.values[i].1.clone();
                bytes += json_len(&old);
                inner.open.replaced.push((snapshot.version, i, old));
            }
            inner.open.last = snapshot.version;
            inner.open.versions += 1;
            inner.versions.push_back((snapshot.version, bytes));
            inner.bytes += bytes;
            if inner.open.versions == CHUNK_VERSIONS {
                let room = inner.open.replaced.len();
                let full = std::mem::replace(
                    &mut inner.open,
                    Chunk {
                        replaced: Vec::with_capacity(room),
                        ..Chunk::default()
                    },
                );
                inner.sealed.push_back(Arc::new(full));
            }
            while inner.versions.len() > inner.max_versions
                || (inner.bytes > inner.max_bytes && inner.versions.len() > 1)
            {
                let (_, dropped) = inner.versions.pop_front().expect("not empty");
                inner.bytes -= dropped;
            }
            // a chunk all of whose versions have left goes
            let oldest = inner.versions.front().map_or(u64::MAX, |v| v.0);
            while inner.sealed.front().is_some_and(|c| c.last < oldest) {
                inner.sealed.pop_front();
            }
        }
        inner.current = Some(snapshot.clone());
    }

    /// The bytes of replaced values kept now.
    pub(super) fn bytes(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .bytes
    }

    /// The versions that can be given: from the oldest kept to the current.
    pub(super) fn kept(&self) -> RangeInclusive<u64> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let current = inner.current.as_ref().map_or(0, |s| s.version);
        current - inner.versions.len() as u64..=current
    }

    /// The snapshot as it was published at `version`. Only the lookup holds the lock; the rebuild runs outside it.
    pub(super) fn at(&self, version: u64) -> Result<Arc<Snapshot>, VersionError> {
        let (current, sealed, open) = {
            let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
            let Some(current) = inner.current.clone() else {
                return Err(VersionError::Future {
                    asked: version,
                    current: 0,
                });
            };
            if version > current.version {
                return Err(VersionError::Future {
                    asked: version,
                    current: current.version,
                });
            }
            if version == current.version {
                return Ok(current);
            }
            let oldest = current.version - inner.versions.len() as u64;
            if version < oldest {
                return Err(VersionError::Gone {
                    asked: version,
                    oldest,
                    current: current.version,
                });
            }
            // the entries of the versions after the one asked for: what their publications replaced is put back
            let sealed: Vec<Arc<Chunk>> = inner
                .sealed
                .iter()
                .rev()
                .take_while(|c| c.last > version)
                .cloned()
                .collect();
            let open: Vec<(u64, usize, Value)> = inner
                .open
                .replaced
                .iter()
                .rev()
                .take_while(|(v, _, _)| *v > version)
                .cloned()
                .collect();
            (current, sealed, open)
        };
        // newest first, so each value ends as the oldest publication after `version` found it
        let mut values = current.values.clone();
        let newest_first = open.iter().chain(
            sealed
                .iter()
                .flat_map(|chunk| chunk.replaced.iter().rev())
                .take_while(|(v, _, _)| *v > version),
        );
        for (_, i, old) in newest_first {
            values[*i].1 = old.clone();
        }
        Ok(Arc::new(Snapshot { version, values }))
    }
}

/// About how many bytes `value`'s JSON text takes (without writing it).
fn json_len(value: &Value) -> usize {
    match value {
        Value::Null => 4,
        Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(s) => s.len() + 2,
        Value::Array(items) => 2 + items.iter().map(|v| json_len(v) + 1).sum::<usize>(),
        Value::Object(map) => {
            2 + map
                .iter()
                .map(|(k, v)| k.len() + 4 + json_len(v))
                .sum::<usize>()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn snapshot(version: u64, values: &[(&str, Value)]) -> Arc<Snapshot> {
        Arc::new(Snapshot {
            version,
            values: values
                .iter()
                .map(|(n, v)| ((*n).to_owned(), v.clone()))
                .collect(),
        })
    }

    /// Publishes `states` in order into a history of `versions` within `bytes`, as the publisher would.
    fn published(
        states: &[Vec<(&str, Value)>],
        versions: usize,
        bytes: usize,
    ) -> (History, Vec<Arc<Snapshot>>) {
        let history = History::new(versions, bytes);
        let mut all: Vec<Arc<Snapshot>> = Vec::new();
        for (version, values) in states.iter().enumerate() {
            let next = snapshot(version as u64, values);
            let previous = all.last().cloned();
            let changed: Vec<usize> = match &previous {
                Some(p) => (0..values.len())
                    .filter(|&i| p.values[i].1 != next.values[i].1)
                    .collect(),
                None => Vec::new(),
            };
            history.record(&next, previous.as_deref(), &changed);
            all.push(next);
        }
        (history, all)
    }

    #[test]
    fn every_kept_version_is_rebuilt_exactly() {
        let states: Vec<Vec<(&str, Value)>> = (0..40_u64)
            .map(|i| {
                vec![
                    ("a", json!(i / 3)),
                    (
                        "b",
                        json!({"items": (0..i % 5).collect::<Vec<_>>(), "name": "x"}),
                    ),
                    ("c", json!(i % 2 == 0)),
                ]
            })
            .collect();
        let (history, all) = published(&states, 100, 1 << 20);
        for expected in &all {
            assert_eq!(
                history.at(expected.version).unwrap(),
                *expected,
                "version {}",
                expected.version
            );
        }
        assert_eq!(history.kept(), 0..=39);
    }

    #[test]
    fn versions_across_many_chunks_are_rebuilt_exactly_and_the_old_chunks_go() {
        // 300 versions, some changing nothing but one value, kept 100 at a time: sealed chunks are read, cut at
        // the oldest kept version, and dropped once all their versions have left
        let states: Vec<Vec<(&str, Value)>> = (0..300_u64)
            .map(|i| {
                vec![
                    ("a", json!(i / 7)),
                    ("b", json!({"n": i % 11, "s": "x".repeat((i % 4) as usize)})),
                    ("c", json!(i)),
                ]
            })
            .collect();
        let (history, all) = published(&states, 100, 1 << 20);
        assert_eq!(history.kept(), 199..=299);
        for expected in &all[199..] {
            assert_eq!(history.at(expected.version).unwrap(), *expected);
        }
        assert!(matches!(
            history.at(198),
            Err(VersionError::Gone { oldest: 199, .. })
        ));
        let inner = history.inner.lock().unwrap();
        assert_eq!(inner.versions.len(), 100);
        assert!(
            inner.sealed.len() <= 100 / CHUNK_VERSIONS + 1,
            "{}",
            inner.sealed.len()
        );
        drop(inner);
        // the byte bound, with values of every size
        let (history, all) = published(&states, 10_000, 2_000);
        let kept = history.kept();
        assert!(*kept.start() > 0 && *kept.end() == 299, "{kept:?}");
        for expected in &all[*kept.start() as usize..] {
            assert_eq!(history.at(expected.version).unwrap(), *expected);
        }
        assert!(history.bytes() <= 2_000);
    }

    #[test]
    fn the_count_bound_drops_the_oldest_and_says_which_is_kept() {
        let states: Vec<Vec<(&str, Value)>> = (0..10_u64).map(|i| vec![("n", json!(i))]).collect();
        let (history, all) = published(&states, 3, 1 << 20);
        assert_eq!(history.kept(), 6..=9);
        assert_eq!(history.at(6).unwrap(), all[6]);
        assert_eq!(
            history.at(5),
            Err(VersionError::Gone {
                asked: 5,
                oldest: 6,
                current: 9
            })
        );
        assert_eq!(
            history.at(10).unwrap_err().to_string(),
            "version 10 is not published yet; the current is 9"
        );
    }

    #[test]
    fn the_byte_bound_drops_the_oldest_but_keeps_the_newest_change() {
        let big = "x".repeat(1000);
        let states: Vec<Vec<(&str, Value)>> = (0..6_u64)
            .map(|i| vec![("s", json!(format!("{i}{big}")))])
            .collect();
        let (history, all) = published(&states, 100, 2500);
        // each version replaced about 1 KB: two fit in 2.5 KB
        assert_eq!(history.kept(), 3..=5);
        assert_eq!(history.at(3).unwrap(), all[3]);
        let (tiny, all) = published(&states, 100, 10);
        assert_eq!(
            tiny.kept(),
            4..=5,
            "the newest change is kept whatever its size"
        );
        assert_eq!(tiny.at(4).unwrap(), all[4]);
    }

    #[test]
    fn no_history_keeps_only_the_current_version() {
        let states: Vec<Vec<(&str, Value)>> = (0..3_u64).map(|i| vec![("n", json!(i))]).collect();
        let (history, all) = published(&states, 0, 1 << 20);
        assert_eq!(history.kept(), 2..=2);
        assert_eq!(history.at(2).unwrap(), all[2]);
        assert!(matches!(
            history.at(1),
            Err(VersionError::Gone { oldest: 2, .. })
        ));
    }
}
