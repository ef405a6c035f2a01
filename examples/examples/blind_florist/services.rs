//! What the shop learns over the network, as async memos: what restocking the cold room to its par levels costs at
//! the wholesaler's prices today, and the courier's quotes for the orders the van does not take.

use super::delivery::{self, VAN_ZONES};
use super::model::{Flower, Order, pence};
use super::remote::{Courier, Wholesaler};
use ranvier::{AsyncMemo, Memo};
use std::rc::Rc;

/// `1 bunch`, `3 bunches`.
fn bunches_text(n: u32) -> String {
    if n == 1 {
        "1 bunch".to_owned()
    } else {
        format!("{n} bunches")
    }
}

/// Each flower below its par level: the bunches to buy at today's price, and the total.
pub fn restock_cost(
    levels: &Memo<Vec<(Flower, u32)>>,
    to_order: fn(u32, u32, u32) -> u32,
    feed: Rc<Wholesaler>,
) -> AsyncMemo<Vec<String>> {
    let levels = levels.clone();
    AsyncMemo::new(move |_| {
        let levels = levels.get();
        let feed = feed.clone();
        async move {
            let mut lines = Vec::new();
            let mut total = 0;
            for (flower, on_hand) in levels {
                let short = flower.par.saturating_sub(on_hand);
                let bunches = to_order(on_hand, flower.par, flower.bunch);
                if bunches == 0 {
                    continue;
                }
                match feed.price(&flower.name).await {
                    Ok(price) => {
                        let cost = bunches * price;
                        total += cost;
                        lines.push(format!(
                            "{}: {short} stems short, {} at {}, {}",
                            flower.name,
                            bunches_text(bunches),
                            pence(price),
                            pence(cost)
                        ));
                    }
                    Err(why) => lines.push(format!("{}: {short} stems short, {why}", flower.name)),
                }
            }
            lines.push(format!("restock: {}", pence(total)));
            lines
        }
    })
}

/// The courier's quote for each order not delivered outside the van's zones, and the total.
pub fn courier_quotes(orders: &Memo<Vec<Order>>, courier: Rc<Courier>) -> AsyncMemo<Vec<String>> {
    let orders = orders.clone();
    AsyncMemo::new(move |_| {
        let far: Vec<(u32, u32, u32)> = orders.with(|orders| {
            orders
                .iter()
                .filter(|o| !o.delivered && o.zone > VAN_ZONES)
                .map(|o| (o.no, o.zone, delivery::boxes(o)))
                .collect()
        });
        let courier = courier.clone();
        async move {
            let mut lines = Vec::new();
            let mut total = 0;
            for (no, zone, boxes) in far {
                match courier.quote(zone, boxes).await {
                    Ok(quote) => {
                        total += quote;
                        lines.push(format!(
                            "order {no}, zone {zone}, {boxes} boxes: {}",
                            pence(quote)
                        ));
                    }
                    Err(why) => lines.push(format!("order {no}: {why}")),
                }
            }
            lines.push(format!("courier: {}", pence(total)));
            lines
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use super::{
        Courier, Flower, Memo, Order, VAN_ZONES, Wholesaler, bunches_text, delivery, pence,
    };
    use ranvier::AsyncMemo;
    use std::rc::Rc;

    /// Each flower below its par level: the bunches to buy at today's price, and the total.
    pub fn restock_cost(
        levels: &Memo<Vec<(Flower, u32)>>,
        to_order: fn(u32, u32, u32) -> u32,
        feed: Rc<Wholesaler>,
    ) -> AsyncMemo<Vec<String>> {
        let levels = levels.clone();
        AsyncMemo::new(move |_| {
            let levels = levels.get();
            let feed = feed.clone();
            async move {
                let mut lines = Vec::new();
                let mut total = 0;
                for (flower, on_hand) in levels {
                    let short = flower.par.saturating_sub(on_hand);
                    let bunches = to_order(on_hand, flower.par, flower.bunch);
                    if bunches == 0 {
                        continue;
                    }
                    match feed.price(&flower.name).await {
                        Ok(price) => {
                            // BUG(restock_cost)
                            let cost = short * price;
                            total += cost;
                            lines.push(format!(
                                "{}: {short} stems short, {} at {}, {}",
                                flower.name,
                                bunches_text(bunches),
                                pence(price),
                                pence(cost)
                            ));
                        }
                        Err(why) => {
                            lines.push(format!("{}: {short} stems short, {why}", flower.name))
                        }
                    }
                }
                lines.push(format!("restock: {}", pence(total)));
                lines
            }
        })
    }

    /// The courier's quote for each order not delivered outside the van's zones, and the total.
    pub fn courier_quotes(
        orders: &Memo<Vec<Order>>,
        courier: Rc<Courier>,
    ) -> AsyncMemo<Vec<String>> {
        let orders = orders.clone();
        AsyncMemo::new(move |_| {
            let far: Vec<(u32, u32, u32)> = orders.with(|orders| {
                orders
                    .iter()
                    .filter(|o| !o.delivered && o.zone > VAN_ZONES)
                    .map(|o| (o.no, o.zone, delivery::boxes(o)))
                    .collect()
            });
            let courier = courier.clone();
            async move {
                let mut lines = Vec::new();
                let mut total = 0;
                for (no, zone, boxes) in far {
                    // BUG(courier_quote)
                    match courier.quote(boxes, zone).await {
                        Ok(quote) => {
                            total += quote;
                            lines.push(format!(
                                "order {no}, zone {zone}, {boxes} boxes: {}",
                                pence(quote)
                            ));
                        }
                        Err(why) => lines.push(format!("order {no}: {why}")),
                    }
                }
                lines.push(format!("courier: {}", pence(total)));
                lines
            }
        })
    }
}
