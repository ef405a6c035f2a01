//! The pupils as a keyed collection: each row's progress through the syllabus, and the lists the desk works from.

use std::cmp::Reverse;

use ranvier::collection::{Collection, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, node};

use super::model::Pupil;
use super::progress::{self, READY_SCORE, SYLLABUS};

/// The pupils' collection: one row per pupil, keyed by name, with their progress.
pub type Pupils = Collection<String, Pupil, (&'static str, Memo<Progress>)>;

/// Where a pupil stands in the syllabus.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Progress {
    /// Skills at the ready score or above.
    pub skills_ready: usize,
    /// The skill to work on next: the lowest scored, the earliest in the syllabus among equals.
    pub next_skill: Option<String>,
    /// The mean score, to one decimal place.
    pub average: f64,
    /// Whether they may sit the practical test.
    pub ready: bool,
}

impl PartialEq for Progress {
    /// Averages compare to their one decimal place, as they are shown.
    fn eq(&self, other: &Self) -> bool {
        self.skills_ready == other.skills_ready
            && self.next_skill == other.next_skill
            && (self.average * 10.0).round() == (other.average * 10.0).round()
            && self.ready == other.ready
    }
}

/// A pupil's row: their progress, from their scores.
#[node]
pub fn progress_row(row: &Row<String, Pupil>) -> Memo<Progress> {
    let row = row.clone();
    let progress = Memo::new(move |_| {
        row.with(|pupil| {
            let mut skills_ready = 0;
            let mut lowest: Option<(&str, u8)> = None;
            let mut total = 0_u32;
            for skill in SYLLABUS {
                let score = pupil.score(skill);
                total += u32::from(score);
                if score >= READY_SCORE {
                    skills_ready += 1;
                    continue;
                }
                match lowest {
                    Some((_, low)) if low <= score => {}
                    _ => lowest = Some((skill, score)),
                }
            }
            let average = f64::from(total) / SYLLABUS.len() as f64;
            let average = (average * 10.0).round() / 10.0;
            Progress {
                skills_ready,
                next_skill: lowest.map(|(skill, _)| skill.to_owned()),
                average,
                ready: progress::test_ready(pupil),
            }
        })
    });
    progress
}

/// Whether a pupil should be put forward for a practical test: theory passed, ready, and not yet passed.
#[ranvier::trace_fn]
pub fn awaiting_test(pupil: &Pupil) -> bool {
    pupil.theory_passed && !pupil.passed && progress::test_ready(pupil)
}

/// Whether a pupil's prepaid hours are running out (fewer than one double lesson left of a block).
#[ranvier::trace_fn]
pub fn topping_up(pupil: &Pupil) -> bool {
    pupil.blocks > 0 && pupil.prepaid_hours < 2
}

/// The collection of `source`'s pupils, each row with its progress by `row`.
#[node]
pub fn pupil_rows(
    source: Memo<Vec<Pupil>>,
    row: fn(&Row<String, Pupil>) -> Memo<Progress>,
) -> Pupils {
    let pupils = Collection::keyed(
        source,
        |pupil: &Pupil| pupil.name.clone(),
        move |r| ("progress", row(r)),
    );
    pupils
}

/// The names of the pupils `keep` chooses, in enrolment order.
#[node]
pub fn names_where(pupils: &Pupils, keep: fn(&Pupil) -> bool) -> Memo<Vec<String>> {
    let chosen = pupils.filter(keep);
    let keys = chosen.keys();
    let names = Memo::new(move |_| keys.get().to_vec());
    names
}

/// The pupils by hours driven, most first (ties by name).
#[node]
pub fn by_hours(pupils: &Pupils) -> Memo<Vec<String>> {
    let order = pupils.sort_by(|pupil| Reverse(pupil.hours_taken));
    let by_hours = Memo::new(move |_| order.get().to_vec());
    by_hours
}

/// How many pupils have a block that is running out.
#[node]
pub fn topping_up_count(pupils: &Pupils) -> Memo<usize> {
    let count = pupils.count_by(topping_up);
    count
}

/// The copies with a mistake each, which the app is built with when its slip is chosen.
pub mod slipped {
    use super::*;

    /// A pupil's row: their progress, from their scores.
    #[node]
    pub fn progress_row(row: &Row<String, Pupil>) -> Memo<Progress> {
        let row = row.clone();
        let progress = Memo::new(move |_| {
            row.with(|pupil| {
                let mut skills_ready = 0;
                let mut lowest: Option<(&str, u8)> = None;
                let mut total = 0_u32;
                for skill in SYLLABUS {
                    let score = pupil.score(skill);
                    total += u32::from(score);
                    if score >= READY_SCORE {
                        skills_ready += 1;
                        continue;
                    }
                    match lowest {
                        // BUG(next_skill)
                        Some((_, low)) if low < score => {}
                        _ => lowest = Some((skill, score)),
                    }
                }
                let average = f64::from(total) / SYLLABUS.len() as f64;
                let average = (average * 10.0).round() / 10.0;
                Progress {
                    skills_ready,
                    next_skill: lowest.map(|(skill, _)| skill.to_owned()),
                    average,
                    ready: progress::test_ready(pupil),
                }
            })
        });
        progress
    }

    /// Whether a pupil should be put forward for a practical test: theory passed, ready, and not yet passed.
    #[ranvier::trace_fn]
    pub fn awaiting_test(pupil: &Pupil) -> bool {
        // BUG(awaiting_test)
        pupil.theory_passed && pupil.passed && progress::test_ready(pupil)
    }
}
