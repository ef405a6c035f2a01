//! Secrets an agent must not see, in both protocol eras and both builds: a value named like a secret, a value marked
//! `#[expose(redact)]` and message arguments named like secrets or marked `#[message(redact)]` never reach a client —
//! not a tool answer (`dispatch`, `snapshot` now and at an earlier version, `diff`, `errors`, and in a traced build
//! `explain`, `graph`, `node`), not a resource, not the journal (in memory or its file), not the live page's feed or
//! its graph and explain routes — and read as the marker `‹redacted›`; `redact = false` opts a secret-looking name
//! out.

use std::time::Duration;

use http_client::{Http, next, open_stream};
use hyper::{Method, StatusCode};
use ranvier::exposure::{Exposure, ExposureHandle, REDACTED};
use ranvier::host::GraphHost;
use ranvier::mcp::http::{HttpOptions, HttpServer};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Memo, Messages, Mvu, expose};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

use crate::client::{call, connect, ok, rejected};
use crate::http_client;

/// The secrets: none of them may appear in anything a client reads.
const PASSWORD: &str = "hunter2-Pw!x";
const PIN: u32 = 91_375;
const CODE: &str = "XC-55731";

#[derive(Clone, Debug, Default, PartialEq)]
struct Account {
    user: String,
    password: String,
    pin: u32,
    note: String,
}

#[derive(Debug, Messages)]
enum Msg {
    /// `password` is redacted by its name.
    Login { user: String, password: String },
    /// `pin` is redacted on request.
    SetPin {
        #[message(redact)]
        pin: u32,
    },
    /// `token_hint` looks like a secret and is not one.
    SetNote {
        #[message(redact = false)]
        token_hint: String,
    },
    /// Needs a person's yes; its prompt names the `password` it sets.
    #[message(confirm = "Reset {user}'s password to {password}?")]
    Reset { user: String, password: String },
    /// Refused, with a reason that quotes the redacted `code`.
    Unlock {
        #[message(redact)]
        code: String,
    },
}

fn update(msg: Msg, account: &Account) -> Result<Account, String> {
    let mut next = account.clone();
    match msg {
        Msg::Login { user, password } | Msg::Reset { user, password } => {
            next.user = user;
            next.password = password;
        }
        Msg::SetPin { pin } => next.pin = pin,
        Msg::SetNote { token_hint } => next.note = token_hint,
        Msg::Unlock { code } => return Err(format!("the code {code} is wrong")),
    }
    Ok(next)
}

#[expose]
struct App {
    #[expose(messages)]
    account: Mvu<Account, Msg>,
    #[expose]
    user: Memo<String>,
    #[expose]
    #[node]
    password: Memo<String>,
    #[expose(redact)]
    #[node]
    pin: Memo<u32>,
    #[expose(redact = false)]
    token_hint: Memo<String>,
}

fn start(journal: &std::path::Path) -> (GraphHost<(App, ExposureHandle)>, ExposureHandle) {
    let journal = journal.to_owned();
    let host = GraphHost::start(move || {
        let account = Mvu::try_new(Account::default(), update);
        let app = App {
            user: account.select(|a| a.user.clone()),
            password: account.select(|a| a.password.clone()),
            pin: account.select(|a| a.pin),
            token_hint: account.select(|a| a.note.clone()),
            account,
        };
        let mut exposure = Exposure::new();
        exposure.journal_file(journal);
        ranvier::Expose::expose(&app, &mut exposure)?;
        let exposure = exposure.start()?;
        Ok::<_, ranvier::exposure::ExposeError>((app, exposure))
    })
    .expect("the app starts");
    let handle = host
        .invoke(|(_, exposure)| exposure.clone())
        .wait()
        .expect("the handle");
    (host, handle)
}

/// Fails naming `what` if `text` holds any of the secrets.
fn clean(what: &str, text: &str) {
    for secret in [PASSWORD, &PIN.to_string(), CODE] {
        assert!(
            !text.contains(secret),
            "{what} holds the secret {secret}: {text}"
        );
    }
}

