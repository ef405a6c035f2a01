//! The stays as a keyed collection: one row per stay with its bill, and the views the desk reads (the departures in
//! order, the stays in the kennels now, the arrivals still to come).

use super::model::{Size, Status, Stay, pounds};
use super::tariffs::{self, Season};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The stays, keyed by id; each row has its bill.
pub type Stays = Collection<u32, Stay, (&'static str, Memo<String>)>;

/// A nightly rate by pen size and season.
pub type Rate = fn(Size, Season) -> u32;

/// What makes a row: its bill, with the nightly rate it charges.
pub type RowFactory = fn(&Row<u32, Stay>, Rate) -> (&'static str, Memo<String>);

/// The stays in `list`, each row made by `row` with `rate`.
pub fn stays(list: &Memo<Vec<Stay>>, row: RowFactory, rate: Rate) -> Stays {
    Collection::keyed(list.clone(), |stay: &Stay| stay.id, move |r| row(r, rate))
}

/// A stay's row: its bill, `3 nights (1 in high season) for 1: …; to pay £68.40`.
#[node]
pub fn stay_row(row: &Row<u32, Stay>, rate: Rate) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let bill = Memo::new(move |_| {
        row.with(|stay| {
            if stay.status == Status::Cancelled {
                return "cancelled".to_owned();
            }
            let pets = stay.pets.len() as u32;
            let (mut boarding, mut high) = (0, 0);
            for night in stay.arrive..stay.depart {
                let season = tariffs::season(night);
                if season == Season::High {
                    high += 1;
                }
                boarding += rate(stay.size, season);
            }
            boarding *= pets;
            let discount = tariffs::multi_pet_discount(boarding, pets);
            let extras: u32 = stay.addons.iter().map(|a| tariffs::addon_price(*a)).sum();
            let total = boarding - discount + extras;
            format!(
                "{} nights ({high} in high season) for {pets}: {}, less {}, extras {}, total {}; to pay {}",
                stay.nights(),
                pounds(boarding),
                pounds(discount),
                pounds(extras),
                pounds(total),
                pounds(total.saturating_sub(stay.deposit))
            )
        })
    });
    ("bill", bill)
}

/// The stays by departure day.
pub fn by_departure(stays: &Stays) -> Memo<Rc<[u32]>> {
    stays.sort_by(|stay| stay.depart)
}

/// The stays whose pets are in the kennels now.
pub fn in_house(stays: &Stays) -> Filter<u32> {
    stays.filter(|stay| stay.status == Status::CheckedIn)
}

/// How many stays are booked and not yet arrived.
pub fn arrivals_to_come(stays: &Stays) -> Memo<usize> {
    stays.count_by(|stay| stay.status == Status::Booked)
}

/// The departures still to come, in `order`: `day 103: stay 1 (Smith: Rex)`.
pub fn departures(list: &Memo<Vec<Stay>>, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, order) = (list.clone(), order.clone());
    Memo::new(move |_| {
        let order = order.get();
        list.with(|list| {
            order
                .iter()
                .filter_map(|id| list.iter().find(|stay| stay.id == *id))
                .filter(|stay| stay.holds_pen())
                .map(|stay| format!("day {}: {}", stay.depart, stay.title()))
                .collect()
        })
    })
}

/// Copies of the collection's code with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Status, Stay, pounds};
    use super::super::tariffs::{self, Season};
    use super::{Rate, Stays};
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::rc::Rc;

    /// [`super::stay_row`].
    #[node]
    pub fn stay_row(row: &Row<u32, Stay>, rate: Rate) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let bill = Memo::new(move |_| {
            row.with(|stay| {
                if stay.status == Status::Cancelled {
                    return "cancelled".to_owned();
                }
                let pets = stay.pets.len() as u32;
                let (mut boarding, mut high) = (0, 0);
                for night in stay.arrive..stay.depart {
                    let season = tariffs::season(night);
                    if season == Season::High {
                        high += 1;
                    }
                    // BUG(bill_season)
                    boarding += rate(stay.size, tariffs::season(stay.arrive));
                }
                boarding *= pets;
                let discount = tariffs::multi_pet_discount(boarding, pets);
                let extras: u32 = stay.addons.iter().map(|a| tariffs::addon_price(*a)).sum();
                let total = boarding - discount + extras;
                format!(
                    "{} nights ({high} in high season) for {pets}: {}, less {}, extras {}, total {}; to pay {}",
                    stay.nights(),
                    pounds(boarding),
                    pounds(discount),
                    pounds(extras),
                    pounds(total),
                    pounds(total.saturating_sub(stay.deposit))
                )
            })
        });
        ("bill", bill)
    }

    /// [`super::by_departure`].
    pub fn by_departure(stays: &Stays) -> Memo<Rc<[u32]>> {
        // BUG(departure_order)
        stays.sort_by(|stay| stay.arrive)
    }
}
