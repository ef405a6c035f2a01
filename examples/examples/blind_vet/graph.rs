//! The desk's graph: the `#[expose]` app, the `#[node]` builder, and the memos the desk's screens show (the day's
//! schedule, the vaccination reminders, the kennels and the day's bills).

use super::clinical;
use super::model::{Appointment, Charge, ChargeKind, Clinic, Msg, Pet, Species, Status, Vaccine};
use super::pharmacy::{self, Shelf};
use super::services::{self, Claimable};
use super::update::{self, Helpers};
use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::HashMap;

/// Which mistake the app is built with (`None`: the correct app).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct app.
    None,
    /// See `SLIPS` in `main.rs`.
    BackToBack,
    /// See `SLIPS` in `main.rs`.
    TreatCharge,
    /// See `SLIPS` in `main.rs`.
    Undispensed,
    /// See `SLIPS` in `main.rs`.
    DoseWeightUnit,
    /// See `SLIPS` in `main.rs`.
    MediumRunRate,
    /// See `SLIPS` in `main.rs`.
    DueSwapped,
    /// See `SLIPS` in `main.rs`.
    BoardingBucket,
    /// See `SLIPS` in `main.rs`.
    ReorderPar,
    /// See `SLIPS` in `main.rs`.
    ReorderDiscontinued,
    /// See `SLIPS` in `main.rs`.
    ShelfOrder,
    /// See `SLIPS` in `main.rs`.
    ClaimDefault,
    /// See `SLIPS` in `main.rs`.
    QuotePacks,
}

