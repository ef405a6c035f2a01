//! The page's server-sent events: one stream per open page, fed by the exposure's own streams (no polling).
//!
//! The stream opens with `hello` (the values, the messages and their schemas, the open interrupts, the journal's
//! newest [`HELLO_LOG`] entries; the page asks `/page/log?before=<seq>` for older ones), then sends, as they happen:
//!
//! - `values` `{version, changed: {name: value}}` for each publication;
//! - `log` `{seq, name, args, version, sender, approval, line}` for each journaled message (`line` is the step line
//!   an agent reads, with the values the message changed; for an answer refused for want of a page session,
//!   `approval.refused` is `true` and the line says the interrupt stays open);
//! - `interrupt` `{event: "opened" | "answered" | "expired", interrupt, record}` for each interrupt event;
//! - `errors` `{errors: [...], dropped}` with the errors recorded since the last it sent (each as the
//!   `ranvier://errors` resource has it, plus `summary`, the line the `errors` tool answers); `hello` carries the kept
//!   ones;
//! - `hello` also carries `kept`, `[oldest, current]`: the versions the timeline can show (`/page/version?v=` and
//!   `/page/diff?from=&to=` read them);
//! - a comment every 15 s, so a page that went away is noticed.
//!
//! It subscribes to the streams before it reads the state `hello` reports, so nothing falls between them; the page
//! drops what it already holds (by version for values, by `seq` for the log). It ends when the host shuts down, the
//! server stops, or the page goes away (its feeding task stops at once), and when the page falls
//! [`STREAM_MAX_BYTES`] behind: what waited for it is dropped, and the page reconnects and starts again from a
//! `hello`. A value (or arguments) longer than [`VALUE_MAX_CHARS`] as JSON text goes out as that text, clipped, as
//! MCP answers clip what they echo. `hello` is made once per version and journal entry, whatever the number of
//! streams opened.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, UNIX_EPOCH};

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderValue, Response, header};
use serde_json::{Value, json};
use tokio_util::sync::{CancellationToken, DropGuard};

use super::Page;
use crate::exposure::{
    ApprovalRecord, Interrupt, InterruptEvent, JournalEntry, Journaled, Publication,
};

/// How often an idle stream sends a comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How many bytes of events may wait to be written to one page before it is dropped as too slow (the newest event
/// is queued whatever its size when nothing else waits).
pub(crate) const STREAM_MAX_BYTES: usize = 1 << 20;

/// How many journal entries `hello` carries, and `/page/log` answers at most.
pub(crate) const HELLO_LOG: usize = 100;

/// The longest value, or message arguments, an event carries as it is, in characters of JSON text; a longer one is
/// sent as its JSON text clipped to this length (a string ending with `…`).
pub(crate) const VALUE_MAX_CHARS: usize = 4_000;

/// A `hello` made for one version and journal length, without its interrupts (which age).
pub(crate) struct Hello {
    version: u64,
    last_seq: u64,
    /// The JSON object, `{…}`, without `interrupts`.
    rest: String,
}

