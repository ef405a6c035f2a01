//! The practice's model: its patients and their owners, the appointments, the kennels, the pharmacy shelf and the
//! charges, and the messages the front desk sends.

use ranvier::Messages;
use ranvier::schemars::JsonSchema;
use ranvier::serde::{Deserialize, Serialize};
use std::fmt;

/// The first day the app runs on: the day numbers count from when the practice first opened.
pub const OPENING_DAY: u32 = 500;

/// What kind of animal a patient is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Species {
    /// A dog.
    Dog,
    /// A cat.
    Cat,
    /// A rabbit.
    Rabbit,
}

impl fmt::Display for Species {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Species::Dog => "dog",
            Species::Cat => "cat",
            Species::Rabbit => "rabbit",
        })
    }
}

/// The vaccines the practice gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Vaccine {
    /// Rabies.
    Rabies,
    /// Distemper, hepatitis, parvovirus and parainfluenza (dogs).
    Dhpp,
    /// Leptospirosis (dogs).
    Lepto,
    /// Feline rhinotracheitis, calicivirus and panleukopenia (cats).
    Fvrcp,
    /// Myxomatosis and RHD (rabbits).
    Myxo,
}

impl fmt::Display for Vaccine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Vaccine::Rabies => "Rabies",
            Vaccine::Dhpp => "DHPP",
            Vaccine::Lepto => "Lepto",
            Vaccine::Fvrcp => "FVRCP",
            Vaccine::Myxo => "Myxo-RHD",
        })
    }
}

/// The practice's two vets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Vet {
    /// Dr Okafor.
    Okafor,
    /// Dr Lind.
    Lind,
}

impl fmt::Display for Vet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Vet::Okafor => "Dr Okafor",
            Vet::Lind => "Dr Lind",
        })
    }
}

/// The consulting rooms, in the order the desk fills them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// Consult 1.
    One,
    /// Consult 2.
    Two,
}

/// Every consulting room, the first one first.
pub const ROOMS: [Room; 2] = [Room::One, Room::Two];

impl fmt::Display for Room {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Room::One => "Consult 1",
            Room::Two => "Consult 2",
        })
    }
}

/// One vaccination given.
#[derive(Clone, Debug, PartialEq)]
pub struct Shot {
    /// Which vaccine.
    pub vaccine: Vaccine,
    /// The day it was given.
    pub given: u32,
}

/// A patient.
#[derive(Clone, Debug, PartialEq)]
pub struct Pet {
    /// Its name (unique in the practice).
    pub name: String,
    /// What it is.
    pub species: Species,
    /// Its owner's name.
    pub owner: String,
    /// Its last weight, in grams.
    pub weight_g: u32,
    /// Its vaccinations, the oldest first.
    pub shots: Vec<Shot>,
}

impl Pet {
    /// The last time `vaccine` was given, if ever.
    pub fn last_shot(&self, vaccine: Vaccine) -> Option<&Shot> {
        self.shots
            .iter()
            .filter(|shot| shot.vaccine == vaccine)
            .max_by_key(|shot| shot.given)
    }
}

/// Where an appointment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// On the book.
    Booked,
    /// The pet was seen.
    Seen,
    /// Nobody came.
    NoShow,
    /// Called off by the owner.
    Cancelled,
}

/// An appointment.
#[derive(Clone, Debug, PartialEq)]
pub struct Appointment {
    /// Its number (from 1).
    pub id: u32,
    /// The patient.
    pub pet: String,
    /// The vet seeing it.
    pub vet: Vet,
    /// The room it is in.
    pub room: Room,
    /// The day.
    pub day: u32,
    /// When it starts, in minutes after midnight.
    pub start: u32,
    /// How long it takes, in minutes.
    pub minutes: u32,
    /// Where it stands.
    pub status: Status,
}

impl Appointment {
    /// When it ends, in minutes after midnight.
    pub fn end(&self) -> u32 {
        self.start + self.minutes
    }
}

