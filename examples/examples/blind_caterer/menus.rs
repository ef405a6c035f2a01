//! The menus and what they cost: the price per head (cheaper per head for big parties), the quote of an event, the
//! deposit it needs, and the kitchen sheet (the covers of the coming fortnight, by diet).

use super::model::{Book, Event, Msg, Status, Tasting, Terms, Tier};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

/// Below this many guests an event is charged as if this many came.
pub const MIN_GUESTS: u32 = 30;
/// What each vegetarian, vegan or gluten-free cover adds, in cents.
pub const DIETARY_SURCHARGE: u64 = 250;
/// From this many guests the price per head is 5% off.
pub const LARGE_PARTY: u32 = 100;
/// From this many guests it is 10% off.
pub const VERY_LARGE_PARTY: u32 = 150;

/// The price per head of a menu before any discount, in cents.
pub fn list_price(tier: Tier) -> u64 {
    match tier {
        Tier::Buffet => 2_800,
        Tier::Classic => 4_600,
        Tier::Banquet => 7_400,
    }
}

/// The price per head of `tier` for a party of `guests`, in cents.
#[ranvier::trace_fn]
pub fn per_head(tier: Tier, guests: u32) -> u64 {
    let price = list_price(tier);
    if guests >= VERY_LARGE_PARTY {
        price - price / 10
    } else if guests >= LARGE_PARTY {
        price - price / 20
    } else {
        price
    }
}

/// The quote of `event`: the food for the guests charged (at least [`MIN_GUESTS`]), the dietary surcharge and the
/// tasting once one is booked, in cents. `per_head` prices a head.
#[ranvier::trace_fn]
pub fn event_quote(event: &Event, terms: &Terms, per_head: fn(Tier, u32) -> u64) -> u64 {
    let charged = event.guests.max(MIN_GUESTS);
    let food = per_head(event.tier, charged) * u64::from(charged);
    let surcharge = u64::from(event.dietary.special()) * DIETARY_SURCHARGE;
    let tasting = match event.tasting {
        Tasting::NotBooked => 0,
        Tasting::Booked { .. } | Tasting::Held => terms.tasting_fee,
    };
    food + surcharge + tasting
}

/// The deposit a quote needs: `percent` of it, rounded up to the whole pound, in cents.
#[ranvier::trace_fn]
pub fn required_deposit(quote: u64, percent: u32) -> u64 {
    let cents = (quote * u64::from(percent)).div_ceil(100);
    cents.div_ceil(100) * 100
}

/// The deposits still to come in: for every enquiry and held date, what its quote needs less what was paid, in
/// cents. `per_head` prices a head and `required_deposit` says what a quote needs.
#[node]
pub fn deposits_due(
    book: &Mvu<Book, Msg>,
    per_head: fn(Tier, u32) -> u64,
    required_deposit: fn(u64, u32) -> u64,
) -> Memo<u64> {
    let deposits_due = book.select(move |book| {
        book.events
            .iter()
            .filter(|event| matches!(event.status, Status::Enquiry | Status::Held))
            .map(|event| {
                let quote = event_quote(event, &book.terms, per_head);
                required_deposit(quote, book.terms.deposit_percent)
                    .saturating_sub(event.deposit_paid)
            })
            .sum()
    });
    deposits_due
}

/// What the kitchen plates in the coming window: the covers of the events held or confirmed, by diet.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct KitchenSheet {
    /// Every cover.
    pub covers: u32,
    /// The standard menu.
    pub standard: u32,
    /// Vegetarian.
    pub vegetarian: u32,
    /// Vegan.
    pub vegan: u32,
    /// Gluten-free.
    pub gluten_free: u32,
    /// The events on the sheet, by reference.
    pub events: Vec<String>,
}

/// The kitchen sheet of the book's coming window (`terms.kitchen_window` days from today).
#[node]
pub fn kitchen_sheet(book: &Mvu<Book, Msg>) -> Memo<KitchenSheet> {
    let kitchen_sheet = book.select(|book| {
        let mut sheet = KitchenSheet::default();
        let horizon = book.today + book.terms.kitchen_window;
        for event in &book.events {
            let on = match event.status {
                Status::Held | Status::Confirmed => true,
                Status::Enquiry | Status::Cancelled => false,
            };
            if !on || event.day < book.today || event.day >= horizon {
                continue;
            }
            let special = event.dietary.special().min(event.guests);
            let standard = event.guests - special;
            sheet.covers += event.guests;
            sheet.standard += standard;
            sheet.vegetarian += event.dietary.vegetarian;
            sheet.vegan += event.dietary.vegan;
            sheet.gluten_free += event.dietary.gluten_free;
            sheet.events.push(event.id.clone());
        }
        sheet
    });
    kitchen_sheet
}

pub mod slipped {
    use super::{LARGE_PARTY, Tier, VERY_LARGE_PARTY, list_price};

    #[ranvier::trace_fn]
    pub fn per_head(tier: Tier, guests: u32) -> u64 {
        let price = list_price(tier);
        // BUG(per_head_break)
        if guests > VERY_LARGE_PARTY {
            price - price / 10
        } else if guests >= LARGE_PARTY {
            price - price / 20
        } else {
            price
        }
    }

    #[ranvier::trace_fn]
    pub fn required_deposit(quote: u64, percent: u32) -> u64 {
        let cents = (quote * u64::from(percent)).div_ceil(100);
        // BUG(deposit_rounded_down)
        cents / 100 * 100
    }
}
