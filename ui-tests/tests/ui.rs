//! Compile-fail cases for `#[derive(Messages)]`, `#[expose]`, `#[node]` and `#[trace_fn]` run by trybuild, and the
//! cases that must compile and run, `tests/pass/*.rs`, as modules of this binary (trybuild would build them as a
//! project of its own, with its own code-generated copy of every dependency; with no pass case, it only runs
//! `cargo check`).
//!
//! Each `tests/ui/*.rs` is compared with the `.stderr` beside it. Refresh after an intended change with
//! `TRYBUILD=overwrite cargo test -p ranvier-ui-tests --test ui`, then read the `git diff`.
//!
//! Two kinds of case, checked differently so that a compiler update does not break the suite:
//!
//! - **The macros' own errors** (an unknown attribute, a duplicate name, a bad range, ...): the text and its span are
//!   ours, and rustc only frames them. These run on every toolchain.
//! - **Errors rustc writes about the generated code** ([`RUSTC_NOTES`]: a field type that is not `Serialize`, a
//!   field that is not a node, a node sent to another thread, ...): the snapshot is mostly rustc's own notes ("the
//!   following other types implement trait", "required by a bound in"), dependency paths (`serde_core::...`) and
//!   lines of ranvier's source, all of which move with the compiler and the dependencies. These snapshots are taken
//!   on [`PINNED_RUSTC`], the toolchain CI builds with (the workspace's `rust-version`), and run only there; another
//!   toolchain skips them and says so (`cargo +1.95.0 test -p ranvier-ui-tests` runs them). When CI moves to a new
//!   toolchain, move `PINNED_RUSTC` with it and refresh these snapshots.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "pass/expose.rs"]
mod expose;
#[path = "pass/messages.rs"]
mod messages;
// `let doubled = …; doubled` is the point: `#[node]` labels the node by its binding
#[allow(clippy::let_and_return)]
#[path = "pass/node.rs"]
mod node;
#[path = "pass/trace_fn.rs"]
mod trace_fn;

#[test]
fn expose_derives_for_every_field_kind() {
    expose::run();
}

#[test]
fn messages_decode_shape_and_encode() {
    messages::run();
}

#[test]
fn node_labels_a_fn_and_a_method() {
    node::run();
}

#[test]
fn trace_fn_keeps_a_fns_behaviour() {
    trace_fn::run();
}

/// The toolchain the [`RUSTC_NOTES`] snapshots were taken with.
const PINNED_RUSTC: &str = "1.95.0";

/// The compile-fail cases whose expected output is rustc's notes about the generated code rather than a macro's
/// message.
const RUSTC_NOTES: [&str; 8] = [
    "expose_messages_not_derived",
    "expose_not_a_message_source",
    "expose_not_readable",
    "expose_not_serializable",
    "messages_field_without_schema",
    "messages_range_not_a_number",
    "node_not_a_node",
    "node_not_send",
];

/// The compile-fail cases, sorted: every `tests/ui/*.rs`.
fn compile_fail_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("tests/ui")
        .expect("tests/ui")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    cases.sort();
    cases
}

fn stem(path: &Path) -> &str {
    path.file_stem()
        .and_then(|stem| stem.to_str())
        .unwrap_or_default()
}

/// The version of the rustc that cargo (and so trybuild) builds with, e.g. `1.95.0`.
fn rustc_version() -> Option<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc).arg("--version").output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    text.split_whitespace().nth(1).map(str::to_owned)
}

#[test]
fn ui() {
    let version = rustc_version();
    let pinned = version.as_deref() == Some(PINNED_RUSTC);
    let cases = trybuild::TestCases::new();
    let mut skipped = Vec::new();
    for case in compile_fail_cases() {
        if RUSTC_NOTES.contains(&stem(&case)) && !pinned {
            skipped.push(stem(&case).to_owned());
        } else {
            cases.compile_fail(case);
        }
    }
    if !skipped.is_empty() {
        eprintln!(
            "skipped {} cases whose snapshots quote rustc {PINNED_RUSTC}'s notes (this is rustc {}): {}; run them with \
             `cargo +{PINNED_RUSTC} test -p ranvier-ui-tests`",
            skipped.len(),
            version.as_deref().unwrap_or("of unknown version"),
            skipped.join(", ")
        );
    }
}

/// Keeps the split honest: a case that runs on every toolchain must expect only a macro's message, with none of
/// rustc's notes or paths outside the test, and every case named in [`RUSTC_NOTES`] must exist.
#[test]
fn the_cases_run_on_every_toolchain_expect_only_the_macros_messages() {
    let cases = compile_fail_cases();
    for name in RUSTC_NOTES {
        assert!(
            cases.iter().any(|case| stem(case) == name),
            "RUSTC_NOTES names {name}, which is not a case in tests/ui"
        );
    }
    for case in cases
        .iter()
        .filter(|case| !RUSTC_NOTES.contains(&stem(case)))
    {
        let snapshot = case.with_extension("stderr");
        let expected = std::fs::read_to_string(&snapshot)
            .unwrap_or_else(|error| panic!("{}: {error}", snapshot.display()));
        for line in expected.lines() {
            let rustc_note = line.starts_with("note:")
                || line.starts_with("help:")
                || line.trim_start().starts_with("= note:")
                || line.trim_start().starts_with("= help:")
                || line.contains("$WORKSPACE")
                || line.contains("$RUST")
                || line.contains("$CARGO");
            assert!(
                !rustc_note,
                "{} quotes rustc's notes (`{line}`): add it to RUSTC_NOTES, whose snapshots run on rustc \
                 {PINNED_RUSTC} only",
                case.display()
            );
        }
    }
}

/// The README's count of the cases, `(`ui-tests/tests/ui/`, N compile-fail + M pass)`, is the count of the files, and
/// every case has a prefix naming its macro.
#[test]
fn the_readme_counts_every_case() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let count = |dir: &str| {
        std::fs::read_dir(root.join(dir))
            .expect("a directory of cases")
            .filter_map(|entry| {
                let name = entry.expect("an entry").file_name();
                let name = name.to_string_lossy().into_owned();
                name.ends_with(".rs").then_some(name)
            })
            .collect::<Vec<_>>()
    };
    let fail = count("tests/ui");
    for name in &fail {
        assert!(
            ["messages_", "expose_", "node_", "trace_fn_"]
                .iter()
                .any(|prefix| name.starts_with(prefix)),
            "{name}: give a case the prefix of the macro it checks"
        );
    }
    // the pass cases: the modules of this binary (tests/pass/), and the library's app with ranvier as its only dependency
    let pass = count("tests/pass").len() + 1;
    let readme = std::fs::read_to_string(root.join("../README.md")).expect("the README");
    let expected = format!(
        "(`ui-tests/tests/ui/`, {} compile-fail + {pass} pass)",
        fail.len()
    );
    assert!(
        readme.contains(&expected),
        "the README should say {expected}, as tests/ui and tests/pass hold"
    );
}
