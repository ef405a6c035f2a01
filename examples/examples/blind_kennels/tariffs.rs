//! What the kennels charge: nightly rates by pen size and season, the add-ons, the multi-pet discount and the
//! deposit taken at booking.

use super::model::{Addon, Size};

/// The Easter holidays, days of the year: high season.
pub const HIGH_SEASON: (u32, u32) = (103, 116);
/// A deposit of a fifth of the boarding is taken at booking.
pub const DEPOSIT_PERCENT: u32 = 20;
/// Two pets or more in one pen: a tenth off the boarding.
pub const MULTI_PET_PERCENT: u32 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Season {
    Low,
    High,
}

/// The season of day `day`.
pub fn season(day: u32) -> Season {
    let (from, to) = HIGH_SEASON;
    if (from..=to).contains(&day) {
        Season::High
    } else {
        Season::Low
    }
}

/// One pet's night in a pen of `size`, in pence.
pub fn nightly_rate(size: Size, season: Season) -> u32 {
    let low = match size {
        Size::Small => 1_800,
        Size::Medium => 2_200,
        Size::Large => 2_600,
        Size::Cattery => 1_400,
    };
    match season {
        Season::Low => low,
        Season::High => low * 5 / 4,
    }
}

/// The boarding of `pets` in a pen of `size` for the nights from `arrive` to `depart`, before any discount.
pub fn boarding(
    size: Size,
    pets: u32,
    arrive: u32,
    depart: u32,
    rate: fn(Size, Season) -> u32,
) -> u32 {
    (arrive..depart)
        .map(|night| rate(size, season(night)))
        .sum::<u32>()
        * pets
}

/// The multi-pet discount on `boarding` for `pets` sharing a pen.
pub fn multi_pet_discount(boarding: u32, pets: u32) -> u32 {
    if pets >= 2 {
        boarding * MULTI_PET_PERCENT / 100
    } else {
        0
    }
}

/// The deposit on a stay whose boarding (after discount) comes to `due`.
pub fn deposit(due: u32) -> u32 {
    due * DEPOSIT_PERCENT / 100
}

/// An add-on's price, in pence.
pub fn addon_price(addon: Addon) -> u32 {
    match addon {
        Addon::Grooming => 2_500,
        Addon::ExtraWalk => 600,
    }
}

/// Copies of the tariff with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Size;
    use super::Season;

    /// [`super::nightly_rate`].
    pub fn nightly_rate(size: Size, season: Season) -> u32 {
        let low = match size {
            // BUG(cattery_rate)
            Size::Small | Size::Cattery => 1_800,
            Size::Medium => 2_200,
            Size::Large => 2_600,
        };
        match season {
            Season::Low => low,
            Season::High => low * 5 / 4,
        }
    }
}
