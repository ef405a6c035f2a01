//! Waiting until the flights a dispatch started have settled: [`ExposureHandle::wait_settled`]. The graph thread's
//! flight executor wakes the wait each time one of its flights finishes or is cancelled; nothing polls.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::handle::{ExposureHandle, Waiting};
use super::snapshot::Snapshot;
use super::timer;
use crate::async_memo::FlightInfo;
use crate::graph::flights;

/// What [`ExposureHandle::wait_settled`] saw when it returned.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Settled {
    /// The snapshot then.
    pub snapshot: Arc<Snapshot>,
    /// The flights started since the instant given that were still pending, oldest first: empty when every one
    /// settled (or was cancelled) in time.
    pub pending: Vec<FlightInfo>,
}

impl ExposureHandle {
    /// Waits until no flight of the graph's async memos started at or after `since` is pending, or until `timeout`
    /// passes, and says what it saw then. A dispatch's flights are the ones started since just before it was sent:
    /// take `Instant::now()` before dispatching.
    ///
    /// The graph thread's flight executor wakes the wait whenever a flight finishes or is cancelled, and the wait
    /// looks at the flights again then, on the graph thread; nothing polls. A dropped future lets go of its wait at
    /// once; while it waits, [`waiting`](Self::waiting) counts it. After the host is disposed it returns at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    ///
    /// use ranvier::exposure::{Exposure, Decoder};
    /// use ranvier::host::{GraphHost, block_on};
    /// use ranvier::{AsyncMemo, Mvu};
    ///
    /// let host = GraphHost::start(|| {
    ///     let weight = Mvu::new(1_i64, |weight: i64, _| weight);
    ///     let quote = AsyncMemo::new({
    ///         let weight = weight.clone();
    ///         move |_| {
    ///             let weight = weight.model();
    ///             async move { weight * 100 } // the "remote call"
    ///         }
    ///     });
    ///     let mut exposure = Exposure::new();
    ///     exposure.value("quote", move || quote.get().value_or(0))?;
    ///     let set: Decoder<i64> =
    ///         Box::new(|args| args["weight"].as_i64().ok_or_else(|| "`weight`: an integer".into()));
    ///     exposure.messages(&weight, vec![("set_weight".into(), set)])?;
    ///     exposure.start()
    /// })?;
    /// let exposure = host.invoke(|handle| handle.clone()).wait()?;
    /// let began = Instant::now();
    /// block_on(exposure.dispatch("set_weight", serde_json::json!({"weight": 4}))).unwrap();
    /// let settled = block_on(exposure.wait_settled(began, Duration::from_secs(30)));
    /// assert_eq!(settled.pending, vec![]);
    /// assert_eq!(settled.snapshot.get("quote"), Some(&serde_json::json!(400)));
    /// host.dispose();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn wait_settled(&self, since: Instant, timeout: Duration) -> Settled {
        let shared = self.shared();
        let _waiting = Waiting::new(&shared.waiting);
        let deadline = Instant::now().checked_add(timeout);
        loop {
            // read before looking: a change while the graph thread looks wakes the wait below at once
            let seen = shared.flights.changes();
            let pending = self.pending_since(since).await;
            if pending.is_empty() {
                return Settled {
                    snapshot: self.snapshot(),
                    pending,
                };
            }
            let changed = shared.flights.changed_since(seen);
            let in_time = match deadline {
                Some(deadline) => timer::until(deadline, changed).await.is_some(),
                None => {
                    changed.await;
                    true
                }
            };
            if !in_time {
                return Settled {
                    snapshot: self.snapshot(),
                    pending: self.pending_since(since).await,
                };
            }
        }
    }

    /// The flights started at or after `since` that are pending, read on the graph thread (none once the host is
    /// gone).
    async fn pending_since(&self, since: Instant) -> Vec<FlightInfo> {
        self.on_graph(move || flights::flights_started_since(Some(since)))
            .await
            .unwrap_or_default()
    }
}
