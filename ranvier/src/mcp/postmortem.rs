//! The post-mortem server: the traced tools served from a dump (`trace::dump`, the MCP tool `dump`) of a process
//! that is gone — a crash, a CI run, a customer's log — as that process answered them when the dump was taken.
//!
//! [`Postmortem::open`] reads the dump, starts a thread of its own and loads the dump into that thread's trace log
//! ([`trace::load_dump`](crate::trace::load_dump)); every call then runs the same code the live adapter runs for
//! its traced tools, on that thread, with the exposed names the dump recorded. It serves `explain`, `graph`, `node`,
//! `history`, `snapshot_at`, `trace_state`, `trace_lookup`, `why`, `why_not` and `waiting_on`, all read-only:
//! nothing can be dispatched into a process that is gone, so there is no `dispatch`, `snapshot` or `explain
//! {messages}` (refused, saying so).

use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use super::traced::{self, BoxedRun, GraphWork, TraceHost};
use crate::NodeId;
use crate::trace::{self, DumpError};

/// A dump loaded for a post-mortem: answers the traced tools as the process that wrote it answered them when the
/// dump was taken. Cheap to clone; usable from any thread.
///
/// # Examples
///
/// ```
/// use ranvier::mcp::Postmortem;
/// use ranvier::{trace, Memo, Signal};
///
/// let price = Signal::new(2).labelled("price");
/// let total = Memo::new({
///     let price = price.clone();
///     move |_| price.get() * 3
/// })
/// .labelled("total");
/// price.set(5);
/// assert_eq!(total.get(), 15);
/// # if !trace::TRACED { assert!(Postmortem::from_text("x", "").is_err()); return; }
/// let dump = trace::dump().unwrap();
///
/// let postmortem = Postmortem::from_text("dump.jsonl", &dump).unwrap();
/// let answer = postmortem.call_blocking("explain", r#"{"node": "total"}"#).unwrap();
/// assert!(answer.starts_with("total#2 Memo"), "{answer}");
/// assert!(answer.contains("= 15"), "{answer}");
/// // nothing can be dispatched into a process that is gone
/// let refused = postmortem.call_blocking("explain", r#"{"node": "total", "messages": []}"#).unwrap_err();
/// assert!(refused.contains("post-mortem"), "{refused}");
/// ```
#[derive(Clone)]
pub struct Postmortem {
    inner: Arc<Inner>,
}

struct Inner {
    /// Work for the dump's thread.
    jobs: Mutex<mpsc::Sender<GraphWork>>,
    exposed: Vec<(String, NodeId)>,
    tools: Vec<Tool>,
    info: ServerConfig,
}

/// Why a dump could not be served.
#[derive(Debug)]
pub struct PostmortemError {
    /// The dump's file (or the name it was given).
    pub file: String,
    /// What was wrong: the line and the reason (a file that is not a dump, a dump cut short, a newer schema, an
    /// untraced build), or why the file could not be read.
    pub error: DumpError,
}

impl std::fmt::Display for PostmortemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.error.line == 0 {
            write!(f, "{}: {}", self.file, self.error.reason)
        } else {
            write!(f, "{}: {}", self.file, self.error)
        }
    }
}

impl std::error::Error for PostmortemError {}

