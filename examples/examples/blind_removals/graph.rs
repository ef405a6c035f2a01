//! The firm's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the firm's
//! `Mvu`, the rules, the jobs' collection and the services.

use super::crews;
use super::jobs::{self, Jobs, RowFactory};
use super::model::{self, Firm, Job, Msg, Quote, Status, pounds, weekday, weekday_name};
use super::quotes;
use super::remote::{FuelFeed, RouteService};
use super::services;
use super::storage::{self, LateFeeRule};
use super::update::{self, Helpers};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the firm to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    RoadFallback,
    FuelCap,
    RowBalance,
    InvoiceFilter,
    BookDay,
    ReceiveStock,
    StairsLift,
    CancelFee,
    LateGrace,
    PayTotal,
    WeekInvoiced,
    ReorderPoint,
}

/// What an agent sees of the firm.
#[expose]
pub struct RemovalsFirm {
    #[expose(messages)]
    pub firm: Mvu<Firm, Msg>,
    /// The day, with its weekday.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The open quotes, priced.
    #[expose]
    #[node]
    pub quote_sheet: Memo<Vec<String>>,
    /// The jobs, each with its line.
    #[expose]
    #[node]
    pub jobs: Jobs,
    /// Every job's line, in number order.
    #[expose]
    #[node]
    pub job_book: Memo<Vec<String>>,
    /// The booked jobs, day by day.
    #[expose]
    #[node]
    pub day_sheet: Memo<Vec<String>>,
    /// The jobs to invoice.
    #[expose]
    #[node]
    pub invoice_run: Memo<Vec<String>>,
    /// How many jobs are booked.
    #[expose]
    #[node]
    pub booked: Memo<usize>,
    /// The store room.
    #[expose]
    #[node]
    pub materials: Memo<Vec<String>>,
    /// Today's pay sheet.
    #[expose]
    #[node]
    pub pay_sheet: Memo<Vec<String>>,
    /// The storage units.
    #[expose]
    #[node]
    pub storage: Memo<Vec<String>>,
    /// This week's invoices, day by day.
    #[expose]
    #[node]
    pub week_invoiced: Memo<Vec<String>>,
    /// What the office has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The quotes' road miles, from the route planner.
    #[expose]
    #[node]
    pub road_miles: AsyncMemo<Vec<String>>,
    /// The fuel surcharge on the booked jobs, from the diesel price.
    #[expose]
    #[node]
    pub fuel_surcharges: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::StairsLift => Helpers {
                stairs: quotes::slipped::stairs_charge,
                ..correct
            },
            Slip::CancelFee => Helpers {
                cancellation: quotes::slipped::cancellation_fee,
                ..correct
            },
            Slip::ReorderPoint => Helpers {
                needs_reorder: model::slipped::needs_reorder,
                ..correct
            },
            Slip::BookDay => Helpers {
                book: update::slipped::book,
                ..correct
            },
            Slip::ReceiveStock => Helpers {
                receive: update::slipped::receive,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the firm with `slip`.
#[node]
pub fn removals_firm(slip: Slip) -> RemovalsFirm {
    let helpers = slip.helpers();
    let firm = Mvu::with_commands(
        (Firm::default(), update::opening()),
        move |msg, firm: &Firm| update::update(msg, firm, &helpers),
    );
    let today = firm.select(|firm| format!("{} day {}", weekday_name(firm.today), firm.today));
    let quote_sheet = quotes::quote_sheet(&firm, helpers.stairs);

    let job_list: Memo<Vec<Job>> = firm.select(|firm| firm.jobs.clone());
    let row: RowFactory = match slip {
        Slip::RowBalance => jobs::slipped::job_row,
        _ => jobs::job_row,
    };
    let collection = jobs::jobs(&job_list, row);
    let job_book = jobs::job_book(&collection);
    let to_invoice = match slip {
        Slip::InvoiceFilter => jobs::slipped::to_invoice(&collection),
        _ => jobs::to_invoice(&collection),
    };
    let invoice_run = jobs::invoice_run(&job_list, &to_invoice.keys());
    let by_day = jobs::by_day(&collection);
    let day_sheet = jobs::day_sheet(&job_list, &by_day);
    let booked = jobs::booked(&collection);

    let materials = storage::materials_sheet(&firm, helpers.needs_reorder);
    let pay_sheet = match slip {
        Slip::PayTotal => crews::slipped::pay_sheet(&firm),
        _ => crews::pay_sheet(&firm),
    };
    let late_fee: LateFeeRule = match slip {
        Slip::LateGrace => storage::slipped::late_fee,
        _ => storage::late_fee,
    };
    let storage = storage::storage_sheet(&firm, late_fee);
    let week_invoiced = match slip {
        Slip::WeekInvoiced => slipped::week_invoiced(&firm),
        _ => week_invoiced(&firm),
    };
    let notices = firm.select(|firm| firm.notices.clone());

    let quote_list: Memo<Vec<Quote>> = firm.select(|firm| firm.quotes.clone());
    let route = Rc::new(RouteService::default());
    let feed = Rc::new(FuelFeed::default());
    let road_miles = match slip {
        Slip::RoadFallback => services::slipped::road_miles(&quote_list, route),
        _ => services::road_miles(&quote_list, route),
    };
    let fuel_surcharges = match slip {
        Slip::FuelCap => services::slipped::fuel_surcharges(&job_list, feed),
        _ => services::fuel_surcharges(&job_list, feed),
    };

    RemovalsFirm {
        firm,
        today,
        quote_sheet,
        jobs: collection,
        job_book,
        day_sheet,
        invoice_run,
        booked,
        materials,
        pay_sheet,
        storage,
        week_invoiced,
        notices,
        road_miles,
        fuel_surcharges,
    }
}

/// This week's invoices: each day from Monday to today with what was invoiced, and the week's total.
#[node]
pub fn week_invoiced(firm: &Mvu<Firm, Msg>) -> Memo<Vec<String>> {
    let week_invoiced = firm.select(|firm| {
        let monday = firm.today - weekday(firm.today);
        let mut lines = Vec::new();
        let mut week = 0;
        for day in monday..=firm.today {
            let mut day_total = 0;
            let mut count = 0;
            for job in &firm.jobs {
                if job.invoiced != Some(day) {
                    continue;
                }
                day_total += match job.status {
                    Status::Cancelled => job.fee,
                    Status::Booked | Status::Done => job.quoted,
                };
                count += 1;
            }
            if count > 0 {
                lines.push(format!(
                    "{} day {day}: {} ({count} invoiced)",
                    weekday_name(day),
                    pounds(day_total)
                ));
            }
            week += day_total;
        }
        lines.push(format!("week: {}", pounds(week)));
        lines
    });
    week_invoiced
}

pub mod slipped {
    use super::super::model::{Firm, Msg, Status, pounds, weekday, weekday_name};
    use ranvier::{Memo, Mvu, node};

    /// This week's invoices: each day from Monday to today with what was invoiced, and the week's total.
    #[node]
    pub fn week_invoiced(firm: &Mvu<Firm, Msg>) -> Memo<Vec<String>> {
        let week_invoiced = firm.select(|firm| {
            let monday = firm.today - weekday(firm.today);
            let mut lines = Vec::new();
            let mut week = 0;
            for day in monday..=firm.today {
                let mut day_total = 0;
                let mut count = 0;
                for job in &firm.jobs {
                    if job.invoiced != Some(day) {
                        // BUG(week_invoiced)
                        break;
                    }
                    day_total += match job.status {
                        Status::Cancelled => job.fee,
                        Status::Booked | Status::Done => job.quoted,
                    };
                    count += 1;
                }
                if count > 0 {
                    lines.push(format!(
                        "{} day {day}: {} ({count} invoiced)",
                        weekday_name(day),
                        pounds(day_total)
                    ));
                }
                week += day_total;
            }
            lines.push(format!("week: {}", pounds(week)));
            lines
        });
        week_invoiced
    }
}
