//! The page's server-sent events: one stream per open page, fed by the exposure's own streams (no polling).
//!
//! The stream opens with `hello` (the values, the messages and their schemas, the open interrupts, the journal's
//! newest entries), then sends, as they happen:
//!
//! - `values` `{version, changed: {name: value}}` for each publication;
//! - `log` `{seq, name, args, version, sender, approval, line}` for each journaled message (`line` is the step line
//!   an agent reads, with the values the message changed);
//! - `interrupt` `{event: "opened" | "answered" | "expired", interrupt, record}` for each interrupt event;
//! - a comment every 15 s, so a page that went away is noticed.
//!
//! It subscribes to the streams before it reads the state `hello` reports, so nothing falls between them; the page
//! drops what it already holds (by version for values, by `seq` for the log). It ends when the host shuts down, the
//! server stops, or the page goes away.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, UNIX_EPOCH};

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderValue, Response, header};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::Page;
use crate::exposure::{
    ApprovalRecord, Interrupt, InterruptEvent, JournalEntry, Journaled, Publication,
};

/// How often an idle stream sends a comment.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How many events may wait to be written to one page before it is dropped as too slow.
const QUEUE: usize = 256;

/// How many journal entries `hello` carries.
const HELLO_LOG: usize = 100;

/// Opens the stream: a task feeds a channel the body drains.
pub(super) fn stream(page: Arc<Page>) -> Response<Body> {
    let (sender, receiver) = mpsc::channel(QUEUE);
    tokio::spawn(feed(page, sender));
    let mut response = Response::new(Body::new(Events { receiver }));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

async fn feed(page: Arc<Page>, sender: mpsc::Sender<Bytes>) {
    let handle = page.handle().clone();
    // subscribe first, then read what `hello` reports: nothing falls between
    let mut publications = handle.publications();
    let mut journal = handle.journal_events();
    let mut interrupts = handle.interrupt_events();
    let dropped = handle.journal_dropped();
    let entries = handle.journal();
    let last_seq = dropped + entries.len() as u64;
    let newest = &entries[entries.len().saturating_sub(HELLO_LOG)..];
    if !send(&sender, "hello", &page.hello(last_seq, newest)).await {
        return;
    }
    loop {
        // in this order when several are ready: a message's publication goes out before its journal line
        let sent = tokio::select! {
            biased;
            () = page.cancel.cancelled() => return,
            () = sender.closed() => return,
            publication = publications.next() => match publication {
                Some(publication) => send(&sender, "values", &values_json(&publication)).await,
                None => return,
            },
            event = journal.next() => match event {
                Some(event) => send(&sender, "log", &journaled_json(&event)).await,
                None => return,
            },
            event = interrupts.next() => match event {
                Some(event) => send(&sender, "interrupt", &interrupt_event_json(&event)).await,
                None => return,
            },
            () = tokio::time::sleep(KEEP_ALIVE) => sender.send(Bytes::from_static(b": alive\n\n")).await.is_ok(),
        };
        if !sent {
            return;
        }
    }
}

/// Writes one event; `false` once the page is gone.
async fn send(sender: &mpsc::Sender<Bytes>, event: &str, data: &Value) -> bool {
    // JSON text holds no raw newline, so the data is one `data:` line
    let frame = format!("event: {event}\ndata: {data}\n\n");
    sender.send(Bytes::from(frame)).await.is_ok()
}

fn values_json(publication: &Publication) -> Value {
    let snapshot = &publication.snapshot;
    let changed: serde_json::Map<String, Value> = snapshot
        .values
        .iter()
        .filter(|(name, _)| publication.changed.contains(name))
        .map(|(name, value)| (name.clone(), value.clone()))
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
    json!({
        "seq": seq,
        "name": entry.name,
        "args": entry.args,
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
    })
}

/// An open interrupt as the page lists it; `openedAt` in milliseconds since the Unix epoch.
pub(super) fn interrupt_json(interrupt: &Interrupt) -> Value {
    json!({
        "id": interrupt.id,
        "message": interrupt.message,
        "args": interrupt.args,
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

/// The stream's body: the frames the feeding task queues.
struct Events {
    receiver: mpsc::Receiver<Bytes>,
}

impl HttpBody for Events {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
        self.get_mut()
            .receiver
            .poll_recv(cx)
            .map(|frame| frame.map(|bytes| Ok(hyper::body::Frame::data(bytes))))
    }
}
