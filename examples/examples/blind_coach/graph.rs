//! The app an agent sees, and the builder that makes its graph (with one mistake, when a `Slip` names one).

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::drivers::{self, DriverStatus};
use super::model::{self, Booking, Coach, Msg, Shift, Tour};
use super::services::{self, RoomBlock};
use super::tours::{self, TourLoad, Tours};
use super::{fares, seating, update};

/// Which mistake the app is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slip {
    None,
    FuelTotal,
    RoomCount,
    LoadPercent,
    FullFilter,
    PromoteFit,
    RefundDays,
    GroupDiscount,
    HoursToday,
    DrivingLimit,
    BoardingToday,
    PartySize,
    DefaultDay,
}

/// What an agent may see: the model and its messages, the tours' loads and views, the drivers, the boarding list
/// and the services' answers.
#[expose]
pub struct SetApp {
    #[expose(messages, value)]
    pub coach: Mvu<Coach, Msg>,
    #[expose]
    #[node]
    pub loads: Memo<Vec<TourLoad>>,
    #[expose]
    #[node]
    pub full_tours: Memo<usize>,
    #[expose]
    #[node]
    pub multi_day: Memo<usize>,
    #[expose]
    #[node]
    pub departures: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub waiting: Memo<u32>,
    #[expose]
    #[node]
    pub refunded: Memo<u64>,
    #[expose]
    #[node]
    pub roster: Memo<Vec<DriverStatus>>,
    #[expose]
    #[node]
    pub boarding: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub fuel: AsyncMemo<u64>,
    #[expose]
    #[node]
    pub rooms: AsyncMemo<Vec<RoomBlock>>,
}

/// Builds the graph, with the mistake `slip` names.
#[node]
pub fn set_app(slip: Slip) -> SetApp {
    let discount: fn(u32) -> u64 = if slip == Slip::GroupDiscount {
        fares::slipped::group_discount
    } else {
        fares::group_discount
    };
    let promote: fn(&mut Tour) -> u32 = if slip == Slip::PromoteFit {
        update::slipped::promote_waiting
    } else {
        update::promote_waiting
    };
    let refund: fn(&Tour, &Booking, u32) -> u64 = if slip == Slip::RefundDays {
        update::slipped::refund_for
    } else {
        update::refund_for
    };
    let init = if slip == Slip::DefaultDay {
        model::slipped::default_coach()
    } else {
        Coach::default()
    };
    let coach = Mvu::with_commands((init, Vec::new()), move |msg, coach| {
        update::update(msg, coach, discount, promote, refund)
    });

    let list = coach.select(|coach| coach.tours.clone());
    let load_of = if slip == Slip::LoadPercent {
        tours::slipped::tour_load
    } else {
        tours::tour_load
    };
    let tours: Tours = Collection::keyed(
        list,
        |tour: &Tour| tour.code.clone(),
        move |row| load_of(row, discount),
    );
    let loads = tours::loads(&tours);
    let full_tours = if slip == Slip::FullFilter {
        tours::slipped::full_tours(&tours)
    } else {
        tours::full_tours(&tours)
    };
    let multi_day = tours::multi_day(&tours);
    let departures = tours::departures(&tours);

    let party: fn(&Booking) -> u32 = if slip == Slip::PartySize {
        model::slipped::passengers
    } else {
        Booking::passengers
    };
    let waiting = seating::waiting(&coach, party);
    let refunded = coach.select(|coach| coach.refunded);
    let hours_on: fn(&[Shift], u32) -> u32 = if slip == Slip::HoursToday {
        drivers::slipped::hours_on
    } else {
        drivers::hours_on
    };
    let roster = if slip == Slip::DrivingLimit {
        drivers::slipped::roster(&coach, hours_on)
    } else {
        drivers::roster(&coach, hours_on)
    };
    let boarding = if slip == Slip::BoardingToday {
        seating::slipped::boarding(&coach)
    } else {
        seating::boarding(&coach)
    };
    let fuel = if slip == Slip::FuelTotal {
        services::slipped::fuel_surcharge(&coach)
    } else {
        services::fuel_surcharge(&coach)
    };
    let rooms = if slip == Slip::RoomCount {
        services::slipped::room_blocks(&coach)
    } else {
        services::room_blocks(&coach)
    };
    SetApp {
        coach,
        loads,
        full_tours,
        multi_day,
        departures,
        waiting,
        refunded,
        roster,
        boarding,
        fuel,
        rooms,
    }
}
