//! The food bank's graph: the `#[expose]`d app, the memos over the pantry (stock, shortfall, today's parcels, the
//! van's list, the packing tables, the volunteers' hours, the week's report), and the `#[node]` builder.

use super::model::{Category, Msg, Pantry, Shift, kg, week_of};
use super::services::{self, Short, Stop};
use super::shelves::{self, Shelves};
use super::update::{self, Helpers};
use super::{rota, rules};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::BTreeMap;

/// Which mistake the food bank runs with (`None`: the correct app).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct app.
    None,
    /// See `main.rs`'s `SLIPS`.
    PackNoVan,
    /// See `main.rs`'s `SLIPS`.
    WasteOnTheDay,
    /// See `main.rs`'s `SLIPS`.
    StockTaken,
    /// See `main.rs`'s `SLIPS`.
    FreshPortion,
    /// See `main.rs`'s `SLIPS`.
    ShiftLength,
    /// See `main.rs`'s `SLIPS`.
    OpenOverlap,
    /// See `main.rs`'s `SLIPS`.
    ReportWeek,
    /// See `main.rs`'s `SLIPS`.
    ShortfallFilter,
    /// See `main.rs`'s `SLIPS`.
    LabelDaysLeft,
    /// See `main.rs`'s `SLIPS`.
    UseFirstOrder,
    /// See `main.rs`'s `SLIPS`.
    RoundLegs,
    /// See `main.rs`'s `SLIPS`.
    WarehouseSilent,
}

/// What the food bank shows.
#[expose]
pub struct FoodBank {
    /// The pantry and its messages.
    #[expose(messages)]
    pub pantry: Mvu<Pantry, Msg>,
    /// The day.
    #[expose]
    #[node]
    pub today: Memo<u32>,
    /// Stock by category.
    #[expose]
    #[node]
    pub stock: Memo<Vec<String>>,
    /// What the shelves are short of for every household's next parcel.
    #[expose]
    #[node]
    pub shortfall: Memo<Vec<Short>>,
    /// Today's parcels.
    #[expose]
    #[node]
    pub parcels: Memo<Vec<String>>,
    /// Tomorrow's deliveries.
    #[expose]
    #[node]
    pub deliveries: Memo<Vec<String>>,
    /// Who is at each packing table while the doors are open.
    #[expose]
    #[node]
    pub tables: Memo<Vec<String>>,
    /// Each volunteer's hours this week.
    #[expose]
    #[node]
    pub volunteer_hours: Memo<Vec<String>>,
    /// The week's report.
    #[expose]
    #[node]
    pub report: Memo<Vec<String>>,
    /// The shelves.
    #[expose]
    #[node]
    pub shelves: Shelves,
    /// The labels in the order to use the food.
    #[expose]
    #[node]
    pub use_first: Memo<Vec<String>>,
    /// Lots of fresh food.
    #[expose]
    #[node]
    pub fresh_lots: Memo<usize>,
    /// Lots for the loose box.
    #[expose]
    #[node]
    pub loose_lots: Memo<usize>,
    /// Tomorrow's round.
    #[expose]
    #[node]
    pub round: AsyncMemo<Vec<String>>,
    /// The warehouse's offer.
    #[expose]
    #[node]
    pub top_up: AsyncMemo<Vec<String>>,
}

/// The helpers `update` runs with `slip`.
pub fn helpers(slip: Slip) -> Helpers {
    Helpers {
        take_stock: match slip {
            Slip::StockTaken => update::slipped::take_stock,
            _ => update::take_stock,
        },
        close_day: match slip {
            Slip::WasteOnTheDay => update::slipped::close_day,
            _ => update::close_day,
        },
        portion: match slip {
            Slip::FreshPortion => rules::slipped::portion,
            _ => rules::portion,
        },
    }
}

/// Stock on the shelves by category: weight, lots, and the first best-before day.
pub fn stock(shelf: Memo<Vec<super::model::Donation>>) -> Memo<Vec<String>> {
    struct Tally {
        grams: u32,
        lots: u32,
        first_due: u32,
    }
    Memo::new(move |_| {
        let shelf = shelf.get();
        let mut tallies: BTreeMap<Category, Tally> = BTreeMap::new();
        for d in &shelf {
            let tally = tallies.entry(d.category).or_insert(Tally {
                grams: 0,
                lots: 0,
                first_due: d.best_before,
            });
            tally.grams += d.grams;
            tally.lots += 1;
            tally.first_due = tally.first_due.min(d.best_before);
        }
        tallies
            .iter()
            .map(|(category, t)| {
                let lots = if t.lots == 1 { "lot" } else { "lots" };
                format!(
                    "{}: {} in {} {lots}, first due day {}",
                    category.name(),
                    kg(t.grams),
                    t.lots,
                    t.first_due
                )
            })
            .collect()
    })
}

/// A category's need against what the shelves hold.
struct Need {
    category: Category,
    need: u32,
    have: u32,
}

