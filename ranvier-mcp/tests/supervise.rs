//! `ranvier-mcp supervise` driven by an rmcp client: a rebuild (the watched binary replaced) reloads the app on the
//! next tool call, replays the journal, ends subscriptions (in both eras), and reports a replay the new build
//! rejects; an app that dies on its own is restarted by the next call, with the journal replayed.
#![allow(deprecated)] // resources/subscribe is the legacy era's subscription; it is what we test

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use common::{BIN, cart, result_text, scratch, watched_cart};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, ProtocolVersion,
    ResourceUpdatedNotificationParam, ServerNotification, SubscribeRequestParams,
    SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, NotificationContext, PeerRequestOptions, RunningService, Subscription,
    serve_client_with_lifecycle,
};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceError};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
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
    supervise_with_pid(watched, modern, &[]).await.0
}

/// Starts the supervisor (passing `app_args` to the app) and connects to it; also returns the supervisor's
/// process id.
async fn supervise_with_pid(watched: &Path, modern: bool, app_args: &[&str]) -> (Connected, u32) {
    let mut command = tokio::process::Command::new(BIN);
    command
        .arg("supervise")
        .env("TMPDIR", env!("CARGO_TARGET_TMPDIR"))
        .arg(watched)
        .env_remove("RANVIER_JOURNAL")
        .env_remove("RANVIER_MCP_PROTOCOL")
        .env_remove("RANVIER_CART_CONFIRM");
    if !app_args.is_empty() {
        command.arg("--").args(app_args);
    }
    let transport = TokioChildProcess::new(command).expect("the supervisor starts");
    let pid = transport.id().expect("the supervisor's pid");
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
    ((client, rx), pid)
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
    result_text(result)
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

/// The process id of run `run` of the app: the supervisor's child running its copy `run-{run}/cart`.
fn app_process(supervisor: u32, run: u32) -> u32 {
    let copy = format!("run-{run}/cart");
    let found: Vec<u32> = std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|entry| {
            let pid: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // `pid (comm) state ppid ...`: the comm may hold spaces, so split after its closing parenthesis
            let ppid: u32 = stat.rsplit_once(") ")?.1.split(' ').nth(1)?.parse().ok()?;
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
            (ppid == supervisor && exe.ends_with(&copy)).then_some(pid)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one child of the supervisor runs {copy}: {found:?}"
    );
    found[0]
}

/// Kills run `run` of the app with SIGKILL (as a crash ends it) while a `wait_version` call waits in it, and
/// returns the error the client gets for that call.
async fn crash_during_a_call(
    client: &RunningService<RoleClient, Client>,
    supervisor: u32,
    run: u32,
) -> String {
    let app = app_process(supervisor, run);
    let params = CallToolRequestParams::new("wait_version").with_arguments(
        json!({"version": 1000, "timeoutMs": 60000})
            .as_object()
            .expect("an object")
            .clone(),
    );
    let waiting = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(CallToolRequest::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .expect("the wait is sent");
    // the supervisor handles the client's lines in order: once a later call is answered, the wait is pending in
    // this run
    call(client, "snapshot", json!({})).await;
    let killed = std::process::Command::new("kill")
        .arg("-KILL")
        .arg(app.to_string())
        .status()
        .expect("kill runs");
    assert!(killed.success(), "kill -KILL {app}");
    match tokio::time::timeout(GUARD, waiting.await_response())
        .await
        .expect("hang guard")
    {
        Err(ServiceError::McpError(error)) => error.message.into_owned(),
        other => panic!("expected an error for the call the crash interrupted, got {other:?}"),
    }
}

/// The URI of the next `resources/updated` a modern-era listen delivers.
async fn next_update(listening: &mut Subscription) -> String {
    loop {
        let next = tokio::time::timeout(GUARD, listening.next())
            .await
            .expect("hang guard")
            .expect("the listen is open");
        match next {
            Some(ServerNotification::ResourceUpdatedNotification(updated)) => {
                return updated.params.uri;
            }
            Some(_) => {}
            None => panic!("the listen ended: {:?}", listening.end()),
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rebuild_reloads_replays_ends_subscriptions_and_reports_a_rejected_replay() {
    let watched = watched_cart("supervise-legacy");
    let (client, mut updates) = supervise(&watched, false).await;

    call(&client, "dispatch", add_item()).await;
    let second = call(
        &client,
        "dispatch",
        json!({"message": "set_discount", "args": {"percent": 10}}),
    )
    .await;
    assert!(
        text(&second).ends_with("v2: count=2, subtotal=500, discount=10, total=450, lines=[a]"),
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
    // the structured content a client may show instead of the text carries the same line
    let structured = reloaded
        .structured_content
        .clone()
        .expect("structured content");
    let reloaded = text(&reloaded);
    let mut lines = reloaded.lines();
    let first = lines.next().unwrap();
    assert_eq!(structured["reload"], first, "{structured}");
    assert_eq!(structured["version"], 2, "{structured}");
    assert!(
        first.starts_with(&format!("reloaded {} (build of ", watched.display())),
        "{first}"
    );
    assert!(
        first.contains(
            "run 2): replayed 2 messages → v2: count=2, subtotal=500, discount=10, total=450, lines=[a]"
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
        json!({"version": 2, "values": {"count": 2, "subtotal": 500, "discount": 10, "total": 500 * 9 / 10,
            "lines": [{"key": "a", "unitPrice": 250, "quantity": 2, "total": 500}]}})
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
        next.ends_with("\nv2: count=2, subtotal=500, discount=10, total=450, lines=[a]"),
        "{next}"
    );

    // a new build that rejects the second message: served with the messages before it
    replace(
        &watched,
        &stricter_build(watched.parent().expect("scratch dir")),
    );
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
        first.ends_with("serving the new build with messages 1 to 1 → v1: count=2, subtotal=500, discount=0, total=500, lines=[a]"),
        "{first}"
    );
    assert!(
        stopped.ends_with(
            r#"{"version":1,"values":{"count":2,"subtotal":500,"discount":0,"total":500,"lines":[{"key":"a","unitPrice":250,"quantity":2,"total":500}]}}"#
        ),
        "{stopped}"
    );

    client.cancel().await.expect("the supervisor ends");
}

/// Claude Code shows a model a result's structured content in place of its text: the reload line is in both, for
/// `wait_version` as for `snapshot` (and only after a reload).
#[tokio::test(flavor = "multi_thread")]
async fn the_reload_line_is_in_the_structured_content_of_wait_version_too() {
    let watched = watched_cart("supervise-wait-version");
    let (client, _updates) = supervise(&watched, false).await;
    call(&client, "dispatch", add_item()).await;
    let before = call(
        &client,
        "wait_version",
        json!({"version": 1, "timeoutMs": 1000}),
    )
    .await;
    assert!(
        before
            .structured_content
            .as_ref()
            .unwrap()
            .get("reload")
            .is_none(),
        "no reload, no line"
    );

    replace(&watched, cart());
    let waited = call(
        &client,
        "wait_version",
        json!({"version": 1, "timeoutMs": 5000}),
    )
    .await;
    assert_eq!(waited.is_error, Some(false), "{}", text(&waited));
    let structured = waited
        .structured_content
        .clone()
        .expect("structured content");
    let said = text(&waited);
    let first = said.lines().next().unwrap();
    assert!(
        first.contains(
            "run 2): replayed 1 message → v1: count=2, subtotal=500, discount=0, total=500, lines=[a]"
        ),
        "{first}"
    );
    assert_eq!(structured["reload"], first, "{structured}");
    assert_eq!(
        (&structured["version"], &structured["values"]["count"]),
        (&json!(1), &json!(2)),
        "{structured}"
    );

    client.cancel().await.expect("the supervisor ends");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_modern_era_reloads_and_replays_too() {
    let watched = watched_cart("supervise-modern");
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
            "run 2): replayed 2 messages → v2: count=2, subtotal=500, discount=50, total=250, lines=[a]"
        ),
        "{first}"
    );
    assert!(
        reloaded.ends_with("v3: count=0, subtotal=0, discount=0, total=0, lines=[]"),
        "{reloaded}"
    );

    client.cancel().await.expect("the supervisor ends");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rebuild_ends_a_modern_era_listen_with_an_error() {
    let watched = watched_cart("supervise-listen");
    let (client, _updates) = supervise(&watched, true).await;
    assert_eq!(
        client.peer_info().expect("discovered").protocol_version,
        ProtocolVersion::V_2026_07_28
    );
    let filter = || {
        SubscriptionFilter::builder()
            .resource_subscription("ranvier://state")
            .build()
    };
    let mut listening = client.listen(filter()).await.expect("listening");
    assert_eq!(
        listening.acknowledged().resource_subscriptions,
        Some(vec!["ranvier://state".to_owned()])
    );
    // the listen is live through the supervisor
    call(&client, "dispatch", add_item()).await;
    assert_eq!(next_update(&mut listening).await, "ranvier://state");

    replace(&watched, cart());
    let reloaded = call(&client, "snapshot", json!({})).await;
    let reloaded = text(&reloaded);
    let first = reloaded.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("reloaded {} (build of ", watched.display())),
        "{first}"
    );
    assert!(
        first.ends_with(
            "run 2): replayed 1 message → v1: count=2, subtotal=500, discount=0, total=500, lines=[a]; \
             subscriptions/listen ended, listen again"
        ),
        "{first}"
    );
    // the listen itself ends with an error saying why (not a final result, not silence)
    let ended = loop {
        let next = tokio::time::timeout(GUARD, listening.next())
            .await
            .expect("hang guard");
        match next {
            Ok(Some(_)) => {}
            Ok(None) => panic!("the listen ended without an error: {:?}", listening.end()),
            Err(error) => break error,
        }
    };
    match ended {
        ServiceError::McpError(error) => assert_eq!(
            error.message,
            "the subscription ended: the app was reloaded from a new build; listen again"
        ),
        other => panic!("expected the supervisor's error, got {other:?}"),
    }

    // listening again works, on the new build
    let mut again = client.listen(filter()).await.expect("listening again");
    call(&client, "dispatch", json!({"message": "clear"})).await;
    assert_eq!(next_update(&mut again).await, "ranvier://state");

    client.cancel().await.expect("the supervisor ends");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_app_that_dies_is_restarted_by_the_next_call_with_the_journal_replayed() {
    let watched = watched_cart("supervise-crash");
    let ((client, _updates), supervisor) = supervise_with_pid(&watched, false, &[]).await;
    call(
        &client,
        "dispatch",
        json!({"messages": [add_item(), {"message": "set_discount", "args": {"percent": 10}}]}),
    )
    .await;

    // the app dies while it holds a call: that call is answered with an error, not left hanging
    let error = crash_during_a_call(&client, supervisor, 1).await;
    assert_eq!(
        error.lines().next(),
        Some("the app exited before answering tools/call; the next request restarts it"),
        "{error}"
    );

    // the next call restarts the same build, replays what the dead run had accepted, then runs
    let restarted = call(
        &client,
        "dispatch",
        json!({"message": "add_item", "args": {"sku": "b", "unitPrice": 100, "quantity": 1}}),
    )
    .await;
    assert_ne!(restarted.is_error, Some(true));
    assert_eq!(
        text(&restarted),
        format!(
            "restarted {} after it exited (run 2): replayed 2 messages → v2: count=2, subtotal=500, discount=10, total=450, lines=[a]\n\
             1 add_item {{\"sku\":\"b\",\"unitPrice\":100,\"quantity\":1}} → v3: count 2→3, subtotal 500→600, total 450→540, lines +[b]\n\
             v3: count=3, subtotal=600, discount=10, total=540, lines=[a, b]",
            watched.display()
        )
    );

    // the restarted run journals the replay and what came after: a second crash loses nothing
    let error = crash_during_a_call(&client, supervisor, 2).await;
    assert_eq!(
        error.lines().next(),
        Some("the app exited before answering tools/call; the next request restarts it"),
        "{error}"
    );
    let snapshot = call(&client, "snapshot", json!({})).await;
    assert_eq!(
        text(&snapshot),
        format!(
            "restarted {} after it exited (run 3): replayed 3 messages → v3: count=3, subtotal=600, discount=10, total=540, lines=[a, b]\n\
             {{\"version\":3,\"values\":{{\"count\":3,\"subtotal\":600,\"discount\":10,\"total\":540,\
             \"lines\":[{{\"key\":\"a\",\"unitPrice\":250,\"quantity\":2,\"total\":500}},\
             {{\"key\":\"b\",\"unitPrice\":100,\"quantity\":1,\"total\":100}}]}}}}",
            watched.display()
        )
    );

    client.cancel().await.expect("the supervisor ends");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_the_new_build_pauses_for_approval_is_named_and_can_be_resumed() {
    let watched = watched_cart("supervise-approval");
    // the cart gates `clear` for a person's approval
    let ((client, _updates), _) = supervise_with_pid(&watched, false, &["--confirm"]).await;
    call(&client, "dispatch", add_item()).await;
    let paused = call(&client, "dispatch", json!({"message": "clear"})).await;
    let id = interrupt_id(&text(&paused));
    assert!(
        text(&paused).contains(&format!("\ninterrupt \"{id}\": clear {{}}")),
        "{}",
        text(&paused)
    );
    let approved = call(&client, "resume", json!({"id": id, "approve": true})).await;
    assert!(
        text(&approved).ends_with("v2: count=0, subtotal=0, discount=0, total=0, lines=[]"),
        "{}",
        text(&approved)
    );
    call(
        &client,
        "dispatch",
        json!({"message": "set_discount", "args": {"percent": 10}}),
    )
    .await;

    // the new build gates the approved clear again: the reload line says the replay paused there, not that it
    // replayed every message
    replace(&watched, cart());
    let reloaded = call(&client, "snapshot", json!({})).await;
    let reloaded = text(&reloaded);
    let first = reloaded.lines().next().unwrap();
    let again = interrupt_id(&reloaded);
    assert_ne!(again, id, "the new build opened an interrupt of its own");
    assert!(
        first.ends_with(&format!(
            "run 2): replay paused at message 2 of 3 (clear {{}}): it needs a person's approval in the new build; \
             resume interrupt \"{again}\" to run it and the messages after it → v1: count=2, subtotal=500, discount=0, \
             total=500, lines=[a]"
        )),
        "{first}"
    );
    // resuming it in the new build runs it and the message held after it
    let resumed = call(&client, "resume", json!({"id": again, "approve": true})).await;
    assert_ne!(resumed.is_error, Some(true), "{}", text(&resumed));
    assert!(
        text(&resumed).ends_with("v3: count=0, subtotal=0, discount=10, total=0, lines=[]"),
        "{}",
        text(&resumed)
    );

    client.cancel().await.expect("the supervisor ends");
}

/// The id of the first interrupt `text` names (`interrupt "i-…"`).
fn interrupt_id(text: &str) -> String {
    let start = text.find("interrupt \"i-").expect("an interrupt") + "interrupt \"".len();
    text[start..start + 34].to_owned()
}

/// The supervisor driven over raw pipes, for lines an rmcp client never sends.
struct Raw {
    child: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    stdout: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
}

impl Raw {
    /// Starts the supervisor and runs the legacy handshake.
    async fn start(watched: &Path) -> Self {
        let mut child = tokio::process::Command::new(BIN)
            .arg("supervise")
            .env("TMPDIR", env!("CARGO_TARGET_TMPDIR"))
            .arg(watched)
            .env_remove("RANVIER_JOURNAL")
            .env_remove("RANVIER_MCP_PROTOCOL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the supervisor starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped")).lines();
        let mut raw = Self {
            child,
            stdin,
            stdout,
        };
        raw.send(
            br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
        )
        .await;
        let answer = raw.next().await;
        assert_eq!(answer["id"], 1, "{answer}");
        assert!(answer.get("result").is_some(), "{answer}");
        raw.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    /// Writes `line` and its newline.
    async fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).await.expect("written");
        self.stdin.write_all(b"\n").await.expect("written");
        self.stdin.flush().await.expect("flushed");
    }

    /// The next line the supervisor writes, as JSON (its own lines are always UTF-8).
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(GUARD, self.stdout.next_line())
            .await
            .expect("hang guard")
            .expect("readable")
            .expect("the supervisor is still serving");
        serde_json::from_str(&line).expect("JSON")
    }

    /// The lines up to the answer with `id`: the ones before it, and it.
    async fn until(&mut self, id: i64) -> (Vec<Value>, Value) {
        let mut before = Vec::new();
        loop {
            let line = self.next().await;
            if line["id"] == id {
                return (before, line);
            }
            before.push(line);
        }
    }

    /// The supervisor's peak resident memory so far, in KiB (`VmHWM`).
    fn peak_kib(&self) -> u64 {
        let pid = self.child.id().expect("running");
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM")
    }
}

fn snapshot_request(id: i64) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "snapshot", "arguments": {}}})
        .to_string()
        .into_bytes()
}

