//! The reactive core's rules, one test each: propagation, cutoff, laziness, batches, effects, owners, failures, Mvu.
//!
//! Written as an app would write them (`ranvier::…` paths, the public API only), and compiled with the lib's tests so that
//! `.ci/memcheck.sh` runs them under valgrind and AddressSanitizer with the core alone.

use ranvier::graph::{MAX_EFFECT_RERUNS, take_errors};
use ranvier::{Effect, Memo, Mvu, Signal, batch, create_root, on_cleanup, untrack};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

fn counter() -> Rc<Cell<u32>> {
    Rc::new(Cell::new(0))
}

fn log() -> Rc<RefCell<Vec<String>>> {
    Rc::new(RefCell::new(Vec::new()))
}

#[test]
fn equal_write_does_nothing() {
    let s = Signal::new(1);
    let runs = counter();
    let _e = Effect::new({
        let (s, runs) = (s.clone(), runs.clone());
        move || {
            s.get();
            runs.set(runs.get() + 1);
        }
    });
    s.set(1);
    s.update(|v| *v += 0);
    assert_eq!(runs.get(), 1);
    s.set(2);
    assert_eq!(runs.get(), 2);
}

#[test]
fn signal_comparer_decides_equality() {
    let s = Signal::with_comparer(10, |a: &i32, b: &i32| a / 10 == b / 10);
    s.set(15);
    assert_eq!(
        s.peek(),
        10,
        "an equal write by the comparer keeps the old value"
    );
    s.set(25);
    assert_eq!(s.peek(), 25);
}

#[test]
fn diamond_bottom_runs_once_per_write_and_never_sees_mixed_legs() {
    let top = Signal::new(1);
    let left = Memo::new({
        let top = top.clone();
        move |_| top.get() * 2
    });
    let right = Memo::new({
        let top = top.clone();
        move |_| top.get() * 3
    });
    let seen = log();
    let bottom = Memo::new({
        let (left, right, seen) = (left.clone(), right.clone(), seen.clone());
        move |_| {
            let (l, r) = (left.get(), right.get());
            seen.borrow_mut().push(format!("{l},{r}"));
            l + r
        }
    });
    let effect_runs = counter();
    let _e = Effect::new({
        let (bottom, effect_runs) = (bottom.clone(), effect_runs.clone());
        move || {
            bottom.get();
            effect_runs.set(effect_runs.get() + 1);
        }
    });
    for v in 2..=5 {
        top.set(v);
    }
    assert_eq!(*seen.borrow(), ["2,3", "4,6", "6,9", "8,12", "10,15"]);
    assert_eq!(bottom.runs(), 5);
    assert_eq!(effect_runs.get(), 5);
}

#[test]
fn every_link_of_a_deep_chain_runs_exactly_once_per_write() {
    let head = Signal::new(0_i64);
    let mut chain: Vec<Memo<i64>> = Vec::new();
    for i in 0..50 {
        let prev = chain.last().cloned();
        let head = head.clone();
        chain.push(Memo::new(move |_| match &prev {
            Some(p) => p.get() + 1,
            None => head.get() + i,
        }));
    }
    let tail = chain.last().unwrap().clone();
    let _e = Effect::new(move || {
        tail.get();
    });
    head.set(1);
    head.set(2);
    for memo in &chain {
        assert_eq!(
            memo.runs(),
            3,
            "memo {} ran {} times",
            memo.id(),
            memo.runs()
        );
    }
    assert_eq!(chain.last().unwrap().get(), 2 + 49);
}

#[test]
fn a_cutoff_part_way_down_stops_everything_below_it() {
    let head = Signal::new(1);
    let parity = Memo::new({
        let head = head.clone();
        move |_| head.get() % 2
    });
    let below = Memo::new({
        let parity = parity.clone();
        move |_| parity.get() * 10
    });
    let effect_runs = counter();
    let _e = Effect::new({
        let (below, effect_runs) = (below.clone(), effect_runs.clone());
        move || {
            below.get();
            effect_runs.set(effect_runs.get() + 1);
        }
    });
    head.set(3); // parity stays 1
    head.set(5);
    assert_eq!(parity.runs(), 3);
    assert_eq!(below.runs(), 1);
    assert_eq!(effect_runs.get(), 1);
    head.set(6); // parity moves: everything below wakes
    assert_eq!(below.runs(), 2);
    assert_eq!(effect_runs.get(), 2);
    assert_eq!(below.get(), 0);
}

