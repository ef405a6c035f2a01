//! `ranvier-mcp supervise` driven by an rmcp client: a rebuild (the watched binary replaced) reloads the app on the
//! next tool call, replays the journal, ends subscriptions, and reports a replay the new build rejects.
#![allow(deprecated)] // resources/subscribe is the legacy era's subscription; it is what we test

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{BIN, cart, scratch};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ProtocolVersion, ResourceUpdatedNotificationParam,
    SubscribeRequestParams,
};
use rmcp::service::{
    ClientLifecycleMode, NotificationContext, RunningService, serve_client_with_lifecycle,
};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// A hang guard only; nothing here is timed.
const GUARD: Duration = Duration::from_secs(30);

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

async fn supervise(watched: &Path, modern: bool) -> Connected {
    let mut command = tokio::process::Command::new(BIN);
    command
        .arg("supervise")
        .arg(watched)
        .env_remove("RANVIER_JOURNAL")
        .env_remove("RANVIER_MCP_PROTOCOL");
    let transport = TokioChildProcess::new(command).expect("the supervisor starts");
    let (tx, rx) = mpsc::unbounded_channel();
    let lifecycle = if modern {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    let client = tokio::time::timeout(
        GUARD,
        serve_client_with_lifecycle(Client(tx), transport, lifecycle),
    )
    .await
    .expect("hang guard")
    .expect("the client connects through the supervisor");
    (client, rx)
}

async fn call(
    client: &RunningService<RoleClient, Client>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().expect("an object").clone());
    tokio::time::timeout(GUARD, client.call_tool(params))
        .await
        .expect("hang guard")
        .expect("the call is answered")
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Replaces `watched` the way a linker does: a new file renamed over the old one (so its timestamp moves).
fn replace(watched: &Path, with: &Path) {
    let staged = watched.with_extension("staged");
    std::fs::copy(with, &staged).expect("copy the new build");
    std::fs::rename(&staged, watched).expect("rename it over the watched binary");
}

/// A "build" that runs the cart but rejects `set_discount {percent: 10}`: it rewrites that message to 1000 on
/// its way in.
fn stricter_build(dir: &Path) -> PathBuf {
    let script = dir.join("stricter.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nsed -u 's/\"percent\":10}}/\"percent\":1000}}/g' | {}\n",
            cart().display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

fn add_item() -> Value {
    json!({"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rebuild_reloads_replays_ends_subscriptions_and_reports_a_rejected_replay() {
    let dir = scratch("supervise-legacy");
    let watched = dir.join("cart");
    std::fs::copy(cart(), &watched).unwrap();
    let (client, mut updates) = supervise(&watched, false).await;

    call(&client, "dispatch", add_item()).await;
    let second = call(
        &client,
        "dispatch",
        json!({"message": "set_discount", "args": {"percent": 10}}),
    )
    .await;
    assert!(
        text(&second).ends_with("v2: count=2, subtotal=500, discount=10, total=450"),
        "{}",
        text(&second)
    );
    // a rejected message is not journaled, so it is not replayed
    let rejected = call(
        &client,
        "dispatch",
        json!({"message": "set_discount", "args": {"percent": 200}}),
    )
    .await;
    assert_eq!(rejected.is_error, Some(true));
    client
        .subscribe(SubscribeRequestParams::new("ranvier://state"))
        .await
        .expect("subscribed");

    // no rebuild: no reload line
    let unchanged = call(&client, "snapshot", json!({})).await;
    assert!(
        text(&unchanged).starts_with("{\"version\":2,"),
        "{}",
        text(&unchanged)
    );

    replace(&watched, cart());
    let reloaded = call(&client, "snapshot", json!({})).await;
    let reloaded = text(&reloaded);
    let mut lines = reloaded.lines();
    let first = lines.next().unwrap();
    assert!(
        first.starts_with(&format!("reloaded {} (build of ", watched.display())),
        "{first}"
    );
    assert!(
        first.contains(
            "run 2): replayed 2 messages → v2: count=2, subtotal=500, discount=10, total=450"
        ),
        "{first}"
    );
    assert!(
        first.ends_with("; resource subscriptions ended (ranvier://state), subscribe again"),
        "{first}"
    );
    // the new build holds the replayed state
    let state: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(
        state,
        json!({"version": 2, "values": {"count": 2, "subtotal": 500, "discount": 10, "total": 500 * 9 / 10}})
    );
    // the client is told: its subscription's URI is notified
    let uri = tokio::time::timeout(GUARD, updates.recv())
        .await
        .expect("hang guard");
    assert_eq!(uri.as_deref(), Some("ranvier://state"));

    // the reloaded app goes on from the replayed state, without another reload
    let next = call(
        &client,
        "dispatch",
        json!({"message": "remove_item", "args": {"sku": "b"}}),
    )
    .await;
    let next = text(&next);
    assert!(
        next.starts_with("1 remove_item {\"sku\":\"b\"} → v2"),
        "{next}"
    );
    assert!(
        next.ends_with("\nv2: count=2, subtotal=500, discount=10, total=450"),
        "{next}"
    );

    // a new build that rejects the second message: served with the messages before it
    replace(&watched, &stricter_build(&dir));
    let stopped = call(&client, "snapshot", json!({})).await;
    let stopped = text(&stopped);
    let first = stopped.lines().next().unwrap();
    assert!(
        first
            .contains("run 3): replay stopped at message 2 of 3 (set_discount {\"percent\":10}): "),
        "{first}"
    );
    assert!(
        first.contains("`percent`: expected an integer between 0 and 100, got 1000"),
        "{first}"
    );
    assert!(
        first.ends_with("serving the new build with messages 1 to 1 → v1: count=2, subtotal=500, discount=0, total=500"),
        "{first}"
    );
    assert!(
        stopped.ends_with(
            "{\"version\":1,\"values\":{\"count\":2,\"subtotal\":500,\"discount\":0,\"total\":500}}"
        ),
        "{stopped}"
    );

    client.cancel().await.expect("the supervisor ends");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_modern_era_reloads_and_replays_too() {
    let dir = scratch("supervise-modern");
    let watched = dir.join("cart");
    std::fs::copy(cart(), &watched).unwrap();
    let (client, _updates) = supervise(&watched, true).await;
    assert_eq!(
        client.peer_info().expect("discovered").protocol_version,
        ProtocolVersion::V_2026_07_28
    );

    call(
        &client,
        "dispatch",
        json!({"messages": [add_item(), {"message": "set_discount", "args": {"percent": 50}}]}),
    )
    .await;
    replace(&watched, cart());
    let reloaded = call(&client, "dispatch", json!({"message": "clear"})).await;
    let reloaded = text(&reloaded);
    let first = reloaded.lines().next().unwrap();
    assert!(
        first.contains(
            "run 2): replayed 2 messages → v2: count=2, subtotal=500, discount=50, total=250"
        ),
        "{first}"
    );
    assert!(
        reloaded.ends_with("v3: count=0, subtotal=0, discount=0, total=0"),
        "{reloaded}"
    );

    client.cancel().await.expect("the supervisor ends");
}

#[test]
fn supervising_a_missing_binary_is_a_startup_error() {
    let dir = scratch("supervise-missing");
    let output = std::process::Command::new(BIN)
        .arg("supervise")
        .arg(dir.join("nothing-here"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("nothing-here: no such file"), "{message}");
}
