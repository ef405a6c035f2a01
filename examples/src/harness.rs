//! The harness of the gallery and the blind sets: a mistake to find ([`Shape`]), one `explain` call about it over MCP
//! ([`run`]), the table a `--report` prints ([`report`]), and the helpers a blind set's `main` is made of (choosing a
//! mistake, finding its marked line, starting and exposing the app, the value a node settles to).
//!
//! ```no_run
//! # async fn demo(shapes: Vec<ranvier_examples::harness::Shape>) {
//! // what `cargo run -p ranvier-examples --features blind --example blind_salon -- --report --answers` does with the salon's shapes
//! ranvier_examples::harness::report(&shapes, true).await;
//! # }
//! ```

use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::{GraphHost, HostError};
use ranvier::mcp::{McpAdapter, McpAdapterOptions};
use serde_json::{Value, json};

/// A defect to find: where it is, how to show it and which node to explain.
pub struct Shape {
    /// A short name.
    pub name: &'static str,
    /// The class of mistake.
    pub class: &'static str,
    /// The node `explain` is asked about: the value that is visibly wrong.
    pub node: &'static str,
    /// The messages that show it.
    pub messages: Value,
    /// The faulty line, as `file.rs:<n>`.
    pub faulty: String,
    /// Starts the app: its adapter, and what disposes it.
    pub start: fn() -> Result<Started, HostError>,
}

/// A started app: its MCP adapter, and what disposes its graph.
pub type Started = (McpAdapter, Box<dyn FnOnce() + Send>);

/// What one `explain` call answered for a shape.
pub struct Outcome {
    /// The whole answer.
    pub answer: String,
    /// Whether the answer names the faulty `file:line` at all.
    pub named: bool,
    /// How many characters after the node line the faulty `file:line` first appears, if it does.
    pub position: Option<usize>,
    /// How many characters from the answer's start it first appears, if it does.
    pub from_start: Option<usize>,
}

/// Where `file_line` (`gallery.rs:12`) first appears in `text` as a whole `file:line` (not `gallery.rs:120`).
fn find_line(text: &str, file_line: &str) -> Option<usize> {
    text.match_indices(file_line)
        .find(|(i, _)| {
            !text[i + file_line.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|(i, _)| text[..i].chars().count())
}

impl Outcome {
    fn of(answer: String, faulty: &str) -> Outcome {
        let after_node_line = answer.split_once('\n').map_or("", |(_, rest)| rest);
        Outcome {
            named: find_line(&answer, faulty).is_some(),
            position: find_line(after_node_line, faulty),
            from_start: find_line(&answer, faulty),
            answer,
        }
    }
}

/// Runs `shape`: starts its app, dispatches its messages and explains its node with one `explain` call over MCP
/// (JSON-RPC lines through [`ranvier::mcp::serve_lines`], as a client on stdio sends them).
///
/// # Errors
///
/// When the app does not start or the exchange fails.
pub async fn run(shape: &Shape) -> Result<Outcome, Box<dyn std::error::Error + Send + Sync>> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (adapter, dispose) = (shape.start)()?;
    let (client, server) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server);
    let serving = tokio::spawn(ranvier::mcp::serve_lines(
        adapter.clone(),
        server_read,
        server_write,
    ));
    let (client_read, mut client_write) = tokio::io::split(client);
    let mut lines = BufReader::new(client_read).lines();
    // `GALLERY_DETAIL=full` asks for the long form (to read what the short one left out)
    let mut arguments = json!({"node": shape.node, "messages": shape.messages});
    if let Ok(detail) = std::env::var("GALLERY_DETAIL") {
        arguments["detail"] = json!(detail);
    }
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "gallery", "version": "1.0.0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "explain", "arguments": arguments}}),
    ];
    let mut answer = None;
    for request in requests {
        client_write
            .write_all(format!("{request}\n").as_bytes())
            .await?;
        let Some(id) = request.get("id").cloned() else {
            continue;
        };
        loop {
            let line = lines
                .next_line()
                .await?
                .ok_or("the server closed the connection")?;
            let response: Value = serde_json::from_str(&line)?;
            if response.get("id") != Some(&id) {
                continue;
            }
            if let Some(error) = response.get("error") {
                return Err(format!("{} failed: {error}", request["method"]).into());
            }
            answer = response
                .pointer("/result/content/0/text")
                .and_then(Value::as_str)
                .map(str::to_owned);
            break;
        }
    }
    // both halves: the duplex closes, the server reads the end of its input and stops
    drop((client_write, lines));
    let _ = serving.await;
    adapter.dispose();
    dispose();
    let answer = answer.ok_or("explain answered no text")?;
    Ok(Outcome::of(answer, &shape.faulty))
}

