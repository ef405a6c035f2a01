//! Past versions over MCP, in both protocol eras: `snapshot {version}` gives the state as an earlier version
//! published it, `diff {from, to}` says what changed between two versions (in step-line form, with the messages in
//! between), and a version that has left the history, or is not published yet, is a refusal that says which ones are
//! kept.

use crate::client::{connect, ok, rejected};
use crate::examples::cart;
use crate::tool_text::result_text as text;

use ranvier::Mvu;
use ranvier::exposure::{Decoder, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use serde_json::{Value, json};

/// The changes of a one-message dispatch's step line: what follows `→ vN: `.
fn changes_of(dispatched: &str) -> &str {
    let step = dispatched.lines().next().expect("a step line");
    step.split_once(": ").expect("a step line with changes").1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snapshot_at_an_earlier_version_and_diff_between_two() {
    for modern in [false, true] {
        let host = cart::start_cart().expect("the cart starts");
        let adapter =
            cart::cart_adapter(&host, McpAdapterOptions::new("c", "1")).expect("the adapter");
        let client = connect(&adapter, (), modern).await;

        let add = ok(
            &client,
            "dispatch",
            json!({"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}}),
        )
        .await;
        let after_add = client
            .call_tool(rmcp::model::CallToolRequestParams::new("snapshot"))
            .await
            .expect("snapshot answers");
        let discount = ok(
            &client,
            "dispatch",
            json!({"message": "set_discount", "args": {"percent": 10}}),
        )
        .await;

        // the state as version 1 published it, word for word, now that version 2 is current
        let at_one = client
            .call_tool(
                rmcp::model::CallToolRequestParams::new("snapshot")
                    .with_arguments(json!({"version": 1}).as_object().unwrap().clone()),
            )
            .await
            .expect("snapshot answers");
        assert_eq!(at_one.is_error, Some(false), "{}", text(&at_one));
        assert_eq!(
            at_one.structured_content, after_add.structured_content,
            "modern={modern}"
        );
        // the document as it was, then what made it
        let (document, made) = text(&at_one)
            .split_once('\n')
            .map(|(d, m)| (d.to_owned(), m.to_owned()))
            .expect("the document and the line that says what made it");
        assert_eq!(document, text(&after_add));
        assert!(
            made.starts_with("v1: made by add_item {")
                && made.contains("\"sku\":\"a\"")
                && made.contains("} by \""),
            "{made}"
        );
        let now = ok(&client, "snapshot", json!({})).await;
        assert!(now.starts_with("{\"version\":2,"), "{now}");

        // what each message changed, read back as diffs
        let one_two = ok(&client, "diff", json!({"from": 1, "to": 2})).await;
        let mut lines = one_two.lines();
        assert_eq!(
            lines.next(),
            Some(format!("v1→v2: {}", changes_of(&discount)).as_str())
        );
        let by = lines.next().expect("the message line");
        assert!(
            by.starts_with("v2 set_discount {\"percent\":10} by \""),
            "{one_two}"
        );
        assert_eq!(lines.next(), None);
        let since_start = ok(&client, "diff", json!({"from": 0})).await;
        assert!(since_start.starts_with("v0→v2: "), "{since_start}");
        assert_eq!(
            since_start.lines().count(),
            3,
            "both messages are listed: {since_start}"
        );
        assert!(since_start.contains("\nv1 add_item "), "{since_start}");
        let zero_one = ok(&client, "diff", json!({"from": 0, "to": 1})).await;
        assert_eq!(
            zero_one.lines().next(),
            Some(format!("v0→v1: {}", changes_of(&add)).as_str())
        );
        let same = ok(&client, "diff", json!({"from": 2, "to": 2})).await;
        assert_eq!(same, "v2→v2: no exposed value changed");

        // versions that cannot be given, and arguments that are not versions
        assert_eq!(
            rejected(&client, "snapshot", json!({"version": 9})).await,
            "version 9 is not published yet; the current is 2"
        );
        assert_eq!(
            rejected(&client, "snapshot", json!({"version": "one"})).await,
            "\"version\" must be a non-negative integer (a state version), got \"one\""
        );
        assert_eq!(
            rejected(&client, "snapshot", json!({"verison": 1})).await,
            "unknown property \"verison\"; snapshot takes \"version\" (a non-negative integer, optional)"
        );
        assert_eq!(
            rejected(&client, "diff", json!({"to": 1})).await,
            "missing \"from\": pass the older version to compare, a non-negative integer"
        );
        assert_eq!(
            rejected(&client, "diff", json!({"from": -1})).await,
            "\"from\" must be a non-negative integer (a state version), got -1"
        );
        assert_eq!(
            rejected(&client, "diff", json!({"from": 0, "to": 7})).await,
            "version 7 is not published yet; the current is 2"
        );
        client.cancel().await.ok();
        host.dispose();
    }
}

/// A counter whose exposure keeps `versions` earlier versions.
fn counter(versions: usize) -> (GraphHost<ExposureHandle>, McpAdapter) {
    let host = GraphHost::start(move || {
        let mvu = Mvu::new(0_i64, |n: i64, count| count + n);
        let mut exposure = Exposure::new();
        exposure.value("count", {
            let mvu = mvu.clone();
            move || mvu.model()
        })?;
        let add: Decoder<i64> =
            Box::new(|args: &Value| args["n"].as_i64().ok_or_else(|| "`n`: an integer".into()));
        exposure.messages(&mvu, vec![("add".into(), add)])?;
        exposure.history(versions, 1 << 20);
        exposure.start()
    })
    .expect("starts");
    let adapter = host
        .invoke(|h| McpAdapter::new(h.clone(), McpAdapterOptions::new("counter", "0")))
        .wait()
        .expect("adapter");
    (host, adapter)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_that_left_the_history_names_the_oldest_kept() {
    for modern in [false, true] {
        let (host, adapter) = counter(2);
        let client = connect(&adapter, (), modern).await;
        for n in [5, 10, 20] {
            ok(
                &client,
                "dispatch",
                json!({"message": "add", "args": {"n": n}}),
            )
            .await;
        }
        let at_one = ok(&client, "snapshot", json!({"version": 1})).await;
        assert!(
            at_one.starts_with(
                "{\"version\":1,\"values\":{\"count\":5}}\nv1: made by add {\"n\":5} by \""
            ),
            "{at_one}"
        );
        assert_eq!(
            ok(&client, "snapshot", json!({"version": 3}))
                .await
                .lines()
                .nth(1),
            at_one
                .lines()
                .nth(1)
                .map(|l| l.replace("v1", "v3").replace("5", "20"))
                .as_deref()
        );
        let gone = "version 0 has left the history; the oldest kept is 1 and the current is 3";
        assert_eq!(
            rejected(&client, "snapshot", json!({"version": 0})).await,
            gone
        );
        assert_eq!(rejected(&client, "diff", json!({"from": 0})).await, gone);
        assert_eq!(
            ok(&client, "diff", json!({"from": 1, "to": 3}))
                .await
                .lines()
                .next(),
            Some("v1→v3: count 5→35")
        );
        client.cancel().await.ok();
        host.dispose();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_diff_over_many_messages_lists_the_newest_and_counts_the_rest() {
    let (host, adapter) = counter(100);
    let client = connect(&adapter, (), false).await;
    for n in 1..=12 {
        ok(
            &client,
            "dispatch",
            json!({"message": "add", "args": {"n": n}}),
        )
        .await;
    }
    let diff = ok(&client, "diff", json!({"from": 0})).await;
    let lines: Vec<&str> = diff.lines().collect();
    assert_eq!(lines[0], "v0→v12: count 0→78");
    assert_eq!(lines[1], "… 2 earlier messages");
    assert_eq!(lines.len(), 12, "{diff}");
    assert!(lines[2].starts_with("v3 add {\"n\":3} by \""), "{diff}");
    assert!(lines[11].starts_with("v12 add {\"n\":12} by \""), "{diff}");
    let two = ok(&client, "diff", json!({"from": 10, "to": 12})).await;
    assert_eq!(
        two.lines().count(),
        3,
        "only the messages between the two: {two}"
    );
    client.cancel().await.ok();
    host.dispose();
}
