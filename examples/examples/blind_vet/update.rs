//! The desk's `update`: one arm per message, the helpers the longer arms call, and the commands they send (the
//! dispensing and the charges).

use super::clinical;
use super::fees;
use super::graph::Slip;
use super::model::{
    Appointment, Charge, ChargeKind, Clinic, Drug, Msg, Pet, ROOMS, Room, Shot, Species, Status,
    Stay, Vaccine, Vet,
};

/// The practice's kennels, numbered from 1.
pub const KENNELS: u32 = 6;

/// A dosing rule: whole tablets a day of a drug for a weight (grams) and a species.
pub type DoseRule = fn(&Drug, u32, Species) -> u32;

/// The helpers and rules `update` calls, as the app was built with them.
#[derive(Clone, Copy, Debug)]
pub struct Helpers {
    free_room: fn(&[Appointment], u32, u32, u32) -> Option<Room>,
    treat: fn(&Clinic, &str, &str, u32, DoseRule) -> Course,
    dispense: fn(Course) -> Vec<Msg>,
    dose: DoseRule,
    nightly_rate: fn(Species, u32) -> u32,
}

impl Helpers {
    /// The helpers of the app with `slip`.
    pub fn new(slip: Slip) -> Helpers {
        Helpers {
            free_room: if slip == Slip::BackToBack {
                slipped::free_room
            } else {
                free_room
            },
            treat: if slip == Slip::TreatCharge {
                slipped::treat
            } else {
                treat
            },
            dispense: if slip == Slip::Undispensed {
                slipped::dispense
            } else {
                dispense
            },
            dose: if slip == Slip::DoseWeightUnit {
                clinical::slipped::tablets_per_day
            } else {
                clinical::tablets_per_day
            },
            nightly_rate: if slip == Slip::MediumRunRate {
                fees::slipped::nightly_rate
            } else {
                fees::nightly_rate
            },
        }
    }
}

/// The practice after `msg`, and the messages to send next.
#[ranvier::trace_fn]
pub fn update(helpers: &Helpers, msg: Msg, clinic: &Clinic) -> (Clinic, Vec<Msg>) {
    let mut next = clinic.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Register {
            owner,
            pet,
            species,
            kg,
        } => {
            if next.pet(&pet).is_some() {
                refuse(format!("{pet} is already registered"));
            }
            next.pets.push(Pet {
                name: pet,
                species,
                owner,
                weight_g: grams(kg),
                shots: Vec::new(),
            });
        }
        Msg::Record { pet, vaccine, day } => {
            patient(&mut next, &pet).shots.push(Shot {
                vaccine,
                given: day,
            });
        }
        Msg::Weigh { pet, kg } => patient(&mut next, &pet).weight_g = grams(kg),
        Msg::Book {
            pet,
            vet,
            in_days,
            at,
            minutes,
        } => book(helpers, &mut next, pet, vet, (in_days, &at, minutes)),
        Msg::Cancel { appointment } => {
            appointment_mut(&mut next, appointment).status = Status::Cancelled
        }
        Msg::See { appointment } => commands.push(see(&mut next, appointment)),
        Msg::Treat { pet, drug, days } => {
            let course = (helpers.treat)(&next, &pet, &drug, days, helpers.dose);
            commands = (helpers.dispense)(course);
        }
        Msg::Vaccinate { pet, vaccine } => commands.push(vaccinate(&mut next, &pet, vaccine)),
        Msg::Board { pet } => board(&mut next, pet),
        Msg::Collect { pet } => commands.push(collect(&mut next, &pet, helpers.nightly_rate)),
        Msg::Restock { drug, packs } => restock(&mut next, &drug, packs),
        Msg::CloseDay => commands = close_day(&mut next),
        Msg::OpenDay => next.today += 1,
        Msg::Dispense { drug, tablets } => {
            if let Some(line) = next.stock.iter_mut().find(|line| line.name == drug) {
                line.on_hand = line.on_hand.saturating_sub(tablets);
            }
        }
        Msg::Charge {
            owner,
            pet,
            kind,
            cents,
        } => next.charges.push(Charge {
            day: next.today,
            owner,
            pet,
            kind,
            cents,
        }),
    }
    (next, commands)
}

/// Refuses the message being applied: the desk is told `reason`, and nothing changes.
fn refuse(reason: String) -> ! {
    std::panic::resume_unwind(Box::new(reason))
}

/// Kilograms to grams.
#[ranvier::trace_fn]
fn grams(kg: f64) -> u32 {
    if !(0.0..=200.0).contains(&kg) {
        refuse(format!("{kg} kg is not a weight the practice sees"));
    }
    (kg * 1000.0).round() as u32
}

/// `HH:MM` as minutes after midnight.
#[ranvier::trace_fn]
fn clock_minutes(at: &str) -> u32 {
    let parsed = at
        .split_once(':')
        .and_then(|(h, m)| Some((h.parse::<u32>().ok()?, m.parse::<u32>().ok()?)))
        .filter(|&(h, m)| h < 24 && m < 60);
    match parsed {
        Some((h, m)) => h * 60 + m,
        None => refuse(format!("{at:?} is not a time (HH:MM)")),
    }
}