/// Cents as `12.34`.
pub fn money(cents: u32) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Minutes after midnight as `HH:MM`.
fn clock(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// The practice as the desk sees it.
#[expose]
pub struct VetDesk {
    /// The practice and the desk's messages.
    #[expose(messages)]
    pub clinic: Mvu<Clinic, Msg>,
    /// Today, as `day N`.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// Today's appointments, by time.
    #[expose]
    #[node]
    pub schedule: Memo<Vec<String>>,
    /// The vaccinations due within a month, overdue, or never given.
    #[expose]
    #[node]
    pub reminders: Memo<Vec<String>>,
    /// The pets boarding.
    #[expose]
    #[node]
    pub kennels: Memo<Vec<String>>,
    /// Today's bill of each owner.
    #[expose]
    #[node]
    pub bills: Memo<Vec<String>>,
    /// The pharmacy shelf, with the packs to order of each medicine.
    #[expose]
    #[node]
    pub pharmacy: Shelf,
    /// The shelf in the order to use it.
    #[expose]
    #[node]
    pub shelf: Memo<Vec<String>>,
    /// What to order from the wholesaler.
    #[expose]
    #[node]
    pub to_reorder: Memo<Vec<String>>,
    /// How many medicines have run out.
    #[expose]
    #[node]
    pub out_of_stock: Memo<usize>,
    /// The insurance claims for today's care.
    #[expose]
    #[node]
    pub claims: AsyncMemo<Vec<String>>,
    /// The wholesaler's quote for the order.
    #[expose]
    #[node]
    pub quote: AsyncMemo<Vec<String>>,
}

/// The patients on the practice's books when it opens, and their vaccinations from the paper records.
pub fn opening() -> Vec<Msg> {
    let register = |owner: &str, pet: &str, species: Species, kg: f64| Msg::Register {
        owner: owner.to_owned(),
        pet: pet.to_owned(),
        species,
        kg,
    };
    let record = |pet: &str, vaccine: Vaccine, day: u32| Msg::Record {
        pet: pet.to_owned(),
        vaccine,
        day,
    };
    vec![
        register("Ana Ruiz", "Rex", Species::Dog, 24.6),
        register("Ana Ruiz", "Pip", Species::Rabbit, 1.8),
        register("Tom Hale", "Bella", Species::Cat, 4.2),
        register("Mei Chen", "Bruno", Species::Dog, 14.0),
        record("Rex", Vaccine::Rabies, 150),
        record("Rex", Vaccine::Dhpp, 300),
        record("Rex", Vaccine::Lepto, 120),
        record("Bella", Vaccine::Fvrcp, 200),
        record("Pip", Vaccine::Myxo, 490),
        record("Bruno", Vaccine::Rabies, 140),
        record("Bruno", Vaccine::Dhpp, 180),
        record("Bruno", Vaccine::Lepto, 160),
    ]
}

/// Today's appointments that were not called off, by time then room.
fn schedule_of(appointments: &[Appointment], pets: &[Pet], today: u32) -> Vec<String> {
    let mut todays: Vec<&Appointment> = appointments
        .iter()
        .filter(|a| a.day == today && a.status != Status::Cancelled)
        .collect();
    todays.sort_by_key(|a| (a.start, a.room as u8));
    todays
        .into_iter()
        .map(|a| {
            let who = match pets.iter().find(|p| p.name == a.pet) {
                Some(pet) => format!("{} ({}, {})", pet.name, pet.species, pet.owner),
                None => a.pet.clone(),
            };
            let status = match a.status {
                Status::Booked => "",
                Status::Seen => ", seen",
                Status::NoShow => ", no-show",
                Status::Cancelled => ", called off",
            };
            format!(
                "{}–{} {}, {}: {who}{status}",
                clock(a.start),
                clock(a.end()),
                a.vet,
                a.room
            )
        })
        .collect()
}

/// A reminder before it is written out, with how many days are left (`None`: never given).
struct Reminder {
    days_left: Option<i64>,
    line: String,
}

/// The vaccinations each patient is due within [`clinical::REMIND_DAYS`], overdue, or never had: the ones never
/// given first, then the most overdue.
pub fn reminders_of(pets: &[Pet], today: u32) -> Vec<String> {
    let mut due = Vec::new();
    for pet in pets {
        let who = format!("{} ({})", pet.name, pet.owner);
        for &vaccine in clinical::core_vaccines(pet.species) {
            let Some(day) = clinical::due_day(pet, vaccine) else {
                due.push(Reminder {
                    days_left: None,
                    line: format!("{who}: {vaccine}, no record"),
                });
                continue;
            };
            let days_left = clinical::days_between(today, day);
            if days_left > clinical::REMIND_DAYS {
                continue;
            }
            let line = match days_left {
                0 => format!("{who}: {vaccine} due today"),
                d if d < 0 => format!("{who}: {vaccine} overdue by {} days", -d),
                d => format!("{who}: {vaccine} due in {d} days"),
            };
            due.push(Reminder {
                days_left: Some(days_left),
                line,
            });
        }
    }
    due.sort_by_key(|reminder| reminder.days_left.unwrap_or(i64::MIN));
    due.into_iter().map(|reminder| reminder.line).collect()
}

/// One owner's bill for the day, by what it was for.
#[derive(Debug, Default)]
struct Tab {
    owner: String,
    care: u32,
    medicines: u32,
    boarding: u32,
    missed: u32,
}

impl Tab {
    fn total(&self) -> u32 {
        self.care + self.medicines + self.boarding + self.missed
    }

    fn line(&self) -> String {
        let parts: Vec<String> = [
            ("care", self.care),
            ("medicines", self.medicines),
            ("boarding", self.boarding),
            ("no-show", self.missed),
        ]
        .into_iter()
        .filter(|&(_, cents)| cents > 0)
        .map(|(what, cents)| format!("{what} {}", money(cents)))
        .collect();
        format!(
            "{}: {}, total {}",
            self.owner,
            parts.join(", "),
            money(self.total())
        )
    }
}

/// Today's bill of each owner charged today, in the order they were first charged.
pub fn bills(charges: Memo<Vec<Charge>>, today: Memo<u32>) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let today = today.get();
        let mut tabs: Vec<Tab> = Vec::new();
        for charge in charges.get().iter().filter(|c| c.day == today) {
            let at = match tabs.iter().position(|tab| tab.owner == charge.owner) {
                Some(at) => at,
                None => {
                    tabs.push(Tab {
                        owner: charge.owner.clone(),
                        ..Tab::default()
                    });
                    tabs.len() - 1
                }
            };
            let tab = &mut tabs[at];
            match charge.kind {
                ChargeKind::Consult | ChargeKind::Vaccine => tab.care += charge.cents,
                ChargeKind::Medicine => tab.medicines += charge.cents,
                ChargeKind::Boarding => tab.boarding += charge.cents,
                ChargeKind::NoShow => tab.missed += charge.cents,
            }
        }
        tabs.iter().map(Tab::line).collect()
    })
}

