//! The teachers' day: how many minutes each teaches, with the changeover between two lessons, against the most they
//! may teach in a day.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Msg, School};

/// Minutes between two lessons, for the next pupil to come in and set up.
pub const CHANGEOVER: u32 = 5;

/// One teacher's day.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Load {
    /// The teacher.
    pub teacher: String,
    /// Their room.
    pub room: String,
    /// Lessons a week.
    pub lessons: u32,
    /// Minutes taken, lessons and changeovers.
    pub busy: u32,
    /// Minutes left before the day's maximum (0 when over).
    pub free: u32,
    /// Whether the day runs past the maximum.
    pub over: bool,
}

/// Each teacher's day, in the order of the staff list; pupils of a teacher not on it are left out.
#[node]
pub fn timetable(school: &Mvu<School, Msg>) -> Memo<Vec<Load>> {
    let school = school.clone();
    let timetable = Memo::new(move |_| {
        school.with_model(|school| {
            let mut loads = Vec::with_capacity(school.teachers.len());
            for teacher in &school.teachers {
                let (mut lessons, mut minutes) = (0_u32, 0_u32);
                for pupil in school.pupils.iter().filter(|p| p.teacher == teacher.name) {
                    lessons += 1;
                    minutes += pupil.minutes;
                }
                let gaps = lessons.saturating_sub(1);
                let busy = minutes + gaps * CHANGEOVER;
                let over = busy > teacher.max_minutes;
                loads.push(Load {
                    teacher: teacher.name.clone(),
                    room: teacher.room.clone(),
                    lessons,
                    busy,
                    free: teacher.max_minutes.saturating_sub(busy),
                    over,
                });
            }
            loads
        })
    });
    timetable
}

/// The teachers whose day runs over.
#[node]
pub fn overbooked(timetable: &Memo<Vec<Load>>) -> Memo<Vec<String>> {
    let timetable = timetable.clone();
    let overbooked = Memo::new(move |_| {
        timetable.with(|loads| {
            loads
                .iter()
                .filter(|load| load.over)
                .map(|load| load.teacher.clone())
                .collect()
        })
    });
    overbooked
}

pub mod slipped {
    use super::*;

    /// [`timetable`](super::timetable), with the mistake.
    #[node]
    pub fn timetable(school: &Mvu<School, Msg>) -> Memo<Vec<Load>> {
        let school = school.clone();
        let timetable = Memo::new(move |_| {
            school.with_model(|school| {
                let mut loads = Vec::with_capacity(school.teachers.len());
                for teacher in &school.teachers {
                    let (mut lessons, mut minutes) = (0_u32, 0_u32);
                    for pupil in school.pupils.iter().filter(|p| p.teacher == teacher.name) {
                        lessons += 1;
                        minutes += pupil.minutes;
                    }
                    // BUG(changeover_count)
                    let gaps = lessons;
                    let busy = minutes + gaps * CHANGEOVER;
                    let over = busy > teacher.max_minutes;
                    loads.push(Load {
                        teacher: teacher.name.clone(),
                        room: teacher.room.clone(),
                        lessons,
                        busy,
                        free: teacher.max_minutes.saturating_sub(busy),
                        over,
                    });
                }
                loads
            })
        });
        timetable
    }
}
