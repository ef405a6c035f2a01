//! What one client may hold, tried as an attacker would: the in-memory journal is a ring (the journal file stays
//! complete); over HTTP, slow heads, slow bodies and idle connections are closed, connections and `initialize`
//! sessions are capped (503 with the reason), a request target naming another host, a repeated Host, Origin or
//! Authorization header, and `Expect: 100-continue` with a body over the limit are refused.
//!
//! Timeouts are configured short (200 ms) and every check waits for the server to act within a generous bound; none
//! asserts how long something took.

use crate::examples::cart;
use crate::http_client;

use std::net::SocketAddr;
use std::time::Duration;

use http_client::{Era, Http, Session};
use hyper::StatusCode;
use ranvier::Mvu;
use ranvier::exposure::{DEFAULT_JOURNAL_CAPACITY, Decoder, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, block_on};
use ranvier::mcp::McpAdapterOptions;
use ranvier::mcp::http::{HttpOptions, HttpServer};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long the server has to act on a 200 ms timeout before a check fails; generous for a loaded CI machine.
const BOUND: Duration = Duration::from_secs(20);

/// A short timeout, for the limit a test exercises.
const SHORT: Duration = Duration::from_millis(200);

/// A counter exposing `add {n}`, journaling to `file`, keeping `capacity` entries in memory (or the default).
fn adder(capacity: Option<usize>, file: &std::path::Path) -> GraphHost<ExposureHandle> {
    let file = file.to_owned();
    GraphHost::start(move || {
        let count = Mvu::new(0_u64, |add: u64, n: &u64| n + add);
        let mut exposure = Exposure::new();
        exposure.value("count", {
            let count = count.clone();
            move || count.model()
        })?;
        let add: Decoder<u64> = Box::new(|args: &Value| {
            args["n"]
                .as_u64()
                .ok_or_else(|| "`n` must be an integer".into())
        });
        exposure.messages(&count, vec![("add".to_owned(), add)])?;
        exposure.journal_file(file);
        if let Some(capacity) = capacity {
            exposure.journal_capacity(capacity, usize::MAX);
        }
        exposure.start()
    })
    .expect("starts")
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "ranvier-limits-{}-{name}.jsonl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// Defect 4: 10,000 accepted messages leave the newest ones in memory (the default capacity, or the one set) and
/// count the rest as dropped; the journal file has every one, in order.
#[test]
fn the_journal_in_memory_keeps_the_newest_and_the_file_keeps_all() {
    for (capacity, kept) in [(None, DEFAULT_JOURNAL_CAPACITY), (Some(100), 100)] {
        let file = temp_file(&format!("journal-{kept}"));
        let host = adder(capacity, &file);
        let exposure = host.invoke(|h| h.clone()).wait().expect("handle");
        for n in 1..=10_000_u64 {
            block_on(exposure.dispatch("add", json!({"n": n}))).expect("accepted");
        }
        let journal = exposure.journal();
        assert_eq!(journal.len(), kept, "entries held in memory");
        assert_eq!(exposure.journal_dropped(), (10_000 - kept) as u64);
        let first = 10_000 - kept as u64 + 1;
        let held: Vec<u64> = journal
            .iter()
            .map(|e| e.args["n"].as_u64().unwrap())
            .collect();
        assert_eq!(
            held,
            (first..=10_000).collect::<Vec<_>>(),
            "the newest, in order"
        );
        assert_eq!(journal.last().unwrap().version, 10_000);
        host.dispose();
        let lines: Vec<u64> = std::fs::read_to_string(&file)
            .expect("the journal file")
            .lines()
            .map(|line| {
                serde_json::from_str::<Value>(line).unwrap()["args"]["n"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(
            lines,
            (1..=10_000).collect::<Vec<_>>(),
            "the file keeps every message"
        );
        let _ = std::fs::remove_file(&file);
    }
    // a capacity of 0 keeps the newest entry
    let file = temp_file("zero");
    let host = adder(Some(0), &file);
    let exposure = host.invoke(|h| h.clone()).wait().expect("handle");
    assert_eq!(
        (exposure.journal().len(), exposure.journal_dropped()),
        (0, 0)
    );
    for n in 1..=3 {
        block_on(exposure.dispatch("add", json!({"n": n}))).expect("accepted");
    }
    let held: Vec<u64> = exposure.journal().iter().map(|e| e.version).collect();
    assert_eq!((held, exposure.journal_dropped()), (vec![3], 2));
    host.dispose();
    let _ = std::fs::remove_file(&file);
}

async fn serve_cart(options: HttpOptions) -> (cart::CartHost, HttpServer) {
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("ranvier-cart", "1.0.0"))
        .expect("the adapter is built");
    let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", options)
        .await
        .expect("binds loopback");
    (host, server)
}

/// The bytes of an `initialize` POST to `target` (`/mcp`, or an absolute URI), with `extra` header lines.
fn initialize_request(addr: SocketAddr, target: &str, extra: &[&str]) -> Vec<u8> {
    let body = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    })
    .to_string();
    let mut head = format!(
        "POST {target} HTTP/1.1\r\nhost: {addr}\r\naccept: application/json, text/event-stream\r\n\
         content-type: application/json\r\ncontent-length: {}\r\n",
        body.len()
    );
    for line in extra {
        head.push_str(line);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    [head.into_bytes(), body.into_bytes()].concat()
}

/// Reads one response's head from `socket` (up to the blank line) and as much body as `Content-Length` says.
async fn read_response(socket: &mut TcpStream) -> (u16, String, String) {
    let mut bytes = Vec::new();
    let mut buf = [0_u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = tokio::time::timeout(BOUND, socket.read(&mut buf))
            .await
            .expect("hang guard: a response")
            .expect("reads");
        assert!(
            n > 0,
            "closed before a response: {}",
            String::from_utf8_lossy(&bytes)
        );
        bytes.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {head}"));
    let length: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse().unwrap())
        })
        .unwrap_or(0);
    while bytes.len() < head_end + length {
        let n = tokio::time::timeout(BOUND, socket.read(&mut buf))
            .await
            .expect("hang guard: the body")
            .expect("reads");
        assert!(n > 0, "closed in the body");
        bytes.extend_from_slice(&buf[..n]);
    }
    let body = String::from_utf8_lossy(&bytes[head_end..head_end + length]).into_owned();
    (status, head, body)
}