#[test]
fn a_memo_nothing_reads_never_runs() {
    let s = Signal::new(1);
    let m = Memo::new({
        let s = s.clone();
        move |_| s.get() + 1
    });
    s.set(2);
    s.set(3);
    assert_eq!(m.runs(), 0);
    assert_eq!(m.cached(), None, "cached does not compute");
    assert_eq!(m.get(), 4);
    assert_eq!(m.runs(), 1);
    s.set(4);
    assert_eq!(m.runs(), 1, "pulled only when read");
    assert_eq!(m.cached(), Some(4), "cached returns the stale value");
    assert_eq!(m.get(), 5);
}

#[test]
fn memo_peek_brings_the_memo_up_to_date_without_subscribing() {
    let s = Signal::new(1);
    let m = Memo::new({
        let s = s.clone();
        move |_| s.get() * 10
    });
    assert_eq!(m.peek(), 10, "peek computes a memo never run, like get");
    assert_eq!(m.runs(), 1);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let _e = Effect::new({
        let (m, seen) = (m.clone(), seen.clone());
        move || seen.borrow_mut().push(m.peek())
    });
    s.set(2);
    assert_eq!(*seen.borrow(), [10], "a peek does not subscribe the effect");
    assert_eq!(m.cached(), Some(10), "and nothing pulled the memo since");
    assert_eq!(
        m.peek(),
        20,
        "peek returns the fresh value, not the cached one"
    );
    assert_eq!(m.runs(), 2);
}

#[test]
fn memo_sees_its_previous_value() {
    let s = Signal::new(1);
    let history = Memo::new({
        let s = s.clone();
        move |prev: Option<&Vec<i32>>| {
            let mut v = prev.cloned().unwrap_or_default();
            v.push(s.get());
            v
        }
    });
    history.get();
    s.set(2);
    assert_eq!(history.get(), vec![1, 2]);
}

#[test]
fn memo_comparer_cuts_off() {
    let s = Signal::new(1.0_f64);
    let rounded = Memo::with_comparer(
        {
            let s = s.clone();
            move |_| s.get()
        },
        |a, b| a.round() == b.round(),
    );
    let runs = counter();
    let _e = Effect::new({
        let (rounded, runs) = (rounded.clone(), runs.clone());
        move || {
            rounded.get();
            runs.set(runs.get() + 1);
        }
    });
    s.set(1.2);
    assert_eq!(runs.get(), 1);
    assert_eq!(
        rounded.get(),
        1.0,
        "a cut-off memo keeps its previous value"
    );
    s.set(2.0);
    assert_eq!(runs.get(), 2);
}

#[test]
fn a_batch_of_two_writes_recomputes_once_and_reads_inside_are_current() {
    let a = Signal::new(1);
    let b = Signal::new(2);
    let sum = Memo::new({
        let (a, b) = (a.clone(), b.clone());
        move |_| a.get() + b.get()
    });
    let seen = log();
    let _e = Effect::new({
        let (sum, seen) = (sum.clone(), seen.clone());
        move || seen.borrow_mut().push(sum.get().to_string())
    });
    let inside = batch(|| {
        a.set(10);
        let mid = sum.get();
        b.set(20);
        assert_eq!(seen.borrow().len(), 1, "effects wait for the batch");
        mid
    });
    assert_eq!(inside, 12, "memo reads inside a batch are current");
    assert_eq!(*seen.borrow(), ["3", "30"]);
    // Two unbatched writes recompute twice.
    let runs_before = sum.runs();
    a.set(11);
    b.set(21);
    assert_eq!(sum.runs() - runs_before, 2);
}

#[test]
fn repeated_writes_to_one_signal_in_a_batch_stay_current_across_reads() {
    // Untraced builds skip re-notifying observers that are still marked from an earlier write in the batch; a memo
    // read between the writes has run since, so the next write must mark it again.
    let a = Signal::new(0);
    let double = Memo::new({
        let a = a.clone();
        move |_| a.get() * 2
    });
    let seen = log();
    let _e = Effect::new({
        let (double, seen) = (double.clone(), seen.clone());
        move || seen.borrow_mut().push(double.get().to_string())
    });
    let plain = Memo::new({
        let a = a.clone();
        move |_| a.get() + 1
    });
    batch(|| {
        a.set(1);
        a.set(2);
        assert_eq!(double.get(), 4);
        assert_eq!(plain.get(), 3);
        a.set(3);
        assert_eq!(
            double.get(),
            6,
            "a live memo read mid-batch is marked again by the next write"
        );
        assert_eq!(plain.get(), 4, "so is a lazy one");
        a.set(4);
        a.set(5);
    });
    assert_eq!(*seen.borrow(), ["0", "10"]);
    assert_eq!((double.get(), plain.get()), (10, 6));
    a.set(6);
    a.set(7);
    assert_eq!(*seen.borrow(), ["0", "10", "12", "14"]);
}

