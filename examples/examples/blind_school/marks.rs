//! The marking rules: how late a piece of work is, what the late penalty leaves of a mark, a mark as a percentage,
//! a pupil's weighted term percentage, and the grade band a percentage falls in.

use super::model::Rules;

/// The school's grade bands: the lowest percentage of each, best first (below the last is a U).
pub const BANDS: [(u32, &str); 4] = [(70, "A"), (60, "B"), (50, "C"), (40, "D")];

/// How many school days after `due` work handed in on `day` is (0 when on time or early).
#[ranvier::trace_fn]
pub fn days_late(due: u32, day: u32) -> u32 {
    day.saturating_sub(due)
}

/// What is left of `points` after the late penalty for `days_late` days (rounded down).
#[ranvier::trace_fn]
pub fn after_penalty(points: u32, days_late: u32, rules: &Rules) -> u32 {
    let penalty = (days_late * rules.late_penalty).min(rules.max_penalty);
    points * (100 - penalty) / 100
}

/// `scored` out of `max` as a whole percentage (rounded down).
#[ranvier::trace_fn]
pub fn percent(scored: u32, max: u32) -> u32 {
    (scored * 100).checked_div(max).unwrap_or(0)
}

/// A pupil's term percentage from their marks (`scored`, `max`, `weight`): each mark's percentage, weighted; `None`
/// without marks.
#[ranvier::trace_fn]
pub fn term_percent(marks: &[(u32, u32, u32)]) -> Option<u32> {
    let weights: u32 = marks.iter().map(|m| m.2).sum();
    if weights == 0 {
        return None;
    }
    let total: u32 = marks.iter().map(|&(s, max, w)| percent(s, max) * w).sum();
    Some(total / weights)
}

/// The grade band `percent` falls in.
#[ranvier::trace_fn]
pub fn band(percent: u32) -> &'static str {
    BANDS
        .iter()
        .find(|(from, _)| percent >= *from)
        .map_or("U", |b| b.1)
}

/// The rules with a mistake.
pub mod slipped {
    use super::BANDS;

    /// How many school days late work handed in on `day` is.
    #[ranvier::trace_fn]
    pub fn days_late(due: u32, day: u32) -> u32 {
        // BUG(late_days_swapped)
        due.saturating_sub(day)
    }

    /// The grade band `percent` falls in.
    #[ranvier::trace_fn]
    pub fn band(percent: u32) -> &'static str {
        BANDS
            .iter()
            // BUG(band_boundary)
            .find(|(from, _)| percent > *from)
            .map_or("U", |b| b.1)
    }
}
