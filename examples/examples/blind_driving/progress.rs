//! The syllabus, when a pupil is ready for the practical test, and each instructor's pass rate.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Msg, Pupil, School, TestKind};

/// The skills of the syllabus, in the order they are taught.
pub const SYLLABUS: [&str; 6] = [
    "controls",
    "junctions",
    "roundabouts",
    "manoeuvres",
    "dual_carriageways",
    "independent_driving",
];

/// The score every skill needs before the practical test.
pub const READY_SCORE: u8 = 4;

/// A new pupil's skills: every skill of the syllabus at 1.
#[ranvier::trace_fn]
pub fn new_skills() -> Vec<(String, u8)> {
    SYLLABUS
        .iter()
        .map(|skill| ((*skill).to_owned(), 1))
        .collect()
}

/// Whether `pupil` is ready for the practical test: every skill at [`READY_SCORE`] or more.
#[ranvier::trace_fn]
pub fn test_ready(pupil: &Pupil) -> bool {
    SYLLABUS
        .iter()
        .all(|skill| pupil.score(skill) >= READY_SCORE)
}

/// `passes` of `sits` as a whole percentage, rounded down (0 for no sittings).
#[ranvier::trace_fn]
pub fn pass_rate(passes: u32, sits: u32) -> u32 {
    if sits == 0 {
        return 0;
    }
    passes * 100 / sits
}

/// An instructor's practical-test record.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct PassRate {
    /// The instructor.
    pub instructor: String,
    /// Practical tests their pupils sat.
    pub sat: u32,
    /// Of which passed.
    pub passed: u32,
    /// The pass rate, in percent.
    pub rate: u32,
    /// Their pupils' first-time passes.
    pub first_time: u32,
}

/// Each instructor's practical pass rate (theory tests do not count: instructors do not teach them).
#[node]
pub fn pass_rates(school: &Mvu<School, Msg>) -> Memo<Vec<PassRate>> {
    let pass_rates = school.select(|school| {
        let mut rates = Vec::new();
        for instructor in &school.instructors {
            let (mut sat, mut passed, mut first_time) = (0, 0, 0);
            let mut seen: Vec<&str> = Vec::new();
            for sitting in &school.sittings {
                if sitting.instructor != instructor.name {
                    continue;
                }
                if sitting.kind == TestKind::Theory {
                    continue;
                }
                sat += 1;
                let first = !seen.contains(&sitting.pupil.as_str());
                seen.push(&sitting.pupil);
                if sitting.passed {
                    passed += 1;
                    first_time += u32::from(first);
                }
            }
            let rate = pass_rate(passed, sat);
            rates.push(PassRate {
                instructor: instructor.name.clone(),
                sat,
                passed,
                rate,
                first_time,
            });
        }
        rates
    });
    pass_rates
}

/// The copies with a mistake each, which the app is built with when its slip is chosen.
pub mod slipped {
    use super::*;

    /// Each instructor's practical pass rate (theory tests do not count: instructors do not teach them).
    #[node]
    pub fn pass_rates(school: &Mvu<School, Msg>) -> Memo<Vec<PassRate>> {
        let pass_rates = school.select(|school| {
            let mut rates = Vec::new();
            for instructor in &school.instructors {
                let (mut sat, mut passed, mut first_time) = (0, 0, 0);
                let mut seen: Vec<&str> = Vec::new();
                for sitting in &school.sittings {
                    if sitting.instructor != instructor.name {
                        continue;
                    }
                    if sitting.kind == TestKind::Theory {
                        // BUG(theory_skip)
                        break;
                    }
                    sat += 1;
                    let first = !seen.contains(&sitting.pupil.as_str());
                    seen.push(&sitting.pupil);
                    if sitting.passed {
                        passed += 1;
                        first_time += u32::from(first);
                    }
                }
                let rate = pass_rate(passed, sat);
                rates.push(PassRate {
                    instructor: instructor.name.clone(),
                    sat,
                    passed,
                    rate,
                    first_time,
                });
            }
            rates
        });
        pass_rates
    }
}
