//! Move-ins: the quote for an enquiry (rent, offer, insurance, the long-stay discount, the van) and the van's day.

use super::model::{Msg, Plan, Warehouse};
use super::pricing::{VAN_HIRE_CENTS, offer_discount, period_rent};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

/// What a stay would cost, billed period by period.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Quote {
    pub periods: u32,
    pub rent_cents: u64,
    pub discount_cents: u64,
    pub insurance_cents: u64,
    pub van_cents: u64,
    pub total_cents: u64,
}

/// The quote for the enquiry on the desk (nothing when there is none).
#[node]
pub fn quote(warehouse: &Mvu<Warehouse, Msg>, premium: fn(u64, Plan) -> u64) -> Memo<Quote> {
    let quote = warehouse.select(move |w| {
        let Some(enquiry) = &w.enquiry else {
            return Quote::default();
        };
        let periods = match enquiry.plan {
            Plan::Weekly => enquiry.weeks,
            Plan::Monthly => (enquiry.weeks * 12).div_ceil(52),
        };
        let periods = periods.max(1);
        let rent = period_rent(enquiry.size, enquiry.plan, &w.policy);
        let premium = premium(enquiry.declared_cents, enquiry.plan);
        let mut quote = Quote {
            periods,
            ..Quote::default()
        };
        for period in 0..periods {
            if period == 0 {
                quote.discount_cents +=
                    offer_discount(enquiry.offer, enquiry.size, enquiry.plan, &w.policy);
            }
            quote.rent_cents += rent;
            quote.insurance_cents += premium;
        }
        let long_stay = enquiry.weeks >= w.policy.long_stay_weeks;
        if long_stay {
            quote.discount_cents += quote.rent_cents * w.policy.long_stay_percent / 100;
        }
        quote.van_cents = match (enquiry.van, enquiry.plan) {
            (true, Plan::Weekly) => VAN_HIRE_CENTS,
            _ => 0,
        };
        let gross = quote.rent_cents + quote.insurance_cents + quote.van_cents;
        quote.total_cents = gross.saturating_sub(quote.discount_cents);
        quote
    });
    quote
}

/// The van's move-in slots still free today.
#[node]
pub fn van_today(warehouse: &Mvu<Warehouse, Msg>) -> Memo<u32> {
    let van_today = warehouse.select(|w| {
        let booked = w.van.iter().filter(|booking| booking.day == w.day).count();
        w.policy
            .van_slots_per_day
            .saturating_sub(u32::try_from(booked).unwrap_or(u32::MAX))
    });
    van_today
}

pub mod slipped {
    use super::{
        Memo, Msg, Mvu, Plan, Quote, VAN_HIRE_CENTS, Warehouse, node, offer_discount, period_rent,
    };

    #[node]
    pub fn quote(warehouse: &Mvu<Warehouse, Msg>, premium: fn(u64, Plan) -> u64) -> Memo<Quote> {
        let quote = warehouse.select(move |w| {
            let Some(enquiry) = &w.enquiry else {
                return Quote::default();
            };
            let periods = match enquiry.plan {
                Plan::Weekly => enquiry.weeks,
                Plan::Monthly => (enquiry.weeks * 12).div_ceil(52),
            };
            let periods = periods.max(1);
            let rent = period_rent(enquiry.size, enquiry.plan, &w.policy);
            let premium = premium(enquiry.declared_cents, enquiry.plan);
            let mut quote = Quote {
                periods,
                ..Quote::default()
            };
            for period in 0..periods {
                if period == 0 {
                    quote.discount_cents +=
                        offer_discount(enquiry.offer, enquiry.size, enquiry.plan, &w.policy);
                }
                quote.rent_cents += rent;
                quote.insurance_cents += premium;
            }
            // BUG(long_stay_boundary)
            let long_stay = enquiry.weeks > w.policy.long_stay_weeks;
            if long_stay {
                quote.discount_cents += quote.rent_cents * w.policy.long_stay_percent / 100;
            }
            quote.van_cents = match (enquiry.van, enquiry.plan) {
                (true, Plan::Weekly) => VAN_HIRE_CENTS,
                _ => 0,
            };
            let gross = quote.rent_cents + quote.insurance_cents + quote.van_cents;
            quote.total_cents = gross.saturating_sub(quote.discount_cents);
            quote
        });
        quote
    }
}
