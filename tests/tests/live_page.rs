//! The live page's server side (`ranvier::mcp::http::page`), over raw HTTP: served beside `/mcp` with its policy,
//! its event stream, a person's dispatch taking the agent's path (journal, versions, MCP notifications), answers to
//! interrupts, and its guard (CSRF token, the page's own origin, the page key and its opaque session cookie, the bearer
//! token when the key is off), and issue 27's attacks, one test each. The page itself, in a browser, is tested by
//! tests/page/run.sh.

use crate::examples::cart;
use crate::http_client;

use std::net::SocketAddr;

use http_client::{Era, Http, Session, next, open_stream};
use hyper::{Method, StatusCode};
use ranvier::exposure::Dispatched;
use ranvier::mcp::McpAdapterOptions;
use ranvier::mcp::http::{HttpOptions, HttpServer};
use serde_json::{Value, json};

async fn serve(confirm: bool, options: HttpOptions) -> (cart::CartHost, HttpServer) {
    let host = cart::start_cart_with(confirm).expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("ranvier-cart", "1.0.0"))
        .expect("the adapter is built");
    let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", options)
        .await
        .expect("binds loopback");
    (host, server)
}

fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

/// What a person does first: opens the address the server printed (its `page_url`, the page key in it), and keeps
/// the session cookie it is given (`name=value`).
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

