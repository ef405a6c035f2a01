//! The front desk's `update`: what each message does to the clinic, and the charges and notices it sends on (as
//! commands).

use super::billing;
use super::model::{Charge, Clinic, Doctor, Msg, Stage, Visit};
use super::rules;

/// How a visit's cost is worked out (see [`billing::visit_cost`]).
pub type Cost = fn(u64, u32, u32, u32, u64) -> u64;

/// The next clinic, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, clinic: &Clinic) -> (Clinic, Vec<Msg>) {
    let mut next = clinic.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::AddDoctor {
            id,
            name,
            room,
            fee_cents,
        } => {
            if next.doctor(&id).is_none() {
                next.doctors.push(Doctor {
                    id,
                    name,
                    room,
                    fee_cents,
                });
            }
        }
        Msg::Book {
            patient,
            doctor,
            slot,
            minutes,
            urgent,
            plan,
        } => commands = book(&mut next, patient, doctor, slot, minutes, urgent, plan),
        Msg::CheckIn { visit } => commands = check_in(&mut next, visit),
        Msg::Call { visit } => commands = call(&mut next, visit),
        Msg::Finish { visit } => commands = finish(&mut next, visit, billing::visit_cost),
        Msg::Cancel { visit } => commands = cancel(&mut next, visit),
        Msg::Order { visit, test } => commands = order(&mut next, visit, test),
        Msg::Advance { minutes } => next.minute += minutes,
        Msg::Charge { visit, what, cents } => {
            next.charges.push(Charge {
                number: next.next_charge,
                visit,
                what,
                cents,
            });
            next.next_charge += 1;
        }
        Msg::Notify { text } => next.notices.push(text),
    }
    (next, commands)
}

/// A notice to send.
#[ranvier::trace_fn]
fn notify(text: String) -> Vec<Msg> {
    vec![Msg::Notify { text }]
}

/// Books `patient` with `doctor` at `slot` for `minutes`, if the doctor is on duty, the visit ends by closing time
/// and it clashes with none of the doctor's other visits.
#[ranvier::trace_fn]
#[allow(clippy::too_many_arguments)]
fn book(
    clinic: &mut Clinic,
    patient: String,
    doctor: String,
    slot: u32,
    minutes: u32,
    urgent: bool,
    plan: String,
) -> Vec<Msg> {
    if clinic.doctor(&doctor).is_none() {
        return notify(format!("{patient}: no doctor {doctor} today"));
    }
    if slot + minutes > rules::CLOSES_MINUTE {
        return notify(format!("{patient}: {doctor} has gone home by then"));
    }
    let clash = clinic.visits.iter().any(|v| {
        v.doctor == doctor && !v.cancelled && rules::overlaps(slot, minutes, v.slot, v.minutes)
    });
    if clash {
        return notify(format!(
            "{patient}: {doctor} is busy at {}",
            rules::clock(slot)
        ));
    }
    clinic.visits.push(Visit {
        id: clinic.next_visit,
        patient,
        doctor,
        slot,
        minutes,
        urgent,
        plan,
        checked_in: None,
        called: None,
        finished: None,
        cancelled: false,
        tests: Vec::new(),
    });
    clinic.next_visit += 1;
    Vec::new()
}

/// The patient of visit `id` checked in now.
#[ranvier::trace_fn]
fn check_in(clinic: &mut Clinic, id: u32) -> Vec<Msg> {
    let now = clinic.minute;
    match clinic.visits.iter_mut().find(|v| v.id == id) {
        Some(visit) if visit.stage() == Stage::Booked => {
            visit.checked_in = Some(now);
            Vec::new()
        }
        Some(visit) => notify(format!("visit {id}: {} is not expected", visit.patient)),
        None => notify(format!("no visit {id}")),
    }
}

/// The doctor calls the patient of visit `id` in: the patient is told which room.
#[ranvier::trace_fn]
fn call(clinic: &mut Clinic, id: u32) -> Vec<Msg> {
    let now = clinic.minute;
    let rooms: Vec<(String, u32)> = clinic
        .doctors
        .iter()
        .map(|d| (d.id.clone(), d.room))
        .collect();
    let Some(visit) = clinic
        .visits
        .iter_mut()
        .find(|v| v.id == id && v.stage() == Stage::Waiting)
    else {
        return notify(format!("visit {id}: nobody is waiting"));
    };
    visit.called = Some(now);
    let room = rooms
        .iter()
        .find(|(doctor, _)| *doctor == visit.doctor)
        .map_or(0, |(_, room)| *room);
    notify(format!("{}: please go to room {room}", visit.patient))
}

