//! The desk's graph: the `Mvu` of the clinic, what an agent may see of it (`#[expose]`), and the desk's memos —
//! the queue in the waiting room, the next free slot of each doctor, the charges and notices, and the most
//! patients that waited at once (kept by an effect). The board's nodes are built in `board.rs`, the async memos of
//! the services in `labs.rs`.

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Effect, Memo, Mvu, Signal, expose, node};

use super::billing;
use super::board::{self, Board, Slot};
use super::labs::{self, Coverage, LabFlags, Labs};
use super::model::{self, Clinic, Msg, Stage, Visit};
use super::rules;
use super::update;

/// Which version of the desk's code runs: the correct one, or one with a mistake it was first written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// All correct.
    None,
    /// Visits are numbered from 0.
    FirstVisitId,
    /// The notice before a cancelled visit is worked out backwards.
    CancelWindow,
    /// A test cannot be ordered for a patient waiting.
    OrderArm,
    /// Two visits that touch count as a clash.
    OverlapTouch,
    /// Overtime counts whole blocks only.
    OvertimeBlocks,
    /// The co-payment divides the percent first.
    CopayOrder,
    /// The queue puts urgent patients last.
    QueueUrgent,
    /// The peak of patients waiting follows the count down.
    PeakEffect,
    /// A wait counts from the slot, also for a patient who came late.
    WaitSince,
    /// The waiting filter keeps the patients called.
    WaitingCalled,
    /// The minutes booked add a row's old minutes again.
    BookedFold,
    /// The lab results out of range need to be out at both ends.
    FlagsOr,
    /// The insurer's basis points are read as percent.
    CoverageBasis,
    /// The patient in the room is the one with the latest slot.
    RoomLatest,
}

/// What an agent may see of the desk.
#[expose]
pub struct ClinicApp {
    /// The clinic and its messages.
    #[expose(messages)]
    pub clinic: Mvu<Clinic, Msg>,
    /// The clock, in minutes after opening.
    #[expose]
    #[node]
    pub minute: Memo<u32>,
    /// The waiting room, in the order patients are called.
    #[expose]
    #[node]
    pub queue: Memo<Vec<String>>,
    /// The next free slot of each doctor.
    #[expose]
    #[node]
    pub next_free: Memo<Vec<String>>,
    /// Cents charged so far.
    #[expose]
    #[node]
    pub billed: Memo<u64>,
    /// Notices sent.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The board, one row per visit.
    #[expose]
    #[node]
    pub board: Collection<u32, Slot, Memo<u32>>,
    /// Patients waiting.
    #[expose]
    #[node]
    pub waiting_count: Memo<usize>,
    /// The most patients that waited at once.
    #[expose]
    #[node]
    pub peak_waiting: Signal<usize>,
    /// The longest wait so far, in minutes.
    #[expose]
    #[node]
    pub longest_wait: Memo<u32>,
    /// Minutes booked for visits not yet ended.
    #[expose]
    #[node]
    pub booked_minutes: Memo<u32>,
    /// Co-payments due at the desk, in cents.
    #[expose]
    #[node]
    pub copays_due: Memo<u64>,
    /// Lab tests ordered today.
    #[expose]
    #[node]
    pub tests_ordered: Memo<usize>,
    /// Visits per doctor.
    #[expose]
    #[node]
    pub per_doctor: Memo<Vec<String>>,
    /// The flagged lab results of the patient in the room.
    #[expose]
    #[node]
    pub flags: AsyncMemo<Option<LabFlags>>,
    /// The insurer's cover for the patient who checked in last.
    #[expose]
    #[node]
    pub coverage: AsyncMemo<Option<Coverage>>,
    /// Keeps `peak_waiting`.
    #[node]
    pub peak_keeper: Effect,
}

/// Builds the desk as `slip` says: the clinic opens with its doctors on duty (initial commands), then its memos.
#[node]
pub fn clinic(slip: Slip) -> ClinicApp {
    let update = match slip {
        Slip::CancelWindow => update::slipped::update_cancel,
        Slip::OrderArm => update::slipped::update_order,
        Slip::OvertimeBlocks => update::slipped::update_finish,
        _ => update::update,
    };
    let opening = match slip {
        Slip::FirstVisitId => model::slipped::FirstClinic::default().0,
        _ => Clinic::default(),
    };
    let clinic = Mvu::with_commands((opening, model::on_duty()), update);
    let minute = clinic.select(|c| c.minute);
    let queue = match slip {
        Slip::QueueUrgent => slipped::queue(&clinic),
        _ => queue(&clinic),
    };
    let next_free = match slip {
        Slip::OverlapTouch => next_free(&clinic, rules::slipped::overlaps),
        _ => next_free(&clinic, rules::overlaps),
    };
    let billed = clinic.select(|c| c.charges.iter().map(|charge| charge.cents).sum::<u64>());
    let notices = clinic.select(|c| c.notices.clone());
    let copay = match slip {
        Slip::CopayOrder => billing::slipped::copay,
        _ => billing::copay,
    };
    let Board {
        board,
        waiting_count,
        longest_wait,
        booked_minutes,
        copays_due,
        tests_ordered,
        per_doctor,
    } = board::board(&clinic, &minute, slip, copay);
    let peak_waiting = Signal::new(0_usize);
    let peak_keeper = match slip {
        Slip::PeakEffect => slipped::keep_peak(&waiting_count, &peak_waiting),
        _ => keep_peak(&waiting_count, &peak_waiting),
    };
    let Labs { flags, coverage } = labs::labs(&clinic, slip);
    ClinicApp {
        clinic,
        minute,
        queue,
        next_free,
        billed,
        notices,
        board,
        waiting_count,
        peak_waiting,
        longest_wait,
        booked_minutes,
        copays_due,
        tests_ordered,
        per_doctor,
        flags,
        coverage,
        peak_keeper,
    }
}

