//! Forks over MCP, in both protocol eras: `fork` makes a sandbox copy of the running cart, `dispatch {fork}` runs
//! messages there with the same step lines, `diff {fork}` compares it with the live cart, `dispatch {dryRun: true}`
//! forks, runs and drops in one call, `conversation` keeps one fork per conversation; forks are bounded in number,
//! dropped on request, when idle and when their session ends, and nothing a fork does reaches the live app, its
//! journal or its subscribers.

use std::time::Duration;

use crate::client::{CALL_GUARD, ok, rejected};
use crate::examples::cart;

use ranvier::host::GraphHost;
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use ranvier::{Messages, Mvu, expose};
use rmcp::RoleClient;
use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientLifecycleMode, RunningService, serve_client_with_lifecycle};
use serde_json::{Value, json};

const ADD: &str =
    r#"{"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 1}}"#;

fn add() -> Value {
    serde_json::from_str(ADD).unwrap()
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base[key] = value;
    base
}

/// A client of `adapter` over ranvier's own line transport ([`ranvier::mcp::serve_lines`]), so the session has a
/// name and ends when the client goes.
async fn connect_lines(adapter: &McpAdapter, modern: bool) -> RunningService<RoleClient, ()> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(ranvier::mcp::serve_lines(adapter.clone(), read, write));
    let lifecycle = if modern {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    tokio::time::timeout(
        CALL_GUARD,
        serve_client_with_lifecycle((), client_io, lifecycle),
    )
    .await
    .expect("hang guard")
    .expect("the client connects")
}

/// The fork id in a `fork` answer's first line (`made fork "f-…" at live vN: …`).
fn fork_id(answer: &str) -> String {
    let quoted = answer.split('"').nth(1).expect("a quoted fork id");
    assert!(quoted.starts_with("f-"), "{answer}");
    quoted.to_owned()
}

