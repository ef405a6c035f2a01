//! Recalls: every patient is due back 6 or 12 months after their last check-up (or after registering), and the
//! hygienist sees the high-risk ones and the long overdue.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Band, HIGH_RISK, Msg, Patient, Practice, Visit};

/// Days in a recall month.
pub const DAYS_PER_MONTH: u32 = 30;
/// How far ahead the recall list looks, in days.
pub const WINDOW_DAYS: u32 = 30;
/// Days overdue after which the hygienist sees a patient whatever their risk.
pub const LONG_OVERDUE_DAYS: u32 = 90;

/// A recall rule: months between a patient's check-ups.
pub type Months = fn(&Patient) -> u32;

/// The day a patient last seen on `last` is due back, `months` later.
#[ranvier::trace_fn]
pub fn due_day(last: u32, months: u32) -> u32 {
    last + months * DAYS_PER_MONTH
}

/// A patient to recall.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Recall {
    /// Who.
    pub patient: String,
    /// The day they are due.
    pub due: u32,
    /// Due before today.
    pub overdue: bool,
    /// On the hygienist's list.
    pub hygienist: bool,
}

/// The patients due within the window and not booked for a check-up, soonest first.
#[node]
pub fn recalls(practice: &Mvu<Practice, Msg>, months: Months) -> Memo<Vec<Recall>> {
    let recalls = practice.select(move |practice| {
        let today = practice.day;
        let mut list = Vec::new();
        for patient in &practice.patients {
            let last = patient.last_checkup.unwrap_or(patient.joined);
            let due = due_day(last, months(patient));
            if due > today + WINDOW_DAYS {
                continue;
            }
            let booked = practice.appointments.iter().any(|a| {
                a.patient == patient.name && a.band == Band::Checkup && a.state == Visit::Booked
            });
            if booked {
                continue;
            }
            let overdue = due < today;
            let hygienist =
                patient.risk >= HIGH_RISK || today.saturating_sub(due) > LONG_OVERDUE_DAYS;
            list.push(Recall {
                patient: patient.name.clone(),
                due,
                overdue,
                hygienist,
            });
        }
        list.sort_by(|a, b| a.due.cmp(&b.due).then_with(|| a.patient.cmp(&b.patient)));
        list
    });
    recalls
}

/// The hygienist's list: the names of the recalls flagged for the hygienist.
#[node]
pub fn hygiene_list(recalls: &Memo<Vec<Recall>>) -> Memo<Vec<String>> {
    let recalls = recalls.clone();
    let hygiene_list = Memo::new(move |_| {
        recalls.with(|recalls| {
            recalls
                .iter()
                .filter(|r| r.hygienist)
                .map(|r| r.patient.clone())
                .collect::<Vec<_>>()
        })
    });
    hygiene_list
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`super::recalls`], with a mistake.
    #[node]
    pub fn recalls(practice: &Mvu<Practice, Msg>, months: Months) -> Memo<Vec<Recall>> {
        let recalls = practice.select(move |practice| {
            let today = practice.day;
            let mut list = Vec::new();
            for patient in &practice.patients {
                // BUG(recall_default)
                let last = patient.last_checkup.unwrap_or(0);
                let due = due_day(last, months(patient));
                if due > today + WINDOW_DAYS {
                    continue;
                }
                let booked = practice.appointments.iter().any(|a| {
                    a.patient == patient.name && a.band == Band::Checkup && a.state == Visit::Booked
                });
                if booked {
                    continue;
                }
                let overdue = due < today;
                let hygienist =
                    patient.risk >= HIGH_RISK || today.saturating_sub(due) > LONG_OVERDUE_DAYS;
                list.push(Recall {
                    patient: patient.name.clone(),
                    due,
                    overdue,
                    hygienist,
                });
            }
            list.sort_by(|a, b| a.due.cmp(&b.due).then_with(|| a.patient.cmp(&b.patient)));
            list
        });
        recalls
    }
}
