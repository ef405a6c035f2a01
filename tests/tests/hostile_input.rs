//! Hostile input against the built `cart` example over stdio, at the raw JSON-RPC level (lines written to the child's
//! stdin, responses read from its stdout), and over Streamable HTTP in process: the rule is that bad input gets a
//! clear error naming what is wrong and what was expected, nothing already accepted is lost, and no input crashes
//! the process.
//!
//! Every stdio test starts its own cart, dispatches one valid message, throws one group of inputs at it, and checks
//! after each that the process is alive and `snapshot` still answers the state after that first dispatch.
//!
//! Over stdio, lines are read by ranvier's own line layer (`ranvier::mcp::stdio`), not rmcp's: a line that cannot be
//! read gets one -32700 naming the problem, and JSON that is not a JSON-RPC message one -32600 naming the reason,
//! each with id null (or the request's id when it reads), instead of rmcp's silence or its bare "Invalid request".

use crate::cart_binary;
use crate::examples::cart;
use crate::http_client;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use cart_binary::cart_binary;
use http_client::{Era, Session};
use ranvier::mcp::McpAdapterOptions;
use ranvier::mcp::http::{HttpOptions, HttpServer};
use serde_json::{Value, json};

/// Hang guard for one response; nothing is timed.
const GUARD: Duration = Duration::from_secs(60);

/// A running cart served over stdio, driven line by line.
struct Cart {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Messages read while looking for another response, in arrival order.
    unclaimed: Vec<Value>,
    next_id: u64,
    /// The state after the valid dispatch made at start; every test checks it is kept.
    baseline: Value,
    /// What the cart wrote on stderr so far.
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Cart {
    /// Starts the cart, without any handshake.
    fn spawn() -> Self {
        Self::spawn_with(false)
    }

    /// Starts the cart, without any handshake; with `confirm`, `clear` waits for a person's approval.
    fn spawn_with(confirm: bool) -> Self {
        let mut command = Command::new(cart_binary());
        command
            .env_remove("RANVIER_JOURNAL")
            .env_remove("RANVIER_MCP_PROTOCOL")
            .env_remove(cart::CONFIRM_ENV);
        if confirm {
            command.env(cart::CONFIRM_ENV, "1");
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the cart starts");
        let stdin = child.stdin.take().expect("stdin");
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut err = child.stderr.take().expect("stderr");
        std::thread::spawn({
            let stderr = stderr.clone();
            move || {
                let mut buf = [0_u8; 4096];
                while let Ok(n @ 1..) = std::io::Read::read(&mut err, &mut buf) {
                    stderr
                        .lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
            unclaimed: Vec::new(),
            next_id: 1000,
            baseline: Value::Null,
            stderr,
        }
    }

    /// Starts the cart, runs the legacy handshake and dispatches one valid message (the baseline).
    fn start() -> Self {
        Self::start_with(false)
    }

    /// [`start`](Self::start), with `clear` gated when `confirm`.
    fn start_with(confirm: bool) -> Self {
        let mut cart = Self::spawn_with(confirm);
        let init = cart.request(json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "hostile", "version": "1"}}
        }));
        assert_eq!(
            init["result"]["serverInfo"]["name"], "ranvier-cart",
            "{init}"
        );
        cart.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let added = cart.call(
            "dispatch",
            json!({"message": "add_item", "args": {"sku": "apple", "unitPrice": 120, "quantity": 3}}),
        );
        assert_eq!(added["isError"], false, "{added}");
        cart.baseline = cart.snapshot();
        assert_eq!(
            cart.baseline,
            json!({"version": 1, "values": {"count": 3, "subtotal": 360, "discount": 0, "total": 360,
                "lines": [{"key": "apple", "unitPrice": 120, "quantity": 3, "total": 360}]}})
        );
        cart
    }

    /// Writes `bytes` and a newline, as one line.
    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("the cart reads stdin");
        self.stdin.write_all(b"\n").expect("the cart reads stdin");
        self.stdin.flush().expect("the cart reads stdin");
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(message.to_string().as_bytes());
    }

    /// The next message on stdout (a hang or an exit fails the test).
    fn next_message(&mut self) -> Value {
        match self.lines.recv_timeout(GUARD) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout holds a line that is not JSON ({e}): {line}")),
            Err(RecvTimeoutError::Timeout) => panic!("hang guard: no message from the cart"),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the cart closed stdout: {:?}", self.child.try_wait())
            }
        }
    }

    /// The response with `id`, keeping what arrives before it in `unclaimed`.
    fn response(&mut self, id: &Value) -> Value {
        if let Some(at) = self.unclaimed.iter().position(|m| m.get("id") == Some(id)) {
            return self.unclaimed.remove(at);
        }
        loop {
            let message = self.next_message();
            if message.get("id") == Some(id) {
                return message;
            }
            self.unclaimed.push(message);
        }
    }

    /// The next notification (a message without an id), from those set aside first; responses that arrive before
    /// it are set aside.
    fn notification(&mut self) -> Value {
        if let Some(at) = self.unclaimed.iter().position(|m| m.get("id").is_none()) {
            return self.unclaimed.remove(at);
        }
        loop {
            let message = self.next_message();
            if message.get("id").is_none() {
                return message;
            }
            self.unclaimed.push(message);
        }
    }

    /// The URIs of the resource notifications that arrive up to and including the first one for `uri`.
    fn updates_until(&mut self, uri: &str) -> Vec<String> {
        let mut uris = Vec::new();
        loop {
            let notification = self.notification();
            assert_eq!(
                notification["method"], "notifications/resources/updated",
                "{notification}"
            );
            let got = notification["params"]["uri"].as_str().unwrap().to_owned();
            uris.push(got.clone());
            if got == uri {
                return uris;
            }
        }
    }

    /// Sends a request and returns its response.
    fn request(&mut self, message: Value) -> Value {
        self.send(&message);
        self.response(&message["id"])
    }

    fn fresh_id(&mut self) -> Value {
        self.next_id += 1;
        json!(self.next_id)
    }

    /// The JSON-RPC error of a request `method {params}` (a result fails the test).
    fn error(&mut self, method: &str, params: Value) -> Value {
        let id = self.fresh_id();
        let response =
            self.request(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        response
            .get("error")
            .cloned()
            .unwrap_or_else(|| panic!("{method} {params}: expected an error, got {response}"))
    }

    /// The result of `tools/call name {arguments}` (a JSON-RPC error fails the test).
    fn call(&mut self, name: &str, arguments: Value) -> Value {
        let id = self.fresh_id();
        let response = self.request(json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}
        }));
        response
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("tools/call {name}: expected a result, got {response}"))
    }

    /// The text of a tool call that must be rejected (`isError: true`).
    fn rejected(&mut self, name: &str, arguments: Value) -> String {
        let result = self.call(name, arguments.clone());
        assert_eq!(result["isError"], true, "{name} {arguments}: {result}");
        result["content"][0]["text"]
            .as_str()
            .expect("a text reason")
            .to_owned()
    }

    /// The state document, from the `snapshot` tool.
    fn snapshot(&mut self) -> Value {
        let result = self.call("snapshot", json!({}));
        assert_eq!(result["isError"], false, "{result}");
        result["structuredContent"].clone()
    }

    /// The process is alive, answers `snapshot`, and holds the baseline state; returns the messages that arrived
    /// unasked since the last check (answers to hostile lines without a readable id).
    fn assert_intact(&mut self, after: &str) -> Vec<Value> {
        assert!(
            self.child.try_wait().expect("try_wait").is_none(),
            "the cart exited after {after}"
        );
        let snapshot = self.snapshot();
        assert_eq!(snapshot, self.baseline, "the state changed after {after}");
        std::mem::take(&mut self.unclaimed)
    }
}

