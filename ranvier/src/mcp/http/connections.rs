//! How [`HttpServer`](super::HttpServer) serves connections: HTTP/1.1 on hyper, with a cap on open connections and
//! the header-read and idle timeouts that `axum::serve` does not have.
//!
//! - Past [`HttpOptions::max_connections`](super::HttpOptions::max_connections), a new connection is answered `503
//!   Service Unavailable` with the reason and closed (while at most [`REFUSING`] of those answers are pending; past
//!   that it is closed at once).
//! - A request's head (request line and headers) must arrive within
//!   [`header_read_timeout`](super::HttpOptions::header_read_timeout) of its first byte, and a new connection must
//!   send a whole head within that time of being accepted.
//! - A connection that has answered every request it read may wait
//!   [`idle_timeout`](super::HttpOptions::idle_timeout) for the next one to start.
//!
//! A connection that misses a deadline is closed without an answer. While a request is being handled (its body read,
//! its answer written, an SSE stream open) neither timeout runs: the body has its own deadline in the guard
//! ([`body_read_timeout`](super::HttpOptions::body_read_timeout)).

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

/// How many connections over the cap may be waiting for their 503 at once; past that, one is closed at once.
pub(super) const REFUSING: usize = 64;

/// How long connections may take to finish their answers once the server shuts down.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The connection limits of [`HttpOptions`](super::HttpOptions), checked.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub(super) header_read_timeout: Duration,
    pub(super) idle_timeout: Duration,
    pub(super) max_connections: u32,
}

/// Accepts connections on `listener` until `cancel`, serving each with `app`; then waits for the open ones to finish
/// (each has [`SHUTDOWN_GRACE`] to).
pub(super) async fn serve(
    listener: TcpListener,
    app: axum::Router,
    limits: Limits,
    cancel: CancellationToken,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections as usize));
    let refusing = Arc::new(Semaphore::new(REFUSING));
    loop {
        let stream = tokio::select! {
            () = cancel.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // out of file descriptors, say: wait a little instead of spinning; a connection reset before it
                    // was accepted needs no pause
                    if !matches!(
                        error.kind(),
                        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionRefused
                    ) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
        };
        // SSE replies go out in several small writes: without TCP_NODELAY, Nagle and delayed ACKs add ~40 ms to each
        let _ = stream.set_nodelay(true);
        if let Ok(slot) = slots.clone().try_acquire_owned() {
            tokio::spawn(serve_connection(
                stream,
                app.clone(),
                limits,
                cancel.clone(),
                slot,
            ));
        } else if let Ok(refusal) = refusing.clone().try_acquire_owned() {
            tokio::spawn(refuse(stream, limits, refusal));
        }
        // else the stream is dropped here: closed without an answer
    }
    drop(listener);
    let _ = slots.acquire_many(limits.max_connections).await;
    Ok(())
}

/// Serves one connection until it ends, misses a deadline, or the server shuts down.
async fn serve_connection(
    stream: TcpStream,
    app: axum::Router,
    limits: Limits,
    cancel: CancellationToken,
    _slot: OwnedSemaphorePermit,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        stream,
        activity: activity.clone(),
    });
    let service = {
        let activity = activity.clone();
        hyper::service::service_fn(move |request: Request<Incoming>| {
            let busy = Busy::begin(activity.clone());
            let mut app = app.clone();
            async move {
                let response = match tower_service::Service::call(&mut app, request).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                };
                Ok::<_, Infallible>(response.map(|body| super::Holding::body(body, busy)))
            }
        })
    };
    let connection = hyper::server::conn::http1::Builder::new().serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        () = activity.expired(limits) => {} // dropped: the socket closes
        () = cancel.cancelled() => {
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, connection).await;
        }
    }
}

