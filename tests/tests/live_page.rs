//! The live page's server side (`ranvier::mcp::http::page`), over raw HTTP: served beside `/mcp` with its policy,
//! its event stream, a person's dispatch taking the agent's path (journal, versions, MCP notifications), answers to
//! interrupts, and its guard (CSRF token, the page's own origin, the bearer token and its cookie). The page itself,
//! in a browser, is tested by tests/page/run.sh.

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
    let (_host, server) = serve(false, HttpOptions::new()).await;
    let addr = server.local_addr();
    assert_eq!(server.page_url(), Some(format!("http://{addr}/")));
    let reply = Http::new(addr, "/")
        .send(Method::GET, &[], Vec::new())
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
            .send(Method::GET, &[], Vec::new())
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
    let (_, first) = page(addr, &[]).await;
    let (_, again) = page(addr, &[]).await;
    assert_eq!(first, again);
    assert!(first.bytes().all(|b| b.is_ascii_hexdigit()), "{first}");
    let (_host2, other) = serve(false, HttpOptions::new()).await;
    assert_ne!(page(other.local_addr(), &[]).await.1, first);

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
    let (_, csrf) = page(addr, &[]).await;
    let (status, mut events, stream) =
        open_stream(addr, "/page/events", Method::GET, &[], Vec::new()).await;
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
        &[("x-ranvier-csrf", &csrf)],
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
            .ends_with("v1: count=3, subtotal=90, discount=0, total=90"),
        "{answer}"
    );

    // the publication, then the journal line (the stream sends them in that order)
    let (values, log) = (next(&mut events).await, next(&mut events).await);
    assert_eq!(
        values,
        json!({"version": 1, "changed": {"count": 3, "subtotal": 90, "total": 90}})
    );
    assert_eq!(log["sender"], "person");
    assert_eq!(log["seq"], 1);
    assert_eq!(
        log["line"],
        r#"add_item {"sku":"pear","unitPrice":30,"quantity":3} → v1: count 0→3, subtotal 0→90, total 0→90"#
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
        &[("x-ranvier-csrf", &csrf)],
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
    let (_, csrf) = page(addr, &[]).await;
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
    let (status, mut events, stream) =
        open_stream(addr, "/page/events", Method::GET, &[], Vec::new()).await;
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
        &[("x-ranvier-csrf", &csrf)],
        answer.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let first: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(first["ok"], true, "{first}");
    let (_, text) = post(addr, "/page/answer", &[("x-ranvier-csrf", &csrf)], answer).await;
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
    let (_, csrf) = page(addr, &[]).await;
    let message = json!({"message": "set_discount", "args": {"percent": 50}});
    let own = format!("http://{addr}");
    let other = format!("http://localhost:{}", addr.port());
    for (extra, status, says) in [
        (vec![], StatusCode::FORBIDDEN, "X-Ranvier-Csrf"),
        (
            vec![("x-ranvier-csrf", "0123")],
            StatusCode::FORBIDDEN,
            "X-Ranvier-Csrf",
        ),
        // allowed by the `/mcp` guard (loopback), but not the page's own origin
        (
            vec![
                ("x-ranvier-csrf", csrf.as_str()),
                ("origin", other.as_str()),
            ],
            StatusCode::FORBIDDEN,
            "own origin",
        ),
        (
            vec![
                ("x-ranvier-csrf", csrf.as_str()),
                ("origin", "http://evil.example"),
            ],
            StatusCode::FORBIDDEN,
            "Origin",
        ),
        (
            vec![
                ("x-ranvier-csrf", csrf.as_str()),
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
        &[("x-ranvier-csrf", &csrf), ("origin", &own)],
        json!([1]),
    )
    .await;
    assert_eq!(got, StatusCode::BAD_REQUEST, "{text}");
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).await.unwrap();
    assert_eq!(exposure.version(), 0, "nothing was dispatched");
    let (got, text) = post(
        addr,
        "/page/dispatch",
        &[("x-ranvier-csrf", &csrf), ("origin", &own)],
        message,
    )
    .await;
    assert_eq!(got, StatusCode::OK, "{text}");
    assert_eq!(exposure.version(), 1);
    // reading routes refuse a foreign origin too
    let reply = Http::new(addr, "/page/events")
        .send(Method::GET, &headers(&[("origin", &other)]), Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_token_every_route_wants_it_and_the_link_trades_it_for_a_cookie() {
    let token = "s3cret/+ token";
    let (_host, server) = serve(false, HttpOptions::new().bearer_token(token)).await;
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
    assert!(
        !cookie.contains("s3cret"),
        "the cookie holds the token hex-encoded: {cookie}"
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
