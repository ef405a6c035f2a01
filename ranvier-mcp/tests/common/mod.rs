//! Shared by the integration tests: the cart example's binary (built once per test binary) and process helpers.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The `ranvier-mcp` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_ranvier-mcp");

#[path = "../../../tests/tests/cart_binary/mod.rs"]
mod cart_binary;

/// The cart example's binary, built with cargo on first use (wherever the target dir is).
pub use cart_binary::cart_binary as cart;

/// Any example's binary, built with cargo on first use.
#[allow(unused_imports)]
pub use cart_binary::example_binary;

#[path = "../../../tests/tests/tool_text/mod.rs"]
mod tool_text;

/// The text parts of a tool result, one per line (not every test binary calls tools).
#[allow(unused_imports)]
pub use tool_text::result_text;

/// A copy of the cart binary in a fresh scratch directory, for a test that replaces it as a rebuild would.
pub fn watched_cart(name: &str) -> PathBuf {
    let watched = scratch(name).join("cart");
    std::fs::copy(cart(), &watched).expect("the cart is copied");
    watched
}

/// A fresh scratch directory for one test, under cargo's temporary directory for integration tests
/// (`target/tmp`): the next run replaces it and `cargo clean` removes it, so copies of the cart do not pile up in
/// the system's temporary directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("ranvier-mcp-test-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `ranvier-mcp` with `args` and `env`, waiting for it to end.
pub fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    run_in(None, args, env)
}

/// Runs `ranvier-mcp` with `args` and `env` in the directory `dir` (this process's own when `None`).
pub fn run_in(dir: Option<&std::path::Path>, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BIN);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command
        .args(args)
        .env_remove("RANVIER_JOURNAL")
        .env_remove("RANVIER_MCP_PROTOCOL")
        // a supervisor a test kills cannot remove its work directory: keep it under target/tmp too
        .env("TMPDIR", env!("CARGO_TARGET_TMPDIR"));
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("ranvier-mcp runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
