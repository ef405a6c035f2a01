//! Clinical rules: doses by weight, and when each vaccine is due again.

use super::model::{Drug, Pet, Species, Vaccine};

/// Cats clear most of the practice's medicines slowly: they get this share of a dog's dose per kilogram.
pub const CAT_FACTOR: f64 = 0.5;

/// How many days before a vaccine is due the owner is reminded.
pub const REMIND_DAYS: i64 = 30;

/// Whole tablets of `drug` a day for a patient of `species` weighing `weight_g` grams (at least one).
#[ranvier::trace_fn]
pub fn tablets_per_day(drug: &Drug, weight_g: u32, species: Species) -> u32 {
    let kg = f64::from(weight_g) / 1000.0;
    let mg_per_kg = match species {
        Species::Cat => drug.mg_per_kg * CAT_FACTOR,
        Species::Dog | Species::Rabbit => drug.mg_per_kg,
    };
    let mg = kg * mg_per_kg;
    let tablets = (mg / drug.strength_mg).ceil();
    (tablets as u32).max(1)
}

/// The vaccines every patient of `species` should have.
#[ranvier::trace_fn]
pub fn core_vaccines(species: Species) -> &'static [Vaccine] {
    match species {
        Species::Dog => &[Vaccine::Rabies, Vaccine::Dhpp, Vaccine::Lepto],
        Species::Cat => &[Vaccine::Rabies, Vaccine::Fvrcp],
        Species::Rabbit => &[Vaccine::Myxo],
    }
}

/// Days between two boosters of `vaccine`.
#[ranvier::trace_fn]
pub fn booster_days(vaccine: Vaccine) -> u32 {
    match vaccine {
        Vaccine::Dhpp => 3 * 365,
        Vaccine::Rabies | Vaccine::Lepto | Vaccine::Fvrcp | Vaccine::Myxo => 365,
    }
}

/// The day `pet` is due its next `vaccine` (`None`: it never had one).
#[ranvier::trace_fn]
pub fn due_day(pet: &Pet, vaccine: Vaccine) -> Option<u32> {
    pet.last_shot(vaccine)
        .map(|shot| shot.given + booster_days(vaccine))
}

/// Days from `from` to `to` (negative when `to` is earlier).
#[ranvier::trace_fn]
pub fn days_between(from: u32, to: u32) -> i64 {
    i64::from(to) - i64::from(from)
}

/// The rules as they were written with a mistake, selected by [`Slip`](super::graph::Slip).
pub mod slipped {
    use super::*;

    /// [`super::tablets_per_day`], with a mistake.
    #[ranvier::trace_fn]
    pub fn tablets_per_day(drug: &Drug, weight_g: u32, species: Species) -> u32 {
        // BUG(dose_weight_unit)
        let kg = f64::from(weight_g) / 100.0;
        let mg_per_kg = match species {
            Species::Cat => drug.mg_per_kg * CAT_FACTOR,
            Species::Dog | Species::Rabbit => drug.mg_per_kg,
        };
        let mg = kg * mg_per_kg;
        let tablets = (mg / drug.strength_mg).ceil();
        (tablets as u32).max(1)
    }
}
