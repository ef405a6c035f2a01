//! What comes from the services: the courier's rounds for the bags ready to go back, and the chain's stamps.

use ranvier::{AsyncMemo, Memo};

use super::machines::clock_time;
use super::model::Order;
use super::remote;

/// When the courier brings each ready bag back (bags without a postcode are collected in the shop).
pub fn deliveries(ready: &Memo<Vec<Order>>, minutes: &Memo<u32>) -> AsyncMemo<Vec<String>> {
    let (ready, minutes) = (ready.clone(), minutes.clone());
    AsyncMemo::new(move |_| {
        let ready = ready.get();
        let now = minutes.get();
        async move {
            let mut lines = Vec::new();
            for order in ready.iter().filter(|order| !order.postcode.is_empty()) {
                let after = order.ready_at.unwrap_or(now);
                let line = match remote::courier_round(&order.postcode, after).await {
                    Some(at) => format!(
                        "{}: courier to {} at {}",
                        order.label(),
                        order.postcode,
                        clock_time(at)
                    ),
                    None => format!("{}: no courier to {}", order.label(), order.postcode),
                };
                lines.push(line);
            }
            lines
        }
    })
}

/// Each customer's stamps at the chain's other shops.
pub fn loyalty(customers: &Memo<Vec<String>>) -> AsyncMemo<Vec<String>> {
    let customers = customers.clone();
    AsyncMemo::new(move |_| {
        let customers = customers.get();
        async move {
            let mut lines = Vec::with_capacity(customers.len());
            for customer in customers {
                let line = match remote::chain_stamps(&customer).await {
                    Ok(stamps) => format!("{customer}: {stamps} stamps at the chain's other shops"),
                    Err(why) => format!("{customer}: {why}"),
                };
                lines.push(line);
            }
            lines
        }
    })
}

pub mod slipped {
    use ranvier::{AsyncMemo, Memo};

    use super::super::machines::clock_time;
    use super::super::model::Order;
    use super::super::remote;

    pub fn deliveries(ready: &Memo<Vec<Order>>, minutes: &Memo<u32>) -> AsyncMemo<Vec<String>> {
        let (ready, minutes) = (ready.clone(), minutes.clone());
        AsyncMemo::new(move |_| {
            let ready = ready.get();
            let now = minutes.get();
            async move {
                let mut lines = Vec::new();
                for order in ready.iter().filter(|order| !order.postcode.is_empty()) {
                    // BUG(courier_after_now)
                    let after = now;
                    let line = match remote::courier_round(&order.postcode, after).await {
                        Some(at) => format!(
                            "{}: courier to {} at {}",
                            order.label(),
                            order.postcode,
                            clock_time(at)
                        ),
                        None => format!("{}: no courier to {}", order.label(), order.postcode),
                    };
                    lines.push(line);
                }
                lines
            }
        })
    }

    pub fn loyalty(customers: &Memo<Vec<String>>) -> AsyncMemo<Vec<String>> {
        let customers = customers.clone();
        AsyncMemo::new(move |_| {
            let customers = customers.get();
            async move {
                let mut lines = Vec::with_capacity(customers.len());
                for customer in customers {
                    // BUG(loyalty_not_member)
                    let stamps = remote::chain_stamps(&customer).await.unwrap_or(0);
                    lines.push(format!(
                        "{customer}: {stamps} stamps at the chain's other shops"
                    ));
                }
                lines
            }
        })
    }
}
