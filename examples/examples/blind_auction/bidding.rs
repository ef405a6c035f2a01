//! The rostrum's rules: bidding increments by price band, the asking price, the reserve, and how the auctioneer bids
//! from the absentee book.

use super::model::{AbsenteeBid, Bid, Lot};

/// The increment by price band: below `.0` euros the next bid is at least `.1` more.
pub const BANDS: [(u64, u64); 5] = [(100, 5), (500, 10), (1_000, 25), (2_000, 50), (5_000, 100)];

/// The increment from 5,000 euros up.
pub const TOP_INCREMENT: u64 = 250;

/// How much the next bid must add to `amount`.
#[ranvier::trace_fn]
pub fn increment(amount: u64) -> u64 {
    BANDS
        .iter()
        .find(|(below, _)| amount < *below)
        .map_or(TOP_INCREMENT, |&(_, step)| step)
}

/// The least the next bid on `lot` may be: the opening bid, or one increment over the leading bid.
#[ranvier::trace_fn]
pub fn next_minimum(lot: &Lot, increment: fn(u64) -> u64) -> u64 {
    match lot.top_bid {
        Some(top) => top.amount + increment(top.amount),
        None => lot.opening(),
    }
}

/// Whether `amount` sells `lot`: at or over its reserve.
#[ranvier::trace_fn]
pub fn reserve_met(lot: &Lot, amount: u64) -> bool {
    amount >= lot.reserve
}

/// What the winning book bid pays against a runner-up: one increment over the runner-up's limit, at most its own.
#[ranvier::trace_fn]
pub fn competing_price(runner_up: u64, winner: u64, increment: fn(u64) -> u64) -> u64 {
    (runner_up + increment(runner_up)).min(winner)
}

/// The bid the auctioneer places from `book` on `lot`, if one of its bids beats the asking price: the highest limit
/// wins (the earlier left on a tie), at the asking price, or one increment over the next highest limit.
#[ranvier::trace_fn]
pub fn bid_from_book(book: &[AbsenteeBid], lot: &Lot, increment: fn(u64) -> u64) -> Option<Bid> {
    let asking = next_minimum(lot, increment);
    let leader = lot.top_bid.map(|top| top.paddle);
    let mut standing: Vec<&AbsenteeBid> = book
        .iter()
        .filter(|entry| entry.lot == lot.number && entry.max >= asking)
        .filter(|entry| Some(entry.paddle) != leader)
        .collect();
    standing.sort_by(|a, b| b.max.cmp(&a.max).then(a.left.cmp(&b.left)));
    let winner = standing.first()?;
    let amount = match standing.get(1) {
        Some(runner_up) => competing_price(runner_up.max, winner.max, increment).max(asking),
        None => asking,
    };
    Some(Bid {
        paddle: winner.paddle,
        amount,
        absentee: true,
    })
}

/// The rules as first written, kept beside the ones above.
pub mod slipped {
    use super::super::model::{AbsenteeBid, Bid, Lot};
    use super::{BANDS, TOP_INCREMENT, competing_price, next_minimum};

    /// How much the next bid must add to `amount`.
    #[ranvier::trace_fn]
    pub fn increment(amount: u64) -> u64 {
        BANDS
            .iter()
            // BUG(band_edge)
            .find(|(below, _)| amount <= *below)
            .map_or(TOP_INCREMENT, |&(_, step)| step)
    }

    /// The bid the auctioneer places from `book` on `lot`, if one of its bids beats the asking price.
    #[ranvier::trace_fn]
    pub fn bid_from_book(
        book: &[AbsenteeBid],
        lot: &Lot,
        increment: fn(u64) -> u64,
    ) -> Option<Bid> {
        let asking = next_minimum(lot, increment);
        let leader = lot.top_bid.map(|top| top.paddle);
        let mut standing: Vec<&AbsenteeBid> = book
            .iter()
            .filter(|entry| entry.lot == lot.number && entry.max >= asking)
            .filter(|entry| Some(entry.paddle) != leader)
            .collect();
        standing.sort_by(|a, b| b.max.cmp(&a.max).then(a.left.cmp(&b.left)));
        let winner = standing.first()?;
        let amount = match standing.get(1) {
            // BUG(book_runner_up)
            Some(runner_up) => competing_price(winner.max, runner_up.max, increment).max(asking),
            None => asking,
        };
        Some(Bid {
            paddle: winner.paddle,
            amount,
            absentee: true,
        })
    }
}
