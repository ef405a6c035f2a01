//! The errors an agent can see, over MCP in both protocol eras and in both builds: a memo whose body panics, an
//! effect whose body panics, a flight that fails and a message `update` refuses are each kept in the errors list,
//! read with the `errors` tool and the `ranvier://errors` resource (whose subscribers are notified), naming the node,
//! its line in a traced build, the message that led to it with its sender, and the panic text.

#![allow(deprecated)] // resources/subscribe is the legacy era's subscription; it is what we test

use std::time::Duration;

use ranvier::exposure::{Decoder, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{AsyncMemo, Effect, Memo, Mvu};
use rmcp::model::{
    ReadResourceRequestParams, ResourceContents, ResourceUpdatedNotificationParam,
    SubscribeRequestParams, SubscriptionFilter,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::client::{call, connect, ok, rejected};

const GUARD: Duration = Duration::from_secs(20);

/// The app: a counter whose `add` refuses a negative amount, a memo that panics from 10 up, an effect that panics at
/// 7, and a lookup whose flight fails at 3.
type App = (Mvu<i64, Msg>, Memo<i64>, Effect, AsyncMemo<i64>);

#[derive(Debug)]
enum Msg {
    Add(i64),
    Say(String),
}

fn start() -> (GraphHost<(App, ExposureHandle)>, ExposureHandle) {
    let host = GraphHost::start(|| {
        let counter = Mvu::try_new(0_i64, |msg: Msg, count: &i64| match msg {
            Msg::Add(n) if n < 0 => Err(format!("cannot add {n}: amounts are positive")),
            Msg::Add(n) => Ok(count + n),
            Msg::Say(text) => Err(format!("nobody listens to {text}")),
        });
        let half = Memo::new({
            let counter = counter.clone();
            move |_| {
                let count = counter.model();
                assert!(count < 10, "half of {count} is too much");
                count / 2
            }
        });
        let watcher = Effect::new({
            let counter = counter.clone();
            move || {
                let count = counter.model();
                assert!(count != 7, "the watcher saw 7");
            }
        })
        .labelled("watcher");
        let lookup = AsyncMemo::try_new({
            let counter = counter.clone();
            move |_| {
                let count = counter.model();
                async move {
                    if count == 3 {
                        Err(format!("lookup failed for {count}"))
                    } else {
                        Ok(count)
                    }
                }
            }
        });
        let mut exposure = Exposure::new();
        exposure
            .value("count", {
                let counter = counter.clone();
                move || counter.model()
            })?
            .value("half", {
                let half = half.clone();
                move || half.get()
            })?
            .value_with(
                "lookup",
                {
                    let lookup = lookup.clone();
                    move || lookup.get()
                },
                |state| json!(format!("{state:?}")),
            )?
            .node("half", &half)?
            .node("lookup", &lookup)?;
        let add: Decoder<Msg> = Box::new(|args| {
            args["n"]
                .as_i64()
                .map(Msg::Add)
                .ok_or_else(|| "`n`: an integer".into())
        });
        let say: Decoder<Msg> = Box::new(|args| {
            args["text"]
                .as_str()
                .map(|text| Msg::Say(text.to_owned()))
                .ok_or_else(|| "`text`: a string".into())
        });
        exposure.messages(&counter, vec![("add".into(), add), ("say".into(), say)])?;
        let exposure = exposure.start()?;
        Ok::<_, ranvier::exposure::ExposeError>(((counter, half, watcher, lookup), exposure))
    })
    .expect("the app starts");
    let handle = host
        .invoke(|(_, exposure)| exposure.clone())
        .wait()
        .expect("the handle");
    (host, handle)
}

#[derive(Clone)]
struct Updates(mpsc::UnboundedSender<String>);

impl ClientHandler for Updates {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }
}

/// The `errors` answer once it lists at least `count` errors (a flight fails after its message's answer).
async fn errors_when(
    client: &rmcp::service::RunningService<RoleClient, Updates>,
    count: usize,
) -> (String, Value) {
    let deadline = tokio::time::Instant::now() + GUARD;
    loop {
        let result = call(client, "errors", json!({})).await;
        let structured = result
            .structured_content
            .clone()
            .expect("structured content");
        if structured["errors"].as_array().map_or(0, Vec::len) >= count {
            return (crate::tool_text::result_text(&result), structured);
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "fewer than {count} errors: {structured}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn read_errors(client: &rmcp::service::RunningService<RoleClient, Updates>) -> Value {
    let result = client
        .read_resource(ReadResourceRequestParams::new("ranvier://errors"))
        .await
        .expect("the errors resource reads");
    match &result.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => {
            serde_json::from_str(text).expect("json")
        }
        other => panic!("unexpected contents {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn panics_failed_flights_and_refusals_are_kept_and_served() {
    let traced = ranvier::trace::TRACED;
    for modern in [false, true] {
        let (host, handle) = start();
        let sender = "an \"agent\"\nsays";
        let adapter = McpAdapter::new(
            handle.clone(),
            McpAdapterOptions::new("e", "1").sender(sender),
        );
        let (tx, mut updates) = mpsc::unbounded_channel();
        let client = connect(&adapter, Updates(tx), modern).await;
        let mut listening = None;
        if modern {
            let filter = SubscriptionFilter::builder()
                .resource_subscription("ranvier://errors")
                .build();
            let subscription = client.listen(filter).await.expect("listen");
            assert_eq!(
                subscription.acknowledged().resource_subscriptions,
                Some(vec!["ranvier://errors".to_owned()]),
                "ranvier://errors is a resource one may listen to"
            );
            listening = Some(subscription);
        } else {
            client
                .subscribe(SubscribeRequestParams::new("ranvier://errors"))
                .await
                .expect("subscribe to the errors");
        }
        let resources = client.list_all_resources().await.expect("resources");
        assert!(
            resources.iter().any(|r| r.uri == "ranvier://errors"),
            "listed: {:?}",
            resources.iter().map(|r| &r.uri).collect::<Vec<_>>()
        );
        let tool = client
            .list_all_tools()
            .await
            .expect("tools")
            .into_iter()
            .find(|tool| tool.name == "errors")
            .expect("the errors tool is listed in every build");
        assert_eq!(
            tool.annotations.as_ref().and_then(|a| a.read_only_hint),
            Some(true)
        );

        assert_eq!(ok(&client, "errors", json!({})).await, "no errors");
        assert_eq!(
            read_errors(&client).await,
            json!({"errors": [], "dropped": 0})
        );

        // a flight that fails (after its message was answered), an effect and a memo that panic, a refusal
        ok(
            &client,
            "dispatch",
            json!({"message": "add", "args": {"n": 3}}),
        )
        .await;
        errors_when(&client, 1).await;
        ok(
            &client,
            "dispatch",
            json!({"message": "add", "args": {"n": 4}}),
        )
        .await;
        ok(
            &client,
            "dispatch",
            json!({"message": "add", "args": {"n": 5}}),
        )
        .await;
        let refused = rejected(
            &client,
            "dispatch",
            json!({"message": "say", "args": {"text": "hi\nthere"}}),
        )
        .await;
        assert!(refused.contains("was refused"), "{refused}");

        let (text, structured) = errors_when(&client, 4).await;
        let records = structured["errors"].as_array().unwrap();
        let kinds: Vec<&str> = records
            .iter()
            .map(|r| r["kind"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                "flight_failed",
                "effect_panicked",
                "memo_panicked",
                "refused"
            ],
            "{text}"
        );
        let nodes: Vec<Value> = records.iter().map(|r| r["node"].clone()).collect();
        assert_eq!(
            nodes,
            [
                json!("lookup"),
                json!("watcher"),
                json!("half"),
                Value::Null
            ]
        );
        let seqs: Vec<u64> = records.iter().map(|r| r["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, [1, 2, 3, 4]);
        // the message that led to each, with its sender as sent
        for (record, (name, n)) in records.iter().zip([("add", 3), ("add", 4), ("add", 5)]) {
            assert_eq!(record["message"]["name"], name, "{record}");
            assert_eq!(record["message"]["args"], json!({"n": n}), "{record}");
            assert_eq!(record["message"]["sender"], sender, "{record}");
        }
        assert_eq!(
            records[1]["message"]["running"], true,
            "the effect ran during add"
        );
        assert_eq!(records[3]["message"]["name"], "say");
        assert_eq!(records[3]["message"]["args"], json!({"text": "hi\nthere"}));
        // the panic texts
        assert!(
            records[0]["text"]
                .as_str()
                .unwrap()
                .contains("lookup failed for 3")
        );
        assert!(
            records[1]["text"]
                .as_str()
                .unwrap()
                .contains("the watcher saw 7")
        );
        assert!(
            records[2]["text"]
                .as_str()
                .unwrap()
                .contains("half of 12 is too much")
        );
        assert_eq!(records[3]["text"], "nobody listens to hi\nthere");
        // versions: each when it happened, in order
        let versions: Vec<u64> = records
            .iter()
            .map(|r| r["version"].as_u64().unwrap())
            .collect();
        assert!(
            versions.windows(2).all(|w| w[0] <= w[1]) && versions[0] >= 1,
            "{versions:?}"
        );
        // the line of each node in a traced build, none in an untraced one
        if traced {
            assert_eq!(
                records[0]["line"],
                format!(
                    "errors.rs:{}",
                    line_number_of("let lookup = AsyncMemo::try_new({")
                )
            );
            assert_eq!(
                records[1]["line"],
                format!(
                    "errors.rs:{}",
                    line_number_of("let watcher = Effect::new({")
                )
            );
            assert_eq!(
                records[2]["line"],
                format!("errors.rs:{}", line_number_of("let half = Memo::new({"))
            );
        } else {
            assert!(records.iter().all(|r| r.get("line").is_none()), "{text}");
        }
        assert!(records[3].get("line").is_none());

        // the text: one line per error, what a client sent quoted or escaped
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert_eq!(lines[0], "4 errors");
        assert_eq!(
            lines[4],
            format!(
                r#"#4 v{} refused during say from "an \"agent\"\nsays": nobody listens to hi\nthere"#,
                versions[3]
            )
        );
        let memo_line = if traced {
            format!(
                "#3 v{} memo_panicked half (errors.rs:{}) during add from ",
                versions[2],
                line_number_of("let half = Memo::new({")
            )
        } else {
            format!("#3 v{} memo_panicked half during add from ", versions[2])
        };
        assert!(lines[3].starts_with(&memo_line), "{}", lines[3]);

        // the resource holds the same list; `after` lists only the later ones
        assert_eq!(read_errors(&client).await, structured);
        let after = call(&client, "errors", json!({"after": 2})).await;
        let later: Vec<u64> = after.structured_content.unwrap()["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["seq"].as_u64().unwrap())
            .collect();
        assert_eq!(later, [3, 4]);
        assert_eq!(
            ok(&client, "errors", json!({"after": 4})).await,
            "no errors after #4"
        );
        let bad = rejected(&client, "errors", json!({"since": 1})).await;
        assert!(
            bad.contains("\"since\"") && bad.contains("\"after\""),
            "{bad}"
        );
        let bad = rejected(&client, "errors", json!({"after": "two"})).await;
        assert!(bad.contains("\"after\""), "{bad}");

        // the subscriber was told of the new errors
        if let Some(mut subscription) = listening {
            loop {
                let next = tokio::time::timeout(GUARD, subscription.next())
                    .await
                    .expect("notified before the hang guard")
                    .expect("open");
                match next {
                    Some(rmcp::model::ServerNotification::ResourceUpdatedNotification(n)) => {
                        assert_eq!(n.params.uri, "ranvier://errors");
                        break;
                    }
                    Some(_) => {}
                    None => panic!("the subscription ended"),
                }
            }
        } else {
            let uri = tokio::time::timeout(GUARD, updates.recv())
                .await
                .expect("notified before the hang guard")
                .expect("the client is alive");
            assert_eq!(uri, "ranvier://errors");
        }
        host.dispose();
    }
}

/// The 1-based line of this file holding `text`.
fn line_number_of(text: &str) -> usize {
    include_str!("errors.rs")
        .lines()
        .position(|line| line.contains(text) && !line.contains("line_number_of"))
        .expect("the text is in this file")
        + 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_is_bounded_and_counts_what_it_dropped() {
    let (host, handle) = start();
    let adapter = McpAdapter::new(handle.clone(), McpAdapterOptions::new("e", "1"));
    let (tx, _updates) = mpsc::unbounded_channel();
    let client = connect(&adapter, Updates(tx), false).await;
    let kept = ranvier::exposure::DEFAULT_ERRORS_KEPT;
    let messages: Vec<Value> = (0..kept + 5)
        .map(|i| json!({"message": "add", "args": {"n": -(i as i64) - 1}}))
        .collect();
    for message in messages {
        rejected(&client, "dispatch", message).await;
    }
    let (records, dropped) = handle.errors();
    assert_eq!((records.len(), dropped), (kept, 5));
    assert_eq!(records[0].seq, 6, "the oldest were dropped");
    let text = ok(&client, "errors", json!({"after": (kept as u64) + 4})).await;
    assert_eq!(
        text.lines().next(),
        Some("1 error (5 older dropped)"),
        "{text}"
    );
    host.dispose();
}
