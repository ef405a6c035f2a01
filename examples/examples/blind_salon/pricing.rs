//! The price list and the money rules: a service's price by hair length and stylist level, the weekday-morning
//! discount, deposits, no-show fees, VAT and when to reorder a product. `update` and the memos both call them.

use super::model::{LAST_START, Length, Level, OPENS, Product, Service, weekday};

/// The price of `service` on hair of `length` by a stylist of `level`, before any discount.
#[ranvier::trace_fn]
pub fn service_price(service: Service, length: Length, level: Level) -> u32 {
    let base = match service {
        Service::Cut => 3000,
        Service::Colour => 6000,
        Service::BlowDry => 2000,
    };
    let length_percent = match length {
        Length::Short => 100,
        Length::Medium => 120,
        Length::Long => 150,
    };
    let level_percent = match level {
        Level::Junior => 80,
        Level::Senior => 100,
        Level::Director => 130,
    };
    base * length_percent / 100 * level_percent / 100
}

/// Whether an appointment on `day` at `hour` gets the weekday-morning discount: Monday to Friday, before noon.
#[ranvier::trace_fn]
pub fn morning_discount(day: u32, hour: u32) -> bool {
    weekday(day) < 5 && hour < 12
}

/// `price` for an appointment on `day` at `hour`: 10% off on weekday mornings.
#[ranvier::trace_fn]
pub fn discounted(price: u32, day: u32, hour: u32) -> u32 {
    if morning_discount(day, hour) {
        price - price / 10
    } else {
        price
    }
}

/// Whether the salon takes appointments starting at `hour` on `day` (not on Sundays).
#[ranvier::trace_fn]
pub fn open_at(day: u32, hour: u32) -> bool {
    weekday(day) < 6 && (OPENS..=LAST_START).contains(&hour)
}

/// The deposit taken when booking: a fifth of the price.
#[ranvier::trace_fn]
pub fn deposit(price: u32) -> u32 {
    price / 5
}

/// The no-show fee: half the price.
#[ranvier::trace_fn]
pub fn no_show_fee(price: u32) -> u32 {
    price / 2
}

/// The VAT inside a VAT-inclusive `gross` at 20%: a sixth.
#[ranvier::trace_fn]
pub fn vat_in(gross: u32) -> u32 {
    gross / 6
}

/// Whether `product` is at or below its reorder point.
#[ranvier::trace_fn]
pub fn needs_reorder(product: &Product) -> bool {
    product.stock <= product.reorder_point
}

pub mod slipped {
    use super::super::model::{Length, Level, Service};

    /// [`super::service_price`], with the mistake.
    #[ranvier::trace_fn]
    pub fn service_price(service: Service, length: Length, level: Level) -> u32 {
        let base = match service {
            Service::Cut => 3000,
            Service::Colour => 6000,
            Service::BlowDry => 2000,
        };
        let length_percent = match length {
            Length::Short => 100,
            // BUG(length_price)
            Length::Medium => 150,
            Length::Long => 150,
        };
        let level_percent = match level {
            Level::Junior => 80,
            Level::Senior => 100,
            Level::Director => 130,
        };
        base * length_percent / 100 * level_percent / 100
    }
}
