//! A raw Streamable HTTP MCP client for the tests: plain hyper over loopback, every status, header and byte visible,
//! in both protocol eras. Shared by `http_*.rs` and `conformance.rs` through `mod http_client;`.
#![allow(dead_code)] // each test crate uses part of it

use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::header::HeaderValue;
use hyper::{HeaderMap, Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// Generous hang guard; nothing is timed.
pub const GUARD: Duration = Duration::from_secs(60);

/// The modern protocol version.
pub const MODERN: &str = "2026-07-28";
/// The newest `initialize` protocol version.
pub const LEGACY: &str = "2025-11-25";

/// A whole HTTP reply.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Reply {
    /// The JSON-RPC messages of the body: one JSON document, or the `data` of each SSE event.
    pub fn messages(&self) -> Vec<Value> {
        let is_sse = self
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if is_sse {
            let mut parser = SseParser::default();
            parser.push(&self.body)
        } else if self.body.is_empty() {
            Vec::new()
        } else {
            vec![serde_json::from_slice(&self.body).unwrap_or_else(|e| {
                panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body))
            })]
        }
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Splits an SSE byte stream into the JSON of each event's `data`.
#[derive(Default)]
pub struct SseParser {
    buffer: String,
}

impl SseParser {
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Value> {
        self.buffer
            .push_str(&String::from_utf8_lossy(bytes).replace("\r\n", "\n"));
        let mut out = Vec::new();
        while let Some(end) = self.buffer.find("\n\n") {
            let event: String = self.buffer.drain(..end + 2).collect();
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            let data = data.join("\n");
            if !data.trim().is_empty() {
                out.push(
                    serde_json::from_str(&data)
                        .unwrap_or_else(|e| panic!("SSE data is not JSON ({e}): {data}")),
                );
            }
        }
        out
    }
}

/// One keep-alive HTTP/1.1 connection to an endpoint (reconnects when the server closed it).
pub struct Http {
    pub addr: SocketAddr,
    pub path: String,
    sender: Option<SendRequest<Full<Bytes>>>,
}

async fn connect(addr: SocketAddr) -> SendRequest<Full<Bytes>> {
    let stream = TcpStream::connect(addr).await.expect("connects");
    stream.set_nodelay(true).expect("nodelay");
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    sender
}

/// Builds a request with the usual MCP headers (Host, Accept, Content-Type) plus `headers`.
pub fn request(
    addr: SocketAddr,
    path: &str,
    method: Method,
    headers: &[(String, String)],
    body: Vec<u8>,
) -> Request<Full<Bytes>> {
    let mut builder = Request::builder().method(method).uri(path);
    let has = |name: &str| headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    if !has("host") {
        builder = builder.header("host", addr.to_string());
    }
    if !has("accept") {
        builder = builder.header("accept", "application/json, text/event-stream");
    }
    if !has("content-type") {
        builder = builder.header("content-type", "application/json");
    }
    for (name, value) in headers {
        builder = builder.header(
            name.as_str(),
            HeaderValue::from_str(value).expect("header value"),
        );
    }
    builder.body(Full::new(Bytes::from(body))).expect("request")
}

impl Http {
    pub fn new(addr: SocketAddr, path: &str) -> Self {
        Self {
            addr,
            path: path.to_owned(),
            sender: None,
        }
    }

    /// Sends one request and reads the whole reply, or returns the connection error (a server may answer a body it
    /// refuses before reading it all, and close the connection while the rest is still being written).
    #[allow(dead_code)]
    pub async fn try_send(
        &mut self,
        method: Method,
        headers: &[(String, String)],
        body: Vec<u8>,
    ) -> Result<Reply, hyper::Error> {
        let request = request(self.addr, &self.path, method, headers, body);
        tokio::time::timeout(GUARD, async {
            let mut sender = connect(self.addr).await;
            let response = sender.send_request(request).await?;
            let (parts, body) = response.into_parts();
            let body = body.collect().await?.to_bytes();
            Ok(Reply {
                status: parts.status,
                headers: parts.headers,
                body,
            })
        })
        .await
        .expect("hang guard: the reply came")
    }

