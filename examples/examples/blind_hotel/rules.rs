//! The desk's rules: which room a guest gets, when a stay leaves, what may be checked in.

use super::model::{Room, Status, Stay};

/// The clean, free room of `kind` with the lowest number, if any.
#[ranvier::trace_fn]
pub fn pick_room(rooms: &[Room], kind: &str) -> Option<u32> {
    rooms
        .iter()
        .filter(|r| r.kind == kind && r.status == Status::Vacant && !r.out_of_order)
        .map(|r| r.number)
        .min()
}

/// The day `stay` leaves: the morning after its last night.
#[ranvier::trace_fn]
pub fn departure(stay: &Stay) -> u32 {
    stay.arrival + stay.nights
}

/// Why stay `stay` cannot be checked in on `day`, if it cannot.
#[ranvier::trace_fn]
pub fn refuse_check_in(stay: &Stay, day: u32) -> Option<String> {
    if stay.checked_in {
        Some(format!("{} is already checked in", stay.guest))
    } else if stay.arrival > day {
        Some(format!("{} arrives on day {}", stay.guest, stay.arrival))
    } else if departure(stay) <= day {
        Some(format!("{}'s stay is over", stay.guest))
    } else {
        None
    }
}

/// The rules with a mistake.
pub mod slipped {
    use super::super::model::{Room, Status, Stay};

    /// The clean, free room of `kind` with the lowest number, if any.
    #[ranvier::trace_fn]
    pub fn pick_room(rooms: &[Room], kind: &str) -> Option<u32> {
        rooms
            .iter()
            // BUG(pick_room_or)
            .filter(|r| (r.kind == kind || r.status == Status::Vacant) && !r.out_of_order)
            .map(|r| r.number)
            .min()
    }

    /// The day `stay` leaves.
    #[ranvier::trace_fn]
    pub fn departure(stay: &Stay) -> u32 {
        // BUG(departure_day)
        stay.arrival + stay.nights - 1
    }
}
