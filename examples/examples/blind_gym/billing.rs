//! What members are charged: the drop-in fee by plan, the no-shows when a class closes, a refund when a class is
//! called off, and what a coach is paid for the minutes taught.

use super::model::{Booking, Fees, Msg, Plan, Status};

/// What the charges at a class's close are made from (see [`close_charges`]).
pub type CloseCharges = fn(&str, &[Booking], &Fees) -> Vec<Msg>;

/// The drop-in fee for a member on `plan`: basic members pay it, premium members' classes are included.
#[ranvier::trace_fn]
pub fn drop_in(plan: Plan, fees: &Fees) -> i64 {
    match plan {
        Plan::Basic => fees.drop_in,
        Plan::Premium => 0,
    }
}

/// The charges when class `name` closes, for its `bookings`: a no-show fee for each place booked and not used.
#[ranvier::trace_fn]
pub fn close_charges(name: &str, bookings: &[Booking], fees: &Fees) -> Vec<Msg> {
    let mut charges = Vec::new();
    for booking in bookings {
        match booking.status {
            Status::Booked => charges.push(Msg::Post {
                member: booking.member.clone(),
                what: format!("no-show, {name}"),
                cents: fees.no_show,
            }),
            Status::Waitlisted | Status::Attended | Status::NoShow | Status::Cancelled => {}
        }
    }
    charges
}

/// What `minutes` of classes pay at `rate` cents an hour, rounded down.
#[ranvier::trace_fn]
pub fn pay(rate: i64, minutes: u32) -> i64 {
    rate * i64::from(minutes) / 60
}

/// The charges with a mistake.
pub mod slipped {
    use super::super::model::{Booking, Fees, Msg, Status};

    /// The charges when class `name` closes.
    #[ranvier::trace_fn]
    pub fn close_charges(name: &str, bookings: &[Booking], fees: &Fees) -> Vec<Msg> {
        let mut charges = Vec::new();
        for booking in bookings {
            match booking.status {
                // BUG(close_waitlisted)
                Status::Booked | Status::Waitlisted => charges.push(Msg::Post {
                    member: booking.member.clone(),
                    what: format!("no-show, {name}"),
                    cents: fees.no_show,
                }),
                Status::Attended | Status::NoShow | Status::Cancelled => {}
            }
        }
        charges
    }
}
