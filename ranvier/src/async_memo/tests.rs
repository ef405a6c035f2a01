//! The rules of async sources and memos: the four flight policies with out-of-order completions, cancellation on
//! re-run and on dispose, settles from other threads, failures and panics, and what wakes the readers.

use crate::graph::{pending_flights, run_flights};
use crate::{
    AsyncErrorKind, AsyncMemo, AsyncSource, AsyncState, Effect, FlightPolicy, Signal, create_root,
};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A future the test completes by hand, that records when it is dropped.
struct Gate<T> {
    shared: Rc<GateShared<T>>,
}

struct GateShared<T> {
    value: RefCell<Option<T>>,
    waker: RefCell<Option<Waker>>,
    dropped: Cell<bool>,
    polled: Cell<bool>,
}

impl<T> Future for Gate<T> {
    type Output = T;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        self.shared.polled.set(true);
        match self.shared.value.borrow_mut().take() {
            Some(value) => Poll::Ready(value),
            None => {
                *self.shared.waker.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

impl<T> Drop for Gate<T> {
    fn drop(&mut self) {
        self.shared.dropped.set(true);
    }
}

/// The gates of the flights a memo started, in start order.
#[derive(Clone)]
struct Gates<T>(Rc<RefCell<Vec<Rc<GateShared<T>>>>>);

impl<T: 'static> Gates<T> {
    fn new() -> Self {
        Gates(Rc::new(RefCell::new(Vec::new())))
    }

    fn make(&self) -> Gate<T> {
        let shared = Rc::new(GateShared {
            value: RefCell::new(None),
            waker: RefCell::new(None),
            dropped: Cell::new(false),
            polled: Cell::new(false),
        });
        self.0.borrow_mut().push(shared.clone());
        Gate { shared }
    }

    fn open(&self, i: usize, value: T) {
        let gate = self.0.borrow()[i].clone();
        *gate.value.borrow_mut() = Some(value);
        if let Some(waker) = gate.waker.borrow_mut().take() {
            waker.wake();
        }
        run_flights();
    }

    fn dropped(&self, i: usize) -> bool {
        self.0.borrow()[i].dropped.get()
    }

    fn polled(&self, i: usize) -> bool {
        self.0.borrow()[i].polled.get()
    }

    fn len(&self) -> usize {
        self.0.borrow().len()
    }
}

/// The states an effect saw, in order.
type Seen = Rc<RefCell<Vec<AsyncState<i32>>>>;

/// A memo over `input` whose flights are gates, with `policy`, watched by an effect that logs every state it sees.
fn watched(policy: FlightPolicy) -> (Signal<i32>, AsyncMemo<i32>, Gates<i32>, Seen, Effect) {
    let input = Signal::new(0);
    let gates = Gates::new();
    let memo = AsyncMemo::with_options(
        {
            let (input, gates) = (input.clone(), gates.clone());
            move |_| {
                input.get();
                let gate = gates.make();
                async move { Ok::<_, String>(gate.await) }
            }
        },
        policy,
        |a: &i32, b: &i32| a == b,
    );
    let seen = Rc::new(RefCell::new(Vec::new()));
    let effect = Effect::new({
        let (memo, seen) = (memo.clone(), seen.clone());
        move || seen.borrow_mut().push(memo.get())
    });
    run_flights();
    (input, memo, gates, seen, effect)
}

fn pending(last: Option<i32>) -> AsyncState<i32> {
    AsyncState::Pending { last }
}

#[test]
fn cancel_previous_drops_the_superseded_future_and_applies_only_the_latest() {
    let (input, memo, gates, seen, _e) = watched(FlightPolicy::CancelPrevious);
    input.set(1);
    assert_eq!(gates.len(), 2);
    assert!(
        gates.dropped(0),
        "the superseded flight's future is dropped at once"
    );
    assert!(!gates.dropped(1));
    gates.open(1, 20);
    assert_eq!(memo.peek(), AsyncState::Ready(20));
    assert_eq!(*seen.borrow(), vec![pending(None), AsyncState::Ready(20)]);
    assert_eq!(pending_flights(), 0);
}

#[test]
fn keep_latest_lets_the_old_flight_run_but_drops_its_outcome_in_either_order() {
    let (input, memo, gates, seen, _e) = watched(FlightPolicy::KeepLatest);
    input.set(1);
    input.set(2);
    assert_eq!(gates.len(), 3);
    assert!(!gates.dropped(0) && !gates.dropped(1), "not cancelled");
    // The newest finishes first, then the oldest: only the newest settles.
    gates.open(2, 30);
    assert_eq!(memo.peek(), AsyncState::Ready(30));
    gates.open(0, 10);
    assert_eq!(memo.peek(), AsyncState::Ready(30));
    // An old flight finishing before the newest leaves the memo pending.
    input.set(3);
    gates.open(1, 20);
    assert_eq!(memo.peek(), pending(Some(30)));
    gates.open(3, 40);
    assert_eq!(
        *seen.borrow(),
        vec![
            pending(None),
            AsyncState::Ready(30),
            pending(Some(30)),
            AsyncState::Ready(40)
        ]
    );
}

#[test]
fn queue_applies_every_outcome_in_start_order_whatever_order_they_finish_in() {
    let (input, memo, gates, seen, _e) = watched(FlightPolicy::Queue);
    input.set(1);
    input.set(2);
    gates.open(2, 30);
    gates.open(1, 20);
    assert_eq!(
        memo.peek(),
        pending(None),
        "the oldest flight holds the others"
    );
    assert_eq!(memo.flights().len(), 3);
    gates.open(0, 10);
    assert_eq!(
        *seen.borrow(),
        vec![
            pending(None),
            pending(Some(10)),
            pending(Some(20)),
            AsyncState::Ready(30)
        ]
    );
    assert!(memo.flights().is_empty());
}

#[test]
fn finish_current_lets_the_flight_finish_then_runs_the_newest_once() {
    let (input, memo, gates, seen, _e) = watched(FlightPolicy::FinishCurrent);
    input.set(1);
    input.set(2);
    // Runs 2 and 3 made futures; 2's was replaced by 3's without ever being polled.
    assert_eq!(gates.len(), 3);
    assert!(gates.dropped(1) && !gates.polled(1));
    assert!(
        !gates.polled(2),
        "the newest waits for the flight in the air"
    );
    assert_eq!(
        memo.flights().last().map(|f| f.stage),
        Some(super::FlightStage::Waiting)
    );
    gates.open(0, 10);
    assert!(gates.polled(2), "started once the first finished");
    assert_eq!(memo.peek(), pending(Some(10)));
    gates.open(2, 30);
    assert_eq!(
        *seen.borrow(),
        vec![pending(None), pending(Some(10)), AsyncState::Ready(30)]
    );
}

#[test]
fn peek_brings_the_memo_up_to_date_untracked_and_cached_does_not_run_it() {
    let input = Signal::new(1);
    let memo = AsyncMemo::new({
        let input = input.clone();
        move |_| {
            let v = input.get();
            async move { v * 10 }
        }
    });
    assert_eq!(memo.cached(), pending(None), "never run");
    assert_eq!(memo.runs(), 0);
    assert_eq!(memo.peek(), pending(None));
    assert_eq!(memo.runs(), 1, "peek runs it, as get does");
    run_flights();
    assert_eq!(memo.cached(), AsyncState::Ready(10));
    let seen = Rc::new(RefCell::new(Vec::new()));
    let _e = Effect::new({
        let (memo, seen) = (memo.clone(), seen.clone());
        move || seen.borrow_mut().push(memo.peek())
    });
    input.set(2);
    assert_eq!(
        *seen.borrow(),
        [AsyncState::Ready(10)],
        "a peek does not subscribe"
    );
    assert_eq!(
        memo.cached(),
        AsyncState::Ready(10),
        "cached does not run it"
    );
    assert_eq!(memo.runs(), 1);
    assert_eq!(memo.peek(), pending(Some(10)), "peek starts the flight");
    assert_eq!(memo.runs(), 2);
    run_flights();
    assert_eq!(memo.peek(), AsyncState::Ready(20));
}

#[test]
fn disposing_a_pending_memo_cancels_its_flight_and_wakes_its_readers_once() {
    let (_input, memo, gates, seen, _e) = watched(FlightPolicy::CancelPrevious);
    memo.dispose();
    assert!(gates.dropped(0));
    let seen = seen.borrow();
    assert_eq!(seen.len(), 2, "woken once: {seen:?}");
    let error = seen[1].error().expect("a failure");
    assert_eq!(error.kind, AsyncErrorKind::Disposed);
    assert_eq!(pending_flights(), 0);
}

#[test]
fn disposing_the_owner_cancels_the_flight() {
    let gates = Gates::<i32>::new();
    let (memo, scope) = create_root(|_| {
        let gates = gates.clone();
        AsyncMemo::new(move |_| gates.make())
    });
    assert!(memo.get().is_pending());
    scope.dispose();
    assert!(gates.dropped(0));
    assert_eq!(
        memo.peek().error().map(|e| e.kind),
        Some(AsyncErrorKind::Disposed)
    );
}

#[test]
fn a_failed_future_fails_the_memo_and_keeps_the_last_value() {
    let fail = Signal::new(false);
    let memo = AsyncMemo::try_new({
        let fail = fail.clone();
        move |_| {
            let fail = fail.get();
            async move { if fail { Err("service down") } else { Ok(5) } }
        }
    });
    let _ = memo.get();
    run_flights();
    assert_eq!(memo.get(), AsyncState::Ready(5));
    fail.set(true);
    let _ = memo.get();
    run_flights();
    let state = memo.get();
    assert_eq!(state.error().map(|e| e.kind), Some(AsyncErrorKind::Failed));
    assert_eq!(
        state.error().map(|e| e.message.as_str()),
        Some("service down")
    );
    assert_eq!(state.latest(), Some(&5));
}

#[test]
fn a_panicking_future_or_function_fails_its_memo_only() {
    let other = AsyncMemo::new(|_| async { 1 });
    let bad_future = AsyncMemo::new(|_| async {
        if true {
            panic!("boom in the future");
        }
        0
    });
    let bad_function: AsyncMemo<i32> =
        AsyncMemo::new(|_| -> std::future::Ready<i32> { panic!("boom in the function") });
    let _ = (other.get(), bad_future.get(), bad_function.get());
    run_flights();
    assert_eq!(other.get(), AsyncState::Ready(1));
    let error = bad_future.get().error().cloned().expect("failed");
    assert_eq!(error.kind, AsyncErrorKind::Panicked);
    assert!(error.message.contains("boom in the future"), "{error}");
    let error = bad_function.get().error().cloned().expect("failed");
    assert_eq!(error.kind, AsyncErrorKind::Panicked);
    assert!(error.message.contains("boom in the function"), "{error}");
}

#[test]
fn state_changes_wake_readers_whatever_the_comparer_says_but_equal_values_are_cut_off() {
    let source = AsyncSource::<i32>::with_comparer(|_, _| true);
    let runs = Rc::new(Cell::new(0));
    let _e = Effect::new({
        let (source, runs) = (source.clone(), runs.clone());
        move || {
            let _ = source.get();
            runs.set(runs.get() + 1);
        }
    });
    source.settle(1);
    assert_eq!(runs.get(), 2, "pending → ready propagates");
    source.settle(2);
    assert_eq!(runs.get(), 2, "ready → an equal ready is cut off");
    assert_eq!(source.peek(), AsyncState::Ready(1));
    source.set_pending();
    assert_eq!(runs.get(), 3, "ready → pending propagates");
    source.fail("gone");
    assert_eq!(runs.get(), 4, "pending → failed propagates");
}

#[test]
fn a_settle_from_another_thread_is_one_write_applied_on_the_graph_thread() {
    let source = AsyncSource::<i32>::new();
    let runs = Rc::new(Cell::new(0));
    let _e = Effect::new({
        let (source, runs) = (source.clone(), runs.clone());
        move || {
            let _ = source.get();
            runs.set(runs.get() + 1);
        }
    });
    let settler = source.settler();
    std::thread::spawn(move || {
        settler.settle(1);
        settler.settle(2);
    })
    .join()
    .unwrap();
    assert!(
        source.peek().is_pending(),
        "nothing applied before the drain"
    );
    run_flights();
    assert_eq!(source.peek(), AsyncState::Ready(2));
    assert_eq!(runs.get(), 3, "each settle is its own write and flush");
}

#[cfg(feature = "exposure")]
#[test]
fn under_a_host_each_settle_publishes_one_version() {
    use crate::exposure::Exposure;
    use crate::host::{GraphHost, block_on};
    let host = GraphHost::start(|| {
        let source = AsyncSource::<i32>::new();
        let mut exposure = Exposure::new();
        exposure.value("price", {
            let source = source.clone();
            move || source.get()
        })?;
        let handle = exposure.start()?;
        Ok::<_, crate::exposure::ExposeError>((source.settler(), handle))
    })
    .unwrap();
    let (settler, handle) = host.invoke(|(s, h)| (s.clone(), h.clone())).wait().unwrap();
    assert_eq!(
        handle.snapshot().get("price"),
        Some(&serde_json::json!({"pending": true}))
    );
    settler.settle(120);
    let snapshot = block_on(handle.wait_version(1, std::time::Duration::from_secs(10))).unwrap();
    assert_eq!(snapshot.version, 1);
    assert_eq!(snapshot.get("price"), Some(&serde_json::json!(120)));
    settler.set_pending();
    settler.settle(130);
    let snapshot = block_on(handle.wait_version(3, std::time::Duration::from_secs(10))).unwrap();
    assert_eq!(snapshot.version, 3, "one version per settle");
    assert_eq!(snapshot.get("price"), Some(&serde_json::json!(130)));
}

#[test]
fn the_trace_records_flights_and_why_follows_a_settle_back_to_the_flight_and_its_cause() {
    use crate::trace::{self, EventKind, FlightEvent, WhyRoot};
    if !trace::TRACED {
        return;
    }
    let flight_events = |memo: &AsyncMemo<i32>| -> Vec<(u32, FlightEvent)> {
        trace::events()
            .into_iter()
            .filter_map(|e| match e.kind {
                EventKind::Flight { node, flight, what } if node == memo.id() => {
                    Some((flight, what))
                }
                _ => None,
            })
            .collect()
    };
    let (input, memo, gates, _seen, effect) = watched(FlightPolicy::CancelPrevious);
    input.set(5);
    gates.open(1, 50);
    assert_eq!(
        flight_events(&memo),
        vec![
            (1, FlightEvent::Start),
            (1, FlightEvent::Cancel),
            (2, FlightEvent::Start),
            (2, FlightEvent::Settle)
        ]
    );
    // The effect ran because the flight settled; the flight started because the program wrote `input`.
    let why = trace::why(&effect).unwrap();
    assert!(
        matches!(why.root, WhyRoot::ProgramWrite { node, .. } if node == input.id()),
        "{why}"
    );
    let flights: Vec<(u32, FlightEvent)> = why
        .steps
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Flight { flight, what, .. } => Some((flight, what)),
            _ => None,
        })
        .collect();
    assert_eq!(
        flights,
        vec![(2, FlightEvent::Settle), (2, FlightEvent::Start)],
        "{why}"
    );
    assert!(why.to_string().contains("settled"), "{why}");

