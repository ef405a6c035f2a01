//! `ranvier-mcp postmortem`: the cart is driven over MCP and asked `explain`, `graph`, `node` and the history
//! queries; its trace is dumped with its `dump` tool and the process killed (SIGKILL, as a crash would end it); then
//! the dump is served, over MCP and as one-shot calls, and every answer must be the one the live cart gave. Then the
//! dumps it must refuse: a file that is not a dump, one cut short, one of a newer schema.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{BIN, cart, result_text, run, run_in, scratch, stderr, stdout};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Value, json};

/// A hang guard only; nothing here is timed.
const GUARD: Duration = Duration::from_secs(60);

async fn connect(
    command: tokio::process::Command,
) -> (RunningService<RoleClient, ()>, Option<u32>) {
    let transport = TokioChildProcess::new(command).expect("the server starts");
    let pid = transport.id();
    let client = tokio::time::timeout(GUARD, ().serve(transport))
        .await
        .expect("hang guard")
        .expect("connected");
    (client, pid)
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &str, args: &Value) -> CallToolResult {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().expect("an object").clone());
    tokio::time::timeout(GUARD, client.call_tool(params))
        .await
        .expect("hang guard")
        .expect("the call is answered")
}

/// What a call answers, as text (its text blocks, else its structured content), and whether it is an error.
fn answer(result: &CallToolResult) -> (String, bool) {
    let text = result_text(result);
    let text = match (&result.structured_content, text.is_empty()) {
        (Some(structured), true) => structured.to_string(),
        _ => text,
    };
    (text, result.is_error == Some(true))
}

/// The questions asked of the live cart and of its dump: every traced tool a post-mortem serves, on nodes of each
/// kind, a collection's row, an earlier run, an event, a miss.
fn questions(clock: u64) -> Vec<(&'static str, Value)> {
    vec![
        ("explain", json!({"node": "total"})),
        ("explain", json!({"node": "total", "detail": "full"})),
        ("explain", json!({"node": "count"})),
        ("explain", json!({"node": "lines[a]/total"})),
        ("explain", json!({"node": "subtotal", "run": 1})),
        ("explain", json!({"node": "no_such_node"})),
        ("graph", json!({})),
        ("node", json!({"node": "total"})),
        (
            "node",
            json!({"node": "total", "around": 2, "detail": "full"}),
        ),
        ("node", json!({"node": "cart", "limit": 2})),
        ("node", json!({"node": "discount", "run": 1})),
        ("history", json!({"node": "total"})),
        ("history", json!({"node": "cart"})),
        ("snapshot_at", json!({"seq": clock / 2})),
        ("snapshot_at", json!({"seq": clock})),
        ("trace_state", json!({"limit": 5})),
        ("trace_lookup", json!({"node": "lines[b]/total"})),
        ("why", json!({"node": "total"})),
        ("why_not", json!({"node": "discount"})),
        ("waiting_on", json!({"node": "total"})),
    ]
}

/// The header's clock: the newest event of the dump.
fn clock_of(dump: &str) -> u64 {
    let head: Value = serde_json::from_str(dump.lines().next().expect("a header")).expect("JSON");
    head["clock"].as_u64().expect("a clock")
}