/// A pet boarding in a kennel.
#[derive(Clone, Debug, PartialEq)]
pub struct Stay {
    /// The pet.
    pub pet: String,
    /// The kennel's number.
    pub kennel: u32,
    /// The day it came in.
    pub from: u32,
}

/// A medicine on the pharmacy shelf (a row of the `pharmacy` value, keyed by its name).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Drug {
    /// Its name and strength, as on the box.
    #[serde(skip)]
    pub name: String,
    /// Milligrams in a tablet.
    #[serde(skip)]
    pub strength_mg: f64,
    /// The daily dose, milligrams per kilogram of body weight.
    #[serde(skip)]
    pub mg_per_kg: f64,
    /// Tablets on the shelf.
    pub on_hand: u32,
    /// At or below this many tablets, it is ordered.
    pub reorder_at: u32,
    /// How many tablets the shelf holds when full.
    pub par: u32,
    /// Tablets in a pack from the wholesaler.
    pub pack: u32,
    /// What a tablet costs the owner, in cents.
    pub price: u32,
    /// The day the batch on the shelf came in.
    pub received: u32,
    /// The day it expires.
    pub expires: u32,
    /// How long a new batch keeps, in days.
    #[serde(skip)]
    pub shelf_days: u32,
    /// No longer made: sold until the shelf is empty.
    pub discontinued: bool,
}

/// What a charge was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum ChargeKind {
    /// A consultation.
    Consult,
    /// A vaccination.
    Vaccine,
    /// Medicines dispensed.
    Medicine,
    /// Nights in a kennel.
    Boarding,
    /// An appointment missed.
    NoShow,
}

/// A line on an owner's bill.
#[derive(Clone, Debug, PartialEq)]
pub struct Charge {
    /// The day it was charged.
    pub day: u32,
    /// Who pays.
    pub owner: String,
    /// The patient it was for.
    pub pet: String,
    /// What for.
    pub kind: ChargeKind,
    /// How much, in cents.
    pub cents: u32,
}

/// The practice.
#[derive(Clone, Debug, PartialEq)]
pub struct Clinic {
    /// Today.
    pub today: u32,
    /// The patients, in the order they were registered.
    pub pets: Vec<Pet>,
    /// Every appointment, in the order booked.
    pub appointments: Vec<Appointment>,
    /// The pets boarding now.
    pub stays: Vec<Stay>,
    /// The pharmacy shelf, in alphabetical order.
    pub stock: Vec<Drug>,
    /// Every charge, in the order made.
    pub charges: Vec<Charge>,
}

impl Clinic {
    /// The patient named `name`.
    pub fn pet(&self, name: &str) -> Option<&Pet> {
        self.pets.iter().find(|pet| pet.name == name)
    }

    /// The medicine named `name`.
    pub fn drug(&self, name: &str) -> Option<&Drug> {
        self.stock.iter().find(|drug| drug.name == name)
    }

    /// The next appointment's number.
    pub fn next_appointment(&self) -> u32 {
        self.appointments.iter().map(|a| a.id).max().unwrap_or(0) + 1
    }
}

/// A shelf line as the practice stocks it on its first day.
fn drug(
    name: &str,
    strength_mg: f64,
    mg_per_kg: f64,
    (on_hand, reorder_at, par, pack): (u32, u32, u32, u32),
    price: u32,
    (received, expires): (u32, u32),
    discontinued: bool,
) -> Drug {
    Drug {
        name: name.to_owned(),
        strength_mg,
        mg_per_kg,
        on_hand,
        reorder_at,
        par,
        pack,
        price,
        received,
        expires,
        shelf_days: 365,
        discontinued,
    }
}

