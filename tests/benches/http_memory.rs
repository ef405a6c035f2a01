//! Memory under load over Streamable HTTP on loopback: the process's resident set (VmRSS) after 10,000 small
//! dispatches, after 1,000 dispatches with a 100 KiB argument, after 2,000 `initialize` calls whose sessions are never
//! deleted, and with 200 `subscriptions/listen` streams open, against one app in this process (client included).
//!
//! Run with `cargo bench -p ranvier-tests --bench http_memory` (Linux: it reads `/proc/self/status`). Each line gives
//! the RSS and its growth over the previous line; the in-memory journal, the live sessions and the open connections
//! are bounded by their caps (`Exposure::journal_capacity`, `HttpOptions::max_sessions`, `HttpOptions::max_connections`),
//! so the growth levels off once a cap is reached instead of rising with every message, session or stream.

#[path = "../tests/http_client/mod.rs"]
mod http_client;
#[path = "rss/mod.rs"]
mod rss;

use http_client::{Era, Session};
use ranvier::Mvu;
use ranvier::exposure::{Decoder, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::http::{HttpOptions, HttpServer};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use rss::Meter;
use serde_json::{Value, json};

fn counter() -> (GraphHost<ExposureHandle>, McpAdapter) {
    let host = GraphHost::start(|| {
        let count = Mvu::new(0_u64, |add: u64, n: &u64| n + add);
        let mut exposure = Exposure::new();
        exposure.value("count", {
            let count = count.clone();
            move || count.model()
        })?;
        let decoders: Vec<(String, Decoder<u64>)> = vec![(
            "add".into(),
            Box::new(|args: &Value| {
                args["n"]
                    .as_u64()
                    .ok_or_else(|| "`n` must be an integer".into())
            }),
        )];
        exposure.messages(&count, decoders)?;
        exposure.start()
    })
    .expect("starts");
    let adapter = host
        .invoke(|h| McpAdapter::new(h.clone(), McpAdapterOptions::new("bench", "0")))
        .wait()
        .expect("adapter");
    (host, adapter)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (host, adapter) = counter();
        let exposure = host.invoke(|h| h.clone()).wait().expect("handle");
        let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", HttpOptions::new())
            .await
            .expect("binds");
        let addr = server.local_addr();
        println!("memory over Streamable HTTP on loopback ({})", server.url());
        let mut session = Session::open(addr, "/mcp", Era::Legacy, "memory").await;
        session
            .call_tool("dispatch", json!({"message": "add", "args": {"n": 1}}))
            .await;
        let mut meter = Meter::new(58);
        meter.line("started, one session, one dispatch");

        for half in ["after 5,000 dispatches of {\"n\":1}", "after 10,000"] {
            for _ in 0..5_000 {
                let result = session
                    .call_tool("dispatch", json!({"message": "add", "args": {"n": 1}}))
                    .await;
                assert_eq!(result["isError"], json!(false), "{result}");
            }
            meter.line(half);
        }

        let note = "x".repeat(100 * 1024);
        for _ in 0..1_000 {
            let result = session
                .call_tool(
                    "dispatch",
                    json!({"message": "add", "args": {"n": 1, "note": note}}),
                )
                .await;
            assert_eq!(result["isError"], json!(false), "{result}");
        }
        meter.line("after 1,000 dispatches with a 100 KiB argument");
        println!("  journal in memory: {} entries", exposure.journal().len());

        for (half, label) in [
            (0, "after 1,000 initialize calls (sessions not deleted)"),
            (1, "after 2,000"),
        ] {
            for i in 0..1_000 {
                // dropped at once: the session is never deleted, only its connection closes
                Session::open(addr, "/mcp", Era::Legacy, &format!("idle-{half}-{i}")).await;
            }
            meter.line(label);
        }

        let mut streams = Vec::new();
        for i in 0..200 {
            let mut listener =
                Session::open(addr, "/mcp", Era::Modern, &format!("listen-{i}")).await;
            let (mut rx, task) = listener.listen(&["ranvier://state"]).await;
            http_client::next(&mut rx).await; // the acknowledgement
            streams.push((rx, task));
        }
        meter.line("with 200 subscriptions/listen streams open");
        for (_, task) in &streams {
            task.abort();
        }
        drop(streams);

        server.shutdown();
        host.dispose();
    });
}
