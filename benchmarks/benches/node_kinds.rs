//! The node kinds built on the core ones, beside F# Ranvier's benchmark groups of the same names: `Boundary`,
//! `Timed`, `Editable`, and `EffectOn` beside reactive_graph 0.2's `Effect::watch` (with `--features compare`), in
//! one process, on one thread.
//!
//! Cases (each checks its answer before it is timed; a repetition is [`OPS`] operations):
//! - `memo`: a write to a signal and a read of a memo over it: the baseline of `boundary`;
//! - `boundary`: the same through a suspense boundary (`Boundary::suspense`) whose body reads the signal;
//! - `suspense`: an async source under a suspense boundary going pending, then settling: two reads, one showing
//!   the fallback and one the value;
//! - `catch`: a boundary whose body fails on every other write (a returned failure), recovered and read;
//! - `timed`: a burst of 10 writes under a `Debounced` on a test clock, then the clock advanced past the delay: the
//!   timer fires once and passes the last value (per burst);
//! - `editable`: an edit of an `Editable` over a memo seed, the value and dirty flag read, then a revert and the
//!   two read again;
//! - `effect_on`: a write that moves the watched value, acted on. ranvier's `EffectOn` runs synchronously at the
//!   end of the write; reactive_graph's `Effect::watch` is a task on `any_spawner`'s executor (here the futures
//!   crate's single-thread `LocalPool`), run by `Executor::poll_local` after each write.
//!
//! ```sh
//! cargo bench -p ranvier-benchmarks --features compare --bench node_kinds                 # time, every case
//! cargo bench -p ranvier-benchmarks --features compare --bench node_kinds -- effect_on     # one case
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*timed_region*' \
//!     target/release/deps/node_kinds-* boundary ranvier --reps 20                     # instructions of one case
//! ```

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use ranvier_benchmarks::harness::timed_region;

/// Operations per repetition.
const OPS: u64 = 1_000;
/// Writes per burst in `timed`.
const BURST: u64 = 10;

mod ranvier_lib {
    use super::*;
    use ranvier::timed::{Debounced, TestClock};
    use ranvier::{AsyncSource, Boundary, Editable, EffectOn, Failure, Interrupt, Memo, Signal};

    pub const NAME: &str = "ranvier";

    pub fn case(name: &str) -> Option<Box<dyn FnMut(u64)>> {
        Some(match name {
            "memo" => memo(),
            "boundary" => boundary(),
            "suspense" => suspense(),
            "catch" => catch(),
            "timed" => timed(),
            "editable" => editable(),
            "effect_on" => effect_on(),
            _ => return None,
        })
    }

    fn memo() -> Box<dyn FnMut(u64)> {
        let s = Signal::new(0_u64);
        let m = Memo::new({
            let s = s.clone();
            move |_| s.get() * 2
        });
        Box::new(move |i| {
            for k in 0..OPS {
                s.set(i * OPS + k + 1);
                black_box(m.get());
            }
            assert_eq!(m.get(), (i * OPS + OPS) * 2);
        })
    }

    fn boundary() -> Box<dyn FnMut(u64)> {
        let s = Signal::new(0_u64);
        let b = Boundary::suspense(0, {
            let s = s.clone();
            move || Ok(s.get() * 2)
        });
        Box::new(move |i| {
            for k in 0..OPS {
                s.set(i * OPS + k + 1);
                black_box(b.get());
            }
            assert_eq!(b.get(), (i * OPS + OPS) * 2);
        })
    }

    fn suspense() -> Box<dyn FnMut(u64)> {
        let source = AsyncSource::<u64>::new();
        let b = Boundary::suspense(u64::MAX, {
            let source = source.clone();
            move || source.get().suspend()
        });
        Box::new(move |i| {
            for k in 0..OPS {
                source.set_pending();
                assert_eq!(b.get(), u64::MAX);
                source.settle(i * OPS + k);
                black_box(b.get());
            }
            assert_eq!(b.get(), i * OPS + OPS - 1);
        })
    }

    fn catch() -> Box<dyn FnMut(u64)> {
        let s = Signal::new(0_u64);
        let b = Boundary::catch(|_| u64::MAX, {
            let s = s.clone();
            move || {
                let v = s.get();
                if v % 2 == 1 {
                    return Err(Interrupt::Failed(Failure::new("odd")));
                }
                Ok(v)
            }
        });
        Box::new(move |i| {
            for k in 0..OPS {
                s.set(i * OPS + k + 1);
                black_box(b.get());
            }
            let last = i * OPS + OPS;
            assert_eq!(b.get(), if last % 2 == 1 { u64::MAX } else { last });
        })
    }

    fn timed() -> Box<dyn FnMut(u64)> {
        let clock = TestClock::new();
        let s = Signal::new(0_u64);
        let d = Debounced::new(&clock.clock(), Duration::from_millis(300), {
            let s = s.clone();
            move || s.get()
        });
        Box::new(move |i| {
            for burst in 0..OPS / BURST {
                for k in 0..BURST {
                    s.set(i * OPS + burst * BURST + k + 1);
                    clock.advance(Duration::from_millis(10));
                }
                clock.advance(Duration::from_millis(300));
                black_box(d.get());
            }
            assert_eq!(d.get(), i * OPS + OPS);
        })
    }

