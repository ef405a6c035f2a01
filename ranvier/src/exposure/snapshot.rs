//! Snapshots, publications, and the graph-side publisher that produces them.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::{broadcast, watch};

/// Reads one exposed value and encodes it (errors already turned into an error value).
pub(super) type Read = Box<dyn Fn() -> Value>;
/// A graph-side publication callback.
pub(super) type Callback = Box<dyn FnMut(&Publication)>;
/// Keeps each snapshot published before any reader can see it: the snapshot, the previous one (none for the first)
/// and the indexes of the values that changed (the exposure's history).
pub(super) type Record = Box<dyn Fn(&Arc<Snapshot>, Option<&Snapshot>, &[usize])>;

/// Every exposed value as of one flush, with the version that flush published.
///
/// Immutable and shared (`Arc<Snapshot>`); reading it never enters the graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// 0 for the snapshot taken at `start`, then one higher per publication.
    pub version: u64,
    /// Each exposed value's name and JSON encoding, in registration order.
    pub values: Vec<(String, Value)>,
}

impl Snapshot {
    /// The encoding of the value `name`, if it is exposed.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(taken, _)| taken == name)
            .map(|(_, value)| value)
    }

    /// The values whose encoding differs between `self` (older) and `newer`, as `(name, old, new)`, in
    /// registration order. Both must come from the same exposure.
    pub fn changes_to(&self, newer: &Snapshot) -> Vec<(String, Value, Value)> {
        self.values
            .iter()
            .zip(&newer.values)
            .filter(|((_, old), (_, new))| old != new)
            .map(|((name, old), (_, new))| (name.clone(), old.clone(), new.clone()))
            .collect()
    }
}

/// One published snapshot, and the names of the values whose encoding it changed, in registration order.
#[derive(Clone, Debug, PartialEq)]
pub struct Publication {
    /// The snapshot published.
    pub snapshot: Arc<Snapshot>,
    /// The values whose encoding changed since the previous publication (for a [`Publications`] reader that fell
    /// behind: since the last one it saw).
    pub changed: Vec<String>,
}

/// A stream of [`Publication`]s for one reader, from [`ExposureHandle::publications`](super::ExposureHandle::publications).
///
/// A reader that keeps up (stays within [`Exposure::publication_buffer`](super::Exposure::publication_buffer)
/// publications of the publisher) sees every publication, in version order. One that falls further behind never
/// loses the latest state: it skips to the current snapshot, whose `changed` then lists every value that differs
/// from the last snapshot it saw. The stream ends (`None`) once the host is disposed and every publication was
/// read.
pub struct Publications {
    receiver: broadcast::Receiver<Publication>,
    current: watch::Receiver<Arc<Snapshot>>,
    last: Arc<Snapshot>,
    skipped: u64,
}

enum Next {
    Item(Publication),
    Skip,
    Empty,
    End,
}

impl Publications {
    pub(super) fn new(
        receiver: broadcast::Receiver<Publication>,
        current: watch::Receiver<Arc<Snapshot>>,
    ) -> Publications {
        // Subscribed first, read second: a publication racing with this call is either in the buffer (and skipped
        // as already seen) or in `last`.
        let last = current.borrow().clone();
        Publications {
            receiver,
            current,
            last,
            skipped: 0,
        }
    }

    /// The next publication, waiting for it; `None` once the host is disposed and every publication was read.
    ///
    /// # Cancel safety
    ///
    /// Cancel safe: a publication is only consumed by the call that returns it.
    pub async fn next(&mut self) -> Option<Publication> {
        loop {
            let received = self.receiver.recv().await;
            match self.accept(received.map_err(|e| match e {
                broadcast::error::RecvError::Closed => broadcast::error::TryRecvError::Closed,
                broadcast::error::RecvError::Lagged(n) => broadcast::error::TryRecvError::Lagged(n),
            })) {
                Next::Item(publication) => return Some(publication),
                Next::Skip | Next::Empty => continue,
                Next::End => return None,
            }
        }
    }

    /// The next publication if one is ready, without waiting.
    pub fn try_next(&mut self) -> Option<Publication> {
        loop {
            let received = self.receiver.try_recv();
            match self.accept(received) {
                Next::Item(publication) => return Some(publication),
                Next::Skip => continue,
                Next::Empty | Next::End => return None,
            }
        }
    }

    /// The last snapshot this reader has seen (the current one when it subscribed, then each one returned).
    pub fn last_seen(&self) -> &Arc<Snapshot> {
        &self.last
    }

