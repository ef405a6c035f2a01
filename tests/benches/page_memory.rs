//! Memory (and CPU) of the live page's event streams on loopback, against one app in this process: the resident set
//! (VmRSS) with page streams that never read while large messages are dispatched, after they close, and the bytes and
//! CPU time of opening streams against a full journal (the issue 27 attacks, as a person's session would mount them:
//! the page wants its key, which this process holds).
//!
//! Run with `cargo bench -p ranvier-tests --bench page_memory` (Linux: it reads `/proc/self/status` and
//! `/proc/self/stat`). Each line gives the RSS and its growth over the previous line. A stream is bounded by
//! bytes (`STREAM_MAX_BYTES`, 1 MiB of queued events, then it is dropped) and values are clipped, so the growth with
//! stalled streams levels off instead of rising with every message; a stream's opening carries a bounded window of
//! the journal, made once per version.

#[path = "../tests/http_client/mod.rs"]
mod http_client;
#[path = "rss/mod.rs"]
mod rss;

use rss::Meter;
use std::net::SocketAddr;
use std::time::Instant;

use ranvier::Mvu;
use ranvier::exposure::{Decoder, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::http::{HttpOptions, HttpServer};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An app exposing `text`, set by `set {text}`.
fn app() -> (GraphHost<ExposureHandle>, McpAdapter) {
    let host = GraphHost::start(|| {
        let text = Mvu::new(String::new(), |next: String, _: &String| next);
        let mut exposure = Exposure::new();
        exposure.value("text", {
            let text = text.clone();
            move || text.model()
        })?;
        let decoders: Vec<(String, Decoder<String>)> = vec![(
            "set".into(),
            Box::new(|args: &Value| {
                args["text"]
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| "`text` must be a string".into())
            }),
        )];
        exposure.messages(&text, decoders)?;
        exposure.start()
    })
    .expect("starts");
    let adapter = host
        .invoke(|h| McpAdapter::new(h.clone(), McpAdapterOptions::new("bench", "0")))
        .wait()
        .expect("adapter");
    (host, adapter)
}

/// The CPU time this process used (user + system), in clock ticks.
fn cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Opens the printed address once, as a person does: the session cookie.
async fn login(server: &HttpServer) -> String {
    let url = server.page_url().expect("the page");
    let target = url.split_once(&server.local_addr().to_string()).unwrap().1;
    let mut socket = TcpStream::connect(server.local_addr()).await.unwrap();
    let request = format!(
        "GET {target} HTTP/1.1\r\nhost: {}\r\nconnection: close\r\n\r\n",
        server.local_addr()
    );
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut reply = String::new();
    socket.read_to_string(&mut reply).await.unwrap();
    let set = reply
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .expect("a session cookie");
    set.split(';').next().unwrap().to_owned()
}

/// A page stream that reads its head and then nothing: a small receive window, never drained.
async fn stalled(addr: SocketAddr, cookie: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    let request = format!("GET /page/events HTTP/1.1\r\nhost: {addr}\r\ncookie: {cookie}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0_u8; 512];
    let n = stream.read(&mut head).await.unwrap();
    assert!(
        head[..n].starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&head[..n])
    );
    stream
}

/// The bytes of a stream's first event (`hello`).
async fn hello_bytes(addr: SocketAddr, cookie: &str) -> usize {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET /page/events HTTP/1.1\r\nhost: {addr}\r\ncookie: {cookie}\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    let mut buf = vec![0_u8; 64 * 1024];
    let start = loop {
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0);
        bytes.extend_from_slice(&buf[..n]);
        if let Some(at) = bytes.windows(13).position(|w| w == b"event: hello\n") {
            break at;
        }
    };
    loop {
        if let Some(end) = bytes[start..].windows(2).position(|w| w == b"\n\n") {
            return end + 2;
        }
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0);
        bytes.extend_from_slice(&buf[..n]);
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (host, adapter) = app();
        let exposure = host.invoke(|h| h.clone()).wait().expect("handle");
        let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", HttpOptions::new())
            .await
            .expect("binds");
        let addr = server.local_addr();
        let cookie = login(&server).await;
        println!("live page streams on loopback ({})", server.url());
        let mut meter = Meter::new(64);
        meter.line("started, one page session");

        let text = "x".repeat(100 * 1024);
        // the baseline: the same messages with no stream open, until the journal is at its cap
        for _ in 0..600 {
            exposure
                .dispatch_as("agent", "set", json!({"text": text}))
                .await
                .unwrap();
        }
        meter.line("no stream, 600 dispatches of 100 KiB (the journal at its cap)");
        let baseline = meter.last;
        for streams in [4, 16] {
            let mut held = Vec::new();
            for _ in 0..streams {
                held.push(stalled(addr, &cookie).await);
            }
            for _ in 0..300 {
                exposure
                    .dispatch_as("agent", "set", json!({"text": text}))
                    .await
                    .unwrap();
            }
            meter.line(&format!("{streams} stalled streams, 300 dispatches of 100 KiB"));
            for _ in 0..300 {
                exposure
                    .dispatch_as("agent", "set", json!({"text": text}))
                    .await
                    .unwrap();
            }
            meter.line(&format!("{streams} stalled streams, 300 more (the plateau)"));
            println!(
                "  held by {streams} stalled streams: {:+.1} MiB over the baseline ({:.2}× its RSS)",
                (meter.last as f64 - baseline as f64) / 1024.0,
                meter.last as f64 / baseline as f64
            );
            drop(held);
        }
        let quotes = "\"".repeat(450 * 1024);
        let held = stalled(addr, &cookie).await;
        for _ in 0..20 {
            exposure
                .dispatch_as("agent", "set", json!({"text": quotes}))
                .await
                .unwrap();
        }
        meter.line("1 stalled stream, 20 dispatches of 450 KiB of quotes");
        drop(held);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        meter.line("every stream closed");

        // a full journal (its 8 MiB of arguments), then streams opened against it
        let journal = exposure.journal();
        println!(
            "  journal in memory: {} entries, {:.1} MiB of arguments",
            journal.len(),
            journal.iter().map(|e| e.args.to_string().len()).sum::<usize>() as f64 / (1 << 20) as f64
        );
        drop(journal);
        let bytes = hello_bytes(addr, &cookie).await;
        println!("  a stream's opening (hello): {bytes} bytes");
        let (ticks, started) = (cpu_ticks(), Instant::now());
        for _ in 0..50 {
            let mut socket = TcpStream::connect(addr).await.unwrap();
            let request = format!("GET /page/events HTTP/1.1\r\nhost: {addr}\r\ncookie: {cookie}\r\n\r\n");
            socket.write_all(request.as_bytes()).await.unwrap();
            drop(socket); // closed without reading
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let per_second = 100.0; // clock ticks per second on Linux (USER_HZ)
        println!(
            "  50 stream openings closed without reading: {:.2} s of CPU ({:.1} s of wall clock, the 0.5 s pause included)",
            (cpu_ticks() - ticks) as f64 / per_second,
            started.elapsed().as_secs_f64()
        );
        meter.line("after the 50 openings");
        server.shutdown();
        host.dispose();
    });
}
