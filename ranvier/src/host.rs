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

use tokio::sync::oneshot;
pub use tokio_util::sync::CancellationToken;
use tokio_util::sync::WaitForCancellationFutureOwned;

/// Stack size of the graph thread. Deep dependency chains recurse, so it is larger than a spawned thread's
/// default (the memory is only committed as it is used).
const GRAPH_STACK_SIZE: usize = 64 << 20;

/// Why work sent to a [`GraphHost`] (or the host itself) failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HostError {
    /// `setup` returned an error; the host thread has stopped. Holds the error's text.
    Setup(String),
    /// `setup` panicked; the host thread has stopped. Holds the panic's text.
    SetupPanicked(String),
    /// The operating system refused to start the graph thread.
    Spawn(String),
    /// The work panicked on the graph thread. Only this work failed: the host keeps serving.
    Panicked(String),
    /// The host is disposed: the work did not run and no more work will.
    Disposed,
    /// The cancellation token fired before the work started: the work did not run.
    Cancelled,
    /// `invoke` was called on the graph thread while the app was unavailable: either inside other work that holds
    /// `&mut App` already, or before `setup` returned.
    AppBusy,
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Setup(e) => write!(f, "the graph host's setup failed: {e}"),
            HostError::SetupPanicked(p) => write!(f, "the graph host's setup panicked: {p}"),
            HostError::Spawn(e) => write!(f, "could not start the graph thread: {e}"),
            HostError::Panicked(p) => write!(f, "the work panicked on the graph thread: {p}"),
            HostError::Disposed => {
                f.write_str("the graph host is disposed: the work did not run, and no more work will")
            }
            HostError::Cancelled => f.write_str("the work was cancelled before it started, and did not run"),
            HostError::AppBusy => f.write_str(
                "the app is not available: `invoke` was called on the graph thread inside work that already \
                 holds `&mut App` (use that reference instead), or before setup returned",
            ),
        }
    }
}

impl std::error::Error for HostError {}

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
    inbox: GraphInbox,
    /// `Rc<RefCell<App>>` once setup has returned.
    app: Option<Rc<dyn Any>>,
}

thread_local! {
    static CONTEXT: RefCell<Option<HostContext>> = const { RefCell::new(None) };
}

impl GraphInbox {
    /// The inbox of the host whose graph thread this is, if any.
    pub(crate) fn current() -> Option<GraphInbox> {
        CONTEXT.with_borrow(|context| context.as_ref().map(|context| context.inbox.clone()))
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
                    Err(panic) => Err(HostError::Panicked(panic_message(panic.as_ref()))),
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
    /// [`HostError::Setup`] when `setup` returns an error, [`HostError::SetupPanicked`] when it panics (in both
    /// cases `start` returns after the graph thread has disposed its graph and stopped), [`HostError::Spawn`] when
    /// the thread cannot be started.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::host::{GraphHost, HostError};
    ///
    /// let failed = GraphHost::<()>::start(|| Err("no database"));
    /// assert_eq!(failed.unwrap_err(), HostError::Setup("no database".into()));
    /// ```
    pub fn start<F, E>(setup: F) -> Result<Self, HostError>
    where
        F: FnOnce() -> Result<App, E> + Send + 'static,
        E: fmt::Display,
    {
        let (sender, receiver) = mpsc::channel::<Message>();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<GraphInbox, HostError>>();
        let thread = thread::Builder::new()
            .name("ranvier-graph".into())
            .stack_size(GRAPH_STACK_SIZE)
            .spawn(move || {
                let inbox = GraphInbox {
                    inner: Arc::new(InboxInner {
                        sender,
                        thread_id: thread::current().id(),
                        disposed: AtomicBool::new(false),
                    }),
                };
                run_graph_thread(setup, inbox, receiver, ready_tx);
            })
            .map_err(|e| HostError::Spawn(e.to_string()))?;
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
    E: fmt::Display,
{
    CONTEXT.set(Some(HostContext {
        inbox: inbox.clone(),
        app: None,
    }));
    let app = match catch_unwind(AssertUnwindSafe(setup)) {
        Ok(Ok(app)) => app,
        Ok(Err(error)) => {
            let error = HostError::Setup(error.to_string());
            shut_down(&inbox);
            let _ = ready.send(Err(error));
            return;
        }
        Err(panic) => {
            let error = HostError::SetupPanicked(panic_message(panic.as_ref()));
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
    let app =
        CONTEXT.with_borrow_mut(|context| context.as_mut().and_then(|context| context.app.take()));
    let _ = catch_unwind(AssertUnwindSafe(move || drop(app)));
    let _ = catch_unwind(crate::exposure::shut_down_thread);
    let _ = catch_unwind(crate::graph::dispose_current);
    let context = CONTEXT.take();
    let _ = catch_unwind(AssertUnwindSafe(move || drop(context)));
}

/// The text of a panic payload (`&str` or `String`; anything else is "a non-text panic payload").
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "a non-text panic payload".to_owned()
    }
}
