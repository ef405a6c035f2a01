//! `ranvier-mcp supervise --script`: supervise driven from a shell, against the cart example. A script file runs
//! its calls in one supervised session and prints each answer; `--script -` reads calls as they come, so a rebuild
//! between two of them reloads the app and replays what was accepted.

use crate::common;

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};

use common::{BIN, cart, run, scratch, stderr, stdout, watched_cart};

const ADD: &str = r#"{"tool": "dispatch", "arguments": {"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}}}"#;

#[test]
fn a_script_runs_its_calls_in_one_session_and_prints_each_answer() {
    let dir = scratch("script-file");
    let script = dir.join("steps.jsonl");
    let lines = [
        "# a comment, then a blank line",
        "",
        ADD,
        r#"{"tool": "dispatch", "arguments": {"message": "set_discount", "args": {"percent": 150}}}"#,
        r#"{"tool": "snapshot"}"#,
    ];
    std::fs::write(&script, lines.join("\n")).expect("the script is written");
    let cart = cart().to_str().expect("a UTF-8 path");
    let output = run(
        &["supervise", "--script", script.to_str().unwrap(), cart],
        &[],
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "one call answered an error: {}",
        stderr(&output)
    );
    let text = stdout(&output);
    let expected_start = format!(
        "> {ADD}\n1 add_item {{\"sku\":\"a\",\"unitPrice\":250,\"quantity\":2}} → v1: count 0→2, subtotal 0→500, total 0→500, lines +[a]\n\
         v1: count=2, subtotal=500, discount=0, total=500, lines=[a]\n\
         > {}\nset_discount rejected its arguments: ",
        lines[3]
    );
    assert!(text.starts_with(&expected_start), "{text}");
    // the same session: the snapshot holds the first call's message
    assert!(
        text.contains(&format!(
            "> {}\n{{\"version\":1,\"values\":{{\"count\":2,\"subtotal\":500,\"discount\":0,\"total\":500,\
             \"lines\":[{{\"key\":\"a\",\"unitPrice\":250,\"quantity\":2,\"total\":500}}]}}}}\n",
            lines[4]
        )),
        "{text}"
    );
    assert!(text.ends_with("1 call(s) answered an error\n"), "{text}");
}

#[test]
fn a_bad_line_stops_the_script_and_says_what_a_line_holds() {
    let dir = scratch("script-bad");
    let script = dir.join("steps.jsonl");
    std::fs::write(&script, format!("{ADD}\ndispatch add_item\n{ADD}\n")).expect("written");
    let cart = cart().to_str().expect("a UTF-8 path");
    let output = run(
        &["supervise", "--script", script.to_str().unwrap(), cart],
        &[],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    assert_eq!(
        stdout(&output).matches("> ").count(),
        1,
        "nothing after the bad line runs: {}",
        stdout(&output)
    );
    let error = stderr(&output);
    assert!(error.contains("steps.jsonl line 2: not JSON"), "{error}");
    assert!(
        error.contains(r#"expected one JSON object per line: {"tool": "dispatch""#),
        "{error}"
    );
}

#[test]
fn calls_typed_after_a_rebuild_reload_the_app_and_replay_what_was_accepted() {
    let watched = watched_cart("script-stdin");
    let mut child = Command::new(BIN)
        .args(["supervise", "--script", "-", watched.to_str().unwrap()])
        .env("TMPDIR", env!("CARGO_TARGET_TMPDIR"))
        .env_remove("RANVIER_JOURNAL")
        .env_remove("RANVIER_MCP_PROTOCOL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("ranvier-mcp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(stdin, "{ADD}").expect("the first call is sent");
    let mut first = String::new();
    while !first.contains("\nv1: ") {
        let read = stdout.read_line(&mut first).expect("ranvier-mcp answers");
        assert!(read > 0, "ranvier-mcp ended early: {first}");
    }
    // a rebuild: the watched binary is replaced
    std::fs::remove_file(&watched).expect("the old build is removed");
    std::fs::copy(cart(), &watched).expect("the new build is in place");
    writeln!(stdin, r#"{{"tool": "snapshot"}}"#).expect("the second call is sent");
    drop(stdin);
    let mut rest = String::new();
    for line in stdout.lines() {
        rest.push_str(&line.expect("a line"));
        rest.push('\n');
    }
    assert!(child.wait().expect("it ends").success(), "{rest}");
    assert!(
        rest.starts_with("> {\"tool\": \"snapshot\"}\nreloaded "),
        "{rest}"
    );
    assert!(rest.contains("replayed 1 message"), "{rest}");
    assert!(
        rest.contains("\"count\":2"),
        "the replayed message is in the new run's state: {rest}"
    );
}
