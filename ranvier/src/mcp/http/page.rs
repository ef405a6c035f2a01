//! The live page: a screen for the people beside the agent, served by the same HTTP server as `/mcp`.
//!
//! [`HttpServer`](super::HttpServer) serves it at `/` (turn it off with [`HttpOptions::page`](super::HttpOptions::page))
//! and prints its URL when it starts; an app that mounts [`McpHttpService`](super::McpHttpService) in its own
//! `axum` server mounts [`page_router`] beside it. The page shows, live:
//!
//! - **values**: every exposed value with its version, pushed by server-sent events from the exposure's
//!   publications (no polling); the values a publication changed are highlighted;
//! - **messages**: the step line of every journaled message (`add_item {"sku":"apple",…} → v1: count 0→2, …`), and
//!   who sent it: the app itself (`app`), a person on this page (`person`), or an agent (its MCP client's name);
//! - **dispatch**: a form per message, built from its JSON Schema (field types, ranges, required fields). A person's
//!   dispatch takes the path an agent's takes ([`ExposureHandle::dispatch_all_as`], so the journal, the versions,
//!   approval and the MCP subscribers' notifications all see it), and a rejection shows the text an agent would
//!   read, the decoder's own words included;
//! - **approvals**: the open interrupts with their prompt, who asked and when, and Approve / Deny. An answer goes
//!   through [`ExposureHandle::answer_as`] as `person`: the first answer wins, so an MCP client's `dispatch` waiting
//!   on the same interrupt resolves exactly once;
//! - **the graph** (traced builds): the nodes by kind with their values and edges, in layers, the nodes the last
//!   message moved marked; clicking a node (or Enter on it) shows its `explain`, hovering shows where it was made.
//!
//! # Security
//!
//! The page is a principal of its own: what it does is recorded as done by `person`, so it wants a credential MCP
//! clients do not hold. Every route passes the checks `/mcp` passes (the `Host` header and a present `Origin` must be
//! allowed, loopback by default), and then wants the page's **key**: a random secret made when the server starts
//! (or [`HttpOptions::page_key`](super::HttpOptions::page_key), or the environment variable
//! [`PAGE_KEY_ENV`](super::PAGE_KEY_ENV)), which [`HttpServer`](super::HttpServer) prints with the page's address on
//! standard error, where it was started: `ranvier: live page at http://127.0.0.1:8900/?key=<key> (MCP at …)`.
//! Opening that address trades the key for a session: the page answers with an `HttpOnly`, `SameSite=Strict` cookie
//! holding an opaque random id and sends the browser on to `/` (the key leaves the address bar and the history).
//! Only the page's routes accept that cookie; `/mcp` never reads a cookie, and the bearer token of `/mcp` (which
//! agents hold) does not open the page. A request without a session gets 401 and learns nothing; a refused answer to
//! an interrupt or dispatch is logged on standard error, and a refused answer naming an open interrupt is journaled
//! as refused, once per interrupt (an [`ApprovalRecord`](crate::exposure::approval::ApprovalRecord) with `refused:
//! true`, `by` [`REFUSED_BY`]): no answer, the interrupt stays open, and replay skips it. [`page_router`] (an app mounting the page in its own
//! server) prints the key the same way unless the app set one.
//!
//! [`HttpOptions::page_credential`](super::HttpOptions::page_credential)`(false)` turns the key off: then the page
//! lets in whoever passes the guard of `/mcp` (with a bearer token set, a request must carry it, or a browser opens
//! `/?token=<token>` once for a session cookie), and MCP clients on the same machine can act as `person`.
//!
//! An MCP client cannot name itself `person` or `app`: such a client is recorded as `mcp:person` (`mcp:app`).
//!
//! The page's routes also refuse a request whose `Origin` is present and is not the page's own (another port or
//! host name counts as another origin). A request that changes something (`dispatch`, `answer`) must carry, in the
//! `X-Ranvier-Csrf` header, the CSRF token this router wrote into the page (random, made when the router is built),
//! and a JSON body. A page at another origin can read neither the token nor the page, and cannot send the header
//! without a CORS preflight, which is never granted.
//!
//! The page is plain HTML, CSS and JavaScript embedded in the binary: no CDN, no framework, about 30 KB. It renders
//! everything a client sent (names, arguments, prompts, sender names, values) as text, never as HTML, and is served
//! with a `Content-Security-Policy` allowing only its own script and style.
//!
//! # Examples
//!
//! ```no_run
//! # fn demo(adapter: ranvier::mcp::McpAdapter) -> Result<(), ranvier::mcp::http::HttpError> {
//! use ranvier::mcp::http::{HttpOptions, McpHttpService, page_router};
//!
//! let options = HttpOptions::from_env()?;
//! let page = page_router(adapter.handle().clone(), &options)?;
//! let app: axum::Router = axum::Router::new()
//!     .route_service("/mcp", McpHttpService::new(adapter, options)?)
//!     .merge(page); // the page at `/`, its script, style and endpoints under `/page/`
//! # let _ = app; Ok(()) }
//! ```

