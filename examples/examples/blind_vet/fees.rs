//! What the practice charges: consultations, vaccines, no-shows and the kennels' nightly rates, in cents.

use super::model::{Species, Vaccine};

/// A standard consultation.
pub const CONSULT: u32 = 45_00;
/// The minutes a standard consultation lasts; each minute over it is charged.
pub const CONSULT_MINUTES: u32 = 20;
/// Each minute past a standard consultation.
pub const PER_EXTRA_MINUTE: u32 = 1_50;
/// An appointment nobody came to.
pub const NO_SHOW: u32 = 25_00;
/// A night in the cattery.
pub const CATTERY_NIGHT: u32 = 18_00;
/// A night in a hutch.
pub const HUTCH_NIGHT: u32 = 12_00;
/// A night in a small run (dogs under 10 kg).
pub const SMALL_RUN_NIGHT: u32 = 22_00;
/// A night in a medium run (dogs under 25 kg).
pub const MEDIUM_RUN_NIGHT: u32 = 28_00;
/// A night in a large run.
pub const LARGE_RUN_NIGHT: u32 = 34_00;

/// How big a dog is, for its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Under 10 kg.
    Small,
    /// Under 25 kg.
    Medium,
    /// 25 kg and over.
    Large,
}

impl Size {
    /// The size of a dog of `weight_g` grams.
    pub fn of(weight_g: u32) -> Size {
        match weight_g {
            0..10_000 => Size::Small,
            10_000..25_000 => Size::Medium,
            _ => Size::Large,
        }
    }
}

/// A consultation of `minutes`.
#[ranvier::trace_fn]
pub fn consult(minutes: u32) -> u32 {
    let extra = minutes.saturating_sub(CONSULT_MINUTES);
    CONSULT + extra * PER_EXTRA_MINUTE
}

/// A dose of `vaccine`.
#[ranvier::trace_fn]
pub fn vaccine(vaccine: Vaccine) -> u32 {
    match vaccine {
        Vaccine::Rabies => 32_00,
        Vaccine::Dhpp => 38_00,
        Vaccine::Lepto => 28_00,
        Vaccine::Fvrcp => 36_00,
        Vaccine::Myxo => 30_00,
    }
}

/// A night's boarding for a pet of `species` weighing `weight_g` grams.
#[ranvier::trace_fn]
pub fn nightly_rate(species: Species, weight_g: u32) -> u32 {
    match species {
        Species::Cat => CATTERY_NIGHT,
        Species::Rabbit => HUTCH_NIGHT,
        Species::Dog => match Size::of(weight_g) {
            Size::Small => SMALL_RUN_NIGHT,
            Size::Medium => MEDIUM_RUN_NIGHT,
            Size::Large => LARGE_RUN_NIGHT,
        },
    }
}

/// The rules as they were written with a mistake, selected by [`Slip`](super::graph::Slip).
pub mod slipped {
    use super::*;

    /// [`super::nightly_rate`], with a mistake.
    #[ranvier::trace_fn]
    pub fn nightly_rate(species: Species, weight_g: u32) -> u32 {
        match species {
            Species::Cat => CATTERY_NIGHT,
            Species::Rabbit => HUTCH_NIGHT,
            Species::Dog => match Size::of(weight_g) {
                Size::Small => SMALL_RUN_NIGHT,
                // BUG(medium_run_rate)
                Size::Medium => LARGE_RUN_NIGHT,
                Size::Large => LARGE_RUN_NIGHT,
            },
        }
    }
}
