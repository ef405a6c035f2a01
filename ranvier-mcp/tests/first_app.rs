//! The README's "Your first app", kept honest: the README's snippet and the crate docs' are the text of
//! `examples/examples/todos.rs`, and that example, built, is driven over MCP with the README's own `ranvier-mcp`
//! commands, from a directory that is not the project (as MCP clients start servers), where `explain` still quotes
//! its lines.

use crate::common;

use std::path::Path;

use common::{example_binary, run_in, scratch, stderr, stdout};

/// The workspace root.
fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
}

/// The example's text.
fn example() -> String {
    std::fs::read_to_string(workspace().join("examples/examples/todos.rs")).expect("the example")
}

/// The code block of `text` (markdown) whose first line is `first`, without its fences.
fn block_starting(text: &str, first: &str) -> Option<String> {
    let start = text.find(&format!("```rust\n{first}\n"))? + "```rust\n".len();
    let end = text[start..].find("\n```")? + start;
    Some(format!("{}\n", &text[start..end]))
}

const FIRST_LINE: &str =
    "//! Your first ranvier app: a to-do list an agent reads and drives over MCP.";

#[test]
fn the_readme_snippet_is_the_example() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).expect("README.md");
    let snippet =
        block_starting(&readme, FIRST_LINE).expect("README.md holds the first app's main.rs");
    assert_eq!(
        snippet,
        example(),
        "README.md's first app and examples/examples/todos.rs differ"
    );
    let section = readme
        .find("## Your first app")
        .expect("a \"Your first app\" section");
    let code = readme.find(FIRST_LINE).expect("the snippet");
    assert!(
        section < code && readme[section..code].matches("\n## ").count() == 0,
        "the snippet is in the section"
    );
}

#[test]
fn the_crate_docs_snippet_is_the_example() {
    let lib = std::fs::read_to_string(workspace().join("ranvier/src/lib.rs")).expect("lib.rs");
    // the crate docs' text, `//! ` and `//!` taken off each line
    let docs: String = lib
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .map(|line| {
            line.strip_prefix("//! ")
                .unwrap_or(line.trim_start_matches("//!"))
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let docs = docs.replace("```no_run\n", "```rust\n");
    let snippet = block_starting(&docs, FIRST_LINE).expect("lib.rs's docs hold the first app");
    assert_eq!(
        snippet,
        example(),
        "lib.rs's first app and examples/examples/todos.rs differ"
    );
}

/// The 1-based number of the example's line that contains `code`.
fn line_of(code: &str) -> usize {
    example()
        .lines()
        .position(|line| line.contains(code))
        .unwrap_or_else(|| panic!("no line holds {code:?}"))
        + 1
}

#[test]
fn the_first_app_is_driven_over_mcp_from_another_directory() {
    let app = example_binary("todos")
        .to_str()
        .expect("a UTF-8 path")
        .to_owned();
    let elsewhere = scratch("first-app");
    let call = |args: &[&str]| {
        run_in(
            Some(&elsewhere),
            &[&["call", app.as_str()][..], args].concat(),
            &[],
        )
    };

    let added = call(&[
        "dispatch",
        r#"{"messages": [{"message": "add", "args": {"title": "milk"}}, {"message": "done", "args": {"index": 0}}]}"#,
    ]);
    assert_eq!(added.status.code(), Some(0), "{}", stderr(&added));
    let text = stdout(&added);
    // a nested model: each step names the paths that changed inside it, not the whole value
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "1 add {\"title\":\"milk\"} → v1: todos.items[0] (none)→{\"title\":\"milk\",\"done\":false}, left 0→1"
    );
    assert_eq!(
        lines[1],
        "2 done {\"index\":0} → v2: todos.items[0].done false→true, left 1→0"
    );
    assert_eq!(
        lines[2],
        "v2: todos={\"items\":[{\"title\":\"milk\",\"done\":true}]}, left=0"
    );

    // a message update refuses reads like a decoder's rejection: exit code 1, the reason, nothing applied
    let refused = call(&["dispatch", r#"{"message": "done", "args": {"index": 3}}"#]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert_eq!(
        stdout(&refused),
        "done was refused: no to-do at index 3; nothing was applied\n"
    );
    let rejected = call(&[
        "dispatch",
        r#"{"message": "done", "args": {"index": "first"}}"#,
    ]);
    assert_eq!(rejected.status.code(), Some(1), "{}", stderr(&rejected));
    assert!(
        stdout(&rejected).starts_with("done rejected its arguments: "),
        "{}",
        stdout(&rejected)
    );

    // explain quotes the app's own lines though the app runs elsewhere: the crate root the macros recorded
    let explained = call(&[
        "explain",
        r#"{"node": "left", "messages": [{"message": "add", "args": {"title": "milk"}}, {"message": "done", "args": {"index": 0}}]}"#,
    ]);
    assert_eq!(explained.status.code(), Some(0), "{}", stderr(&explained));
    let text = stdout(&explained);
    let left = line_of("let left = todos.select(");
    assert!(
        text.starts_with(&format!("left#2 Memo todos.rs:{left} = 0 reads [todos#1:")),
        "{text}"
    );
    assert!(
        text.contains(&format!("\n  todos.rs:{left}: let left = todos.select(")),
        "{text}"
    );
    let arm = line_of("Msg::Done { index } =>");
    assert!(
        text.contains(&format!("\n  todos.rs:{arm}: Msg::Done {{ index }} =>")),
        "{text}"
    );
    for line in text.lines() {
        assert!(
            !line.trim_end().ends_with(':'),
            "an empty quote line: {line:?} in\n{text}"
        );
    }
}
