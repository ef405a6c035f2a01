//! The traced tools at scale: an app sized by one number N (an `Mvu` model of N items, a memo per item, a sum, a max
//! and a min over all of them, and a chain of min(N, 1,000) memos after the sum), driven through the MCP tools by an
//! in-process client. For each N it prints one row: start-up (building the graph, the first run of every memo, and
//! the adapter), `dispatch` of one message that moves every item, `snapshot`, and in a traced build `explain` of the
//! sum (with that message), `graph` and `node` of the sum, each the median of a few calls, in ms, and the machine's
//! load average before and after the row.
//!
//! ```text
//! tests/benches/traced_scale.sh [--ir] [N ...]                          # both builds, one table (the README's)
//! cargo bench -p ranvier-tests --bench traced_scale                      # untraced (release)
//! cargo bench -p ranvier-tests --bench traced_scale --features trace     # traced (release)
//! cargo bench -p ranvier-tests --bench traced_scale -- 1000 10000        # only these N
//! ```
//!
//! The sizes default to 1,000, 10,000 and 100,000; pass others after `--` to skip some. `RANVIER_BENCH_ROUNDS` sets
//! the calls per tool and the start-ups per N (5): each figure is their median. `RANVIER_BENCH_STARTUP_ONLY=1` stops
//! each row after start-up. Start-up is [`build_app`] and `McpAdapter::new`, two functions that callgrind counts
//! apart (`traced_scale.sh --ir`), as it counts one call of each tool (`explain_on_graph`, `graph`, `node_page`).

use std::time::{Duration, Instant};

use ranvier::exposure::{Decoder, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Memo, Mvu};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

/// How long the chain after the sum is, at most.
const CHAIN_MAX: usize = 1_000;

/// The app of size `n` on a graph thread of its own (see [`build_app`]).
fn start(n: usize) -> GraphHost<ExposureHandle> {
    GraphHost::start(move || build_app(n)).expect("the app starts")
}

/// The app of size `n`: the model, a memo per item, sum, max and min, and the chain; `sum` is exposed. Not inlined,
/// so that callgrind can count it by name.
#[inline(never)]
fn build_app(n: usize) -> Result<ExposureHandle, ranvier::exposure::ExposeError> {
    {
        let model = Mvu::new(vec![0_i64; n], |add: i64, items: &Vec<i64>| {
            items.iter().map(|v| v + add).collect()
        });
        let items: Vec<Memo<i64>> = (0..n)
            .map(|i| model.select(move |items| items[i]))
            .collect();
        let sum = Memo::new({
            let items = items.clone();
            move |_| items.iter().map(Memo::get).sum::<i64>()
        })
        .labelled("sum");
        let max = Memo::new({
            let items = items.clone();
            move |_| items.iter().map(Memo::get).max().unwrap_or(0)
        })
        .labelled("max");
        let min = Memo::new({
            let items = items.clone();
            move |_| items.iter().map(Memo::get).min().unwrap_or(0)
        })
        .labelled("min");
        let mut last = sum.clone();
        for _ in 0..n.min(CHAIN_MAX) {
            let previous = last.clone();
            last = Memo::new(move |_| previous.get() + 1);
        }
        let mut exposure = Exposure::new();
        for (name, memo) in [("sum", &sum), ("max", &max), ("min", &min), ("end", &last)] {
            exposure.value(name, {
                let memo = memo.clone();
                move || memo.get()
            })?;
        }
        let decoders: Vec<(String, Decoder<i64>)> = vec![(
            "add".into(),
            Box::new(|args: &Value| {
                args["n"]
                    .as_i64()
                    .ok_or_else(|| "`n` must be an integer".into())
            }),
        )];
        exposure.messages(&model, decoders)?;
        exposure.node("sum", &sum)?;
        exposure.start()
    }
}

async fn connect(adapter: &McpAdapter) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let adapter = adapter.clone();
    tokio::spawn(async move {
        if let Ok(running) = adapter.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("the client connects")
}

/// Calls `tool` and returns the time it took and its text; an error result panics (a wrong answer is not timed).
async fn call(client: &Client, tool: &str, args: &Value) -> (Duration, String) {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().expect("object").clone());
    let start = Instant::now();
    let result = client.call_tool(params).await.expect("answered");
    let took = start.elapsed();
    let text: Vec<String> = result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect();
    let text = text.join("\n");
    assert_eq!(result.is_error, Some(false), "{tool}: {text}");
    (took, text)
}

/// The median of `times`, in ms.
fn median(mut times: Vec<Duration>) -> f64 {
    times.sort_unstable();
    let mid = times.len() / 2;
    let median = if times.len().is_multiple_of(2) {
        (times[mid - 1] + times[mid]) / 2
    } else {
        times[mid]
    };
    median.as_secs_f64() * 1e3
}

