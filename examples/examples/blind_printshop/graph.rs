//! The print shop as an agent sees it: the `#[expose]` app, and the `#[node]` builder with the memos the counter,
//! the press room and the bench read (the quotes, the presses' load, the paper free on each shelf, the bench's work,
//! the jobs ready to go).

use super::finishing;
use super::jobs::{self, Board};
use super::model::{self, DAYS, Finish, Job, Msg, Paper, Press, Sheet, Shop, Stage, Stock};
use super::presses;
use super::pricing;
use super::services::{self, kilos, money};
use super::update::{self, Rules};
use ranvier::collection::Collection;
use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

/// Which mistake the shop runs with (`None`: the correct shop). See the crate doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct shop.
    None,
    /// See `SLIPS` in `main.rs`.
    OffsetSetup,
    /// See `SLIPS` in `main.rs`.
    ProofRounds,
    /// See `SLIPS` in `main.rs`.
    FlatFinishDropped,
    /// See `SLIPS` in `main.rs`.
    ClickPerSheet,
    /// See `SLIPS` in `main.rs`.
    BindMinutes,
    /// See `SLIPS` in `main.rs`.
    ImpositionArgs,
    /// See `SLIPS` in `main.rs`.
    PressLoadPrinted,
    /// See `SLIPS` in `main.rs`.
    ReservedCarried,
    /// See `SLIPS` in `main.rs`.
    CartonCount,
    /// See `SLIPS` in `main.rs`.
    DueOrder,
    /// See `SLIPS` in `main.rs`.
    CourierWeight,
    /// See `SLIPS` in `main.rs`.
    MillUnlisted,
}

/// One shelf as the stock list shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct StockLine {
    /// The paper.
    pub paper: Paper,
    /// The sheet size.
    pub sheet: Sheet,
    /// Sheets on the shelf.
    pub on_shelf: u32,
    /// Sheets booked for jobs in a press's queue.
    pub reserved: u32,
    /// On the shelf and not booked.
    pub free: u32,
    /// Below its reorder level.
    pub reorder: bool,
}

/// A finished job packed to go.
#[derive(Clone, Debug, PartialEq)]
pub struct Parcel {
    /// `J1 Ada`.
    pub docket: String,
    /// By courier (else collected).
    pub courier: bool,
    /// Cartons.
    pub cartons: u32,
    /// Weight packed, in grams.
    pub grams: u32,
}

/// The print shop, as an agent sees it.
#[expose]
pub struct PrintShop {
    /// The shop: its messages.
    #[expose(messages)]
    pub shop: Mvu<Shop, Msg>,
    /// The shop's clock: `Mon 09:05`.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// Every open job with its price and where it is.
    #[expose]
    #[node]
    pub quotes: Memo<Vec<String>>,
    /// The job board: one row per docket, with the cartons it packs into.
    #[expose]
    #[node]
    pub jobs: Board,
    /// Proofs with customers.
    #[expose]
    #[node]
    pub proofs_out: Memo<usize>,
    /// Open colour jobs.
    #[expose]
    #[node]
    pub in_colour: Memo<usize>,
    /// The open jobs by the day they are due.
    #[expose]
    #[node]
    pub due_list: Memo<Vec<String>>,
    /// Each press's queue: jobs, hours of work and when it is free.
    #[expose]
    #[node]
    pub press_load: Memo<Vec<String>>,
    /// The paper on each shelf, booked and free.
    #[expose]
    #[node]
    pub stock: Memo<Vec<StockLine>>,
    /// The bench: printed jobs to finish, and the minutes they take.
    #[expose]
    #[node]
    pub bench: Memo<Vec<String>>,
    /// Finished jobs waiting to go.
    #[expose]
    #[node]
    pub ready: Memo<Vec<String>>,
    /// The courier's van and its prices.
    #[expose]
    #[node]
    pub courier: AsyncMemo<Vec<String>>,
    /// Paper to reorder.
    #[expose]
    #[node]
    pub reorders: AsyncMemo<Vec<String>>,
    /// Invoiced for jobs gone, in pence.
    #[expose]
    #[node]
    pub invoiced: Memo<u32>,
}

