//! The brewery as an agent sees it: the `#[expose]` app, and the `#[node]` function that builds its graph (the boards
//! by the tanks and in the stores, the cellar book, the keg accounts, the week's production report; the batches from
//! `batches.rs`; the invoices and the duty from `services.rs`).

use std::cell::Cell;
use std::collections::BTreeMap;

use super::batches::{self, Batches};
use super::brewing;
use super::model::{Brewery, Msg, Stage, day_name, kilos, pounds, units, week_of};
use super::services;
use super::update;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

/// Which mistake the brewery runs with (`None`: the correct brewery).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct brewery.
    None,
    /// `ship`.
    ShipNewCustomer,
    /// `package`.
    BottlesUnit,
    /// `brewing::draw`.
    DrawExpired,
    /// `brewing::next_stage`.
    FermentArm,
    /// `trade::duty_band`.
    BandEdge,
    /// The tank board.
    TankDay,
    /// The week's report.
    ReportAccumulator,
    /// The brew log's row.
    FinalGravity,
    /// The short batches' filter.
    ShortFilter,
    /// The invoices.
    InvoiceSwapped,
    /// The duty.
    DutyDefault,
    /// `Batch::default`.
    BatchStage,
}

thread_local! {
    static SLIP: Cell<Slip> = const { Cell::new(Slip::None) };
}

impl Slip {
    /// The mistake the brewery on this graph thread runs with (what `update`, which takes no settings, reads).
    pub fn current() -> Slip {
        SLIP.with(Cell::get)
    }
}

/// The brewery: its messages, and what its staff watch.
#[expose]
pub struct Brewhouse {
    /// The brewery's model and `update`.
    #[expose(messages)]
    pub brewery: Mvu<Brewery, Msg>,
    /// Today.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The tank board: what each tank holds, and how far along it is.
    #[expose]
    #[node]
    pub tanks: Memo<Vec<String>>,
    /// The stores: each ingredient's weight still good to use, and what is past its best-before.
    #[expose]
    #[node]
    pub stock: Memo<Vec<String>>,
    /// The batches, one row per batch with its brew log line.
    #[expose]
    #[node]
    pub batches: Batches,
    /// The brew log.
    #[expose]
    #[node]
    pub brew_log: Memo<Vec<String>>,
    /// The batches brewed short of an ingredient.
    #[expose]
    #[node]
    pub short: Memo<Vec<String>>,
    /// How many batches are fermenting.
    #[expose]
    #[node]
    pub fermenting: Memo<usize>,
    /// The batches whose strength is known, strongest first.
    #[expose]
    #[node]
    pub strongest: Memo<Vec<String>>,
    /// Full kegs and bottles in the cellar, by beer.
    #[expose]
    #[node]
    pub cellar: Memo<Vec<String>>,
    /// The customers' keg accounts.
    #[expose]
    #[node]
    pub accounts: Memo<Vec<String>>,
    /// This week's production report.
    #[expose]
    #[node]
    pub report: Memo<Vec<String>>,
    /// The shipped orders' invoices (the trade price list is a service over the network).
    #[expose]
    #[node]
    pub invoices: AsyncMemo<Vec<String>>,
    /// The duty owed on this week's packaged beer (the duty office's rates are a service over the network).
    #[expose]
    #[node]
    pub duty: AsyncMemo<Vec<String>>,
}

