//! `ranvier-mcp call` and `ranvier-mcp replay` against the cart example's binary, in both protocol eras.

use crate::common;

use common::{cart, run, scratch, stderr, stdout};

const ADD: &str =
    r#"{"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}}"#;

fn cart_path() -> &'static str {
    cart().to_str().expect("a UTF-8 path")
}

#[test]
fn call_prints_the_result_text_and_exits_0() {
    let output = run(&["call", cart_path(), "dispatch", ADD], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "1 add_item {\"sku\":\"a\",\"unitPrice\":250,\"quantity\":2} → v1: count 0→2, subtotal 0→500, total 0→500, lines +[a]\n\
         v1: count=2, subtotal=500, discount=0, total=500, lines=[a]\n"
    );
    // two calls share no state: each starts a fresh app
    let snapshot = run(&["call", cart_path(), "snapshot"], &[]);
    assert_eq!(
        stdout(&snapshot),
        "{\"version\":0,\"values\":{\"count\":0,\"subtotal\":0,\"discount\":0,\"total\":0,\"lines\":[]}}\n"
    );
}

#[test]
fn call_works_in_every_era_against_every_pinned_server() {
    // (client era, server pin, the protocol the --list header names)
    let cases = [
        ("auto", "both", "2026-07-28"),
        ("auto", "legacy", "2025-11-25"),
        ("auto", "modern", "2026-07-28"),
        ("legacy", "both", "2025-11-25"),
        ("legacy", "legacy", "2025-11-25"),
        ("modern", "both", "2026-07-28"),
        ("modern", "modern", "2026-07-28"),
    ];
    for (era, pin, protocol) in cases {
        let env = [("RANVIER_MCP_PROTOCOL", pin)];
        let listed = run(&["call", "--era", era, "--list", cart_path()], &env);
        assert_eq!(
            listed.status.code(),
            Some(0),
            "{era}/{pin}: {}",
            stderr(&listed)
        );
        assert!(
            stdout(&listed).starts_with(&format!("ranvier-cart 0.1.0 (protocol {protocol})")),
            "{era}/{pin}: {}",
            stdout(&listed)
        );
        let called = run(&["call", "--era", era, cart_path(), "dispatch", ADD], &env);
        assert_eq!(
            called.status.code(),
            Some(0),
            "{era}/{pin}: {}",
            stderr(&called)
        );
        assert!(
            stdout(&called)
                .ends_with("v1: count=2, subtotal=500, discount=0, total=500, lines=[a]\n")
        );
    }
    // an era the server does not serve is a startup error naming the refusal
    let refused = run(
        &["call", "--era", "modern", cart_path(), "snapshot"],
        &[("RANVIER_MCP_PROTOCOL", "legacy")],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("refused the MCP handshake (modern era)"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn list_prints_instructions_and_each_tools_description_and_arguments() {
    let output = run(&["call", "--list", cart_path()], &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("This server exposes the live state"),
        "{text}"
    );
    assert!(
        text.contains("\n  snapshot(version?, fork?, conversation?)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  diff(from?, to?, fork?, conversation?)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "\n  dispatch(message?, args?, settle?, settleMs?, messages?, dryRun?, fork?, conversation?)\n"
        ),
        "{text}"
    );
    assert!(text.contains("\n  fork(conversation?)\n"), "{text}");
    assert!(
        text.contains("\n  drop_fork(fork?, conversation?)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  wait_version(version, timeoutMs?)\n"),
        "{text}"
    );
    assert!(
        text.contains("      - set_discount {percent: integer 0..=100}"),
        "{text}"
    );
}

#[test]
fn a_tool_error_exits_1_with_the_reason_on_stdout() {
    let output = run(
        &[
            "call",
            cart_path(),
            "dispatch",
            r#"{"message": "set_discount", "args": {"percent": 150}}"#,
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "set_discount rejected its arguments: `percent`: expected an integer between 0 and 100, got 150\n\
         expected: set_discount {percent: integer 0..=100}\n"
    );
}

#[test]
fn usage_and_startup_errors_exit_2_with_a_clear_message() {
    let bad_json = run(
        &["call", cart_path(), "dispatch", r#"{"message" "clear"}"#],
        &[],
    );
    assert_eq!(bad_json.status.code(), Some(2));
    assert!(
        stderr(&bad_json).contains("not valid JSON: expected `:` at line 1 column 12"),
        "{}",
        stderr(&bad_json)
    );
    assert!(stderr(&bad_json).contains("  {\"message\" \"clear\"}\n             ^"));

    let not_object = run(&["call", cart_path(), "dispatch", "[1]"], &[]);
    assert_eq!(not_object.status.code(), Some(2));
    assert!(
        stderr(&not_object).contains("must be a JSON object"),
        "{}",
        stderr(&not_object)
    );

    let dir = scratch("usage");
    let missing = dir.join("no-such-app");
    let missing = run(&["call", missing.to_str().unwrap(), "snapshot"], &[]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("no-such-app: no such file"),
        "{}",
        stderr(&missing)
    );

    // a program that is not an MCP server: it prints text and exits
    let script = dir.join("not-mcp.sh");
    std::fs::write(&script, "#!/bin/sh\necho hello from a plain program\n").unwrap();
    make_executable(&script);
    let not_mcp = run(&["call", script.to_str().unwrap(), "snapshot"], &[]);
    assert_eq!(not_mcp.status.code(), Some(2));
    let message = stderr(&not_mcp);
    assert!(
        message.contains("is not an MCP server over stdio"),
        "{message}"
    );
    assert!(message.contains("hello from a plain program"), "{message}");

    // one that never answers: the startup timeout is the hang guard
    let silent = dir.join("silent.sh");
    std::fs::write(&silent, "#!/bin/sh\nexec sleep 30\n").unwrap();
    make_executable(&silent);
    let hung = run(
        &[
            "call",
            "--startup-timeout",
            "0.5",
            "--era",
            "legacy",
            silent.to_str().unwrap(),
            "snapshot",
        ],
        &[],
    );
    assert_eq!(hung.status.code(), Some(2));
    assert!(
        stderr(&hung).contains("did not finish the MCP handshake within 0.5 s"),
        "{}",
        stderr(&hung)
    );

    let unknown = run(&["call", cart_path(), "no_such_tool"], &[]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("unknown tool \"no_such_tool\""),
        "{}",
        stderr(&unknown)
    );

    let no_tool = run(&["call", cart_path()], &[]);
    assert_eq!(no_tool.status.code(), Some(2), "clap's usage error");
}

fn make_executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_journal_records_accepted_messages_and_replays_into_a_fresh_app() {
    let dir = scratch("journal");
    let journal = dir.join("journal.jsonl");
    let journal_path = journal.to_str().unwrap();
    let sequence = r#"{"messages": [
        {"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}},
        {"message": "set_discount", "args": {"percent": 10}},
        {"message": "set_discount", "args": {"percent": 300}}]}"#;
    let first = run(
        &["call", cart_path(), "dispatch", sequence],
        &[("RANVIER_JOURNAL", journal_path)],
    );
    assert_eq!(
        first.status.code(),
        Some(1),
        "the third message is rejected"
    );
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // only accepted messages, with their version and the MCP client's name
    assert_eq!(
        lines,
        vec![
            serde_json::json!({"name": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}, "version": 1, "sender": "ranvier-mcp",
                "changes": [["count", 0, 2], ["subtotal", 0, 500], ["total", 0, 500],
                    ["lines", [], [{"key": "a", "unitPrice": 250, "quantity": 2, "total": 500}]]]}),
            serde_json::json!({"name": "set_discount", "args": {"percent": 10}, "version": 2, "sender": "ranvier-mcp",
                "changes": [["discount", 0, 10], ["total", 500, 450]]}),
        ]
    );

    let replayed = run(&["replay", cart_path(), journal_path], &[]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    assert_eq!(
        stdout(&replayed),
        "1 add_item {\"sku\":\"a\",\"unitPrice\":250,\"quantity\":2} → v1: count 0→2, subtotal 0→500, total 0→500, lines +[a]\n\
         2 set_discount {\"percent\":10} → v2: discount 0→10, total 500→450\n\
         v2: count=2, subtotal=500, discount=10, total=450, lines=[a]\n"
    );

    // an unreadable line: the lines before it run, it is reported with its number, nothing after it runs
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut broken: Vec<&str> = text.lines().collect();
    broken.insert(1, "{not json");
    std::fs::write(&journal, broken.join("\n")).unwrap();
    let stopped = run(&["replay", cart_path(), journal_path], &[]);
    assert_eq!(stopped.status.code(), Some(1));
    let out = stdout(&stopped);
    assert!(out.starts_with("1 add_item"), "{out}");
    assert!(!out.contains("set_discount"), "line 3 must not run: {out}");
    assert!(
        out.contains("v1: count=2, subtotal=500, discount=0, total=500, lines=[a]"),
        "{out}"
    );
    assert!(
        out.contains(&format!("line 2 of {journal_path} cannot be read")),
        "{out}"
    );
    assert!(
        out.contains("nothing from line 2 on was dispatched"),
        "{out}"
    );

    // a message the app rejects names its journal line
    std::fs::write(
        &journal,
        "{\"name\":\"clear\",\"args\":{},\"version\":1,\"sender\":\"app\"}\n\n\
         {\"name\":\"set_discount\",\"args\":{\"percent\":500},\"version\":2,\"sender\":\"app\"}\n",
    )
    .unwrap();
    let rejected = run(
        &["replay", "--era", "legacy", cart_path(), journal_path],
        &[],
    );
    assert_eq!(rejected.status.code(), Some(1));
    let out = stdout(&rejected);
    assert!(out.contains("stopped at message 2 of 2"), "{out}");
    assert!(
        out.contains(&format!("(message 2 is line 3 of {journal_path})")),
        "{out}"
    );

    let missing = run(
        &[
            "replay",
            cart_path(),
            dir.join("nope.jsonl").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("cannot read the journal"),
        "{}",
        stderr(&missing)
    );
}
