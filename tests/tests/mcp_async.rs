//! Async values over MCP, in both protocol eras, over the shipping example: a pending value in step lines, state
//! lines and resources; `dispatch` with `settle` (settled, timed out, bad arguments); and in traced builds the raw
//! `waiting_on` tool and `explain` of a pending quote.

use crate::client::{call, ok};
use crate::examples::shipping;
use crate::tool_text;

use tool_text::result_text as text;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use rmcp::service::RunningService;
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};

/// Generous hang guard; nothing here is timed.
const GUARD: Duration = Duration::from_secs(20);

#[derive(Clone)]
struct Client;

impl ClientHandler for Client {}

async fn connect(adapter: &McpAdapter, modern: bool) -> RunningService<RoleClient, Client> {
    crate::client::connect(adapter, Client, modern).await
}

/// The shop, its "service" answering after `delay` (changed through the returned cell between quotes).
fn shop(delay: Duration) -> (GraphHost<shipping::ShopApp>, McpAdapter, Arc<AtomicU64>) {
    let delay = Arc::new(AtomicU64::new(delay.as_millis() as u64));
    let host = shipping::start_shop_with(delay.clone()).expect("the shop starts");
    let options = McpAdapterOptions::new("shipping", "1").raw_trace_tools(true);
    let adapter = host
        .invoke(move |app| McpAdapter::new(app.exposure.clone(), options))
        .wait()
        .expect("the adapter is built");
    (host, adapter, delay)
}

/// Long enough that a quote started with it never settles during a test.
const NEVER: u64 = 600_000;

async fn read(client: &RunningService<RoleClient, Client>, uri: &str) -> Value {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .expect("read");
    match &result.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => {
            serde_json::from_str(text).expect("json")
        }
        other => panic!("unexpected contents {other:?}"),
    }
}

