//! The MCP adapter through an in-process rmcp client, in both protocol eras, over the cart example.
#![allow(deprecated)] // resources/subscribe is the legacy era's subscription; it is what we test

use crate::client::{call, ok, rejected};
use crate::examples::cart;
use crate::tool_text;

use tool_text::result_text as text;

use std::time::Duration;

use ranvier::Mvu;
use ranvier::exposure::{Decoder, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions, ProtocolEra};
use rmcp::model::{
    CallToolRequestParams, ProtocolVersion, ReadResourceRequestParams, ResourceContents,
    ResourceUpdatedNotificationParam, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{
    ClientLifecycleMode, NotificationContext, RunningService, serve_client_with_lifecycle,
};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// Generous hang guard; nothing here is timed.
const GUARD: Duration = Duration::from_secs(20);

#[derive(Clone)]
struct Client(mpsc::UnboundedSender<String>);

impl ClientHandler for Client {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }
}

type Connected = (
    RunningService<RoleClient, Client>,
    mpsc::UnboundedReceiver<String>,
);

/// A client of `adapter` over an in-memory pipe: legacy (`initialize`) or modern (`server/discover`).
async fn connect(adapter: &McpAdapter, modern: bool) -> Connected {
    let (tx, rx) = mpsc::unbounded_channel();
    (
        crate::client::connect(adapter, Client(tx), modern).await,
        rx,
    )
}

fn cart_adapter(options: McpAdapterOptions) -> (cart::CartHost, McpAdapter) {
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, options).expect("the adapter is built");
    (host, adapter)
}

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

/// Waits until every URI in `wanted` was notified; returns everything received meanwhile.
async fn notified(updates: &mut mpsc::UnboundedReceiver<String>, wanted: &[&str]) -> Vec<String> {
    let mut got = Vec::new();
    while !wanted.iter().all(|uri| got.iter().any(|g| g == uri)) {
        let uri = tokio::time::timeout(GUARD, updates.recv())
            .await
            .expect("notified before the hang guard");
        got.push(uri.expect("the client is alive"));
    }
    got
}

const ADD: &str = r#"1 add_item {"sku":"a","unitPrice":250,"quantity":2} → v1: count 0→2, subtotal 0→500, total 0→500, lines +[a]"#;

