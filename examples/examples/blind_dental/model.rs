//! The practice: its patients, the dentists' diaries, the charges, the impressions at the lab, and the messages.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// 15-minute slots in a working day, from 08:00 to 17:00.
pub const DAY_SLOTS: u32 = 36;

/// A risk score from this value up is high risk: recalled every 6 months instead of 12.
pub const HIGH_RISK: u32 = 3;

/// The three price bands of a treatment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Band {
    /// A check-up.
    Checkup,
    /// A filling.
    Filling,
    /// A crown: an impression goes to the lab.
    Crown,
}

impl Band {
    /// The band a receptionist typed, if it is one.
    pub fn parse(name: &str) -> Option<Band> {
        match name.trim().to_lowercase().as_str() {
            "checkup" | "check-up" => Some(Band::Checkup),
            "filling" => Some(Band::Filling),
            "crown" => Some(Band::Crown),
            _ => None,
        }
    }

    /// How many 15-minute slots the treatment takes in the chair.
    pub fn slots(self) -> u32 {
        match self {
            Band::Checkup => 2,
            Band::Filling => 3,
            Band::Crown => 6,
        }
    }
}

/// Where an appointment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Visit {
    /// In the diary.
    Booked,
    /// The patient came.
    Attended,
    /// The patient did not come.
    Missed,
}

/// A patient of the practice.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Patient {
    /// Name, the patient's key.
    pub name: String,
    /// On the monthly plan (two free check-ups a year, a discount on treatment) rather than private.
    pub plan: bool,
    /// Risk score, 1 (low) to 5.
    pub risk: u32,
    /// The day they registered.
    pub joined: u32,
    /// The day of their last check-up.
    pub last_checkup: Option<u32>,
    /// Check-ups this practice year.
    pub checkups_this_year: u32,
    /// Appointments missed.
    pub misses: u32,
    /// What they owe, in pence.
    pub owed: u64,
}

impl Patient {
    /// A patient registering on `day`.
    pub fn new(name: String, plan: bool, risk: u32, day: u32) -> Patient {
        Patient {
            name,
            plan,
            risk,
            joined: day,
            last_checkup: None,
            checkups_this_year: 0,
            misses: 0,
            owed: 0,
        }
    }

    /// Whether the patient pays the monthly plan.
    pub fn is_on_plan(&self) -> bool {
        self.plan
    }

    /// Months between two recalls, by risk.
    pub fn recall_months(&self) -> u32 {
        if self.risk >= HIGH_RISK { 6 } else { 12 }
    }
}

/// One appointment in a dentist's diary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Appointment {
    /// Its number.
    pub id: u32,
    /// Who comes.
    pub patient: String,
    /// Whose chair.
    pub dentist: String,
    /// Which day.
    pub day: u32,
    /// The first 15-minute slot (0 is 08:00).
    pub slot: u32,
    /// What is done.
    pub band: Band,
    /// Booked, attended or missed.
    pub state: Visit,
}

/// An impression sent to the lab for a crown.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Impression {
    /// Whose crown.
    pub patient: String,
    /// The day it was taken.
    pub taken: u32,
}

/// A line on a patient's account.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Charge {
    /// Who pays.
    pub patient: String,
    /// When.
    pub day: u32,
    /// What for.
    pub what: String,
    /// The list price, in pence.
    pub list: u64,
    /// What the patient is charged, in pence.
    pub amount: u64,
}

/// A dentist and how many slots they take a day.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Dentist {
    /// Name.
    pub name: String,
    /// The most slots booked in a day.
    pub max_slots: u32,
}

/// The practice.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Practice {
    /// Today, counted from 1 (a Monday).
    pub day: u32,
    /// The dentists.
    pub dentists: Vec<Dentist>,
    /// The first slot of the hour-long lunch break.
    pub lunch_start: u32,
    /// The patients, in the order they registered.
    pub patients: Vec<Patient>,
    /// Every appointment.
    pub appointments: Vec<Appointment>,
    /// Impressions sent to the lab.
    pub impressions: Vec<Impression>,
    /// Every charge.
    pub charges: Vec<Charge>,
    /// What the front desk was told (refused bookings and the like).
    pub notes: Vec<String>,
    /// The next appointment's number.
    pub next_id: u32,
}

