//! Streamable HTTP beside stdio: both eras over raw HTTP, the guard (Host, Origin, token, body limit, malformed JSON),
//! mounting in an existing axum app, and one adapter serving stdio and HTTP at once.

use crate::examples::cart;
use crate::http_client;

use std::net::SocketAddr;

use http_client::{Era, GUARD, Http, Session, next, text};
use hyper::{Method, StatusCode};
use ranvier::mcp::http::{HttpError, HttpOptions, HttpServer, McpHttpService};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

fn cart() -> (cart::CartHost, McpAdapter) {
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("ranvier-cart", "1.0.0"))
        .expect("the adapter is built");
    (host, adapter)
}

async fn serve(adapter: &McpAdapter, options: HttpOptions) -> HttpServer {
    HttpServer::bind(adapter.clone(), "127.0.0.1:0", "/mcp", options)
        .await
        .expect("binds loopback")
}

fn add(sku: &str, quantity: u64) -> Value {
    json!({"message": "add_item", "args": {"sku": sku, "unitPrice": 100, "quantity": quantity}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_era_over_http_tools_resources_and_notifications() {
    let (host, adapter) = cart();
    let server = serve(&adapter, HttpOptions::new()).await;
    assert!(server.local_addr().ip().is_loopback());
    assert_eq!(server.url(), format!("http://{}/mcp", server.local_addr()));
    let mut session = Session::open(server.local_addr(), "/mcp", Era::Legacy, "legacy-http").await;
    assert!(session.session_id.is_some());

    let tools = session.request("tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    // a traced build also lists the trace tools (tests/tests/mcp_traced.rs)
    let traced: &[&str] = if ranvier::trace::TRACED {
        &["explain", "graph", "node"]
    } else {
        &[]
    };
    assert_eq!(
        names,
        [
            &[
                "snapshot",
                "dispatch",
                "wait_version",
                "diff",
                "errors",
                "fork",
                "drop_fork"
            ][..],
            traced
        ]
        .concat()
    );

    let (mut updates, stream) = session.subscribe("ranvier://state/count").await;
    let result = session.call_tool("dispatch", add("a", 2)).await;
    assert_eq!(result["isError"], json!(false));
    assert!(
        text(&result).ends_with("v1: count=2, subtotal=200, discount=0, total=200, lines=[a]"),
        "{}",
        text(&result)
    );
    let notification = next(&mut updates).await;
    assert_eq!(notification["method"], "notifications/resources/updated");
    assert_eq!(notification["params"]["uri"], "ranvier://state/count");

    let read = session
        .request("resources/read", json!({"uri": "ranvier://state/count"}))
        .await;
    assert_eq!(
        read["result"]["contents"][0]["text"],
        json!(r#"{"version":1,"value":2}"#)
    );
    // a rejection is a tool result, not an HTTP failure
    let rejected = session
        .call_tool("dispatch", json!({"message": "nope"}))
        .await;
    assert_eq!(rejected["isError"], json!(true));
    assert!(text(&rejected).starts_with("unknown message \"nope\""));

    // DELETE ends the session; the id is then unknown
    let mut headers = session.headers_for(&json!({}));
    headers.retain(|(n, _)| n != "content-type");
    let reply = session
        .http
        .send(Method::DELETE, &headers, Vec::new())
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let gone = session
        .post_message(&json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list"}))
        .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    stream.abort();
    server.shutdown();
    tokio::time::timeout(GUARD, server.wait())
        .await
        .expect("hang guard: the server stops")
        .expect("clean stop");
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_era_over_http_tools_and_listen() {
    let (host, adapter) = cart();
    let server = serve(&adapter, HttpOptions::new()).await;
    let mut session = Session::open(server.local_addr(), "/mcp", Era::Modern, "modern-http").await;
    let discover = session.request("server/discover", json!({})).await;
    assert!(
        discover["result"]["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28")),
        "{discover}"
    );
    let (mut events, stream) = session
        .listen(&["ranvier://state", "ranvier://state/discount"])
        .await;
    let ack = next(&mut events).await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["notifications"]["resourceSubscriptions"],
        json!(["ranvier://state", "ranvier://state/discount"])
    );
    let result = session
        .call_tool(
            "dispatch",
            json!({"message": "set_discount", "args": {"percent": 10}}),
        )
        .await;
    assert_eq!(result["isError"], json!(false), "{result}");
    let mut uris = Vec::new();
    while uris.len() < 2 {
        let event = next(&mut events).await;
        assert_eq!(
            event["method"], "notifications/resources/updated",
            "{event}"
        );
        assert!(
            event["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number(),
            "{event}"
        );
        uris.push(event["params"]["uri"].as_str().unwrap().to_owned());
    }
    assert_eq!(uris, ["ranvier://state", "ranvier://state/discount"]);
    // an unknown method is -32601 (HTTP 404 in the 2026 era)
    let message = session.with_meta(json!({"jsonrpc": "2.0", "id": 50, "method": "nope/nothing"}));
    let reply = session.post_message(&message).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.messages()[0]["error"]["code"], json!(-32601));
    stream.abort();
    host.dispose();
}

/// A legacy initialize with extra headers, answered as a whole reply.
async fn initialize_with(addr: SocketAddr, headers: &[(&str, &str)]) -> http_client::Reply {
    let headers: Vec<(String, String)> = headers
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect();
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}
    });
    Http::new(addr, "/mcp").post(&headers, &init).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_and_origin_are_checked() {
    let (host, adapter) = cart();
    let server = serve(&adapter, HttpOptions::new()).await;
    let addr = server.local_addr();
    let port = addr.port().to_string();
    assert_eq!(initialize_with(addr, &[]).await.status, StatusCode::OK);
    assert_eq!(
        initialize_with(addr, &[("host", &format!("localhost:{port}"))])
            .await
            .status,
        StatusCode::OK
    );
    let rebinding = initialize_with(addr, &[("host", &format!("evil.example:{port}"))]).await;
    assert_eq!(rebinding.status, StatusCode::FORBIDDEN);
    assert!(rebinding.text().contains("Host"), "{}", rebinding.text());
    let cross = initialize_with(addr, &[("origin", "https://evil.example")]).await;
    assert_eq!(cross.status, StatusCode::FORBIDDEN);
    assert!(cross.text().contains("Origin"), "{}", cross.text());
    assert_eq!(
        initialize_with(addr, &[("origin", "http://localhost:5173")])
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        initialize_with(addr, &[("origin", "null")]).await.status,
        StatusCode::FORBIDDEN
    );
    // a configured origin is accepted, other ports of it are not
    let custom = serve(
        &adapter,
        HttpOptions::new().allow_origin("https://inspector.example:8443"),
    )
    .await;
    let custom_addr = custom.local_addr();
    assert_eq!(
        initialize_with(custom_addr, &[("origin", "https://inspector.example:8443")])
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        initialize_with(custom_addr, &[("origin", "https://inspector.example:9000")])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bearer_token_is_required_when_set_and_401_says_nothing() {
    let (host, adapter) = cart();
    let server = serve(&adapter, HttpOptions::new().bearer_token("s3cret-token")).await;
    let addr = server.local_addr();
    for headers in [
        vec![],
        vec![("authorization", "Bearer wrong")],
        vec![("authorization", "s3cret-token")],
        vec![("authorization", "Basic czNjcmV0LXRva2Vu")],
    ] {
        let reply = initialize_with(addr, &headers).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{headers:?}");
        assert!(reply.body.is_empty(), "no detail: {}", reply.text());
        assert_eq!(reply.headers["www-authenticate"], "Bearer");
    }
    // the GET stream and DELETE are guarded too
    let reply = Http::new(addr, "/mcp")
        .send(
            Method::GET,
            &[("accept".into(), "text/event-stream".into())],
            Vec::new(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let mut session =
        Session::open_with_token(addr, "/mcp", Era::Legacy, "holder", Some("s3cret-token")).await;
    let result = session.call_tool("snapshot", json!({})).await;
    assert_eq!(result["structuredContent"]["version"], json!(0));
    let mut modern =
        Session::open_with_token(addr, "/mcp", Era::Modern, "holder", Some("s3cret-token")).await;
    let result = modern.call_tool("snapshot", json!({})).await;
    assert_eq!(result["structuredContent"]["version"], json!(0));
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_get_413_and_malformed_json_400() {
    let (host, adapter) = cart();
    let server = serve(&adapter, HttpOptions::new()).await;
    let addr = server.local_addr();
    let mut http = Http::new(addr, "/mcp");
    // just over 1 MiB, as valid JSON-RPC
    let padding = "x".repeat(1 << 20);
    let big =
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta": {"pad": padding}}});
    let reply = http.post(&[], &big).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(reply.text().contains("1048576 bytes"), "{}", reply.text());
    // the same without Content-Length (chunked) is cut off at the limit too
    let chunks: Vec<Vec<u8>> = big
        .to_string()
        .into_bytes()
        .chunks(64 * 1024)
        .map(<[u8]>::to_vec)
        .collect();
    let status = send_chunked(addr, chunks).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);

    let reply = http
        .send(
            Method::POST,
            &[],
            b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"meth".to_vec(),
        )
        .await;
    // a bad body is answered as the stdio layer answers the same line, in the same words
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.messages(),
        [
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
            "message": "Parse error: not JSON: EOF while parsing a string at line 1 column 33"}})
        ]
    );
    let reply = http
        .send(Method::POST, &[], b"not json at all".to_vec())
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.messages()[0]["error"]["message"],
        "Parse error: not JSON: expected ident at line 1 column 2"
    );
    let reply = http
        .post(&[], &json!({"jsonrpc": "1.0", "id": 9, "method": "ping"}))
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.messages(),
        [json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32600,
            "message": "Invalid request: \"jsonrpc\" must be \"2.0\", got \"1.0\""}})]
    );
    let reply = http.post(&[], &json!({"hello": "world"})).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.messages()[0]["error"]["code"], json!(-32600));
    let reply = http.post(&[], &json!([1, 2, 3])).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply.messages()[0]["error"]["message"],
        "Invalid request: a batch (JSON array) is not supported; send one message per line"
    );
    // a body within the limit still works after all that, on the same connection
    let mut session = Session::open(addr, "/mcp", Era::Legacy, "after").await;
    let result = session.call_tool("snapshot", json!({})).await;
    assert_eq!(result["isError"], json!(false));
    host.dispose();
}

