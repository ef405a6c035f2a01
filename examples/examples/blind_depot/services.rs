//! What the depot learns from services over the network, as async memos: the carrier's price for each shipment, and
//! when each reorder should arrive.

use super::graph::{Slip, slip};
use super::model::{Depot, Msg, Reorder, day_name, policy};
use super::remote::{Carrier, Suppliers};
use ranvier::{AsyncMemo, Mvu};

/// `12.30` for 1230 cents.
fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Each shipment with the carrier's price: `S1 for #1 to N1: 1 parcel, 3.0 kg, 6.90`.
pub fn quotes(depot: &Mvu<Depot, Msg>) -> AsyncMemo<Vec<String>> {
    let shipments = depot.select(|depot| depot.shipments.clone());
    AsyncMemo::new(move |_| {
        let shipments = shipments.get();
        async move {
            let carrier = Carrier::default();
            let mut lines = Vec::with_capacity(shipments.len());
            for shipment in &shipments {
                let (zone, kilos) = (shipment.zone.as_str(), shipment.grams.div_ceil(1000));
                let price = if slip() == Slip::QuoteGrams {
                    // BUG(quote_grams)
                    carrier.quote(zone, shipment.grams, shipment.parcels).await
                } else {
                    carrier.quote(zone, kilos, shipment.parcels).await
                };
                let parcels = match shipment.parcels {
                    1 => "1 parcel".to_owned(),
                    n => format!("{n} parcels"),
                };
                let head = format!(
                    "S{} for #{} to {}: {parcels}, {:.1} kg",
                    shipment.id,
                    shipment.order,
                    shipment.zone,
                    f64::from(shipment.grams) / 1000.0
                );
                lines.push(match price {
                    Ok(cents) => format!("{head}, {}", money(cents)),
                    Err(why) => format!("{head}, no price: {why}"),
                });
            }
            lines
        }
    })
}

/// When each open reorder should arrive: `FLT-220 ×40 from Ferro: due Wed, in 2 days`.
pub fn arrivals(depot: &Mvu<Depot, Msg>) -> AsyncMemo<Vec<String>> {
    let open = depot.select(|depot| {
        depot
            .reorders
            .iter()
            .filter(|r| !r.received)
            .cloned()
            .collect::<Vec<Reorder>>()
    });
    let today = depot.select(|depot| depot.now / policy::DAY);
    AsyncMemo::new(move |_| {
        let (open, today) = (open.get(), today.get());
        async move {
            let portal = Suppliers::portal();
            let mut lines = Vec::new();
            for reorder in open {
                let what = format!("{} ×{} from {}", reorder.sku, reorder.qty, reorder.supplier);
                let days = match portal.lead_days(&reorder.supplier).await {
                    Ok(days) => days,
                    Err(why) => {
                        lines.push(format!("{what}: no date yet ({why})"));
                        continue;
                    }
                };
                let due = if slip() == Slip::DueFromToday {
                    // BUG(due_from_today)
                    today + days
                } else {
                    reorder.raised_at / policy::DAY + days
                };
                let when = match due.checked_sub(today) {
                    None => "overdue".to_owned(),
                    Some(0) => "today".to_owned(),
                    Some(1) => "tomorrow".to_owned(),
                    Some(n) => format!("in {n} days"),
                };
                lines.push(format!("{what}: due {}, {when}", day_name(due)));
            }
            lines
        }
    })
}
