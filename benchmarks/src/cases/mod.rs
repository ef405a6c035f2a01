//! The suite's cases, generic over [`ReactiveFramework`], each with a hand-written floor of the same shape.
//!
//! - [`kairo`]: avoidablePropagation (plus variants with 10/100/1000 levels below the cutoff), broadPropagation,
//!   deepPropagation, diamond, mux, repeatedObservers, triangle, unstable, molBench.
//! - [`cellx`]: cellx at 1000 and 2500 layers.
//! - [`sbench`]: Solid's creation and update cases.
//! - [`dynamic`]: the six rectangular dependency graphs, with the suite's PRNG and expected sums and counts.

pub mod cellx;
pub mod dynamic;
pub mod kairo;
pub mod sbench;

use std::time::Duration;

use crate::framework::ReactiveFramework;
use crate::harness::Params;

/// One benchmark case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Name, as the suite prints it.
    pub name: String,
    /// Suite group (`kairo`, `cellx`, `sbench`, `dynamic`).
    pub group: &'static str,
    /// Longest dependency chain (signal to effect), checked against a library's depth cap.
    pub depth: usize,
    /// What to run.
    pub kind: Kind,
}

/// The shape a [`Case`] runs.
#[derive(Clone, Debug)]
pub enum Kind {
    /// A kairo case.
    Kairo(kairo::Kairo),
    /// cellx with this many layers.
    Cellx(usize),
    /// An sBench case.
    SBench(sbench::SCase),
    /// A dynamic graph.
    Dynamic(dynamic::Config),
}

/// Every case, in the suite's order (sBench, kairo, cellx, dynamic).
pub fn all() -> Vec<Case> {
    let mut cases = Vec::new();
    for s in sbench::SCase::ALL {
        cases.push(Case {
            name: s.name().to_string(),
            group: "sbench",
            depth: 1,
            kind: Kind::SBench(s),
        });
    }
    for k in kairo::Kairo::all() {
        cases.push(Case {
            name: k.name(),
            group: "kairo",
            depth: k.depth(),
            kind: Kind::Kairo(k),
        });
    }
    for layers in [1000, 2500] {
        cases.push(Case {
            name: format!("cellx{layers}"),
            group: "cellx",
            depth: layers + 1,
            kind: Kind::Cellx(layers),
        });
    }
    for config in dynamic::Config::all() {
        cases.push(Case {
            name: config.title(),
            group: "dynamic",
            depth: config.total_layers,
            kind: Kind::Dynamic(config),
        });
    }
    cases
}

/// Runs `case` on `F`: verifies the suite's expected values and returns the reported time.
pub fn run<F: ReactiveFramework>(case: &Case, params: Params) -> Result<Duration, String> {
    match &case.kind {
        Kind::Kairo(k) => kairo::run::<F>(*k, params),
        Kind::Cellx(layers) => cellx::run::<F>(*layers, params),
        Kind::SBench(s) => sbench::run::<F>(*s, params),
        Kind::Dynamic(config) => dynamic::run::<F>(config, params),
    }
}

/// Runs `case` on the hand-written floor: the reported time and the node executions in it.
pub fn run_floor(case: &Case, params: Params) -> Result<(Duration, u64), String> {
    match &case.kind {
        Kind::Kairo(k) => kairo::run_floor(*k, params),
        Kind::Cellx(layers) => cellx::run_floor(*layers, params),
        Kind::SBench(s) => sbench::run_floor(*s, params),
        Kind::Dynamic(config) => dynamic::run_floor(config, params),
    }
}

/// The suite's `busy()`: 100 increments the optimiser may not remove.
#[inline]
pub fn busy() {
    let mut a = 0u32;
    for _ in 0..100 {
        a = std::hint::black_box(a + 1);
    }
    std::hint::black_box(a);
}
