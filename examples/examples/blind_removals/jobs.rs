//! The jobs as a keyed collection: one row per job number with its line, and the views the office reads (the jobs
//! by day, the jobs to invoice, how many are booked).

use super::model::{Job, Status, pounds, weekday_name};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The jobs: keyed by number, each row with its line.
pub type Jobs = Collection<u32, Job, Memo<String>>;

/// What makes a job's row.
pub type RowFactory = fn(&Row<u32, Job>) -> Memo<String>;

/// A job's row: its line, with what the customer still owes.
#[node]
pub fn job_row(row: &Row<u32, Job>) -> Memo<String> {
    let row = row.clone();
    let line = Memo::new(move |_| {
        row.with(|job| {
            let owed = match job.status {
                Status::Cancelled => job.fee,
                Status::Booked | Status::Done => job.quoted,
            };
            let balance = owed.saturating_sub(job.deposit);
            format!(
                "job {}, {}: day {}, crew {}, {} m³, {:?}, {} quoted, {} deposit, {} to pay",
                job.no,
                job.customer,
                job.day,
                job.crew,
                job.m3,
                job.status,
                pounds(job.quoted),
                pounds(job.deposit),
                pounds(balance)
            )
        })
    });
    line
}

/// The jobs' collection, following `list`.
#[node]
pub fn jobs(list: &Memo<Vec<Job>>, row: RowFactory) -> Jobs {
    let jobs = Collection::keyed(list.clone(), |job: &Job| job.no, row);
    jobs
}

/// The job book: every job's line, in number order.
#[node]
pub fn job_book(jobs: &Jobs) -> Memo<Vec<String>> {
    let jobs = jobs.clone();
    let job_book = Memo::new(move |_| jobs.rows().iter().map(|line| line.get()).collect());
    job_book
}

/// The jobs done or cancelled and not yet invoiced.
#[node]
pub fn to_invoice(jobs: &Jobs) -> Filter<u32> {
    let to_invoice = jobs.filter(|job| job.status != Status::Booked && job.invoiced.is_none());
    to_invoice
}

/// The booked jobs' numbers by day.
#[node]
pub fn by_day(jobs: &Jobs) -> Memo<Rc<[u32]>> {
    let by_day = jobs.sort_by(|job| (job.day, job.no));
    by_day
}

/// How many jobs are booked.
#[node]
pub fn booked(jobs: &Jobs) -> Memo<usize> {
    let booked = jobs.count_by(|job| job.status == Status::Booked);
    booked
}

/// The invoice run: each job to invoice and its amount.
#[node]
pub fn invoice_run(list: &Memo<Vec<Job>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, keys) = (list.clone(), keys.clone());
    let invoice_run = Memo::new(move |_| {
        let list = list.get();
        let mut lines: Vec<String> = keys
            .get()
            .iter()
            .filter_map(|no| list.iter().find(|job| job.no == *no))
            .map(|job| {
                let amount = if job.status == Status::Cancelled {
                    job.fee
                } else {
                    job.quoted
                };
                format!(
                    "job {}, {}: invoice {}",
                    job.no,
                    job.customer,
                    pounds(amount)
                )
            })
            .collect();
        if lines.is_empty() {
            lines.push("nothing to invoice".to_owned());
        }
        lines
    });
    invoice_run
}

/// The day sheet: the booked jobs, day by day, with their crews.
#[node]
pub fn day_sheet(list: &Memo<Vec<Job>>, by_day: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, by_day) = (list.clone(), by_day.clone());
    let day_sheet = Memo::new(move |_| {
        let list = list.get();
        by_day
            .get()
            .iter()
            .filter_map(|no| list.iter().find(|job| job.no == *no))
            .filter(|job| job.status == Status::Booked)
            .map(|job| {
                format!(
                    "{} day {}: job {} for {}, crew {}",
                    weekday_name(job.day),
                    job.day,
                    job.no,
                    job.customer,
                    job.crew
                )
            })
            .collect()
    });
    day_sheet
}

pub mod slipped {
    use super::super::model::{Job, Status, pounds};
    use super::Jobs;
    use ranvier::collection::{Filter, Row};
    use ranvier::{Memo, node};

    /// A job's row: its line, with what the customer still owes.
    #[node]
    pub fn job_row(row: &Row<u32, Job>) -> Memo<String> {
        let row = row.clone();
        let line = Memo::new(move |_| {
            row.with(|job| {
                let owed = match job.status {
                    Status::Cancelled => job.fee,
                    Status::Booked | Status::Done => job.quoted,
                };
                // BUG(row_balance)
                let balance = job.deposit.saturating_sub(owed);
                format!(
                    "job {}, {}: day {}, crew {}, {} m³, {:?}, {} quoted, {} deposit, {} to pay",
                    job.no,
                    job.customer,
                    job.day,
                    job.crew,
                    job.m3,
                    job.status,
                    pounds(job.quoted),
                    pounds(job.deposit),
                    pounds(balance)
                )
            })
        });
        line
    }

    /// The jobs done or cancelled and not yet invoiced.
    #[node]
    pub fn to_invoice(jobs: &Jobs) -> Filter<u32> {
        // BUG(invoice_filter)
        let to_invoice = jobs.filter(|job| job.status != Status::Booked && job.invoiced.is_some());
        to_invoice
    }
}