mod credential;
mod events;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{Guard, HttpError, HttpOptions, json_response, plain};
use crate::exposure::ExposureHandle;
pub(crate) use credential::{KEY_PARAM, Secret};

/// The sender recorded for what a person does on the page: their dispatches in the journal, their answers to
/// interrupts.
pub const PAGE_SENDER: &str = "person";

/// The `by` of the journal's record of an answer the page refused for want of a page session (its
/// [`refused`](crate::exposure::approval::ApprovalRecord::refused) is what tells it from an answer).
pub const REFUSED_BY: &str = "page request without a session";

/// The header a state-changing request carries the page's CSRF token in.
pub const CSRF_HEADER: &str = "x-ranvier-csrf";

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const APP_CSS: &str = include_str!("page/app.css");

/// Where the CSRF token goes in `index.html`.
const CSRF_SLOT: &str = "{{csrf}}";

/// The page's policy: its own script, style and connections only; no frames, no plugins, no forms elsewhere.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; \
                   base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The live page's routes, to merge into an `axum` router at its root: `GET /` (the page), `GET /page/app.js` and
/// `GET /page/app.css`, `GET /page/events` (the server-sent events), `POST /page/dispatch`, `POST /page/answer`,
/// and in traced builds `GET /page/graph` and `GET /page/explain?node=<id>`. See the [module docs](self).
///
/// `options` guard it as they guard `/mcp` (allowed hosts and origins, the body limit), and say whether it wants the
/// page key. With the key on and no [`HttpOptions::page_key`] set, a random key is made and printed on standard
/// error (`ranvier: the live page's key: …`): set one to show it to the person yourself.
///
/// # Errors
///
/// An [`HttpError`] naming the option that is malformed, as [`McpHttpService::new`](super::McpHttpService::new).
///
/// # Examples
///
/// ```no_run
/// # async fn demo(adapter: ranvier::mcp::McpAdapter) -> Result<(), Box<dyn std::error::Error>> {
/// use ranvier::mcp::http::{HttpOptions, page_router, router};
///
/// let options = HttpOptions::new();
/// let app = router(adapter.clone(), "/mcp", options.clone())?.merge(page_router(adapter.handle().clone(), &options)?);
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8900").await?;
/// axum::serve(listener, app).await?;
/// # Ok(()) }
/// ```
pub fn page_router(
    handle: ExposureHandle,
    options: &HttpOptions,
) -> Result<axum::Router, HttpError> {
    let page = Page::new(handle, options, CancellationToken::new())?;
    if let (Some(key), None) = (page.key(), &options.page_key) {
        eprintln!(
            "ranvier: the live page's key: {} (open the page as /?{KEY_PARAM}=<the key>)",
            key.reveal()
        );
    }
    Ok(page.router())
}

/// What every route of one page shares.
pub(super) struct Page {
    handle: ExposureHandle,
    guard: Guard,
    /// The CSRF token written into the page.
    csrf: String,
    /// The page's HTML, with the CSRF token in it.
    html: String,
    /// Who gets in.
    credential: credential::Credential,
    /// How many event streams are open, and how many may be.
    streams: Arc<AtomicUsize>,
    max_streams: usize,
    /// The newest `hello` made, for the next stream opened at the same version.
    hello: std::sync::Mutex<Option<events::Hello>>,
    /// Ends the event streams when the server shuts down.
    pub(super) cancel: CancellationToken,
}

