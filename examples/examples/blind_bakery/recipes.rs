//! The bakehouse's rules: the flour a product takes, and which orders it can take.

use super::model::Product;

/// The flour `pieces` pieces of `product` take, in grams.
#[ranvier::trace_fn]
pub fn flour_for(product: &Product, pieces: u32) -> u64 {
    u64::from(product.flour_grams) * u64::from(pieces)
}

/// Why an order of `product` for day `day` cannot be taken on day `today`, if it cannot: not for a day gone by, and
/// not without the product's notice (an order for the day after tomorrow gives two days' notice).
#[ranvier::trace_fn]
pub fn refuse_order(product: &Product, today: u32, day: u32) -> Option<String> {
    if day < today {
        return Some(format!("day {day} is past"));
    }
    if day < today + product.lead_days {
        return Some(format!(
            "{} needs {} day's notice",
            product.name, product.lead_days
        ));
    }
    None
}

/// Grams as `3.84 kg`.
#[ranvier::trace_fn]
pub fn kilos(grams: u64) -> String {
    format!("{}.{:02} kg", grams / 1000, grams % 1000 / 10)
}

/// The rules with a mistake.
pub mod slipped {
    use super::super::model::Product;

    /// The flour `pieces` pieces of `product` take, in grams.
    #[ranvier::trace_fn]
    pub fn flour_for(product: &Product, pieces: u32) -> u64 {
        // BUG(flour_field)
        u64::from(product.dough_grams) * u64::from(pieces)
    }

    /// Why an order of `product` for day `day` cannot be taken on day `today`, if it cannot.
    #[ranvier::trace_fn]
    pub fn refuse_order(product: &Product, today: u32, day: u32) -> Option<String> {
        if day < today {
            return Some(format!("day {day} is past"));
        }
        // BUG(lead_time)
        if day <= today + product.lead_days {
            return Some(format!(
                "{} needs {} day's notice",
                product.name, product.lead_days
            ));
        }
        None
    }
}
