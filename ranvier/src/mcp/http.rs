//! Streamable HTTP beside stdio: the same [`McpAdapter`] served to MCP clients over HTTP, secure by default.
//!
//! Built on rmcp's Streamable HTTP server (`StreamableHttpService`), with a guard in front of it:
//!
//! - it binds loopback only, unless [`HttpOptions::allow_non_loopback`] says otherwise;
//! - the `Host` header must name an allowed host (loopback names by default), against DNS rebinding;
//! - a present `Origin` must be an allowed origin (`http://localhost`, `http://127.0.0.1` and `http://[::1]`,
//!   any port, by default), as the MCP spec requires; a request without `Origin` (not from a browser) passes;
//! - with a bearer token ([`HttpOptions::bearer_token`], or the environment variable [`TOKEN_ENV`]), a request
//!   without `Authorization: Bearer <token>` gets 401 and no detail;
//! - a request body over [`DEFAULT_MAX_BODY_BYTES`] (1 MiB) gets 413, and a body that is not one JSON-RPC message
//!   gets 400 with the error the stdio layer answers the same bytes with (see [`stdio`](super::stdio)): a parse error
//!   (-32700) naming what is wrong (`Parse error: not JSON: expected value at line 1 column 1`), or an invalid
//!   request (-32600) with its reason and the request's id when it can be read;
//! - a request target in absolute form (`POST http://host/mcp`) must name an allowed host too (403), and a request with
//!   more than one `Host`, `Origin` or `Authorization` header gets 400;
//! - `Expect: 100-continue` with a declared `Content-Length` over the limit gets 413 at once, not `100 Continue`;
//! - a body must arrive within [`DEFAULT_BODY_READ_TIMEOUT`] (30 s) of the request's head: 408 otherwise;
//! - at most [`DEFAULT_MAX_SESSIONS`] (256) `initialize` sessions live at once: a new one at the cap ends the session
//!   least recently used that has no request or stream in flight (its client gets 404 on its next request and
//!   starts a new session, as the MCP spec says), or, when every session is busy, is refused with 503 and the reason;
//!   a session idle for [`DEFAULT_SESSION_IDLE_TIMEOUT`] (5 min) ends.
//!
//! [`HttpServer`] (and [`serve_http`]) also bound the connections themselves, which `axum::serve` does not:
//!
//! - at most [`DEFAULT_MAX_CONNECTIONS`] (256) connections are open at once; one more is answered 503 with the reason
//!   and closed;
//! - a request's head must arrive within [`DEFAULT_HEADER_READ_TIMEOUT`] (10 s) of its first byte (a new connection:
//!   of its accept), and a connection with no request in flight is closed after [`DEFAULT_IDLE_TIMEOUT`] (60 s).
//!   A connection that misses either is closed without an answer. An open SSE stream is a request in flight: these
//!   timeouts do not end it.
//!
//! Every limit is an [`HttpOptions`] field. When you mount [`McpHttpService`] in a server of your own, the connection
//! limits are that server's to set.
//!
//! Within an `initialize` session, requests are numbered in the order their bodies arrive, and the ones that change
//! something are applied in that order (see [`McpAdapter`]); a request whose id is the id of one of the session's
//! requests still in flight gets 400 with an invalid request (-32600) naming the id, and a second `initialize` on a
//! session is refused (-32600, the session is already initialized).
//!
//! Both protocol eras work: `initialize` sessions (2025-11-25 and older, with `Mcp-Session-Id`; resource
//! notifications go on the session's GET stream) and stateless 2026-07-28 requests (`subscriptions/listen`
//! streams its notifications on the POST's response).
//!
//! Three ways to serve:
//!
//! - [`serve_http`]: one call, until the process ends;
//! - [`HttpServer::bind`]: a running server with its bound address (bind port 0 and read it back) and a shutdown;
//! - [`McpHttpService`] (a `tower` service) or [`router`] (an `axum` router) to mount in a server you already own,
//!   beside your own routes for people.
//!
//! Beside the endpoint, [`HttpServer`] serves the [live page](page) at `/`, for the people beside the agent: the
//! values as they change, every message and its sender, a form per message, the approvals waiting, and in traced
//! builds the graph. Its routes pass the same checks, then want the page's own key, which MCP clients do not hold
//! (printed with the page's address where the server starts; see [`page`]); at most
//! [`DEFAULT_MAX_PAGE_STREAMS`] (16) page event streams are open at once, apart from the sessions of `/mcp`.
//! [`page_router`] mounts it in a server of your own.
//!
//! One adapter may serve stdio and HTTP at once: clones share the graph, and each session keeps its own
//! subscriptions.
//!
//! ```no_run
//! use ranvier::exposure::Exposure;
//! use ranvier::host::GraphHost;
//! use ranvier::mcp::http::{HttpOptions, HttpServer};
//! use ranvier::mcp::{McpAdapter, McpAdapterOptions};
//! use ranvier::Mvu;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let host = GraphHost::start(|| {
//!     let counter = Mvu::new(0_i64, |add: i64, count| count + add);
//!     let mut exposure = Exposure::new();
//!     exposure.value("count", move || counter.model())?;
//!     exposure.start()
//! })?;
//! let adapter = host.invoke(|handle| McpAdapter::new(handle.clone(), McpAdapterOptions::new("counter", "0.1.0"))).wait()?;
//! let server = HttpServer::bind(adapter, "127.0.0.1:0", "/mcp", HttpOptions::from_env()?).await?;
//! println!("MCP at {}", server.url());
//! server.wait().await?;
//! # Ok(()) }
//! ```

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::McpAdapter;
use guard::{Guard, constant_time_eq, parse_allowed_host, parse_allowed_origin};

