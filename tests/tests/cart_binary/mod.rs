//! The cart example's binary for tests that run it as a process; shared by `ranvier-tests` and `ranvier-mcp`'s tests
//! (included by path).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The cart example's binary, built with cargo on first use (wherever the target dir is).
pub fn cart_binary() -> &'static Path {
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