/// What a blind set's `--report` prints: a table of its `shapes`, one row each (named in one call, the answer's
/// length, where the faulty line first appears), then the summary line; with `answers`, each answer on stderr.
pub async fn report(shapes: &[Shape], answers: bool) {
    let (mut named, mut early, mut lengths) = (0, 0, Vec::new());
    println!(
        "| shape | class | named in one call | answer (chars) | faulty line at (chars after the node line) | faulty line at (chars from the start) |"
    );
    println!("|---|---|---|---|---|---|");
    for shape in shapes {
        match run(shape).await {
            Ok(outcome) => {
                let length = outcome.answer.chars().count();
                lengths.push(length);
                named += usize::from(outcome.named);
                early += usize::from(outcome.from_start.is_some_and(|p| p < 400));
                let at = |p: Option<usize>| p.map_or_else(|| "-".to_owned(), |p| p.to_string());
                println!(
                    "| {} | {} | {} | {length} | {} | {} |",
                    shape.name,
                    shape.class,
                    if outcome.named { "yes" } else { "no" },
                    at(outcome.position),
                    at(outcome.from_start)
                );
                if answers {
                    eprintln!(
                        "== {} (node {}, faulty {})\n{}\n",
                        shape.name, shape.node, shape.faulty, outcome.answer
                    );
                }
            }
            Err(error) => println!(
                "| {} | {} | error: {error} | | | |",
                shape.name, shape.class
            ),
        }
    }
    let median = median(&mut lengths);
    println!(
        "\n{named} of {} named in one call; {early} within the first 400 characters of the answer; median answer {median} characters",
        shapes.len()
    );
}

/// The mistake of a blind set's `slips` (key, class, mistake) that `--slip KEY` in `args`, else the environment
/// variable `env`, names; `none` (the correct app) when neither is given.
///
/// # Errors
///
/// `--slip` without a key, or a key no mistake has (the message lists the keys).
pub fn chosen_slip<T: Copy>(
    args: &[String],
    env: &str,
    slips: &[(&str, &str, T)],
    none: T,
) -> Result<T, String> {
    let key = match args.iter().position(|a| a == "--slip") {
        Some(at) => args.get(at + 1).cloned().ok_or_else(|| {
            format!(
                "--slip needs a mistake's key, like --slip {}",
                slips.first().map_or("key", |s| s.0)
            )
        })?,
        None => match std::env::var(env) {
            Ok(key) => key,
            Err(_) => return Ok(none),
        },
    };
    slips
        .iter()
        .find(|s| s.0 == key)
        .map(|s| s.2)
        .ok_or_else(|| {
            let keys: Vec<&str> = slips.iter().map(|s| s.0).collect();
            format!("no mistake {key:?}: the keys are {}", keys.join(", "))
        })
}

/// `<file>:<n>` for the first code line after `// BUG(key)` in whichever of a blind set's `files` (name, source)
/// holds it.
///
/// # Panics
///
/// When no file holds the marker, or two do (`app` names the app in the message).
pub fn marked_line(files: &[(&str, &str)], key: &str, app: &str) -> String {
    let marker = format!("// BUG({key})");
    let mut found = Vec::new();
    for (file, source) in files {
        let lines: Vec<&str> = source.lines().collect();
        for (at, _) in lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.trim_start() == marker)
        {
            let line = (at + 1..lines.len())
                .find(|i| !lines[*i].trim_start().starts_with("//"))
                .expect("a line after the marker");
            found.push(format!("{file}:{}", line + 1));
        }
    }
    match found.as_slice() {
        [one] => one.clone(),
        [] => panic!("no {marker} in {app}'s files"),
        more => panic!("{marker} is in more than one place: {more:?}"),
    }
}