/// `Mon 09:05` for minutes since Monday 00:00.
pub fn clock_text(minutes: u32) -> String {
    let day = DAYS[(minutes / (24 * 60)) as usize % DAYS.len()];
    let of_day = minutes % (24 * 60);
    format!("{day} {:02}:{:02}", of_day / 60, of_day % 60)
}

/// Each press's queue: `Speedmaster: 2 queued, 1h40, free at Mon 09:40`, or `Indigo: idle`.
pub fn press_load(
    jobs: &Memo<Vec<Job>>,
    presses: &Memo<Vec<Press>>,
    clock: &Memo<u32>,
) -> Memo<Vec<String>> {
    let (jobs, presses, clock) = (jobs.clone(), presses.clone(), clock.clone());
    Memo::new(move |_| {
        let jobs = jobs.get();
        let now = clock.get();
        let mut lines = Vec::new();
        for press in presses.get().iter() {
            let mut minutes = 0;
            let mut count = 0;
            let queued = jobs
                .iter()
                .filter(|job| job.booked_on(&press.name) && job.stage == Stage::Queued);
            for job in queued {
                minutes +=
                    press.setup_minutes + presses::run_minutes(job.sheets, press.sheets_per_hour);
                count += 1;
            }
            if count == 0 {
                lines.push(format!("{}: idle", press.name));
                continue;
            }
            lines.push(format!(
                "{}: {count} queued, {}h{:02}, free at {}",
                press.name,
                minutes / 60,
                minutes % 60,
                clock_text(now + minutes)
            ));
        }
        lines
    })
}

/// The paper on each shelf: the sheets booked for queued jobs are not free.
pub fn stock(
    jobs: &Memo<Vec<Job>>,
    shelves: &Memo<Vec<Stock>>,
    presses: &Memo<Vec<Press>>,
) -> Memo<Vec<StockLine>> {
    let (jobs, shelves, presses) = (jobs.clone(), shelves.clone(), presses.clone());
    Memo::new(move |_| {
        let jobs = jobs.get();
        let presses = presses.get();
        let sheet_of = |job: &Job| {
            presses
                .iter()
                .find(|press| job.press.as_ref() == Some(&press.name))
                .map(|press| press.sheet)
        };
        let mut lines = Vec::new();
        for shelf in shelves.get() {
            let mut reserved = 0;
            for job in jobs.iter().filter(|job| job.stage == Stage::Queued) {
                if job.paper == shelf.paper && sheet_of(job) == Some(shelf.sheet) {
                    reserved += job.sheets;
                }
            }
            let free = shelf.sheets.saturating_sub(reserved);
            lines.push(StockLine {
                paper: shelf.paper,
                sheet: shelf.sheet,
                on_shelf: shelf.sheets,
                reserved,
                free,
                reorder: free < shelf.reorder_at,
            });
        }
        lines
    })
}

/// The bench: each printed job to finish with its minutes (`J2 Bo: stitch 400, 40 min`), then the total.
pub fn bench(jobs: &Memo<Vec<Job>>, minutes: fn(Finish, u32) -> u32) -> Memo<Vec<String>> {
    let jobs = jobs.clone();
    Memo::new(move |_| {
        let waiting: Vec<(String, u32)> = jobs
            .get()
            .iter()
            .filter(|job| job.stage == Stage::Printed && job.finish != Finish::Flat)
            .map(|job| {
                let took = minutes(job.finish, job.quantity);
                let what = match job.finish {
                    Finish::Trim => "trim",
                    Finish::Fold => "fold",
                    Finish::Bind => "stitch",
                    Finish::Flat => "pack",
                };
                (
                    format!("{}: {what} {}, {took} min", job.docket(), job.quantity),
                    took,
                )
            })
            .collect();
        let total: u32 = waiting.iter().map(|(_, took)| took).sum();
        let mut lines: Vec<String> = waiting.into_iter().map(|(line, _)| line).collect();
        if total > 0 {
            lines.push(format!("bench: {}h{:02}", total / 60, total % 60));
        }
        lines
    })
}

