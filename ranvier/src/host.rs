//! The graph on its own thread: [`GraphHost`] owns a dedicated thread, builds the app's graph there and runs
//! work sent to it from any other thread.
//!
//! Graph handles ([`Signal`](crate::Signal), [`Memo`](crate::Memo), [`Mvu`](crate::Mvu), ...) are `!Send`: a node
//! can only be touched on the thread whose graph it belongs to, and the compiler enforces it. A server, a test or a
//! UI thread therefore reaches the graph through a host:
//!
//! - [`GraphHost::start`] spawns the graph thread and runs `setup` on it. The value `setup` returns (the *app*,
//!   which usually holds nodes) never leaves that thread.
//! - [`GraphHost::invoke`] sends `work(&mut app)` to the graph thread and returns an [`Invoke`] future, resolved
//!   once the work and the effects it triggered have run. `.await` it from async code or [`Invoke::wait`] for it
//!   from a plain thread. Called on the graph thread itself, the work runs before `invoke` returns.
//! - [`AsyncMemo`](crate::AsyncMemo) flights and [`Settler`](crate::async_source::Settler) settles are run by the
//!   host itself: a wake posts one drain job ([`graph::run_flights`](crate::graph::run_flights)) to the graph
//!   thread. The graph thread enters the tokio runtime `start` was called from, if any, so flights can use its
//!   timers and I/O.
//! - Dropping the host (or [`GraphHost::dispose`]) lets the running work finish, disposes the graph on its thread
//!   and returns once the thread has stopped. Work still queued, and any work sent later, fails with
//!   [`HostError::Disposed`].
//!
//! # Examples
//!
//! ```
//! use ranvier::host::GraphHost;
//! use ranvier::{Memo, Signal};
//!
//! struct App {
//!     count: Signal<i32>,
//!     doubled: Memo<i32>,
//! }
//!
//! let host = GraphHost::start(|| {
//!     let count = Signal::new(1);
//!     let doubled = Memo::new({
//!         let count = count.clone();
//!         move |_| count.get() * 2
//!     });
//!     Ok::<_, String>(App { count, doubled })
//! })?;
//!
//! // From this (non-graph) thread: a blocking wait.
//! let doubled = host
//!     .invoke(|app| {
//!         app.count.set(21);
//!         app.doubled.get()
//!     })
//!     .wait()?;
//! assert_eq!(doubled, 42);
//! # Ok::<(), ranvier::host::HostError>(())
//! ```
use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::{Pin, pin};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, JoinHandle, Thread, ThreadId};

use crate::text::panic_text;
use tokio::sync::oneshot;
pub use tokio_util::sync::CancellationToken;
use tokio_util::sync::WaitForCancellationFutureOwned;

/// Stack size of the graph thread. Deep dependency chains recurse, so it is larger than a spawned thread's
/// default (the memory is only committed as it is used).
const GRAPH_STACK_SIZE: usize = 64 << 20;

/// Why work sent to a [`GraphHost`] (or the host itself) failed.
///
/// An error that stems from another error ([`Setup`](Self::Setup), [`Spawn`](Self::Spawn)) says what failed in its
/// `Display` and returns the underlying error as its [`source`](std::error::Error::source), so a reporter that
/// walks the chain (anyhow's `{:#}`, say) prints both.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// `setup` returned an error; the host thread has stopped. The error is the source.
    #[error("the graph host's setup failed")]
    Setup(#[source] Cause),
    /// `setup` panicked; the host thread has stopped. Holds the panic's text.
    #[error("the graph host's setup panicked: {0}")]
    SetupPanicked(String),
    /// The operating system refused to start the graph thread. Its error is the source.
    #[error("could not start the graph thread")]
    Spawn(#[source] Cause),
    /// The work panicked on the graph thread. Only this work failed: the host keeps serving.
    #[error("the work panicked on the graph thread: {0}")]
    Panicked(String),
    /// The host is disposed: the work did not run and no more work will.
    #[error("the graph host is disposed: the work did not run, and no more work will")]
    Disposed,
    /// The cancellation token fired before the work started: the work did not run.
    #[error("the work was cancelled before it started, and did not run")]
    Cancelled,
    /// `invoke` was called on the graph thread while the app was unavailable: either inside other work that holds
    /// `&mut App` already, or before `setup` returned.
    #[error(
        "the app is not available: `invoke` was called on the graph thread inside work that already holds `&mut App` \
         (use that reference instead), or before setup returned"
    )]
    AppBusy,
}

