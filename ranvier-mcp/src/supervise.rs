//! `ranvier-mcp supervise`: an stdio MCP server that serves an app from a copy of its build output and, on a
//! `tools/call` after a rebuild, reloads the new build and replays every message accepted so far.
//!
//! The supervisor forwards JSON-RPC lines between its client (stdin/stdout) and the app (the child's
//! stdin/stdout) unchanged, so every method and both protocol eras pass through as the app answers them. It reads
//! only what it must: the client's `initialize` and `notifications/initialized` (repeated to a new build), resource
//! subscriptions (which end at a reload), and `tools/call` (which triggers a reload). The messages accepted so far
//! are the app's own journal: each run gets `RANVIER_JOURNAL` pointing at a file of its own.
//!
//! It reads its client's lines as the app's stdio layer does ([`ranvier::mcp::stdio::LineReader`], 16 MiB a line)
//! and answers a line that does not read as JSON itself, with the parse error the app would give, in its words
//! ([`ranvier::mcp::stdio::Line::json`]): `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error:
//! invalid UTF-8 at byte 31"}}`, `Parse error: not JSON: …`, or `Parse error: line of 17825792 bytes is past the
//! 16777216-byte limit` for a line it discarded as it arrived, never holding more than the limit. The next line is
//! read as if the bad one had not been sent. JSON that is not a message still goes to the app, which answers it
//! (-32600 with the reason). A line the app writes on stdout that is not JSON (invalid UTF-8 included) is dropped
//! with a note on stderr; the session goes on.
//!
//! This file holds the forwarding and the session; `supervise/reload.rs` the reload (wait for a stable build, start
//! it, repeat the handshake, replay the journal, swap).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use ranvier::mcp::stdio::{Line, LineReader};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::{mpsc, oneshot, watch};

use crate::Failure;
use crate::app::{self, Output};

mod reload;

/// How long the replay of a long journal may take.
const REPLAY_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest a reload waits for a binary that keeps changing.
const SETTLE_LIMIT: Duration = Duration::from_secs(60);
/// The property of a result's structured content that carries the reload line.
const RELOAD_KEY: &str = "reload";
/// The environment variable a ranvier app appends its journal to.
const JOURNAL_ENV: &str = "RANVIER_JOURNAL";

/// What `supervise` serves and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// The app's build output, watched for rebuilds.
    pub binary: PathBuf,
    /// Arguments passed to the app.
    pub args: Vec<String>,
    /// How long a new build has to answer the client's `initialize` (or a first request).
    pub startup_timeout: Duration,
    /// How long the binary must keep its timestamp before a reload (half a second).
    pub settle: Duration,
}

/// A build of the binary: its modification time and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    modified: SystemTime,
    len: u64,
}

fn stamp(path: &Path) -> std::io::Result<Stamp> {
    let meta = std::fs::metadata(path)?;
    Ok(Stamp {
        modified: meta.modified()?,
        len: meta.len(),
    })
}

