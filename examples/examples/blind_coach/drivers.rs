//! Drivers' hours: a legal limit at the wheel a day, and a rest day after several days in a row.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{Coach, Msg, Shift};

/// Hours at the wheel a day, unless a driver's contract says less.
pub const MAX_DRIVING_HOURS: u32 = 9;
/// Hours on duty a day (driving, breaks and waiting).
pub const MAX_DUTY_HOURS: u32 = 13;
/// Days in a row after which a driver must rest.
pub const DAYS_BEFORE_REST: u32 = 6;

/// Where a driver stands today.
#[derive(Debug, Clone, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct DriverStatus {
    pub name: String,
    pub hours: u32,
    pub left: u32,
    pub run: u32,
    pub status: &'static str,
}

/// Two statuses are the same when they say the same thing about the same driver (the run of days is only how the
/// status was reached).
impl PartialEq for DriverStatus {
    fn eq(&self, other: &Self) -> bool {
        let same_driver = self.name == other.name;
        let same_hours = self.hours == other.hours && self.left == other.left;
        same_driver && same_hours && self.status == other.status
    }
}

/// Hours driven on `day`.
#[ranvier::trace_fn]
pub fn hours_on(shifts: &[Shift], day: u32) -> u32 {
    let mut hours = 0;
    for shift in shifts {
        if shift.day == day {
            hours += shift.hours;
        }
    }
    hours
}

/// Days in a row worked, ending today (0 when today is a day off).
#[ranvier::trace_fn]
pub fn days_in_a_row(shifts: &[Shift], today: u32) -> u32 {
    let mut run = 0;
    let mut day = today;
    while day > 0 && shifts.iter().any(|s| s.day == day) {
        run += 1;
        day -= 1;
    }
    run
}

/// Every driver's hours today, what is left of their limit and whether they must rest.
#[node]
pub fn roster(
    coach: &Mvu<Coach, Msg>,
    hours_on: fn(&[Shift], u32) -> u32,
) -> Memo<Vec<DriverStatus>> {
    let roster = coach.select(move |coach| {
        let today = coach.day;
        let mut statuses = Vec::new();
        for driver in &coach.drivers {
            let limit = driver.limit.unwrap_or(MAX_DRIVING_HOURS);
            let hours = hours_on(&driver.shifts, today);
            let left = limit.saturating_sub(hours);
            let run = days_in_a_row(&driver.shifts, today);
            let status = match (hours > limit, run >= DAYS_BEFORE_REST) {
                (true, _) => "over hours",
                (false, true) => "rest day due",
                (false, false) if left == 0 => "done for today",
                (false, false) => "available",
            };
            statuses.push(DriverStatus {
                name: driver.name.clone(),
                hours,
                left,
                run,
                status,
            });
        }
        statuses
    });
    roster
}

pub mod slipped {
    use super::*;

    /// `hours_on`, as first written.
    #[ranvier::trace_fn]
    pub fn hours_on(shifts: &[Shift], day: u32) -> u32 {
        let mut hours = 0;
        for shift in shifts {
            // BUG(hours_today)
            if shift.day <= day {
                hours += shift.hours;
            }
        }
        hours
    }

    /// `roster`, as first written.
    #[node]
    pub fn roster(
        coach: &Mvu<Coach, Msg>,
        hours_on: fn(&[Shift], u32) -> u32,
    ) -> Memo<Vec<DriverStatus>> {
        let roster = coach.select(move |coach| {
            let today = coach.day;
            let mut statuses = Vec::new();
            for driver in &coach.drivers {
                // BUG(driving_limit)
                let limit = driver.limit.unwrap_or(MAX_DUTY_HOURS);
                let hours = hours_on(&driver.shifts, today);
                let left = limit.saturating_sub(hours);
                let run = days_in_a_row(&driver.shifts, today);
                let status = match (hours > limit, run >= DAYS_BEFORE_REST) {
                    (true, _) => "over hours",
                    (false, true) => "rest day due",
                    (false, false) if left == 0 => "done for today",
                    (false, false) => "available",
                };
                statuses.push(DriverStatus {
                    name: driver.name.clone(),
                    hours,
                    left,
                    run,
                    status,
                });
            }
            statuses
        });
        roster
    }
}
