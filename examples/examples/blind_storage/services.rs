//! What the warehouse waits for: the block insurance premium on all the cover it carries, and what the lots going to
//! auction should fetch.

use super::model::{Msg, Policy, Size, Stage, Warehouse};
use super::remote;
use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Memo, Mvu, node};

/// A unit whose contents go to auction.
#[derive(Debug, Clone, PartialEq)]
pub struct Lot {
    pub unit: String,
    pub size: Size,
    pub owed_cents: u64,
}

/// What the auction should bring in.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct AuctionEstimate {
    pub lots: u32,
    pub gross_cents: u64,
    pub commission_cents: u64,
    /// What goes against the arrears.
    pub recovered_cents: u64,
    /// What goes back to the tenants.
    pub surplus_cents: u64,
}

/// The weekly premium of the block policy, from the insurer's rate on the cover the warehouse carries.
#[node]
pub fn block_premium(insured_cover: &Memo<u64>) -> AsyncMemo<u64> {
    let insured_cover = insured_cover.clone();
    let block_premium = AsyncMemo::new(move |_| {
        let cover = insured_cover.get();
        async move {
            let rate = remote::insurer_rate(cover).await;
            let thousands = cover.div_ceil(100_000);
            thousands * rate
        }
    });
    block_premium
}

/// The units at the auction stage, with what each owes.
#[node]
pub fn lots(warehouse: &Mvu<Warehouse, Msg>, stage: fn(u32, &Policy) -> Stage) -> Memo<Vec<Lot>> {
    let lots = warehouse.select(move |w| {
        w.units
            .iter()
            .filter_map(|unit| {
                let rental = unit.rental.as_ref()?;
                let days = rental.days_overdue(w.day);
                (stage(days, &w.policy) == Stage::Auction).then(|| Lot {
                    unit: unit.id.clone(),
                    size: unit.size,
                    owed_cents: rental.balance_cents,
                })
            })
            .collect()
    });
    lots
}

/// What the lots should fetch, valued by the auction house, less its commission.
#[node]
pub fn auction(lots: &Memo<Vec<Lot>>, policy: &Memo<Policy>) -> AsyncMemo<AuctionEstimate> {
    let (lots, policy) = (lots.clone(), policy.clone());
    let auction = AsyncMemo::new(move |_| {
        let lots = lots.get();
        let commission_percent = policy.with(|policy| policy.auction_commission_percent);
        async move {
            let mut estimate = AuctionEstimate::default();
            for lot in lots {
                let gross = remote::appraise(lot.size).await;
                let commission = gross * commission_percent / 100;
                let net = gross - commission;
                let recovered = net.min(lot.owed_cents);
                estimate.lots += 1;
                estimate.gross_cents += gross;
                estimate.commission_cents += commission;
                estimate.recovered_cents += recovered;
                estimate.surplus_cents += net.saturating_sub(recovered);
            }
            estimate
        }
    });
    auction
}

pub mod slipped {
    use super::{AsyncMemo, AuctionEstimate, Lot, Memo, Policy, node, remote};

    #[node]
    pub fn block_premium(insured_cover: &Memo<u64>) -> AsyncMemo<u64> {
        let insured_cover = insured_cover.clone();
        let block_premium = AsyncMemo::new(move |_| {
            let cover = insured_cover.get();
            async move {
                let rate = remote::insurer_rate(cover).await;
                // BUG(insurer_cents)
                let thousands = cover.div_ceil(1_000);
                thousands * rate
            }
        });
        block_premium
    }

    #[node]
    pub fn auction(lots: &Memo<Vec<Lot>>, policy: &Memo<Policy>) -> AsyncMemo<AuctionEstimate> {
        let (lots, policy) = (lots.clone(), policy.clone());
        let auction = AsyncMemo::new(move |_| {
            let lots = lots.get();
            let commission_percent = policy.with(|policy| policy.auction_commission_percent);
            async move {
                let mut estimate = AuctionEstimate::default();
                for lot in lots {
                    let gross = remote::appraise(lot.size).await;
                    let commission = gross * commission_percent / 100;
                    let net = gross - commission;
                    // BUG(auction_gross)
                    let recovered = gross.min(lot.owed_cents);
                    estimate.lots += 1;
                    estimate.gross_cents += gross;
                    estimate.commission_cents += commission;
                    estimate.recovered_cents += recovered;
                    estimate.surplus_cents += net.saturating_sub(recovered);
                }
                estimate
            }
        });
        auction
    }
}
