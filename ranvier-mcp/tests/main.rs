//! `ranvier-mcp`'s tests, as one test binary: the commands run as a user runs them (`call`, `replay`, `supervise`,
//! and every command of `AGENTS.md`), against the cart example's binary. Each module is one area; `common` holds what
//! they share. Run one area with `cargo test -p ranvier-mcp --test main supervise::`.

mod common;
#[path = "../../tests/tests/layout/mod.rs"]
mod layout;

mod agents;
mod behaviour;
mod cli;
mod first_app;
mod postmortem;
mod replay_approval;
mod supervise;
mod supervise_script;

/// A file here that is not declared above would never be compiled, and its tests would silently not run.
#[test]
fn every_test_file_is_a_module() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let missing = layout::undeclared_modules(&here, include_str!("main.rs"));
    assert!(
        missing.is_empty(),
        "declare these in ranvier-mcp/tests/main.rs: {missing:?}"
    );
}
