//! The cap on live `initialize` sessions ([`HttpOptions::max_sessions`](super::HttpOptions::max_sessions)).
//!
//! rmcp's session manager keeps every session until it is deleted or idles past its keep-alive. In front of it,
//! [`Sessions`] keeps, for each session, when a request last named it and how many of its requests are in flight
//! (an open GET stream counts until it closes). A new session at the cap first ends the live session least recently
//! used that has nothing in flight (its client gets 404 on its next request and, as the MCP spec says, starts a new
//! session); when every session has something in flight, the new one is refused with 503 and the reason.
//!
//! A session that ends — deleted by its client, ended at the cap, or idle past its keep-alive — takes the forks it
//! made with it ([`Sessions::reap`], run after each `DELETE`, before a new session is made, and every second while
//! the service lives).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use axum::body::Body;
use axum::http::{HeaderValue, Response, StatusCode, header};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// The live sessions' use, beside rmcp's session manager.
pub(super) struct Sessions {
    pub(super) manager: Arc<LocalSessionManager>,
    /// Called with each session that ended (the adapter drops its forks).
    ended: Box<dyn Fn(&str) + Send + Sync>,
    max: usize,
    uses: Arc<Mutex<HashMap<Arc<str>, Use>>>,
    /// Held while a session is made, so two `initialize` calls cannot both take the last place.
    creating: tokio::sync::Mutex<()>,
}

#[derive(Debug, Clone, Copy)]
struct Use {
    last: Instant,
    in_flight: usize,
}

impl Sessions {
    pub(super) fn new(
        manager: Arc<LocalSessionManager>,
        ended: Box<dyn Fn(&str) + Send + Sync>,
        max: usize,
    ) -> Self {
        Self {
            manager,
            ended,
            max,
            uses: Arc::default(),
            creating: tokio::sync::Mutex::new(()),
        }
    }

    /// Makes room for one more session, ending the least recently used idle one at the cap; the 503 to answer when
    /// every session is busy. Hold the returned guard until the new session is [recorded](Self::created).
    #[allow(clippy::result_large_err)]
    pub(super) async fn make_room(
        &self,
    ) -> Result<tokio::sync::MutexGuard<'_, ()>, Response<Body>> {
        let creating = self.creating.lock().await;
        // forget sessions that ended (deleted, or idle past their expiry)
        let live = self.reap().await;
        let victims = {
            let uses = self.uses.lock().unwrap_or_else(PoisonError::into_inner);
            let excess = (live.len() + 1).saturating_sub(self.max);
            if excess == 0 {
                Vec::new()
            } else {
                let mut idle: Vec<(Option<Instant>, &Arc<str>)> = live
                    .iter()
                    .filter_map(|id| match uses.get(id) {
                        Some(used) if used.in_flight > 0 => None,
                        Some(used) => Some((Some(used.last), id)),
                        None => Some((None, id)), // never seen in use: oldest
                    })
                    .collect();
                if idle.len() < excess {
                    return Err(self.full());
                }
                idle.sort();
                idle.truncate(excess);
                idle.into_iter().map(|(_, id)| id.clone()).collect()
            }
        };
        for id in victims {
            let _ = self.manager.close_session(&id).await;
            self.uses
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&id);
            (self.ended)(&id);
        }
        Ok(creating)
    }

    /// Forgets every session rmcp no longer has (deleted, ended at the cap, or idle past its keep-alive) and drops
    /// the forks each made; returns the live sessions.
    pub(super) async fn reap(&self) -> Vec<Arc<str>> {
        let live: Vec<Arc<str>> = self.manager.sessions.read().await.keys().cloned().collect();
        let alive: std::collections::HashSet<&Arc<str>> = live.iter().collect();
        let mut ended = Vec::new();
        self.uses
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|id, _| {
                let keep = alive.contains(id);
                if !keep {
                    ended.push(id.clone());
                }
                keep
            });
        for id in ended {
            (self.ended)(&id);
        }
        live
    }

    /// Reaps every second while `sessions` lives and `cancel` is not cancelled (on the current Tokio runtime; with
    /// none, sessions are reaped only after a `DELETE` and before a new session).
    pub(super) fn reap_periodically(
        sessions: &Arc<Self>,
        cancel: tokio_util::sync::CancellationToken,
    ) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let weak = Arc::downgrade(sessions);
        runtime.spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(1));
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = cancel.cancelled() => return,
                    _ = every.tick() => {}
                }
                let Some(sessions) = weak.upgrade() else {
                    return;
                };
                sessions.reap().await;
            }
        });
    }

    /// Records a session just made.
    pub(super) fn created(&self, id: &str) {
        self.uses
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(
                id.into(),
                Use {
                    last: Instant::now(),
                    in_flight: 0,
                },
            );
    }

    /// Marks a request of session `id` in flight until the returned guard drops (with the answer's body); `None`
    /// for a session not live (rmcp answers 404).
    pub(super) fn begin(&self, id: &str) -> Option<InFlight> {
        let mut uses = self.uses.lock().unwrap_or_else(PoisonError::into_inner);
        let key = uses.get_key_value(id)?.0.clone();
        let used = uses.get_mut(id)?;
        used.in_flight += 1;
        used.last = Instant::now();
        Some(InFlight {
            uses: self.uses.clone(),
            id: key,
        })
    }

    /// How many sessions are live, for tests and reports.
    #[cfg(test)]
    async fn live(&self) -> usize {
        self.manager.sessions.read().await.len()
    }

    fn full(&self) -> Response<Body> {
        let mut response = super::plain(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!(
                "Service Unavailable: {} sessions are open, the limit (HttpOptions::max_sessions), and each has a \
                 request or stream in flight; retry later, or end a session with DELETE",
                self.max
            ),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        response
    }
}

/// A session's request in flight (see [`Sessions::begin`]).
pub(super) struct InFlight {
    uses: Arc<Mutex<HashMap<Arc<str>, Use>>>,
    id: Arc<str>,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut uses = self.uses.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(used) = uses.get_mut(&self.id) {
            used.in_flight = used.in_flight.saturating_sub(1);
            used.last = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn make(sessions: &Sessions) -> Arc<str> {
        let _creating = sessions.make_room().await.expect("room");
        let (id, _transport) = sessions.manager.create_session().await.expect("created");
        sessions.created(&id);
        id
    }

    #[tokio::test]
    async fn at_the_cap_the_least_recently_used_idle_session_goes_and_busy_ones_stay() {
        let sessions = Sessions::new(
            Arc::new(LocalSessionManager::default()),
            Box::new(|_| {}),
            3,
        );
        let a = make(&sessions).await;
        let b = make(&sessions).await;
        let c = make(&sessions).await;
        assert_eq!(sessions.live().await, 3);
        // a is used again (so b is the least recently used) and c has a stream open
        drop(sessions.begin(&a));
        let stream = sessions.begin(&c).expect("live");
        let d = make(&sessions).await;
        let live = sessions.manager.sessions.read().await;
        assert!(!live.contains_key(&b), "b went");
        assert!(live.contains_key(&a) && live.contains_key(&c) && live.contains_key(&d));
        drop(live);
        // every session busy: 503 with the reason
        let busy: Vec<_> = [&a, &d].iter().map(|id| sessions.begin(id)).collect();
        let refused = sessions.make_room().await.expect_err("refused");
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(sessions.live().await, 3);
        drop(stream);
        drop(busy);
        // c's stream closed: it can go now
        assert!(sessions.make_room().await.is_ok());
        assert_eq!(sessions.live().await, 2);
        // an unknown id is not tracked
        assert!(sessions.begin("no-such-session").is_none());
    }
}