/// The error underneath another ([`HostError::Setup`], [`HostError::Spawn`],
/// [`ExposeError::Journal`](crate::exposure::ExposeError::Journal)), kept as that error's
/// [`source`](std::error::Error::source).
///
/// It reads as the error it holds (`Display`, `Debug` and `source` are that error's), is shared so the error that
/// holds it stays `Clone`, and equals another cause that reads the same.
///
/// # Examples
///
/// ```
/// use ranvier::host::Cause;
/// use std::error::Error as _;
///
/// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
/// let cause = Cause::new(io);
/// assert_eq!(cause.to_string(), "no such file");
/// assert_eq!(cause.downcast_ref::<std::io::Error>().unwrap().kind(), std::io::ErrorKind::NotFound);
/// assert_eq!(cause, Cause::new("no such file"));
/// assert!(cause.source().is_none());
/// ```
#[derive(Clone)]
pub struct Cause(Arc<dyn std::error::Error + Send + Sync + 'static>);

impl Cause {
    /// Keeps `error` (an error, or a `&str` or `String` message) as a cause.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        Cause(Arc::from(error.into()))
    }

    /// The error held.
    pub fn get_ref(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }

    /// The error held, if it is an `E`.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref::<E>()
    }
}

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl std::error::Error for Cause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for Cause {
    fn eq(&self, other: &Cause) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.to_string() == other.to_string()
    }
}

impl Eq for Cause {}

/// A unit of work for the graph thread. It resolves its own future, and dropping it unrun resolves the future with
/// [`HostError::Disposed`] (its oneshot sender is dropped with it).
type Job = Box<dyn FnOnce() + Send>;

enum Message {
    Job(Job),
    Stop,
}

struct InboxInner {
    sender: mpsc::Sender<Message>,
    thread_id: ThreadId,
    disposed: AtomicBool,
}

/// The type-erased way into one graph thread: what [`GraphHost`] and the exposure handle share. Cheap to clone,
/// `Send + Sync`.
#[derive(Clone)]
pub(crate) struct GraphInbox {
    inner: Arc<InboxInner>,
}

struct HostContext {
    #[cfg_attr(
        not(feature = "exposure"),
        allow(dead_code, reason = "read by the exposure")
    )]
    inbox: GraphInbox,
    /// `Rc<RefCell<App>>` once setup has returned.
    app: Option<Rc<dyn Any>>,
    /// What the layers built on the host asked to run at shutdown ([`GraphInbox::on_shutdown`]), in that order.
    shutdown_hooks: Vec<Box<dyn FnOnce()>>,
}

thread_local! {
    static CONTEXT: RefCell<Option<HostContext>> = const { RefCell::new(None) };
}

