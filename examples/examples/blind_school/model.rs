//! The school's model: the pupils and their forms, the term's assignments and the marks entered for them, the
//! absences, the letters sent home, the term's rules, and the messages the school office takes.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Half-day sessions in a school day (a morning and an afternoon register).
pub const SESSIONS_PER_DAY: u32 = 2;

/// Why a pupil was away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Reason {
    /// Off sick.
    Ill,
    /// A doctor's or dentist's appointment.
    Appointment,
    /// Taken on holiday in term time.
    Holiday,
    /// No reason given.
    Unknown,
}

impl Reason {
    /// The reason named `name` ("ill", "appointment", "holiday" or "unknown").
    pub fn parse(name: &str) -> Option<Reason> {
        match name {
            "ill" => Some(Reason::Ill),
            "appointment" => Some(Reason::Appointment),
            "holiday" => Some(Reason::Holiday),
            "unknown" => Some(Reason::Unknown),
            _ => None,
        }
    }
}

/// One pupil on the roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Pupil {
    /// The pupil's name.
    pub name: String,
    /// Their form ("7A", "7B").
    pub form: String,
    /// Who the school writes to (the parent's portal login).
    pub parent: String,
    /// The school day of the term they joined on (1 is the first).
    pub joined: u32,
}

/// A piece of work set for every pupil.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Assignment {
    /// The assignment's number.
    pub id: u32,
    /// "Essay", "Fractions test", ...
    pub title: String,
    /// "Maths", "English", "Science".
    pub subject: String,
    /// How much it counts towards the term's average, against the other assignments.
    pub weight: u32,
    /// The marks it is out of.
    pub max: u32,
    /// The school day it is due on.
    pub due: u32,
}

/// A pupil's mark for an assignment.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Mark {
    /// The pupil.
    pub pupil: String,
    /// The assignment.
    pub assignment: u32,
    /// The marks the teacher gave, out of the assignment's `max`.
    pub points: u32,
    /// School days after the due day it was handed in.
    pub days_late: u32,
    /// The marks that count, after the late penalty.
    pub scored: u32,
    /// How many times the mark was corrected (bookkeeping only).
    pub corrections: u32,
}

/// Two marks are the same when the pupil, the assignment, the marks and the lateness are; how many times it was
/// corrected does not count.
impl PartialEq for Mark {
    fn eq(&self, other: &Self) -> bool {
        self.pupil == other.pupil
            && self.assignment == other.assignment
            && self.points == other.points
            && self.days_late == other.days_late
            && self.scored == other.scored
    }
}

/// A pupil away for part of a day.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Absence {
    /// The pupil.
    pub pupil: String,
    /// The school day.
    pub day: u32,
    /// Half-day sessions missed.
    pub half_days: u32,
    /// Why.
    pub reason: Reason,
}

/// A letter sent home through the parents' portal.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Letter {
    /// The parent written to.
    pub to: String,
    /// The pupil it is about.
    pub pupil: String,
    /// The school day it was sent.
    pub day: u32,
    /// What it says.
    pub text: String,
}

/// The term's rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Rules {
    /// Taken off a mark for each school day it is late, in percent.
    pub late_penalty: u32,
    /// The most a late penalty takes off, in percent.
    pub max_penalty: u32,
    /// Unauthorised half-days from which the school writes home.
    pub absence_alert: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            late_penalty: 10,
            max_penalty: 50,
            absence_alert: 2 * SESSIONS_PER_DAY,
        }
    }
}

/// The term: the model the office's messages change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Term {
    /// Today: the school day of the term (1 is the first).
    pub day: u32,
    /// The pupils, in the order enrolled.
    pub pupils: Vec<Pupil>,
    /// The assignments, in the order set.
    pub assignments: Vec<Assignment>,
    /// The marks, in the order entered.
    pub marks: Vec<Mark>,
    /// The absences, in the order recorded.
    pub absences: Vec<Absence>,
    /// The letters sent home, in the order sent.
    pub letters: Vec<Letter>,
    /// What the office was told.
    pub notices: Vec<String>,
    /// The rules.
    pub rules: Rules,
}

impl Default for Term {
    fn default() -> Self {
        Term {
            day: 1,
            pupils: Vec::new(),
            assignments: Vec::new(),
            marks: Vec::new(),
            absences: Vec::new(),
            letters: Vec::new(),
            notices: Vec::new(),
            rules: Rules::default(),
        }
    }
}

impl Term {
    /// The pupil `name`.
    pub fn pupil(&self, name: &str) -> Option<&Pupil> {
        self.pupils.iter().find(|p| p.name == name)
    }

    /// The assignment `id`.
    pub fn assignment(&self, id: u32) -> Option<&Assignment> {
        self.assignments.iter().find(|a| a.id == id)
    }
}

/// What the school office takes.
#[derive(Debug, Messages)]
pub enum Msg {
    /// A new pupil joins form `form`; the school writes to `parent`.
    Enrol {
        /// The pupil's name.
        pupil: String,
        /// The form ("7A", "7B").
        form: String,
        /// The parent's portal login.
        parent: String,
    },
    /// `pupil` hands in assignment `assignment` today and the teacher gives it `points` (a late one loses marks).
    Mark {
        /// The pupil.
        pupil: String,
        /// The assignment's number.
        assignment: u32,
        /// Marks, out of the assignment's maximum.
        points: u32,
    },
    /// The teacher corrects `pupil`'s mark for `assignment` to `points` (the late penalty still applies).
    Correct {
        /// The pupil.
        pupil: String,
        /// The assignment's number.
        assignment: u32,
        /// The right marks.
        points: u32,
    },
    /// `pupil` misses `half_days` sessions today, for `reason` ("ill", "appointment", "holiday" or "unknown").
    Absent {
        /// The pupil.
        pupil: String,
        /// Half-day sessions.
        #[message(range(min = 1, max = 2))]
        half_days: u32,
        /// Why.
        reason: String,
    },
    /// The term moves on `days` school days.
    NextDay {
        /// School days.
        #[message(range(min = 1, max = 70))]
        days: u32,
    },
    /// A letter with `text` to the parents of every pupil in form `form`.
    MessageParents {
        /// The form.
        form: String,
        /// What the letter says.
        text: String,
    },
    /// An assignment is set (sent by the office itself when the term opens).
    #[message(skip)]
    SetWork {
        /// Its number.
        id: u32,
        /// Its title.
        title: String,
        /// Its subject.
        subject: String,
        /// Its weight.
        weight: u32,
        /// The marks it is out of.
        max: u32,
        /// Its due day.
        due: u32,
    },
    /// A letter to `to` about `pupil` (sent by the office itself).
    #[message(skip)]
    Letter {
        /// The parent.
        to: String,
        /// The pupil.
        pupil: String,
        /// What it says.
        text: String,
    },
    /// Tells the office `text` (sent by the office itself).
    #[message(skip)]
    Notify {
        /// What to tell.
        text: String,
    },
}
