//! The terminal's rules: when check-in closes, how late a sailing may run before it is cancelled, where the bookings
//! of a cancelled sailing go, and the wind a boat may sail in.

use super::model::{Sailing, VehicleKind};

/// Vehicles check in until this many minutes before the sailing leaves.
pub const VEHICLES_CLOSE: u32 = 40;
/// Foot passengers check in until this many minutes before.
pub const FOOT_CLOSES: u32 = 15;
/// A sailing more than this many minutes late is cancelled.
pub const MAX_DELAY: u32 = 90;

/// When check-in closes for a party with `vehicle` (or on foot) on `sailing`, minutes since midnight.
pub fn check_in_closes(sailing: &Sailing, vehicle: Option<VehicleKind>) -> u32 {
    let before = match vehicle {
        None => FOOT_CLOSES,
        Some(_) => VEHICLES_CLOSE,
    };
    sailing.departs_at().saturating_sub(before)
}

/// Whether a sailing `delay` minutes late must be cancelled.
pub fn too_late(delay: u32) -> bool {
    delay > MAX_DELAY
}

/// The next sailing after `id` on the same route that still sails.
pub fn next_sailing(sailings: &[Sailing], id: u32) -> Option<u32> {
    let this = sailings.iter().find(|sailing| sailing.id == id)?;
    sailings
        .iter()
        .filter(|other| other.id != id && !other.cancelled && other.same_route(this))
        .filter(|other| other.departs_at() > this.departs_at())
        .min_by_key(|other| other.departs_at())
        .map(|other| other.id)
}

/// The strongest wind, in knots, `sailing`'s boat may sail in: the small Lismore boat less than the big ship.
pub fn wind_limit(sailing: &Sailing) -> u32 {
    if sailing.deck_m <= 20 { 30 } else { 40 }
}

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Sailing, VehicleKind};
    use super::{FOOT_CLOSES, VEHICLES_CLOSE};

    /// [`super::check_in_closes`].
    pub fn check_in_closes(sailing: &Sailing, vehicle: Option<VehicleKind>) -> u32 {
        let before = match vehicle {
            // BUG(checkin_arms)
            None | Some(VehicleKind::Motorcycle) => FOOT_CLOSES,
            Some(_) => VEHICLES_CLOSE,
        };
        sailing.departs_at().saturating_sub(before)
    }
}
