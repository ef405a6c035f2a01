//! Behaviour diffs against the cart example's binary: the journal records each step's changes, `replay --check`
//! fails on the first step that differs from them (and old journals without them stay readable), and `compare`
//! replays one journal into two builds and names the first message after which their snapshots differ.

use crate::common;

use common::{cart, run, scratch, stderr, stdout};

fn cart_path() -> &'static str {
    cart().to_str().expect("a UTF-8 path")
}

const SEQUENCE: &str = r#"{"messages": [
    {"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}},
    {"message": "set_discount", "args": {"percent": 10}},
    {"message": "clear", "args": {}},
    {"message": "add_item", "args": {"sku": "b", "unitPrice": 100, "quantity": 1}}]}"#;

/// A journal of [`SEQUENCE`] written by the cart, in `dir`.
fn recorded_journal(dir: &std::path::Path) -> std::path::PathBuf {
    let journal = dir.join("journal.jsonl");
    let made = run(
        &["call", cart_path(), "dispatch", SEQUENCE],
        &[("RANVIER_JOURNAL", journal.to_str().unwrap())],
    );
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    journal
}

/// A "build" of the cart whose `clear` waits for a person's approval: its behaviour differs at `clear`.
fn confirming_cart(dir: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let script = dir.join("confirming-cart");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec '{}' --confirm \"$@\"\n", cart_path()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn replay_check_passes_on_the_same_build_and_fails_on_the_first_changed_step() {
    let dir = scratch("check");
    let journal = recorded_journal(&dir);
    let path = journal.to_str().unwrap();
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&journal)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        first["changes"],
        serde_json::json!([
            ["count", 0, 2],
            ["subtotal", 0, 500],
            ["total", 0, 500],
            ["lines", [], [{"key": "a", "unitPrice": 250, "quantity": 2, "total": 500}]]
        ])
    );

    for era in ["legacy", "modern"] {
        let passed = run(&["replay", "--check", "--era", era, cart_path(), path], &[]);
        assert_eq!(
            passed.status.code(),
            Some(0),
            "{}{}",
            stdout(&passed),
            stderr(&passed)
        );
        assert!(
            stdout(&passed).ends_with("check passed: the 4 recorded steps match\n"),
            "{}",
            stdout(&passed)
        );
    }

    // the journal says set_discount took the total to 400: this build answers 450
    let text = std::fs::read_to_string(&journal).unwrap();
    let tampered = text.replacen("[\"total\",500,450]", "[\"total\",500,400]", 1);
    assert_ne!(tampered, text);
    std::fs::write(&journal, &tampered).unwrap();
    let failed = run(&["replay", "--check", cart_path(), path], &[]);
    assert_eq!(failed.status.code(), Some(1));
    assert_eq!(
        stdout(&failed),
        format!(
            "check failed at message 2 of 4 (line 2 of {path}): set_discount {{\"percent\":10}}\n  \
             recorded: 2 set_discount {{\"percent\":10}} → v2: discount 0→10, total 500→400\n  \
             replayed: 2 set_discount {{\"percent\":10}} → v2: discount 0→10, total 500→450\n"
        )
    );

    // a journal written before steps were recorded is still replayed, but has nothing to check
    let old: Vec<String> = text
        .lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            value.as_object_mut().unwrap().remove("changes");
            value.to_string()
        })
        .collect();
    std::fs::write(&journal, old.join("\n")).unwrap();
    let replayed = run(&["replay", cart_path(), path], &[]);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    let nothing = run(&["replay", "--check", cart_path(), path], &[]);
    assert_eq!(nothing.status.code(), Some(2));
    assert!(
        stderr(&nothing).contains("records no step lines"),
        "{}",
        stderr(&nothing)
    );
}

#[test]
fn compare_names_the_first_message_after_which_two_builds_differ() {
    let dir = scratch("compare");
    let journal = recorded_journal(&dir);
    let path = journal.to_str().unwrap();
    let same = run(&["compare", cart_path(), cart_path(), path], &[]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert_eq!(
        stdout(&same),
        "no difference: both builds answer the same 4 steps → A v4: count=1, subtotal=100, discount=0, total=100, lines=[b], \
         B v4: count=1, subtotal=100, discount=0, total=100, lines=[b]\n"
    );

    let other = confirming_cart(&dir);
    for era in ["legacy", "modern"] {
        let differ = run(
            &[
                "compare",
                "--era",
                era,
                cart_path(),
                other.to_str().unwrap(),
                path,
            ],
            &[],
        );
        assert_eq!(differ.status.code(), Some(1), "{}", stderr(&differ));
        let out = stdout(&differ);
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some(
                format!("the builds differ after message 3 of 4 (line 3 of {path}): clear {{}}")
                    .as_str()
            )
        );
        assert_eq!(
            lines.next(),
            Some(
                "  A: 3 clear {} → v3: count 2→0, subtotal 500→0, discount 10→0, total 450→0, lines -[a]"
            )
        );
        assert_eq!(
            lines.next(),
            Some("  B: no step (the replay answered fewer steps)"),
            "{out}"
        );
        assert_eq!(lines.next(), Some("values after it (A v3, B v2):"), "{out}");
        let values: Vec<&str> = lines.collect();
        assert_eq!(
            values,
            [
                "  count: A 0, B 2",
                "  subtotal: A 0, B 500",
                "  discount: A 0, B 10",
                "  total: A 0, B 450",
                r#"  lines: A [], B [{"key":"a","unitPrice":250,"quantity":2,"total":500}]"#
            ]
        );
    }
}
