//! Async nodes: ranvier's `AsyncMemo` beside reactive_graph 0.2's `AsyncDerived` (with `--features compare`), in
//! one process, on one thread.
//!
//! Cases (each checks its answer before it is timed):
//! - `create`: make an async memo over a signal, start its flight and let it settle, 1,000 per repetition (each
//!   repetition in a scope of its own, disposed after);
//! - `chain`: one write to the signal under an async memo, settled through a chain of 10 memos to an effect;
//! - `fanout`: one write to the signal under 1,000 async memos, each read by an effect: 1,000 concurrent flights
//!   settling;
//! - `--memory`: live heap bytes per settled async memo (10,000 of them, over one signal).
//!
//! The futures are ready at once (`async move { v + 1 }`): what is measured is the library's own cost of starting,
//! polling and settling a flight. reactive_graph spawns on `any_spawner`'s executor, here the futures crate's
//! single-thread `LocalPool`, drained with `Executor::poll_local`; ranvier's flights run with `graph::run_flights`.
//!
//! ```sh
//! cargo bench -p ranvier-benchmarks --features compare --bench async_nodes                 # time, every case
//! cargo bench -p ranvier-benchmarks --features compare --bench async_nodes -- --memory
//! valgrind --tool=callgrind --toggle-collect='*timed_region*' \
//!     target/release/deps/async_nodes-* chain ranvier --reps 200                     # instructions of one case
//! ```

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

use ranvier_benchmarks::harness::timed_region;
use ranvier_benchmarks::memory::{CountingAlloc, live_bytes};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// How many async memos `create` makes per repetition, and `fanout` has.
const WIDTH: usize = 1_000;
/// The length of the memo chain below the async memo in `chain`.
const DEPTH: usize = 10;

/// One library's three cases: each returns a closure that runs one repetition (and checks it).
trait Lib {
    const NAME: &'static str;
    fn create() -> Box<dyn FnMut(u64)>;
    fn chain() -> Box<dyn FnMut(u64)>;
    fn fanout() -> Box<dyn FnMut(u64)>;
    /// Builds `n` settled async memos over one signal and returns what keeps them alive.
    fn many(n: usize) -> Box<dyn std::any::Any>;
}

mod ranvier_lib {
    use super::*;
    use ranvier::{AsyncMemo, Effect, Memo, Signal, create_root, graph};

    pub struct Ranvier;

    impl Lib for Ranvier {
        const NAME: &'static str = "ranvier";

        fn create() -> Box<dyn FnMut(u64)> {
            Box::new(|i| {
                let (memos, scope) = create_root(|_| {
                    let source = Signal::new(i);
                    (0..WIDTH)
                        .map(|_| {
                            let source = source.clone();
                            AsyncMemo::new(move |_| {
                                let v = source.get();
                                async move { v + 1 }
                            })
                        })
                        .collect::<Vec<_>>()
                });
                for memo in &memos {
                    let _ = memo.get();
                }
                graph::run_flights();
                assert_eq!(memos[WIDTH - 1].get().ready(), Some(&(i + 1)));
                scope.dispose();
                black_box(memos);
            })
        }

        fn chain() -> Box<dyn FnMut(u64)> {
            let source = Signal::new(0_u64);
            let root = AsyncMemo::new({
                let source = source.clone();
                move |_| {
                    let v = source.get();
                    async move { v + 1 }
                }
            });
            let mut last = Memo::new({
                let root = root.clone();
                move |_| root.value_or(0)
            });
            for _ in 1..DEPTH {
                let prev = last.clone();
                last = Memo::new(move |_| prev.get() + 1);
            }
            let seen = Rc::new(Cell::new(0));
            let effect = Effect::new({
                let (last, seen) = (last.clone(), seen.clone());
                move || seen.set(last.get())
            });
            graph::run_flights();
            Box::new(move |i| {
                let _keep = (&root, &effect);
                source.set(i + 1);
                graph::run_flights();
                assert_eq!(seen.get(), i + 2 + (DEPTH as u64 - 1));
            })
        }