/// The patient named `name`, to change.
#[ranvier::trace_fn]
fn patient<'a>(clinic: &'a mut Clinic, name: &str) -> &'a mut Pet {
    match clinic.pets.iter_mut().find(|pet| pet.name == name) {
        Some(pet) => pet,
        None => refuse(format!("no patient {name}")),
    }
}

/// The appointment numbered `id`, to change.
#[ranvier::trace_fn]
fn appointment_mut(clinic: &mut Clinic, id: u32) -> &mut Appointment {
    match clinic.appointments.iter_mut().find(|a| a.id == id) {
        Some(appointment) => appointment,
        None => refuse(format!("no appointment {id}")),
    }
}

/// The owner of the patient named `pet` (empty for a pet no longer registered).
#[ranvier::trace_fn]
fn owner_of(pets: &[Pet], pet: &str) -> String {
    pets.iter()
        .find(|p| p.name == pet)
        .map(|p| p.owner.clone())
        .unwrap_or_default()
}

/// Books `pet` with `vet` at `(in_days, at, minutes)`, in the first room free then.
#[ranvier::trace_fn]
fn book(
    helpers: &Helpers,
    next: &mut Clinic,
    pet: String,
    vet: Vet,
    (in_days, at, minutes): (u32, &str, u32),
) {
    if next.pet(&pet).is_none() {
        refuse(format!("no patient {pet}"));
    }
    let day = next.today + in_days;
    let start = clock_minutes(at);
    let end = start + minutes;
    let busy = next
        .appointments
        .iter()
        .filter(|a| a.vet == vet && a.day == day && a.status == Status::Booked)
        .any(|a| a.start < end && start < a.end());
    if busy {
        refuse(format!("{vet} already has a patient at {at}"));
    }
    let Some(room) = (helpers.free_room)(&next.appointments, day, start, minutes) else {
        refuse(format!("no consulting room is free at {at}"));
    };
    let id = next.next_appointment();
    next.appointments.push(Appointment {
        id,
        pet,
        vet,
        room,
        day,
        start,
        minutes,
        status: Status::Booked,
    });
}

/// The first consulting room with nothing booked between `start` and `start + minutes` on `day`.
#[ranvier::trace_fn]
pub fn free_room(appointments: &[Appointment], day: u32, start: u32, minutes: u32) -> Option<Room> {
    let end = start + minutes;
    ROOMS.into_iter().find(|&room| {
        appointments
            .iter()
            .filter(|a| a.day == day && a.room == room && a.status != Status::Cancelled)
            .all(|a| a.end() <= start || end <= a.start)
    })
}

/// The vet saw the patient of appointment `id`: the consultation's charge.
#[ranvier::trace_fn]
fn see(next: &mut Clinic, id: u32) -> Msg {
    let appointment = appointment_mut(next, id);
    if appointment.status != Status::Booked {
        refuse(format!("appointment {id} is not on the book"));
    }
    appointment.status = Status::Seen;
    let (pet, minutes) = (appointment.pet.clone(), appointment.minutes);
    Msg::Charge {
        owner: owner_of(&next.pets, &pet),
        pet,
        kind: ChargeKind::Consult,
        cents: fees::consult(minutes),
    }
}

/// A course of medicine prescribed.
#[derive(Clone, Debug, PartialEq)]
pub struct Course {
    /// The patient.
    pub pet: String,
    /// Who pays.
    pub owner: String,
    /// The medicine.
    pub drug: String,
    /// Tablets for the whole course.
    pub tablets: u32,
    /// What they cost the owner, in cents.
    pub cents: u32,
}

/// A course of `drug` for `pet` over `days`, dosed by `dose` (refused when the shelf does not hold it).
#[ranvier::trace_fn]
pub fn treat(clinic: &Clinic, pet: &str, drug: &str, days: u32, dose: DoseRule) -> Course {
    let Some(patient) = clinic.pet(pet) else {
        refuse(format!("no patient {pet}"));
    };
    let Some(medicine) = clinic.drug(drug) else {
        refuse(format!("no {drug} on the shelf"));
    };
    let per_day = dose(medicine, patient.weight_g, patient.species);
    let tablets = per_day * days;
    if tablets > medicine.on_hand {
        refuse(format!(
            "{tablets} tablets of {drug} needed, {} on the shelf",
            medicine.on_hand
        ));
    }
    Course {
        pet: pet.to_owned(),
        owner: patient.owner.clone(),
        drug: drug.to_owned(),
        tablets,
        cents: tablets * medicine.price,
    }
}

/// A course's commands: its tablets off the shelf, and its charge.
#[ranvier::trace_fn]
pub fn dispense(course: Course) -> Vec<Msg> {
    vec![
        Msg::Dispense {
            drug: course.drug,
            tablets: course.tablets,
        },
        Msg::Charge {
            owner: course.owner,
            pet: course.pet,
            kind: ChargeKind::Medicine,
            cents: course.cents,
        },
    ]
}