/// Answers a connection over the cap with 503 and closes it (it has the header-read timeout to send its request).
async fn refuse(stream: TcpStream, limits: Limits, _refusal: OwnedSemaphorePermit) {
    let service = hyper::service::service_fn(move |_: Request<Incoming>| async move {
        Ok::<_, Infallible>(unavailable(limits.max_connections))
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .keep_alive(false)
        .serve_connection(TokioIo::new(stream), service);
    let _ = tokio::time::timeout(limits.header_read_timeout, connection).await;
}

/// The 503 a connection over the cap gets.
fn unavailable(max_connections: u32) -> Response<Body> {
    let mut response = super::plain(
        StatusCode::SERVICE_UNAVAILABLE,
        &format!(
            "Service Unavailable: the server has {max_connections} connections open, its limit \
             (HttpOptions::max_connections); retry once one closes"
        ),
    );
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// No time recorded.
const NEVER: u64 = u64::MAX;

/// What a connection is doing, for its deadlines: written by its reads and its requests, read by
/// [`expired`](Activity::expired).
struct Activity {
    origin: Instant,
    /// Requests read whose answers are not finished.
    in_flight: AtomicUsize,
    /// Whether a request has been read (a new connection has the header-read timeout, a used one the idle timeout).
    served: AtomicBool,
    /// When (ms after `origin`) the connection last became ready for a request.
    idle_since: AtomicU64,
    /// When the first byte of the next request arrived, or [`NEVER`].
    head_since: AtomicU64,
    /// Rings when a deadline may have moved.
    moved: Notify,
}

impl Activity {
    fn new() -> Self {
        Self {
            origin: Instant::now(),
            in_flight: AtomicUsize::new(0),
            served: AtomicBool::new(false),
            idle_since: AtomicU64::new(0),
            head_since: AtomicU64::new(NEVER),
            moved: Notify::new(),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(NEVER - 1)
    }

    /// Bytes arrived: between requests, the first ones start the next head's deadline.
    fn on_read(&self) {
        if self.in_flight.load(Ordering::Acquire) == 0
            && self.head_since.load(Ordering::Acquire) == NEVER
        {
            self.head_since.store(self.now(), Ordering::Release);
            self.moved.notify_one();
        }
    }

    /// When (ms after `origin`) the connection expires, or `None` while a request is in flight.
    fn deadline(&self, limits: Limits) -> Option<u64> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(NEVER / 2);
        let head = self.head_since.load(Ordering::Acquire);
        if head != NEVER {
            return Some(head.saturating_add(millis(limits.header_read_timeout)));
        }
        let wait = if self.served.load(Ordering::Acquire) {
            limits.idle_timeout
        } else {
            limits.header_read_timeout
        };
        Some(
            self.idle_since
                .load(Ordering::Acquire)
                .saturating_add(millis(wait)),
        )
    }

    /// Resolves once the connection has missed a deadline.
    async fn expired(&self, limits: Limits) {
        loop {
            match self.deadline(limits) {
                None => self.moved.notified().await,
                Some(at) => {
                    let now = self.now();
                    if now >= at {
                        return;
                    }
                    tokio::select! {
                        () = self.moved.notified() => {}
                        () = tokio::time::sleep(Duration::from_millis(at - now)) => {}
                    }
                }
            }
        }
    }
}

/// A request in flight on a connection, from its head read to its answer's end (it rides in the answer's body).
struct Busy(Arc<Activity>);

impl Busy {
    fn begin(activity: Arc<Activity>) -> Self {
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        activity.served.store(true, Ordering::Release);
        activity.head_since.store(NEVER, Ordering::Release);
        activity.moved.notify_one();
        Busy(activity)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let activity = &self.0;
        if activity.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            activity.idle_since.store(activity.now(), Ordering::Release);
            activity.moved.notify_one();
        }
    }
}

/// A TCP stream that tells its connection's [`Activity`] when bytes arrive.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.stream).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.activity.on_read();
        }
        poll
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        header_read_timeout: Duration::from_millis(100),
        idle_timeout: Duration::from_millis(1000),
        max_connections: 1,
    };

    #[test]
    fn deadlines_follow_the_connection() {
        let activity = Arc::new(Activity::new());
        // new: the header-read timeout from the accept
        assert_eq!(activity.deadline(LIMITS), Some(100));
        // a request in flight: no deadline, even with more bytes arriving (a pipelined request)
        let busy = Busy::begin(activity.clone());
        activity.on_read();
        assert_eq!(activity.deadline(LIMITS), None);
        drop(busy);
        // answered: the idle timeout from then
        let idle = activity.idle_since.load(Ordering::Acquire);
        assert_eq!(activity.deadline(LIMITS), Some(idle + 1000));
        // the next head's first byte: the header-read timeout from it
        activity.on_read();
        let head = activity.head_since.load(Ordering::Acquire);
        assert_ne!(head, NEVER);
        assert_eq!(activity.deadline(LIMITS), Some(head + 100));
        // a later byte of the same head does not move it
        activity.on_read();
        assert_eq!(activity.head_since.load(Ordering::Acquire), head);
    }
}
