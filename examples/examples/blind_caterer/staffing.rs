//! The staff: how many of each role an event needs (a rule of guests per head of staff, by menu), the crew the
//! confirmed events need between them, and what the rostered shifts cost (a minimum call, overtime at time and a
//! half, a weekend premium).

use super::model::{Book, Msg, Role, Status, Tier};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

/// The hourly rates, in cents; a role not listed is paid [`BASE_RATE`].
pub const RATES: [(Role, u64); 3] = [
    (Role::Chef, 2_200),
    (Role::Waiter, 1_400),
    (Role::Bartender, 1_500),
];
/// The hourly rate of a role without a rate of its own, in cents.
pub const BASE_RATE: u64 = 1_250;
/// A shift is paid for at least this many hours.
pub const MIN_CALL: u32 = 4;
/// Hours past this many are overtime.
pub const STANDARD_SHIFT: u32 = 8;

/// How many of each role.
#[derive(Debug, Clone, Copy, Default, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Crew {
    /// In the kitchen.
    pub chefs: u32,
    /// Front of house.
    pub waiters: u32,
    /// Behind the bar.
    pub bartenders: u32,
    /// Carrying and clearing.
    pub porters: u32,
}

/// Two crews are the same when they need as many of every role.
impl PartialEq for Crew {
    fn eq(&self, other: &Crew) -> bool {
        self.chefs == other.chefs
            && self.waiters == other.waiters
            && self.bartenders == other.bartenders
            && self.porters == other.porters
    }
}

impl Crew {
    /// Both crews together.
    pub fn plus(self, other: Crew) -> Crew {
        Crew {
            chefs: self.chefs + other.chefs,
            waiters: self.waiters + other.waiters,
            bartenders: self.bartenders + other.bartenders,
            porters: self.porters + other.porters,
        }
    }
}

/// The crew an event of `guests` at `tier` needs: plated menus need more waiters.
#[ranvier::trace_fn]
pub fn crew_for(guests: u32, tier: Tier) -> Crew {
    let per_waiter = match tier {
        Tier::Buffet => 25,
        Tier::Classic => 12,
        Tier::Banquet => 8,
    };
    Crew {
        chefs: guests.div_ceil(40),
        waiters: guests.div_ceil(per_waiter),
        bartenders: guests.div_ceil(60),
        porters: guests.div_ceil(100),
    }
}

/// The crew every confirmed event needs, together.
#[node]
pub fn crew_needed(book: &Mvu<Book, Msg>) -> Memo<Crew> {
    let crew_needed = book.select(|book| {
        book.events
            .iter()
            .filter(|event| event.status == Status::Confirmed)
            .fold(Crew::default(), |crew, event| {
                crew.plus(crew_for(event.guests, event.tier))
            })
    });
    crew_needed
}

/// What the shifts rostered to the events not cancelled cost, in cents.
#[node]
pub fn staff_cost(book: &Mvu<Book, Msg>) -> Memo<u64> {
    let staff_cost = book.select(|book| {
        let mut total = 0;
        for event in &book.events {
            if event.status == Status::Cancelled {
                continue;
            }
            // days 5 and 6 of each week are the weekend
            let weekend = matches!(event.day % 7, 5 | 6);
            for shift in &event.shifts {
                let rate = RATES
                    .iter()
                    .find(|(role, _)| *role == shift.role)
                    .map(|(_, rate)| *rate)
                    .unwrap_or(BASE_RATE);
                let hours = shift.hours.max(MIN_CALL);
                let overtime = hours.saturating_sub(STANDARD_SHIFT);
                let hours = hours - overtime;
                let pay = u64::from(hours) * rate + u64::from(overtime) * rate * 3 / 2;
                let pay = if weekend { pay + pay / 4 } else { pay };
                total += pay;
            }
        }
        total
    });
    staff_cost
}

pub mod slipped {
    use super::{BASE_RATE, Book, MIN_CALL, Msg, RATES, STANDARD_SHIFT, Status};
    use ranvier::{Memo, Mvu, node};

    #[node]
    pub fn staff_cost(book: &Mvu<Book, Msg>) -> Memo<u64> {
        let staff_cost = book.select(|book| {
            let mut total = 0;
            for event in &book.events {
                if event.status == Status::Cancelled {
                    continue;
                }
                // days 5 and 6 of each week are the weekend
                let weekend = matches!(event.day % 7, 5 | 6);
                for shift in &event.shifts {
                    let rate = RATES
                        .iter()
                        .find(|(role, _)| *role == shift.role)
                        .map(|(_, rate)| *rate)
                        .unwrap_or(BASE_RATE);
                    // BUG(minimum_call)
                    let hours = shift.hours.min(MIN_CALL);
                    let overtime = hours.saturating_sub(STANDARD_SHIFT);
                    let hours = hours - overtime;
                    let pay = u64::from(hours) * rate + u64::from(overtime) * rate * 3 / 2;
                    let pay = if weekend { pay + pay / 4 } else { pay };
                    total += pay;
                }
            }
            total
        });
        staff_cost
    }
}
