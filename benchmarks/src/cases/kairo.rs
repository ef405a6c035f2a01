//! The kairo cases (milomg `benches/kairo/*.ts`) and molBench, each followed by its hand-written floor.
//!
//! Every case returns an `iter()` that the runner calls 1000 times per timed repetition, as the suite does; each
//! write is wrapped in `with_batch`. The asserts the suite makes with `console.assert` are checks here: a library
//! that fails one is reported as FAILED.

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use super::busy;
use crate::framework::{ReactiveFramework, Read, Src, Write};
use crate::harness::{Params, check, timed_region};

/// Which kairo case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kairo {
    /// avoidablePropagation; `Some(n)`: the variant with a chain of `n` levels below the cutoff (1 + 100 writes
    /// per `iter()` instead of 1 + 1000).
    Avoidable(Option<usize>),
    /// broadPropagation.
    Broad,
    /// deepPropagation.
    Deep,
    /// diamond.
    Diamond,
    /// mux.
    Mux,
    /// repeatedObservers.
    Repeated,
    /// triangle.
    Triangle,
    /// unstable.
    Unstable,
    /// molBench.
    Mol,
}

impl Kairo {
    /// All kairo cases, in the suite's order, then the cutoff-depth variants and molBench.
    pub fn all() -> Vec<Kairo> {
        vec![
            Kairo::Avoidable(None),
            Kairo::Broad,
            Kairo::Deep,
            Kairo::Diamond,
            Kairo::Mux,
            Kairo::Repeated,
            Kairo::Triangle,
            Kairo::Unstable,
            Kairo::Avoidable(Some(10)),
            Kairo::Avoidable(Some(100)),
            Kairo::Avoidable(Some(1000)),
            Kairo::Mol,
        ]
    }

    /// The case's name.
    pub fn name(self) -> String {
        match self {
            Kairo::Avoidable(None) => "avoidablePropagation".into(),
            Kairo::Avoidable(Some(n)) => format!("avoidablePropagation-{n}below"),
            Kairo::Broad => "broadPropagation".into(),
            Kairo::Deep => "deepPropagation".into(),
            Kairo::Diamond => "diamond".into(),
            Kairo::Mux => "mux".into(),
            Kairo::Repeated => "repeatedObservers".into(),
            Kairo::Triangle => "triangle".into(),
            Kairo::Unstable => "unstable".into(),
            Kairo::Mol => "molBench".into(),
        }
    }

    /// Longest signal-to-effect chain.
    pub fn depth(self) -> usize {
        match self {
            Kairo::Avoidable(None) => 6,
            Kairo::Avoidable(Some(n)) => n + 4,
            Kairo::Deep => 51,
            Kairo::Triangle => 12,
            _ => 6,
        }
    }
}

type Iter = Box<dyn FnMut() -> Result<(), String>>;

/// Runs kairo case `k` on `F`: build, warm up, then the fastest of `params.repeats` × (`params.inner` × `iter()`).
pub fn run<F: ReactiveFramework>(k: Kairo, params: Params) -> Result<Duration, String> {
    let mut iter: Iter = F::with_build(|| -> Iter {
        match k {
            Kairo::Avoidable(levels) => Box::new(avoidable::<F>(levels)),
            Kairo::Broad => Box::new(broad::<F>()),
            Kairo::Deep => Box::new(deep::<F>()),
            Kairo::Diamond => Box::new(diamond::<F>()),
            Kairo::Mux => Box::new(mux::<F>()),
            Kairo::Repeated => Box::new(repeated::<F>()),
            Kairo::Triangle => Box::new(triangle::<F>()),
            Kairo::Unstable => Box::new(unstable::<F>()),
            Kairo::Mol => Box::new(mol::<F>()),
        }
    });
    let result = time_iter(&mut *iter, params);
    drop(iter);
    F::cleanup();
    result
}

fn time_iter(
    iter: &mut dyn FnMut() -> Result<(), String>,
    params: Params,
) -> Result<Duration, String> {
    for _ in 0..params.warmups {
        iter()?;
    }
    let mut best = Duration::MAX;
    for _ in 0..params.repeats.max(1) {
        let (result, elapsed) = timed_region(|| {
            for _ in 0..params.inner {
                iter()?;
            }
            Ok::<(), String>(())
        });
        result?;
        best = best.min(elapsed);
    }
    Ok(best)
}

