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
//!   request (-32600) with its reason and the request's id when it can be read.
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

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::BodyExt;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::McpAdapter;

/// The environment variable holding the bearer token HTTP clients must present (read by [`HttpOptions::from_env`]).
pub const TOKEN_ENV: &str = "RANVIER_MCP_TOKEN";

/// The largest request body accepted by default: 1 MiB. Larger bodies get 413.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1 << 20;

/// How many times the body limit a refused body is read (and dropped) before the 413 goes out.
const DRAIN_FACTOR: usize = 8;

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
/// let options = HttpOptions::new()
///     .bearer_token("s3cret")
///     .allow_origin("https://inspector.example:443")
///     .max_body_bytes(64 * 1024);
/// assert_eq!(options.max_body_bytes, 64 * 1024);
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
            .finish()
    }
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl HttpOptions {
    /// The secure defaults: loopback hosts and origins, no token, 1 MiB bodies, loopback binds only.
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
        }
    }

    /// [`new`](Self::new), with the bearer token from the environment variable [`TOKEN_ENV`] when it is set.
    ///
    /// # Errors
    ///
    /// [`HttpError::EmptyToken`] when the variable is set but empty (or only whitespace), and
    /// [`HttpError::TokenNotUnicode`] when it is not valid Unicode: a token was meant, and serving without one would
    /// be a silent downgrade.
    pub fn from_env() -> Result<Self, HttpError> {
        let options = Self::new();
        match std::env::var(TOKEN_ENV) {
            Ok(token) if token.trim().is_empty() => Err(HttpError::EmptyToken),
            Ok(token) => Ok(options.bearer_token(token)),
            Err(std::env::VarError::NotPresent) => Ok(options),
            Err(std::env::VarError::NotUnicode(_)) => Err(HttpError::TokenNotUnicode),
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
        Ok(Guard {
            hosts,
            origins,
            token,
            max_body_bytes: self.max_body_bytes,
        })
    }
}

/// Why the HTTP endpoint could not be built or started.
#[derive(Debug)]
#[non_exhaustive]
pub enum HttpError {
    /// The address is not loopback and [`HttpOptions::allow_non_loopback`] was not set.
    NotLoopback(SocketAddr),
    /// The address resolved to nothing.
    NoAddress(String),
    /// The path does not start with `/`.
    BadPath(String),
    /// An allowed host is not `name` or `name:port`.
    BadHost(String),
    /// An allowed origin is not `scheme://host[:port|:*]` or `null`.
    BadOrigin(String),
    /// The bearer token (or [`TOKEN_ENV`]) is empty.
    EmptyToken,
    /// [`TOKEN_ENV`] is not valid Unicode.
    TokenNotUnicode,
    /// The body limit is zero.
    ZeroBodyLimit,
    /// Resolving, binding or serving failed.
    Io(std::io::Error),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotLoopback(addr) => write!(
                f,
                "refusing to bind {addr}: it is not a loopback address (127.0.0.1 or ::1); set \
                 HttpOptions::allow_non_loopback(true) to serve other interfaces"
            ),
            Self::NoAddress(addr) => write!(f, "the address {addr:?} resolved to nothing"),
            Self::BadPath(path) => write!(
                f,
                "the MCP path {path:?} must start with '/', like \"/mcp\""
            ),
            Self::BadHost(host) => {
                write!(
                    f,
                    "the allowed host {host:?} is not a host name or host:port, like \"localhost\" or \"127.0.0.1:8900\""
                )
            }
            Self::BadOrigin(origin) => write!(
                f,
                "the allowed origin {origin:?} is not scheme://host, scheme://host:port or scheme://host:*, like \
                 \"http://localhost:*\""
            ),
            Self::EmptyToken => write!(
                f,
                "the bearer token ({TOKEN_ENV}) is empty; unset it or give a token"
            ),
            Self::TokenNotUnicode => write!(f, "{TOKEN_ENV} is not valid Unicode"),
            Self::ZeroBodyLimit => write!(f, "the request body limit must be at least 1 byte"),
            Self::Io(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for HttpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(error) => Some(error),
            _ => None,
        }
    }
}

