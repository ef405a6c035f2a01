//! What tickets cost: adult and child prices, the 3D surcharge, the discounts by time of day and for club members.

use super::model::{Prices, Showing};

/// How a booking is priced (see [`ticket_price`]).
pub type TicketPrice = fn(&Prices, &Showing, u32, u32, bool) -> u64;

/// Showings starting before this minute of the day get the early discount.
pub const NOON: u32 = 12 * 60;

/// Showings starting before this minute of the day get the matinee discount.
pub const EVENING: u32 = 17 * 60;

/// The discount, percent, for a showing starting at `start`: early before noon, matinee before the evening, none in
/// the evening.
#[ranvier::trace_fn]
pub fn band_percent(prices: &Prices, start: u32) -> u64 {
    if start < NOON {
        prices.early_percent
    } else if start < EVENING {
        prices.matinee_percent
    } else {
        0
    }
}

/// `adults` adult and `children` child tickets for `show`: the tickets and the 3D surcharge, less the time-of-day
/// discount, then less the club discount for a member.
#[ranvier::trace_fn]
pub fn ticket_price(
    prices: &Prices,
    show: &Showing,
    adults: u32,
    children: u32,
    member: bool,
) -> u64 {
    let seats = u64::from(adults + children);
    let mut gross = u64::from(adults) * prices.adult + u64::from(children) * prices.child;
    if show.three_d {
        gross += seats * prices.three_d;
    }
    let band = band_percent(prices, show.start);
    let after_band = gross - gross * band / 100;
    if member {
        after_band - after_band * prices.member_percent / 100
    } else {
        after_band
    }
}

/// The prices with a mistake.
pub mod slipped {
    use super::super::model::{Prices, Showing};
    use super::{EVENING, NOON};

    /// The discount, percent, for a showing starting at `start`.
    #[ranvier::trace_fn]
    pub fn band_percent(prices: &Prices, start: u32) -> u64 {
        // BUG(band_order)
        if start < EVENING {
            prices.matinee_percent
        } else if start < NOON {
            prices.early_percent
        } else {
            0
        }
    }

    /// The tickets, with the discount by time of day above.
    #[ranvier::trace_fn]
    pub fn ticket_price_band(
        prices: &Prices,
        show: &Showing,
        adults: u32,
        children: u32,
        member: bool,
    ) -> u64 {
        let seats = u64::from(adults + children);
        let mut gross = u64::from(adults) * prices.adult + u64::from(children) * prices.child;
        if show.three_d {
            gross += seats * prices.three_d;
        }
        let band = band_percent(prices, show.start);
        let after_band = gross - gross * band / 100;
        if member {
            after_band - after_band * prices.member_percent / 100
        } else {
            after_band
        }
    }

    /// The tickets, with the club discount worked out another way.
    #[ranvier::trace_fn]
    pub fn ticket_price_member(
        prices: &Prices,
        show: &Showing,
        adults: u32,
        children: u32,
        member: bool,
    ) -> u64 {
        let seats = u64::from(adults + children);
        let mut gross = u64::from(adults) * prices.adult + u64::from(children) * prices.child;
        if show.three_d {
            gross += seats * prices.three_d;
        }
        let band = super::band_percent(prices, show.start);
        let after_band = gross - gross * band / 100;
        if member {
            // BUG(member_discount)
            after_band - after_band * (prices.member_percent / 100)
        } else {
            after_band
        }
    }
}