impl Page {
    pub(super) fn new(
        handle: ExposureHandle,
        options: &HttpOptions,
        cancel: CancellationToken,
    ) -> Result<Arc<Page>, HttpError> {
        let guard = options.guard()?;
        let csrf = uuid::Uuid::new_v4().simple().to_string();
        let credential = credential::Credential::new(options, &guard);
        Ok(Arc::new(Page {
            handle,
            guard,
            html: INDEX_HTML.replace(CSRF_SLOT, &csrf),
            csrf,
            credential,
            streams: Arc::default(),
            max_streams: options.max_page_streams,
            hello: std::sync::Mutex::new(None),
            cancel,
        }))
    }

    /// The page key, when the page wants it.
    pub(super) fn key(&self) -> Option<Secret> {
        self.credential.key()
    }

    /// The routes, each behind [`check`](Page::check).
    pub(super) fn router(self: Arc<Self>) -> axum::Router {
        use axum::routing::{get, post};
        let route = |page: &Arc<Page>, what: Route| {
            let page = page.clone();
            move |request: Request<Body>| async move { page.answer(what, request).await }
        };
        axum::Router::new()
            .route("/", get(route(&self, Route::Index)))
            .route("/page/app.js", get(route(&self, Route::Script)))
            .route("/page/app.css", get(route(&self, Route::Style)))
            .route("/page/events", get(route(&self, Route::Events)))
            .route("/page/log", get(route(&self, Route::Log)))
            .route("/page/graph", get(route(&self, Route::Graph)))
            .route("/page/explain", get(route(&self, Route::Explain)))
            .route("/page/version", get(route(&self, Route::Version)))
            .route("/page/diff", get(route(&self, Route::Diff)))
            .route("/page/dispatch", post(route(&self, Route::Dispatch)))
            .route("/page/answer", post(route(&self, Route::Answer)))
    }