    /// How many publications this reader skipped because it fell behind.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    fn accept(&mut self, received: Result<Publication, broadcast::error::TryRecvError>) -> Next {
        use broadcast::error::TryRecvError;
        match received {
            Ok(publication) if publication.snapshot.version <= self.last.version => Next::Skip,
            Ok(publication) => {
                if publication.snapshot.version == self.last.version + 1 {
                    self.last = publication.snapshot.clone();
                    Next::Item(publication)
                } else {
                    // Publications between were dropped from the buffer: report the net change since `last`.
                    self.catch_up_to(publication.snapshot)
                }
            }
            Err(TryRecvError::Lagged(_)) => {
                let latest = self.current.borrow().clone();
                if latest.version > self.last.version {
                    self.catch_up_to(latest)
                } else {
                    Next::Skip
                }
            }
            Err(TryRecvError::Empty) => Next::Empty,
            Err(TryRecvError::Closed) => Next::End,
        }
    }

    fn catch_up_to(&mut self, latest: Arc<Snapshot>) -> Next {
        self.skipped += latest.version - self.last.version - 1;
        let changed = self
            .last
            .changes_to(&latest)
            .into_iter()
            .map(|(name, _, _)| name)
            .collect();
        self.last = latest.clone();
        Next::Item(Publication {
            snapshot: latest,
            changed,
        })
    }
}

/// The graph side of snapshots: owned by the publishing effect, and by the registry until the host shuts down.
pub(super) struct Publisher {
    names: Vec<String>,
    reads: Vec<Read>,
    last: RefCell<Option<Arc<Snapshot>>>,
    channels: RefCell<Option<Channels>>,
    callbacks: RefCell<Vec<Callback>>,
    current: watch::Receiver<Arc<Snapshot>>,
    record: Record,
    /// The first snapshot's version: 0, or on a fork the live version it was made at.
    first: u64,
}

struct Channels {
    snapshot: watch::Sender<Arc<Snapshot>>,
    publications: broadcast::Sender<Publication>,
}

impl Publisher {
    pub(super) fn new(
        names: Vec<String>,
        reads: Vec<Read>,
        callbacks: Vec<Callback>,
        buffer: usize,
        first: u64,
        record: Record,
    ) -> Publisher {
        let (snapshot, current) = watch::channel(Arc::new(Snapshot {
            version: first,
            values: Vec::new(),
        }));
        let (publications, _) = broadcast::channel(buffer);
        Publisher {
            names,
            reads,
            last: RefCell::new(None),
            channels: RefCell::new(Some(Channels {
                snapshot,
                publications,
            })),
            callbacks: RefCell::new(callbacks),
            current,
            record,
            first,
        }
    }

    pub(super) fn snapshot_receiver(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.current.clone()
    }

    /// A sender to subscribe readers with. Only valid before [`close`](Self::close).
    pub(super) fn publication_sender(&self) -> broadcast::Sender<Publication> {
        let channels = self.channels.borrow();
        let channels = channels
            .as_ref()
            .expect("publication_sender is called by start, before close");
        channels.publications.clone()
    }

    /// The last snapshot published (the graph is at rest on the graph thread, so it is current).
    pub(super) fn current(&self) -> Arc<Snapshot> {
        self.last
            .borrow()
            .clone()
            .unwrap_or_else(|| self.current.borrow().clone())
    }

    pub(super) fn add_callback(&self, callback: Callback) {
        self.callbacks.borrow_mut().push(callback);
    }

    /// Drops the channels: readers see the end of the stream, `wait_version` stops waiting.
    pub(super) fn close(&self) {
        self.channels.borrow_mut().take();
        self.callbacks.borrow_mut().clear();
    }

    /// The publishing effect's body: reads every value (tracked) and publishes if any encoding changed.
    pub(super) fn publish(&self) {
        let values: Vec<Value> = self.reads.iter().map(|read| read()).collect();
        let previous = self.last.borrow().clone();
        let (version, changed) = match &previous {
            None => (self.first, None),
            Some(previous) => {
                let changed: Vec<usize> = previous
                    .values
                    .iter()
                    .zip(&values)
                    .enumerate()
                    .filter(|(_, ((_, old), new))| old != *new)
                    .map(|(i, _)| i)
                    .collect();
                if changed.is_empty() {
                    return;
                }
                (previous.version + 1, Some(changed))
            }
        };
        let snapshot = Arc::new(Snapshot {
            version,
            values: self.names.iter().cloned().zip(values).collect(),
        });
        (self.record)(
            &snapshot,
            previous.as_deref(),
            changed.as_deref().unwrap_or_default(),
        );
        let changed: Option<Vec<String>> =
            changed.map(|changed| changed.into_iter().map(|i| self.names[i].clone()).collect());
        *self.last.borrow_mut() = Some(snapshot.clone());
        let Some(changed) = changed else {
            if let Some(channels) = &*self.channels.borrow() {
                channels.snapshot.send_replace(snapshot);
            }
            return;
        };
        let publication = Publication { snapshot, changed };
        if let Some(channels) = &*self.channels.borrow() {
            channels.snapshot.send_replace(publication.snapshot.clone());
            if channels.publications.receiver_count() > 0 {
                let _ = channels.publications.send(publication.clone());
            }
        }
        let mut callbacks = std::mem::take(&mut *self.callbacks.borrow_mut());
        if callbacks.is_empty() {
            return;
        }
        for callback in &mut callbacks {
            let _ = catch_unwind(AssertUnwindSafe(|| callback(&publication)));
        }
        // Callbacks registered by a callback were pushed meanwhile: keep them after the earlier ones.
        let mut slot = self.callbacks.borrow_mut();
        callbacks.append(&mut slot);
        *slot = callbacks;
    }
}
