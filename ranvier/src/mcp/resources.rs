//! The resources `ranvier://state` and `ranvier://state/{name}`, and their update notifications in both eras.
//!
//! Each subscriber (a legacy peer's `resources/subscribe` set, or one `subscriptions/listen` request) runs its own
//! [`ChangeFeed`]: it waits for a publication, takes every publication already queued with it, and yields the URIs
//! whose document changed since the subscriber's last batch. A slow subscriber therefore sees several publications
//! coalesced into one batch, and the batch always covers the latest change.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ResourceUpdatedNotificationParam,
};
use rmcp::{Peer, RoleServer};
use tokio::sync::watch;

use super::text;
use crate::exposure::{ExposureHandle, Publications, Snapshot};

/// What a resource URI names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// `ranvier://state`.
    State,
    /// `ranvier://state/{name}`, for an exposed name.
    Value(String),
    /// `ranvier://errors`.
    Errors,
}

/// Resolves `uri` against the exposed names.
pub(crate) fn target(uri: &str, names: &[String]) -> Option<Target> {
    if uri == text::STATE_URI {
        return Some(Target::State);
    }
    if uri == text::ERRORS_URI {
        return Some(Target::Errors);
    }
    let name = uri.strip_prefix(text::VALUE_URI_PREFIX)?;
    names
        .iter()
        .any(|known| known == name)
        .then(|| Target::Value(name.to_owned()))
}

/// `resources/list`: the state document, then one resource per exposed value.
pub(crate) fn list(names: &[String]) -> ListResourcesResult {
    let mut resources = vec![
        Resource::new(text::STATE_URI, "state")
            .with_title("Every exposed value")
            .with_description(
                "{\"version\": n, \"values\": {name: value}}: every exposed value at one version",
            )
            .with_mime_type("application/json"),
    ];
    resources.extend(names.iter().map(|name| {
        Resource::new(text::value_uri(name), name.clone())
            .with_description(format!(
                "{{\"version\": n, \"value\": v}}: the exposed value {name}"
            ))
            .with_mime_type("application/json")
    }));
    resources.push(
        Resource::new(text::ERRORS_URI, "errors")
            .with_title("The app's errors")
            .with_description(
                "{\"errors\": [{seq, kind, node, line?, message, version, text}], \"dropped\": n}: panicking memos \
                 and effects, failed flights, refused messages, newest last",
            )
            .with_mime_type("application/json"),
    );
    ListResourcesResult::with_all_items(resources).with_ttl_ms(0)
}

/// `resources/templates/list`: `ranvier://state/{name}`.
pub(crate) fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![
        ResourceTemplate::new(text::VALUE_URI_TEMPLATE, "value")
            .with_description("{\"version\": n, \"value\": v}: one exposed value by name")
            .with_mime_type("application/json"),
    ])
    .with_ttl_ms(0)
}

/// `resources/read` of a resolved target.
pub(crate) fn read(uri: &str, target: &Target, handle: &ExposureHandle) -> ReadResourceResult {
    let snapshot = handle.snapshot();
    let body = match target {
        Target::Errors => {
            let (records, dropped) = handle.errors();
            text::errors_document(&records, dropped).to_string()
        }
        Target::State => text::state_document_text(snapshot.version, &snapshot.values),
        Target::Value(name) => {
            let value = snapshot
                .get(name)
                .cloned()
                .unwrap_or(serde_json::Value::Null);
            text::value_document_text(snapshot.version, &value)
        }
    };
    ReadResourceResult::new(vec![
        ResourceContents::text(body, uri).with_mime_type("application/json"),
    ])
    .with_ttl_ms(0)
}

/// Yields, per batch, the URIs whose document changed since the previous batch.
pub(crate) struct ChangeFeed {
    publications: Publications,
    /// Wakes on each new error (`None` once the exposure is gone).
    errors: Option<watch::Receiver<u64>>,
}

impl ChangeFeed {
    /// Starts from the current snapshot: only later publications are reported.
    pub(crate) fn new(handle: &ExposureHandle) -> Self {
        Self {
            publications: handle.publications(),
            errors: Some(handle.error_events()),
        }
    }