/// `12:01:02 UTC`, the time of day of a build.
fn time_of_day(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
        % 86_400;
    format!(
        "{:02}:{:02}:{:02} UTC",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// A client request forwarded to a run of the app and not answered yet.
struct Pending {
    id: Value,
    method: String,
    generation: u32,
    /// The reload line to put in front of the answer.
    prefix: Option<String>,
}

/// What the readers of the app's stdout and the main loop share.
#[derive(Default)]
struct Shared {
    /// The run whose output goes to the client.
    current: u32,
    /// Set when the current run exited.
    dead: bool,
    pending: HashMap<String, Pending>,
    /// The supervisor's own requests (a repeated `initialize`, the replay), by id, with their run.
    internal: HashMap<String, (u32, oneshot::Sender<Value>)>,
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

fn id_key(id: &Value) -> String {
    id.to_string()
}

fn error_response(id: &Value, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": message}}).to_string()
}

/// One run of the app, from its own copy of the binary.
struct Generation {
    number: u32,
    child: Child,
    stdin: ChildStdin,
    stamp: Stamp,
    journal: PathBuf,
    output: Output,
}

struct Supervisor {
    options: Options,
    workdir: PathBuf,
    shared: Arc<Mutex<Shared>>,
    to_client: mpsc::UnboundedSender<String>,
    generation: Generation,
    /// A build that failed to start: not retried until the binary changes again.
    refused: Option<Stamp>,
    initialize: Option<Value>,
    initialized: bool,
    subscriptions: BTreeSet<String>,
    next_internal: u64,
    /// The stamp of the running build, for the copier.
    running: watch::Sender<Stamp>,
    prepared: PreparedSlot,
}

/// Serves the app over stdin/stdout until the client closes stdin.
///
/// # Errors
///
/// [`Failure::Usage`] when the binary is missing or the first run cannot start.
pub async fn run(options: Options) -> Result<(), Failure> {
    let first = stamp(&options.binary).map_err(|e| {
        Failure::Usage(format!(
            "cannot serve {}: {}; build it first (for example `cargo build --example cart`) and pass the path of the binary",
            options.binary.display(),
            app::io_reason(&e)
        ))
    })?;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .subsec_nanos();
    let workdir = std::env::temp_dir().join(format!(
        "ranvier-mcp-supervise-{}-{nanos}",
        std::process::id()
    ));
    let (to_client, mut outgoing) = mpsc::unbounded_channel::<String>();
    let mut writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = outgoing.recv().await {
            let written = async {
                stdout.write_all(line.as_bytes()).await?;
                stdout.write_all(b"\n").await?;
                stdout.flush().await
            };
            if written.await.is_err() {
                break;
            }
        }
    });
    let shared = Arc::new(Mutex::new(Shared {
        current: 1,
        ..Shared::default()
    }));
    let generation =
        spawn(&options, &workdir, 1, first, None, &shared, &to_client).map_err(|reason| {
            Failure::Usage(format!(
                "cannot serve {}: {reason}",
                options.binary.display()
            ))
        })?;
    let mut supervisor = Supervisor {
        options,
        workdir,
        shared,
        to_client,
        generation,
        refused: None,
        initialize: None,
        initialized: false,
        subscriptions: BTreeSet::new(),
        next_internal: 0,
        running: watch::Sender::new(first),
        prepared: PreparedSlot::default(),
    };
    let copier = tokio::spawn(prepare_copies(
        supervisor.options.binary.clone(),
        supervisor.workdir.clone(),
        supervisor.options.settle,
        supervisor.running.subscribe(),
        supervisor.prepared.clone(),
    ));
    // a line that is not JSON is answered here, as the app would answer it (in its words): a line past the limit
    // never reaches the app (it is discarded as it arrives), and the answer does not depend on a run being up
    let mut lines = LineReader::new(tokio::io::stdin());
    while let Some(line) = lines.next_line().await {
        match line.json() {
            Ok(Some((line, message))) => supervisor.handle(line, message).await,
            Ok(None) => {}
            Err(error) => {
                let _ = supervisor.to_client.send(error.response());
            }
        }
    }
    copier.abort();
    supervisor.shutdown().await;
    // what is queued for the client is still written: the senders are gone once the runs' readers end
    if tokio::time::timeout(Duration::from_secs(2), &mut writer)
        .await
        .is_err()
    {
        writer.abort();
    }
    Ok(())
}

/// Copies the binary for run `number`, starts it with its own journal, and forwards its output.
fn spawn(
    options: &Options,
    workdir: &Path,
    number: u32,
    stamp: Stamp,
    ready: Option<Prepared>,
    shared: &Arc<Mutex<Shared>>,
    to_client: &mpsc::UnboundedSender<String>,
) -> Result<Generation, String> {
    let (dir, copy) = match ready {
        Some(Prepared { dir, copy, .. }) => (dir, copy),
        None => {
            let dir = workdir.join(format!("run-{number}"));
            let copy = copy_build(&options.binary, &dir)?;
            (dir, copy)
        }
    };
    let journal = dir.join("journal.jsonl");
    let mut child = tokio::process::Command::new(&copy)
        .args(&options.args)
        .env(JOURNAL_ENV, &journal)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {}: {}", copy.display(), app::io_reason(&e)))?;
    let output = Output::default();
    if let Some(stderr) = child.stderr.take() {
        output.keep_stderr(stderr, true);
    }
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("the app's stdio could not be piped".into());
    };
    tokio::spawn(forward(
        number,
        stdout,
        shared.clone(),
        to_client.clone(),
        output.clone(),
    ));
    Ok(Generation {
        number,
        child,
        stdin,
        stamp,
        journal,
        output,
    })
}