#[test]
fn a_live_memo_its_reader_stops_reading_is_not_computed_for_nothing() {
    let a = Signal::new(0);
    let skip = Signal::new(false);
    let e = Memo::new({
        let a = a.clone();
        move |_| a.get() * 10
    });
    let g = Memo::new({
        let (skip, e) = (skip.clone(), e.clone());
        move |_| if skip.get() { -1 } else { e.get() }
    });
    let seen = log();
    let _effect = Effect::new({
        let (g, seen) = (g.clone(), seen.clone());
        move || seen.borrow_mut().push(g.get().to_string())
    });
    assert_eq!(e.runs(), 1);
    // `g` is dirty (skip moved) when `e` comes up: `e` waits for `g`, which no longer reads it.
    batch(|| {
        skip.set(true);
        a.set(1);
    });
    assert_eq!(*seen.borrow(), ["0", "-1"]);
    assert_eq!(
        e.runs(),
        1,
        "e is not computed for a reader that dropped it"
    );
    // `g` reads `e` again and pulls it, once.
    batch(|| {
        skip.set(false);
        a.set(2);
    });
    assert_eq!(*seen.borrow(), ["0", "-1", "20"]);
    assert_eq!(e.runs(), 2);
    // Only `e`'s source moves: `e` runs first and `g` after it, each once.
    let g_runs = g.runs();
    a.set(3);
    assert_eq!(*seen.borrow(), ["0", "-1", "20", "30"]);
    assert_eq!((e.runs(), g.runs() - g_runs), (3, 1));
}

#[test]
fn nested_batches_flush_at_the_outermost() {
    let a = Signal::new(0);
    let runs = counter();
    let _e = Effect::new({
        let (a, runs) = (a.clone(), runs.clone());
        move || {
            a.get();
            runs.set(runs.get() + 1);
        }
    });
    batch(|| {
        batch(|| a.set(1));
        assert_eq!(runs.get(), 1);
        a.set(2);
    });
    assert_eq!(runs.get(), 2);
}

#[test]
fn a_panicking_batch_is_closed_and_still_flushes() {
    let a = Signal::new(0);
    let runs = counter();
    let _e = Effect::new({
        let (a, runs) = (a.clone(), runs.clone());
        move || {
            a.get();
            runs.set(runs.get() + 1);
        }
    });
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        batch(|| {
            a.set(1);
            panic!("boom");
        })
    }));
    assert!(result.is_err());
    assert_eq!(
        runs.get(),
        2,
        "the write before the panic still ran its effect"
    );
    a.set(2);
    assert_eq!(runs.get(), 3, "no batch left open");
}

#[test]
fn effects_run_in_the_order_they_were_woken() {
    let s = Signal::new(0);
    let order = log();
    let mut effects = Vec::new();
    for name in ["first", "second", "third"] {
        let (s, order) = (s.clone(), order.clone());
        effects.push(Effect::new(move || {
            s.get();
            order.borrow_mut().push(name.to_string());
        }));
    }
    order.borrow_mut().clear();
    s.set(1);
    assert_eq!(*order.borrow(), ["first", "second", "third"]);
}

#[test]
fn a_write_inside_an_effect_joins_the_running_flush() {
    let a = Signal::new(0);
    let b = Signal::new(0);
    let order = log();
    let _copy = Effect::new({
        let (a, b, order) = (a.clone(), b.clone(), order.clone());
        move || {
            let v = a.get();
            b.set(v * 10);
            order.borrow_mut().push(format!("copy {v}"));
        }
    });
    let _show = Effect::new({
        let (b, order) = (b.clone(), order.clone());
        move || order.borrow_mut().push(format!("show {}", b.get()))
    });
    order.borrow_mut().clear();
    a.set(1);
    assert_eq!(
        *order.borrow(),
        ["copy 1", "show 10"],
        "no nested flush: show runs after copy's body"
    );
}

#[test]
fn an_effect_that_keeps_moving_its_own_source_is_stopped_with_an_error_naming_it() {
    take_errors();
    let s = Signal::new(0_i64);
    // Created in a batch so the label is set before its first run.
    let runaway = batch(|| {
        Effect::new({
            let s = s.clone();
            move || {
                let v = s.get();
                s.set(v + 1);
            }
        })
        .labelled("runaway")
    });
    let error = runaway.error().expect("the effect was stopped");
    assert!(error.message.contains("runaway"), "{}", error.message);
    assert!(error.message.contains("re-ran"), "{}", error.message);
    assert_eq!(
        runaway.runs(),
        MAX_EFFECT_RERUNS + 1,
        "bounded re-runs in one flush"
    );
    assert_eq!(s.peek(), i64::from(MAX_EFFECT_RERUNS + 1));
    let errors = take_errors();
    assert!(errors.iter().any(|e| e.node == runaway.id()));
    // The graph is still usable.
    let t = Signal::new(1);
    let d = Memo::new({
        let t = t.clone();
        move |_| t.get() * 2
    });
    t.set(2);
    assert_eq!(d.get(), 4);
}

