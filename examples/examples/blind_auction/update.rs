//! The sale's `update`: the rostrum's and the desk's messages, and the commands they send (the auctioneer bidding
//! from the book after a lot opens or takes a bid, and the timed lots closing as the clock passes their time).

use super::bidding;
use super::model::{AbsenteeBid, Bid, Bidder, Lot, LotStatus, Msg, Sale, euros, terms};

/// How the next bid over an amount is stepped.
pub type Increment = fn(u64) -> u64;

/// The rules `update` works with, chosen when the sale is built.
#[derive(Clone, Copy)]
pub struct House {
    /// The bidding increment over an amount.
    pub increment: Increment,
    /// The bid the auctioneer places from the absentee book.
    pub from_book: fn(&[AbsenteeBid], &Lot, Increment) -> Option<Bid>,
    /// What a paddle has committed: lots won and lots it leads.
    pub committed: fn(&Sale, u32) -> u64,
    /// Takes a bid on a lot; returns the commands it sends.
    pub place_bid: fn(&mut Sale, u32, Bid, &House) -> Vec<Msg>,
}

/// The sale after `msg`, and the commands to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, sale: &Sale, house: &House) -> (Sale, Vec<Msg>) {
    let mut next = sale.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Consign {
            title,
            consignor,
            reserve,
            low,
            high,
            closes_at,
            grams,
        } => {
            let number = u32::try_from(next.lots.len()).unwrap_or(u32::MAX) + 1;
            next.lots.push(Lot {
                number,
                title,
                consignor,
                reserve,
                low,
                high,
                closes_at,
                grams,
                top_bid: None,
                bids: 0,
                status: if closes_at.is_some() {
                    LotStatus::Open
                } else {
                    LotStatus::Upcoming
                },
            });
        }
        Msg::Register {
            name,
            country,
            credit_limit,
            card,
        } => {
            let paddle = next.next_paddle;
            next.next_paddle += 1;
            next.bidders.push(Bidder {
                paddle,
                name,
                country,
                credit_limit,
                card,
            });
        }
        Msg::LeaveBid { paddle, lot, max } => {
            if let Some(command) = leave_bid(&mut next, paddle, lot, max) {
                commands.push(command);
            }
        }
        Msg::Open { lot } => match next.lot_mut(lot) {
            Some(entry) if entry.status == LotStatus::Upcoming => {
                entry.status = LotStatus::Open;
                commands.push(Msg::ExecuteBook { lot });
            }
            _ => next.note(format!("lot {lot} cannot be opened")),
        },
        Msg::Bid {
            paddle,
            lot,
            amount,
        } => {
            let bid = Bid {
                paddle,
                amount,
                absentee: false,
            };
            commands = (house.place_bid)(&mut next, lot, bid, house);
        }
        Msg::ExecuteBook { lot } => {
            let book_bid = next
                .lot(lot)
                .filter(|entry| entry.is_open())
                .and_then(|entry| (house.from_book)(&next.book, entry, house.increment));
            if let Some(bid) = book_bid
                && let Some(entry) = next.lot_mut(lot)
            {
                entry.top_bid = Some(bid);
                entry.bids += 1;
            }
        }
        Msg::Hammer { lot } => {
            if next.lot(lot).is_some_and(|entry| entry.closes_at.is_none()) {
                knock_down(&mut next, lot);
            } else {
                next.note(format!("lot {lot} is not sold from the rostrum"));
            }
        }
        Msg::Close { lot } => knock_down(&mut next, lot),
        Msg::Withdraw { lot } => withdraw(&mut next, lot),
        Msg::Tick { minutes } => {
            next.clock += minutes;
            let now = next.clock;
            commands.extend(
                next.lots
                    .iter()
                    .filter(|entry| entry.is_open())
                    .filter(|entry| entry.closes_at.is_some_and(|at| at <= now))
                    .map(|entry| Msg::Close { lot: entry.number }),
            );
        }
    }
    (next, commands)
}

