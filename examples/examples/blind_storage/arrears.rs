//! Arrears: how far an unpaid balance has gone (grace, late fee, lock-out, auction), the late fee, and the report
//! the manager reads each morning.

use super::model::{Msg, Policy, Stage, Warehouse};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

/// The stage of a balance unpaid for `days_overdue` days.
#[ranvier::trace_fn]
pub fn stage(days_overdue: u32, policy: &Policy) -> Stage {
    if days_overdue == 0 {
        Stage::Current
    } else if days_overdue <= policy.grace_days {
        Stage::Grace
    } else if days_overdue < policy.lockout_days {
        Stage::Late
    } else if days_overdue < policy.auction_days {
        Stage::LockedOut
    } else {
        Stage::Auction
    }
}

/// The late fee on a balance: the flat fee, or the percentage of the balance if that is more.
#[ranvier::trace_fn]
pub fn late_fee(balance_cents: u64, policy: &Policy) -> u64 {
    let share = balance_cents * policy.late_fee_percent / 100;
    share.max(policy.late_fee_cents)
}

/// The morning's arrears: what is owed, and who is at which stage.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct ArrearsReport {
    pub owed_cents: u64,
    pub late_fees_cents: u64,
    /// Tenants owing, within their grace days.
    pub due: u32,
    /// Tenants past their grace days.
    pub late: u32,
    pub locked_out: Vec<String>,
    pub for_auction: Vec<String>,
    pub oldest_days: u32,
    /// Days until the oldest arrears reach auction, while anything is owed.
    pub auction_in_days: Option<u32>,
}

/// The arrears report over the warehouse.
#[node]
pub fn arrears(
    warehouse: &Mvu<Warehouse, Msg>,
    stage: fn(u32, &Policy) -> Stage,
) -> Memo<ArrearsReport> {
    let arrears = warehouse.select(move |w| {
        let mut report = ArrearsReport::default();
        for unit in &w.units {
            let Some(rental) = &unit.rental else {
                continue;
            };
            let owed = rental.balance_cents;
            if owed == 0 {
                continue;
            }
            let since = rental.overdue_since.unwrap_or(w.day);
            let days = w.day.saturating_sub(since);
            report.owed_cents += owed;
            report.late_fees_cents += rental.late_fees_cents;
            match stage(days, &w.policy) {
                Stage::Current | Stage::Grace => report.due += 1,
                Stage::Late => report.late += 1,
                Stage::LockedOut => report.locked_out.push(unit.id.clone()),
                Stage::Auction => report.for_auction.push(unit.id.clone()),
            }
            report.oldest_days = report.oldest_days.max(days);
        }
        let oldest = report.oldest_days;
        let auction_in = w.policy.auction_days.saturating_sub(oldest);
        report.auction_in_days = (report.owed_cents > 0).then_some(auction_in);
        report
    });
    arrears
}

pub mod slipped {
    use super::{ArrearsReport, Memo, Msg, Mvu, Policy, Stage, Warehouse, node};

    #[ranvier::trace_fn]
    pub fn stage(days_overdue: u32, policy: &Policy) -> Stage {
        if days_overdue == 0 {
            Stage::Current
        } else if days_overdue <= policy.grace_days {
            Stage::Grace
        // BUG(lockout_boundary)
        } else if days_overdue <= policy.lockout_days {
            Stage::Late
        } else if days_overdue < policy.auction_days {
            Stage::LockedOut
        } else {
            Stage::Auction
        }
    }

    #[node]
    pub fn arrears(
        warehouse: &Mvu<Warehouse, Msg>,
        stage: fn(u32, &Policy) -> Stage,
    ) -> Memo<ArrearsReport> {
        let arrears = warehouse.select(move |w| {
            let mut report = ArrearsReport::default();
            for unit in &w.units {
                let Some(rental) = &unit.rental else {
                    continue;
                };
                let owed = rental.balance_cents;
                if owed == 0 {
                    continue;
                }
                let since = rental.overdue_since.unwrap_or(w.day);
                let days = w.day.saturating_sub(since);
                report.owed_cents += owed;
                report.late_fees_cents += rental.late_fees_cents;
                match stage(days, &w.policy) {
                    Stage::Current | Stage::Grace => report.due += 1,
                    Stage::Late => report.late += 1,
                    // BUG(auction_missing)
                    Stage::LockedOut | Stage::Auction => report.locked_out.push(unit.id.clone()),
                }
                report.oldest_days = report.oldest_days.max(days);
            }
            let oldest = report.oldest_days;
            let auction_in = w.policy.auction_days.saturating_sub(oldest);
            report.auction_in_days = (report.owed_cents > 0).then_some(auction_in);
            report
        });
        arrears
    }
}
