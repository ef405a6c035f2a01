//! Started where the source cannot be read (another directory, no source root), answers still name the exposed
//! nodes (an exposed node is labelled with its exposed name) and still give every finding its `file:line` (the call
//! sites are recorded when the program runs, not read from the source). The source root and the working directory
//! are global to the process, so the check runs in a process of its own: the test binary started again on just the
//! ignored `in_its_own_process` test.

#[cfg(any(debug_assertions, feature = "trace"))]
use crate::examples::defects;

/// Starts this test binary again, on [`in_its_own_process`] alone, and expects it to pass there.
#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
fn explain_names_nodes_and_lines_without_the_source() {
    let name = concat!(module_path!(), "::in_its_own_process");
    let name = name.split_once("::").map_or(name, |(_, rest)| rest);
    let output = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", name, "--ignored", "--test-threads=1"])
        .output()
        .expect("the test binary starts again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
#[ignore = "moves the process away from the checkout: run by explain_names_nodes_and_lines_without_the_source"]
fn in_its_own_process() {
    let elsewhere = std::env::temp_dir().join("ranvier-names-without-sources");
    std::fs::create_dir_all(&elsewhere).expect("a directory");
    std::env::set_current_dir(&elsewhere).expect("moved away from the checkout");
    ranvier::trace::set_source_root(elsewhere.join("no-source-here"));

    let host = defects::start_defects().expect("the app starts");
    let exposure = host.invoke(|app| app.exposure.clone()).wait().unwrap();
    let messages = defects::reproductions()
        .into_iter()
        .find(|(_, node, _)| *node == "total")
        .unwrap()
        .2;
    let messages: Vec<(String, serde_json::Value)> = messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["message"].as_str().unwrap().to_owned(), m["args"].clone()))
        .collect();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(exposure.dispatch_all_as("test", messages));
    let id = exposure.node("total").unwrap();
    let text = rt
        .block_on(exposure.on_graph(move || ranvier::trace::explain(id).map(|e| e.to_string())))
        .unwrap()
        .unwrap();
    // the exposed nodes by their exposed names, though no `let` binding can be read
    assert!(text.starts_with("total#9 Memo defects.rs:"), "{text}");
    assert!(text.contains("shipping#8:"), "{text}");
    // the comparer's line, from the recorded call site, without its text
    let comparer = include_str!("../../examples/examples/defects.rs")
        .lines()
        .position(|l| l.contains("let rounded_subtotal = Memo::with_comparer("))
        .unwrap()
        + 1;
    assert!(
        text.contains(&format!("\n  at defects.rs:{comparer}")),
        "{text}"
    );
    assert!(
        !text.contains("Memo::with_comparer"),
        "no source text: {text}"
    );
    host.dispose();
}