impl Drop for Cart {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `text` contains every one of `parts`.
#[track_caller]
fn assert_names(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} is not in {text:?}");
    }
}

/// A `tools/call` line with raw JSON `arguments`, for inputs `serde_json::json!` cannot build.
fn raw_call(id: u64, name: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
    )
}

/// Lines that are not JSON, or JSON serde cannot read (invalid UTF-8, nesting past its limit, a number past f64), a
/// 4 MB line and one past the 16 MiB line limit: each gets exactly one -32700 with id null whose message names the
/// problem, none crashes the cart or changes its state, and the request after it is answered. An empty or
/// whitespace-only line gets no answer at all.
#[test]
fn unreadable_lines_are_answered_and_nothing_is_lost() {
    let mut cart = Cart::start();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let bad_argument: Vec<u8> = raw_call(
        3,
        "dispatch",
        "{\"message\":\"clear\",\"args\":{\"x\":\"\u{1}\"}}",
    )
    .into_bytes()
    .into_iter()
    .map(|b| if b == 1 { 0xff } else { b })
    .collect();
    let bad_byte = bad_argument.iter().position(|&b| b == 0xff).unwrap();
    let huge = raw_call(
        6,
        "dispatch",
        &format!(
            r#"{{"message":"remove_item","args":{{"sku":"{}"}}}}"#,
            "a".repeat(17 << 20)
        ),
    )
    .into_bytes();
    let huge_len = huge.len();
    let lines: Vec<(&str, Vec<u8>, Vec<String>)> = vec![
        (
            "not JSON",
            b"hello, server".to_vec(),
            vec!["Parse error: not JSON: expected value at line 1 column 1".into()],
        ),
        (
            "truncated JSON",
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/ca"#.to_vec(),
            vec!["not JSON".into(), "EOF while parsing".into()],
        ),
        ("an empty line", Vec::new(), vec![]),
        ("whitespace", b"   \t ".to_vec(), vec![]),
        (
            "invalid UTF-8 in the method",
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/c\xff\xfell\"}".to_vec(),
            vec!["Parse error: invalid UTF-8 at byte 41".into()],
        ),
        (
            "invalid UTF-8 in an argument",
            bad_argument,
            vec![format!("Parse error: invalid UTF-8 at byte {bad_byte}")],
        ),
        (
            "100,000 nested arrays",
            raw_call(
                4,
                "dispatch",
                &format!(r#"{{"message":"clear","args":{{"x":{deep}}}}}"#),
            )
            .into_bytes(),
            vec!["nested too deep".into(), "recursion limit exceeded".into()],
        ),
        (
            "a number past f64",
            raw_call(5, "dispatch", r#"{"message":"clear","args":{"n":1e400}}"#).into_bytes(),
            vec!["number out of range".into()],
        ),
        (
            "4 MB that are not JSON",
            vec![b'x'; 4 << 20],
            vec!["not JSON".into()],
        ),
        (
            "a 17 MiB request, past the line limit",
            huge,
            vec![format!(
                "Parse error: line of {huge_len} bytes is past the 16777216-byte limit"
            )],
        ),
    ];
    for (what, line, words) in lines {
        cart.send_raw(&line);
        let unasked = cart.assert_intact(what);
        if words.is_empty() {
            assert!(unasked.is_empty(), "{what}: {unasked:?}");
            continue;
        }
        assert_eq!(unasked.len(), 1, "{what}: {unasked:?}");
        let answer = &unasked[0];
        assert_eq!(answer["jsonrpc"], "2.0", "{what}: {answer}");
        assert_eq!(answer["id"], Value::Null, "{what}: {answer}");
        assert!(answer.get("result").is_none(), "{what}: {answer}");
        assert_eq!(answer["error"]["code"], -32700, "{what}: {answer}");
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        assert_names(answer["error"]["message"].as_str().unwrap(), &words);
    }
}

/// JSON that is not one JSON-RPC message (an array, a batch, a number, a string, `null`, an object without
/// `jsonrpc`, version 1.0, an object as id, params that are not an object, a response without an id): one `-32600`
/// each, with the request's id when it reads (null otherwise) and a message naming the reason, and the state kept.
#[test]
fn json_that_is_not_a_message_is_an_invalid_request() {
    let mut cart = Cart::start();
    let null = Value::Null;
    let lines = [
        (
            json!([1, 2, 3]),
            &null,
            "a batch (JSON array) is not supported",
        ),
        (
            json!([{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "snapshot"}}]),
            &null,
            "a batch (JSON array) is not supported",
        ),
        (json!(42), &null, "a message must be a JSON object, got 42"),
        (
            json!("tools/call"),
            &null,
            "a message must be a JSON object, got \"tools/call\"",
        ),
        (
            json!(null),
            &null,
            "a message must be a JSON object, got null",
        ),
        (
            json!({"id": 8, "method": "tools/call", "params": {"name": "snapshot"}}),
            &json!(8),
            "missing \"jsonrpc\": \"2.0\"",
        ),
        (
            json!({"jsonrpc": "1.0", "id": 9, "method": "tools/call", "params": {"name": "snapshot"}}),
            &json!(9),
            "\"jsonrpc\" must be \"2.0\", got \"1.0\"",
        ),
        (
            json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/call", "params": {"name": "snapshot"}}),
            &null,
            "an id must be a string or a number (an integer), got {\"a\":1}",
        ),
        (
            json!({"jsonrpc": "2.0", "id": "p", "method": "tools/call", "params": ["snapshot"]}),
            &json!("p"),
            "\"params\" must be an object, got [\"snapshot\"]",
        ),
        (
            json!({"jsonrpc": "2.0", "result": {}}),
            &null,
            "a response needs the \"id\" of the request it answers",
        ),
    ];
    for (line, id, reason) in lines {
        cart.send(&line);
        let unasked = cart.assert_intact(&line.to_string());
        assert_eq!(unasked.len(), 1, "{line}: {unasked:?}");
        let answer = &unasked[0];
        assert_eq!(answer["id"], *id, "{line}: {answer}");
        assert_eq!(answer["error"]["code"], -32600, "{line}: {answer}");
        assert_names(
            answer["error"]["message"].as_str().unwrap(),
            &["Invalid request: ", reason],
        );
    }
}

/// `tools/call` whose params rmcp cannot read (no `name`, `name` not a string, `arguments` a string, array or number,
/// no params at all) is -32602 naming the field and the shape expected, not `-32601 "tools/call"` (method not
/// found); an unknown tool is -32602 listing the tools; `arguments: null` is no arguments.
#[test]
fn tools_call_with_malformed_params_names_the_field() {
    let mut cart = Cart::start();
    let cases = [
        (json!({"arguments": {}}), "missing \"name\""),
        (
            json!({"name": 5}),
            "\"name\" must be a string naming a tool, got 5",
        ),
        (
            json!({"name": "dispatch", "arguments": "add_item"}),
            "\"arguments\" must be an object of the tool's arguments by name, got \"add_item\"",
        ),
        (
            json!({"name": "dispatch", "arguments": [{"message": "clear"}]}),
            "\"arguments\" must be an object of the tool's arguments by name, got [{\"message\":\"clear\"}]",
        ),
        (
            json!({"name": "snapshot", "arguments": 1}),
            "\"arguments\" must be an object of the tool's arguments by name, got 1",
        ),
    ];
    for (params, reason) in cases {
        let error = cart.error("tools/call", params.clone());
        assert_eq!(error["code"], -32602, "{params}: {error}");
        let message = error["message"].as_str().unwrap();
        assert_names(
            message,
            &[
                "invalid params of tools/call: ",
                reason,
                "expected {\"name\": tool, \"arguments\": {...}}; tools: snapshot, dispatch, wait_version",
            ],
        );
        cart.assert_intact(&params.to_string());
    }
    let id = cart.fresh_id();
    let response = cart.request(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call"}));
    assert_eq!(response["error"]["code"], -32602, "{response}");
    assert_names(
        response["error"]["message"].as_str().unwrap(),
        &["params must be an object, got none"],
    );

    let error = cart.error("tools/call", json!({"name": "frobnicate", "arguments": {}}));
    assert_eq!(error["code"], -32602, "{error}");
    assert_names(
        error["message"].as_str().unwrap(),
        &["unknown tool \"frobnicate\"; tools: snapshot, dispatch, wait_version"],
    );
    // a name with a quote and a terminal escape is echoed escaped, as a JSON string
    let error = cart.error(
        "tools/call",
        json!({"name": "a\"b\u{1b}[31m", "arguments": {}}),
    );
    assert_names(
        error["message"].as_str().unwrap(),
        &[r#"unknown tool "a\"b\u001b[31m"; tools: "#],
    );
    // no arguments at all, for a tool that needs them, is the tool's own rejection
    let reason = cart.rejected("dispatch", Value::Null);
    assert_names(
        &reason,
        &["missing \"message\"", "known messages: add_item"],
    );
    cart.assert_intact("unknown tools");
}

/// `dispatch` with messages of the wrong shape: unknown names, missing, extra and mistyped fields, numbers out of
/// range or past u64, fractions, arguments that are not an object, 100-deep nesting, a 4 MB argument, and malformed
/// `messages` lists. Each is a tool error naming the message, the property and what was expected, and none changes
/// the state.
#[test]
fn dispatch_of_malformed_messages_names_what_is_wrong() {
    let mut cart = Cart::start();
    const ADD_SHAPE: &str =
        "expected: add_item {sku: string, unitPrice: integer ≥ 0, quantity: integer ≥ 1}";
    let nested = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (
            json!({"message": "fly", "args": {}}),
            vec![
                "unknown message \"fly\"; known messages: add_item, remove_item, set_discount, clear",
            ],
        ),
        (
            json!({"message": "fl\"y\n", "args": {}}),
            vec![r#"unknown message "fl\"y\n"; known messages: "#],
        ),
        (
            json!({"message": "add_item", "args": {"sku": "a"}}),
            vec!["missing property `unitPrice`", ADD_SHAPE],
        ),
        (
            json!({"message": "add_item", "args": {"sku": "a", "unitPrice": 1, "quantity": 1, "color": "red"}}),
            vec![
                "unknown property `color`; expected `sku`, `unitPrice`, `quantity`",
                ADD_SHAPE,
            ],
        ),
        (
            json!({"message": "add_item", "args": {"sku": 5, "unitPrice": 1, "quantity": 1}}),
            vec!["`sku`: expected a string, got 5"],
        ),
        (
            json!({"message": "add_item", "args": {"sku": "a", "unitPrice": "1", "quantity": 1}}),
            vec!["`unitPrice`: expected an integer ≥ 0, got \"1\""],
        ),
        (
            json!({"message": "add_item", "args": {"sku": "a", "unitPrice": -1, "quantity": 1}}),
            vec!["`unitPrice`: expected an integer ≥ 0, got -1"],
        ),
        (
            json!({"message": "add_item", "args": {"sku": "a", "unitPrice": 1, "quantity": 0}}),
            vec!["`quantity`: expected an integer ≥ 1, got 0"],
        ),
        (
            json!({"message": "add_item", "args": {"sku": "a", "unitPrice": 1, "quantity": 1.5}}),
            vec!["`quantity`: expected an integer ≥ 1, got 1.5"],
        ),
        (
            json!({"message": "set_discount", "args": {"percent": 101}}),
            vec!["`percent`: expected an integer between 0 and 100, got 101"],
        ),
        (
            json!({"message": "set_discount", "args": {"percent": null}}),
            vec!["`percent`"],
        ),
        (
            json!({"message": "add_item", "args": [1]}),
            vec!["expected an object of arguments, got [1]", ADD_SHAPE],
        ),
        (
            json!({"message": "clear", "args": "now"}),
            vec!["clear rejected its arguments: expected an object of arguments, got \"now\""],
        ),
        (
            json!({"message": "remove_item", "args": {"sku": serde_json::from_str::<Value>(&nested).unwrap()}}),
            vec!["`sku`: expected a string, got [[["],
        ),
        (
            json!({"message": "add_item", "args": {"sku": "x".repeat(4 << 20), "unitPrice": 1}}),
            vec!["missing property `quantity`"],
        ),
        (
            json!({"message": 5}),
            vec!["\"message\" must be a string naming a message, got 5; known messages:"],
        ),
        (
            // a misspelt `args` must not send the message without its arguments
            json!({"message": "set_discount", "arg": {"percent": 10}}),
            vec![r#"unknown property "arg"; a message is {"message": name, "args": {...}}"#],
        ),
        (
            json!({"messages": [{"message": "clear"}], "args": {}}),
            vec![r#"unknown property "args" beside "messages"; pass {"messages": "#],
        ),
        (
            json!({"messages": [{"message": "set_discount", "args": {"percent": 5}, "when": "now"}]}),
            vec![r#"unknown property "when"; a message is {"message": name, "args": {...}}"#],
        ),
        (
            json!({"message": "clear", "messages": []}),
            vec!["pass either \"message\" (with \"args\") or \"messages\", not both"],
        ),
        (
            json!({"messages": []}),
            vec![
                "\"messages\" must be a non-empty array of {\"message\": name, \"args\": {...}}, got []",
            ],
        ),
        (
            json!({"messages": {"message": "clear"}}),
            vec!["\"messages\" must be a non-empty array"],
        ),
        (
            json!({"messages": [5]}),
            vec![
                "each entry of \"messages\" must be an object {\"message\": name, \"args\": {...}}, got 5",
            ],
        ),
        (
            json!({"messages": [{"args": {}}]}),
            vec!["missing \"message\""],
        ),
        (
            json!({"messages": [{"message": "fly"}, {"message": "clear"}]}),
            vec![
                "stopped at message 1 of 2: unknown message \"fly\"",
                "no message was dispatched",
            ],
        ),
    ];
    for (arguments, parts) in cases {
        let shown: String = arguments.to_string().chars().take(200).collect();
        let reason = cart.rejected("dispatch", arguments);
        assert_names(&reason, &parts);
        cart.assert_intact(&shown);
    }
    // past u64: serde reads 2^64 as a float, and the decoder says what it got
    let id = cart.fresh_id();
    cart.send_raw(
        raw_call(
            id.as_u64().unwrap(),
            "dispatch",
            r#"{"message":"add_item","args":{"sku":"a","unitPrice":1,"quantity":18446744073709551616}}"#,
        )
        .as_bytes(),
    );
    let result = cart.response(&id)["result"].clone();
    assert_eq!(result["isError"], true, "{result}");
    assert_names(
        result["content"][0]["text"].as_str().unwrap(),
        &["`quantity`: expected an integer ≥ 1, got 1.8446744073709552e+19"],
    );
    cart.assert_intact("a quantity past u64");
}

/// A message whose `update` panics (adding to apple's quantity past u64) is a tool error saying so, and the model
/// is unchanged; a sequence stopped by a bad second message keeps the first, and says which stayed dispatched.
#[test]
fn a_panicking_update_or_a_stopped_sequence_keeps_what_was_accepted() {
    let mut cart = Cart::start();
    let reason = cart.rejected(
        "dispatch",
        json!({"message": "add_item", "args": {"sku": "apple", "unitPrice": 120, "quantity": u64::MAX}}),
    );
    assert_names(
        &reason,
        &[
            "add_item failed: ",
            "the quantity of apple would overflow",
            "the model is unchanged",
        ],
    );
    cart.assert_intact("a panicking update");

    let reason = cart.rejected(
        "dispatch",
        json!({"messages": [
            {"message": "set_discount", "args": {"percent": 10}},
            {"message": "set_discount", "args": {"percent": "ten"}},
            {"message": "clear"}
        ]}),
    );
    assert_names(
        &reason,
        &[
            "1 set_discount {\"percent\":10} → v2: discount 0→10, total 360→324",
            "stopped at message 2 of 3: set_discount rejected its arguments: `percent`:",
            "messages 1 to 1 stay dispatched",
        ],
    );
    assert_eq!(
        cart.snapshot(),
        json!({"version": 2, "values": {"count": 3, "subtotal": 360, "discount": 10, "total": 324,
            "lines": [{"key": "apple", "unitPrice": 120, "quantity": 3, "total": 360}]}})
    );
}

/// Totals past u64 (defect 7): a line whose `unitPrice × quantity` overflows (2^63 × 4), lines whose sum overflows,
/// quantities whose sum overflows, and a line's quantity overflowing (same sku) are each a tool error naming the value
/// that would overflow, with the model unchanged and nothing on stderr (no panic message or backtrace); a total of
/// exactly `u64::MAX` is accepted.
#[test]
fn totals_that_would_overflow_are_refused_by_name_and_quietly() {
    let mut cart = Cart::start();
    for (args, parts) in [
        (
            json!({"sku": "big", "unitPrice": 1_u64 << 63, "quantity": 4}),
            vec![
                "add_item failed: ",
                "subtotal would overflow: unitPrice × quantity of \"big\" is 9223372036854775808 × 4",
                "the model is unchanged",
            ],
        ),
        (
            json!({"sku": "max", "unitPrice": u64::MAX, "quantity": 1}),
            vec![
                "subtotal would overflow: the lines add up past 18446744073709551615",
                "the model is unchanged",
            ],
        ),
        (
            json!({"sku": "many", "unitPrice": 0, "quantity": u64::MAX}),
            vec![
                "count would overflow: the quantities add up past 18446744073709551615",
                "the model is unchanged",
            ],
        ),
        (
            json!({"sku": "apple", "unitPrice": 120, "quantity": u64::MAX}),
            vec![
                "the quantity of apple would overflow",
                "the model is unchanged",
            ],
        ),
        (
            json!({"sku": "apple", "unitPrice": 120, "quantity": u64::MAX / 120}),
            vec![
                "subtotal would overflow: unitPrice × quantity of \"apple\"",
                "the model is unchanged",
            ],
        ),
    ] {
        let reason = cart.rejected("dispatch", json!({"message": "add_item", "args": args}));
        assert_names(&reason, &parts);
        cart.assert_intact(&args.to_string());
    }
    // up to u64::MAX exactly is fine, and one more cent is refused
    let exact = cart.call(
        "dispatch",
        json!({"message": "add_item", "args": {"sku": "rest", "unitPrice": u64::MAX - 360, "quantity": 1}}),
    );
    assert_eq!(exact["isError"], false, "{exact}");
    let reason = cart.rejected(
        "dispatch",
        json!({"message": "add_item", "args": {"sku": "cent", "unitPrice": 1, "quantity": 1}}),
    );
    assert_names(&reason, &["subtotal would overflow: the lines add up"]);
    assert_eq!(
        cart.snapshot()["values"],
        json!({"count": 4, "subtotal": u64::MAX, "discount": 0, "total": u64::MAX, "lines": [
            {"key": "apple", "unitPrice": 120, "quantity": 3, "total": 360},
            {"key": "rest", "unitPrice": u64::MAX - 360, "quantity": 1, "total": u64::MAX - 360}
        ]})
    );
    let stderr = cart.stderr.lock().unwrap().clone();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "the cart wrote a panic on stderr: {stderr}"
    );
}

/// `wait_version` with versions and timeouts of the wrong sign, type or size, or a misspelt property: a tool error
/// naming the property and the range expected; a version far ahead with `timeoutMs: 0` times out naming the
/// current version; a past version answers the state at once.
#[test]
fn wait_version_with_bad_numbers_names_the_property() {
    let mut cart = Cart::start();
    let cases = [
        (
            json!({"version": -1}),
            "\"version\" must be a non-negative integer, got -1",
        ),
        (
            json!({"version": "1"}),
            "\"version\" must be a non-negative integer, got \"1\"",
        ),
        (
            json!({"version": 1.5}),
            "\"version\" must be a non-negative integer, got 1.5",
        ),
        (
            json!({"version": 1e30}),
            "\"version\" must be a non-negative integer, got 1e+30",
        ),
        (
            json!({"version": null}),
            "\"version\" must be a non-negative integer, got null",
        ),
        (
            json!({}),
            "missing \"version\": pass the version to wait for, a non-negative integer",
        ),
        (
            json!({"version": 1, "timeoutMs": -1}),
            "\"timeoutMs\" must not be negative, got -1; pass 0 to 60000 (default 5000)",
        ),
        (
            json!({"version": 1, "timeoutMs": "soon"}),
            "\"timeoutMs\" must be an integer number of milliseconds, got \"soon\"",
        ),
        (
            json!({"version": 1, "timeoutMs": 1e300}),
            "\"timeoutMs\" must be an integer number of milliseconds, got 1e+300",
        ),
        (
            json!({"version": 9, "timeout_ms": 10}),
            "unknown property \"timeout_ms\"; wait_version takes \"version\" (a non-negative integer) and \
             \"timeoutMs\" (0 to 60000, default 5000)",
        ),
        (
            json!({"version": u64::MAX, "timeoutMs": 0}),
            "timed out after 0 ms waiting for version 18446744073709551615; the current version is 1",
        ),
    ];
    for (arguments, reason) in cases {
        let text = cart.rejected("wait_version", arguments.clone());
        assert_names(&text, &[reason]);
        cart.assert_intact(&arguments.to_string());
    }
    // no `arguments` at all
    let id = cart.fresh_id();
    let response = cart.request(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "wait_version"}}));
    assert_eq!(response["result"]["isError"], true, "{response}");
    assert_names(
        response["result"]["content"][0]["text"].as_str().unwrap(),
        &["missing \"version\""],
    );
    let reached = cart.call("wait_version", json!({"version": 0, "timeoutMs": 0}));
    assert_eq!(reached["isError"], false, "{reached}");
    assert_eq!(reached["structuredContent"], cart.baseline);
    cart.assert_intact("wait_version");
}

/// `resources/read` and `resources/subscribe` of unknown or malformed URIs are -32002 listing the resources served;
/// params without a string `uri` are -32602 naming `uri` (not `-32601 "resources/read"`); unsubscribing from
/// something never subscribed is accepted and changes nothing.
#[test]
fn resources_of_unknown_or_malformed_uris_list_the_served_ones() {
    let mut cart = Cart::start();
    const SERVED: &str = "resources: ranvier://state and ranvier://state/{name} with name one of: count, \
                          subtotal, discount, total";
    for method in ["resources/read", "resources/subscribe"] {
        for uri in [
            "ranvier://state/nope",
            "ranvier://state/",
            "ranvier://state/count/x",
            "ranvier://STATE",
            "::not a uri::",
            "",
            "ranvier://state/\u{0}",
            "ranvier://state/\"count\"",
        ] {
            let error = cart.error(method, json!({"uri": uri}));
            assert_eq!(error["code"], -32002, "{method} {uri:?}: {error}");
            let message = error["message"].as_str().unwrap();
            assert_names(
                message,
                &[&format!("unknown resource {}", json!(uri)), SERVED],
            );
            cart.assert_intact(&format!("{method} {uri:?}"));
        }
        for (params, reason) in [
            (json!({}), "missing \"uri\""),
            (json!({"uri": 7}), "\"uri\" must be a string, got 7"),
            (json!({"uri": null}), "\"uri\" must be a string, got null"),
            (
                json!({"uri": ["ranvier://state"]}),
                "\"uri\" must be a string, got [\"ranvier://state\"]",
            ),
        ] {
            let error = cart.error(method, params.clone());
            assert_eq!(error["code"], -32602, "{method} {params}: {error}");
            assert_names(
                error["message"].as_str().unwrap(),
                &[
                    &format!("invalid params of {method}: {reason}"),
                    "expected {\"uri\": string}",
                    SERVED,
                ],
            );
            cart.assert_intact(&format!("{method} {params}"));
        }
    }
    let error = cart.error("resources/unsubscribe", json!({}));
    assert_eq!(error["code"], -32602, "{error}");
    assert_names(
        error["message"].as_str().unwrap(),
        &["invalid params of resources/unsubscribe: missing \"uri\""],
    );
    let id = cart.fresh_id();
    let response = cart.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "resources/unsubscribe", "params": {"uri": "ranvier://nope"}
    }));
    assert_eq!(response["result"], json!({}), "{response}");
    cart.assert_intact("resources");
}