#[test]
fn an_effect_reaching_a_fixpoint_is_not_stopped() {
    let s = Signal::new(0);
    let e = Effect::new({
        let s = s.clone();
        move || {
            let v = s.get();
            if v < 10 {
                s.set(v + 1);
            }
        }
    });
    s.set(1);
    assert_eq!(s.peek(), 10);
    assert!(e.error().is_none());
}

#[test]
fn cleanups_run_before_the_next_run_and_at_disposal() {
    let s = Signal::new(0);
    let events = log();
    let effect = Effect::new({
        let (s, events) = (s.clone(), events.clone());
        move || {
            let v = s.get();
            events.borrow_mut().push(format!("run {v}"));
            let events = events.clone();
            on_cleanup(move || events.borrow_mut().push(format!("cleanup {v}")));
        }
    });
    s.set(1);
    effect.dispose();
    effect.dispose();
    s.set(2);
    assert_eq!(
        *events.borrow(),
        ["run 0", "cleanup 0", "run 1", "cleanup 1"]
    );
}

#[test]
fn disposing_a_scope_disposes_what_was_created_in_it_last_created_first() {
    let s = Signal::new(0);
    let events = log();
    let ((), scope) = create_root(|_| {
        for name in ["a", "b"] {
            let (s, events) = (s.clone(), events.clone());
            Effect::new(move || {
                s.get();
                let events = events.clone();
                on_cleanup(move || events.borrow_mut().push(format!("dispose {name}")));
            });
        }
        let events = events.clone();
        on_cleanup(move || events.borrow_mut().push("scope cleanup".into()));
    });
    scope.dispose();
    assert_eq!(
        *events.borrow(),
        ["scope cleanup", "dispose b", "dispose a"]
    );
    s.set(1);
    assert_eq!(events.borrow().len(), 3, "disposed effects never run again");
    assert!(scope.is_disposed());
}

#[test]
fn nodes_created_in_a_run_are_disposed_before_the_next_run() {
    let outer = Signal::new(0);
    let inner = Signal::new(0);
    let inner_runs = counter();
    let _e = Effect::new({
        let (outer, inner, inner_runs) = (outer.clone(), inner.clone(), inner_runs.clone());
        move || {
            outer.get();
            let (inner, inner_runs) = (inner.clone(), inner_runs.clone());
            Effect::new(move || {
                inner.get();
                inner_runs.set(inner_runs.get() + 1);
            });
        }
    });
    assert_eq!(inner_runs.get(), 1);
    outer.set(1); // old child disposed, a new one created
    assert_eq!(inner_runs.get(), 2);
    inner.set(1); // only the live child runs
    assert_eq!(inner_runs.get(), 3);
}

#[test]
fn a_disposed_memo_keeps_its_last_value() {
    let s = Signal::new(1);
    let m = Memo::new({
        let s = s.clone();
        move |_| s.get() * 10
    });
    assert_eq!(m.get(), 10);
    m.dispose();
    s.set(2);
    assert_eq!(m.get(), 10);
    assert_eq!(m.runs(), 1);
}

#[test]
fn a_panicking_memo_records_the_failure_and_the_graph_stays_usable() {
    let s = Signal::new(1);
    let fragile = Memo::new({
        let s = s.clone();
        move |_| {
            let v = s.get();
            assert!(v != 2, "two is not allowed");
            v
        }
    });
    let other_runs = counter();
    let _other = Effect::new({
        let (s, other_runs) = (s.clone(), other_runs.clone());
        move || {
            s.get();
            other_runs.set(other_runs.get() + 1);
        }
    });
    let reader = Effect::new({
        let fragile = fragile.clone();
        move || {
            fragile.get();
        }
    });
    s.set(2);
    let error = fragile.try_get().unwrap_err();
    assert!(
        error.message.contains("two is not allowed"),
        "{}",
        error.message
    );
    assert_eq!(
        fragile.cached(),
        Some(1),
        "a failed memo keeps its previous value"
    );
    assert!(
        reader.error().is_some(),
        "the reader of a failed memo fails in turn"
    );
    assert_eq!(other_runs.get(), 2, "other effects still ran");
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fragile.get()));
    assert!(read.is_err(), "get on a failed memo panics with its error");
    s.set(3);
    assert_eq!(fragile.get(), 3, "it recovers when a source moves");
    assert!(reader.error().is_none());
}