impl Default for Clinic {
    fn default() -> Self {
        Clinic {
            today: OPENING_DAY,
            pets: Vec::new(),
            appointments: Vec::new(),
            stays: Vec::new(),
            stock: vec![
                drug(
                    "Amoxicillin 250 mg",
                    250.0,
                    20.0,
                    (80, 50, 150, 100),
                    45,
                    (300, 620),
                    false,
                ),
                drug(
                    "Carprofen 50 mg",
                    50.0,
                    4.0,
                    (50, 40, 100, 50),
                    60,
                    (280, 700),
                    false,
                ),
                drug(
                    "Ketoprofen 10 mg",
                    10.0,
                    1.0,
                    (6, 20, 40, 30),
                    40,
                    (150, 515),
                    true,
                ),
                drug(
                    "Meloxicam 1 mg",
                    1.0,
                    0.1,
                    (24, 30, 60, 30),
                    35,
                    (420, 560),
                    false,
                ),
                drug(
                    "Methimazole 5 mg",
                    5.0,
                    0.5,
                    (10, 20, 40, 30),
                    55,
                    (460, 640),
                    false,
                ),
                drug(
                    "Prednisolone 5 mg",
                    5.0,
                    1.0,
                    (90, 40, 100, 28),
                    20,
                    (200, 530),
                    false,
                ),
            ],
            charges: Vec::new(),
        }
    }
}

/// What the front desk sends.
#[derive(Clone, Debug, PartialEq, Messages)]
pub enum Msg {
    /// Registers a new patient and, if new, its owner.
    Register {
        /// The owner's name.
        owner: String,
        /// The pet's name.
        pet: String,
        /// What it is.
        species: Species,
        /// Its weight, in kilograms.
        kg: f64,
    },
    /// Enters a vaccination given before the practice used the app (from the paper record).
    Record {
        /// The pet.
        pet: String,
        /// The vaccine.
        vaccine: Vaccine,
        /// The day it was given.
        day: u32,
    },
    /// Weighs a patient.
    Weigh {
        /// The pet.
        pet: String,
        /// Its weight, in kilograms.
        kg: f64,
    },
    /// Books an appointment with a vet, in the first consulting room free then.
    Book {
        /// The pet.
        pet: String,
        /// The vet.
        vet: Vet,
        /// In how many days (0: today).
        #[message(range(min = 0, max = 90))]
        in_days: u32,
        /// When, `HH:MM`.
        at: String,
        /// How long, in minutes.
        #[message(range(min = 10, max = 120))]
        minutes: u32,
    },
    /// Calls an appointment off.
    Cancel {
        /// Its number.
        appointment: u32,
    },
    /// The vet saw the patient: the consultation is charged.
    See {
        /// The appointment's number.
        appointment: u32,
    },
    /// Prescribes a medicine, dosed by weight, for some days: it is dispensed and charged.
    Treat {
        /// The pet.
        pet: String,
        /// The medicine, as on the shelf.
        drug: String,
        /// For how many days.
        #[message(range(min = 1, max = 60))]
        days: u32,
    },
    /// Vaccinates a patient today.
    Vaccinate {
        /// The pet.
        pet: String,
        /// The vaccine.
        vaccine: Vaccine,
    },
    /// Takes a pet into a kennel.
    Board {
        /// The pet.
        pet: String,
    },
    /// Hands a boarding pet back: its nights are charged.
    Collect {
        /// The pet.
        pet: String,
    },
    /// A delivery from the wholesaler.
    Restock {
        /// The medicine.
        drug: String,
        /// How many packs came.
        #[message(range(min = 1, max = 50))]
        packs: u32,
    },
    /// The end of the day: appointments nobody came to are charged as no-shows.
    CloseDay,
    /// The next morning.
    OpenDay,
    /// Takes tablets off the shelf (a command of `treat`).
    #[message(skip)]
    Dispense {
        /// The medicine.
        drug: String,
        /// How many tablets.
        tablets: u32,
    },
    /// Puts a line on an owner's bill (a command).
    #[message(skip)]
    Charge {
        /// Who pays.
        owner: String,
        /// The patient.
        pet: String,
        /// What for.
        kind: ChargeKind,
        /// How much, in cents.
        cents: u32,
    },
}