/// The lifecycle misused: a request before `initialize` is -32602 naming the `_meta` fields a request without a
/// session needs, and `initialize` still works after it; a second `initialize` is refused (-32600) and loses nothing
/// (see `a_second_initialize_is_refused_and_the_subscriptions_stay_whole`); an
/// unknown method is -32601 naming it; a notification sent with an id is -32600 saying it is a notification; a
/// request without an id (`tools/call dispatch clear`) is not run, and nothing answers it.
#[test]
fn lifecycle_misuse_is_answered_and_loses_nothing() {
    let mut fresh = Cart::spawn();
    let early = fresh.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "snapshot", "arguments": {}}
    }));
    assert_eq!(early["error"]["code"], -32602, "{early}");
    assert_names(
        early["error"]["message"].as_str().unwrap(),
        &["io.modelcontextprotocol/protocolVersion"],
    );
    drop(fresh);

    let mut cart = Cart::start();
    let again = cart.request(json!({
        "jsonrpc": "2.0", "id": "again", "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "hostile", "version": "1"}}
    }));
    assert_eq!(again["error"]["code"], -32600, "{again}");
    cart.assert_intact("a second initialize");

    let error = cart.error("frob/nicate", json!({}));
    assert_eq!(error, json!({"code": -32601, "message": "frob/nicate"}));
    cart.assert_intact("an unknown method");

    let error = cart.error("notifications/initialized", json!({}));
    assert_eq!(error["code"], -32600, "{error}");
    assert_names(
        error["message"].as_str().unwrap(),
        &["\"notifications/initialized\" is a notification: send it without an \"id\""],
    );
    cart.assert_intact("a notification with an id");

    cart.send(&json!({
        "jsonrpc": "2.0", "method": "tools/call",
        "params": {"name": "dispatch", "arguments": {"message": "clear"}}
    }));
    let unasked = cart.assert_intact("a request without an id");
    assert!(unasked.is_empty(), "{unasked:?}");
}

