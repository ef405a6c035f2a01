//! Heap footprint per node: a counting global allocator ([`CountingAlloc`], installed by the bench binary) and
//! [`footprint`], which builds 10 000 nodes of each kind and divides the growth in live heap bytes.
//!
//! The figures are live-heap deltas, so they include the library's own container growth (slab or slot-map
//! doubling) amortised over the nodes, and exclude the benchmark's own `Vec`s of handles (reserved beforehand).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

use crate::framework::{ReactiveFramework, Read};

static LIVE: AtomicIsize = AtomicIsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// A global allocator that forwards to [`System`] and tracks live heap bytes and the number of allocations (an
/// `alloc`, `alloc_zeroed` or `realloc` call each).
pub struct CountingAlloc;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the counter is only bookkeeping.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as-is.
        let p = unsafe { System.alloc(layout) };
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as-is.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as-is.
        let p = unsafe { System.alloc_zeroed(layout) };
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as-is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        if !p.is_null() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}

/// Allocations made so far, counted by [`CountingAlloc`] (0 if it is not the global allocator).
pub fn allocations() -> usize {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Live heap bytes counted by [`CountingAlloc`] (0 if it is not the global allocator).
pub fn live_bytes() -> isize {
    LIVE.load(Ordering::Relaxed)
}

/// Bytes per node kind for one library.
#[derive(Clone, Copy, Debug)]
pub struct Footprint {
    /// Per `i64` signal.
    pub signal: f64,
    /// Per `i64` memo that has run once, excluding its dependency edge.
    pub memo: f64,
    /// Per dependency edge (one memo reading one more signal).
    pub edge: f64,
    /// Per effect that read one signal (including that edge, and the adapter's handle storage).
    pub effect: f64,
}

const N: usize = 10_000;

fn memos_reading<F: ReactiveFramework>(sigs: &[F::Signal<i64>], deps: usize) -> f64 {
    let mut memos: Vec<F::Computed<i64>> = Vec::with_capacity(N);
    let before = live_bytes();
    F::with_build(|| {
        for i in 0..N {
            let mine: Vec<F::Signal<i64>> = (0..deps)
                .map(|k| sigs[(i + k) % sigs.len()].clone())
                .collect();
            memos.push(F::computed(move || mine.iter().map(|s| s.read()).sum()));
        }
        for m in &memos {
            m.read();
        }
    });
    // The closure's captured Vec of handles is the benchmark's, not the library's.
    let captured = if deps == 0 {
        0
    } else {
        deps * size_of::<F::Signal<i64>>()
    };
    let bytes = (live_bytes() - before) as f64 / N as f64 - captured as f64;
    drop(memos);
    bytes
}

/// Measures `F`'s footprint. Needs [`CountingAlloc`] as the global allocator.
pub fn footprint<F: ReactiveFramework>() -> Footprint {
    let mut sigs: Vec<F::Signal<i64>> = Vec::with_capacity(N);
    let before = live_bytes();
    F::with_build(|| {
        for i in 0..N as i64 {
            sigs.push(F::signal(i));
        }
    });
    let signal = (live_bytes() - before) as f64 / N as f64;
    let one = memos_reading::<F>(&sigs, 1);
    let nine = memos_reading::<F>(&sigs, 9);
    let edge = (nine - one) / 8.0;
    let before = live_bytes();
    F::with_build(|| {
        for s in sigs.clone() {
            F::effect(move || {
                s.read();
            });
        }
    });
    let effect = (live_bytes() - before) as f64 / N as f64;
    drop(sigs);
    F::cleanup();
    Footprint {
        signal,
        memo: one - edge,
        edge,
        effect,
    }
}
