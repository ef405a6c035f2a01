//! The tariff: the price of each size, the daily rate after the free period, weight limits and the overweight
//! charge, the hazardous surcharge and the council's road permit.

use super::model::Size;

/// Days included in the hire price.
pub const FREE_DAYS: u32 = 7;
/// The overweight charge, in pence per tonne over the limit.
pub const OVERWEIGHT_PER_TONNE: u64 = 8_000;
/// The hazardous-waste surcharge, in percent of the hire price.
pub const HAZARD_PERCENT: u64 = 40;
/// The road permit, in pence per week or part of a week.
pub const PERMIT_PER_WEEK: u64 = 2_500;

/// The hire price, in pence, covering the free period.
pub fn base_price(size: Size) -> u64 {
    match size {
        Size::Mini => 9_000,
        Size::Midi => 13_500,
        Size::Builders => 19_500,
    }
}

/// The daily rate after the free period, in pence.
pub fn daily_rate(size: Size) -> u64 {
    match size {
        Size::Mini => 300,
        Size::Midi => 450,
        Size::Builders => 650,
    }
}

/// The weight limit, in tenths of a tonne.
pub fn weight_limit(size: Size) -> u32 {
    match size {
        Size::Mini => 10,
        Size::Midi => 25,
        Size::Builders => 50,
    }
}

/// Days on hire from `placed_on` to `today`, both counted.
pub fn days_on_hire(placed_on: u32, today: u32) -> u32 {
    today.saturating_sub(placed_on) + 1
}

/// What the days after the free period cost.
pub fn daily_charge(size: Size, days: u32) -> u64 {
    u64::from(days.saturating_sub(FREE_DAYS)) * daily_rate(size)
}

/// The overweight charge for a load of `tenths` tenths of a tonne.
pub fn overweight_cents(size: Size, tenths: u32) -> u64 {
    let over = tenths.saturating_sub(weight_limit(size));
    u64::from(over) * OVERWEIGHT_PER_TONNE / 10
}

/// The hazardous-waste surcharge.
pub fn hazard_surcharge(size: Size) -> u64 {
    base_price(size) * HAZARD_PERCENT / 100
}

/// The weeks a road permit must cover for `days` on the road: every started week.
pub fn permit_weeks(days: u32) -> u32 {
    days.div_ceil(7)
}

/// The road permit for `days` on the road.
pub fn permit_cents(days: u32) -> u64 {
    u64::from(permit_weeks(days)) * PERMIT_PER_WEEK
}

/// The bill for a skip collected after `days` with a load of `tenths`.
pub fn collection_bill(size: Size, days: u32, tenths: u32, on_road: bool, hazardous: bool) -> u64 {
    let mut cents = base_price(size) + daily_charge(size, days) + overweight_cents(size, tenths);
    if on_road {
        cents += permit_cents(days);
    }
    if hazardous {
        cents += hazard_surcharge(size);
    }
    cents
}

pub mod slipped {
    use super::super::model::Size;
    use super::{OVERWEIGHT_PER_TONNE, weight_limit};

    pub fn overweight_cents(size: Size, tenths: u32) -> u64 {
        let over = tenths.saturating_sub(weight_limit(size));
        // BUG(overweight_unit)
        u64::from(over) * OVERWEIGHT_PER_TONNE
    }

    pub fn permit_weeks(days: u32) -> u32 {
        // BUG(permit_weeks_floor)
        days / 7
    }
}