    // Superseded outcomes that arrive are dropped, and say so; failures are recorded as such.
    let (input, memo, gates, _seen, _effect) = watched(FlightPolicy::KeepLatest);
    input.set(1);
    gates.open(0, 10);
    gates.open(1, 20);
    assert_eq!(
        flight_events(&memo),
        vec![
            (1, FlightEvent::Start),
            (2, FlightEvent::Start),
            (1, FlightEvent::Drop),
            (2, FlightEvent::Settle)
        ]
    );
    let failing = AsyncMemo::try_new(|_| async { Err::<i32, _>("down") });
    let _ = failing.get();
    run_flights();
    assert_eq!(
        flight_events(&failing),
        vec![(1, FlightEvent::Start), (1, FlightEvent::Fail)]
    );
}

#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
fn a_futures_reads_are_recorded_as_the_memos_flight_reads() {
    let base = Signal::new(2_u32);
    let extra = Signal::new(10_u32);
    let memo = AsyncMemo::new({
        let (base, extra) = (base.clone(), extra.clone());
        move |_| {
            let base = base.get(); // tracked, in the run
            let extra = extra.clone();
            async move { base + extra.get() } // read while polled: untracked
        }
    });
    let _ = memo.get();
    run_flights();
    assert_eq!(memo.get(), AsyncState::Ready(12));
    let reads = crate::graph::with_runtime(|rt| rt.tracer.flight_reads_of(memo.id()));
    assert_eq!(reads.len(), 1, "{reads:?}");
    assert_eq!(reads[0].0, extra.id());
    assert_eq!(reads[0].2.line(), line!() - 9);
    // the program's own reads are not the memo's
    let _ = extra.get();
    let again = crate::graph::with_runtime(|rt| rt.tracer.flight_reads_of(memo.id()));
    assert_eq!(again.len(), 1);
    extra.set(20);
    assert_eq!(
        memo.get(),
        AsyncState::Ready(12),
        "untracked: it does not re-run"
    );
}
