//! Fuzzes the HTTP transport as a connection meets it: the bytes of one HTTP/1.1 connection (request heads and
//! bodies, pipelined) served by hyper to the router of an adapter (`ranvier::mcp::http::router`), with a bearer token
//! and a small body limit so that the guard's every refusal is reachable. Nothing panics or hangs, and every request
//! that reaches the guard gets a response.

#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use libfuzzer_sys::fuzz_target;
use ranvier::exposure::{ExposeError, Exposure};
use ranvier::host::GraphHost;
use ranvier::mcp::http::{HttpOptions, router};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Expose, Messages, Mvu, expose};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The app's messages.
#[derive(Debug, Messages)]
enum Msg {
    /// Adds `amount`.
    Add {
        #[message(range(min = -100, max = 100))]
        amount: i64,
    },
    /// Back to zero.
    Reset,
}

/// The app.
#[expose]
struct Counter {
    #[expose(messages, value)]
    count: Mvu<i64, Msg>,
}

struct Served {
    runtime: tokio::runtime::Runtime,
    app: axum::Router,
    _host: GraphHost<(Counter, ranvier::exposure::ExposureHandle)>,
}

fn served() -> &'static Served {
    static SERVED: OnceLock<Served> = OnceLock::new();
    SERVED.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let host = GraphHost::start(|| {
            let count = Mvu::new(0_i64, |msg, count| match msg {
                Msg::Add { amount } => count + amount,
                Msg::Reset => 0,
            });
            let counter = Counter { count };
            let mut exposure = Exposure::new();
            counter.expose(&mut exposure)?;
            Ok::<_, ExposeError>((counter, exposure.start()?))
        })
        .expect("the host starts");
        let handle = host
            .invoke(|(_, handle)| handle.clone())
            .wait()
            .expect("the handle");
        let app = runtime.block_on(async {
            let adapter = McpAdapter::new(handle, McpAdapterOptions::new("fuzz", "0.1.0"));
            let options = HttpOptions::new()
                .bearer_token("s3cret")
                .max_body_bytes(4096);
            router(adapter, "/mcp", options).expect("the router")
        });
        Served {
            runtime,
            app,
            _host: host,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let served = served();
    served.runtime.block_on(async {
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        let service = TowerToHyperService::new(served.app.clone());
        let connection = hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(server), service);
        let talk = async {
            client.write_all(data).await.ok();
            client.shutdown().await.ok();
            let mut answer = Vec::new();
            client.read_to_end(&mut answer).await.ok();
            answer
        };
        let both = async { tokio::join!(connection, talk) };
        let (_, answer) = tokio::time::timeout(Duration::from_secs(20), both)
            .await
            .expect("the connection ends once its input has");
        // hyper answers in the request's version (HTTP/1.0 or 1.1)
        if !answer.is_empty() {
            assert!(
                answer.starts_with(b"HTTP/1.1 ") || answer.starts_with(b"HTTP/1.0 "),
                "not a response: {:?}",
                String::from_utf8_lossy(&answer)
            );
        }
    });
});
