//! The tariff: each show's price bands by section, the matinee and peak adjustments, concessions, the group discount,
//! the fees, and the bar's price list.

use super::model::{Concession, Performance, Section};

/// Charged once per booking, pence.
pub const BOOKING_FEE: u32 = 150;
/// Charged per seat moved to another performance, pence.
pub const EXCHANGE_FEE: u32 = 250;
/// Kept per seat returned, pence.
pub const RETURN_FEE: u32 = 200;
/// Off a full-price seat at a matinee, pence.
pub const MATINEE_OFF: u32 = 600;
/// On a full-price seat on a Friday or Saturday evening, pence.
pub const PEAK_ON: u32 = 400;
/// Off a student's or a senior's seat, off peak, pence.
pub const CONCESSION_OFF: u32 = 500;
/// A booking of this many seats or more is a group: ten per cent off.
pub const GROUP_SEATS: u32 = 10;
pub const GROUP_PERCENT_OFF: u32 = 10;

/// A show's price bands (stalls, circle, boxes), pence a seat.
fn bands(show: &str) -> [u32; 3] {
    match show {
        "Hamlet" => [3200, 2400, 4000],
        "Private Lives" => [2800, 2000, 3600],
        "The Pirates" => [3600, 2600, 4400],
        _ => [3000, 2200, 4000],
    }
}

/// A full-price seat in `section` at `perf`: the band, less at a matinee, more at peak.
pub fn seat_price(perf: &Performance, section: Section, peak: bool) -> u32 {
    let band = bands(&perf.show)[section.index()];
    if perf.is_matinee() {
        band - MATINEE_OFF
    } else if peak {
        band + PEAK_ON
    } else {
        band
    }
}

/// A seat at `full` with `concession`: children half price always; students and seniors a fixed sum off, but not at
/// peak.
pub fn concession_price(full: u32, concession: Option<Concession>, peak: bool) -> u32 {
    match concession {
        None => full,
        Some(Concession::Child) => full / 2,
        Some(Concession::Student | Concession::Senior) if !peak => {
            full.saturating_sub(CONCESSION_OFF)
        }
        Some(_) => full,
    }
}

/// What `seats` seats at `each` come to, a group's discount taken off.
pub fn booking_total(each: u32, seats: u32) -> u32 {
    let total = each * seats;
    if seats >= GROUP_SEATS {
        total - total * GROUP_PERCENT_OFF / 100
    } else {
        total
    }
}

/// The bar's price of one `item`, pence.
pub fn bar_price(item: &str) -> Option<u32> {
    match item {
        "wine" => Some(650),
        "beer" => Some(550),
        "soft drink" => Some(300),
        "ice cream" => Some(400),
        "coffee" => Some(300),
        _ => None,
    }
}

/// Copies of the tariff with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Concession;
    use super::CONCESSION_OFF;

    /// [`super::concession_price`].
    pub fn concession_price(full: u32, concession: Option<Concession>, peak: bool) -> u32 {
        match concession {
            None => full,
            Some(Concession::Child) => full / 2,
            // BUG(peak_concession)
            Some(Concession::Student | Concession::Senior) if peak => {
                full.saturating_sub(CONCESSION_OFF)
            }
            Some(_) => full,
        }
    }
}
