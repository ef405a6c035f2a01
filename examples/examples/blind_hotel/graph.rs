//! The front desk as an app: what an agent may see (`#[expose]`), and the graph (`#[node]`): the desk's `Mvu` with
//! the rooms opened as initial commands, the desk's lists, housekeeping's board and the services.

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::housekeeping::{self, RoomRow};
use super::model::{Hotel, Msg, Stay, weekday};
use super::rules;
use super::services;
use super::update;

/// Which mistake the desk runs with (`None`: the correct desk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct desk.
    None,
    /// The breakfast rate.
    BreakfastUnit,
    /// Which nights are weekend nights.
    WeekendDays,
    /// Which room a guest gets.
    PickRoomOr,
    /// The day a stay leaves.
    DepartureDay,
    /// Whom the night audit charges.
    AuditCheckedOut,
    /// The city tax at check-out.
    CheckoutTax,
    /// A room's cleaning time.
    MinutesFloor,
    /// The rooms ready to sell.
    ReadyRooms,
    /// Housekeeping's route.
    RouteOrder,
    /// A bill in the guest's currency.
    BillSwap,
    /// The welcome gifts.
    GiftsNonMember,
    /// Today's arrivals.
    ArrivalsPeek,
}

/// What an agent may see and send.
#[expose]
pub struct FrontDesk {
    /// The desk: its messages.
    #[expose(messages)]
    pub desk: Mvu<Hotel, Msg>,
    /// Today.
    #[expose]
    pub today: Memo<String>,
    /// The guests due to arrive today who have not checked in, by name.
    #[expose]
    #[node]
    pub arrivals: Memo<Vec<String>>,
    /// The guests in the hotel, by room.
    #[expose]
    #[node]
    pub in_house: Memo<Vec<String>>,
    /// The guests in the hotel whose stay is over, who should leave today.
    #[expose]
    #[node]
    pub departures: Memo<Vec<String>>,
    /// Cents charged, all stays.
    #[expose]
    #[node]
    pub revenue: Memo<u64>,
    /// What the desk was told.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Housekeeping's board, one row per room.
    #[expose]
    #[node]
    pub rooms: Collection<u32, RoomRow, Memo<u32>>,
    /// Rooms ready to sell.
    #[expose]
    #[node]
    pub ready: Memo<usize>,
    /// The rooms housekeeping has to clean, in the order to clean them.
    #[expose]
    #[node]
    pub route: Memo<Vec<String>>,
    /// Housekeeping's work left.
    #[expose]
    #[node]
    pub workload: Memo<String>,
    /// The bills of guests from abroad who left, in their currency.
    #[expose]
    #[node]
    pub bills_abroad: AsyncMemo<Vec<String>>,
    /// The guests in the hotel the loyalty programme says get a welcome gift.
    #[expose]
    #[node]
    pub welcome_gifts: AsyncMemo<Vec<String>>,
}

/// The rooms: number, kind, beds, rate per night in cents.
pub const ROOMS: [(u32, &str, u32, u64); 6] = [
    (101, "single", 1, 8_000),
    (102, "double", 2, 11_000),
    (103, "double", 2, 11_000),
    (201, "single", 1, 8_000),
    (202, "double", 2, 12_000),
    (301, "suite", 3, 20_000),
];

/// When a stay leaves (see [`rules::departure`]).
pub type Departure = fn(&Stay) -> u32;

/// Builds the desk as `slip` says: it opens its rooms (initial commands), then its memos.
#[node]
pub fn front_desk(slip: Slip) -> FrontDesk {
    let update = match slip {
        Slip::PickRoomOr => update::slipped::update_pick,
        Slip::WeekendDays => update::slipped::update_weekend,
        Slip::AuditCheckedOut => update::slipped::update_audit,
        Slip::CheckoutTax => update::slipped::update_check_out,
        _ => update::update,
    };
    let hotel = match slip {
        Slip::BreakfastUnit => Hotel {
            rates: super::model::slipped::Tariff::default().0,
            ..Hotel::default()
        },
        _ => Hotel::default(),
    };
    let open: Vec<Msg> = ROOMS
        .iter()
        .map(|&(number, kind, beds, rate)| Msg::OpenRoom {
            number,
            kind: kind.to_owned(),
            beds,
            rate,
        })
        .collect();
    let desk = Mvu::with_commands((hotel, open), update);
    let today = desk.select(|hotel| weekday(hotel.day));
    let arrivals = match slip {
        Slip::ArrivalsPeek => slipped::arrivals(&desk),
        _ => arrivals(&desk),
    };
    let in_house = in_house(&desk);
    let departures = match slip {
        Slip::DepartureDay => departures(&desk, rules::slipped::departure),
        _ => departures(&desk, rules::departure),
    };
    let revenue = desk.select(|hotel| hotel.folio.iter().map(|p| p.cents).sum::<u64>());
    let notices = desk.select(|hotel| hotel.notices.clone());
    let board = housekeeping::housekeeping(&desk, slip);
    let remote = services::services(&desk, slip);
    FrontDesk {
        desk,
        today,
        arrivals,
        in_house,
        departures,
        revenue,
        notices,
        rooms: board.rooms,
        ready: board.ready,
        route: board.route,
        workload: board.workload,
        bills_abroad: remote.bills_abroad,
        welcome_gifts: remote.welcome_gifts,
    }
}

