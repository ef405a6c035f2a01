//! What a hire costs: the day rates by class, the extras, the mileage allowance, refuelling, late returns, one-way
//! hires, the deposit, and the loyalty discount.

use super::model::{Booking, Class, Extra};

/// The kilometres a day of hire includes.
pub const KM_A_DAY: u32 = 250;
/// Each kilometre past the allowance, in pence.
pub const PER_EXTRA_KM: u32 = 15;
/// Each eighth of a tank the car comes back short, in pence.
pub const REFUEL_AN_EIGHTH: u32 = 900;
/// The fee on top of the days a late car is kept, in pence.
pub const LATE_FEE: u32 = 2_500;
/// The fee for leaving a car at another branch, in pence.
pub const ONE_WAY_FEE: u32 = 4_500;

/// A day's hire of a car of `class`, in pence.
pub fn day_rate(class: Class) -> u32 {
    match class {
        Class::Economy => 3_000,
        Class::Compact => 3_800,
        Class::Estate => 5_200,
        Class::Van => 6_500,
    }
}

/// The deposit taken when a car of `class` is collected, in pence.
pub fn deposit(class: Class) -> u32 {
    match class {
        Class::Economy => 20_000,
        Class::Compact => 25_000,
        Class::Estate => 30_000,
        Class::Van => 40_000,
    }
}

/// A day of `extra`, in pence.
pub fn extra_rate(extra: Extra) -> u32 {
    match extra {
        Extra::Satnav => 500,
        Extra::ChildSeat => 400,
        Extra::SecondDriver => 700,
        Extra::FullCover => 1_200,
    }
}

/// The charge for the kilometres driven past the allowance of `days` days.
#[ranvier::trace_fn]
pub fn mileage(driven: u32, days: u32) -> u32 {
    let allowance = KM_A_DAY * days;
    driven.saturating_sub(allowance) * PER_EXTRA_KM
}

/// What a car returned on `returned` owes for being late: the extra days at the day's `rate`, and the late fee.
#[ranvier::trace_fn]
pub fn late_fee(booking: &Booking, returned: u32, rate: u32) -> u32 {
    if returned > booking.return_day {
        let late_days = returned - booking.return_day;
        late_days * rate + LATE_FEE
    } else {
        0
    }
}

/// The fee for a hire collected at `from` and returned at `to`.
#[ranvier::trace_fn]
pub fn one_way(from: &str, to: &str) -> u32 {
    if from.eq_ignore_ascii_case(to) {
        0
    } else {
        ONE_WAY_FEE
    }
}

/// The loyalty discount, in percent, for a customer with `rentals` finished hires: 5% from the third, 10% from the
/// tenth.
#[ranvier::trace_fn]
pub fn loyalty_percent(rentals: u32) -> u32 {
    match rentals {
        0..=2 => 0,
        3..=9 => 5,
        _ => 10,
    }
}

/// Copies of the tariffs with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Booking;
    use super::LATE_FEE;

    /// What a car returned on `returned` owes for being late: the extra days at the day's `rate`, and the late fee.
    #[ranvier::trace_fn]
    pub fn late_fee(booking: &Booking, returned: u32, rate: u32) -> u32 {
        // BUG(late_fee)
        if returned >= booking.return_day {
            let late_days = returned - booking.return_day;
            late_days * rate + LATE_FEE
        } else {
            0
        }
    }
}
