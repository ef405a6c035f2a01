//! The counter's `update`: deliveries, registrations, prescriptions handed in and dispensed, owing slips, and the
//! clock. Dispensing sends an `Owe` command for each item the shelf could not cover.

use super::charges;
use super::model::{
    Batch, Certificate, Dispensary, Exempt, Item, Msg, Owing, Patient, Picked, Prescription, Sale,
    Status,
};

/// The counter's procedures: which exemption rule, and which dispensing and delivery steps, it follows.
#[derive(Clone, Copy)]
pub struct Desk {
    /// Why a patient pays nothing.
    pub exemption: fn(&Patient) -> Option<Exempt>,
    /// Hands out a prescription; returns the commands to send.
    pub dispense: fn(&Desk, &mut Dispensary, u32) -> Vec<Msg>,
    /// Puts a delivery on the shelf.
    pub receive: fn(&mut Dispensary, String, String, u32, u32),
}

impl Default for Desk {
    fn default() -> Self {
        Desk {
            exemption: charges::exemption,
            dispense,
            receive,
        }
    }
}

/// The dispensary after `msg`, and the messages to dispatch next.
pub fn update(desk: &Desk, msg: Msg, dispensary: &Dispensary) -> (Dispensary, Vec<Msg>) {
    let mut next = dispensary.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Receive {
            medicine,
            lot,
            quantity,
            expires,
        } => {
            (desk.receive)(&mut next, medicine, lot, quantity, expires);
            fill_owings(&mut next);
        }
        Msg::Register {
            patient,
            age,
            certificate,
        } => {
            let certificate = Certificate::parse(&certificate);
            match next.patients.iter_mut().find(|p| p.name == patient) {
                Some(known) => {
                    known.age = age;
                    known.certificate = certificate;
                }
                None => next.patients.push(Patient {
                    name: patient,
                    age,
                    certificate,
                    allergies: Vec::new(),
                }),
            }
        }
        Msg::NoteAllergy { patient, group } => {
            if let Some(p) = next.patients.iter_mut().find(|p| p.name == patient)
                && !p.allergies.contains(&group)
            {
                p.allergies.push(group);
            }
        }
        Msg::Serve { patient } => next.counter = Some(patient),
        Msg::HandIn {
            patient,
            token,
            repeats,
        } => {
            let id = next.prescriptions.last().map_or(1, |rx| rx.id + 1);
            next.prescriptions.push(Prescription {
                id,
                patient,
                token,
                items: Vec::new(),
                issued: next.today,
                repeats,
                last_dispensed: None,
                status: Status::Waiting,
            });
        }
        Msg::AddItem {
            id,
            medicine,
            quantity,
            per_day,
        } => {
            if let Some(rx) = next
                .prescription_mut(id)
                .filter(|rx| rx.status == Status::Waiting)
            {
                rx.items.push(Item {
                    medicine,
                    quantity,
                    per_day,
                });
            }
        }
        Msg::Dispense { id } => commands.extend((desk.dispense)(desk, &mut next, id)),
        Msg::Owe {
            id,
            medicine,
            quantity,
        } => {
            let patient = next
                .prescriptions
                .iter()
                .find(|rx| rx.id == id)
                .map(|rx| rx.patient.clone())
                .unwrap_or_default();
            next.owings.push(Owing {
                prescription: id,
                patient,
                medicine,
                quantity,
            });
        }
        Msg::Advance { days } => advance(&mut next, days),
    }
    (next, commands)
}

/// Takes `wanted` of `medicine` off the shelf, the batch that expires first first, skipping batches past `today`.
pub fn take_from_shelf(stock: &mut [Batch], medicine: &str, wanted: u32, today: u32) -> Picked {
    let mut usable: Vec<&mut Batch> = stock
        .iter_mut()
        .filter(|b| b.medicine == medicine && b.usable_on(today))
        .collect();
    usable.sort_by_key(|b| b.expires);
    let mut left = wanted;
    for batch in usable {
        if left == 0 {
            break;
        }
        let take = left.min(batch.quantity);
        batch.quantity -= take;
        left -= take;
    }
    Picked {
        supplied: wanted - left,
        short: left,
    }
}