fn cart_adapter(options: McpAdapterOptions) -> (cart::CartHost, McpAdapter) {
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, options).expect("the adapter");
    (host, adapter)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_runs_messages_with_step_lines_and_the_live_app_never_sees_them() {
    for modern in [false, true] {
        let (_host, adapter) = cart_adapter(McpAdapterOptions::new("c", "1"));
        let client = connect_lines(&adapter, modern).await;
        let live = adapter.handle().clone();
        ok(&client, "dispatch", add()).await;
        let mut publications = live.publications();
        let mut journaled = live.journal_events();

        let made = ok(&client, "fork", json!({})).await;
        assert!(
            made.starts_with("made fork \"f-") && made.contains(" at live v1: v1: count=1,"),
            "{made}"
        );
        let id = fork_id(&made);
        let twice = with(
            json!({"messages": [add(), add()]}),
            "fork",
            Value::from(id.clone()),
        );
        let on_fork = ok(&client, "dispatch", twice).await;
        let mut lines = on_fork.lines();
        assert_eq!(
            lines.next(),
            Some(format!("on fork \"{id}\" made at live v1 (the live app is unchanged):").as_str())
        );
        // the same step lines the live app answers, versions continuing from the fork's base
        assert_eq!(
            lines.next(),
            Some(
                r#"1 add_item {"sku":"a","unitPrice":250,"quantity":1} → v2: count 1→2, subtotal 250→500, total 250→500, lines[a].quantity 1→2, lines[a].total 250→500"#
            ),
            "{on_fork}"
        );
        assert!(lines.next().unwrap().starts_with("2 add_item"), "{on_fork}");
        assert_eq!(
            lines.next(),
            Some("v3: count=3, subtotal=750, discount=0, total=750, lines=[a]")
        );

        // the live app: same version, same journal, no publication, no journal event
        assert_eq!(live.version(), 1);
        assert_eq!(live.journal().len(), 1);
        assert!(publications.try_next().is_none(), "modern={modern}");
        assert!(
            tokio::time::timeout(Duration::from_millis(50), journaled.next())
                .await
                .is_err()
        );
        let now = ok(&client, "snapshot", json!({})).await;
        assert!(now.starts_with("{\"version\":1,"), "{now}");
        let forked = ok(&client, "snapshot", json!({"fork": id})).await;
        assert!(forked.starts_with("{\"version\":3,"), "{forked}");

        let diff = ok(&client, "diff", json!({"fork": id})).await;
        let mut lines = diff.lines();
        assert_eq!(
            lines.next(),
            Some(
                format!("live v1 → fork \"{id}\" v3: count 1→3, subtotal 250→750, total 250→750, lines[a].quantity 1→3, lines[a].total 250→750")
                    .as_str()
            ),
            "{diff}"
        );
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("v2 add_item {\"sku\":\"a\""),
            "{diff}"
        );

        let dropped = ok(&client, "drop_fork", json!({"fork": id})).await;
        assert_eq!(dropped, format!("dropped fork \"{id}\""));
        assert_eq!(adapter.fork_count(), 0);
        let gone = rejected(
            &client,
            "dispatch",
            with(add(), "fork", Value::from(id.clone())),
        )
        .await;
        assert_eq!(
            gone,
            format!("fork \"{id}\" was dropped (dropped on request); make a new one with fork")
        );
        let unknown = rejected(&client, "snapshot", json!({"fork": "f-nope"})).await;
        assert_eq!(
            unknown,
            "no fork \"f-nope\": this session has none (fork makes one)"
        );
        let bad = rejected(&client, "dispatch", with(add(), "fork", json!(7))).await;
        assert!(
            bad.starts_with("\"fork\" must be a fork's id, a string"),
            "{bad}"
        );
        client.cancel().await.ok();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dry_run_forks_runs_answers_and_drops_in_one_call() {
    for modern in [false, true] {
        let (_host, adapter) = cart_adapter(McpAdapterOptions::new("c", "1"));
        let client = connect_lines(&adapter, modern).await;
        ok(&client, "dispatch", add()).await;
        let tried = ok(
            &client,
            "dispatch",
            json!({"dryRun": true, "message": "set_discount", "args": {"percent": 10}}),
        )
        .await;
        assert_eq!(
            tried,
            "dry run on a fork of live v1 (dropped now; the live app is unchanged):\n\
             1 set_discount {\"percent\":10} → v2: discount 0→10, total 250→225\n\
             v2: count=1, subtotal=250, discount=10, total=225, lines=[a]"
        );
        assert_eq!(adapter.fork_count(), 0);
        assert_eq!(adapter.handle().version(), 1);
        // the live app answers the same step line when the message is sent for real
        let real = ok(
            &client,
            "dispatch",
            json!({"message": "set_discount", "args": {"percent": 10}}),
        )
        .await;
        assert_eq!(real, tried.split_once('\n').unwrap().1);
        // a refusal on the dry run is a refusal, and still leaves the live app alone
        let refused = rejected(
            &client,
            "dispatch",
            json!({"dryRun": true, "message": "set_discount", "args": {"percent": 150}}),
        )
        .await;
        assert!(
            refused.starts_with("dry run on a fork of live v2"),
            "{refused}"
        );
        let both = rejected(
            &client,
            "dispatch",
            with(with(add(), "dryRun", json!(true)), "fork", json!("f-1")),
        )
        .await;
        assert!(both.starts_with("dryRun makes a fork of its own"), "{both}");
        let not_bool = rejected(&client, "dispatch", with(add(), "dryRun", json!("yes"))).await;
        assert!(
            not_bool.starts_with("\"dryRun\" must be true or false"),
            "{not_bool}"
        );
        assert_eq!(adapter.handle().version(), 2);
        client.cancel().await.ok();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_keeps_its_fork_across_calls_and_sessions() {
    for modern in [false, true] {
        let (_host, adapter) = cart_adapter(McpAdapterOptions::new("c", "1"));
        let first = connect_lines(&adapter, modern).await;
        let conversation = |name: &str| with(add(), "conversation", Value::from(name));
        let one = ok(&first, "dispatch", conversation("c-1")).await;
        assert!(one.starts_with("on new fork \"f-"), "{one}");
        assert!(
            one.contains(" of conversation \"c-1\" made at live v0"),
            "{one}"
        );
        assert!(one.contains("→ v1: count 0→1"), "{one}");
        // another session naming the conversation reaches the same fork
        let second = connect_lines(&adapter, modern).await;
        let two = ok(&second, "dispatch", conversation("c-1")).await;
        assert!(two.starts_with("on fork \"f-"), "{two}");
        assert!(two.contains("→ v2: count 1→2"), "{two}");
        assert_eq!(fork_id(&one), fork_id(&two));
        let reuse = ok(&second, "fork", json!({"conversation": "c-1"})).await;
        assert!(reuse.starts_with("reusing fork \""), "{reuse}");
        assert_eq!(fork_id(&reuse), fork_id(&one));
        // another conversation has its own
        let other = ok(&first, "dispatch", conversation("c-2")).await;
        assert_ne!(fork_id(&other), fork_id(&one));
        assert_eq!(adapter.fork_count(), 2);
        assert_eq!(adapter.handle().version(), 0);
        // a session's end does not drop a conversation's fork; drop_fork does
        first.cancel().await.ok();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(adapter.fork_count(), 2);
        let dropped = ok(&second, "drop_fork", json!({"conversation": "c-1"})).await;
        assert!(
            dropped.starts_with("dropped fork \"f-")
                && dropped.ends_with(" of conversation \"c-1\""),
            "{dropped}"
        );
        let long = "x".repeat(129);
        let bad = rejected(&second, "dispatch", conversation(&long)).await;
        assert!(
            bad.starts_with("\"conversation\" must be a conversation's id"),
            "{bad}"
        );
        assert_eq!(adapter.fork_count(), 1);
        second.cancel().await.ok();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forks_are_bounded_private_to_their_session_and_dropped_when_it_ends() {
    for modern in [false, true] {
        let (_host, adapter) = cart_adapter(McpAdapterOptions::new("c", "1").max_forks(2));
        let mine = connect_lines(&adapter, modern).await;
        let a = fork_id(&ok(&mine, "fork", json!({})).await);
        let _b = fork_id(&ok(&mine, "fork", json!({})).await);
        let full = rejected(&mine, "fork", json!({})).await;
        assert!(
            full.starts_with(
                "at most 2 forks live at once on this server, and 2 do: drop one with drop_fork"
            ),
            "{full}"
        );
        // another session neither sees nor reaches them
        let theirs = connect_lines(&adapter, modern).await;
        let hidden = rejected(&theirs, "snapshot", json!({"fork": a})).await;
        assert_eq!(
            hidden,
            format!("no fork \"{a}\": this session has none (fork makes one)")
        );
        ok(&mine, "drop_fork", json!({"fork": a})).await;
        let _c = fork_id(&ok(&mine, "fork", json!({})).await);
        assert_eq!(adapter.fork_count(), 2);
        // the session ends: its forks go
        mine.cancel().await.ok();
        let deadline = tokio::time::Instant::now() + CALL_GUARD;
        while adapter.fork_count() > 0 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the forks outlived their session"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        theirs.cancel().await.ok();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_fork_is_dropped_after_the_timeout() {
    for modern in [false, true] {
        let options = McpAdapterOptions::new("c", "1").fork_idle_timeout(Duration::from_millis(40));
        let (_host, adapter) = cart_adapter(options);
        let client = connect_lines(&adapter, modern).await;
        let id = fork_id(&ok(&client, "fork", json!({})).await);
        // the idle timer drops it without any call
        let deadline = tokio::time::Instant::now() + CALL_GUARD;
        while adapter.fork_count() > 0 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the idle fork was kept"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let gone = rejected(
            &client,
            "dispatch",
            with(add(), "fork", Value::from(id.clone())),
        )
        .await;
        assert_eq!(
            gone,
            format!(
                "fork \"{id}\" was dropped (idle for more than 40 ms); make a new one with fork"
            )
        );
        client.cancel().await.ok();
    }
}

#[derive(Debug, Messages)]
enum Msg {
    /// Adds one.
    Increment,
}

#[expose]
struct Counter {
    #[expose(messages, value)]
    count: Mvu<u64, Msg>,
}

fn counter() -> Counter {
    Counter {
        count: Mvu::new(0, |Msg::Increment, count| count + 1),
    }
}

#[test]
fn a_fork_writes_nothing_to_the_live_journal_file() {
    use ranvier::Expose as _;
    use ranvier::exposure::fork::{self, ForkOptions};
    use ranvier::exposure::{ExposeError, Exposure};
    let dir = std::env::temp_dir().join(format!("ranvier-fork-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("journal.jsonl");
    let _ = std::fs::remove_file(&path);
    let host = GraphHost::start({
        let path = path.clone();
        move || {
            let app = counter();
            let mut exposure = Exposure::new();
            app.expose(&mut exposure)?;
            exposure.journal_file(path).forks(counter);
            Ok::<_, ExposeError>((app, exposure.start()?))
        }
    })
    .unwrap();
    let live = host.invoke(|(_, handle)| handle.clone()).wait().unwrap();
    ranvier::host::block_on(live.dispatch("increment", json!({}))).unwrap();
    let fork = ranvier::host::block_on(live.fork(ForkOptions::default())).unwrap();
    let on_graph = fork
        .handle()
        .on_graph(|| (fork::is_fork(), fork::allows_outside_io()));
    assert_eq!(on_graph.wait().unwrap(), (true, false));
    assert!(!fork::is_fork());
    for _ in 0..3 {
        ranvier::host::block_on(fork.handle().dispatch("increment", json!({}))).unwrap();
    }
    assert_eq!(fork.handle().snapshot().get("count"), Some(&json!(4)));
    assert_eq!(fork.handle().journal().len(), 3);
    let lines = std::fs::read_to_string(&path).unwrap();
    assert_eq!(lines.lines().count(), 1, "{lines}");
    assert_eq!(live.snapshot().get("count"), Some(&json!(1)));
    let opted_in =
        ranvier::host::block_on(live.fork(ForkOptions::default().outside_io(true))).unwrap();
    assert!(
        opted_in
            .handle()
            .on_graph(fork::allows_outside_io)
            .wait()
            .unwrap()
    );
}

#[test]
fn an_app_without_a_fork_setup_says_how_to_get_one() {
    use ranvier::Expose as _;
    use ranvier::exposure::fork::{ForkError, ForkOptions};
    use ranvier::exposure::{ExposeError, Exposure};
    let host = GraphHost::start(|| {
        let app = counter();
        let mut exposure = Exposure::new();
        app.expose(&mut exposure)?;
        Ok::<_, ExposeError>((app, exposure.start()?))
    })
    .unwrap();
    let live = host.invoke(|(_, handle)| handle.clone()).wait().unwrap();
    assert!(!live.forkable());
    let error = ranvier::host::block_on(live.fork(ForkOptions::default())).unwrap_err();
    assert_eq!(error, ForkError::NotForkable);
    assert!(
        error.to_string().contains("Exposure::forks(build)"),
        "{error}"
    );
    let adapter = host
        .invoke(|(_, handle)| McpAdapter::new(handle.clone(), McpAdapterOptions::new("n", "1")))
        .wait()
        .unwrap();
    use rmcp::ServerHandler as _;
    assert!(adapter.get_tool("fork").is_none());
    assert!(adapter.get_tool("dispatch").is_some());
}

/// Waits until `adapter` holds `count` forks, failing with `why` after the call guard.
async fn forks_become(adapter: &McpAdapter, count: usize, why: &str) {
    let deadline = tokio::time::Instant::now() + CALL_GUARD;
    while adapter.fork_count() != count {
        assert!(tokio::time::Instant::now() < deadline, "{why}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_sessions_forks_end_with_it_deleted_or_idle() {
    use crate::http_client::{Era, Session, text};
    use axum::http::Method;
    use ranvier::mcp::http::{HttpOptions, HttpServer};

    let (_host, adapter) = cart_adapter(McpAdapterOptions::new("c", "1"));
    let options = HttpOptions::new().session_idle_timeout(Duration::from_millis(300));
    let server = HttpServer::bind(adapter.clone(), "127.0.0.1:0", "/mcp", options)
        .await
        .expect("binds loopback");
    let addr = server.local_addr();

    // a session's forks outlive none of its requests, and a conversation's fork outlives the session
    let mut deleted = Session::open(addr, "/mcp", Era::Legacy, "deleted").await;
    let made = deleted.call_tool("fork", json!({})).await;
    assert_eq!(made["isError"], json!(false), "{made}");
    let talk = deleted
        .call_tool("dispatch", with(add(), "conversation", json!("talk")))
        .await;
    assert_eq!(talk["isError"], json!(false), "{talk}");
    assert_eq!(adapter.fork_count(), 2);
    let mut headers = deleted.headers_for(&json!({}));
    headers.retain(|(n, _)| n != "content-type");
    let reply = deleted
        .http
        .send(Method::DELETE, &headers, Vec::new())
        .await;
    assert_eq!(reply.status, axum::http::StatusCode::OK);
    forks_become(&adapter, 1, "the deleted session's fork was kept").await;

    // a session idle past its keep-alive ends, and its fork with it, with no other request to the server
    let mut idle = Session::open(addr, "/mcp", Era::Legacy, "idle").await;
    let made = idle.call_tool("fork", json!({})).await;
    assert_eq!(made["isError"], json!(false), "{}", text(&made));
    assert_eq!(adapter.fork_count(), 2);
    forks_become(&adapter, 1, "the idle session's fork was kept").await;
    // the conversation's fork is still reachable from a new session
    let mut later = Session::open(addr, "/mcp", Era::Legacy, "later").await;
    let snapshot = later
        .call_tool("snapshot", json!({"conversation": "talk"}))
        .await;
    assert_eq!(snapshot["isError"], json!(false), "{}", text(&snapshot));
    server.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gated_message_runs_at_once_on_a_fork_and_the_answer_says_so() {
    let host = cart::start_cart_with(true).expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("c", "1")).expect("the adapter");
    let live = adapter.handle().clone();
    let client = connect_lines(&adapter, true).await;
    ok(&client, "dispatch", add()).await;
    let clear = json!({"message": "clear", "args": {}});
    for (target, value) in [("dryRun", json!(true)), ("conversation", json!("c-1"))] {
        let answer = ok(&client, "dispatch", with(clear.clone(), target, value)).await;
        assert!(
            answer.contains(
                "\nclear would wait for a person's approval on the live app; a fork reaches nothing outside, so \
                 here it runs without asking\n"
            ),
            "{answer}"
        );
        assert!(!answer.contains("interrupt \""), "{answer}");
    }
    // the fork ran it: its lines are gone; the live app neither ran it nor opened an interrupt
    let forked = ok(&client, "snapshot", json!({"conversation": "c-1"})).await;
    assert!(forked.contains(r#""count":0"#), "{forked}");
    assert!(live.interrupts().is_empty());
    assert_eq!(live.snapshot().get("count"), Some(&json!(1)));
    // a message that needs nobody's approval gets no note
    let plain = ok(&client, "dispatch", with(add(), "dryRun", json!(true))).await;
    assert!(!plain.contains("approval"), "{plain}");
    client.cancel().await.ok();
}

/// A shop registered by hand (no `#[expose]`): placing an order sends a `Ship` command; shipping posts to an outbox
/// outside the process, but only where outside I/O is allowed; `settled` follows the shipped count a little late on
/// tokio's timers.
mod by_hand {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use ranvier::exposure::fork::allows_outside_io;
    use ranvier::exposure::{DecodeError, ExposeError, Exposure};
    use ranvier::timed::{Clock, Debounced};
    use ranvier::{EffectOn, Mvu};

    #[derive(Debug)]
    pub enum Order {
        Place,
        Ship,
    }

    /// What left the process: one line per shipment, with the shipped count it was posted at.
    pub type Outbox = Arc<Mutex<Vec<String>>>;

    pub struct Shop {
        pub orders: Mvu<(u32, u32), Order>,
        pub settled: Debounced<u32>,
        _post: EffectOn<u32>,
    }

    pub const SETTLE: Duration = Duration::from_millis(30);

    pub fn build(outbox: &Outbox) -> Shop {
        let orders =
            Mvu::with_commands(((0, 0), vec![]), |order, &(placed, shipped)| match order {
                Order::Place => ((placed + 1, shipped), vec![Order::Ship]),
                Order::Ship => ((placed, shipped + 1), vec![]),
            });
        let shipped = orders.select(|&(_, shipped)| shipped);
        let settled = Debounced::new(&Clock::tokio(), SETTLE, {
            let shipped = shipped.clone();
            move || shipped.get()
        });
        let outbox = outbox.clone();
        let post = EffectOn::new(
            move || shipped.get(),
            move |&shipped, previous| {
                if previous.is_some() && allows_outside_io() {
                    outbox.lock().unwrap().push(format!("shipped {shipped}"));
                }
            },
        );
        Shop {
            orders,
            settled,
            _post: post,
        }
    }

    /// Registers the shop as the live app and a fork's setup both do: the message source, its model for forks, and
    /// the values.
    pub fn register(shop: &Shop, exposure: &mut Exposure) -> Result<(), ExposeError> {
        let place: ranvier::Decoder<Order> = Box::new(|_| Ok::<_, DecodeError>(Order::Place));
        exposure.messages(&shop.orders, vec![("place".to_owned(), place)])?;
        exposure.fork_model(&shop.orders);
        let orders = shop.orders.clone();
        exposure.value("placed", move || orders.with_model(|&(placed, _)| placed))?;
        let orders = shop.orders.clone();
        exposure.value("shipped", move || {
            orders.with_model(|&(_, shipped)| shipped)
        })?;
        let settled = shop.settled.clone();
        exposure.value("settled", move || settled.get())?;
        Ok(())
    }
}

/// An app registered by hand forks with `fork_with` and `fork_model`; on the fork, the `update`'s commands run
/// against the fork's model, its timers fire on the fork's own nodes, and an effect that reaches outside the
/// process does not post unless the fork was made with `outside_io(true)`. The live app sees none of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_registered_forks_commands_and_timers_run_on_the_fork_and_outside_io_waits_for_opt_in()
 {
    use by_hand::{Outbox, SETTLE, Shop, build, register};
    use ranvier::exposure::fork::ForkOptions;
    use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};

    let outbox = Outbox::default();
    let host = GraphHost::start({
        let outbox = outbox.clone();
        move || {
            let shop = build(&outbox);
            let mut exposure = Exposure::new();
            register(&shop, &mut exposure)?;
            let for_forks = outbox.clone();
            exposure.fork_with(move |exposure| {
                let shop = build(&for_forks);
                register(&shop, exposure)?;
                Ok(Box::new(shop) as Box<dyn std::any::Any>)
            });
            Ok::<(Shop, ExposureHandle), ExposeError>((shop, exposure.start()?))
        }
    })
    .unwrap();
    let live = host.invoke(|(_, handle)| handle.clone()).await.unwrap();
    assert!(live.forkable());
    live.dispatch("place", json!({})).await.unwrap();
    let settled = |handle: &ExposureHandle| handle.snapshot().get("settled").cloned();
    let until_settled = async |handle: &ExposureHandle, value: u32| {
        let deadline = tokio::time::Instant::now() + CALL_GUARD;
        while settled(handle) != Some(json!(value)) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "settled never reached {value}: {:?}",
                handle.snapshot()
            );
            tokio::time::sleep(SETTLE / 3).await;
        }
    };
    until_settled(&live, 1).await;
    assert_eq!(*outbox.lock().unwrap(), ["shipped 1"], "the live app posts");
    let live_version = live.version();

    // A fork starts from the live models: one placed, one shipped (the model, not a replay of the journal).
    let fork = live.fork(ForkOptions::default()).await.unwrap();
    let values = fork.handle().snapshot();
    assert_eq!(
        (values.get("placed"), values.get("shipped")),
        (Some(&json!(1)), Some(&json!(1)))
    );
    for _ in 0..2 {
        fork.handle().dispatch("place", json!({})).await.unwrap();
    }
    let values = fork.handle().snapshot();
    assert_eq!(
        (values.get("placed"), values.get("shipped")),
        (Some(&json!(3)), Some(&json!(3))),
        "the Ship commands ran against the fork's model"
    );
    until_settled(fork.handle(), 3).await;
    assert_eq!(
        *outbox.lock().unwrap(),
        ["shipped 1"],
        "a fork posts nothing outside unless it opts in"
    );
    let live_values = live.snapshot();
    assert_eq!(
        (live.version(), live_values.get("shipped"), settled(&live)),
        (live_version, Some(&json!(1)), Some(json!(1))),
        "the live app saw nothing of the fork"
    );
    assert_eq!(live.journal().len(), 1);
    fork.dispose();

    let opted_in = live
        .fork(ForkOptions::default().outside_io(true))
        .await
        .unwrap();
    opted_in
        .handle()
        .dispatch("place", json!({}))
        .await
        .unwrap();
    until_settled(opted_in.handle(), 2).await;
    assert_eq!(
        *outbox.lock().unwrap(),
        ["shipped 1", "shipped 2"],
        "an opted-in fork posts"
    );
    opted_in.dispose();
}