/// Vaccinates `pet` against `vaccine` today: its charge.
#[ranvier::trace_fn]
fn vaccinate(next: &mut Clinic, pet: &str, vaccine: Vaccine) -> Msg {
    let today = next.today;
    let patient = patient(next, pet);
    if !clinical::core_vaccines(patient.species).contains(&vaccine) {
        refuse(format!("{vaccine} is not given to a {}", patient.species));
    }
    patient.shots.push(Shot {
        vaccine,
        given: today,
    });
    Msg::Charge {
        owner: patient.owner.clone(),
        pet: pet.to_owned(),
        kind: ChargeKind::Vaccine,
        cents: fees::vaccine(vaccine),
    }
}

/// Takes `pet` into the first free kennel.
#[ranvier::trace_fn]
fn board(next: &mut Clinic, pet: String) {
    if next.pet(&pet).is_none() {
        refuse(format!("no patient {pet}"));
    }
    if next.stays.iter().any(|stay| stay.pet == pet) {
        refuse(format!("{pet} is boarding already"));
    }
    let taken: Vec<u32> = next.stays.iter().map(|stay| stay.kennel).collect();
    let Some(kennel) = (1..=KENNELS).find(|k| !taken.contains(k)) else {
        refuse("every kennel is taken".to_owned());
    };
    next.stays.push(Stay {
        pet,
        kennel,
        from: next.today,
    });
}

/// Hands `pet` back: the charge for its nights (one at least), at `nightly_rate`.
#[ranvier::trace_fn]
fn collect(next: &mut Clinic, pet: &str, nightly_rate: fn(Species, u32) -> u32) -> Msg {
    let Some(at) = next.stays.iter().position(|stay| stay.pet == pet) else {
        refuse(format!("{pet} is not boarding"));
    };
    let stay = next.stays.remove(at);
    let Some(patient) = next.pet(pet) else {
        refuse(format!("no patient {pet}"));
    };
    let nights = (next.today - stay.from).max(1);
    Msg::Charge {
        owner: patient.owner.clone(),
        pet: stay.pet,
        kind: ChargeKind::Boarding,
        cents: nights * nightly_rate(patient.species, patient.weight_g),
    }
}

/// `packs` of `drug` came in: a new batch on the shelf.
#[ranvier::trace_fn]
fn restock(next: &mut Clinic, drug: &str, packs: u32) {
    let today = next.today;
    let Some(line) = next.stock.iter_mut().find(|line| line.name == drug) else {
        refuse(format!("the practice does not stock {drug}"));
    };
    line.on_hand += packs * line.pack;
    line.received = today;
    line.expires = today + line.shelf_days;
}

/// The end of the day: every appointment still on the book is a no-show, charged to its owner.
#[ranvier::trace_fn]
pub fn close_day(next: &mut Clinic) -> Vec<Msg> {
    let today = next.today;
    let mut commands = Vec::new();
    for appointment in next.appointments.iter_mut().filter(|a| a.day == today) {
        if appointment.status != Status::Booked {
            continue;
        }
        appointment.status = Status::NoShow;
        commands.push(Msg::Charge {
            owner: owner_of(&next.pets, &appointment.pet),
            pet: appointment.pet.clone(),
            kind: ChargeKind::NoShow,
            cents: fees::NO_SHOW,
        });
    }
    commands
}

/// The helpers as they were written with a mistake, selected by [`Helpers::new`].
pub mod slipped {
    use super::*;

    /// [`super::free_room`], with a mistake.
    #[ranvier::trace_fn]
    pub fn free_room(
        appointments: &[Appointment],
        day: u32,
        start: u32,
        minutes: u32,
    ) -> Option<Room> {
        let end = start + minutes;
        ROOMS.into_iter().find(|&room| {
            appointments
                .iter()
                .filter(|a| a.day == day && a.room == room && a.status != Status::Cancelled)
                // BUG(back_to_back)
                .all(|a| a.end() < start || end < a.start)
        })
    }

    /// [`super::treat`], with a mistake.
    #[ranvier::trace_fn]
    pub fn treat(clinic: &Clinic, pet: &str, drug: &str, days: u32, dose: DoseRule) -> Course {
        let Some(patient) = clinic.pet(pet) else {
            refuse(format!("no patient {pet}"));
        };
        let Some(medicine) = clinic.drug(drug) else {
            refuse(format!("no {drug} on the shelf"));
        };
        let per_day = dose(medicine, patient.weight_g, patient.species);
        let tablets = per_day * days;
        if tablets > medicine.on_hand {
            refuse(format!(
                "{tablets} tablets of {drug} needed, {} on the shelf",
                medicine.on_hand
            ));
        }
        Course {
            pet: pet.to_owned(),
            owner: patient.owner.clone(),
            drug: drug.to_owned(),
            tablets,
            // BUG(treat_charge)
            cents: per_day * medicine.price,
        }
    }

    /// [`super::dispense`], with a mistake.
    #[ranvier::trace_fn]
    pub fn dispense(course: Course) -> Vec<Msg> {
        vec![
            // BUG(undispensed)
            Msg::Charge {
                owner: course.owner,
                pet: course.pet,
                kind: ChargeKind::Medicine,
                cents: course.cents,
            },
        ]
    }
}