impl GraphInbox {
    /// The inbox of the host whose graph thread this is, if any.
    #[cfg_attr(
        not(feature = "exposure"),
        allow(dead_code, reason = "called by the exposure")
    )]
    pub(crate) fn current() -> Option<GraphInbox> {
        CONTEXT.with_borrow(|context| context.as_ref().map(|context| context.inbox.clone()))
    }

    /// Registers `hook` to run on this graph thread when the host shuts down: after the app is dropped, before the
    /// graph is disposed, hooks in registration order (a panicking hook is skipped). The exposure closes its
    /// streams this way, so the host needs to know nothing of the layers built on it. Returns `false`, dropping
    /// `hook`, off a host's graph thread.
    #[cfg_attr(
        not(feature = "exposure"),
        allow(dead_code, reason = "called by the exposure")
    )]
    pub(crate) fn on_shutdown(hook: impl FnOnce() + 'static) -> bool {
        CONTEXT.with_borrow_mut(|context| match context {
            Some(context) => {
                context.shutdown_hooks.push(Box::new(hook));
                true
            }
            None => false,
        })
    }

    /// Whether the calling thread is this inbox's graph thread.
    pub(crate) fn is_graph_thread(&self) -> bool {
        thread::current().id() == self.inner.thread_id
    }

    /// The graph thread's id.
    pub(crate) fn thread_id(&self) -> ThreadId {
        self.inner.thread_id
    }

    /// Whether the host has been disposed.
    pub(crate) fn is_disposed(&self) -> bool {
        self.inner.disposed.load(Ordering::Acquire)
    }

    /// Runs `work` on the graph thread (inline when called there). A panic faults the returned future only.
    #[cfg_attr(
        not(feature = "exposure"),
        allow(dead_code, reason = "called by the exposure")
    )]
    pub(crate) fn run<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Invoke<R> {
        self.submit(move || Ok(work()), None)
    }

    fn submit<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<R, HostError> + Send + 'static,
        token: Option<CancellationToken>,
    ) -> Invoke<R> {
        let (tx, rx) = oneshot::channel();
        let state = token.as_ref().map(|_| Arc::new(AtomicU8::new(PENDING)));
        let job = {
            let state = state.clone();
            let token = token.clone();
            move || {
                if let (Some(state), Some(token)) = (&state, &token) {
                    let claimed = !token.is_cancelled()
                        && state
                            .compare_exchange(PENDING, RUNNING, Ordering::AcqRel, Ordering::Acquire)
                            .is_ok();
                    if !claimed {
                        state.store(CANCELLED, Ordering::Release);
                        let _ = tx.send(Err(HostError::Cancelled));
                        return;
                    }
                }
                let result = match catch_unwind(AssertUnwindSafe(work)) {
                    Ok(result) => result,
                    Err(panic) => Err(HostError::Panicked(panic_text(panic.as_ref()))),
                };
                let _ = tx.send(result);
            }
        };
        let cancel = match (token, state) {
            (Some(token), Some(state)) => Some(CancelWatch {
                state,
                fired: Box::pin(token.cancelled_owned()),
            }),
            _ => None,
        };
        if self.is_disposed() {
            drop(job);
        } else if self.is_graph_thread() {
            job();
        } else if let Err(mpsc::SendError(message)) =
            self.inner.sender.send(Message::Job(Box::new(job)))
        {
            // The graph thread has stopped: dropping the job resolves the future with `Disposed`.
            drop(message);
        }
        Invoke { result: rx, cancel }
    }

    /// Queues `job` for the graph thread, even when called there (it runs after the current job).
    fn post(&self, job: Job) {
        if !self.is_disposed() {
            let _ = self.inner.sender.send(Message::Job(job));
        }
    }

    fn stop(&self) {
        self.inner.disposed.store(true, Ordering::Release);
        let _ = self.inner.sender.send(Message::Stop);
    }
}

const PENDING: u8 = 0;
const RUNNING: u8 = 1;
const CANCELLED: u8 = 2;

struct CancelWatch {
    state: Arc<AtomicU8>,
    fired: Pin<Box<WaitForCancellationFutureOwned>>,
}

/// The pending result of work sent to the graph thread: a [`Future`] of `Result<R, HostError>`.
///
/// `.await` it from async code (any executor), or call [`Invoke::wait`] from a plain thread. Dropping it does not
/// cancel the work; use [`GraphHost::invoke_with_cancel`] for that.
#[must_use = "the work runs either way, but its result and any panic are only seen through the future"]
pub struct Invoke<R> {
    result: oneshot::Receiver<Result<R, HostError>>,
    cancel: Option<CancelWatch>,
}