/// Drives the cart over MCP, asks every question, takes the dump, kills the cart; returns the dump and the answers.
async fn live(dump_at: &Path) -> (String, Vec<(String, bool)>) {
    let mut command = tokio::process::Command::new(cart());
    command
        .env("RANVIER_MCP_RAW_TRACE_TOOLS", "1")
        .env_remove("RANVIER_JOURNAL")
        .env_remove("RANVIER_MCP_PROTOCOL");
    let (client, pid) = connect(command).await;
    let add = |sku: &str, unit_price: u64, quantity: u64| json!({"message": "add_item", "args": {"sku": sku, "unitPrice": unit_price, "quantity": quantity}});
    let messages = json!({"messages": [
        add("a", 250, 2),
        add("b", 100, 3),
        {"message": "set_discount", "args": {"percent": 10}},
        add("a", 250, 1),
    ]});
    let (steps, failed) = answer(&call(&client, "dispatch", &messages).await);
    assert!(!failed, "{steps}");
    // the dump first: the questions read the trace, and reading records nothing
    let (dump, failed) = answer(&call(&client, "dump", &json!({})).await);
    assert!(!failed, "{dump}");
    let mut answers = Vec::new();
    for (tool, args) in questions(clock_of(&dump)) {
        answers.push(answer(&call(&client, tool, &args).await));
    }
    let (again, _) = answer(&call(&client, "dump", &json!({})).await);
    assert_eq!(again, dump, "asking the questions recorded nothing");
    std::fs::write(dump_at, &dump).expect("the dump is written");
    // SIGKILL, as a crash ends a process: nothing of it is left but the dump
    let pid = pid.expect("the cart's pid").to_string();
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let gone = || !Path::new(&format!("/proc/{pid}")).exists() || proc_state(&pid) == Some('Z');
    for _ in 0..100 {
        if gone() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(gone(), "the cart is gone");
    let _ = client.cancel().await;
    (dump, answers)
}

/// A process's state letter (`Z` for a zombie not yet reaped), from `/proc`.
fn proc_state(pid: &str) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(") ").next()?.chars().next()
}

fn dump_file(name: &str) -> PathBuf {
    scratch(name).join("cart.dump")
}

