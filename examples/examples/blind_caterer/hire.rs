//! The hire list: the crockery, glass, cutlery, linen and marquees the held and confirmed events need between them,
//! ordered from the hire company (whose quote is `services::hire_quote`).

use super::model::{Book, Msg, Status, Tier};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

/// Plates (and cutlery sets) per place setting, by menu; a menu not listed needs one.
pub const COURSES: [(Tier, u32); 2] = [(Tier::Classic, 3), (Tier::Banquet, 4)];
/// Glasses per place setting: one for wine, one for the toast.
pub const GLASSES: u32 = 2;
/// Guests at a table (one tablecloth each).
pub const TABLE_SEATS: u32 = 10;
/// Guests a marquee seats.
pub const MARQUEE_SEATS: u32 = 120;

/// What to hire.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct HireList {
    /// Plates.
    pub plates: u32,
    /// Cutlery sets.
    pub cutlery: u32,
    /// Glasses.
    pub glasses: u32,
    /// Tablecloths.
    pub tablecloths: u32,
    /// Marquees.
    pub marquees: u32,
}

/// The hire list of the events held or confirmed: place settings for every guest and one in ten spare, a course's
/// plate and cutlery per setting, two glasses, a cloth per table, and marquees for the events outdoors.
#[node]
pub fn hire_list(book: &Mvu<Book, Msg>) -> Memo<HireList> {
    let hire_list = book.select(|book| {
        let mut list = HireList::default();
        for event in &book.events {
            if !matches!(event.status, Status::Held | Status::Confirmed) {
                continue;
            }
            let courses = COURSES
                .iter()
                .find(|(tier, _)| *tier == event.tier)
                .map(|(_, courses)| *courses)
                .unwrap_or(1);
            let guests = event.guests;
            // one setting in ten spare, for breakages
            let settings = guests + guests.div_ceil(10);
            list.plates += settings * courses;
            list.cutlery += settings * courses;
            list.glasses += settings * GLASSES;
            list.tablecloths += guests.div_ceil(TABLE_SEATS);
            if event.outdoor {
                let marquees = guests.div_ceil(MARQUEE_SEATS);
                list.marquees += marquees;
            }
        }
        list
    });
    hire_list
}

pub mod slipped {
    use super::{Book, COURSES, GLASSES, HireList, MARQUEE_SEATS, Msg, Status, TABLE_SEATS};
    use ranvier::{Memo, Mvu, node};

    #[node]
    pub fn hire_list(book: &Mvu<Book, Msg>) -> Memo<HireList> {
        let hire_list = book.select(|book| {
            let mut list = HireList::default();
            for event in &book.events {
                if !matches!(event.status, Status::Held | Status::Confirmed) {
                    continue;
                }
                let courses = COURSES
                    .iter()
                    .find(|(tier, _)| *tier == event.tier)
                    .map(|(_, courses)| *courses)
                    .unwrap_or(1);
                let guests = event.guests;
                // one setting in ten spare, for breakages
                let settings = guests + guests.div_ceil(10);
                list.plates += settings * courses;
                list.cutlery += settings * courses;
                list.glasses += settings * GLASSES;
                list.tablecloths += guests.div_ceil(TABLE_SEATS);
                if event.outdoor {
                    // BUG(marquees_for_settings)
                    let marquees = settings.div_ceil(MARQUEE_SEATS);
                    list.marquees += marquees;
                }
            }
            list
        });
        hire_list
    }
}