/// What the shelves are short of, by category, to pack every household's next parcel.
pub fn shortfall(pantry: &Mvu<Pantry, Msg>) -> Memo<Vec<Short>> {
    let households = pantry.select(|p| p.households.clone());
    let shelf = pantry.select(|p| p.donations.clone());
    Memo::new(move |_| {
        let households = households.get();
        let shelf = shelf.get();
        let mut need: BTreeMap<Category, u32> = BTreeMap::new();
        for home in &households {
            for (category, grams) in rules::parcel_for(home.people, rules::portion) {
                *need.entry(category).or_default() += grams;
            }
        }
        let mut have: BTreeMap<Category, u32> = BTreeMap::new();
        for d in &shelf {
            *have.entry(d.category).or_default() += d.grams;
        }
        Category::ALL
            .iter()
            .map(|&category| Need {
                category,
                need: need.get(&category).copied().unwrap_or(0),
                have: have.get(&category).copied().unwrap_or(0),
            })
            .filter(|line| line.have < line.need)
            .map(|line| Short {
                category: line.category,
                grams: line.need.saturating_sub(line.have),
            })
            .collect()
    })
}

/// The week's report: what came in, what went out, and what was thrown away.
pub fn report(pantry: &Mvu<Pantry, Msg>) -> Memo<Vec<String>> {
    let book = pantry.select(Pantry::clone);
    Memo::new(move |_| {
        let p = book.get();
        let week = week_of(p.today);
        let first = (week - 1) * 7 + 1;
        let donated: u32 = p
            .intake
            .iter()
            .filter(|i| week_of(i.day) == week)
            .map(|i| i.grams)
            .sum();
        let (mut parcels, mut people, mut packed) = (0, 0, 0);
        for parcel in p
            .parcels
            .iter()
            .filter(|parcel| week_of(parcel.day) == week)
        {
            parcels += 1;
            people += parcel.people;
            packed += parcel.grams();
        }
        let delivered = p
            .deliveries
            .iter()
            .filter(|d| week_of(d.day) == week && d.day <= p.today)
            .count();
        let wasted: u32 = p
            .wasted
            .iter()
            .filter(|&&(day, _)| week_of(day) == week)
            .map(|&(_, grams)| grams)
            .sum();
        vec![
            format!("Week {week}, days {first} to {}", first + 6),
            format!("{} donated", kg(donated)),
            format!("{parcels} parcels, {}, for {people} people", kg(packed)),
            format!("{delivered} delivered"),
            format!("{} thrown away", kg(wasted)),
        ]
    })
}

/// Who is at each packing table today while the doors are open.
pub fn tables(
    rota: Memo<(u32, Vec<Shift>)>,
    overlaps: fn((u32, u32), (u32, u32)) -> bool,
) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let (today, shifts) = rota.get();
        (1..=rota::TABLES)
            .map(|table| {
                let names: Vec<&str> = shifts
                    .iter()
                    .filter(|s| s.day == today && s.table == table)
                    .filter(|s| overlaps((s.from, s.to), (rota::OPEN, rota::CLOSE)))
                    .map(|s| s.volunteer.as_str())
                    .collect();
                if names.is_empty() {
                    format!("Table {table}: nobody")
                } else {
                    format!("Table {table}: {}", names.join(", "))
                }
            })
            .collect()
    })
}

/// Each volunteer's hours this week, by name.
pub fn volunteer_hours(
    rota: Memo<(u32, Vec<Shift>)>,
    length: fn(&Shift) -> u32,
) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let (today, shifts) = rota.get();
        let mut totals: Vec<(String, u32)> = Vec::new();
        for shift in shifts.iter().filter(|s| week_of(s.day) == week_of(today)) {
            let minutes = length(shift);
            match totals.iter_mut().find(|(name, _)| *name == shift.volunteer) {
                Some((_, total)) => *total += minutes,
                None => totals.push((shift.volunteer.clone(), minutes)),
            }
        }
        totals.sort();
        totals
            .into_iter()
            .map(|(name, minutes)| format!("{name}: {}", rota::hours(minutes)))
            .collect()
    })
}