    async fn answer(self: Arc<Self>, route: Route, request: Request<Body>) -> Response<Body> {
        let (parts, body) = request.into_parts();
        if route == Route::Index
            && let Some(response) = self.token_link(&parts.headers, &parts.uri)
        {
            return response;
        }
        if let Err(response) = self.check(&parts.headers, &parts.uri, parts.method == Method::POST)
        {
            if response.status() == StatusCode::UNAUTHORIZED
                && matches!(route, Route::Answer | Route::Dispatch)
            {
                let journaled = match route {
                    Route::Answer => self.journal_refused(&parts.headers, body).await,
                    _ => None,
                };
                eprintln!(
                    "ranvier: the live page refused {} {}: no page session (its key was not presented){}",
                    parts.method,
                    parts.uri.path(),
                    journaled.map_or_else(String::new, |id| format!(
                        "; journaled as a refused answer to interrupt {}",
                        crate::escape::quote(&id)
                    ))
                );
            }
            return response;
        }
        let mut response = match route {
            Route::Index => text(&self.html, "text/html; charset=utf-8"),
            Route::Script => text(APP_JS, "text/javascript; charset=utf-8"),
            Route::Style => text(APP_CSS, "text/css; charset=utf-8"),
            Route::Events => match self.open_stream() {
                Some(slot) => events::stream(self.clone(), slot),
                None => plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &format!(
                        "Service Unavailable: {} live page streams are open already (HttpOptions::max_page_streams); \
                         close one",
                        self.max_streams
                    ),
                ),
            },
            Route::Log => self.older_log(parts.uri.query().unwrap_or("")),
            Route::Graph => self.graph().await,
            Route::Explain => self.explain(parts.uri.query().unwrap_or("")).await,
            Route::Version => self.version_at(parts.uri.query().unwrap_or("")),
            Route::Diff => self.diff(parts.uri.query().unwrap_or("")),
            Route::Dispatch | Route::Answer => match self.read_json(&parts.headers, body).await {
                Ok(body) if route == Route::Dispatch => self.dispatch(body).await,
                Ok(body) => self.answer_interrupt(body).await,
                Err(response) => response,
            },
        };
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(
            "x-content-type-options",
            HeaderValue::from_static("nosniff"),
        );
        headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
        if route == Route::Index {
            headers.insert("content-security-policy", HeaderValue::from_static(CSP));
        }
        response
    }

    /// `/?key=<key>` (or, without the page credential, `/?token=<token>`) with the right secret: a session cookie,
    /// and on to the page without the secret in its address. `None` when the request carries no secret.
    fn token_link(&self, headers: &HeaderMap, uri: &axum::http::Uri) -> Option<Response<Body>> {
        let trade = self.credential.trade(uri.query(), &self.guard)?;
        if let Err(response) = self.guard.check_host_origin(headers, uri) {
            return Some(response);
        }
        let credential::Trade::Session(set) = trade else {
            return Some(self.unauthorized());
        };
        let mut response = plain(
            StatusCode::SEE_OTHER,
            "See Other: the page, without the secret in its address",
        );
        let location = HeaderValue::from_str(uri.path()).unwrap_or(HeaderValue::from_static("/"));
        let headers = response.headers_mut();
        headers.insert(header::LOCATION, location);
        if let Ok(set) = HeaderValue::from_str(&set) {
            headers.insert(header::SET_COOKIE, set);
        }
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        Some(response)
    }

    /// The checks of `/mcp` (Host, Origin), then the page's credential (a session, see [`credential`]), then that a
    /// present `Origin` is the page's own; for a `POST`, the CSRF token and a JSON body.
    #[allow(clippy::result_large_err)]
    fn check(
        &self,
        headers: &HeaderMap,
        uri: &axum::http::Uri,
        post: bool,
    ) -> Result<(), Response<Body>> {
        self.guard.check_host_origin(headers, uri)?;
        if !self.credential.admits(headers, &self.guard) {
            return Err(self.unauthorized());
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let own = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .map(|host| format!("http://{host}"));
            let same =
                own.is_some_and(|own| origin.as_bytes().eq_ignore_ascii_case(own.as_bytes()));
            if !same {
                return Err(plain(
                    StatusCode::FORBIDDEN,
                    "Forbidden: the page's routes answer only the page's own origin",
                ));
            }
        }
        if post {
            let csrf = headers.get(CSRF_HEADER).map(HeaderValue::as_bytes);
            if !csrf.is_some_and(|csrf| super::constant_time_eq(csrf, self.csrf.as_bytes())) {
                return Err(plain(
                    StatusCode::FORBIDDEN,
                    "Forbidden: a missing or wrong X-Ranvier-Csrf header; send the token the page holds",
                ));
            }
            let json = headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(';').next())
                .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"));
            if !json {
                return Err(plain(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "Unsupported Media Type: send the body as application/json",
                ));
            }
        }
        Ok(())
    }

    fn unauthorized(&self) -> Response<Body> {
        let mut response = plain(StatusCode::UNAUTHORIZED, self.credential.how_to_enter());
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        response
    }

    /// A JSON object body within the body limit and its timeout, read as `/mcp` reads one (413 at once for
    /// `Expect: 100-continue` with a body over the limit), naming no key twice in an object (as `/mcp` refuses).
    #[allow(clippy::result_large_err)]
    async fn read_json<B>(
        &self,
        headers: &HeaderMap,
        body: B,
    ) -> Result<serde_json::Map<String, Value>, Response<Body>>
    where
        B: HttpBody<Data = Bytes> + Send + 'static,
        B::Error: Into<axum::BoxError>,
    {
        let bytes = self.guard.read_bytes(headers, body).await?;
        if let Some(duplicate) = crate::mcp::keys::first_duplicate(&bytes) {
            return Err(bad_request(&crate::mcp::text::duplicate_key(
                &duplicate.key,
                &duplicate.place(),
            )));
        }
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(fields)) => Ok(fields),
            Ok(_) => Err(bad_request("the body must be a JSON object")),
            Err(error) => Err(bad_request(&format!("the body is not JSON: {error}"))),
        }
    }

    /// A `/page/answer` refused for want of a page session: journaled as a refused answer
    /// ([`ApprovalRecord::refused`](crate::exposure::approval::ApprovalRecord::refused), `by`
    /// [`REFUSED_BY`]) when its body (read within the limits of every body) names an open interrupt, once per
    /// interrupt; an unknown id, a repeated try or an unreadable body journals nothing. Returns the interrupt's id
    /// when it journaled. What the client sent besides the id (its reason) is not recorded.
    async fn journal_refused(&self, headers: &HeaderMap, body: Body) -> Option<String> {
        let body = self.read_json(headers, body).await.ok()?;
        let Some(Value::String(id)) = body.get("id") else {
            return None;
        };
        let asked = match body.get("approve") {
            Some(Value::Bool(true)) => "approve",
            Some(Value::Bool(false)) => "deny",
            _ => "answer",
        };
        let reason = format!(
            "asked to {asked} without the page's credential; refused, the interrupt stays open"
        );
        self.handle
            .journal_refused_answer(id, REFUSED_BY, reason)
            .map(|interrupt| interrupt.id)
    }

    /// `{message, args}`: dispatched as [`PAGE_SENDER`], answered `{ok, paused, text}` (the text an agent reads).
    async fn dispatch(&self, body: serde_json::Map<String, Value>) -> Response<Body> {
        let Some(Value::String(message)) = body.get("message") else {
            return bad_request("\"message\" must be the name of a message (a string)");
        };
        let args = body.get("args").cloned().unwrap_or_else(|| json!({}));
        let outcome = self
            .handle
            .dispatch_all_as(PAGE_SENDER, vec![(message.clone(), args)])
            .await;
        let answer = json!({
            "ok": outcome.is_complete(),
            "paused": outcome.paused().is_some(),
            "version": outcome.snapshot.version,
            "text": crate::mcp::sequence_text(&outcome),
        });
        json_response(StatusCode::OK, answer.to_string().into_bytes())
    }

    /// `{id, approve, reason?}`: answers the interrupt as [`PAGE_SENDER`], answered `{ok, text}`.
    async fn answer_interrupt(&self, body: serde_json::Map<String, Value>) -> Response<Body> {
        let (Some(Value::String(id)), Some(Value::Bool(approve))) =
            (body.get("id"), body.get("approve"))
        else {
            return bad_request(
                "send {\"id\": \"i-…\", \"approve\": true or false, \"reason\": \"…\" (optional)}",
            );
        };
        let reason = match body.get("reason") {
            None | Some(Value::Null) => None,
            Some(Value::String(reason)) if reason.trim().is_empty() => None,
            Some(Value::String(reason)) => Some(reason.as_str()),
            Some(_) => return bad_request("\"reason\" must be a string"),
        };
        let answer = match self
            .handle
            .answer_as(PAGE_SENDER, id, *approve, reason)
            .await
        {
            Ok(answered) => json!({
                "ok": true,
                "text": match &answered.outcome {
                    Some(outcome) => crate::mcp::sequence_text(outcome),
                    None => format!("denied: {} did not run", answered.interrupt.message),
                },
            }),
            Err(error) => json!({"ok": false, "text": error.to_string()}),
        };
        json_response(StatusCode::OK, answer.to_string().into_bytes())
    }

    /// The graph as JSON (traced builds): nodes by kind with values, sources (edges) and sites, and the nodes the
    /// last message moved. `{"traced": false}` in an untraced build.
    async fn graph(&self) -> Response<Body> {
        let exposed = self.handle.node_names();
        let graph = self.handle.on_graph(move || graph_json(&exposed)).await;
        match graph {
            // node values come from the trace: never a redacted string
            Ok(graph) => json_response(
                StatusCode::OK,
                self.handle.scrub(&graph.to_string()).into_bytes(),
            ),
            Err(error) => plain(
                StatusCode::SERVICE_UNAVAILABLE,
                &crate::exposure::host_gone(&error.to_string()),
            ),
        }
    }

    /// `explain` for the node `?node=<id>` (traced builds), as text.
    async fn explain(&self, query: &str) -> Response<Body> {
        let Some(id) = query_param(query, "node").and_then(|id| id.parse::<u32>().ok()) else {
            return bad_request("send ?node=<the node's id, a number>");
        };
        // the one explain, as the `explain` tool answers it with `detail: "full"` (a person has the room for the
        // `why:` chain)
        let explained = super::super::explain::explain(&self.handle, &format!("#{id}"), true).await;
        match explained {
            Ok(Ok(explained)) => plain(StatusCode::OK, &self.handle.scrub(&explained.text)),
            Ok(Err(reason)) => plain(StatusCode::NOT_FOUND, &reason),
            Err(error) => plain(
                StatusCode::SERVICE_UNAVAILABLE,
                &crate::exposure::host_gone(&error.to_string()),
            ),
        }
    }

    /// What the event stream starts with, but the open interrupts (see [`events`]): the values, the messages and
    /// their forms, the journal's entries `log` (numbered from `first`), and whether the build is traced.
    pub(super) fn hello(
        &self,
        first: u64,
        log: &[crate::exposure::JournalEntry],
        snapshot: &crate::exposure::Snapshot,
    ) -> Value {
        let gated = self.handle.gated_messages();
        let messages: Vec<Value> = self
            .handle
            .message_names()
            .into_iter()
            .map(|name| {
                json!({
                    "name": name,
                    "shape": self.handle.message_shape(&name),
                    "schema": self.handle.message_schema(&name),
                    "gated": gated.contains(&name),
                })
            })
            .collect();
        let last_seq = first + log.len() as u64 - 1;
        let log: Vec<Value> = log
            .iter()
            .enumerate()
            .map(|(i, entry)| events::log_json(first + i as u64, entry, &[]))
            .collect();
        json!({
            "version": snapshot.version,
            "values": snapshot.values.iter().map(|(name, value)| json!([name, events::clipped(value)])).collect::<Vec<_>>(),
            "messages": messages,
            "log": log,
            "firstSeq": first,
            "lastSeq": last_seq,
            "traced": crate::trace::TRACED,
            "sender": PAGE_SENDER,
        })
    }

    /// `/page/log?before=<seq>`: the journal's entries numbered below `seq` (at most [`events::HELLO_LOG`]), as
    /// `{firstSeq, log}`, for a page paging back from its `hello`.
    fn older_log(&self, query: &str) -> Response<Body> {
        let Some(before) = query_param(query, "before").and_then(|seq| seq.parse::<u64>().ok())
        else {
            return bad_request("send ?before=<a journal entry's seq, a number>");
        };
        let (first, log) = self.handle.journal_window(before, events::HELLO_LOG);
        let log: Vec<Value> = log
            .iter()
            .enumerate()
            .map(|(i, entry)| events::log_json(first + i as u64, entry, &[]))
            .collect();
        let answer = json!({"firstSeq": first, "log": log});
        json_response(StatusCode::OK, answer.to_string().into_bytes())
    }

    /// `/page/version?v=<n>`: the timeline's view of version `n`, `{version, values: [[name, value]], kept: [oldest,
    /// current], message}`, where `message` is the journaled message that made it (`{name, args, sender, line}`,
    /// `null` for version 0 or a change the app made on its own); 404 with the reason for a version the history no
    /// longer keeps (or not yet published).
    fn version_at(&self, query: &str) -> Response<Body> {
        let Some(version) = query_param(query, "v").and_then(|v| v.parse::<u64>().ok()) else {
            return bad_request("send ?v=<a version, a non-negative integer>");
        };
        let snapshot = match self.handle.snapshot_at(version) {
            Ok(snapshot) => snapshot,
            Err(error) => return plain(StatusCode::NOT_FOUND, &error.to_string()),
        };
        let kept = self.handle.kept_versions();
        // the message that made it, as `snapshot {version}` names it over MCP
        let made = self.handle.made_by(version);
        let message = made.as_ref().map(|entry| {
            json!({
                "name": entry.name,
                "args": events::clipped(&entry.args),
                "sender": entry.sender,
                "line": format!(
                    "{} {} by {}",
                    entry.name,
                    crate::escape::json(&entry.args),
                    crate::escape::quote(&entry.sender)
                ),
            })
        });
        let answer = json!({
            "version": snapshot.version,
            "values": snapshot.values.iter().map(|(name, value)| json!([name, events::clipped(value)])).collect::<Vec<_>>(),
            "kept": [kept.start(), kept.end()],
            "message": message,
        });
        json_response(StatusCode::OK, answer.to_string().into_bytes())
    }

    /// `/page/diff?from=<a>&to=<b>`: what changed between two versions, as the `diff` tool answers it (text); 404
    /// with the reason when either has left the history.
    fn diff(&self, query: &str) -> Response<Body> {
        let version = |name| query_param(query, name).and_then(|v| v.parse::<u64>().ok());
        let (Some(from), Some(to)) = (version("from"), version("to")) else {
            return bad_request("send ?from=<a version>&to=<a version>, non-negative integers");
        };
        let mut arguments = rmcp::model::JsonObject::new();
        arguments.insert("from".into(), from.into());
        arguments.insert("to".into(), to.into());
        let result = crate::mcp::state::diff(&self.handle, Some(&arguments));
        let text: String = result
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
            .collect();
        let status = if result.is_error == Some(true) {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::OK
        };
        plain(status, &text)
    }

    /// A stream slot, unless [`HttpOptions::max_page_streams`] are open.
    fn open_stream(&self) -> Option<events::Slot> {
        let open = self.streams.fetch_add(1, Ordering::AcqRel);
        let slot = events::Slot(self.streams.clone());
        (open < self.max_streams).then_some(slot)
    }

    pub(super) fn handle(&self) -> &ExposureHandle {
        &self.handle
    }
}

