//! The loyalty card's rules: a stamp per £10 spent, a free book at ten stamps.

/// Pence spent for one stamp (£10).
pub const PENCE_PER_STAMP: u32 = 1_000;
/// Stamps a free book takes.
pub const STAMPS_FOR_A_BOOK: u32 = 10;

/// The stamps a purchase of `pence` earns.
#[ranvier::trace_fn]
pub fn stamps_for(pence: u32) -> u32 {
    pence / PENCE_PER_STAMP
}

/// The free books a card holding `stamps` stamps gives.
#[ranvier::trace_fn]
pub fn free_books(stamps: u32) -> u32 {
    stamps / STAMPS_FOR_A_BOOK
}

/// A card's line: `Ms Eve: 3 stamps, 1 free book`.
#[ranvier::trace_fn]
pub fn card_line(customer: &str, stamps: u32, free: u32) -> String {
    let s = if stamps == 1 { "" } else { "s" };
    let b = if free == 1 { "book" } else { "books" };
    format!("{customer}: {stamps} stamp{s}, {free} free {b}")
}

pub mod slipped {
    #[ranvier::trace_fn]
    pub fn stamps_for(pence: u32) -> u32 {
        // BUG(stamps_for)
        pence / 100
    }
}
