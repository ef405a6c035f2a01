//! Timing and result collection: fastest-of-N wall-clock timing with [`std::time::Instant`], a verification pass
//! per (library, case) that checks the suite's expected values and counts node executions, and the report.

use std::cell::Cell;
use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use crate::cases::{self, Case};
use crate::framework::{self, Counting, ReactiveFramework};

/// How many warm-up and timed repetitions a case runs.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Untimed repetitions before timing.
    pub warmups: usize,
    /// Timed repetitions; the fastest is reported (cellx reports the sum of its 10 builds, as the suite does).
    pub repeats: usize,
    /// `iter()` calls per kairo repetition (the suite's 1000; tests use fewer).
    pub inner: usize,
}

impl Params {
    /// `warmups` and `repeats` with the suite's 1000 kairo `iter()` calls per repetition.
    pub fn new(warmups: usize, repeats: usize) -> Params {
        Params {
            warmups,
            repeats,
            inner: 1000,
        }
    }
}

thread_local! {
    static REGION_RUNS: Cell<u64> = const { Cell::new(0) };
    static LAST_REGION_ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// The heap allocations made during the latest timed region on this thread (the last timed repetition of the last
/// case measured), as the bench binary's [`CountingAlloc`](crate::memory::CountingAlloc) counts them.
pub fn last_region_allocations() -> usize {
    LAST_REGION_ALLOCATIONS.with(Cell::get)
}

/// Runs and times one timed unit. Everything the suite times goes through here (and only that), so
/// `valgrind --tool=callgrind --toggle-collect='*timed_region*'` counts exactly the timed instructions.
#[inline(never)]
pub fn timed_region<R>(f: impl FnOnce() -> R) -> (R, Duration) {
    let before = framework::runs();
    let allocations = crate::memory::allocations();
    let start = Instant::now();
    let result = black_box(f());
    let elapsed = start.elapsed();
    LAST_REGION_ALLOCATIONS.with(|a| a.set(crate::memory::allocations() - allocations));
    REGION_RUNS.with(|r| r.set(r.get() + framework::runs() - before));
    (result, elapsed)
}

/// Turns a failed check into the message reported in place of a time.
#[inline]
pub fn check(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what()) }
}

/// What one (library, case) pair produced.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Verified and timed.
    Timed {
        /// Fastest timed repetition (cellx: the sum over its 10 builds).
        time: Duration,
        /// Computed + effect body executions during that reported time.
        node_runs: u64,
    },
    /// The library gave a wrong answer (or panicked): not timed.
    Failed(String),
    /// Not run (e.g. deeper than the library's depth cap).
    Skipped(String),
}

/// One row of results.
#[derive(Clone, Debug)]
pub struct Row {
    /// Library name.
    pub framework: &'static str,
    /// Case name.
    pub case: String,
    /// Result.
    pub outcome: Outcome,
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panicked".to_string()
    }
}

/// Verifies `case` on library `F` (counting node executions) and then times it.
pub fn measure<F: ReactiveFramework>(case: &Case, params: Params) -> Outcome {
    if case.depth > F::MAX_DEPTH {
        return Outcome::Skipped(format!("depth {} > cap {}", case.depth, F::MAX_DEPTH));
    }
    REGION_RUNS.with(|r| r.set(0));
    framework::reset_runs();
    let verify = Params {
        warmups: 1,
        repeats: 1,
        ..params
    };
    let counted = catch_unwind(AssertUnwindSafe(|| cases::run::<Counting<F>>(case, verify)));
    let node_runs = REGION_RUNS.with(Cell::get);
    match counted {
        Ok(Ok(_)) => {}
        Ok(Err(msg)) => {
            F::cleanup();
            return Outcome::Failed(msg);
        }
        Err(panic) => {
            let _ = catch_unwind(AssertUnwindSafe(F::cleanup));
            return Outcome::Failed(format!("panicked: {}", panic_message(panic)));
        }
    }
    match catch_unwind(AssertUnwindSafe(|| cases::run::<F>(case, params))) {
        Ok(Ok(time)) => Outcome::Timed { time, node_runs },
        Ok(Err(msg)) => {
            F::cleanup();
            Outcome::Failed(msg)
        }
        Err(panic) => {
            let _ = catch_unwind(AssertUnwindSafe(F::cleanup));
            Outcome::Failed(format!("panicked: {}", panic_message(panic)))
        }
    }
}

/// Runs `case` on the hand-written floor.
pub fn measure_floor(case: &Case, params: Params) -> Outcome {
    match catch_unwind(AssertUnwindSafe(|| cases::run_floor(case, params))) {
        Ok(Ok((time, node_runs))) => Outcome::Timed { time, node_runs },
        Ok(Err(msg)) => Outcome::Failed(msg),
        Err(panic) => Outcome::Failed(format!("panicked: {}", panic_message(panic))),
    }
}

/// The suite's line format: `framework , test , time` padded to 32/60/8 columns, time in ms (2 decimals).
pub fn suite_line(row: &Row) -> String {
    let time = match &row.outcome {
        Outcome::Timed { time, .. } => format!("{:.2}", time.as_secs_f64() * 1e3),
        Outcome::Failed(_) => "FAILED".to_string(),
        Outcome::Skipped(_) => "skipped".to_string(),
    };
    format!("{:<32}, {:<60}, {:>8}", row.framework, row.case, time)
}
