//! `update`, Elmish: the next practice and the commands that follow (a crown's impression goes to the lab, a third
//! miss is charged, each month's plan fees), with its helpers.

use super::charges::{self, FREE_MISSES, MISSED_FEE, PLAN_FEE, Price};
use super::model::{
    Appointment, Band, Charge, DAY_SLOTS, Impression, Msg, Patient, Practice, Visit,
};

/// A miss rule: the practice after appointment `id` was missed, and its commands.
pub type MissRule = fn(&Practice, u32) -> (Practice, Vec<Msg>);

/// The shape of `update`, given its pricing and miss rules.
pub type Update = fn(Msg, &Practice, Price, MissRule) -> (Practice, Vec<Msg>);

/// Days in a billing month.
pub const BILLING_DAYS: u32 = 30;
/// Days in a practice year (the plan's check-ups start again).
pub const YEAR_DAYS: u32 = 360;

/// The practice after `msg`, and the messages that follow it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, practice: &Practice, price: Price, miss: MissRule) -> (Practice, Vec<Msg>) {
    let mut next = practice.clone();
    match msg {
        Msg::Register { name, plan, risk } => {
            if next.patient(&name).is_some() {
                return refuse(next, format!("{name} is already registered"));
            }
            let day = next.day;
            next.patients.push(Patient::new(name, plan, risk, day));
            (next, Vec::new())
        }
        Msg::Book {
            patient,
            dentist,
            day,
            slot,
            band,
        } => book(next, patient, dentist, day, slot, &band),
        Msg::Attend { id } => attend(next, id, price),
        Msg::Miss { id } => miss(practice, id),
        Msg::Pay { patient, amount } => {
            let Some(account) = next.patient_mut(&patient) else {
                return refuse(next, format!("no patient {patient}"));
            };
            account.owed = account.owed.saturating_sub(amount);
            (next, Vec::new())
        }
        Msg::Advance { days } => {
            let before = next.day;
            next.day += days;
            if next.day / YEAR_DAYS > before / YEAR_DAYS {
                for patient in &mut next.patients {
                    patient.checkups_this_year = 0;
                }
            }
            let months = next.day / BILLING_DAYS - before / BILLING_DAYS;
            let bills = (0..months).map(|_| Msg::BillPlans).collect();
            (next, bills)
        }
        Msg::ChargeMissed { patient } => {
            charge(
                &mut next,
                &patient,
                "missed appointment",
                MISSED_FEE,
                MISSED_FEE,
            );
            (next, Vec::new())
        }
        Msg::TakeImpression { patient } => {
            let taken = next.day;
            next.impressions.push(Impression { patient, taken });
            (next, Vec::new())
        }
        Msg::BillPlans => {
            let members: Vec<String> = next
                .patients
                .iter()
                .filter(|p| p.plan)
                .map(|p| p.name.clone())
                .collect();
            for name in members {
                charge(&mut next, &name, "plan fee", PLAN_FEE, PLAN_FEE);
            }
            (next, Vec::new())
        }
    }
}

/// The practice unchanged but for a note to the desk.
#[ranvier::trace_fn]
pub fn refuse(mut next: Practice, why: String) -> (Practice, Vec<Msg>) {
    next.notes.push(why);
    (next, Vec::new())
}

/// Adds a charge to `patient`'s account.
#[ranvier::trace_fn]
pub fn charge(next: &mut Practice, patient: &str, what: &str, list: u64, amount: u64) {
    let day = next.day;
    if let Some(account) = next.patient_mut(patient) {
        account.owed += amount;
    }
    next.charges.push(Charge {
        patient: patient.to_owned(),
        day,
        what: what.to_owned(),
        list,
        amount,
    });
}

/// Books an appointment if the diary has room for it.
#[ranvier::trace_fn]
pub fn book(
    mut next: Practice,
    patient: String,
    dentist: String,
    day: u32,
    slot: u32,
    band: &str,
) -> (Practice, Vec<Msg>) {
    let Some(band) = Band::parse(band) else {
        return refuse(next, format!("no treatment band {band:?}"));
    };
    if next.patient(&patient).is_none() {
        return refuse(next, format!("no patient {patient}"));
    }
    let Some(max) = next
        .dentists
        .iter()
        .find(|d| d.name == dentist)
        .map(|d| d.max_slots)
    else {
        return refuse(next, format!("no dentist {dentist}"));
    };
    if day < next.day {
        return refuse(next, format!("day {day} is past"));
    }
    let len = band.slots();
    if slot + len > DAY_SLOTS {
        return refuse(next, format!("slot {slot} runs past closing"));
    }
    if next.slots_booked(&dentist, day) + len > max {
        return refuse(next, format!("{dentist} is full on day {day}"));
    }
    let clash = next.appointments.iter().any(|a| {
        a.dentist == dentist
            && a.day == day
            && a.state != Visit::Missed
            && a.slot < slot + len
            && slot < a.slot + a.band.slots()
    });
    if clash {
        return refuse(next, format!("{dentist} has someone in at slot {slot}"));
    }
    let id = next.next_id;
    next.next_id += 1;
    next.appointments.push(Appointment {
        id,
        patient,
        dentist,
        day,
        slot,
        band,
        state: Visit::Booked,
    });
    (next, Vec::new())
}

