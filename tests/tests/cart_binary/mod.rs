//! The example binaries for tests that run them as processes (the cart, the first app); shared by `ranvier-tests`
//! and `ranvier-mcp`'s tests (included by path).
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The cart example's binary, built with cargo on first use (wherever the target dir is).
pub fn cart_binary() -> &'static Path {
    example_binary("cart")
}

/// The binary of the example `name` in `examples/examples/`, built with cargo on first use (wherever the target
/// dir is) and kept for the test binary's life.
pub fn example_binary(name: &str) -> &'static Path {
    static BUILT: OnceLock<Mutex<HashMap<String, &'static Path>>> = OnceLock::new();
    let mut built = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(path) = built.get(name) {
        return path;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    // `--workspace`, not `-p ranvier-examples`: cargo then resolves the dependencies' features for the whole
    // workspace, as `cargo test --workspace` does, so the example it already built is reused. With `-p`, tokio,
    // hyper, axum, rmcp and ranvier have fewer features and are all compiled a second time, inside the test run.
    let output = Command::new(cargo)
        .current_dir(workspace)
        .args(["build", "--quiet", "--workspace", "--example", name])
        .arg("--message-format=json")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "building the {name} example failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let path = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|message| {
            message["reason"] == "compiler-artifact" && message["target"]["name"] == name
        })
        .and_then(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("cargo names the {name} executable"));
    let path: &'static Path = Box::leak(path.into_boxed_path());
    built.insert(name.to_owned(), path);
    path
}
