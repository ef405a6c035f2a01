//! Fares: by age band, with a group discount, a single-room supplement on multi-day tours, and refunds that shrink as
//! the departure nears.

use super::model::{Booking, Tour};

/// The supplement for a room of one's own, per night.
pub const SINGLE_SUPPLEMENT: u64 = 2_500;

/// The group discount, in percent, for a party of `passengers`.
#[ranvier::trace_fn]
pub fn group_discount(passengers: u32) -> u64 {
    if passengers >= 20 {
        return 15;
    }
    if passengers >= 10 {
        return 10;
    }
    if passengers >= 6 {
        return 5;
    }
    0
}

/// What `booking` pays on `tour`, with the group discount `discount` gives.
#[ranvier::trace_fn]
pub fn booking_fare(tour: &Tour, booking: &Booking, discount: fn(u32) -> u64) -> u64 {
    let child = tour.adult_fare / 2;
    let senior = tour.adult_fare * 80 / 100;
    let gross = u64::from(booking.children) * child
        + u64::from(booking.adults) * tour.adult_fare
        + u64::from(booking.seniors) * senior;
    let percent = discount(booking.passengers());
    let fare = gross - gross * percent / 100;
    if tour.days <= 1 {
        return fare;
    }
    let nights = u64::from(tour.days - 1);
    let fare = fare + u64::from(booking.singles) * SINGLE_SUPPLEMENT * nights;
    fare
}

/// The share of the fare given back, in percent, for a cancellation `days_before` the departure.
#[ranvier::trace_fn]
pub fn refund_percent(days_before: u32) -> u64 {
    match days_before {
        30.. => 100,
        14..=29 => 50,
        7..=13 => 25,
        _ => 0,
    }
}

pub mod slipped {
    /// `group_discount`, as first written.
    #[ranvier::trace_fn]
    pub fn group_discount(passengers: u32) -> u64 {
        if passengers >= 20 {
            return 15;
        }
        // BUG(group_discount)
        if passengers > 10 {
            return 10;
        }
        if passengers >= 6 {
            return 5;
        }
        0
    }
}
