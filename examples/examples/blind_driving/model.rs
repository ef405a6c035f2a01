//! The driving school's model: instructors and their cars, pupils, lessons and test sittings, and the messages that
//! change them.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Manual or automatic: what a car has, what an instructor teaches in and what a pupil learns on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum Gearbox {
    /// A manual gearbox (a manual licence covers both).
    Manual,
    /// An automatic.
    Automatic,
}

/// An instructor of the school.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Instructor {
    /// Their name, which lessons name.
    pub name: String,
    /// What they teach in.
    pub gearbox: Gearbox,
    /// Their price per hour, in pence.
    pub rate: u64,
    /// The most hours they teach in a week (Monday to Sunday).
    pub weekly_limit: u32,
    /// The weekday they never teach, 0 for Monday to 6 for Sunday.
    pub day_off: u32,
    /// The registration of their car.
    pub car: String,
}

/// A dual-control car.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Car {
    /// Its registration.
    pub reg: String,
    /// Its gearbox.
    pub gearbox: Gearbox,
    /// Miles per (imperial) gallon.
    pub mpg: u32,
    /// The odometer, in miles.
    pub miles: u32,
    /// The odometer at its last service.
    pub serviced_at: u32,
    /// The miles it has driven on lessons since the app started.
    pub driven: u32,
}

/// Where a lesson stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum Status {
    /// In the diary.
    Booked,
    /// Driven.
    Done,
    /// Called off by the pupil.
    Cancelled,
}

/// A lesson in the diary.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Lesson {
    /// Its number, from 1.
    pub id: u32,
    /// Who drives.
    pub pupil: String,
    /// Who teaches.
    pub instructor: String,
    /// The day it is on.
    pub day: u32,
    /// 1 or 2 hours.
    pub hours: u32,
    /// How many of those hours came out of a prepaid block.
    pub prepaid: u32,
    /// What the pupil pays for the rest, in pence.
    pub price: u64,
    /// What a cancellation cost, in pence.
    pub fee: u64,
    /// Where it stands.
    pub status: Status,
}

impl Lesson {
    /// What the pupil owes for this lesson, in pence: its price once booked, the fee once cancelled.
    #[ranvier::trace_fn]
    pub fn billable(&self) -> u64 {
        match self.status {
            Status::Booked | Status::Done => self.price,
            Status::Cancelled => self.fee,
        }
    }

    /// Whether it still takes a slot of the instructor's week.
    #[ranvier::trace_fn]
    pub fn counts_for_hours(&self) -> bool {
        self.status != Status::Cancelled
    }
}

/// A learner.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Pupil {
    /// Their name, the key of their row.
    pub name: String,
    /// What they learn on.
    pub gearbox: Gearbox,
    /// Hours bought in blocks and not yet booked.
    pub prepaid_hours: u32,
    /// What their blocks cost, in pence.
    pub blocks: u64,
    /// What they have paid, in pence.
    pub paid: u64,
    /// Hours driven with an instructor.
    pub hours_taken: u32,
    /// Each skill of the syllabus and its score, 1 to 5.
    pub skills: Vec<(String, u8)>,
    /// Whether the theory test is passed.
    pub theory_passed: bool,
    /// Whether the practical test is passed.
    pub passed: bool,
}

impl Pupil {
    /// The score of `skill`: 1 for a skill not yet scored.
    #[ranvier::trace_fn]
    pub fn score(&self, skill: &str) -> u8 {
        self.skills
            .iter()
            .find(|(name, _)| name == skill)
            .map(|&(_, score)| score)
            .unwrap_or(1)
    }
}

/// Which test a sitting was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum TestKind {
    /// The theory test.
    Theory,
    /// The practical (driving) test.
    Practical,
}

/// A test a pupil sat.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Sitting {
    /// Who sat it.
    pub pupil: String,
    /// Their instructor at the time (of their last lesson).
    pub instructor: String,
    /// Theory or practical.
    pub kind: TestKind,
    /// Whether they passed.
    pub passed: bool,
    /// The day they sat it.
    pub day: u32,
}

/// The whole school.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct School {
    /// Today, from day 1 (a Monday).
    pub day: u32,
    /// The instructors.
    pub instructors: Vec<Instructor>,
    /// The cars.
    pub cars: Vec<Car>,
    /// The pupils, in the order they enrolled.
    pub pupils: Vec<Pupil>,
    /// Every lesson ever booked.
    pub lessons: Vec<Lesson>,
    /// Every test sat.
    pub sittings: Vec<Sitting>,
    /// The number the next lesson gets.
    pub next_lesson: u32,
    /// Why the last message did nothing, if it did nothing.
    pub notice: Option<String>,
}

fn instructor(
    name: &str,
    gearbox: Gearbox,
    rate: u64,
    weekly_limit: u32,
    day_off: u32,
    car: &str,
) -> Instructor {
    Instructor {
        name: name.to_owned(),
        gearbox,
        rate,
        weekly_limit,
        day_off,
        car: car.to_owned(),
    }
}

fn car(reg: &str, gearbox: Gearbox, mpg: u32, miles: u32, serviced_at: u32) -> Car {
    Car {
        reg: reg.to_owned(),
        gearbox,
        mpg,
        miles,
        serviced_at,
        driven: 0,
    }
}