/// Visit `id` ended now: the patient is charged its cost, worked out by `cost`.
#[ranvier::trace_fn]
fn finish(clinic: &mut Clinic, id: u32, cost: Cost) -> Vec<Msg> {
    let now = clinic.minute;
    let block_cents = clinic.fees.overtime_cents_per_block;
    let Some(visit) = clinic
        .visits
        .iter_mut()
        .find(|v| v.id == id && v.stage() == Stage::InRoom)
    else {
        return notify(format!("visit {id}: nobody is in the room"));
    };
    visit.finished = Some(now);
    let called = visit.called.unwrap_or(now);
    let (minutes, doctor) = (visit.minutes, visit.doctor.clone());
    let fee_cents = clinic.doctor(&doctor).map_or(0, |d| d.fee_cents);
    let cents = cost(fee_cents, minutes, called, now, block_cents);
    vec![Msg::Charge {
        visit: id,
        what: "visit".to_owned(),
        cents,
    }]
}

/// Calls visit `id` off now; one called off less than the fee sheet's notice before its slot is charged a fee.
#[ranvier::trace_fn]
fn cancel(clinic: &mut Clinic, id: u32) -> Vec<Msg> {
    let now = clinic.minute;
    let fees = clinic.fees.clone();
    let Some(visit) = clinic
        .visits
        .iter_mut()
        .find(|v| v.id == id && matches!(v.stage(), Stage::Booked | Stage::Waiting))
    else {
        return notify(format!("visit {id}: nothing to call off"));
    };
    visit.cancelled = true;
    let notice = visit.slot.saturating_sub(now);
    if notice < fees.late_cancel_minutes {
        return vec![Msg::Charge {
            visit: id,
            what: "late cancellation".to_owned(),
            cents: fees.late_cancel_cents,
        }];
    }
    Vec::new()
}

/// Orders lab test `test` for the patient of visit `id`, who must be here (waiting or in the room).
#[ranvier::trace_fn]
fn order(clinic: &mut Clinic, id: u32, test: String) -> Vec<Msg> {
    let Some(visit) = clinic.visits.iter_mut().find(|v| v.id == id) else {
        return notify(format!("no visit {id}"));
    };
    match visit.stage() {
        Stage::Waiting | Stage::InRoom => {
            if !visit.tests.contains(&test) {
                visit.tests.push(test);
            }
            Vec::new()
        }
        Stage::Booked => notify(format!("{}: not here yet", visit.patient)),
        Stage::Done | Stage::Cancelled => notify(format!("{}: gone", visit.patient)),
    }
}

/// `update` as first written: each takes one message its own way and hands the rest to [`update`].
pub mod slipped {
    use super::super::billing;
    use super::super::model::{Clinic, Msg, Stage};
    use super::{finish, notify, update};

    /// `update`, with the first overtime charge.
    #[ranvier::trace_fn]
    pub fn update_finish(msg: Msg, clinic: &Clinic) -> (Clinic, Vec<Msg>) {
        match msg {
            Msg::Finish { visit } => {
                let mut next = clinic.clone();
                let commands = finish(&mut next, visit, billing::slipped::visit_cost);
                (next, commands)
            }
            other => update(other, clinic),
        }
    }

    /// `update`, with the first `Cancel`.
    #[ranvier::trace_fn]
    pub fn update_cancel(msg: Msg, clinic: &Clinic) -> (Clinic, Vec<Msg>) {
        match msg {
            Msg::Cancel { visit } => {
                let mut next = clinic.clone();
                let commands = cancel_visit(&mut next, visit);
                (next, commands)
            }
            other => update(other, clinic),
        }
    }

    #[ranvier::trace_fn]
    fn cancel_visit(clinic: &mut Clinic, id: u32) -> Vec<Msg> {
        let now = clinic.minute;
        let fees = clinic.fees.clone();
        let Some(visit) = clinic
            .visits
            .iter_mut()
            .find(|v| v.id == id && matches!(v.stage(), Stage::Booked | Stage::Waiting))
        else {
            return notify(format!("visit {id}: nothing to call off"));
        };
        visit.cancelled = true;
        // BUG(cancel_window)
        let notice = now.saturating_sub(visit.slot);
        if notice < fees.late_cancel_minutes {
            return vec![Msg::Charge {
                visit: id,
                what: "late cancellation".to_owned(),
                cents: fees.late_cancel_cents,
            }];
        }
        Vec::new()
    }

    /// `update`, with the first `Order`.
    #[ranvier::trace_fn]
    pub fn update_order(msg: Msg, clinic: &Clinic) -> (Clinic, Vec<Msg>) {
        match msg {
            Msg::Order { visit, test } => {
                let mut next = clinic.clone();
                let commands = order_test(&mut next, visit, test);
                (next, commands)
            }
            other => update(other, clinic),
        }
    }

    #[ranvier::trace_fn]
    fn order_test(clinic: &mut Clinic, id: u32, test: String) -> Vec<Msg> {
        let Some(visit) = clinic.visits.iter_mut().find(|v| v.id == id) else {
            return notify(format!("no visit {id}"));
        };
        match visit.stage() {
            // BUG(order_arm)
            Stage::InRoom => {
                if !visit.tests.contains(&test) {
                    visit.tests.push(test);
                }
                Vec::new()
            }
            Stage::Booked | Stage::Waiting => notify(format!("{}: not here yet", visit.patient)),
            Stage::Done | Stage::Cancelled => notify(format!("{}: gone", visit.patient)),
        }
    }
}
