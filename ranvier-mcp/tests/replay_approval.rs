//! `ranvier-mcp replay` of a journal holding messages a person answered (the cart started with `--confirm` gates
//! `clear` for approval): a denied message's line is skipped; an approved one runs in a build that does not gate
//! it, and stops the replay in one that does (nobody can answer the approval: the app stops with the replay).

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{cart, result_text, run, scratch, stderr, stdout};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::{Value, json};

/// A hang guard only; nothing here is timed.
const GUARD: Duration = Duration::from_secs(30);

/// The name the journal records as the sender and as who answered.
const PERSON: &str = "approval-test";

#[derive(Clone)]
struct Person(ClientConfig);

impl ClientHandler for Person {
    fn get_info(&self) -> ClientConfig {
        self.0.clone()
    }
}

async fn call(client: &RunningService<RoleClient, Person>, tool: &str, args: Value) -> String {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().expect("an object").clone());
    let result = tokio::time::timeout(GUARD, client.call_tool(params))
        .await
        .expect("hang guard")
        .expect("the call is answered");
    assert_ne!(result.is_error, Some(true), "{tool} {args}: {result:?}");
    result_text(&result)
}

/// The id of the interrupt a paused dispatch names (`interrupt "i-…"`: random, so read, never guessed).
fn interrupt_id(said: &str) -> String {
    let start = said.find("\ninterrupt \"i-").expect("an interrupt") + "\ninterrupt \"".len();
    said[start..start + 34].to_owned()
}

/// Drives the cart started with `--confirm` and `RANVIER_JOURNAL`, answering its approvals as a person would:
/// one `clear` denied, a later one approved; returns the two interrupts' ids.
async fn record(journal: &Path) -> (String, String) {
    let mut command = tokio::process::Command::new(cart());
    command
        .arg("--confirm")
        .env("RANVIER_JOURNAL", journal)
        .env_remove("RANVIER_CART_CONFIRM")
        .env_remove("RANVIER_MCP_PROTOCOL");
    let transport = TokioChildProcess::new(command).expect("the cart starts");
    let person = Person(
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(PERSON, "1.0.0"),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE),
    );
    let client = tokio::time::timeout(GUARD, person.serve(transport))
        .await
        .expect("hang guard")
        .expect("connected to the cart");
    let add = |sku: &str, unit_price: u64, quantity: u64| json!({"message": "add_item", "args": {"sku": sku, "unitPrice": unit_price, "quantity": quantity}});

    call(&client, "dispatch", add("a", 250, 2)).await;
    let paused = call(&client, "dispatch", json!({"message": "clear"})).await;
    let first = interrupt_id(&paused);
    assert!(
        paused.starts_with(&format!(
            "paused at message 1 of 1: clear needs a person's approval and did not run\ninterrupt \"{first}\""
        )),
        "{paused}"
    );
    let denied = call(
        &client,
        "resume",
        json!({"id": first, "approve": false, "reason": "keep the cart"}),
    )
    .await;
    assert!(
        denied.starts_with(&format!(
            "interrupt \"{first}\" denied by \"{PERSON}\" (reason: \"keep the cart\")\n"
        )),
        "{denied}"
    );
    call(
        &client,
        "dispatch",
        json!({"message": "set_discount", "args": {"percent": 10}}),
    )
    .await;
    let paused = call(&client, "dispatch", json!({"message": "clear"})).await;
    let second = interrupt_id(&paused);
    let approved = call(&client, "resume", json!({"id": second, "approve": true})).await;
    assert!(
        approved.starts_with(&format!(
            "interrupt \"{second}\" approved by \"{PERSON}\"\n"
        )),
        "{approved}"
    );
    assert!(
        approved.ends_with("v3: count=0, subtotal=0, discount=0, total=0, lines=[]"),
        "{approved}"
    );
    call(&client, "dispatch", add("b", 100, 1)).await;
    client.cancel().await.expect("the cart stops");
    (first, second)
}

#[test]
fn replay_skips_a_denied_message_and_stops_where_the_app_asks_for_approval() {
    let dir = scratch("replay-approval");
    let journal = dir.join("journal.jsonl");
    let journal_path = journal.to_str().expect("a UTF-8 path");
    let (first, second) = tokio::runtime::Runtime::new()
        .expect("a runtime")
        .block_on(record(&journal));

    // the journal records both answers; the denied clear did not run (no new version)
    let lines: Vec<Value> = std::fs::read_to_string(&journal)
        .expect("the journal was written")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let summary: Vec<(&str, u64, Option<&Value>)> = lines
        .iter()
        .map(|line| {
            (
                line["name"].as_str().unwrap(),
                line["version"].as_u64().unwrap(),
                line.get("approval"),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("add_item", 1, None),
            (
                "clear",
                1,
                Some(
                    &json!({"interrupt": first, "approved": false, "by": PERSON, "reason": "keep the cart"})
                )
            ),
            ("set_discount", 2, None),
            (
                "clear",
                3,
                Some(&json!({"interrupt": second, "approved": true, "by": PERSON}))
            ),
            ("add_item", 4, None),
        ]
    );

    // a build that does not gate clear: the denied line is skipped, the approved one runs
    let cart_path = cart().to_str().expect("a UTF-8 path");
    let replayed = run(
        &["replay", cart_path, journal_path],
        &[("RANVIER_CART_CONFIRM", "0")],
    );
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    assert_eq!(
        stdout(&replayed),
        "1 add_item {\"sku\":\"a\",\"unitPrice\":250,\"quantity\":2} → v1: count 0→2, subtotal 0→500, total 0→500, lines +[a]\n\
         2 set_discount {\"percent\":10} → v2: discount 0→10, total 500→450\n\
         3 clear {} → v3: count 2→0, subtotal 500→0, discount 10→0, total 450→0, lines -[a]\n\
         4 add_item {\"sku\":\"b\",\"unitPrice\":100,\"quantity\":1} → v4: count 0→1, subtotal 0→100, total 0→100, lines +[b]\n\
         v4: count=1, subtotal=100, discount=0, total=100, lines=[b]\n"
    );

    // a build that gates clear pauses at the approved one: nobody can answer (the app stops with the replay), so
    // the replay stopped there, with exit code 1, and says which journal line did not run
    let gated = run(
        &["replay", cart_path, journal_path, "--", "--confirm"],
        &[("RANVIER_CART_CONFIRM", "0")],
    );
    let out = stdout(&gated);
    assert_eq!(gated.status.code(), Some(1), "{out}");
    assert!(
        out.starts_with(
            "1 add_item {\"sku\":\"a\",\"unitPrice\":250,\"quantity\":2} → v1: count 0→2, subtotal 0→500, total 0→500, lines +[a]\n\
             2 set_discount {\"percent\":10} → v2: discount 0→10, total 500→450\n\
             paused at message 3 of 4: clear needs a person's approval and did not run\n"
        ),
        "{out}"
    );
    assert!(!out.contains("→ v3"), "nothing after the pause ran: {out}");
    assert!(
        out.ends_with(&format!(
            "v2: count=2, subtotal=500, discount=10, total=450, lines=[a]\n\
             the replay stopped at message 3 (line 4 of {journal_path}): clear needs a person's approval in this \
             build, and the app stops with the replay, so it cannot be answered; nothing from line 4 on ran\n"
        )),
        "{out}"
    );
}
