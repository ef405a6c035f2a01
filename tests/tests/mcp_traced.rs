//! The traced MCP tools (`explain`, `graph`, `node`, and the raw JSON tools) through an in-process rmcp client, over
//! the planted defects of `examples/examples/defects.rs`: one `explain` call names each defect's line, within the
//! size limits. In an untraced build, none of them is listed and calling one is an unknown-tool error.

use crate::client::try_call;
use crate::examples::defects;
#[cfg(any(debug_assertions, feature = "trace"))]
use crate::tool_text;

use std::time::Duration;

use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;

/// Generous hang guard; nothing here is timed.
const GUARD: Duration = Duration::from_secs(30);

type Client = RunningService<RoleClient, ()>;

async fn connect(adapter: &McpAdapter) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let adapter = adapter.clone();
    tokio::spawn(async move {
        if let Ok(running) = adapter.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    tokio::time::timeout(GUARD, ().serve(client_io))
        .await
        .expect("hang guard")
        .expect("the client connects")
}

fn app(options: McpAdapterOptions) -> (GraphHost<defects::DefectsApp>, McpAdapter) {
    let host = defects::start_defects().expect("the app starts");
    let adapter = defects::defects_adapter(&host, options).expect("the adapter is built");
    (host, adapter)
}

fn options() -> McpAdapterOptions {
    McpAdapterOptions::new("ranvier-defects", "1.0.0")
}

async fn tool_names(client: &Client) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .expect("tools")
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect()
}

#[cfg(not(any(debug_assertions, feature = "trace")))]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untraced_build_lists_no_traced_tool_and_calling_one_is_unknown() {
    let (host, adapter) = app(options().raw_trace_tools(true));
    let client = connect(&adapter).await;
    assert_eq!(
        tool_names(&client).await,
        ["snapshot", "dispatch", "wait_version", "diff", "errors"]
    );
    for tool in [
        "explain",
        "graph",
        "node",
        "trace_state",
        "why",
        "why_not",
        "waiting_on",
        "trace_lookup",
        "history",
        "snapshot_at",
        "dump",
    ] {
        let error = try_call(&client, tool, json!({"node": "total"}))
            .await
            .expect_err(tool);
        assert!(
            error
                .to_string()
                .contains(&format!("unknown tool \\\"{tool}\\\""))
                || error.to_string().contains("unknown tool"),
            "{error}"
        );
    }
    let info = client.peer_info().unwrap();
    assert!(!info.instructions.as_deref().unwrap().contains("explain"));
    host.dispose();
}

#[cfg(any(debug_assertions, feature = "trace"))]
mod traced {
    use super::*;

    use super::tool_text::result_text as text;
    use crate::client::ok;
    use ranvier::exposure::{Exposure, ExposureHandle};
    use ranvier::mcp::{EXPLAIN_MAX_CHARS, GRAPH_MAX_CHARS, NODE_PAGE_MAX_CHARS, STEPS_MAX_CHARS};
    use ranvier::{Memo, Mvu};
    use rmcp::model::CallToolResult;
    use serde_json::Value;

    async fn rejected(client: &Client, name: &str, args: Value) -> String {
        let result = try_call(client, name, args).await.expect("answered");
        assert_eq!(
            result.is_error,
            Some(true),
            "expected a rejection, got {}",
            text(&result)
        );
        text(&result)
    }

    /// `defects.rs:<n>: <text>` for the first line of the example holding `marker`: what `explain` must name.
    /// `defects.rs:<n>` of the first line holding `marker`.
    fn place_of(marker: &str) -> String {
        let line = line_of(marker);
        line.split_once(": ")
            .map_or(line.clone(), |(place, _)| place.to_owned())
    }

    fn line_of(marker: &str) -> String {
        let source = include_str!("../../examples/examples/defects.rs");
        let (index, line) = source
            .lines()
            .enumerate()
            .find(|(_, line)| line.contains(marker))
            .unwrap_or_else(|| panic!("no line holds {marker:?}"));
        format!("defects.rs:{}: {}", index + 1, line.trim())
    }

    fn reproduction(node: &str) -> Value {
        defects::reproductions()
            .into_iter()
            .find(|(_, n, _)| *n == node)
            .expect("a reproduction")
            .2
    }

    /// The part of an explain answer before the dispatched steps (step lines start with their position, or with
    /// `… n steps` when some were left out).
    fn explanation(answer: &str) -> &str {
        let step = answer.match_indices('\n').map(|(i, _)| i).find(|&i| {
            let rest = &answer[i + 1..];
            rest.starts_with('…')
                || rest
                    .split_once(' ')
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        });
        step.map_or(answer, |i| &answer[..i])
    }