/// One of the page's stream slots, given back when the stream's body is dropped.
pub(super) struct Slot(pub(super) Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Opens the stream: a task feeds a queue, bounded by bytes, that the body drains.
pub(super) fn stream(page: Arc<Page>, slot: Slot) -> Response<Body> {
    let queue = Arc::new(Queue::default());
    let gone = page.cancel.child_token();
    tokio::spawn(feed(page, queue.clone(), gone.clone()));
    let mut response = Response::new(Body::new(Events {
        queue,
        _gone: gone.drop_guard(),
        _slot: slot,
    }));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

async fn feed(page: Arc<Page>, queue: Arc<Queue>, gone: CancellationToken) {
    let _end = Ending(queue.clone());
    if gone.is_cancelled() {
        return;
    }
    let handle = page.handle().clone();
    // subscribe first, then read what `hello` reports: nothing falls between
    let mut publications = handle.publications();
    let mut journal = handle.journal_events();
    let mut interrupts = handle.interrupt_events();
    let mut errors = handle.error_events();
    let mut errors_sent = *errors.borrow_and_update();
    if !queue.push(page.hello_frame()) {
        return;
    }
    loop {
        // in this order when several are ready: a message's publication goes out before its journal line
        let sent = tokio::select! {
            biased;
            () = gone.cancelled() => return,
            publication = publications.next() => match publication {
                Some(publication) => queue.push(frame("values", &values_json(&publication))),
                None => return,
            },
            event = journal.next() => match event {
                Some(event) => queue.push(frame("log", &journaled_json(&event))),
                None => return,
            },
            event = interrupts.next() => match event {
                Some(event) => queue.push(frame("interrupt", &interrupt_event_json(&event))),
                None => return,
            },
            changed = errors.changed() => match changed {
                Ok(()) => {
                    let newest = *errors.borrow_and_update();
                    let frame = frame("errors", &errors_json(&handle, errors_sent));
                    errors_sent = newest;
                    queue.push(frame)
                }
                // the exposure is gone: no more errors, the other streams end too
                Err(_) => std::future::pending().await,
            },
            () = tokio::time::sleep(KEEP_ALIVE) => queue.push(Bytes::from_static(b": alive\n\n")),
        };
        if !sent {
            return;
        }
    }
}

/// The errors numbered after `after`, as `{errors: [...], dropped}`, each with its `summary` line.
pub(super) fn errors_json(handle: &crate::exposure::ExposureHandle, after: u64) -> Value {
    let (records, dropped) = handle.errors();
    let errors: Vec<Value> = records
        .iter()
        .filter(|record| record.seq > after)
        .map(|record| {
            let mut value = serde_json::to_value(record).unwrap_or(Value::Null);
            if let Value::Object(map) = &mut value {
                map.insert(
                    "summary".into(),
                    Value::String(crate::exposure::error_line(record)),
                );
                if let Some(Value::Object(message)) = map.get_mut("message")
                    && let Some(args) = message.get_mut("args")
                {
                    *args = clipped(args);
                }
            }
            value
        })
        .collect();
    json!({ "errors": errors, "dropped": dropped })
}

/// One event's frame.
pub(super) fn frame(event: &str, data: &Value) -> Bytes {
    // JSON text holds no raw newline, so the data is one `data:` line
    Bytes::from(format!("event: {event}\ndata: {data}\n\n"))
}

/// `value`, or its JSON text clipped to [`VALUE_MAX_CHARS`] when longer.
pub(super) fn clipped(value: &Value) -> Value {
    let text = value.to_string();
    if text.len() <= VALUE_MAX_CHARS {
        return value.clone();
    }
    Value::String(crate::text::clip(&text, VALUE_MAX_CHARS).into_owned())
}

impl Page {
    /// The `hello` frame: made once per version and journal length, with the open interrupts as they are now.
    pub(super) fn hello_frame(&self) -> Bytes {
        let interrupts: Vec<Value> = self
            .handle()
            .interrupts()
            .iter()
            .map(interrupt_json)
            .collect();
        let interrupts = Value::Array(interrupts).to_string();
        let errors = errors_json(self.handle(), 0).to_string();
        let kept = self.handle().kept_versions();
        let kept = format!("[{},{}]", kept.start(), kept.end());
        let version = self.handle().version();
        let (next, _) = self.handle().journal_window(u64::MAX, 0);
        let mut cache = self.hello.lock().unwrap_or_else(PoisonError::into_inner);
        let fresh = cache
            .as_ref()
            .is_some_and(|hello| (hello.version, hello.last_seq) == (version, next - 1));
        if !fresh {
            *cache = Some(self.make_hello());
        }
        let rest = &cache.as_ref().map_or("{}", |hello| hello.rest.as_str())[1..];
        let comma = if rest.starts_with('}') { "" } else { "," };
        Bytes::from(format!(
            "event: hello\ndata: {{\"interrupts\":{interrupts},\"errors\":{errors},\"kept\":{kept}{comma}{rest}\n\n"
        ))
    }

    fn make_hello(&self) -> Hello {
        let snapshot = self.handle().snapshot();
        let (first, log) = self.handle().journal_window(u64::MAX, HELLO_LOG);
        let last_seq = first + log.len() as u64 - 1;
        let hello = self.hello(first, &log, &snapshot);
        Hello {
            version: snapshot.version,
            last_seq,
            rest: hello.to_string(),
        }
    }
}

/// The frames waiting for one page, bounded by [`STREAM_MAX_BYTES`].
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
}

#[derive(Default)]
struct QueueState {
    frames: VecDeque<Bytes>,
    bytes: usize,
    /// No frame comes after those queued (the feed stopped, or the page fell behind and its frames were dropped).
    ended: bool,
    waker: Option<Waker>,
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `frame`; `false` once the stream has ended (the page went away or fell behind).
    fn push(&self, frame: Bytes) -> bool {
        let mut state = self.lock();
        if state.ended {
            return false;
        }
        if !state.frames.is_empty() && state.bytes + frame.len() > STREAM_MAX_BYTES {
            // too far behind: drop what waits (its memory goes back now) and end the stream
            state.frames = VecDeque::new();
            state.bytes = 0;
            state.ended = true;
        } else {
            state.bytes += frame.len();
            state.frames.push_back(frame);
        }
        let ended = state.ended;
        if let Some(waker) = state.waker.take() {
            waker.wake();
        }
        !ended
    }

    fn end(&self) {
        let mut state = self.lock();
        state.ended = true;
        if let Some(waker) = state.waker.take() {
            waker.wake();
        }
    }
}

/// Ends the queue when the feeding task stops, however it stops.
struct Ending(Arc<Queue>);

impl Drop for Ending {
    fn drop(&mut self) {
        self.0.end();
    }
}

fn values_json(publication: &Publication) -> Value {
    let snapshot = &publication.snapshot;
    let changed: serde_json::Map<String, Value> = snapshot
        .values
        .iter()
        .filter(|(name, _)| publication.changed.contains(name))
        .map(|(name, value)| (name.clone(), clipped(value)))
        .collect();
    json!({"version": snapshot.version, "changed": changed})
}

fn journaled_json(event: &Journaled) -> Value {
    log_json(event.seq, &event.entry, &event.changes)
}

/// One journal entry as the page shows it: its fields, and its step line (`add_item {…} → v1: count 0→2`).
pub(super) fn log_json(
    seq: u64,
    entry: &JournalEntry,
    changes: &[(String, Value, Value)],
) -> Value {
    let line = match &entry.approval {
        Some(record) if record.refused => format!(
            "{} {}: an answer was refused ({}); the interrupt stays open",
            entry.name,
            crate::escape::json(&entry.args),
            crate::escape::quote(&record.by)
        ),
        Some(record) if !record.approved => format!(
            "{} {} did not run: {}",
            entry.name,
            crate::escape::json(&entry.args),
            if record.expired {
                "nobody answered in time"
            } else {
                "denied"
            }
        ),
        _ => {
            let line =
                crate::mcp::text::step_line(1, &entry.name, &entry.args, entry.version, changes);
            line.strip_prefix("1 ").map(str::to_owned).unwrap_or(line)
        }
    };
    let line = crate::text::clip(&line, VALUE_MAX_CHARS);
    json!({
        "seq": seq,
        "name": entry.name,
        "args": clipped(&entry.args),
        "version": entry.version,
        "sender": entry.sender,
        "approval": entry.approval.as_ref().map(record_json),
        "line": line,
    })
}

fn record_json(record: &ApprovalRecord) -> Value {
    json!({
        "interrupt": record.interrupt,
        "approved": record.approved,
        "by": record.by,
        "reason": record.reason,
        "expired": record.expired,
        "refused": record.refused,
    })
}

/// An open interrupt as the page lists it; `openedAt` in milliseconds since the Unix epoch.
pub(super) fn interrupt_json(interrupt: &Interrupt) -> Value {
    json!({
        "id": interrupt.id,
        "message": interrupt.message,
        "args": clipped(&interrupt.args),
        "prompt": interrupt.prompt,
        "sender": interrupt.sender,
        "openedAt": interrupt
            .opened_at
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64),
        "expiresInMs": interrupt.remaining().as_millis() as u64,
        "notRun": interrupt.not_run.len(),
    })
}

fn interrupt_event_json(event: &InterruptEvent) -> Value {
    let (kind, record) = match event {
        InterruptEvent::Opened(_) => ("opened", None),
        InterruptEvent::Answered { record, .. } => ("answered", Some(record_json(record))),
        InterruptEvent::Expired(_) => ("expired", None),
        #[allow(unreachable_patterns)]
        _ => ("changed", None),
    };
    json!({"event": kind, "interrupt": interrupt_json(event.interrupt()), "record": record})
}

/// The stream's body: the frames the feeding task queues. Dropping it (the page went away) stops the task and
/// drops what waited.
struct Events {
    queue: Arc<Queue>,
    _gone: DropGuard,
    _slot: Slot,
}

impl Drop for Events {
    fn drop(&mut self) {
        let mut state = self.queue.lock();
        state.frames = VecDeque::new();
        state.bytes = 0;
        state.ended = true;
    }
}

impl HttpBody for Events {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
        let mut state = self.queue.lock();
        match state.frames.pop_front() {
            Some(frame) => {
                state.bytes -= frame.len();
                Poll::Ready(Some(Ok(hyper::body::Frame::data(frame))))
            }
            None if state.ended => Poll::Ready(None),
            None => {
                state.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}