#[test]
fn a_panicking_effect_does_not_stop_the_others() {
    take_errors();
    let s = Signal::new(0);
    let bad = Effect::new({
        let s = s.clone();
        move || {
            if s.get() == 1 {
                panic!("effect failed on one");
            }
        }
    });
    let good_runs = counter();
    let _good = Effect::new({
        let (s, good_runs) = (s.clone(), good_runs.clone());
        move || {
            s.get();
            good_runs.set(good_runs.get() + 1);
        }
    });
    s.set(1);
    assert_eq!(good_runs.get(), 2);
    assert!(
        bad.error()
            .unwrap()
            .message
            .contains("effect failed on one")
    );
    assert!(take_errors().iter().any(|e| e.node == bad.id()));
    s.set(2);
    assert!(bad.error().is_none());
}

#[test]
fn untrack_reads_do_not_subscribe() {
    let a = Signal::new(1);
    let b = Signal::new(1);
    let runs = counter();
    let _e = Effect::new({
        let (a, b, runs) = (a.clone(), b.clone(), runs.clone());
        move || {
            a.get();
            untrack(|| b.get());
            b.peek();
            runs.set(runs.get() + 1);
        }
    });
    b.set(2);
    assert_eq!(runs.get(), 1);
    a.set(2);
    assert_eq!(runs.get(), 2);
}

#[test]
fn dynamic_dependencies_are_recollected() {
    let flag = Signal::new(true);
    let a = Signal::new(1);
    let b = Signal::new(100);
    let pick = Memo::new({
        let (flag, a, b) = (flag.clone(), a.clone(), b.clone());
        move |_| if flag.get() { a.get() } else { b.get() }
    });
    let runs = counter();
    let _e = Effect::new({
        let (pick, runs) = (pick.clone(), runs.clone());
        move || {
            pick.get();
            runs.set(runs.get() + 1);
        }
    });
    b.set(101); // not read yet
    assert_eq!(pick.runs(), 1);
    flag.set(false);
    assert_eq!(pick.get(), 101);
    a.set(2); // no longer read
    assert_eq!(pick.runs(), 2);
    assert_eq!(runs.get(), 2);
}

#[derive(Clone, Debug, PartialEq)]
struct Cart {
    items: Vec<(String, i64)>,
    discount: i64,
}

