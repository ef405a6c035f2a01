//! The ticket office's tariff: age bands, what a pass costs, and what a closed day gives back.

use super::model::{Band, Pass, PassKind, hours};

/// An adult's day, in cents.
pub const ADULT_DAY: u64 = 6200;
/// An adult's season, in cents.
pub const ADULT_SEASON: u64 = 78_000;
/// Each day after the first of a multi-day pass is this many percent off.
pub const EXTRA_DAY_OFF: u64 = 10;

/// The band an age falls in: children are twelve and under, seniors sixty-five and over.
pub fn band(age: u32) -> Band {
    if age <= 12 {
        Band::Child
    } else if age >= 65 {
        Band::Senior
    } else {
        Band::Adult
    }
}

/// What a band pays, in percent of the adult price.
pub fn share(band: Band) -> u64 {
    match band {
        Band::Child => 60,
        Band::Adult => 100,
        Band::Senior => 80,
    }
}

/// The price of a pass, in cents: the season, or `days` days with every day after the first a tenth off.
pub fn price(band: Band, kind: PassKind, days: u32) -> u64 {
    let percent = share(band);
    match kind {
        PassKind::Season => ADULT_SEASON * percent / 100,
        PassKind::Days => {
            let daily = ADULT_DAY * percent / 100;
            let days = u64::from(days);
            daily * days - daily * (days - 1) * EXTRA_DAY_OFF / 100
        }
    }
}

/// What a pass gets back for one day the resort stayed shut: its price spread over the days it covers.
pub fn day_share(pass: &Pass) -> u64 {
    let days = match pass.kind {
        PassKind::Days => pass.days,
        PassKind::Season => hours::SEASON_DAYS,
    };
    pass.price / u64::from(days.max(1))
}

/// Cents as euros: `6200` is `62.00`.
pub fn euros(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The tariff's rules with a mistake each.
pub mod slipped {
    use super::super::model::{Band, PassKind};
    use super::{ADULT_DAY, ADULT_SEASON, EXTRA_DAY_OFF, share};

    /// [`super::band`], with a mistake.
    pub fn band(age: u32) -> Band {
        // BUG(child_age)
        if age < 12 {
            Band::Child
        } else if age >= 65 {
            Band::Senior
        } else {
            Band::Adult
        }
    }

    /// [`super::price`], with a mistake.
    pub fn price(band: Band, kind: PassKind, days: u32) -> u64 {
        let percent = share(band);
        match kind {
            PassKind::Season => ADULT_SEASON * percent / 100,
            PassKind::Days => {
                let daily = ADULT_DAY * percent / 100;
                let days = u64::from(days);
                // BUG(multi_day_discount)
                daily * days + daily * (days - 1) * EXTRA_DAY_OFF / 100
            }
        }
    }
}