        fn fanout() -> Box<dyn FnMut(u64)> {
            let source = Signal::new(0_u64);
            let sum = Rc::new(Cell::new(0_u64));
            let nodes: Vec<(AsyncMemo<u64>, Effect)> = (0..WIDTH)
                .map(|_| {
                    let memo = AsyncMemo::new({
                        let source = source.clone();
                        move |_| {
                            let v = source.get();
                            async move { v + 1 }
                        }
                    });
                    let effect = Effect::new({
                        let (memo, sum) = (memo.clone(), sum.clone());
                        move || sum.set(sum.get() + memo.value_or(0))
                    });
                    (memo, effect)
                })
                .collect();
            graph::run_flights();
            Box::new(move |i| {
                let _keep = &nodes;
                sum.set(0);
                source.set(i + 1);
                graph::run_flights();
                // each effect ran twice: pending (0), then settled (i + 2)
                assert_eq!(sum.get(), WIDTH as u64 * (i + 2));
            })
        }

        fn many(n: usize) -> Box<dyn std::any::Any> {
            let source = Signal::new(1_u64);
            let memos: Vec<AsyncMemo<u64>> = (0..n)
                .map(|_| {
                    let source = source.clone();
                    AsyncMemo::new(move |_| {
                        let v = source.get();
                        async move { v + 1 }
                    })
                })
                .collect();
            for memo in &memos {
                let _ = memo.get();
            }
            graph::run_flights();
            assert_eq!(memos[n - 1].peek().ready(), Some(&2));
            Box::new((source, memos))
        }
    }
}

#[cfg(feature = "compare")]
mod leptos_lib {
    use super::*;
    use any_spawner::Executor;
    use reactive_graph::computed::{AsyncDerived, Memo};
    use reactive_graph::effect::ImmediateEffect;
    use reactive_graph::owner::Owner;
    use reactive_graph::signal::RwSignal;
    use reactive_graph::traits::{Get, GetUntracked, Set};

    use ranvier_benchmarks::single_thread::AssertSendSync;
    pub use ranvier_benchmarks::single_thread::init_executor as init;

    pub struct Leptos;

    impl Lib for Leptos {
        const NAME: &'static str = "reactive_graph";

        fn create() -> Box<dyn FnMut(u64)> {
            Box::new(|i| {
                let owner = Owner::new();
                let memos = owner.with(|| {
                    let source = RwSignal::new(i);
                    (0..WIDTH)
                        .map(|_| {
                            AsyncDerived::new_unsync(move || {
                                let v = source.get();
                                async move { v + 1 }
                            })
                        })
                        .collect::<Vec<_>>()
                });
                Executor::poll_local();
                assert_eq!(memos[WIDTH - 1].get_untracked(), Some(i + 1));
                drop(owner);
                black_box(memos);
            })
        }

        fn chain() -> Box<dyn FnMut(u64)> {
            let owner = Owner::new();
            let seen = Rc::new(Cell::new(0));
            let (source, keep) = owner.with(|| {
                let source = RwSignal::new(0_u64);
                let root = AsyncDerived::new_unsync(move || {
                    let v = source.get();
                    async move { v + 1 }
                });
                let mut last = Memo::new(move |_| root.get().unwrap_or(0));
                for _ in 1..DEPTH {
                    let prev = last;
                    last = Memo::new(move |_| prev.get() + 1);
                }
                let record = AssertSendSync(seen.clone());
                // scoped to the owner, which the case keeps
                ImmediateEffect::new_scoped(move || record.get().set(last.get()));
                (source, root)
            });
            Executor::poll_local();
            Box::new(move |i| {
                let _keep = (&owner, &keep);
                source.set(i + 1);
                Executor::poll_local();
                assert_eq!(seen.get(), i + 2 + (DEPTH as u64 - 1));
            })
        }