/// POSTs `chunks` with chunked transfer encoding (no Content-Length) over a raw socket; returns the status.
async fn send_chunked(addr: SocketAddr, chunks: Vec<Vec<u8>>) -> StatusCode {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {addr}\r\naccept: application/json, text/event-stream\r\ncontent-type: \
         application/json\r\ntransfer-encoding: chunked\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    for chunk in chunks {
        let framed = [
            format!("{:x}\r\n", chunk.len()).into_bytes(),
            chunk,
            b"\r\n".to_vec(),
        ]
        .concat();
        // the server may answer and close before the whole body is sent
        if socket.write_all(&framed).await.is_err() {
            break;
        }
    }
    let _ = socket.write_all(b"0\r\n\r\n").await;
    let mut response = vec![0; 64];
    let n = tokio::time::timeout(GUARD, socket.read(&mut response))
        .await
        .expect("hang guard")
        .unwrap();
    let status_line = String::from_utf8_lossy(&response[..n]).into_owned();
    let code: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {status_line}"));
    StatusCode::from_u16(code).unwrap()
}

#[test]
fn an_io_error_reads_as_itself_and_is_not_its_own_source() {
    let error = HttpError::from(std::io::Error::new(
        std::io::ErrorKind::AddrInUse,
        "address in use",
    ));
    assert_eq!(error.to_string(), "address in use");
    // Its source is the I/O error's own (none here): a report that walks the chain says "address in use" once.
    assert!(std::error::Error::source(&error).is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binding_refuses_non_loopback_unless_told() {
    let (host, adapter) = cart();
    let error = HttpServer::bind(adapter.clone(), "0.0.0.0:0", "/mcp", HttpOptions::new())
        .await
        .expect_err("refused");
    assert!(matches!(error, HttpError::NotLoopback(_)), "{error}");
    assert!(
        error.to_string().contains("not a loopback address"),
        "{error}"
    );
    let error = HttpServer::bind(adapter.clone(), "127.0.0.1:0", "mcp", HttpOptions::new())
        .await
        .expect_err("refused");
    assert!(error.to_string().contains("must start with '/'"), "{error}");
    let server = HttpServer::bind(adapter.clone(), "[::1]:0", "/mcp", HttpOptions::new()).await;
    // IPv6 loopback may be unavailable in a sandbox; when it binds, it serves
    if let Ok(server) = server {
        let mut session = Session::open(server.local_addr(), "/mcp", Era::Legacy, "v6").await;
        assert_eq!(
            session.call_tool("snapshot", json!({})).await["isError"],
            json!(false)
        );
    }
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mounts_beside_the_routes_people_use() {
    let (host, adapter) = cart();
    let mcp = McpHttpService::new(adapter.clone(), HttpOptions::new()).expect("service");
    let app = axum::Router::new()
        .route("/", axum::routing::get(|| async { "the cart, for people" }))
        .route_service("/agents/mcp", mcp);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let served = tokio::spawn(async move { axum::serve(listener, app).await });
    let page = Http::new(addr, "/")
        .send(
            Method::GET,
            &[("accept".into(), "text/html".into())],
            Vec::new(),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.text(), "the cart, for people");
    let mut session = Session::open(addr, "/agents/mcp", Era::Legacy, "mounted").await;
    let result = session.call_tool("dispatch", add("m", 1)).await;
    assert_eq!(result["isError"], json!(false), "{result}");
    let missing = Http::new(addr, "/mcp").post(&[], &json!({})).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    served.abort();
    host.dispose();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_adapter_serves_stdio_and_http_at_once() {
    let (host, adapter) = cart();
    let server = serve(&adapter, HttpOptions::new()).await;
    // the stdio transport (rmcp's line-delimited JSON-RPC) over an in-memory pipe
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let stdio = adapter.clone();
    tokio::spawn(async move {
        if let Ok(running) = stdio.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let stdio_client = ().serve(client_io).await.expect("stdio client");
    let mut http = Session::open(server.local_addr(), "/mcp", Era::Legacy, "http-side").await;
    let (mut updates, _stream) = http.subscribe("ranvier://state").await;

    let params = CallToolRequestParams::new("dispatch")
        .with_arguments(add("s", 3).as_object().unwrap().clone());
    let from_stdio = stdio_client.call_tool(params).await.expect("stdio call");
    assert_eq!(from_stdio.is_error, Some(false));
    // HTTP sees the stdio client's write: notified, then reads it
    assert_eq!(next(&mut updates).await["params"]["uri"], "ranvier://state");
    let snapshot = http.call_tool("snapshot", json!({})).await;
    assert_eq!(snapshot["structuredContent"]["values"]["count"], json!(3));
    let result = http.call_tool("dispatch", add("h", 1)).await;
    assert!(text(&result).contains("v2: count=4"), "{}", text(&result));
    let read = stdio_client
        .read_resource(ReadResourceRequestParams::new("ranvier://state/count"))
        .await
        .expect("stdio read");
    let ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("text contents")
    };
    assert_eq!(text, r#"{"version":2,"value":4}"#);
    // the journal names who sent what
    let senders: Vec<String> = adapter
        .handle()
        .journal()
        .into_iter()
        .map(|entry| entry.sender)
        .collect();
    assert_eq!(senders.len(), 2);
    assert_eq!(senders[1], "http-side");
    host.dispose();
}