mod body;
mod connections;
mod guard;
pub mod page;
mod sessions;

pub use page::page_router;

/// The environment variable holding the bearer token HTTP clients must present (read by [`HttpOptions::from_env`]).
pub const TOKEN_ENV: &str = "RANVIER_MCP_TOKEN";

/// The environment variable holding the live page's key (read by [`HttpOptions::from_env`]); unset, each server
/// makes a random one. See [`page`] for what the key is for.
pub const PAGE_KEY_ENV: &str = "RANVIER_PAGE_KEY";

/// How many live page event streams are open at once by default.
pub const DEFAULT_MAX_PAGE_STREAMS: usize = 16;

/// The largest request body accepted by default: 1 MiB. Larger bodies get 413.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// How long a request's head (request line and headers) may take to arrive, from its first byte, by default.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request's body may take to arrive, from the end of its head, by default.
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a connection with no request in flight stays open by default.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// How many connections [`HttpServer`] keeps open at once by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

/// How many `initialize` sessions live at once by default.
pub const DEFAULT_MAX_SESSIONS: usize = 256;

/// How long a session with no request lives by default (rmcp's keep-alive).
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// The hosts a `Host` header may name by default: the loopback names, any port.
pub const DEFAULT_ALLOWED_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The browser origins allowed by default: the loopback names over `http`, any port.
pub const DEFAULT_ALLOWED_ORIGINS: [&str; 3] =
    ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

