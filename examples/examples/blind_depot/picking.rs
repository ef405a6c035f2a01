//! Picking: which orders can go into a wave, the order a picker walks the bins in, and a wave's pick list.

use super::graph::{Slip, slip};
use super::model::{Depot, Order, OrderStatus};
use std::collections::BTreeMap;

/// Whether `order` can go into the next picking wave: paid, with every unit it wants held on the shelf.
pub fn ready(order: &Order) -> bool {
    let complete = !order.lines.is_empty() && order.lines.iter().all(|line| line.short() == 0);
    if slip() == Slip::WaveAgain {
        return match order.status {
            // BUG(wave_again)
            OrderStatus::Open | OrderStatus::Released { .. } => order.paid && complete,
            OrderStatus::Shipped { .. } | OrderStatus::Expired => false,
        };
    }
    match order.status {
        OrderStatus::Open => order.paid && complete,
        OrderStatus::Released { .. } | OrderStatus::Shipped { .. } | OrderStatus::Expired => false,
    }
}

/// Where a bin comes on the picker's walk: aisle by aisle, up the racks of aisles A, C, E… and back down those of
/// B, D…, then by level. A bin that does not read `A-01-1` goes last.
pub fn walk_position(bin: &str) -> (u32, i64, u32) {
    let mut parts = bin.split('-');
    let aisle = parts
        .next()
        .and_then(|a| a.bytes().next())
        .filter(u8::is_ascii_uppercase)
        .map(|a| u32::from(a - b'A'));
    let rack = parts.next().and_then(|r| r.parse::<i64>().ok());
    let level = parts.next().and_then(|l| l.parse::<u32>().ok());
    match (aisle, rack, level) {
        (Some(aisle), Some(rack), Some(level)) if aisle % 2 == 0 => (aisle, rack, level),
        (Some(aisle), Some(rack), Some(level)) => (aisle, -rack, level),
        _ => (u32::MAX, 0, 0),
    }
}

/// A stop on the pick list: a bin, the part in it and how many to take, for which orders.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    pub bin: String,
    pub sku: String,
    pub qty: u32,
    pub orders: Vec<u32>,
}

impl Stop {
    /// `A-02-1 BRK-110 ×2 for #1, #3`.
    pub fn line(&self) -> String {
        let orders: Vec<String> = self.orders.iter().map(|id| format!("#{id}")).collect();
        format!(
            "{} {} ×{} for {}",
            self.bin,
            self.sku,
            self.qty,
            orders.join(", ")
        )
    }
}

/// What is left to pick in wave `wave`, one stop per bin, in walking order.
pub fn stops(depot: &Depot, wave: u32) -> Vec<Stop> {
    let Some(wave) = depot.waves.iter().find(|w| w.id == wave) else {
        return Vec::new();
    };
    let mut by_bin: BTreeMap<(u32, i64, u32), Stop> = BTreeMap::new();
    for order in wave.orders.iter().filter_map(|id| depot.order(*id)) {
        for line in order.lines.iter().filter(|line| line.reserved > 0) {
            let Some(item) = depot.item(&line.sku) else {
                continue;
            };
            let stop = by_bin
                .entry(walk_position(&item.bin))
                .or_insert_with(|| Stop {
                    bin: item.bin.clone(),
                    sku: item.sku.clone(),
                    qty: 0,
                    orders: Vec::new(),
                });
            stop.qty += line.reserved;
            stop.orders.push(order.id);
        }
    }
    by_bin.into_values().collect()
}