/// Waits (bounded) until the quote has settled, so each era starts from a settled quote.
async fn settled(client: &RunningService<RoleClient, Client>) -> Value {
    let deadline = tokio::time::Instant::now() + GUARD;
    loop {
        let shipping = read(client, "ranvier://state/shipping").await["value"].clone();
        if shipping.get("pending").is_none() {
            return shipping;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the quote never settled"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The raw `waiting_on` tool and `explain` of the quote while its flight is in the air (traced builds).
async fn traced_answers_while_pending(client: &RunningService<RoleClient, Client>) {
    let waiting = call(client, "waiting_on", json!({"node": "shipping"})).await;
    let document = waiting.structured_content.clone().expect("a JSON document");
    assert_eq!(document["waitingOn"], json!("flight"), "{document}");
    assert_eq!(
        document["flights"].as_array().map(Vec::len),
        Some(1),
        "{document}"
    );
    assert_eq!(document["flights"][0]["run"], json!(2), "{document}");
    assert_eq!(
        document["flights"][0]["stage"],
        json!("in the air"),
        "{document}"
    );
    let started_by = document["startedBy"].as_str().expect("a cause");
    assert!(started_by.starts_with("message add_goods"), "{document}");
    let explained = ok(client, "explain", json!({"node": "shipping"})).await;
    assert!(explained.contains("pending: shipping#"), "{explained}");
    assert!(
        explained.contains("the newest run started because of: message add_goods"),
        "{explained}"
    );
}

async fn pending_and_settled(modern: bool) {
    let (host, adapter, delay) = shop(Duration::from_millis(20));
    let client = connect(&adapter, modern).await;
    // The first quote (domestic, 0 g) settles by itself.
    assert_eq!(settled(&client).await, json!(300));

    // Without settle: the answer comes while the quote is in flight (a slow one, so nothing here races it).
    delay.store(NEVER, Ordering::Relaxed);
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "add_goods", "args": {"cents": 2400, "grams": 750}}),
    )
    .await;
    assert!(
        answer.contains("shipping 300→(pending), total 300→(pending)"),
        "{answer}"
    );
    assert!(answer.contains("shipping=(pending, last 300)"), "{answer}");
    assert_eq!(
        read(&client, "ranvier://state/shipping").await["value"],
        json!({"pending": true, "last": 300})
    );
    let state = read(&client, "ranvier://state").await;
    // `total` maps the quote: its last value is the new goods plus the last quote.
    assert_eq!(
        state["values"]["total"],
        json!({"pending": true, "last": 2700}),
        "{state}"
    );

    // The raw waiting_on tool and explain (traced builds), while it is pending.
    if ranvier::trace::TRACED {
        traced_answers_while_pending(&client).await;
    }

    // With settle: one answer once the flight the message started has settled (the slow one is cancelled).
    delay.store(20, Ordering::Relaxed);
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "set_zone", "args": {"zone": "europe"}, "settle": true}),
    )
    .await;
    assert!(answer.contains(r#"zone "domestic"→"europe""#), "{answer}");
    assert!(
        answer.contains("\nsettled → v")
            && answer.contains("shipping (pending)→1100, total (pending)→3500"),
        "{answer}"
    );
    // Settled: waiting_on answers nothing async.
    if ranvier::trace::TRACED {
        let waiting = call(&client, "waiting_on", json!({"node": "shipping"})).await;
        let document = waiting.structured_content.clone().expect("a JSON document");
        assert_ne!(document["waitingOn"], json!("flight"), "{document}");
    }
    // The sequence form takes it too.
    let answer = ok(
        &client,
        "dispatch",
        json!({"messages": [{"message": "set_zone", "args": {"zone": "world"}}], "settleMs": 10000}),
    )
    .await;
    assert!(answer.contains("shipping (pending)→1980"), "{answer}");
    // A failing quote settles too: as its error.
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "set_zone", "args": {"zone": "moon"}, "settle": true}),
    )
    .await;
    assert!(answer.contains(r#"shipping (pending)→{"error":"the shipping service has no rates for zone \"moon\"","last":1980}"#), "{answer}");
    client.cancel().await.expect("closes");
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_era_pending_values_settle_and_waiting_on() {
    pending_and_settled(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_era_pending_values_settle_and_waiting_on() {
    pending_and_settled(true).await;
}

/// `explain` with messages explains what the messages left once the flights they set off settled (bounded);
/// `settle: false` explains at once, the quote still pending. Traced builds only (an untraced build has no
/// `explain`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explain_with_messages_waits_for_the_flights_they_set_off() {
    if !ranvier::trace::TRACED {
        return;
    }
    let (host, adapter, delay) = shop(Duration::from_millis(20));
    let client = connect(&adapter, true).await;
    assert_eq!(settled(&client).await, json!(300));
    let goods = json!([{"message": "add_goods", "args": {"cents": 2400, "grams": 750}}]);
    let answer = ok(
        &client,
        "explain",
        json!({"node": "shipping", "messages": goods}),
    )
    .await;
    let head = answer.lines().next().unwrap_or_default();
    assert!(
        head.starts_with("shipping#") && !head.contains("pending"),
        "{answer}"
    );
    assert!(!answer.contains("\npending: "), "{answer}");
    // the short form counts what went and the version it left; the full form says what settled
    assert!(answer.ends_with("\ndispatched: 1 message → v3"), "{answer}");
    let full = ok(
        &client,
        "explain",
        json!({"node": "shipping", "messages": goods, "detail": "full"}),
    )
    .await;
    assert!(
        full.contains("\nsettled → v"),
        "what the flight changed: {full}"
    );
    // a slow quote: settle false explains the pending value at once, settleMs bounds the wait
    delay.store(NEVER, Ordering::Relaxed);
    let answer = ok(
        &client,
        "explain",
        json!({"node": "shipping", "messages": goods, "settle": false}),
    )
    .await;
    assert!(answer.contains("\npending: shipping#"), "{answer}");
    let answer = ok(
        &client,
        "explain",
        json!({"node": "shipping", "messages": goods, "settleMs": 30}),
    )
    .await;
    assert!(answer.contains("not settled after 30 ms"), "{answer}");
    assert!(answer.contains("\npending: shipping#"), "{answer}");
    // settling applies to what messages set off
    let refused = crate::client::rejected(
        &client,
        "explain",
        json!({"node": "shipping", "settle": true}),
    )
    .await;
    assert!(refused.contains("pass the messages too"), "{refused}");
    client.cancel().await.expect("closes");
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settle_is_bounded_and_says_what_is_still_pending() {
    // A service that takes far longer than the bound.
    let (host, adapter, _) = shop(Duration::from_millis(NEVER));
    let client = connect(&adapter, true).await;
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "add_goods", "args": {"cents": 100, "grams": 100}, "settleMs": 50}),
    )
    .await;
    assert!(
        answer.contains("not settled after 50 ms: 1 flight(s) still pending:"),
        "{answer}"
    );
    assert!(answer.contains("\n  shipping#"), "{answer}");
    assert!(answer.contains("(started by run 2, "), "{answer}");
    assert!(answer.contains("in the air"), "{answer}");
    // settle: false answers at once, as without it.
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "clear", "settle": false, "settleMs": 100000}),
    )
    .await;
    assert!(!answer.contains("settled"), "{answer}");
    client.cancel().await.expect("closes");
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_settle_arguments_are_refused_and_dispatch_nothing() {
    // A quote that never settles during the test: nothing publishes a version but a dispatch.
    let (host, adapter, _) = shop(Duration::from_millis(NEVER));
    let client = connect(&adapter, false).await;
    let before = read(&client, "ranvier://state").await["version"].clone();
    for (args, expected) in [
        (
            json!({"message": "clear", "settle": "yes"}),
            r#"`settle` must be true or false (wait for the flights the messages start), got "yes""#,
        ),
        (
            json!({"message": "clear", "settleMs": -5}),
            "`settleMs` must be a whole number of milliseconds (0 to 60000), got -5",
        ),
    ] {
        let result = call(&client, "dispatch", args).await;
        assert_eq!(result.is_error, Some(true));
        assert_eq!(text(&result), expected);
    }
    assert_eq!(read(&client, "ranvier://state").await["version"], before);
    client.cancel().await.expect("closes");
    host.dispose();
}