impl<R> Invoke<R> {
    /// Blocks the calling thread until the work has run (or failed) and returns its result.
    ///
    /// Called on the graph thread, it returns at once: work invoked there has already run.
    ///
    /// # Errors
    ///
    /// [`HostError::Panicked`] when the work panicked, [`HostError::Disposed`] when the host was disposed before it
    /// ran, [`HostError::Cancelled`] when its token fired first, [`HostError::AppBusy`] for a re-entrant invoke.
    pub fn wait(self) -> Result<R, HostError> {
        block_on(self)
    }
}

impl<R> Future for Invoke<R> {
    type Output = Result<R, HostError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        if let Poll::Ready(result) = Pin::new(&mut this.result).poll(cx) {
            return Poll::Ready(result.unwrap_or(Err(HostError::Disposed)));
        }
        if let Some(cancel) = &mut this.cancel
            && cancel.fired.as_mut().poll(cx).is_ready()
        {
            if cancel
                .state
                .compare_exchange(PENDING, CANCELLED, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return Poll::Ready(Err(HostError::Cancelled));
            }
            // The work has started (or was cancelled by the graph thread): its result is on the way.
            this.cancel = None;
        }
        Poll::Pending
    }
}

/// Runs a future to completion on the calling thread, parking it while the future is pending.
///
/// A small executor for plain threads: it needs no runtime, so it works for [`Invoke`] and for the exposure's
/// futures (`dispatch`, `wait_version`, publications). Do not use it on a graph thread to wait for something only
/// that graph thread can produce (a publication, say): the thread would wait for itself.
///
/// # Examples
///
/// ```
/// assert_eq!(ranvier::host::block_on(async { 40 + 2 }), 42);
/// ```
pub fn block_on<F: Future>(future: F) -> F::Output {
    struct Unparker(Thread);
    impl Wake for Unparker {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unparker(thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        thread::park();
    }
}

/// A dedicated graph thread running an app built by `setup`. `Send + Sync`: share it (in an `Arc`) with any thread.
///
/// See the [module docs](self) for the model.
pub struct GraphHost<App: 'static> {
    inbox: GraphInbox,
    thread: Mutex<Option<JoinHandle<()>>>,
    _app: PhantomData<fn() -> App>,
}

impl<App: 'static> fmt::Debug for GraphHost<App> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GraphHost")
            .field("graph_thread", &self.inbox.thread_id())
            .field("disposed", &self.inbox.is_disposed())
            .finish()
    }
}