#[derive(Debug)]
enum CartMsg {
    Add(&'static str, i64),
    Discount(i64),
    Explode,
    Nothing,
}

fn cart() -> Mvu<Cart, CartMsg> {
    Mvu::new(
        Cart {
            items: vec![],
            discount: 0,
        },
        |msg, cart| {
            let mut next = cart.clone();
            match msg {
                CartMsg::Add(sku, price) => next.items.push((sku.to_string(), price)),
                CartMsg::Discount(d) => next.discount = d,
                CartMsg::Explode => panic!("update exploded"),
                CartMsg::Nothing => {}
            }
            next
        },
    )
}

#[test]
fn mvu_select_wakes_readers_only_when_its_part_changes() {
    let mvu = cart();
    let discount = mvu.select(|c| c.discount);
    let runs = counter();
    let _e = Effect::new({
        let (discount, runs) = (discount.clone(), runs.clone());
        move || {
            discount.get();
            runs.set(runs.get() + 1);
        }
    });
    mvu.dispatch(CartMsg::Add("a", 100)).unwrap();
    assert_eq!(runs.get(), 1);
    mvu.dispatch(CartMsg::Discount(10)).unwrap();
    assert_eq!(runs.get(), 2);
    assert_eq!(discount.get(), 10);
}

#[test]
fn mvu_equal_update_wakes_nothing() {
    let mvu = cart();
    let runs = counter();
    let _e = Effect::new({
        let (mvu, runs) = (mvu.clone(), runs.clone());
        move || {
            mvu.with_model(|_| ());
            runs.set(runs.get() + 1);
        }
    });
    mvu.dispatch(CartMsg::Nothing).unwrap();
    assert_eq!(runs.get(), 1);
}

#[test]
fn mvu_update_panic_leaves_the_model_unchanged_and_returns_an_error() {
    let mvu = cart();
    mvu.dispatch(CartMsg::Add("a", 1)).unwrap();
    let before = mvu.peek_model();
    let err = mvu.dispatch(CartMsg::Explode).unwrap_err();
    assert!(
        err.message.starts_with("update panicked: update exploded"),
        "{}",
        err.message
    );
    assert_eq!(mvu.peek_model(), before);
    mvu.dispatch(CartMsg::Add("b", 2)).unwrap();
    assert_eq!(mvu.peek_model().items.len(), 2);
}

#[test]
fn mvu_commands_run_after_the_update_and_see_its_model() {
    #[derive(Debug)]
    enum Msg {
        Start,
        Log,
    }
    let seen = log();
    let mvu = Mvu::with_commands(((0, Vec::<i32>::new()), vec![]), {
        move |msg, (n, logged): &(i32, Vec<i32>)| match msg {
            Msg::Start => ((n + 1, logged.clone()), vec![Msg::Log, Msg::Log]),
            Msg::Log => {
                let mut l = logged.clone();
                l.push(*n);
                ((*n, l), vec![])
            }
        }
    });
    let _e = Effect::new({
        let (mvu, seen) = (mvu.clone(), seen.clone());
        move || seen.borrow_mut().push(format!("{:?}", mvu.model()))
    });
    mvu.dispatch(Msg::Start).unwrap();
    assert_eq!(mvu.peek_model(), (1, vec![1, 1]));
    assert_eq!(seen.borrow().last().unwrap(), "(1, [1, 1])");
}

#[test]
fn a_dispatch_from_an_effect_joins_the_flush_and_does_not_subscribe_it() {
    let trigger = Signal::new(0);
    let mvu = cart();
    let runs = counter();
    let _e = Effect::new({
        let (trigger, mvu, runs) = (trigger.clone(), mvu.clone(), runs.clone());
        move || {
            let t = trigger.get();
            runs.set(runs.get() + 1);
            if t > 0 {
                mvu.dispatch(CartMsg::Discount(t)).unwrap();
            }
        }
    });
    let seen = log();
    let _watch = Effect::new({
        let (mvu, seen) = (mvu.clone(), seen.clone());
        move || {
            seen.borrow_mut()
                .push(mvu.with_model(|c| c.discount).to_string())
        }
    });
    trigger.set(5);
    assert_eq!(*seen.borrow(), ["0", "5"]);
    mvu.dispatch(CartMsg::Discount(7)).unwrap();
    assert_eq!(
        runs.get(),
        2,
        "the dispatching effect did not subscribe to the model"
    );
}

#[test]
fn nodes_have_ids_labels_and_creation_sites() {
    let a = Signal::new(0).labelled("a");
    let b = Signal::new(0);
    assert!(b.id().0 > a.id().0, "ids come from a per-graph counter");
    assert_eq!(a.id().to_string(), format!("#{}", a.id().0));
}

#[test]
fn reads_inside_a_batch_are_current_below_live_memos() {
    let a = Signal::new(1);
    let double = Memo::new({
        let a = a.clone();
        move |_| a.get() * 2
    });
    let plus_one = Memo::new({
        let double = double.clone();
        move |_| double.get() + 1
    });
    let seen = log();
    let _e = Effect::new({
        let (plus_one, seen) = (plus_one.clone(), seen.clone());
        move || seen.borrow_mut().push(plus_one.get().to_string())
    });
    batch(|| {
        a.set(5);
        assert_eq!(
            plus_one.get(),
            11,
            "a live chain read inside a batch is brought up to date"
        );
        a.set(6);
    });
    assert_eq!(*seen.borrow(), ["3", "13"]);
    assert_eq!(plus_one.get(), 13);
}

#[test]
fn a_write_stopped_by_a_cutoff_runs_nothing_below_it_whatever_the_depth() {
    let head = Signal::new(0);
    let gate = Memo::new({
        let head = head.clone();
        move |_| head.get() >= 100
    });
    let mut below = vec![Memo::new({
        let gate = gate.clone();
        move |_| i32::from(gate.get())
    })];
    for _ in 0..200 {
        let prev = below.last().unwrap().clone();
        below.push(Memo::new(move |_| prev.get() + 1));
    }
    let tail = below.last().unwrap().clone();
    let runs = counter();
    let _e = Effect::new({
        let runs = runs.clone();
        move || {
            tail.get();
            runs.set(runs.get() + 1);
        }
    });
    for v in 1..50 {
        head.set(v);
    }
    assert_eq!(gate.runs(), 50);
    assert!(
        below.iter().all(|m| m.runs() == 1),
        "nothing below the cutoff re-ran"
    );
    assert_eq!(runs.get(), 1);
    head.set(100);
    assert!(below.iter().all(|m| m.runs() == 2));
    assert_eq!(runs.get(), 2);
}

#[test]
fn a_memo_that_loses_its_last_observer_goes_back_to_being_lazy() {
    let s = Signal::new(1);
    let m = Memo::new({
        let s = s.clone();
        move |_| s.get() * 10
    });
    let e = Effect::new({
        let m = m.clone();
        move || {
            m.get();
        }
    });
    s.set(2);
    assert_eq!(m.runs(), 2, "kept current while an effect reads it");
    e.dispose();
    s.set(3);
    s.set(4);
    assert_eq!(m.runs(), 2, "unobserved again: it waits to be read");
    assert_eq!(m.get(), 40);
    assert_eq!(m.runs(), 3);
}

/// Counts its drops (across threads).
struct DropFlag(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn a_graph_left_undisposed_is_freed_when_its_thread_ends() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dropped = Arc::new(AtomicUsize::new(0));
    let cleanups_run = Arc::new(AtomicUsize::new(0));
    std::thread::spawn({
        let (dropped, cleanups_run) = (dropped.clone(), cleanups_run.clone());
        move || {
            let flag = move || DropFlag(dropped.clone());
            let source = Signal::new(1);
            // A memo and an effect owned by the graph's root, reading each other's way round a cycle of edges.
            let memo = Memo::new({
                let (source, f) = (source.clone(), flag());
                move |_| {
                    let _ = &f;
                    source.get() + 1
                }
            });
            let _effect = Effect::new({
                let (memo, f, source) = (memo.clone(), flag(), source.clone());
                let inner_flag = flag.clone();
                move || {
                    let _ = &f;
                    memo.get();
                    // A node made by a run belongs to that run.
                    let inner = inner_flag();
                    let source = source.clone();
                    Effect::new(move || {
                        let _ = &inner;
                        source.get();
                    });
                }
            });
            // A child scope the program never disposes.
            let ((), _scope) = create_root(|_| {
                let (memo, f) = (memo.clone(), flag());
                Effect::new(move || {
                    let _ = &f;
                    memo.get();
                });
            });
            let (f, ran) = (flag(), cleanups_run.clone());
            on_cleanup(move || {
                let _ = &f;
                ran.fetch_add(1, Ordering::SeqCst);
            });
        }
    })
    .join()
    .expect("the thread ends cleanly");
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        5,
        "every closure the graph held was dropped with it"
    );
    assert_eq!(
        cleanups_run.load(Ordering::SeqCst),
        0,
        "cleanups do not run at thread exit"
    );
}

