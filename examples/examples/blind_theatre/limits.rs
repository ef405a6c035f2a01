//! The box office's limits: how long a hold lasts, how many seats one booking may take, when a booking closes, when
//! returns are taken, and until when the bar takes interval orders.

use super::model::{Hold, Performance, Section};

/// A hold lasts a quarter of an hour: one placed at 10:00 is gone at 10:15.
pub const HOLD_MINUTES: u32 = 15;
/// The most seats one booking or hold may take.
pub const MAX_SEATS: u32 = 20;
/// Returns are taken until an hour before curtain up.
pub const RETURNS_CLOSE: u32 = 60;
/// Interval orders are taken until ten minutes before curtain up.
pub const BAR_CLOSES: u32 = 10;

/// Whether `hold` has lapsed at `now` (minutes of the week).
pub fn hold_expired(hold: &Hold, now: u32) -> bool {
    hold.placed + HOLD_MINUTES <= now
}

/// Whether `seats` in `section` of `perf` can be sold or held at `now`.
///
/// # Errors
///
/// Why not.
pub fn check_seats(
    perf: &Performance,
    section: Section,
    seats: u32,
    now: u32,
) -> Result<(), String> {
    if now >= perf.starts() {
        return Err(format!("{} has started", perf.title()));
    }
    if seats > MAX_SEATS {
        return Err(format!("at most {MAX_SEATS} seats a booking"));
    }
    let free = perf.free(section);
    if perf.is_sold_out() {
        Err(format!("{} is sold out", perf.title()))
    } else if free < seats {
        Err(format!(
            "only {free} seats left in the {} for {}",
            section.name(),
            perf.title()
        ))
    } else {
        Ok(())
    }
}

/// Whether a booking for `perf` may be returned at `now`: only for a sold-out performance, and not in its last hour.
///
/// # Errors
///
/// Why not.
pub fn may_return(perf: &Performance, now: u32) -> Result<(), String> {
    if !perf.is_sold_out() {
        Err(format!(
            "returns are taken only for sold-out performances, and {} has seats",
            perf.title()
        ))
    } else if now + RETURNS_CLOSE > perf.starts() {
        Err(format!("returns for {} have closed", perf.title()))
    } else {
        Ok(())
    }
}

/// Whether the bar still takes interval orders for `perf` at `now`.
pub fn bar_open(perf: &Performance, now: u32) -> bool {
    now + BAR_CLOSES <= perf.starts()
}

/// Copies of the limits with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Hold;
    use super::HOLD_MINUTES;

    /// [`super::hold_expired`].
    pub fn hold_expired(hold: &Hold, now: u32) -> bool {
        // BUG(hold_lapse)
        hold.placed + HOLD_MINUTES < now
    }
}
