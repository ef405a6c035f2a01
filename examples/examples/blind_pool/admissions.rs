//! What the desk charges: the tariff of casual tickets and memberships.

use super::model::Kind;

/// An adult's swim, in pence.
pub const ADULT: u32 = 520;
/// An adult's swim before [`EARLY_UNTIL`].
pub const ADULT_EARLY: u32 = 400;
pub const CHILD: u32 = 260;
/// A senior's or a student's swim, on a leisure card.
pub const CONCESSION: u32 = 340;
/// The early swim ends at 09:00.
pub const EARLY_UNTIL: u32 = 9 * 60;

/// A lane hired by a club, per half hour.
pub const LANE_HALF_HOUR: u32 = 1_500;

/// A month's membership, by plan.
pub const PLANS: [(&str, u32); 2] = [("adult", 3_200), ("junior", 1_800)];

/// The price of one ticket of `kind` sold at `at` (minutes since midnight).
#[ranvier::trace_fn]
pub fn price(kind: Kind, at: u32) -> u32 {
    match kind {
        Kind::Adult if at < EARLY_UNTIL => ADULT_EARLY,
        Kind::Adult => ADULT,
        Kind::Child => CHILD,
        Kind::Senior | Kind::Student => CONCESSION,
        Kind::Member => 0,
    }
}

/// The monthly fee of `plan`, if the pool sells it.
#[ranvier::trace_fn]
pub fn plan_fee(plan: &str) -> Option<u32> {
    PLANS
        .iter()
        .find(|(name, _)| *name == plan)
        .map(|&(_, fee)| fee)
}

/// Copies of the tariff with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Kind;
    use super::{ADULT, ADULT_EARLY, CHILD, CONCESSION, EARLY_UNTIL};

    /// [`super::price`].
    #[ranvier::trace_fn]
    pub fn price(kind: Kind, at: u32) -> u32 {
        match kind {
            // BUG(early_child)
            _ if at < EARLY_UNTIL => ADULT_EARLY,
            Kind::Adult => ADULT,
            Kind::Child => CHILD,
            Kind::Senior | Kind::Student => CONCESSION,
            Kind::Member => 0,
        }
    }
}
