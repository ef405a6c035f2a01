//! The cold store's rules: the temperatures each fruit keeps at, and which room a bin goes to.

use super::model::{Room, Variety};

/// The lowest and highest temperature (°C) `variety` keeps at.
#[ranvier::trace_fn]
pub fn limits(variety: Variety) -> (f64, f64) {
    match variety {
        Variety::Apple => (0.5, 3.5),
        Variety::Pear => (-1.0, 1.0),
        Variety::Plum => (0.0, 2.0),
    }
}

/// The first room with space, given the bins each room holds.
#[ranvier::trace_fn]
pub fn room_for(rooms: &[Room], holding: &[usize]) -> Option<u8> {
    rooms
        .iter()
        .zip(holding)
        .find(|(room, held)| **held < room.capacity)
        .map(|(room, _)| room.no)
}

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Variety;

    /// [`super::limits`].
    #[ranvier::trace_fn]
    pub fn limits(variety: Variety) -> (f64, f64) {
        match variety {
            Variety::Apple => (0.5, 3.5),
            // BUG(pear_store)
            Variety::Pear | Variety::Plum => (0.0, 2.0),
        }
    }
}
