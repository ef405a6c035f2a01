//! The async memos over the network services: what the reorders cost at the distributor's, and the courier's quotes
//! for the parcels to post.

use super::model::{Order, Status, pounds};
use super::pricing;
use super::remote::{Courier, Distributor};
use super::stock::Reorder;
use ranvier::{AsyncMemo, Memo, node};
use std::rc::Rc;

/// The reorders priced at the distributor's: what it can send of each, at the trade price.
#[node]
pub fn restock(reorders: &Memo<Vec<Reorder>>, feed: Rc<Distributor>) -> AsyncMemo<Vec<String>> {
    let reorders = reorders.clone();
    let restock = AsyncMemo::new(move |_| {
        let (reorders, feed) = (reorders.get(), feed.clone());
        async move {
            let mut lines = Vec::new();
            let mut total = 0;
            for r in &reorders {
                let available = feed.available(&r.code).await.unwrap_or(0);
                let copies = r.wanted.min(available);
                if copies == 0 {
                    lines.push(format!("{}: {} wanted, none available", r.title, r.wanted));
                    continue;
                }
                let cost = copies * r.trade;
                total += cost;
                lines.push(format!(
                    "{}: {} wanted, {copies} at {}, {}",
                    r.title,
                    r.wanted,
                    pounds(i64::from(r.trade)),
                    pounds(i64::from(cost))
                ));
            }
            lines.push(format!("restock: {}", pounds(i64::from(total))));
            lines
        }
    });
    restock
}

/// The courier's quote for each order still to post, beside the second-class postage the shop charges.
#[node]
pub fn courier_quotes(orders: &Memo<Vec<Order>>, courier: Rc<Courier>) -> AsyncMemo<Vec<String>> {
    let orders = orders.clone();
    let courier_quotes = AsyncMemo::new(move |_| {
        let (orders, courier) = (orders.get(), courier.clone());
        async move {
            let mut lines = Vec::new();
            for order in orders
                .iter()
                .filter(|o| o.mail && o.status != Status::Collected)
            {
                let parcel = order.grams + pricing::PACKING_GRAMS;
                let quote = courier.quote(parcel).await;
                let charged = pricing::postage(parcel);
                lines.push(format!(
                    "order {}, {parcel} g: courier {}, second class {}",
                    order.no,
                    pounds(i64::from(quote)),
                    pounds(i64::from(charged))
                ));
            }
            lines
        }
    });
    courier_quotes
}

pub mod slipped {
    use super::*;

    #[node]
    pub fn restock(reorders: &Memo<Vec<Reorder>>, feed: Rc<Distributor>) -> AsyncMemo<Vec<String>> {
        let reorders = reorders.clone();
        let restock = AsyncMemo::new(move |_| {
            let (reorders, feed) = (reorders.get(), feed.clone());
            async move {
                let mut lines = Vec::new();
                let mut total = 0;
                for r in &reorders {
                    // BUG(restock_feed)
                    let available = feed.available(&r.code).await.unwrap_or(r.wanted);
                    let copies = r.wanted.min(available);
                    if copies == 0 {
                        lines.push(format!("{}: {} wanted, none available", r.title, r.wanted));
                        continue;
                    }
                    let cost = copies * r.trade;
                    total += cost;
                    lines.push(format!(
                        "{}: {} wanted, {copies} at {}, {}",
                        r.title,
                        r.wanted,
                        pounds(i64::from(r.trade)),
                        pounds(i64::from(cost))
                    ));
                }
                lines.push(format!("restock: {}", pounds(i64::from(total))));
                lines
            }
        });
        restock
    }

    #[node]
    pub fn courier_quotes(
        orders: &Memo<Vec<Order>>,
        courier: Rc<Courier>,
    ) -> AsyncMemo<Vec<String>> {
        let orders = orders.clone();
        let courier_quotes = AsyncMemo::new(move |_| {
            let (orders, courier) = (orders.get(), courier.clone());
            async move {
                let mut lines = Vec::new();
                for order in orders
                    .iter()
                    .filter(|o| o.mail && o.status != Status::Collected)
                {
                    let parcel = order.grams + pricing::PACKING_GRAMS;
                    // BUG(courier_quote)
                    let quote = courier.quote(order.grams).await;
                    let charged = pricing::postage(parcel);
                    lines.push(format!(
                        "order {}, {parcel} g: courier {}, second class {}",
                        order.no,
                        pounds(i64::from(quote)),
                        pounds(i64::from(charged))
                    ));
                }
                lines
            }
        });
        courier_quotes
    }
}
