//! The tariff: fares by season for adults, children and seniors (the concession), the vehicle fares by the lane
//! metre, the cabin, the harbour's port fee and the refund on a cancelled booking.

use super::model::{Vehicle, VehicleKind};

/// The cabin for the crossing, in pence.
pub const CABIN: u32 = 3_500;
/// The harbour's fee per passenger, in pence, paid on top of the fare.
pub const PORT_FEE: u32 = 120;
/// What a cancelled booking gets back, in per cent of its fare.
pub const REFUND_PERCENT: u32 = 80;

/// The two seasons of the tariff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Season {
    /// June to September.
    Peak,
    Off,
}

/// The season on day `day` of the year (1 June is day 152, 30 September day 273).
pub fn season(day: u32) -> Season {
    if (152..=273).contains(&day) {
        Season::Peak
    } else {
        Season::Off
    }
}

/// An adult's single fare, in pence.
pub fn adult_fare(season: Season) -> u32 {
    match season {
        Season::Peak => 1_250,
        Season::Off => 950,
    }
}

/// The party's fares: a child pays half, a senior 70 per cent.
pub fn passenger_fare(season: Season, adults: u32, children: u32, seniors: u32) -> u32 {
    let adult = adult_fare(season);
    adults * adult + children * adult / 2 + seniors * adult * 70 / 100
}

/// The vehicle's fare: a motorcycle a flat fare, a car or a van by the lane metre, every metre begun paid.
pub fn vehicle_fare(vehicle: Option<&Vehicle>, season: Season) -> u32 {
    let Some(vehicle) = vehicle else {
        return 0;
    };
    let per_metre = match (vehicle.kind, season) {
        (VehicleKind::Motorcycle, Season::Peak) => return 1_500,
        (VehicleKind::Motorcycle, Season::Off) => return 1_200,
        (VehicleKind::Car, Season::Peak) => 800,
        (VehicleKind::Car, Season::Off) => 600,
        (VehicleKind::Van, Season::Peak) => 1_000,
        (VehicleKind::Van, Season::Off) => 800,
    };
    let metres = vehicle.length_cm.div_ceil(100);
    metres * per_metre
}

/// The port fee for `passengers`.
pub fn port_fee(passengers: u32) -> u32 {
    passengers * PORT_FEE
}

/// What a party that cancels gets back of `fare`.
pub fn refund(fare: u32) -> u32 {
    fare * REFUND_PERCENT / 100
}

/// Copies of the tariff's rules with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Vehicle, VehicleKind};
    use super::Season;

    /// [`super::vehicle_fare`].
    pub fn vehicle_fare(vehicle: Option<&Vehicle>, season: Season) -> u32 {
        let Some(vehicle) = vehicle else {
            return 0;
        };
        let per_metre = match (vehicle.kind, season) {
            (VehicleKind::Motorcycle, Season::Peak) => return 1_500,
            (VehicleKind::Motorcycle, Season::Off) => return 1_200,
            (VehicleKind::Car, Season::Peak) => 800,
            (VehicleKind::Car, Season::Off) => 600,
            (VehicleKind::Van, Season::Peak) => 1_000,
            (VehicleKind::Van, Season::Off) => 800,
        };
        // BUG(metre_rounding)
        let metres = vehicle.length_cm / 100;
        metres * per_metre
    }
}
