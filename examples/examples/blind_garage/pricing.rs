//! What a job costs: labour by the started quarter hour at the garage's rate, parts at the price they were fitted at,
//! the trade discount on parts and the regulars' discount on labour, and VAT on what is left.

use super::model::{Booking, Customer, Invoice, Pence, Settings};

/// A trade account's discount on parts, in percent.
pub const TRADE_PARTS_PERCENT: u64 = 10;

/// A regular's discount on labour, in percent.
pub const REGULAR_LABOUR_PERCENT: u64 = 5;

/// `percent` of `amount`, to the nearest penny.
#[ranvier::trace_fn]
pub fn percent_of(amount: Pence, percent: u64) -> Pence {
    (amount * percent + 50) / 100
}

/// Labour for `minutes` of work at `rate` an hour: every quarter hour started is charged.
#[ranvier::trace_fn]
pub fn labour_charge(minutes: u32, rate: Pence) -> Pence {
    let quarters = u64::from(minutes.div_ceil(15));
    quarters * rate / 4
}

/// Pence as pounds: `1234` is `12.34`.
#[ranvier::trace_fn]
pub fn pounds(pence: Pence) -> String {
    format!("{}.{:02}", pence / 100, pence % 100)
}

/// The invoice for `booking`'s job, billed to `customer`.
#[ranvier::trace_fn]
pub fn invoice(booking: &Booking, customer: &Customer, settings: &Settings) -> Invoice {
    let labour = labour_charge(booking.job.minutes(), settings.labour_rate);
    let parts: Pence = booking
        .job
        .parts
        .iter()
        .map(|line| line.price * u64::from(line.qty))
        .sum();
    let mut discount = 0;
    if customer.trade {
        discount += percent_of(parts, TRADE_PARTS_PERCENT);
    }
    if customer.visits >= settings.loyal_after {
        discount += percent_of(labour, REGULAR_LABOUR_PERCENT);
    }
    let net = labour + parts - discount;
    let vat = percent_of(net, settings.vat_percent);
    Invoice {
        booking: booking.id,
        customer: customer.name.clone(),
        plate: booking.plate.clone(),
        labour,
        parts,
        discount,
        vat,
        total: net + vat,
    }
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::{Booking, Customer, Invoice, Pence, Settings};
    use super::{REGULAR_LABOUR_PERCENT, TRADE_PARTS_PERCENT, labour_charge, percent_of};

    /// The invoice for `booking`'s job, billed to `customer`.
    #[ranvier::trace_fn]
    pub fn invoice(booking: &Booking, customer: &Customer, settings: &Settings) -> Invoice {
        let labour = labour_charge(booking.job.minutes(), settings.labour_rate);
        let parts: Pence = booking
            .job
            .parts
            .iter()
            .map(|line| line.price * u64::from(line.qty))
            .sum();
        let mut discount = 0;
        if customer.trade {
            discount += percent_of(parts, TRADE_PARTS_PERCENT);
        }
        if customer.visits >= settings.loyal_after {
            discount += percent_of(labour, REGULAR_LABOUR_PERCENT);
        }
        // BUG(discount_sign)
        let net = labour + parts + discount;
        let vat = percent_of(net, settings.vat_percent);
        Invoice {
            booking: booking.id,
            customer: customer.name.clone(),
            plate: booking.plate.clone(),
            labour,
            parts,
            discount,
            vat,
            total: net + vat,
        }
    }
}