/// Dispenses the prescription `id` if it can be dispensed today: takes its items off the shelf, charges the patient
/// (or records why they pay nothing), and sends an owing slip for what the shelf could not cover.
pub fn dispense(desk: &Desk, next: &mut Dispensary, id: u32) -> Vec<Msg> {
    let today = next.today;
    let Some(rx) = next.prescriptions.iter().find(|rx| rx.id == id).cloned() else {
        return Vec::new();
    };
    let Some(patient) = next.patient(&rx.patient).cloned() else {
        return Vec::new();
    };
    if rx.items.is_empty() || !rx.can_dispense(today, &next.policy) {
        return Vec::new();
    }
    let mut commands = Vec::new();
    for item in &rx.items {
        let picked = take_from_shelf(&mut next.stock, &item.medicine, item.quantity, today);
        if picked.short > 0 {
            commands.push(Msg::Owe {
                id,
                medicine: item.medicine.clone(),
                quantity: picked.short,
            });
        }
    }
    next.stock.retain(|b| b.quantity > 0);
    let exempt = (desk.exemption)(&patient);
    let items = u32::try_from(rx.items.len()).unwrap_or(u32::MAX);
    next.sales.push(Sale {
        prescription: id,
        day: today,
        items,
        pence: charges::charge(exempt, items),
        exempt,
    });
    if let Some(rx) = next.prescription_mut(id) {
        if rx.last_dispensed.is_some() {
            rx.repeats -= 1;
        }
        rx.last_dispensed = Some(today);
        rx.status = Status::Dispensed;
    }
    commands
}

/// Puts a delivery on the shelf: more of a lot already there, or a new batch (set aside if already out of date).
pub fn receive(next: &mut Dispensary, medicine: String, lot: String, quantity: u32, expires: u32) {
    if let Some(batch) = next.stock.iter_mut().find(|b| b.lot == lot) {
        batch.quantity += quantity;
        return;
    }
    let batch = Batch::new(medicine, lot, quantity, expires, next.today);
    if batch.usable_on(next.today) {
        next.stock.push(batch);
    } else {
        next.quarantine.push(batch);
    }
}

/// Fills the owing slips the shelf now covers, oldest first.
fn fill_owings(next: &mut Dispensary) {
    let today = next.today;
    let mut open = Vec::new();
    for owing in std::mem::take(&mut next.owings) {
        let picked = take_from_shelf(&mut next.stock, &owing.medicine, owing.quantity, today);
        if picked.short > 0 {
            open.push(Owing {
                quantity: picked.short,
                ..owing
            });
        }
    }
    next.stock.retain(|b| b.quantity > 0);
    next.owings = open;
}

/// The clock moves on: batches past their date go to quarantine, prescriptions never dispensed in time expire.
fn advance(next: &mut Dispensary, days: u32) {
    next.today += days;
    let today = next.today;
    let (good, expired): (Vec<Batch>, Vec<Batch>) =
        next.stock.drain(..).partition(|b| b.expires >= today);
    next.stock = good;
    next.quarantine.extend(expired);
    let valid_for = next.policy.valid_for_days;
    for rx in &mut next.prescriptions {
        if rx.status == Status::Waiting && today > rx.issued + valid_for {
            rx.status = Status::Expired;
        }
    }
}

pub(crate) mod slipped {
    use super::{Batch, Desk, Dispensary, Msg, Sale, Status, charges, take_from_shelf};

    /// [`super::dispense`], with the mistake.
    pub fn dispense(desk: &Desk, next: &mut Dispensary, id: u32) -> Vec<Msg> {
        let today = next.today;
        let Some(rx) = next.prescriptions.iter().find(|rx| rx.id == id).cloned() else {
            return Vec::new();
        };
        let Some(patient) = next.patient(&rx.patient).cloned() else {
            return Vec::new();
        };
        if rx.items.is_empty() || !rx.can_dispense(today, &next.policy) {
            return Vec::new();
        }
        let mut commands = Vec::new();
        for item in &rx.items {
            let picked = take_from_shelf(&mut next.stock, &item.medicine, item.quantity, today);
            if picked.short > 0 {
                commands.push(Msg::Owe {
                    id,
                    medicine: item.medicine.clone(),
                    quantity: picked.short,
                });
            }
        }
        next.stock.retain(|b| b.quantity > 0);
        let exempt = (desk.exemption)(&patient);
        let items = u32::try_from(rx.items.len()).unwrap_or(u32::MAX);
        next.sales.push(Sale {
            prescription: id,
            day: today,
            items,
            pence: charges::charge(exempt, items),
            exempt,
        });
        if let Some(rx) = next.prescription_mut(id) {
            if rx.last_dispensed.is_some() {
                rx.repeats -= 1;
            }
            rx.last_dispensed = Some(today);
            rx.status = Status::Dispensed;
        }
        // BUG(owing_not_sent)
        Vec::new()
    }

    /// [`super::receive`], with the mistake.
    pub fn receive(
        next: &mut Dispensary,
        medicine: String,
        lot: String,
        quantity: u32,
        expires: u32,
    ) {
        if let Some(batch) = next.stock.iter_mut().find(|b| b.lot == lot) {
            batch.quantity += quantity;
            return;
        }
        // BUG(receive_swapped)
        let batch = Batch::new(medicine, lot, expires, quantity, next.today);
        if batch.usable_on(next.today) {
            next.stock.push(batch);
        } else {
            next.quarantine.push(batch);
        }
    }
}
