//! The stdio line layer [`serve_stdio`](super::serve_stdio) runs under rmcp, so that every line a client sends is
//! either handed to rmcp or answered.
//!
//! rmcp's own stdio transport drops a line it cannot read (not JSON, invalid UTF-8, nested too deep, past its 16 MiB
//! limit) without a word, on purpose (rust-sdk#938), and answers JSON that is not a JSON-RPC message with a bare
//! `-32600 "Invalid request"`: a client that sent a malformed request waits for an answer that never comes, or learns
//! nothing about what was wrong. [`LineTransport`] implements rmcp's [`Transport`] for the server in its place. It
//! reads the input line by line and:
//!
//! - hands every line that reads as a JSON-RPC message to rmcp, decoded exactly as rmcp's transport decodes it (a
//!   leading UTF-8 byte order mark and a trailing `\r` are dropped), so rmcp still does all the protocol work;
//! - ignores an empty or whitespace-only line, and a notification that does not read but that rmcp's transport
//!   ignores too (a method MCP does not define, such as an LSP notification);
//! - answers a line that is not JSON with a parse error, `id` null, whose message says what is wrong:
//!   `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: not JSON: expected value at line 1
//!   column 1"}}`, or `Parse error: invalid UTF-8 at byte 31`, or
//!   `Parse error: JSON nested too deep: recursion limit exceeded at line 1 column 128`;
//! - discards a line longer than [`MAX_LINE_BYTES`] as it arrives, never holding more than the limit, and answers it
//!   once its newline arrives: `Parse error: line of 17825792 bytes is past the 16777216-byte limit`;
//! - answers JSON that is not one message with an invalid request naming the reason, and the request's `id` when one
//!   can be read: `{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"Invalid request: \"jsonrpc\" must be
//!   \"2.0\", got \"1.0\""}}`, or `Invalid request: a batch (JSON array) is not supported; send one message per line`
//!   (`id` null). A malformed response (a message with `result` or `error`) is answered with `id` null, since its
//!   id counts the server's requests, not the client's.
//!
//! It also keeps the session's order and bookkeeping, so that what rmcp cannot see is still answered:
//!
//! - a message that names a key twice in one object, anywhere (`{"message":"set_discount","message":"clear"}` in a
//!   tool's arguments, or a second `id`), gets an invalid request naming the key and where it is:
//!   `Invalid request: duplicate key "message" in params.arguments; each key of a JSON object may appear once`;
//! - a request whose id is the id of a request still in flight (not answered or cancelled yet) gets an invalid
//!   request with that id, `Invalid request: id 8 is in use by a request still in flight; give each request its own
//!   id`, and the request in flight is answered as usual (rmcp would answer only one of the two);
//! - a second `initialize` is marked as such, for the adapter to refuse (-32600, the session is already
//!   initialized);
//! - each request is numbered as it is read, before anything awaits, so the adapter applies the ones that change
//!   something in the order they arrived (see [`McpAdapter`](super::McpAdapter)'s ordering).
//!
//! One task writes the output: rmcp's messages and these answers are queued to it as whole lines and written in
//! turn, so they never interleave within a line, and the answer to a bad line is queued before the next line is
//! read. Nothing a line holds stops the reading: the next line is read as if the bad one had not been sent.
//!
//! The reading and the parse errors are public for a process that stands between an stdio client and a ranvier
//! app, such as `ranvier-mcp supervise`: [`LineReader`] reads lines within the limit, and [`Line::json`] reads one
//! as JSON or gives the [`ParseError`] the app would answer it with, in the same words.
//!
//! Four files: this one is the transport (the reading loop, the session's bookkeeping, the writer task);
//! `stdio/response.rs` writes JSON-RPC's error responses; `stdio/reader.rs` reads lines within the limit and parses
//! one as JSON (what `ranvier-mcp supervise` uses too); `stdio/validate.rs` decides what a line is (a message for
//! rmcp, nothing, or the answer to give instead), which the HTTP transport uses for a bad body.

use std::collections::HashSet;
use std::io;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, GetExtensions, JsonRpcError,
    RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

