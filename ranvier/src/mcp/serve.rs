//! One call from an app to a served one: start the graph thread, build the app there, register everything its
//! `#[expose]` marks, serve the exposure over stdio (or Streamable HTTP), and dispose of it all when the client
//! leaves. The long form (`GraphHost::start`, `Exposure`, `McpAdapter`, `serve_stdio`) stays for apps that need
//! more than this does.

use super::{McpAdapter, McpAdapterOptions};
use crate::Expose;
use crate::exposure::{ExposeError, Exposure, ExposureHandle};
use crate::host::{GraphHost, HostError};

/// Why serving an app stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The graph thread could not start, the app's build panicked, or a name it exposes is taken twice.
    #[error("the app could not start: {0}")]
    Host(#[from] HostError),
    /// The stdio session failed (the client's `initialize` was refused, say).
    #[error("serving MCP failed: {0}")]
    Io(#[from] std::io::Error),
    /// The HTTP server could not bind or was misconfigured.
    #[cfg(feature = "http")]
    #[error("serving MCP over HTTP failed: {0}")]
    Http(#[from] super::http::HttpError),
    /// A blocking `run_*` function was called inside a Tokio runtime, where it cannot start one of its own.
    #[error(
        "{0} blocks and starts a Tokio runtime of its own; inside a runtime (`#[tokio::main]`) call {1}(...).await instead"
    )]
    InsideRuntime(&'static str, &'static str),
}

/// What the host of a served app keeps on the graph thread.
type Served<A> = (A, ExposureHandle);

/// Starts the graph thread, builds the app there with `build`, registers what its `#[expose]` marks and starts the
/// exposure; then builds the adapter.
fn start<A, F>(
    options: McpAdapterOptions,
    build: F,
) -> Result<(GraphHost<Served<A>>, McpAdapter), ServeError>
where
    A: Expose + 'static,
    F: Fn() -> A + Send + Sync + 'static,
{
    let build = std::sync::Arc::new(build);
    let host = GraphHost::start(move || {
        let app = build();
        let mut exposure = Exposure::new();
        app.expose(&mut exposure)?;
        // a fork is built by the same fn, then given the live models
        exposure.forks(move || build());
        let handle = exposure.start()?;
        Ok::<_, ExposeError>((app, handle))
    })?;
    let adapter = host
        .invoke(move |(_, handle)| McpAdapter::new(handle.clone(), options))
        .wait()?;
    Ok((host, adapter))
}

/// Serves the app `build` returns over stdin/stdout until the client disconnects, then disposes of the adapter and
/// the graph: [`run_stdio`] inside a Tokio runtime of the caller's.
///
/// `build` runs on the graph thread (the app's nodes belong to it); every field its `#[expose]` marks is
/// registered, in field order. It runs again, on a graph thread of the fork's own, for every fork an agent makes
/// (see [`fork`](crate::exposure::fork)), so it builds a fresh graph each time it is called. For approvals, a journal or a second transport, use the long form this is made of:
/// [`GraphHost::start`], [`Exposure`], [`McpAdapter::new`] and [`serve_stdio`](super::serve_stdio).
///
/// # Examples
///
/// ```no_run
/// use ranvier::mcp::{McpAdapterOptions, serve_app_stdio};
/// use ranvier::{Memo, Signal, expose};
///
/// #[expose]
/// struct App {
///     #[expose]
///     hello: Memo<String>,
/// }
///
/// # #[tokio::main] async fn main() -> Result<(), ranvier::mcp::ServeError> {
/// let options = McpAdapterOptions::new("hello", "0.1.0");
/// serve_app_stdio(options, || {
///     let name = Signal::new("world".to_owned());
///     App { hello: Memo::new(move |_| format!("hello, {}", name.get())) }
/// })
/// .await
/// # }
/// ```
///
/// # Errors
///
/// A [`ServeError`]: the app could not start (its build panicked, or two exposed names clash), or the session
/// failed.
///
/// # Panics
///
/// Outside a Tokio runtime.
pub async fn serve_app_stdio<A, F>(options: McpAdapterOptions, build: F) -> Result<(), ServeError>
where
    A: Expose + 'static,
    F: Fn() -> A + Send + Sync + 'static,
{
    let (host, adapter) = start(options, build)?;
    let served = super::serve_stdio(adapter.clone()).await;
    adapter.dispose();
    host.dispose();
    Ok(served?)
}

/// Serves the app `build` returns over stdin/stdout until the client disconnects, on a Tokio runtime of its own:
/// the whole of an app's `main`, with no Tokio in its dependencies. See [`serve_app_stdio`].
///
/// # Examples
///
/// ```no_run
/// use ranvier::mcp::{McpAdapterOptions, run_stdio};
/// use ranvier::{Memo, Mvu, Messages, expose};
///
/// #[derive(Debug, Messages)]
/// enum Msg {
///     /// Adds one.
///     Increment,
/// }
///
/// #[expose]
/// struct Counter {
///     #[expose(messages, value)]
///     count: Mvu<u64, Msg>,
/// }
///
/// fn main() -> Result<(), ranvier::mcp::ServeError> {
///     run_stdio(McpAdapterOptions::new("counter", "0.1.0"), || Counter {
///         count: Mvu::new(0, |Msg::Increment, count| count + 1),
///     })
/// }
/// ```
///
/// # Errors
///
/// [`ServeError::InsideRuntime`] when called inside a Tokio runtime; otherwise as [`serve_app_stdio`].
pub fn run_stdio<A, F>(options: McpAdapterOptions, build: F) -> Result<(), ServeError>
where
    A: Expose + 'static,
    F: Fn() -> A + Send + Sync + 'static,
{
    runtime("run_stdio", "serve_app_stdio")?.block_on(serve_app_stdio(options, build))
}