impl Default for Practice {
    fn default() -> Self {
        Practice {
            day: 1,
            dentists: vec![
                Dentist {
                    name: "Okafor".to_owned(),
                    max_slots: 24,
                },
                Dentist {
                    name: "Lind".to_owned(),
                    max_slots: 20,
                },
            ],
            lunch_start: 16,
            patients: Vec::new(),
            appointments: Vec::new(),
            impressions: Vec::new(),
            charges: Vec::new(),
            notes: Vec::new(),
            next_id: 1,
        }
    }
}

impl Practice {
    /// The patient named `name`.
    pub fn patient(&self, name: &str) -> Option<&Patient> {
        self.patients.iter().find(|p| p.name == name)
    }

    /// The patient named `name`, to change.
    pub fn patient_mut(&mut self, name: &str) -> Option<&mut Patient> {
        self.patients.iter_mut().find(|p| p.name == name)
    }

    /// Slots booked (and not missed) in `dentist`'s diary on `day`.
    pub fn slots_booked(&self, dentist: &str, day: u32) -> u32 {
        self.appointments
            .iter()
            .filter(|a| a.dentist == dentist && a.day == day && a.state != Visit::Missed)
            .map(|a| a.band.slots())
            .sum()
    }
}

/// What the front desk may send.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Registers a patient, private or on the plan, with a risk score from 1 to 5.
    Register {
        /// The patient's name.
        name: String,
        /// On the monthly plan.
        plan: bool,
        /// Risk score, 1 to 5.
        #[message(range(min = 1, max = 5))]
        risk: u32,
    },
    /// Books `band` (`checkup`, `filling` or `crown`) for `patient` in `dentist`'s diary on `day` from `slot`.
    Book {
        /// Who comes.
        patient: String,
        /// Whose chair.
        dentist: String,
        /// Which day.
        day: u32,
        /// The first 15-minute slot (0 is 08:00).
        slot: u32,
        /// `checkup`, `filling` or `crown`.
        band: String,
    },
    /// The patient of appointment `id` came today.
    Attend {
        /// The appointment.
        id: u32,
    },
    /// The patient of appointment `id` did not come today.
    Miss {
        /// The appointment.
        id: u32,
    },
    /// A patient pays `amount` pence off their account.
    Pay {
        /// Who pays.
        patient: String,
        /// Pence.
        amount: u64,
    },
    /// Moves the day on.
    Advance {
        /// Days to move on.
        #[message(range(min = 1))]
        days: u32,
    },
    /// Charges `patient` the missed-appointment fee.
    ChargeMissed {
        /// Who missed.
        patient: String,
    },
    /// Sends `patient`'s impression to the lab.
    TakeImpression {
        /// Whose crown.
        patient: String,
    },
    /// Charges every plan patient the monthly fee.
    BillPlans,
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`Patient::recall_months`], with a mistake.
    pub fn recall_months(patient: &Patient) -> u32 {
        // BUG(risk_boundary)
        if patient.risk > HIGH_RISK { 6 } else { 12 }
    }

    /// [`Practice::default`], with a mistake.
    pub fn opening_practice() -> Practice {
        Practice {
            day: 1,
            dentists: vec![
                Dentist {
                    name: "Okafor".to_owned(),
                    max_slots: 24,
                },
                Dentist {
                    name: "Lind".to_owned(),
                    max_slots: 20,
                },
            ],
            // BUG(lunch_unit)
            lunch_start: 12,
            patients: Vec::new(),
            appointments: Vec::new(),
            impressions: Vec::new(),
            charges: Vec::new(),
            notes: Vec::new(),
            next_id: 1,
        }
    }
}