/// The `initialize` request a client named `name` sends, with `id`.
fn initialize(id: Value, name: &str) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": name, "version": "1"}}
    })
}

/// A second `initialize` on one connection is refused (-32600, the session is already initialized) and changes
/// nothing: the subscription made before it holds, subscribing again to the same URI adds no second notification
/// (three changes, three notifications), and unsubscribing stops them. (Accepted, the second handshake gave the
/// session a new identity: unsubscribing missed the first subscription, and the second doubled every notification.)
#[test]
fn a_second_initialize_is_refused_and_the_subscriptions_stay_whole() {
    let mut cart = Cart::start();
    let state = "ranvier://state";
    let id = cart.fresh_id();
    let subscribed = cart.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "resources/subscribe", "params": {"uri": state}
    }));
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    let again = cart.request(initialize(json!("again"), "impostor"));
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert_names(
        again["error"]["message"].as_str().unwrap(),
        &["Invalid request: the session is already initialized"],
    );
    let id = cart.fresh_id();
    let resubscribed = cart.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "resources/subscribe", "params": {"uri": state}
    }));
    assert_eq!(resubscribed["result"], json!({}), "{resubscribed}");
    for percent in [5, 10, 15] {
        let result = cart.call(
            "dispatch",
            json!({"message": "set_discount", "args": {"percent": percent}}),
        );
        assert_eq!(result["isError"], false, "{result}");
        assert_eq!(cart.updates_until(state), [state], "discount {percent}");
    }
    let id = cart.fresh_id();
    let unsubscribed = cart.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "resources/unsubscribe", "params": {"uri": state}
    }));
    assert_eq!(unsubscribed["result"], json!({}), "{unsubscribed}");
    // a subscription to `count` marks the spot: a notification of the state would come first, in the same batch
    let id = cart.fresh_id();
    let marker = cart.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "resources/subscribe",
        "params": {"uri": "ranvier://state/count"}
    }));
    assert_eq!(marker["result"], json!({}), "{marker}");
    let added = cart.call(
        "dispatch",
        json!({"message": "add_item", "args": {"sku": "pear", "unitPrice": 80, "quantity": 1}}),
    );
    assert_eq!(added["isError"], false, "{added}");
    assert_eq!(
        cart.updates_until("ranvier://state/count"),
        ["ranvier://state/count"],
        "no notification of the state after unsubscribing, and no duplicate before"
    );
    let snapshot = cart.snapshot();
    assert_eq!(snapshot["version"], 5, "{snapshot}");
}

