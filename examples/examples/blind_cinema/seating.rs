//! The seating chart: a keyed collection with one row per showing (`ranvier::collection`), each row with its
//! occupancy as a row memo, and views over the rows: seats sold, showings sold out, showings nearly full, and the
//! fullest showing.

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{BoxOffice, Msg, clock};

/// A showing with at least this share of its seats sold, percent, is nearly full.
pub const NEARLY_FULL_PERCENT: u32 = 90;

/// One row of the chart.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct SeatRow {
    /// The showing's code.
    pub id: String,
    /// The film.
    pub film: String,
    /// When it starts, minutes of the day.
    pub start: u32,
    /// Seats in the screen.
    pub seats: u32,
    /// Seats sold.
    pub sold: u32,
}

/// The chart's rows, in the order of the schedule.
pub fn rows_of(office: &BoxOffice) -> Vec<SeatRow> {
    office
        .showings
        .iter()
        .map(|show| SeatRow {
            id: show.id.clone(),
            film: show.film.clone(),
            start: show.start,
            seats: show.seats,
            sold: show.sold,
        })
        .collect()
}

/// The chart and its views.
pub struct Seating {
    /// One row per showing.
    pub showings: Collection<String, SeatRow, Memo<u32>>,
    /// Seats sold today.
    pub seats_sold: Memo<u32>,
    /// Showings sold out.
    pub sold_out: Memo<usize>,
    /// Showings nearly full.
    pub nearly_full: Memo<usize>,
    /// The showing with the most of its seats sold.
    pub fullest: Memo<String>,
}

/// The chart over `office`'s showings, as `slip` says.
#[node]
pub fn seating(office: &Mvu<BoxOffice, Msg>, slip: Slip) -> Seating {
    let rows = office.select(rows_of);
    let showings = match slip {
        Slip::OccupancyOrder => {
            Collection::keyed(rows, |row: &SeatRow| row.id.clone(), slipped::occupancy)
        }
        _ => Collection::keyed(rows, |row: &SeatRow| row.id.clone(), occupancy),
    };
    let seats_sold = showings.sum_by(|row| row.sold);
    let sold_out = showings.count_by(|row| row.sold == row.seats);
    let nearly_full = match slip {
        Slip::NearlyFullEdge => slipped::nearly_full(&showings),
        _ => nearly_full(&showings),
    };
    let fullest = fullest(&showings);
    Seating {
        showings,
        seats_sold,
        sold_out,
        nearly_full,
        fullest,
    }
}

/// A row's occupancy: the share of its seats sold, percent (rounded down).
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn occupancy(row: &Row<String, SeatRow>) -> Memo<u32> {
    let row = row.clone();
    let occupancy = Memo::new(move |_| {
        row.with(|show| {
            if show.seats == 0 {
                return 0;
            }
            show.sold * 100 / show.seats
        })
    });
    occupancy
}

/// How many showings have at least [`NEARLY_FULL_PERCENT`] of their seats sold.
pub fn nearly_full(showings: &Collection<String, SeatRow, Memo<u32>>) -> Memo<usize> {
    let nearly =
        showings.filter(|row| row.seats > 0 && row.sold * 100 / row.seats >= NEARLY_FULL_PERCENT);
    nearly.count()
}

/// The showing with the highest occupancy (the first on the chart on a tie), or "no seats sold yet".
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn fullest(showings: &Collection<String, SeatRow, Memo<u32>>) -> Memo<String> {
    let showings = showings.clone();
    let fullest = Memo::new(move |_| {
        let mut rows = Vec::new();
        showings.for_each(|id, show, occupancy| {
            rows.push((id.clone(), show.film.clone(), show.start, occupancy.clone()));
        });
        let mut best: Option<(String, u32)> = None;
        for (id, film, start, occupancy) in rows {
            let percent = occupancy.get();
            if percent == 0 {
                continue;
            }
            if best.as_ref().is_none_or(|(_, top)| percent > *top) {
                best = Some((format!("{id} {film} {}", clock(start)), percent));
            }
        }
        match best {
            Some((show, percent)) => format!("{show}: {percent} %"),
            None => "no seats sold yet".to_owned(),
        }
    });
    fullest
}

/// The chart with a mistake.
mod slipped {
    use ranvier::collection::{Collection, Row};
    use ranvier::{Memo, node};

    use super::{NEARLY_FULL_PERCENT, SeatRow};

    /// A row's occupancy, percent.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn occupancy(row: &Row<String, SeatRow>) -> Memo<u32> {
        let row = row.clone();
        let occupancy = Memo::new(move |_| {
            row.with(|show| {
                if show.seats == 0 {
                    return 0;
                }
                // BUG(occupancy_order)
                show.sold / show.seats * 100
            })
        });
        occupancy
    }

    /// How many showings are nearly full.
    pub fn nearly_full(showings: &Collection<String, SeatRow, Memo<u32>>) -> Memo<usize> {
        let nearly = showings.filter(|row| {
            // BUG(nearly_full_edge)
            row.seats > 0 && row.sold * 100 / row.seats > NEARLY_FULL_PERCENT
        });
        nearly.count()
    }
}
