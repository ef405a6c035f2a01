//! The rules of the node kinds built on the core ones (`EffectOn`, `Editable` and `Draft`, option memos, boundaries) and of the
//! operations beside them (`flush`, owners, pure bodies), one test each.
//!
//! Written as an app would write them (`ranvier::…` paths, the public API only), like `core_tests.rs`.

use ranvier::graph::take_errors;
use ranvier::timed::{Debounced, TestClock, Throttled};
use ranvier::{
    AsyncSource, Boundary, BoundaryState, Draft, Editable, Effect, EffectOn, Failure, Interrupt,
    Memo, Owner, Signal, batch, create_root, flush, on_cleanup, run_with_owner,
};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

fn log<T>() -> Rc<RefCell<Vec<T>>> {
    Rc::new(RefCell::new(Vec::new()))
}

// ---------------------------------------------------------------------------------------------------------------
// EffectOn
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn effect_on_acts_only_for_a_value_unequal_to_the_last_one_acted_on() {
    let n = Signal::new(1);
    let acted = log();
    let e = EffectOn::new(
        {
            let n = n.clone();
            move || n.get() % 3
        },
        {
            let acted = acted.clone();
            move |v: &i32, prev: Option<&i32>| acted.borrow_mut().push((*v, prev.copied()))
        },
    );
    assert_eq!(*acted.borrow(), [(1, None)], "acts at creation");
    n.set(4); // 4 % 3 == 1: compute re-runs, act does not
    assert_eq!(e.runs(), 2);
    assert_eq!(e.acts(), 1);
    n.set(5);
    n.set(8); // 2 again
    assert_eq!(*acted.borrow(), [(1, None), (2, Some(1))]);
    assert_eq!(e.last_acted(), Some(2));
}

#[test]
fn effect_on_compares_with_the_last_value_acted_on_not_the_last_computed() {
    let x = Signal::new(0.0_f64);
    let acted = log();
    let _e = EffectOn::with_comparer(
        {
            let x = x.clone();
            move || x.get()
        },
        {
            let acted = acted.clone();
            move |v: &f64, _: Option<&f64>| acted.borrow_mut().push(*v)
        },
        |a, b| (a - b).abs() < 1.0,
    );
    // Each step is under 1.0 from the one before, but the drift from the last acted value reaches 1.0.
    for v in [0.4, 0.8, 1.2, 1.6] {
        x.set(v);
    }
    assert_eq!(*acted.borrow(), [0.0, 1.2]);
}

#[test]
fn effect_on_act_is_untracked() {
    let watched = Signal::new(0);
    let other = Signal::new(0);
    let e = EffectOn::new(
        {
            let watched = watched.clone();
            move || watched.get()
        },
        {
            let other = other.clone();
            move |_: &i32, _: Option<&i32>| {
                other.get();
            }
        },
    );
    other.set(1);
    assert_eq!(e.runs(), 1, "a read in act does not wake the effect");
    watched.set(1);
    assert_eq!((e.runs(), e.acts()), (2, 2));
}

#[test]
fn effect_on_act_owns_its_nodes_until_the_next_act_not_the_next_compute() {
    let n = Signal::new(0);
    let inner = Signal::new(0);
    let events = log();
    let _e = EffectOn::new(
        {
            let n = n.clone();
            move || n.get() / 10
        },
        {
            let (inner, events) = (inner.clone(), events.clone());
            move |v: &i32, _: Option<&i32>| {
                let (inner, events, v) = (inner.clone(), events.clone(), *v);
                ranvier::Effect::new({
                    let events = events.clone();
                    move || {
                        events
                            .borrow_mut()
                            .push(format!("child of {v} sees {}", inner.get()))
                    }
                });
                on_cleanup(move || events.borrow_mut().push(format!("cleanup {v}")));
            }
        },
    );
    n.set(5); // compute re-runs to 0: no act, the child of 0 lives on
    inner.set(1);
    n.set(10); // act for 1: the child of 0 and its cleanup go first
    inner.set(2);
    assert_eq!(
        *events.borrow(),
        [
            "child of 0 sees 0",
            "child of 0 sees 1",
            "cleanup 0",
            "child of 1 sees 1",
            "child of 1 sees 2",
        ]
    );
}

#[test]
fn disposing_an_effect_on_disposes_what_its_act_created() {
    let n = Signal::new(0);
    let cleaned = Rc::new(Cell::new(false));
    let e = EffectOn::new(
        {
            let n = n.clone();
            move || n.get()
        },
        {
            let cleaned = cleaned.clone();
            move |_: &i32, _: Option<&i32>| {
                let cleaned = cleaned.clone();
                on_cleanup(move || cleaned.set(true));
            }
        },
    );
    e.dispose();
    assert!(cleaned.get());
    assert!(e.is_disposed());
    n.set(1);
    assert_eq!((e.runs(), e.acts()), (1, 1), "never runs again");
}

#[test]
fn an_effect_on_created_in_a_run_goes_with_that_run() {
    let outer = Signal::new(0);
    let watched = Signal::new(0);
    let acts = Rc::new(Cell::new(0));
    let ((), scope) = create_root(|_| {
        let (outer, watched, acts) = (outer.clone(), watched.clone(), acts.clone());
        ranvier::Effect::new(move || {
            outer.get();
            let (watched, acts) = (watched.clone(), acts.clone());
            EffectOn::new(
                move || watched.get(),
                move |_: &i32, _: Option<&i32>| acts.set(acts.get() + 1),
            );
        });
    });
    assert_eq!(acts.get(), 1);
    outer.set(1); // the first EffectOn is disposed with the run, a second is made
    assert_eq!(acts.get(), 2);
    watched.set(1); // only the live one acts
    assert_eq!(acts.get(), 3);
    scope.dispose();
    watched.set(2);
    assert_eq!(acts.get(), 3);
}

#[test]
fn a_panicking_compute_is_recorded_and_leaves_the_last_action_in_place() {
    let n = Signal::new(1);
    let e = EffectOn::new(
        {
            let n = n.clone();
            move || {
                let v = n.get();
                assert!(v != 2, "two does not settle");
                v
            }
        },
        |_: &i32, _: Option<&i32>| {},
    );
    let _ = take_errors();
    n.set(2);
    assert_eq!(e.acts(), 1);
    assert_eq!(e.last_acted(), Some(1));
    let error = e.error().expect("the failure is recorded");
    assert!(error.message.contains("two does not settle"), "{error}");
    assert_eq!(take_errors().len(), 1);
    n.set(3);
    assert_eq!((e.acts(), e.last_acted(), e.error()), (2, Some(3), None));
}

#[test]
fn a_panicking_comparer_is_recorded_and_act_is_skipped() {
    let n = Signal::new(1);
    let e = EffectOn::with_comparer(
        {
            let n = n.clone();
            move || n.get()
        },
        |_: &i32, _: Option<&i32>| {},
        |_: &i32, next: &i32| {
            assert!(*next != 2, "cannot compare two");
            false
        },
    );
    let _ = take_errors();
    n.set(2);
    assert_eq!(e.acts(), 1, "act skipped");
    let error = e.error().expect("the comparer's failure is recorded");
    assert!(
        error
            .message
            .contains("the comparer panicked (cannot compare two)"),
        "{error}"
    );
    assert_eq!(take_errors(), [error]);
    n.set(3);
    assert_eq!((e.acts(), e.last_acted()), (2, Some(3)));
}

