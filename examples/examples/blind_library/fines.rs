//! Fines: so much a day past the due day, after a few days' grace, up to a cap per loan; each card has its rate.

use super::model::{Cents, Tier};

/// Days past the due day that cost nothing.
pub const GRACE_DAYS: u32 = 2;

impl Tier {
    /// The fine for a day late, after the grace days.
    pub fn daily_fine(self) -> Cents {
        match self {
            Tier::Child => 10,
            Tier::Adult => 25,
            Tier::Premium => 20,
        }
    }

    /// The most one loan can be fined.
    pub fn fine_cap(self) -> Cents {
        match self {
            Tier::Child => 300,
            Tier::Adult | Tier::Premium => 800,
        }
    }
}

/// The fine for a loan on a `tier` card returned `days_late` days after its due day.
pub fn fine_for(tier: Tier, days_late: u32) -> Cents {
    let charged = days_late.saturating_sub(GRACE_DAYS);
    if charged == 0 {
        return 0;
    }
    (charged * tier.daily_fine()).min(tier.fine_cap())
}

/// Other versions of this file's code, chosen by `graph::Slip`.
pub mod slipped {
    use super::super::model::{Cents, Tier};
    use super::GRACE_DAYS;

    /// The fine for a loan on a `tier` card returned `days_late` days after its due day.
    pub fn fine_for(tier: Tier, days_late: u32) -> Cents {
        let charged = days_late.saturating_sub(GRACE_DAYS);
        if charged == 0 {
            return 0;
        }
        // BUG(fine_cap_max)
        (charged * tier.daily_fine()).max(tier.fine_cap())
    }
}
