//! The dentists' diaries: 15-minute slots, an hour's lunch, and today's sheet for each chair.

use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::model::{DAY_SLOTS, Msg, Practice, Visit};

/// Slots in the lunch break.
pub const LUNCH_SLOTS: u32 = 4;

/// A lunch rule: whether `slot` falls in the break starting at `lunch_start`.
pub type Lunch = fn(u32, u32) -> bool;

/// The clock time of a slot: slot 0 is 08:00.
pub fn slot_time(slot: u32) -> String {
    format!("{:02}:{:02}", 8 + slot / 4, slot % 4 * 15)
}

/// Whether `slot` falls in the lunch break that starts at `lunch_start`.
#[ranvier::trace_fn]
pub fn is_lunch(slot: u32, lunch_start: u32) -> bool {
    slot >= lunch_start && slot < lunch_start + LUNCH_SLOTS
}

/// Today's sheet for one dentist.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct DaySheet {
    /// Whose chair.
    pub dentist: String,
    /// Slots booked (missed appointments free theirs).
    pub booked: u32,
    /// Slots left under the dentist's daily maximum.
    pub free: u32,
    /// The first free slot outside lunch, as a time.
    pub first_free: Option<String>,
    /// Appointments that run into lunch.
    pub over_lunch: Vec<u32>,
    /// No slot left today.
    pub full: bool,
}

/// Today's sheet for each dentist.
#[node]
pub fn day_sheets(practice: &Mvu<Practice, Msg>, lunch: Lunch) -> Memo<Vec<DaySheet>> {
    let day_sheets = practice.select(move |practice| {
        let mut sheets = Vec::new();
        for dentist in &practice.dentists {
            let mut taken = vec![false; DAY_SLOTS as usize];
            let mut over_lunch = Vec::new();
            let mut booked = 0;
            let today = practice
                .appointments
                .iter()
                .filter(|a| a.dentist == dentist.name && a.day == practice.day);
            for visit in today {
                if visit.state == Visit::Missed {
                    continue;
                }
                let len = visit.band.slots();
                booked += len;
                for slot in visit.slot..(visit.slot + len).min(DAY_SLOTS) {
                    taken[slot as usize] = true;
                    if lunch(slot, practice.lunch_start) && !over_lunch.contains(&visit.id) {
                        over_lunch.push(visit.id);
                    }
                }
            }
            let first_free = (0..DAY_SLOTS)
                .find(|&slot| !taken[slot as usize] && !lunch(slot, practice.lunch_start))
                .map(slot_time);
            let free = dentist.max_slots.saturating_sub(booked);
            sheets.push(DaySheet {
                dentist: dentist.name.clone(),
                booked,
                free,
                first_free,
                over_lunch,
                full: free == 0,
            });
        }
        sheets
    });
    day_sheets
}

/// The copies with a mistake.
pub mod slipped {
    use super::*;

    /// [`super::is_lunch`], with a mistake.
    #[ranvier::trace_fn]
    pub fn is_lunch(slot: u32, lunch_start: u32) -> bool {
        // BUG(lunch_end)
        slot >= lunch_start && slot < LUNCH_SLOTS
    }

    /// [`super::day_sheets`], with a mistake.
    #[node]
    pub fn day_sheets(practice: &Mvu<Practice, Msg>, lunch: Lunch) -> Memo<Vec<DaySheet>> {
        let day_sheets = practice.select(move |practice| {
            let mut sheets = Vec::new();
            for dentist in &practice.dentists {
                let mut taken = vec![false; DAY_SLOTS as usize];
                let mut over_lunch = Vec::new();
                let mut booked = 0;
                let today = practice
                    .appointments
                    .iter()
                    .filter(|a| a.dentist == dentist.name && a.day == practice.day);
                for visit in today {
                    if visit.state == Visit::Missed {
                        // BUG(missed_break)
                        break;
                    }
                    let len = visit.band.slots();
                    booked += len;
                    for slot in visit.slot..(visit.slot + len).min(DAY_SLOTS) {
                        taken[slot as usize] = true;
                        if lunch(slot, practice.lunch_start) && !over_lunch.contains(&visit.id) {
                            over_lunch.push(visit.id);
                        }
                    }
                }
                let first_free = (0..DAY_SLOTS)
                    .find(|&slot| !taken[slot as usize] && !lunch(slot, practice.lunch_start))
                    .map(slot_time);
                let free = dentist.max_slots.saturating_sub(booked);
                sheets.push(DaySheet {
                    dentist: dentist.name.clone(),
                    booked,
                    free,
                    first_free,
                    over_lunch,
                    full: free == 0,
                });
            }
            sheets
        });
        day_sheets
    }
}
