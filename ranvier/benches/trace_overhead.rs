//! What the trace recorder costs on the core's shapes.
//!
//! A build is traced or not, so run this twice and compare (or run `ranvier/benches/trace_overhead.sh`, which does):
//!
//! ```text
//! cargo bench -p ranvier-rs --bench trace_overhead                    # untraced
//! cargo bench -p ranvier-rs --bench trace_overhead --features trace   # traced
//! ```
//!
//! Each shape prints one line, `shape ns/op`, the best of several rounds (least disturbed by other work on the
//! machine). With tracing on it also prints the ring's bytes per event.

use ranvier::{Effect, Memo, Signal, batch};
use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;

/// Rounds per shape: 7, or `TRACE_BENCH_ROUNDS` (the script's `--ir` mode runs 1 under callgrind).
fn rounds() -> usize {
    std::env::var("TRACE_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7)
}

/// Runs `step` `iterations` times per round and returns the best round's nanoseconds per step.
fn measure(iterations: u32, mut step: impl FnMut(u32)) -> f64 {
    for i in 0..iterations / 10 + 1 {
        step(i);
    }
    let mut best = f64::MAX;
    let mut n = iterations / 10 + 1;
    for _ in 0..rounds() {
        let start = Instant::now();
        for _ in 0..iterations {
            n += 1;
            step(n);
        }
        best = best.min(start.elapsed().as_nanos() as f64 / f64::from(iterations));
    }
    best
}

fn sink() -> Rc<Cell<i64>> {
    Rc::new(Cell::new(0))
}

/// One signal, a chain of 100 memos, an effect at the end; one write per step.
fn deep_chain() -> f64 {
    let source = Signal::new(0_i64);
    let mut last = Memo::new({
        let s = source.clone();
        move |_| s.get() + 1
    });
    for _ in 1..100 {
        let prev = last.clone();
        last = Memo::new(move |_| prev.get() + 1);
    }
    let out = sink();
    let _e = Effect::new({
        let (last, out) = (last.clone(), out.clone());
        move || out.set(last.get())
    });
    let t = measure(2_000, |i| source.set(i64::from(i)));
    black_box(out.get());
    t
}

/// One signal read by 100 memos, each read by an effect; one write per step.
fn broad_fan_out() -> f64 {
    let source = Signal::new(0_i64);
    let out = sink();
    let mut keep = Vec::new();
    for k in 0..100 {
        let m = Memo::new({
            let s = source.clone();
            move |_| s.get() + k
        });
        keep.push(Effect::new({
            let out = out.clone();
            move || out.set(out.get() + m.get())
        }));
    }
    let t = measure(2_000, |i| source.set(i64::from(i)));
    black_box(out.get());
    t
}

/// A diamond: a signal, two memos, a memo reading both, an effect; one write per step.
fn diamond() -> f64 {
    let top = Signal::new(0_i64);
    let left = Memo::new({
        let t = top.clone();
        move |_| t.get() * 2
    });
    let right = Memo::new({
        let t = top.clone();
        move |_| t.get() * 3
    });
    let bottom = Memo::new(move |_| left.get() + right.get());
    let out = sink();
    let _e = Effect::new({
        let out = out.clone();
        move || out.set(bottom.get())
    });
    let t = measure(100_000, |i| top.set(i64::from(i)));
    black_box(out.get());
    t
}

/// A memo that keeps its value (parity of a large number) above 100 memos and effects that never re-run.
fn cutoff() -> f64 {
    let source = Signal::new(0_i64);
    let stays = Memo::new({
        let s = source.clone();
        move |_| s.get() / 1_000_000_000
    });
    let out = sink();
    let mut keep = Vec::new();
    for k in 0..100 {
        let stays = stays.clone();
        let m = Memo::new(move |_| stays.get() + k);
        keep.push(Effect::new({
            let out = out.clone();
            move || out.set(out.get() + m.get())
        }));
    }
    let t = measure(20_000, |i| source.set(i64::from(i)));
    black_box(out.get());
    t
}

/// 100 signals, one effect each, all written in one batch per step.
fn effects() -> f64 {
    let out = sink();
    let signals: Vec<Signal<i64>> = (0..100).map(|_| Signal::new(0)).collect();
    let _effects: Vec<Effect> = signals
        .iter()
        .map(|s| {
            let (s, out) = (s.clone(), out.clone());
            Effect::new(move || out.set(out.get() + s.get()))
        })
        .collect();
    let t = measure(2_000, |i| {
        batch(|| {
            for s in &signals {
                s.set(i64::from(i));
            }
        })
    });
    black_box(out.get());
    t
}

fn main() {
    let traced = ranvier::trace::TRACED;
    println!("trace_overhead traced={traced}");
    // `TRACE_CAPACITY=4096 cargo bench ...` measures a smaller ring.
    #[cfg(feature = "trace")]
    if let Some(capacity) = std::env::var("TRACE_CAPACITY")
        .ok()
        .and_then(|c| c.parse().ok())
    {
        ranvier::trace::set_capacity(capacity);
    }
    for (name, shape) in [
        ("deep_chain", deep_chain as fn() -> f64),
        ("broad_fan_out", broad_fan_out),
        ("diamond", diamond),
        ("cutoff", cutoff),
        ("effects", effects),
    ] {
        // `SHAPE=deep_chain` runs one shape (the script's `--ir` mode counts instructions per shape).
        if std::env::var("SHAPE").is_ok_and(|only| only != name) {
            continue;
        }
        let ns = shape();
        println!("{name:<14} {ns:>12.1} ns/op");
        ranvier::graph::dispose_current();
    }
    #[cfg(feature = "trace")]
    println!(
        "ring slot     {:>12} bytes per event, plus {} bytes of text ring per event; default ring {} KiB",
        ranvier::trace::slot_bytes(),
        ranvier::trace::TEXT_BYTES_PER_EVENT,
        (ranvier::trace::slot_bytes() + ranvier::trace::TEXT_BYTES_PER_EVENT)
            * ranvier::trace::DEFAULT_CAPACITY
            / 1024
    );
}
