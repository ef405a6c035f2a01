//! The cold room: the stems on hand, what to take for an order (the oldest first), how many bunches to buy, and the
//! stock sheet.

use super::model::{Batch, Msg, Shop};
use ranvier::{Memo, Mvu};

/// Stems of `flower` on hand that have not wilted by `today`.
pub fn fresh(batches: &[Batch], flower: &str, today: u32) -> u32 {
    batches
        .iter()
        .filter(|b| b.flower == flower && !b.is_wilted(today))
        .map(|b| b.stems)
        .sum()
}

/// The bunches to buy to bring `on_hand` stems up to `par`.
#[ranvier::trace_fn]
pub fn bunches_to_order(on_hand: u32, par: u32, bunch: u32) -> u32 {
    par.saturating_sub(on_hand).div_ceil(bunch)
}

/// Takes `stems` stems of `flower` from the buckets, the oldest first; returns how many it found.
#[ranvier::trace_fn]
pub fn take(batches: &mut [Batch], flower: &str, stems: u32, today: u32) -> u32 {
    let mut left = stems;
    let mut oldest: Vec<&mut Batch> = batches
        .iter_mut()
        .filter(|b| b.flower == flower && !b.is_wilted(today))
        .collect();
    oldest.sort_by_key(|b| b.bought);
    for batch in oldest {
        if left == 0 {
            break;
        }
        let used = batch.stems.min(left);
        batch.stems -= used;
        left -= used;
    }
    stems - left
}

/// The stock sheet: each flower's fresh stems, the stems the orders not made yet need, when the oldest must go, and
/// the bunches to buy.
pub fn stock_sheet(shop: &Mvu<Shop, Msg>, to_order: fn(u32, u32, u32) -> u32) -> Memo<Vec<String>> {
    let shop = shop.clone();
    Memo::new(move |_| {
        let shop = shop.model();
        let today = shop.today;
        let mut lines = Vec::new();
        for (flower, on_hand) in shop.stock_levels() {
            let mut needed = 0;
            for order in shop.orders.iter().filter(|o| !o.made) {
                if let Some(recipe) = shop.recipe(&order.recipe) {
                    for (name, stems) in &recipe.stems {
                        if *name == flower.name {
                            needed += stems * order.qty;
                        }
                    }
                }
            }
            let mut line = format!("{}: {on_hand} stems", flower.name);
            if needed > 0 {
                line.push_str(&format!(", {needed} wanted for orders"));
            }
            let oldest = shop
                .batches
                .iter()
                .filter(|b| b.flower == flower.name && !b.is_wilted(today))
                .map(Batch::use_by)
                .min();
            if let Some(day) = oldest {
                line.push_str(&format!(", oldest sold by day {day}"));
            }
            let spare = on_hand.saturating_sub(needed);
            match to_order(spare, flower.par, flower.bunch) {
                0 => {}
                1 => line.push_str("; buy 1 bunch"),
                n => line.push_str(&format!("; buy {n} bunches")),
            }
            lines.push(line);
        }
        lines
    })
}

/// Copies of the cold room's rules with one mistake each, for the blind test.
pub mod slipped {
    /// The bunches to buy to bring `on_hand` stems up to `par`.
    #[ranvier::trace_fn]
    pub fn bunches_to_order(on_hand: u32, par: u32, bunch: u32) -> u32 {
        // BUG(bunches_to_order)
        par.saturating_sub(on_hand) / bunch
    }
}