/// Sends `request` on a new connection and reads the response.
async fn exchange(addr: SocketAddr, request: &[u8]) -> (u16, String, String) {
    let mut socket = TcpStream::connect(addr).await.expect("connects");
    socket.write_all(request).await.expect("writes");
    read_response(&mut socket).await
}

/// Waits until the server closes `socket` (EOF or reset), writing `dribble` one byte every 50 ms meanwhile; panics
/// past [`BOUND`].
async fn closed_by_server(socket: &mut TcpStream, dribble: &[u8]) {
    let mut dribble = dribble.iter().copied().cycle();
    let mut buf = [0_u8; 1024];
    let closed = tokio::time::timeout(BOUND, async {
        loop {
            tokio::select! {
                read = socket.read(&mut buf) => match read {
                    Ok(0) | Err(_) => return,
                    Ok(n) => panic!("the server answered instead of closing: {}", String::from_utf8_lossy(&buf[..n])),
                },
                () = tokio::time::sleep(Duration::from_millis(50)) => {
                    if let Some(byte) = dribble.next()
                        && socket.write_all(&[byte]).await.is_err()
                    {
                        return;
                    }
                }
            }
        }
    })
    .await;
    assert!(
        closed.is_ok(),
        "the server kept the connection open past {BOUND:?}"
    );
}

