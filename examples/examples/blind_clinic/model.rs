//! The clinic's model: the doctors on duty, the day's visits, the charges and notices the front desk sends, the
//! clinic's fees, and the messages the front desk takes.

use ranvier::Messages;

/// A doctor on duty today.
#[derive(Clone, Debug, PartialEq)]
pub struct Doctor {
    /// A short id ("dr_ng"), unique per doctor.
    pub id: String,
    /// The doctor's name.
    pub name: String,
    /// The consulting room.
    pub room: u32,
    /// What a visit costs, in cents.
    pub fee_cents: u64,
}

/// Where a visit is in the day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Booked, the patient not here yet.
    Booked,
    /// Checked in at the desk, waiting to be called.
    Waiting,
    /// Called into the consulting room.
    InRoom,
    /// Seen and gone.
    Done,
    /// Called off.
    Cancelled,
}

/// One appointment.
#[derive(Clone, Debug, PartialEq)]
pub struct Visit {
    /// The visit's number, from 1 in the order booked.
    pub id: u32,
    /// The patient's name.
    pub patient: String,
    /// The doctor's id.
    pub doctor: String,
    /// When it starts, in minutes after opening (08:00).
    pub slot: u32,
    /// How long it is booked for, in minutes.
    pub minutes: u32,
    /// Seen before the others waiting.
    pub urgent: bool,
    /// The patient's insurance plan (`basic`, `plus`, `gold` or `none`).
    pub plan: String,
    /// The minute the patient checked in.
    pub checked_in: Option<u32>,
    /// The minute the doctor called the patient in.
    pub called: Option<u32>,
    /// The minute the visit ended.
    pub finished: Option<u32>,
    /// Called off.
    pub cancelled: bool,
    /// Lab tests ordered for the patient.
    pub tests: Vec<String>,
}

impl Visit {
    /// Where the visit is now.
    pub fn stage(&self) -> Stage {
        if self.cancelled {
            Stage::Cancelled
        } else if self.finished.is_some() {
            Stage::Done
        } else if self.called.is_some() {
            Stage::InRoom
        } else if self.checked_in.is_some() {
            Stage::Waiting
        } else {
            Stage::Booked
        }
    }
}

/// A charge the desk sent to a patient.
#[derive(Clone, Debug, PartialEq)]
pub struct Charge {
    /// The charge's number, from 1.
    pub number: u32,
    /// The visit charged for.
    pub visit: u32,
    /// What it is for ("visit", "late cancellation").
    pub what: String,
    /// Cents.
    pub cents: u64,
}

/// What the clinic charges besides the doctors' fees.
#[derive(Clone, Debug, PartialEq)]
pub struct Fees {
    /// A visit called off less than this many minutes before its slot is charged a fee.
    pub late_cancel_minutes: u32,
    /// The late cancellation fee, in cents.
    pub late_cancel_cents: u64,
    /// Each started block of overtime past the booked length, in cents.
    pub overtime_cents_per_block: u64,
}

impl Default for Fees {
    fn default() -> Fees {
        // the practice manager's fee sheet
        Fees {
            late_cancel_minutes: 120,
            late_cancel_cents: 2500,
            overtime_cents_per_block: 500,
        }
    }
}

/// The whole front desk.
#[derive(Clone, Debug, PartialEq)]
pub struct Clinic {
    /// The clock, in minutes since opening (08:00).
    pub minute: u32,
    /// The doctors on duty, in the order they came in.
    pub doctors: Vec<Doctor>,
    /// Every visit of the day, in the order booked.
    pub visits: Vec<Visit>,
    /// Charges sent, oldest first.
    pub charges: Vec<Charge>,
    /// Notices to patients and doctors, oldest first.
    pub notices: Vec<String>,
    /// The clinic's fees.
    pub fees: Fees,
    /// The number the next visit gets.
    pub next_visit: u32,
    /// The number the next charge gets.
    pub next_charge: u32,
}

