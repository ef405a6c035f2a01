//! Timesheet rules: how a shift's minutes split into day, night and overtime.

/// The clock's constants, in minutes.
pub mod hours {
    /// Minutes in a day.
    pub const DAY: u32 = 24 * 60;
    /// Night work starts at 22:00.
    pub const NIGHT_STARTS: u32 = 22 * 60;
    /// Night work ends at 06:00.
    pub const NIGHT_ENDS: u32 = 6 * 60;
    /// A shift's minutes past eight hours are overtime.
    pub const SHIFT_LIMIT: u32 = 8 * 60;
}

/// How many of the `minutes` of a shift starting at `start_hour` fall in the night (22:00 to 06:00).
#[ranvier::trace_fn]
pub fn night_minutes(start_hour: u32, minutes: u32) -> u32 {
    let mut night = 0;
    for m in 0..minutes {
        let at = (start_hour * 60 + m) % hours::DAY;
        if !(hours::NIGHT_ENDS..hours::NIGHT_STARTS).contains(&at) {
            night += 1;
        }
    }
    night
}

/// `worked` minutes split at `limit`: (the minutes up to it, the overtime past it).
#[ranvier::trace_fn]
pub fn split_overtime(worked: u32, limit: u32) -> (u32, u32) {
    (worked.min(limit), worked.saturating_sub(limit))
}

/// `minutes` as `7h05`.
#[ranvier::trace_fn]
pub fn hm(minutes: u32) -> String {
    format!("{}h{:02}", minutes / 60, minutes % 60)
}

/// The version with the mistake.
pub mod slipped {
    use super::hours;

    /// How many of the `minutes` of a shift starting at `start_hour` fall in the night (22:00 to 06:00).
    #[ranvier::trace_fn]
    pub fn night_minutes(start_hour: u32, minutes: u32) -> u32 {
        let mut night = 0;
        for m in 0..minutes {
            // BUG(night_window)
            let at = (start_hour * 60 + m) / hours::DAY;
            if !(hours::NIGHT_ENDS..hours::NIGHT_STARTS).contains(&at) {
                night += 1;
            }
        }
        night
    }
}
