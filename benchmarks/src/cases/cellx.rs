//! cellx (milomg `benches/cellxBench.ts`, after Riim/cellx's perf page): `layers` layers of 4 computeds, each
//! layer with 4 effects. Timed: read the 4 end values, batch-write the 4 start signals, read the end again. The
//! build is not timed; a reported time is the sum over 10 fresh builds.

use std::hint::black_box;
use std::time::Duration;

use crate::framework::{ReactiveFramework, Read, Write};
use crate::harness::{Params, check, timed_region};

/// End values (before, after) for 1000 and 2500 layers.
pub const EXPECTED_1000_2500: ([i64; 4], [i64; 4]) = ([-3, -6, -2, 2], [-2, -4, 2, 3]);
/// End values (before, after) for 5000 layers.
pub const EXPECTED_5000: ([i64; 4], [i64; 4]) = ([2, 4, -1, -6], [-2, 1, -4, -4]);

fn expected(layers: usize) -> Option<([i64; 4], [i64; 4])> {
    match layers {
        1000 | 2500 => Some(EXPECTED_1000_2500),
        5000 => Some(EXPECTED_5000),
        _ => None,
    }
}

/// Runs cellx with `layers` layers on `F`: the fastest of `params.repeats` sums over 10 builds.
pub fn run<F: ReactiveFramework>(layers: usize, params: Params) -> Result<Duration, String> {
    for _ in 0..params.warmups {
        once::<F>(layers)?;
    }
    let mut best = Duration::MAX;
    for _ in 0..params.repeats.max(1) {
        let mut total = Duration::ZERO;
        for _ in 0..10 {
            total += once::<F>(layers)?;
        }
        best = best.min(total);
    }
    Ok(best)
}

type Layer<F> = [<F as ReactiveFramework>::Computed<i64>; 4];

fn once<F: ReactiveFramework>(layers: usize) -> Result<Duration, String> {
    let (start, end) = F::with_build(|| {
        let start = [1, 2, 3, 4].map(F::signal);
        let s = start.clone();
        let first: Layer<F> = [
            F::computed({
                let s = s.clone();
                move || s[1].read()
            }),
            F::computed({
                let s = s.clone();
                move || s[0].read() - s[2].read()
            }),
            F::computed({
                let s = s.clone();
                move || s[1].read() + s[3].read()
            }),
            F::computed(move || s[2].read()),
        ];
        effects::<F>(&first);
        let mut layer = first;
        for _ in 1..layers {
            let m = layer.clone();
            let next: Layer<F> = [
                F::computed({
                    let m = m.clone();
                    move || m[1].read()
                }),
                F::computed({
                    let m = m.clone();
                    move || m[0].read() - m[2].read()
                }),
                F::computed({
                    let m = m.clone();
                    move || m[1].read() + m[3].read()
                }),
                F::computed(move || m[2].read()),
            ];
            effects::<F>(&next);
            layer = next;
        }
        (start, layer)
    });
    let ((before, after), elapsed) = timed_region(|| {
        let before = [0, 1, 2, 3].map(|k| end[k].read());
        F::with_batch(|| {
            for (k, v) in [4, 3, 2, 1].into_iter().enumerate() {
                start[k].write(v);
            }
        });
        let after = [0, 1, 2, 3].map(|k| end[k].read());
        (before, after)
    });
    drop((start, end));
    F::cleanup();
    if let Some((eb, ea)) = expected(layers) {
        check(before == eb, || {
            format!("cellx{layers}: end before = {before:?}, expected {eb:?}")
        })?;
        check(after == ea, || {
            format!("cellx{layers}: end after = {after:?}, expected {ea:?}")
        })?;
    }
    Ok(elapsed)
}

fn effects<F: ReactiveFramework>(layer: &Layer<F>) {
    for c in layer {
        let c = c.clone();
        F::effect(move || {
            c.read();
        });
    }
}

/// The floor: the same layered recurrence over plain arrays, stopping once a layer comes out unchanged.
pub fn run_floor(layers: usize, params: Params) -> Result<(Duration, u64), String> {
    let mut best = Duration::MAX;
    let mut best_runs = 0;
    for rep in 0..params.warmups + params.repeats.max(1) {
        let mut total = Duration::ZERO;
        let mut runs = 0u64;
        for _ in 0..10 {
            let mut values = vec![[0i64; 4]; layers + 1];
            values[0] = [1, 2, 3, 4];
            for l in 1..=layers {
                values[l] = step(values[l - 1]);
            }
            let ((before, after), elapsed) = timed_region(|| {
                let before = values[layers];
                values[0] = black_box([4, 3, 2, 1]);
                for l in 1..=layers {
                    let next = step(values[l - 1]);
                    // 4 computeds re-run; each changed one re-runs its effect.
                    runs += 4 + next.iter().zip(&values[l]).filter(|(a, b)| a != b).count() as u64;
                    if next == values[l] {
                        break;
                    }
                    values[l] = next;
                }
                (before, values[layers])
            });
            if let Some((eb, ea)) = expected(layers) {
                check(before == eb && after == ea, || {
                    format!("floor cellx{layers}: {before:?} -> {after:?}")
                })?;
            }
            total += elapsed;
        }
        if rep >= params.warmups && total < best {
            best = total;
            best_runs = runs;
        }
    }
    Ok((best, best_runs))
}

#[inline]
fn step(m: [i64; 4]) -> [i64; 4] {
    [m[1], m[0] - m[2], m[1] + m[3], m[2]]
}
