//! The one-binary layout's guard, shared with `ranvier-mcp`'s tests: every file beside a test binary's `main.rs` must
//! be one of its modules, or it is never compiled and its tests silently never run.

use std::path::Path;

/// The modules in `dir` (files `NAME.rs`, folders `NAME/mod.rs`) that `main`, the text of `dir/main.rs`, does not
/// declare with a `mod NAME;` line.
pub fn undeclared_modules(dir: &Path, main: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the test folder is readable") {
        let path = entry.expect("an entry").path();
        let name = if path.is_dir() {
            if !path.join("mod.rs").exists() {
                continue;
            }
            path.file_name().unwrap().to_string_lossy().into_owned()
        } else if path.extension().is_some_and(|e| e == "rs") {
            path.file_stem().unwrap().to_string_lossy().into_owned()
        } else {
            continue;
        };
        if name != "main"
            && !main
                .lines()
                .any(|line| line.trim() == format!("mod {name};"))
        {
            missing.push(name);
        }
    }
    missing.sort();
    missing
}
