//! sBench (milomg `benches/sBench.ts`, after Solid's `bench.cjs`), with `COUNT` = 100 000.
//!
//! As in the suite, a timed run covers creating the computations (inside `with_build`), running the returned
//! update inside one `with_batch`, and `cleanup`; the source signals are created (and read 3 times) before timing
//! starts. Checks: every created effect ran once, and after each update batch the effect saw the last write.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use crate::framework::{ReactiveFramework, Read, Write};
use crate::harness::{Params, check, timed_region};

/// The suite's `COUNT`.
pub const COUNT: usize = 100_000;

/// One sBench case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum SCase {
    CreateSignals,
    Create0to1,
    Create1to1,
    Create2to1,
    Create4to1,
    Create1000to1,
    Create1to2,
    Create1to4,
    Create1to8,
    Create1to1000,
    Update1to1,
    Update2to1,
    Update4to1,
    Update1000to1,
    Update1to2,
    Update1to4,
    Update1to1000,
}

impl SCase {
    /// All cases, in the suite's order.
    pub const ALL: [SCase; 17] = [
        SCase::CreateSignals,
        SCase::Create0to1,
        SCase::Create1to1,
        SCase::Create2to1,
        SCase::Create4to1,
        SCase::Create1000to1,
        SCase::Create1to2,
        SCase::Create1to4,
        SCase::Create1to8,
        SCase::Create1to1000,
        SCase::Update1to1,
        SCase::Update2to1,
        SCase::Update4to1,
        SCase::Update1000to1,
        SCase::Update1to2,
        SCase::Update1to4,
        SCase::Update1to1000,
    ];

    /// The suite's name.
    pub fn name(self) -> &'static str {
        match self {
            SCase::CreateSignals => "createSignals",
            SCase::Create0to1 => "create0to1",
            SCase::Create1to1 => "create1to1",
            SCase::Create2to1 => "create2to1",
            SCase::Create4to1 => "create4to1",
            SCase::Create1000to1 => "create1000to1",
            SCase::Create1to2 => "create1to2",
            SCase::Create1to4 => "create1to4",
            SCase::Create1to8 => "create1to8",
            SCase::Create1to1000 => "create1to1000",
            SCase::Update1to1 => "update1to1",
            SCase::Update2to1 => "update2to1",
            SCase::Update4to1 => "update4to1",
            SCase::Update1000to1 => "update1000to1",
            SCase::Update1to2 => "update1to2",
            SCase::Update1to4 => "update1to4",
            SCase::Update1to1000 => "update1to1000",
        }
    }

    /// `(n, source count)` as the suite passes them.
    pub fn sizes(self) -> (usize, usize) {
        match self {
            SCase::CreateSignals => (COUNT, COUNT),
            SCase::Create0to1 => (COUNT, 0),
            SCase::Create1to1 => (COUNT, COUNT),
            SCase::Create2to1 => (COUNT / 2, COUNT),
            SCase::Create4to1 => (COUNT / 4, COUNT),
            SCase::Create1000to1 => (COUNT / 1000, COUNT),
            SCase::Create1to2 => (COUNT, COUNT / 2),
            SCase::Create1to4 => (COUNT, COUNT / 4),
            SCase::Create1to8 => (COUNT, COUNT / 8),
            SCase::Create1to1000 => (COUNT, COUNT / 1000),
            SCase::Update1to1 => (COUNT * 4, 1),
            SCase::Update2to1 => (COUNT * 2, 2),
            SCase::Update4to1 => (COUNT, 4),
            SCase::Update1000to1 => (COUNT / 250, 1000),
            SCase::Update1to2 => (COUNT, 1),
            SCase::Update1to4 => (COUNT, 1),
            SCase::Update1to1000 => (COUNT, 1),
        }
    }

    /// Effects the case creates for `n` (each runs once on creation).
    fn effects(self, n: usize) -> usize {
        match self {
            SCase::CreateSignals => 0,
            SCase::Create0to1 | SCase::Create1to1 | SCase::Create2to1 | SCase::Create4to1 => n,
            SCase::Create1000to1 => n,
            SCase::Create1to2 => n / 2 * 2,
            SCase::Create1to4 => n / 4 * 4,
            SCase::Create1to8 => n / 8 * 8,
            SCase::Create1to1000 => n / 1000 * 1000,
            SCase::Update1to2 => 2,
            SCase::Update1to4 => 4,
            SCase::Update1to1000 => 1000,
            _ => 1,
        }
    }

    /// Writes the update performs.
    fn writes(self, n: usize) -> usize {
        match self {
            SCase::Update1to1000 => n / 10,
            s if s.is_update() => n,
            _ => 0,
        }
    }

    fn is_update(self) -> bool {
        matches!(
            self,
            SCase::Update1to1
                | SCase::Update2to1
                | SCase::Update4to1
                | SCase::Update1000to1
                | SCase::Update1to2
                | SCase::Update1to4
                | SCase::Update1to1000
        )
    }
}

