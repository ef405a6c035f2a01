//! Arrival order within one session: the transports number each request as it arrives, before anything awaits, and
//! the adapter applies the requests that change something (`dispatch`, `resume`, `explain`, `resources/subscribe`
//! and `resources/unsubscribe`) in that order.
//!
//! rmcp runs every request in a task of its own, so two requests a client wrote back to back may start in either
//! order. Each request carries a [`Turn`], taken in arrival order from its session's [`Order`] by the transport (the
//! stdio line layer when it reads the line, the HTTP guard when it has read the body). A request that changes
//! something waits for every earlier request of its session to have [released](Turn::release) its turn, does its
//! work, and releases its own. Reads (`snapshot`, `wait_version`, `resources/read`, ...) release theirs at once and
//! never wait. A turn is released when its request is done with, whatever happens to it: dropping the last handle on
//! it releases it, so a request rmcp refuses, or a handler cancelled, never holds up the ones after it.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::RoleServer;
use rmcp::service::RequestContext;
use tokio::sync::watch;

/// One session's numbering of its requests, and which of them are done.
#[derive(Debug)]
pub(crate) struct Order {
    /// The number the next request gets.
    next: AtomicU64,
    /// Every turn below this number is released; the turns above it released so far.
    released: Mutex<(u64, BTreeSet<u64>)>,
    /// The first turn not yet released, for the requests waiting for theirs.
    first_open: watch::Sender<u64>,
}

impl Default for Order {
    fn default() -> Self {
        Self {
            next: AtomicU64::new(0),
            released: Mutex::new((0, BTreeSet::new())),
            first_open: watch::Sender::new(0),
        }
    }
}

impl Order {
    /// The next turn: call it synchronously, as the request arrives.
    pub(crate) fn issue(self: &Arc<Self>) -> Turn {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        Turn(Arc::new(Ticket {
            order: self.clone(),
            number,
            released: AtomicBool::new(false),
        }))
    }

    fn release(&self, number: u64) {
        let mut released = super::resources::lock(&self.released);
        let (below, above) = &mut *released;
        above.insert(number);
        let before = *below;
        while above.remove(below) {
            *below += 1;
        }
        if *below != before {
            self.first_open.send_replace(*below);
        }
    }
}

/// A request's place in its session's [`Order`]. Cheap to clone (clones share the place); kept in the request's
/// extensions (rmcp's, or the HTTP request's parts).
#[derive(Debug, Clone)]
pub(crate) struct Turn(Arc<Ticket>);

#[derive(Debug)]
struct Ticket {
    order: Arc<Order>,
    number: u64,
    released: AtomicBool,
}

impl Turn {
    /// The turn of the request `context` serves, if its transport numbered it (ranvier's stdio and HTTP transports
    /// do; a request that came another way has none and is not ordered).
    pub(crate) fn of(context: &RequestContext<RoleServer>) -> Option<Turn> {
        if let Some(turn) = context.extensions.get::<Turn>() {
            return Some(turn.clone());
        }
        #[cfg(feature = "http")]
        if let Some(parts) = context.extensions.get::<axum::http::request::Parts>() {
            return parts.extensions.get::<Turn>().cloned();
        }
        None
    }

    /// Waits until every request of the session that arrived before this one has released its turn.
    ///
    /// Cancel safe.
    pub(crate) async fn wait(&self) {
        let mut first_open = self.0.order.first_open.subscribe();
        // the sender lives in the order this ticket holds, so the wait ends only by reaching the turn
        let _ = first_open.wait_for(|open| *open >= self.0.number).await;
    }

    /// Lets the requests after this one go (idempotent; also done when the last clone is dropped).
    pub(crate) fn release(&self) {
        self.0.release();
    }
}

/// Runs `future`, releasing `turn` once its first poll has returned.
///
/// For work that hands its part to the graph thread during that poll, as
/// [`ExposureHandle::dispatch_all_as`](crate::exposure::ExposureHandle::dispatch_all_as) does: the graph thread
/// runs what it is handed in order, so the session's next request may hand over its own right behind it, and
/// pipelined dispatches are not held to one round trip each.
pub(crate) async fn released_after_first_poll<F: Future>(
    turn: Option<&Turn>,
    future: F,
) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut turn = turn;
    std::future::poll_fn(|cx| {
        let polled = future.as_mut().poll(cx);
        if let Some(turn) = turn.take() {
            turn.release();
        }
        polled
    })
    .await
}