/// How the HTTP endpoint guards itself. The defaults are the secure ones; see the [module docs](self).
///
/// # Examples
///
/// ```
/// use ranvier::mcp::http::HttpOptions;
///
/// use std::time::Duration;
///
/// let options = HttpOptions::new()
///     .bearer_token("s3cret")
///     .allow_origin("https://inspector.example:443")
///     .max_body_bytes(64 * 1024)
///     .max_connections(64)
///     .idle_timeout(Duration::from_secs(15));
/// assert_eq!(options.max_body_bytes, 64 * 1024);
/// assert_eq!((options.max_connections, options.idle_timeout), (64, Duration::from_secs(15)));
/// assert!(!format!("{options:?}").contains("s3cret"), "the token never shows in Debug");
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct HttpOptions {
    /// Hosts (`name`, or `name:port`) a request's `Host` header may name.
    pub allowed_hosts: Vec<String>,
    /// Origins (`scheme://host`, `scheme://host:port` or `scheme://host:*`; `null` for an opaque origin) a present
    /// `Origin` header must match. A portless entry means the scheme's default port.
    pub allowed_origins: Vec<String>,
    /// The token a request must carry as `Authorization: Bearer <token>`; `None` accepts every request.
    pub bearer_token: Option<String>,
    /// The largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Allows binding addresses other than loopback (then add the host names clients use to `allowed_hosts`).
    pub allow_non_loopback: bool,
    /// How long a request's head may take to arrive, from its first byte (a new connection: from its accept);
    /// [`HttpServer`] closes a connection that takes longer.
    pub header_read_timeout: Duration,
    /// How long a request's body may take to arrive, from the end of its head: 408 past it.
    pub body_read_timeout: Duration,
    /// How long [`HttpServer`] keeps a connection with no request in flight open.
    pub idle_timeout: Duration,
    /// How many connections [`HttpServer`] keeps open at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// How many `initialize` sessions live at once; see the [module docs](self) for what happens at the cap.
    pub max_sessions: usize,
    /// How long a session with no request lives before it ends.
    pub session_idle_timeout: Duration,
    /// Whether [`HttpServer`] serves the [live page](page) at `/` beside the endpoint (default `true`).
    pub page: bool,
    /// Whether the live page wants its own credential, the page key, which MCP clients do not hold (default
    /// `true`); see [`page`]. Off, the page's routes let in whoever passes the guard of `/mcp`.
    pub page_credential: bool,
    /// The live page's key (`None`: a random one per server, the default). [`HttpServer`] prints the page's
    /// address with it where it starts; a person trades it once for a session cookie.
    pub page_key: Option<String>,
    /// How many live page event streams are open at once; one more is answered 503. They do not count against
    /// the sessions of `/mcp`, and at most this many of [`max_connections`](Self::max_connections) are page streams.
    pub max_page_streams: usize,
}