impl<App: 'static> GraphHost<App> {
    /// Starts the graph thread, runs `setup` on it and keeps the app it returns there.
    ///
    /// Everything `setup` creates (signals, memos, effects, an [`Exposure`](crate::exposure::Exposure)) belongs
    /// to the graph thread's graph.
    ///
    /// # Errors
    ///
    /// [`HostError::Setup`] when `setup` returns an error (any error that is `Send + Sync`, or a `&str` or `String`
    /// message; it becomes the [`source`](std::error::Error::source)), [`HostError::SetupPanicked`] when it panics (in both
    /// cases `start` returns after the graph thread has disposed its graph and stopped), [`HostError::Spawn`] when
    /// the thread cannot be started.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::host::{Cause, GraphHost, HostError};
    ///
    /// let failed = GraphHost::<()>::start(|| Err("no database")).unwrap_err();
    /// assert_eq!(failed, HostError::Setup(Cause::new("no database")));
    /// assert_eq!(failed.to_string(), "the graph host's setup failed");
    /// assert_eq!(std::error::Error::source(&failed).unwrap().to_string(), "no database");
    /// ```
    pub fn start<F, E>(setup: F) -> Result<Self, HostError>
    where
        F: FnOnce() -> Result<App, E> + Send + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        let (sender, receiver) = mpsc::channel::<Message>();
        // Flights run inside the caller's tokio runtime, if any, so that they can use its timers and I/O.
        let runtime = tokio::runtime::Handle::try_current().ok();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<GraphInbox, HostError>>();
        let thread = thread::Builder::new()
            .name("ranvier-graph".into())
            .stack_size(GRAPH_STACK_SIZE)
            .spawn(move || {
                let _runtime = runtime.as_ref().map(tokio::runtime::Handle::enter);
                let inbox = GraphInbox {
                    inner: Arc::new(InboxInner {
                        sender,
                        thread_id: thread::current().id(),
                        disposed: AtomicBool::new(false),
                    }),
                };
                run_graph_thread(setup, inbox, receiver, ready_tx);
            })
            .map_err(|e| HostError::Spawn(Cause::new(e)))?;
        match ready_rx.recv() {
            Ok(Ok(inbox)) => Ok(GraphHost {
                inbox,
                thread: Mutex::new(Some(thread)),
                _app: PhantomData,
            }),
            Ok(Err(error)) => {
                let _ = thread.join();
                Err(error)
            }
            Err(_) => {
                let _ = thread.join();
                Err(HostError::SetupPanicked(
                    "the graph thread stopped before setup returned".into(),
                ))
            }
        }
    }

    /// Runs `work(&mut app)` on the graph thread and returns a future of its result, resolved once the work and
    /// the effects it triggered have run.
    ///
    /// Called on the graph thread itself, the work runs before `invoke` returns (the future is already resolved).
    ///
    /// # Errors
    ///
    /// The future resolves to [`HostError::Panicked`] when `work` panics (the host keeps serving), to
    /// [`HostError::Disposed`] when the host is disposed before the work runs, and to [`HostError::AppBusy`] when
    /// called on the graph thread inside other work that already holds the app.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::host::GraphHost;
    /// use ranvier::Signal;
    ///
    /// let host = GraphHost::start(|| Ok::<_, String>(Signal::new(1)))?;
    /// let value = ranvier::host::block_on(async { host.invoke(|count| count.get() + 1).await })?;
    /// assert_eq!(value, 2);
    /// # Ok::<(), ranvier::host::HostError>(())
    /// ```
    pub fn invoke<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut App) -> R + Send + 'static,
    ) -> Invoke<R> {
        self.inbox.submit(move || with_app::<App, R>(work), None)
    }

    /// Like [`invoke`](Self::invoke), but the work is cancelled instead when `token` fires before it starts: the
    /// work never runs and the future resolves to [`HostError::Cancelled`] as soon as the token fires. Work that
    /// has started runs to the end.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::host::{CancellationToken, GraphHost, HostError};
    ///
    /// let host = GraphHost::start(|| Ok::<_, String>(()))?;
    /// let token = CancellationToken::new();
    /// token.cancel();
    /// let result = host.invoke_with_cancel(|_| unreachable!("cancelled work never runs"), token).wait();
    /// assert_eq!(result, Err::<(), _>(HostError::Cancelled));
    /// # Ok::<(), ranvier::host::HostError>(())
    /// ```
    pub fn invoke_with_cancel<R: Send + 'static>(
        &self,
        work: impl FnOnce(&mut App) -> R + Send + 'static,
        token: CancellationToken,
    ) -> Invoke<R> {
        self.inbox
            .submit(move || with_app::<App, R>(work), Some(token))
    }

    /// The id of the graph thread.
    pub fn graph_thread_id(&self) -> ThreadId {
        self.inbox.thread_id()
    }

    /// Whether [`dispose`](Self::dispose) has been called (or the host dropped).
    pub fn is_disposed(&self) -> bool {
        self.inbox.is_disposed()
    }

    /// Disposes the graph on its thread after the work already running, and returns once the thread has stopped.
    ///
    /// Work still queued, and any work sent later, resolves to [`HostError::Disposed`] without running. Disposing
    /// twice is harmless. Called on the graph thread itself (from inside work), it stops the host after that work
    /// and returns at once, since the thread cannot wait for itself.
    pub fn dispose(&self) {
        self.inbox.stop();
        if self.inbox.is_graph_thread() {
            return;
        }
        // Held while joining, so a concurrent second `dispose` also returns only once the thread has stopped.
        let mut thread = self.thread.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(thread) = thread.take() {
            let _ = thread.join();
        }
    }
}