/// Today's care of each patient (what an insurer may be asked to pay), in the order first charged.
fn care_of(charges: &[Charge], today: u32) -> Vec<Claimable> {
    let mut care: Vec<Claimable> = Vec::new();
    let claimable = charges.iter().filter(|c| {
        c.day == today
            && matches!(
                c.kind,
                ChargeKind::Consult | ChargeKind::Vaccine | ChargeKind::Medicine
            )
    });
    for charge in claimable {
        match care.iter_mut().find(|visit| visit.pet == charge.pet) {
            Some(visit) => visit.cents += charge.cents,
            None => care.push(Claimable {
                pet: charge.pet.clone(),
                cents: charge.cents,
            }),
        }
    }
    care
}

/// Builds the desk with `slip`; `#[node]` names each node after its `let`.
#[node]
pub fn vet_desk(slip: Slip) -> VetDesk {
    let helpers = Helpers::new(slip);
    let clinic = Mvu::with_commands(
        (Clinic::default(), opening()),
        move |msg, clinic: &Clinic| update::update(&helpers, msg, clinic),
    );
    let day = clinic.select(|c| c.today);
    let today = clinic.select(|c| format!("day {}", c.today));
    let appointments = clinic.select(|c| c.appointments.clone());
    let pets = clinic.select(|c| c.pets.clone());
    let charges = clinic.select(|c| c.charges.clone());
    let schedule = Memo::new({
        let (appointments, pets, day) = (appointments.clone(), pets.clone(), day.clone());
        move |_| schedule_of(&appointments.get(), &pets.get(), day.get())
    });
    let reminders_of: fn(&[Pet], u32) -> Vec<String> = if slip == Slip::DueSwapped {
        slipped::reminders_of
    } else {
        reminders_of
    };
    let reminders = Memo::new({
        let (pets, day) = (pets.clone(), day.clone());
        move |_| reminders_of(&pets.get(), day.get())
    });
    let kennels = clinic.select(|c| {
        c.stays
            .iter()
            .map(|stay| {
                let owner = c.pet(&stay.pet).map_or("", |pet| pet.owner.as_str());
                let nights = c.today - stay.from;
                format!(
                    "Kennel {}: {} ({owner}), {nights} nights so far",
                    stay.kennel, stay.pet
                )
            })
            .collect::<Vec<_>>()
    });
    let bills = if slip == Slip::BoardingBucket {
        slipped::bills(charges.clone(), day.clone())
    } else {
        bills(charges.clone(), day.clone())
    };
    let order_row = if slip == Slip::ReorderPar {
        pharmacy::slipped::order_row
    } else {
        pharmacy::order_row
    };
    let pharmacy = Collection::keyed(
        clinic.select(|c| c.stock.clone()),
        |drug: &super::model::Drug| drug.name.clone(),
        order_row,
    );
    let use_first = if slip == Slip::ShelfOrder {
        pharmacy::slipped::use_first(&pharmacy)
    } else {
        pharmacy::use_first(&pharmacy)
    };
    let shelf = Memo::new({
        let (pharmacy, use_first) = (pharmacy.clone(), use_first.clone());
        move |_| {
            let drugs: HashMap<String, super::model::Drug> = pharmacy
                .items()
                .into_iter()
                .map(|d| (d.name.clone(), d))
                .collect();
            use_first
                .get()
                .iter()
                .filter_map(|name| drugs.get(name))
                .map(|d| {
                    format!(
                        "{}: {} tablets, use by day {}",
                        d.name, d.on_hand, d.expires
                    )
                })
                .collect::<Vec<_>>()
        }
    });
    let wanted = if slip == Slip::ReorderDiscontinued {
        pharmacy::slipped::to_order(&pharmacy)
    } else {
        pharmacy::to_order(&pharmacy)
    };
    let lines = pharmacy::order_lines(&pharmacy, &wanted);
    let to_reorder = Memo::new({
        let lines = lines.clone();
        move |_| {
            lines
                .get()
                .iter()
                .map(|line| {
                    let packs = if line.packs == 1 { "pack" } else { "packs" };
                    format!("{}: {} {packs} of {}", line.drug, line.packs, line.pack)
                })
                .collect::<Vec<_>>()
        }
    });
    let out_of_stock = pharmacy::run_out(&pharmacy);
    let care = Memo::new({
        let (charges, day) = (charges.clone(), day.clone());
        move |_| care_of(&charges.get(), day.get())
    });
    let claims = if slip == Slip::ClaimDefault {
        services::slipped::claims(care)
    } else {
        services::claims(care)
    };
    let quote = if slip == Slip::QuotePacks {
        services::slipped::quote(lines)
    } else {
        services::quote(lines)
    };
    VetDesk {
        clinic,
        today,
        schedule,
        reminders,
        kennels,
        bills,
        pharmacy,
        shelf,
        to_reorder,
        out_of_stock,
        claims,
        quote,
    }
}