/// The value of `node` in `exposure` after `messages` (a JSON array of `{message, args}`) ran and the flights they
/// started settled: what a blind set's `settled_value` reads.
///
/// # Errors
///
/// When `messages` is not an array, a message is refused, a flight is still pending after five seconds, or no value
/// is named `node`.
pub async fn value_after(
    exposure: &ExposureHandle,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    let messages = messages
        .as_array()
        .ok_or("messages must be an array")?
        .iter()
        .map(|m| {
            (
                m["message"].as_str().unwrap_or("").to_owned(),
                m["args"].clone(),
            )
        })
        .collect();
    let began = std::time::Instant::now();
    let outcome = exposure.dispatch_all(messages).await;
    if let Some(stop) = outcome.stopped {
        return Err(format!("message {} was refused", stop.position).into());
    }
    let settled = exposure
        .wait_settled(began, std::time::Duration::from_secs(5))
        .await;
    if !settled.pending.is_empty() {
        return Err(format!("still pending: {:?}", settled.pending).into());
    }
    Ok(settled
        .snapshot
        .get(node)
        .cloned()
        .ok_or_else(|| format!("no value {node}"))?)
}

/// What the graph thread of an `#[expose]`d app keeps: the app and its running exposure.
pub type ExposedHost<A> = GraphHost<(A, ExposureHandle)>;

/// Starts the app `make` builds on a graph thread of its own, and exposes it: what a blind set's `start_<app>` is.
///
/// # Errors
///
/// A [`HostError`] when the graph thread or the exposure cannot start.
pub fn start_exposed<A: ranvier::Expose + 'static>(
    make: impl FnOnce() -> A + Send + 'static,
) -> Result<ExposedHost<A>, HostError> {
    GraphHost::start(move || {
        let app = make();
        let mut exposure = Exposure::new();
        app.expose(&mut exposure)?;
        let exposure = exposure.start()?;
        Ok::<_, ExposeError>((app, exposure))
    })
}

/// The MCP adapter of an app [`start_exposed`] started, made on its graph thread.
///
/// # Errors
///
/// A [`HostError`] when the host is gone.
pub fn exposed_adapter<A: 'static>(
    host: &ExposedHost<A>,
    options: McpAdapterOptions,
) -> Result<McpAdapter, HostError> {
    host.invoke(move |(_, exposure)| McpAdapter::new(exposure.clone(), options))
        .wait()
}

/// The app `make` builds as a shape's app: started and exposed, its MCP adapter named `name`, and what disposes it.
///
/// # Errors
///
/// A [`HostError`] when the graph thread, the exposure or the adapter cannot start.
pub fn start_shape<A: ranvier::Expose + 'static>(
    make: impl FnOnce() -> A + Send + 'static,
    name: &str,
) -> Result<Started, HostError> {
    let host = start_exposed(make)?;
    let adapter = exposed_adapter(&host, McpAdapterOptions::new(name, "1.0.0"))?;
    Ok((adapter, Box::new(move || host.dispose())))
}

/// The value of `node` after `messages` (as [`value_after`]) in a fresh app of `host`'s kind, whose host is then
/// disposed (on an error too): what a blind set's `settled_value` is.
///
/// # Errors
///
/// As [`value_after`], and when the host is gone.
pub async fn settled_in<A: 'static>(
    host: ExposedHost<A>,
    node: &str,
    messages: &Value,
) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
    let exposure = host.invoke(|(_, exposure)| exposure.clone()).wait();
    let value = match exposure {
        Ok(exposure) => value_after(&exposure, node, messages).await,
        Err(e) => Err(e.into()),
    };
    host.dispose();
    value
}

/// A message as `explain` and `dispatch` take it: `{"message": name, "args": args}`.
pub fn message(name: &str, args: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"message": name, "args": args})
}

/// The median of `lengths` (the mean of the middle two for an even count; 0 for none).
pub fn median(lengths: &mut [usize]) -> usize {
    lengths.sort_unstable();
    match lengths.len() {
        0 => 0,
        n if n % 2 == 1 => lengths[n / 2],
        n => (lengths[n / 2 - 1] + lengths[n / 2]) / 2,
    }
}
