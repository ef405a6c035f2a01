//! The bookings as a keyed collection: one row per booking number, each with its line in the appointment book (a row
//! memo), and the views the front desk reads: the appointments in time order, how many are still to come, the
//! no-shows.
#![allow(clippy::let_and_return)] // `#[node]` names each node after the `let` that binds it

use super::model::{Booking, Status, pounds, weekday_name};
use super::pricing::no_show_fee;
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The bookings, keyed by number; each row's figure is its `line`.
pub type Bookings = Collection<u32, Booking, (&'static str, Memo<String>)>;

/// What makes a booking's row.
pub type RowFactory = fn(&Row<u32, Booking>) -> (&'static str, Memo<String>);

/// A booking's line: who, with whom, what, when, the price and what is still to pay.
#[node]
pub fn booking_row(row: &Row<u32, Booking>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let line = Memo::new(move |_| {
        row.with(|b| {
            let state = match b.status {
                Status::Booked => format!("due {}", pounds(b.price - b.deposit)),
                Status::Done => "paid".to_owned(),
                Status::Cancelled if b.refunded => "cancelled, deposit refunded".to_owned(),
                Status::Cancelled => "cancelled, deposit kept".to_owned(),
                Status::NoShow => format!("no-show, fee {}", pounds(no_show_fee(b.price))),
            };
            format!(
                "booking {}, {} with {}: {} ({}), {} day {} at {}:00, {}, deposit {}, {state}",
                b.no,
                b.client,
                b.stylist,
                b.service.name(),
                b.length.name(),
                weekday_name(b.day),
                b.day,
                b.hour,
                pounds(b.price),
                pounds(b.deposit)
            )
        })
    });
    ("line", line)
}

/// The bookings' collection over the list of bookings.
#[node]
pub fn bookings(list: &Memo<Vec<Booking>>, row: RowFactory) -> Bookings {
    let bookings = Collection::keyed(list.clone(), |b: &Booking| b.no, row);
    bookings
}

/// The booking numbers in time order: by day, then hour.
pub fn by_time(bookings: &Bookings) -> Memo<Rc<[u32]>> {
    bookings.sort_by(|b| (b.day, b.hour))
}

/// The appointments still to come, in time order, each its row's line.
#[node]
pub fn appointment_book(bookings: &Bookings, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let book = Memo::new({
        let (bookings, order) = (bookings.clone(), order.clone());
        move |_| {
            let order = order.get();
            let mut lines = Vec::new();
            for no in order.iter() {
                let Some((_, line)) = bookings.row(no) else {
                    continue;
                };
                let booked = bookings
                    .items()
                    .iter()
                    .any(|b| b.no == *no && b.status == Status::Booked);
                if booked {
                    lines.push(line.get());
                }
            }
            lines
        }
    });
    book
}

/// How many appointments are still to come.
pub fn still_booked(bookings: &Bookings) -> Memo<usize> {
    bookings.count_by(|b| b.status == Status::Booked)
}

/// The no-shows, each its row's line.
#[node]
pub fn no_shows(bookings: &Bookings) -> Memo<Vec<String>> {
    let missed = bookings.filter(|b| b.status == Status::NoShow).keys();
    let list = Memo::new({
        let bookings = bookings.clone();
        move |_| {
            missed
                .get()
                .iter()
                .filter_map(|no| bookings.row(no).map(|(_, line)| line.get()))
                .collect()
        }
    });
    list
}

pub mod slipped {
    use super::super::model::{Booking, Status, pounds, weekday_name};
    use super::super::pricing::no_show_fee;
    use super::Bookings;
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::rc::Rc;

    /// [`super::booking_row`], with the mistake.
    #[node]
    pub fn booking_row(row: &Row<u32, Booking>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let line = Memo::new(move |_| {
            row.with(|b| {
                let state = match b.status {
                    // BUG(row_due)
                    Status::Booked => format!("due {}", pounds(b.price)),
                    Status::Done => "paid".to_owned(),
                    Status::Cancelled if b.refunded => "cancelled, deposit refunded".to_owned(),
                    Status::Cancelled => "cancelled, deposit kept".to_owned(),
                    Status::NoShow => format!("no-show, fee {}", pounds(no_show_fee(b.price))),
                };
                format!(
                    "booking {}, {} with {}: {} ({}), {} day {} at {}:00, {}, deposit {}, {state}",
                    b.no,
                    b.client,
                    b.stylist,
                    b.service.name(),
                    b.length.name(),
                    weekday_name(b.day),
                    b.day,
                    b.hour,
                    pounds(b.price),
                    pounds(b.deposit)
                )
            })
        });
        ("line", line)
    }

    /// [`super::by_time`], with the mistake.
    pub fn by_time(bookings: &Bookings) -> Memo<Rc<[u32]>> {
        // BUG(by_time)
        bookings.sort_by(|b| (b.hour, b.day))
    }
}