fn counter() -> Rc<Cell<u64>> {
    Rc::new(Cell::new(0))
}

fn avoidable<F: ReactiveFramework>(levels: Option<usize>) -> impl FnMut() -> Result<(), String> {
    let head = F::signal(0i64);
    let h = head.clone();
    let c1 = F::computed(move || h.read());
    let c2 = F::computed(move || {
        c1.read();
        0i64
    });
    let c3 = F::computed(move || {
        busy();
        c2.read() + 1
    });
    let (last, expected) = match levels {
        None => {
            let c4 = F::computed(move || c3.read() + 2);
            (F::computed(move || c4.read() + 3), 6)
        }
        Some(n) => {
            let mut last = c3;
            for _ in 1..n {
                let prev = last.clone();
                last = F::computed(move || prev.read() + 1);
            }
            (last, n as i64)
        }
    };
    // The base case does 1 + 1000 writes per iter(); the deeper variants 1 + 100, to keep them affordable.
    let writes = if levels.is_some() { 100 } else { 1000 };
    let effect_runs = counter();
    let (l, runs) = (last.clone(), effect_runs.clone());
    F::effect(move || {
        l.read();
        busy();
        runs.set(runs.get() + 1);
    });
    move || {
        let before = effect_runs.get();
        F::with_batch(|| head.write(1));
        check(last.read() == expected, || {
            format!("end of chain {} != {expected}", last.read())
        })?;
        for i in 0..writes {
            F::with_batch(|| head.write(i));
            check(last.read() == expected, || {
                format!("end of chain {} != {expected}", last.read())
            })?;
        }
        check(effect_runs.get() == before, || {
            format!(
                "effect re-ran {} times behind an unchanged cutoff",
                effect_runs.get() - before
            )
        })
    }
}

fn broad<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let head = F::signal(0i64);
    let calls = counter();
    let mut last = None;
    for i in 0..50 {
        let h = head.clone();
        let current = F::computed(move || h.read() + i);
        let current2 = F::computed(move || current.read() + 1);
        let (c, calls) = (current2.clone(), calls.clone());
        F::effect(move || {
            c.read();
            calls.set(calls.get() + 1);
        });
        last = Some(current2);
    }
    let last = last.expect("50 branches");
    move || {
        F::with_batch(|| head.write(1));
        calls.set(0);
        for i in 0..50 {
            F::with_batch(|| head.write(i));
            check(last.read() == i + 50, || {
                format!("last = {} != {}", last.read(), i + 50)
            })?;
        }
        check(calls.get() == 2500, || {
            format!("{} effect runs != 2500", calls.get())
        })
    }
}

fn deep<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let head = F::signal(0i64);
    let mut current: Src<F, i64> = Src::Signal(head.clone());
    for _ in 0..50 {
        let c = current;
        current = Src::Computed(F::computed(move || c.read() + 1));
    }
    let calls = counter();
    let (c, k) = (current.clone(), calls.clone());
    F::effect(move || {
        c.read();
        k.set(k.get() + 1);
    });
    move || {
        F::with_batch(|| head.write(1));
        calls.set(0);
        for i in 0..50 {
            F::with_batch(|| head.write(i));
            check(current.read() == 50 + i, || {
                format!("end = {} != {}", current.read(), 50 + i)
            })?;
        }
        check(calls.get() == 50, || {
            format!("{} effect runs != 50", calls.get())
        })
    }
}

fn diamond<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let head = F::signal(0i64);
    let current: Vec<F::Computed<i64>> = (0..5)
        .map(|_| {
            let h = head.clone();
            F::computed(move || h.read() + 1)
        })
        .collect();
    let sum = F::computed(move || current.iter().map(|x| x.read()).sum::<i64>());
    let calls = counter();
    let (s, k) = (sum.clone(), calls.clone());
    F::effect(move || {
        s.read();
        k.set(k.get() + 1);
    });
    move || {
        F::with_batch(|| head.write(1));
        check(sum.read() == 10, || format!("sum = {} != 10", sum.read()))?;
        calls.set(0);
        for i in 0..500 {
            F::with_batch(|| head.write(i));
            check(sum.read() == (i + 1) * 5, || {
                format!("sum = {} != {}", sum.read(), (i + 1) * 5)
            })?;
        }
        check(calls.get() == 500, || {
            format!("{} effect runs != 500", calls.get())
        })
    }
}