/// The page's HTML and the CSRF token in it.
async fn page(addr: SocketAddr, extra: &[(&str, &str)]) -> (String, String) {
    let reply = Http::new(addr, "/")
        .send(Method::GET, &headers(extra), Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let html = reply.text();
    let at = html
        .find("name=\"ranvier-csrf\" content=\"")
        .expect("the CSRF meta")
        + 29;
    let csrf = html[at..at + 32].to_owned();
    (html, csrf)
}

async fn post(
    addr: SocketAddr,
    path: &str,
    extra: &[(&str, &str)],
    body: Value,
) -> (StatusCode, String) {
    let reply = Http::new(addr, path).post(&headers(extra), &body).await;
    (reply.status, reply.text())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_beside_mcp_with_its_policy() {
    let (_host, server) = serve(false, HttpOptions::new().page_key("k3y/+ &")).await;
    let addr = server.local_addr();
    assert_eq!(
        server.page_url(),
        Some(format!("http://{addr}/?key=k3y%2F%2B%20%26"))
    );
    let cookie = login(&server).await;
    let reply = Http::new(addr, "/")
        .send(Method::GET, &headers(&[("cookie", &cookie)]), Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let policy = reply.headers["content-security-policy"].to_str().unwrap();
    assert!(
        policy.starts_with("default-src 'none'; script-src 'self'"),
        "{policy}"
    );
    assert_eq!(reply.headers["cache-control"], "no-store");
    for (path, kind) in [
        ("/page/app.js", "text/javascript"),
        ("/page/app.css", "text/css"),
    ] {
        let reply = Http::new(addr, path)
            .send(Method::GET, &headers(&[("cookie", &cookie)]), Vec::new())
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert!(
            reply.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with(kind),
            "{path}"
        );
    }
    // two pages of one server share the token; two servers do not
    let (_, first) = page(addr, &[("cookie", &cookie)]).await;
    let second = login(&server).await;
    assert_ne!(second, cookie, "each visit gets a session of its own");
    let (_, again) = page(addr, &[("cookie", &second)]).await;
    assert_eq!(first, again);
    assert!(first.bytes().all(|b| b.is_ascii_hexdigit()), "{first}");
    let (_host2, other) = serve(false, HttpOptions::new()).await;
    let elsewhere = login(&other).await;
    assert_ne!(
        page(other.local_addr(), &[("cookie", &elsewhere)]).await.1,
        first
    );
    assert_ne!(
        elsewhere.split('=').next(),
        cookie.split('=').next(),
        "two servers' cookies have names of their own"
    );

    // the Host check of `/mcp` holds here too
    let reply = Http::new(addr, "/")
        .send(
            Method::GET,
            &headers(&[("host", "evil.example")]),
            Vec::new(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);

    // off: no page, and no URL printed
    let (_host3, bare) = serve(false, HttpOptions::new().page(false)).await;
    assert_eq!(bare.page_url(), None);
    let reply = Http::new(bare.local_addr(), "/")
        .send(Method::GET, &[], Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_dispatch_takes_the_agents_path_and_the_stream_reports_it() {
    let (host, server) = serve(false, HttpOptions::new()).await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let (_, csrf) = page(addr, &[("cookie", &cookie)]).await;
    let (status, mut events, stream) = open_stream(
        addr,
        "/page/events",
        Method::GET,
        &headers(&[("cookie", &cookie)]),
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let hello = next(&mut events).await;
    assert_eq!(hello["version"], 0);
    assert_eq!(hello["values"][0], json!(["count", 0]));
    assert_eq!(hello["messages"][0]["name"], "add_item");
    assert_eq!(
        hello["messages"][0]["schema"]["required"],
        json!(["sku", "unitPrice", "quantity"])
    );
    assert_eq!(hello["sender"], "person");
    // an agent subscribed over MCP
    let mut agent = Session::open(addr, "/mcp", Era::Legacy, "agent").await;
    let (mut updates, subscription) = agent.subscribe("ranvier://state/count").await;

    let (status, text) = post(
        addr,
        "/page/dispatch",
        &[("x-ranvier-csrf", &csrf), ("cookie", &cookie)],
        json!({"message": "add_item", "args": {"sku": "pear", "unitPrice": 30, "quantity": 3}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["ok"], true);
    assert_eq!(answer["version"], 1);
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .ends_with("v1: count=3, subtotal=90, discount=0, total=90, lines=[pear]"),
        "{answer}"
    );

    // the publication, then the journal line (the stream sends them in that order)
    let (values, log) = (next(&mut events).await, next(&mut events).await);
    assert_eq!(
        values,
        json!({"version": 1, "changed": {"count": 3, "subtotal": 90, "total": 90,
            "lines": [{"key": "pear", "unitPrice": 30, "quantity": 3, "total": 90}]}})
    );
    assert_eq!(log["sender"], "person");
    assert_eq!(log["seq"], 1);
    assert_eq!(
        log["line"],
        r#"add_item {"sku":"pear","unitPrice":30,"quantity":3} → v1: count 0→3, subtotal 0→90, total 0→90, lines +[pear]"#
    );
    let notified = next(&mut updates).await;
    assert_eq!(notified["params"]["uri"], "ranvier://state/count");
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    let journal = exposure.journal();
    assert_eq!(
        (journal[0].sender.as_str(), journal[0].version),
        ("person", 1)
    );

    // the decoder's words, and nothing journaled
    let (status, text) = post(
        addr,
        "/page/dispatch",
        &[("x-ranvier-csrf", &csrf), ("cookie", &cookie)],
        json!({"message": "set_discount", "args": {"percent": 101}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["ok"], false);
    assert!(
        answer["text"]
            .as_str()
            .unwrap()
            .starts_with("set_discount rejected its arguments: "),
        "{answer}"
    );
    assert_eq!(exposure.journal().len(), 1);
    stream.abort();
    subscription.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_from_the_page_runs_the_paused_message_once() {
    let (host, server) = serve(true, HttpOptions::new()).await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let (_, csrf) = page(addr, &[("cookie", &cookie)]).await;
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    exposure
        .dispatch_as(
            "agent",
            "add_item",
            json!({"sku": "a", "unitPrice": 5, "quantity": 1}),
        )
        .await
        .unwrap();
    let paused = exposure
        .dispatch_as("agent", "clear", json!({}))
        .await
        .unwrap();
    let Dispatched::AwaitingApproval { interrupt } = paused else {
        panic!("{paused:?}")
    };
    let (status, mut events, stream) = open_stream(
        addr,
        "/page/events",
        Method::GET,
        &headers(&[("cookie", &cookie)]),
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let hello = next(&mut events).await;
    assert_eq!(hello["interrupts"][0]["id"], interrupt.id.as_str());
    assert_eq!(
        hello["interrupts"][0]["prompt"],
        "Empty the cart and drop its discount?"
    );
    assert_eq!(hello["interrupts"][0]["sender"], "agent");
    assert_eq!(hello["log"][0]["sender"], "agent");

    let answer = json!({"id": interrupt.id, "approve": true, "reason": "fine"});
    let (status, text) = post(
        addr,
        "/page/answer",
        &[("x-ranvier-csrf", &csrf), ("cookie", &cookie)],
        answer.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let first: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(first["ok"], true, "{first}");
    let (_, text) = post(
        addr,
        "/page/answer",
        &[("x-ranvier-csrf", &csrf), ("cookie", &cookie)],
        answer,
    )
    .await;
    let second: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(second["ok"], false);
    assert!(
        second["text"]
            .as_str()
            .unwrap()
            .contains("already answered: approved by \"person\""),
        "{second}"
    );
    assert_eq!(exposure.snapshot().get("count"), Some(&json!(0)));
    let clears: Vec<_> = exposure
        .journal()
        .into_iter()
        .filter(|e| e.name == "clear")
        .collect();
    assert_eq!(clears.len(), 1);
    assert_eq!(clears[0].approval.as_ref().unwrap().by, "person");
    // the stream told the page: the answer, then the message's line
    let mut seen = Vec::new();
    while seen.len() < 3 {
        seen.push(next(&mut events).await);
    }
    assert!(
        seen.iter()
            .any(|e| e["event"] == "answered" && e["record"]["by"] == "person"),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|e| e["line"]
            .as_str()
            .is_some_and(|l| l.starts_with("clear {} → v2: count 1→0"))),
        "{seen:?}"
    );
    stream.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_change_needs_the_csrf_token_json_and_the_pages_own_origin() {
    let (host, server) = serve(false, HttpOptions::new()).await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let (_, csrf) = page(addr, &[("cookie", &cookie)]).await;
    let message = json!({"message": "set_discount", "args": {"percent": 50}});
    let own = format!("http://{addr}");
    let other = format!("http://localhost:{}", addr.port());
    for (extra, status, says) in [
        (
            vec![("cookie", cookie.as_str())],
            StatusCode::FORBIDDEN,
            "X-Ranvier-Csrf",
        ),
        (
            vec![("x-ranvier-csrf", "0123"), ("cookie", cookie.as_str())],
            StatusCode::FORBIDDEN,
            "X-Ranvier-Csrf",
        ),
        // allowed by the `/mcp` guard (loopback), but not the page's own origin
        (
            vec![
                ("x-ranvier-csrf", csrf.as_str()),
                ("cookie", cookie.as_str()),
                ("origin", other.as_str()),
            ],
            StatusCode::FORBIDDEN,
            "own origin",
        ),
        (
            vec![
                ("x-ranvier-csrf", csrf.as_str()),
                ("cookie", cookie.as_str()),
                ("origin", "http://evil.example"),
            ],
            StatusCode::FORBIDDEN,
            "Origin",
        ),
        (
            vec![
                ("x-ranvier-csrf", csrf.as_str()),
                ("cookie", cookie.as_str()),
                ("content-type", "text/plain"),
            ],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        ),
    ] {
        let (got, text) = post(addr, "/page/dispatch", &extra, message.clone()).await;
        assert_eq!(got, status, "{extra:?}: {text}");
        assert!(text.contains(says), "{extra:?}: {text}");
    }
    let (got, text) = post(
        addr,
        "/page/dispatch",
        &[
            ("x-ranvier-csrf", &csrf),
            ("origin", &own),
            ("cookie", &cookie),
        ],
        json!([1]),
    )
    .await;
    assert_eq!(got, StatusCode::BAD_REQUEST, "{text}");
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    assert_eq!(exposure.version(), 0, "nothing was dispatched");
    let (got, text) = post(
        addr,
        "/page/dispatch",
        &[
            ("x-ranvier-csrf", &csrf),
            ("origin", &own),
            ("cookie", &cookie),
        ],
        message,
    )
    .await;
    assert_eq!(got, StatusCode::OK, "{text}");
    assert_eq!(exposure.version(), 1);
    // reading routes refuse a foreign origin too
    let reply = Http::new(addr, "/page/events")
        .send(
            Method::GET,
            &headers(&[("origin", &other), ("cookie", &cookie)]),
            Vec::new(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_page_key_a_token_opens_the_page_and_the_link_trades_it_for_an_opaque_cookie() {
    let token = "s3cret/+ token";
    let (_host, server) = serve(
        false,
        HttpOptions::new()
            .bearer_token(token)
            .page_credential(false),
    )
    .await;
    assert_eq!(
        server.page_url(),
        Some(format!("http://{}/", server.local_addr()))
    );
    let addr = server.local_addr();
    for path in [
        "/",
        "/page/app.js",
        "/page/events",
        "/page/graph",
        "/page/explain?node=1",
        "/?token=wrong",
    ] {
        let reply = Http::new(addr, path)
            .send(Method::GET, &[], Vec::new())
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{path}");
        assert!(!reply.text().contains("s3cret"), "{path}");
    }
    let (status, _) = post(
        addr,
        "/page/dispatch",
        &[("x-ranvier-csrf", "x")],
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let link = Http::new(addr, "/?token=s3cret%2F%2B+token")
        .send(Method::GET, &[], Vec::new())
        .await;
    assert_eq!(link.status, StatusCode::SEE_OTHER);
    assert_eq!(link.headers["location"], "/");
    let cookie = link.headers["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cookie.ends_with("; HttpOnly; SameSite=Strict; Path=/"),
        "{cookie}"
    );
    let hex: String = token.bytes().map(|b| format!("{b:02x}")).collect();
    assert!(
        !cookie.contains("s3cret") && !cookie.contains(&hex),
        "the cookie is an opaque session id, neither the token nor its hex: {cookie}"
    );
    let pair = cookie.split(';').next().unwrap().to_owned();
    let (_, csrf) = page(addr, &[("cookie", &pair)]).await;
    let (_, by_header) = page(addr, &[("authorization", &format!("Bearer {token}"))]).await;
    assert_eq!(csrf, by_header);
    let (status, text) = post(
        addr,
        "/page/dispatch",
        &[("x-ranvier-csrf", &csrf), ("cookie", &pair)],
        json!({"message": "set_discount", "args": {"percent": 5}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    // `/mcp` still wants the header: the cookie is the page's
    let reply = Http::new(addr, "/mcp")
        .send(Method::POST, &headers(&[("cookie", &pair)]), b"{}".to_vec())
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
}

// Issue 27: the page is a person. Each test below failed before the page had a credential of its own, bounded
// streams and one body rule.

/// Sends `head` (and `body`) on a new connection and reads until the response's head is complete: its status code
/// and head, and the socket (for more).
async fn raw_head(addr: SocketAddr, request: &[u8]) -> (u16, String, tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    socket.write_all(request).await.expect("writes");
    let mut bytes = Vec::new();
    let mut buf = [0_u8; 4096];
    let read = tokio::time::timeout(GUARD, async {
        while !bytes.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = socket.read(&mut buf).await.expect("reads");
            assert!(n > 0, "the connection closed before a response");
            bytes.extend_from_slice(&buf[..n]);
        }
    });
    read.await.expect("a response head within the hang guard");
    let head = String::from_utf8_lossy(&bytes).into_owned();
    let status = head[9..12].parse().expect("a status code");
    (status, head, socket)
}

/// A hang guard, never a timing assertion: a test that needs longer has failed.
const GUARD: std::time::Duration = std::time::Duration::from_secs(60);

/// Defect 1: a client on this machine that reads the page like a browser (and holds the MCP bearer token, as agents
/// do) cannot see or answer interrupts as the person; the person, with the address the server printed, can.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_holding_the_token_cannot_answer_as_the_person() {
    let token = "agents-hold-this";
    let (host, server) = serve(true, HttpOptions::new().bearer_token(token)).await;
    let addr = server.local_addr();
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    exposure
        .dispatch_as(
            "agent",
            "add_item",
            json!({"sku": "a", "unitPrice": 5, "quantity": 1}),
        )
        .await
        .unwrap();
    let Dispatched::AwaitingApproval { interrupt } = exposure
        .dispatch_as("agent", "clear", json!({}))
        .await
        .unwrap()
    else {
        panic!("clear waits for a person")
    };
    let version = exposure.version();
    let bearer = format!("Bearer {token}");
    let hex: String = token.bytes().map(|b| format!("{b:02x}")).collect();
    let old_cookie = format!("ranvier-token={hex}");
    for extra in [
        vec![],
        vec![("authorization", bearer.as_str())],
        vec![("cookie", old_cookie.as_str())],
    ] {
        for path in [
            "/",
            "/page/events",
            "/page/graph",
            "/page/log?before=9",
            &format!("/?token={token}"),
        ] {
            let reply = Http::new(addr, path)
                .send(Method::GET, &headers(&extra), Vec::new())
                .await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{path} {extra:?}");
            let text = reply.text();
            assert!(
                !text.contains("ranvier-csrf") && !text.contains(&interrupt.id),
                "{path}: {text}"
            );
        }
        let mut post_headers = extra.clone();
        post_headers.push(("x-ranvier-csrf", "guessed"));
        let (status, text) = post(
            addr,
            "/page/answer",
            &post_headers,
            json!({"id": interrupt.id, "approve": true}),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{extra:?}: {text}");
        assert!(text.contains("key"), "says what is wanted: {text}");
        // a made-up id is refused too, and journals nothing
        let (status, _) = post(
            addr,
            "/page/answer",
            &post_headers,
            json!({"id": "i-00000000000000000000000000000000", "approve": true}),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    assert!(
        exposure.interrupts().iter().any(|i| i.id == interrupt.id),
        "still open"
    );
    assert_eq!(exposure.version(), version, "clear did not run");
    // the refusal is journaled, once for the three tries, as no answer: the interrupt is named, nothing ran
    let refused: Vec<_> = exposure
        .journal()
        .into_iter()
        .filter(|e| e.name == "clear")
        .collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    let record = refused[0].approval.clone().expect("an approval record");
    assert!(
        record.refused && !record.approved && !record.expired,
        "{record:?}"
    );
    assert_eq!(record.interrupt, interrupt.id);
    assert_eq!(record.by, ranvier::mcp::http::page::REFUSED_BY);
    assert_eq!(
        (refused[0].version, refused[0].sender.as_str()),
        (version, "agent")
    );
    assert_eq!(
        exposure.journal().len(),
        2,
        "the made-up ids journaled nothing"
    );

    // the person opens the printed address, and answers
    let cookie = login(&server).await;
    let (_, csrf) = page(addr, &[("cookie", &cookie)]).await;
    let (status, text) = post(
        addr,
        "/page/answer",
        &[("x-ranvier-csrf", &csrf), ("cookie", &cookie)],
        json!({"id": interrupt.id, "approve": true}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let clear = exposure
        .journal()
        .into_iter()
        .rfind(|e| e.name == "clear")
        .expect("ran");
    let record = clear.approval.unwrap();
    assert_eq!(
        (record.by.as_str(), record.approved, record.refused),
        ("person", true, false)
    );
    // the page's log tells the refusal from an answer
    let reply = Http::new(addr, "/page/log?before=99")
        .send(Method::GET, &headers(&[("cookie", &cookie)]), Vec::new())
        .await;
    let log: Value = serde_json::from_str(&reply.text()).unwrap();
    let lines: Vec<&Value> = log["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|entry| entry["name"] == "clear")
        .collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert_eq!(lines[0]["approval"]["refused"], true, "{log}");
    let line = lines[0]["line"].as_str().unwrap();
    assert!(
        line.contains("refused") && line.contains("stays open") && !line.contains("denied"),
        "{line}"
    );
    assert_eq!(lines[1]["approval"]["refused"], false, "{log}");
}

/// Defect 2: an MCP client naming itself `person` or `app` is recorded under a name that cannot read as either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_client_named_person_or_app_is_recorded_under_another_name() {
    let (host, server) = serve(false, HttpOptions::new()).await;
    let addr = server.local_addr();
    for (name, recorded) in [
        ("person", "mcp:person"),
        ("App", "mcp:App"),
        (" person ", "mcp:person"),
    ] {
        let mut session = Session::open(addr, "/mcp", Era::Legacy, name).await;
        let result = session
            .call_tool(
                "dispatch",
                json!({"message": "set_discount", "args": {"percent": 5}}),
            )
            .await;
        assert_ne!(result["isError"], true, "{result}");
        let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
        let last = exposure.journal().pop().unwrap();
        assert_eq!(last.sender, recorded, "{name:?}");
    }
}

/// Defect 3: the page's cookie is an opaque session id: it holds neither the page key nor the token, and `/mcp`
/// never takes a cookie for its token.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_cookie_is_an_opaque_session_that_mcp_does_not_take() {
    let token = "t0ken";
    let (_host, server) = serve(
        false,
        HttpOptions::new().bearer_token(token).page_key("the-key"),
    )
    .await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let value = cookie.split_once('=').unwrap().1;
    let hex = |text: &str| -> String { text.bytes().map(|b| format!("{b:02x}")).collect() };
    for secret in [
        token.to_owned(),
        hex(token),
        "the-key".to_owned(),
        hex("the-key"),
    ] {
        assert!(!value.contains(&secret), "{cookie}");
    }
    assert!(value.len() >= 32 && value.bytes().all(|b| b.is_ascii_hexdigit()));
    for cookies in [
        cookie.clone(),
        format!("ranvier-token={}", hex(token)),
        format!("token={token}"),
    ] {
        let reply = Http::new(addr, "/mcp")
            .send(
                Method::POST,
                &headers(&[("cookie", &cookies)]),
                b"{}".to_vec(),
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{cookies}");
    }
    // a made-up session id of the right form opens nothing
    let (name, _) = cookie.split_once('=').unwrap();
    let forged = format!("{name}={}", "0".repeat(value.len()));
    let reply = Http::new(addr, "/page/events")
        .send(Method::GET, &headers(&[("cookie", &forged)]), Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
}

/// Defect 4: a page stream that never reads is dropped once it falls behind (the server ends it), and large values
/// reach the page clipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_that_falls_behind_is_ended_and_large_values_are_clipped() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (host, server) = serve(false, HttpOptions::new()).await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    // a reader with a small window that reads the head and `hello`, then stops reading
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stalled = socket.connect(addr).await.unwrap();
    stalled
        .write_all(
            format!("GET /page/events HTTP/1.1\r\nhost: {addr}\r\ncookie: {cookie}\r\n\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
    let mut received = Vec::new();
    let mut buf = vec![0_u8; 64 * 1024];
    tokio::time::timeout(GUARD, async {
        while !String::from_utf8_lossy(&received).contains("event: hello") {
            let n = stalled.read(&mut buf).await.unwrap();
            assert!(n > 0);
            received.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("hello");
    // quotes double when escaped: 8 KiB of them, in each of many messages
    let sku = "\"".repeat(8 * 1024);
    let sent = 1500;
    for _ in 0..sent {
        exposure
            .dispatch_as(
                "agent",
                "add_item",
                json!({"sku": sku, "unitPrice": 1, "quantity": 1}),
            )
            .await
            .unwrap();
    }
    // now read all of it: the stream ends (the server dropped it) though the server still runs
    tokio::time::timeout(GUARD, async {
        while !received.ends_with(b"\r\n0\r\n\r\n") {
            let n = stalled.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            received.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("the server ends a stream that fell behind");
    let text = String::from_utf8_lossy(&received);
    let logs: Vec<Value> = text
        .split("event: log\ndata: ")
        .skip(1)
        .filter_map(|rest| serde_json::from_str(rest.split('\n').next().unwrap()).ok())
        .collect();
    assert!(
        logs.len() < sent,
        "{} of {sent} reached the page",
        logs.len()
    );
    for log in &logs {
        let args = log["args"].as_str().expect("clipped to its JSON text");
        assert!(
            args.ends_with('…') && args.chars().count() <= 4_000,
            "{}",
            args.len()
        );
    }
    // the page reconnects and starts again from hello
    let (status, mut events, stream) = open_stream(
        addr,
        "/page/events",
        Method::GET,
        &headers(&[("cookie", &cookie)]),
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let hello = next(&mut events).await;
    assert_eq!(hello["lastSeq"], sent as u64);
    let args = hello["log"][0]["args"]
        .as_str()
        .expect("clipped to its JSON text");
    assert!(
        args.ends_with('…') && args.chars().count() <= 4_000,
        "{}",
        args.len()
    );
    let line = hello["log"][0]["line"].as_str().unwrap();
    assert!(line.chars().count() <= 4_000, "{}", line.len());
    stream.abort();
}

/// Defect 5: with a journal of large entries, a stream opens with a bounded window of the newest, and the page
/// pages back with `/page/log?before=<seq>`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_opens_with_a_bounded_window_and_the_page_pages_back() {
    let (host, server) = serve(false, HttpOptions::new()).await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    let sku = "x".repeat(50_000);
    for _ in 0..150 {
        exposure
            .dispatch_as(
                "agent",
                "add_item",
                json!({"sku": sku, "unitPrice": 1, "quantity": 1}),
            )
            .await
            .unwrap();
    }
    let (status, mut events, stream) = open_stream(
        addr,
        "/page/events",
        Method::GET,
        &headers(&[("cookie", &cookie)]),
        Vec::new(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let hello = next(&mut events).await;
    stream.abort();
    let log = hello["log"].as_array().unwrap();
    assert_eq!(log.len(), 100);
    assert_eq!(
        (hello["firstSeq"].as_u64(), hello["lastSeq"].as_u64()),
        (Some(51), Some(150))
    );
    assert_eq!(log[0]["seq"], 51);
    let size = hello.to_string().len();
    assert!(
        size < 1 << 20,
        "hello is {size} bytes; its 100 entries hold 5 MB of arguments"
    );
    // paging back
    let reply = Http::new(addr, "/page/log?before=51")
        .send(Method::GET, &headers(&[("cookie", &cookie)]), Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text());
    let older: Value = serde_json::from_slice(&reply.body).unwrap();
    assert_eq!(older["firstSeq"], 1);
    let seqs: Vec<u64> = older["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=50).collect::<Vec<_>>());
    let reply = Http::new(addr, "/page/log?before=nope")
        .send(Method::GET, &headers(&[("cookie", &cookie)]), Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
}

/// Also: page streams have their own budget, so they cannot make `/mcp` answer 503.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_streams_have_a_budget_of_their_own() {
    let (_host, server) = serve(false, HttpOptions::new().max_page_streams(2)).await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let with_cookie = headers(&[("cookie", &cookie)]);
    let open = || open_stream(addr, "/page/events", Method::GET, &with_cookie, Vec::new());
    // each stream kept open: its events kept (a dropped receiver ends the client's task, and so the stream)
    let (first, _first_events, first_stream) = open().await;
    let (second, _second_events, second_stream) = open().await;
    assert_eq!((first, second), (StatusCode::OK, StatusCode::OK));
    let reply = Http::new(addr, "/page/events")
        .send(Method::GET, &headers(&[("cookie", &cookie)]), Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        reply.text().contains("max_page_streams"),
        "{}",
        reply.text()
    );
    // MCP still answers
    let mut session = Session::open(addr, "/mcp", Era::Legacy, "agent").await;
    let result = session.call_tool("snapshot", json!({})).await;
    assert_ne!(result["isError"], true, "{result}");
    drop(session);
    // a stream that closes gives its slot back
    first_stream.abort();
    tokio::time::timeout(GUARD, async {
        loop {
            let (status, _, stream) = open().await;
            stream.abort();
            if status == StatusCode::OK {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the slot comes back");
    second_stream.abort();
}

/// Also: page routes read bodies by the rule of `/mcp`: `Expect: 100-continue` with a body over the limit gets 413
/// at once, and a key named twice is refused, naming it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_routes_read_bodies_as_mcp_does() {
    let (host, server) = serve(false, HttpOptions::new()).await;
    let addr = server.local_addr();
    let cookie = login(&server).await;
    let (_, csrf) = page(addr, &[("cookie", &cookie)]).await;
    let request = format!(
        "POST /page/dispatch HTTP/1.1\r\nhost: {addr}\r\ncookie: {cookie}\r\nx-ranvier-csrf: {csrf}\r\n\
         content-type: application/json\r\ncontent-length: 8388608\r\nexpect: 100-continue\r\n\r\n"
    );
    let (status, head, _socket) = raw_head(addr, request.as_bytes()).await;
    assert_eq!(status, 413, "413 first, not 100 Continue: {head}");

    let duplicate =
        br#"{"message":"set_discount","message":"clear","args":{"percent":5}}"#.to_vec();
    let reply = Http::new(addr, "/page/dispatch")
        .send(
            Method::POST,
            &headers(&[
                ("cookie", &cookie),
                ("x-ranvier-csrf", &csrf),
                ("content-type", "application/json"),
            ]),
            duplicate,
        )
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text());
    assert!(
        reply.text().contains("duplicate key \"message\""),
        "{}",
        reply.text()
    );
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    assert_eq!(exposure.version(), 0, "nothing was dispatched");
}