async fn resource<H: rmcp::ClientHandler>(
    client: &rmcp::service::RunningService<rmcp::RoleClient, H>,
    uri: &str,
) -> String {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .expect("the resource reads");
    match &result.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("unexpected contents {other:?}"),
    }
}

/// The whole text of a tool result, its structured content included.
fn whole(result: &rmcp::model::CallToolResult) -> String {
    serde_json::to_string(result).expect("a result serializes")
}

/// What the page's person opens first: the session cookie the page key trades for.
async fn login(server: &HttpServer) -> String {
    let url = server.page_url().expect("the page is served");
    let target = url.split_once(&server.local_addr().to_string()).unwrap().1;
    let reply = Http::new(server.local_addr(), target)
        .send(Method::GET, &[], Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.text());
    let set = reply.headers["set-cookie"].to_str().unwrap();
    set.split(';').next().unwrap().to_owned()
}

async fn get(server: &HttpServer, cookie: &str, path: &str) -> String {
    let reply = Http::new(server.local_addr(), path)
        .send(
            Method::GET,
            &[("cookie".to_owned(), cookie.to_owned())],
            Vec::new(),
        )
        .await;
    reply.text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_redacted_value_reaches_any_client() {
    let traced = ranvier::trace::TRACED;
    for modern in [false, true] {
        let journal = std::env::temp_dir().join(format!(
            "ranvier-redaction-{}-{modern}-{}.jsonl",
            std::process::id(),
            if traced { "traced" } else { "untraced" }
        ));
        let _ = std::fs::remove_file(&journal);
        let (host, handle) = start(&journal);
        let adapter = McpAdapter::new(handle.clone(), McpAdapterOptions::new("r", "1"));
        let server = HttpServer::bind(adapter.clone(), "127.0.0.1:0", "/mcp", HttpOptions::new())
            .await
            .expect("binds loopback");
        let cookie = login(&server).await;
        let (status, mut feed, stream) = open_stream(
            server.local_addr(),
            "/page/events",
            Method::GET,
            &[("cookie".to_owned(), cookie.clone())],
            Vec::new(),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let mut page = vec![next(&mut feed).await.to_string()];
        let client = connect(&adapter, (), modern).await;
        let mut answers = Vec::new();

        // the secrets go in
        answers.push(
            ok(
                &client,
                "dispatch",
                json!({"messages": [
                    {"message": "login", "args": {"user": "ada", "password": PASSWORD}},
                    {"message": "set_pin", "args": {"pin": PIN}},
                    {"message": "set_note", "args": {"token_hint": "hint-visible"}},
                ]}),
            )
            .await,
        );
        // a rejection that would quote a secret: a decoder's, and a refusal's
        answers.push(
            rejected(
                &client,
                "dispatch",
                json!({"message": "login", "args": {"user": "ada", "password": PIN}}),
            )
            .await,
        );
        let refused = rejected(
            &client,
            "dispatch",
            json!({"message": "unlock", "args": {"code": CODE}}),
        )
        .await;
        assert!(
            refused.contains(&format!("the code {REDACTED} is wrong")),
            "{refused}"
        );
        answers.push(refused);

        // what is shown: the marker for the secrets, the rest as it is
        let snapshot = call(&client, "snapshot", json!({})).await;
        let values = &snapshot.structured_content.as_ref().unwrap()["values"];
        assert_eq!(values["password"], REDACTED);
        assert_eq!(values["pin"], REDACTED);
        assert_eq!(values["user"], "ada");
        assert_eq!(
            values["token_hint"], "hint-visible",
            "redact = false shows it"
        );
        answers.push(whole(&snapshot));
        for version in 0..=handle.version() {
            answers.push(whole(
                &call(&client, "snapshot", json!({"version": version})).await,
            ));
        }
        answers.push(ok(&client, "diff", json!({"from": 0})).await);
        let errors = call(&client, "errors", json!({})).await;
        assert!(whole(&errors).contains(REDACTED), "{}", whole(&errors));
        answers.push(whole(&errors));
        for uri in [
            "ranvier://state",
            "ranvier://state/password",
            "ranvier://state/pin",
            "ranvier://errors",
        ] {
            answers.push(resource(&client, uri).await);
        }
        answers.push(serde_json::to_string(&client.list_all_tools().await.unwrap()).unwrap());
        if traced {
            // the trace holds the model's Debug text, secrets and all: every answer is scrubbed
            for node in ["password", "pin", "account"] {
                let explained = call(
                    &client,
                    "explain",
                    json!({"node": node, "detail": "full", "messages": [
                        {"message": "login", "args": {"user": "bob", "password": PASSWORD}}
                    ]}),
                )
                .await;
                assert_eq!(explained.is_error, Some(false), "{}", whole(&explained));
                answers.push(whole(&explained));
            }
            let password_node =
                call(&client, "node", json!({"node": "password", "around": 2})).await;
            assert!(
                whole(&password_node).contains(REDACTED),
                "{}",
                whole(&password_node)
            );
            answers.push(whole(&password_node));
            answers.push(whole(&call(&client, "graph", json!({})).await));
            let graph = get(&server, &cookie, "/page/graph").await;
            let ids: Vec<u64> = serde_json::from_str::<Value>(&graph).unwrap()["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|node| node["id"].as_u64())
                .collect();
            assert!(!ids.is_empty(), "{graph}");
            for id in ids {
                page.push(get(&server, &cookie, &format!("/page/explain?node={id}")).await);
            }
            page.push(graph);
        }
        for (i, answer) in answers.iter().enumerate() {
            clean(&format!("answer {i} (modern={modern})"), answer);
        }

        // the journal, in memory and in its file: the marker in place of the redacted arguments
        let entries = handle.journal();
        assert_eq!(
            entries[0].args,
            json!({"user": "ada", "password": REDACTED})
        );
        assert_eq!(entries[1].args, json!({"pin": REDACTED}));
        assert_eq!(entries[2].args, json!({"token_hint": "hint-visible"}));
        clean("the journal", &serde_json::to_string(&entries).unwrap());
        let file = std::fs::read_to_string(&journal).expect("the journal file");
        assert!(file.contains(REDACTED), "{file}");
        clean("the journal file", &file);

        // the page's feed as it happened, and a fresh hello
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while !page
            .iter()
            .any(|event| event.contains("hint-visible") && event.contains("\"seq\":3"))
        {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the feed sent no third log line: {page:?}"
            );
            page.push(next(&mut feed).await.to_string());
        }
        while let Ok(Some(event)) =
            tokio::time::timeout(Duration::from_millis(300), feed.recv()).await
        {
            page.push(event.to_string());
        }
        stream.abort();
        let (_, mut again, stream) = open_stream(
            server.local_addr(),
            "/page/events",
            Method::GET,
            &[("cookie".to_owned(), cookie.clone())],
            Vec::new(),
        )
        .await;
        let hello = next(&mut again).await;
        assert_eq!(
            hello["errors"]["errors"].as_array().map(Vec::len),
            Some(1),
            "{hello}"
        );
        page.push(hello.to_string());
        stream.abort();
        for (i, event) in page.iter().enumerate() {
            clean(&format!("page event {i} (modern={modern})"), event);
        }
        assert!(page.iter().any(|event| event.contains(REDACTED)));
        host.dispose();
        let _ = std::fs::remove_file(&journal);
    }
}

/// A secret too short to be noted for scrubbing: hidden by the name it is written after.
const SHORT: &str = "Qz9";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gated_messages_prompt_and_a_short_secret_stay_hidden() {
    let journal = std::env::temp_dir().join(format!(
        "ranvier-redaction-gated-{}-{}.jsonl",
        std::process::id(),
        ranvier::trace::TRACED
    ));
    let _ = std::fs::remove_file(&journal);
    let (host, handle) = start(&journal);
    let adapter = McpAdapter::new(handle.clone(), McpAdapterOptions::new("r", "1"));
    let client = connect(&adapter, (), true).await;
    let mut answers = vec![
        ok(
            &client,
            "dispatch",
            json!({"message": "login", "args": {"user": "ada", "password": SHORT}}),
        )
        .await,
    ];
    // the gated message pauses the sequence; the message after it waits
    let paused = whole(
        &call(
            &client,
            "dispatch",
            json!({"messages": [
                {"message": "reset", "args": {"user": "ada", "password": PASSWORD}},
                {"message": "login", "args": {"user": "bob", "password": PASSWORD}},
            ]}),
        )
        .await,
    );
    let prompt = format!("Reset ada's password to {REDACTED}?");
    assert!(paused.contains(&prompt), "{paused}");
    answers.push(paused);
    let interrupt = handle.interrupts().remove(0);
    assert_eq!(interrupt.prompt, prompt);
    assert_eq!(interrupt.args, json!({"user": "ada", "password": REDACTED}));
    assert_eq!(
        interrupt.not_run,
        [(
            "login".to_owned(),
            json!({"user": "bob", "password": REDACTED})
        )]
    );
    answers.push(format!("{interrupt:?}"));
    answers.push(whole(&call(&client, "snapshot", json!({})).await));
    answers.push(resource(&client, "ranvier://state").await);

    // a yes runs the messages as they were sent
    handle
        .answer(&interrupt.id, true, Some("ok"))
        .await
        .expect("the answer");
    let sent = host
        .invoke(|(app, _)| app.password.peek())
        .wait()
        .expect("the model");
    assert_eq!(sent, PASSWORD, "the real password ran");
    if ranvier::trace::TRACED {
        for node in ["account", "password"] {
            let explained = call(&client, "explain", json!({"node": node, "detail": "full"})).await;
            answers.push(whole(&explained));
        }
        answers.push(whole(&call(&client, "graph", json!({})).await));
    }
    answers.push(serde_json::to_string(&handle.journal()).unwrap());
    answers.push(std::fs::read_to_string(&journal).expect("the journal file"));
    for (i, answer) in answers.iter().enumerate() {
        clean(&format!("answer {i}"), answer);
        assert!(
            !answer.contains(&format!("\"{SHORT}\""))
                && !answer.contains(&format!("\\\"{SHORT}\\\"")),
            "answer {i} holds the short secret: {answer}"
        );
    }
    host.dispose();
    let _ = std::fs::remove_file(&journal);
}

#[test]
fn naming_an_unregistered_value_or_message_is_an_error_that_lists_the_registered_ones() {
    let host = GraphHost::start(|| {
        let mut exposure = Exposure::new();
        exposure.value("total", || 1)?;
        let unknown_value = exposure.redact("totl").err().map(|e| e.to_string());
        let unknown_message = exposure
            .redact_args("login", &["password"])
            .err()
            .map(|e| e.to_string());
        Ok::<_, ranvier::exposure::ExposeError>((unknown_value, unknown_message))
    })
    .expect("the host starts");
    let (value, message) = host.invoke(|answers| answers.clone()).wait().unwrap();
    assert_eq!(
        value.as_deref(),
        Some(
            "cannot redact \"totl\": no value of that name is registered; register it first (registered values: total)"
        )
    );
    assert_eq!(
        message.as_deref(),
        Some(
            "cannot redact \"login\": no message of that name is registered; register it first (no messages are registered yet)"
        )
    );
}

#[test]
fn secret_names_are_recognised_in_any_case() {
    for name in [
        "password",
        "DB_PASSWORD",
        "apiToken",
        "client_secret",
        "api_key",
        "apiKey",
        "credentials",
    ] {
        assert!(ranvier::exposure::is_secret_name(name), "{name}");
    }
    for name in ["total", "discount", "user", "keyboard", "passage"] {
        assert!(!ranvier::exposure::is_secret_name(name), "{name}");
    }
}
