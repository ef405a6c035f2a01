//! Today's sailings as a keyed collection: one row per sailing with its load line (seats and deck left, the standby
//! list), and the views the terminal reads (the departures in the order they leave, the sailings still open for
//! booking, how many have a standby list).

use super::model::{Booking, Ferry, Msg, Voyage, clock, metres};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, Mvu, node};
use std::rc::Rc;

/// The sailings, keyed by id; each row has its load line.
pub type Departures = Collection<u32, Voyage, Memo<String>>;

/// What makes a row's load line, given how much lane a booking takes.
pub type RowFactory = fn(&Row<u32, Voyage>, fn(&Booking) -> u32) -> Memo<String>;

/// The departures over the terminal's voyages, each row made by `row` with `lane_cm`.
pub fn departures(
    voyages: &Memo<Vec<Voyage>>,
    row: RowFactory,
    lane_cm: fn(&Booking) -> u32,
) -> Departures {
    Collection::keyed(
        voyages.clone(),
        |voyage: &Voyage| voyage.sailing.id,
        move |item| row(item, lane_cm),
    )
}

/// A sailing's load line: `07:00 Oban→Craignure: 110 seats left, 51.0 m of deck left, 1 on standby`.
#[node]
#[allow(clippy::let_and_return)] // the `let` is what names the memo `load` in the trace
pub fn sailing_row(row: &Row<u32, Voyage>, lane_cm: fn(&Booking) -> u32) -> Memo<String> {
    let row = row.clone();
    let load = Memo::new(move |_| {
        row.with(|voyage| {
            let sailing = &voyage.sailing;
            if sailing.cancelled {
                return format!("{}: cancelled", sailing.title());
            }
            let (mut passengers, mut used_cm, mut standby) = (0, 0, 0);
            for booking in &voyage.bookings {
                if booking.standby {
                    standby += 1;
                } else {
                    passengers += booking.passengers();
                    used_cm += lane_cm(booking);
                }
            }
            let seats_left = sailing.seats.saturating_sub(passengers);
            let deck_left = (sailing.deck_m * 100).saturating_sub(used_cm);
            let mut line = sailing.title();
            if sailing.delay > 0 {
                line.push_str(&format!(", delayed to {}", clock(sailing.departs_at())));
            }
            match seats_left {
                0 => line.push_str(": full"),
                n => line.push_str(&format!(": {n} seats left")),
            }
            line.push_str(&format!(", {} of deck left", metres(deck_left)));
            if standby > 0 {
                line.push_str(&format!(", {standby} on standby"));
            }
            line
        })
    });
    load
}

/// The sailings in the order they leave (the timetable's order for two leaving together).
pub fn in_departure_order(departures: &Departures) -> Memo<Rc<[u32]>> {
    departures.sort_by(|voyage| (voyage.sailing.departs_at(), voyage.sailing.id))
}

/// The sailings a party can still be booked on without standby: not cancelled, with a seat left.
pub fn open_for_booking(departures: &Departures) -> Filter<u32> {
    departures.filter(|voyage| {
        let aboard: u32 = voyage
            .bookings
            .iter()
            .filter(|booking| !booking.standby)
            .map(Booking::passengers)
            .sum();
        !voyage.sailing.cancelled && aboard < voyage.sailing.seats
    })
}

/// How many sailings have a standby list.
pub fn with_standby(departures: &Departures) -> Memo<usize> {
    departures.count_by(|voyage| voyage.bookings.iter().any(|booking| booking.standby))
}

/// The rows' load lines, in `order`.
pub fn day_sheet(departures: &Departures, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (departures, order) = (departures.clone(), order.clone());
    Memo::new(move |_| {
        order
            .get()
            .iter()
            .filter_map(|id| departures.row(id))
            .map(|load| load.get())
            .collect()
    })
}

/// The titles of the sailings `keys` names, in the timetable's order.
pub fn titles(voyages: &Memo<Vec<Voyage>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (voyages, keys) = (voyages.clone(), keys.clone());
    Memo::new(move |_| {
        let keys = keys.get();
        voyages.with(|voyages| {
            voyages
                .iter()
                .filter(|voyage| keys.contains(&voyage.sailing.id))
                .map(|voyage| voyage.sailing.title())
                .collect()
        })
    })
}

/// Each standby booking, `09:15 Oban→Lismore: 1002 Lorn Scouts (12 adults)`, in the order booked.
pub fn standby_list(ferry: &Mvu<Ferry, Msg>) -> Memo<Vec<String>> {
    ferry.select(|ferry| {
        ferry
            .bookings
            .iter()
            .filter(|booking| booking.standby)
            .map(|booking| {
                let sailing = ferry
                    .sailing(booking.sailing)
                    .map(|sailing| sailing.title())
                    .unwrap_or_default();
                format!(
                    "{sailing}: {} {} ({})",
                    booking.reference,
                    booking.name,
                    booking.party()
                )
            })
            .collect()
    })
}

/// Copies of the departures' code with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Booking, Voyage, clock, metres};
    use super::Departures;
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::rc::Rc;

    /// [`super::sailing_row`].
    #[node]
    #[allow(clippy::let_and_return)] // the `let` is what names the memo `load` in the trace
    pub fn sailing_row(row: &Row<u32, Voyage>, lane_cm: fn(&Booking) -> u32) -> Memo<String> {
        let row = row.clone();
        let load = Memo::new(move |_| {
            row.with(|voyage| {
                let sailing = &voyage.sailing;
                if sailing.cancelled {
                    return format!("{}: cancelled", sailing.title());
                }
                let (mut passengers, mut used_cm, mut standby) = (0, 0, 0);
                for booking in &voyage.bookings {
                    if booking.standby {
                        standby += 1;
                    } else {
                        passengers += booking.passengers();
                        used_cm += lane_cm(booking);
                    }
                }
                // BUG(seats_left)
                let seats_left = passengers.saturating_sub(sailing.seats);
                let deck_left = (sailing.deck_m * 100).saturating_sub(used_cm);
                let mut line = sailing.title();
                if sailing.delay > 0 {
                    line.push_str(&format!(", delayed to {}", clock(sailing.departs_at())));
                }
                match seats_left {
                    0 => line.push_str(": full"),
                    n => line.push_str(&format!(": {n} seats left")),
                }
                line.push_str(&format!(", {} of deck left", metres(deck_left)));
                if standby > 0 {
                    line.push_str(&format!(", {standby} on standby"));
                }
                line
            })
        });
        load
    }

    /// [`super::in_departure_order`].
    pub fn in_departure_order(departures: &Departures) -> Memo<Rc<[u32]>> {
        // BUG(board_order)
        departures.sort_by(|voyage| (voyage.sailing.departs, voyage.sailing.id))
    }
}
