//! The desk's booking rules: when a class starts and ends, when a member may check in, when giving up a place is
//! late, and who is next on a waiting list.

use super::model::{Booking, Class, MINUTES_PER_DAY, Status, clock};

/// How long before a class starts check-in opens, in minutes.
pub const CHECK_IN_OPENS: u32 = 30;

/// When `class` starts, on the week's clock.
#[ranvier::trace_fn]
pub fn starts_at(class: &Class) -> u32 {
    class.day * MINUTES_PER_DAY + class.start
}

/// When `class` ends, on the week's clock.
#[ranvier::trace_fn]
pub fn ends_at(class: &Class) -> u32 {
    starts_at(class) + class.length
}

/// Why nobody can check in to `class` at `now`, if they cannot.
#[ranvier::trace_fn]
pub fn check_in_refusal(class: &Class, now: u32) -> Option<String> {
    let opens = starts_at(class).saturating_sub(CHECK_IN_OPENS);
    if class.cancelled {
        Some(format!("{} is called off", class.name))
    } else if now < opens {
        Some(format!(
            "check-in for {} opens at {}",
            class.name,
            clock(opens)
        ))
    } else if now >= ends_at(class) {
        Some(format!("{} is over", class.name))
    } else {
        None
    }
}

/// Whether giving up a place in `class` at `now` is late: less than `window` minutes before it starts.
#[ranvier::trace_fn]
pub fn is_late(class: &Class, now: u32, window: u32) -> bool {
    starts_at(class) < now + window
}

/// The booking first on the waiting list of class `class` (the one made first), if any.
#[ranvier::trace_fn]
pub fn next_in_line(bookings: &[Booking], class: u32) -> Option<u32> {
    bookings
        .iter()
        .filter(|b| b.class == class && b.status == Status::Waitlisted)
        .min_by_key(|b| b.id)
        .map(|b| b.id)
}

/// The rules with a mistake.
pub mod slipped {
    use super::super::model::{Booking, Class, Status, clock};
    use super::{CHECK_IN_OPENS, ends_at, starts_at};

    /// Why nobody can check in to `class` at `now`, if they cannot.
    #[ranvier::trace_fn]
    pub fn check_in_refusal(class: &Class, now: u32) -> Option<String> {
        // BUG(check_in_window)
        let opens = starts_at(class) + CHECK_IN_OPENS;
        if class.cancelled {
            Some(format!("{} is called off", class.name))
        } else if now < opens {
            Some(format!(
                "check-in for {} opens at {}",
                class.name,
                clock(opens)
            ))
        } else if now >= ends_at(class) {
            Some(format!("{} is over", class.name))
        } else {
            None
        }
    }

    /// The booking first on the waiting list of class `class`, if any.
    #[ranvier::trace_fn]
    pub fn next_in_line(bookings: &[Booking], class: u32) -> Option<u32> {
        bookings
            .iter()
            .filter(|b| b.class == class && b.status == Status::Waitlisted)
            // BUG(next_in_line)
            .max_by_key(|b| b.id)
            .map(|b| b.id)
    }
}
