//! What comes back from the network, as async memos: the insurance claims for the day's care, and the
//! wholesaler's quote for the pharmacy's order.

use super::graph::money;
use super::pharmacy::OrderLine;
use super::remote;
use ranvier::{AsyncMemo, Memo};

/// Orders of at least this many packs are delivered free.
pub const FREE_DELIVERY_PACKS: u32 = 5;
/// Delivery for a smaller order, in cents.
pub const DELIVERY: u32 = 7_50;

/// What one patient's care cost today: the part an insurer may be asked to pay.
#[derive(Clone, Debug, PartialEq)]
pub struct Claimable {
    /// The patient.
    pub pet: String,
    /// Consultations, vaccines and medicines today, in cents.
    pub cents: u32,
}

/// The claim for each patient with care today: the insurer's share of the cost past the excess, or why there is
/// none.
pub fn claims(care: Memo<Vec<Claimable>>) -> AsyncMemo<Vec<String>> {
    AsyncMemo::new(move |_| {
        let care = care.get();
        async move {
            let mut lines = Vec::new();
            for visit in &care {
                let policy = remote::policy(&visit.pet).await;
                let policy = match policy {
                    Ok(policy) => policy,
                    Err(why) => {
                        lines.push(format!("{}: no claim, {why}", visit.pet));
                        continue;
                    }
                };
                let over = visit.cents.saturating_sub(policy.excess);
                let claim = over * policy.covers_percent / 100;
                lines.push(format!(
                    "{}: claim {} of {} from {}",
                    visit.pet,
                    money(claim),
                    money(visit.cents),
                    policy.insurer
                ));
            }
            lines
        }
    })
}

/// The wholesaler's quote for `lines`: each line at its pack price (or why it cannot be had there), the delivery,
/// and the total.
pub fn quote(lines: Memo<Vec<OrderLine>>) -> AsyncMemo<Vec<String>> {
    AsyncMemo::new(move |_| {
        let lines = lines.get();
        let packs: u32 = lines.iter().map(|line| line.packs).sum();
        let delivery = if packs >= FREE_DELIVERY_PACKS {
            0
        } else {
            DELIVERY
        };
        async move {
            let mut quoted = Vec::new();
            let mut total = delivery;
            for line in &lines {
                match remote::pack_price(&line.drug).await {
                    Ok(price) => {
                        let cost = price * line.packs;
                        total += cost;
                        quoted.push(format!(
                            "{}: {} × {} = {}",
                            line.drug,
                            line.packs,
                            money(price),
                            money(cost)
                        ));
                    }
                    Err(why) => quoted.push(format!("{}: {why}", line.drug)),
                }
            }
            quoted.push(format!(
                "delivery {}, total {}",
                money(delivery),
                money(total)
            ));
            quoted
        }
    })
}

/// The services as they were written with a mistake, selected by [`Slip`](super::graph::Slip).
pub mod slipped {
    use super::*;

    /// [`super::claims`], with a mistake.
    pub fn claims(care: Memo<Vec<Claimable>>) -> AsyncMemo<Vec<String>> {
        AsyncMemo::new(move |_| {
            let care = care.get();
            async move {
                let mut lines = Vec::new();
                for visit in &care {
                    // BUG(claim_default)
                    let policy = remote::policy(&visit.pet).await.unwrap_or_default();
                    let over = visit.cents.saturating_sub(policy.excess);
                    let claim = over * policy.covers_percent / 100;
                    lines.push(format!(
                        "{}: claim {} of {} from {}",
                        visit.pet,
                        money(claim),
                        money(visit.cents),
                        policy.insurer
                    ));
                }
                lines
            }
        })
    }

    /// [`super::quote`], with a mistake.
    pub fn quote(lines: Memo<Vec<OrderLine>>) -> AsyncMemo<Vec<String>> {
        AsyncMemo::new(move |_| {
            let lines = lines.get();
            let packs: u32 = lines.iter().map(|line| line.packs).sum();
            let delivery = if packs >= FREE_DELIVERY_PACKS {
                0
            } else {
                DELIVERY
            };
            async move {
                let mut quoted = Vec::new();
                let mut total = delivery;
                for line in &lines {
                    match remote::pack_price(&line.drug).await {
                        Ok(price) => {
                            // BUG(quote_packs)
                            let cost = price * packs;
                            total += cost;
                            quoted.push(format!(
                                "{}: {} × {} = {}",
                                line.drug,
                                line.packs,
                                money(price),
                                money(cost)
                            ));
                        }
                        Err(why) => quoted.push(format!("{}: {why}", line.drug)),
                    }
                }
                quoted.push(format!(
                    "delivery {}, total {}",
                    money(delivery),
                    money(total)
                ));
                quoted
            }
        })
    }
}
