//! Starting an app's binary as an MCP server over stdio and connecting to it with rmcp's client.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, RunningService, serve_client_with_lifecycle,
};
use rmcp::{ClientHandler, RoleClient};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::process::{Child, ChildStdout, Command};

use crate::Failure;

/// The client name apps record as the sender of what these tools dispatch.
pub const CLIENT_NAME: &str = "ranvier-mcp";

/// How much of a failed app's stdout and stderr an error message quotes.
const QUOTE: usize = 2_000;

/// Which MCP protocol era a client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Era {
    /// 2026-07-28 when the server offers it (`server/discover`), else the `initialize` handshake.
    Auto,
    /// The `initialize` handshake (protocol 2025-11-25 and older).
    Legacy,
    /// 2026-07-28 only (`server/discover`, per-request metadata).
    Modern,
}

impl Era {
    fn name(self) -> &'static str {
        match self {
            Era::Auto => "auto",
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }

    fn lifecycle(self) -> ClientLifecycleMode {
        match self {
            Era::Legacy => ClientLifecycleMode::Initialize,
            Era::Modern => ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
            Era::Auto => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
            },
        }
    }
}

/// What to start and how to talk to it.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The app's binary.
    pub binary: PathBuf,
    /// Arguments passed to the app.
    pub args: Vec<String>,
    /// The protocol era to speak.
    pub era: Era,
    /// How long the app has to start and finish the handshake.
    pub startup_timeout: Duration,
    /// Pass the app's stderr through instead of keeping it for error messages.
    pub show_stderr: bool,
}

/// The client side of the connection: it only names itself.
#[derive(Clone)]
pub struct Client(ClientConfig);

impl Client {
    /// A client named [`CLIENT_NAME`].
    pub fn new() -> Self {
        // the `initialize` handshake asks for the newest version that has one
        Client(
            ClientConfig::new(
                ClientCapabilities::default(),
                Implementation::new(CLIENT_NAME, env!("CARGO_PKG_VERSION")),
            )
            .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE),
        )
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        self.0.clone()
    }
}

/// A running app and the MCP session with it.
pub struct Session {
    /// The rmcp client, connected.
    pub client: RunningService<RoleClient, Client>,
    child: Child,
    output: Output,
    binary: PathBuf,
}

/// What the app wrote: the head of its stdout and the tail of its stderr, for error messages.
#[derive(Clone, Default)]
pub struct Output {
    stdout_head: Arc<Mutex<Vec<u8>>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
}

impl Output {
    /// The head of stdout and the tail of stderr, as lines to append to an error message (may be empty).
    pub fn quote(&self) -> String {
        let mut text = String::new();
        let head = lock(&self.stdout_head).clone();
        let head = String::from_utf8_lossy(&head);
        if !head.trim().is_empty() {
            text.push_str("\nits stdout began with:\n");
            text.push_str(indent(head.trim_end()).as_str());
        }
        let tail = lock(&self.stderr_tail).clone();
        let tail = String::from_utf8_lossy(&tail);
        if !tail.trim().is_empty() {
            text.push_str("\nits stderr ended with:\n");
            text.push_str(indent(tail.trim_end()).as_str());
        }
        text
    }

