//! The cost of keeping history: one cart message with its publication, with the exposure's history ring (the
//! default: 10,000 versions within 16 MiB) and without it (`Exposure::history(0, 0)`), in one process; and the
//! bytes the ring keeps per version of the cart.
//!
//! Each sample runs a round of 1,000 `add_item` messages straight on the graph thread (`Mvu::dispatch`: the update,
//! the cart's memos and collection, and the publication of its four values), on the two carts in turn, so both see
//! the same machine (each goes first in every other round). Run with `cargo bench -p ranvier-examples --bench history` (`RANVIER_BENCH_SAMPLES=N` rounds;
//! `RANVIER_BENCH_ONLY=ring|none` runs one cart only, for instruction counts under callgrind).

#![allow(dead_code, missing_docs)]

#[path = "../examples/cart.rs"]
mod cart;

use std::time::{Duration, Instant};

use ranvier::Expose;
use ranvier::exposure::{ExposeError, Exposure, ExposureHandle};
use ranvier::host::GraphHost;

/// Messages per round.
const ROUND: u64 = 1_000;

type Host = GraphHost<(cart::CartApp, ExposureHandle)>;

fn start(ring: bool) -> Host {
    GraphHost::start(move || {
        let app = cart::cart_graph();
        let mut exposure = Exposure::new();
        if !ring {
            exposure.history(0, 0);
        }
        app.expose(&mut exposure)?;
        let exposure = exposure.start()?;
        Ok::<_, ExposeError>((app, exposure))
    })
    .expect("the cart starts")
}

/// One round: `ROUND` messages, each adding one unit to one of ten lines. Returns the graph thread's time.
fn round(host: &Host, first: u64) -> Duration {
    host.invoke(move |(app, _)| {
        let started = Instant::now();
        for n in first..first + ROUND {
            app.cart
                .dispatch(cart::Msg::AddItem {
                    sku: format!("sku-{}", n % 10),
                    unit_price: 120 + n % 10,
                    quantity: 1,
                })
                .expect("added");
        }
        started.elapsed()
    })
    .wait()
    .expect("the round runs")
}

fn main() {
    let samples: usize = std::env::var("RANVIER_BENCH_SAMPLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(30);
    let only = std::env::var("RANVIER_BENCH_ONLY").ok();
    let carts: Vec<(&str, Host)> = [("ring", true), ("none", false)]
        .into_iter()
        .filter(|(name, _)| only.as_deref().is_none_or(|o| o == *name))
        .map(|(name, ring)| (name, start(ring)))
        .collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); carts.len()];
    // a warm-up round each, then the samples in turn
    for (_, host) in &carts {
        round(host, 0);
    }
    // in turn, each first in every other sample
    for s in 0..samples {
        let mut order: Vec<usize> = (0..carts.len()).collect();
        if s % 2 == 1 {
            order.reverse();
        }
        for i in order {
            times[i].push(round(&carts[i].1, (s as u64 + 1) * ROUND));
        }
    }
    println!(
        "cart: {ROUND} messages per round, {samples} rounds each, per message (median of rounds, p90)"
    );
    let mut medians = Vec::new();
    for ((name, host), times) in carts.iter().zip(&mut times) {
        times.sort();
        let per = |d: Duration| d.as_secs_f64() * 1e9 / ROUND as f64;
        let median = per(times[times.len() / 2]);
        let p90 = per(times[times.len() * 9 / 10]);
        let handle = host
            .invoke(|(_, exposure)| exposure.clone())
            .wait()
            .expect("the handle");
        let kept = handle.kept_versions();
        println!(
            "  {name:>4}: {median:>8.0} ns (p90 {p90:.0} ns); versions kept {}..={}",
            kept.start(),
            kept.end()
        );
        medians.push(median);
        if *name == "ring" {
            let bytes = handle.history_bytes();
            let versions = kept.end() - kept.start();
            println!(
                "        history: {bytes} bytes for {versions} versions, {:.0} bytes per version",
                bytes as f64 / versions.max(1) as f64
            );
        }
    }
    if let [ring, none] = medians[..] {
        println!("ring / none: {:.3}×", ring / none);
    }
}
