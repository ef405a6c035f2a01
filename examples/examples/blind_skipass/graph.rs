//! The resort's graph: the `#[expose]` app an agent reads and drives, and the `#[node]` builder that makes it from
//! the model, the lift board and the services. The office's own figures (the takings, today's skiers) are memos
//! over the model here.

use super::lifts::{self, Lifts};
use super::model::{Band, Msg, PassKind, Resort};
use super::services;
use super::tariff::{self, euros};
use super::update::{self, Rules};
use super::{gates, model::Pass};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::BTreeMap;

/// Which mistake the resort runs with (`None`: the correct resort).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    ChildAge,
    MultiDayDiscount,
    AdmitBeforeStart,
    ScanDayMinute,
    WindNoClose,
    RefundSeason,
    WaitPerHour,
    BusiestByRides,
    OutlookToday,
    SnowNoReading,
    TakingsRefunds,
    SkiersByLift,
}

/// What an agent may see of the resort.
#[expose]
pub struct SkiResort {
    /// The office, the gates and the lift staff: their messages.
    #[expose(messages)]
    pub resort: Mvu<Resort, Msg>,
    /// The day and time.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// Every pass sold.
    #[expose]
    #[node]
    pub passes: Memo<Vec<String>>,
    /// The gates' log.
    #[expose]
    #[node]
    pub gate_log: Memo<Vec<String>>,
    /// Lifts stopped and started, days closed.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Money given back for closed days.
    #[expose]
    #[node]
    pub refunds: Memo<Vec<String>>,
    /// Sales by kind of pass, refunds, and what the office keeps.
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    /// Today's skiers and rides by age band.
    #[expose]
    #[node]
    pub skiers: Memo<Vec<String>>,
    /// The lifts, each with its wait.
    #[expose]
    #[node]
    pub lifts: Lifts,
    /// The board at the bottom station.
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    /// The longest lines.
    #[expose]
    #[node]
    pub busiest: Memo<Vec<String>>,
    /// How many lifts run.
    #[expose]
    #[node]
    pub status: Memo<String>,
    /// Tomorrow's wind, from the weather office.
    #[expose]
    #[node]
    pub outlook: AsyncMemo<Vec<String>>,
    /// The runs, open or not, with their snow.
    #[expose]
    #[node]
    pub slope_report: AsyncMemo<Vec<String>>,
}

/// The rules `update` goes by with `slip`.
fn rules(slip: Slip) -> Rules {
    let rules = Rules::default();
    match slip {
        Slip::ChildAge => Rules {
            band: tariff::slipped::band,
            ..rules
        },
        Slip::MultiDayDiscount => Rules {
            price: tariff::slipped::price,
            ..rules
        },
        Slip::AdmitBeforeStart => Rules {
            admit: gates::slipped::admit,
            ..rules
        },
        Slip::ScanDayMinute => Rules {
            scan: update::slipped::scan,
            ..rules
        },
        Slip::WindNoClose => Rules {
            wind: update::slipped::wind_reading,
            ..rules
        },
        Slip::RefundSeason => Rules {
            close_day: update::slipped::close_day,
            ..rules
        },
        _ => rules,
    }
}

/// A count of something sold or given back, and its money.
#[derive(Default)]
struct Money {
    count: u32,
    cents: u64,
}

impl Money {
    fn line(&self, what: &str) -> String {
        format!("{what}: {}, {}", self.count, euros(self.cents))
    }
}

/// Sales by kind of pass, refunds, and the net.
#[node]
fn takings(resort: &Mvu<Resort, Msg>) -> Memo<Vec<String>> {
    let resort = resort.clone();
    Memo::new(move |_| {
        resort.with_model(|r| {
            let mut days = Money::default();
            let mut seasons = Money::default();
            let mut refunds = Money::default();
            for pass in &r.passes {
                let sold = match pass.kind {
                    PassKind::Days => &mut days,
                    PassKind::Season => &mut seasons,
                };
                sold.count += 1;
                sold.cents += pass.price;
            }
            for refund in &r.refunds {
                refunds.count += 1;
                refunds.cents += refund.cents;
            }
            let net = (days.cents + seasons.cents).saturating_sub(refunds.cents);
            vec![
                days.line("day passes"),
                seasons.line("season passes"),
                refunds.line("refunds"),
                format!("net: {}", euros(net)),
            ]
        })
    })
}

/// Skiers and rides today, by age band.
#[derive(Default)]
struct Tally {
    skiers: u32,
    rides: usize,
}

/// Today's skiers (passes good today that rode) and their rides, by age band.
#[node]
fn skiers(resort: &Mvu<Resort, Msg>) -> Memo<Vec<String>> {
    let resort = resort.clone();
    Memo::new(move |_| {
        resort.with_model(|r| {
            let today = r.day;
            let mut by_band: BTreeMap<Band, Tally> = [Band::Child, Band::Adult, Band::Senior]
                .into_iter()
                .map(|band| (band, Tally::default()))
                .collect();
            let good_today = r.passes.iter().filter(|pass: &&Pass| pass.covers(today));
            for pass in good_today {
                let rides = r
                    .scans
                    .iter()
                    .filter(|scan| scan.day == today && scan.pass == pass.id)
                    .count();
                if rides == 0 {
                    continue;
                }
                let tally = by_band.entry(pass.band).or_default();
                tally.skiers += 1;
                tally.rides += rides;
            }
            by_band
                .iter()
                .map(|(band, t)| {
                    format!(
                        "{}: {} on the slopes, {} rides",
                        band.name(),
                        t.skiers,
                        t.rides
                    )
                })
                .collect()
        })
    })
}

