//! The recorder: the log the runtime writes as the graph runs (traced builds), which [`trace`](crate::trace)
//! answers questions from.
//!
//! It belongs to the graph, not to `trace`, so that dependencies run one way: the engine calls the recorder's hooks
//! (`log/hooks.rs`) and keeps it in its runtime; `trace` reads it. In an untraced build the runtime holds the empty
//! recorder of `off.rs`, whose hooks are empty and inline to nothing.

cfg_traced! {
    pub(crate) mod log;
    pub(crate) mod table;

    pub(crate) use log::Tracer;

    /// Whether this build records the trace log.
    pub const TRACED: bool = true;
}

cfg_untraced! {
    // Compiled for their types and signatures (the trace's answers carry them in every build); nothing reaches their
    // code, since the runtime holds the empty tracer of `off.rs`.
    #[allow(dead_code)]
    pub(crate) mod log;
    #[allow(dead_code)]
    pub(crate) mod table;
    mod off;

    pub(crate) use off::Tracer;

    /// Whether this build records the trace log.
    pub const TRACED: bool = false;
}

/// How many bytes one event of ring capacity takes: its 48-byte slot and its 16 bytes of the text ring.
pub const EVENT_BYTES: usize = 64;

/// How many bytes the trace's ring takes by default, slots and texts together: 4 MiB. Change it for a thread with
/// [`set_ring_bytes`](crate::trace::set_ring_bytes), or for every thread with the environment variable
/// `RANVIER_TRACE_RING_BYTES` (read once, when the first graph starts).
pub const DEFAULT_RING_BYTES: usize = 4 << 20;

/// How many events the ring keeps by default: [`DEFAULT_RING_BYTES`] ÷ [`EVENT_BYTES`] = 65,536.
pub const DEFAULT_CAPACITY: usize = DEFAULT_RING_BYTES / EVENT_BYTES;

/// The ring's capacity in events for a new graph: `RANVIER_TRACE_RING_BYTES` ÷ [`EVENT_BYTES`] when it is set to a
/// number of bytes, else [`DEFAULT_CAPACITY`].
#[allow(dead_code)]
pub(crate) fn initial_capacity() -> usize {
    static CAPACITY: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CAPACITY.get_or_init(|| {
        std::env::var("RANVIER_TRACE_RING_BYTES")
            .ok()
            .and_then(|bytes| bytes.trim().replace('_', "").parse::<usize>().ok())
            .map_or(DEFAULT_CAPACITY, |bytes| (bytes / EVENT_BYTES).max(1))
    })
}

/// A value the trace can record: `Debug` and `'static`, so that common scalars are kept as they are and formatted only
/// when an answer reads them; anything else is formatted when recorded.
pub(crate) trait Recordable: std::fmt::Debug {
    /// The value as a scalar, if it is one of the kept kinds (decided per type at compile time).
    #[allow(dead_code)]
    fn scalar(&self) -> Option<Scalar>;
}

/// A scalar the trace keeps as it is.
#[allow(dead_code)]
#[derive(Copy, Clone, Debug)]
pub(crate) enum Scalar {
    I64(i64),
    U64(u64),
    F64(f64),
    F32(f32),
    Bool(bool),
}

impl<T: std::fmt::Debug + 'static> Recordable for T {
    #[inline]
    fn scalar(&self) -> Option<Scalar> {
        // `T` is known here, so each test folds to a constant and only the matching arm is left.
        let any: &dyn std::any::Any = self;
        Some(if let Some(v) = any.downcast_ref::<i64>() {
            Scalar::I64(*v)
        } else if let Some(v) = any.downcast_ref::<f64>() {
            Scalar::F64(*v)
        } else if let Some(v) = any.downcast_ref::<i32>() {
            Scalar::I64(i64::from(*v))
        } else if let Some(v) = any.downcast_ref::<u64>() {
            Scalar::U64(*v)
        } else if let Some(v) = any.downcast_ref::<u32>() {
            Scalar::U64(u64::from(*v))
        } else if let Some(v) = any.downcast_ref::<usize>() {
            Scalar::U64(*v as u64)
        } else if let Some(v) = any.downcast_ref::<bool>() {
            Scalar::Bool(*v)
        } else if let Some(v) = any.downcast_ref::<f32>() {
            Scalar::F32(*v)
        } else {
            return None;
        })
    }
}
