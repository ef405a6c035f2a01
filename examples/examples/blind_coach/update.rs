//! `update`, Elmish with commands: a cancellation frees seats and sends `promote` for its tour.

use super::fares;
use super::model::{Booking, Coach, Msg, Pickup, Shift, Tour};

/// Moves the waiting parties that now fit onto `tour`, in the order they asked; the number moved.
#[ranvier::trace_fn]
pub fn promote_waiting(tour: &mut Tour) -> u32 {
    let mut free = tour.seats_free();
    let mut promoted = 0;
    let mut still = Vec::new();
    for booking in std::mem::take(&mut tour.waiting) {
        let party = booking.passengers();
        if party <= free {
            free -= party;
            tour.booked.push(booking);
            promoted += 1;
        } else {
            still.push(booking);
        }
    }
    tour.waiting = still;
    promoted
}

/// What cancelling `booking` on `tour` on day `today` gives back.
#[ranvier::trace_fn]
pub fn refund_for(tour: &Tour, booking: &Booking, today: u32) -> u64 {
    let days_before = tour.depart_day.saturating_sub(today);
    let percent = fares::refund_percent(days_before);
    booking.paid * percent / 100
}

/// Logs `hours` for `name` today, added to what they drove earlier today.
#[ranvier::trace_fn]
fn log_shift(coach: &mut Coach, name: &str, hours: u32) {
    let today = coach.day;
    let Some(driver) = coach.drivers.iter_mut().find(|d| d.name == name) else {
        return;
    };
    match driver.shifts.iter_mut().find(|s| s.day == today) {
        Some(shift) => shift.hours += hours,
        None => driver.shifts.push(Shift { day: today, hours }),
    }
}

/// The next model and the messages to send after it. A message naming no tour changes nothing.
#[ranvier::trace_fn]
pub fn update(
    msg: Msg,
    coach: &Coach,
    discount: fn(u32) -> u64,
    promote: fn(&mut Tour) -> u32,
    refund: fn(&Tour, &Booking, u32) -> u64,
) -> (Coach, Vec<Msg>) {
    let mut next = coach.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::AddTour {
            code,
            name,
            days,
            depart_day,
            seats,
            adult_fare,
            km,
        } => {
            if next.tours.iter().all(|t| t.code != code) {
                next.tours.push(Tour {
                    code,
                    name,
                    days: days.max(1),
                    depart_day,
                    seats,
                    adult_fare,
                    km,
                    booked: Vec::new(),
                    waiting: Vec::new(),
                    pickups: Vec::new(),
                });
            }
        }
        Msg::AddPickup { code, stop, minute } => {
            if let Some(tour) = next.tours.iter_mut().find(|t| t.code == code) {
                tour.pickups.push(Pickup { stop, minute });
            }
        }
        Msg::Book {
            code,
            lead,
            children,
            adults,
            seniors,
            singles,
        } => {
            let id = next.next_id;
            let Some(tour) = next.tours.iter_mut().find(|t| t.code == code) else {
                return (next, commands);
            };
            let mut booking = Booking {
                id,
                lead,
                children,
                adults,
                seniors,
                singles,
                paid: 0,
            };
            booking.paid = fares::booking_fare(tour, &booking, discount);
            if booking.passengers() <= tour.seats_free() {
                tour.booked.push(booking);
            } else {
                tour.waiting.push(booking);
            }
            next.next_id += 1;
        }
        Msg::Cancel { code, id } => {
            let today = next.day;
            let Some(tour) = next.tours.iter_mut().find(|t| t.code == code) else {
                return (next, commands);
            };
            if let Some(at) = tour.booked.iter().position(|b| b.id == id) {
                let booking = tour.booked.remove(at);
                next.refunded += refund(tour, &booking, today);
                commands.push(Msg::Promote { code });
            } else {
                tour.waiting.retain(|b| b.id != id);
            }
        }
        Msg::Promote { code } => {
            if let Some(tour) = next.tours.iter_mut().find(|t| t.code == code) {
                promote(tour);
            }
        }
        Msg::Drive { name, hours } => log_shift(&mut next, &name, hours),
        Msg::Advance { days } => next.day += days,
    }
    (next, commands)
}

pub mod slipped {
    use super::*;

    /// `promote_waiting`, as first written.
    #[ranvier::trace_fn]
    pub fn promote_waiting(tour: &mut Tour) -> u32 {
        let mut free = tour.seats_free();
        let mut promoted = 0;
        let mut still = Vec::new();
        for booking in std::mem::take(&mut tour.waiting) {
            let party = booking.passengers();
            // BUG(promote_fit)
            if party < free {
                free -= party;
                tour.booked.push(booking);
                promoted += 1;
            } else {
                still.push(booking);
            }
        }
        tour.waiting = still;
        promoted
    }

    /// `refund_for`, as first written.
    #[ranvier::trace_fn]
    pub fn refund_for(tour: &Tour, booking: &Booking, today: u32) -> u64 {
        // BUG(refund_days)
        let days_before = today.saturating_sub(tour.depart_day);
        let percent = fares::refund_percent(days_before);
        booking.paid * percent / 100
    }
}
