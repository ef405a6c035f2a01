//! The tours as a keyed collection: each row's load (seats, waiting, takings), and views over the tours.

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, node};

use super::fares;
use super::model::Tour;

/// A tour's load.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct TourLoad {
    pub code: String,
    pub taken: u32,
    pub free: u32,
    pub percent: u32,
    pub waiting: usize,
    pub takings: u64,
}

/// The tours, one row per code, each with its load.
pub type Tours = Collection<String, Tour, Memo<TourLoad>>;

/// The load of one tour's row; `discount` is the group discount its fares give.
#[node]
pub fn tour_load(row: &Row<String, Tour>, discount: fn(u32) -> u64) -> Memo<TourLoad> {
    let row = row.clone();
    let load = Memo::new(move |_| {
        row.with(|tour| {
            let taken = tour.seats_taken();
            let free = tour.seats.saturating_sub(taken);
            let percent = (taken * 100).checked_div(tour.seats).unwrap_or(0);
            let takings = tour
                .booked
                .iter()
                .map(|booking| fares::booking_fare(tour, booking, discount))
                .sum();
            TourLoad {
                code: tour.code.clone(),
                taken,
                free,
                percent,
                waiting: tour.waiting.len(),
                takings,
            }
        })
    });
    load
}

/// Tours with no seat left.
#[node]
pub fn full_tours(tours: &Tours) -> Memo<usize> {
    let full = tours.filter(|tour| tour.seats_taken() >= tour.seats);
    let full_tours = full.count();
    full_tours
}

/// Tours of more than one day.
#[node]
pub fn multi_day(tours: &Tours) -> Memo<usize> {
    let multi_day = tours.count_by(|tour| tour.days > 1);
    multi_day
}

/// Tour codes in order of departure.
#[node]
pub fn departures(tours: &Tours) -> Memo<Vec<String>> {
    let order = tours.sort_by(|tour| tour.depart_day);
    let departures = Memo::new(move |_| order.get().to_vec());
    departures
}

/// Every tour's load, in list order.
#[node]
pub fn loads(tours: &Tours) -> Memo<Vec<TourLoad>> {
    let tours = tours.clone();
    let loads = Memo::new(move |_| tours.rows().iter().map(Memo::get).collect());
    loads
}

pub mod slipped {
    use super::*;

    /// `tour_load`, as first written.
    #[node]
    pub fn tour_load(row: &Row<String, Tour>, discount: fn(u32) -> u64) -> Memo<TourLoad> {
        let row = row.clone();
        let load = Memo::new(move |_| {
            row.with(|tour| {
                let taken = tour.seats_taken();
                let free = tour.seats.saturating_sub(taken);
                // BUG(load_percent)
                let percent = taken.checked_div(tour.seats).unwrap_or(0) * 100;
                let takings = tour
                    .booked
                    .iter()
                    .map(|booking| fares::booking_fare(tour, booking, discount))
                    .sum();
                TourLoad {
                    code: tour.code.clone(),
                    taken,
                    free,
                    percent,
                    waiting: tour.waiting.len(),
                    takings,
                }
            })
        });
        load
    }

    /// `full_tours`, as first written.
    #[node]
    pub fn full_tours(tours: &Tours) -> Memo<usize> {
        // BUG(full_filter)
        let full = tours.filter(|tour| tour.seats_taken() > tour.seats);
        let full_tours = full.count();
        full_tours
    }
}