#[test]
fn a_dump_of_a_killed_cart_answers_as_the_live_cart_did() {
    let file = dump_file("postmortem-same");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let (dump, live) = runtime.block_on(live(&file));
    let clock = clock_of(&dump);
    assert!(
        live.iter()
            .any(|(text, _)| text.contains("update: message set_discount")),
        "{live:?}"
    );
    assert!(live[5].1, "a miss is an error: {:?}", live[5]);

    // over MCP
    let served = runtime.block_on(async {
        let mut command = tokio::process::Command::new(BIN);
        command.arg("postmortem").arg(&file);
        let (client, _) = connect(command).await;
        let tools = client.list_all_tools().await.expect("tools");
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "explain",
                "graph",
                "node",
                "trace_state",
                "trace_lookup",
                "why",
                "why_not",
                "waiting_on",
                "history",
                "snapshot_at"
            ]
        );
        assert!(
            tools
                .iter()
                .all(|t| t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true))
        );
        let mut answers = Vec::new();
        for (tool, args) in questions(clock) {
            answers.push(answer(&call(&client, tool, &args).await));
        }
        // nothing can be dispatched into a process that is gone
        let (refused, failed) = answer(
            &call(
                &client,
                "explain",
                &json!({"node": "total", "messages": [{"message": "clear"}]}),
            )
            .await,
        );
        assert!(
            failed && refused.contains("this is a post-mortem of a dump"),
            "{refused}"
        );
        let (refused, failed) =
            answer(&call(&client, "dispatch", &json!({"message": "clear"})).await);
        assert!(
            failed && refused.starts_with("dispatch needs the live app"),
            "{refused}"
        );
        let _ = client.cancel().await;
        answers
    });
    for (((tool, args), live), served) in questions(clock).iter().zip(&live).zip(&served) {
        assert_eq!(live, served, "{tool} {args}");
    }
    assert_eq!(live.len(), served.len());

    // one-shot, as `call` prints
    let file = file.to_str().expect("a UTF-8 path");
    let output = run(
        &["postmortem", file, "explain", r#"{"node": "total"}"#],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), format!("{}\n", live[0].0));
    let output = run(
        &["postmortem", file, "explain", r#"{"node": "no_such_node"}"#],
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), format!("{}\n", live[5].0));
    let output = run(&["postmortem", file, "graph"], &[]);
    assert_eq!(stdout(&output), format!("{}\n", live[6].0));
}

#[test]
fn a_postmortem_away_from_the_sources_says_which_it_cannot_read() {
    let file = dump_file("postmortem-sources");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let (_, live) = runtime.block_on(live(&file));
    let elsewhere = file.parent().expect("a dir");
    let output = run_in(
        Some(elsewhere),
        &[
            "postmortem",
            "cart.dump",
            "--source-root",
            "/nonexistent",
            "explain",
            r#"{"node": "total"}"#,
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    // the node line and the findings that need no source are as the live cart gave them
    assert_eq!(text.lines().next(), live[0].0.lines().next());
    assert!(text.contains("\n  at cart.rs:"), "{text}");
    assert!(
        text.trim_end().ends_with(
            "(the dump names them; their lines are left out: run from the app's directory or pass --source-root DIR)"
        ),
        "{text}"
    );
    assert!(
        text.contains("sources not found here: examples/examples/cart.rs"),
        "{text}"
    );
}

#[test]
fn what_is_not_a_whole_dump_of_this_schema_is_refused_naming_why() {
    let dir = scratch("postmortem-refused");
    let mut whole = None;
    for (name, text) in [
        (
            "journal.jsonl",
            r#"{"message":"clear","args":{}}"#.to_owned(),
        ),
        ("notes.txt", "hello\n".to_owned()),
        ("empty.dump", String::new()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("written");
        let output = run(&["postmortem", path.to_str().expect("UTF-8"), "graph"], &[]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        let err = stderr(&output);
        assert!(
            err.starts_with(&format!("ranvier-mcp: {}", path.display())),
            "{err}"
        );
        if name == "empty.dump" {
            assert!(
                err.contains("the dump is empty (expected a header line"),
                "{err}"
            );
        } else {
            assert!(
                err.contains(
                    "this is not a ranvier dump (expected a header line `{\"schema\":2,...}`"
                ),
                "{err}"
            );
        }
    }
    let missing = run(
        &[
            "postmortem",
            dir.join("gone.dump").to_str().expect("UTF-8"),
            "graph",
        ],
        &[],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("cannot read the dump"),
        "{}",
        stderr(&missing)
    );

    // a real dump, then cut and versioned
    let file = dir.join("cart.dump");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let mut command = tokio::process::Command::new(cart());
        command.env("RANVIER_MCP_RAW_TRACE_TOOLS", "1").env_remove("RANVIER_JOURNAL");
        let (client, _) = connect(command).await;
        let (dump, failed) = answer(&call(&client, "dump", &json!({"messages": [{"message": "add_item", "args": {"sku": "a", "unitPrice": 1, "quantity": 1}}]})).await);
        assert!(!failed, "{dump}");
        whole = Some(dump);
        let _ = client.cancel().await;
    });
    let whole = whole.expect("a dump");
    let lines: Vec<&str> = whole.lines().collect();
    let head = |n: usize| {
        lines[..n]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    let nodes = lines
        .iter()
        .filter(|l| l.starts_with("{\"node\":{"))
        .count();
    for (name, text, expected) in [
        (
            "cut-in-nodes.dump",
            head(nodes / 2 + 1),
            "node lines where its header says",
        ),
        (
            "cut-in-events.dump",
            head(lines.len() / 2 + nodes),
            "is the dump cut short?",
        ),
        (
            "cut-mid-line.dump",
            whole[..whole.len() - 5].to_owned(),
            "the line ends early",
        ),
        (
            "newer.dump",
            whole.replacen("{\"schema\":2,", "{\"schema\":3,", 1),
            "schema 3 is not one this build reads (expected 2): the dump was written by a newer ranvier",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("written");
        let output = run(&["postmortem", path.to_str().expect("UTF-8"), "graph"], &[]);
        assert_eq!(output.status.code(), Some(2), "{name}: {}", stdout(&output));
        let err = stderr(&output);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(
            err.contains("dump line "),
            "{name}: the line is named: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::write(&file, &whole).expect("written");
    let output = run(&["postmortem", file.to_str().expect("UTF-8"), "graph"], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("last message: add_item"),
        "{}",
        stdout(&output)
    );
}