/// The finished jobs packed to go, with their cartons and weight.
pub fn parcels(jobs: &Memo<Vec<Job>>, board: &Board) -> Memo<Vec<Parcel>> {
    let (jobs, board) = (jobs.clone(), board.clone());
    Memo::new(move |_| {
        jobs.get()
            .iter()
            .filter(|job| job.stage == Stage::Finished)
            .map(|job| {
                let cartons = board.row(&job.id).map_or(1, |(_, cartons)| cartons.get());
                Parcel {
                    docket: job.docket(),
                    courier: job.courier,
                    cartons,
                    grams: finishing::parcel_grams(job, cartons),
                }
            })
            .collect()
    })
}

/// Builds the shop with `slip`'s mistake (none for [`Slip::None`]).
#[node]
pub fn print_shop(slip: Slip) -> PrintShop {
    let opening = if slip == Slip::OffsetSetup {
        model::slipped::opening()
    } else {
        Shop::default()
    };
    let rules = Rules {
        quote: if slip == Slip::ClickPerSheet {
            pricing::slipped::quote
        } else {
            pricing::quote
        },
        sheets_for: if slip == Slip::ImpositionArgs {
            presses::slipped::sheets_for
        } else {
            presses::sheets_for
        },
        reject_proof: if slip == Slip::ProofRounds {
            update::slipped::reject_proof
        } else {
            update::reject_proof
        },
        print_next: if slip == Slip::FlatFinishDropped {
            update::slipped::print_next
        } else {
            update::print_next
        },
    };
    let shop = Mvu::with_commands((opening, Vec::new()), move |msg, shop| {
        update::update(msg, shop, &rules)
    })
    .labelled("shop");
    let all_jobs = shop.select(|shop| shop.jobs.clone());
    let all_presses = shop.select(|shop| shop.presses.clone());
    let shelves = shop.select(|shop| shop.stock.clone());
    let minutes = shop.select(|shop| shop.clock);
    let clock = shop.select(|shop| clock_text(shop.clock));
    let quotes = Memo::new({
        let all_jobs = all_jobs.clone();
        move |_| {
            all_jobs
                .get()
                .iter()
                .filter(|job| job.is_open())
                .map(|job| {
                    format!(
                        "{}: {}, {} ({:?})",
                        job.docket(),
                        job.describe(),
                        money(job.price()),
                        job.stage
                    )
                })
                .collect::<Vec<_>>()
        }
    });
    let row: jobs::RowFactory = if slip == Slip::CartonCount {
        jobs::slipped::job_row
    } else {
        jobs::job_row
    };
    let jobs = Collection::keyed(all_jobs.clone(), |job: &Job| job.id, row);
    let proofs_out = jobs::proofs_out(&jobs);
    let in_colour = jobs::in_colour(&jobs);
    let order = if slip == Slip::DueOrder {
        jobs::slipped::due_order(&jobs)
    } else {
        jobs::due_order(&jobs)
    };
    let due_list = jobs::due_list(&jobs, &order);
    let press_load = if slip == Slip::PressLoadPrinted {
        slipped::press_load(&all_jobs, &all_presses, &minutes)
    } else {
        press_load(&all_jobs, &all_presses, &minutes)
    };
    let stock = if slip == Slip::ReservedCarried {
        slipped::stock(&all_jobs, &shelves, &all_presses)
    } else {
        stock(&all_jobs, &shelves, &all_presses)
    };
    let bench = bench(
        &all_jobs,
        if slip == Slip::BindMinutes {
            finishing::slipped::minutes
        } else {
            finishing::minutes
        },
    );
    let parcels = parcels(&all_jobs, &jobs);
    let ready = Memo::new({
        let parcels = parcels.clone();
        move |_| {
            parcels
                .get()
                .iter()
                .map(|p| {
                    let how = if p.courier { "courier" } else { "to collect" };
                    format!(
                        "{}: {} cartons, {}, {how}",
                        p.docket,
                        p.cartons,
                        kilos(p.grams)
                    )
                })
                .collect::<Vec<_>>()
        }
    });
    let courier = if slip == Slip::CourierWeight {
        services::slipped::courier(&parcels)
    } else {
        services::courier(&parcels)
    };
    let reorders = if slip == Slip::MillUnlisted {
        services::slipped::reorders(&stock)
    } else {
        services::reorders(&stock)
    };
    let invoiced = shop.select(|shop| shop.invoiced);
    PrintShop {
        shop,
        clock,
        quotes,
        jobs,
        proofs_out,
        in_colour,
        due_list,
        press_load,
        stock,
        bench,
        ready,
        courier,
        reorders,
        invoiced,
    }
}