/// Fifty `set_discount` requests written to stdin in one go are applied in the order they were written: the n-th
/// makes version 1 + n and moves the discount from n - 1 to n, and the last leaves it at 50. A `snapshot` written
/// among them is answered (reads are not held up). (Each request runs in its own task: they were applied in
/// whatever order the tasks reached the graph.)
#[test]
fn pipelined_dispatches_are_applied_in_arrival_order() {
    let mut cart = Cart::start();
    let mut lines = String::new();
    for percent in 1..=50_u64 {
        lines.push_str(
            &json!({
                "jsonrpc": "2.0", "id": 5000 + percent, "method": "tools/call",
                "params": {"name": "dispatch",
                           "arguments": {"message": "set_discount", "args": {"percent": percent}}}
            })
            .to_string(),
        );
        lines.push('\n');
        if percent == 25 {
            lines.push_str(
                r#"{"jsonrpc":"2.0","id":"read","method":"tools/call","params":{"name":"snapshot","arguments":{}}}"#,
            );
            lines.push('\n');
        }
    }
    cart.stdin
        .write_all(lines.as_bytes())
        .expect("the cart reads stdin");
    cart.stdin.flush().expect("the cart reads stdin");
    for percent in 1..=50_u64 {
        let response = cart.response(&json!(5000 + percent));
        let text = response["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{response}"));
        assert!(
            text.starts_with(&format!(
                "1 set_discount {{\"percent\":{percent}}} → v{}: discount {}→{percent}",
                1 + percent,
                percent - 1
            )),
            "message {percent} of 50 was not applied in its turn: {text}"
        );
    }
    let read = cart.response(&json!("read"));
    assert_eq!(read["result"]["isError"], false, "{read}");
    let snapshot = cart.snapshot();
    assert_eq!(snapshot["version"], 51, "{snapshot}");
    assert_eq!(snapshot["values"]["discount"], 50, "{snapshot}");
}