impl<App: 'static> Drop for GraphHost<App> {
    fn drop(&mut self) {
        self.dispose();
    }
}

fn with_app<App: 'static, R>(work: impl FnOnce(&mut App) -> R) -> Result<R, HostError> {
    let app =
        CONTEXT.with_borrow(|context| context.as_ref().and_then(|context| context.app.clone()));
    let app = app
        .and_then(|app| app.downcast::<RefCell<App>>().ok())
        .ok_or(HostError::AppBusy)?;
    let mut app = app.try_borrow_mut().map_err(|_| HostError::AppBusy)?;
    Ok(work(&mut app))
}

fn run_graph_thread<App, F, E>(
    setup: F,
    inbox: GraphInbox,
    receiver: mpsc::Receiver<Message>,
    ready: mpsc::Sender<Result<GraphInbox, HostError>>,
) where
    App: 'static,
    F: FnOnce() -> Result<App, E>,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
{
    CONTEXT.set(Some(HostContext {
        inbox: inbox.clone(),
        app: None,
        shutdown_hooks: Vec::new(),
    }));
    // A woken flight or a settle sent from another thread posts one job that drains them all.
    let poster = inbox.clone();
    crate::graph::flights::set_notify(Some(Arc::new(move || {
        poster.post(Box::new(|| {
            crate::graph::run_flights();
        }));
    })));
    let app = match catch_unwind(AssertUnwindSafe(setup)) {
        Ok(Ok(app)) => app,
        Ok(Err(error)) => {
            let error = HostError::Setup(Cause::new(error));
            shut_down(&inbox);
            let _ = ready.send(Err(error));
            return;
        }
        Err(panic) => {
            let error = HostError::SetupPanicked(panic_text(panic.as_ref()));
            shut_down(&inbox);
            let _ = ready.send(Err(error));
            return;
        }
    };
    let app: Rc<dyn Any> = Rc::new(RefCell::new(app));
    CONTEXT.with_borrow_mut(|context| {
        if let Some(context) = context {
            context.app = Some(app);
        }
    });
    let _ = ready.send(Ok(inbox.clone()));
    for message in receiver.iter() {
        match message {
            Message::Job(job) if !inbox.is_disposed() => job(),
            _ => break,
        }
    }
    // Dropping the receiver drops every queued job unrun (their futures resolve to `Disposed`), and makes later
    // sends fail at once.
    drop(receiver);
    shut_down(&inbox);
}

/// Drops the app and disposes the graph, on the graph thread.
fn shut_down(inbox: &GraphInbox) {
    inbox.inner.disposed.store(true, Ordering::Release);
    crate::graph::flights::set_notify(None);
    let app =
        CONTEXT.with_borrow_mut(|context| context.as_mut().and_then(|context| context.app.take()));
    let _ = catch_unwind(AssertUnwindSafe(move || drop(app)));
    let hooks = CONTEXT.with_borrow_mut(|context| {
        context
            .as_mut()
            .map(|context| std::mem::take(&mut context.shutdown_hooks))
            .unwrap_or_default()
    });
    for hook in hooks {
        let _ = catch_unwind(AssertUnwindSafe(hook));
    }
    let _ = catch_unwind(crate::graph::dispose_current);
    let context = CONTEXT.take();
    let _ = catch_unwind(AssertUnwindSafe(move || drop(context)));
}