/// The median of `rounds` calls, in ms, and the last answer.
async fn median_of(client: &Client, rounds: usize, tool: &str, args: Value) -> (f64, String) {
    let mut times = Vec::with_capacity(rounds);
    let mut text = String::new();
    for _ in 0..rounds {
        let (took, answer) = call(client, tool, &args).await;
        times.push(took);
        text = answer;
    }
    (median(times), text)
}

/// The machine's load average over the last minute (Linux), to print beside the times.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

fn ms(value: Option<f64>) -> String {
    match value {
        None => "—".to_owned(),
        Some(ms) if ms >= 1000.0 => format!("{:.2} s", ms / 1000.0),
        Some(ms) if ms >= 10.0 => format!("{ms:.0} ms"),
        Some(ms) => format!("{ms:.1} ms"),
    }
}

/// Starts the app of size `n` and builds its adapter: the start-up the table times.
fn start_up(n: usize) -> (Duration, GraphHost<ExposureHandle>, McpAdapter) {
    let begin = Instant::now();
    let host = start(n);
    let adapter = host
        .invoke(|h| McpAdapter::new(h.clone(), McpAdapterOptions::new("traced-scale", "0")))
        .wait()
        .expect("the adapter is built");
    (begin.elapsed(), host, adapter)
}

async fn row(n: usize, rounds: usize) -> String {
    let load_before = load();
    // the median of `rounds` start-ups; the last one's app answers the tools
    let mut times = Vec::with_capacity(rounds);
    let mut app = None;
    for round in 0..rounds {
        let (took, host, adapter) = start_up(n);
        times.push(took);
        if round + 1 == rounds {
            app = Some((host, adapter));
        } else {
            adapter.dispose();
            host.dispose();
        }
    }
    let startup = median(times);
    let (host, adapter) = app.expect("at least one round");
    if std::env::var_os("RANVIER_BENCH_STARTUP_ONLY").is_some() {
        adapter.dispose();
        host.dispose();
        return format!(
            "| {n} | {} | — | — | — | — | — | {load_before}–{} |",
            ms(Some(startup)),
            load()
        );
    }
    let client = connect(&adapter).await;
    let add = json!({"message": "add", "args": {"n": 1}});
    let (dispatch, _) = median_of(&client, rounds, "dispatch", add.clone()).await;
    let (snapshot, _) = median_of(&client, rounds, "snapshot", json!({})).await;
    let traced = client
        .list_all_tools()
        .await
        .expect("tools")
        .iter()
        .any(|t| t.name == "explain");
    let (mut explain, mut graph, mut node) = (None, None, None);
    if traced {
        let (took, text) = median_of(
            &client,
            rounds,
            "explain",
            json!({"node": "sum", "messages": [add]}),
        )
        .await;
        assert!(
            text.starts_with("sum#"),
            "explain answers about the sum: {text}"
        );
        explain = Some(took);
        let (took, text) = median_of(&client, rounds, "graph", json!({})).await;
        assert!(
            text.contains("last message: add"),
            "graph names the message: {text}"
        );
        graph = Some(took);
        let (took, text) = median_of(&client, rounds, "node", json!({"node": "sum"})).await;
        let total: usize = text
            .rsplit_once(" of ")
            .and_then(|(_, rest)| rest.split(' ').next()?.parse().ok())
            .unwrap_or(0);
        assert!(
            total > n,
            "node pages the sum's {n} sources and its observers: {text}"
        );
        node = Some(took);
    }
    drop(client);
    adapter.dispose();
    host.dispose();
    format!(
        "| {n} | {} | {} | {} | {} | {} | {} | {load_before}–{} |",
        ms(Some(startup)),
        ms(Some(dispatch)),
        ms(Some(snapshot)),
        ms(explain),
        ms(graph),
        ms(node),
        load()
    )
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| {
            a.replace(['_', ','], "")
                .parse()
                .unwrap_or_else(|_| panic!("sizes are whole numbers, like 10000; got {a:?}"))
        })
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1_000, 10_000, 100_000]
    } else {
        sizes
    };
    let rounds = std::env::var("RANVIER_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5_usize)
        .max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let traced = cfg!(any(debug_assertions, feature = "trace"));
    println!(
        "{} build, median of {rounds} calls (and start-ups), {} CPUs",
        if traced { "traced" } else { "untraced" },
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    println!(
        "| N | start-up | `dispatch` | `snapshot` | `explain` of the sum | `graph` | `node` of the sum | load average |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for n in sizes {
        println!("{}", runtime.block_on(row(n, rounds)));
    }
}
