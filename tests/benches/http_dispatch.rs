//! Dispatch over Streamable HTTP on loopback: the p50/p99 round trip of one client's `dispatch` tool calls in each
//! protocol era, and the p50/p99 and dispatches per second with 16 concurrent clients (8 per era), against one app.
//!
//! Run with `cargo bench -p ranvier-tests --bench http_dispatch` (`RANVIER_BENCH_SAMPLES=N` per client, default
//! 2000).

#[path = "../tests/http_client/mod.rs"]
mod http_client;

use std::time::{Duration, Instant};

use http_client::{Era, Session};
use ranvier::Mvu;
use ranvier::exposure::{Decoder, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::http::{HttpOptions, HttpServer};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
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

/// One client's round trips, in µs.
async fn round_trips(
    addr: std::net::SocketAddr,
    era: Era,
    name: String,
    samples: usize,
) -> Vec<f64> {
    let mut session = Session::open(addr, "/mcp", era, &name).await;
    let args = json!({"message": "add", "args": {"n": 1}});
    for _ in 0..samples / 10 {
        session.call_tool("dispatch", args.clone()).await;
    }
    let mut times = Vec::with_capacity(samples);
    for _ in 0..samples {
        let start = Instant::now();
        let result = session.call_tool("dispatch", args.clone()).await;
        times.push(start.elapsed().as_secs_f64() * 1e6);
        assert_eq!(result["isError"], json!(false));
    }
    times
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(label: &str, mut times: Vec<f64>) {
    times.sort_by(f64::total_cmp);
    println!(
        "{label:<44} p50 {:>8.1} µs   p99 {:>8.1} µs   ({} samples)",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.len()
    );
}

fn main() {
    let samples: usize = std::env::var("RANVIER_BENCH_SAMPLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (host, adapter) = counter();
        let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", HttpOptions::new())
            .await
            .expect("binds");
        let addr = server.local_addr();
        println!(
            "dispatch over Streamable HTTP on loopback ({})",
            server.url()
        );
        report(
            "1 client, 2025-11-25 session (SSE replies)",
            round_trips(addr, Era::Legacy, "solo-legacy".into(), samples).await,
        );
        report(
            "1 client, 2026-07-28 stateless (JSON replies)",
            round_trips(addr, Era::Modern, "solo-modern".into(), samples).await,
        );
        const CLIENTS: usize = 16;
        let start = Instant::now();
        let clients: Vec<_> = (0..CLIENTS)
            .map(|i| {
                let era = if i % 2 == 0 { Era::Legacy } else { Era::Modern };
                tokio::spawn(round_trips(addr, era, format!("c{i}"), samples))
            })
            .collect();
        let mut all = Vec::new();
        for client in clients {
            all.extend(client.await.unwrap());
        }
        let elapsed = start.elapsed();
        let dispatched = all.len() + CLIENTS * (samples / 10);
        report(&format!("{CLIENTS} concurrent clients (half per era)"), all);
        println!(
            "{CLIENTS} concurrent clients: {dispatched} dispatches in {:.2} s = {:.0} dispatches/s",
            elapsed.as_secs_f64(),
            dispatched as f64
                / elapsed
                    .as_secs_f64()
                    .max(Duration::from_micros(1).as_secs_f64())
        );
        server.shutdown();
        host.dispose();
    });
}