impl Postmortem {
    /// Reads the dump at `path` and loads it on a thread of its own.
    ///
    /// # Errors
    ///
    /// A [`PostmortemError`] when the file cannot be read or is not a dump this build reads (see
    /// [`read_dump`](crate::trace::read_dump)), or in an untraced build.
    pub fn open(path: impl AsRef<Path>) -> Result<Postmortem, PostmortemError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| PostmortemError {
            file: file.clone(),
            error: DumpError {
                line: 0,
                reason: format!("cannot read the dump: {e} (expected a file `ranvier-mcp call APP dump` or `trace::dump` wrote)"),
            },
        })?;
        Self::from_text(&file, &text)
    }

    /// Loads the dump `text` (named `file` in errors and in the server's instructions) on a thread of its own.
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn from_text(file: &str, text: &str) -> Result<Postmortem, PostmortemError> {
        let failed = |error: DumpError| PostmortemError {
            file: file.to_owned(),
            error,
        };
        let (jobs, inbox) = mpsc::channel::<GraphWork>();
        let (loaded, load) = mpsc::channel();
        let text = text.to_owned();
        // read and loaded on its thread: a dump's events hold `Rc`s, which stay there
        std::thread::Builder::new()
            .name("ranvier-postmortem".into())
            .spawn(move || {
                let read = trace::read_dump(&text).and_then(|dump| {
                    drop(text);
                    trace::load_dump(&dump)?;
                    Ok((dump.exposed, dump.clock, dump.oldest, dump.nodes.len()))
                });
                let _ = loaded.send(read);
                while let Ok(work) = inbox.recv() {
                    work();
                }
            })
            .map_err(|e| {
                failed(DumpError {
                    line: 0,
                    reason: format!("cannot start the thread to load it on: {e}"),
                })
            })?;
        let (exposed, clock, oldest, nodes) = load
            .recv()
            .unwrap_or_else(|_| {
                Err(DumpError {
                    line: 0,
                    reason: "loading it panicked".into(),
                })
            })
            .map_err(failed)?;
        let instructions = format!(
            "A post-mortem of {file}: the trace log a ranvier app dumped ({nodes} nodes, events #{oldest}..#{clock}), \
             served as the app answered when the dump was taken. Read-only: the app is gone, nothing can be \
             dispatched. Start with `explain {{\"node\": ...}}` or `graph`."
        );
        let info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "ranvier-postmortem",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(instructions);
        Ok(Postmortem {
            inner: Arc::new(Inner {
                jobs: Mutex::new(jobs),
                exposed,
                tools: traced::postmortem_tools(),
                info,
            }),
        })
    }

    /// The tools it serves.
    pub fn tools(&self) -> &[Tool] {
        &self.inner.tools
    }

    /// The names the dumped app exposed nodes under (empty for a dump of `trace::dump()` taken outside an
    /// exposure).
    pub fn exposed(&self) -> &[(String, NodeId)] {
        &self.inner.exposed
    }

    /// Calls the tool `name` with `arguments`, as a client's `tools/call` would.
    pub async fn call(&self, name: &str, arguments: Option<&JsonObject>) -> CallToolResult {
        if !self.inner.tools.iter().any(|tool| tool.name == name) {
            let names: Vec<&str> = self.inner.tools.iter().map(|t| t.name.as_ref()).collect();
            let reason = match name {
                "dispatch" | "snapshot" | "diff" | "wait_version" | "fork" | "drop_fork"
                | "resume" | "errors" => {
                    format!(
                        "{name} needs the live app; this is a post-mortem of a dump (the app is gone). Its tools: {}",
                        names.join(", ")
                    )
                }
                _ => format!(
                    "unknown tool \"{name}\"; a post-mortem's tools: {}",
                    names.join(", ")
                ),
            };
            return CallToolResult::error(vec![rmcp::model::ContentBlock::text(reason)]);
        }
        traced::call_postmortem(self, name, arguments).await
    }

    /// [`call`](Self::call) from code without a Tokio runtime, with the arguments as JSON text (`""` for none):
    /// the result's text, or its text as the error when the tool refused.
    ///
    /// # Errors
    ///
    /// The tool's error text, or why `arguments` are not a JSON object.
    ///
    /// # Panics
    ///
    /// Inside a Tokio runtime (use [`call`](Self::call) there).
    pub fn call_blocking(&self, name: &str, arguments: &str) -> Result<String, String> {
        let arguments: Option<JsonObject> = if arguments.trim().is_empty() {
            None
        } else {
            Some(
                serde_json::from_str(arguments)
                    .map_err(|e| format!("the arguments are not a JSON object: {e}"))?,
            )
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start a runtime: {e}"))?;
        let result = runtime.block_on(self.call(name, arguments.as_ref()));
        let text: Vec<String> = result
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.clone()))
            .collect();
        let text = match (&result.structured_content, text.is_empty()) {
            (Some(structured), true) => structured.to_string(),
            _ => text.join("\n"),
        };
        if result.is_error == Some(true) {
            Err(text)
        } else {
            Ok(text)
        }
    }
}

impl TraceHost for Postmortem {
    fn node_names(&self) -> Vec<(String, NodeId)> {
        self.inner.exposed.clone()
    }

    fn run_boxed(&self, work: GraphWork) -> BoxedRun<'_> {
        let sent = self
            .inner
            .jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(work)
            .map_err(|_| "the post-mortem's thread stopped (a query panicked)".to_owned());
        Box::pin(async move { sent })
    }

    fn scrub(&self, text: &str) -> String {
        // the dump was scrubbed when the app wrote it (the tool `dump` answers through the exposure's redaction)
        text.to_owned()
    }
}

impl ServerHandler for Postmortem {
    fn get_info(&self) -> ServerConfig {
        self.inner.info.clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.inner.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner
            .tools
            .iter()
            .find(|tool| tool.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(self
            .call(&request.name, request.arguments.as_ref())
            .await
            .into())
    }
}

/// Serves `postmortem` over stdin/stdout (newline-delimited JSON-RPC, ranvier's line layer as in
/// [`serve_stdio`](super::serve_stdio)) until the client disconnects.
///
/// # Errors
///
/// An [`std::io::Error`] when the session cannot start or its task fails.
///
/// # Panics
///
/// Outside a Tokio runtime.
pub async fn serve_postmortem_stdio(postmortem: Postmortem) -> std::io::Result<()> {
    let (stdin, stdout) = rmcp::transport::stdio();
    let transport = super::stdio::LineTransport::new(stdin, stdout);
    let written = transport.written();
    let served = async {
        let running = postmortem
            .serve(transport)
            .await
            .map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    };
    let result = served.await;
    written.wait().await;
    result
}