/// Runs sBench case `s` on `F`: `params.warmups` runs at n/100, then the fastest of `params.repeats` full runs.
pub fn run<F: ReactiveFramework>(s: SCase, params: Params) -> Result<Duration, String> {
    let (n, scount) = s.sizes();
    for _ in 0..params.warmups {
        once::<F>(s, n / 100, scount)?;
    }
    let mut best = Duration::MAX;
    for _ in 0..params.repeats.max(1) {
        best = best.min(once::<F>(s, n, scount)?);
    }
    Ok(best)
}

fn once<F: ReactiveFramework>(s: SCase, n: usize, scount: usize) -> Result<Duration, String> {
    let sources: Vec<F::Signal<i64>> = F::with_build(|| {
        let sources: Vec<_> = (0..scount as i64).map(F::signal).collect();
        for src in &sources {
            src.read();
            src.read();
            src.read();
        }
        sources
    });
    let effect_runs = Rc::new(Cell::new(0u64));
    let seen = Rc::new(Cell::new(-1i64));
    let ((), elapsed) = timed_region(|| {
        let update = F::with_build(|| build::<F>(s, n, &sources, &effect_runs, &seen));
        F::with_batch(update);
        F::cleanup();
    });
    drop(sources);
    let created = s.effects(n) as u64;
    if s.is_update() {
        let writes = s.writes(n);
        check(effect_runs.get() > created, || {
            format!("{}: no effect ran after the update batch", s.name())
        })?;
        if writes > 0 {
            // The effect sums the written source and the untouched ones (initial values 1..width).
            let last = writes as i64 - 1 + (1..s.sizes().1 as i64).sum::<i64>();
            check(seen.get() == last, || {
                format!(
                    "{}: effect saw {}, last write was {last}",
                    s.name(),
                    seen.get()
                )
            })?;
        }
    } else {
        check(effect_runs.get() == created, || {
            format!(
                "{}: {} effect runs, expected {created}",
                s.name(),
                effect_runs.get()
            )
        })?;
    }
    Ok(elapsed)
}

fn build<F: ReactiveFramework>(
    s: SCase,
    n: usize,
    sources: &[F::Signal<i64>],
    runs: &Rc<Cell<u64>>,
    seen: &Rc<Cell<i64>>,
) -> Box<dyn FnOnce()> {
    let effect = |f: Box<dyn Fn() -> i64>| {
        let (runs, seen) = (runs.clone(), seen.clone());
        F::effect(move || {
            runs.set(runs.get() + 1);
            seen.set(f());
        });
    };
    let reader = |i: usize| {
        let s = sources[i].clone();
        move || s.read()
    };
    match s {
        SCase::CreateSignals => {
            // The suite's createSignals times creating n signals (the sources were created untimed).
            let made: Vec<F::Signal<i64>> = (0..n as i64).map(F::signal).collect();
            Box::new(move || drop(made))
        }
        SCase::Create0to1 => {
            for i in 0..n as i64 {
                effect(Box::new(move || i));
            }
            Box::new(|| {})
        }
        SCase::Create1to1 => {
            for i in 0..n {
                effect(Box::new(reader(i)));
            }
            Box::new(|| {})
        }
        SCase::Create2to1 => {
            for i in 0..n {
                let (a, b) = (reader(i * 2), reader(i * 2 + 1));
                effect(Box::new(move || a() + b()));
            }
            Box::new(|| {})
        }
        SCase::Create4to1 => {
            for i in 0..n {
                let (a, b, c, d) = (
                    reader(i * 4),
                    reader(i * 4 + 1),
                    reader(i * 4 + 2),
                    reader(i * 4 + 3),
                );
                effect(Box::new(move || a() + b() + c() + d()));
            }
            Box::new(|| {})
        }
        SCase::Create1000to1 => {
            for i in 0..n {
                let ss: Vec<F::Signal<i64>> = sources[i * 1000..i * 1000 + 1000].to_vec();
                effect(Box::new(move || ss.iter().map(|s| s.read()).sum()));
            }
            Box::new(|| {})
        }
        SCase::Create1to2 | SCase::Create1to4 | SCase::Create1to8 | SCase::Create1to1000 => {
            let fan = match s {
                SCase::Create1to2 => 2,
                SCase::Create1to4 => 4,
                SCase::Create1to8 => 8,
                _ => 1000,
            };
            for i in 0..n / fan {
                for _ in 0..fan {
                    effect(Box::new(reader(i)));
                }
            }
            Box::new(|| {})
        }
        SCase::Update1to1 | SCase::Update2to1 | SCase::Update4to1 | SCase::Update1000to1 => {
            let width = s.sizes().1;
            let ss: Vec<F::Signal<i64>> = sources[..width].to_vec();
            effect(Box::new(move || ss.iter().map(|s| s.read()).sum()));
            let set1 = sources[0].clone();
            let writes = s.writes(n);
            Box::new(move || {
                for i in 0..writes as i64 {
                    set1.write(i);
                }
            })
        }
        SCase::Update1to2 | SCase::Update1to4 | SCase::Update1to1000 => {
            let fan = match s {
                SCase::Update1to2 => 2,
                SCase::Update1to4 => 4,
                _ => 1000,
            };
            for _ in 0..fan {
                effect(Box::new(reader(0)));
            }
            let set1 = sources[0].clone();
            let writes = s.writes(n);
            Box::new(move || {
                for i in 0..writes as i64 {
                    set1.write(i);
                }
            })
        }
    }
}

