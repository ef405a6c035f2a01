//! The bookings as a keyed collection: one row per booking with its line for the desk, and the views the office
//! reads (the bookings in pick-up order, the one-way hires, how many cars are out).

use super::model::{Booking, Status};
use super::update::HireDays;
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The bookings, keyed by number; each row has its line.
pub type Bookings = Collection<u32, Booking, Memo<String>>;

/// What a row factory makes, given the rule for the days charged.
pub type RowFactory = fn(&Row<u32, Booking>, HireDays) -> Memo<String>;

/// The collection over the office's bookings, each row made by `row`.
pub fn bookings(list: &Memo<Vec<Booking>>, row: RowFactory, hire_days: HireDays) -> Bookings {
    Collection::keyed(
        list.clone(),
        |booking: &Booking| booking.no,
        move |r| row(r, hire_days),
    )
}

/// A booking's row: `#1 Ada: compact, days 100–103 (3 days), York to Leeds, out with YK22 CCC`.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn booking_row(row: &Row<u32, Booking>, hire_days: HireDays) -> Memo<String> {
    let row = row.clone();
    let line = Memo::new(move |_| {
        row.with(|booking| {
            let days = hire_days(booking);
            let mut line = format!(
                "#{} {}: {}, days {}–{} ({} {})",
                booking.no,
                booking.customer,
                booking.class.name(),
                booking.pickup_day,
                booking.return_day,
                days,
                if days == 1 { "day" } else { "days" }
            );
            line.push_str(&format!(", {} to {}", booking.from, booking.to));
            let car = booking.car.as_deref().unwrap_or("no car");
            match booking.status {
                Status::Booked => line.push_str(", booked"),
                Status::Out => line.push_str(&format!(", out with {car}")),
                Status::Returned => line.push_str(&format!(", {car} returned")),
            }
            line
        })
    });
    line
}

/// The bookings in the order they are collected.
pub fn by_pickup(bookings: &Bookings) -> Memo<Rc<[u32]>> {
    bookings.sort_by(|booking| (booking.pickup_day, booking.no))
}

/// The hires left at another branch.
pub fn one_way(bookings: &Bookings) -> Filter<u32> {
    bookings.filter(|booking| booking.from != booking.to)
}

/// How many cars are out on hire.
pub fn on_hire(bookings: &Bookings) -> Memo<usize> {
    bookings.count_by(|booking| booking.car.is_some() && booking.status == Status::Out)
}

/// The rows' lines, in booking order.
pub fn booking_lines(bookings: &Bookings, list: &Memo<Vec<Booking>>) -> Memo<Vec<String>> {
    let (bookings, list) = (bookings.clone(), list.clone());
    Memo::new(move |_| {
        let nos: Vec<u32> = list.with(|list| list.iter().map(|b| b.no).collect());
        nos.iter()
            .filter_map(|no| bookings.row(no))
            .map(|line| line.get())
            .collect()
    })
}

/// `#no customer: day N` for the bookings `keys` names, in that order.
pub fn listed(list: &Memo<Vec<Booking>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, keys) = (list.clone(), keys.clone());
    Memo::new(move |_| {
        let keys = keys.get();
        list.with(|list| {
            keys.iter()
                .filter_map(|no| list.iter().find(|b| b.no == *no))
                .map(|b| {
                    format!(
                        "#{} {}: day {}, {} to {}",
                        b.no, b.customer, b.pickup_day, b.from, b.to
                    )
                })
                .collect()
        })
    })
}

/// Copies of the collection's code with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Booking, Status};
    use super::super::update::HireDays;
    use super::Bookings;
    use ranvier::collection::Row;
    use ranvier::{Memo, node};

    /// A booking's row: `#1 Ada: compact, days 100–103 (3 days), York to Leeds, out with YK22 CCC`.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn booking_row(row: &Row<u32, Booking>, hire_days: HireDays) -> Memo<String> {
        let row = row.clone();
        let line = Memo::new(move |_| {
            row.with(|booking| {
                let days = hire_days(booking);
                let mut line = format!(
                    "#{} {}: {}, days {}–{} ({} {})",
                    booking.no,
                    booking.customer,
                    booking.class.name(),
                    // BUG(row_days)
                    booking.return_day,
                    booking.pickup_day,
                    days,
                    if days == 1 { "day" } else { "days" }
                );
                line.push_str(&format!(", {} to {}", booking.from, booking.to));
                let car = booking.car.as_deref().unwrap_or("no car");
                match booking.status {
                    Status::Booked => line.push_str(", booked"),
                    Status::Out => line.push_str(&format!(", out with {car}")),
                    Status::Returned => line.push_str(&format!(", {car} returned")),
                }
                line
            })
        });
        line
    }

    /// How many cars are out on hire.
    pub fn on_hire(bookings: &Bookings) -> Memo<usize> {
        // BUG(on_hire)
        bookings.count_by(|booking| booking.car.is_some())
    }
}
