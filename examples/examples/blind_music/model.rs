//! The school's model: pupils, teachers, instrument hires and the day of the term, and the messages that move it.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// One pupil: what they play, for how long each week, and how far they are towards their next grade.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Pupil {
    /// The pupil's name (the key).
    pub name: String,
    /// The family paying; brothers and sisters share one.
    pub family: String,
    /// The instrument learnt.
    pub instrument: String,
    /// The teacher giving the lessons.
    pub teacher: String,
    /// Minutes of each weekly lesson: 30, 45 or 60.
    pub minutes: u32,
    /// The bursary, in percent off the term's fee.
    pub bursary: u32,
    /// The last grade passed (0 for none yet).
    pub grade: u8,
    /// Lessons taken since the last grade.
    pub lessons: u32,
    /// Days of practice logged since the last grade.
    pub practice: u32,
    /// Pence credited for lessons cancelled in good time.
    pub credit: u64,
    /// Lessons cancelled too late, and charged.
    pub charged: u32,
}

/// A teacher: their room and how many minutes a day they teach at most.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Teacher {
    /// The teacher's name.
    pub name: String,
    /// The room they teach in.
    pub room: String,
    /// Most teaching minutes in a day.
    pub max_minutes: u32,
}

/// An instrument on hire to a pupil, paid by the month, with a deposit returned when it comes back.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Hire {
    /// The pupil who has it.
    pub pupil: String,
    /// What it is.
    pub instrument: String,
    /// The day it was hired.
    pub from_day: u32,
    /// Pence a month.
    pub monthly: u64,
    /// Pence held as a deposit.
    pub deposit: u64,
    /// Whether it has come back.
    pub returned: bool,
}

/// The school: the day of the term, its length, the pupils, teachers and hires.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct School {
    /// The day of the term, from 1.
    pub day: u32,
    /// Weeks in the term, half-term included.
    pub term_weeks: u32,
    /// The week of the term that is half-term (no lessons).
    pub half_term_week: u32,
    /// Less notice than this, in hours, and a cancelled lesson is charged.
    pub late_notice_hours: u32,
    /// The deposit on an instrument, in pence.
    pub deposit: u64,
    /// An instrument's hire, in pence a month.
    pub monthly_hire: u64,
    /// Every pupil, in the order enrolled.
    pub pupils: Vec<Pupil>,
    /// The teachers.
    pub teachers: Vec<Teacher>,
    /// Every hire, returned ones too.
    pub hires: Vec<Hire>,
    /// Deposits paid back, in pence.
    pub refunded: u64,
}

impl Default for School {
    fn default() -> Self {
        School {
            day: 1,
            term_weeks: 13,
            half_term_week: 7,
            late_notice_hours: 24,
            deposit: 6_000,
            monthly_hire: 1_800,
            pupils: Vec::new(),
            teachers: vec![
                Teacher {
                    name: "Ruth".to_owned(),
                    room: "A".to_owned(),
                    max_minutes: 240,
                },
                Teacher {
                    name: "Owen".to_owned(),
                    room: "B".to_owned(),
                    max_minutes: 180,
                },
            ],
            hires: Vec::new(),
            refunded: 0,
        }
    }
}

impl School {
    /// The pupil named `name`.
    pub fn pupil(&self, name: &str) -> Option<&Pupil> {
        self.pupils.iter().find(|pupil| pupil.name == name)
    }

    /// The pupil named `name`, to change.
    pub fn pupil_mut(&mut self, name: &str) -> Option<&mut Pupil> {
        self.pupils.iter_mut().find(|pupil| pupil.name == name)
    }

    /// The hires not yet returned.
    pub fn open_hires(&self) -> Vec<Hire> {
        self.hires
            .iter()
            .filter(|hire| !hire.returned)
            .cloned()
            .collect()
    }

    /// What the open hires have cost so far, in pence: each started month of 30 days, from the day of the hire.
    pub fn hire_due(&self) -> u64 {
        let mut due = 0;
        for hire in self.hires.iter().filter(|hire| !hire.returned) {
            let days = self.day.saturating_sub(hire.from_day);
            let months = days / 30 + 1;
            due += u64::from(months) * hire.monthly;
        }
        due
    }
}

/// What an agent may send to the school.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Enrols a pupil on weekly lessons of `minutes` (30, 45 or 60) with `teacher`.
    Enrol {
        /// The pupil's name.
        name: String,
        /// The family paying.
        family: String,
        /// The instrument.
        instrument: String,
        /// The teacher.
        teacher: String,
        /// Minutes a lesson: 30, 45 or 60.
        #[message(range(min = 30, max = 60))]
        minutes: u32,
        /// The bursary, percent off.
        #[message(range(min = 0, max = 100))]
        bursary: u32,
        /// The last grade passed before joining (0 for none).
        #[message(range(min = 0, max = 8))]
        grade: u8,
    },
    /// Records a lesson taken.
    Lesson {
        /// The pupil.
        name: String,
    },
    /// Logs days of practice.
    Practice {
        /// The pupil.
        name: String,
        /// Days practised.
        days: u32,
    },
    /// Cancels a lesson with `hours_notice` hours' notice: charged when too late, credited otherwise.
    Cancel {
        /// The pupil.
        name: String,
        /// Hours of notice given.
        hours_notice: u32,
    },
    /// The pupil passed their next grade.
    Pass {
        /// The pupil.
        name: String,
    },
    /// Hires an instrument to a pupil.
    Hire {
        /// The pupil.
        pupil: String,
        /// The instrument.
        instrument: String,
    },
    /// The pupil returns their hired instrument; the deposit is paid back.
    Return {
        /// The pupil.
        pupil: String,
    },
    /// Moves the day on.
    Advance {
        /// Days to move on.
        days: u32,
    },
    /// Credits a pupil for a lesson cancelled in good time.
    #[message(skip)]
    Credit {
        /// The pupil.
        name: String,
        /// Pence credited.
        pence: u64,
    },
    /// Charges a pupil for a lesson cancelled too late.
    #[message(skip)]
    Charge {
        /// The pupil.
        name: String,
    },
    /// Pays a deposit back.
    #[message(skip)]
    Refund {
        /// The pupil.
        pupil: String,
        /// Pence paid back.
        pence: u64,
    },
}

pub mod slipped {
    use super::*;

    /// [`School::default`], with the mistake.
    pub fn default_school() -> School {
        School {
            day: 1,
            term_weeks: 13,
            half_term_week: 7,
            late_notice_hours: 24,
            // BUG(deposit_pounds)
            deposit: 60,
            monthly_hire: 1_800,
            pupils: Vec::new(),
            teachers: vec![
                Teacher {
                    name: "Ruth".to_owned(),
                    room: "A".to_owned(),
                    max_minutes: 240,
                },
                Teacher {
                    name: "Owen".to_owned(),
                    room: "B".to_owned(),
                    max_minutes: 180,
                },
            ],
            hires: Vec::new(),
            refunded: 0,
        }
    }

    /// [`School::hire_due`], with the mistake.
    pub fn hire_due(school: &School) -> u64 {
        let mut due = 0;
        for hire in school.hires.iter().filter(|hire| !hire.returned) {
            let days = school.day.saturating_sub(hire.from_day);
            // BUG(hire_months)
            let months = days / 30;
            due += u64::from(months) * hire.monthly;
        }
        due
    }
}