mod reader;
mod response;
mod validate;

pub use reader::{Line, LineReader, ParseError};
use response::{INVALID_REQUEST, error_line};
#[cfg(feature = "http")]
pub(crate) use validate::answer_to;
use validate::{Decoded, decode};

use super::order::Order;
use super::text;

/// The longest line [`LineTransport`] reads by default, in bytes, its newline not counted: 16 MiB, rmcp's limit.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// How many whole lines may wait for the writer.
const QUEUE_LINES: usize = 64;

/// An rmcp server transport over a byte stream of newline-delimited JSON-RPC messages (stdin and stdout, for
/// [`serve_stdio`](super::serve_stdio)) that answers every line it cannot hand to rmcp. See the
/// [module docs](self).
///
/// # Examples
///
/// What [`serve_lines`](super::serve_lines) does with any `AsyncRead` and `AsyncWrite` pair (and
/// [`serve_stdio`](super::serve_stdio) with stdin and stdout):
///
/// ```no_run
/// # async fn run(adapter: ranvier::mcp::McpAdapter) -> Result<(), Box<dyn std::error::Error>> {
/// use ranvier::mcp::rmcp::ServiceExt as _;
/// use ranvier::mcp::stdio::LineTransport;
///
/// let transport = LineTransport::new(tokio::io::stdin(), tokio::io::stdout());
/// let written = transport.written();
/// let served = async { adapter.serve(transport).await?.waiting().await.map_err(Box::from) };
/// let result: Result<_, Box<dyn std::error::Error>> = served.await;
/// written.wait().await; // even when the session never started: its answers are still written
/// result?;
/// # Ok(())
/// # }
/// ```
pub struct LineTransport<R> {
    lines: LineReader<R>,
    /// The writer's queue; `None` once closed.
    queue: Option<mpsc::Sender<Outgoing>>,
    /// The answer to a bad line, until the writer's queue takes it (it survives a cancelled `receive`).
    answer: Option<Vec<u8>>,
    writer: Option<JoinHandle<()>>,
    /// Told when the writer ends (its sender goes with the writer's task).
    written: watch::Receiver<()>,
    /// The ids of the client's requests handed to rmcp and neither answered nor cancelled yet.
    in_flight: HashSet<RequestId>,
    /// Whether an `initialize` was handed to rmcp.
    initialized: bool,
    /// Numbers the requests in arrival order.
    order: Arc<Order>,
    /// This connection, put in every request's extensions: the session the adapter knows its calls by.
    connection: Connection,
}

/// Marks an `initialize` that is not the session's first, for the adapter to refuse.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RepeatedInitialize;

/// One [`LineTransport`] connection, in the extensions of every request it reads: what the adapter calls a stdio
/// session (who may see and answer the interrupts it opened).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Connection(pub(crate) u64);

impl Connection {
    /// The session name of this connection, as the adapter keys sessions (`stdio 3`).
    pub(crate) fn session(&self) -> String {
        format!("stdio {}", self.0)
    }
}

/// The next connection's number.
static NEXT_CONNECTION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl<R> std::fmt::Debug for LineTransport<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineTransport")
            .field("max_line_bytes", &self.lines.max_line_bytes)
            .field("closed", &self.queue.is_none())
            .finish_non_exhaustive()
    }
}

/// One whole line for the writer, and where to report that it was written.
struct Outgoing {
    line: Vec<u8>,
    written: Option<oneshot::Sender<io::Result<()>>>,
}