/// `dispatch {settle}` calls the client cancels (`notifications/cancelled`) stop waiting at once (issue 27, defect
/// 6), as a cancelled `wait_version` does: the exposure's count of waiting calls falls back to zero while their
/// flights are still in the air and their bound is a minute away, and the server still answers. (Before, each
/// cancelled wait kept looking at the flights every 25 ms until its bound, and `waiting` did not count it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_settle_waits_end_at_once() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    const WAITS: u64 = 200;
    // A service that never answers during the test: every wait has a flight in the air.
    let (host, adapter, _) = shop(Duration::from_millis(NEVER));
    let handle = adapter.handle().clone();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_io);
    let served = tokio::spawn(ranvier::mcp::serve_lines(
        adapter,
        server_read,
        server_write,
    ));
    let (client_read, mut client_write) = tokio::io::split(client_io);
    let mut lines = tokio::io::BufReader::new(client_read).lines();
    let mut batch = String::new();
    let mut line = |message: Value| {
        batch.push_str(&message.to_string());
        batch.push('\n');
    };
    line(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "impatient", "version": "1"}}}));
    line(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    for id in 1..=WAITS {
        line(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "dispatch", "arguments": {"message": "add_goods",
                "args": {"cents": 100, "grams": id}, "settleMs": 60000}}}));
    }
    client_write.write_all(batch.as_bytes()).await.unwrap();
    let waited = async {
        while handle.waiting() < WAITS as usize {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(GUARD, waited)
        .await
        .unwrap_or_else(|_| panic!("hang guard: {} of {WAITS} calls wait", handle.waiting()));
    let mut batch = String::new();
    for id in 1..=WAITS {
        batch.push_str(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "changed my mind"}})
            .to_string(),
        );
        batch.push('\n');
    }
    client_write.write_all(batch.as_bytes()).await.unwrap();
    // Their bound is a minute away, their flights never land: only the cancellation ends them before the guard.
    // Gone means gone for good: no look in 20 (over more than one 25 ms poll of the old code) sees one waiting.
    let released = async {
        let mut zero_looks = 0;
        while zero_looks < 20 {
            zero_looks = if handle.waiting() == 0 {
                zero_looks + 1
            } else {
                0
            };
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(GUARD, released)
        .await
        .unwrap_or_else(|_| panic!("{} cancelled settle waits still wait", handle.waiting()));
    let after = json!({"jsonrpc": "2.0", "id": "after", "method": "tools/call",
        "params": {"name": "snapshot", "arguments": {}}});
    client_write
        .write_all(format!("{after}\n").as_bytes())
        .await
        .unwrap();
    let answer = tokio::time::timeout(GUARD, async {
        loop {
            let line = lines.next_line().await.unwrap().expect("a line");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == "after" {
                return message;
            }
            // a cancelled call is never answered (only the handshake is)
            assert_eq!(message["id"], 0, "{message}");
        }
    })
    .await
    .expect("hang guard: the server answers");
    // every dispatch ran (each added goods), and the answer is the state now
    let version = answer["result"]["structuredContent"]["version"].as_u64();
    assert_eq!(version, Some(handle.version()), "{answer}");
    assert!(version >= Some(WAITS), "{answer}");
    drop(client_write);
    drop(lines);
    let _ = tokio::time::timeout(GUARD, served).await;
    host.dispose();
}