/// Builds the brewery's graph, with `slip`'s mistake.
#[node]
pub fn brewhouse(slip: Slip) -> Brewhouse {
    SLIP.with(|current| current.set(slip));
    let brewery = Mvu::with_commands(update::opening(), update::update);
    let today = brewery.select(|b| day_name(b.day));
    let tank_board = if slip == Slip::TankDay {
        slipped::tank_board
    } else {
        tank_board
    };
    let tanks = tank_board(&brewery);
    let stock = stores(&brewery);
    let batches = batches::batches(&brewery, slip);
    let brew_log = batches::brew_log(&batches);
    let short_of = if slip == Slip::ShortFilter {
        batches::slipped::short_of
    } else {
        batches::short_of
    };
    let short = short_of(&batches);
    let fermenting = batches::fermenting(&batches);
    let strongest = batches::strongest(&batches);
    let cellar = brewery.select(|b| {
        b.cellar
            .iter()
            .map(|c| format!("{}: {} kegs, {} bottles", c.beer, c.kegs, c.bottles))
            .collect::<Vec<_>>()
    });
    let accounts = brewery.select(|b| {
        b.accounts
            .iter()
            .filter(|a| a.kegs_out > 0 || a.deposits > 0)
            .map(|a| {
                let held = pounds(i64::from(a.deposits));
                format!(
                    "{}: {} kegs out, {held} deposit held",
                    a.customer, a.kegs_out
                )
            })
            .collect::<Vec<_>>()
    });
    let week_report = if slip == Slip::ReportAccumulator {
        slipped::week_report
    } else {
        week_report
    };
    let report = week_report(&brewery);
    let invoices = if slip == Slip::InvoiceSwapped {
        services::slipped::invoices(&brewery)
    } else {
        services::invoices(&brewery)
    };
    let duty = if slip == Slip::DutyDefault {
        services::slipped::duty(&brewery, slip)
    } else {
        services::duty(&brewery, slip)
    };
    Brewhouse {
        brewery,
        today,
        tanks,
        stock,
        batches,
        brew_log,
        short,
        fermenting,
        strongest,
        cellar,
        accounts,
        report,
        invoices,
        duty,
    }
}

/// The stores' board: each ingredient's weight still good to use today, and what is past its best-before.
fn stores(brewery: &Mvu<Brewery, Msg>) -> Memo<Vec<String>> {
    brewery.select(|b| {
        let mut weights: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
        for lot in &b.lots {
            let (good, past) = weights.entry(&lot.ingredient).or_default();
            if lot.best_before >= b.day {
                *good += lot.grams;
            } else {
                *past += lot.grams;
            }
        }
        weights
            .into_iter()
            .map(|(name, (good, past))| match past {
                0 => format!("{name}: {}", kilos(good)),
                past => format!("{name}: {} ({} past best-before)", kilos(good), kilos(past)),
            })
            .collect()
    })
}

/// The board by the tanks: each tank's batch, what it is doing and on which day of how many.
fn tank_board(brewery: &Mvu<Brewery, Msg>) -> Memo<Vec<String>> {
    let brewery = brewery.clone();
    Memo::new(move |_| {
        brewery.with_model(|b| {
            let mut board = Vec::with_capacity(units::TANKS.len());
            for tank in units::TANKS {
                let Some(batch) = b.in_tank(tank) else {
                    board.push(format!("{tank}: empty"));
                    continue;
                };
                let line = if batch.stage == Stage::Bright {
                    let since = day_name(batch.stage_since);
                    format!("{tank}: {}, bright since {since}", batch.label())
                } else {
                    let days = b
                        .recipe(&batch.beer)
                        .map_or(0, |recipe| brewing::stage_days(batch.stage, recipe));
                    let day = b.day - batch.stage_since + 1;
                    let doing = batch.stage.doing();
                    format!("{tank}: {}, {doing} day {day} of {days}", batch.label())
                };
                board.push(line);
            }
            board
        })
    })
}

/// What a week's report adds up.
#[derive(Debug, Default)]
struct WeekTotals {
    brewed: u32,
    brewed_litres: u32,
    packaged_litres: u32,
    kegs: u32,
    bottles: u32,
    in_tanks: u32,
}

