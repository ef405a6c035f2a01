//! Gift vouchers and loyalty cards: a point per pound spent, a £10 reward voucher at 100 points, and the lists the
//! front desk reads.
#![allow(clippy::let_and_return)] // `#[node]` names each node after the `let` that binds it

use super::model::{Msg, Salon, Voucher, pounds};
use ranvier::{Memo, Mvu, node};

/// The points a reward takes.
pub const REWARD_AT: u32 = 100;
/// What a reward voucher is worth, in pence.
pub const REWARD_VALUE: u32 = 1000;
/// How long a gift voucher is valid: its last day is this many days after the day it was sold.
pub const VALID_DAYS: u32 = 364;

/// The loyalty points `pence` spent earns: one per whole pound.
#[ranvier::trace_fn]
pub fn points_for(pence: u32) -> u32 {
    pence / 100
}

/// How much of `due` the voucher pays: what is left on it, at most `due`.
#[ranvier::trace_fn]
pub fn redeem(voucher: &Voucher, due: u32) -> u32 {
    voucher.balance.min(due)
}

/// The reward voucher's code for `client`'s `n`th reward.
#[ranvier::trace_fn]
pub fn reward_code(client: &str, n: usize) -> String {
    format!("REWARD-{}-{}", client.to_uppercase(), n)
}

/// The vouchers, each with its balance and whether it can still be used today (`usable` decides).
#[node]
pub fn voucher_list(
    salon: &Mvu<Salon, Msg>,
    usable: fn(&Voucher, u32) -> bool,
) -> Memo<Vec<String>> {
    let vouchers = salon.select(move |salon| {
        salon
            .vouchers
            .iter()
            .map(|v| {
                let state = if usable(v, salon.today) {
                    format!("valid to day {}", v.expires)
                } else if v.balance == 0 {
                    "used up".to_owned()
                } else {
                    format!("expired on day {}", v.expires)
                };
                format!(
                    "{}: {} of {} left, {state}",
                    v.code,
                    pounds(v.balance),
                    pounds(v.value)
                )
            })
            .collect()
    });
    vouchers
}

/// Each client's loyalty card.
#[node]
pub fn loyalty(salon: &Mvu<Salon, Msg>) -> Memo<Vec<String>> {
    let cards = salon.select(|salon| {
        salon
            .loyalty
            .iter()
            .map(|(client, points)| {
                format!(
                    "{client}: {points} points, {} to the next reward",
                    REWARD_AT.saturating_sub(*points)
                )
            })
            .collect()
    });
    cards
}

pub mod slipped {
    /// [`super::points_for`], with the mistake.
    #[ranvier::trace_fn]
    pub fn points_for(pence: u32) -> u32 {
        // BUG(loyalty_points)
        pence
    }
}