/// The waiting room in the order the doctors call: urgent patients first, then by slot, then by who came first;
/// each with how long they have waited.
fn queue(clinic: &Mvu<Clinic, Msg>) -> Memo<Vec<String>> {
    let clinic = clinic.clone();
    Memo::new(move |_| {
        clinic.with_model(|c| {
            let mut waiting: Vec<&Visit> = c
                .visits
                .iter()
                .filter(|v| v.stage() == Stage::Waiting)
                .collect();
            waiting.sort_by_key(|v| (!v.urgent, v.slot, v.checked_in));
            let mut lines = Vec::with_capacity(waiting.len());
            for visit in waiting {
                let since = visit.checked_in.unwrap_or(c.minute).max(visit.slot);
                let waited = c.minute.saturating_sub(since);
                let urgent = if visit.urgent { ", urgent" } else { "" };
                lines.push(format!(
                    "{} {} for {}{urgent}, waiting {waited} min",
                    rules::clock(visit.slot),
                    visit.patient,
                    visit.doctor
                ));
            }
            lines
        })
    })
}

/// Each doctor's first free slot from the next slot boundary on, as `"dr_ng: 09:15"`, or `"dr_ng: full"` when
/// nothing is free before closing; `overlaps` says when a slot clashes with a visit.
fn next_free(
    clinic: &Mvu<Clinic, Msg>,
    overlaps: fn(u32, u32, u32, u32) -> bool,
) -> Memo<Vec<String>> {
    let clinic = clinic.clone();
    Memo::new(move |_| {
        clinic.with_model(|c| {
            let from = rules::next_boundary(c.minute);
            let mut lines = Vec::with_capacity(c.doctors.len());
            for doctor in &c.doctors {
                let booked: Vec<&Visit> = c
                    .visits
                    .iter()
                    .filter(|v| v.doctor == doctor.id && !v.cancelled && v.finished.is_none())
                    .collect();
                let mut start = from;
                let mut free = None;
                while start + rules::SLOT_MINUTES <= rules::CLOSES_MINUTE {
                    let clash = booked
                        .iter()
                        .any(|v| overlaps(start, rules::SLOT_MINUTES, v.slot, v.minutes));
                    if !clash {
                        free = Some(start);
                        break;
                    }
                    start += rules::SLOT_MINUTES;
                }
                lines.push(match free {
                    Some(at) => format!("{}: {}", doctor.id, rules::clock(at)),
                    None => format!("{}: full", doctor.id),
                });
            }
            lines
        })
    })
}

/// Keeps in `peak` the most patients `waiting` at once.
fn keep_peak(waiting: &Memo<usize>, peak: &Signal<usize>) -> Effect {
    let (waiting, peak) = (waiting.clone(), peak.clone());
    Effect::new(move || {
        let now = waiting.get();
        peak.update(|most| {
            if now > *most {
                *most = now;
            }
        });
    })
}

/// The desk's memos as first written.
mod slipped {
    use ranvier::{Effect, Memo, Mvu, Signal};

    use super::super::model::{Clinic, Msg, Stage, Visit};
    use super::super::rules;

    /// The waiting room in the order the doctors call.
    pub fn queue(clinic: &Mvu<Clinic, Msg>) -> Memo<Vec<String>> {
        let clinic = clinic.clone();
        Memo::new(move |_| {
            clinic.with_model(|c| {
                let mut waiting: Vec<&Visit> = c
                    .visits
                    .iter()
                    .filter(|v| v.stage() == Stage::Waiting)
                    .collect();
                // BUG(queue_urgent)
                waiting.sort_by_key(|v| (v.urgent, v.slot, v.checked_in));
                let mut lines = Vec::with_capacity(waiting.len());
                for visit in waiting {
                    let since = visit.checked_in.unwrap_or(c.minute).max(visit.slot);
                    let waited = c.minute.saturating_sub(since);
                    let urgent = if visit.urgent { ", urgent" } else { "" };
                    lines.push(format!(
                        "{} {} for {}{urgent}, waiting {waited} min",
                        rules::clock(visit.slot),
                        visit.patient,
                        visit.doctor
                    ));
                }
                lines
            })
        })
    }

    /// Keeps in `peak` the most patients `waiting` at once.
    pub fn keep_peak(waiting: &Memo<usize>, peak: &Signal<usize>) -> Effect {
        let (waiting, peak) = (waiting.clone(), peak.clone());
        Effect::new(move || {
            let now = waiting.get();
            // BUG(peak_effect)
            peak.set(now);
        })
    }
}
