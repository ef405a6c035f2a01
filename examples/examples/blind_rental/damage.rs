//! Damage and the deposit: the excess a customer pays towards each repair (none with full cover), and what the
//! deposit keeps back.

use super::model::{Class, DamageReport};

/// The excess for a class the table does not list (vans): the highest.
pub const HIGHEST_EXCESS: u32 = 150_000;

/// The excess by class, in pence.
const EXCESS: [(Class, u32); 3] = [
    (Class::Economy, 80_000),
    (Class::Compact, 100_000),
    (Class::Estate, 120_000),
];

/// The most a customer pays towards one repair on a car of `class`.
#[ranvier::trace_fn]
pub fn excess(class: Class, full_cover: bool) -> u32 {
    if full_cover {
        return 0;
    }
    EXCESS
        .iter()
        .find(|(c, _)| *c == class)
        .map(|(_, pence)| *pence)
        .unwrap_or(HIGHEST_EXCESS)
}

/// What the deposit keeps back for `damages`: each repair up to the excess, at most the whole deposit.
#[ranvier::trace_fn]
pub fn kept(deposit: u32, damages: &[&DamageReport], excess: u32) -> u32 {
    let mut owed = 0;
    for damage in damages {
        owed += damage.cost.min(excess);
    }
    owed.min(deposit)
}

/// Copies of the damage rules with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Class;
    use super::EXCESS;

    /// The most a customer pays towards one repair on a car of `class`.
    #[ranvier::trace_fn]
    pub fn excess(class: Class, full_cover: bool) -> u32 {
        if full_cover {
            return 0;
        }
        EXCESS
            .iter()
            .find(|(c, _)| *c == class)
            .map(|(_, pence)| *pence)
            // BUG(damage_excess)
            .unwrap_or(0)
    }
}
