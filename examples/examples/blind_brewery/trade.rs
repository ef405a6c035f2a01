//! Trade rules: duty bands by strength, what an order is worth at the trade price list, and keg deposits.

use super::model::{Account, units};

/// Beer below this strength (tenths of a percent) pays the reduced rate.
const REDUCED_BELOW: u32 = 35;
/// Beer up to this strength pays the standard rate; stronger beer the high rate.
const STANDARD_UP_TO: u32 = 85;

/// A duty band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// Below 3.5%.
    Reduced,
    /// 3.5% to 8.5%.
    Standard,
    /// Above 8.5%.
    High,
}

impl Band {
    /// The band's name on the duty return.
    pub fn name(self) -> &'static str {
        match self {
            Band::Reduced => "reduced",
            Band::Standard => "standard",
            Band::High => "high",
        }
    }
}

/// The band of beer of `abv` (tenths of a percent).
pub fn duty_band(abv: u32) -> Band {
    if abv < REDUCED_BELOW {
        Band::Reduced
    } else if abv <= STANDARD_UP_TO {
        Band::Standard
    } else {
        Band::High
    }
}

/// Duty rates, in pence per litre of pure alcohol.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DutyRates {
    /// The reduced rate.
    pub reduced: u32,
    /// The standard rate.
    pub standard: u32,
    /// The high rate.
    pub high: u32,
}

impl DutyRates {
    /// The rate of `band`.
    pub fn of(&self, band: Band) -> u32 {
        match band {
            Band::Reduced => self.reduced,
            Band::Standard => self.standard,
            Band::High => self.high,
        }
    }
}

/// The duty on `litres` of beer of `abv` (tenths of a percent) at `rate` pence per litre of pure alcohol, in pence.
pub fn duty(litres: u32, abv: u32, rate: u32) -> u32 {
    let pure_ml = litres * abv; // litres × tenths of a percent = millilitres of alcohol
    pure_ml * rate / 1000
}

/// A beer's trade prices, in pence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    /// A keg.
    pub keg: u32,
    /// A bottle.
    pub bottle: u32,
}

/// What `kegs` kegs and `bottles` bottles are worth at `price`, in pence, deposits aside.
pub fn order_value(kegs: u32, bottles: u32, price: &Price) -> u32 {
    kegs * price.keg + bottles * price.bottle
}

/// The deposit on `kegs` kegs, in pence.
pub fn deposit(kegs: u32) -> u32 {
    kegs * units::KEG_DEPOSIT
}

/// What a customer gets back for `returned` empty kegs: never more kegs than they hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refund {
    /// Kegs taken back.
    pub kegs: u32,
    /// Pence refunded.
    pub pence: u32,
}

/// The refund on `returned` kegs brought back by the holder of `account`.
pub fn refund(account: &Account, returned: u32) -> Refund {
    let kegs = returned.min(account.kegs_out);
    Refund {
        kegs,
        pence: deposit(kegs).min(account.deposits),
    }
}

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::{Band, REDUCED_BELOW, STANDARD_UP_TO};

    /// [`super::duty_band`] with a mistake.
    pub fn duty_band(abv: u32) -> Band {
        // BUG(band_edge)
        if abv <= REDUCED_BELOW {
            Band::Reduced
        } else if abv <= STANDARD_UP_TO {
            Band::Standard
        } else {
            Band::High
        }
    }
}
