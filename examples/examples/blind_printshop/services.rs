//! The values that come from other people's computers, as async memos: what the courier charges for each parcel
//! going out today, and when the paper the shop runs short of can arrive.

use super::graph::{Parcel, StockLine};
use super::remote;
use ranvier::{AsyncMemo, Memo};

/// `4.2 kg`.
pub fn kilos(grams: u32) -> String {
    format!("{}.{} kg", grams / 1_000, grams % 1_000 / 100)
}

/// `£8.95`.
pub fn money(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// The courier's van: the load, then each parcel with its price (`J1 Ada, 2.3 kg: £8.95`), or why it cannot go.
pub fn courier(parcels: &Memo<Vec<Parcel>>) -> AsyncMemo<Vec<String>> {
    let parcels = parcels.clone();
    AsyncMemo::new(move |_| {
        let parcels: Vec<Parcel> = parcels.get().into_iter().filter(|p| p.courier).collect();
        let load: u32 = parcels.iter().map(|p| p.grams).sum();
        async move {
            if parcels.is_empty() {
                return Vec::new();
            }
            let mut lines = vec![format!("van: {} parcels, {}", parcels.len(), kilos(load))];
            for parcel in &parcels {
                let price = remote::courier_price(parcel.grams).await;
                lines.push(match price {
                    Ok(pence) => format!(
                        "{}, {}: {}",
                        parcel.docket,
                        kilos(parcel.grams),
                        money(pence)
                    ),
                    Err(why) => format!("{}, {}: {why}", parcel.docket, kilos(parcel.grams)),
                });
            }
            lines
        }
    })
}

/// The paper to reorder: each shelf below its level, with when the mill can deliver, or who to ask instead.
pub fn reorders(stock: &Memo<Vec<StockLine>>) -> AsyncMemo<Vec<String>> {
    let stock = stock.clone();
    AsyncMemo::new(move |_| {
        let low: Vec<StockLine> = stock.get().into_iter().filter(|s| s.reorder).collect();
        async move {
            let mut lines = Vec::with_capacity(low.len());
            for shelf in low {
                let name = format!("{} {}", shelf.paper.name(), shelf.sheet.name());
                let lead = remote::mill_lead_days(shelf.paper, shelf.sheet).await;
                let line = match lead {
                    Ok(days) => format!(
                        "{name}: {} free, the mill delivers in {days} days",
                        shelf.free
                    ),
                    Err(why) => format!("{name}: {} free, {why}", shelf.free),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// Copies of this file's memos with one mistake each, selected by `graph::Slip`.
pub mod slipped {
    use super::*;

    /// The courier's van: the load, then each parcel with its price (`J1 Ada, 2.3 kg: £8.95`), or why it cannot go.
    pub fn courier(parcels: &Memo<Vec<Parcel>>) -> AsyncMemo<Vec<String>> {
        let parcels = parcels.clone();
        AsyncMemo::new(move |_| {
            let parcels: Vec<Parcel> = parcels.get().into_iter().filter(|p| p.courier).collect();
            let load: u32 = parcels.iter().map(|p| p.grams).sum();
            async move {
                if parcels.is_empty() {
                    return Vec::new();
                }
                let mut lines = vec![format!("van: {} parcels, {}", parcels.len(), kilos(load))];
                for parcel in &parcels {
                    // BUG(courier_weight)
                    let price = remote::courier_price(load).await;
                    lines.push(match price {
                        Ok(pence) => format!(
                            "{}, {}: {}",
                            parcel.docket,
                            kilos(parcel.grams),
                            money(pence)
                        ),
                        Err(why) => format!("{}, {}: {why}", parcel.docket, kilos(parcel.grams)),
                    });
                }
                lines
            }
        })
    }

    /// The paper to reorder: each shelf below its level, with when the mill can deliver, or who to ask instead.
    pub fn reorders(stock: &Memo<Vec<StockLine>>) -> AsyncMemo<Vec<String>> {
        let stock = stock.clone();
        AsyncMemo::new(move |_| {
            let low: Vec<StockLine> = stock.get().into_iter().filter(|s| s.reorder).collect();
            async move {
                let mut lines = Vec::with_capacity(low.len());
                for shelf in low {
                    let name = format!("{} {}", shelf.paper.name(), shelf.sheet.name());
                    let lead = remote::mill_lead_days(shelf.paper, shelf.sheet).await;
                    // BUG(mill_unlisted)
                    let days = lead.unwrap_or(0);
                    let line = format!(
                        "{name}: {} free, the mill delivers in {days} days",
                        shelf.free
                    );
                    lines.push(line);
                }
                lines
            }
        })
    }
}
