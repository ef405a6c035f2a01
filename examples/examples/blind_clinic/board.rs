//! The waiting-room board: one row per visit of the day that was not called off (a keyed collection over the
//! clinic's visits), each with the minutes its patient waited, and the views the desk reads: how many wait, the
//! longest wait, the minutes still booked, the co-payments due, the tests ordered and the visits per doctor.

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{Clinic, Msg, Visit};

/// How a co-payment is worked out (see [`billing::copay`](super::billing::copay)).
pub type Copay = fn(u64, &str) -> u64;

/// A visit as the board shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Slot {
    /// The visit's number.
    pub id: u32,
    /// The patient.
    pub patient: String,
    /// The doctor's id.
    pub doctor: String,
    /// When it starts, in minutes after opening.
    pub slot: u32,
    /// Minutes booked.
    pub minutes: u32,
    /// Seen first.
    pub urgent: bool,
    /// When the patient checked in.
    pub checked_in: Option<u32>,
    /// When the doctor called the patient in.
    pub called: Option<u32>,
    /// When the visit ended.
    pub finished: Option<u32>,
    /// What the patient pays at the desk, in cents.
    pub copay: u64,
    /// How many lab tests were ordered.
    pub tests: usize,
}

impl Slot {
    /// The board's view of `visit`, its co-payment worked out by `copay` from its doctor's fee.
    pub fn of(visit: &Visit, clinic: &Clinic, copay: Copay) -> Slot {
        let fee = clinic.doctor(&visit.doctor).map_or(0, |d| d.fee_cents);
        Slot {
            id: visit.id,
            patient: visit.patient.clone(),
            doctor: visit.doctor.clone(),
            slot: visit.slot,
            minutes: visit.minutes,
            urgent: visit.urgent,
            checked_in: visit.checked_in,
            called: visit.called,
            finished: visit.finished,
            copay: copay(fee, &visit.plan),
            tests: visit.tests.len(),
        }
    }
}

/// The board's nodes.
pub struct Board {
    /// One row per visit, with the minutes its patient waited.
    pub board: Collection<u32, Slot, Memo<u32>>,
    /// Patients checked in and not yet called.
    pub waiting_count: Memo<usize>,
    /// The longest wait of the day so far, in minutes.
    pub longest_wait: Memo<u32>,
    /// Minutes booked for visits not yet ended.
    pub booked_minutes: Memo<u32>,
    /// Co-payments of the visits that ended, in cents.
    pub copays_due: Memo<u64>,
    /// Lab tests ordered today.
    pub tests_ordered: Memo<usize>,
    /// Visits per doctor, as `"dr_ng: 2"`.
    pub per_doctor: Memo<Vec<String>>,
}

/// Builds the board over `clinic`'s visits and its clock `minute`, as `slip` says.
#[node]
pub fn board(clinic: &Mvu<Clinic, Msg>, minute: &Memo<u32>, slip: Slip, copay: Copay) -> Board {
    let visits = clinic.select(move |c| {
        c.visits
            .iter()
            .filter(|v| !v.cancelled)
            .map(|v| Slot::of(v, c, copay))
            .collect::<Vec<_>>()
    });
    let now = minute.clone();
    let board = match slip {
        Slip::WaitSince => {
            Collection::keyed(visits, |s: &Slot| s.id, move |row| slipped::wait(row, &now))
        }
        _ => Collection::keyed(visits, |s: &Slot| s.id, move |row| wait(row, &now)),
    };
    let waiting = match slip {
        Slip::WaitingCalled => slipped::waiting(&board),
        _ => board.filter(|s| s.checked_in.is_some() && s.called.is_none()),
    };
    let waiting_count = waiting.count();
    let longest_wait = {
        let board = board.clone();
        Memo::new(move |_| board.rows().iter().map(Memo::get).max().unwrap_or(0))
    };
    let booked_minutes = match slip {
        Slip::BookedFold => slipped::booked(&board),
        _ => board.fold(
            0_u32,
            |acc, s| {
                if s.finished.is_none() {
                    *acc += s.minutes;
                }
            },
            |acc, s| {
                if s.finished.is_none() {
                    *acc -= s.minutes;
                }
            },
        ),
    };
    let copays_due = board.sum_by(|s| if s.finished.is_some() { s.copay } else { 0 });
    let tests_ordered = board.sum_by(|s| s.tests);
    let per_doctor = {
        let groups = board.group_by(|s| s.doctor.clone());
        Memo::new(move |_| {
            groups
                .get()
                .iter()
                .map(|(doctor, n)| format!("{doctor}: {n}"))
                .collect::<Vec<_>>()
        })
    };
    Board {
        board,
        waiting_count,
        longest_wait,
        booked_minutes,
        copays_due,
        tests_ordered,
        per_doctor,
    }
}

/// The minutes the patient of a row waited: from check-in, or from the slot for a patient who came early, until
/// called in (or until now, while waiting). Nobody waits before checking in.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
fn wait(row: &Row<u32, Slot>, minute: &Memo<u32>) -> Memo<u32> {
    let (row, minute) = (row.clone(), minute.clone());
    let wait = Memo::new(move |_| {
        let now = minute.get();
        row.with(|s| match s.checked_in {
            Some(arrived) => {
                let since = arrived.max(s.slot);
                let until = s.called.unwrap_or(now);
                until.saturating_sub(since)
            }
            None => 0,
        })
    });
    wait
}

/// The board as first written.
mod slipped {
    use ranvier::collection::{Collection, Filter, Row};
    use ranvier::{Memo, node};

    use super::Slot;

    /// The minutes the patient of a row waited.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn wait(row: &Row<u32, Slot>, minute: &Memo<u32>) -> Memo<u32> {
        let (row, minute) = (row.clone(), minute.clone());
        let wait = Memo::new(move |_| {
            let now = minute.get();
            row.with(|s| match s.checked_in {
                Some(_) => {
                    // BUG(wait_since)
                    let since = s.slot;
                    let until = s.called.unwrap_or(now);
                    until.saturating_sub(since)
                }
                None => 0,
            })
        });
        wait
    }

    /// The patients checked in and not yet called.
    pub fn waiting(board: &Collection<u32, Slot, Memo<u32>>) -> Filter<u32> {
        board.filter(|s| {
            let here = s.checked_in.is_some();
            // BUG(waiting_called)
            let called = s.called.is_none();
            here && !called
        })
    }

    /// Minutes booked for visits not yet ended.
    pub fn booked(board: &Collection<u32, Slot, Memo<u32>>) -> Memo<u32> {
        board.fold(
            0_u32,
            |acc, s| {
                if s.finished.is_none() {
                    *acc += s.minutes;
                }
            },
            |acc, s| {
                if s.finished.is_none() {
                    // BUG(booked_fold)
                    *acc += s.minutes;
                }
            },
        )
    }
}