/// A request whose id is the id of a request still in flight gets -32600 with that id, naming it, and the request
/// in flight is still answered once it completes. (rmcp answered only one of the two: the first waited forever.)
#[test]
fn a_request_reusing_an_id_in_flight_is_refused_and_the_first_is_still_answered() {
    let mut cart = Cart::start();
    let id = json!("twice");
    cart.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "wait_version", "arguments": {"version": 2, "timeoutMs": 60000}}
    }));
    cart.send(&json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "snapshot", "arguments": {}}
    }));
    let refused = cart.response(&id);
    assert_eq!(
        refused["error"],
        json!({"code": -32600, "message":
            "Invalid request: id \"twice\" is in use by a request still in flight; give each request its own id"}),
        "{refused}"
    );
    let moved = cart.call(
        "dispatch",
        json!({"message": "set_discount", "args": {"percent": 20}}),
    );
    assert_eq!(moved["isError"], false, "{moved}");
    let waited = cart.response(&id);
    assert_eq!(waited["result"]["isError"], false, "{waited}");
    assert_eq!(
        waited["result"]["structuredContent"]["version"], 2,
        "{waited}"
    );
    // answered: the id is free again
    let reused = cart.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "snapshot", "arguments": {}}
    }));
    assert_eq!(
        reused["result"]["structuredContent"]["version"], 2,
        "{reused}"
    );
}

