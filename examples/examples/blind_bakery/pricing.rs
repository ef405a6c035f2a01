//! What a delivery costs: each line's price (with the volume discount for a large one) and the goods all told.

use super::model::{Product, Settings};

/// What `pieces` pieces of `product` cost on one delivery: its price, less the volume discount from the threshold
/// on.
#[ranvier::trace_fn]
pub fn line_price(product: &Product, pieces: u32, settings: &Settings) -> u64 {
    let gross = product.price * u64::from(pieces);
    if pieces >= settings.volume_threshold {
        gross * (100 - settings.volume_discount) / 100
    } else {
        gross
    }
}

/// The goods of a delivery, `lines` being (product code, pieces): each line priced, all told.
#[ranvier::trace_fn]
pub fn goods_total(products: &[Product], lines: &[(String, u32)], settings: &Settings) -> u64 {
    let mut total = 0;
    for (code, pieces) in lines {
        let Some(product) = products.iter().find(|p| &p.code == code) else {
            continue;
        };
        total += line_price(product, *pieces, settings);
    }
    total
}

/// The prices with a mistake.
pub mod slipped {
    use super::super::model::{Product, Settings};

    /// What `pieces` pieces of `product` cost on one delivery.
    #[ranvier::trace_fn]
    pub fn line_price(product: &Product, pieces: u32, settings: &Settings) -> u64 {
        let gross = product.price * u64::from(pieces);
        // BUG(volume_discount)
        if pieces > settings.volume_threshold {
            gross * (100 - settings.volume_discount) / 100
        } else {
            gross
        }
    }

    /// The goods of a delivery, all told.
    #[ranvier::trace_fn]
    pub fn goods_total(products: &[Product], lines: &[(String, u32)], settings: &Settings) -> u64 {
        let mut total = 0;
        for (code, pieces) in lines {
            let Some(product) = products.iter().find(|p| &p.code == code) else {
                continue;
            };
            total += line_price(product, *pieces, settings);
        }
        total
    }
}