#[test]
fn a_node_disposed_early_is_released_by_its_long_lived_owner() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dropped = Arc::new(AtomicUsize::new(0));
    let s = Signal::new(0);
    let runs = counter();
    let _kept = Effect::new({
        let (s, runs) = (s.clone(), runs.clone());
        move || {
            s.get();
            runs.set(runs.get() + 1);
        }
    });
    let early = Effect::new({
        let (s, f) = (s.clone(), DropFlag(dropped.clone()));
        move || {
            let _ = &f;
            s.get();
        }
    });
    early.dispose();
    drop(early);
    // The root outlives both; making and disposing more nodes in it lets it drop what is already disposed.
    for _ in 0..100 {
        let ((), scope) = create_root(|_| {
            Effect::new(|| {});
        });
        scope.dispose();
        Effect::new(|| {}).dispose();
    }
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        1,
        "the disposed effect was freed"
    );
    s.set(1);
    assert_eq!(
        runs.get(),
        2,
        "the effect still owned by the root still runs"
    );
}

#[test]
fn a_drop_that_uses_the_graph_at_thread_exit_does_not_abort_the_process() {
    // Dropped as its thread's graph is freed: the graph is gone by then, so this write panics, and the panic must
    // stay inside the teardown rather than abort the whole process.
    struct WritesOnDrop(Signal<i32>);
    impl Drop for WritesOnDrop {
        fn drop(&mut self) {
            self.0.set(99);
        }
    }
    let ended = std::thread::spawn(|| {
        let s = Signal::new(0);
        let on_drop = WritesOnDrop(s.clone());
        Effect::new(move || {
            let _ = &on_drop;
            s.get();
        });
        "ended"
    })
    .join();
    assert_eq!(ended.ok(), Some("ended"));
}

/// A graph that keeps making and disposing nodes (an effect that rebuilds its rows on every run) reuses the same
/// memory: each run disposes the last run's rows, whose blocks go back to the thread's pool, and the new rows take
/// the same blocks again, so the pool holds the same bytes after every run.
#[test]
fn making_and_disposing_nodes_in_a_loop_reuses_the_same_memory() {
    let generation = Signal::new(0);
    let _list = Effect::new({
        let generation = generation.clone();
        move || {
            let g = generation.get();
            for i in 0..100 {
                let doubled = Memo::new({
                    let generation = generation.clone();
                    move |_| generation.get() * 2 + i
                });
                Effect::new(move || {
                    doubled.get();
                });
            }
            let _ = g;
        }
    });
    let mut after_first_rebuild = None;
    for round in 1..50 {
        generation.set(round);
        let pooled = ranvier::graph::pooled_bytes();
        assert!(
            pooled > 0,
            "round {round}: the disposed rows' memory is kept for the next"
        );
        match after_first_rebuild {
            None => after_first_rebuild = Some(pooled),
            Some(first) => assert_eq!(
                pooled, first,
                "round {round}: the pool grew, so memory was not reused"
            ),
        }
    }
}

