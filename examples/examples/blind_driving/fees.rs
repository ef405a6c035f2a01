//! What lessons cost: prices per hour, block-booking discounts, cancellation fees, and each pupil's account.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::lessons::{self, MIN_NOTICE_HOURS};
use super::model::{Gearbox, Lesson, Msg, School, Status};

/// Hours in a block bought up front.
pub const BLOCK_HOURS: u32 = 10;

/// The discount on a block, in percent.
pub const BLOCK_DISCOUNT_PERCENT: u64 = 10;

/// A cancellation fee rule: the fee for a lesson of `price` pence cancelled with `notice` hours' notice.
pub type FeeRule = fn(u32, u64) -> u64;

/// The school's standard price per hour for a gearbox, in pence (what blocks are sold at).
#[ranvier::trace_fn]
pub fn standard_rate(gearbox: Gearbox) -> u64 {
    match gearbox {
        Gearbox::Manual => 3_800,
        Gearbox::Automatic => 4_000,
    }
}

/// What `hours` at `rate` pence an hour cost.
#[ranvier::trace_fn]
pub fn lesson_price(rate: u64, hours: u32) -> u64 {
    rate * u64::from(hours)
}

/// What `hours` bought up front cost: each full block of ten hours at a discount, the rest at `rate`.
#[ranvier::trace_fn]
pub fn block_price(rate: u64, hours: u32) -> u64 {
    let blocks = hours / BLOCK_HOURS;
    let rest = hours % BLOCK_HOURS;
    let block = lesson_price(rate, BLOCK_HOURS) * (100 - BLOCK_DISCOUNT_PERCENT) / 100;
    block * u64::from(blocks) + lesson_price(rate, rest)
}

/// The fee for cancelling a lesson of `price` pence with `notice` hours' notice: all of it when short, else nothing.
#[ranvier::trace_fn]
pub fn cancellation_fee(notice: u32, price: u64) -> u64 {
    if notice < MIN_NOTICE_HOURS { price } else { 0 }
}

/// A pupil's account.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Account {
    /// The pupil.
    pub pupil: String,
    /// Everything charged: blocks, lessons and fees, in pence.
    pub charged: u64,
    /// Everything paid.
    pub paid: u64,
    /// What they still owe (0 when in credit).
    pub owed: u64,
    /// What cancelling every lesson still booked would cost them today.
    pub at_risk: u64,
}

/// Every pupil's account, charging each lesson by `billable` and pricing the risk of cancelling by `fee`.
#[node]
pub fn accounts(
    school: &Mvu<School, Msg>,
    fee: FeeRule,
    billable: fn(&Lesson) -> u64,
) -> Memo<Vec<Account>> {
    let accounts = school.select(move |school| {
        let mut accounts = Vec::new();
        for pupil in &school.pupils {
            let mut charged = pupil.blocks;
            let mut at_risk = 0;
            let theirs = school.lessons.iter().filter(|l| l.pupil == pupil.name);
            for lesson in theirs {
                charged += billable(lesson);
                if lesson.status != Status::Booked {
                    continue;
                }
                let notice = lessons::notice_hours(school.day, lesson.day);
                at_risk += fee(notice, lesson.price);
            }
            let owed = charged.saturating_sub(pupil.paid);
            accounts.push(Account {
                pupil: pupil.name.clone(),
                charged,
                paid: pupil.paid,
                owed,
                at_risk,
            });
        }
        accounts
    });
    accounts
}

/// The copies with a mistake each, which the app is built with when its slip is chosen.
pub mod slipped {
    use super::*;

    /// The fee for cancelling a lesson of `price` pence with `notice` hours' notice: all of it when short, else
    /// nothing.
    #[ranvier::trace_fn]
    pub fn cancellation_fee(notice: u32, price: u64) -> u64 {
        // BUG(late_notice)
        if notice <= MIN_NOTICE_HOURS { price } else { 0 }
    }
}
