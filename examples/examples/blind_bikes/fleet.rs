//! The fleet board: a keyed collection with one row per bike (`ranvier::collection`), each row with the kilometres
//! left before the bike's service, and views over the rows: bikes out, bikes in the workshop, kilometres ridden
//! today, and the bike due for its service first.

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{BikeState, Msg, Shop};
use super::rules;

/// One row of the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct FleetRow {
    /// The bike's number.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Where it is.
    pub state: BikeState,
    /// Kilometres since its last service.
    pub km: u32,
    /// Kilometres ridden today.
    pub km_today: u32,
    /// Who has it out.
    pub rider: Option<String>,
}

/// The board's rows, in the order the bikes were stocked.
pub fn rows_of(shop: &Shop) -> Vec<FleetRow> {
    shop.bikes
        .iter()
        .map(|bike| FleetRow {
            id: bike.id.clone(),
            kind: bike.kind.clone(),
            state: bike.state,
            km: bike.km,
            km_today: bike.km_today,
            rider: shop
                .rentals
                .iter()
                .find(|r| r.is_open() && r.bike == bike.id)
                .map(|r| r.customer.clone()),
        })
        .collect()
}

/// The board and its views.
pub struct Fleet {
    /// One row per bike.
    pub fleet: Collection<String, FleetRow, Memo<u32>>,
    /// Bikes out.
    pub out_count: Memo<usize>,
    /// Bikes damaged or in their service.
    pub workshop_count: Memo<usize>,
    /// Kilometres ridden today, the whole fleet.
    pub km_today: Memo<u32>,
    /// The bike due for its service first, and its kilometres left.
    pub next_service: Memo<String>,
}

/// The board over `shop`'s bikes, as `slip` says.
#[node]
pub fn fleet(shop: &Mvu<Shop, Msg>, slip: Slip) -> Fleet {
    let rows = shop.select(rows_of);
    let fleet = match slip {
        Slip::KmLeftSwap => {
            Collection::keyed(rows, |row: &FleetRow| row.id.clone(), slipped::km_left)
        }
        _ => Collection::keyed(rows, |row: &FleetRow| row.id.clone(), km_left),
    };
    let out_count = fleet.count_by(|row| row.state == BikeState::Out);
    let workshop =
        fleet.filter(|row| matches!(row.state, BikeState::Damaged | BikeState::InService));
    let workshop_count = workshop.count();
    let km_today = match slip {
        Slip::KmTodayField => slipped::km_today(&fleet),
        _ => fleet.sum_by(|row| row.km_today),
    };
    let next_service = next_service(&fleet);
    Fleet {
        fleet,
        out_count,
        workshop_count,
        km_today,
        next_service,
    }
}

/// A row's kilometres left before its bike's service.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn km_left(row: &Row<String, FleetRow>) -> Memo<u32> {
    let row = row.clone();
    let km_left = Memo::new(move |_| {
        row.with(|bike| {
            let limit = rules::service_km(&bike.kind);
            limit.saturating_sub(bike.km)
        })
    });
    km_left
}

/// The bike with the fewest kilometres left before its service (the first on the board on a tie), bikes in the
/// workshop left out.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn next_service(fleet: &Collection<String, FleetRow, Memo<u32>>) -> Memo<String> {
    let fleet = fleet.clone();
    let next_service = Memo::new(move |_| {
        let mut on_floor = Vec::new();
        fleet.for_each(|id, bike, km_left| {
            if bike.state != BikeState::InService {
                on_floor.push((id.clone(), km_left.clone()));
            }
        });
        let mut first: Option<(String, u32)> = None;
        for (id, km_left) in on_floor {
            let left = km_left.get();
            let sooner = match &first {
                Some((_, best)) => left < *best,
                None => true,
            };
            if sooner {
                first = Some((id, left));
            }
        }
        match first {
            Some((id, left)) => format!("{id}: {left} km left"),
            None => "no bike on the floor".to_owned(),
        }
    });
    next_service
}

/// The board with a mistake.
mod slipped {
    use ranvier::collection::{Collection, Row};
    use ranvier::{Memo, node};

    use super::super::rules;
    use super::FleetRow;

    /// A row's kilometres left before its bike's service.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn km_left(row: &Row<String, FleetRow>) -> Memo<u32> {
        let row = row.clone();
        let km_left = Memo::new(move |_| {
            row.with(|bike| {
                let limit = rules::service_km(&bike.kind);
                // BUG(km_left_swap)
                bike.km.saturating_sub(limit)
            })
        });
        km_left
    }

    /// Kilometres ridden today, the whole fleet.
    pub fn km_today(fleet: &Collection<String, FleetRow, Memo<u32>>) -> Memo<u32> {
        // BUG(km_today_field)
        fleet.sum_by(|row| row.km)
    }
}
