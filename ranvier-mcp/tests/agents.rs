//! The agent guide works as written: every command in `AGENTS.md`'s `sh` blocks runs, in order, from the repository
//! root, and exits 0 (each bounded in time; offline: cargo only builds what this workspace already has), and
//! `.mcp.json` registers a server that answers `initialize`.
//!
//! The commands name the cargo target directory `target/`; when this test's target directory is elsewhere
//! (`CARGO_TARGET_DIR`), `target/` in each command reads as that directory, so nothing is rebuilt.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A hang guard per command (a cold build of the cart takes minutes on a small machine); nothing is timed.
const GUARD: Duration = Duration::from_secs(600);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
}

/// The target directory this test was built into: `<target>/debug/deps/agents-…`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps/<test>")
        .to_path_buf()
}

/// The commands of `text`'s fenced `sh` blocks, one a line, in order (blank lines and comments left out).
fn sh_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if inside && trimmed == "```" {
            inside = false;
        } else if inside {
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                commands.push(trimmed.to_owned());
            }
        } else if trimmed == "```sh" {
            inside = true;
        }
    }
    assert!(!inside, "an sh block is not closed");
    commands
}

/// `command` with `target/` meaning this test's target directory.
fn localized(command: &str, target: &Path) -> String {
    if target == root().join("target") {
        command.to_owned()
    } else {
        command.replace("target/", &format!("{}/", target.display()))
    }
}

fn shell(command: &str, target: &Path) -> Command {
    let mut shell = Command::new("bash");
    shell
        .args(["-euo", "pipefail", "-c", command])
        .current_dir(root())
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RANVIER_JOURNAL")
        .env_remove("RANVIER_MCP_PROTOCOL")
        .env_remove("RANVIER_CART_CONFIRM");
    shell
}

/// Waits for `child`, killing it past the guard.
fn wait(mut child: Child, what: &str) -> (Option<i32>, String, String) {
    let (mut stdout, mut stderr) = (child.stdout.take(), child.stderr.take());
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stdout) = stdout.as_mut() {
            let _ = stdout.read_to_string(&mut text);
        }
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stderr) = stderr.as_mut() {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    });
    let deadline = Instant::now() + GUARD;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("hang guard: {what} did not end within {GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.code(),
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    )
}

#[test]
fn every_command_in_agents_md_runs() {
    let guide = std::fs::read_to_string(root().join("AGENTS.md")).expect("AGENTS.md");
    let commands = sh_commands(&guide);
    // the loop: build, call one tool, explain first, rebuild and check, replay the journal
    for step in [
        "cargo build",
        " call ",
        " explain ",
        "--example cart && ",
        "RANVIER_JOURNAL=",
        " replay ",
    ] {
        assert!(
            commands.iter().any(|command| command.contains(step)),
            "AGENTS.md has no command with {step:?}: {commands:#?}"
        );
    }
    let target = target_dir();
    let mut outputs = Vec::new();
    for command in &commands {
        let local = localized(command, &target);
        let child = shell(&local, &target)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bash runs");
        let (code, stdout, stderr) = wait(child, command);
        assert_eq!(
            code,
            Some(0),
            "`{command}` failed:\nstdout: {stdout}\nstderr: {stderr}"
        );
        outputs.push((command.clone(), stdout));
    }
    let output = |needle: &str| {
        outputs
            .iter()
            .find(|(command, _)| command.contains(needle))
            .map(|(_, stdout)| stdout.as_str())
            .unwrap_or_default()
    };
    // what the guide says each step prints
    // the cart's total is made on this line (whatever else the cart grows above it)
    let total_line = include_str!("../../examples/examples/cart.rs")
        .lines()
        .position(|line| line.contains("let total = Memo::new({"))
        .expect("the cart makes its total")
        + 1;
    // the node line names where the total is made; the brief answer then quotes the lines it computes with, not
    // the line that only opens its body
    assert!(
        output(" explain ").starts_with("total#")
            && output(" explain ").contains(&format!(" Memo cart.rs:{total_line} = 450 reads [")),
        "{}",
        output(" explain ")
    );
    assert!(
        output(" explain ").contains("\n  cart.rs:")
            && !output(" explain ").contains("let total = Memo::new({"),
        "{}",
        output(" explain ")
    );
    assert!(
        output(" replay ")
            .contains("2 set_discount {\"percent\":10} → v2: discount 0→10, total 500→450"),
        "{}",
        output(" replay ")
    );
    assert!(
        output("--example cart && ")
            .ends_with("v2: count=2, subtotal=500, discount=10, total=450, lines=[a]\n"),
        "{}",
        output("--example cart && ")
    );
}

#[test]
fn claude_md_points_to_agents_md() {
    let claude = std::fs::read_to_string(root().join("CLAUDE.md")).expect("CLAUDE.md");
    assert!(claude.contains("[AGENTS.md](AGENTS.md)"), "{claude}");
}

#[test]
fn the_mcp_json_server_answers_initialize() {
    let config: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join(".mcp.json")).expect(".mcp.json"),
    )
    .expect(".mcp.json is JSON");
    let servers = config["mcpServers"].as_object().expect("mcpServers");
    assert!(!servers.is_empty());
    let target = target_dir();
    for (name, server) in servers {
        assert_eq!(server["type"], "stdio", "{name}");
        let program = server["command"].as_str().expect("a command");
        let args: Vec<&str> = server["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|arg| arg.as_str().expect("a string"))
            .collect();
        let mut child = Command::new(program)
            .args(&args)
            .current_dir(root())
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RANVIER_JOURNAL")
            .env_remove("RANVIER_MCP_PROTOCOL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "agents-test", "version": "0"}}});
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{initialize}").expect("written");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, answered) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let Ok(line) = answered.recv_timeout(GUARD) else {
            let _ = child.kill();
            panic!("hang guard: {name} did not answer initialize within {GUARD:?}");
        };
        drop(stdin); // the server ends when its client does
        let (code, _, stderr) = wait(child, name);
        let answer: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("{name} answered {line:?} ({e}); stderr: {stderr}"));
        assert_eq!(
            answer["result"]["serverInfo"]["name"], "ranvier-cart",
            "{answer}"
        );
        assert_eq!(code, Some(0), "{name}: {stderr}");
    }
}