impl From<std::io::Error> for HttpError {
    fn from(error: std::io::Error) -> Self {
        Self::Io(error)
    }
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
    /// Each session's arrival order and requests in flight.
    sessions: Arc<super::order::SessionBook>,
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
    /// limit).
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
            .with_cancellation_token(cancel);
        let inner = StreamableHttpService::new(
            move || Ok(adapter.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        Ok(Self {
            inner,
            guard: Arc::new(guard),
            sessions: Arc::default(),
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
        let mut in_flight = None;
        let body = if parts.method == Method::POST {
            match self.guard.read_body(&parts.headers, body).await {
                Ok(bytes) => {
                    match self.admit(&mut parts, &bytes) {
                        Ok(held) => in_flight = held,
                        Err(response) => return response,
                    }
                    Body::from(bytes)
                }
                Err(response) => return response,
            }
        } else {
            Body::new(body)
        };
        let mut response = self
            .inner
            .handle(Request::from_parts(parts, body))
            .await
            .map(|body| match in_flight {
                // the id stays in flight until the response has gone (or the client has left)
                Some(held) => Body::new(body.map_frame(move |frame| {
                    let _held = &held;
                    frame
                })),
                None => Body::new(body),
            });
        // rmcp answers an ended session with 202; clients (Python `mcp`) expect 200 or 204
        if delete && response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        response
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
        match self.sessions.admit(session, id.clone()) {
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
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl HttpServer {
    /// Binds `addr` and serves `adapter` at `path` on the current tokio runtime. Bind port 0 to let the system
    /// pick one, then read it from [`local_addr`](Self::local_addr).
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
        let service = McpHttpService::with_cancellation(adapter, options, cancel.clone())?;
        let listener = tokio::net::TcpListener::bind(&addrs[..]).await?;
        let local_addr = listener.local_addr()?;
        let app = axum::Router::new().route_service(path, service);
        // SSE replies go out in several small writes: without TCP_NODELAY, Nagle and delayed ACKs add ~40 ms to each
        let listener =
            axum::serve::ListenerExt::tap_io(listener, |stream: &mut tokio::net::TcpStream| {
                let _ = stream.set_nodelay(true);
            });
        let stop = cancel.clone();
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async move { stop.cancelled().await })
                .await
        });
        Ok(Self {
            local_addr,
            path: path.to_owned(),
            cancel,
            task,
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

    /// Stops accepting connections and ends every session and stream; [`wait`](Self::wait) then returns.
    pub fn shutdown(&self) {
        self.cancel.cancel();
    }

    /// Waits until the server stops (after [`shutdown`](Self::shutdown), or on a fatal accept error).
    ///
    /// # Errors
    ///
    /// The I/O error that stopped the server.
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

/// The parsed, checked options.
struct Guard {
    hosts: Vec<(String, Option<u16>)>,
    origins: Vec<AllowedOrigin>,
    /// `Bearer <token>`, compared in constant time.
    token: Option<Vec<u8>>,
    max_body_bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum AllowedOrigin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        /// `None` for any port (`:*`).
        port: Option<u16>,
    },
}

impl Guard {
    /// Host, then Origin (both 403), then the token (401).
    #[allow(clippy::result_large_err)]
    fn check_headers(
        &self,
        headers: &HeaderMap,
        uri: &axum::http::Uri,
    ) -> Result<(), Response<Body>> {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_owned)
            .or_else(|| uri.authority().map(|a| a.as_str().to_owned()));
        let host_ok = host
            .as_deref()
            .and_then(|h| axum::http::uri::Authority::try_from(h).ok())
            .is_some_and(|a| {
                let name = normalize_host(a.host());
                self.hosts.iter().any(|(allowed, port)| {
                    *allowed == name && port.is_none_or(|p| a.port_u16() == Some(p))
                })
            });
        if !host_ok {
            return Err(plain(
                StatusCode::FORBIDDEN,
                "Forbidden: Host header is not allowed",
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let allowed = origin
                .to_str()
                .ok()
                .and_then(parse_origin)
                .is_some_and(|origin| {
                    self.origins
                        .iter()
                        .any(|allowed| origin_matches(allowed, &origin))
                });
            if !allowed {
                return Err(plain(
                    StatusCode::FORBIDDEN,
                    "Forbidden: Origin header is not allowed",
                ));
            }
        }
        if let Some(token) = &self.token {
            let presented = headers
                .get(header::AUTHORIZATION)
                .map(HeaderValue::as_bytes);
            if !presented.is_some_and(|presented| constant_time_eq(presented, token)) {
                let mut response = Response::new(Body::empty());
                *response.status_mut() = StatusCode::UNAUTHORIZED;
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
                return Err(response);
            }
        }
        Ok(())
    }

    /// Reads a POST body within the limit (413 past it); a JSON body must parse as a JSON-RPC message (400).
    #[allow(clippy::result_large_err)]
    async fn read_body<B>(&self, headers: &HeaderMap, body: B) -> Result<Bytes, Response<Body>>
    where
        B: HttpBody<Data = Bytes> + Send + 'static,
        B::Error: Into<axum::BoxError>,
    {
        let too_large = || {
            plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!(
                    "Payload Too Large: the request body exceeds {} bytes",
                    self.max_body_bytes
                ),
            )
        };
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        // A refused body is still read (and dropped) up to a few times the limit before the 413 goes out, so a client
        // that is still writing it sees the status instead of a broken pipe; past that the connection is closed.
        let drain_cap = self.max_body_bytes.saturating_mul(DRAIN_FACTOR);
        let too_long = declared.is_some_and(|len| len > self.max_body_bytes as u64);
        let mut body = std::pin::pin!(body);
        let mut bytes = Vec::new();
        let (mut seen, mut over) = (0_usize, too_long);
        while let Some(frame) = body.frame().await {
            let frame = match frame {
                Ok(frame) => frame,
                Err(_) if over => break,
                Err(error) => {
                    return Err(plain(
                        StatusCode::BAD_REQUEST,
                        &format!("Bad Request: cannot read the body: {}", error.into()),
                    ));
                }
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            seen = seen.saturating_add(data.len());
            if !over && bytes.len() + data.len() > self.max_body_bytes {
                over = true;
                bytes = Vec::new();
            }
            if !over {
                bytes.extend_from_slice(&data);
            }
            if over && seen > drain_cap {
                break;
            }
        }
        if over {
            return Err(too_large());
        }
        let bytes = Bytes::from(bytes);
        let is_json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
            });
        // the stdio layer's answer to the same bytes, in its words: the reason in the message, and the request's id
        // when it can be read (a body that is not one message, or that names a key twice in an object)
        if is_json && let Some(answer) = super::stdio::answer_to(&bytes) {
            return Err(json_response(StatusCode::BAD_REQUEST, answer));
        }
        // rmcp answers other content types with 415
        if is_json && let Err(error) = serde_json::from_slice::<ClientJsonRpcMessage>(&bytes) {
            // a blank body, or a notification rmcp's stdio transport would ignore: the reason in `data`
            let (code, message, reason) = match error.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => (
                    -32700,
                    "Parse error",
                    format!("the body is not JSON: {error}"),
                ),
                _ => (
                    -32600,
                    "Invalid request",
                    format!(
                        "the body is JSON but not one JSON-RPC 2.0 request, notification or response: {error}"
                    ),
                ),
            };
            let body = serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": code, "message": message, "data": {"reason": reason}}
            });
            return Err(json_response(
                StatusCode::BAD_REQUEST,
                body.to_string().into_bytes(),
            ));
        }
        Ok(bytes)
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

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0_u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn normalize_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// `name` or `name:port` (IPv6 bare, or bracketed with a port).
fn parse_allowed_host(raw: &str) -> Option<(String, Option<u16>)> {
    let raw = raw.trim();
    if raw.is_empty() || raw.contains(['/', '@', ' ']) {
        return None;
    }
    if raw.parse::<std::net::Ipv6Addr>().is_ok() {
        return Some((raw.to_ascii_lowercase(), None));
    }
    let authority = axum::http::uri::Authority::try_from(raw).ok()?;
    Some((normalize_host(authority.host()), authority.port_u16()))
}

/// A present `Origin`: `null`, or `scheme://host[:port]` (port defaulted from the scheme).
fn parse_origin(raw: &str) -> Option<AllowedOrigin> {
    let raw = raw.trim();
    if raw.eq_ignore_ascii_case("null") {
        return Some(AllowedOrigin::Null);
    }
    let uri = axum::http::Uri::try_from(raw).ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = uri.authority()?;
    let port = authority.port_u16().or_else(|| default_port(&scheme));
    Some(AllowedOrigin::Tuple {
        host: normalize_host(authority.host()),
        scheme,
        port,
    })
}

fn parse_allowed_origin(raw: &str) -> Option<AllowedOrigin> {
    let raw = raw.trim();
    if let Some(base) = raw.strip_suffix(":*") {
        let uri = axum::http::Uri::try_from(base).ok()?;
        let authority = uri.authority()?;
        if authority.port().is_some() || uri.path().len() > 1 {
            return None;
        }
        return Some(AllowedOrigin::Tuple {
            scheme: uri.scheme_str()?.to_ascii_lowercase(),
            host: normalize_host(authority.host()),
            port: None,
        });
    }
    let uri = axum::http::Uri::try_from(raw).ok();
    if uri.as_ref().is_some_and(|uri| uri.path().len() > 1) {
        return None;
    }
    match parse_origin(raw)? {
        AllowedOrigin::Tuple { port: None, .. } => None, // a scheme without a default port needs one
        origin => Some(origin),
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

fn origin_matches(allowed: &AllowedOrigin, origin: &AllowedOrigin) -> bool {
    match (allowed, origin) {
        (AllowedOrigin::Null, AllowedOrigin::Null) => true,
        (
            AllowedOrigin::Tuple { scheme, host, port },
            AllowedOrigin::Tuple {
                scheme: o_scheme,
                host: o_host,
                port: o_port,
            },
        ) => scheme == o_scheme && host == o_host && port.is_none_or(|p| *o_port == Some(p)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(options: HttpOptions) -> Guard {
        options.guard().expect("valid options")
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn status(guard: &Guard, pairs: &[(&'static str, &str)]) -> Option<StatusCode> {
        guard
            .check_headers(&headers(pairs), &axum::http::Uri::from_static("/mcp"))
            .err()
            .map(|r| r.status())
    }

    #[test]
    fn hosts_are_checked_against_the_allow_list() {
        let g = guard(HttpOptions::new());
        assert_eq!(status(&g, &[("host", "127.0.0.1:8900")]), None);
        assert_eq!(status(&g, &[("host", "localhost")]), None);
        assert_eq!(status(&g, &[("host", "[::1]:1")]), None);
        assert_eq!(
            status(&g, &[("host", "evil.example:8900")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(status(&g, &[]), Some(StatusCode::FORBIDDEN));
        let pinned = guard(HttpOptions::new().allow_host("app.internal:8443"));
        assert_eq!(status(&pinned, &[("host", "app.internal:8443")]), None);
        assert_eq!(
            status(&pinned, &[("host", "app.internal:9000")]),
            Some(StatusCode::FORBIDDEN)
        );
    }

    #[test]
    fn origins_are_validated_when_present() {
        let g = guard(HttpOptions::new());
        let host = ("host", "127.0.0.1:8900");
        assert_eq!(
            status(&g, &[host, ("origin", "http://localhost:3000")]),
            None
        );
        assert_eq!(status(&g, &[host, ("origin", "http://[::1]:3000")]), None);
        assert_eq!(
            status(&g, &[host, ("origin", "https://localhost:3000")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(
            status(&g, &[host, ("origin", "http://evil.example")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(
            status(&g, &[host, ("origin", "null")]),
            Some(StatusCode::FORBIDDEN)
        );
        assert_eq!(
            status(&g, &[host, ("origin", "not an origin")]),
            Some(StatusCode::FORBIDDEN)
        );
        let exact = guard(HttpOptions::new().allow_origin("https://app.example"));
        assert_eq!(
            status(&exact, &[host, ("origin", "https://app.example")]),
            None
        );
        assert_eq!(
            status(&exact, &[host, ("origin", "https://app.example:443")]),
            None
        );
        assert_eq!(
            status(&exact, &[host, ("origin", "https://app.example:8443")]),
            Some(StatusCode::FORBIDDEN)
        );
    }

    #[test]
    fn the_token_is_required_when_set() {
        let g = guard(HttpOptions::new().bearer_token("s3cret"));
        let host = ("host", "127.0.0.1:1");
        assert_eq!(status(&g, &[host]), Some(StatusCode::UNAUTHORIZED));
        assert_eq!(
            status(&g, &[host, ("authorization", "Bearer wrong")]),
            Some(StatusCode::UNAUTHORIZED)
        );
        assert_eq!(
            status(&g, &[host, ("authorization", "Bearer s3cret")]),
            None
        );
        // Host and Origin are judged first
        assert_eq!(
            status(&g, &[("host", "evil.example")]),
            Some(StatusCode::FORBIDDEN)
        );
    }

    #[test]
    fn malformed_options_are_named() {
        for (options, expected) in [
            (
                HttpOptions::new().allow_origin("localhost:3000"),
                "allowed origin \"localhost:3000\"",
            ),
            (
                HttpOptions::new().allow_origin("http://a:1:*"),
                "allowed origin \"http://a:1:*\"",
            ),
            (
                HttpOptions::new().allow_host("http://x/"),
                "allowed host \"http://x/\"",
            ),
            (HttpOptions::new().bearer_token(" "), "bearer token"),
            (HttpOptions::new().max_body_bytes(0), "at least 1 byte"),
        ] {
            let error = options.guard().err().expect("rejected").to_string();
            assert!(error.contains(expected), "{error}");
        }
        assert!(check_path("mcp").is_err());
        assert!(check_path("/mcp").is_ok());
    }
}