/// The memos as they were written with a mistake, selected by [`Slip`].
pub mod slipped {
    use super::*;

    /// [`super::reminders_of`], with a mistake.
    pub fn reminders_of(pets: &[Pet], today: u32) -> Vec<String> {
        let mut due = Vec::new();
        for pet in pets {
            let who = format!("{} ({})", pet.name, pet.owner);
            for &vaccine in clinical::core_vaccines(pet.species) {
                let Some(day) = clinical::due_day(pet, vaccine) else {
                    due.push(Reminder {
                        days_left: None,
                        line: format!("{who}: {vaccine}, no record"),
                    });
                    continue;
                };
                // BUG(due_swapped)
                let days_left = clinical::days_between(day, today);
                if days_left > clinical::REMIND_DAYS {
                    continue;
                }
                let line = match days_left {
                    0 => format!("{who}: {vaccine} due today"),
                    d if d < 0 => format!("{who}: {vaccine} overdue by {} days", -d),
                    d => format!("{who}: {vaccine} due in {d} days"),
                };
                due.push(Reminder {
                    days_left: Some(days_left),
                    line,
                });
            }
        }
        due.sort_by_key(|reminder| reminder.days_left.unwrap_or(i64::MIN));
        due.into_iter().map(|reminder| reminder.line).collect()
    }

    /// [`super::bills`], with a mistake.
    pub fn bills(charges: Memo<Vec<Charge>>, today: Memo<u32>) -> Memo<Vec<String>> {
        Memo::new(move |_| {
            let today = today.get();
            let mut tabs: Vec<Tab> = Vec::new();
            for charge in charges.get().iter().filter(|c| c.day == today) {
                let at = match tabs.iter().position(|tab| tab.owner == charge.owner) {
                    Some(at) => at,
                    None => {
                        tabs.push(Tab {
                            owner: charge.owner.clone(),
                            ..Tab::default()
                        });
                        tabs.len() - 1
                    }
                };
                let tab = &mut tabs[at];
                match charge.kind {
                    ChargeKind::Consult | ChargeKind::Vaccine => tab.care += charge.cents,
                    ChargeKind::Medicine => tab.medicines += charge.cents,
                    // BUG(boarding_bucket)
                    ChargeKind::Boarding => tab.care += charge.cents,
                    ChargeKind::NoShow => tab.missed += charge.cents,
                }
            }
            tabs.iter().map(Tab::line).collect()
        })
    }
}
