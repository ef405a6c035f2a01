//! Dates at the garage: the diary counts days from 1 January 2026; customers and the MOT register write
//! `YYYY-MM-DD`, and the board writes `Mon 7 Dec 2026`. Also when a car's MOT falls due.

use super::model::Day;

/// The year day 0 falls in.
pub const FIRST_YEAR: u32 = 2026;

/// The months, as the board writes them.
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Days in each month of a common year.
const MONTH_DAYS: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/// The weekdays, from day 0's (1 January 2026 was a Thursday).
const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];

/// Whether February of `year` has 29 days.
#[ranvier::trace_fn]
fn leap(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

/// Days in `month` (1 to 12) of `year`.
#[ranvier::trace_fn]
fn month_len(year: u32, month: u32) -> u32 {
    if month == 2 && leap(year) {
        29
    } else {
        MONTH_DAYS[month as usize - 1]
    }
}

/// The day of `YYYY-MM-DD`, or `None` for text that is no date from 2026 on.
#[ranvier::trace_fn]
pub fn parse(text: &str) -> Option<Day> {
    let mut fields = text.trim().splitn(3, '-').map(|f| f.parse::<u32>().ok());
    let (year, month, date) = (fields.next()??, fields.next()??, fields.next()??);
    if year < FIRST_YEAR || !(1..=12).contains(&month) || date == 0 || date > month_len(year, month)
    {
        return None;
    }
    let years: u32 = (FIRST_YEAR..year)
        .map(|y| if leap(y) { 366 } else { 365 })
        .sum();
    let months: u32 = (1..month).map(|m| month_len(year, m)).sum();
    Some(years + months + date - 1)
}

/// `(year, month, date)` of `day`.
#[ranvier::trace_fn]
pub fn ymd(day: Day) -> (u32, u32, u32) {
    let mut rest = day;
    let mut year = FIRST_YEAR;
    loop {
        let length = if leap(year) { 366 } else { 365 };
        if rest < length {
            break;
        }
        rest -= length;
        year += 1;
    }
    let mut month = 1;
    while rest >= month_len(year, month) {
        rest -= month_len(year, month);
        month += 1;
    }
    (year, month, rest + 1)
}

/// `day` as the board writes it: `Mon 7 Dec 2026`.
#[ranvier::trace_fn]
pub fn format(day: Day) -> String {
    let (year, month, date) = ymd(day);
    format!(
        "{} {date} {} {year}",
        WEEKDAYS[day as usize % 7],
        MONTHS[month as usize - 1]
    )
}

/// Days from `from` to `to`: negative when `to` is earlier.
#[ranvier::trace_fn]
pub fn days_between(from: Day, to: Day) -> i64 {
    i64::from(to) - i64::from(from)
}

/// Where a car stands with its MOT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MotState {
    /// The certificate ran out this many days ago.
    Overdue(u32),
    /// It runs out in this many days, within the window the desk watches.
    Due(u32),
    /// Not for a while.
    Later,
}

/// Where a car whose MOT runs out on `due` stands `today`, when the desk looks `window` days ahead.
#[ranvier::trace_fn]
pub fn mot_state(due: Day, today: Day, window: u32) -> MotState {
    let left = days_between(today, due);
    let days = u32::try_from(left.unsigned_abs()).unwrap_or(u32::MAX);
    if left < 0 {
        MotState::Overdue(days)
    } else if days <= window {
        MotState::Due(days)
    } else {
        MotState::Later
    }
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::{Day, MotState, days_between};

    /// Where a car whose MOT runs out on `due` stands `today`, when the desk looks `window` days ahead.
    #[ranvier::trace_fn]
    pub fn mot_state(due: Day, today: Day, window: u32) -> MotState {
        // BUG(mot_days_swapped)
        let left = days_between(due, today);
        let days = u32::try_from(left.unsigned_abs()).unwrap_or(u32::MAX);
        if left < 0 {
            MotState::Overdue(days)
        } else if days <= window {
            MotState::Due(days)
        } else {
            MotState::Later
        }
    }
}