impl<R: AsyncRead + Send + Unpin> LineTransport<R> {
    /// A transport reading lines from `read` and writing lines to `write`, with the [`MAX_LINE_BYTES`] limit.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime: it spawns the task that writes to `write`.
    pub fn new<W: AsyncWrite + Send + Unpin + 'static>(read: R, write: W) -> Self {
        let (queue, lines) = mpsc::channel(QUEUE_LINES);
        let (ended, written) = watch::channel(());
        Self {
            lines: LineReader::new(read),
            queue: Some(queue),
            answer: None,
            writer: Some(tokio::spawn(async move {
                write_lines(write, lines).await;
                drop(ended);
            })),
            written,
            in_flight: HashSet::new(),
            initialized: false,
            order: Arc::default(),
            connection: Connection(
                NEXT_CONNECTION.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ),
        }
    }

    /// This connection's session name (see [`Connection::session`]).
    pub(crate) fn session(&self) -> String {
        self.connection.session()
    }

    /// Keeps the session's bookkeeping for a message about to go to rmcp (see the [module docs](self)); the line
    /// answering it instead when it must not go.
    fn admit(&mut self, message: &mut ClientJsonRpcMessage) -> Result<(), Vec<u8>> {
        match message {
            ClientJsonRpcMessage::Request(request) => {
                if !self.in_flight.insert(request.id.clone()) {
                    let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
                    return Err(error_line(
                        INVALID_REQUEST,
                        &text::not_a_message(&text::id_in_flight(&id)),
                        id,
                    ));
                }
                let initialize = matches!(request.request, ClientRequest::InitializeRequest(_));
                let extensions = request.request.extensions_mut();
                if initialize && std::mem::replace(&mut self.initialized, true) {
                    extensions.insert(RepeatedInitialize);
                }
                extensions.insert(self.order.issue());
            }
            ClientJsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    // rmcp drops a cancelled request's answer: its id is free again
                    self.in_flight.remove(id);
                }
            }
            ClientJsonRpcMessage::Response(_) | ClientJsonRpcMessage::Error(_) => {}
        }
        Ok(())
    }

    /// A handle that waits until every line this transport queued has been written (or writing failed), which is
    /// once the transport is closed or dropped.
    ///
    /// rmcp closes the transport when a session ends, and closing waits for the writes; but when the input ends
    /// before the session starts (a client that sends a bad line and closes stdin before `initialize`), rmcp drops
    /// the transport without closing it. A runtime that shut down right after would cancel the writing of the answers
    /// still queued, so whoever serves a `LineTransport` waits for this before leaving the runtime, as
    /// [`serve_lines`](super::serve_lines) does.
    pub fn written(&self) -> Written {
        Written(self.written.clone())
    }

    /// Reads lines of at most `max_line_bytes` bytes (their newline not counted); a longer line is discarded and
    /// answered with a parse error naming the limit.
    pub fn max_line_bytes(mut self, max_line_bytes: usize) -> Self {
        self.lines.max_line_bytes = max_line_bytes;
        self
    }
}

/// Waits for the writes of a [`LineTransport`]; see [`LineTransport::written`].
#[derive(Debug)]
pub struct Written(watch::Receiver<()>);

impl Written {
    /// Returns once every line the transport queued has been written or its writing failed. Never returns while
    /// the transport is still open.
    pub async fn wait(mut self) {
        // the writer's task holds the only sender: `changed` fails once the task has ended
        while self.0.changed().await.is_ok() {}
    }
}

impl<R: AsyncRead + Send + Unpin> Transport<RoleServer> for LineTransport<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        match &item {
            ServerJsonRpcMessage::Response(response) => {
                self.in_flight.remove(&response.id);
            }
            ServerJsonRpcMessage::Error(JsonRpcError { id: Some(id), .. }) => {
                self.in_flight.remove(id);
            }
            _ => {}
        }
        let queue = self.queue.clone();
        async move {
            let queue = queue.ok_or_else(closed)?;
            let mut line = serde_json::to_vec(&item)?;
            line.push(b'\n');
            let (written, done) = oneshot::channel();
            queue
                .send(Outgoing {
                    line,
                    written: Some(written),
                })
                .await
                .map_err(|_| closed())?;
            drop(queue);
            done.await.map_err(|_| closed())?
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if self.answer.is_some() {
                // reserve first: a cancelled wait for room keeps the answer
                let permit = self.queue.as_ref()?.reserve().await.ok()?;
                if let Some(line) = self.answer.take() {
                    permit.send(Outgoing {
                        line,
                        written: None,
                    });
                }
            }
            let decoded = match self.lines.next_line().await? {
                Line::Read(line) => decode(line),
                Line::TooLong { bytes, limit } => {
                    Decoded::Answer(ParseError::too_long(bytes, limit).line())
                }
            };
            match decoded {
                Decoded::Message(mut message) => {
                    if let ClientJsonRpcMessage::Request(request) = &mut *message {
                        rmcp::model::GetExtensions::extensions_mut(&mut request.request)
                            .insert(self.connection);
                    }
                    match self.admit(&mut message) {
                        Ok(()) => return Some(*message),
                        Err(line) => self.answer = Some(line),
                    }
                }
                Decoded::Ignored => {}
                Decoded::Answer(line) => self.answer = Some(line),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        if let (Some(queue), Some(line)) = (&self.queue, self.answer.take()) {
            let _ = queue
                .send(Outgoing {
                    line,
                    written: None,
                })
                .await;
        }
        // the writer ends once every queued line is written and every sender is gone
        self.queue = None;
        if let Some(writer) = self.writer.take() {
            writer.await.map_err(io::Error::other)?;
        }
        Ok(())
    }
}

