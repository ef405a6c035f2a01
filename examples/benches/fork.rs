//! The cost of a fork of the cart: make it (clone the live cart's model on the live graph thread, build a fresh cart
//! graph on a new graph thread, write the model in, start its exposure), run one message on it and drop it. The
//! live cart holds a few lines first, so the copy is not of an empty model.
//!
//! Run with `cargo bench -p ranvier-examples --bench fork` (`RANVIER_BENCH_SAMPLES=N` to change the sample count).

#![allow(dead_code, missing_docs)]

#[path = "../examples/cart.rs"]
mod cart;

use std::time::{Duration, Instant};

use ranvier::exposure::fork::ForkOptions;
use ranvier::host::block_on;
use serde_json::json;

fn main() {
    let samples: usize = std::env::var("RANVIER_BENCH_SAMPLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000);
    let warmup = samples / 10;
    let host = cart::start_cart().expect("the cart starts");
    let live = host
        .invoke(|(_, exposure)| exposure.clone())
        .wait()
        .expect("the exposure");
    for sku in 0..10 {
        block_on(live.dispatch(
            "add_item",
            json!({"sku": format!("sku-{sku}"), "unitPrice": 120 + sku, "quantity": 2}),
        ))
        .expect("added");
    }
    println!("fork of the cart (10 lines), {samples} samples (after {warmup} warm-up)");
    let fork_only = measure(samples, warmup, || {
        let fork = block_on(live.fork(ForkOptions::default())).expect("forked");
        drop(fork);
    });
    report("fork + drop", &fork_only);
    let fork_and_run = measure(samples, warmup, || {
        let fork = block_on(live.fork(ForkOptions::default())).expect("forked");
        let ran = block_on(
            fork.handle()
                .dispatch("set_discount", json!({"percent": 10})),
        )
        .expect("ran")
        .ran()
        .expect("not paused");
        assert_eq!(ran.get("discount"), Some(&json!(10)));
        drop(fork);
    });
    report("fork + one message + drop", &fork_and_run);
    assert_eq!(live.version(), 10, "the live cart never moved");
}

fn measure(samples: usize, warmup: usize, mut run: impl FnMut()) -> Vec<Duration> {
    for _ in 0..warmup {
        run();
    }
    let mut times: Vec<Duration> = (0..samples)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .collect();
    times.sort();
    times
}

fn report(name: &str, times: &[Duration]) {
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e6;
    println!(
        "{name:<28} median {:>8.1} µs   p90 {:>8.1} µs   p99 {:>8.1} µs",
        at(0.5),
        at(0.9),
        at(0.99)
    );
}