async fn every_tool_and_rejection(client: &RunningService<RoleClient, Client>) {
    let tools = client.list_all_tools().await.expect("tools");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    // a traced build also lists the trace tools (tests/tests/mcp_traced.rs)
    let traced: &[&str] = if ranvier::trace::TRACED {
        &["explain", "graph", "node"]
    } else {
        &[]
    };
    assert_eq!(
        names,
        [
            &[
                "snapshot",
                "dispatch",
                "wait_version",
                "diff",
                "errors",
                "fork",
                "drop_fork"
            ][..],
            traced
        ]
        .concat()
    );
    let dispatch = &tools[1];
    assert_eq!(
        dispatch.input_schema["properties"]["message"]["enum"],
        json!(["add_item", "remove_item", "set_discount", "clear"])
    );
    assert_eq!(
        dispatch.input_schema["properties"]["args"]["anyOf"][2]["properties"]["percent"]["maximum"],
        json!(100)
    );
    assert!(
        dispatch
            .description
            .as_deref()
            .unwrap()
            .contains("- set_discount {percent: integer 0..=100}")
    );
    assert_eq!(
        tools[0].annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    assert_eq!(
        tools[2].annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    let annotations = dispatch.annotations.as_ref().unwrap();
    assert_eq!(
        (annotations.read_only_hint, annotations.idempotent_hint),
        (Some(false), Some(false))
    );

    // snapshot: the document as text and structured content
    let snapshot = call(client, "snapshot", json!({})).await;
    assert_eq!(
        text(&snapshot),
        r#"{"version":0,"values":{"count":0,"subtotal":0,"discount":0,"total":0,"lines":[]}}"#
    );
    assert_eq!(
        snapshot.structured_content,
        Some(
            json!({"version": 0, "values": {"count": 0, "subtotal": 0, "discount": 0, "total": 0, "lines": []}})
        )
    );

    // dispatch: step lines then the state line, text alone
    let result = call(
        client,
        "dispatch",
        json!({"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}}),
    )
    .await;
    assert_eq!(result.is_error, Some(false));
    assert!(result.structured_content.is_none());
    assert_eq!(
        text(&result),
        format!("{ADD}\nv1: count=2, subtotal=500, discount=0, total=500, lines=[a]")
    );
    let steps = ok(
        client,
        "dispatch",
        json!({"messages": [
            {"message": "set_discount", "args": {"percent": 10}},
            {"message": "remove_item", "args": {"sku": "zz"}},
        ]}),
    )
    .await;
    assert_eq!(
        steps,
        "1 set_discount {\"percent\":10} → v2: discount 0→10, total 500→450\n2 remove_item {\"sku\":\"zz\"} → v2: no \
         exposed value changed\nv2: count=2, subtotal=500, discount=10, total=450, lines=[a]"
    );

    // dispatch rejections
    let known = "known messages: add_item, remove_item, set_discount, clear";
    assert_eq!(
        rejected(client, "dispatch", json!({"message": "nope"})).await,
        format!("unknown message \"nope\"; {known}")
    );
    assert!(
        rejected(client, "dispatch", json!({}))
            .await
            .starts_with("missing \"message\"")
    );
    assert_eq!(
        rejected(client, "dispatch", json!({"message": 7})).await,
        format!("\"message\" must be a string naming a message, got 7; {known}")
    );
    assert_eq!(
        rejected(
            client,
            "dispatch",
            json!({"message": "set_discount", "args": {"percent": 150}})
        )
        .await,
        "set_discount rejected its arguments: `percent`: expected an integer between 0 and 100, got 150\nexpected: set_discount \
         {percent: integer 0..=100}"
    );
    let panicked = rejected(
        client,
        "dispatch",
        json!({"message": "add_item", "args": {"sku": "a", "unitPrice": 1, "quantity": u64::MAX}}),
    )
    .await;
    assert!(
        panicked.starts_with("add_item failed: update panicked: the quantity of a would overflow"),
        "{panicked}"
    );
    assert!(panicked.ends_with("; the model is unchanged"), "{panicked}");
    let stopped = rejected(
        client,
        "dispatch",
        json!({"messages": [
            {"message": "set_discount", "args": {"percent": 20}},
            {"message": "set_discount", "args": {"percent": 101}},
            {"message": "clear"},
        ]}),
    )
    .await;
    assert_eq!(
        stopped,
        "1 set_discount {\"percent\":20} → v3: discount 10→20, total 450→400\nstopped at message 2 of 3: set_discount \
         rejected its arguments: `percent`: expected an integer between 0 and 100, got 101\nexpected: set_discount {percent: integer \
         0..=100}\nmessages 1 to 1 stay dispatched; later messages were not dispatched\nv3: count=2, subtotal=500, \
         discount=20, total=400, lines=[a]"
    );
    // the panicking write did not happen, the first message of the stopped sequence did
    assert_eq!(
        read(client, "ranvier://state").await,
        json!({"version": 3, "values": {"count": 2, "subtotal": 500, "discount": 20, "total": 400,
            "lines": [{"key": "a", "unitPrice": 250, "quantity": 2, "total": 500}]}})
    );

    // wait_version
    let reached = call(client, "wait_version", json!({"version": 2})).await;
    assert_eq!(
        reached.structured_content.as_ref().unwrap()["version"],
        json!(3)
    );
    assert!(
        rejected(client, "wait_version", json!({"version": "3"}))
            .await
            .starts_with("\"version\" must be a non-negative integer")
    );
    assert!(
        rejected(client, "wait_version", json!({"version": 1.5}))
            .await
            .starts_with("\"version\" must be a non-negative integer")
    );
    assert!(
        rejected(
            client,
            "wait_version",
            json!({"version": 9, "timeoutMs": -1})
        )
        .await
        .starts_with("\"timeoutMs\" must not be negative")
    );
    assert!(
        rejected(
            client,
            "wait_version",
            json!({"version": 9, "timeoutMs": 30})
        )
        .await
        .starts_with("timed out after 30 ms waiting for version 9; the current version is 3")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_era_tools_resources_and_subscriptions() {
    let (host, adapter) = cart_adapter(McpAdapterOptions::new("ranvier-cart", "1.0.0"));
    let (client, mut updates) = connect(&adapter, false).await;
    let info = client.peer_info().expect("initialized");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    let server = info.server_info.clone().expect("server info");
    assert_eq!(
        (server.name.as_str(), server.version.as_str()),
        ("ranvier-cart", "1.0.0")
    );
    assert!(info.instructions.as_deref().unwrap().contains("`dispatch`"));

    let resources = client.list_all_resources().await.expect("resources");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "ranvier://state",
            "ranvier://state/count",
            "ranvier://state/subtotal",
            "ranvier://state/discount",
            "ranvier://state/total",
            "ranvier://state/lines",
            "ranvier://errors"
        ]
    );
    let templates = client
        .list_all_resource_templates()
        .await
        .expect("templates");
    assert_eq!(templates[0].uri_template, "ranvier://state/{name}");
    assert!(
        client
            .read_resource(ReadResourceRequestParams::new("ranvier://state/nope"))
            .await
            .is_err()
    );
    assert!(
        client
            .subscribe(SubscribeRequestParams::new("ranvier://nope"))
            .await
            .is_err()
    );

    client
        .subscribe(SubscribeRequestParams::new("ranvier://state"))
        .await
        .expect("subscribe");
    client
        .subscribe(SubscribeRequestParams::new("ranvier://state/discount"))
        .await
        .expect("subscribe");
    client
        .subscribe(SubscribeRequestParams::new("ranvier://state/count"))
        .await
        .expect("subscribe");
    client
        .unsubscribe(UnsubscribeRequestParams::new("ranvier://state/count"))
        .await
        .expect("unsubscribe");

    every_tool_and_rejection(&client).await;
    assert_eq!(
        read(&client, "ranvier://state/total").await,
        json!({"version": 3, "value": 400})
    );

    let got = notified(
        &mut updates,
        &["ranvier://state", "ranvier://state/discount"],
    )
    .await;
    // count changed (v1) but is unsubscribed; subtotal and total are not subscribed
    assert!(
        got.iter()
            .all(|uri| uri == "ranvier://state" || uri == "ranvier://state/discount"),
        "{got:?}"
    );
    // the latest change is always notified: after a quiet moment, one more publication gives one more notification
    while tokio::time::timeout(Duration::from_millis(200), updates.recv())
        .await
        .is_ok()
    {}
    ok(&client, "dispatch", json!({"message": "clear"})).await;
    let got = notified(
        &mut updates,
        &["ranvier://state", "ranvier://state/discount"],
    )
    .await;
    assert!(
        !got.contains(&"ranvier://state/count".to_owned()),
        "{got:?}"
    );

    // disposal stops notifications, and is idempotent
    adapter.dispose();
    adapter.dispose();
    while tokio::time::timeout(Duration::from_millis(200), updates.recv())
        .await
        .is_ok()
    {}
    ok(
        &client,
        "dispatch",
        json!({"message": "set_discount", "args": {"percent": 5}}),
    )
    .await;
    assert!(
        tokio::time::timeout(Duration::from_millis(300), updates.recv())
            .await
            .is_err(),
        "no notification after dispose"
    );
    client.cancel().await.expect("closes");
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_era_tools_and_listen() {
    let (host, adapter) = cart_adapter(McpAdapterOptions::new("ranvier-cart", "1.0.0"));
    let (client, _updates) = connect(&adapter, true).await;
    let filter = SubscriptionFilter::builder()
        .resource_subscription("ranvier://state")
        .resource_subscription("ranvier://state/discount")
        .resource_subscription("ranvier://state/nope")
        .build();
    let mut subscription = client.listen(filter).await.expect("listen");
    assert_eq!(
        subscription.acknowledged().resource_subscriptions,
        Some(vec![
            "ranvier://state".to_owned(),
            "ranvier://state/discount".to_owned()
        ])
    );
    every_tool_and_rejection(&client).await;
    let mut got = Vec::new();
    while !(got.contains(&"ranvier://state".to_owned())
        && got.contains(&"ranvier://state/discount".to_owned()))
    {
        let next = tokio::time::timeout(GUARD, subscription.next())
            .await
            .expect("hang guard")
            .expect("open");
        match next {
            Some(rmcp::model::ServerNotification::ResourceUpdatedNotification(n)) => {
                got.push(n.params.uri)
            }
            Some(_) => {}
            None => panic!("the subscription ended"),
        }
    }
    assert!(
        got.iter()
            .all(|uri| uri == "ranvier://state" || uri == "ranvier://state/discount"),
        "{got:?}"
    );
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pinned_eras() {
    let (host, legacy) =
        cart_adapter(McpAdapterOptions::new("c", "1").protocol(ProtocolEra::Legacy));
    let (client, _) = connect(&legacy, false).await;
    assert_eq!(
        client.peer_info().unwrap().protocol_version,
        ProtocolVersion::V_2025_11_25
    );
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let legacy2 = legacy.clone();
    tokio::spawn(async move {
        if let Ok(r) = legacy2.serve(server_io).await {
            let _ = r.waiting().await;
        }
    });
    let (tx, _rx) = mpsc::unbounded_channel();
    let modern = serve_client_with_lifecycle(
        Client(tx),
        client_io,
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    )
    .await;
    assert!(modern.is_err(), "a legacy-pinned server refuses 2026-07-28");
    let (_, modern_only) =
        cart_adapter(McpAdapterOptions::new("c", "1").protocol(ProtocolEra::Modern));
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(r) = modern_only.serve(server_io).await {
            let _ = r.waiting().await;
        }
    });
    let (tx, _rx) = mpsc::unbounded_channel();
    assert!(
        serve_client_with_lifecycle(Client(tx), client_io, ClientLifecycleMode::Initialize)
            .await
            .is_err()
    );
    host.dispose();
}

/// An app whose decoder panics, and one without messages.
fn odd_app() -> (GraphHost<ExposureHandle>, McpAdapter) {
    let host = GraphHost::start(|| {
        let mvu = Mvu::new(0_i64, |n: i64, count| count + n);
        let mut exposure = Exposure::new();
        exposure.value("count", {
            let mvu = mvu.clone();
            move || mvu.model()
        })?;
        let decoders: Vec<(String, Decoder<i64>)> = vec![(
            "add".into(),
            Box::new(|args: &Value| Ok(args["amount"].as_i64().expect("amount is an integer"))),
        )];
        exposure
            .messages(&mvu, decoders)?
            .message_shapes(vec![("add".into(), "{amount: integer}".into())])?;
        exposure.start()
    })
    .expect("starts");
    let adapter = host
        .invoke(|h| McpAdapter::new(h.clone(), McpAdapterOptions::new("odd", "0")))
        .wait()
        .expect("adapter");
    (host, adapter)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_decoder_is_a_tool_error_and_dispatches_nothing() {
    let (host, adapter) = odd_app();
    let (client, _) = connect(&adapter, false).await;
    let reason = rejected(&client, "dispatch", json!({"message": "add", "args": {}})).await;
    assert!(
        reason.starts_with(
            "add could not decode its arguments (the decoder panicked: amount is an integer)"
        ),
        "{reason}"
    );
    assert!(
        reason.ends_with("\nexpected: add {amount: integer}"),
        "{reason}"
    );
    assert_eq!(
        read(&client, "ranvier://state").await,
        json!({"version": 0, "values": {"count": 0}})
    );
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dispatch_is_listed_only_when_messages_are_exposed() {
    let host = GraphHost::start(|| {
        let mut exposure = Exposure::new();
        exposure.value("answer", || 42)?;
        exposure.start()
    })
    .expect("starts");
    let adapter = host
        .invoke(|h| McpAdapter::new(h.clone(), McpAdapterOptions::new("plain", "0")))
        .wait()
        .expect("adapter");
    let (client, _) = connect(&adapter, false).await;
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect();
    // a traced build also lists the trace tools (tests/tests/mcp_traced.rs)
    let traced: &[&str] = if ranvier::trace::TRACED {
        &["explain", "graph", "node"]
    } else {
        &[]
    };
    assert_eq!(
        names,
        [&["snapshot", "wait_version", "diff", "errors"][..], traced].concat()
    );
    let params = CallToolRequestParams::new("dispatch")
        .with_arguments(json!({"message": "x"}).as_object().unwrap().clone());
    assert!(
        client.call_tool(params).await.is_err(),
        "an unlisted tool is a protocol error"
    );
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_sharing_an_adapter_keep_their_own_subscriptions() {
    let (host, adapter) = cart_adapter(McpAdapterOptions::new("ranvier-cart", "1.0.0"));
    let (first, mut first_updates) = connect(&adapter, false).await;
    let (second, mut second_updates) = connect(&adapter, false).await;
    first
        .subscribe(SubscribeRequestParams::new("ranvier://state/count"))
        .await
        .unwrap();
    second
        .subscribe(SubscribeRequestParams::new("ranvier://state/discount"))
        .await
        .unwrap();
    ok(
        &first,
        "dispatch",
        json!({"messages": [
            {"message": "add_item", "args": {"sku": "a", "unitPrice": 1, "quantity": 1}},
            {"message": "set_discount", "args": {"percent": 1}},
        ]}),
    )
    .await;
    assert_eq!(
        notified(&mut first_updates, &["ranvier://state/count"]).await,
        ["ranvier://state/count"]
    );
    assert_eq!(
        notified(&mut second_updates, &["ranvier://state/discount"]).await,
        ["ranvier://state/discount"]
    );
    // a marker publication that both see: anything else queued before it would show up first
    ok(
        &first,
        "dispatch",
        json!({"messages": [
            {"message": "add_item", "args": {"sku": "b", "unitPrice": 1, "quantity": 1}},
            {"message": "set_discount", "args": {"percent": 2}},
        ]}),
    )
    .await;
    assert_eq!(
        notified(&mut first_updates, &["ranvier://state/count"]).await,
        ["ranvier://state/count"]
    );
    assert_eq!(
        notified(&mut second_updates, &["ranvier://state/discount"]).await,
        ["ranvier://state/discount"]
    );
    host.dispose();
}

/// A client that sends a bad line and hangs up before `initialize` still reads the answer to it, even when the
/// program leaves its runtime as soon as serving returns (rmcp drops a transport it never started a session on
/// without closing it, and a runtime that shuts down cancels the writes still queued).
#[test]
fn a_client_that_hangs_up_before_initialize_still_reads_the_answer_to_its_bad_line() {
    use tokio::io::AsyncReadExt as _;

    let (_host, adapter) = cart_adapter(McpAdapterOptions::new("cart", "0.1.0"));
    let (mut answers, output) = tokio::io::duplex(1 << 16);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let served = runtime.block_on(ranvier::mcp::serve_lines(
        adapter,
        &b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/c\xff\xfell\"}\n"[..],
        output,
    ));
    // what `main` does when serving returns: the runtime goes, with every task it still had
    drop(runtime);
    let error = served.expect_err("the client hung up before initialize");
    assert!(error.to_string().contains("initialize"), "{error}");

    let mut text = String::new();
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(answers.read_to_string(&mut text))
        .expect("the answers");
    assert_eq!(
        text,
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: invalid UTF-8 at byte 41\"}}\n"
    );
}

/// What `alwaysLoad` costs a client: the size of `tools/list` (the compact JSON a client receives) with and without
/// it, and of the always-loaded definitions Claude Code puts at the head of every prompt. Prints the numbers the
/// README reports (`cargo test -p ranvier-tests --test mcp_adapter always_load -- --nocapture`, debug and
/// `--release`); asserts only what they are made of.
#[tokio::test(flavor = "multi_thread")]
async fn always_load_marks_dispatch_and_explain_and_costs_only_their_markers() {
    async fn listed(options: McpAdapterOptions) -> Vec<rmcp::model::Tool> {
        let (_host, adapter) = cart_adapter(options);
        let (client, _) = connect(&adapter, false).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        client.cancel().await.expect("closed");
        tools
    }
    let size = |tools: &[rmcp::model::Tool]| {
        serde_json::to_string(&json!({ "tools": tools }))
            .unwrap()
            .chars()
            .count()
    };
    let plain = listed(McpAdapterOptions::new("ranvier-cart", "1.0.0")).await;
    let marked = listed(McpAdapterOptions::new("ranvier-cart", "1.0.0").always_load(true)).await;
    let always: Vec<rmcp::model::Tool> = marked
        .iter()
        .filter(|tool| {
            tool.meta
                .as_ref()
                .is_some_and(|meta| meta.get("anthropic/alwaysLoad") == Some(&json!(true)))
        })
        .cloned()
        .collect();
    let names: Vec<&str> = always.iter().map(|tool| tool.name.as_ref()).collect();
    let expected: &[&str] = if ranvier::trace::TRACED {
        &["dispatch", "explain"]
    } else {
        &["dispatch"]
    };
    assert_eq!(names, expected);
    let marker = r#","_meta":{"anthropic/alwaysLoad":true}"#.chars().count();
    assert_eq!(size(&marked), size(&plain) + expected.len() * marker);
    println!(
        "tools/list ({} tools{}): {} chars (≈{} tokens) without alwaysLoad, {} chars (≈{} tokens) with it; \
         always-loaded definitions ({}): {} chars (≈{} tokens)",
        plain.len(),
        if ranvier::trace::TRACED {
            ", traced"
        } else {
            ""
        },
        size(&plain),
        size(&plain) / 4,
        size(&marked),
        size(&marked) / 4,
        names.join(", "),
        size(&always),
        size(&always) / 4
    );
}

/// A basket whose lines are an exposed keyed collection, each row with its own total.
mod keyed_lines {
    use ranvier::collection::{Collection, Row};
    use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
    use ranvier::host::{GraphHost, block_on};
    use ranvier::{Expose, Memo, Messages, Mvu, expose};
    use serde_json::json;

    #[derive(Clone, Debug, PartialEq, serde::Serialize)]
    pub struct Line {
        pub fruit: String,
        pub price: u64,
        pub qty: u64,
    }

    #[derive(Debug, Messages)]
    pub enum Msg {
        /// Adds a line, or sets the quantity of the fruit's line.
        Put { fruit: String, price: u64, qty: u64 },
        /// Removes the fruit's line.
        Drop { fruit: String },
    }

    #[allow(clippy::ptr_arg)] // an `Mvu` update takes `&Model`
    fn update(msg: Msg, lines: &Vec<Line>) -> Vec<Line> {
        let mut lines = lines.clone();
        match msg {
            Msg::Put { fruit, price, qty } => match lines.iter_mut().find(|l| l.fruit == fruit) {
                Some(line) => line.qty = qty,
                None => lines.push(Line { fruit, price, qty }),
            },
            Msg::Drop { fruit } => lines.retain(|l| l.fruit != fruit),
        }
        lines
    }

    fn row(row: &Row<String, Line>) -> (&'static str, Memo<u64>) {
        let row = row.clone();
        ("total", Memo::new(move |_| row.with(|l| l.price * l.qty)))
    }

    #[expose]
    pub struct Basket {
        #[expose(messages)]
        pub basket: Mvu<Vec<Line>, Msg>,
        #[expose]
        pub lines: Collection<String, Line, (&'static str, Memo<u64>)>,
    }

    fn start() -> (GraphHost<(Basket, ExposureHandle)>, ExposureHandle) {
        let host = GraphHost::start(|| {
            let basket = Mvu::new(Vec::new(), update);
            let lines =
                Collection::keyed(basket.select(Clone::clone), |l: &Line| l.fruit.clone(), row);
            let app = Basket { basket, lines };
            let mut exposure = Exposure::new();
            app.expose(&mut exposure)?;
            Ok::<_, ExposeError>((app, exposure.start()?))
        })
        .expect("starts");
        let handle = host
            .invoke(|(_, handle)| handle.clone())
            .wait()
            .expect("alive");
        (host, handle)
    }

    fn put(fruit: &str, price: u64, qty: u64) -> (String, serde_json::Value) {
        (
            "put".to_owned(),
            json!({"fruit": fruit, "price": price, "qty": qty}),
        )
    }

    #[test]
    fn step_lines_name_the_rows_that_changed() {
        let (host, handle) = start();
        let outcome = block_on(handle.dispatch_all_as(
            "test",
            vec![
                put("apple", 120, 3),
                put("pear", 90, 1),
                put("apple", 120, 5),
            ],
        ));
        let text = ranvier::mcp::sequence_text(&outcome);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].ends_with("→ v2: lines +[pear]"), "{text}");
        assert!(
            lines[2].ends_with("→ v3: lines[apple].qty 3→5, lines[apple].total 360→600"),
            "{text}"
        );
        // the snapshot holds the rows whole, each with its key and its own figure
        assert_eq!(
            outcome.snapshot.get("lines"),
            Some(&json!([
                {"key": "apple", "fruit": "apple", "price": 120, "qty": 5, "total": 600},
                {"key": "pear", "fruit": "pear", "price": 90, "qty": 1, "total": 90},
            ]))
        );
        let outcome = block_on(handle.dispatch_all_as(
            "test",
            vec![
                ("drop".to_owned(), json!({"fruit": "pear"})),
                put("kiwi", 40, 1),
            ],
        ));
        let text = ranvier::mcp::sequence_text(&outcome);
        assert!(text.contains("→ v4: lines -[pear]\n"), "{text}");
        assert!(text.contains("→ v5: lines +[kiwi]\n"), "{text}");
        host.dispose();
    }

    #[test]
    fn a_key_a_client_sent_is_escaped_in_step_lines() {
        let (host, handle) = start();
        let outcome = block_on(
            handle.dispatch_all_as("test", vec![put("a]\n\"b", 1, 1), put("a]\n\"b", 1, 2)]),
        );
        let text = ranvier::mcp::sequence_text(&outcome);
        assert!(text.contains(r#"lines +["a]\n\"b"]"#), "{text}");
        assert!(text.contains(r#"lines["a]\n\"b"].qty 1→2"#), "{text}");
        assert!(
            !text.contains("a]\n"),
            "a raw newline from the client: {text}"
        );
        host.dispose();
    }
}
