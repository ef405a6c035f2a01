//! A Rust port of [js-reactivity-benchmark](https://github.com/milomg/js-reactivity-benchmark) (milomg's), used
//! to compare ranvier's reactive core with other Rust signal libraries and with a hand-written floor.
//!
//! - [`framework`]: the adapter trait (the suite's `ReactiveFramework`) and a counting wrapper.
//! - [`frameworks`]: one adapter per library (`ranvier` always; alien-signals, samara-signals, sycamore-reactive
//!   and reactive_graph with the `compare` feature).
//! - [`cases`]: every case of the suite, generic over the adapter, each with its hand-written floor.
//! - [`harness`]: fastest-of-N timing, verification (a wrong answer is FAILED, not timed), report lines.
//! - [`memory`]: a counting global allocator for bytes per signal, memo and edge.
//! - [`random`]: the suite's `sfc32` + `xmur3a` PRNG.
//! - `single_thread` (with `compare`): reactive_graph's executor and `Send` wrapper for one-thread benchmarks.
//!
//! Run it with `cargo bench -p ranvier-benchmarks --features compare` (see the package README).
#![deny(missing_docs)]

pub mod cases;
pub mod framework;
pub mod frameworks;
pub mod harness;
pub mod memory;
pub mod random;
#[cfg(feature = "compare")]
pub mod single_thread;