fn mux<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let heads: Vec<F::Signal<i64>> = (0..100).map(|_| F::signal(0i64)).collect();
    let hs = heads.clone();
    let mux = F::computed(move || hs.iter().map(|h| h.read()).collect::<Arc<[i64]>>());
    let split: Vec<F::Computed<i64>> = (0..100)
        .map(|index| {
            let m = mux.clone();
            F::computed(move || m.read()[index])
        })
        .map(|x| F::computed(move || x.read() + 1))
        .collect();
    for x in &split {
        let x = x.clone();
        F::effect(move || {
            x.read();
        });
    }
    move || {
        for i in 0..10 {
            F::with_batch(|| heads[i].write(i as i64));
            check(split[i].read() == i as i64 + 1, || {
                format!("split[{i}] = {}", split[i].read())
            })?;
        }
        for i in 0..10 {
            F::with_batch(|| heads[i].write(i as i64 * 2));
            check(split[i].read() == i as i64 * 2 + 1, || {
                format!("split[{i}] = {}", split[i].read())
            })?;
        }
        Ok(())
    }
}

fn repeated<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let head = F::signal(0i64);
    let h = head.clone();
    let current = F::computed(move || {
        let mut result = 0;
        for _ in 0..30 {
            result += h.read();
        }
        result
    });
    let calls = counter();
    let (c, k) = (current.clone(), calls.clone());
    F::effect(move || {
        c.read();
        k.set(k.get() + 1);
    });
    move || {
        F::with_batch(|| head.write(1));
        check(current.read() == 30, || {
            format!("current = {} != 30", current.read())
        })?;
        calls.set(0);
        for i in 0..100 {
            F::with_batch(|| head.write(i));
            check(current.read() == i * 30, || {
                format!("current = {} != {}", current.read(), i * 30)
            })?;
        }
        check(calls.get() == 100, || {
            format!("{} effect runs != 100", calls.get())
        })
    }
}

fn triangle<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let head = F::signal(0i64);
    let mut current: Src<F, i64> = Src::Signal(head.clone());
    let mut list = Vec::new();
    for _ in 0..10 {
        let c = current.clone();
        list.push(current);
        current = Src::Computed(F::computed(move || c.read() + 1));
    }
    let sum = F::computed(move || list.iter().map(|x| x.read()).sum::<i64>());
    let calls = counter();
    let (s, k) = (sum.clone(), calls.clone());
    F::effect(move || {
        s.read();
        k.set(k.get() + 1);
    });
    move || {
        F::with_batch(|| head.write(1));
        check(sum.read() == 55, || format!("sum = {} != 55", sum.read()))?;
        calls.set(0);
        for i in 0..100 {
            F::with_batch(|| head.write(i));
            let expected = 55 - 10 + i * 10;
            check(sum.read() == expected, || {
                format!("sum = {} != {expected}", sum.read())
            })?;
        }
        check(calls.get() == 100, || {
            format!("{} effect runs != 100", calls.get())
        })
    }
}

fn unstable<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let head = F::signal(0i64);
    let h = head.clone();
    let double = F::computed(move || h.read() * 2);
    let h = head.clone();
    let inverse = F::computed(move || -h.read());
    let h = head.clone();
    let current = F::computed(move || {
        let mut result = 0;
        for _ in 0..20 {
            result += if h.read() % 2 != 0 {
                double.read()
            } else {
                inverse.read()
            };
        }
        result
    });
    let calls = counter();
    let (c, k) = (current.clone(), calls.clone());
    F::effect(move || {
        c.read();
        k.set(k.get() + 1);
    });
    move || {
        F::with_batch(|| head.write(1));
        check(current.read() == 40, || {
            format!("current = {} != 40", current.read())
        })?;
        calls.set(0);
        for i in 0..100 {
            F::with_batch(|| head.write(i));
        }
        check(current.read() == 99 * 2 * 20, || {
            format!("current = {} != 3960", current.read())
        })?;
        check(calls.get() == 100, || {
            format!("{} effect runs != 100", calls.get())
        })
    }
}

