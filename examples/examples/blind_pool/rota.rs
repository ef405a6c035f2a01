//! The lifeguards' rules: how many must be on the poolside for the bathers in the water, and when a guard is due a
//! break.

/// One guard on the poolside for every twenty bathers (and one at least, while the pool is open).
pub const BATHERS_PER_GUARD: u32 = 20;
/// A guard takes a break after two hours on the poolside.
pub const LONGEST_STRETCH: u32 = 120;
/// A break lasts a quarter of an hour.
pub const BREAK_MINUTES: u32 = 15;

/// The guards the poolside needs for `bathers`.
#[ranvier::trace_fn]
pub fn guards_needed(bathers: u32) -> u32 {
    bathers.div_ceil(BATHERS_PER_GUARD).max(1)
}

/// Whether a guard on the poolside since `since` is due a break at `now`.
#[ranvier::trace_fn]
pub fn break_due(since: u32, now: u32) -> bool {
    now.saturating_sub(since) >= LONGEST_STRETCH
}

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::BATHERS_PER_GUARD;

    /// [`super::guards_needed`].
    #[ranvier::trace_fn]
    pub fn guards_needed(bathers: u32) -> u32 {
        // BUG(guards_needed)
        (bathers / BATHERS_PER_GUARD + 1).max(1)
    }
}