        fn fanout() -> Box<dyn FnMut(u64)> {
            let owner = Owner::new();
            let sum = Rc::new(Cell::new(0_u64));
            let (source, keep) = owner.with(|| {
                let source = RwSignal::new(0_u64);
                let nodes: Vec<_> = (0..WIDTH)
                    .map(|_| {
                        let memo = AsyncDerived::new_unsync(move || {
                            let v = source.get();
                            async move { v + 1 }
                        });
                        let sum = AssertSendSync(sum.clone());
                        ImmediateEffect::new_scoped(move || {
                            let s = sum.get();
                            s.set(s.get() + memo.get().unwrap_or(0))
                        });
                        memo
                    })
                    .collect();
                (source, nodes)
            });
            Executor::poll_local();
            Box::new(move |i| {
                let _keep = (&owner, &keep);
                sum.set(0);
                source.set(i + 1);
                Executor::poll_local();
                // reactive_graph keeps the old value while it reloads: each effect ran once, with the new value
                assert_eq!(sum.get() % (i + 2), 0);
                assert!(sum.get() >= WIDTH as u64 * (i + 2), "{}", sum.get());
            })
        }

        fn many(n: usize) -> Box<dyn std::any::Any> {
            let owner = Owner::new();
            let memos = owner.with(|| {
                let source = RwSignal::new(1_u64);
                (0..n)
                    .map(|_| {
                        AsyncDerived::new_unsync(move || {
                            let v = source.get();
                            async move { v + 1 }
                        })
                    })
                    .collect::<Vec<_>>()
            });
            Executor::poll_local();
            assert_eq!(memos[n - 1].get_untracked(), Some(2));
            Box::new((owner, memos))
        }
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

fn case_of<L: Lib>(name: &str) -> Option<Box<dyn FnMut(u64)>> {
    Some(match name {
        "create" => L::create(),
        "chain" => L::chain(),
        "fanout" => L::fanout(),
        _ => return None,
    })
}

fn bytes_per_node<L: Lib>() -> f64 {
    const N: usize = 10_000;
    // warm the library's own tables first, so the figure is per node
    drop(L::many(N));
    let before = live_bytes();
    let keep = L::many(N);
    let after = live_bytes();
    drop(keep);
    (after - before) as f64 / N as f64
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    #[cfg(feature = "compare")]
    leptos_lib::init();
    let reps: u64 = args
        .iter()
        .position(|a| a == "--reps")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(50);
    type Entry = (
        &'static str,
        fn(&str) -> Option<Box<dyn FnMut(u64)>>,
        fn() -> f64,
    );
    #[cfg_attr(not(feature = "compare"), allow(unused_mut))]
    let mut libs: Vec<Entry> = vec![(
        ranvier_lib::Ranvier::NAME,
        case_of::<ranvier_lib::Ranvier>,
        bytes_per_node::<ranvier_lib::Ranvier>,
    )];
    #[cfg(feature = "compare")]
    libs.push((
        leptos_lib::Leptos::NAME,
        case_of::<leptos_lib::Leptos>,
        bytes_per_node::<leptos_lib::Leptos>,
    ));
    let wanted_lib = |name: &str| {
        !args.iter().any(|a| a == "ranvier" || a == "reactive_graph")
            || args.iter().any(|a| a == name)
    };
    if args.iter().any(|a| a == "--memory") {
        for (name, _, bytes) in &libs {
            if wanted_lib(name) {
                println!("{name}: {:.0} bytes per settled async memo", bytes());
            }
        }
        return;
    }
    let cases = ["create", "chain", "fanout"];
    let wanted_case =
        |c: &str| !args.iter().any(|a| cases.contains(&a.as_str())) || args.iter().any(|a| a == c);
    println!("case , library , best µs per repetition , mean µs ({reps} repetitions)");
    for case in cases.iter().filter(|c| wanted_case(c)) {
        for (name, make, _) in &libs {
            if !wanted_lib(name) {
                continue;
            }
            let (best, total) = run(make(case).expect("a known case"), reps);
            println!(
                "{case} , {name} , {:.1} , {:.1}",
                best.as_secs_f64() * 1e6,
                total.as_secs_f64() * 1e6 / reps as f64
            );
        }
    }
}