    /// Keeps the last [`QUOTE`] bytes of `stderr`, also copying them to our stderr when `echo` is set.
    pub fn keep_stderr(&self, mut stderr: impl AsyncRead + Unpin + Send + 'static, echo: bool) {
        let tail = self.stderr_tail.clone();
        tokio::spawn(async move {
            let mut buffer = [0_u8; 4096];
            while let Ok(n) = stderr.read(&mut buffer).await {
                if n == 0 {
                    break;
                }
                if echo {
                    use std::io::Write as _;
                    let _ = std::io::stderr().write_all(&buffer[..n]);
                }
                let mut tail = lock(&tail);
                tail.extend_from_slice(&buffer[..n]);
                let excess = tail.len().saturating_sub(QUOTE);
                tail.drain(..excess);
            }
        });
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("  {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Copies the app's stdout into `into`, keeping its first [`QUOTE`] bytes for error messages. It reads to the end
/// even once `into` is gone, so a failed handshake can quote what the app wrote.
async fn pump(mut stdout: ChildStdout, mut into: DuplexStream, head: Arc<Mutex<Vec<u8>>>) {
    let mut buffer = vec![0_u8; 64 * 1024];
    let mut open = true;
    while let Ok(n) = stdout.read(&mut buffer).await {
        if n == 0 {
            break;
        }
        {
            let mut head = lock(&head);
            let room = QUOTE.saturating_sub(head.len());
            head.extend_from_slice(&buffer[..n.min(room)]);
        }
        if open && into.write_all(&buffer[..n]).await.is_err() {
            open = false;
        }
    }
}

/// The command that runs `binary`: a bare name that is not a file here is looked up on `PATH`.
pub fn command(binary: &Path) -> Result<Command, Failure> {
    let is_bare = binary.components().count() == 1;
    match std::fs::metadata(binary) {
        Ok(meta) if meta.is_dir() => Err(Failure::Usage(format!(
            "cannot start {}: it is a directory; expected the app's binary, such as target/debug/examples/cart",
            binary.display()
        ))),
        Ok(_) if is_bare => Ok(Command::new(Path::new(".").join(binary))),
        Ok(_) => Ok(Command::new(binary)),
        Err(_) if is_bare => Ok(Command::new(binary)),
        Err(e) => Err(Failure::Usage(format!(
            "cannot start {}: {}; build it first (for example `cargo build --example cart`) and pass the path of the binary",
            binary.display(),
            io_reason(&e)
        ))),
    }
}

/// A short reason for an I/O error, without the "(os error 2)" noise.
pub fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied (is it executable?)".to_owned(),
        _ => error.to_string(),
    }
}

/// Starts the app and runs the MCP handshake.
///
/// # Errors
///
/// [`Failure::Usage`] naming what went wrong: the binary is missing or cannot run, or it is not an MCP server
/// (it exited, wrote something else, or did not answer within the startup timeout).
pub async fn connect(launch: &Launch) -> Result<Session, Failure> {
    match connect_as(launch, launch.era).await {
        // a server that serves only the `initialize` era answers `server/discover` with its versions
        Err((_, true)) if launch.era == Era::Auto => connect_as(launch, Era::Legacy)
            .await
            .map_err(|(failure, _)| failure),
        outcome => outcome.map_err(|(failure, _)| failure),
    }
}

/// [`connect`] in one era; the flag on an error says the server offered only `initialize`-era versions.
async fn connect_as(launch: &Launch, era: Era) -> Result<Session, (Failure, bool)> {
    let usage = |failure: Failure| (failure, false);
    let mut command = command(&launch.binary).map_err(usage)?;
    command
        .args(&launch.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().map_err(|e| {
        usage(Failure::Usage(format!(
            "cannot start {}: {}",
            launch.binary.display(),
            io_reason(&e)
        )))
    })?;
    let output = Output::default();
    if let Some(stderr) = child.stderr.take() {
        output.keep_stderr(stderr, launch.show_stderr);
    }
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(usage(Failure::Usage(
            "the app's stdio could not be piped".into(),
        )));
    };
    let (from_app, into) = tokio::io::duplex(64 * 1024);
    let pumping = tokio::spawn(pump(stdout, into, output.stdout_head.clone()));
    let handshake = serve_client_with_lifecycle(Client::new(), (from_app, stdin), era.lifecycle());
    let failure = match tokio::time::timeout(launch.startup_timeout, handshake).await {
        Ok(Ok(client)) => {
            return Ok(Session {
                client,
                child,
                output,
                binary: launch.binary.clone(),
            });
        }
        Ok(Err(
            error @ (ClientInitializeError::JsonRpcError(_)
            | ClientInitializeError::NoCompatibleProtocolVersion { .. }
            | ClientInitializeError::LegacyFallbackFailed { .. }),
        )) => {
            let _ = child.start_kill();
            let legacy_only = matches!(
                &error,
                ClientInitializeError::NoCompatibleProtocolVersion { server_supported, .. }
                    if server_supported.iter().all(ProtocolVersion::has_initialize)
            );
            let reason = match &error {
                ClientInitializeError::LegacyFallbackFailed { discover, fallback } => {
                    format!("server/discover: {discover}; initialize: {fallback}")
                }
                other => other.to_string(),
            };
            return Err((
                Failure::Usage(format!(
                    "{} refused the MCP handshake ({} era): {reason}",
                    launch.binary.display(),
                    era.name()
                )),
                legacy_only,
            ));
        }
        Ok(Err(error)) => format!("the handshake failed: {error}"),
        Err(_) => format!(
            "it did not finish the MCP handshake within {} s",
            launch.startup_timeout.as_secs_f64()
        ),
    };
    // give a dying app a moment so its exit status and last words can be reported
    let status = tokio::time::timeout(Duration::from_millis(500), child.wait()).await;
    let _ = child.start_kill();
    let what = match status {
        Ok(Ok(status)) => format!("it exited ({status}) before finishing the MCP handshake"),
        _ => failure,
    };
    let _ = tokio::time::timeout(Duration::from_millis(500), pumping).await;
    tokio::time::sleep(Duration::from_millis(20)).await; // let the stderr reader catch up
    Err(usage(Failure::Usage(format!(
        "{} is not an MCP server over stdio: {what}{}",
        launch.binary.display(),
        output.quote()
    ))))
}

impl Session {
    /// What the app wrote to stderr so far, quoted for an error message.
    pub fn output(&self) -> String {
        self.output.quote()
    }

    /// The binary this session runs.
    pub fn binary(&self) -> &Path {
        &self.binary
    }

    /// Ends the session: closes the app's stdin, gives it a moment to exit, then kills it.
    pub async fn stop(mut self) {
        let _ = self.client.cancel().await;
        if tokio::time::timeout(Duration::from_secs(2), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}