/// Builds the resort with `slip`; `#[node]` names each node after its `let`.
#[node]
pub fn ski_resort(slip: Slip) -> SkiResort {
    let rules = rules(slip);
    let resort = Mvu::with_commands((Resort::default(), update::opening()), move |msg, r| {
        update::update(&rules, msg, r)
    });
    let clock = resort.select(|r| format!("Day {} {}", r.day, r.time()));
    let passes = resort.select(|r| r.passes.iter().map(Pass::line).collect());
    let gate_log = resort.select(|r| r.gate_log.clone());
    let notices = resort.select(|r| r.notices.clone());
    let refunds = resort.select(|r| {
        r.refunds
            .iter()
            .map(|f| {
                format!(
                    "#{} {}: {} for day {}",
                    f.pass,
                    f.holder,
                    euros(f.cents),
                    f.day
                )
            })
            .collect()
    });
    let takings = match slip {
        Slip::TakingsRefunds => slipped::takings(&resort),
        _ => takings(&resort),
    };
    let skiers = match slip {
        Slip::SkiersByLift => slipped::skiers(&resort),
        _ => skiers(&resort),
    };
    let row = match slip {
        Slip::WaitPerHour => lifts::slipped::lift_row,
        _ => lifts::lift_row,
    };
    let lifts = lifts::lifts(&resort, row);
    let board = lifts::board(&lifts);
    let busiest = match slip {
        Slip::BusiestByRides => lifts::slipped::busiest(&lifts),
        _ => lifts::busiest(&lifts),
    };
    let status = lifts::status(&lifts);
    let outlook = match slip {
        Slip::OutlookToday => services::slipped::outlook(&resort),
        _ => services::outlook(&resort),
    };
    let slope_report = match slip {
        Slip::SnowNoReading => services::slipped::slope_report(&resort),
        _ => services::slope_report(&resort),
    };
    SkiResort {
        resort,
        clock,
        passes,
        gate_log,
        notices,
        refunds,
        takings,
        skiers,
        lifts,
        board,
        busiest,
        status,
        outlook,
        slope_report,
    }
}

/// The office's memos with a mistake each.
pub mod slipped {
    use super::super::model::{Band, Msg, Pass, PassKind, Resort};
    use super::super::tariff::euros;
    use super::{Money, Tally};
    use ranvier::{Memo, Mvu, node};
    use std::collections::BTreeMap;

    /// [`super::takings`], with a mistake.
    #[node]
    pub fn takings(resort: &Mvu<Resort, Msg>) -> Memo<Vec<String>> {
        let resort = resort.clone();
        Memo::new(move |_| {
            resort.with_model(|r| {
                let mut days = Money::default();
                let mut seasons = Money::default();
                let mut refunds = Money::default();
                for pass in &r.passes {
                    let sold = match pass.kind {
                        PassKind::Days => &mut days,
                        PassKind::Season => &mut seasons,
                    };
                    sold.count += 1;
                    sold.cents += pass.price;
                }
                for refund in &r.refunds {
                    refunds.count += 1;
                    // BUG(takings_refunds)
                    days.cents += refund.cents;
                }
                let net = (days.cents + seasons.cents).saturating_sub(refunds.cents);
                vec![
                    days.line("day passes"),
                    seasons.line("season passes"),
                    refunds.line("refunds"),
                    format!("net: {}", euros(net)),
                ]
            })
        })
    }

    /// [`super::skiers`], with a mistake.
    #[node]
    pub fn skiers(resort: &Mvu<Resort, Msg>) -> Memo<Vec<String>> {
        let resort = resort.clone();
        Memo::new(move |_| {
            resort.with_model(|r| {
                let today = r.day;
                let mut by_band: BTreeMap<Band, Tally> = [Band::Child, Band::Adult, Band::Senior]
                    .into_iter()
                    .map(|band| (band, Tally::default()))
                    .collect();
                let good_today = r.passes.iter().filter(|pass: &&Pass| pass.covers(today));
                for pass in good_today {
                    let rides = r
                        .scans
                        .iter()
                        // BUG(skiers_by_lift)
                        .filter(|scan| scan.day == today && scan.lift == pass.id)
                        .count();
                    if rides == 0 {
                        continue;
                    }
                    let tally = by_band.entry(pass.band).or_default();
                    tally.skiers += 1;
                    tally.rides += rides;
                }
                by_band
                    .iter()
                    .map(|(band, t)| {
                        format!(
                            "{}: {} on the slopes, {} rides",
                            band.name(),
                            t.skiers,
                            t.rides
                        )
                    })
                    .collect()
            })
        })
    }
}
