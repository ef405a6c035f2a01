//! Deliveries: the charge by zone, the boxes an order takes, and the day's van load (the van does zones 1 and 2;
//! the courier takes zone 3).

use super::model::{Msg, Order, Shop, pence};
use ranvier::{Memo, Mvu};

/// The goods, in pence, from which delivery is free in the van's zones.
pub const FREE_OVER: u32 = 6_000;
/// The boxes the van holds.
pub const VAN_BOXES: u32 = 10;
/// The van goes to zones 1 to this one; the courier takes the rest.
pub const VAN_ZONES: u32 = 2;

/// The delivery charge to `zone` for `goods` pence of flowers: free from £60.00 in the van's zones.
#[ranvier::trace_fn]
pub fn zone_fee(zone: u32, goods: u32) -> u32 {
    if goods >= FREE_OVER && zone <= VAN_ZONES {
        return 0;
    }
    match zone {
        1 => 500,
        2 => 800,
        _ => 1_200,
    }
}

/// The van's boxes an order takes.
pub fn boxes(order: &Order) -> u32 {
    order.kind.boxes() * order.qty
}

/// Today's van: the orders due today in the van's zones, nearest zone first, loaded until the van is
/// full; the rest wait for a second round.
pub fn van_load(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    let shop = shop.clone();
    Memo::new(move |_| {
        let shop = shop.model();
        let mut due: Vec<&Order> = shop
            .orders
            .iter()
            .filter(|o| o.day == shop.today && !o.delivered && o.zone <= VAN_ZONES)
            .collect();
        due.sort_by_key(|o| (o.zone, o.no));
        let mut lines = Vec::new();
        let mut load = 0;
        let mut value = 0;
        for order in due {
            let boxes = boxes(order);
            if load + boxes > VAN_BOXES {
                lines.push(format!("order {} waits for the second round", order.no));
                continue;
            }
            load += boxes;
            value += order.total();
            let ready = if order.made { "" } else { ", not made yet" };
            lines.push(format!(
                "zone {}: order {} for {}, {boxes} boxes{ready}",
                order.zone, order.no, order.customer
            ));
        }
        lines.push(format!(
            "van: {load} of {VAN_BOXES} boxes, {} of flowers",
            pence(value)
        ));
        lines
    })
}

/// Copies of the deliveries' code with one mistake each, for the blind test.
pub mod slipped {
    use super::{FREE_OVER, Msg, Order, Shop, VAN_BOXES, VAN_ZONES, boxes, pence};
    use ranvier::{Memo, Mvu};

    /// The delivery charge to `zone` for `goods` pence of flowers: free from £60.00 in the van's zones.
    #[ranvier::trace_fn]
    pub fn zone_fee(zone: u32, goods: u32) -> u32 {
        // BUG(free_delivery)
        if goods >= FREE_OVER {
            return 0;
        }
        match zone {
            1 => 500,
            2 => 800,
            _ => 1_200,
        }
    }

    /// Today's van: the orders due today in the van's zones, nearest zone first, loaded until the van is
    /// full; the rest wait for a second round.
    pub fn van_load(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
        let shop = shop.clone();
        Memo::new(move |_| {
            let shop = shop.model();
            let mut due: Vec<&Order> = shop
                .orders
                .iter()
                .filter(|o| o.day == shop.today && !o.delivered && o.zone <= VAN_ZONES)
                .collect();
            due.sort_by_key(|o| (o.zone, o.no));
            let mut lines = Vec::new();
            let mut load = 0;
            let mut value = 0;
            for order in due {
                let boxes = boxes(order);
                // BUG(van_load)
                if load > VAN_BOXES {
                    lines.push(format!("order {} waits for the second round", order.no));
                    continue;
                }
                load += boxes;
                value += order.total();
                let ready = if order.made { "" } else { ", not made yet" };
                lines.push(format!(
                    "zone {}: order {} for {}, {boxes} boxes{ready}",
                    order.zone, order.no, order.customer
                ));
            }
            lines.push(format!(
                "van: {load} of {VAN_BOXES} boxes, {} of flowers",
                pence(value)
            ));
            lines
        })
    }
}
