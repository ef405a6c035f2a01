//! The shop's rules: when a bike is due for its service, whether it may go out, how late a rental is.

use super::model::{Bike, BikeState, Rental};

/// How many kilometres a bike of `kind` rides between two services.
#[ranvier::trace_fn]
pub fn service_km(kind: &str) -> u32 {
    match kind {
        "ebike" => 150,
        "kids" => 60,
        _ => 100,
    }
}

/// The bike has ridden its kilometres since its last service.
#[ranvier::trace_fn]
pub fn needs_service(bike: &Bike) -> bool {
    bike.km >= service_km(&bike.kind)
}

/// Whether `bike` may go out now, or why not.
#[ranvier::trace_fn]
pub fn can_rent(bike: &Bike) -> Result<(), String> {
    match bike.state {
        BikeState::Ready => Ok(()),
        BikeState::Out => Err(format!("{} is out", bike.id)),
        BikeState::Damaged => Err(format!("{} is damaged", bike.id)),
        BikeState::InService => Err(format!("{} is in the workshop", bike.id)),
    }
}

/// Minutes past the due time at minute `at` (0 when not late).
#[ranvier::trace_fn]
pub fn minutes_late(rental: &Rental, at: u32) -> u32 {
    at.saturating_sub(rental.due())
}

/// The rules with a mistake.
pub mod slipped {
    use super::super::model::{Bike, BikeState};

    /// Whether `bike` may go out now, or why not.
    #[ranvier::trace_fn]
    pub fn can_rent(bike: &Bike) -> Result<(), String> {
        // BUG(rent_damaged)
        if bike.state == BikeState::Out {
            return Err(format!("{} is out", bike.id));
        }
        Ok(())
    }
}