/// Copies of this file's memos with one mistake each, selected by [`Slip`].
pub mod slipped {
    use super::*;

    /// Each press's queue: `Speedmaster: 2 queued, 1h40, free at Mon 09:40`, or `Indigo: idle`.
    pub fn press_load(
        jobs: &Memo<Vec<Job>>,
        presses: &Memo<Vec<Press>>,
        clock: &Memo<u32>,
    ) -> Memo<Vec<String>> {
        let (jobs, presses, clock) = (jobs.clone(), presses.clone(), clock.clone());
        Memo::new(move |_| {
            let jobs = jobs.get();
            let now = clock.get();
            let mut lines = Vec::new();
            for press in presses.get().iter() {
                let mut minutes = 0;
                let mut count = 0;
                // BUG(press_load_printed)
                let queued = jobs.iter().filter(|job| job.booked_on(&press.name));
                for job in queued {
                    minutes += press.setup_minutes
                        + presses::run_minutes(job.sheets, press.sheets_per_hour);
                    count += 1;
                }
                if count == 0 {
                    lines.push(format!("{}: idle", press.name));
                    continue;
                }
                lines.push(format!(
                    "{}: {count} queued, {}h{:02}, free at {}",
                    press.name,
                    minutes / 60,
                    minutes % 60,
                    clock_text(now + minutes)
                ));
            }
            lines
        })
    }

    /// The paper on each shelf: the sheets booked for queued jobs are not free.
    pub fn stock(
        jobs: &Memo<Vec<Job>>,
        shelves: &Memo<Vec<Stock>>,
        presses: &Memo<Vec<Press>>,
    ) -> Memo<Vec<StockLine>> {
        let (jobs, shelves, presses) = (jobs.clone(), shelves.clone(), presses.clone());
        Memo::new(move |_| {
            let jobs = jobs.get();
            let presses = presses.get();
            let sheet_of = |job: &Job| {
                presses
                    .iter()
                    .find(|press| job.press.as_ref() == Some(&press.name))
                    .map(|press| press.sheet)
            };
            let mut lines = Vec::new();
            // BUG(reserved_carried)
            let mut reserved = 0;
            for shelf in shelves.get() {
                for job in jobs.iter().filter(|job| job.stage == Stage::Queued) {
                    if job.paper == shelf.paper && sheet_of(job) == Some(shelf.sheet) {
                        reserved += job.sheets;
                    }
                }
                let free = shelf.sheets.saturating_sub(reserved);
                lines.push(StockLine {
                    paper: shelf.paper,
                    sheet: shelf.sheet,
                    on_shelf: shelf.sheets,
                    reserved,
                    free,
                    reorder: free < shelf.reorder_at,
                });
            }
            lines
        })
    }
}