/// A multi-threaded Tokio runtime for a blocking `run_*` function (`name`), unless one is running already.
pub(super) fn runtime(
    name: &'static str,
    instead: &'static str,
) -> Result<tokio::runtime::Runtime, ServeError> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(ServeError::InsideRuntime(name, instead));
    }
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

/// Serves the app `build` returns over Streamable HTTP at `http://{addr}/mcp`, with the secure defaults and the
/// bearer token from [`TOKEN_ENV`](super::http::TOKEN_ENV) when it is set, until the server stops. Prints the
/// endpoint's URL to stderr once it is bound. See [`serve_app_stdio`] for `build`.
///
/// # Errors
///
/// A [`ServeError`]: the app could not start, or the server could not bind (`addr` not loopback, taken, ...).
///
/// # Panics
///
/// Outside a Tokio runtime.
#[cfg(feature = "http")]
pub async fn serve_app_http<A, F>(
    options: McpAdapterOptions,
    addr: impl tokio::net::ToSocketAddrs + std::fmt::Debug,
    build: F,
) -> Result<(), ServeError>
where
    A: Expose + 'static,
    F: Fn() -> A + Send + Sync + 'static,
{
    use super::http::{HttpOptions, HttpServer};
    let (host, adapter) = start(options, build)?;
    let served = async {
        let server =
            HttpServer::bind(adapter.clone(), addr, "/mcp", HttpOptions::from_env()?).await?;
        eprintln!("serving MCP at {}", server.url());
        server.wait().await?;
        Ok::<_, ServeError>(())
    }
    .await;
    adapter.dispose();
    host.dispose();
    served
}

/// [`serve_app_http`] on a Tokio runtime of its own: the whole of an app's `main`.
///
/// # Examples
///
/// ```no_run
/// # use ranvier::{Memo, Signal, expose};
/// # #[expose] struct App { #[expose] hello: Memo<String> }
/// # fn build() -> App { let s = Signal::new(String::new()); App { hello: Memo::new(move |_| s.get()) } }
/// use ranvier::mcp::{McpAdapterOptions, run_http};
///
/// fn main() -> Result<(), ranvier::mcp::ServeError> {
///     run_http(McpAdapterOptions::new("hello", "0.1.0"), "127.0.0.1:8900", build)
/// }
/// ```
///
/// # Errors
///
/// [`ServeError::InsideRuntime`] when called inside a Tokio runtime; otherwise as [`serve_app_http`].
#[cfg(feature = "http")]
pub fn run_http<A, F>(
    options: McpAdapterOptions,
    addr: impl tokio::net::ToSocketAddrs + std::fmt::Debug,
    build: F,
) -> Result<(), ServeError>
where
    A: Expose + 'static,
    F: Fn() -> A + Send + Sync + 'static,
{
    runtime("run_http", "serve_app_http")?.block_on(serve_app_http(options, addr, build))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Signal;
    #[cfg(feature = "http")]
    use std::sync::Arc;
    #[cfg(feature = "http")]
    use std::sync::atomic::{AtomicBool, Ordering};

    /// An app of one exposed value, registered by hand (the macros name `::ranvier`, not this crate).
    struct One(Signal<u32>);

    impl Expose for One {
        fn expose(&self, exposure: &mut Exposure) -> Result<(), ExposeError> {
            let value = self.0.clone();
            exposure.value("one", move || value.get())?;
            Ok(())
        }
    }

    #[tokio::test]
    async fn run_stdio_inside_a_runtime_says_what_to_call_instead() {
        let error = run_stdio(McpAdapterOptions::new("one", "0.1.0"), || {
            One(Signal::new(1))
        })
        .unwrap_err();
        assert!(matches!(
            error,
            ServeError::InsideRuntime("run_stdio", "serve_app_stdio")
        ));
        assert!(
            error
                .to_string()
                .contains("call serve_app_stdio(...).await instead"),
            "{error}"
        );
    }

    #[test]
    fn an_app_whose_names_clash_does_not_start() {
        struct Twice;
        impl Expose for Twice {
            fn expose(&self, exposure: &mut Exposure) -> Result<(), ExposeError> {
                exposure.value("n", || 1)?;
                exposure.value("n", || 2)?;
                Ok(())
            }
        }
        let error = run_stdio(McpAdapterOptions::new("twice", "0.1.0"), || Twice).unwrap_err();
        assert!(
            matches!(error, ServeError::Host(HostError::Setup(_))),
            "{error:?}"
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn run_http_builds_the_app_then_refuses_an_address_that_is_not_loopback() {
        let built = Arc::new(AtomicBool::new(false));
        let error = run_http(McpAdapterOptions::new("one", "0.1.0"), "0.0.0.0:0", {
            let built = built.clone();
            move || {
                built.store(true, Ordering::SeqCst);
                One(Signal::new(1))
            }
        })
        .unwrap_err();
        assert!(built.load(Ordering::SeqCst));
        assert!(
            matches!(
                error,
                ServeError::Http(crate::mcp::http::HttpError::NotLoopback(_))
            ),
            "{error:?}"
        );
    }
}
