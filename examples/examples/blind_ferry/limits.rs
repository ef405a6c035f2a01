//! The ship's limits: the passenger certificate and the car deck's lane metres.

/// Whether `more` passengers fit beside the `aboard` already booked, under a certificate for `seats`.
pub fn seats_fit(aboard: u32, more: u32, seats: u32) -> bool {
    aboard + more <= seats
}

/// Whether `more_cm` of lane fits beside the `used_cm` already booked on a deck of `deck_m` lane metres.
pub fn deck_fits(used_cm: u32, more_cm: u32, deck_m: u32) -> bool {
    used_cm + more_cm <= deck_m * 100
}

/// Copies of the limits with one mistake each, for the blind test.
pub mod slipped {
    /// [`super::deck_fits`].
    pub fn deck_fits(used_cm: u32, more_cm: u32, deck_m: u32) -> bool {
        // BUG(deck_units)
        used_cm + more_cm <= deck_m * 10
    }
}