/// Copies `binary` into `dir` (created), returning the copy's path.
fn copy_build(binary: &Path, dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let name = binary
        .file_name()
        .map_or_else(|| "app".into(), ToOwned::to_owned);
    let copy = dir.join(name);
    std::fs::copy(binary, &copy).map_err(|e| {
        format!(
            "cannot copy {} to {}: {}",
            binary.display(),
            copy.display(),
            app::io_reason(&e)
        )
    })?;
    Ok(copy)
}

/// A copy of a new build made ahead of the reload, once the build was stable.
struct Prepared {
    stamp: Stamp,
    dir: PathBuf,
    copy: PathBuf,
}

type PreparedSlot = Arc<tokio::sync::Mutex<Option<Prepared>>>;

/// Watches the binary; once a new build has kept its stamp for `settle`, copies it ahead of the reload, so a
/// reload of a large (debug) binary does not pay for the copy.
async fn prepare_copies(
    binary: PathBuf,
    workdir: PathBuf,
    settle: Duration,
    running: watch::Receiver<Stamp>,
    prepared: PreparedSlot,
) {
    let mut count = 0_u32;
    let mut seen: Option<(Stamp, Instant)> = None;
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let Ok(now) = stamp(&binary) else {
            seen = None;
            continue;
        };
        if now == *running.borrow()
            || prepared
                .lock()
                .await
                .as_ref()
                .is_some_and(|p| p.stamp == now)
        {
            continue;
        }
        let since = match seen {
            Some((stamp, since)) if stamp == now => since,
            _ => {
                seen = Some((now, Instant::now()));
                continue;
            }
        };
        let age = SystemTime::now()
            .duration_since(now.modified)
            .unwrap_or_default();
        if age < settle && since.elapsed() < settle {
            continue;
        }
        let mut slot = prepared.lock().await;
        count += 1;
        let dir = workdir.join(format!("prepared-{count}"));
        let copied = {
            let (binary, dir) = (binary.clone(), dir.clone());
            tokio::task::spawn_blocking(move || copy_build(&binary, &dir)).await
        };
        match copied {
            Ok(Ok(copy)) if stamp(&binary).ok() == Some(now) => {
                if let Some(old) = slot.replace(Prepared {
                    stamp: now,
                    dir,
                    copy,
                }) {
                    let _ = std::fs::remove_dir_all(old.dir);
                }
            }
            _ => {
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }
}

/// Forwards run `number`'s output to the client while it is the current run; routes the answers to the
/// supervisor's own requests; when the run exits, answers what it left pending.
async fn forward(
    number: u32,
    stdout: ChildStdout,
    shared: Arc<Mutex<Shared>>,
    to_client: mpsc::UnboundedSender<String>,
    output: Output,
) {
    // the app is trusted with the length of its lines (an answer may be long), not with their content
    let mut lines = LineReader::new(stdout).max_line_bytes(usize::MAX);
    while let Some(line) = lines.next_line().await {
        let mut message = match line.json() {
            Ok(Some((_, message))) => message,
            Ok(None) => continue,
            Err(error) => {
                let shown = match line {
                    Line::Read(bytes) => String::from_utf8_lossy(bytes),
                    Line::TooLong { .. } => "".into(),
                };
                eprintln!(
                    "ranvier-mcp supervise: dropped a line the app wrote on stdout that is not JSON ({}): {shown}",
                    error.message()
                );
                continue;
            }
        };
        let is_response = message.get("method").is_none() && message.get("id").is_some();
        {
            let mut shared = lock(&shared);
            if is_response {
                let key = id_key(&message["id"]);
                if let Some((_, answer)) = shared.internal.remove(&key) {
                    let _ = answer.send(message);
                    continue;
                }
                if number != shared.current {
                    continue;
                }
                if let Some(Pending {
                    prefix: Some(prefix),
                    ..
                }) = shared.pending.remove(&key)
                {
                    add_prefix(&mut message, &prefix);
                }
            } else if number != shared.current {
                continue;
            }
        }
        let _ = to_client.send(message.to_string());
    }
    // the run exited: drop its internal waiters, answer the client's requests it left pending
    let ended: Vec<Pending> = {
        let mut shared = lock(&shared);
        shared.internal.retain(|_, (run, _)| *run != number);
        if shared.current != number {
            return;
        }
        shared.dead = true;
        let keys: Vec<String> = shared.pending.keys().cloned().collect();
        keys.into_iter()
            .filter_map(|key| shared.pending.remove(&key))
            .collect()
    };
    tokio::time::sleep(Duration::from_millis(20)).await; // let the stderr reader catch up
    for pending in ended {
        let _ = to_client.send(error_response(
            &pending.id,
            &format!(
                "the app exited before answering {}; the next request restarts it{}",
                pending.method,
                output.quote()
            ),
        ));
    }
}

/// Puts `prefix` on its own line in front of a result's first text block (or of an error's message), and, when the
/// result has structured content, in it too as `"reload"`: a client that shows a model the structured content in
/// place of the text (Claude Code does, for `snapshot` and `wait_version`) still shows the reload.
fn add_prefix(message: &mut Value, prefix: &str) {
    if let Some(Value::Object(structured)) = message.pointer_mut("/result/structuredContent") {
        structured.insert(RELOAD_KEY.into(), json!(prefix));
    }
    if let Some(content) = message
        .pointer_mut("/result/content")
        .and_then(Value::as_array_mut)
    {
        match content.first_mut() {
            Some(block) if block.get("type") == Some(&json!("text")) => {
                let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                block["text"] = json!(format!("{prefix}\n{text}"));
            }
            _ => content.insert(0, json!({"type": "text", "text": prefix})),
        }
    } else if let Some(text) = message.pointer_mut("/error/message") {
        let old = text.as_str().unwrap_or("").to_owned();
        *text = json!(format!("{prefix}\n{old}"));
    }
}

impl Supervisor {
    /// Handles a line of the client's that reads as JSON (`message`); what it is as JSON-RPC is the app's to judge.
    async fn handle(&mut self, line: &str, message: Value) {
        let method = message
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let id = message.get("id").cloned();
        let uri = message
            .pointer("/params/uri")
            .and_then(Value::as_str)
            .map(str::to_owned);
        match method.as_deref() {
            Some("initialize") => self.initialize = Some(message.clone()),
            Some("notifications/initialized") => self.initialized = true,
            Some("resources/subscribe") => self.subscriptions.extend(uri),
            Some("resources/unsubscribe") => {
                if let Some(uri) = uri {
                    self.subscriptions.remove(&uri);
                }
            }
            _ => {}
        }
        let (Some(id), Some(method)) = (id, method) else {
            // a notification, the client's answer to the app's request, or a malformed message
            self.write(line).await;
            return;
        };
        let dead = lock(&self.shared).dead;
        let prefix = if method == "tools/call" || dead {
            self.reload(&message, dead, method != "initialize").await
        } else {
            None
        };
        {
            let mut shared = lock(&self.shared);
            if shared.dead {
                drop(shared);
                let reason = prefix.unwrap_or_else(|| "the app has exited".into());
                let _ = self.to_client.send(error_response(&id, &reason));
                return;
            }
            shared.pending.insert(
                id_key(&id),
                Pending {
                    id: id.clone(),
                    method,
                    generation: self.generation.number,
                    prefix,
                },
            );
        }
        self.write(line).await;
    }

    /// Writes a line to the current run; a request that cannot be written is answered with an error.
    async fn write(&mut self, line: &str) {
        if let Err(e) = write_line(&mut self.generation.stdin, line).await {
            eprintln!("ranvier-mcp supervise: cannot write to the app: {e}");
        }
    }

    /// Closes the current run's stdin so the app ends on its own, kills it if it lingers, removes the copies.
    async fn shutdown(self) {
        let Generation {
            mut child, stdin, ..
        } = self.generation;
        drop(stdin);
        if tokio::time::timeout(Duration::from_secs(2), child.wait())
            .await
            .is_err()
        {
            let _ = child.kill().await;
        }
        let _ = std::fs::remove_dir_all(&self.workdir);
    }
}

async fn write_line(stdin: &mut ChildStdin, line: &str) -> std::io::Result<()> {
    stdin.write_all(line.as_bytes()).await?;
    stdin.write_all(b"\n").await?;
    stdin.flush().await
}
