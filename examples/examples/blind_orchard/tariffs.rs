//! The farm's tariffs: what a picker earns (by the bin, topped up to the minimum hourly wage) and what a customer pays
//! (a price per kilogram by grade, less a volume discount).

use super::model::{Customer, Grade};

/// Paid per bin picked, in pence.
pub const BIN_RATE: u32 = 1_800;
/// The minimum wage an hour, in pence.
pub const MIN_HOURLY: u32 = 1_144;
/// An order of this many kilograms or more earns the volume discount.
pub const VOLUME_KG: u32 = 500;
/// The volume discount, in percent.
pub const VOLUME_DISCOUNT: u32 = 5;
/// Kilograms in a tray.
pub const TRAY_KG: u32 = 12;

/// What a picker earns for `bins` in `hours`: the piece rate, or the minimum wage for the hours when that is more.
#[ranvier::trace_fn]
pub fn picker_pay(bins: u32, hours: u32) -> u32 {
    let piece = bins * BIN_RATE;
    let floor = hours * MIN_HOURLY;
    piece.max(floor)
}

/// Pence a kilogram `customer` pays for `grade`, if they buy it at all.
#[ranvier::trace_fn]
pub fn per_kg(customer: Customer, grade: Grade) -> Option<u32> {
    match (customer, grade) {
        (Customer::Supermarket, Grade::ClassOne) => Some(95),
        (Customer::Supermarket, Grade::ClassTwo) => Some(60),
        (Customer::FarmShop, Grade::ClassOne) => Some(120),
        (Customer::FarmShop, Grade::ClassTwo) => Some(80),
        (Customer::JuicePress, _) => Some(15),
        (_, Grade::Juice) => None,
    }
}

/// What `customer` pays for `kg` of `grade`, with the volume discount on a large order.
#[ranvier::trace_fn]
pub fn price(customer: Customer, grade: Grade, kg: u32) -> Option<u32> {
    let gross = per_kg(customer, grade)? * kg;
    if kg >= VOLUME_KG {
        Some(gross - gross * VOLUME_DISCOUNT / 100)
    } else {
        Some(gross)
    }
}

/// Copies of the tariffs with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Customer, Grade};
    use super::{BIN_RATE, MIN_HOURLY, VOLUME_DISCOUNT, VOLUME_KG, per_kg};

    /// [`super::picker_pay`].
    #[ranvier::trace_fn]
    pub fn picker_pay(bins: u32, hours: u32) -> u32 {
        let piece = bins * BIN_RATE;
        let floor = hours * MIN_HOURLY;
        // BUG(top_up)
        piece.min(floor)
    }

    /// [`super::price`].
    #[ranvier::trace_fn]
    pub fn price(customer: Customer, grade: Grade, kg: u32) -> Option<u32> {
        let gross = per_kg(customer, grade)? * kg;
        // BUG(volume_discount)
        if kg > VOLUME_KG {
            Some(gross - gross * VOLUME_DISCOUNT / 100)
        } else {
            Some(gross)
        }
    }
}
