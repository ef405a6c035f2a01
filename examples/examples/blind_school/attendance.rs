//! The attendance rules: which absences are authorised, how many half-days a pupil has missed without leave, how many
//! days they have been on the roll, and their attendance as a percentage.

use super::model::{Absence, Reason, SESSIONS_PER_DAY};

/// Whether an absence for `reason` is authorised (illness and appointments are; holidays in term time and absences
/// nobody explained are not).
#[ranvier::trace_fn]
pub fn excused(reason: Reason) -> bool {
    matches!(reason, Reason::Ill | Reason::Appointment)
}

/// The half-days `pupil` missed, in all and without leave.
#[ranvier::trace_fn]
pub fn missed(absences: &[Absence], pupil: &str, excused: fn(Reason) -> bool) -> (u32, u32) {
    let mut all = 0;
    let mut unauthorised = 0;
    for absence in absences.iter().filter(|a| a.pupil == pupil) {
        all += absence.half_days;
        if !excused(absence.reason) {
            unauthorised += absence.half_days;
        }
    }
    (all, unauthorised)
}

/// The school days a pupil who joined on day `joined` has been on the roll, today (day `today`) included.
#[ranvier::trace_fn]
pub fn days_on_roll(joined: u32, today: u32) -> u32 {
    today + 1 - joined
}

/// The half-day sessions a pupil on the roll for `days` days was registered for.
#[ranvier::trace_fn]
pub fn sessions(days: u32) -> u32 {
    days * SESSIONS_PER_DAY
}

/// Attendance as a whole percentage of `sessions` with `missed` of them missed (100 before any session).
#[ranvier::trace_fn]
pub fn attendance_percent(missed: u32, sessions: u32) -> u32 {
    if sessions == 0 {
        return 100;
    }
    sessions.saturating_sub(missed) * 100 / sessions
}

/// The rules with a mistake.
pub mod slipped {
    use super::super::model::Reason;

    /// Whether an absence for `reason` is authorised.
    #[ranvier::trace_fn]
    pub fn excused(reason: Reason) -> bool {
        // BUG(holiday_excused)
        matches!(reason, Reason::Ill | Reason::Holiday)
    }

    /// The school days a pupil who joined on day `joined` has been on the roll.
    #[ranvier::trace_fn]
    pub fn days_on_roll(joined: u32, today: u32) -> u32 {
        // BUG(days_on_roll)
        today - joined
    }
}
