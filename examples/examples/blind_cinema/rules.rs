//! The box office's rules: whether a showing has room, whether it may be booked, what a cancellation gets back.

use super::model::{Booking, Prices, Showing};

/// Whether `show` has `seats` more seats free.
#[ranvier::trace_fn]
pub fn has_room(show: &Showing, seats: u32) -> bool {
    show.sold + seats <= show.seats
}

/// Seats still free in `show`.
#[ranvier::trace_fn]
pub fn seats_left(show: &Showing) -> u32 {
    show.seats.saturating_sub(show.sold)
}

/// What a booking cancelled at `now` gets back: all it paid when the showing starts at least the refund time later,
/// nothing otherwise.
#[ranvier::trace_fn]
pub fn refund_for(prices: &Prices, booking: &Booking, start: u32, now: u32) -> u64 {
    if start >= now + prices.refund_minutes {
        booking.cents
    } else {
        0
    }
}

/// The rules with a mistake.
pub mod slipped {
    use super::super::model::Showing;

    /// Whether `show` has `seats` more seats free.
    #[ranvier::trace_fn]
    pub fn has_room(show: &Showing, seats: u32) -> bool {
        // BUG(last_seats)
        show.sold + seats < show.seats
    }
}
