//! The staff list: one row per employee (a keyed collection), each with what they have earned so far this period,
//! and the views the office reads off it.

use super::model::{Contract, PERIODS_PER_YEAR, Payroll};
use super::tax::money;
use super::timesheet::{hm, hours, split_overtime};
use ranvier::Memo;
use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use std::cmp::Reverse;

/// An employee as the staff list shows them (a row of `staff`: `{"key": id, "name", "kind", "leaveLeft", "accrued"}`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct StaffRow {
    #[serde(skip)]
    pub id: String,
    pub name: String,
    pub kind: &'static str,
    #[serde(skip)]
    pub contract: Contract,
    /// The open period's shifts: (start hour, minutes).
    #[serde(skip)]
    pub shifts: Vec<(u32, u32)>,
    pub leave_left: u32,
}

impl StaffRow {
    /// Minutes worked in the open period.
    pub fn worked(&self) -> u32 {
        self.shifts.iter().map(|&(_, minutes)| minutes).sum()
    }
}

/// The staff list's rows, from the payroll.
pub fn rows_of(payroll: &Payroll) -> Vec<StaffRow> {
    payroll
        .employees
        .iter()
        .map(|e| StaffRow {
            id: e.id.clone(),
            name: e.name.clone(),
            kind: e.contract.kind(),
            contract: e.contract.clone(),
            shifts: payroll
                .shifts
                .iter()
                .filter(|s| s.id == e.id)
                .map(|s| (s.start, s.minutes))
                .collect(),
            leave_left: e.leave_left,
        })
        .collect()
}

/// The staff list: keyed by id, each row's figure what it has earned so far.
pub type Staff = Collection<String, StaffRow, (&'static str, Memo<String>)>;

/// A row's figure: what the employee has earned so far this period at the day rate (the node `staff[id]/accrued`).
pub fn accrued_row(row: &Row<String, StaffRow>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let accrued = Memo::new(move |_| {
        row.with(|staff| match &staff.contract {
            Contract::Salaried { annual } => {
                format!(
                    "salaried, {} a period",
                    money(annual / u64::from(PERIODS_PER_YEAR))
                )
            }
            Contract::Hourly { rate, .. } => {
                let (mut worked, mut overtime) = (0, 0);
                for &(_, minutes) in &staff.shifts {
                    let (_, extra) = split_overtime(minutes, hours::SHIFT_LIMIT);
                    worked += minutes;
                    overtime += extra;
                }
                let cents = u64::from(worked) * rate / 60 + u64::from(overtime) * rate / 120;
                format!(
                    "{} worked, {} overtime, {} so far",
                    hm(worked),
                    hm(overtime),
                    money(cents)
                )
            }
        })
    })
    .labelled("accrued");
    ("accrued", accrued)
}

/// What the office reads off the staff list.
pub struct Views {
    /// Ids, most minutes worked this period first.
    pub busiest: Memo<Vec<String>>,
    /// How many are paid by the hour.
    pub hourly: Memo<usize>,
    /// How many have no leave left.
    pub out_of_leave: Memo<usize>,
}

/// The views over `staff`.
pub fn views(staff: &Staff) -> Views {
    let order = staff.sort_by(|row| Reverse(row.worked()));
    let busiest = Memo::new(move |_| order.get().to_vec());
    let hourly = staff
        .filter(|row| matches!(row.contract, Contract::Hourly { .. }))
        .count();
    let out_of_leave = staff.count_by(|row| row.leave_left == 0);
    Views {
        busiest,
        hourly,
        out_of_leave,
    }
}

/// The versions with the mistakes.
pub mod slipped {
    use super::super::model::{Contract, PERIODS_PER_YEAR};
    use super::super::tax::money;
    use super::super::timesheet::{hm, hours, split_overtime};
    use super::{Staff, StaffRow, Views};
    use ranvier::Memo;
    use ranvier::collection::Row;
    use std::cmp::Reverse;

    /// A row's figure: what the employee has earned so far this period at the day rate.
    pub fn accrued_row(row: &Row<String, StaffRow>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let accrued = Memo::new(move |_| {
            row.with(|staff| match &staff.contract {
                Contract::Salaried { annual } => {
                    format!(
                        "salaried, {} a period",
                        money(annual / u64::from(PERIODS_PER_YEAR))
                    )
                }
                Contract::Hourly { rate, .. } => {
                    let (mut worked, mut overtime) = (0, 0);
                    for &(_, minutes) in &staff.shifts {
                        // BUG(row_overtime)
                        let (_, extra) = split_overtime(hours::SHIFT_LIMIT, minutes);
                        worked += minutes;
                        overtime += extra;
                    }
                    let cents = u64::from(worked) * rate / 60 + u64::from(overtime) * rate / 120;
                    format!(
                        "{} worked, {} overtime, {} so far",
                        hm(worked),
                        hm(overtime),
                        money(cents)
                    )
                }
            })
        })
        .labelled("accrued");
        ("accrued", accrued)
    }

    /// The views over `staff`.
    pub fn views(staff: &Staff) -> Views {
        // BUG(busiest_order)
        let order = staff.sort_by(|row| Reverse(row.shifts.len()));
        let busiest = Memo::new(move |_| order.get().to_vec());
        let hourly = staff
            .filter(|row| matches!(row.contract, Contract::Hourly { .. }))
            .count();
        let out_of_leave = staff.count_by(|row| row.leave_left == 0);
        Views {
            busiest,
            hourly,
            out_of_leave,
        }
    }
}