impl Default for Clinic {
    fn default() -> Clinic {
        Clinic {
            minute: 0,
            doctors: Vec::new(),
            visits: Vec::new(),
            charges: Vec::new(),
            notices: Vec::new(),
            fees: Fees::default(),
            next_visit: 1,
            next_charge: 1,
        }
    }
}

impl Clinic {
    /// The doctor with `id`.
    pub fn doctor(&self, id: &str) -> Option<&Doctor> {
        self.doctors.iter().find(|d| d.id == id)
    }

    /// The visit numbered `id`.
    pub fn visit(&self, id: u32) -> Option<&Visit> {
        self.visits.iter().find(|v| v.id == id)
    }
}

/// The doctors on duty when the clinic opens.
pub fn on_duty() -> Vec<Msg> {
    [
        ("dr_ng", "Dr Ng", 1, 6000),
        ("dr_osei", "Dr Osei", 2, 8000),
        ("dr_park", "Dr Park", 3, 12000),
    ]
    .into_iter()
    .map(|(id, name, room, fee_cents)| Msg::AddDoctor {
        id: id.to_owned(),
        name: name.to_owned(),
        room,
        fee_cents,
    })
    .collect()
}

/// What the front desk takes.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// A doctor comes on duty (sent by the desk itself when it opens).
    #[message(skip)]
    AddDoctor {
        /// The doctor's id.
        id: String,
        /// The name.
        name: String,
        /// The room.
        room: u32,
        /// A visit's fee, in cents.
        fee_cents: u64,
    },
    /// Books a visit with a doctor.
    Book {
        /// The patient's name.
        patient: String,
        /// The doctor's id (`dr_ng`, `dr_osei`, `dr_park`).
        doctor: String,
        /// When, in minutes after opening (08:00).
        slot: u32,
        /// How long, in minutes.
        #[message(range(min = 5, max = 120))]
        minutes: u32,
        /// To be seen before the others waiting.
        urgent: bool,
        /// The insurance plan: `basic`, `plus`, `gold` or `none`.
        plan: String,
    },
    /// The patient of a visit checked in at the desk now.
    CheckIn {
        /// The visit's number.
        visit: u32,
    },
    /// The doctor calls the patient of a visit in now.
    Call {
        /// The visit's number.
        visit: u32,
    },
    /// The visit ended now: the patient is charged.
    Finish {
        /// The visit's number.
        visit: u32,
    },
    /// Calls a visit off now (a late one is charged a fee).
    Cancel {
        /// The visit's number.
        visit: u32,
    },
    /// Orders a lab test for the patient of a visit who is here.
    Order {
        /// The visit's number.
        visit: u32,
        /// The test (`glucose`, `potassium`, `hemoglobin`).
        test: String,
    },
    /// Moves the clock on.
    Advance {
        /// Minutes, at least 1.
        #[message(range(min = 1))]
        minutes: u32,
    },
    /// Charges a visit (sent by the desk itself).
    #[message(skip)]
    Charge {
        /// The visit.
        visit: u32,
        /// What for.
        what: String,
        /// Cents.
        cents: u64,
    },
    /// Tells the patients and doctors `text` (sent by the desk itself).
    #[message(skip)]
    Notify {
        /// What to tell.
        text: String,
    },
}

/// The desk as first set up.
pub mod slipped {
    use super::{Clinic, Fees};

    /// The first opening state of the desk.
    pub struct FirstClinic(pub Clinic);

    impl Default for FirstClinic {
        fn default() -> FirstClinic {
            FirstClinic(Clinic {
                minute: 0,
                doctors: Vec::new(),
                visits: Vec::new(),
                charges: Vec::new(),
                notices: Vec::new(),
                fees: Fees::default(),
                // BUG(first_visit_id)
                next_visit: 0,
                next_charge: 1,
            })
        }
    }
}
