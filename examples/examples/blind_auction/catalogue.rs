//! The catalogue as the saleroom screens show it: a keyed collection of the lots (one row per lot number, each with
//! its screen line as a row memo), and the views over it: the lots sold, the top lots, the takings.

use super::bidding::next_minimum;
use super::model::{Lot, LotStatus, clock_text, euros};
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, node};
use std::cmp::Reverse;
use std::rc::Rc;

/// The lots, keyed by number; each row's figure is its screen line.
pub type Lots = Collection<u32, Lot, (&'static str, Memo<String>)>;

/// How a row's factory is called: the row, and the increment the asking price is worked out with.
pub type RowFactory = fn(&Row<u32, Lot>, fn(u64) -> u64) -> (&'static str, Memo<String>);

/// A lot's screen line: what it is, its estimate, and where the bidding stands (the row memo `line`).
#[node]
pub fn lot_row(row: &Row<u32, Lot>, increment: fn(u64) -> u64) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let line = Memo::new(move |_| {
        row.with(|lot| {
            let head = format!(
                "Lot {} {}, est. {}–{}",
                lot.number,
                lot.title,
                euros(lot.low),
                euros(lot.high)
            );
            let against = match lot.top_bid {
                Some(top) if top.amount > lot.high => " (above estimate)",
                Some(top) if top.amount < lot.low => " (below estimate)",
                Some(_) => " (within estimate)",
                None => "",
            };
            let closes = lot
                .closes_at
                .map(|at| format!(", closes {}", clock_text(at)))
                .unwrap_or_default();
            let state = match (&lot.status, lot.top_bid) {
                (LotStatus::Upcoming, _) => format!("opens at {}", euros(lot.opening())),
                (LotStatus::Open, None) => format!("asking {}{closes}", euros(lot.opening())),
                (LotStatus::Open, Some(top)) => format!(
                    "{} with paddle {}{against}, asking {}{closes}",
                    euros(top.amount),
                    top.paddle,
                    euros(next_minimum(lot, increment))
                ),
                (LotStatus::Sold { paddle, hammer }, _) => {
                    format!("sold for {} to paddle {paddle}{against}", euros(*hammer))
                }
                (LotStatus::Passed, _) => "bought in".to_owned(),
                (LotStatus::Withdrawn, _) => "withdrawn".to_owned(),
            };
            format!("{head}: {state}")
        })
    });
    ("line", line)
}

/// The lot numbers, the highest bid first.
pub fn by_top_bid(lots: &Lots) -> Memo<Rc<[u32]>> {
    lots.sort_by(|lot| Reverse(lot.top_amount()))
}

/// The three lots bid highest so far, from the order `by_top_bid` keeps.
pub fn top_lots(lots: &Lots, order: Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let lots = lots.clone();
    Memo::new(move |_| {
        let items = lots.items();
        order
            .get()
            .iter()
            .filter_map(|number| items.iter().find(|lot| lot.number == *number))
            .filter(|lot| lot.top_bid.is_some())
            .take(3)
            .map(|lot| {
                format!(
                    "Lot {} {}: {}",
                    lot.number,
                    lot.title,
                    euros(lot.top_amount())
                )
            })
            .collect()
    })
}

/// The lots sold, in catalogue order, with their buyers.
pub fn results(lots: &Lots) -> Memo<Vec<String>> {
    let sold = lots.filter(|lot| lot.sold().is_some()).keys();
    let lots = lots.clone();
    Memo::new(move |_| {
        let items = lots.items();
        let mut lines = Vec::new();
        for number in sold.get().iter() {
            if let Some(lot) = items.iter().find(|lot| lot.number == *number)
                && let Some((paddle, hammer)) = lot.sold()
            {
                lines.push(format!(
                    "Lot {number} {}: sold for {} to paddle {paddle}",
                    lot.title,
                    euros(hammer)
                ));
            }
        }
        lines
    })
}

/// The hammer prices so far, in euros.
pub fn takings(lots: &Lots) -> Memo<u64> {
    lots.sum_by(|lot| lot.sold().map_or(0, |(_, hammer)| hammer))
}

/// How many lots were bought in.
pub fn bought_in(lots: &Lots) -> Memo<usize> {
    lots.count_by(|lot| lot.status == LotStatus::Passed)
}

/// The rows and views as first written, kept beside the ones above.
pub mod slipped {
    use super::super::bidding::next_minimum;
    use super::super::model::{Lot, LotStatus, clock_text, euros};
    use super::Lots;
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::cmp::Reverse;
    use std::rc::Rc;

    /// A lot's screen line: what it is, its estimate, and where the bidding stands (the row memo `line`).
    #[node]
    pub fn lot_row(row: &Row<u32, Lot>, increment: fn(u64) -> u64) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let line = Memo::new(move |_| {
            row.with(|lot| {
                let head = format!(
                    "Lot {} {}, est. {}–{}",
                    lot.number,
                    lot.title,
                    euros(lot.low),
                    euros(lot.high)
                );
                let against = match lot.top_bid {
                    // BUG(estimate_above)
                    Some(top) if top.amount > lot.low => " (above estimate)",
                    Some(top) if top.amount < lot.low => " (below estimate)",
                    Some(_) => " (within estimate)",
                    None => "",
                };
                let closes = lot
                    .closes_at
                    .map(|at| format!(", closes {}", clock_text(at)))
                    .unwrap_or_default();
                let state = match (&lot.status, lot.top_bid) {
                    (LotStatus::Upcoming, _) => format!("opens at {}", euros(lot.opening())),
                    (LotStatus::Open, None) => format!("asking {}{closes}", euros(lot.opening())),
                    (LotStatus::Open, Some(top)) => format!(
                        "{} with paddle {}{against}, asking {}{closes}",
                        euros(top.amount),
                        top.paddle,
                        euros(next_minimum(lot, increment))
                    ),
                    (LotStatus::Sold { paddle, hammer }, _) => {
                        format!("sold for {} to paddle {paddle}{against}", euros(*hammer))
                    }
                    (LotStatus::Passed, _) => "bought in".to_owned(),
                    (LotStatus::Withdrawn, _) => "withdrawn".to_owned(),
                };
                format!("{head}: {state}")
            })
        });
        ("line", line)
    }

    /// The lot numbers, the highest bid first.
    pub fn by_top_bid(lots: &Lots) -> Memo<Rc<[u32]>> {
        // BUG(top_by_count)
        lots.sort_by(|lot| Reverse(lot.bids))
    }
}
