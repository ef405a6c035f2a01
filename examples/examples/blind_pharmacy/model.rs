//! The dispensary's model: the formulary, the stock in batches, patients, prescriptions, owing slips and the day's
//! takings, and the messages the counter sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// A medicine on the formulary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Medicine {
    /// Its short code (what prescriptions and batches name).
    pub code: &'static str,
    /// Its name and strength, as printed on the label.
    pub name: &'static str,
    /// The group an allergy is recorded against (`penicillin`), if any.
    pub group: Option<&'static str>,
}

/// What the dispensary stocks.
pub const FORMULARY: [Medicine; 8] = [
    Medicine {
        code: "amox",
        name: "Amoxicillin 500mg capsules",
        group: Some("penicillin"),
    },
    Medicine {
        code: "penv",
        name: "Phenoxymethylpenicillin 250mg tablets",
        group: Some("penicillin"),
    },
    Medicine {
        code: "warf",
        name: "Warfarin 1mg tablets",
        group: None,
    },
    Medicine {
        code: "aspi",
        name: "Aspirin 75mg tablets",
        group: Some("nsaid"),
    },
    Medicine {
        code: "simv",
        name: "Simvastatin 20mg tablets",
        group: Some("statin"),
    },
    Medicine {
        code: "clar",
        name: "Clarithromycin 500mg tablets",
        group: Some("macrolide"),
    },
    Medicine {
        code: "metf",
        name: "Metformin 500mg tablets",
        group: None,
    },
    Medicine {
        code: "sert",
        name: "Sertraline 50mg tablets",
        group: None,
    },
];

/// The formulary entry of `code`.
pub fn medicine(code: &str) -> Option<&'static Medicine> {
    FORMULARY.iter().find(|m| m.code == code)
}

/// The printed name of `code`, or the code itself for a medicine off the formulary.
pub fn name_of(code: &str) -> String {
    medicine(code).map_or_else(|| code.to_owned(), |m| m.name.to_owned())
}

/// A batch of a medicine on the shelf (a row of the `stock` value).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Batch {
    /// The manufacturer's lot number (the row's key).
    pub lot: String,
    /// The medicine's code.
    pub medicine: String,
    /// Tablets or capsules left.
    pub quantity: u32,
    /// The last day it may be dispensed.
    pub expires: u32,
    /// The day it came in.
    pub received: u32,
}

impl Batch {
    /// A batch of `quantity` of `medicine`, lot `lot`, usable until day `expires`, received on day `received`.
    pub fn new(medicine: String, lot: String, quantity: u32, expires: u32, received: u32) -> Self {
        Batch {
            lot,
            medicine,
            quantity,
            expires,
            received,
        }
    }

    /// Whether it may still be dispensed on `day`.
    pub fn usable_on(&self, day: u32) -> bool {
        self.expires >= day && self.quantity > 0
    }
}

/// A certificate that exempts a patient from charges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// None held.
    None,
    /// A prepayment certificate (PPC).
    Prepayment,
    /// A maternity exemption certificate.
    Maternity,
    /// A medical exemption certificate.
    Medical,
}

impl Certificate {
    /// The certificate a registration names (`ppc`, `maternity`, `medical`; anything else is none).
    pub fn parse(text: &str) -> Self {
        match text.trim().to_ascii_lowercase().as_str() {
            "ppc" | "prepayment" => Certificate::Prepayment,
            "maternity" | "matex" => Certificate::Maternity,
            "medical" | "medex" => Certificate::Medical,
            _ => Certificate::None,
        }
    }
}

/// A patient on the dispensary's records.
#[derive(Clone, Debug, PartialEq)]
pub struct Patient {
    /// Their name (the key the counter uses).
    pub name: String,
    /// Their age in years.
    pub age: u32,
    /// The certificate they showed.
    pub certificate: Certificate,
    /// Groups they are allergic to.
    pub allergies: Vec<String>,
}

/// One item of a prescription.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The medicine's code.
    pub medicine: String,
    /// How many tablets or capsules.
    pub quantity: u32,
    /// How many a day.
    pub per_day: u32,
}

/// Where a prescription stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Handed in, not dispensed yet.
    Waiting,
    /// Dispensed, with repeats left or none.
    Dispensed,
    /// Past its validity before it was dispensed.
    Expired,
}

/// A prescription handed in at the counter.
#[derive(Clone, Debug, PartialEq)]
pub struct Prescription {
    /// Its number at the dispensary (from 1).
    pub id: u32,
    /// The patient's name.
    pub patient: String,
    /// The national prescription service's token.
    pub token: String,
    /// Its items.
    pub items: Vec<Item>,
    /// The day it was issued.
    pub issued: u32,
    /// Repeats still to dispense after the first.
    pub repeats: u32,
    /// The day it was last dispensed.
    pub last_dispensed: Option<u32>,
    /// Where it stands.
    pub status: Status,
}

impl Prescription {
    /// Whether it can be dispensed on `day` under `policy`: waiting and in date, or a repeat that is due.
    pub fn can_dispense(&self, day: u32, policy: &Policy) -> bool {
        match (self.status, self.last_dispensed) {
            (Status::Waiting, _) => day <= self.issued + policy.valid_for_days,
            (Status::Dispensed, Some(last)) => {
                self.repeats > 0 && day >= last + policy.repeat_every_days
            }
            _ => false,
        }
    }

    /// Its items' medicine codes.
    pub fn medicines(&self) -> impl Iterator<Item = &str> {
        self.items.iter().map(|item| item.medicine.as_str())
    }
}

/// A slip for what could not be supplied: the rest follows when stock comes in.
#[derive(Clone, Debug, PartialEq)]
pub struct Owing {
    /// The prescription.
    pub prescription: u32,
    /// The patient.
    pub patient: String,
    /// The medicine.
    pub medicine: String,
    /// How many are owed.
    pub quantity: u32,
}

