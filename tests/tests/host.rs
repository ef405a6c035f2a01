//! GraphHost: the graph on its own thread, work sent to it from other threads, disposal.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::thread::{self, ThreadId};
use std::time::Duration;

use ranvier::host::{CancellationToken, Cause, GraphHost, HostError, Invoke, block_on};
use ranvier::{Effect, Memo, Signal, on_cleanup};

/// A hang guard, never a timing assertion.
const HANG_GUARD: Duration = Duration::from_secs(20);

struct App {
    count: Signal<i32>,
    doubled: Memo<i32>,
    log: Arc<Mutex<Vec<String>>>,
    _logger: Effect,
}

fn start_app() -> GraphHost<App> {
    let log = Arc::new(Mutex::new(Vec::new()));
    GraphHost::start(move || {
        let count = Signal::new(1);
        let doubled = Memo::new({
            let count = count.clone();
            move |_| count.get() * 2
        });
        let logger = Effect::new({
            let (doubled, log) = (doubled.clone(), log.clone());
            move || {
                log.lock()
                    .unwrap()
                    .push(format!("doubled={}", doubled.get()))
            }
        });
        Ok::<_, String>(App {
            count,
            doubled,
            log,
            _logger: logger,
        })
    })
    .expect("setup succeeds")
}

/// Polls once: `Some(result)` when the future was already resolved.
fn poll_once<R>(mut invoke: Invoke<R>) -> Option<Result<R, HostError>> {
    let mut cx = Context::from_waker(Waker::noop());
    match std::pin::Pin::new(&mut invoke).poll(&mut cx) {
        Poll::Ready(result) => Some(result),
        Poll::Pending => None,
    }
}

#[test]
fn host_and_its_futures_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    // The app holds `!Send` nodes, yet the host is shareable.
    send_sync::<GraphHost<App>>();
    send::<Invoke<i32>>();
}

#[test]
fn setup_and_work_run_on_one_dedicated_thread() {
    let (tx, rx) = mpsc::channel::<ThreadId>();
    let host = GraphHost::start(move || {
        tx.send(thread::current().id()).unwrap();
        Ok::<_, String>(())
    })
    .unwrap();
    let setup_thread = rx.recv().unwrap();
    assert_eq!(host.graph_thread_id(), setup_thread);
    assert_ne!(host.graph_thread_id(), thread::current().id());
    let work_thread = host.invoke(|_| thread::current().id()).wait().unwrap();
    assert_eq!(work_thread, setup_thread);
}

#[test]
fn invoke_resolves_after_the_work_and_its_effects() {
    let host = start_app();
    let (doubled, log) = host
        .invoke(|app| {
            app.count.set(5);
            (app.doubled.get(), app.log.clone())
        })
        .wait()
        .unwrap();
    assert_eq!(doubled, 10);
    // The effect the write triggered has run by the time the future resolved.
    assert_eq!(*log.lock().unwrap(), ["doubled=2", "doubled=10"]);
}

#[test]
fn invoke_can_be_awaited_from_async_code() {
    let host = Arc::new(start_app());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let value = runtime.block_on({
        let host = host.clone();
        async move {
            // Spawned on a worker: the future is `Send`.
            tokio::spawn(async move {
                host.invoke(|app| app.count.set(20)).await.unwrap();
                host.invoke(|app| app.doubled.get()).await.unwrap()
            })
            .await
            .unwrap()
        }
    });
    assert_eq!(value, 40);
    // `block_on` is an executor too.
    assert_eq!(block_on(host.invoke(|app| app.count.get())), Ok(20));
}

#[test]
fn a_panicking_work_faults_only_its_own_future() {
    let host = start_app();
    host.invoke(|app| app.count.set(3)).wait().unwrap();
    let failed = host
        .invoke(|app| {
            app.count.set(100);
            panic!("work went wrong");
        })
        .wait();
    assert_eq!(
        failed,
        Err::<(), _>(HostError::Panicked("work went wrong".into()))
    );
    // The host keeps serving, on the same graph.
    let doubled = host
        .invoke(|app| {
            app.count.set(4);
            app.doubled.get()
        })
        .wait();
    assert_eq!(doubled, Ok(8));
}

