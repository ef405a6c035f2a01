//! Housekeeping's board: a keyed collection with one row per room (`ranvier::collection`), each row with the
//! minutes its cleaning takes as a row memo, and views over the rows: the rooms ready to sell, the route through the
//! rooms to clean, and the work left.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{Hotel, Msg, Status};

/// Cleaning a room a guest left, before its beds.
pub const CHECKOUT_MINUTES: u32 = 20;
/// Making one bed.
pub const BED_MINUTES: u32 = 10;
/// A suite's sitting room and second bathroom, on top.
pub const SUITE_EXTRA_MINUTES: u32 = 15;
/// Tidying a room a guest is staying on in.
pub const STAYOVER_MINUTES: u32 = 10;

/// One row of the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct RoomRow {
    /// The room's number.
    pub number: u32,
    /// Its kind.
    pub kind: String,
    /// Its floor.
    pub floor: u32,
    /// Beds to make.
    pub beds: u32,
    /// Where it stands.
    pub status: Status,
    /// Out of service.
    pub out_of_order: bool,
}

/// The board's rows, in the order the rooms opened.
pub fn rows_of(hotel: &Hotel) -> Vec<RoomRow> {
    hotel
        .rooms
        .iter()
        .map(|room| RoomRow {
            number: room.number,
            kind: room.kind.clone(),
            floor: room.floor,
            beds: room.beds,
            status: room.status,
            out_of_order: room.out_of_order,
        })
        .collect()
}

/// The board and its views.
pub struct Housekeeping {
    /// One row per room.
    pub rooms: Collection<u32, RoomRow, Memo<u32>>,
    /// Rooms ready to sell.
    pub ready: Memo<usize>,
    /// The rooms to clean, in the order to clean them.
    pub route: Memo<Vec<String>>,
    /// The work left.
    pub workload: Memo<String>,
}

/// The board over `desk`'s rooms, as `slip` says.
#[node]
pub fn housekeeping(desk: &Mvu<Hotel, Msg>, slip: Slip) -> Housekeeping {
    let rows = desk.select(rows_of);
    let rooms = match slip {
        Slip::MinutesFloor => Collection::keyed(rows, |row: &RoomRow| row.number, slipped::minutes),
        _ => Collection::keyed(rows, |row: &RoomRow| row.number, minutes),
    };
    let ready = match slip {
        Slip::ReadyRooms => slipped::ready(&rooms),
        _ => ready(&rooms),
    };
    let order = match slip {
        Slip::RouteOrder => slipped::route_order(&rooms),
        _ => route_order(&rooms),
    };
    let route = route(&rooms, order);
    let workload = workload(&rooms);
    Housekeeping {
        rooms,
        ready,
        route,
        workload,
    }
}

/// The minutes a room's cleaning takes: a room a guest left is cleaned and its beds made (a suite takes longer), a
/// room a guest stays on in is tidied, a clean room or one out of service takes none.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn minutes(row: &Row<u32, RoomRow>) -> Memo<u32> {
    let row = row.clone();
    let minutes = Memo::new(move |_| {
        row.with(|room| {
            if room.out_of_order {
                return 0;
            }
            let base = match room.status {
                Status::Dirty => CHECKOUT_MINUTES + BED_MINUTES * room.beds,
                Status::Occupied => STAYOVER_MINUTES,
                Status::Vacant => 0,
            };
            if room.kind == "suite" && room.status == Status::Dirty {
                base + SUITE_EXTRA_MINUTES
            } else {
                base
            }
        })
    });
    minutes
}

/// How many rooms are clean, free and in service.
pub fn ready(rooms: &Collection<u32, RoomRow, Memo<u32>>) -> Memo<usize> {
    rooms.count_by(|row| row.status == Status::Vacant && !row.out_of_order)
}

/// The rooms in housekeeping's order: from the top floor down, by number on a floor.
pub fn route_order(rooms: &Collection<u32, RoomRow, Memo<u32>>) -> Memo<std::rc::Rc<[u32]>> {
    rooms.sort_by(|row| (Reverse(row.floor), row.number))
}

/// The rooms to clean (left by a guest, in service), in `order`.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn route(
    rooms: &Collection<u32, RoomRow, Memo<u32>>,
    order: Memo<std::rc::Rc<[u32]>>,
) -> Memo<Vec<String>> {
    let rooms = rooms.clone();
    let route = Memo::new(move |_| {
        let order = order.get();
        let mut dirty = BTreeSet::new();
        rooms.for_each(|number, room, _| {
            if room.status == Status::Dirty && !room.out_of_order {
                dirty.insert(*number);
            }
        });
        order
            .iter()
            .filter(|number| dirty.contains(*number))
            .map(|number| number.to_string())
            .collect::<Vec<_>>()
    });
    route
}

/// The rooms with work left and the minutes it takes, all told.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn workload(rooms: &Collection<u32, RoomRow, Memo<u32>>) -> Memo<String> {
    let rooms = rooms.clone();
    let workload = Memo::new(move |_| {
        let mut each = Vec::new();
        rooms.for_each(|_, _, minutes| each.push(minutes.clone()));
        let mut count = 0;
        let mut total = 0;
        for minutes in each {
            let minutes = minutes.get();
            if minutes > 0 {
                count += 1;
                total += minutes;
            }
        }
        match count {
            0 => "nothing to do".to_owned(),
            1 => format!("1 room, {total} min"),
            n => format!("{n} rooms, {total} min"),
        }
    });
    workload
}

/// The board with a mistake.
mod slipped {
    use ranvier::collection::{Collection, Row};
    use ranvier::{Memo, node};

    use super::super::model::Status;
    use super::{BED_MINUTES, CHECKOUT_MINUTES, RoomRow, STAYOVER_MINUTES, SUITE_EXTRA_MINUTES};

    /// The minutes a room's cleaning takes.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn minutes(row: &Row<u32, RoomRow>) -> Memo<u32> {
        let row = row.clone();
        let minutes = Memo::new(move |_| {
            row.with(|room| {
                if room.out_of_order {
                    return 0;
                }
                let base = match room.status {
                    // BUG(minutes_floor)
                    Status::Dirty => CHECKOUT_MINUTES + BED_MINUTES * room.floor,
                    Status::Occupied => STAYOVER_MINUTES,
                    Status::Vacant => 0,
                };
                if room.kind == "suite" && room.status == Status::Dirty {
                    base + SUITE_EXTRA_MINUTES
                } else {
                    base
                }
            })
        });
        minutes
    }

    /// How many rooms are ready to sell.
    pub fn ready(rooms: &Collection<u32, RoomRow, Memo<u32>>) -> Memo<usize> {
        // BUG(ready_rooms)
        rooms.count_by(|row| row.status != Status::Dirty && !row.out_of_order)
    }

    /// The rooms in housekeeping's order.
    pub fn route_order(rooms: &Collection<u32, RoomRow, Memo<u32>>) -> Memo<std::rc::Rc<[u32]>> {
        // BUG(route_order)
        rooms.sort_by(|row| (row.floor, row.number))
    }
}
