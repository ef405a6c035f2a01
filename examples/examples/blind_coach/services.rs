//! The answers that come later: the fuel supplier's surcharge and the hotel's room blocks for multi-day tours.

use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Mvu, node};

use super::model::{Coach, Msg};
use super::remote;

/// The diesel price the fares were set at, in pence per litre.
pub const BASE_PENCE: u64 = 140;
/// A coach burns 30 litres per 100 km.
pub const LITRES_PER_100_KM: u64 = 30;

/// A multi-day tour's room block at the hotel.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct RoomBlock {
    pub code: String,
    pub rooms: u32,
    pub nights: u32,
    pub confirmed: u32,
}

/// The fuel surcharge per passenger, in pence, summed over the tours still to leave, at today's diesel price.
#[node]
pub fn fuel_surcharge(coach: &Mvu<Coach, Msg>) -> AsyncMemo<u64> {
    let coach = coach.clone();
    let fuel = AsyncMemo::new(move |_| {
        let (day, legs) = coach.with_model(|coach| {
            let legs: Vec<(u64, u32)> = coach
                .tours
                .iter()
                .filter(|tour| tour.depart_day >= coach.day)
                .map(|tour| {
                    (
                        u64::from(tour.km) * LITRES_PER_100_KM / 100,
                        tour.seats_taken(),
                    )
                })
                .collect();
            (coach.day, legs)
        });
        async move {
            let price = remote::diesel_price(day).await;
            let over = price.saturating_sub(BASE_PENCE);
            let mut surcharge = 0;
            for (litres, passengers) in legs {
                if passengers == 0 {
                    continue;
                }
                surcharge += litres * over / u64::from(passengers);
            }
            surcharge
        }
    });
    fuel
}

/// The room blocks of the multi-day tours: a room for every two sharing, one for each single, a night less than the
/// tour's days.
#[node]
pub fn room_blocks(coach: &Mvu<Coach, Msg>) -> AsyncMemo<Vec<RoomBlock>> {
    let coach = coach.clone();
    let rooms = AsyncMemo::new(move |_| {
        let wanted: Vec<(String, u32, u32, u32)> = coach.with_model(|coach| {
            coach
                .tours
                .iter()
                .filter(|tour| tour.days > 1)
                .map(|tour| {
                    let singles: u32 = tour.booked.iter().map(|b| b.singles).sum();
                    let sharing = tour.seats_taken().saturating_sub(singles);
                    (tour.code.clone(), sharing, singles, tour.days)
                })
                .collect()
        });
        async move {
            let mut blocks = Vec::new();
            for (code, sharing, singles, days) in wanted {
                let rooms = sharing.div_ceil(2) + singles;
                let nights = days - 1;
                let confirmed = remote::hold_rooms(code.clone(), rooms, nights)
                    .await
                    .unwrap_or(0);
                blocks.push(RoomBlock {
                    code,
                    rooms,
                    nights,
                    confirmed,
                });
            }
            blocks
        }
    });
    rooms
}

pub mod slipped {
    use super::*;

    /// `fuel_surcharge`, as first written.
    #[node]
    pub fn fuel_surcharge(coach: &Mvu<Coach, Msg>) -> AsyncMemo<u64> {
        let coach = coach.clone();
        let fuel = AsyncMemo::new(move |_| {
            let (day, legs) = coach.with_model(|coach| {
                let legs: Vec<(u64, u32)> = coach
                    .tours
                    .iter()
                    .filter(|tour| tour.depart_day >= coach.day)
                    .map(|tour| {
                        (
                            u64::from(tour.km) * LITRES_PER_100_KM / 100,
                            tour.seats_taken(),
                        )
                    })
                    .collect();
                (coach.day, legs)
            });
            async move {
                let price = remote::diesel_price(day).await;
                let over = price.saturating_sub(BASE_PENCE);
                let mut surcharge = 0;
                for (litres, passengers) in legs {
                    if passengers == 0 {
                        continue;
                    }
                    // BUG(fuel_total)
                    surcharge = litres * over / u64::from(passengers);
                }
                surcharge
            }
        });
        fuel
    }

    /// `room_blocks`, as first written.
    #[node]
    pub fn room_blocks(coach: &Mvu<Coach, Msg>) -> AsyncMemo<Vec<RoomBlock>> {
        let coach = coach.clone();
        let rooms = AsyncMemo::new(move |_| {
            let wanted: Vec<(String, u32, u32, u32)> = coach.with_model(|coach| {
                coach
                    .tours
                    .iter()
                    .filter(|tour| tour.days > 1)
                    .map(|tour| {
                        let singles: u32 = tour.booked.iter().map(|b| b.singles).sum();
                        let sharing = tour.seats_taken().saturating_sub(singles);
                        (tour.code.clone(), sharing, singles, tour.days)
                    })
                    .collect()
            });
            async move {
                let mut blocks = Vec::new();
                for (code, sharing, singles, days) in wanted {
                    // BUG(room_count)
                    let rooms = sharing / 2 + singles;
                    let nights = days - 1;
                    let confirmed = remote::hold_rooms(code.clone(), rooms, nights)
                        .await
                        .unwrap_or(0);
                    blocks.push(RoomBlock {
                        code,
                        rooms,
                        nights,
                        confirmed,
                    });
                }
                blocks
            }
        });
        rooms
    }
}