fn fib(n: i64) -> i64 {
    if n < 2 { 1 } else { fib(n - 1) + fib(n - 2) }
}

fn hard(n: i64) -> i64 {
    n + fib(black_box(16))
}

/// After every molBench iteration: G = 1604, so H = hard(G) = 3201, I = 1604, J = hard(F) = hard(1599) = 3196.
const MOL_EXPECTED: (i64, i64, i64) = (3201, 1604, 3196);

fn mol<F: ReactiveFramework>() -> impl FnMut() -> Result<(), String> {
    let a = F::signal(0i64);
    let b = F::signal(0i64);
    let (a1, b1) = (a.clone(), b.clone());
    let c = F::computed(move || a1.read() % 2 + b1.read() % 2);
    let (a1, b1) = (a.clone(), b.clone());
    let d = F::computed(move || {
        let (x, y) = (a1.read() % 2, b1.read() % 2);
        [0i64, 1, 2, 3, 4].map(|i| i + x - y)
    });
    let (c1, a1, d1) = (c.clone(), a.clone(), d.clone());
    let e = F::computed(move || hard(c1.read() + a1.read() + d1.read()[0]));
    let (d1, b1) = (d.clone(), b.clone());
    let f = F::computed(move || {
        let x = d1.read()[2];
        hard(if x != 0 { x } else { b1.read() })
    });
    let (c1, d1, f1) = (c.clone(), d.clone(), f.clone());
    let g = F::computed(move || {
        let cv = c1.read();
        cv + (if cv != 0 { cv } else { e.read() % 2 }) + d1.read()[4] + f1.read()
    });
    let (h, i_, j) = (
        Rc::new(Cell::new(0)),
        Rc::new(Cell::new(0)),
        Rc::new(Cell::new(0)),
    );
    let (g1, out) = (g.clone(), h.clone());
    F::effect(move || out.set(hard(g1.read())));
    let (g1, out) = (g.clone(), i_.clone());
    F::effect(move || out.set(g1.read()));
    let (f1, out) = (f.clone(), j.clone());
    F::effect(move || out.set(hard(f1.read())));
    let mut i = 0i64;
    move || {
        i += 1;
        F::with_batch(|| {
            b.write(1);
            a.write(1 + i * 2);
        });
        F::with_batch(|| {
            a.write(2 + i * 2);
            b.write(2);
        });
        let got = (h.get(), i_.get(), j.get());
        check(got == MOL_EXPECTED, || {
            format!("effects saw (H, I, J) = {got:?}, expected {MOL_EXPECTED:?}")
        })
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Floors: the same shapes recomputed by hand, with the same equality cutoffs and effect runs, and no graph.
// `runs` counts node (computed + effect) executions, like `Counting` does for the libraries.

type FloorIter = Box<dyn FnMut(&mut u64) -> Result<(), String>>;

/// Runs the floor of kairo case `k`: the reported time and the node executions in it.
pub fn run_floor(k: Kairo, params: Params) -> Result<(Duration, u64), String> {
    let mut iter: FloorIter = match k {
        Kairo::Avoidable(levels) => floor_avoidable(levels),
        Kairo::Broad => floor_broad(),
        Kairo::Deep => floor_deep(),
        Kairo::Diamond => floor_diamond(),
        Kairo::Mux => floor_mux(),
        Kairo::Repeated => floor_repeated(),
        Kairo::Triangle => floor_triangle(),
        Kairo::Unstable => floor_unstable(),
        Kairo::Mol => floor_mol(),
    };
    let mut runs = 0;
    for _ in 0..params.warmups {
        iter(&mut runs)?;
    }
    let mut best = Duration::MAX;
    let mut unit_runs = 0;
    for _ in 0..params.repeats.max(1) {
        let mut r = 0;
        let (result, elapsed) = timed_region(|| {
            for _ in 0..params.inner {
                iter(&mut r)?;
            }
            Ok::<(), String>(())
        });
        result?;
        best = best.min(elapsed);
        unit_runs = r;
    }
    Ok((best, unit_runs))
}

fn floor_avoidable(levels: Option<usize>) -> FloorIter {
    // head -> c1 -> c2 (the cutoff: always 0) -> the chain below it -> effect.
    struct S {
        head: i64,
        c1: i64,
        c2: i64,
        adds: Vec<i64>,
        chain: Vec<i64>,
        effect_runs: u64,
    }
    impl S {
        fn write(&mut self, x: i64, runs: &mut u64) {
            if x == self.head {
                return;
            }
            self.head = x;
            *runs += 1;
            if self.head == self.c1 {
                return;
            }
            self.c1 = self.head;
            *runs += 1;
            let next = 0;
            if next == self.c2 {
                return;
            }
            // Below the cutoff: never reached in this case, as c2 is always 0.
            self.c2 = next;
            let mut prev = self.c2;
            for k in 0..self.chain.len() {
                *runs += 1;
                if k == 0 {
                    busy();
                }
                let v = prev + self.adds[k];
                if v == self.chain[k] {
                    return;
                }
                self.chain[k] = v;
                prev = v;
            }
            *runs += 1;
            busy();
            self.effect_runs += 1;
        }
    }
    let adds: Vec<i64> = match levels {
        None => vec![1, 2, 3],
        Some(n) => vec![1; n],
    };
    let mut chain = Vec::with_capacity(adds.len());
    let mut acc = 0;
    busy();
    for add in &adds {
        acc += add;
        chain.push(acc);
    }
    busy();
    let expected = acc;
    let writes = if levels.is_some() { 100 } else { 1000 };
    let mut s = S {
        head: 0,
        c1: 0,
        c2: 0,
        adds,
        chain,
        effect_runs: 1,
    };
    Box::new(move |runs| {
        s.write(black_box(1), runs);
        for i in 0..writes {
            s.write(black_box(i), runs);
        }
        check(
            s.effect_runs == 1 && s.chain.last() == Some(&expected),
            || "floor avoidable".into(),
        )
    })
}

fn floor_broad() -> FloorIter {
    struct S {
        head: i64,
        a: Vec<i64>,
        b: Vec<i64>,
        calls: u64,
    }
    impl S {
        fn write(&mut self, x: i64, runs: &mut u64) {
            if x == self.head {
                return;
            }
            self.head = x;
            for i in 0..50 {
                *runs += 1;
                let na = self.head + i as i64;
                if na == self.a[i] {
                    continue;
                }
                self.a[i] = na;
                *runs += 1;
                let nb = na + 1;
                if nb == self.b[i] {
                    continue;
                }
                self.b[i] = nb;
                *runs += 1;
                self.calls += 1;
            }
        }
    }
    let a: Vec<i64> = (0..50).collect();
    let b = a.iter().map(|x| x + 1).collect();
    let mut s = S {
        head: 0,
        a,
        b,
        calls: 0,
    };
    Box::new(move |runs| {
        s.write(black_box(1), runs);
        s.calls = 0;
        for i in 0..50 {
            s.write(black_box(i), runs);
            check(s.b[49] == i + 50, || "floor broad".into())?;
        }
        check(s.calls == 2500, || {
            format!("floor broad: {} effect runs", s.calls)
        })
    })
}

/// A chain of `N - 1` (+1) computeds below a head, ending in an effect.
struct Chain<const N: usize> {
    v: [i64; N],
    calls: u64,
}

impl<const N: usize> Chain<N> {
    fn new() -> Self {
        let mut v = [0i64; N];
        for k in 1..N {
            v[k] = v[k - 1] + 1;
        }
        Chain { v, calls: 0 }
    }
    /// Returns whether the propagation reached the end.
    fn write(&mut self, x: i64, runs: &mut u64) -> bool {
        if x == self.v[0] {
            return false;
        }
        self.v[0] = x;
        for k in 1..N {
            *runs += 1;
            let n = self.v[k - 1] + 1;
            if n == self.v[k] {
                return false;
            }
            self.v[k] = n;
        }
        true
    }
}

fn floor_deep() -> FloorIter {
    let mut s = Chain::<51>::new();
    Box::new(move |runs| {
        if s.write(black_box(1), runs) {
            *runs += 1;
        }
        s.calls = 0;
        for i in 0..50 {
            if s.write(black_box(i), runs) {
                *runs += 1;
                s.calls += 1;
            }
            check(s.v[50] == 50 + i, || "floor deep".into())?;
        }
        check(s.calls == 50, || "floor deep calls".into())
    })
}

fn floor_diamond() -> FloorIter {
    struct S {
        head: i64,
        c: [i64; 5],
        sum: i64,
        calls: u64,
    }
    impl S {
        fn write(&mut self, x: i64, runs: &mut u64) {
            if x == self.head {
                return;
            }
            self.head = x;
            let mut changed = false;
            for slot in self.c.iter_mut() {
                *runs += 1;
                let n = self.head + 1;
                changed |= n != *slot;
                *slot = n;
            }
            if !changed {
                return;
            }
            *runs += 1;
            let n: i64 = self.c.iter().sum();
            if n == self.sum {
                return;
            }
            self.sum = n;
            *runs += 1;
            self.calls += 1;
        }
    }
    let mut s = S {
        head: 0,
        c: [1; 5],
        sum: 5,
        calls: 0,
    };
    Box::new(move |runs| {
        s.write(black_box(1), runs);
        s.calls = 0;
        for i in 0..500 {
            s.write(black_box(i), runs);
            check(s.sum == (i + 1) * 5, || "floor diamond".into())?;
        }
        check(s.calls == 500, || "floor diamond calls".into())
    })
}

fn floor_mux() -> FloorIter {
    struct S {
        heads: [i64; 100],
        mux: [i64; 100],
        index: [i64; 100],
        plus: [i64; 100],
    }
    impl S {
        fn write(&mut self, i: usize, x: i64, runs: &mut u64) {
            if self.heads[i] == x {
                return;
            }
            self.heads[i] = x;
            *runs += 1;
            self.mux.copy_from_slice(&self.heads);
            for j in 0..100 {
                *runs += 1;
                if self.mux[j] == self.index[j] {
                    continue;
                }
                self.index[j] = self.mux[j];
                *runs += 2;
                self.plus[j] = self.index[j] + 1;
            }
        }
    }
    let mut s = S {
        heads: [0; 100],
        mux: [0; 100],
        index: [0; 100],
        plus: [1; 100],
    };
    Box::new(move |runs| {
        for i in 0..10 {
            s.write(i, black_box(i as i64), runs);
            check(s.plus[i] == i as i64 + 1, || "floor mux".into())?;
        }
        for i in 0..10 {
            s.write(i, black_box(i as i64 * 2), runs);
            check(s.plus[i] == i as i64 * 2 + 1, || "floor mux".into())?;
        }
        Ok(())
    })
}

fn floor_repeated() -> FloorIter {
    let (mut head, mut current, mut calls) = (0i64, 0i64, 0u64);
    let mut write = move |x: i64, runs: &mut u64| -> (i64, u64) {
        if x != head {
            head = x;
            *runs += 1;
            let mut n = 0;
            for _ in 0..30 {
                n += black_box(head);
            }
            if n != current {
                current = n;
                *runs += 1;
                calls += 1;
            }
        }
        (current, calls)
    };
    Box::new(move |runs| {
        let (_, base) = write(black_box(1), runs);
        for i in 0..100 {
            let (current, _) = write(black_box(i), runs);
            check(current == i * 30, || "floor repeated".into())?;
        }
        let (_, calls) = write(black_box(99), runs);
        check(calls - base == 100, || "floor repeated calls".into())
    })
}

fn floor_triangle() -> FloorIter {
    let mut chain = Chain::<11>::new();
    let mut sum: i64 = chain.v[..10].iter().sum();
    Box::new(move |runs| {
        let write = |x: i64, chain: &mut Chain<11>, sum: &mut i64, runs: &mut u64| {
            if x == chain.v[0] {
                return;
            }
            chain.write(x, runs);
            *runs += 1;
            let n: i64 = chain.v[..10].iter().sum();
            if n != *sum {
                *sum = n;
                *runs += 1;
                chain.calls += 1;
            }
        };
        write(black_box(1), &mut chain, &mut sum, runs);
        check(sum == 55, || "floor triangle".into())?;
        chain.calls = 0;
        for i in 0..100 {
            write(black_box(i), &mut chain, &mut sum, runs);
            check(sum == 45 + i * 10, || "floor triangle".into())?;
        }
        check(chain.calls == 100, || "floor triangle calls".into())
    })
}

fn floor_unstable() -> FloorIter {
    let (mut head, mut current, mut calls) = (0i64, 0i64, 0u64);
    let mut write = move |x: i64, runs: &mut u64| -> (i64, u64) {
        if x != head {
            head = x;
            // Only the branch `current` reads is brought current.
            *runs += 2;
            let branch = if head % 2 != 0 { head * 2 } else { -head };
            let mut n = 0;
            for _ in 0..20 {
                n += black_box(branch);
            }
            if n != current {
                current = n;
                *runs += 1;
                calls += 1;
            }
        }
        (current, calls)
    };
    Box::new(move |runs| {
        let (_, base) = write(black_box(1), runs);
        let mut last = (0, 0);
        for i in 0..100 {
            last = write(black_box(i), runs);
        }
        check(last.0 == 3960, || "floor unstable".into())?;
        check(last.1 - base == 100, || "floor unstable calls".into())
    })
}

fn floor_mol() -> FloorIter {
    struct Mol {
        a: i64,
        b: i64,
        c: i64,
        d: [i64; 5],
        e: i64,
        e_dirty: bool,
        f: i64,
        f_read_b: bool,
        g: i64,
        g_read_e: bool,
        out: (i64, i64, i64),
    }
    impl Mol {
        fn set(&mut self, a: i64, b: i64, runs: &mut u64) {
            let (a_ch, b_ch) = (a != self.a, b != self.b);
            self.a = a;
            self.b = b;
            if !a_ch && !b_ch {
                return;
            }
            *runs += 2;
            let c = a % 2 + b % 2;
            let c_ch = c != self.c;
            self.c = c;
            let d = [0i64, 1, 2, 3, 4].map(|i| i + a % 2 - b % 2);
            let d_ch = d != self.d;
            self.d = d;
            self.e_dirty |= c_ch || a_ch || d_ch;
            let mut f_ch = false;
            if d_ch || (self.f_read_b && b_ch) {
                *runs += 1;
                self.f_read_b = d[2] == 0;
                let f = hard(if d[2] != 0 { d[2] } else { b });
                f_ch = f != self.f;
                self.f = f;
            }
            // G's sources are checked in the order it read them; E only matters if nothing before it changed.
            let mut g_dirty = c_ch || d_ch || f_ch;
            if !g_dirty && self.g_read_e && self.e_dirty {
                g_dirty = self.refresh_e(runs);
            }
            if g_dirty {
                *runs += 1;
                self.g_read_e = self.c == 0;
                let second = if self.c != 0 {
                    self.c
                } else {
                    self.refresh_e(runs);
                    self.e % 2
                };
                let g = self.c + second + self.d[4] + self.f;
                if g != self.g {
                    self.g = g;
                    *runs += 2;
                    self.out.0 = hard(g);
                    self.out.1 = g;
                }
            }
            if f_ch {
                *runs += 1;
                self.out.2 = hard(self.f);
            }
        }
        fn refresh_e(&mut self, runs: &mut u64) -> bool {
            if !self.e_dirty {
                return false;
            }
            *runs += 1;
            self.e_dirty = false;
            let e = hard(self.c + self.a + self.d[0]);
            let changed = e != self.e;
            self.e = e;
            changed
        }
    }
    let f = hard(2);
    let e = hard(0);
    let g = e % 2 + 4 + f;
    let mut m = Mol {
        a: 0,
        b: 0,
        c: 0,
        d: [0, 1, 2, 3, 4],
        e,
        e_dirty: false,
        f,
        f_read_b: false,
        g,
        g_read_e: true,
        out: (hard(g), g, hard(f)),
    };
    let mut i = 0i64;
    Box::new(move |runs| {
        i += 1;
        m.set(black_box(1 + i * 2), 1, runs);
        m.set(black_box(2 + i * 2), 2, runs);
        check(m.out == MOL_EXPECTED, || format!("floor mol {:?}", m.out))
    })
}