/// The floor: node values in a `Vec`, each computation's sources in one flat edge list (CSR), every
/// computation run once on creation; an update stores the writes and runs the affected computations once at
/// the batch's end.
pub fn run_floor(s: SCase, params: Params) -> Result<(Duration, u64), String> {
    let (n, scount) = s.sizes();
    let mut best = Duration::MAX;
    let mut best_runs = 0;
    for rep in 0..params.warmups + params.repeats.max(1) {
        let n = if rep < params.warmups { n / 100 } else { n };
        let mut values: Vec<i64> = (0..scount as i64).collect();
        let (runs, elapsed) = timed_region(|| floor_once(s, n, &mut values));
        let runs = runs?;
        if rep >= params.warmups && elapsed < best {
            best = elapsed;
            best_runs = runs;
        }
    }
    Ok((best, best_runs))
}

fn floor_once(s: SCase, n: usize, values: &mut [i64]) -> Result<u64, String> {
    // Computations as (offset into `edges`, len) and their results.
    let mut offsets: Vec<(u32, u32)> = Vec::new();
    let mut edges: Vec<u32> = Vec::new();
    let mut results: Vec<i64> = Vec::new();
    let mut add = |srcs: &mut dyn Iterator<Item = usize>, values: &[i64]| {
        let start = edges.len() as u32;
        let mut sum = 0;
        for i in srcs {
            edges.push(i as u32);
            sum += values[i];
        }
        offsets.push((start, edges.len() as u32 - start));
        results.push(sum);
    };
    match s {
        SCase::CreateSignals => {
            let made: Vec<i64> = (0..n as i64).collect();
            std::hint::black_box(&made);
            return Ok(0);
        }
        SCase::Create0to1 => {
            for _ in 0..n {
                add(&mut std::iter::empty(), values);
            }
        }
        SCase::Create1to1 => (0..n).for_each(|i| add(&mut std::iter::once(i), values)),
        SCase::Create2to1 => (0..n).for_each(|i| add(&mut (i * 2..i * 2 + 2), values)),
        SCase::Create4to1 => (0..n).for_each(|i| add(&mut (i * 4..i * 4 + 4), values)),
        SCase::Create1000to1 => (0..n).for_each(|i| add(&mut (i * 1000..i * 1000 + 1000), values)),
        SCase::Create1to2 | SCase::Create1to4 | SCase::Create1to8 | SCase::Create1to1000 => {
            let fan = match s {
                SCase::Create1to2 => 2,
                SCase::Create1to4 => 4,
                SCase::Create1to8 => 8,
                _ => 1000,
            };
            for i in 0..n / fan {
                for _ in 0..fan {
                    add(&mut std::iter::once(i), values);
                }
            }
        }
        _ => {
            let (width, fan) = match s {
                SCase::Update1to2 => (1, 2),
                SCase::Update1to4 => (1, 4),
                SCase::Update1to1000 => (1, 1000),
                other => (other.sizes().1, 1),
            };
            for _ in 0..fan {
                add(&mut (0..width), values);
            }
            for i in 0..s.writes(n) as i64 {
                values[0] = std::hint::black_box(i);
            }
            // Batch end: every computation reading source 0 runs once.
            for (k, &(start, len)) in offsets.iter().enumerate() {
                results[k] = edges[start as usize..(start + len) as usize]
                    .iter()
                    .map(|&e| values[e as usize])
                    .sum();
            }
            let last = s.writes(n) as i64 - 1 + (1..width as i64).sum::<i64>();
            check(results.iter().all(|&r| r == last), || {
                format!("floor {}: wrong sums", s.name())
            })?;
            std::hint::black_box(&results);
            return Ok(2 * offsets.len() as u64);
        }
    }
    std::hint::black_box(&results);
    Ok(offsets.len() as u64)
}