impl Ticket {
    fn release(&self) {
        if !self.released.swap(true, Ordering::AcqRel) {
            self.order.release(self.number);
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.release();
    }
}

/// Every HTTP session's [`Order`] and the ids of its requests in flight, for the HTTP guard: a session's requests
/// arrive as separate POSTs, numbered once their body is read.
#[cfg(feature = "http")]
#[derive(Debug, Default)]
pub(crate) struct SessionBook {
    inner: Mutex<Book>,
}

#[cfg(feature = "http")]
#[derive(Debug, Default)]
struct Book {
    /// `(session, id)` of every request whose response has not ended.
    in_flight: std::collections::HashSet<(Arc<str>, rmcp::model::RequestId)>,
    /// A session's order lives while one of its requests does; a session with none starts a new one (numbering
    /// restarts, with nothing before it to wait for).
    orders: std::collections::HashMap<Arc<str>, std::sync::Weak<Order>>,
    /// The size of `orders` at which the sessions with no request alive are forgotten.
    prune_at: usize,
}

#[cfg(feature = "http")]
impl SessionBook {
    /// Admits request `id` of `session` as it arrives: its turn, and a hold that keeps `id` in flight until it is
    /// dropped (with the response body). `None` when a request with that id is in flight already.
    pub(crate) fn admit(
        self: &Arc<Self>,
        session: &str,
        id: rmcp::model::RequestId,
    ) -> Option<(Turn, InFlight)> {
        let mut book = super::resources::lock(&self.inner);
        let session: Arc<str> = Arc::from(session);
        if !book.in_flight.insert((session.clone(), id.clone())) {
            return None;
        }
        let order = match book.orders.get(&session).and_then(std::sync::Weak::upgrade) {
            Some(order) => order,
            None => {
                let order = Arc::new(Order::default());
                if book.orders.len() >= book.prune_at {
                    book.orders.retain(|_, order| order.strong_count() > 0);
                    book.prune_at = (book.orders.len() * 2).max(64);
                }
                book.orders.insert(session.clone(), Arc::downgrade(&order));
                order
            }
        };
        Some((
            order.issue(),
            InFlight {
                book: self.clone(),
                key: Some((session, id)),
            },
        ))
    }

    /// How many sessions' orders are kept (some may have no request alive until the next prune).
    #[cfg(test)]
    fn orders(&self) -> usize {
        super::resources::lock(&self.inner).orders.len()
    }
}

/// Keeps a request's id in flight in its session until dropped.
#[cfg(feature = "http")]
#[derive(Debug)]
pub(crate) struct InFlight {
    book: Arc<SessionBook>,
    key: Option<(Arc<str>, rmcp::model::RequestId)>,
}

#[cfg(feature = "http")]
impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            super::resources::lock(&self.book.inner)
                .in_flight
                .remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn turns_come_in_issue_order_whatever_order_they_are_released_in() {
        let order = Arc::new(Order::default());
        let mut turns: Vec<Option<Turn>> = (0..4).map(|_| Some(order.issue())).collect();
        let turn = |turns: &[Option<Turn>], at: usize| turns[at].clone().unwrap();
        turn(&turns, 0).wait().await;
        // the third waits for the first two
        let third = turn(&turns, 2);
        let waiting = tokio::spawn(async move { third.wait().await });
        turn(&turns, 1).release();
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "the first turn is still held");
        drop(turn(&turns, 0));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(
            !waiting.is_finished(),
            "a clone of the first turn went, not the turn"
        );
        turns[0] = None; // the last handle going releases it
        tokio::time::timeout(Duration::from_secs(30), waiting)
            .await
            .expect("the third turn comes once the first two are released")
            .unwrap();
        assert_eq!(*order.first_open.borrow(), 2);
        turn(&turns, 3).release();
        assert_eq!(
            *order.first_open.borrow(),
            2,
            "released out of order: kept above"
        );
        turn(&turns, 2).release();
        assert_eq!(*order.first_open.borrow(), 4);
    }

    #[tokio::test]
    async fn a_turn_can_be_released_after_the_first_poll_of_the_work() {
        let order = Arc::new(Order::default());
        let (first, second) = (order.issue(), order.issue());
        let (finish, finished) = tokio::sync::oneshot::channel::<()>();
        let work = tokio::spawn({
            let first = first.clone();
            async move { released_after_first_poll(Some(&first), finished).await }
        });
        drop(first);
        tokio::time::timeout(Duration::from_secs(30), second.wait())
            .await
            .expect("the second turn comes while the first one's work still waits");
        assert!(!work.is_finished());
        finish.send(()).unwrap();
        work.await.unwrap().unwrap();
    }

    #[cfg(feature = "http")]
    #[test]
    fn an_http_session_keeps_ids_in_flight_and_forgets_idle_orders() {
        use rmcp::model::RequestId;
        let book = Arc::new(SessionBook::default());
        let (first, held) = book.admit("s1", RequestId::Number(7)).unwrap();
        assert!(
            book.admit("s1", RequestId::Number(7)).is_none(),
            "7 is in flight"
        );
        let (other, _) = book.admit("s2", RequestId::Number(7)).unwrap();
        assert_eq!(other.0.number, 0, "another session numbers its own");
        let (second, _held) = book.admit("s1", RequestId::String("7".into())).unwrap();
        assert_eq!((first.0.number, second.0.number), (0, 1));
        drop(held);
        assert!(
            book.admit("s1", RequestId::Number(7)).is_some(),
            "7 answered: free again"
        );
        drop((first, second, other));
        for session in 0..200 {
            let _ = book.admit(&format!("idle{session}"), RequestId::Number(1));
        }
        assert!(
            book.orders() <= 64,
            "orders of sessions with nothing alive go: {}",
            book.orders()
        );
    }
}
