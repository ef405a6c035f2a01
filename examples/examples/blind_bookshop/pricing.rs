//! The shop's pricing rules: the club discount, trade prices, deposits, consignors' shares and postage by weight
//! band. Called from `update` and from the memos.

use super::model::{Book, Kind};

/// The book club's discount on the month's pick, in percent.
pub const CLUB_DISCOUNT: u32 = 10;
/// The deposit on a special order or a preorder, in percent of the books.
pub const DEPOSIT_PERCENT: u32 = 20;
/// The consignor's share of a second-hand sale after the handling fee, in percent.
pub const CONSIGNOR_SHARE: u32 = 60;
/// The shop's handling fee on each second-hand book sold, in pence.
pub const HANDLING_FEE: u32 = 100;
/// What the packing adds to a parcel, in grams.
pub const PACKING_GRAMS: u32 = 100;

/// What one copy of `book` sells for: the shelf price, less the club discount when it is the month's pick (`pick`)
/// and the buyer is a club `member`.
#[ranvier::trace_fn]
pub fn unit_price(book: &Book, pick: &str, member: bool) -> u32 {
    let price = book.price();
    if member && book.code == pick {
        price * (100 - CLUB_DISCOUNT) / 100
    } else {
        price
    }
}

/// What the shop pays the distributor for one copy: the list price less the trade discount (percent).
#[ranvier::trace_fn]
pub fn trade_price(list: u32, discount: u32) -> u32 {
    list * (100 - discount) / 100
}

/// What one copy of a new `book` costs the shop (0 for a second-hand one).
#[ranvier::trace_fn]
pub fn cost_price(book: &Book) -> u32 {
    match &book.kind {
        Kind::New { list, discount } => trade_price(*list, *discount),
        Kind::Used { .. } => 0,
    }
}

/// The deposit on an order of `goods` pence: a share for special orders and preorders, none otherwise.
#[ranvier::trace_fn]
pub fn deposit(goods: u32, special: bool) -> u32 {
    if special {
        goods * DEPOSIT_PERCENT / 100
    } else {
        0
    }
}

/// What a consignor gets for a sale of `sold` pence whose handling fees are `fee` pence.
#[ranvier::trace_fn]
pub fn consignor_share(sold: u32, fee: u32) -> u32 {
    sold.saturating_sub(fee) * CONSIGNOR_SHARE / 100
}

/// Second-class postage for a parcel of `grams` (packing included), in pence, by weight band.
#[ranvier::trace_fn]
pub fn postage(grams: u32) -> u32 {
    match grams {
        0 => 0,
        1..=750 => 320,
        751..=1_000 => 410,
        1_001..=2_000 => 560,
        _ => 890,
    }
}

pub mod slipped {
    use super::*;

    #[ranvier::trace_fn]
    pub fn unit_price(book: &Book, pick: &str, member: bool) -> u32 {
        let price = book.price();
        // BUG(club_price)
        if member || book.code == pick {
            price * (100 - CLUB_DISCOUNT) / 100
        } else {
            price
        }
    }

    #[ranvier::trace_fn]
    pub fn consignor_share(sold: u32, fee: u32) -> u32 {
        // BUG(consignor_share)
        (sold * CONSIGNOR_SHARE / 100).saturating_sub(fee)
    }
}