/// What `paddle` has committed: the hammer prices of the lots it won, and its leading bids on open lots.
#[ranvier::trace_fn]
pub fn committed(sale: &Sale, paddle: u32) -> u64 {
    sale.lots
        .iter()
        .map(|lot| match (&lot.status, lot.top_bid) {
            (
                LotStatus::Sold {
                    paddle: buyer,
                    hammer,
                },
                _,
            ) if *buyer == paddle => *hammer,
            (LotStatus::Open, Some(top)) if top.paddle == paddle => top.amount,
            _ => 0,
        })
        .sum()
}

/// Takes `bid` on lot `number` when the lot is open, the bid reaches the asking price, the bidder does not already
/// lead and stays within their credit; a bid in a timed lot's last minutes moves its close. The auctioneer then
/// answers from the book.
#[ranvier::trace_fn]
pub fn place_bid(sale: &mut Sale, number: u32, bid: Bid, house: &House) -> Vec<Msg> {
    let Some(limit) = sale.bidder(bid.paddle).map(|bidder| bidder.credit_limit) else {
        sale.note(format!("paddle {} is not registered", bid.paddle));
        return Vec::new();
    };
    let committed = (house.committed)(sale, bid.paddle);
    let now = sale.clock;
    let Some(lot) = sale.lot_mut(number).filter(|lot| lot.is_open()) else {
        sale.note(format!("lot {number} is not taking bids"));
        return Vec::new();
    };
    let asking = bidding::next_minimum(lot, house.increment);
    let refusal = if bid.amount < asking {
        Some(format!("asking {}", euros(asking)))
    } else if lot.top_bid.is_some_and(|top| top.paddle == bid.paddle) {
        Some("already leading".to_owned())
    } else if committed + bid.amount > limit {
        Some(format!("over the credit limit of {}", euros(limit)))
    } else {
        None
    };
    if let Some(why) = refusal {
        let text = format!(
            "lot {number}: {} from paddle {} refused, {why}",
            euros(bid.amount),
            bid.paddle
        );
        sale.note(text);
        return Vec::new();
    }
    lot.top_bid = Some(bid);
    lot.bids += 1;
    if let Some(closes) = lot.closes_at
        && closes.saturating_sub(now) <= terms::SOFT_CLOSE_MINUTES
    {
        let extended = now + terms::SOFT_CLOSE_MINUTES;
        lot.closes_at = Some(extended);
        sale.note(format!(
            "lot {number} extended to {}",
            super::model::clock_text(extended)
        ));
    }
    vec![Msg::ExecuteBook { lot: number }]
}

/// Records an absentee bid; on a lot already open the auctioneer bids from it at once.
#[ranvier::trace_fn]
fn leave_bid(sale: &mut Sale, paddle: u32, number: u32, max: u64) -> Option<Msg> {
    if sale.bidder(paddle).is_none() {
        sale.note(format!("paddle {paddle} is not registered"));
        return None;
    }
    let status = sale.lot(number).map(|lot| lot.status.clone());
    match status {
        Some(LotStatus::Upcoming | LotStatus::Open) => {
            let left = u32::try_from(sale.book.len()).unwrap_or(u32::MAX);
            sale.book.push(AbsenteeBid {
                lot: number,
                paddle,
                max,
                left,
            });
            (status == Some(LotStatus::Open)).then_some(Msg::ExecuteBook { lot: number })
        }
        _ => {
            sale.note(format!("lot {number} takes no absentee bids"));
            None
        }
    }
}

