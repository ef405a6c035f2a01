//! What a stay costs: the season of each night, the pitch's rate for it, and the charges per person and per dog.

use super::model::{Kind, Season};

/// The season of the night starting on a day ([`season`]).
pub type SeasonOf = fn(u32) -> Season;

/// The first night of the peak season (the 15th of July).
pub const PEAK_FROM: u32 = 196;
/// The last night of the peak season (the 31st of August).
pub const PEAK_TO: u32 = 243;
/// The first night of the high season (the 15th of May).
pub const HIGH_FROM: u32 = 135;
/// The last night of the high season (the 30th of September).
pub const HIGH_TO: u32 = 273;

/// Each adult, a night, in pence.
pub const ADULT: u64 = 500;
/// Each child, a night, in pence.
pub const CHILD: u64 = 250;
/// Each dog, a night, in pence.
pub const DOG: u64 = 200;

/// The season of the night starting on `day`.
#[ranvier::trace_fn]
pub fn season(day: u32) -> Season {
    if (PEAK_FROM..=PEAK_TO).contains(&day) {
        return Season::Peak;
    }
    if (HIGH_FROM..=HIGH_TO).contains(&day) {
        Season::High
    } else {
        Season::Low
    }
}

/// A pitch's own rate for a night, in pence, before people and dogs.
#[ranvier::trace_fn]
pub fn pitch_rate(kind: Kind, season: Season) -> u64 {
    match (kind, season) {
        (Kind::Tent, Season::Low) => 1_200,
        (Kind::Tent, Season::High) => 1_600,
        (Kind::Tent, Season::Peak) => 2_000,
        (Kind::Caravan, Season::Low) => 1_800,
        (Kind::Caravan, Season::High) => 2_400,
        (Kind::Caravan, Season::Peak) => 3_000,
        (Kind::Hardstanding, Season::Low) => 2_200,
        (Kind::Hardstanding, Season::High) => 2_800,
        (Kind::Hardstanding, Season::Peak) => 3_400,
    }
}

/// One night on a pitch of `kind` starting on `day`, for the party, in pence, in the season `season` gives the night.
#[ranvier::trace_fn]
pub fn night_charge(
    kind: Kind,
    day: u32,
    adults: u32,
    children: u32,
    dogs: u32,
    season: SeasonOf,
) -> u64 {
    let rate = pitch_rate(kind, season(day));
    rate + u64::from(adults) * ADULT + u64::from(children) * CHILD + u64::from(dogs) * DOG
}

/// A whole stay of `nights` nights from `arrive`, each night at its own season's price (by `season`), in pence.
#[ranvier::trace_fn]
pub fn stay_charge(
    kind: Kind,
    arrive: u32,
    nights: u32,
    adults: u32,
    children: u32,
    dogs: u32,
    season: SeasonOf,
) -> u64 {
    (arrive..arrive + nights)
        .map(|day| night_charge(kind, day, adults, children, dogs, season))
        .sum()
}

/// Copies of the prices with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Season;
    use super::{HIGH_FROM, HIGH_TO, PEAK_FROM, PEAK_TO};

    /// [`super::season`].
    #[ranvier::trace_fn]
    pub fn season(day: u32) -> Season {
        if (PEAK_FROM..=PEAK_TO).contains(&day) {
            // BUG(peak_nights)
            return Season::High;
        }
        if (HIGH_FROM..=HIGH_TO).contains(&day) {
            Season::High
        } else {
            Season::Low
        }
    }
}