/// The page's routes.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Route {
    Index,
    Script,
    Style,
    Events,
    Graph,
    Explain,
    Dispatch,
    Answer,
    Log,
    Version,
    Diff,
}

/// The most nodes the graph view shows.
const GRAPH_MAX_NODES: usize = 400;

/// The longest value text a node shows, in characters.
const GRAPH_VALUE_CHARS: usize = 160;

/// The graph document, read on the graph thread.
fn graph_json(exposed: &[(String, crate::graph::NodeId)]) -> Value {
    let (Ok(snapshot), Ok(summary)) = (crate::trace::snapshot(), crate::trace::summary()) else {
        return json!({"traced": false});
    };
    let live: Vec<&crate::trace::NodeInfo> = snapshot
        .nodes
        .iter()
        .filter(|info| !info.disposed)
        .collect();
    let total = live.len();
    let nodes: Vec<Value> = live
        .iter()
        .take(GRAPH_MAX_NODES)
        .map(|info| {
            let exposed_as = exposed
                .iter()
                .find(|(_, id)| *id == info.node.id)
                .map(|(name, _)| name.as_str());
            json!({
                "id": info.node.id.0,
                "name": info.node.to_string(),
                "exposed": exposed_as,
                "kind": info.kind.name(),
                "site": format!("{}:{}:{}", info.site.file, info.site.line, info.site.column),
                "value": info.value.as_deref().map(|v| clip(v, GRAPH_VALUE_CHARS)),
                "error": info.error.as_deref(),
                "sources": info.sources.iter().map(|s| s.id.0).collect::<Vec<_>>(),
                "runs": info.runs,
            })
        })
        .collect();
    json!({
        "traced": true,
        "nodes": nodes,
        "total": total,
        "moved": summary.moved.iter().map(|info| info.node.id.0).collect::<Vec<_>>(),
        "lastMessage": summary.last_message.as_ref().map(|m| format!("{} {}", m.name, m.args)),
    })
}

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn text(body: &str, content_type: &'static str) -> Response<Body> {
    let mut response = Response::new(Body::from(body.to_owned()));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

fn bad_request(reason: &str) -> Response<Body> {
    plain(StatusCode::BAD_REQUEST, &format!("Bad Request: {reason}"))
}

/// `text` percent-encoded for a query value (every byte but unreserved ones).
pub(crate) fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The percent-decoded value of `name` in a query string (`+` is a space).
fn query_param(query: &str, name: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| percent_decode(value))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len()
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit() =>
            {
                let digits = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("00");
                out.push(u8::from_str_radix(digits, 16).unwrap_or(0));
                i += 2;
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_parameters_are_percent_decoded() {
        assert_eq!(
            query_param("a=1&token=s%20c%2Br+t", "token").as_deref(),
            Some("s c+r t")
        );
        assert_eq!(query_param("node=12", "node").as_deref(), Some("12"));
        assert_eq!(query_param("token", "token").as_deref(), Some(""));
        assert_eq!(query_param("x=%zz%4", "x").as_deref(), Some("%zz%4"));
        assert_eq!(query_param("a=1", "token"), None);
    }

    #[test]
    fn percent_encoding_round_trips() {
        for text in ["s3cret/+ token", "a&b=c", "é"] {
            assert_eq!(
                query_param(&format!("k={}", percent_encode(text)), "k").as_deref(),
                Some(text)
            );
        }
    }

    #[test]
    fn clipping_keeps_whole_characters() {
        assert_eq!(clip("héllo", 2), "hé…");
        assert_eq!(clip("hi", 2), "hi");
    }
}