    /// Sends one request and reads the whole reply.
    pub async fn send(
        &mut self,
        method: Method,
        headers: &[(String, String)],
        body: Vec<u8>,
    ) -> Reply {
        let request = request(self.addr, &self.path, method, headers, body);
        tokio::time::timeout(GUARD, async {
            let reuse = match &mut self.sender {
                Some(sender) => sender.ready().await.is_ok(),
                None => false,
            };
            if !reuse {
                self.sender = Some(connect(self.addr).await);
            }
            let sender = self.sender.as_mut().expect("connected");
            let response = sender.send_request(request).await.expect("response");
            let (parts, body) = response.into_parts();
            let body = body.collect().await.expect("body").to_bytes();
            Reply {
                status: parts.status,
                headers: parts.headers,
                body,
            }
        })
        .await
        .expect("hang guard: the reply came")
    }

    /// POSTs `body` as JSON.
    pub async fn post(&mut self, headers: &[(String, String)], body: &Value) -> Reply {
        self.send(Method::POST, headers, body.to_string().into_bytes())
            .await
    }
}

/// Opens a streaming request on its own connection: the status and headers, and each SSE message as it arrives.
/// Dropping the receiver does not close the stream; abort the returned task to disconnect.
pub async fn open_stream(
    addr: SocketAddr,
    path: &str,
    method: Method,
    headers: &[(String, String)],
    body: Vec<u8>,
) -> (
    StatusCode,
    mpsc::UnboundedReceiver<Value>,
    tokio::task::JoinHandle<()>,
) {
    let mut sender = connect(addr).await;
    let request = request(addr, path, method, headers, body);
    let response = tokio::time::timeout(GUARD, sender.send_request(request))
        .await
        .expect("hang guard: stream headers")
        .expect("response");
    let status = response.status();
    let (tx, rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        let _sender = sender; // keeps the connection open as long as the task lives
        let mut body = response.into_body();
        let mut parser = SseParser::default();
        while let Some(Ok(frame)) = body.frame().await {
            if let Ok(data) = frame.into_data() {
                for message in parser.push(&data) {
                    if tx.send(message).is_err() {
                        return;
                    }
                }
            }
        }
    });
    (status, rx, task)
}

/// Which protocol era a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// `initialize` with 2025-11-25, an `Mcp-Session-Id`, notifications on a GET stream.
    Legacy,
    /// 2026-07-28: stateless, `_meta` on every request, `subscriptions/listen`.
    Modern,
}

/// An MCP session over raw HTTP.
pub struct Session {
    pub http: Http,
    pub era: Era,
    pub name: String,
    pub session_id: Option<String>,
    pub token: Option<String>,
    pub next_id: u64,
}

impl Session {
    /// A session of `era` named `name` (its `clientInfo.name`); a legacy one is initialized.
    pub async fn open(addr: SocketAddr, path: &str, era: Era, name: &str) -> Self {
        Self::open_with_token(addr, path, era, name, None).await
    }

