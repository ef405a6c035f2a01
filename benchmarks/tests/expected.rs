//! The suite's expected values hold: on the hand-written floor for every case, and on ranvier for every case small
//! enough for a debug build. A library that breaks one of these is reported as FAILED by the bench, not timed.

use ranvier_benchmarks::cases::{self, Case, Kind};
use ranvier_benchmarks::framework::{Counting, reset_runs, runs};
use ranvier_benchmarks::frameworks::ranvier::Ranvier;
use ranvier_benchmarks::harness::Params;
use ranvier_benchmarks::random::Sfc32;

/// One timed repetition after one warm-up (the dynamic graphs' counts hold from the second run on, which is why
/// the suite warms up), with 2 kairo `iter()` calls.
fn once() -> Params {
    Params {
        warmups: 1,
        repeats: 1,
        inner: 2,
    }
}

/// Deep graphs recurse: run on a thread with a big stack, as the bench binary does.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("test body passed");
}

fn case(name: &str) -> Case {
    cases::all()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

#[test]
fn prng_is_deterministic_and_in_range() {
    let mut a = Sfc32::from_seed("seed");
    let mut b = Sfc32::from_seed("seed");
    let xs: Vec<f64> = (0..1000).map(|_| a.next_f64()).collect();
    assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
    assert!(
        xs.iter()
            .zip((0..1000).map(|_| b.next_f64()))
            .all(|(x, y)| *x == y)
    );
    assert_ne!(Sfc32::from_seed("other").next_f64(), xs[0]);
}

#[test]
fn every_case_passes_on_the_floor() {
    for case in cases::all() {
        if let Err(e) = cases::run_floor(&case, once()) {
            panic!("floor failed {}: {e}", case.name);
        }
    }
}

#[test]
fn dynamic_graph_expectations_catch_a_wrong_answer() {
    // The same graph with a different iteration count must not match the suite's sum: the check has teeth.
    let mut c = case("4-1000x12 - dyn5%");
    if let Kind::Dynamic(config) = &mut c.kind {
        config.iterations -= 1;
    }
    assert!(cases::run_floor(&c, once()).is_err());
}

#[test]
fn kairo_and_cellx_pass_on_ranvier() {
    big_stack(|| {
        for case in cases::all()
            .into_iter()
            .filter(|c| matches!(c.kind, Kind::Kairo(_) | Kind::Cellx(1000)))
        {
            if let Err(e) = cases::run::<Ranvier>(&case, once()) {
                panic!("ranvier failed {}: {e}", case.name);
            }
        }
    });
}

#[test]
fn ranvier_meets_a_dynamic_graph_sum_and_count() {
    if let Err(e) = cases::run::<Ranvier>(&case("6-100x15 - dyn50%"), once()) {
        panic!("ranvier failed 6-100x15 - dyn50%: {e}");
    }
}

#[test]
fn ranvier_update_batches_reach_effects() {
    for name in ["update1to1", "update1000to1", "update1to4", "create1to8"] {
        if let Err(e) = cases::run::<Ranvier>(
            &case(name),
            Params {
                warmups: 0,
                repeats: 1,
                inner: 1,
            },
        ) {
            panic!("ranvier failed {name}: {e}");
        }
    }
}

#[test]
fn counting_counts_node_runs() {
    reset_runs();
    cases::run::<Counting<Ranvier>>(
        &case("deepPropagation"),
        Params {
            warmups: 0,
            repeats: 1,
            inner: 1,
        },
    )
    .expect("deepPropagation passes");
    // Build: 50 computeds + 1 effect; one iter: 51 writes, each re-running 50 computeds and the effect.
    assert_eq!(runs(), 51 + 51 * 51);
}
