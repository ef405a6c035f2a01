//! What a unit costs: the weekly rates, the monthly rate, the move-in offers and the insurance premium.

use super::model::{MIN_COVER_CENTS, Offer, Plan, Policy, Size};

/// The insurance premium: 99p a week for every £1,000 of cover, or part of it.
pub const PREMIUM_PER_THOUSAND_CENTS: u64 = 99;

/// Hiring the van for a move-in on a weekly plan (free on a monthly one).
pub const VAN_HIRE_CENTS: u64 = 2_500;

/// The weekly rate of a size.
pub fn weekly_rate(size: Size) -> u64 {
    match size {
        Size::Locker => 1_200,
        Size::Small => 2_500,
        Size::Medium => 4_200,
        Size::Large => 6_500,
    }
}

/// A period's rent: the weekly rate, or a month (52 weeks over 12, rounded up) less the monthly discount.
#[ranvier::trace_fn]
pub fn period_rent(size: Size, plan: Plan, policy: &Policy) -> u64 {
    let weekly = weekly_rate(size);
    match plan {
        Plan::Weekly => weekly,
        Plan::Monthly => {
            let month = (weekly * 52).div_ceil(12);
            month - month * policy.monthly_discount_percent / 100
        }
    }
}

/// What an offer takes off the first bill.
#[ranvier::trace_fn]
pub fn offer_discount(offer: Option<Offer>, size: Size, plan: Plan, policy: &Policy) -> u64 {
    match (offer, plan) {
        (Some(Offer::FreeWeek), _) => weekly_rate(size),
        (Some(Offer::HalfFirstMonth), Plan::Monthly) => period_rent(size, plan, policy) / 2,
        (Some(Offer::HalfFirstMonth), Plan::Weekly) | (None, _) => 0,
    }
}

/// A period's insurance premium on `declared_cents` of goods (at least the minimum cover).
#[ranvier::trace_fn]
pub fn insurance_premium(declared_cents: u64, plan: Plan) -> u64 {
    let cover = declared_cents.max(MIN_COVER_CENTS);
    let thousands = cover.div_ceil(100_000);
    let weekly = thousands * PREMIUM_PER_THOUSAND_CENTS;
    match plan {
        Plan::Weekly => weekly,
        Plan::Monthly => (weekly * 52).div_ceil(12),
    }
}

pub mod slipped {
    use super::{MIN_COVER_CENTS, PREMIUM_PER_THOUSAND_CENTS, Plan};

    #[ranvier::trace_fn]
    pub fn insurance_premium(declared_cents: u64, plan: Plan) -> u64 {
        let cover = declared_cents.max(MIN_COVER_CENTS);
        // BUG(premium_floor)
        let thousands = cover / 100_000;
        let weekly = thousands * PREMIUM_PER_THOUSAND_CENTS;
        match plan {
            Plan::Weekly => weekly,
            Plan::Monthly => (weekly * 52).div_ceil(12),
        }
    }
}
