//! What treatment costs: three bands, a plan discount, the plan's free check-ups, and the quotes for what is booked.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Band, Msg, Patient, Practice, Visit};

/// A check-up, in pence.
pub const CHECKUP: u64 = 4_500;
/// A filling, in pence.
pub const FILLING: u64 = 9_500;
/// A crown, in pence.
pub const CROWN: u64 = 52_000;
/// The plan's discount on fillings and crowns, in percent.
pub const PLAN_DISCOUNT_PERCENT: u64 = 20;
/// Check-ups a year the plan covers.
pub const PLAN_CHECKUPS: u32 = 2;
/// The plan's monthly fee, in pence.
pub const PLAN_FEE: u64 = 1_800;
/// The fee for a missed appointment, once the free misses are used.
pub const MISSED_FEE: u64 = 2_500;
/// Misses forgiven before the fee is charged.
pub const FREE_MISSES: u32 = 2;

/// A pricing rule: what `patient` pays for a treatment in `band`.
pub type Price = fn(Band, &Patient) -> u64;

/// The list price of a band.
pub fn list_price(band: Band) -> u64 {
    match band {
        Band::Checkup => CHECKUP,
        Band::Filling => FILLING,
        Band::Crown => CROWN,
    }
}

/// What `patient` pays for a treatment in `band`: the list price privately; on the plan, check-ups free up to the
/// plan's two a year and other treatment discounted.
#[ranvier::trace_fn]
pub fn treatment_price(band: Band, patient: &Patient) -> u64 {
    let list = list_price(band);
    if !patient.plan {
        return list;
    }
    match band {
        Band::Checkup if patient.checkups_this_year < PLAN_CHECKUPS => 0,
        Band::Checkup => list,
        Band::Filling | Band::Crown => list * (100 - PLAN_DISCOUNT_PERCENT) / 100,
    }
}

/// The price quoted for a booked appointment.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Quote {
    /// The appointment.
    pub id: u32,
    /// Who pays.
    pub patient: String,
    /// Which day.
    pub day: u32,
    /// What is done.
    pub band: Band,
    /// What they will pay, in pence.
    pub price: u64,
}

/// The quotes for every booked appointment, in booking order; a plan patient's free check-ups are used up by their
/// earlier bookings first.
#[node]
pub fn quotes(practice: &Mvu<Practice, Msg>, price: Price) -> Memo<Vec<Quote>> {
    let quotes = practice.select(move |practice| {
        let mut quotes: Vec<Quote> = Vec::new();
        for visit in &practice.appointments {
            if visit.state != Visit::Booked {
                continue;
            }
            let Some(patient) = practice.patient(&visit.patient) else {
                continue;
            };
            let earlier = quotes
                .iter()
                .filter(|q| q.patient == visit.patient && q.band == Band::Checkup)
                .count();
            let mut patient = patient.clone();
            patient.checkups_this_year += u32::try_from(earlier).unwrap_or(u32::MAX);
            let price = price(visit.band, &patient);
            quotes.push(Quote {
                id: visit.id,
                patient: visit.patient.clone(),
                day: visit.day,
                band: visit.band,
                price,
            });
        }
        quotes
    });
    quotes
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`super::treatment_price`], with a mistake.
    #[ranvier::trace_fn]
    pub fn treatment_price(band: Band, patient: &Patient) -> u64 {
        let list = list_price(band);
        if !patient.plan {
            return list;
        }
        match band {
            Band::Checkup if patient.checkups_this_year < PLAN_CHECKUPS => 0,
            Band::Checkup => list,
            // BUG(plan_discount)
            Band::Filling | Band::Crown => list * PLAN_DISCOUNT_PERCENT / 100,
        }
    }
}