/// A key named twice in one object, anywhere in a message (the tool's arguments, a message of a sequence, the
/// envelope's id), gets -32600 naming the key and where it is, and runs nothing. (serde kept the last
/// `"message"` of the arguments: `set_discount` then `clear` cleared the cart.)
#[test]
fn duplicate_keys_anywhere_in_a_message_are_refused_naming_the_key() {
    let mut cart = Cart::start();
    let cases = [
        (
            raw_call(
                801,
                "dispatch",
                r#"{"message":"set_discount","message":"clear","args":{"percent":5}}"#,
            ),
            json!(801),
            r#"duplicate key "message" in params.arguments; each key of a JSON object may appear once"#,
        ),
        (
            raw_call(
                802,
                "dispatch",
                r#"{"messages":[{"message":"clear"},{"message":"set_discount","args":{"percent":5,"percent":500}}]}"#,
            ),
            json!(802),
            r#"duplicate key "percent" in params.arguments.messages[1].args"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":803,"id":804,"method":"tools/call","params":{"name":"dispatch","arguments":{"message":"clear"}}}"#.to_owned(),
            Value::Null,
            r#"duplicate key "id" in the message"#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":805,"method":"tools/call","params":{"name":"snapshot","name":"dispatch","arguments":{"message":"clear"}}}"#.to_owned(),
            json!(805),
            r#"duplicate key "name" in params;"#,
        ),
    ];
    for (line, id, reason) in cases {
        cart.send_raw(line.as_bytes());
        let answer = if id.is_null() {
            let unasked = cart.assert_intact(&line);
            assert_eq!(unasked.len(), 1, "{line}: {unasked:?}");
            unasked[0].clone()
        } else {
            cart.response(&id)
        };
        assert_eq!(answer["id"], id, "{line}: {answer}");
        assert_eq!(answer["error"]["code"], -32600, "{line}: {answer}");
        assert_names(
            answer["error"]["message"].as_str().unwrap(),
            &["Invalid request: ", reason],
        );
        cart.assert_intact(&line);
    }
}

/// JSON `-0` is 0 wherever an integer is expected: a message's argument and `wait_version`'s numbers. (serde
/// reads it as the float -0.0, and the decoder answered "expected an integer between 0 and 100, got -0.0".)
#[test]
fn negative_zero_is_zero() {
    let mut cart = Cart::start();
    let id = cart.fresh_id();
    cart.send_raw(
        raw_call(
            id.as_u64().unwrap(),
            "dispatch",
            r#"{"message":"set_discount","args":{"percent":-0}}"#,
        )
        .as_bytes(),
    );
    let result = cart.response(&id)["result"].clone();
    assert_eq!(result["isError"], false, "{result}");
    assert_names(
        result["content"][0]["text"].as_str().unwrap(),
        &["no exposed value changed"],
    );
    let id = cart.fresh_id();
    cart.send_raw(
        raw_call(
            id.as_u64().unwrap(),
            "wait_version",
            r#"{"version":-0,"timeoutMs":-0}"#,
        )
        .as_bytes(),
    );
    let result = cart.response(&id)["result"].clone();
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["structuredContent"], cart.baseline);
    cart.assert_intact("-0");
}

/// `resume` with a property it does not take is refused naming it, like `wait_version`, and answers nothing: the
/// interrupt stays open. (A misspelt `reason` was dropped without a word.)
#[test]
fn resume_refuses_unknown_properties() {
    let mut cart = Cart::start_with(true);
    let paused = cart.call("dispatch", json!({"message": "clear"}));
    assert_eq!(paused["isError"], false, "{paused}");
    let open = cart.call("snapshot", json!({}))["structuredContent"]["interrupts"].clone();
    let interrupt = open[0]["id"]
        .as_str()
        .expect("an open interrupt")
        .to_owned();
    let reason = cart.rejected(
        "resume",
        json!({"id": interrupt, "approve": true, "wait_version": 1}),
    );
    assert_names(
        &reason,
        &[
            r#"unknown property "wait_version"; resume takes {"id": "i1", "approve": true or false, "reason": "..."}"#,
            "open interrupts:",
        ],
    );
    let still = cart.call("snapshot", json!({}))["structuredContent"].clone();
    assert_eq!(
        still["interrupts"][0]["id"], interrupt,
        "still open: {still}"
    );
    assert_eq!(still["values"], cart.baseline["values"], "nothing ran");
    let denied = cart.call(
        "resume",
        json!({"id": interrupt, "approve": false, "reason": "a test"}),
    );
    assert_eq!(denied["isError"], false, "{denied}");
    cart.assert_intact("resume");
}

/// Over Streamable HTTP (in process, both eras), `tools/call` with malformed params gets the same -32602 naming the
/// field as over stdio, and the state is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_tools_call_with_malformed_params_names_the_field() {
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("ranvier-cart", "1.0.0"))
        .expect("the adapter is built");
    let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", HttpOptions::new())
        .await
        .expect("binds");
    for era in [Era::Legacy, Era::Modern] {
        let mut session = Session::open(server.local_addr(), "/mcp", era, "hostile").await;
        let before = session.call_tool("snapshot", json!({})).await["structuredContent"].clone();
        for (params, reason) in [
            (json!({"arguments": {}}), "missing \"name\""),
            (
                json!({"name": "dispatch", "arguments": "clear"}),
                "\"arguments\" must be an object of the tool's arguments by name, got \"clear\"",
            ),
        ] {
            let message = session.with_meta(
                json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": params}),
            );
            let reply = tokio::time::timeout(http_client::GUARD, session.post_message(&message))
                .await
                .expect("hang guard");
            let messages = reply.messages();
            let response = messages
                .iter()
                .find(|m| m["id"] == 77)
                .unwrap_or_else(|| panic!("{era:?} {params}: {}", reply.text()));
            assert_eq!(response["error"]["code"], -32602, "{era:?}: {response}");
            assert_names(
                response["error"]["message"].as_str().unwrap(),
                &["invalid params of tools/call: ", reason],
            );
        }
        let after = session.call_tool("snapshot", json!({})).await["structuredContent"].clone();
        assert_eq!(after, before, "{era:?}");
    }
    server.shutdown();
    host.dispose();
}

/// The URIs of the resource notifications on `updates` up to and including the first one for `uri`.
async fn updates_until(
    updates: &mut tokio::sync::mpsc::UnboundedReceiver<Value>,
    uri: &str,
) -> Vec<String> {
    let mut uris = Vec::new();
    loop {
        let notification = http_client::next(updates).await;
        assert_eq!(
            notification["method"], "notifications/resources/updated",
            "{notification}"
        );
        let got = notification["params"]["uri"].as_str().unwrap().to_owned();
        uris.push(got.clone());
        if got == uri {
            return uris;
        }
    }
}

