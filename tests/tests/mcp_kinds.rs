//! Node kinds over MCP: an exposed editable's value and dirty flag, and a boundary's fallback and recovered value,
//! in step lines, state lines and resources; in traced builds, `node` and `explain` of the boundary, and the timing
//! of a debounced node in its `node` answer.

use crate::client::{call, ok};
use crate::tool_text::result_text as text;

use std::time::Duration;

use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::timed::{Debounced, TestClock};
use ranvier::{AsyncMemo, Boundary, Editable, Messages, Mvu};
use rmcp::ClientHandler;
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

#[derive(Clone)]
struct Client;

impl ClientHandler for Client {}

/// The model: a name (the editable's seed) and the id of the user the card shows.
#[derive(Clone, Debug, PartialEq)]
struct Model {
    name: String,
    user: u32,
}

/// The messages.
#[derive(Debug, Messages)]
enum Msg {
    /// Renames: the seed of the editable `name`.
    Rename {
        /// The new name.
        name: String,
    },
    /// Shows user `id` (13 has no user: the card recovers).
    Show {
        /// The user's id.
        id: u32,
    },
}

fn update(msg: Msg, model: &Model) -> Model {
    match msg {
        Msg::Rename { name } => Model {
            name,
            ..model.clone()
        },
        Msg::Show { id } => Model {
            user: id,
            ..model.clone()
        },
    }
}

struct App {
    name: Editable<String>,
    /// Kept: a timed node lives as long as a handle does.
    _search: Debounced<String>,
    clock: TestClock,
    exposure: ExposureHandle,
}

/// The app: `name` an editable over the model's name; `card` a boundary over a slow lookup of the user, showing
/// `"…"` while it loads and `"error: …"` when it fails.
fn start() -> GraphHost<App> {
    GraphHost::start(|| {
        let model = Mvu::new(
            Model {
                name: "a".into(),
                user: 1,
            },
            update,
        );
        let seed = model.select(|m| m.name.clone());
        let user = model.select(|m| m.user);
        let clock = TestClock::new();
        let search = Debounced::new(&clock.clock(), Duration::from_millis(50), {
            let seed = seed.clone();
            move || seed.get()
        })
        .labelled("search");
        let name = Editable::new(move |_| seed.get()).labelled("name");
        let lookup = AsyncMemo::try_new(move |_| {
            let id = user.get();
            async move {
                tokio::time::sleep(Duration::from_millis(30)).await;
                if id == 13 {
                    Err(format!("no user \"{id}\""))
                } else {
                    Ok(format!("user {id}"))
                }
            }
        })
        .labelled("lookup");
        let card = Boundary::new(
            "…".to_string(),
            |failure| format!("error: {}", failure.message),
            move || lookup.get().suspend(),
        )
        .labelled("card");
        let mut exposure = Exposure::new();
        exposure.value("name", {
            let name = name.clone();
            move || name.state()
        })?;
        exposure.value("card", {
            let card = card.clone();
            move || card.state()
        })?;
        exposure
            .messages(&model, Msg::decoders())?
            .message_shapes(Msg::shapes())?
            .message_schemas(Msg::schemas())?;
        exposure
            .node("card", &card)?
            .node("name", &name)?
            .node("search", &search)?;
        Ok::<_, ExposeError>(App {
            name,
            _search: search,
            clock,
            exposure: exposure.start()?,
        })
    })
    .expect("the app starts")
}

async fn read(
    client: &rmcp::service::RunningService<rmcp::RoleClient, Client>,
    uri: &str,
) -> Value {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .expect("read");
    match &result.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => {
            serde_json::from_str(text).expect("json")
        }
        other => panic!("unexpected contents {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_editable_and_a_boundary_read_as_value_and_state_in_step_and_state_lines() {
    let host = start();
    let options = McpAdapterOptions::new("kinds", "1").raw_trace_tools(true);
    let adapter = host
        .invoke(move |app| McpAdapter::new(app.exposure.clone(), options))
        .wait()
        .expect("the adapter is built");
    let client = crate::client::connect(&adapter, Client, true).await;

    // The card loads: the fallback with `waiting`, then the user.
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "show", "args": {"id": 2}, "settle": true}),
    )
    .await;
    assert!(answer.contains("\nsettled → v"), "{answer}");
    assert!(
        answer.contains(r#"card "…" (waiting)→"user 2""#),
        "{answer}"
    );
    assert_eq!(
        read(&client, "ranvier://state/card").await["value"],
        json!("user 2")
    );

    // A failed lookup: the recovered value with `caught`, its reason escaped.
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "show", "args": {"id": 13}, "settle": true}),
    )
    .await;
    assert!(
        answer.contains(r#"card "user 2"→"…" (waiting)"#),
        "{answer}"
    );
    assert!(
        answer.contains(r#"card "…" (waiting)→"error: no user \"13\"" (caught: "no user \"13\"")"#),
        "{answer}"
    );
    assert_eq!(
        read(&client, "ranvier://state/card").await["value"],
        json!({"value": "error: no user \"13\"", "caught": "no user \"13\""})
    );

    // An edit in force: the value with `(dirty)`; a seed change drops it.
    host.invoke(|app| app.name.set("ab".into()))
        .wait()
        .expect("edited");
    assert_eq!(
        read(&client, "ranvier://state/name").await["value"],
        json!({"value": "ab", "dirty": true})
    );
    let answer = ok(
        &client,
        "dispatch",
        json!({"message": "rename", "args": {"name": "b"}}),
    )
    .await;
    assert!(answer.contains(r#"name "ab" (dirty)→"b""#), "{answer}");
    assert!(answer.contains(r#"name="b""#), "{answer}");

    if ranvier::trace::TRACED {
        let node = text(&call(&client, "node", json!({"node": "card"})).await);
        assert!(node.contains("(caught: "), "{node}");
        let explained = text(&call(&client, "explain", json!({"node": "card"})).await);
        assert!(explained.contains("card#"), "{explained}");
        // The rename started the debounce of `search`: its node answer says what its timer waits for.
        let node = text(&call(&client, "node", json!({"node": "search"})).await);
        assert!(
            node.contains(r#"timing: search#"#)
                && node.contains(r#"holds "a"; its timer waits to pass "b" at 50 ms on its clock"#),
            "{node}"
        );
        host.invoke(|app| app.clock.advance(Duration::from_millis(50)))
            .wait()
            .expect("advanced");
        let node = text(&call(&client, "node", json!({"node": "search"})).await);
        assert!(
            node.contains(r#"holds "b"; no timer waits"#) && node.contains("last fired at 50 ms"),
            "{node}"
        );
    }
    client.cancel().await.expect("closes");
    host.dispose();
}
