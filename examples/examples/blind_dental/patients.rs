//! The patients as a keyed collection: each row's standing (what they owe, when they are due, what the desk should do
//! about them), and the lists the desk works from.

use std::cmp::Reverse;

use ranvier::collection::Collection;
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::charges::FREE_MISSES;
use super::model::{Msg, Patient, Practice};
use super::recalls::{self, Months};

/// Owing this much (in pence) puts a patient on the chasing list.
pub const DEBT_LIMIT: u64 = 10_000;

/// A patient's standing, computed per row.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Standing {
    /// The day of their last check-up, or of registering.
    pub last_seen: u32,
    /// The day they are due back.
    pub due: u32,
    /// Days until then (0 when due or overdue).
    pub days_to_recall: u32,
    /// `owes`, `warned`, `recall` or `ok`.
    pub status: String,
}

/// The patients, one row each, keyed by name.
pub type Patients = Collection<String, Patient, Memo<Standing>>;

/// The patients' rows, each with its standing.
#[node]
pub fn patient_list(practice: &Mvu<Practice, Msg>, today: &Memo<u32>, months: Months) -> Patients {
    let registered = practice.select(|practice| practice.patients.clone());
    let today = today.clone();
    let patients = Collection::keyed(
        registered,
        |patient: &Patient| patient.name.clone(),
        move |row| {
            let (row, today) = (row.clone(), today.clone());
            Memo::new(move |_| {
                let today = today.get();
                row.with(|patient| {
                    let last = patient.last_checkup.unwrap_or(patient.joined);
                    let due = recalls::due_day(last, months(patient));
                    let days_to_recall = due.saturating_sub(today);
                    let status = if patient.owed >= DEBT_LIMIT {
                        "owes"
                    } else if patient.misses >= FREE_MISSES {
                        "warned"
                    } else if days_to_recall == 0 {
                        "recall"
                    } else {
                        "ok"
                    };
                    Standing {
                        last_seen: last,
                        due,
                        days_to_recall,
                        status: status.to_owned(),
                    }
                })
            })
            .labelled("standing")
        },
    );
    patients
}

/// The patients by what they owe, most first.
#[node]
pub fn by_owed(patients: &Patients) -> Memo<Vec<String>> {
    let sorted = patients.sort_by(|patient| Reverse(patient.owed));
    let by_owed = Memo::new(move |_| sorted.get().to_vec());
    by_owed
}

/// The patients the desk should chase: warned for missing, or owing too much.
#[node]
pub fn chasing(patients: &Patients) -> Memo<Vec<String>> {
    let chased =
        patients.filter(|patient| patient.misses >= FREE_MISSES || patient.owed >= DEBT_LIMIT);
    let keys = chased.keys();
    let chasing = Memo::new(move |_| keys.get().to_vec());
    chasing
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`super::patient_list`], with a mistake.
    #[node]
    pub fn patient_list(
        practice: &Mvu<Practice, Msg>,
        today: &Memo<u32>,
        months: Months,
    ) -> Patients {
        let registered = practice.select(|practice| practice.patients.clone());
        let today = today.clone();
        let patients = Collection::keyed(
            registered,
            |patient: &Patient| patient.name.clone(),
            move |row| {
                let (row, today) = (row.clone(), today.clone());
                Memo::new(move |_| {
                    let today = today.get();
                    row.with(|patient| {
                        let last = patient.last_checkup.unwrap_or(patient.joined);
                        // BUG(row_due_field)
                        let due = recalls::due_day(patient.joined, months(patient));
                        let days_to_recall = due.saturating_sub(today);
                        let status = if patient.owed >= DEBT_LIMIT {
                            "owes"
                        } else if patient.misses >= FREE_MISSES {
                            "warned"
                        } else if days_to_recall == 0 {
                            "recall"
                        } else {
                            "ok"
                        };
                        Standing {
                            last_seen: last,
                            due,
                            days_to_recall,
                            status: status.to_owned(),
                        }
                    })
                })
                .labelled("standing")
            },
        );
        patients
    }

    /// [`super::by_owed`], with a mistake.
    #[node]
    pub fn by_owed(patients: &Patients) -> Memo<Vec<String>> {
        // BUG(debtors_order)
        let sorted = patients.sort_by(|patient| patient.owed);
        let by_owed = Memo::new(move |_| sorted.get().to_vec());
        by_owed
    }
}