    /// The URIs whose document differs between `baseline` and the snapshot this feed starts from: none if they are
    /// the same version, else `ranvier://state` first, then each changed value in registration order.
    pub(crate) fn changed_since(&self, baseline: &Snapshot) -> Vec<String> {
        let current = self.publications.last_seen();
        if current.version == baseline.version {
            return Vec::new();
        }
        let mut uris = vec![text::STATE_URI.to_owned()];
        uris.extend(
            current
                .values
                .iter()
                .filter(|(name, value)| baseline.get(name) != Some(value))
                .map(|(name, _)| text::value_uri(name)),
        );
        uris
    }

    /// The next batch of changed URIs: `ranvier://state` first, then each changed value in registration order.
    /// `None` once the exposure stops publishing.
    ///
    /// Cancel safe: a publication is consumed only by the call that returns its batch.
    pub(crate) async fn next(&mut self) -> Option<Vec<String>> {
        loop {
            let woke = {
                let publications = &mut self.publications;
                let errors = &mut self.errors;
                tokio::select! {
                    biased;
                    publication = publications.next() => Some(publication),
                    open = async {
                        match errors.as_mut() {
                            Some(errors) => errors.changed().await.is_ok(),
                            None => std::future::pending().await,
                        }
                    } => {
                        if !open {
                            *errors = None;
                        }
                        None
                    }
                }
            };
            let mut uris = match woke {
                Some(publication) => self.batch(publication?),
                None if self.errors.is_none() => continue,
                None => Vec::new(),
            };
            // an error the same message made goes out with its state
            if let Some(errors) = self.errors.as_mut()
                && (uris.is_empty() || errors.has_changed().unwrap_or(false))
            {
                errors.borrow_and_update();
                uris.push(text::ERRORS_URI.to_owned());
            }
            return Some(uris);
        }
    }

    /// The URIs a publication (and those queued after it) changed.
    fn batch(&mut self, first: crate::exposure::Publication) -> Vec<String> {
        let mut changed: BTreeSet<String> = first.changed.into_iter().collect();
        // take whatever else is already queued, so a slow subscriber gets one batch for all of it
        while let Some(queued) = self.publications.try_next() {
            changed.extend(queued.changed);
        }
        let latest = self.publications.last_seen();
        let mut uris = vec![text::STATE_URI.to_owned()];
        uris.extend(
            latest
                .values
                .iter()
                .filter(|(name, _)| changed.contains(name))
                .map(|(name, _)| text::value_uri(name)),
        );
        uris
    }
}

/// The snapshot current when each `subscriptions/listen` request was accepted, until its `listen` starts.
///
/// rmcp accepts a listen request ([`accepted_subscription_filter`](rmcp::ServerHandler::accepted_subscription_filter)),
/// sends the acknowledgement, and only then calls `listen`, all in the request's task; a client may dispatch as soon
/// as it reads the acknowledgement, so `listen` reports what changed since its own acceptance. Neither call is given
/// the request's id, so each baseline is kept under the id of the task both run in, and `listen` takes the one its
/// task left: however many listens are accepted at once, each starts from its own acceptance.
///
/// A request whose acknowledgement could not be sent (the client left) never calls `listen`; its baseline stays
/// until [`Self::MAX`] newer ones push it out, oldest first. A `listen` whose baseline was pushed out (more than
/// [`Self::MAX`] listens between acceptance and start at once) starts from the first baseline ever pushed out, which
/// is no newer than its own: it may report a change it had already seen, never miss one.
#[derive(Default)]
pub(crate) struct AcceptedBaselines {
    /// Oldest first, each under the id of the task that accepted it.
    snapshots: Mutex<std::collections::VecDeque<(Option<tokio::task::Id>, Arc<Snapshot>)>>,
    /// The first baseline pushed out, for the listens whose own was.
    floor: Mutex<Option<Arc<Snapshot>>>,
}

