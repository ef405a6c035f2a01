//! The diary's rules: weeks and weekdays, notice, who may teach when, the instructors' week and the cars' services.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Car, Instructor, Msg, School, Status};

/// Hours of notice below which a cancellation is charged.
pub const MIN_NOTICE_HOURS: u32 = 48;

/// Miles between two services.
pub const SERVICE_MILES: u32 = 6_000;

/// The week of `day` (day 1 is the Monday of week 0).
#[ranvier::trace_fn]
pub fn week_of(day: u32) -> u32 {
    day.saturating_sub(1) / 7
}

/// The weekday of `day`: 0 for Monday to 6 for Sunday.
#[ranvier::trace_fn]
pub fn weekday(day: u32) -> u32 {
    day.saturating_sub(1) % 7
}

/// The hours of notice a lesson on `day` gets when something happens on `today` (whole days, so 24 a day).
#[ranvier::trace_fn]
pub fn notice_hours(today: u32, day: u32) -> u32 {
    day.saturating_sub(today) * 24
}

/// Whether `instructor`, who already teaches `booked` hours that week, may take `hours` more on `day`.
///
/// # Errors
///
/// Why not: their day off, or their weekly limit.
#[ranvier::trace_fn]
pub fn can_teach(instructor: &Instructor, day: u32, booked: u32, hours: u32) -> Result<(), String> {
    if weekday(day) == instructor.day_off {
        return Err(format!(
            "{} does not teach on day {day}: it is their day off",
            instructor.name
        ));
    }
    let after = booked + hours;
    if after > instructor.weekly_limit {
        return Err(format!(
            "{} would teach {after} hours that week, over their limit of {}",
            instructor.name, instructor.weekly_limit
        ));
    }
    Ok(())
}

/// Miles a car can still drive before its next service (0 when it is due).
#[ranvier::trace_fn]
pub fn miles_to_service(car: &Car) -> u32 {
    let since = car.miles.saturating_sub(car.serviced_at);
    SERVICE_MILES.saturating_sub(since)
}

/// One instructor's current week.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Load {
    /// The instructor.
    pub instructor: String,
    /// Hours in the diary this week (booked or driven).
    pub hours: u32,
    /// Hours they may still take this week.
    pub free: u32,
    /// Lessons this week.
    pub lessons: u32,
}

/// Each instructor's hours in the week of today.
#[node]
pub fn instructor_week(school: &Mvu<School, Msg>) -> Memo<Vec<Load>> {
    let week_load = school.select(|school| {
        let week_start = week_of(school.day) * 7 + 1;
        let mut loads = Vec::with_capacity(school.instructors.len());
        for instructor in &school.instructors {
            let mut hours = 0;
            let mut lessons = 0;
            for lesson in &school.lessons {
                if lesson.instructor != instructor.name {
                    continue;
                }
                if lesson.day < week_start || lesson.day >= week_start + 7 {
                    continue;
                }
                match lesson.status {
                    Status::Cancelled => continue,
                    Status::Booked | Status::Done => {
                        hours += lesson.hours;
                        lessons += 1;
                    }
                }
            }
            let free = instructor.weekly_limit.saturating_sub(hours);
            loads.push(Load {
                instructor: instructor.name.clone(),
                hours,
                free,
                lessons,
            });
        }
        loads
    });
    week_load
}

/// A car's state for the fleet list.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct CarState {
    /// Its registration.
    pub reg: String,
    /// Its odometer.
    pub miles: u32,
    /// Miles before its next service.
    pub to_service: u32,
    /// Whether it must be serviced before its next lesson.
    pub due: bool,
}

/// Every car with the miles to its next service, by `to_service` (a rule passed in).
#[node]
pub fn fleet(school: &Mvu<School, Msg>, to_service: fn(&Car) -> u32) -> Memo<Vec<CarState>> {
    let fleet = school.select(move |school| {
        school
            .cars
            .iter()
            .map(|car| {
                let left = to_service(car);
                CarState {
                    reg: car.reg.clone(),
                    miles: car.miles,
                    to_service: left,
                    due: left == 0,
                }
            })
            .collect::<Vec<_>>()
    });
    fleet
}

/// The copies with a mistake each, which the app is built with when its slip is chosen.
pub mod slipped {
    use super::*;

    /// Miles a car can still drive before its next service (0 when it is due).
    #[ranvier::trace_fn]
    pub fn miles_to_service(car: &Car) -> u32 {
        // BUG(service_miles)
        let since = car.driven;
        SERVICE_MILES.saturating_sub(since)
    }

    /// Each instructor's hours in the week of today.
    #[node]
    pub fn instructor_week(school: &Mvu<School, Msg>) -> Memo<Vec<Load>> {
        let week_load = school.select(|school| {
            let week_start = week_of(school.day) * 7 + 1;
            let mut loads = Vec::with_capacity(school.instructors.len());
            for instructor in &school.instructors {
                let mut hours = 0;
                let mut lessons = 0;
                for lesson in &school.lessons {
                    if lesson.instructor != instructor.name {
                        continue;
                    }
                    // BUG(week_bounds)
                    if lesson.day < week_start || lesson.day > week_start + 7 {
                        continue;
                    }
                    match lesson.status {
                        Status::Cancelled => continue,
                        Status::Booked | Status::Done => {
                            hours += lesson.hours;
                            lessons += 1;
                        }
                    }
                }
                let free = instructor.weekly_limit.saturating_sub(hours);
                loads.push(Load {
                    instructor: instructor.name.clone(),
                    hours,
                    free,
                    lessons,
                });
            }
            loads
        });
        week_load
    }
}
