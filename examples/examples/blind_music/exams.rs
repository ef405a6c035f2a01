//! Graded exams, grades 1 to 8: how many lessons a grade needs since the last one, the practice log it needs, and
//! the list of pupils ready to be entered.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Msg, School};

/// The highest grade.
pub const TOP_GRADE: u8 = 8;

/// Days of practice a pupil must have logged since their last grade.
pub const PRACTICE_DAYS: u32 = 20;

/// A lessons rule: how many lessons a grade needs since the last one.
pub type MinLessons = fn(u8) -> u32;

/// The lessons grade `grade` needs since the last grade passed.
#[ranvier::trace_fn]
pub fn min_lessons(grade: u8) -> u32 {
    match grade {
        1..=3 => 10,
        4..=5 => 15,
        _ => 20,
    }
}

/// An entry to send to the exam board.
#[derive(Debug, Clone, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Entry {
    /// The pupil.
    pub name: String,
    /// The instrument.
    pub instrument: String,
    /// The grade to sit.
    pub grade: u8,
    /// Lessons beyond what the grade needs: how safe the entry looks (shown, not compared).
    pub margin: u32,
}

/// Two entries are the same entry when they put the same pupil in for the same grade on the same instrument; the
/// margin moves with every lesson and is not worth a new list.
impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.instrument == other.instrument && self.grade == other.grade
    }
}

/// The pupils ready for their next grade, in the order enrolled, with the grade each would sit.
#[node]
pub fn exam_list(school: &Mvu<School, Msg>, needs: MinLessons) -> Memo<Vec<Entry>> {
    let school = school.clone();
    let exam_list = Memo::new(move |_| {
        school.with_model(|school| {
            let mut entries = Vec::new();
            for pupil in &school.pupils {
                if pupil.grade >= TOP_GRADE {
                    continue;
                }
                let grade = pupil.grade + 1;
                let needed = needs(grade);
                if pupil.lessons < needed || pupil.practice < PRACTICE_DAYS {
                    continue;
                }
                entries.push(Entry {
                    name: pupil.name.clone(),
                    instrument: pupil.instrument.clone(),
                    grade,
                    margin: pupil.lessons - needed,
                });
            }
            entries
        })
    });
    exam_list
}

pub mod slipped {
    /// [`min_lessons`](super::min_lessons), with the mistake.
    #[ranvier::trace_fn]
    pub fn min_lessons(grade: u8) -> u32 {
        match grade {
            // BUG(grade_band)
            1..=2 => 10,
            4..=5 => 15,
            _ => 20,
        }
    }
}