impl fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpOptions")
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field("max_body_bytes", &self.max_body_bytes)
            .field("allow_non_loopback", &self.allow_non_loopback)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("max_connections", &self.max_connections)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle_timeout", &self.session_idle_timeout)
            .field("page", &self.page)
            .field("page_credential", &self.page_credential)
            .field("page_key", &self.page_key.as_ref().map(|_| "<redacted>"))
            .field("max_page_streams", &self.max_page_streams)
            .finish()
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl HttpOptions {
    /// The secure defaults: loopback hosts and origins, no token, 1 MiB bodies, loopback binds only, and the
    /// `DEFAULT_*` timeouts and caps of this module.
    pub fn new() -> Self {
        Self {
            allowed_hosts: DEFAULT_ALLOWED_HOSTS
                .iter()
                .map(|&h| h.to_owned())
                .collect(),
            allowed_origins: DEFAULT_ALLOWED_ORIGINS
                .iter()
                .map(|&o| o.to_owned())
                .collect(),
            bearer_token: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            allow_non_loopback: false,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            page: true,
            page_credential: true,
            page_key: None,
            max_page_streams: DEFAULT_MAX_PAGE_STREAMS,
        }
    }

    /// [`new`](Self::new), with the bearer token from the environment variable [`TOKEN_ENV`] and the page key from
    /// [`PAGE_KEY_ENV`] when they are set.
    ///
    /// # Errors
    ///
    /// [`HttpError::EmptyToken`] when a variable is set but empty (or only whitespace), and
    /// [`HttpError::TokenNotUnicode`] when it is not valid Unicode: a secret was meant, and serving without one would
    /// be a silent downgrade.
    pub fn from_env() -> Result<Self, HttpError> {
        let mut options = Self::new();
        match std::env::var(TOKEN_ENV) {
            Ok(token) if token.trim().is_empty() => return Err(HttpError::EmptyToken),
            Ok(token) => options = options.bearer_token(token),
            Err(std::env::VarError::NotPresent) => {}
            Err(std::env::VarError::NotUnicode(_)) => return Err(HttpError::TokenNotUnicode),
        }
        match std::env::var(PAGE_KEY_ENV) {
            Ok(key) if key.trim().is_empty() => Err(HttpError::EmptyPageKey),
            Ok(key) => Ok(options.page_key(key)),
            Err(std::env::VarError::NotPresent) => Ok(options),
            Err(std::env::VarError::NotUnicode(_)) => Err(HttpError::PageKeyNotUnicode),
        }
    }

    /// Requires `Authorization: Bearer <token>` on every request.
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }

    /// Also accepts `Host: host` (`name` for any port, or `name:port`).
    pub fn allow_host(mut self, host: impl Into<String>) -> Self {
        self.allowed_hosts.push(host.into());
        self
    }

    /// Also accepts `Origin: origin` (`scheme://host`, `scheme://host:port` or `scheme://host:*`).
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        self.allowed_origins.push(origin.into());
        self
    }

    /// Sets the largest request body accepted, in bytes.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Allows (or forbids, the default) binding an address that is not loopback.
    pub fn allow_non_loopback(mut self, allow: bool) -> Self {
        self.allow_non_loopback = allow;
        self
    }

    /// Sets how long a request's head may take to arrive (default [`DEFAULT_HEADER_READ_TIMEOUT`]).
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// Sets how long a request's body may take to arrive (default [`DEFAULT_BODY_READ_TIMEOUT`]).
    pub fn body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = timeout;
        self
    }

    /// Sets how long a connection with no request in flight stays open (default [`DEFAULT_IDLE_TIMEOUT`]).
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Sets how many connections are open at once (default [`DEFAULT_MAX_CONNECTIONS`]).
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections;
        self
    }

    /// Sets how many `initialize` sessions live at once (default [`DEFAULT_MAX_SESSIONS`]).
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions;
        self
    }

    /// Sets how long a session with no request lives (default [`DEFAULT_SESSION_IDLE_TIMEOUT`]).
    pub fn session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.session_idle_timeout = timeout;
        self
    }

    /// Serves (the default) or leaves out the [live page](page) at `/`.
    pub fn page(mut self, page: bool) -> Self {
        self.page = page;
        self
    }

    /// Requires (the default) or not the live page's own credential; see [`page`].
    pub fn page_credential(mut self, required: bool) -> Self {
        self.page_credential = required;
        self
    }

    /// Sets the live page's key (instead of a random one per server).
    pub fn page_key(mut self, key: impl Into<String>) -> Self {
        self.page_key = Some(key.into());
        self
    }

    /// Sets how many live page event streams are open at once (default [`DEFAULT_MAX_PAGE_STREAMS`]).
    pub fn max_page_streams(mut self, streams: usize) -> Self {
        self.max_page_streams = streams;
        self
    }

    /// The connection limits, checked.
    fn limits(&self) -> Result<connections::Limits, HttpError> {
        for (option, zero) in [
            ("header_read_timeout", self.header_read_timeout.is_zero()),
            ("idle_timeout", self.idle_timeout.is_zero()),
            ("max_connections", self.max_connections == 0),
        ] {
            if zero {
                return Err(HttpError::ZeroLimit(option));
            }
        }
        Ok(connections::Limits {
            header_read_timeout: self.header_read_timeout,
            idle_timeout: self.idle_timeout,
            max_connections: u32::try_from(self.max_connections)
                .unwrap_or(u32::MAX)
                .min(1 << 24),
        })
    }

    /// Checks every entry, returning the parsed guard.
    fn guard(&self) -> Result<Guard, HttpError> {
        let hosts = self
            .allowed_hosts
            .iter()
            .map(|raw| parse_allowed_host(raw).ok_or_else(|| HttpError::BadHost(raw.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        let origins = self
            .allowed_origins
            .iter()
            .map(|raw| parse_allowed_origin(raw).ok_or_else(|| HttpError::BadOrigin(raw.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        let token = match &self.bearer_token {
            Some(token) if token.trim().is_empty() => return Err(HttpError::EmptyToken),
            Some(token) => Some(format!("Bearer {token}").into_bytes()),
            None => None,
        };
        if self.max_body_bytes == 0 {
            return Err(HttpError::ZeroBodyLimit);
        }
        if self
            .page_key
            .as_ref()
            .is_some_and(|key| key.trim().is_empty())
        {
            return Err(HttpError::EmptyPageKey);
        }
        for (option, zero) in [
            ("body_read_timeout", self.body_read_timeout.is_zero()),
            ("max_sessions", self.max_sessions == 0),
            ("session_idle_timeout", self.session_idle_timeout.is_zero()),
            ("max_page_streams", self.max_page_streams == 0),
        ] {
            if zero {
                return Err(HttpError::ZeroLimit(option));
            }
        }
        Ok(Guard {
            hosts,
            origins,
            token,
            max_body_bytes: self.max_body_bytes,
            body_read_timeout: self.body_read_timeout,
        })
    }
}

/// Why the HTTP endpoint could not be built or started.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The address is not loopback and [`HttpOptions::allow_non_loopback`] was not set.
    #[error(
        "refusing to bind {0}: it is not a loopback address (127.0.0.1 or ::1); set \
         HttpOptions::allow_non_loopback(true) to serve other interfaces"
    )]
    NotLoopback(SocketAddr),
    /// The address resolved to nothing.
    #[error("the address {0:?} resolved to nothing")]
    NoAddress(String),
    /// The path does not start with `/`.
    #[error("the MCP path {0:?} must start with '/', like \"/mcp\"")]
    BadPath(String),
    /// An allowed host is not `name` or `name:port`.
    #[error(
        "the allowed host {0:?} is not a host name or host:port, like \"localhost\" or \"127.0.0.1:8900\""
    )]
    BadHost(String),
    /// An allowed origin is not `scheme://host[:port|:*]` or `null`.
    #[error(
        "the allowed origin {0:?} is not scheme://host, scheme://host:port or scheme://host:*, like \
         \"http://localhost:*\""
    )]
    BadOrigin(String),
    /// The bearer token (or [`TOKEN_ENV`]) is empty.
    #[error("the bearer token ({TOKEN_ENV}) is empty; unset it or give a token")]
    EmptyToken,
    /// [`TOKEN_ENV`] is not valid Unicode.
    #[error("{TOKEN_ENV} is not valid Unicode")]
    TokenNotUnicode,
    /// The page key (or [`PAGE_KEY_ENV`]) is empty.
    #[error(
        "the live page's key ({PAGE_KEY_ENV}) is empty; unset it (a random key is made) or give a key"
    )]
    EmptyPageKey,
    /// [`PAGE_KEY_ENV`] is not valid Unicode.
    #[error("{PAGE_KEY_ENV} is not valid Unicode")]
    PageKeyNotUnicode,
    /// The body limit is zero.
    #[error("the request body limit must be at least 1 byte")]
    ZeroBodyLimit,
    /// The timeout or cap named (an [`HttpOptions`] field) is zero.
    #[error("HttpOptions::{0} is zero; it must be above zero (it bounds what one client can hold)")]
    ZeroLimit(&'static str),
    /// Resolving, binding or serving failed. It reads as the I/O error itself: its `Display` is that error's, and
    /// its `source` that error's source (the error is not repeated as its own source).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl From<HttpError> for std::io::Error {
    fn from(error: HttpError) -> Self {
        match error {
            HttpError::Io(error) => error,
            other => std::io::Error::new(std::io::ErrorKind::InvalidInput, other.to_string()),
        }
    }
}

