//! Port dues: what a ship's stay alongside costs, with the minimum charge and the night surcharge.

use super::model::Tariff;
use super::rules;

/// The surcharge on each night hour alongside, in percent.
pub const NIGHT_SURCHARGE_PERCENT: u64 = 25;

/// Dues for a ship `length_m` long alongside from hour `from` to hour `to`: every hour at the tariff's rate per
/// metre, night hours with the surcharge, and at least the tariff's minimum hours.
#[ranvier::trace_fn]
pub fn dues(length_m: u32, from: u32, to: u32, tariff: &Tariff) -> u64 {
    let hours = (to - from).max(tariff.min_hours);
    let night = (from..to).filter(|h| rules::is_night(*h)).count();
    let night = u64::try_from(night).unwrap_or(0);
    let per_hour = u64::from(length_m) * tariff.cents_per_metre_hour;
    let day = u64::from(hours).saturating_sub(night);
    day * per_hour + night * per_hour * (100 + NIGHT_SURCHARGE_PERCENT) / 100
}

/// Dues as first written.
pub mod slipped {
    use super::super::model::Tariff;
    use super::super::rules;
    use super::NIGHT_SURCHARGE_PERCENT;

    /// Dues, with the first minimum charge.
    #[ranvier::trace_fn]
    pub fn dues_min(length_m: u32, from: u32, to: u32, tariff: &Tariff) -> u64 {
        // BUG(min_charge)
        let hours = (to - from).min(tariff.min_hours);
        let night = (from..to).filter(|h| rules::is_night(*h)).count();
        let night = u64::try_from(night).unwrap_or(0);
        let per_hour = u64::from(length_m) * tariff.cents_per_metre_hour;
        let day = u64::from(hours).saturating_sub(night);
        day * per_hour + night * per_hour * (100 + NIGHT_SURCHARGE_PERCENT) / 100
    }

    /// Dues, with the first count of night hours.
    #[ranvier::trace_fn]
    pub fn dues_nights(length_m: u32, from: u32, to: u32, tariff: &Tariff) -> u64 {
        let hours = (to - from).max(tariff.min_hours);
        // BUG(night_range)
        let night = (from..=to).filter(|h| rules::is_night(*h)).count();
        let night = u64::try_from(night).unwrap_or(0);
        let per_hour = u64::from(length_m) * tariff.cents_per_metre_hour;
        let day = u64::from(hours).saturating_sub(night);
        day * per_hour + night * per_hour * (100 + NIGHT_SURCHARGE_PERCENT) / 100
    }
}
