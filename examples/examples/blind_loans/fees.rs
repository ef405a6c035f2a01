//! Fines: days late after the grace period, and the daily rate by member.

use super::model::{Kind, Loan};

/// Days late that cost nothing.
pub const GRACE_DAYS: u32 = 2;

/// Percent of the base rate a child pays, rounded up to a whole cent.
pub const CHILD_PERCENT: u64 = 40;

/// Days `loan` is late on `day` (its return day once returned), after the grace period.
#[ranvier::trace_fn]
pub fn days_late(loan: &Loan, day: u32) -> u32 {
    let end = loan.returned.unwrap_or(day);
    end.saturating_sub(loan.due_day).saturating_sub(GRACE_DAYS)
}

/// The fine per day for a member of `kind`, from the base rate `base` in cents.
#[ranvier::trace_fn]
pub fn daily_rate(kind: Kind, base: u64) -> u64 {
    match kind {
        Kind::Adult => base,
        Kind::Child => percent_up(base, CHILD_PERCENT),
        Kind::Staff => 0,
    }
}

/// `percent` % of `cents`, rounded up to a whole cent.
#[ranvier::trace_fn]
pub fn percent_up(cents: u64, percent: u64) -> u64 {
    (cents * percent).div_ceil(100)
}

/// Fines as first written.
pub mod slipped {
    /// `percent` % of `cents`, rounded up to a whole cent.
    #[ranvier::trace_fn]
    pub fn percent_up(cents: u64, percent: u64) -> u64 {
        // BUG(child_rounding)
        cents * percent / 100
    }

    /// The fine per day for a member of `kind`.
    #[ranvier::trace_fn]
    pub fn daily_rate(kind: super::super::model::Kind, base: u64) -> u64 {
        use super::super::model::Kind;
        match kind {
            Kind::Adult => base,
            Kind::Child => percent_up(base, super::CHILD_PERCENT),
            Kind::Staff => 0,
        }
    }
}