/// Builds the food bank with `slip`.
#[node]
pub fn food_bank(slip: Slip) -> FoodBank {
    let helpers = helpers(slip);
    let step: fn(&Helpers, Msg, &Pantry) -> (Pantry, Vec<Msg>) = match slip {
        Slip::PackNoVan => update::slipped::update,
        _ => update::update,
    };
    let pantry = Mvu::with_commands((Pantry::default(), Vec::new()), move |msg, p| {
        step(&helpers, msg, p)
    });
    let today = pantry.select(|p| p.today);
    let shelf = pantry.select(|p| p.donations.clone());
    let stock = stock(shelf.clone());
    let shortfall = match slip {
        Slip::ShortfallFilter => slipped::shortfall(&pantry),
        _ => shortfall(&pantry),
    };
    let parcels = pantry.select(|p| {
        p.parcels
            .iter()
            .filter(|parcel| parcel.day == p.today)
            .map(|parcel| {
                let lines: Vec<String> = parcel
                    .lines
                    .iter()
                    .map(|&(category, grams)| format!("{} {}", category.name(), kg(grams)))
                    .collect();
                format!(
                    "{}, {} people: {}",
                    parcel.household,
                    parcel.people,
                    lines.join(", ")
                )
            })
            .collect::<Vec<_>>()
    });
    let stops = pantry.select(|p| {
        p.deliveries
            .iter()
            .filter(|d| d.day == p.today + 1)
            .map(|d| Stop {
                household: d.household.clone(),
                zone: d.zone.clone(),
            })
            .collect::<Vec<_>>()
    });
    let deliveries = Memo::new({
        let stops = stops.clone();
        move |_| {
            stops
                .get()
                .iter()
                .map(|s| format!("{} ({})", s.household, s.zone))
                .collect::<Vec<_>>()
        }
    });
    let rota_today = pantry.select(|p| (p.today, p.shifts.clone()));
    let overlaps = match slip {
        Slip::OpenOverlap => rota::slipped::overlaps,
        _ => rota::overlaps,
    };
    let tables = tables(rota_today.clone(), overlaps);
    let length = match slip {
        Slip::ShiftLength => rota::slipped::shift_minutes,
        _ => rota::shift_minutes,
    };
    let volunteer_hours = volunteer_hours(rota_today, length);
    let report = match slip {
        Slip::ReportWeek => slipped::report(&pantry),
        _ => report(&pantry),
    };
    let label = match slip {
        Slip::LabelDaysLeft => shelves::slipped::shelf_label,
        _ => shelves::shelf_label,
    };
    let shelves = shelves::shelves(shelf, today.clone(), label).labelled("shelves");
    let use_first = match slip {
        Slip::UseFirstOrder => shelves::slipped::use_first(&shelves),
        _ => shelves::use_first(&shelves),
    };
    let fresh_lots = shelves::fresh_lots(&shelves);
    let loose_lots = shelves::loose_lots(&shelves);
    let round = match slip {
        Slip::RoundLegs => services::slipped::round(stops),
        _ => services::round(stops),
    };
    let top_up = match slip {
        Slip::WarehouseSilent => services::slipped::top_up(shortfall.clone()),
        _ => services::top_up(shortfall.clone()),
    };
    FoodBank {
        pantry,
        today,
        stock,
        shortfall,
        parcels,
        deliveries,
        tables,
        volunteer_hours,
        report,
        shelves,
        use_first,
        fresh_lots,
        loose_lots,
        round,
        top_up,
    }
}

/// The long memos as first written.
pub mod slipped {
    use super::{BTreeMap, Category, Memo, Msg, Mvu, Need, Pantry, Short, kg, rules, week_of};

    /// [`super::shortfall`].
    pub fn shortfall(pantry: &Mvu<Pantry, Msg>) -> Memo<Vec<Short>> {
        let households = pantry.select(|p| p.households.clone());
        let shelf = pantry.select(|p| p.donations.clone());
        Memo::new(move |_| {
            let households = households.get();
            let shelf = shelf.get();
            let mut need: BTreeMap<Category, u32> = BTreeMap::new();
            for home in &households {
                for (category, grams) in rules::parcel_for(home.people, rules::portion) {
                    *need.entry(category).or_default() += grams;
                }
            }
            let mut have: BTreeMap<Category, u32> = BTreeMap::new();
            for d in &shelf {
                *have.entry(d.category).or_default() += d.grams;
            }
            Category::ALL
                .iter()
                .map(|&category| Need {
                    category,
                    need: need.get(&category).copied().unwrap_or(0),
                    have: have.get(&category).copied().unwrap_or(0),
                })
                // BUG(shortfall_filter)
                .filter(|line| line.have >= line.need)
                .map(|line| Short {
                    category: line.category,
                    grams: line.need.saturating_sub(line.have),
                })
                .collect()
        })
    }

    /// [`super::report`].
    pub fn report(pantry: &Mvu<Pantry, Msg>) -> Memo<Vec<String>> {
        let book = pantry.select(Pantry::clone);
        Memo::new(move |_| {
            let p = book.get();
            let week = week_of(p.today);
            let first = (week - 1) * 7 + 1;
            let donated: u32 = p
                .intake
                .iter()
                .filter(|i| week_of(i.day) == week)
                .map(|i| i.grams)
                .sum();
            let (mut parcels, mut people, mut packed) = (0, 0, 0);
            // BUG(report_week)
            for parcel in p.parcels.iter() {
                parcels += 1;
                people += parcel.people;
                packed += parcel.grams();
            }
            let delivered = p
                .deliveries
                .iter()
                .filter(|d| week_of(d.day) == week && d.day <= p.today)
                .count();
            let wasted: u32 = p
                .wasted
                .iter()
                .filter(|&&(day, _)| week_of(day) == week)
                .map(|&(_, grams)| grams)
                .sum();
            vec![
                format!("Week {week}, days {first} to {}", first + 6),
                format!("{} donated", kg(donated)),
                format!("{parcels} parcels, {}, for {people} people", kg(packed)),
                format!("{delivered} delivered"),
                format!("{} thrown away", kg(wasted)),
            ]
        })
    }
}
