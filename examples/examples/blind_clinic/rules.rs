//! The day's rules: the clinic's hours, how the clock reads, when two visits clash, and where the next free slot
//! starts.

/// The hour the clinic opens (minute 0 of the day).
pub const OPENS_HOUR: u32 = 8;

/// The minute the clinic closes (16:00).
pub const CLOSES_MINUTE: u32 = 480;

/// The length of a bookable slot, in minutes.
pub const SLOT_MINUTES: u32 = 15;

/// The clock reading of `minute` after opening, as `HH:MM`.
#[ranvier::trace_fn]
pub fn clock(minute: u32) -> String {
    let hours = OPENS_HOUR + minute / 60;
    format!("{hours:02}:{:02}", minute % 60)
}

/// Whether a visit of `a_minutes` from `a_start` and one of `b_minutes` from `b_start` share a minute (one that
/// ends when the other starts does not).
#[ranvier::trace_fn]
pub fn overlaps(a_start: u32, a_minutes: u32, b_start: u32, b_minutes: u32) -> bool {
    let a_end = a_start + a_minutes;
    let b_end = b_start + b_minutes;
    a_start < b_end && b_start < a_end
}

/// The first slot boundary at or after `minute`.
#[ranvier::trace_fn]
pub fn next_boundary(minute: u32) -> u32 {
    minute.div_ceil(SLOT_MINUTES) * SLOT_MINUTES
}

/// The rules as first written.
pub mod slipped {
    /// Whether two visits share a minute.
    #[ranvier::trace_fn]
    pub fn overlaps(a_start: u32, a_minutes: u32, b_start: u32, b_minutes: u32) -> bool {
        let a_end = a_start + a_minutes;
        let b_end = b_start + b_minutes;
        // BUG(overlap_touch)
        a_start <= b_end && b_start <= a_end
    }
}
