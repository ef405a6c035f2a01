//! Reservations: what an order line gets from the shelf, back-orders filled when stock comes in, and reservations let
//! go when an order lapses. Called from `update`.

use super::graph::{Slip, slip};
use super::model::{Depot, Order, StockItem};

/// What a request for some units got from the shelf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    /// Units held for the line now.
    pub reserved: u32,
    /// Units still wanted (back-ordered).
    pub short: u32,
}

/// Reserves up to `want` units of `item`'s free stock.
pub fn grant(item: &StockItem, want: u32) -> Grant {
    let reserved = want.min(item.free());
    Grant {
        reserved,
        short: want - reserved,
    }
}

/// Whether `item` is down to its reorder point (free units, not units on the shelf: what is promised is gone).
pub fn needs_reorder(item: &StockItem) -> bool {
    item.free() <= item.reorder_point
}

/// Orders with a line of `sku` still short, that may take stock: oldest first.
fn waiting_for<'a>(orders: &'a mut [Order], sku: &str) -> Vec<&'a mut Order> {
    let mut waiting: Vec<&mut Order> = if slip() == Slip::ExpiredBackorder {
        orders
            .iter_mut()
            // BUG(expired_backorder)
            .filter(|order| order.lines.iter().any(|l| l.sku == sku && l.short() > 0))
            .collect()
    } else {
        orders
            .iter_mut()
            .filter(|order| order.is_live())
            .filter(|order| order.lines.iter().any(|l| l.sku == sku && l.short() > 0))
            .collect()
    };
    waiting.sort_by_key(|order| (order.placed_at, order.id));
    waiting
}

/// Gives the free units of `sku` to the orders waiting for it, oldest first. Returns the units given.
pub fn fill_backorders(depot: &mut Depot, sku: &str) -> u32 {
    let Some(mut free) = depot.item(sku).map(StockItem::free) else {
        return 0;
    };
    let mut given = 0;
    for order in waiting_for(&mut depot.orders, sku) {
        if free == 0 {
            break;
        }
        if let Some(line) = order.line_mut(sku) {
            let take = line.short().min(free);
            line.reserved += take;
            free -= take;
            given += take;
        }
    }
    if let Some(item) = depot.item_mut(sku) {
        item.reserved += given;
    }
    given
}

/// Lets go of everything order `id` holds on the shelf. Returns the skus that got units back.
pub fn release(depot: &mut Depot, id: u32) -> Vec<String> {
    let Some(order) = depot.order_mut(id) else {
        return Vec::new();
    };
    let held: Vec<(String, u32)> = order
        .lines
        .iter_mut()
        .map(|line| {
            let units = std::mem::take(&mut line.reserved);
            if slip() == Slip::ReleaseOrdered {
                // BUG(release_ordered)
                (line.sku.clone(), line.qty)
            } else {
                (line.sku.clone(), units)
            }
        })
        .filter(|(_, units)| *units > 0)
        .collect();
    let now = depot.now;
    let mut back = Vec::with_capacity(held.len());
    for (sku, units) in held {
        if let Some(item) = depot.item_mut(&sku) {
            item.reserved = item.reserved.saturating_sub(units);
            item.touched_at = now;
            back.push(sku);
        }
    }
    back
}