/// Why a dispensing was free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exempt {
    /// Under 16.
    Child,
    /// 60 or over.
    Age,
    /// A prepayment certificate.
    Prepayment,
    /// A maternity certificate.
    Maternity,
    /// A medical certificate.
    Medical,
}

impl Exempt {
    /// How the takings sheet names it.
    pub fn label(self) -> &'static str {
        match self {
            Exempt::Child => "under 16",
            Exempt::Age => "60 or over",
            Exempt::Prepayment => "prepayment certificate",
            Exempt::Maternity => "maternity",
            Exempt::Medical => "medical",
        }
    }
}

/// One dispensing on the takings sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Sale {
    /// The prescription.
    pub prescription: u32,
    /// The day.
    pub day: u32,
    /// Items dispensed.
    pub items: u32,
    /// What the patient paid, in pence.
    pub pence: u64,
    /// Why it was free, when it was.
    pub exempt: Option<Exempt>,
}

/// The dispensary's rules of practice.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// Days a prescription may be dispensed after it was issued.
    pub valid_for_days: u32,
    /// Days between two dispensings of a repeat.
    pub repeat_every_days: u32,
    /// A batch expiring within this many days is short-dated.
    pub short_dated_days: u32,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            valid_for_days: 180,
            repeat_every_days: 28,
            short_dated_days: 7,
        }
    }
}

/// The dispensary.
#[derive(Clone, Debug, PartialEq)]
pub struct Dispensary {
    /// Today (the dispensary opens on day 1).
    pub today: u32,
    /// Its rules.
    pub policy: Policy,
    /// The batches on the shelf.
    pub stock: Vec<Batch>,
    /// Batches past their date, set aside for destruction.
    pub quarantine: Vec<Batch>,
    /// The patients.
    pub patients: Vec<Patient>,
    /// The prescriptions, in the order handed in.
    pub prescriptions: Vec<Prescription>,
    /// The owing slips still open.
    pub owings: Vec<Owing>,
    /// The takings sheet.
    pub sales: Vec<Sale>,
    /// The patient at the counter.
    pub counter: Option<String>,
}

impl Dispensary {
    /// The dispensary on its first morning, under `policy`, with no stock until the opening delivery.
    pub fn opening(policy: Policy) -> Self {
        Dispensary {
            today: 1,
            policy,
            stock: Vec::new(),
            quarantine: Vec::new(),
            patients: Vec::new(),
            prescriptions: Vec::new(),
            owings: Vec::new(),
            sales: Vec::new(),
            counter: None,
        }
    }

    /// The patient named `name`.
    pub fn patient(&self, name: &str) -> Option<&Patient> {
        self.patients.iter().find(|p| p.name == name)
    }

    /// The prescription numbered `id`.
    pub fn prescription_mut(&mut self, id: u32) -> Option<&mut Prescription> {
        self.prescriptions.iter_mut().find(|rx| rx.id == id)
    }

    /// Medicines `patient` is taking now: the items of their prescriptions dispensed already.
    pub fn current_medicines(&self, patient: &str) -> Vec<String> {
        self.prescriptions
            .iter()
            .filter(|rx| rx.patient == patient && rx.status == Status::Dispensed)
            .flat_map(|rx| rx.medicines().map(str::to_owned))
            .collect()
    }
}

/// The counter's messages.
#[derive(Clone, Debug, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// A delivery: `quantity` of `medicine` in lot `lot`, usable until day `expires`.
    Receive {
        /// The medicine's code.
        medicine: String,
        /// The lot number.
        lot: String,
        /// Tablets or capsules.
        quantity: u32,
        /// The last day it may be dispensed.
        expires: u32,
    },
    /// Registers a patient: their age, and the certificate they hold (`none`, `ppc`, `maternity`, `medical`).
    Register {
        /// Their name.
        patient: String,
        /// Their age.
        age: u32,
        /// Their certificate.
        certificate: String,
    },
    /// Records an allergy to a group of medicines (`penicillin`).
    NoteAllergy {
        /// The patient.
        patient: String,
        /// The group.
        group: String,
    },
    /// A patient comes to the counter.
    Serve {
        /// The patient.
        patient: String,
    },
    /// A prescription is handed in, with its service token and the repeats it allows after the first.
    HandIn {
        /// The patient.
        patient: String,
        /// The national service's token.
        token: String,
        /// Repeats after the first dispensing.
        repeats: u32,
    },
    /// Adds an item to the prescription `id`.
    AddItem {
        /// The prescription.
        id: u32,
        /// The medicine's code.
        medicine: String,
        /// How many.
        quantity: u32,
        /// How many a day.
        per_day: u32,
    },
    /// Dispenses the prescription `id` (or its next repeat).
    Dispense {
        /// The prescription.
        id: u32,
    },
    /// Writes an owing slip (a command of `Dispense`).
    #[message(skip)]
    Owe {
        /// The prescription.
        id: u32,
        /// The medicine.
        medicine: String,
        /// How many are owed.
        quantity: u32,
    },
    /// The clock moves on by `days`.
    Advance {
        /// Days.
        days: u32,
    },
}

/// The medicines dispensed from a dispensing, and how many were short.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picked {
    /// Supplied.
    pub supplied: u32,
    /// Short.
    pub short: u32,
}

pub(crate) mod slipped {
    use super::Policy;

    /// The rules of practice, with the mistake.
    pub fn policy() -> Policy {
        Policy {
            // BUG(validity_months)
            valid_for_days: 6,
            repeat_every_days: 28,
            short_dated_days: 7,
        }
    }
}
