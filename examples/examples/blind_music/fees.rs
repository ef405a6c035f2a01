//! What lessons cost: the price of a lesson by its length, the weeks a term teaches, and the families' invoices with
//! the sibling discount.

use std::collections::BTreeMap;

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Msg, School};

/// Percent off each brother's or sister's fee after the dearest one.
pub const SIBLING_PERCENT: u64 = 10;

/// A price rule: the price of one lesson of so many minutes, in pence.
pub type Price = fn(u32) -> u64;

/// The price of one lesson of `minutes`, in pence (0 for a length the school does not teach).
#[ranvier::trace_fn]
pub fn lesson_price(minutes: u32) -> u64 {
    match minutes {
        30 => 1_500,
        45 => 2_100,
        60 => 2_700,
        _ => 0,
    }
}

/// The weeks a term teaches: half-term has no lessons.
#[ranvier::trace_fn]
pub fn teaching_weeks(term_weeks: u32, half_term_week: u32) -> u32 {
    if (1..=term_weeks).contains(&half_term_week) {
        term_weeks - 1
    } else {
        term_weeks
    }
}

/// What one pupil's lessons cost for the term before any discount: the lesson price for each teaching week, less
/// the bursary.
#[ranvier::trace_fn]
pub fn base_fee(lesson: u64, weeks: u32, bursary: u32) -> u64 {
    let fee = lesson * u64::from(weeks);
    fee - fee * u64::from(bursary.min(100)) / 100
}

/// One family's invoice for the term.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Invoice {
    /// The family.
    pub family: String,
    /// How many of them learn.
    pub pupils: u32,
    /// What they owe for the term, in pence, credits taken off.
    pub total: u64,
}

/// The invoices, one a family, in family order: the dearest child pays in full, each brother or sister
/// [`SIBLING_PERCENT`] less; credits for cancelled lessons come off.
#[node]
pub fn invoices(school: &Mvu<School, Msg>, price: Price) -> Memo<Vec<Invoice>> {
    let school = school.clone();
    let invoices = Memo::new(move |_| {
        school.with_model(|school| {
            let weeks = teaching_weeks(school.term_weeks, school.half_term_week);
            let mut families: BTreeMap<&str, (Vec<u64>, u64)> = BTreeMap::new();
            for pupil in &school.pupils {
                let lesson = price(pupil.minutes);
                if lesson == 0 {
                    continue;
                }
                let family = families.entry(pupil.family.as_str()).or_default();
                family.0.push(base_fee(lesson, weeks, pupil.bursary));
                family.1 += pupil.credit;
            }
            let mut invoices = Vec::new();
            for (family, (mut fees, credit)) in families {
                fees.sort_unstable_by(|a, b| b.cmp(a));
                let mut total = 0;
                for (i, fee) in fees.iter().enumerate() {
                    let fee = if i > 0 {
                        fee - fee * SIBLING_PERCENT / 100
                    } else {
                        *fee
                    };
                    total += fee;
                }
                invoices.push(Invoice {
                    family: family.to_owned(),
                    pupils: fees.len() as u32,
                    total: total.saturating_sub(credit),
                });
            }
            invoices
        })
    });
    invoices
}

pub mod slipped {
    use super::*;

    /// [`lesson_price`], with the mistake.
    #[ranvier::trace_fn]
    pub fn lesson_price(minutes: u32) -> u64 {
        match minutes {
            30 => 1_500,
            // BUG(price_arm)
            45 => 2_700,
            60 => 2_700,
            _ => 0,
        }
    }

    /// [`invoices`](super::invoices), with the mistake.
    #[node]
    pub fn invoices(school: &Mvu<School, Msg>, price: Price) -> Memo<Vec<Invoice>> {
        let school = school.clone();
        let invoices = Memo::new(move |_| {
            school.with_model(|school| {
                let weeks = teaching_weeks(school.term_weeks, school.half_term_week);
                let mut families: BTreeMap<&str, (Vec<u64>, u64)> = BTreeMap::new();
                for pupil in &school.pupils {
                    let lesson = price(pupil.minutes);
                    if lesson == 0 {
                        continue;
                    }
                    let family = families.entry(pupil.family.as_str()).or_default();
                    family.0.push(base_fee(lesson, weeks, pupil.bursary));
                    family.1 += pupil.credit;
                }
                let mut invoices = Vec::new();
                for (family, (mut fees, credit)) in families {
                    fees.sort_unstable_by(|a, b| b.cmp(a));
                    let mut total = 0;
                    for (i, fee) in fees.iter().enumerate() {
                        // BUG(sibling_from_third)
                        let fee = if i > 1 {
                            fee - fee * SIBLING_PERCENT / 100
                        } else {
                            *fee
                        };
                        total += fee;
                    }
                    invoices.push(Invoice {
                        family: family.to_owned(),
                        pupils: fees.len() as u32,
                        total: total.saturating_sub(credit),
                    });
                }
                invoices
            })
        });
        invoices
    }
}