/// Knocks lot `number` down to its leading bid when that meets the reserve, else buys it in; its book is closed.
#[ranvier::trace_fn]
fn knock_down(sale: &mut Sale, number: u32) {
    let Some(lot) = sale.lot_mut(number).filter(|lot| lot.is_open()) else {
        return;
    };
    let text = match lot.top_bid {
        Some(top) if bidding::reserve_met(lot, top.amount) => {
            lot.status = LotStatus::Sold {
                paddle: top.paddle,
                hammer: top.amount,
            };
            format!(
                "lot {number} sold to paddle {} for {}",
                top.paddle,
                euros(top.amount)
            )
        }
        _ => {
            lot.status = LotStatus::Passed;
            format!("lot {number} bought in")
        }
    };
    sale.note(text);
    sale.book.retain(|entry| entry.lot != number);
}

/// Takes lot `number` out of the sale, with its absentee bids, unless it is already sold or bought in.
#[ranvier::trace_fn]
fn withdraw(sale: &mut Sale, number: u32) {
    match sale.lot_mut(number) {
        Some(lot) if matches!(lot.status, LotStatus::Upcoming | LotStatus::Open) => {
            lot.status = LotStatus::Withdrawn;
            lot.top_bid = None;
            sale.book.retain(|entry| entry.lot != number);
            sale.note(format!("lot {number} withdrawn"));
        }
        _ => sale.note(format!("lot {number} cannot be withdrawn")),
    }
}

/// The helpers as first written, kept beside the ones above.
pub mod slipped {
    use super::super::bidding;
    use super::super::model::{Bid, LotStatus, Msg, Sale, euros, terms};
    use super::House;

    /// What `paddle` has committed: the hammer prices of the lots it won, and its leading bids on open lots.
    #[ranvier::trace_fn]
    pub fn committed(sale: &Sale, paddle: u32) -> u64 {
        sale.lots
            .iter()
            .map(|lot| match (&lot.status, lot.top_bid) {
                // BUG(credit_others)
                (LotStatus::Sold { hammer, .. }, _) => *hammer,
                (LotStatus::Open, Some(top)) if top.paddle == paddle => top.amount,
                _ => 0,
            })
            .sum()
    }

    /// Takes `bid` on lot `number` when the lot is open, the bid reaches the asking price, the bidder does not
    /// already lead and stays within their credit; a bid in a timed lot's last minutes moves its close.
    #[ranvier::trace_fn]
    pub fn place_bid(sale: &mut Sale, number: u32, bid: Bid, house: &House) -> Vec<Msg> {
        let Some(limit) = sale.bidder(bid.paddle).map(|bidder| bidder.credit_limit) else {
            sale.note(format!("paddle {} is not registered", bid.paddle));
            return Vec::new();
        };
        let committed = (house.committed)(sale, bid.paddle);
        let now = sale.clock;
        let Some(lot) = sale.lot_mut(number).filter(|lot| lot.is_open()) else {
            sale.note(format!("lot {number} is not taking bids"));
            return Vec::new();
        };
        let asking = bidding::next_minimum(lot, house.increment);
        let refusal = if bid.amount < asking {
            Some(format!("asking {}", euros(asking)))
        } else if lot.top_bid.is_some_and(|top| top.paddle == bid.paddle) {
            Some("already leading".to_owned())
        } else if committed + bid.amount > limit {
            Some(format!("over the credit limit of {}", euros(limit)))
        } else {
            None
        };
        if let Some(why) = refusal {
            let text = format!(
                "lot {number}: {} from paddle {} refused, {why}",
                euros(bid.amount),
                bid.paddle
            );
            sale.note(text);
            return Vec::new();
        }
        lot.top_bid = Some(bid);
        lot.bids += 1;
        if let Some(closes) = lot.closes_at
            && closes.saturating_sub(now) <= terms::SOFT_CLOSE_MINUTES
        {
            let extended = now + terms::SOFT_CLOSE_MINUTES;
            lot.closes_at = Some(extended);
            sale.note(format!(
                "lot {number} extended to {}",
                super::super::model::clock_text(extended)
            ));
            // BUG(soft_close_book)
            return Vec::new();
        }
        vec![Msg::ExecuteBook { lot: number }]
    }
}