impl AcceptedBaselines {
    /// Baselines kept for listens that have not started yet.
    pub(crate) const MAX: usize = 4096;

    /// Records `snapshot` as the baseline of the listen request the current task serves.
    pub(crate) fn push(&self, snapshot: Arc<Snapshot>) {
        let mut snapshots = lock(&self.snapshots);
        if snapshots.len() >= Self::MAX
            && let Some((_, pushed_out)) = snapshots.pop_front()
        {
            lock(&self.floor).get_or_insert(pushed_out);
        }
        snapshots.push_back((tokio::task::try_id(), snapshot));
    }

    /// The baseline the current task recorded, removed; if it was pushed out, the first one pushed out (see the
    /// type's docs); `None` outside a task, or in a task that recorded none.
    pub(crate) fn take(&self) -> Option<Arc<Snapshot>> {
        let task = tokio::task::try_id()?;
        let mut snapshots = lock(&self.snapshots);
        match snapshots.iter().rposition(|(id, _)| *id == Some(task)) {
            Some(at) => snapshots.remove(at).map(|(_, snapshot)| snapshot),
            None => lock(&self.floor).clone(),
        }
    }
}

/// The legacy (`resources/subscribe`) subscriptions of one peer, keyed by its handshake.
struct PeerSubscriptions {
    /// Identifies the peer: rmcp stores one `Arc` of the `initialize` params per session.
    key: Arc<rmcp::model::InitializeRequestParams>,
    uris: Arc<Mutex<BTreeSet<String>>>,
}

/// Every legacy peer's subscriptions; each peer with at least one subscription has a task sending its notifications.
#[derive(Default)]
pub(crate) struct LegacySubscriptions {
    peers: Mutex<Vec<PeerSubscriptions>>,
}

impl LegacySubscriptions {
    /// Adds `uri` to `peer`'s set, starting the peer's notification task on its first subscription.
    pub(crate) fn subscribe(
        self: &Arc<Self>,
        peer: &Peer<RoleServer>,
        uri: String,
        handle: &ExposureHandle,
        disposed: &watch::Receiver<bool>,
    ) {
        let Some(key) = peer.peer_info() else {
            // a session without a handshake has no identity to key on; serve it by itself
            let uris = Arc::new(Mutex::new(BTreeSet::from([uri])));
            self.spawn(peer.clone(), None, uris, handle, disposed);
            return;
        };
        let mut peers = lock(&self.peers);
        if let Some(existing) = peers.iter().find(|p| Arc::ptr_eq(&p.key, &key)) {
            lock(&existing.uris).insert(uri);
            return;
        }
        let uris = Arc::new(Mutex::new(BTreeSet::from([uri])));
        peers.push(PeerSubscriptions {
            key: key.clone(),
            uris: uris.clone(),
        });
        drop(peers);
        self.spawn(peer.clone(), Some(key), uris, handle, disposed);
    }

    /// Removes `uri` from `peer`'s set.
    pub(crate) fn unsubscribe(&self, peer: &Peer<RoleServer>, uri: &str) {
        let Some(key) = peer.peer_info() else { return };
        if let Some(existing) = lock(&self.peers).iter().find(|p| Arc::ptr_eq(&p.key, &key)) {
            lock(&existing.uris).remove(uri);
        }
    }

    /// Forgets every peer (their tasks stop on the disposal signal).
    pub(crate) fn clear(&self) {
        lock(&self.peers).clear();
    }

    fn spawn(
        self: &Arc<Self>,
        peer: Peer<RoleServer>,
        key: Option<Arc<rmcp::model::InitializeRequestParams>>,
        uris: Arc<Mutex<BTreeSet<String>>>,
        handle: &ExposureHandle,
        disposed: &watch::Receiver<bool>,
    ) {
        let mut feed = ChangeFeed::new(handle);
        let mut disposed = disposed.clone();
        let registry = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let batch = tokio::select! {
                    _ = disposed.wait_for(|d| *d) => break,
                    batch = feed.next() => batch,
                };
                let Some(batch) = batch else { break };
                let wanted: Vec<String> = {
                    let uris = lock(&uris);
                    batch.into_iter().filter(|uri| uris.contains(uri)).collect()
                };
                let mut closed = false;
                for uri in wanted {
                    if *disposed.borrow() {
                        break;
                    }
                    if peer
                        .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                        .await
                        .is_err()
                    {
                        closed = true;
                        break;
                    }
                }
                if closed || peer.is_transport_closed() {
                    break;
                }
            }
            if let (Some(registry), Some(key)) = (registry.upgrade(), key) {
                lock(&registry.peers).retain(|p| !Arc::ptr_eq(&p.key, &key));
            }
        });
    }
}