impl<R> Drop for LineTransport<R> {
    fn drop(&mut self) {
        // dropped without `close` (see `written`): hand the writer the answer still held, if it has room
        if let (Some(queue), Some(line)) = (&self.queue, self.answer.take()) {
            let _ = queue.try_send(Outgoing {
                line,
                written: None,
            });
        }
    }
}

fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "the stdio transport is closed")
}

/// Writes each queued line whole, flushed, in queue order, until every sender is gone. After a failed write it
/// writes nothing more and reports the failure to every later sender.
async fn write_lines<W: AsyncWrite + Unpin>(mut out: W, mut lines: mpsc::Receiver<Outgoing>) {
    let mut failed: Option<io::ErrorKind> = None;
    while let Some(Outgoing { line, written }) = lines.recv().await {
        let result = match failed {
            Some(kind) => Err(io::Error::new(
                kind,
                "an earlier write to the output failed",
            )),
            None => match out.write_all(&line).await {
                Ok(()) => out.flush().await,
                Err(error) => Err(error),
            },
        };
        if let Err(error) = &result {
            failed.get_or_insert(error.kind());
        }
        if let Some(written) = written {
            let _ = written.send(result);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tokio::io::{AsyncBufReadExt, BufReader};

    use super::reader::KEPT_CAPACITY;
    use super::response::PARSE_ERROR;
    use super::*;

    /// The answer to `line`, parsed (anything else fails the test).
    fn answer(line: &[u8]) -> Value {
        match decode(line) {
            Decoded::Answer(answer) => {
                assert_eq!(answer.last(), Some(&b'\n'));
                serde_json::from_slice(&answer).expect("an answer is JSON")
            }
            Decoded::Message(message) => panic!("{line:?} read as {message:?}"),
            Decoded::Ignored => panic!("{line:?} was ignored"),
        }
    }

    /// The message of the answer to `line`, after checking its code and id.
    #[track_caller]
    fn answered(line: &[u8], code: i32, id: Value) -> String {
        let answer = answer(line);
        assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(answer["error"]["code"], code, "{answer}");
        answer["error"]["message"]
            .as_str()
            .expect("a message")
            .to_owned()
    }

    #[test]
    fn messages_go_to_rmcp_as_rmcp_reads_them() {
        for line in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#[..],
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\r",
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            // params rmcp cannot read: a custom request, for the adapter to answer naming the field
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5}}"#,
            br#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        ] {
            assert!(
                matches!(decode(line), Decoded::Message(_)),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn blank_lines_and_notifications_rmcp_skips_are_ignored() {
        for line in [
            &b""[..],
            b"\r",
            b"  \t ",
            b"\xEF\xBB\xBF",
            br#"{"jsonrpc":"2.0","method":"$/progress","params":5}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"notifications/frob","params":5}"#,
        ] {
            assert!(
                matches!(decode(line), Decoded::Ignored),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn a_line_that_is_not_json_is_a_parse_error_naming_the_problem() {
        assert_eq!(
            answered(b"hello, server", PARSE_ERROR, Value::Null),
            "Parse error: not JSON: expected value at line 1 column 1"
        );
        assert_eq!(
            answered(
                br#"{"jsonrpc":"2.0","id":1,"method":"tools/ca"#,
                PARSE_ERROR,
                Value::Null
            ),
            "Parse error: not JSON: EOF while parsing a string at line 1 column 42"
        );
        assert_eq!(
            answered(
                b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/c\xff\xfell\"}",
                PARSE_ERROR,
                Value::Null
            ),
            "Parse error: invalid UTF-8 at byte 41"
        );
        // the offset counts a byte order mark
        assert_eq!(
            answered(b"\xEF\xBB\xBF\"\xff\"", PARSE_ERROR, Value::Null),
            "Parse error: invalid UTF-8 at byte 4"
        );
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(
            answered(deep.as_bytes(), PARSE_ERROR, Value::Null),
            "Parse error: JSON nested too deep: recursion limit exceeded at line 1 column 128"
        );
        assert_eq!(
            answered(
                br#"{"jsonrpc":"2.0","id":5,"n":1e400}"#,
                PARSE_ERROR,
                Value::Null
            ),
            "Parse error: a number past the range of f64: number out of range at line 1 column 33"
        );
        assert_eq!(
            answered(br#"{"jsonrpc":"2.0","id":5}{}"#, PARSE_ERROR, Value::Null),
            "Parse error: not JSON: trailing characters at line 1 column 25"
        );
    }

    #[test]
    fn line_json_fails_exactly_where_the_transport_answers_a_parse_error_and_in_its_words() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let lines: [&[u8]; 12] = [
            b"hello, server",
            b"\xEF\xBB\xBF\"\xff\"",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xff\"}",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":1e400}",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\\ud800\"}",
            deep.as_bytes(),
            // lines the transport hands to rmcp, answers with -32600 or ignores: not parse errors
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\r",
            br#"[1]"#,
            br#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","method":"$/progress","params":5}"#,
            b" \t\r",
        ];
        for line in lines {
            let shown = String::from_utf8_lossy(line);
            match (Line::Read(line).json(), decode(line)) {
                (Err(error), Decoded::Answer(answer)) => {
                    assert_eq!(error.line(), answer, "{shown}");
                    assert_eq!(format!("{}\n", error.response()).into_bytes(), answer);
                    assert!(error.message().starts_with("Parse error: "), "{shown}");
                }
                (Err(error), _) => panic!("{shown}: {error} but the transport does not answer it"),
                (Ok(_), Decoded::Answer(answer)) => {
                    let answer: Value = serde_json::from_slice(&answer).unwrap();
                    assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{shown}");
                }
                (Ok(None), decoded) => {
                    assert!(matches!(decoded, Decoded::Ignored), "{shown}");
                }
                (Ok(Some((text, value))), _) => {
                    assert!(!text.starts_with('\u{feff}') && !text.ends_with('\r'));
                    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), value);
                }
            }
        }
        let too_long = Line::TooLong {
            bytes: 17 << 20,
            limit: MAX_LINE_BYTES,
        };
        assert_eq!(
            too_long.json().unwrap_err().response(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: line of 17825792 bytes is past the 16777216-byte limit"}}"#
        );
    }

    #[tokio::test]
    async fn a_line_reader_keeps_every_line_after_a_bad_one() {
        let mut input = Vec::new();
        input.extend_from_slice(b"one\n");
        input.extend_from_slice(&[b'x'; 100]);
        input.extend_from_slice(b"\n\xff\xfe\ntwo\r\n\n");
        input.extend_from_slice(&[b'y'; 33]);
        let mut lines = LineReader::new(&input[..]).max_line_bytes(32);
        let mut read = Vec::new();
        while let Some(line) = lines.next_line().await {
            read.push(match line {
                Line::Read(bytes) => format!("{:?}", String::from_utf8_lossy(bytes)),
                Line::TooLong { bytes, limit } => format!("{bytes}>{limit}"),
            });
        }
        assert_eq!(
            read,
            [
                "\"one\"",
                "100>32",
                "\"\u{fffd}\u{fffd}\"",
                "\"two\\r\"",
                "\"\"",
                "33>32"
            ]
        );
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request_with_its_reason() {
        let null = Value::Null;
        let cases = [
            (
                json!([1, 2]),
                &null,
                "a batch (JSON array) is not supported; send one message per line",
            ),
            (json!([]), &null, "a batch (JSON array) is not supported"),
            (json!(42), &null, "a message must be a JSON object, got 42"),
            (
                json!("tools/call"),
                &null,
                "a message must be a JSON object, got \"tools/call\"",
            ),
            (
                json!(null),
                &null,
                "a message must be a JSON object, got null",
            ),
            (
                json!({"id": 8, "method": "tools/list"}),
                &json!(8),
                "missing \"jsonrpc\": \"2.0\"",
            ),
            (
                json!({"jsonrpc": "1.0", "id": "nine", "method": "tools/list"}),
                &json!("nine"),
                "\"jsonrpc\" must be \"2.0\", got \"1.0\"",
            ),
            (
                json!({"jsonrpc": 2.0, "id": 9, "method": "tools/list"}),
                &json!(9),
                "\"jsonrpc\" must be \"2.0\", got 2.0",
            ),
            (
                json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}),
                &null,
                "an id must be a string or a number (an integer), got {\"a\":1}",
            ),
            (
                json!({"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}),
                &null,
                "got 1.5",
            ),
            (
                json!({"jsonrpc": "2.0", "id": null, "method": "tools/list"}),
                &null,
                "got null",
            ),
            (
                json!({"jsonrpc": "2.0", "id": 4, "method": 5}),
                &json!(4),
                "\"method\" must be a string, got 5",
            ),
            (
                json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": [1]}),
                &json!(4),
                "\"params\" must be an object, got [1]",
            ),
            (
                json!({"jsonrpc": "2.0", "id": 4}),
                &json!(4),
                "a message needs a \"method\"",
            ),
            (
                json!({"jsonrpc": "2.0", "result": {}}),
                &null,
                "a response needs the \"id\"",
            ),
            // a response's id is the server's, not the client's: never echoed
            (
                json!({"jsonrpc": "2.0", "id": 4, "error": {"code": "x"}}),
                &null,
                "\"error\" must be an object with an integer \"code\" and a string \"message\", got {\"code\":\"x\"}",
            ),
            (
                json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "result": {}}),
                &null,
                "a message holds only one of \"method\", \"result\" and \"error\"",
            ),
            (
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": {}}, "x": 1, "id": 3, "error": 1}),
                &null,
                "only one of",
            ),
        ];
        for (line, id, reason) in cases {
            let message = answered(line.to_string().as_bytes(), INVALID_REQUEST, id.clone());
            assert!(
                message.starts_with("Invalid request: "),
                "{line}: {message}"
            );
            assert!(message.contains(reason), "{line}: {message}");
        }
    }

    #[test]
    fn echoed_input_is_quoted_and_cut_short() {
        let long = "x".repeat(1000);
        let message = answered(
            json!({"jsonrpc": format!("\"\n{long}"), "id": 1, "method": "m"})
                .to_string()
                .as_bytes(),
            INVALID_REQUEST,
            json!(1),
        );
        assert_eq!(
            message,
            format!(
                "Invalid request: \"jsonrpc\" must be \"2.0\", got \"\\\"\\n{}…\"",
                "x".repeat(37)
            )
        );
    }

    /// A transport over in-memory pipes, with a `limit`: what the test writes is its input, what it reads its output.
    fn transport(
        limit: usize,
    ) -> (
        LineTransport<tokio::io::DuplexStream>,
        tokio::io::DuplexStream,
        tokio::io::Lines<BufReader<tokio::io::DuplexStream>>,
    ) {
        let (input, client_in) = tokio::io::duplex(1 << 16);
        let (output, client_out) = tokio::io::duplex(1 << 16);
        let transport = LineTransport::new(input, output).max_line_bytes(limit);
        (transport, client_in, BufReader::new(client_out).lines())
    }

    async fn next_json(lines: &mut tokio::io::Lines<BufReader<tokio::io::DuplexStream>>) -> Value {
        let line = lines.next_line().await.unwrap().expect("a line");
        serde_json::from_str(&line).expect("JSON")
    }

    #[tokio::test]
    async fn bad_lines_are_answered_in_order_and_the_next_message_still_reads() {
        let (mut transport, mut input, mut output) = transport(64);
        let request = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let mut sent = Vec::new();
        sent.extend_from_slice(b"not json\n\n");
        sent.extend_from_slice(&[b'a'; 200]);
        sent.push(b'\n');
        sent.extend_from_slice(b"[1]\n");
        sent.extend_from_slice(request);
        sent.extend_from_slice(b"\n");
        // a last line without a newline is still read
        sent.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        input.write_all(&sent).await.unwrap();
        drop(input);

        let first = transport.receive().await.expect("the request");
        let first = serde_json::to_value(&first).unwrap();
        assert_eq!(
            (&first["id"], &first["method"]),
            (&json!(1), &json!("tools/list"))
        );
        let second = transport.receive().await.expect("the last line");
        assert_eq!(serde_json::to_value(&second).unwrap()["method"], "ping");
        assert!(transport.receive().await.is_none());
        // rmcp's own writes go through the same writer, after the answers queued before them
        transport
            .send(ServerJsonRpcMessage::error(
                rmcp::ErrorData::invalid_params("x", None),
                Some(RequestId::Number(1)),
            ))
            .await
            .unwrap();
        transport.close().await.unwrap();

        let expected = [
            (
                PARSE_ERROR,
                "Parse error: not JSON: expected ident at line 1 column 2",
            ),
            (
                PARSE_ERROR,
                "Parse error: line of 200 bytes is past the 64-byte limit",
            ),
            (
                INVALID_REQUEST,
                "Invalid request: a batch (JSON array) is not supported; send one message per line",
            ),
        ];
        for (code, message) in expected {
            let answer = next_json(&mut output).await;
            assert_eq!(
                answer,
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}})
            );
        }
        assert_eq!(next_json(&mut output).await["id"], 1);
        assert!(
            output.next_line().await.unwrap().is_none(),
            "the output ends at close"
        );
    }

    #[tokio::test]
    async fn a_long_line_is_discarded_as_it_arrives_and_answered_at_its_newline() {
        let (mut transport, mut input, mut output) = transport(1024);
        let receiving = tokio::spawn(async move {
            let message = transport.receive().await;
            (transport, message)
        });
        // 10 chunks of 1000 bytes, none a line: the buffer never holds more than the limit
        for _ in 0..10 {
            input.write_all(&[b'x'; 1000]).await.unwrap();
        }
        input
            .write_all(b"\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n")
            .await
            .unwrap();
        let (mut transport, message) = receiving.await.unwrap();
        assert!(transport.lines.line.capacity() <= 1024 + KEPT_CAPACITY);
        assert_eq!(serde_json::to_value(message.unwrap()).unwrap()["id"], 3);
        let answer = next_json(&mut output).await;
        assert_eq!(
            answer["error"]["message"],
            "Parse error: line of 10000 bytes is past the 1024-byte limit"
        );
        drop(input);
        assert!(transport.receive().await.is_none());
        transport.close().await.unwrap();
    }

    #[tokio::test]
    async fn a_cancelled_receive_loses_no_bytes() {
        let (mut transport, mut input, _output) = transport(MAX_LINE_BYTES);
        let line = br#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#;
        input.write_all(&line[..10]).await.unwrap();
        // the receive is dropped mid-line, as rmcp's select! drops it when another branch is ready
        let timed_out =
            tokio::time::timeout(std::time::Duration::from_millis(20), transport.receive()).await;
        assert!(timed_out.is_err());
        input.write_all(&line[10..]).await.unwrap();
        input.write_all(b"\n").await.unwrap();
        let message = transport.receive().await.expect("the whole line");
        assert_eq!(serde_json::to_value(message).unwrap()["id"], 4);
    }
}