/// A `tower` service answering MCP over Streamable HTTP for one adapter: mount it at a path of a server you already
/// own. It answers at whatever path it is mounted on.
///
/// Set `TCP_NODELAY` on your server's connections (as [`HttpServer`] does): SSE replies go out in several small
/// writes, and without it Nagle's algorithm and delayed ACKs add about 40 ms to every round trip.
///
/// # Examples
///
/// ```no_run
/// # fn demo(adapter: ranvier::mcp::McpAdapter) -> Result<(), ranvier::mcp::http::HttpError> {
/// use ranvier::mcp::http::{HttpOptions, McpHttpService};
///
/// let mcp = McpHttpService::new(adapter, HttpOptions::new())?;
/// let app: axum::Router = axum::Router::new()
///     .route("/", axum::routing::get(|| async { "the page people use" }))
///     .route_service("/mcp", mcp);
/// # let _ = app; Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpHttpService {
    inner: StreamableHttpService<McpAdapter, LocalSessionManager>,
    guard: Arc<Guard>,
    sessions: Arc<sessions::Sessions>,
    /// Each session's arrival order and requests in flight.
    book: Arc<super::order::SessionBook>,
}

impl fmt::Debug for McpHttpService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpHttpService")
            .field("max_body_bytes", &self.guard.max_body_bytes)
            .field("token", &self.guard.token.is_some())
            .finish_non_exhaustive()
    }
}

