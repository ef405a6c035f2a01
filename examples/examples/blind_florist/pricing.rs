//! What the shop charges: a bouquet's price from its stems and labour, the deposit an order takes, a
//! subscription's price.

use super::model::{Flower, OrderKind, Recipe};

/// The shop's markup on the stems' cost.
pub const MARKUP: u32 = 3;

/// What `stems` stems of `flower` cost the shop, from its bunch price.
pub fn stem_cost(flower: &Flower, stems: u32) -> u32 {
    flower.bunch_cost * stems / flower.bunch
}

/// One bouquet of `recipe`: its stems marked up, and the labour, rounded up to 50p.
#[ranvier::trace_fn]
pub fn unit_price(recipe: &Recipe, catalogue: &[Flower]) -> u32 {
    let mut stems = 0;
    for (name, n) in &recipe.stems {
        if let Some(flower) = catalogue.iter().find(|f| &f.name == name) {
            stems += stem_cost(flower, *n);
        }
    }
    let price = stems * MARKUP + recipe.labour;
    price.div_ceil(50) * 50
}

/// The deposit taken when an order is placed: half a wedding, a funeral in full, nothing for a bouquet.
#[ranvier::trace_fn]
pub fn deposit(kind: OrderKind, total: u32) -> u32 {
    match kind {
        OrderKind::Wedding => total / 2,
        OrderKind::Funeral => total,
        OrderKind::Bouquet => 0,
    }
}

/// A subscriber's bouquet: 10% off.
#[ranvier::trace_fn]
pub fn subscription_price(unit: u32) -> u32 {
    unit - unit / 10
}

/// Copies of the pricing rules with one mistake each, for the blind test.
pub mod slipped {
    use super::OrderKind;

    /// The deposit taken when an order is placed: half a wedding, a funeral in full, nothing for a bouquet.
    #[ranvier::trace_fn]
    pub fn deposit(kind: OrderKind, total: u32) -> u32 {
        match kind {
            OrderKind::Wedding => total / 2,
            // BUG(funeral_deposit)
            OrderKind::Bouquet | OrderKind::Funeral => 0,
        }
    }
}