#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
fn a_panicking_comparer_is_in_the_trace_as_the_failed_run_of_the_effect() {
    use ranvier::trace::{self, EventKind};
    let n = Signal::new(1);
    let e = EffectOn::with_comparer(
        {
            let n = n.clone();
            move || n.get()
        },
        |_: &i32, _: Option<&i32>| {},
        |_: &i32, _: &i32| panic!("no order"),
    )
    .labelled("watch");
    n.set(2);
    let _ = take_errors();
    let failed = trace::events().into_iter().any(|event| {
        matches!(&event.kind, EventKind::RunEnd { node, error: Some(error), .. }
            if *node == e.id() && error.contains("the comparer panicked (no order)"))
    });
    assert!(failed, "the run's failure is in the trace");
}

#[test]
fn effect_on_in_a_batch_acts_once_for_the_settled_value() {
    let a = Signal::new(1);
    let acted = log();
    let _e = EffectOn::new(
        {
            let a = a.clone();
            move || a.get()
        },
        {
            let acted = acted.clone();
            move |v: &i32, _: Option<&i32>| acted.borrow_mut().push(*v)
        },
    );
    batch(|| {
        a.set(2);
        a.set(3);
    });
    batch(|| {
        a.set(4);
        a.set(3); // back where it was acted on: nothing to do
    });
    assert_eq!(*acted.borrow(), [1, 3]);
}

#[test]
fn effect_on_reads_memos_glitch_free() {
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
    let _e = EffectOn::new(move || (left.get(), right.get()), {
        let seen = seen.clone();
        move |v: &(i32, i32), _: Option<&(i32, i32)>| seen.borrow_mut().push(*v)
    });
    top.set(2);
    assert_eq!(*seen.borrow(), [(2, 3), (4, 6)]);
}

// ---------------------------------------------------------------------------------------------------------------
// Editable and Draft
// ---------------------------------------------------------------------------------------------------------------

/// Counts the runs of an effect that reads `read`.
fn count_runs(read: impl Fn() + 'static) -> Rc<Cell<u32>> {
    let runs = Rc::new(Cell::new(0));
    ranvier::Effect::new({
        let runs = runs.clone();
        move || {
            runs.set(runs.get() + 1);
            read();
        }
    });
    runs
}

#[test]
fn an_editable_reads_the_seed_until_edited_then_the_edit() {
    let source = Signal::new(1);
    let e = Editable::new({
        let s = source.clone();
        move |_| s.get() * 10
    });
    assert_eq!((e.get(), e.is_dirty()), (10, false));
    e.set(7);
    assert_eq!((e.get(), e.is_dirty(), e.seed()), (7, true, 10));
}

#[test]
fn a_seed_change_drops_the_edit_of_an_editable_and_every_value_reaches_the_reader() {
    let source = Signal::new(1);
    let e = Editable::new({
        let s = source.clone();
        move |_| s.get()
    });
    let seen = log();
    ranvier::Effect::new({
        let (e, seen) = (e.clone(), seen.clone());
        move || seen.borrow_mut().push(e.get())
    });
    e.set(5);
    source.set(2);
    assert_eq!((e.get(), e.is_dirty()), (2, false));
    assert_eq!(*seen.borrow(), [1, 5, 2]);
}

#[test]
fn a_seed_that_moves_and_comes_back_drops_the_edit_only_if_it_was_seen_in_between() {
    // Observed: B was published, so the edit is dropped.
    let source = Signal::new("A");
    let e = Editable::new({
        let s = source.clone();
        move |_| s.get()
    });
    let _runs = count_runs({
        let e = e.clone();
        move || {
            e.get();
        }
    });
    e.set("edit");
    source.set("B");
    source.set("A");
    assert_eq!((e.get(), e.is_dirty()), ("A", false));

    // Inside a batch nothing reads B: the seed runs once, to an equal value.
    e.set("edit");
    batch(|| {
        source.set("B");
        source.set("A");
    });
    assert_eq!((e.get(), e.is_dirty()), ("edit", true));

    // Nothing reading the editable: the same.
    let unread = Editable::new({
        let s = source.clone();
        move |_| s.get()
    });
    unread.set("edit");
    source.set("B");
    source.set("A");
    assert_eq!(unread.get(), "edit");
}

#[test]
fn an_edit_made_after_an_unread_seed_change_is_kept() {
    let source = Signal::new(1);
    let e = Editable::new({
        let s = source.clone();
        move |_| s.get()
    });
    assert_eq!(e.get(), 1);
    source.set(2); // nothing reads e: the seed has not re-run
    e.set(5); // made against the seed as it is now (2)
    assert_eq!((e.get(), e.is_dirty()), (5, true));
}

#[test]
fn a_seed_that_reruns_to_an_equal_value_keeps_the_edit_and_wakes_no_reader() {
    let source = Signal::new(1);
    let e = Editable::new({
        let s = source.clone();
        move |_| s.get() % 2
    });
    let runs = count_runs({
        let e = e.clone();
        move || {
            e.get();
        }
    });
    e.set(9);
    source.set(3);
    assert_eq!(e.get(), 9);
    assert_eq!(
        runs.get(),
        2,
        "one run for the edit, none for the seed's re-run"
    );
}

#[test]
fn an_equal_edit_wakes_no_reader() {
    let e = Editable::new(|_| 1);
    let runs = count_runs({
        let e = e.clone();
        move || {
            e.get();
        }
    });
    e.set(5);
    e.set(5);
    assert_eq!(runs.get(), 2);
}

#[test]
fn revert_drops_the_edit_and_the_dirty_flag_wakes_its_reader_on_every_transition() {
    let source = Signal::new(1);
    let e = Editable::new({
        let s = source.clone();
        move |_| s.get()
    });
    let seen = log();
    let _watch = EffectOn::new(
        {
            let e = e.clone();
            move || e.is_dirty()
        },
        {
            let seen = seen.clone();
            move |dirty: &bool, _: Option<&bool>| seen.borrow_mut().push(*dirty)
        },
    );
    e.set(5);
    e.revert();
    assert_eq!(e.get(), 1);
    e.set(6);
    source.set(2); // the seed's change drops the edit
    assert_eq!(*seen.borrow(), [false, true, false, true, false]);
}

#[test]
fn the_seed_gets_its_own_last_value_never_the_edit() {
    let source = Signal::new(1);
    let prevs = log();
    let e = Editable::new({
        let (s, prevs) = (source.clone(), prevs.clone());
        move |prev: Option<&i32>| {
            prevs.borrow_mut().push(prev.copied());
            s.get()
        }
    });
    e.get();
    e.set(50);
    source.set(2);
    e.get();
    assert_eq!(*prevs.borrow(), [None, Some(1)]);
}