    pub async fn open_with_token(
        addr: SocketAddr,
        path: &str,
        era: Era,
        name: &str,
        token: Option<&str>,
    ) -> Self {
        let mut session = Self {
            http: Http::new(addr, path),
            era,
            name: name.to_owned(),
            session_id: None,
            token: token.map(str::to_owned),
            next_id: 1,
        };
        if era == Era::Legacy {
            let init = json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": LEGACY,
                    "capabilities": {},
                    "clientInfo": {"name": name, "version": "1.0.0"}
                }
            });
            let reply = session.post_message(&init).await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
            session.session_id = Some(
                reply
                    .headers
                    .get("mcp-session-id")
                    .expect("a session id")
                    .to_str()
                    .unwrap()
                    .to_owned(),
            );
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            let reply = session.post_message(&initialized).await;
            assert_eq!(reply.status, StatusCode::ACCEPTED, "{}", reply.text());
        }
        session
    }

    /// The headers a message needs: the token, the session, the protocol version, and for 2026 the method/name.
    pub fn headers_for(&self, message: &Value) -> Vec<(String, String)> {
        let mut headers = Vec::new();
        if let Some(token) = &self.token {
            headers.push(("authorization".into(), format!("Bearer {token}")));
        }
        if let Some(id) = &self.session_id {
            headers.push(("mcp-session-id".into(), id.clone()));
        }
        let is_initialize = message["method"] == "initialize";
        match self.era {
            Era::Legacy if !is_initialize && self.session_id.is_some() => {
                headers.push(("mcp-protocol-version".into(), LEGACY.into()));
            }
            Era::Legacy => {}
            Era::Modern => {
                headers.push(("mcp-protocol-version".into(), MODERN.into()));
                if let Some(method) = message["method"].as_str() {
                    headers.push(("mcp-method".into(), method.into()));
                    let name = message["params"]["name"]
                        .as_str()
                        .or_else(|| message["params"]["uri"].as_str());
                    if let Some(name) = name {
                        headers.push(("mcp-name".into(), name.into()));
                    }
                }
            }
        }
        headers
    }

    /// Adds the 2026 `_meta` a modern request carries (a no-op for legacy sessions and for notifications).
    pub fn with_meta(&self, mut message: Value) -> Value {
        if self.era == Era::Modern && message.get("id").is_some() {
            let params = message
                .as_object_mut()
                .unwrap()
                .entry("params")
                .or_insert_with(|| json!({}));
            let meta = params
                .as_object_mut()
                .unwrap()
                .entry("_meta")
                .or_insert_with(|| json!({}));
            let meta = meta.as_object_mut().unwrap();
            meta.entry("io.modelcontextprotocol/protocolVersion")
                .or_insert_with(|| json!(MODERN));
            meta.entry("io.modelcontextprotocol/clientCapabilities")
                .or_insert_with(|| json!({}));
            meta.entry("io.modelcontextprotocol/clientInfo")
                .or_insert_with(|| json!({"name": self.name, "version": "1.0.0"}));
        }
        message
    }

    /// POSTs one message as is (with the session's headers).
    pub async fn post_message(&mut self, message: &Value) -> Reply {
        let headers = self.headers_for(message);
        self.http.post(&headers, message).await
    }

    /// Sends a request and returns its JSON-RPC response (`result` or `error`), checking the HTTP status is 200.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let message =
            self.with_meta(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let reply = self.post_message(&message).await;
        assert_eq!(reply.status, StatusCode::OK, "{method}: {}", reply.text());
        reply
            .messages()
            .into_iter()
            .find(|m| m.get("id") == Some(&json!(id)))
            .unwrap_or_else(|| panic!("{method}: no response in {}", reply.text()))
    }

    /// Calls a tool and returns its result (`content`, `isError`, ...).
    pub async fn call_tool(&mut self, name: &str, arguments: Value) -> Value {
        let response = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await;
        response
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("tools/call {name}: {response}"))
    }

    /// Legacy: opens the session's GET stream, where resource notifications arrive.
    pub async fn notification_stream(
        &self,
    ) -> (mpsc::UnboundedReceiver<Value>, tokio::task::JoinHandle<()>) {
        assert_eq!(self.era, Era::Legacy);
        let mut headers = self.headers_for(&json!({}));
        headers.push(("accept".into(), "text/event-stream".into()));
        let (status, rx, task) = open_stream(
            self.http.addr,
            &self.http.path,
            Method::GET,
            &headers,
            Vec::new(),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        (rx, task)
    }

    /// Legacy: subscribes to `uri` and opens the notification stream.
    pub async fn subscribe(
        &mut self,
        uri: &str,
    ) -> (mpsc::UnboundedReceiver<Value>, tokio::task::JoinHandle<()>) {
        let stream = self.notification_stream().await;
        let response = self
            .request("resources/subscribe", json!({"uri": uri}))
            .await;
        assert!(response.get("result").is_some(), "{response}");
        stream
    }

    /// Modern: sends `subscriptions/listen` for `uris`; returns the stream (acknowledgement first) and its task.
    pub async fn listen(
        &mut self,
        uris: &[&str],
    ) -> (mpsc::UnboundedReceiver<Value>, tokio::task::JoinHandle<()>) {
        assert_eq!(self.era, Era::Modern);
        let id = self.next_id;
        self.next_id += 1;
        let message = self.with_meta(json!({
            "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
            "params": {"notifications": {"resourceSubscriptions": uris}}
        }));
        let headers = self.headers_for(&message);
        let (status, rx, task) = open_stream(
            self.http.addr,
            &self.http.path,
            Method::POST,
            &headers,
            message.to_string().into_bytes(),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        (rx, task)
    }
}

/// The text of a tool result.
pub fn text(result: &Value) -> String {
    result["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// Waits for the next message on a stream, under the hang guard.
pub async fn next(rx: &mut mpsc::UnboundedReceiver<Value>) -> Value {
    tokio::time::timeout(GUARD, rx.recv())
        .await
        .expect("hang guard: a message came")
        .expect("the stream is open")
}
