//! Compile-fail and pass cases for `#[derive(Messages)]`, `#[expose]` and `#[node]`.
//!
//! Each `tests/ui/*.rs` is compared with the `.stderr` beside it. Refresh after an intended change with
//! `TRYBUILD=overwrite cargo test -p ranvier-ui-tests --test ui`, then read the `git diff`. The snapshots are taken
//! on the stable toolchain CI uses; rustc's own notes drift between versions, the macros' messages do not.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass_*.rs");
    cases.compile_fail("tests/ui/messages_*.rs");
    cases.compile_fail("tests/ui/expose_*.rs");
    cases.compile_fail("tests/ui/node_*.rs");
}
