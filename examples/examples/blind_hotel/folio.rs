//! What a stay is charged: the room's night with the weekend surcharge and breakfast, and the city tax.

use super::model::{Rates, Stay};

/// How a night is charged (see [`night_charge`]).
pub type NightCharge = fn(&Rates, u64, &Stay, u32) -> u64;

/// Whether the night after `day` is a weekend night (a Friday's or a Saturday's; day 0 is a Monday).
#[ranvier::trace_fn]
pub fn is_weekend(day: u32) -> bool {
    matches!(day % 7, 4 | 5)
}

/// The night after `day` for `stay` in a room at `rate`: the rate, the weekend surcharge on a weekend night, and
/// breakfast for every guest when the stay has it.
#[ranvier::trace_fn]
pub fn night_charge(rates: &Rates, rate: u64, stay: &Stay, day: u32) -> u64 {
    let mut cents = rate;
    if is_weekend(day) {
        cents += rates.weekend_surcharge;
    }
    if stay.breakfast {
        cents += u64::from(stay.guests()) * rates.breakfast;
    }
    cents
}

/// The city tax for `stay`: per adult and night reserved.
#[ranvier::trace_fn]
pub fn city_tax(rates: &Rates, stay: &Stay) -> u64 {
    u64::from(stay.adults) * u64::from(stay.nights) * rates.city_tax
}

/// The charges with a mistake.
pub mod slipped {
    use super::super::model::{Rates, Stay};

    /// Whether the night after `day` is a weekend night.
    #[ranvier::trace_fn]
    pub fn is_weekend(day: u32) -> bool {
        // BUG(weekend_days)
        matches!(day % 7, 5 | 6)
    }

    /// The night after `day`, with the weekend above.
    #[ranvier::trace_fn]
    pub fn night_charge_weekend(rates: &Rates, rate: u64, stay: &Stay, day: u32) -> u64 {
        let mut cents = rate;
        if is_weekend(day) {
            cents += rates.weekend_surcharge;
        }
        if stay.breakfast {
            cents += u64::from(stay.guests()) * rates.breakfast;
        }
        cents
    }
}
