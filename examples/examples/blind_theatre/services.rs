//! What the box office learns over the network, as async memos: each performance's card takings as the acquirer
//! settles them, and the royalties owed on each show at the rates the rights agency sets.

use super::accounts;
use super::model::{Booking, Performance, State, pounds};
use super::remote::{Acquirer, Agency};
use ranvier::{AsyncMemo, Memo};
use std::collections::BTreeMap;
use std::rc::Rc;

fn payments(n: usize) -> String {
    if n == 1 {
        "1 card payment".to_owned()
    } else {
        format!("{n} card payments")
    }
}

/// `12.50%` of basis points.
fn percent(bp: u32) -> String {
    format!("{}.{:02}%", bp / 100, bp % 100)
}

/// The titles of the performances, by id.
fn titles(performances: &Memo<Vec<Performance>>) -> BTreeMap<u32, String> {
    performances.with(|performances| {
        performances
            .iter()
            .map(|perf| (perf.id, perf.title()))
            .collect()
    })
}

/// Each performance's card payments (tickets and fees of the bookings standing), as the acquirer settles them.
pub fn settlements(
    bookings: &Memo<Vec<Booking>>,
    performances: &Memo<Vec<Performance>>,
    acquirer: Rc<Acquirer>,
) -> AsyncMemo<Vec<String>> {
    let (bookings, performances) = (bookings.clone(), performances.clone());
    AsyncMemo::new(move |_| {
        let titles = titles(&performances);
        let mut batches: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        bookings.with(|bookings| {
            for booking in bookings.iter().filter(|b| b.state == State::Booked) {
                batches
                    .entry(booking.perf)
                    .or_default()
                    .push(booking.paid + booking.fee);
            }
        });
        let acquirer = acquirer.clone();
        async move {
            let mut lines = Vec::new();
            for (perf, batch) in batches {
                let title = titles.get(&perf).cloned().unwrap_or_default();
                match acquirer.settle(perf, batch).await {
                    Ok(settled) => lines.push(format!(
                        "{title}: {}, {} less {} charges",
                        payments(settled.payments),
                        pounds(settled.gross),
                        pounds(settled.charges)
                    )),
                    Err(why) => lines.push(format!("{title}: not settled, {why}")),
                }
            }
            lines
        }
    })
}

/// The royalties owed on each show's net receipts this week, at the rate its licence sets.
pub fn royalties(
    bookings: &Memo<Vec<Booking>>,
    performances: &Memo<Vec<Performance>>,
    agency: Rc<Agency>,
    net_of_vat: fn(u32) -> u32,
) -> AsyncMemo<Vec<String>> {
    let (bookings, performances) = (bookings.clone(), performances.clone());
    AsyncMemo::new(move |_| {
        let shows: BTreeMap<u32, String> = performances.with(|performances| {
            performances
                .iter()
                .map(|perf| (perf.id, perf.show.clone()))
                .collect()
        });
        let mut receipts: BTreeMap<String, u32> = BTreeMap::new();
        bookings.with(|bookings| {
            for booking in bookings {
                let show = shows.get(&booking.perf).cloned().unwrap_or_default();
                *receipts.entry(show).or_default() += accounts::receipts(booking);
            }
        });
        let agency = agency.clone();
        async move {
            let mut lines = Vec::new();
            for (show, gross) in receipts {
                let net = net_of_vat(gross);
                match agency.licence(&show).await {
                    Ok(licence) => {
                        let owed = net * licence.rate_bp / 10_000;
                        lines.push(format!(
                            "{show}: {} to {} on {} net: {}",
                            percent(licence.rate_bp),
                            licence.holder,
                            pounds(net),
                            pounds(owed)
                        ));
                    }
                    Err(why) => lines.push(format!("{show}: no royalty, {why}")),
                }
            }
            lines
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::accounts;
    use super::super::model::{Booking, Performance, State, pounds};
    use super::super::remote::{Acquirer, Agency};
    use super::{payments, percent, titles};
    use ranvier::{AsyncMemo, Memo};
    use std::collections::BTreeMap;
    use std::rc::Rc;

    /// [`super::settlements`].
    pub fn settlements(
        bookings: &Memo<Vec<Booking>>,
        performances: &Memo<Vec<Performance>>,
        acquirer: Rc<Acquirer>,
    ) -> AsyncMemo<Vec<String>> {
        let (bookings, performances) = (bookings.clone(), performances.clone());
        AsyncMemo::new(move |_| {
            let titles = titles(&performances);
            let mut batches: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
            bookings.with(|bookings| {
                for booking in bookings.iter().filter(|b| b.state == State::Booked) {
                    batches
                        .entry(booking.perf)
                        .or_default()
                        .push(booking.paid + booking.fee);
                }
            });
            let acquirer = acquirer.clone();
            async move {
                let mut lines = Vec::new();
                for (perf, batch) in batches {
                    let title = titles.get(&perf).cloned().unwrap_or_default();
                    match acquirer.settle(perf, batch).await {
                        Ok(settled) => lines.push(format!(
                            "{title}: {}, {} less {} charges",
                            payments(settled.payments),
                            pounds(settled.gross),
                            pounds(settled.charges)
                        )),
                        Err(why) => {
                            lines.push(format!("{title}: not settled, {why}"));
                            // BUG(held_batch)
                            break;
                        }
                    }
                }
                lines
            }
        })
    }

    /// [`super::royalties`].
    pub fn royalties(
        bookings: &Memo<Vec<Booking>>,
        performances: &Memo<Vec<Performance>>,
        agency: Rc<Agency>,
        net_of_vat: fn(u32) -> u32,
    ) -> AsyncMemo<Vec<String>> {
        let (bookings, performances) = (bookings.clone(), performances.clone());
        AsyncMemo::new(move |_| {
            let shows: BTreeMap<u32, String> = performances.with(|performances| {
                performances
                    .iter()
                    .map(|perf| (perf.id, perf.show.clone()))
                    .collect()
            });
            let mut receipts: BTreeMap<String, u32> = BTreeMap::new();
            bookings.with(|bookings| {
                for booking in bookings {
                    let show = shows.get(&booking.perf).cloned().unwrap_or_default();
                    *receipts.entry(show).or_default() += accounts::receipts(booking);
                }
            });
            let agency = agency.clone();
            async move {
                let mut lines = Vec::new();
                for (show, gross) in receipts {
                    let net = net_of_vat(gross);
                    match agency.licence(&show).await {
                        Ok(licence) => {
                            // BUG(royalty_rate)
                            let owed = net * licence.rate_bp / 100;
                            lines.push(format!(
                                "{show}: {} to {} on {} net: {}",
                                percent(licence.rate_bp),
                                licence.holder,
                                pounds(net),
                                pounds(owed)
                            ));
                        }
                        Err(why) => lines.push(format!("{show}: no royalty, {why}")),
                    }
                }
                lines
            }
        })
    }
}