#[test]
fn an_error_in_setup_comes_back_after_the_thread_stopped() {
    let stopped = Arc::new(AtomicBool::new(false));
    let cleaned = Arc::new(AtomicBool::new(false));
    let result = GraphHost::<()>::start({
        let (stopped, cleaned) = (stopped.clone(), cleaned.clone());
        move || {
            THREAD_EXIT.with(|exit| *exit.borrow_mut() = Some(ExitFlag(stopped)));
            let _root =
                ranvier::create_root(|_| on_cleanup(move || cleaned.store(true, Ordering::SeqCst)));
            Err("no database")
        }
    });
    let error = result.unwrap_err();
    assert_eq!(error, HostError::Setup(Cause::new("no database")));
    assert!(
        stopped.load(Ordering::SeqCst),
        "start returned before the graph thread stopped"
    );
    assert!(
        cleaned.load(Ordering::SeqCst),
        "the graph built by setup was not disposed"
    );
}

#[test]
fn a_setup_error_is_the_source_of_the_host_error_not_part_of_its_text() {
    #[derive(Debug, PartialEq)]
    struct NoDatabase;
    impl std::fmt::Display for NoDatabase {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("no database at localhost:5432")
        }
    }
    impl std::error::Error for NoDatabase {}

    let error = GraphHost::<()>::start(|| Err(NoDatabase)).unwrap_err();
    assert_eq!(error.to_string(), "the graph host's setup failed");
    let source = std::error::Error::source(&error).expect("the setup error is the source");
    assert_eq!(source.to_string(), "no database at localhost:5432");
    let HostError::Setup(cause) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(cause.downcast_ref::<NoDatabase>(), Some(&NoDatabase));
    // A report that walks the chain reads each text once.
    let mut chain = vec![error.to_string()];
    let mut next = std::error::Error::source(&error);
    while let Some(cause) = next {
        chain.push(cause.to_string());
        next = cause.source();
    }
    assert_eq!(
        chain,
        [
            "the graph host's setup failed",
            "no database at localhost:5432"
        ]
    );
}

struct ExitFlag(Arc<AtomicBool>);
impl Drop for ExitFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}
thread_local! {
    static THREAD_EXIT: std::cell::RefCell<Option<ExitFlag>> = const { std::cell::RefCell::new(None) };
}

#[test]
fn a_panic_in_setup_comes_back_from_start() {
    let stopped = Arc::new(AtomicBool::new(false));
    let result = GraphHost::<()>::start({
        let stopped = stopped.clone();
        move || -> Result<(), String> {
            THREAD_EXIT.with(|exit| *exit.borrow_mut() = Some(ExitFlag(stopped)));
            panic!("setup exploded")
        }
    });
    assert_eq!(
        result.unwrap_err(),
        HostError::SetupPanicked("setup exploded".into())
    );
    assert!(stopped.load(Ordering::SeqCst));
}

#[test]
fn a_nested_invoke_reports_the_app_as_busy_instead_of_aliasing_it() {
    let host = Arc::new(start_app());
    let inner = host.clone();
    let nested = host
        .invoke(move |_app| poll_once(inner.invoke(|_| ())))
        .wait()
        .unwrap();
    // Resolved when `invoke` returned, with the reason it could not run.
    assert_eq!(nested, Some(Err(HostError::AppBusy)));
}

#[test]
fn invoke_on_the_graph_thread_outside_other_work_runs_inline() {
    // An exposure's `on_graph` reaches the graph thread without holding the app; `invoke` there runs inline.
    let host = Arc::new(
        GraphHost::start(|| {
            let count = Signal::new(1);
            let exposure = ranvier::exposure::Exposure::new()
                .start()
                .map_err(|e| e.to_string())?;
            Ok::<_, String>((count, exposure))
        })
        .unwrap(),
    );
    let exposure = host
        .invoke(|(_, exposure)| exposure.clone())
        .wait()
        .unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let value = exposure
        .on_graph({
            let (host, order) = (host.clone(), order.clone());
            move || {
                let invoke = host.invoke({
                    let order = order.clone();
                    move |(count, _)| {
                        order.lock().unwrap().push("work");
                        count.set(7);
                        count.get()
                    }
                });
                order.lock().unwrap().push("invoke returned");
                poll_once(invoke)
            }
        })
        .wait()
        .unwrap();
    // Already resolved when `invoke` returned.
    assert_eq!(value, Some(Ok(7)));
    assert_eq!(*order.lock().unwrap(), ["work", "invoke returned"]);
}