/// The patient of appointment `id` came: the treatment is charged, a check-up counted, a crown's impression taken.
#[ranvier::trace_fn]
pub fn attend(mut next: Practice, id: u32, price: Price) -> (Practice, Vec<Msg>) {
    let today = next.day;
    let Some(visit) = next.appointments.iter_mut().find(|a| a.id == id) else {
        return refuse(next, format!("no appointment {id}"));
    };
    if visit.day != today || visit.state != Visit::Booked {
        return refuse(next, format!("appointment {id} is not booked for today"));
    }
    visit.state = Visit::Attended;
    let (name, band) = (visit.patient.clone(), visit.band);
    let Some(patient) = next.patient(&name) else {
        return refuse(next, format!("no patient {name}"));
    };
    let amount = price(band, patient);
    if band == Band::Checkup {
        if let Some(patient) = next.patient_mut(&name) {
            patient.checkups_this_year += 1;
            patient.last_checkup = Some(today);
        }
    }
    charge(
        &mut next,
        &name,
        "treatment",
        charges::list_price(band),
        amount,
    );
    let commands = match band {
        Band::Crown => vec![Msg::TakeImpression { patient: name }],
        Band::Checkup | Band::Filling => Vec::new(),
    };
    (next, commands)
}

/// The patient of appointment `id` did not come: counted, and charged once past the free misses.
#[ranvier::trace_fn]
pub fn record_miss(practice: &Practice, id: u32) -> (Practice, Vec<Msg>) {
    let mut next = practice.clone();
    let today = next.day;
    let Some(visit) = next.appointments.iter_mut().find(|a| a.id == id) else {
        return refuse(next, format!("no appointment {id}"));
    };
    if visit.day != today || visit.state != Visit::Booked {
        return refuse(next, format!("appointment {id} is not booked for today"));
    }
    visit.state = Visit::Missed;
    let name = visit.patient.clone();
    let Some(patient) = next.patient_mut(&name) else {
        return refuse(next, format!("no patient {name}"));
    };
    patient.misses += 1;
    if patient.misses > FREE_MISSES {
        return (next, vec![Msg::ChargeMissed { patient: name }]);
    }
    (next, Vec::new())
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`super::update`], with a mistake.
    #[ranvier::trace_fn]
    pub fn update(
        msg: Msg,
        practice: &Practice,
        price: Price,
        miss: MissRule,
    ) -> (Practice, Vec<Msg>) {
        let mut next = practice.clone();
        match msg {
            Msg::Register { name, plan, risk } => {
                if next.patient(&name).is_some() {
                    return refuse(next, format!("{name} is already registered"));
                }
                let day = next.day;
                next.patients.push(Patient::new(name, plan, risk, day));
                (next, Vec::new())
            }
            Msg::Book {
                patient,
                dentist,
                day,
                slot,
                band,
            } => book(next, patient, dentist, day, slot, &band),
            Msg::Attend { id } => attend(next, id, price),
            Msg::Miss { id } => miss(practice, id),
            Msg::Pay { patient, amount } => {
                let Some(account) = next.patient_mut(&patient) else {
                    return refuse(next, format!("no patient {patient}"));
                };
                account.owed = account.owed.saturating_sub(amount);
                (next, Vec::new())
            }
            Msg::Advance { days } => {
                let before = next.day;
                // BUG(advance_assign)
                next.day = days;
                if next.day / YEAR_DAYS > before / YEAR_DAYS {
                    for patient in &mut next.patients {
                        patient.checkups_this_year = 0;
                    }
                }
                let months = next.day / BILLING_DAYS - before / BILLING_DAYS;
                let bills = (0..months).map(|_| Msg::BillPlans).collect();
                (next, bills)
            }
            Msg::ChargeMissed { patient } => {
                charge(
                    &mut next,
                    &patient,
                    "missed appointment",
                    MISSED_FEE,
                    MISSED_FEE,
                );
                (next, Vec::new())
            }
            Msg::TakeImpression { patient } => {
                let taken = next.day;
                next.impressions.push(Impression { patient, taken });
                (next, Vec::new())
            }
            Msg::BillPlans => {
                let members: Vec<String> = next
                    .patients
                    .iter()
                    .filter(|p| p.plan)
                    .map(|p| p.name.clone())
                    .collect();
                for name in members {
                    charge(&mut next, &name, "plan fee", PLAN_FEE, PLAN_FEE);
                }
                (next, Vec::new())
            }
        }
    }

    /// [`super::record_miss`], with a mistake.
    #[ranvier::trace_fn]
    pub fn record_miss(practice: &Practice, id: u32) -> (Practice, Vec<Msg>) {
        let mut next = practice.clone();
        let today = next.day;
        let Some(visit) = next.appointments.iter_mut().find(|a| a.id == id) else {
            return refuse(next, format!("no appointment {id}"));
        };
        if visit.day != today || visit.state != Visit::Booked {
            return refuse(next, format!("appointment {id} is not booked for today"));
        }
        visit.state = Visit::Missed;
        let name = visit.patient.clone();
        let Some(patient) = next.patient_mut(&name) else {
            return refuse(next, format!("no patient {name}"));
        };
        patient.misses += 1;
        // BUG(miss_threshold)
        if patient.misses >= FREE_MISSES {
            return (next, vec![Msg::ChargeMissed { patient: name }]);
        }
        (next, Vec::new())
    }
}