    /// Where the faulty line `line` (`defects.rs:<n>: <text>`) first appears after the explanation's node line:
    /// how many characters come before it.
    fn position_after_node_line(answer: &str, line: &str) -> usize {
        let explained = explanation(answer);
        let after = explained.split_once('\n').map_or("", |(_, rest)| rest);
        let at = line.split(": ").next().expect("file:line");
        after
            .find(at)
            .map(|i| after[..i].chars().count())
            .unwrap_or_else(|| panic!("{at} is not named: {answer}"))
    }

    fn assert_sizes(answer: &str, defect: &str) {
        let explained = explanation(answer);
        let size = explained.chars().count();
        let steps = answer.chars().count() - size;
        eprintln!("explain {defect}: {size} characters (+{steps} of dispatched steps)");
        assert!(
            size <= EXPLAIN_MAX_CHARS,
            "{size} > {EXPLAIN_MAX_CHARS}: {answer}"
        );
        assert!(steps <= STEPS_MAX_CHARS + 1, "{steps}: {answer}");
        assert!(explained.lines().count() <= 30, "a few lines: {explained}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_explain_names_the_comparer_that_cut_off_a_real_change() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let answer = ok(
            &client,
            "explain",
            json!({"node": "total", "messages": reproduction("total")}),
        )
        .await;
        assert_sizes(&answer, "total (comparer)");
        // the node line with its own source line and the findings come first, then the dispatched steps
        assert!(answer.starts_with("total#"), "{answer}");
        // the short form counts the messages this call just sent and the version they left, without their
        // arguments or what each changed
        assert!(answer.contains("\ndispatched: 2 messages → v"), "{answer}");
        assert!(!answer.contains("\n1 add_item → v"), "{answer}");
        assert!(!answer.contains("{\"sku\":\"lamp\""), "{answer}");
        let comparer = line_of("let rounded_subtotal = Memo::with_comparer(");
        assert!(
            position_after_node_line(&answer, &comparer) < 600,
            "{answer}"
        );
        // the node line names the line that made it (the line itself only opens its body, so it is not quoted)
        assert!(
            answer.starts_with(&format!(
                "total#9 Memo {} ",
                place_of("let total = Memo::new(")
            )),
            "{answer}"
        );
        // the cutoff is said once: the short form leaves out the `not re-run since:` that would repeat it
        assert!(answer.contains("\ncutoff: rounded_subtotal#"), "{answer}");
        assert!(!answer.contains("\nnot re-run since: total#"), "{answer}");
        assert!(
            answer.contains("\ncutoff: rounded_subtotal#7 kept 1000 #"),
            "{answer}"
        );
        assert!(
            answer.contains(&format!(
                "\n  {}",
                line_of("let rounded_subtotal = Memo::with_comparer(")
            )),
            "{answer}"
        );
        // the subtotal moved to 1250 and the total did not follow
        let snapshot = ok(&client, "snapshot", json!({})).await;
        assert!(
            snapshot.contains("\"subtotal\":1250") && snapshot.contains("\"total\":1400"),
            "{snapshot}"
        );
        // the short form leaves out the cause chain the findings already name lines for; `detail: "full"` gives it
        assert!(!answer.contains("\nwhy: "), "{answer}");
        let brief = ok(&client, "explain", json!({"node": "total"})).await;
        let full = ok(
            &client,
            "explain",
            json!({"node": "total", "detail": "full"}),
        )
        .await;
        assert!(!brief.contains("\nwhy: "), "{brief}");
        assert!(
            full.contains("propagation stopped upstream at a cutoff: rounded_subtotal#"),
            "{full}"
        );
        assert!(full.contains("\nwhy: message add_item"), "{full}");
        assert!(
            brief.lines().all(|l| full.lines().any(|f| f == l)) && full.len() > brief.len(),
            "the long form adds to the short one:\n{brief}\n--\n{full}"
        );
        let bad = rejected(
            &client,
            "explain",
            json!({"node": "total", "detail": "long"}),
        )
        .await;
        assert!(
            bad.contains("\"detail\" must be \"brief\" or \"full\""),
            "{bad}"
        );
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_explain_names_the_peek_that_went_stale() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let answer = ok(
            &client,
            "explain",
            json!({"node": "shipping", "messages": reproduction("shipping")}),
        )
        .await;
        assert_sizes(&answer, "shipping (peek)");
        assert!(
            answer.starts_with("shipping#8 Memo defects.rs:"),
            "{answer}"
        );
        assert!(
            position_after_node_line(&answer, &line_of("heavy.peek()")) < 600,
            "{answer}"
        );
        assert!(
            answer.contains("\nunread: weight#4 = 6000 moved #"),
            "{answer}"
        );
        assert!(
            answer.contains(&format!("\n  {}", line_of("heavy.peek()"))),
            "{answer}"
        );
        host.dispose();
    }