#[test]
fn commit_writes_the_edit_upstream_in_one_batch_and_clears_it() {
    let saved = Signal::new(1);
    let e = Editable::new({
        let s = saved.clone();
        move |_| s.get()
    });
    let seen = log();
    ranvier::Effect::new({
        let (e, seen) = (e.clone(), seen.clone());
        move || seen.borrow_mut().push((e.get(), e.is_dirty()))
    });
    assert!(!e.commit(|_| panic!("nothing to commit")));
    e.set(5);
    assert!(e.commit(|v| saved.set(v)));
    assert_eq!(saved.peek(), 5);
    // One run for the commit, and it never saw the old seed with the edit gone.
    assert_eq!(*seen.borrow(), [(1, false), (5, true), (5, false)]);
}

#[test]
fn a_draft_keeps_its_edit_across_seed_changes_until_revert() {
    let source = Signal::new(1);
    let d = Draft::new({
        let s = source.clone();
        move |_| s.get()
    });
    let upstream = log();
    ranvier::Effect::new({
        let (d, upstream) = (d.clone(), upstream.clone());
        move || upstream.borrow_mut().push(d.seed())
    });
    d.set(5);
    source.set(2);
    assert_eq!((d.get(), d.is_dirty()), (5, true));
    assert_eq!(*upstream.borrow(), [1, 2], "seed() follows upstream");
    d.revert();
    assert_eq!((d.get(), d.is_dirty()), (2, false));
    d.update(|v| *v += 1);
    assert!(d.commit(|v| source.set(v)));
    assert_eq!((d.get(), d.is_dirty(), source.peek()), (3, false, 3));
}

#[test]
fn an_edit_stays_readable_while_the_seed_fails() {
    let source = Signal::new(1);
    let e = Editable::new({
        let s = source.clone();
        move |_| {
            let v = s.get();
            assert!(v != 2, "the seed cannot load two");
            v
        }
    });
    e.get();
    e.set(7);
    source.set(2);
    assert_eq!(e.get(), 7, "an edit in force is still read");
    e.revert();
    let failure = e.value_memo().try_get().unwrap_err();
    assert!(
        failure.message.contains("the seed cannot load two"),
        "{failure}"
    );
}

#[test]
fn disposing_the_owner_detaches_the_editable_from_its_seed() {
    let source = Signal::new(1);
    let runs = Rc::new(Cell::new(0));
    let (e, owner) = create_root(|_| {
        let (s, runs) = (source.clone(), runs.clone());
        Editable::new(move |_| {
            runs.set(runs.get() + 1);
            s.get()
        })
    });
    e.get();
    owner.dispose();
    source.set(2);
    assert_eq!(e.get(), 1);
    assert_eq!(runs.get(), 1, "the seed stays detached");
}

// ---------------------------------------------------------------------------------------------------------------
// Option memos
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn an_option_memo_wakes_its_readers_only_when_what_it_finds_changes() {
    let items = Signal::new(vec![1, 2, 3]);
    let found = Memo::option({
        let items = items.clone();
        move || items.with(|items| items.iter().copied().find(|v| v % 2 == 0))
    });
    let seen = log();
    ranvier::Effect::new({
        let (found, seen) = (found.clone(), seen.clone());
        move || seen.borrow_mut().push(found.get())
    });
    items.set(vec![2, 5]); // still Some(2)
    items.set(vec![5]); // None
    items.set(vec![7]); // None again
    items.set(vec![4]); // Some(4)
    assert_eq!(*seen.borrow(), [Some(2), None, Some(4)]);
    assert_eq!(
        found.runs(),
        5,
        "it re-ran every time; the cutoff kept its readers asleep"
    );
}

