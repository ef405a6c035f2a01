//! Conformance transcripts: `tests/conformance/*.json` pin exact request → response exchanges with the cart app; each
//! is replayed over the stdio transport (rmcp's line-delimited JSON-RPC, over an in-memory pipe) and over Streamable
//! HTTP, against a fresh app, and any difference fails.
//!
//! A transcript is `{"description", "steps": [...]}`; a step is one of
//! - `{"send": message, "expect": response}`: a request and its exact response (`expect` is absent for a notification);
//! - `{"send": message, "stream": true}`: a request whose replies stream as notifications (`subscriptions/listen`);
//! - `{"notifications": [...]}`: the next notifications, exactly, in order.
//!
//! Volatile fields are normalised on both sides before comparing (see [`normalise`]).
//!
//! Record after a deliberate change with `RANVIER_CONFORMANCE=record cargo test -p ranvier-tests --test main conformance::`:
//! it replays over stdio and writes each response (and, where a step gives a count, that many notifications) back
//! into the files; check them in, and review the diff.
//!
//! Build flavours: a traced build (every debug build, or `--features trace`) also lists the trace tools, so a few
//! responses (`tools/list`, the instructions, the unknown-tool error) differ from an untraced build's. A
//! step's `expect` is the untraced response; `expectTraced` holds the traced one where it differs. Record in both
//! flavours, untraced first: `RANVIER_CONFORMANCE=record cargo test -p ranvier-tests --profile untraced --test main
//! conformance::` writes `expect`, then the same command without `--profile untraced` writes `expectTraced` where the traced response differs
//! from `expect` (and removes it where it does not).

use crate::examples::cart;
use crate::http_client;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use http_client::{Era, GUARD, Http};
use hyper::{Method, StatusCode};
use ranvier::mcp::http::{HttpOptions, HttpServer};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    files
}

/// Replaces what may vary between runs and transports: the reason text of an unparsable message (`error.data`),
/// which comes from the JSON parser, and the server version.
fn normalise(mut value: Value) -> Value {
    if let Some(error) = value.get_mut("error").and_then(Value::as_object_mut)
        && error.contains_key("data")
    {
        error.insert("data".into(), json!("<volatile>"));
    }
    if let Some(info) = value.pointer_mut("/result/serverInfo/version") {
        *info = json!("<version>");
    }
    value
}

fn cart() -> (cart::CartHost, McpAdapter) {
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("ranvier-cart", "1.0.0"))
        .expect("adapter");
    (host, adapter)
}

/// One transport to replay over.
enum Wire {
    Stdio {
        writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
        lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
        notifications: VecDeque<Value>,
    },
    Http {
        http: Http,
        session_id: Option<String>,
        notifications: mpsc::UnboundedReceiver<Value>,
        sink: mpsc::UnboundedSender<Value>,
        streams: Vec<tokio::task::JoinHandle<()>>,
        _server: HttpServer,
    },
}

