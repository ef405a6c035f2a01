//! The accounts: VAT on what the theatre takes, and the base the rights holders' royalties are worked out on.

use super::model::{Booking, State};

/// VAT, per cent, included in every ticket and bar price.
pub const VAT_PERCENT: u32 = 20;

/// What is left of `gross` (VAT included) once the VAT is taken out, pence.
pub fn net_of_vat(gross: u32) -> u32 {
    gross * 100 / (100 + VAT_PERCENT)
}

/// What a booking brought in for its seats, less what was refunded: the box office receipts royalties are paid on
/// (fees are the theatre's own). An exchanged booking brought nothing: its money went with the seats.
pub fn receipts(booking: &Booking) -> u32 {
    match booking.state {
        State::Booked => booking.paid,
        State::Returned { refund } => booking.paid - refund,
        State::Exchanged { .. } => 0,
    }
}

/// Copies of the accounts with one mistake each, for the blind test.
pub mod slipped {
    use super::VAT_PERCENT;

    /// [`super::net_of_vat`].
    pub fn net_of_vat(gross: u32) -> u32 {
        // BUG(vat_out)
        gross * (100 - VAT_PERCENT) / 100
    }
}