/// How a stay's party reads: "2 adults, 1 child".
fn party(stay: &Stay) -> String {
    let adults = if stay.adults == 1 { "adult" } else { "adults" };
    match stay.children {
        0 => format!("{} {adults}", stay.adults),
        1 => format!("{} {adults}, 1 child", stay.adults),
        n => format!("{} {adults}, {n} children", stay.adults),
    }
}

/// The stays due to arrive today that have not checked in, by guest: the room kind, the nights, the party and
/// breakfast.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn arrivals(desk: &Mvu<Hotel, Msg>) -> Memo<Vec<String>> {
    let day = desk.select(|hotel| hotel.day);
    let stays = desk.select(|hotel| hotel.stays.clone());
    let arrivals = Memo::new(move |_| {
        let today = day.get();
        let stays = stays.get();
        let mut due: Vec<&Stay> = stays
            .iter()
            .filter(|stay| stay.arrival == today && !stay.checked_in)
            .collect();
        due.sort_by(|a, b| a.guest.cmp(&b.guest).then(a.id.cmp(&b.id)));
        let mut lines = Vec::with_capacity(due.len());
        for stay in due {
            let nights = if stay.nights == 1 {
                "1 night".to_owned()
            } else {
                format!("{} nights", stay.nights)
            };
            let meal = if stay.breakfast { ", breakfast" } else { "" };
            lines.push(format!(
                "{}: {}, {nights}, {}{meal}",
                stay.guest,
                stay.kind,
                party(stay)
            ));
        }
        lines
    });
    arrivals
}

/// The stays in the hotel, by room: the guest and the party.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn in_house(desk: &Mvu<Hotel, Msg>) -> Memo<Vec<String>> {
    let stays = desk.select(|hotel| hotel.stays.clone());
    let in_house = Memo::new(move |_| {
        let stays = stays.get();
        let mut here: Vec<(u32, &Stay)> = stays
            .iter()
            .filter(|stay| stay.in_house())
            .filter_map(|stay| stay.room.map(|room| (room, stay)))
            .collect();
        here.sort_by_key(|(room, _)| *room);
        here.into_iter()
            .map(|(room, stay)| format!("{room} {}: {}", stay.guest, party(stay)))
            .collect::<Vec<_>>()
    });
    in_house
}

/// The stays in the hotel that should have left by today (`departure` says when each leaves), by room.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn departures(desk: &Mvu<Hotel, Msg>, departure: Departure) -> Memo<Vec<String>> {
    let day = desk.select(|hotel| hotel.day);
    let stays = desk.select(|hotel| hotel.stays.clone());
    let departures = Memo::new(move |_| {
        let today = day.get();
        let stays = stays.get();
        let mut due = Vec::new();
        for stay in stays.iter().filter(|stay| stay.in_house()) {
            let leaves = departure(stay);
            if leaves > today {
                continue;
            }
            let Some(room) = stay.room else {
                continue;
            };
            let late = if leaves < today {
                format!(", {} days over", today - leaves)
            } else {
                String::new()
            };
            due.push((room, format!("{room} {}{late}", stay.guest)));
        }
        due.sort();
        due.into_iter().map(|(_, line)| line).collect::<Vec<_>>()
    });
    departures
}

/// The desk's lists with a mistake.
mod slipped {
    use ranvier::{Memo, Mvu, node};

    use super::super::model::{Hotel, Msg, Stay};
    use super::party;

    /// The stays due to arrive today that have not checked in, by guest.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn arrivals(desk: &Mvu<Hotel, Msg>) -> Memo<Vec<String>> {
        let day = desk.select(|hotel| hotel.day);
        let stays = desk.select(|hotel| hotel.stays.clone());
        let arrivals = Memo::new(move |_| {
            // BUG(arrivals_peek)
            let today = day.peek();
            let stays = stays.get();
            let mut due: Vec<&Stay> = stays
                .iter()
                .filter(|stay| stay.arrival == today && !stay.checked_in)
                .collect();
            due.sort_by(|a, b| a.guest.cmp(&b.guest).then(a.id.cmp(&b.id)));
            let mut lines = Vec::with_capacity(due.len());
            for stay in due {
                let nights = if stay.nights == 1 {
                    "1 night".to_owned()
                } else {
                    format!("{} nights", stay.nights)
                };
                let meal = if stay.breakfast { ", breakfast" } else { "" };
                lines.push(format!(
                    "{}: {}, {nights}, {}{meal}",
                    stay.guest,
                    stay.kind,
                    party(stay)
                ));
            }
            lines
        });
        arrivals
    }
}