    fn editable() -> Box<dyn FnMut(u64)> {
        let s = Signal::new(0_u64);
        let e = Editable::new({
            let s = s.clone();
            move |_| s.get()
        });
        Box::new(move |i| {
            s.set(i);
            for k in 0..OPS {
                e.set(k + 1);
                black_box((e.get(), e.is_dirty()));
                e.revert();
                black_box((e.get(), e.is_dirty()));
            }
            assert_eq!((e.get(), e.is_dirty()), (i, false));
        })
    }

    fn effect_on() -> Box<dyn FnMut(u64)> {
        let s = Signal::new(0_u64);
        let sum = Rc::new(Cell::new(0_u64));
        let effect = EffectOn::new(
            {
                let s = s.clone();
                move || s.get()
            },
            {
                let sum = sum.clone();
                move |v: &u64, _: Option<&u64>| sum.set(sum.get() + v)
            },
        );
        Box::new(move |i| {
            let _keep = &effect;
            sum.set(0);
            for k in 0..OPS {
                s.set(i * OPS + k + 1);
            }
            assert_eq!(sum.get(), (1..=OPS).map(|k| i * OPS + k).sum::<u64>());
        })
    }
}

#[cfg(feature = "compare")]
mod leptos_lib {
    use super::*;
    use any_spawner::Executor;
    use reactive_graph::effect::Effect;
    use reactive_graph::owner::Owner;
    use reactive_graph::signal::RwSignal;
    use reactive_graph::traits::{Get, Set};

    pub const NAME: &str = "reactive_graph";

    use ranvier_benchmarks::single_thread::AssertSendSync;
    pub use ranvier_benchmarks::single_thread::init_executor as init;

    pub fn case(name: &str) -> Option<Box<dyn FnMut(u64)>> {
        if name != "effect_on" {
            return None;
        }
        let owner = Owner::new();
        let sum = Rc::new(Cell::new(0_u64));
        let (s, effect) = owner.with(|| {
            let s = RwSignal::new(0_u64);
            let record = AssertSendSync(sum.clone());
            let effect = Effect::watch(
                move || s.get(),
                move |v: &u64, _: Option<&u64>, _: Option<()>| {
                    let sum = record.get();
                    sum.set(sum.get() + v)
                },
                false,
            );
            (s, effect)
        });
        Executor::poll_local();
        Some(Box::new(move |i| {
            let _keep = (&owner, &effect);
            sum.set(0);
            for k in 0..OPS {
                s.set(i * OPS + k + 1);
                Executor::poll_local();
            }
            assert_eq!(sum.get(), (1..=OPS).map(|k| i * OPS + k).sum::<u64>());
        }))
    }
}

/// Runs `reps` repetitions of `case` after one warm-up, each inside [`timed_region`]; returns the fastest and the
/// total time.
fn run(mut case: Box<dyn FnMut(u64)>, reps: u64) -> (Duration, Duration) {
    case(0);
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    for i in 1..=reps {
        let ((), took) = timed_region(|| case(i));
        best = best.min(took);
        total += took;
    }
    (best, total)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    #[cfg(feature = "compare")]
    leptos_lib::init();
    let reps: u64 = match args.iter().position(|a| a == "--reps") {
        Some(i) => match args.get(i + 1).and_then(|n| n.parse().ok()) {
            Some(n) if n > 0 => n,
            _ => {
                eprintln!("--reps expects a whole number of repetitions above 0");
                std::process::exit(2);
            }
        },
        None => 50,
    };
    type Entry = (&'static str, fn(&str) -> Option<Box<dyn FnMut(u64)>>);
    #[cfg_attr(not(feature = "compare"), allow(unused_mut))]
    let mut libs: Vec<Entry> = vec![(ranvier_lib::NAME, ranvier_lib::case)];
    #[cfg(feature = "compare")]
    libs.push((leptos_lib::NAME, leptos_lib::case));
    let lib_names = ["ranvier", "reactive_graph"];
    let wanted_lib = |name: &str| {
        !args.iter().any(|a| lib_names.contains(&a.as_str())) || args.iter().any(|a| a == name)
    };
    let cases = [
        "memo",
        "boundary",
        "suspense",
        "catch",
        "timed",
        "editable",
        "effect_on",
    ];
    let wanted_case =
        |c: &str| !args.iter().any(|a| cases.contains(&a.as_str())) || args.iter().any(|a| a == c);
    println!("case , library , best ns per operation , mean ns ({reps} repetitions of {OPS})");
    for case in cases.iter().filter(|c| wanted_case(c)) {
        for (name, make) in &libs {
            if !wanted_lib(name) {
                continue;
            }
            let Some(made) = make(case) else { continue };
            let (best, total) = run(made, reps);
            println!(
                "{case} , {name} , {:.1} , {:.1}",
                best.as_secs_f64() * 1e9 / OPS as f64,
                total.as_secs_f64() * 1e9 / (reps * OPS) as f64
            );
        }
    }
}
