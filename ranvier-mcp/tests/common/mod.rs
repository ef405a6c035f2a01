//! Shared by the integration tests: the cart example's binary (built once per test binary) and process helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The `ranvier-mcp` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_ranvier-mcp");

/// The cart example's binary, built with cargo on first use (wherever the target dir is).
pub fn cart() -> &'static Path {
    static CART: OnceLock<PathBuf> = OnceLock::new();
    CART.get_or_init(|| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("workspace");
        let output = Command::new(cargo)
            .current_dir(workspace)
            .args([
                "build",
                "--quiet",
                "-p",
                "ranvier-examples",
                "--example",
                "cart",
            ])
            .arg("--message-format=json")
            .output()
            .expect("cargo runs");
        assert!(
            output.status.success(),
            "building the cart example failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
            .find(|message| {
                message["reason"] == "compiler-artifact" && message["target"]["name"] == "cart"
            })
            .and_then(|message| message["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the cart executable")
    })
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ranvier-mcp-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Runs `ranvier-mcp` with `args` and `env`, waiting for it to end.
pub fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .env_remove("RANVIER_JOURNAL")
        .env_remove("RANVIER_MCP_PROTOCOL");
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