#[test]
fn an_option_memo_with_a_comparer_keeps_its_previous_some_and_compares_only_somes() {
    let source = Signal::new(Some((1, "first")));
    let compared = Rc::new(Cell::new(0));
    let kept = Memo::option_with_comparer(
        {
            let s = source.clone();
            move || s.get()
        },
        {
            let compared = compared.clone();
            move |a: &(i32, &str), b: &(i32, &str)| {
                compared.set(compared.get() + 1);
                a.0 == b.0
            }
        },
    );
    assert_eq!(kept.get(), Some((1, "first")));
    source.set(Some((1, "second")));
    assert_eq!(
        kept.get(),
        Some((1, "first")),
        "equal inside: the previous Some is kept"
    );
    source.set(None);
    assert_eq!(kept.get(), None);
    source.set(Some((1, "third")));
    assert_eq!(kept.get(), Some((1, "third")), "None to Some is a change");
    assert_eq!(
        compared.get(),
        1,
        "the comparer saw only the Some-to-Some run"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// flush
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn a_flush_inside_a_batch_drains_at_once_and_the_batch_goes_on_deferring() {
    let s = Signal::new(0);
    let seen = log();
    let _e = ranvier::Effect::new({
        let (s, seen) = (s.clone(), seen.clone());
        move || seen.borrow_mut().push(s.get())
    });
    batch(|| {
        s.set(1);
        assert_eq!(*seen.borrow(), [0], "deferred by the batch");
        batch(|| {
            flush(); // nested batches too
        });
        assert_eq!(*seen.borrow(), [0, 1], "drained at once");
        s.set(2);
        s.set(3);
        assert_eq!(*seen.borrow(), [0, 1]);
    });
    assert_eq!(*seen.borrow(), [0, 1, 3]);
}

#[test]
fn a_reentrant_flush_is_absorbed_by_the_running_one() {
    let trigger = Signal::new(0);
    let relay = Signal::new(0);
    let events = log();
    let _first = ranvier::Effect::new({
        let (trigger, relay, events) = (trigger.clone(), relay.clone(), events.clone());
        move || {
            let t = trigger.get();
            events.borrow_mut().push(format!("first {t}"));
            relay.set(t);
            flush(); // absorbed: the second effect does not run inside this one
            events.borrow_mut().push(format!("first {t} done"));
        }
    });
    let _second = ranvier::Effect::new({
        let (relay, events) = (relay.clone(), events.clone());
        move || events.borrow_mut().push(format!("second {}", relay.get()))
    });
    events.borrow_mut().clear();
    trigger.set(1);
    assert_eq!(*events.borrow(), ["first 1", "first 1 done", "second 1"]);
}

#[test]
fn a_flush_inside_a_memo_body_runs_after_the_body_before_the_read_returns() {
    let source = Signal::new(0);
    let written = Signal::new(0);
    let events = log();
    let _e = ranvier::Effect::new({
        let (written, events) = (written.clone(), events.clone());
        move || {
            events
                .borrow_mut()
                .push(format!("effect {}", written.get()))
        }
    });
    let m = Memo::new({
        let (source, written, events) = (source.clone(), written.clone(), events.clone());
        move |_| {
            events.borrow_mut().push("body start".to_string());
            let v = source.get();
            written.set(v + 1);
            flush();
            events.borrow_mut().push("body end".to_string());
            v
        }
    });
    events.borrow_mut().clear();
    m.get();
    events.borrow_mut().push("returned".to_string());
    assert_eq!(
        *events.borrow(),
        ["body start", "body end", "effect 1", "returned"]
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Owners and pure functions
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn nodes_created_through_the_owner_of_a_run_go_with_that_run() {
    let outer = Signal::new(0);
    let inner = Signal::new(0);
    let owners = log();
    let runs = Rc::new(Cell::new(0));
    let _e = ranvier::Effect::new({
        let (outer, owners) = (outer.clone(), owners.clone());
        move || {
            outer.get();
            owners.borrow_mut().push(Owner::current());
        }
    });
    // Later, outside the run (a callback): the effect belongs to the run that captured the owner.
    let owner = owners.borrow()[0].clone();
    run_with_owner(&owner, || {
        let (inner, runs) = (inner.clone(), runs.clone());
        ranvier::Effect::new(move || {
            inner.get();
            runs.set(runs.get() + 1);
        });
    });
    inner.set(1);
    assert_eq!(runs.get(), 2);
    assert!(!owner.is_disposed());
    outer.set(1); // the run is discharged: what was created through its owner goes too
    assert!(owner.is_disposed());
    inner.set(2);
    assert_eq!(runs.get(), 2);
}

#[test]
fn under_a_disposed_owner_a_node_is_disposed_as_it_is_made_and_a_cleanup_runs_at_once() {
    let (owner, scope) = create_root(|_| Owner::current());
    scope.dispose();
    let s = Signal::new(0);
    let runs = Rc::new(Cell::new(0));
    let cleaned = Rc::new(Cell::new(false));
    let effect = run_with_owner(&owner, || {
        let cleaned = cleaned.clone();
        on_cleanup(move || cleaned.set(true));
        let (s, runs) = (s.clone(), runs.clone());
        ranvier::Effect::new(move || {
            s.get();
            runs.set(runs.get() + 1);
        })
    });
    assert!(cleaned.get());
    assert!(effect.is_disposed());
    s.set(1);
    assert_eq!(runs.get(), 0, "disposed before its first run");
}

#[test]
fn a_flight_after_its_await_creates_nodes_in_the_run_that_started_it() {
    use ranvier::{AsyncMemo, graph};
    let key = Signal::new(1);
    let watched = Signal::new(0);
    let runs = Rc::new(Cell::new(0));
    let loaded = AsyncMemo::new({
        let (key, watched, runs) = (key.clone(), watched.clone(), runs.clone());
        move |_| {
            let key = key.get();
            let owner = Owner::current();
            let (watched, runs) = (watched.clone(), runs.clone());
            async move {
                std::future::ready(()).await;
                run_with_owner(&owner, || {
                    ranvier::Effect::new(move || {
                        watched.get();
                        runs.set(runs.get() + 1);
                    });
                });
                key * 10
            }
        }
    });
    let _ = loaded.get();
    graph::run_flights();
    assert_eq!(loaded.get().value_or(0), 10);
    watched.set(1);
    assert_eq!(runs.get(), 2, "the flight's effect lives");
    key.set(2);
    let _ = loaded.get(); // a new run: the last run's nodes are disposed
    graph::run_flights();
    runs.set(0);
    watched.set(2);
    assert_eq!(runs.get(), 1, "only the second flight's effect runs");
    loaded.dispose();
    runs.set(0);
    watched.set(3);
    assert_eq!(
        runs.get(),
        0,
        "disposing the memo disposes what its runs own"
    );
}

#[test]
fn a_pure_compute_that_creates_a_memo_is_refused_naming_the_line_and_the_node() {
    let n = Signal::new(0);
    let line = line!() + 6;
    let e = EffectOn::new(
        {
            let n = n.clone();
            move || {
                let v = n.get();
                let _m = Memo::new(move |_| v);
                v
            }
        },
        |_: &i32, _: Option<&i32>| panic!("act must not run"),
    )
    .labelled("watch");
    let _ = ranvier::graph::take_errors();
    let error = e.error().expect("the run failed").message;
    assert!(
        error.contains(&format!(
            "a Memo created at ranvier/src/kinds_tests.rs:{line}:"
        )),
        "{error}"
    );
    assert!(
        error.contains("inside the `compute` of an EffectOn"),
        "{error}"
    );
    assert!(
        error.contains("a pure function cannot create owned nodes"),
        "{error}"
    );
    assert_eq!(e.acts(), 0);
}

#[test]
fn a_pure_function_that_catches_the_refusal_still_fails() {
    let e = EffectOn::new(
        || {
            let caught = std::panic::catch_unwind(|| ranvier::untrack(|| on_cleanup(|| {})));
            assert!(caught.is_err());
            1
        },
        |_: &i32, _: Option<&i32>| {},
    );
    let _ = ranvier::graph::take_errors();
    let error = e.error().expect("the run failed").message;
    assert!(
        error.starts_with("a cleanup (on_cleanup) at ranvier/src/kinds_tests.rs:"),
        "{error}"
    );
    assert_eq!(e.acts(), 0);
}

#[test]
fn a_pure_function_may_create_signals_and_read_memos_that_own_nodes() {
    let n = Signal::new(1);
    let owning = Memo::new({
        let n = n.clone();
        move |_| {
            let _inner = Memo::new(|_| 0); // the memo's own function: owned by its run
            n.get() * 2
        }
    });
    let e = EffectOn::new(
        move || {
            let local = Signal::new(owning.get());
            local.get()
        },
        |_: &i32, _: Option<&i32>| {},
    );
    n.set(2);
    assert_eq!((e.error(), e.last_acted()), (None, Some(4)));
}

#[test]
fn an_option_memo_select_and_create_root_in_pure_functions_are_refused() {
    let found = Memo::option(|| {
        let ((), _scope) = create_root(|_| {});
        Some(1)
    });
    let error = found.try_get().unwrap_err().message;
    assert!(
        error.starts_with("a scope (create_root) at ranvier/src/kinds_tests.rs:"),
        "{error}"
    );
    assert!(
        error.contains("inside the `select` of a Memo::option"),
        "{error}"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Timed nodes, on a clock the tests drive
// ---------------------------------------------------------------------------------------------------------------

fn ms(n: u64) -> std::time::Duration {
    std::time::Duration::from_millis(n)
}

#[test]
fn a_debounced_value_passes_the_last_of_a_burst_once_the_source_kept_it_for_the_delay() {
    let clock = TestClock::new();
    let source = Signal::new(0);
    let debounced = Debounced::new(&clock.clock(), ms(50), {
        let s = source.clone();
        move || s.get()
    });
    let seen = log();
    ranvier::Effect::new({
        let (d, seen) = (debounced.clone(), seen.clone());
        move || seen.borrow_mut().push(d.get())
    });
    for v in 1..=3 {
        source.set(v);
        clock.advance(ms(30)); // each change restarts the wait
    }
    assert_eq!((debounced.get(), debounced.is_waiting()), (0, true));
    clock.advance(ms(19));
    assert_eq!(debounced.get(), 0, "49 ms after the last change");
    clock.advance(ms(1));
    assert_eq!((debounced.get(), debounced.is_waiting()), (3, false));
    assert_eq!(*seen.borrow(), [0, 3], "one value out for the burst");
    assert_eq!(clock.timers(), 0);
}

#[test]
fn a_debounced_value_that_comes_back_before_the_delay_writes_nothing_new() {
    let clock = TestClock::new();
    let source = Signal::new(1);
    let debounced = Debounced::new(&clock.clock(), ms(10), {
        let s = source.clone();
        move || s.get()
    });
    let runs = count_runs({
        let d = debounced.clone();
        move || {
            d.get();
        }
    });
    source.set(2);
    source.set(1);
    clock.advance(ms(10));
    assert_eq!((debounced.get(), runs.get()), (1, 1));
}

#[test]
fn a_throttled_value_passes_the_leading_edge_at_once_and_the_newest_at_the_trailing_edge() {
    let clock = TestClock::new();
    let source = Signal::new(0);
    let throttled = Throttled::new(&clock.clock(), ms(100), {
        let s = source.clone();
        move || s.get()
    });
    let seen = log();
    ranvier::Effect::new({
        let (t, seen) = (throttled.clone(), seen.clone());
        move || seen.borrow_mut().push(t.get())
    });
    // Within 100 ms of the start (when 0 was passed): held.
    clock.advance(ms(40));
    source.set(1);
    clock.advance(ms(40));
    source.set(2);
    assert_eq!(throttled.get(), 0);
    clock.advance(ms(20)); // t = 100: the trailing edge passes the newest
    assert_eq!(throttled.get(), 2);
    clock.advance(ms(150)); // t = 250: quiet for longer than the interval
    source.set(3); // the leading edge: at once
    assert_eq!(throttled.get(), 3);
    source.set(4);
    source.set(5);
    clock.advance(ms(99));
    assert_eq!(throttled.get(), 3);
    clock.advance(ms(1)); // t = 350
    assert_eq!(throttled.get(), 5);
    assert_eq!(*seen.borrow(), [0, 2, 3, 5]);
}

#[test]
fn a_steady_stream_through_a_throttle_comes_out_once_per_interval() {
    let clock = TestClock::new();
    let source = Signal::new(0);
    let throttled = Throttled::new(&clock.clock(), ms(100), {
        let s = source.clone();
        move || s.get()
    });
    let passed = log();
    ranvier::Effect::new({
        let (t, passed, clock) = (throttled.clone(), passed.clone(), clock.clone());
        move || passed.borrow_mut().push((clock.now().as_millis(), t.get()))
    });
    for v in 1..=10 {
        clock.advance(ms(25));
        source.set(v);
    }
    clock.advance(ms(100));
    assert_eq!(*passed.borrow(), [(0, 0), (100, 3), (200, 7), (300, 10)]);
}

#[test]
fn disposing_a_timed_node_or_its_owner_cancels_its_timer() {
    let clock = TestClock::new();
    let source = Signal::new(0);
    let debounced = Debounced::new(&clock.clock(), ms(10), {
        let s = source.clone();
        move || s.get()
    });
    source.set(1);
    assert_eq!(clock.timers(), 1);
    debounced.dispose();
    assert_eq!(clock.timers(), 0);
    source.set(2);
    clock.advance(ms(10));
    assert_eq!(debounced.get(), 0, "stopped following the source");

    let (throttled, scope) = create_root(|_| {
        let s = source.clone();
        Throttled::new(&clock.clock(), ms(10), move || s.get())
    });
    source.set(3);
    assert_eq!(clock.timers(), 1);
    scope.dispose();
    assert_eq!(clock.timers(), 0);
    clock.advance(ms(10));
    assert_eq!(throttled.get(), 2);
}

#[test]
fn timing_says_what_a_timed_node_holds_waits_to_pass_and_when_it_fires() {
    use ranvier::timed::Timing;
    let clock = TestClock::new();
    let source = Signal::new(0);
    let debounced = Debounced::new(&clock.clock(), ms(50), {
        let s = source.clone();
        move || s.get()
    });
    let throttled = Throttled::new(&clock.clock(), ms(100), {
        let s = source.clone();
        move || s.get()
    });
    clock.advance(ms(20));
    source.set(1);
    clock.advance(ms(20));
    source.set(2);
    let waiting = |fires_at| Timing {
        holds: 0,
        waiting: Some(2),
        fires_at: Some(ms(fires_at)),
    };
    assert_eq!(debounced.timing(), waiting(90), "restarted at 40 ms");
    assert_eq!(
        throttled.timing(),
        waiting(100),
        "the newest value, at the end of the interval"
    );
    clock.advance(ms(60));
    let settled = Timing {
        holds: 2,
        waiting: None,
        fires_at: None,
    };
    assert_eq!(
        (debounced.timing(), throttled.timing()),
        (settled.clone(), settled)
    );
}

#[test]
fn a_disposed_timed_node_is_freed_with_its_last_handle() {
    let clock = TestClock::new();
    let token = Rc::new(7);
    let source = Signal::new(token.clone());
    let held_by_us = Rc::strong_count(&token);
    let (debounced, scope) = create_root(|_| {
        let s = source.clone();
        Debounced::new(&clock.clock(), ms(10), move || s.get())
    });
    let throttled = Throttled::new(&clock.clock(), ms(10), {
        let s = source.clone();
        move || s.get()
    });
    assert!(Rc::strong_count(&token) > held_by_us);
    scope.dispose();
    throttled.dispose();
    drop((debounced, throttled));
    assert_eq!(
        Rc::strong_count(&token),
        held_by_us,
        "nothing else holds the value"
    );
}

#[cfg(feature = "host")]
#[test]
fn under_a_graph_host_a_debounce_fires_on_tokios_timers() {
    use ranvier::host::GraphHost;
    use ranvier::timed::Clock;
    use std::time::Duration;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_time()
        .build()
        .expect("a runtime");
    let _entered = runtime.enter();
    let (seen, values) = std::sync::mpsc::channel();
    let host = GraphHost::start(move || {
        let source = Signal::new(0);
        let debounced = Debounced::new(&Clock::tokio(), ms(20), {
            let s = source.clone();
            move || s.get()
        });
        ranvier::Effect::new({
            let d = debounced.clone();
            move || {
                let _ = seen.send(d.get());
            }
        });
        Ok::<_, std::convert::Infallible>((source, debounced))
    })
    .expect("the host starts");
    // Waits for the graph thread's effect to report (no sleep: the timer's firing is what ends the wait).
    let next = || values.recv_timeout(Duration::from_secs(10));
    assert_eq!(next(), Ok(0));
    host.invoke(|(source, _)| {
        source.set(1);
        source.set(2);
    })
    .wait()
    .expect("written");
    assert_eq!(
        next(),
        Ok(2),
        "one value for the burst, once tokio's timer fired"
    );
    assert!(!host.invoke(|(_, d)| d.is_waiting()).wait().expect("read"));
}

// ---------------------------------------------------------------------------------------------------------------
// #[expose] and #[node]
// ---------------------------------------------------------------------------------------------------------------

#[cfg(feature = "exposure")]
mod exposed {
    use ranvier::exposure::{ExposeError, Exposure};
    use ranvier::host::GraphHost;
    use ranvier::timed::{Debounced, TestClock};
    use ranvier::{
        AnyNode, Boundary, Draft, Editable, EffectOn, Expose, Failure, Signal, expose, node,
    };
    use serde_json::json;

    #[expose]
    struct Form {
        #[expose]
        #[node]
        name: Draft<String>,
        #[expose]
        #[node]
        quantity: Editable<i64>,
        #[node]
        autosave: EffectOn<i64>,
        #[expose]
        #[node]
        settled: Debounced<i64>,
        #[expose]
        #[node]
        checked: Boundary<i64>,
        saved: Signal<i64>,
        clock: TestClock,
    }

    #[node]
    fn form() -> Form {
        let saved = Signal::new(2_i64);
        let name = Draft::new(|_| "Ada".to_string());
        let quantity = Editable::new({
            let saved = saved.clone();
            move |_| saved.get()
        });
        let autosave = EffectOn::new(
            {
                let quantity = quantity.clone();
                move || quantity.get()
            },
            |_: &i64, _: Option<&i64>| {},
        );
        let clock = TestClock::new();
        let settled = Debounced::new(&clock.clock(), std::time::Duration::from_millis(10), {
            let saved = saved.clone();
            move || saved.get()
        });
        let checked = Boundary::catch(|_| -1, {
            let saved = saved.clone();
            move || match saved.get() {
                v if v > 100 => Err(Failure::new("over 100").into()),
                v => Ok(v),
            }
        });
        Form {
            name,
            quantity,
            autosave,
            settled,
            checked,
            saved,
            clock,
        }
    }

    #[test]
    fn an_exposed_draft_and_editable_publish_their_value_and_dirty_flag_and_node_names_the_new_kinds()
     {
        let host = GraphHost::start(|| {
            let form = form();
            let mut exposure = Exposure::new();
            form.expose(&mut exposure)?;
            Ok::<_, ExposeError>((form, exposure.start()?))
        })
        .expect("the host starts");
        let handle = host
            .invoke(|(_, handle)| handle.clone())
            .wait()
            .expect("handle");
        let snapshot = handle.snapshot();
        assert_eq!(
            snapshot.get("name"),
            Some(&json!({"value": "Ada", "dirty": false}))
        );
        assert_eq!(
            snapshot.get("quantity"),
            Some(&json!({"value": 2, "dirty": false}))
        );
        assert_eq!(
            snapshot.get("autosave"),
            None,
            "a node without a value is not a value"
        );
        assert_eq!(snapshot.get("settled"), Some(&json!(2)));
        assert_eq!(snapshot.get("checked"), Some(&json!(2)));

        host.invoke(|(form, _)| {
            form.name.set("Ada L".into());
            form.quantity.set(5);
        })
        .wait()
        .expect("edited");
        let snapshot = handle.snapshot();
        assert_eq!(
            snapshot.get("name"),
            Some(&json!({"value": "Ada L", "dirty": true}))
        );
        assert_eq!(
            snapshot.get("quantity"),
            Some(&json!({"value": 5, "dirty": true}))
        );

        // The seed moves: the editable's edit is dropped, the draft's is kept.
        host.invoke(|(form, _)| form.saved.set(3))
            .wait()
            .expect("saved");
        let snapshot = handle.snapshot();
        assert_eq!(
            snapshot.get("quantity"),
            Some(&json!({"value": 3, "dirty": false}))
        );
        assert_eq!(
            snapshot.get("name"),
            Some(&json!({"value": "Ada L", "dirty": true}))
        );
        assert_eq!(
            snapshot.get("settled"),
            Some(&json!(2)),
            "the debounce waits"
        );
        host.invoke(|(form, _)| form.clock.advance(std::time::Duration::from_millis(10)))
            .wait()
            .expect("advanced");
        assert_eq!(handle.snapshot().get("settled"), Some(&json!(3)));
        host.invoke(|(form, _)| form.saved.set(101))
            .wait()
            .expect("saved");
        assert_eq!(
            handle.snapshot().get("checked"),
            Some(&json!({"value": -1, "caught": "over 100"}))
        );

        let ids = host
            .invoke(|(form, _)| {
                (
                    form.name.node_id(),
                    form.quantity.node_id(),
                    form.autosave.node_id(),
                    form.settled.node_id(),
                    form.checked.node_id(),
                )
            })
            .wait()
            .expect("ids");
        assert_eq!(handle.node("name"), Some(ids.0));
        assert_eq!(handle.node("quantity"), Some(ids.1));
        assert_eq!(handle.node("autosave"), Some(ids.2));
        assert_eq!(handle.node("settled"), Some(ids.3));
        assert_eq!(handle.node("checked"), Some(ids.4));
        #[cfg(any(debug_assertions, feature = "trace"))]
        {
            let text = host
                .invoke(|(form, _)| ranvier::trace::explain(&form.autosave).map(|e| e.to_string()))
                .wait()
                .expect("explained")
                .expect("traced");
            assert!(text.contains("autosave#"), "{text}");
        }
    }
}

#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
fn explain_names_the_line_that_made_a_timed_node_for_its_timed_writes() {
    let clock = TestClock::new();
    let source = Signal::new(0);
    let line = line!() + 1;
    let debounced = Debounced::new(&clock.clock(), ms(10), {
        let s = source.clone();
        move || s.get()
    })
    .labelled("settled");
    source.set(1);
    clock.advance(ms(10));
    let text = ranvier::trace::explain(&debounced)
        .expect("traced")
        .to_string();
    // The timer's write is the cause, recorded at the line that made the node.
    assert!(text.contains("\nwhy: write settled#"), "{text}");
    assert!(
        text.contains(&format!("= 1 at kinds_tests.rs:{line} ")),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Boundaries
// ---------------------------------------------------------------------------------------------------------------

/// An async source as a boundary body reads it: `?` on `suspend`.
fn quote(source: &AsyncSource<i32>) -> impl FnMut() -> Result<i32, Interrupt> + 'static {
    let source = source.clone();
    move || source.get().suspend()
}

#[test]
fn a_suspense_boundary_shows_its_fallback_while_a_read_in_its_body_is_pending() {
    let price = AsyncSource::<i32>::new();
    let shown = Boundary::suspense(-1, quote(&price));
    assert_eq!(shown.get(), -1);
    assert_eq!(shown.state(), BoundaryState::Waiting { fallback: -1 });
    price.settle(120);
    assert_eq!(shown.get(), 120);
    assert_eq!(shown.state(), BoundaryState::Ready(120));
    price.set_pending();
    assert!(
        shown.state().is_waiting(),
        "pending again: the fallback again"
    );
}

#[test]
fn a_suspense_boundary_fails_on_a_failure_it_does_not_catch() {
    let price = AsyncSource::<i32>::new();
    let shown = Boundary::suspense(-1, quote(&price));
    price.fail("offline");
    let error = shown.error_after_read();
    assert!(error.contains("offline"), "{error}");
    assert!(matches!(shown.read(), Err(Interrupt::Failed(f)) if f.message.contains("offline")));
}

trait ErrorAfterRead {
    fn error_after_read(&self) -> String;
}

impl<T: Clone + std::fmt::Debug + 'static> ErrorAfterRead for Boundary<T> {
    fn error_after_read(&self) -> String {
        let _ = self.read();
        self.error().map(|e| e.message).unwrap_or_default()
    }
}

#[test]
fn an_error_boundary_recovers_a_failed_read_and_a_panic_into_a_value() {
    let price = AsyncSource::<i32>::new();
    price.settle(5);
    let divisor = Signal::new(1);
    let seen = log();
    let shown = Boundary::catch(
        {
            let seen = seen.clone();
            move |failure: &Failure| {
                seen.borrow_mut()
                    .push((failure.node, failure.message.clone()));
                0
            }
        },
        {
            let (price, divisor) = (price.clone(), divisor.clone());
            move || {
                let d = divisor.get();
                assert!(d != 0, "divisor is zero");
                Ok(price.get().suspend()? / d)
            }
        },
    );
    assert_eq!(shown.get(), 5);
    price.fail("offline");
    assert_eq!(shown.get(), 0);
    assert_eq!(seen.borrow()[0], (Some(price.id()), "offline".to_string()));
    price.settle(10);
    divisor.set(0);
    assert_eq!(shown.get(), 0);
    assert_eq!(
        shown.state().caught().map(|f| f.node),
        Some(None),
        "a panic of the body itself"
    );
    assert!(
        seen.borrow()[1].1.contains("divisor is zero"),
        "{:?}",
        seen.borrow()
    );
    divisor.set(2);
    assert_eq!(shown.state(), BoundaryState::Ready(5));
}

#[test]
fn an_error_boundary_without_fallback_is_pending_and_interrupts_an_outer_suspense() {
    let price = AsyncSource::<i32>::new();
    let inner = Boundary::catch(|_| 0, quote(&price));
    assert_eq!(inner.state(), BoundaryState::Pending);
    assert_eq!(inner.read(), Err(Interrupt::Pending));
    let outer = Boundary::suspense(-1, {
        let inner = inner.clone();
        move || inner.read()
    });
    assert_eq!(outer.get(), -1);
    price.settle(7);
    assert_eq!(outer.get(), 7);
}

#[test]
fn a_boundary_catching_both_shows_fallback_then_value_then_recovered_value() {
    let price = AsyncSource::<i32>::new();
    let shown = Boundary::new(-1, |failure| failure.message.len() as i32, quote(&price));
    let states = log();
    let _watch = Effect::new({
        let (shown, states) = (shown.clone(), states.clone());
        move || states.borrow_mut().push(format!("{:?}", shown.state()))
    });
    price.settle(3);
    price.fail("gone");
    price.settle(3);
    assert_eq!(
        *states.borrow(),
        ["-1 (waiting)", "3", "4 (caught: \"gone\")", "3"]
    );
}

#[test]
fn a_boundary_owns_the_nodes_of_its_body_and_disposes_them_with_itself() {
    let n = Signal::new(1);
    let cleanups = log();
    let effect_runs = Rc::new(Cell::new(0));
    let shown = Boundary::suspense(0, {
        let (n, cleanups, effect_runs) = (n.clone(), cleanups.clone(), effect_runs.clone());
        move || {
            let v = n.get();
            let cleanups = cleanups.clone();
            on_cleanup(move || cleanups.borrow_mut().push(v));
            let (n, effect_runs) = (n.clone(), effect_runs.clone());
            Effect::new(move || {
                n.get();
                effect_runs.set(effect_runs.get() + 1);
            });
            Ok(v)
        }
    });
    assert_eq!(shown.get(), 1);
    n.set(2);
    assert_eq!(shown.get(), 2);
    assert_eq!(
        *cleanups.borrow(),
        [1],
        "the first run's nodes went before the second run"
    );
    shown.dispose();
    assert_eq!(
        *cleanups.borrow(),
        [1, 2],
        "the last run's nodes went with the boundary"
    );
    let before = effect_runs.get();
    n.set(3);
    assert_eq!(effect_runs.get(), before, "the body's effect is disposed");
    assert_eq!(
        shown.state(),
        BoundaryState::Ready(2),
        "a disposed boundary keeps its state"
    );
}

#[test]
fn a_boundary_made_inside_a_scope_goes_with_the_scope() {
    let n = Signal::new(1);
    let cleanups = Rc::new(Cell::new(0));
    let (shown, scope) = create_root(|_| {
        Boundary::suspense(0, {
            let (n, cleanups) = (n.clone(), cleanups.clone());
            move || {
                let cleanups = cleanups.clone();
                on_cleanup(move || cleanups.set(cleanups.get() + 1));
                Ok(n.get())
            }
        })
    });
    assert_eq!(shown.get(), 1);
    scope.dispose();
    assert_eq!(cleanups.get(), 1);
    n.set(2);
    assert_eq!(shown.runs(), 1, "disposed: never runs again");
}

#[test]
fn a_boundary_cutoff_compares_the_state_and_the_caught_failure_not_only_the_value() {
    let price = AsyncSource::<i32>::new();
    price.settle(0);
    let tick = Signal::new(0);
    // A recovered value and a fallback equal to the value shown before: the state changed, so readers wake.
    let shown = Boundary::new(0, |_| 0, {
        let (price, tick) = (price.clone(), tick.clone());
        move || {
            tick.get();
            price.get().suspend()
        }
    });
    let runs = count_runs({
        let shown = shown.clone();
        move || {
            let _ = shown.state();
        }
    });
    tick.set(1);
    assert_eq!(
        (shown.runs(), runs.get()),
        (2, 1),
        "a re-run to an equal value is cut off"
    );
    price.set_pending();
    assert_eq!(runs.get(), 2, "ready 0 → waiting 0 wakes");
    tick.set(2);
    assert_eq!(runs.get(), 2, "still waiting, same fallback: cut off");
    price.fail("a");
    assert_eq!(runs.get(), 3, "waiting 0 → caught 0 wakes");
    tick.set(3);
    assert_eq!(
        runs.get(),
        3,
        "the same failure caught, the same value: cut off"
    );
    price.fail("b");
    assert_eq!(
        runs.get(),
        4,
        "another failure caught wakes, though the value is the same"
    );
    price.settle(0);
    assert_eq!(runs.get(), 5, "caught → ready wakes");
}

#[test]
fn state_changes_wake_the_readers_whatever_the_comparer_says() {
    let price = AsyncSource::<i32>::new();
    price.settle(1);
    let compared = Rc::new(Cell::new(0));
    let shown = Boundary::new(1, |_| 1, quote(&price)).compared_by({
        let compared = compared.clone();
        move |_, _| {
            compared.set(compared.get() + 1);
            true // "always equal"
        }
    });
    let runs = count_runs({
        let shown = shown.clone();
        move || {
            let _ = shown.state();
        }
    });
    price.settle(2);
    assert_eq!(
        (runs.get(), shown.get()),
        (1, 1),
        "same state, comparer says equal: kept"
    );
    assert_eq!(compared.get(), 1);
    price.set_pending();
    price.fail("x");
    price.settle(3);
    assert_eq!(runs.get(), 4, "pending, failure and the way back all wake");
    assert_eq!(compared.get(), 1, "the comparer is not asked across states");
}

#[test]
fn an_uncaught_failure_propagates_to_the_readers_whatever_the_comparer_says() {
    let price = AsyncSource::<i32>::new();
    price.settle(1);
    let shown = Boundary::suspense(0, quote(&price)).compared_by(|_, _| true);
    let failures = log();
    let _watch = Effect::new({
        let (shown, failures) = (shown.clone(), failures.clone());
        move || failures.borrow_mut().push(shown.read().is_err())
    });
    price.fail("down");
    price.settle(1);
    assert_eq!(*failures.borrow(), [false, true, false]);
}

#[test]
fn a_panicking_boundary_comparer_fails_the_boundary_without_calling_recover() {
    let n = Signal::new(1);
    let recovered = Rc::new(Cell::new(0));
    let shown = Boundary::catch(
        {
            let recovered = recovered.clone();
            move |_| {
                recovered.set(recovered.get() + 1);
                0
            }
        },
        {
            let n = n.clone();
            move || Ok(n.get())
        },
    )
    .compared_by(|_, _| panic!("no order"));
    assert_eq!(shown.get(), 1);
    n.set(2);
    let error = shown.error_after_read();
    assert!(
        error.contains("the comparer panicked (no order)"),
        "{error}"
    );
    assert_eq!(
        recovered.get(),
        0,
        "recover is not called for a comparer's panic"
    );
    let _ = take_errors();
}

#[test]
fn a_failure_returned_without_panicking_is_caught_like_one_read() {
    let text = Signal::new("12".to_string());
    let parsed = Boundary::catch(|f| -(f.message.len() as i32), {
        let text = text.clone();
        move || {
            text.get()
                .parse::<i32>()
                .map_err(|e| Interrupt::Failed(Failure::new(e.to_string())))
        }
    });
    assert_eq!(parsed.get(), 12);
    text.set("x".into());
    assert_eq!(
        parsed.get(),
        -("invalid digit found in string".len() as i32)
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Timers in the trace
// ---------------------------------------------------------------------------------------------------------------

/// The timer events of `node` in the trace: what, when (ms on its clock), when due, and the value.
#[cfg(any(debug_assertions, feature = "trace"))]
fn timer_events(
    node: ranvier::NodeId,
) -> Vec<(ranvier::trace::TimerEvent, u128, u128, Option<String>)> {
    use ranvier::trace::{self, EventKind};
    trace::events()
        .into_iter()
        .filter_map(|event| match event.kind {
            EventKind::Timer {
                node: n,
                what,
                at,
                due,
                value,
            } if n == node => Some((
                what,
                at.as_millis(),
                due.as_millis(),
                value.as_deref().map(str::to_owned),
            )),
            _ => None,
        })
        .collect()
}

#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
fn a_debounced_node_s_schedule_cancel_and_fire_are_trace_events_and_the_fire_causes_its_write() {
    use ranvier::trace::{self, EventKind, TimerEvent::*};
    let clock = TestClock::new();
    let source = Signal::new(0);
    let d = Debounced::new(&clock.clock(), ms(100), {
        let s = source.clone();
        move || s.get()
    })
    .labelled("search");
    source.set(1);
    clock.advance(ms(50));
    source.set(2); // restarts the wait: the first timer is cancelled
    clock.advance(ms(100));
    let some = |s: &str| Some(s.to_owned());
    assert_eq!(
        timer_events(d.id()),
        [
            (Schedule, 0, 100, some("1")),
            (Cancel, 50, 100, some("1")),
            (Schedule, 50, 150, some("2")),
            (Fire, 150, 150, some("2")),
        ]
    );
    let events = trace::events();
    let fire = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Timer { what: Fire, .. }))
        .expect("a fire");
    let schedule = events
        .iter()
        .rfind(|e| matches!(e.kind, EventKind::Timer { what: Schedule, .. }))
        .expect("a schedule");
    assert_eq!(fire.cause, schedule.seq, "a fire is caused by its schedule");
    let write = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Write { node, moved: true, .. } if node == d.id()))
        .expect("the timer's write");
    assert_eq!(write.cause, fire.seq, "the write is caused by the fire");
    let rendered = trace::render_events(&events);
    assert!(
        rendered.contains("timer of search#")
            && rendered.contains("cancelled at 50 ms (was due at 100 ms, dropped 1)")
            && rendered.contains("fired at 150 ms: passed 2"),
        "{rendered}"
    );
    let dump = trace::dump().expect("traced");
    assert!(
        dump.contains(r#""kind":"TimerFire""#) && dump.contains(r#""dueUs":150000"#),
        "{dump}"
    );
}

#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
fn a_throttled_node_s_trailing_value_replaced_while_its_timer_waits_is_a_trace_event() {
    use ranvier::trace::TimerEvent::*;
    let clock = TestClock::new();
    let source = Signal::new(0);
    let t = Throttled::new(&clock.clock(), ms(100), {
        let s = source.clone();
        move || s.get()
    });
    clock.advance(ms(100));
    source.set(1); // passes at once: no timer
    source.set(2); // held: a timer for the trailing edge
    source.set(3); // the timer will pass 3 instead
    clock.advance(ms(100));
    let some = |s: &str| Some(s.to_owned());
    assert_eq!(
        timer_events(t.id()),
        [
            (Schedule, 100, 200, some("2")),
            (Replace, 100, 200, some("3")),
            (Fire, 200, 200, some("3")),
        ]
    );
}

#[cfg(any(debug_assertions, feature = "trace"))]
#[test]
fn trace_timing_says_what_a_timed_node_holds_waits_for_and_when_it_fires() {
    use ranvier::trace;
    let clock = TestClock::new();
    let source = Signal::new(0);
    let d = Debounced::new(&clock.clock(), ms(300), {
        let s = source.clone();
        move || s.get()
    })
    .labelled("search");
    let text = trace::timing(&d).expect("traced").to_string();
    assert!(
        text.contains("holds 0; the log holds no timer event"),
        "{text}"
    );
    source.set(7);
    clock.advance(ms(100));
    let timing = trace::timing(&d).expect("traced");
    let (mark, due) = timing.waiting.clone().expect("a timer waits");
    assert_eq!((mark.value.as_deref(), due), (Some("7"), ms(300)));
    let text = timing.to_string();
    assert!(
        text.starts_with("search#")
            && text.contains(
                "holds 0; its timer waits to pass 7 at 300 ms on its clock (set at 0 ms, #"
            ),
        "{text}"
    );
    clock.advance(ms(200));
    let text = trace::timing(&d).expect("traced").to_string();
    assert!(
        text.contains("holds 7; no timer waits\n  last fired at 300 ms, passing 7 (#"),
        "{text}"
    );
    source.set(8);
    assert!(trace::timing(&d).expect("traced").waiting.is_some());
    d.dispose(); // cancels the timer
    let timing = trace::timing(&d).expect("traced");
    assert!(timing.waiting.is_none(), "{timing}");
    assert_eq!(timing.events, 4, "schedule, fire, schedule, cancel");
}

#[cfg(not(any(debug_assertions, feature = "trace")))]
#[test]
fn trace_timing_answers_not_traced_in_an_untraced_build() {
    let clock = TestClock::new();
    let d = Debounced::new(&clock.clock(), ms(10), || 1);
    assert!(matches!(
        ranvier::trace::timing(&d),
        Err(ranvier::trace::TraceError::NotTraced)
    ));
}