impl McpHttpService {
    /// A service answering for `adapter`, guarded as `options` says.
    ///
    /// # Errors
    ///
    /// An [`HttpError`] naming the option that is malformed (an allowed host or origin, an empty token, a zero body
    /// limit, timeout or cap).
    pub fn new(adapter: McpAdapter, options: HttpOptions) -> Result<Self, HttpError> {
        Self::with_cancellation(adapter, options, CancellationToken::new())
    }

    fn with_cancellation(
        adapter: McpAdapter,
        options: HttpOptions,
        cancel: CancellationToken,
    ) -> Result<Self, HttpError> {
        let guard = options.guard()?;
        let config = StreamableHttpServerConfig::default()
            // the guard checks Host and Origin first; rmcp checks them again with the same lists
            .with_allowed_hosts(options.allowed_hosts.clone())
            .with_allowed_origins(options.allowed_origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(options.max_body_bytes)
            .with_legacy_session_mode(true)
            .with_json_response(true)
            .with_cancellation_token(cancel.clone());
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = Some(options.session_idle_timeout);
        let manager = Arc::new(manager);
        let sessions = Arc::new(sessions::Sessions::new(
            manager.clone(),
            Box::new({
                let adapter = adapter.clone();
                // named as `session_of` names an HTTP session's calls
                move |session: &str| adapter.end_session(&format!("http {session}"))
            }),
            options.max_sessions,
        ));
        sessions::Sessions::reap_periodically(&sessions, cancel.clone());
        let inner = StreamableHttpService::new(move || Ok(adapter.clone()), manager, config);
        Ok(Self {
            inner,
            guard: Arc::new(guard),
            sessions,
            book: Arc::default(),
        })
    }

    /// Answers one request: the guard's checks, then rmcp.
    pub async fn handle<B>(&self, request: Request<B>) -> Response<Body>
    where
        B: HttpBody<Data = Bytes> + Send + 'static,
        B::Error: Into<axum::BoxError>,
    {
        let (mut parts, body) = request.into_parts();
        if let Err(response) = self.guard.check_headers(&parts.headers, &parts.uri) {
            return response;
        }
        let delete = parts.method == Method::DELETE;
        let session = parts
            .headers
            .get(HEADER_SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let mut held = None;
        let (body, initialize) = if parts.method == Method::POST {
            match self.guard.read_body(&parts.headers, body).await {
                Ok(read) => {
                    match self.admit(&mut parts, &read.bytes) {
                        Ok(admitted) => held = admitted,
                        Err(response) => return response,
                    }
                    (Body::from(read.bytes), read.initialize)
                }
                Err(response) => return response,
            }
        } else {
            (Body::new(body), false)
        };
        // an `initialize` without a session makes one: at the cap, room first (or 503)
        let creating = if initialize && session.is_none() {
            match self.sessions.make_room().await {
                Ok(creating) => Some(creating),
                Err(response) => return response,
            }
        } else {
            None
        };
        // a request of a live session is in flight until its answer's body ends (a GET stream: until it closes)
        let in_flight = session.as_deref().and_then(|id| self.sessions.begin(id));
        let mut response = self
            .inner
            .handle(Request::from_parts(parts, body))
            .await
            .map(|body| match held {
                // the id stays in flight until the response has gone (or the client has left)
                Some(held) => Body::new(body.map_frame(move |frame| {
                    let _held = &held;
                    frame
                })),
                None => Body::new(body),
            });
        if creating.is_some()
            && let Some(id) = response
                .headers()
                .get(HEADER_SESSION_ID)
                .and_then(|v| v.to_str().ok())
        {
            self.sessions.created(id);
        }
        drop(creating);
        // rmcp answers an ended session with 202; clients (Python `mcp`) expect 200 or 204
        if delete && response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        if delete {
            // the forks of the session just ended go with it
            self.sessions.reap().await;
        }
        match in_flight {
            Some(in_flight) => response.map(|body| Holding::body(Body::new(body), in_flight)),
            None => response.map(Body::new),
        }
    }
}

impl McpHttpService {
    /// Numbers a session's request (`bytes`, a body the guard read) in arrival order, in `parts`' extensions for the
    /// adapter, and holds its id in flight; a request whose id is in flight already is answered 400 here.
    #[allow(clippy::result_large_err)]
    fn admit(
        &self,
        parts: &mut axum::http::request::Parts,
        bytes: &[u8],
    ) -> Result<Option<super::order::InFlight>, Response<Body>> {
        #[derive(serde::Deserialize)]
        struct Envelope {
            id: Option<rmcp::model::RequestId>,
            method: Option<serde::de::IgnoredAny>,
        }
        let Some(session) = parts
            .headers
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        else {
            return Ok(None);
        };
        let Ok(Envelope {
            id: Some(id),
            method: Some(_),
        }) = serde_json::from_slice::<Envelope>(bytes)
        else {
            return Ok(None);
        };
        match self.book.admit(session, id.clone()) {
            Some((turn, held)) => {
                parts.extensions.insert(turn);
                Ok(Some(held))
            }
            None => {
                let id = serde_json::to_value(&id).unwrap_or(serde_json::Value::Null);
                let reason = super::text::not_a_message(&super::text::id_in_flight(&id));
                let body = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {"code": -32600, "message": reason}
                });
                Err(json_response(
                    StatusCode::BAD_REQUEST,
                    body.to_string().into_bytes(),
                ))
            }
        }
    }
}