/// This week's production report: brewed, packaged, shipped, and what is still in the tanks.
fn week_report(brewery: &Mvu<Brewery, Msg>) -> Memo<Vec<String>> {
    let brewery = brewery.clone();
    Memo::new(move |_| {
        brewery.with_model(|b| {
            let week = week_of(b.day);
            let this_week = |day: u32| week_of(day) == week;
            let mut totals = WeekTotals::default();
            for batch in &b.batches {
                if this_week(batch.brewed_on) {
                    totals.brewed += 1;
                    totals.brewed_litres += batch.litres;
                }
                match batch.packaged_on {
                    Some(day) if this_week(day) => {
                        totals.packaged_litres += batch.litres;
                        totals.kegs += batch.kegs;
                        totals.bottles += batch.bottles;
                    }
                    Some(_) => {}
                    None => totals.in_tanks += batch.litres,
                }
            }
            let shipped: Vec<_> = b
                .orders
                .iter()
                .filter(|order| order.shipped_on.is_some_and(this_week))
                .collect();
            let kegs_out: u32 = shipped.iter().map(|order| order.kegs).sum();
            let bottles_out: u32 = shipped.iter().map(|order| order.bottles).sum();
            vec![
                format!("week {week}, to {}", day_name(b.day)),
                format!(
                    "brewed: {} batches, {} L",
                    totals.brewed, totals.brewed_litres
                ),
                format!(
                    "packaged: {} L into {} kegs and {} bottles",
                    totals.packaged_litres, totals.kegs, totals.bottles
                ),
                format!(
                    "shipped: {} orders, {kegs_out} kegs and {bottles_out} bottles",
                    shipped.len()
                ),
                format!("in the tanks: {} L", totals.in_tanks),
            ]
        })
    })
}

/// Copies of the boards with one mistake each, for the blind test.
pub mod slipped {
    use super::super::brewing;
    use super::super::model::{Brewery, Msg, Stage, day_name, units, week_of};
    use super::WeekTotals;
    use ranvier::{Memo, Mvu};

    /// [`super::tank_board`] with a mistake.
    pub fn tank_board(brewery: &Mvu<Brewery, Msg>) -> Memo<Vec<String>> {
        let brewery = brewery.clone();
        Memo::new(move |_| {
            brewery.with_model(|b| {
                let mut board = Vec::with_capacity(units::TANKS.len());
                for tank in units::TANKS {
                    let Some(batch) = b.in_tank(tank) else {
                        board.push(format!("{tank}: empty"));
                        continue;
                    };
                    let line = if batch.stage == Stage::Bright {
                        let since = day_name(batch.stage_since);
                        format!("{tank}: {}, bright since {since}", batch.label())
                    } else {
                        let days = b
                            .recipe(&batch.beer)
                            .map_or(0, |recipe| brewing::stage_days(batch.stage, recipe));
                        // BUG(tank_day)
                        let day = b.day - batch.brewed_on + 1;
                        let doing = batch.stage.doing();
                        format!("{tank}: {}, {doing} day {day} of {days}", batch.label())
                    };
                    board.push(line);
                }
                board
            })
        })
    }

    /// [`super::week_report`] with a mistake.
    pub fn week_report(brewery: &Mvu<Brewery, Msg>) -> Memo<Vec<String>> {
        let brewery = brewery.clone();
        Memo::new(move |_| {
            brewery.with_model(|b| {
                let week = week_of(b.day);
                let this_week = |day: u32| week_of(day) == week;
                let mut totals = WeekTotals::default();
                for batch in &b.batches {
                    if this_week(batch.brewed_on) {
                        totals.brewed += 1;
                        totals.brewed_litres += batch.litres;
                    }
                    match batch.packaged_on {
                        Some(day) if this_week(day) => {
                            // BUG(report_accumulator)
                            totals.brewed_litres += batch.litres;
                            totals.kegs += batch.kegs;
                            totals.bottles += batch.bottles;
                        }
                        Some(_) => {}
                        None => totals.in_tanks += batch.litres,
                    }
                }
                let shipped: Vec<_> = b
                    .orders
                    .iter()
                    .filter(|order| order.shipped_on.is_some_and(this_week))
                    .collect();
                let kegs_out: u32 = shipped.iter().map(|order| order.kegs).sum();
                let bottles_out: u32 = shipped.iter().map(|order| order.bottles).sum();
                vec![
                    format!("week {week}, to {}", day_name(b.day)),
                    format!(
                        "brewed: {} batches, {} L",
                        totals.brewed, totals.brewed_litres
                    ),
                    format!(
                        "packaged: {} L into {} kegs and {} bottles",
                        totals.packaged_litres, totals.kegs, totals.bottles
                    ),
                    format!(
                        "shipped: {} orders, {kegs_out} kegs and {bottles_out} bottles",
                        shipped.len()
                    ),
                    format!("in the tanks: {} L", totals.in_tanks),
                ]
            })
        })
    }
}
