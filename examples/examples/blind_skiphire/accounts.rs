//! Customers on account: what each owes and has running on skips still out, against their credit limit; and the
//! overweight charges of the skips collected today.

use ranvier::serde::Serialize;

use super::model::{Size, Yard};
use super::skips::running_charge;

/// One account's standing.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct CreditLine {
    /// The customer.
    pub customer: String,
    /// Billed and not paid, in pence.
    pub owed: u64,
    /// Running on skips still out, in pence.
    pub running: u64,
    /// What is left of the limit (negative when over).
    pub headroom: i64,
    /// Whether the office stops taking bookings from them.
    pub stopped: bool,
}

/// Each account's standing today, the most used first.
pub fn credit_lines(yard: &Yard) -> Vec<CreditLine> {
    let mut lines = Vec::new();
    for account in &yard.accounts {
        let mut running = 0;
        for hire in yard.hires.iter().filter(|h| h.customer == account.customer) {
            if hire.collected_on.is_some() {
                continue;
            }
            // booked ahead: nothing runs until it is placed
            if hire.placed_on > yard.day {
                continue;
            }
            running += running_charge(hire, yard.day);
        }
        let used = account.owed + running;
        let headroom = i64::try_from(account.limit).unwrap_or(i64::MAX)
            - i64::try_from(used).unwrap_or(i64::MAX);
        let stopped = used > account.limit;
        lines.push(CreditLine {
            customer: account.customer.clone(),
            owed: account.owed,
            running,
            headroom,
            stopped,
        });
    }
    lines.sort_by_key(|line| line.headroom);
    lines
}

/// The overweight charges of the skips collected today, `(ticket, pence)`, with `overweight` the tariff's rule.
pub fn overweight_today(yard: &Yard, overweight: fn(Size, u32) -> u64) -> Vec<(String, u64)> {
    yard.hires
        .iter()
        .filter(|hire| hire.collected_on == Some(yard.day))
        .map(|hire| (hire.id.clone(), overweight(hire.size, hire.tenths)))
        .filter(|(_, cents)| *cents > 0)
        .collect()
}

pub mod slipped {
    use super::super::model::Yard;
    use super::super::skips::running_charge;
    use super::CreditLine;

    pub fn credit_lines(yard: &Yard) -> Vec<CreditLine> {
        let mut lines = Vec::new();
        for account in &yard.accounts {
            let mut running = 0;
            for hire in yard.hires.iter().filter(|h| h.customer == account.customer) {
                if hire.collected_on.is_some() {
                    continue;
                }
                if hire.placed_on > yard.day {
                    continue;
                }
                running += running_charge(hire, yard.day);
            }
            let used = account.owed + running;
            let headroom = i64::try_from(account.limit).unwrap_or(i64::MAX)
                - i64::try_from(used).unwrap_or(i64::MAX);
            // BUG(credit_wrong_field)
            let stopped = account.owed > account.limit;
            lines.push(CreditLine {
                customer: account.customer.clone(),
                owed: account.owed,
                running,
                headroom,
                stopped,
            });
        }
        lines.sort_by_key(|line| line.headroom);
        lines
    }
}
