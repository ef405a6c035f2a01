//! The house rules: what a cancellation gives back, and how often a dog goes out.

use super::model::Size;

/// Days' notice for the whole deposit back.
pub const FULL_REFUND_NOTICE: u32 = 14;
/// Days' notice for half of it.
pub const HALF_REFUND_NOTICE: u32 = 7;

/// The part of `deposit` given back on a cancellation with `notice` days before arrival.
pub fn refund(deposit: u32, notice: u32) -> u32 {
    if notice >= FULL_REFUND_NOTICE {
        deposit
    } else if notice >= HALF_REFUND_NOTICE {
        deposit / 2
    } else {
        0
    }
}

/// The walk times of a dog in a pen of `size`: big dogs go out three times a day.
pub fn walk_times(size: Size) -> &'static [&'static str] {
    match size {
        Size::Large => &["08:00", "13:00", "18:00"],
        _ => &["08:00", "17:00"],
    }
}

/// When an extra walk goes out.
pub const EXTRA_WALK: &str = "15:00";

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::{FULL_REFUND_NOTICE, HALF_REFUND_NOTICE};

    /// [`super::refund`].
    pub fn refund(deposit: u32, notice: u32) -> u32 {
        // BUG(refund_tiers)
        if notice >= HALF_REFUND_NOTICE {
            deposit / 2
        } else if notice >= FULL_REFUND_NOTICE {
            deposit
        } else {
            0
        }
    }
}