impl<B> tower_service::Service<Request<B>> for McpHttpService
where
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}

/// An `axum` router serving `adapter` at `path` (every other path is 404); merge or nest it into your own.
///
/// # Errors
///
/// [`HttpError::BadPath`] when `path` does not start with `/`, or an option error as in [`McpHttpService::new`].
pub fn router(
    adapter: McpAdapter,
    path: &str,
    options: HttpOptions,
) -> Result<axum::Router, HttpError> {
    check_path(path)?;
    Ok(axum::Router::new().route_service(path, McpHttpService::new(adapter, options)?))
}

fn check_path(path: &str) -> Result<(), HttpError> {
    if path.starts_with('/') && !path.contains(['?', '#', ' ']) {
        Ok(())
    } else {
        Err(HttpError::BadPath(path.to_owned()))
    }
}

/// A running HTTP server: its address, and a way to stop it.
#[derive(Debug)]
pub struct HttpServer {
    local_addr: SocketAddr,
    path: String,
    /// Whether it serves the live page.
    page: bool,
    /// The live page's key, when the page wants it.
    page_key: Option<page::Secret>,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl HttpServer {
    /// Binds `addr` and serves `adapter` at `path` on the current tokio runtime, and the [live page](page) at `/`
    /// (unless [`HttpOptions::page`] is off, or `path` is `/`), printing the page's URL on standard error. Bind port
    /// 0 to let the system pick one, then read it from [`local_addr`](Self::local_addr).
    ///
    /// # Errors
    ///
    /// [`HttpError::NotLoopback`] when `addr` resolves to an address that is not loopback (unless allowed),
    /// [`HttpError::Io`] when it cannot be resolved or bound, or an option or path error.
    pub async fn bind(
        adapter: McpAdapter,
        addr: impl tokio::net::ToSocketAddrs + fmt::Debug,
        path: &str,
        options: HttpOptions,
    ) -> Result<Self, HttpError> {
        check_path(path)?;
        let shown = format!("{addr:?}");
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host(addr).await?.collect();
        if addrs.is_empty() {
            return Err(HttpError::NoAddress(shown));
        }
        if !options.allow_non_loopback
            && let Some(remote) = addrs.iter().find(|a| !a.ip().is_loopback())
        {
            return Err(HttpError::NotLoopback(*remote));
        }
        let cancel = CancellationToken::new();
        let limits = options.limits()?;
        let page = match options.page {
            true => Some(page::Page::new(
                adapter.handle().clone(),
                &options,
                cancel.clone(),
            )?),
            false => None,
        };
        let service = McpHttpService::with_cancellation(adapter, options, cancel.clone())?;
        let listener = tokio::net::TcpListener::bind(&addrs[..]).await?;
        let local_addr = listener.local_addr()?;
        let mut app = axum::Router::new().route_service(path, service);
        let serves_page = page.is_some() && path != "/";
        let page_key = page.as_ref().and_then(|page| page.key());
        if let (Some(page), true) = (page, serves_page) {
            app = app.merge(page.router());
        }
        let task = tokio::spawn(connections::serve(listener, app, limits, cancel.clone()));
        let server = Self {
            local_addr,
            path: path.to_owned(),
            page: serves_page,
            page_key,
            cancel,
            task,
        };
        if let Some(page) = server.page_url() {
            eprintln!("ranvier: live page at {page} (MCP at {})", server.url());
        }
        Ok(server)
    }

    /// The live page's address as a person opens it, like `http://127.0.0.1:8900/?key=<the page key>`, when the
    /// server serves it (see [`page`]); without the page credential ([`HttpOptions::page_credential`] off), like
    /// `http://127.0.0.1:8900/` (with a bearer token set, a browser then opens it once as `…/?token=<token>`).
    /// [`bind`](Self::bind) prints it on standard error. It holds the key: show it to the person, not to an agent.
    pub fn page_url(&self) -> Option<String> {
        self.page.then(|| match &self.page_key {
            Some(key) => format!(
                "http://{}/?{}={}",
                self.local_addr,
                page::KEY_PARAM,
                page::percent_encode(key.reveal())
            ),
            None => format!("http://{}/", self.local_addr),
        })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The endpoint's URL, like `http://127.0.0.1:8900/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.local_addr, self.path)
    }

    /// Stops accepting connections and ends every session and stream; [`wait`](Self::wait) then returns once the
    /// open connections have finished their answers (each has 5 s to).
    pub fn shutdown(&self) {
        self.cancel.cancel();
    }

    /// Waits until the server stops, after [`shutdown`](Self::shutdown). Failing to accept a connection (out of file
    /// descriptors, say) does not stop it: it tries again a moment later.
    ///
    /// # Errors
    ///
    /// An I/O error wrapping the panic, should the task serving the connections panic.
    pub async fn wait(self) -> std::io::Result<()> {
        match self.task.await {
            Ok(result) => result,
            Err(join) => Err(std::io::Error::other(join)),
        }
    }
}

/// Serves `adapter` over Streamable HTTP at `http://addr{path}` until the server fails, with the secure defaults
/// and the bearer token from [`TOKEN_ENV`] when it is set.
///
/// # Errors
///
/// As [`HttpServer::bind`] and [`HttpOptions::from_env`].
pub async fn serve_http(
    adapter: McpAdapter,
    addr: impl tokio::net::ToSocketAddrs + fmt::Debug,
    path: &str,
) -> Result<(), HttpError> {
    let server = HttpServer::bind(adapter, addr, path, HttpOptions::from_env()?).await?;
    Ok(server.wait().await?)
}

/// The header naming a request's session.
const HEADER_SESSION_ID: &str = "mcp-session-id";

/// A body holding `T` until it ends or is dropped (a request counted in flight until its answer is done).
pub(super) struct Holding<T> {
    body: Body,
    _held: T,
}

impl<T: Send + Unpin + 'static> Holding<T> {
    pub(super) fn body(body: Body, held: T) -> Body {
        Body::new(Holding { body, _held: held })
    }
}

impl<T: Unpin> HttpBody for Holding<T> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    respond(status, "application/json", Body::from(body))
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    respond(
        status,
        "text/plain; charset=utf-8",
        Body::from(text.to_owned()),
    )
}

fn respond(status: StatusCode, content_type: &'static str, body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}