#[test]
fn a_cancelled_token_stops_work_that_has_not_started() {
    let host = start_app();
    let ran = Arc::new(AtomicBool::new(false));

    // Cancelled before it is sent.
    let token = CancellationToken::new();
    token.cancel();
    let result = host
        .invoke_with_cancel(
            {
                let ran = ran.clone();
                move |_| ran.store(true, Ordering::SeqCst)
            },
            token,
        )
        .wait();
    assert_eq!(result, Err(HostError::Cancelled));

    // Cancelled while queued behind work that blocks the graph thread: the future resolves while the thread is
    // still blocked, and the work never runs.
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let (started_tx, started_rx) = mpsc::channel::<()>();
    let blocker = host.invoke(move |_| {
        started_tx.send(()).unwrap();
        release_rx.recv_timeout(HANG_GUARD).unwrap();
    });
    started_rx.recv_timeout(HANG_GUARD).unwrap();
    let token = CancellationToken::new();
    let queued = host.invoke_with_cancel(
        {
            let ran = ran.clone();
            move |_| ran.store(true, Ordering::SeqCst)
        },
        token.clone(),
    );
    token.cancel();
    assert_eq!(queued.wait(), Err(HostError::Cancelled));
    release_tx.send(()).unwrap();
    blocker.wait().unwrap();
    host.invoke(|_| ()).wait().unwrap();
    assert!(!ran.load(Ordering::SeqCst), "cancelled work ran");

    // Work that has started runs to the end even if its token fires meanwhile.
    let token = CancellationToken::new();
    let started = host
        .invoke_with_cancel(
            {
                let token = token.clone();
                move |app| {
                    token.cancel();
                    app.count.set(9);
                    app.doubled.get()
                }
            },
            token,
        )
        .wait();
    assert_eq!(started, Ok(18));
}

#[test]
fn dispose_lets_running_work_finish_and_fails_the_rest() {
    let cleanup_thread = Arc::new(Mutex::new(None));
    let host = Arc::new(
        GraphHost::start({
            let cleanup_thread = cleanup_thread.clone();
            move || {
                let (_, root) = ranvier::create_root(|_| {
                    on_cleanup(move || {
                        *cleanup_thread.lock().unwrap() = Some(thread::current().id())
                    })
                });
                Ok::<_, String>(root)
            }
        })
        .unwrap(),
    );
    let graph_thread = host.graph_thread_id();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let (started_tx, started_rx) = mpsc::channel::<()>();
    let running = host.invoke(move |_| {
        started_tx.send(()).unwrap();
        release_rx.recv_timeout(HANG_GUARD).unwrap();
        "finished"
    });
    started_rx.recv_timeout(HANG_GUARD).unwrap();
    let queued_ran = Arc::new(AtomicBool::new(false));
    let queued = host.invoke({
        let queued_ran = queued_ran.clone();
        move |_| queued_ran.store(true, Ordering::SeqCst)
    });
    let disposer = thread::spawn({
        let host = host.clone();
        move || host.dispose()
    });
    // `dispose` waits for the running work; release it once the host is marked disposed.
    while !host.is_disposed() {
        thread::yield_now();
    }
    release_tx.send(()).unwrap();
    disposer.join().unwrap();
    // Returned once the thread stopped: the graph was disposed on its own thread.
    assert_eq!(*cleanup_thread.lock().unwrap(), Some(graph_thread));
    assert_eq!(running.wait(), Ok("finished"));
    assert_eq!(queued.wait(), Err(HostError::Disposed));
    assert!(!queued_ran.load(Ordering::SeqCst));
    assert_eq!(host.invoke(|_| 1).wait(), Err(HostError::Disposed));
    assert_eq!(
        HostError::Disposed.to_string(),
        "the graph host is disposed: the work did not run, and no more work will"
    );
    host.dispose(); // twice: harmless
}

#[test]
fn dropping_the_host_disposes_the_graph() {
    let cleanups = Arc::new(AtomicUsize::new(0));
    let host = GraphHost::start({
        let cleanups = cleanups.clone();
        move || {
            let (_, root) = ranvier::create_root(|_| {
                on_cleanup(move || _ = cleanups.fetch_add(1, Ordering::SeqCst))
            });
            Ok::<_, String>(root)
        }
    })
    .unwrap();
    host.invoke(|_| ()).wait().unwrap();
    assert_eq!(cleanups.load(Ordering::SeqCst), 0);
    drop(host);
    assert_eq!(cleanups.load(Ordering::SeqCst), 1);
}

#[test]
fn dispose_from_inside_work_stops_after_that_work() {
    let host = Arc::new(start_app());
    let inner = host.clone();
    let value = host
        .invoke(move |app| {
            inner.dispose(); // cannot wait for its own thread: returns at once
            app.count.get()
        })
        .wait();
    assert_eq!(value, Ok(1));
    assert_eq!(host.invoke(|_| ()).wait(), Err(HostError::Disposed));
}