impl Wire {
    async fn stdio(adapter: &McpAdapter) -> Self {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let adapter = adapter.clone();
        tokio::spawn(async move {
            if let Ok(running) = adapter.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let (reader, writer) = tokio::io::split(client_io);
        Wire::Stdio {
            writer,
            lines: BufReader::new(reader).lines(),
            notifications: VecDeque::new(),
        }
    }

    async fn http(adapter: &McpAdapter) -> Self {
        let server = HttpServer::bind(adapter.clone(), "127.0.0.1:0", "/mcp", HttpOptions::new())
            .await
            .expect("binds");
        let (sink, notifications) = mpsc::unbounded_channel();
        Wire::Http {
            http: Http::new(server.local_addr(), "/mcp"),
            session_id: None,
            notifications,
            sink,
            streams: Vec::new(),
            _server: server,
        }
    }

    /// Sends `message`; returns its response when it is a request.
    async fn send(&mut self, message: &Value, stream: bool) -> Option<Value> {
        let id = message.get("id").cloned();
        match self {
            Wire::Stdio {
                writer,
                lines,
                notifications,
            } => {
                writer
                    .write_all(format!("{message}\n").as_bytes())
                    .await
                    .unwrap();
                let id = id.filter(|_| !stream)?;
                loop {
                    let line = tokio::time::timeout(GUARD, lines.next_line())
                        .await
                        .expect("hang guard: a reply on stdio")
                        .unwrap()
                        .expect("the server is alive");
                    let reply: Value = serde_json::from_str(&line).unwrap();
                    if reply.get("id") == Some(&id)
                        || (reply.get("error").is_some() && reply.get("id").is_none())
                    {
                        return Some(reply);
                    }
                    notifications.push_back(reply);
                }
            }
            Wire::Http {
                http,
                session_id,
                sink,
                streams,
                ..
            } => {
                let era = if message
                    .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                    .is_some()
                {
                    Era::Modern
                } else {
                    Era::Legacy
                };
                let mut session = http_client::Session {
                    http: Http::new(http.addr, &http.path),
                    era,
                    name: String::new(),
                    session_id: session_id.clone(),
                    token: None,
                    next_id: 0,
                };
                let headers = session.headers_for(message);
                if stream {
                    let (status, mut rx, task) = http_client::open_stream(
                        http.addr,
                        &http.path,
                        Method::POST,
                        &headers,
                        message.to_string().into_bytes(),
                    )
                    .await;
                    assert_eq!(status, StatusCode::OK);
                    let sink = sink.clone();
                    streams.push(tokio::spawn(async move {
                        while let Some(m) = rx.recv().await {
                            let _ = sink.send(m);
                        }
                    }));
                    streams.push(task);
                    return None;
                }
                let reply = http.post(&headers, message).await;
                if message["method"] == "initialize"
                    && let Some(id) = reply.headers.get("mcp-session-id")
                {
                    *session_id = Some(id.to_str().unwrap().to_owned());
                }
                let Some(id) = id else {
                    assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text());
                    if message["method"] == "notifications/initialized" {
                        // the session's GET stream carries its resource notifications
                        session.session_id = session_id.clone();
                        let (rx, task) = session.notification_stream().await;
                        let sink = sink.clone();
                        let mut rx = rx;
                        streams.push(tokio::spawn(async move {
                            while let Some(m) = rx.recv().await {
                                let _ = sink.send(m);
                            }
                        }));
                        streams.push(task);
                    }
                    return None;
                };
                let messages = reply.messages();
                let (response, others): (Vec<Value>, Vec<Value>) =
                    messages.into_iter().partition(|m| {
                        m.get("id") == Some(&id)
                            || m.get("id").is_none() && m.get("error").is_some()
                    });
                for other in others {
                    let _ = sink.send(other);
                }
                Some(
                    response
                        .into_iter()
                        .next()
                        .unwrap_or_else(|| panic!("no response to {message}: {}", reply.text())),
                )
            }
        }
    }

    /// The next `count` notifications.
    async fn notifications(&mut self, count: usize) -> Vec<Value> {
        let mut got = Vec::new();
        while got.len() < count {
            let next = match self {
                Wire::Stdio {
                    lines,
                    notifications,
                    ..
                } => match notifications.pop_front() {
                    Some(n) => n,
                    None => {
                        let line = tokio::time::timeout(GUARD, lines.next_line())
                            .await
                            .expect("hang guard: a notification on stdio")
                            .unwrap()
                            .expect("alive");
                        serde_json::from_str(&line).unwrap()
                    }
                },
                Wire::Http { notifications, .. } => {
                    tokio::time::timeout(GUARD, notifications.recv())
                        .await
                        .expect("hang guard: a notification over HTTP")
                        .expect("alive")
                }
            };
            got.push(next);
        }
        got
    }

    fn close(self) {
        if let Wire::Http { streams, .. } = self {
            for stream in streams {
                stream.abort();
            }
        }
    }
}

/// The key of a step's response in a traced build, where it differs from `expect`.
const EXPECT_TRACED: &str = "expectTraced";

/// The response this build flavour expects: `expectTraced` in a traced build when the step has one, else `expect`.
fn expected_response(step: &Value) -> Value {
    let traced = ranvier::trace::TRACED
        .then(|| step.get(EXPECT_TRACED))
        .flatten();
    traced
        .or_else(|| step.get("expect"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// Replays `steps` over `wire`; in record mode returns the steps with what was received, otherwise compares.
async fn replay(
    name: &str,
    transport: &str,
    steps: &[Value],
    mut wire: Wire,
    record: bool,
) -> Vec<Value> {
    let mut recorded = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let mut step = step.clone();
        let at = format!("{name} step {} over {transport}", index + 1);
        if let Some(message) = step.get("send").cloned() {
            let stream = step.get("stream") == Some(&json!(true));
            let response = wire.send(&message, stream).await.map(normalise);
            match (response, record) {
                (Some(response), true) if ranvier::trace::TRACED => {
                    let object = step.as_object_mut().expect("a step is an object");
                    if object.get("expect") == Some(&response) {
                        object.remove(EXPECT_TRACED);
                    } else {
                        object.insert(EXPECT_TRACED.into(), response);
                    }
                }
                (Some(response), true) => {
                    step["expect"] = response;
                }
                (Some(response), false) => {
                    let expected = expected_response(&step);
                    assert_eq!(
                        response, expected,
                        "{at}: sent {message}\n got      {response}\n expected {expected}"
                    );
                }
                (None, _) => assert!(
                    step.get("expect").is_none(),
                    "{at}: nothing answers a notification"
                ),
            }
        } else if let Some(expected) = step.get("notifications").cloned() {
            let count = expected.as_array().map_or_else(
                || expected.as_u64().expect("a count or a list") as usize,
                Vec::len,
            );
            let got: Vec<Value> = wire
                .notifications(count)
                .await
                .into_iter()
                .map(normalise)
                .collect();
            if record {
                step["notifications"] = Value::Array(got);
            } else {
                assert_eq!(Value::Array(got.clone()), expected, "{at}: notifications");
            }
        } else {
            panic!("{at}: a step needs \"send\" or \"notifications\": {step}");
        }
        recorded.push(step);
    }
    wire.close();
    recorded
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transcripts_replay_identically_over_stdio_and_http() {
    let record = std::env::var("RANVIER_CONFORMANCE").is_ok_and(|v| v == "record");
    for path in transcripts() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut transcript: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let steps = transcript["steps"]
            .as_array()
            .cloned()
            .unwrap_or_else(|| panic!("{name}: no steps"));
        if record {
            let (host, adapter) = cart();
            let recorded = replay(&name, "stdio", &steps, Wire::stdio(&adapter).await, true).await;
            host.dispose();
            transcript["steps"] = Value::Array(recorded);
            std::fs::write(
                &path,
                serde_json::to_string_pretty(&transcript).unwrap() + "\n",
            )
            .unwrap();
            eprintln!("recorded {name}");
            continue;
        }
        for transport in ["stdio", "http"] {
            let (host, adapter) = cart();
            let wire = match transport {
                "stdio" => Wire::stdio(&adapter).await,
                _ => Wire::http(&adapter).await,
            };
            replay(&name, transport, &steps, wire, false).await;
            host.dispose();
        }
    }
}

#[test]
fn normalising_touches_only_the_volatile_fields() {
    let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "Invalid request", "data": {"reason": "x"}}});
    assert_eq!(
        normalise(error)["error"],
        json!({"code": -32600, "message": "Invalid request", "data": "<volatile>"})
    );
    let ok = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [], "isError": false}});
    assert_eq!(normalise(ok.clone()), ok);
}
