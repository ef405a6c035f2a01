//! The price list and the loyalty card.

use super::model::Service;

pub mod prices {
    /// Washing, per started kilo, in cents.
    pub const WASH_PER_KILO: u32 = 300;
    /// Tumble drying, per started kilo.
    pub const DRY_PER_KILO: u32 = 150;
    /// Ironing, per bag.
    pub const IRONING: u32 = 450;
    /// Stamps on a full card: the order collected on a full card is half price.
    pub const CARD: u32 = 3;
}

/// Started kilos: 2,100 g is billed as 3 kg, and a bag is at least a kilo.
pub fn billed_kilos(grams: u32) -> u32 {
    grams.div_ceil(1000).max(1)
}

/// The price quoted at drop-off, in cents.
pub fn quote(grams: u32, service: Service) -> u32 {
    let kilos = billed_kilos(grams);
    let mut cents = kilos * prices::WASH_PER_KILO;
    if service.dried() {
        cents += kilos * prices::DRY_PER_KILO;
    }
    if service.ironed() {
        cents += prices::IRONING;
    }
    cents
}

/// What is paid at collection, with `stamps` orders collected before: each full card halves one order.
pub fn charge(quoted: u32, stamps: u32) -> u32 {
    let card_full = stamps > 0 && stamps.is_multiple_of(prices::CARD);
    if card_full { quoted / 2 } else { quoted }
}

/// Cents as money: 1250 is "12.50".
pub fn money(cents: u32) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

pub mod slipped {
    use super::super::model::Service;
    use super::{billed_kilos, prices};

    pub fn quote(grams: u32, service: Service) -> u32 {
        let kilos = billed_kilos(grams);
        let mut cents = kilos * prices::WASH_PER_KILO;
        if service.dried() {
            // BUG(dry_per_kilo)
            cents += kilos + prices::DRY_PER_KILO;
        }
        if service.ironed() {
            cents += prices::IRONING;
        }
        cents
    }
}