#[test]
fn handles_a_thread_local_drops_after_the_runtime_are_let_go_quietly() {
    use std::cell::RefCell;
    thread_local! {
        // Made before the graph's runtime on the thread below, so destroyed after it (locals go in reverse order).
        static HELD: RefCell<Vec<Memo<i32>>> = const { RefCell::new(Vec::new()) };
    }
    let value = std::thread::spawn(|| {
        HELD.with(|held| held.borrow().len());
        let s = Signal::new(20);
        let doubled = Memo::new({
            let s = s.clone();
            move |_| s.get() * 2
        })
        .labelled("doubled");
        let value = doubled.get();
        HELD.with(|held| held.borrow_mut().push(doubled));
        value
    })
    .join()
    .expect("the thread ends without a panic in a destructor");
    assert_eq!(value, 40);
}

#[test]
fn a_memo_reached_again_while_its_function_runs_is_turned_away() {
    // The memo's function is reached without a borrow flag while it runs: a read of the memo inside its own function
    // panics (a cycle) and is recorded, and a cleanup of its last run that moves its source and reads it runs the
    // memo before the next run begins, not inside it.
    let s = Signal::new(1);
    let slot: Rc<RefCell<Option<Memo<i32>>>> = Rc::new(RefCell::new(None));
    let m = Memo::new({
        let (s, slot) = (s.clone(), slot.clone());
        move |_| {
            let v = s.get();
            if v == 2 {
                let me = slot.borrow().clone().expect("set");
                return me.get() + 1;
            }
            if v == 3 {
                let (s, slot) = (s.clone(), slot.clone());
                on_cleanup(move || {
                    s.set(4);
                    let me = slot.borrow().clone().expect("set");
                    assert_eq!(me.get(), 40);
                });
            }
            v * 10
        }
    });
    *slot.borrow_mut() = Some(m.clone());
    assert_eq!(m.get(), 10);
    s.set(2);
    let err = m.try_get().expect_err("a memo reading itself fails");
    assert!(err.message.contains("reads itself"), "{}", err.message);
    s.set(3);
    assert_eq!(m.get(), 30);
    // The cleanup moves the source back to 4 after this write and reads the memo, which runs then (40); the next run
    // reads 4 too.
    s.set(5);
    assert_eq!((m.get(), s.get()), (40, 4));
    drop(slot.borrow_mut().take());
}

#[test]
fn a_drain_that_unwinds_hands_nothing_on_after_it() {
    // A comparer that panics unwinds through the height queue's drain. A chain's hand-off runs the observer of a
    // memo now, in the drain's frame, and only the drain hands on: a memo run outside a drain (here one left dirty
    // by the unwinding) queues its observer, as before the unwinding.
    let s = Signal::new(0);
    let a = Memo::new({
        let s = s.clone();
        move |_| s.get()
    });
    let odd_fails = Memo::with_comparer(
        {
            let a = a.clone();
            move |_| a.get()
        },
        |last: &i32, next: &i32| {
            assert!(next % 2 == 0, "an odd value");
            last == next
        },
    );
    let stray = Memo::new({
        let a = a.clone();
        move |_| a.get() * 10
    });
    let above = Memo::new({
        let stray = stray.clone();
        move |_| stray.get() + 1
    });
    let _first = Effect::new({
        let odd_fails = odd_fails.clone();
        move || {
            odd_fails.get();
        }
    });
    let _second = Effect::new({
        let above = above.clone();
        move || {
            above.get();
        }
    });
    let t = Signal::new(0);
    let _unrelated = Effect::new({
        let t = t.clone();
        move || {
            t.get();
        }
    });
    // The drain (from a read, inside a batch: no flush is running) takes the bucket of `odd_fails` and `stray`, and
    // unwinds in the first: `stray` is left dirty.
    batch(|| {
        s.set(1);
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| a.get()));
        assert!(read.is_err(), "the comparer's panic unwinds the drain");
    });
    // The next drain takes `odd_fails` alone, just above `a`, and unwinds in it too.
    batch(|| {
        s.set(3);
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| a.get()));
        assert!(read.is_err());
    });
    // The batches' flushes, owed, found nothing queued: an unrelated flush settles the debt.
    t.set(1);
    // `stray`, at the height `odd_fails` was, runs outside any drain when read: it queues `above` rather than run it.
    assert_eq!(above.runs(), 1);
    assert_eq!(stray.get(), 30);
    assert_eq!(
        above.runs(),
        1,
        "no drain runs: the observer is queued, not handed on"
    );
    assert_eq!(above.get(), 31);
    assert_eq!(above.runs(), 2);
}
