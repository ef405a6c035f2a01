//! What the house charges: the buyer's premium and the VAT on it, the seller's commission, the consignors' fees, and
//! what a consignor is paid. Amounts in cents.

use super::model::{Lot, LotStatus};

/// The buyer's premium, percent of the hammer price.
pub const PREMIUM_PERCENT: u64 = 25;
/// VAT on the premium, percent, for buyers in the EU.
pub const VAT_PERCENT: u64 = 20;
/// Where VAT is due on the premium.
pub const EU: [&str; 8] = ["FR", "DE", "BE", "NL", "IE", "IT", "ES", "AT"];
/// The seller's commission, percent of the hammer price.
pub const COMMISSION_PERCENT: u64 = 10;
/// The least commission on a lot sold, in cents.
pub const MIN_COMMISSION: u64 = 2_000;
/// The fee for a lot bought in, in cents.
pub const UNSOLD_FEE: u64 = 1_500;
/// The fee for a lot withdrawn, percent of its low estimate.
pub const WITHDRAWAL_PERCENT: u64 = 10;

/// The buyer's premium on `hammer` cents.
pub fn buyers_premium(hammer: u64) -> u64 {
    hammer * PREMIUM_PERCENT / 100
}

/// The VAT a buyer from `country` pays on `premium`.
pub fn vat_on(premium: u64, country: &str) -> u64 {
    if EU.contains(&country) {
        premium * VAT_PERCENT / 100
    } else {
        0
    }
}

/// The commission on a lot sold for `hammer` cents.
pub fn commission(hammer: u64) -> u64 {
    (hammer * COMMISSION_PERCENT / 100).max(MIN_COMMISSION)
}

/// The fee a consignor pays for `lot` besides commission.
pub fn vendor_fee(lot: &Lot) -> u64 {
    match lot.status {
        LotStatus::Passed => UNSOLD_FEE,
        LotStatus::Withdrawn => lot.low * 100 * WITHDRAWAL_PERCENT / 100,
        LotStatus::Sold { .. } | LotStatus::Upcoming | LotStatus::Open => 0,
    }
}

/// What the house pays a consignor: the hammer prices less commission and fees (negative when the fees are more).
pub fn net_proceeds(hammer: u64, commission: u64, fees: u64) -> i64 {
    let signed = |cents: u64| i64::try_from(cents).unwrap_or(i64::MAX);
    signed(hammer) - signed(commission) - signed(fees)
}

/// The charges as first written, kept beside the ones above.
pub mod slipped {
    use super::super::model::{Lot, LotStatus};
    use super::UNSOLD_FEE;

    /// The fee a consignor pays for `lot` besides commission.
    pub fn vendor_fee(lot: &Lot) -> u64 {
        match lot.status {
            LotStatus::Passed => UNSOLD_FEE,
            // BUG(withdrawal_fee)
            LotStatus::Withdrawn => UNSOLD_FEE,
            LotStatus::Sold { .. } | LotStatus::Upcoming | LotStatus::Open => 0,
        }
    }

    /// What the house pays a consignor: the hammer prices less commission and fees.
    pub fn net_proceeds(hammer: u64, commission: u64, fees: u64) -> i64 {
        let signed = |cents: u64| i64::try_from(cents).unwrap_or(i64::MAX);
        // BUG(net_fees_sign)
        signed(hammer) - signed(commission) + signed(fees)
    }
}
