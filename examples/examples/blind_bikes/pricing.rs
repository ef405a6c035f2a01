//! What a ride costs: the hourly rates by kind, the day price, the member price and the late fee.

use super::model::Rates;

/// How a ride is priced (see [`ride_charge`]).
pub type RideCharge = fn(&Rates, &str, u32, bool) -> u64;

/// How the late fee is worked out (see [`late_fee`]).
pub type LateFee = fn(&Rates, u32) -> u64;

/// The rate per started hour of a bike of `kind`, in cents.
#[ranvier::trace_fn]
pub fn hourly(rates: &Rates, kind: &str) -> u64 {
    match kind {
        "ebike" => rates.ebike,
        "kids" => rates.kids,
        _ => rates.city,
    }
}

/// A ride of `minutes` minutes on a bike of `kind`: each started hour, at most the day price's hours, less the
/// member discount.
#[ranvier::trace_fn]
pub fn ride_charge(rates: &Rates, kind: &str, minutes: u32, member: bool) -> u64 {
    let hours = u64::from(minutes.max(1).div_ceil(60));
    let billed = hours.min(rates.day_cap_hours);
    let gross = billed * hourly(rates, kind);
    if member {
        gross - gross * rates.member_percent / 100
    } else {
        gross
    }
}

/// The late fee for a bike back `minutes_late` minutes after its due time: nothing within the grace, then each
/// started quarter hour.
#[ranvier::trace_fn]
pub fn late_fee(rates: &Rates, minutes_late: u32) -> u64 {
    if minutes_late <= rates.grace {
        return 0;
    }
    let blocks = minutes_late.div_ceil(15);
    u64::from(blocks) * rates.late_per_15
}

/// The prices with a mistake.
pub mod slipped {
    use super::super::model::Rates;
    use super::hourly;

    /// A ride of `minutes` minutes on a bike of `kind`.
    #[ranvier::trace_fn]
    pub fn ride_charge(rates: &Rates, kind: &str, minutes: u32, member: bool) -> u64 {
        let hours = u64::from(minutes.max(1).div_ceil(60));
        // BUG(day_cap)
        let billed = hours.max(rates.day_cap_hours);
        let gross = billed * hourly(rates, kind);
        if member {
            gross - gross * rates.member_percent / 100
        } else {
            gross
        }
    }

    /// The late fee for a bike back `minutes_late` minutes after its due time.
    #[ranvier::trace_fn]
    pub fn late_fee(rates: &Rates, minutes_late: u32) -> u64 {
        if minutes_late <= rates.grace {
            return 0;
        }
        // BUG(late_blocks)
        let blocks = minutes_late / 15 + 1;
        u64::from(blocks) * rates.late_per_15
    }
}
