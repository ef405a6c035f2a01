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

/// The README's count of the cases, `(`ui-tests/tests/ui/`, N compile-fail + M pass)`, is the count of the files.
#[test]
fn the_readme_counts_every_case() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let (mut fail, mut pass) = (0, 0);
    for entry in std::fs::read_dir(&dir).expect("tests/ui") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        if !name.ends_with(".rs") {
            continue;
        }
        if name.starts_with("pass_") {
            pass += 1;
        } else if ["messages_", "expose_", "node_"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
        {
            fail += 1;
        } else {
            panic!("{name}: ui() runs no case of that name; give it a prefix it runs");
        }
    }
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"),
    )
    .expect("the README");
    let expected = format!("(`ui-tests/tests/ui/`, {fail} compile-fail + {pass} pass)");
    assert!(
        readme.contains(&expected),
        "the README should say {expected}, as tests/ui holds"
    );
}
