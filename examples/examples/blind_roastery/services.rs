//! The values that come from the services: what the green coffee to buy again costs on today's market, and the
//! courier's quote for the open orders.

use ranvier::{AsyncMemo, Memo, Mvu, node};

use super::model::{Msg, Reorder, Roastery, SACK_G};
use super::remote;

/// What buying back the reorder list costs at the market's prices, in cents: whole sacks, enough to cover each
/// origin's shortfall.
#[node]
pub fn reorder_cost(reorder: &Memo<Vec<Reorder>>) -> AsyncMemo<u32> {
    let cost = AsyncMemo::try_new({
        let reorder = reorder.clone();
        move |_| {
            let wanted = reorder.get();
            async move {
                let mut total = 0;
                for item in &wanted {
                    let sacks = item.short_g.div_ceil(SACK_G);
                    let per_kg = remote::market_price(&item.origin).await?;
                    total += sacks * (SACK_G / 1_000) * per_kg;
                }
                Ok::<u32, String>(total)
            }
        }
    });
    cost
}

/// The courier's quote for shipping every open order, in cents: one consignment per zone.
#[node]
pub fn courier_quote(roastery: &Mvu<Roastery, Msg>) -> AsyncMemo<u32> {
    let parcels = roastery.select(|r| {
        r.orders
            .iter()
            .filter(|o| !o.shipped)
            .map(|o| (o.zone.clone(), o.grams()))
            .collect::<Vec<_>>()
    });
    let courier = AsyncMemo::try_new(move |_| {
        let parcels = parcels.get();
        async move {
            // (zone, grams, parcels)
            let mut zones: Vec<(String, u32, u32)> = Vec::new();
            for (zone, grams) in parcels {
                match zones.iter_mut().find(|z| z.0 == zone) {
                    Some(z) => {
                        z.1 += grams;
                        z.2 += 1;
                    }
                    None => zones.push((zone, grams, 1)),
                }
            }
            let mut total = 0;
            for (zone, grams, count) in &zones {
                total += remote::courier_rate(zone, *grams, *count).await?;
            }
            Ok::<u32, String>(total)
        }
    });
    courier
}

/// The copies with a mistake (see `graph.rs`).
pub mod slipped {
    use ranvier::{AsyncMemo, Memo, Mvu, node};

    use super::super::model::{Msg, Reorder, Roastery, SACK_G};
    use super::super::remote;

    /// [`super::reorder_cost`], with a mistake.
    #[node]
    pub fn reorder_cost(reorder: &Memo<Vec<Reorder>>) -> AsyncMemo<u32> {
        let cost = AsyncMemo::try_new({
            let reorder = reorder.clone();
            move |_| {
                let wanted = reorder.get();
                async move {
                    let mut total = 0;
                    for item in &wanted {
                        // BUG(reorder_whole_sacks)
                        let sacks = item.short_g / SACK_G;
                        let per_kg = remote::market_price(&item.origin).await?;
                        total += sacks * (SACK_G / 1_000) * per_kg;
                    }
                    Ok::<u32, String>(total)
                }
            }
        });
        cost
    }

    /// [`super::courier_quote`], with a mistake.
    #[node]
    pub fn courier_quote(roastery: &Mvu<Roastery, Msg>) -> AsyncMemo<u32> {
        let parcels = roastery.select(|r| {
            r.orders
                .iter()
                .filter(|o| !o.shipped)
                .map(|o| (o.zone.clone(), o.grams()))
                .collect::<Vec<_>>()
        });
        let courier = AsyncMemo::try_new(move |_| {
            let parcels = parcels.get();
            async move {
                // (zone, grams, parcels)
                let mut zones: Vec<(String, u32, u32)> = Vec::new();
                for (zone, grams) in parcels {
                    match zones.iter_mut().find(|z| z.0 == zone) {
                        Some(z) => {
                            z.1 += grams;
                            z.2 += 1;
                        }
                        None => zones.push((zone, grams, 1)),
                    }
                }
                let mut total = 0;
                for (zone, grams, count) in &zones {
                    // BUG(courier_swapped_args)
                    total += remote::courier_rate(zone, *count, *grams).await?;
                }
                Ok::<u32, String>(total)
            }
        });
        courier
    }
}