impl Default for School {
    /// Day 1, three instructors with their cars, no pupils yet.
    fn default() -> Self {
        School {
            day: 1,
            instructors: vec![
                instructor("Priya", Gearbox::Manual, 3_800, 30, 6, "KM21 PRY"),
                instructor("Ben", Gearbox::Automatic, 4_000, 30, 0, "EV70 BEN"),
                instructor("Carol", Gearbox::Manual, 3_600, 6, 2, "CA19 ROL"),
            ],
            cars: vec![
                car("KM21 PRY", Gearbox::Manual, 45, 41_200, 36_000),
                car("EV70 BEN", Gearbox::Automatic, 60, 18_000, 18_000),
                car("CA19 ROL", Gearbox::Manual, 50, 63_500, 60_000),
            ],
            pupils: Vec::new(),
            lessons: Vec::new(),
            sittings: Vec::new(),
            next_lesson: 1,
            notice: None,
        }
    }
}

impl School {
    /// The instructor called `name`.
    #[ranvier::trace_fn]
    pub fn instructor(&self, name: &str) -> Option<&Instructor> {
        self.instructors.iter().find(|i| i.name == name)
    }

    /// The pupil called `name`, to change.
    #[ranvier::trace_fn]
    pub fn pupil_mut(&mut self, name: &str) -> Option<&mut Pupil> {
        self.pupils.iter_mut().find(|p| p.name == name)
    }

    /// The hours `instructor` teaches in week `week` (from 0), cancelled lessons left out.
    #[ranvier::trace_fn]
    pub fn hours_in_week(&self, instructor: &str, week: u32) -> u32 {
        self.lessons
            .iter()
            .filter(|l| l.instructor == instructor && super::lessons::week_of(l.day) == week)
            .filter(|l| l.counts_for_hours())
            .map(|l| l.hours)
            .sum()
    }
}

/// What the school's desk may be asked.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Enrols a pupil learning in a manual car, or an automatic with `automatic`.
    Enrol {
        /// The pupil's name.
        pupil: String,
        /// Whether they learn in an automatic.
        automatic: bool,
    },
    /// Buys `hours` of lessons up front: every full block of 10 hours is discounted.
    Prepay {
        /// The pupil.
        pupil: String,
        /// Hours bought.
        #[message(range(min = 1, max = 40))]
        hours: u32,
    },
    /// Books a lesson of 1 or 2 hours on `day` with `instructor`.
    Book {
        /// The pupil.
        pupil: String,
        /// The instructor.
        instructor: String,
        /// The day, today or later.
        day: u32,
        /// 1 or 2.
        #[message(range(min = 1, max = 2))]
        hours: u32,
    },
    /// Cancels lesson `lesson`: with less than 48 hours' notice it is charged.
    Cancel {
        /// The lesson's number.
        lesson: u32,
    },
    /// Moves the day on by `days`; the lessons of the days left behind are driven.
    Advance {
        /// Days to move on.
        #[message(range(min = 1, max = 60))]
        days: u32,
    },
    /// A lesson was driven (a command of `advance`).
    #[message(skip)]
    Complete {
        /// The lesson's number.
        lesson: u32,
    },
    /// A car drove `miles` (a command of `complete`).
    #[message(skip)]
    Drive {
        /// The car's registration.
        car: String,
        /// Miles driven.
        miles: u32,
    },
    /// A car was serviced today.
    Service {
        /// The car's registration.
        car: String,
    },
    /// Scores a pupil's skill of the syllabus, 1 to 5.
    Score {
        /// The pupil.
        pupil: String,
        /// The skill, as the syllabus names it.
        skill: String,
        /// 1 (introduced) to 5 (independent).
        #[message(range(min = 1, max = 5))]
        score: u8,
    },
    /// Records a test sat today: the practical test, or with `practical` false the theory test.
    SitTest {
        /// The pupil.
        pupil: String,
        /// Practical (true) or theory (false).
        practical: bool,
        /// Whether they passed.
        passed: bool,
    },
    /// Records a payment, in pence.
    Pay {
        /// The pupil.
        pupil: String,
        /// Pence paid.
        #[message(range(min = 1))]
        pence: u64,
    },
}

/// The copies with a mistake each, which the app is built with when its slip is chosen.
pub mod slipped {
    use super::*;

    /// What the pupil owes for `lesson`, in pence: its price once booked, the fee once cancelled.
    #[ranvier::trace_fn]
    pub fn billable(lesson: &Lesson) -> u64 {
        match lesson.status {
            Status::Booked | Status::Done => lesson.price,
            // BUG(billable_cancel)
            Status::Cancelled => lesson.price,
        }
    }

    /// Day 1, three instructors with their cars, no pupils yet.
    pub fn default() -> School {
        School {
            day: 1,
            instructors: vec![
                instructor("Priya", Gearbox::Manual, 3_800, 30, 6, "KM21 PRY"),
                // BUG(default_gearbox)
                instructor("Ben", Gearbox::Manual, 4_000, 30, 0, "EV70 BEN"),
                instructor("Carol", Gearbox::Manual, 3_600, 6, 2, "CA19 ROL"),
            ],
            cars: vec![
                car("KM21 PRY", Gearbox::Manual, 45, 41_200, 36_000),
                car("EV70 BEN", Gearbox::Automatic, 60, 18_000, 18_000),
                car("CA19 ROL", Gearbox::Manual, 50, 63_500, 60_000),
            ],
            pupils: Vec::new(),
            lessons: Vec::new(),
            sittings: Vec::new(),
            next_lesson: 1,
            notice: None,
        }
    }
}