/// Locks `mutex`, recovering the data if a panic poisoned it (the sets stay consistent under any panic).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(version: u64) -> Arc<Snapshot> {
        Arc::new(Snapshot {
            version,
            values: Vec::new(),
        })
    }

    /// Two hundred listens accepted at once, each in its own task, every one accepted before the state moves on and
    /// started after: each starts from the snapshot of its own acceptance. (A shared list that kept 64 baselines
    /// started the others from the state current when they started, after the change: they missed it.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_listener_starts_from_its_own_acceptance() {
        const LISTENS: usize = 200;
        let baselines = Arc::new(AcceptedBaselines::default());
        let accepted = Arc::new(tokio::sync::Barrier::new(LISTENS + 1));
        let moved_on = Arc::new(tokio::sync::Barrier::new(LISTENS + 1));
        let tasks: Vec<_> = (0..LISTENS as u64)
            .map(|i| {
                let (baselines, accepted, moved_on) =
                    (baselines.clone(), accepted.clone(), moved_on.clone());
                tokio::spawn(async move {
                    baselines.push(snapshot(i));
                    accepted.wait().await;
                    moved_on.wait().await;
                    baselines.take().map(|s| s.version)
                })
            })
            .collect();
        accepted.wait().await;
        // the state moves on here: a baseline taken now would be after it
        moved_on.wait().await;
        for (i, task) in tasks.into_iter().enumerate() {
            let started = task.await.unwrap();
            assert!(
                started.is_some_and(|v| v <= i as u64),
                "listen {i} starts from {started:?}, after its acceptance at {i}: it misses the change"
            );
            assert_eq!(
                started,
                Some(i as u64),
                "listen {i} starts from its own acceptance"
            );
        }
        assert!(
            lock(&baselines.snapshots).is_empty(),
            "every baseline was taken"
        );
    }

    #[tokio::test]
    async fn a_listen_whose_baseline_was_pushed_out_starts_no_later() {
        let baselines = Arc::new(AcceptedBaselines::default());
        let (pushed_out, wait) = tokio::sync::oneshot::channel::<()>();
        let (accepted, was_accepted) = tokio::sync::oneshot::channel::<()>();
        let first = {
            let baselines = baselines.clone();
            tokio::spawn(async move {
                baselines.push(snapshot(1));
                accepted.send(()).unwrap();
                wait.await.unwrap();
                baselines.take().map(|s| s.version)
            })
        };
        was_accepted.await.unwrap();
        // listens that never start push it out
        for version in 2..(2 + AcceptedBaselines::MAX as u64) {
            let baselines = baselines.clone();
            tokio::spawn(async move { baselines.push(snapshot(version)) })
                .await
                .unwrap();
        }
        pushed_out.send(()).unwrap();
        assert_eq!(
            first.await.unwrap(),
            Some(1),
            "its own, the first pushed out"
        );
        assert_eq!(lock(&baselines.snapshots).len(), AcceptedBaselines::MAX);
    }

    #[test]
    fn targets_resolve_only_exposed_names() {
        let names = vec!["count".to_owned()];
        assert_eq!(target("ranvier://state", &names), Some(Target::State));
        assert_eq!(
            target("ranvier://state/count", &names),
            Some(Target::Value("count".into()))
        );
        assert_eq!(target("ranvier://state/nope", &names), None);
        assert_eq!(target("ranvier://other", &names), None);
    }
}
