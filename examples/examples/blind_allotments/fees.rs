//! What members pay: a plot's rent for the year (per square metre, less the concession), the part of it for the
//! months left when a plot is let mid-year, the shed's fines for tools brought back late, and what a member is behind.

use super::model::Rates;

/// The most a single late tool is fined, in pence.
pub const FINE_CAP: i64 = 500;

/// A year's rent for a plot of `size` square metres, in pence, for a tenant at the concession rate or not.
#[ranvier::trace_fn]
pub fn annual_rent(size: u32, rates: &Rates, concession: bool) -> i64 {
    let full = i64::from(size) * rates.rent_per_m2;
    if concession {
        full * (100 - rates.concession_off) / 100
    } else {
        full
    }
}

/// The part of `annual` rent for `months` months of the year, rounded down.
#[ranvier::trace_fn]
pub fn prorate(annual: i64, months: u32) -> i64 {
    annual * i64::from(months) / 12
}

/// The fine for a tool `days` days late at `per_day` pence a day, up to [`FINE_CAP`].
#[ranvier::trace_fn]
pub fn late_fine(days: u32, per_day: i64) -> i64 {
    (i64::from(days) * per_day).min(FINE_CAP)
}

/// What a member charged `charged` who paid `paid` is behind (nothing when paid up or in credit).
#[ranvier::trace_fn]
pub fn arrears(charged: i64, paid: i64) -> i64 {
    (charged - paid).max(0)
}

/// The fees with a mistake.
pub mod slipped {
    use super::FINE_CAP;

    /// The fine for a tool `days` days late.
    #[ranvier::trace_fn]
    pub fn late_fine(days: u32, per_day: i64) -> i64 {
        // BUG(fine_cap)
        (i64::from(days) * per_day).max(FINE_CAP)
    }
}
