//! The kennels' graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the front
//! desk's `Mvu`, the tariff and rules, the stays and the services.

use super::model::{self, Kennels, Msg, PayKind, Pet, Status, pounds};
use super::remote::{Processor, Surgery};
use super::stays::{self, Rate, RowFactory, Stays};
use super::tariffs::{self, Season};
use super::update::{self, Helpers};
use super::{limits, rules, services};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Which version of the kennels to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    VetSecondPet,
    DepositPence,
    BillSeason,
    DepartureOrder,
    CancelRefund,
    WalksForPen,
    CatteryRate,
    PenCapacity,
    RefundTiers,
    KitchenTotal,
    BoardToday,
    MealsDefault,
}

/// What an agent sees of the kennels.
#[expose]
pub struct KennelsDesk {
    #[expose(messages)]
    pub kennels: Mvu<Kennels, Msg>,
    /// Today, and its season.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The day's occupancy board: each pen, who is in it or expected.
    #[expose]
    #[node]
    pub occupancy: Memo<Vec<String>>,
    /// Every stay, each with its bill.
    #[expose]
    #[node]
    pub stays: Stays,
    /// The departures still to come, in order.
    #[expose]
    #[node]
    pub departures: Memo<Vec<String>>,
    /// How many stays have pets in the kennels.
    #[expose]
    #[node]
    pub in_house: Memo<usize>,
    /// How many stays are booked and not yet arrived.
    #[expose]
    #[node]
    pub arrivals: Memo<usize>,
    /// The kitchen's food list for the day.
    #[expose]
    #[node]
    pub kitchen: Memo<Vec<String>>,
    /// The medication round.
    #[expose]
    #[node]
    pub medication: Memo<Vec<String>>,
    /// Today's walks, each with its walker.
    #[expose]
    #[node]
    pub walk_rota: Memo<Vec<String>>,
    /// The week's takings.
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    /// What the desk has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Booked pets whose vaccinations, by the vets' record, run out before they go home.
    #[expose]
    #[node]
    pub vet_checks: AsyncMemo<Vec<String>>,
    /// The deposits the card processor holds.
    #[expose]
    #[node]
    pub deposits: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers for this version.
    fn helpers(self, rate: Rate) -> Helpers {
        let correct = Helpers {
            nightly_rate: rate,
            ..Helpers::default()
        };
        match self {
            Slip::PenCapacity => Helpers {
                pen_takes: limits::slipped::pen_takes,
                ..correct
            },
            Slip::RefundTiers => Helpers {
                refund: rules::slipped::refund,
                ..correct
            },
            Slip::WalksForPen => Helpers {
                check_in: update::slipped::check_in,
                ..correct
            },
            Slip::CancelRefund => Helpers {
                cancel: update::slipped::cancel,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the kennels with `slip`.
#[node]
pub fn kennels_desk(slip: Slip) -> KennelsDesk {
    let rate: Rate = match slip {
        Slip::CatteryRate => tariffs::slipped::nightly_rate,
        _ => tariffs::nightly_rate,
    };
    let helpers = slip.helpers(rate);
    let kennels = Mvu::with_commands((Kennels::default(), Vec::new()), move |msg, k: &Kennels| {
        update::update(msg, k, &helpers)
    });
    let today = kennels.select(|k| {
        let season = match tariffs::season(k.today) {
            Season::Low => "low",
            Season::High => "high",
        };
        format!("day {}, {season} season", k.today)
    });
    let occupancy = match slip {
        Slip::BoardToday => slipped::occupancy(&kennels),
        _ => occupancy(&kennels),
    };

    let stay_list = kennels.select(|k| k.stays.clone());
    let row: RowFactory = match slip {
        Slip::BillSeason => stays::slipped::stay_row,
        _ => stays::stay_row,
    };
    let stays = stays::stays(&stay_list, row, rate);
    let order = match slip {
        Slip::DepartureOrder => stays::slipped::by_departure(&stays),
        _ => stays::by_departure(&stays),
    };
    let departures = stays::departures(&stay_list, &order);
    let in_house = stays::in_house(&stays).count();
    let arrivals = stays::arrivals_to_come(&stays);

    let meals: fn(&Pet) -> u32 = match slip {
        Slip::MealsDefault => model::slipped::meals_per_day,
        _ => Pet::meals_per_day,
    };
    let kitchen = match slip {
        Slip::KitchenTotal => slipped::kitchen(&kennels, meals),
        _ => kitchen(&kennels, meals),
    };
    let medication = kennels.select(|k| {
        let mut round = Vec::new();
        for stay in k.stays.iter().filter(|s| s.status == Status::CheckedIn) {
            for pet in stay.pets.iter().filter_map(|name| k.pet(name)) {
                if let Some(dose) = &pet.medication {
                    round.push(format!("pen {}: {} — {dose}", stay.pen, pet.name));
                }
            }
        }
        round
    });
    let walk_rota = kennels.select(|k| {
        let mut walks: Vec<_> = k
            .walks
            .iter()
            .filter(|walk| {
                k.stay(walk.stay)
                    .is_some_and(|s| s.status == Status::CheckedIn)
            })
            .collect();
        walks.sort_by_key(|walk| (walk.at, walk.dog.clone()));
        if walks.is_empty() || k.staff.is_empty() {
            return vec!["no walks today".to_owned()];
        }
        walks
            .iter()
            .enumerate()
            .map(|(n, walk)| format!("{} {}: {}", walk.at, walk.dog, k.staff[n % k.staff.len()]))
            .collect()
    });
    let takings = takings(&kennels);
    let notices = kennels.select(|k| k.notices.clone());

    let surgery = Rc::new(Surgery::default());
    let processor = Rc::new(Processor::default());
    let vet_checks = match slip {
        Slip::VetSecondPet => services::slipped::vet_checks(&stay_list, surgery),
        _ => services::vet_checks(&stay_list, surgery),
    };
    let deposits = match slip {
        Slip::DepositPence => services::slipped::deposits(&stay_list, processor),
        _ => services::deposits(&stay_list, processor),
    };

    KennelsDesk {
        kennels,
        today,
        occupancy,
        stays,
        departures,
        in_house,
        arrivals,
        kitchen,
        medication,
        walk_rota,
        takings,
        notices,
        vet_checks,
        deposits,
    }
}

/// The occupancy board: each pen with the pets in it and their departure day, the pets expected in today, or free.
fn occupancy(kennels: &Mvu<Kennels, Msg>) -> Memo<Vec<String>> {
    let kennels = kennels.clone();
    Memo::new(move |_| {
        let k = kennels.model();
        let today = k.today;
        let mut board = Vec::new();
        for pen in &k.pens {
            let head = format!("pen {} ({})", pen.id, pen.size.name());
            let here = k
                .stays
                .iter()
                .find(|s| s.pen == pen.id && s.status == Status::CheckedIn);
            let due = k
                .stays
                .iter()
                .find(|s| s.pen == pen.id && s.status == Status::Booked && s.arrive == today);
            let line = match (here, due) {
                (Some(stay), _) if stay.depart <= today => {
                    format!(
                        "{head}: {} due out since day {}",
                        stay.pets.join(", "),
                        stay.depart
                    )
                }
                (Some(stay), _) => {
                    format!("{head}: {} until day {}", stay.pets.join(", "), stay.depart)
                }
                (None, Some(stay)) => format!(
                    "{head}: expecting {} ({})",
                    stay.pets.join(", "),
                    stay.owner
                ),
                (None, None) => format!("{head}: free"),
            };
            board.push(line);
        }
        board
    })
}

/// The kitchen's list: for each food, the grams a day for the pets in, and who has it (`meals` per day each).
fn kitchen(kennels: &Mvu<Kennels, Msg>, meals: fn(&Pet) -> u32) -> Memo<Vec<String>> {
    let kennels = kennels.clone();
    Memo::new(move |_| {
        let k = kennels.model();
        let mut foods: BTreeMap<String, (u32, Vec<String>)> = BTreeMap::new();
        for stay in k.stays.iter().filter(|s| s.status == Status::CheckedIn) {
            for name in &stay.pets {
                let Some(pet) = k.pet(name) else {
                    continue;
                };
                let per_day = meals(pet);
                let grams = pet.grams * per_day;
                let entry = foods.entry(pet.food.clone()).or_default();
                entry.0 += grams;
                entry
                    .1
                    .push(format!("{} {per_day}×{}g", pet.name, pet.grams));
            }
        }
        if foods.is_empty() {
            return vec!["nothing to prepare".to_owned()];
        }
        foods
            .into_iter()
            .map(|(food, (grams, pets))| format!("{food}: {grams}g a day ({})", pets.join(", ")))
            .collect()
    })
}

/// The week's takings (today and the six days before): deposits, balances, refunds, and what is left.
fn takings(kennels: &Mvu<Kennels, Msg>) -> Memo<Vec<String>> {
    let kennels = kennels.clone();
    Memo::new(move |_| {
        let k = kennels.model();
        let from = k.today.saturating_sub(6);
        let (mut deposits, mut balances, mut refunds) = (0, 0, 0);
        for payment in k
            .payments
            .iter()
            .filter(|p| (from..=k.today).contains(&p.day))
        {
            match payment.kind {
                PayKind::Deposit => deposits += payment.pence,
                PayKind::Balance => balances += payment.pence,
                PayKind::Refund => refunds += payment.pence,
            }
        }
        let net = (deposits + balances).saturating_sub(refunds);
        vec![
            format!("days {from}–{}", k.today),
            format!("deposits: {}", pounds(deposits)),
            format!("balances: {}", pounds(balances)),
            format!("refunds: {}", pounds(refunds)),
            format!("net: {}", pounds(net)),
        ]
    })
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Kennels, Msg, Pet, Status};
    use ranvier::{Memo, Mvu};
    use std::collections::BTreeMap;

    /// [`super::occupancy`].
    pub fn occupancy(kennels: &Mvu<Kennels, Msg>) -> Memo<Vec<String>> {
        let kennels = kennels.clone();
        // BUG(board_today)
        let today = kennels.model().today;
        Memo::new(move |_| {
            let k = kennels.model();
            let mut board = Vec::new();
            for pen in &k.pens {
                let head = format!("pen {} ({})", pen.id, pen.size.name());
                let here = k
                    .stays
                    .iter()
                    .find(|s| s.pen == pen.id && s.status == Status::CheckedIn);
                let due = k
                    .stays
                    .iter()
                    .find(|s| s.pen == pen.id && s.status == Status::Booked && s.arrive == today);
                let line = match (here, due) {
                    (Some(stay), _) if stay.depart <= today => {
                        format!(
                            "{head}: {} due out since day {}",
                            stay.pets.join(", "),
                            stay.depart
                        )
                    }
                    (Some(stay), _) => {
                        format!("{head}: {} until day {}", stay.pets.join(", "), stay.depart)
                    }
                    (None, Some(stay)) => format!(
                        "{head}: expecting {} ({})",
                        stay.pets.join(", "),
                        stay.owner
                    ),
                    (None, None) => format!("{head}: free"),
                };
                board.push(line);
            }
            board
        })
    }

    /// [`super::kitchen`].
    pub fn kitchen(kennels: &Mvu<Kennels, Msg>, meals: fn(&Pet) -> u32) -> Memo<Vec<String>> {
        let kennels = kennels.clone();
        Memo::new(move |_| {
            let k = kennels.model();
            let mut foods: BTreeMap<String, (u32, Vec<String>)> = BTreeMap::new();
            for stay in k.stays.iter().filter(|s| s.status == Status::CheckedIn) {
                for name in &stay.pets {
                    let Some(pet) = k.pet(name) else {
                        continue;
                    };
                    let per_day = meals(pet);
                    let grams = pet.grams * per_day;
                    let entry = foods.entry(pet.food.clone()).or_default();
                    // BUG(kitchen_total)
                    entry.0 = grams;
                    entry
                        .1
                        .push(format!("{} {per_day}×{}g", pet.name, pet.grams));
                }
            }
            if foods.is_empty() {
                return vec!["nothing to prepare".to_owned()];
            }
            foods
                .into_iter()
                .map(|(food, (grams, pets))| {
                    format!("{food}: {grams}g a day ({})", pets.join(", "))
                })
                .collect()
        })
    }
}