/// Defect 5: a client sending its head a byte at a time is closed after the header-read timeout, and so is a new
/// connection that sends nothing; a connection that was answered and then sends nothing is closed after the idle
/// timeout; a body that stalls gets 408.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_heads_idle_connections_and_slow_bodies_are_closed() {
    let (host, server) = serve_cart(
        HttpOptions::new()
            .header_read_timeout(SHORT)
            .idle_timeout(SHORT)
            .body_read_timeout(SHORT),
    )
    .await;
    let addr = server.local_addr();

    // slowloris: a head that never ends, one byte every 50 ms
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ")
        .await
        .unwrap();
    closed_by_server(&mut slow, b"abcdefghijklmnopqrstuvwxyz").await;

    // connected, silent
    let mut silent = TcpStream::connect(addr).await.unwrap();
    closed_by_server(&mut silent, b"").await;

    // answered, then idle on a keep-alive connection
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(&initialize_request(addr, "/mcp", &[]))
        .await
        .unwrap();
    let (status, _, _) = read_response(&mut idle).await;
    assert_eq!(status, 200);
    closed_by_server(&mut idle, b"").await;

    // a body that stops after 10 of its 100 bytes: 408 with the reason
    let mut stalled = TcpStream::connect(addr).await.unwrap();
    stalled
        .write_all(
            format!(
                "POST /mcp HTTP/1.1\r\nhost: {addr}\r\naccept: application/json, text/event-stream\r\n\
                 content-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"jsonrpc\""
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let (status, head, body) = read_response(&mut stalled).await;
    assert_eq!(status, 408, "{head}{body}");
    assert!(body.contains("body_read_timeout"), "{body}");

    // the server still serves
    let mut session = Session::open(addr, "/mcp", Era::Legacy, "after").await;
    let result = session.call_tool("snapshot", json!({})).await;
    assert_eq!(result["isError"], json!(false));
    server.shutdown();
    host.dispose();
}

/// Defect 5: past `max_connections`, a new connection is answered 503 with the reason; once one closes, a new
/// connection is served again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_cap_get_503_with_the_reason() {
    let (host, server) = serve_cart(
        HttpOptions::new()
            .max_connections(2)
            .header_read_timeout(Duration::from_secs(60)),
    )
    .await;
    let addr = server.local_addr();
    let mut held = Vec::new();
    for _ in 0..2 {
        held.push(TcpStream::connect(addr).await.expect("connects"));
    }
    // the server accepts connections in order: these two hold both places when the third arrives
    let (status, head, body) = exchange(addr, &initialize_request(addr, "/mcp", &[])).await;
    assert_eq!(status, 503, "{head}{body}");
    assert!(
        body.contains("2 connections open") && body.contains("max_connections"),
        "{body}"
    );
    assert!(head.to_ascii_lowercase().contains("retry-after"), "{head}");
    drop(held);
    // the held connections' places come back once the server sees them close
    let served = tokio::time::timeout(BOUND, async {
        loop {
            let (status, _, _) = exchange(addr, &initialize_request(addr, "/mcp", &[])).await;
            if status == 200 {
                return;
            }
            assert_eq!(status, 503);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(served.is_ok(), "a place came back");
    server.shutdown();
    host.dispose();
}

/// A legacy session's request: 200, or 404 once the session is gone.
async fn status_of(session: &mut Session) -> StatusCode {
    let message = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list", "params": {}});
    session.post_message(&message).await.status
}

/// Defect 8: at `max_sessions`, a new session ends the least recently used idle one (404 on its next request);
/// when every session has a stream open, a new one gets 503 with the reason; a session idle past
/// `session_idle_timeout` ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_capped_and_expire() {
    let (host, server) = serve_cart(HttpOptions::new().max_sessions(3)).await;
    let addr = server.local_addr();
    let mut a = Session::open(addr, "/mcp", Era::Legacy, "a").await;
    let mut b = Session::open(addr, "/mcp", Era::Legacy, "b").await;
    let mut c = Session::open(addr, "/mcp", Era::Legacy, "c").await;
    assert_eq!(status_of(&mut a).await, StatusCode::OK); // a was used last of the three; b is the oldest now
    let mut d = Session::open(addr, "/mcp", Era::Legacy, "d").await;
    assert_eq!(status_of(&mut b).await, StatusCode::NOT_FOUND, "b went");
    for session in [&mut a, &mut c, &mut d] {
        assert_eq!(
            status_of(session).await,
            StatusCode::OK,
            "{} stays",
            session.name
        );
    }
    // every live session has its GET stream open: nothing may go, so a new one is refused with the reason
    let streams = [
        a.notification_stream().await,
        c.notification_stream().await,
        d.notification_stream().await,
    ];
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "e", "version": "1"}}
    });
    let refused = Http::new(addr, "/mcp").post(&[], &init).await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        refused.text()
    );
    assert!(
        refused.text().contains("3 sessions are open") && refused.text().contains("max_sessions"),
        "{}",
        refused.text()
    );
    for session in [&mut a, &mut c, &mut d] {
        assert_eq!(
            status_of(session).await,
            StatusCode::OK,
            "{} stays",
            session.name
        );
    }
    // a stream closes: its session may go, and the new one is made
    streams[1].1.abort();
    let made = tokio::time::timeout(BOUND, async {
        loop {
            let reply = Http::new(addr, "/mcp").post(&[], &init).await;
            if reply.status == StatusCode::OK {
                return;
            }
            assert_eq!(
                reply.status,
                StatusCode::SERVICE_UNAVAILABLE,
                "{}",
                reply.text()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(made.is_ok(), "a place came back once c's stream closed");
    assert_eq!(status_of(&mut c).await, StatusCode::NOT_FOUND, "c went");
    for (_, task) in streams {
        task.abort();
    }
    server.shutdown();

    // idle expiry
    let (expiring_host, server) = serve_cart(HttpOptions::new().session_idle_timeout(SHORT)).await;
    let mut idle = Session::open(server.local_addr(), "/mcp", Era::Legacy, "idle").await;
    let expired = tokio::time::timeout(BOUND, async {
        while status_of(&mut idle).await == StatusCode::OK {
            tokio::time::sleep(SHORT * 2).await;
        }
    })
    .await;
    assert!(expired.is_ok(), "the idle session ended");
    assert_eq!(status_of(&mut idle).await, StatusCode::NOT_FOUND);
    server.shutdown();
    expiring_host.dispose();
    host.dispose();
}

/// Smaller HTTP items: an absolute request target naming another host is refused (403) whatever the Host header
/// says; a repeated Host, Origin or Authorization header is refused (400, naming it); `Expect: 100-continue` with a
/// declared body over the limit gets 413 at once, before any `100 Continue`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_targets_repeated_headers_and_expect_continue() {
    let (host, server) = serve_cart(HttpOptions::new().bearer_token("s3cret")).await;
    let addr = server.local_addr();
    let auth = "authorization: Bearer s3cret";

    let (status, _, body) = exchange(
        addr,
        &initialize_request(addr, "http://evil.example/mcp", &[auth]),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("request target"), "{body}");
    let (status, _, body) = exchange(
        addr,
        &initialize_request(addr, &format!("http://{addr}/mcp"), &[auth]),
    )
    .await;
    assert_eq!(
        status, 200,
        "an absolute target naming this server is fine: {body}"
    );

    for (extra, named) in [
        (vec![auth, "host: evil.example"], "Host"),
        (
            vec![
                auth,
                "origin: http://localhost:1",
                "origin: http://evil.example",
            ],
            "Origin",
        ),
        (vec![auth, "authorization: Bearer wrong"], "Authorization"),
        (vec!["authorization: Bearer wrong", auth], "Authorization"),
    ] {
        let (status, _, body) = exchange(addr, &initialize_request(addr, "/mcp", &extra)).await;
        assert_eq!(status, 400, "{extra:?}: {body}");
        assert!(
            body.contains(&format!("more than one {named} header")),
            "{body}"
        );
    }

    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(
            format!(
                "POST /mcp HTTP/1.1\r\nhost: {addr}\r\n{auth}\r\naccept: application/json, text/event-stream\r\n\
                 content-type: application/json\r\ncontent-length: 2000000\r\nexpect: 100-continue\r\n\r\n"
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let (status, head, body) = read_response(&mut socket).await;
    assert_eq!(status, 413, "413 first, not 100 Continue: {head}");
    assert!(body.contains("exceeds 1048576 bytes"), "{body}");

    // and the session goes on as usual
    let mut session =
        Session::open_with_token(addr, "/mcp", Era::Legacy, "fine", Some("s3cret")).await;
    assert_eq!(status_of(&mut session).await, StatusCode::OK);
    server.shutdown();
    host.dispose();
}
