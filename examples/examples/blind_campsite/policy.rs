//! The site's rules: who fits on a pitch, when two bookings clash, the late checkout fee and the cancellation policy.

use super::model::{Booking, Kind, Pitch};

/// Notice (days before arrival) that gets the whole stay back, less the admin fee.
pub const FULL_REFUND_DAYS: u32 = 28;
/// Notice that gets half the stay back.
pub const HALF_REFUND_DAYS: u32 = 14;
/// Kept on a full refund, in pence.
pub const ADMIN_FEE: u64 = 1_000;
/// Most dogs on one pitch.
pub const MAX_DOGS: u32 = 2;

/// Whether a party of `guests` people and `dogs` dogs may book `pitch`.
///
/// # Errors
///
/// Why not: too many people for the pitch, or too many dogs.
#[ranvier::trace_fn]
pub fn check_party(pitch: &Pitch, guests: u32, dogs: u32) -> Result<(), String> {
    if guests > pitch.max_guests {
        return Err(format!(
            "{} takes {} people at most, not {guests}",
            pitch.id, pitch.max_guests
        ));
    }
    if dogs > MAX_DOGS {
        return Err(format!("at most {MAX_DOGS} dogs on a pitch, not {dogs}"));
    }
    Ok(())
}

/// Whether `stay` holds its pitch on any of the `nights` nights from `arrive`.
#[ranvier::trace_fn]
pub fn clash(stay: &Booking, arrive: u32, nights: u32) -> bool {
    (arrive..arrive + nights).any(|day| stay.holds(day))
}

/// The fee for leaving a pitch of `kind` after 11:00, in pence.
#[ranvier::trace_fn]
pub fn late_fee(kind: Kind) -> u64 {
    match kind {
        Kind::Tent => 500,
        Kind::Caravan | Kind::Hardstanding => 1_000,
    }
}

/// What goes back on cancelling a stay `paid` for, `notice` days before arrival: all of it less the admin fee with
/// four weeks' notice or more, half with two weeks or more, nothing later.
#[ranvier::trace_fn]
pub fn refund(paid: u64, notice: u32) -> u64 {
    let full = notice >= FULL_REFUND_DAYS;
    if full {
        paid.saturating_sub(ADMIN_FEE)
    } else if notice >= HALF_REFUND_DAYS {
        paid / 2
    } else {
        0
    }
}

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::{ADMIN_FEE, FULL_REFUND_DAYS, HALF_REFUND_DAYS};

    /// [`super::refund`].
    #[ranvier::trace_fn]
    pub fn refund(paid: u64, notice: u32) -> u64 {
        // BUG(refund_notice)
        let full = notice > FULL_REFUND_DAYS;
        if full {
            paid.saturating_sub(ADMIN_FEE)
        } else if notice >= HALF_REFUND_DAYS {
            paid / 2
        } else {
            0
        }
    }
}