/// The same attacks on one HTTP session (in process): a second `initialize` is refused and leaves the
/// subscriptions whole, a request reusing the id of one in flight gets 400 with -32600 while the first is still
/// answered, and a body naming a key twice gets 400 with -32600 naming it; the state is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_session_attacks_are_refused_and_lose_nothing() {
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("ranvier-cart", "1.0.0"))
        .expect("the adapter is built");
    let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", HttpOptions::new())
        .await
        .expect("binds");
    let state = "ranvier://state";
    let mut session = Session::open(server.local_addr(), "/mcp", Era::Legacy, "hostile").await;
    let (mut updates, _stream) = session.subscribe(state).await;

    let again = session
        .request(
            "initialize",
            initialize(Value::Null, "impostor")["params"].clone(),
        )
        .await;
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert_names(
        again["error"]["message"].as_str().unwrap(),
        &["Invalid request: the session is already initialized"],
    );
    let resubscribed = session
        .request("resources/subscribe", json!({"uri": state}))
        .await;
    assert_eq!(resubscribed["result"], json!({}), "{resubscribed}");
    for percent in [5, 10, 15] {
        let result = session
            .call_tool(
                "dispatch",
                json!({"message": "set_discount", "args": {"percent": percent}}),
            )
            .await;
        assert_eq!(result["isError"], false, "{result}");
        assert_eq!(updates_until(&mut updates, state).await, [state]);
    }
    let unsubscribed = session
        .request("resources/unsubscribe", json!({"uri": state}))
        .await;
    assert_eq!(unsubscribed["result"], json!({}), "{unsubscribed}");
    let marker = session
        .request(
            "resources/subscribe",
            json!({"uri": "ranvier://state/count"}),
        )
        .await;
    assert_eq!(marker["result"], json!({}), "{marker}");
    let added = session
        .call_tool(
            "dispatch",
            json!({"message": "add_item", "args": {"sku": "pear", "unitPrice": 80, "quantity": 1}}),
        )
        .await;
    assert_eq!(added["isError"], false, "{added}");
    assert_eq!(
        updates_until(&mut updates, "ranvier://state/count").await,
        ["ranvier://state/count"]
    );

    // an id in flight
    let wait = json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
                      "params": {"name": "wait_version", "arguments": {"version": 5, "timeoutMs": 60000}}});
    let (status, mut waiting, _task) = http_client::open_stream(
        server.local_addr(),
        "/mcp",
        hyper::Method::POST,
        &session.headers_for(&wait),
        wait.to_string().into_bytes(),
    )
    .await;
    assert_eq!(status, hyper::StatusCode::OK);
    let twice = json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
                       "params": {"name": "snapshot", "arguments": {}}});
    let refused = session.post_message(&twice).await;
    assert_eq!(
        refused.status,
        hyper::StatusCode::BAD_REQUEST,
        "{}",
        refused.text()
    );
    assert_eq!(
        refused.messages()[0],
        json!({"jsonrpc": "2.0", "id": 77, "error": {"code": -32600, "message":
            "Invalid request: id 77 is in use by a request still in flight; give each request its own id"}})
    );
    let moved = session
        .call_tool(
            "dispatch",
            json!({"message": "set_discount", "args": {"percent": 20}}),
        )
        .await;
    assert_eq!(moved["isError"], false, "{moved}");
    let answered = http_client::next(&mut waiting).await;
    assert_eq!(answered["id"], 77, "{answered}");
    assert_eq!(
        answered["result"]["structuredContent"]["version"], 5,
        "{answered}"
    );

    // a key twice
    let body = r#"{"jsonrpc":"2.0","id":78,"method":"tools/call","params":{"name":"dispatch","arguments":{"message":"set_discount","message":"clear","args":{"percent":1}}}}"#;
    let headers = session.headers_for(&json!({"method": "tools/call"}));
    let reply = session
        .http
        .send(hyper::Method::POST, &headers, body.as_bytes().to_vec())
        .await;
    assert_eq!(
        reply.status,
        hyper::StatusCode::BAD_REQUEST,
        "{}",
        reply.text()
    );
    assert_eq!(
        reply.messages()[0],
        json!({"jsonrpc": "2.0", "id": 78, "error": {"code": -32600, "message":
            "Invalid request: duplicate key \"message\" in params.arguments; each key of a JSON object may appear once"}})
    );
    let after = session.call_tool("snapshot", json!({})).await["structuredContent"].clone();
    assert_eq!(
        after,
        json!({"version": 5, "values": {"count": 1, "subtotal": 80, "discount": 20, "total": 64,
            "lines": [{"key": "pear", "unitPrice": 80, "quantity": 1, "total": 80}]}})
    );
    server.shutdown();
    host.dispose();
}

/// Ten thousand `wait_version` calls cancelled with `notifications/cancelled` stop waiting at once, instead of
/// holding their waiter (a timer entry and a receiver, about 10 KB with its task) until their 60 s timeout: the
/// exposure's count of waiting calls falls back to zero, and the server still answers. (rmcp keeps running a
/// cancelled request's handler; the adapter now stops it.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_waits_let_go_of_their_waiters() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    const WAITS: u64 = 10_000;
    let host = cart::start_cart().expect("the cart starts");
    let adapter = cart::cart_adapter(&host, McpAdapterOptions::new("ranvier-cart", "1.0.0"))
        .expect("the adapter is built");
    let handle = adapter.handle().clone();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_io);
    let served = tokio::spawn(ranvier::mcp::serve_lines(
        adapter,
        server_read,
        server_write,
    ));
    let (client_read, mut client_write) = tokio::io::split(client_io);
    let mut lines = tokio::io::BufReader::new(client_read).lines();
    let mut send = async |message: Value| {
        let mut line = message.to_string();
        line.push('\n');
        client_write.write_all(line.as_bytes()).await.unwrap();
    };
    send(initialize(json!(0), "hostile")).await;
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    let mut batch = String::new();
    for id in 1..=WAITS {
        batch.push_str(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "wait_version", "arguments": {"version": 1_000_000, "timeoutMs": 60000}}})
            .to_string());
        batch.push('\n');
    }
    client_write.write_all(batch.as_bytes()).await.unwrap();
    let waited = async {
        while handle.waiting() < WAITS as usize {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(http_client::GUARD, waited)
        .await
        .expect("hang guard: every call waits");
    let mut batch = String::new();
    for id in 1..=WAITS {
        batch.push_str(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": id, "reason": "changed my mind"}})
            .to_string(),
        );
        batch.push('\n');
    }
    client_write.write_all(batch.as_bytes()).await.unwrap();
    // the timeouts are a minute away: the hang guard passes long before them
    let released = async {
        while handle.waiting() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), released)
        .await
        .unwrap_or_else(|_| panic!("{} cancelled calls still wait", handle.waiting()));
    let mut send = async |message: Value| {
        let mut line = message.to_string();
        line.push('\n');
        client_write.write_all(line.as_bytes()).await.unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": "after", "method": "tools/call",
                "params": {"name": "snapshot", "arguments": {}}}),
    )
    .await;
    let answer = tokio::time::timeout(http_client::GUARD, async {
        loop {
            let line = lines.next_line().await.unwrap().expect("a line");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == "after" {
                return message;
            }
            // a cancelled call is never answered (only the handshake is)
            assert_eq!(message["id"], 0, "{message}");
        }
    })
    .await
    .expect("hang guard: the server answers");
    assert_eq!(
        answer["result"]["structuredContent"]["version"], 0,
        "{answer}"
    );
    drop(client_write);
    drop(lines);
    let _ = tokio::time::timeout(http_client::GUARD, served).await;
    host.dispose();
}
