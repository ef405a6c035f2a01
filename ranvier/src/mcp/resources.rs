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
}

/// Resolves `uri` against the exposed names.
pub(crate) fn target(uri: &str, names: &[String]) -> Option<Target> {
    if uri == text::STATE_URI {
        return Some(Target::State);
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
pub(crate) fn read(uri: &str, target: &Target, snapshot: &Snapshot) -> ReadResourceResult {
    let body = match target {
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
}

impl ChangeFeed {
    /// Starts from the current snapshot: only later publications are reported.
    pub(crate) fn new(handle: &ExposureHandle) -> Self {
        Self {
            publications: handle.publications(),
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
        let first = self.publications.next().await?;
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
        Some(uris)
    }
}

/// The snapshots current when `subscriptions/listen` requests were accepted, oldest first.
///
/// rmcp sends the acknowledgement before it calls `listen`; a `listen` starts from the oldest baseline kept and
/// removes the newest, so a dispatch made right after the acknowledgement is not missed. Each `listen` removes one
/// baseline, newest first, so the oldest left is never newer than any waiting listener's own: when two sessions
/// listen at once, one may start from the other's older baseline, which adds a notification and never loses one.
/// At most [`Self::MAX`] are kept.
#[derive(Default)]
pub(crate) struct AcceptedBaselines {
    snapshots: Mutex<std::collections::VecDeque<Arc<Snapshot>>>,
}

impl AcceptedBaselines {
    /// Baselines kept for listens that have not started yet.
    const MAX: usize = 64;

    pub(crate) fn push(&self, snapshot: Arc<Snapshot>) {
        let mut snapshots = self.snapshots.lock().unwrap_or_else(|e| e.into_inner());
        if snapshots.len() < Self::MAX {
            snapshots.push_back(snapshot);
        }
    }

    pub(crate) fn take(&self) -> Option<Arc<Snapshot>> {
        let mut snapshots = self.snapshots.lock().unwrap_or_else(|e| e.into_inner());
        let oldest = snapshots.front().cloned();
        snapshots.pop_back();
        oldest
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

    #[test]
    fn a_listener_never_starts_after_its_own_acceptance() {
        let baselines = AcceptedBaselines::default();
        // One session: each listen starts exactly where it was accepted.
        baselines.push(snapshot(1));
        assert_eq!(baselines.take().map(|s| s.version), Some(1));
        baselines.push(snapshot(4));
        assert_eq!(baselines.take().map(|s| s.version), Some(4));
        assert!(baselines.take().is_none());
        // Two sessions accepted at 5 then 7, the second listening first: neither starts after its acceptance.
        baselines.push(snapshot(5));
        baselines.push(snapshot(7));
        assert_eq!(
            baselines.take().map(|s| s.version),
            Some(5),
            "the later listener starts earlier: harmless"
        );
        assert_eq!(
            baselines.take().map(|s| s.version),
            Some(5),
            "the earlier one starts at its own"
        );
        assert!(baselines.take().is_none());
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