/// The text of a `tools/call` answer.
fn answer_text(answer: &Value) -> &str {
    answer
        .pointer("/result/content/0/text")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("a text result: {answer}"))
}

/// What the app itself answers to `line`, sent alone on its stdin.
fn app_answer(line: &[u8]) -> Value {
    let mut app = std::process::Command::new(cart())
        .env_remove("RANVIER_JOURNAL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the cart starts");
    {
        use std::io::Write as _;
        let mut stdin = app.stdin.take().expect("piped");
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    let output = app.wait_with_output().expect("the cart ends");
    let first = output.stdout.split(|&b| b == b'\n').next().unwrap_or(b"");
    serde_json::from_slice(first).expect("the cart answers with JSON")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_line_of_invalid_utf8_is_answered_as_the_app_answers_it_and_the_session_goes_on() {
    let watched = watched_cart("supervise-utf8");
    let mut raw = Raw::start(&watched).await;
    let bad = b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/c\xff\xfell\"}";
    // the bad line and the request after it arrive together: the request is not lost with the bad line
    let mut both = bad.to_vec();
    both.push(b'\n');
    both.extend_from_slice(&snapshot_request(2));
    raw.send(&both).await;

    let (before, snapshot) = raw.until(2).await;
    let expected = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: invalid UTF-8 at byte 41"}});
    assert_eq!(before, std::slice::from_ref(&expected));
    // the same answer the app gives to the same line
    assert_eq!(app_answer(bad), expected);
    assert_eq!(
        answer_text(&snapshot),
        r#"{"version":0,"values":{"count":0,"subtotal":0,"discount":0,"total":0,"lines":[]}}"#
    );

    // a line that is not JSON at all, and one that is not a message (the app's to answer, with the id)
    raw.send(b"hello, server").await;
    raw.send(br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#)
        .await;
    let (before, not_a_message) = raw.until(3).await;
    assert_eq!(
        before,
        [
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: not JSON: expected value at line 1 column 1"}})
        ]
    );
    assert_eq!(not_a_message["error"]["code"], -32600, "{not_a_message}");
    raw.send(&snapshot_request(4)).await;
    assert!(raw.until(4).await.1.get("result").is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_line_past_the_limit_is_answered_without_being_held_and_the_session_goes_on() {
    let watched = watched_cart("supervise-long");
    let mut raw = Raw::start(&watched).await;
    let before_the_line = raw.peak_kib();
    // a request padded to 40 MiB: past the 16 MiB limit, and far more than the limit the reader may hold
    let mut long = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"snapshot","arguments":{"pad":""#.to_vec();
    let tail = br#""}}}"#;
    long.resize(40 * 1024 * 1024 - tail.len(), b'x');
    long.extend_from_slice(tail);
    raw.send(&long).await;
    raw.send(&snapshot_request(6)).await;

    let (before, snapshot) = raw.until(6).await;
    assert_eq!(
        before,
        [
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error: line of 41943040 bytes is past the 16777216-byte limit"}})
        ]
    );
    assert!(
        answer_text(&snapshot).starts_with(r#"{"version":0,"#),
        "{snapshot}"
    );
    // the line was discarded as it arrived, not held whole: the supervisor held at most the 16 MiB limit of it
    let grown = raw.peak_kib().saturating_sub(before_the_line);
    assert!(grown < 24 * 1024, "the peak grew by {grown} KiB");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_app_line_of_invalid_utf8_on_stdout_is_dropped_and_the_session_goes_on() {
    let watched = watched_cart("supervise-app-utf8");
    // a "build" that writes a line of invalid UTF-8 on stdout before the cart starts
    let script = watched.with_file_name("noisy.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '\\377\\376 not UTF-8\\n'\nexec {}\n",
            cart().display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    replace(&watched, &script);

    let (client, _updates) = supervise(&watched, false).await;
    let dispatched = call(&client, "dispatch", add_item()).await;
    assert!(
        text(&dispatched).ends_with("v1: count=2, subtotal=500, discount=0, total=500, lines=[a]"),
        "{}",
        text(&dispatched)
    );
    client.cancel().await.expect("the supervisor ends");
}

#[test]
fn supervising_a_missing_binary_is_a_startup_error() {
    let dir = scratch("supervise-missing");
    let output = std::process::Command::new(BIN)
        .arg("supervise")
        .env("TMPDIR", env!("CARGO_TARGET_TMPDIR"))
        .arg(dir.join("nothing-here"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("nothing-here: no such file"), "{message}");
}