    /// A memo that re-runs inside a dispatched message keeps its untracked reads: only the dispatcher's own read of
    /// the model is left out (the trace used to drop every untracked read made while a message was open).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn untracked_reads_made_inside_a_message_are_kept() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let answer = ok(
            &client,
            "explain",
            json!({"node": "shipping", "messages": [
                {"message": "set_express", "args": {"express": true}},
                {"message": "set_express", "args": {"express": false}},
                {"message": "add_item", "args": {"sku": "anvil", "unitPrice": 900, "quantity": 2, "grams": 3000}}
            ]}),
        )
        .await;
        // shipping re-ran on the second set_express (inside the message) and peeked the weight then
        assert!(
            answer.contains("\nunread: weight#4 = 6000 moved #"),
            "{answer}"
        );
        assert!(
            position_after_node_line(&answer, &line_of("heavy.peek()")) < 600,
            "{answer}"
        );
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_explain_names_the_node_nobody_observes() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let answer = ok(
            &client,
            "explain",
            json!({"node": "points", "messages": reproduction("points")}),
        )
        .await;
        assert_sizes(&answer, "points (unobserved)");
        let node_line = answer
            .lines()
            .find(|l| l.starts_with("points#"))
            .expect("the node line");
        // it still holds the value it had at startup (4 = 400 / 100), though the total is now 3400
        assert!(node_line.ends_with("= 4 reads [total#9:143]"), "{answer}");
        assert!(
            position_after_node_line(&answer, &line_of("let points = Memo::new(")) < 600,
            "{answer}"
        );
        // the line that made it, by its place (its text only opens the body)
        assert!(
            answer.contains(&format!("\n  at {}\n", place_of("let points = Memo::new("))),
            "{answer}"
        );
        assert!(
            answer.contains("was marked dirty by total#9 #")
                && answer.contains(
                    "nothing has read it since (unobserved: a memo re-runs only when read)"
                ),
            "{answer}"
        );
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_explain_names_the_cutoff_upstream() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let answer = ok(
            &client,
            "explain",
            json!({"node": "handling", "messages": reproduction("handling")}),
        )
        .await;
        assert_sizes(&answer, "handling (cutoff upstream)");
        assert!(
            answer.starts_with("handling#11 Memo defects.rs:"),
            "{answer}"
        );
        assert!(
            position_after_node_line(&answer, &line_of("let billable_units = Memo::new(")) < 600,
            "{answer}"
        );
        assert!(
            answer.contains("\ncutoff: billable_units#10 kept 10 #"),
            "{answer}"
        );
        assert!(
            answer.contains(&format!(
                "\n  {}",
                line_of("let billable_units = Memo::new(")
            )),
            "{answer}"
        );
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn earlier_cutoffs_and_comparers_are_named_when_no_cutoff_follows_the_last_run() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        // before any message: no cutoff yet, so the comparer upstream is where a change may stop
        let fresh = ok(&client, "explain", json!({"node": "total"})).await;
        assert_sizes(&fresh, "total (fresh)");
        assert!(
            fresh.contains("\ncomparer: rounded_subtotal#7 Memo defects.rs:"),
            "{fresh}"
        );
        assert!(
            fresh.contains(&format!("\n  {}", line_of("Memo::with_comparer("))),
            "{fresh}"
        );
        assert!(!fresh.contains("cutoff:"), "{fresh}");
        // a cutoff, then a discount that re-runs the total: the cutoff is now before its last run
        let mut messages = reproduction("total");
        messages
            .as_array_mut()
            .unwrap()
            .push(json!({"message": "set_discount", "args": {"percent": 10}}));
        let answer = ok(
            &client,
            "explain",
            json!({"node": "total", "messages": messages}),
        )
        .await;
        assert_sizes(&answer, "total (earlier cutoff)");
        assert!(
            answer.contains("\nearlier cutoff: rounded_subtotal#7 kept 1000 #"),
            "{answer}"
        );
        assert!(
            answer.contains(&format!("\n  {}", line_of("Memo::with_comparer("))),
            "{answer}"
        );
        assert!(!answer.contains("\ncomparer:"), "{answer}");
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn explain_rejects_a_missing_node_before_dispatching_and_a_rejected_message_stops_it() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let miss = rejected(
            &client,
            "explain",
            json!({"node": "totl", "messages": reproduction("total")}),
        )
        .await;
        assert!(
            miss.starts_with("no node matches `totl`: no node has this name"),
            "{miss}"
        );
        assert!(
            miss.ends_with(
                "exposed nodes: subtotal#3, weight#4, shipping#8, total#9, handling#11, points#12"
            ),
            "{miss}"
        );
        assert!(
            ok(&client, "snapshot", json!({}))
                .await
                .starts_with("{\"version\":0,"),
            "nothing was dispatched"
        );
        let missing = rejected(&client, "explain", json!({})).await;
        assert!(missing.starts_with("explain needs \"node\""), "{missing}");
        let unknown = rejected(
            &client,
            "explain",
            json!({"node": "total", "message": "add_item"}),
        )
        .await;
        assert_eq!(
            unknown,
            "explain has no argument \"message\"; its arguments are node, messages, detail, run, settle, settleMs"
        );
        let stopped = rejected(
            &client,
            "explain",
            json!({"node": "total", "messages": [
                {"message": "set_discount", "args": {"percent": 5}},
                {"message": "set_discount", "args": {"percent": 500}}
            ]}),
        )
        .await;
        assert!(
            stopped.starts_with("1 set_discount {\"percent\":5} → v1"),
            "{stopped}"
        );
        assert!(stopped.contains("stopped at message 2 of 2"), "{stopped}");
        assert!(stopped.ends_with("call explain again"), "{stopped}");
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn node_takes_exposed_names_node_names_ids_and_paths() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        for query in [
            "handling",
            "billable_units",
            "#10",
            "billable_units#10",
            "/billable_units",
        ] {
            let answer = ok(&client, "node", json!({"node": query, "around": 0})).await;
            let first = answer.lines().next().unwrap();
            let expected = if query == "handling" {
                "handling#11 Memo defects.rs:"
            } else {
                "billable_units#10 Memo"
            };
            assert!(first.starts_with(expected), "{query}: {answer}");
        }
        let miss = rejected(&client, "node", json!({"node": "#99"})).await;
        assert!(miss.contains("there is no node #99"), "{miss}");
        assert!(
            miss.contains("\nexposed nodes: subtotal#3, weight#4"),
            "{miss}"
        );
        for (args, expected) in [
            (
                json!({"node": "total", "around": 3}),
                "\"around\" must be 0, 1 or 2 hops (default 1), got 3",
            ),
            (
                json!({"node": "total", "detail": "everything"}),
                "\"detail\" must be \"brief\" or \"full\"",
            ),
            (
                json!({"node": "total", "limit": 0}),
                "\"limit\" must be an integer from 1 to 200",
            ),
            (
                json!({"node": "total", "cursor": "later"}),
                "\"cursor\" must be the cursor a previous page ended with",
            ),
            (
                json!({"node": "total", "cursor": "99"}),
                "\"cursor\" 99 is past the last neighbour of total#9",
            ),
        ] {
            let reason = rejected(&client, "node", args.clone()).await;
            assert!(reason.starts_with(expected), "{args}: {reason}");
        }
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn node_shows_sources_and_observers_within_the_hops_asked() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let brief = ok(&client, "node", json!({"node": "handling"})).await;
        let lines: Vec<&str> = brief.lines().collect();
        assert!(
            lines[0].starts_with("handling#11 Memo defects.rs:")
                && lines[0].ends_with("reads [billable_units#10]"),
            "{brief}"
        );
        assert_eq!(
            lines[1],
            format!("  {}", line_of("let handling = Memo::new("))
        );
        assert!(
            lines[2].starts_with("source 1: billable_units#10 Memo defects.rs:"),
            "{brief}"
        );
        assert!(
            lines[3].starts_with("observer 1: ranvier.exposure#13 Effect exposure.rs:"),
            "{brief}"
        );
        assert_eq!(*lines.last().unwrap(), "neighbours 1-2 of 2 within 1 hop");
        let two = ok(&client, "node", json!({"node": "handling", "around": 2})).await;
        assert!(two.contains("\nsource 2: count#2 Memo"), "{two}");
        assert!(two.ends_with("neighbours 1-3 of 3 within 2 hops"), "{two}");
        let none = ok(&client, "node", json!({"node": "handling", "around": 0})).await;
        assert!(
            none.ends_with("\nno sources or observers within 0 hops"),
            "{none}"
        );
        let full = ok(
            &client,
            "node",
            json!({"node": "handling", "detail": "full"}),
        )
        .await;
        assert!(
            full.contains("\n  observers [ranvier.exposure#13]"),
            "{full}"
        );
        assert!(full.contains(" path /handling runs 1"), "{full}");
        assert!(
            full.contains(&format!(
                "\n  {}",
                line_of("let billable_units = Memo::new(")
            )),
            "{full}"
        );
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn graph_counts_exposed_nodes_and_what_the_last_message_moved() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        let before = ok(&client, "graph", json!({})).await;
        assert!(
            before
                .starts_with("1 signal, 11 memos, 1 effect\nexposed:\nsubtotal#3 Memo defects.rs:"),
            "{before}"
        );
        assert!(
            before.contains("\nno message dispatched yet; moved:"),
            "{before}"
        );
        ok(
            &client,
            "dispatch",
            json!({"message": "set_discount", "args": {"percent": 10}}),
        )
        .await;
        let after = ok(&client, "graph", json!({})).await;
        eprintln!("graph: {} characters", after.chars().count());
        assert!(after.chars().count() <= GRAPH_MAX_CHARS);
        assert!(
            after.contains("\nlast message: set_discount {\"percent\":10} #"),
            "{after}"
        );
        let moved: Vec<&str> = after
            .lines()
            .skip_while(|l| !l.starts_with("last message"))
            .skip(1)
            .collect();
        assert!(
            moved.iter().any(|l| l.starts_with("order#1 Signal")),
            "{after}"
        );
        assert!(
            moved
                .iter()
                .any(|l| l.starts_with("discount#5 Memo") && l.contains("= 10")),
            "{after}"
        );
        // with nothing in the order the total re-ran and kept 400: it did not move
        assert!(
            !moved
                .iter()
                .any(|l| l.starts_with("total#") || l.starts_with("handling#")),
            "{after}"
        );
        assert_eq!(moved.len(), 2, "{after}");
        let bad = rejected(&client, "graph", json!({"node": "total"})).await;
        assert_eq!(bad, "graph takes no arguments, got \"node\"");
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn tools_are_listed_in_a_traced_build_with_annotations_and_always_load() {
        let (host, adapter) = app(options());
        let client = connect(&adapter).await;
        assert_eq!(
            tool_names(&client).await,
            [
                "snapshot",
                "dispatch",
                "wait_version",
                "diff",
                "errors",
                "explain",
                "graph",
                "node"
            ]
        );
        let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
        assert!(
            instructions.contains("call `explain {node, messages}` first"),
            "{instructions}"
        );
        assert!(
            instructions.contains("then fix the named line"),
            "{instructions}"
        );
        // raw tools are off by default: an unlisted tool is an unknown tool
        assert!(
            try_call(&client, "why", json!({"node": "total"}))
                .await
                .is_err()
        );
        host.dispose();

        let (host, adapter) = app(options().always_load(true).raw_trace_tools(true));
        let client = connect(&adapter).await;
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "snapshot",
                "dispatch",
                "wait_version",
                "diff",
                "errors",
                "explain",
                "graph",
                "node",
                "trace_state",
                "trace_lookup",
                "why",
                "why_not",
                "waiting_on",
                "history",
                "snapshot_at",
                "dump"
            ]
        );
        for tool in &tools {
            let loaded = tool
                .meta
                .as_ref()
                .and_then(|m| m.get("anthropic/alwaysLoad"))
                .cloned();
            let expected =
                matches!(tool.name.as_ref(), "dispatch" | "explain").then_some(Value::Bool(true));
            assert_eq!(loaded, expected, "{}", tool.name);
            let annotations = tool.annotations.clone().unwrap();
            // `dump` dispatches its `messages` first, as `explain` does
            let writes = matches!(tool.name.as_ref(), "dispatch" | "explain" | "dump");
            assert_eq!(annotations.read_only_hint, Some(!writes), "{}", tool.name);
            assert_eq!(annotations.open_world_hint, Some(false), "{}", tool.name);
        }
        let explain = tools.iter().find(|t| t.name == "explain").unwrap();
        assert_eq!(explain.input_schema["required"], json!(["node"]));
        assert_eq!(
            explain.input_schema["properties"]["messages"]["items"]["properties"]["message"]["enum"],
            json!(["add_item", "set_discount", "set_express"])
        );
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn explain_node_and_the_raw_tools_answer_for_an_earlier_run() {
        let (host, adapter) = app(options().raw_trace_tools(true));
        let client = connect(&adapter).await;
        let _ = ok(
            &client,
            "dispatch",
            json!({"messages": [
                {"message": "add_item", "args": {"sku": "a", "unitPrice": 5, "quantity": 1, "grams": 2}},
                {"message": "add_item", "args": {"sku": "b", "unitPrice": 5, "quantity": 2, "grams": 2}},
                {"message": "add_item", "args": {"sku": "c", "unitPrice": 5, "quantity": 3, "grams": 2}}
            ]}),
        )
        .await;
        let structured = |result: CallToolResult| result.structured_content.expect("structured");
        let history = structured(
            try_call(&client, "history", json!({"node": "handling"}))
                .await
                .unwrap(),
        );
        assert_eq!(history["node"], "handling#11");
        let runs = history["runs"].as_u64().unwrap();
        let entries = history["entries"].as_array().unwrap().clone();
        assert!(runs >= 3 && entries.len() as u64 == runs, "{history}");
        let first = &entries[0];
        let last = &entries[entries.len() - 1];
        assert_eq!(first["run"], 1);
        assert!(
            last["root"]
                .as_str()
                .unwrap()
                .starts_with("message add_item"),
            "{history}"
        );
        let limited = structured(
            try_call(&client, "history", json!({"node": "handling", "limit": 1}))
                .await
                .unwrap(),
        );
        assert_eq!(limited["entries"], json!([last]), "the newest entry");

        // explain for run 1 answers for that run, not the latest
        let answer = ok(&client, "explain", json!({"node": "handling", "run": 1})).await;
        assert!(
            answer.starts_with(&format!(
                "handling#11 run 1 of {runs}: #{}..#{}",
                first["start"], first["end"]
            )),
            "{answer}"
        );
        assert!(
            answer.contains(&format!(" = {}", first["value"].as_str().unwrap())),
            "{answer}"
        );
        assert!(answer.contains("\nwhy handling#11 run 1\n"), "{answer}");
        assert!(answer.chars().count() <= EXPLAIN_MAX_CHARS, "{answer}");
        let latest = ok(&client, "explain", json!({"node": "handling", "run": runs})).await;
        assert_ne!(latest, answer);
        assert!(latest.contains("root: message add_item"), "{latest}");

        // node for a run: the node as it stood at the run's end, and its sources then
        let node = ok(&client, "node", json!({"node": "handling", "run": 1})).await;
        let head = node.lines().next().unwrap();
        assert!(head.starts_with("handling#11 Memo defects.rs:"), "{node}");
        assert!(
            head.contains(&format!("= {}", first["value"].as_str().unwrap())),
            "{node}"
        );
        assert!(node.contains("\n  source billable_units#10 Memo"), "{node}");

        // the graph at the end of run 1
        let end = first["end"].as_u64().unwrap();
        let then = structured(
            try_call(&client, "snapshot_at", json!({"seq": end}))
                .await
                .unwrap(),
        );
        assert_eq!(then["seq"], end);
        let handling = then["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == "handling#11")
            .expect("handling then");
        assert_eq!(handling["value"], first["value"]);
        assert_eq!(handling["runs"], 1);

        // bad input: each error names what was wrong and what was expected
        let err = rejected(
            &client,
            "explain",
            json!({"node": "handling", "run": runs + 1}),
        )
        .await;
        assert!(
            err.contains(&format!(
                "has no run {}: expected a run from 1 to {runs}",
                runs + 1
            )),
            "{err}"
        );
        let err = rejected(&client, "explain", json!({"node": "handling", "run": 0})).await;
        assert!(err.contains("\"run\" must be a run number from 1"), "{err}");
        let err = rejected(&client, "node", json!({"node": "handling", "run": "two"})).await;
        assert!(err.contains("\"run\" must be a run number from 1"), "{err}");
        let err = rejected(
            &client,
            "explain",
            json!({"node": "handling", "run": 1, "messages": []}),
        )
        .await;
        assert!(err.contains("not both"), "{err}");
        let err = rejected(
            &client,
            "node",
            json!({"node": "handling", "run": 1, "around": 2}),
        )
        .await;
        assert!(err.contains("\"around\" does not apply"), "{err}");
        let err = rejected(&client, "explain", json!({"node": "#1", "run": 1})).await;
        assert!(err.contains("a signal is written, not run"), "{err}");
        let err = rejected(&client, "history", json!({"node": "nothing_here"})).await;
        assert!(err.contains("nothing_here"), "{err}");
        let err = rejected(&client, "snapshot_at", json!({"seq": u64::MAX})).await;
        assert!(err.contains("expected a seq from #"), "{err}");
        let err = rejected(&client, "snapshot_at", json!({"seq": 0})).await;
        assert!(
            err.contains("\"seq\" must be an event's sequence number"),
            "{err}"
        );
        let err = rejected(&client, "snapshot_at", json!({})).await;
        assert!(err.contains("snapshot_at needs \"seq\""), "{err}");
        host.dispose();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn raw_tools_answer_json_documents() {
        let (host, adapter) = app(options().raw_trace_tools(true));
        let client = connect(&adapter).await;
        let _ = ok(
            &client,
            "dispatch",
            json!({"messages": reproduction("points")}),
        )
        .await;
        let structured = |result: CallToolResult| result.structured_content.expect("structured");
        let lookup = structured(
            try_call(&client, "trace_lookup", json!({"node": "billable_units"}))
                .await
                .unwrap(),
        );
        assert_eq!(lookup["node"]["name"], "billable_units#10");
        assert_eq!(lookup["node"]["kind"], "Memo");
        assert_eq!(lookup["node"]["value"], "3");
        assert_eq!(lookup["node"]["sources"], json!(["count#2"]));
        assert_eq!(lookup["node"]["observers"], json!(["handling#11"]));
        let why = structured(
            try_call(&client, "why", json!({"node": "handling"}))
                .await
                .unwrap(),
        );
        assert_eq!(why["node"], "handling#11");
        assert!(
            why["root"]
                .as_str()
                .unwrap()
                .starts_with("message add_item"),
            "{why}"
        );
        assert!(
            why["steps"][0]["text"]
                .as_str()
                .unwrap()
                .starts_with("run handling#11 #"),
            "{why}"
        );
        let why_not = structured(
            try_call(&client, "why_not", json!({"node": "points"}))
                .await
                .unwrap(),
        );
        assert_eq!(why_not["reason"], "unobserved");
        let waiting = structured(
            try_call(&client, "waiting_on", json!({"node": "points"}))
                .await
                .unwrap(),
        );
        assert_eq!(waiting["waitingOn"], "read");
        assert!(
            waiting["text"]
                .as_str()
                .unwrap()
                .starts_with("dirty and unread"),
            "{waiting}"
        );
        let current = structured(
            try_call(&client, "waiting_on", json!({"node": "handling"}))
                .await
                .unwrap(),
        );
        assert_eq!(current["waitingOn"], "nothing");
        // trace_state pages through every node exactly once
        let mut cursor: Option<String> = None;
        let mut seen = Vec::new();
        loop {
            let mut args = json!({"limit": 5});
            if let Some(c) = &cursor {
                args["cursor"] = json!(c);
            }
            let page = structured(try_call(&client, "trace_state", args).await.unwrap());
            let nodes = page["nodes"].as_array().unwrap();
            assert!(nodes.len() <= 5);
            seen.extend(nodes.iter().map(|n| n["id"].as_u64().unwrap()));
            match page["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => {
                    assert_eq!(page["total"].as_u64().unwrap() as usize, seen.len());
                    break;
                }
            }
        }
        let mut sorted = seen.clone();
        sorted.dedup();
        assert_eq!(sorted, seen);
        assert!(seen.len() >= 13, "{seen:?}");
        let miss = try_call(&client, "why", json!({"node": "nothing"}))
            .await
            .unwrap();
        assert_eq!(miss.is_error, Some(true));
        assert!(text(&miss).contains("exposed nodes: "));
        host.dispose();
    }

    /// A model read by 300 memos, all summed by one (`sum`, exposed as a value and a node), with its message `add
    /// {n}`; the trace's ring holds `ring` events when given.
    fn summed_model(ring: Option<usize>) -> (GraphHost<ExposureHandle>, McpAdapter) {
        let host = GraphHost::start(move || {
            if let Some(events) = ring {
                ranvier::trace::set_capacity(events);
            }
            let model = Mvu::new(0_i64, |add: i64, n: &i64| {
                n + add // the update arm
            });
            let parts: Vec<Memo<i64>> = (0..300).map(|i| model.select(move |n| n + i)).collect();
            let sum = Memo::new(move |_| parts.iter().map(Memo::get).sum::<i64>());
            let mut exposure = Exposure::new();
            exposure.value("sum", {
                let sum = sum.clone();
                move || sum.get()
            })?;
            let decoders: Vec<(String, ranvier::exposure::Decoder<i64>)> = vec![(
                "add".into(),
                Box::new(|args: &Value| args["n"].as_i64().ok_or("n".into())),
            )];
            exposure.messages(&model, decoders)?;
            exposure.node("sum", &sum)?;
            exposure.start()
        })
        .expect("starts");
        let adapter = host
            .invoke(|h| McpAdapter::new(h.clone(), McpAdapterOptions::new("summed", "0")))
            .wait()
            .unwrap();
        (host, adapter)
    }

    /// One message moving more nodes than the trace's ring holds (256 events, 300 memos): over MCP, `explain` still
    /// names the message, its `update` arm and what was dropped, and `graph` names the last message instead of
    /// saying none was dispatched.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn answers_past_the_ring_name_the_message_and_what_was_dropped() {
        let (_host, adapter) = summed_model(Some(256));
        let client = connect(&adapter).await;
        ok(
            &client,
            "dispatch",
            json!({"message": "add", "args": {"n": 7}}),
        )
        .await;
        let explain = ok(&client, "explain", json!({"node": "sum"})).await;
        let full = ok(&client, "explain", json!({"node": "sum", "detail": "full"})).await;
        assert!(full.contains("reaches past the ring"), "{full}");
        assert!(full.contains("events of message add"), "{full}");
        let arm = include_str!("mcp_traced.rs")
            .lines()
            .position(|l| l.trim() == "n + add // the update arm")
            .map(|at| format!("mcp_traced.rs:{}", at + 1))
            .expect("the arm's line");
        assert!(
            explain.contains("\nupdate: message add #") && explain.contains(&arm),
            "the update finding and its arm {arm}: {explain}"
        );
        let graph = ok(&client, "graph", json!({})).await;
        assert!(!graph.contains("no message dispatched yet"), "{graph}");
        assert!(graph.contains("add"), "{graph}");
    }

    /// A graph far bigger than the answers' limits: a model read by 300 memos, all summed by one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn big_graphs_stay_within_the_limits_and_page() {
        let (host, adapter) = summed_model(None);
        let client = connect(&adapter).await;
        let explain = ok(
            &client,
            "explain",
            json!({"node": "sum", "messages": [{"message": "add", "args": {"n": 1}}]}),
        )
        .await;
        eprintln!(
            "explain sum (300 sources): {} characters",
            explain.chars().count()
        );
        assert!(
            explain.chars().count() <= EXPLAIN_MAX_CHARS + STEPS_MAX_CHARS + 1,
            "{explain}"
        );
        assert!(explain.contains("… 288 more]"), "{explain}");
        let graph = ok(&client, "graph", json!({})).await;
        eprintln!("graph (300 moved): {} characters", graph.chars().count());
        assert!(graph.chars().count() <= GRAPH_MAX_CHARS, "{graph}");
        assert!(
            graph.ends_with("more lines; ask `node` about one"),
            "{graph}"
        );
        let mut cursor = None::<String>;
        let mut listed = 0;
        let mut pages = 0;
        loop {
            let mut args = json!({"node": "sum", "limit": 200, "detail": "full"});
            if let Some(c) = &cursor {
                args["cursor"] = json!(c);
            }
            let page = ok(&client, "node", args).await;
            pages += 1;
            assert!(
                page.chars().count() <= NODE_PAGE_MAX_CHARS,
                "{} > {NODE_PAGE_MAX_CHARS}",
                page.chars().count()
            );
            listed += page
                .lines()
                .filter(|l| l.starts_with("source ") || l.starts_with("observer "))
                .count();
            let last = page.lines().last().unwrap();
            match last.split_once("next page: cursor \"") {
                Some((_, rest)) => cursor = Some(rest.trim_end_matches('"').to_owned()),
                None => {
                    assert!(last.ends_with("of 301 within 1 hop"), "{last}");
                    break;
                }
            }
        }
        eprintln!("node sum detail=full: {pages} pages");
        assert_eq!(listed, 301, "300 sources and one observer, each once");
        assert!(pages > 2);
        host.dispose();
    }
}
