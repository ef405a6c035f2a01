//! The gym as an app: what an agent may see (`#[expose]`), and the graph (`#[node]`): the front desk's `Mvu` with the
//! week's classes put on the timetable as initial commands, the desk's lists, the timetable and the services.

use std::collections::BTreeMap;

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::booking;
use super::model::{Gym, MINUTES_PER_DAY, Msg, Status, clock};
use super::services;
use super::timetable::{self, ClassRow};
use super::update;

/// Which mistake the gym runs with (`None`: the correct gym).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct gym.
    None,
    /// When giving up a place is late.
    FeesWindow,
    /// When a class is full.
    BookCapacity,
    /// The place given up.
    CancelNoPromote,
    /// When check-in opens.
    CheckInWindow,
    /// Who is first on a waiting list.
    NextInLine,
    /// The charges when a class closes.
    CloseWaitlisted,
    /// The coaches' hours.
    CoachHoursOverwrite,
    /// The classes coming up.
    UpcomingDay,
    /// How full a class is.
    FillPercent,
    /// The timetable's order.
    TimetableOrder,
    /// The weather for outdoor classes.
    OutdoorToday,
    /// The coaches' pay.
    PayrollNoRate,
}

/// What an agent may see and send.
#[expose]
pub struct GymDesk {
    /// The front desk: its messages.
    #[expose(messages)]
    pub gym: Mvu<Gym, Msg>,
    /// The gym's clock.
    #[expose]
    pub now: Memo<String>,
    /// The classes starting in the next 24 hours, with the places left.
    #[expose]
    #[node]
    pub upcoming: Memo<Vec<String>>,
    /// The members waiting for a place, per class, first in line first.
    #[expose]
    #[node]
    pub waitlist: Memo<Vec<String>>,
    /// Cents taken, all members (refunds taken off).
    #[expose]
    #[node]
    pub revenue: Memo<i64>,
    /// What the desk was told.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Each coach's classes this week (not called off) and the hours they teach.
    #[expose]
    #[node]
    pub coach_hours: Memo<Vec<String>>,
    /// The timetable, one row per class.
    #[expose]
    #[node]
    pub classes: Collection<u32, ClassRow, Memo<u32>>,
    /// Classes with every place taken.
    #[expose]
    #[node]
    pub full: Memo<usize>,
    /// The week's classes in order, each with how full it is.
    #[expose]
    #[node]
    pub timetable: Memo<Vec<String>>,
    /// The outdoor classes and whether the weather moves them indoors.
    #[expose]
    #[node]
    pub outdoor: AsyncMemo<Vec<String>>,
    /// What each coach is paid for the classes held so far.
    #[expose]
    #[node]
    pub payroll: AsyncMemo<Vec<String>>,
}

/// A class on the week's timetable: number, name, coach, day, start (minutes after midnight), length, places, studio.
pub type ClassSpec = (
    u32,
    &'static str,
    &'static str,
    u32,
    u32,
    u32,
    u32,
    &'static str,
);

/// The week's classes.
pub const CLASSES: [ClassSpec; 7] = [
    (1, "Spin", "Ana", 0, 7 * 60, 45, 2, "A"),
    (2, "Yoga", "Ben", 0, 9 * 60, 60, 3, "B"),
    (3, "Boxing", "Cy", 0, 18 * 60, 60, 2, "A"),
    (4, "Bootcamp", "Ana", 1, 7 * 60, 45, 4, "park"),
    (5, "Pilates", "Ben", 1, 18 * 60 + 30, 50, 3, "B"),
    (6, "Spin", "Ana", 2, 7 * 60, 45, 2, "A"),
    (7, "Bootcamp", "Ana", 4, 7 * 60, 45, 4, "park"),
];

/// Builds the gym as `slip` says: it puts the week's classes on the timetable (initial commands), then its memos.
#[node]
pub fn gym_desk(slip: Slip) -> GymDesk {
    let update = match slip {
        Slip::BookCapacity => update::slipped::update_book,
        Slip::CancelNoPromote => update::slipped::update_cancel,
        Slip::NextInLine => update::slipped::update_promote,
        Slip::CheckInWindow => update::slipped::update_check_in,
        Slip::CloseWaitlisted => update::slipped::update_close,
        _ => update::update,
    };
    let model = match slip {
        Slip::FeesWindow => Gym {
            fees: super::model::slipped::PriceList::default().0,
            ..Gym::default()
        },
        _ => Gym::default(),
    };
    let open: Vec<Msg> = CLASSES
        .iter()
        .map(
            |&(id, name, coach, day, start, length, capacity, studio)| Msg::AddClass {
                id,
                name: name.to_owned(),
                coach: coach.to_owned(),
                day,
                start,
                length,
                capacity,
                studio: studio.to_owned(),
            },
        )
        .collect();
    let gym = Mvu::with_commands((model, open), update);
    let now = gym.select(|gym| clock(gym.now));
    let upcoming = match slip {
        Slip::UpcomingDay => slipped::upcoming(&gym),
        _ => upcoming(&gym),
    };
    let waitlist = waitlist(&gym);
    let revenue = gym.select(|gym| gym.ledger.iter().map(|p| p.cents).sum::<i64>());
    let notices = gym.select(|gym| gym.notices.clone());
    let coach_hours = match slip {
        Slip::CoachHoursOverwrite => slipped::coach_hours(&gym),
        _ => coach_hours(&gym),
    };
    let table = timetable::timetable(&gym, slip);
    let remote = services::services(&gym, slip);
    GymDesk {
        gym,
        now,
        upcoming,
        waitlist,
        revenue,
        notices,
        coach_hours,
        classes: table.classes,
        full: table.full,
        timetable: table.timetable,
        outdoor: remote.outdoor,
        payroll: remote.payroll,
    }
}

/// How many places are left, in words.
fn places(left: u32) -> String {
    match left {
        0 => "full".to_owned(),
        1 => "1 place left".to_owned(),
        n => format!("{n} places left"),
    }
}

/// Minutes as `1h45`.
fn hours(minutes: u32) -> String {
    format!("{}h{:02}", minutes / 60, minutes % 60)
}

/// The classes (not called off) that start from now until 24 hours from now, in the order they start: the time, the
/// class, the coach and the places left.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn upcoming(gym: &Mvu<Gym, Msg>) -> Memo<Vec<String>> {
    let now = gym.select(|gym| gym.now);
    let classes = gym.select(|gym| gym.classes.clone());
    let bookings = gym.select(|gym| gym.bookings.clone());
    let upcoming = Memo::new(move |_| {
        let now = now.get();
        let classes = classes.get();
        let bookings = bookings.get();
        let until = now + MINUTES_PER_DAY;
        let mut soon: Vec<(u32, String)> = Vec::new();
        for class in classes.iter().filter(|class| !class.cancelled) {
            let at = booking::starts_at(class);
            if at < now || at >= until {
                continue;
            }
            let held = bookings
                .iter()
                .filter(|b| b.class == class.id && b.holds_place())
                .count() as u32;
            let left = class.capacity.saturating_sub(held);
            soon.push((
                at,
                format!(
                    "{} {} with {}: {}",
                    clock(at),
                    class.name,
                    class.coach,
                    places(left)
                ),
            ));
        }
        soon.sort();
        soon.into_iter().map(|(_, line)| line).collect::<Vec<_>>()
    });
    upcoming
}

/// The members waiting for a place, per class with anyone waiting (in the timetable's order): first in line first.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn waitlist(gym: &Mvu<Gym, Msg>) -> Memo<Vec<String>> {
    let classes = gym.select(|gym| gym.classes.clone());
    let bookings = gym.select(|gym| gym.bookings.clone());
    let waitlist = Memo::new(move |_| {
        let classes = classes.get();
        let bookings = bookings.get();
        let mut lines = Vec::new();
        for class in classes.iter() {
            let mut waiting: Vec<_> = bookings
                .iter()
                .filter(|b| b.class == class.id && b.status == Status::Waitlisted)
                .collect();
            if waiting.is_empty() {
                continue;
            }
            waiting.sort_by_key(|b| b.id);
            let names: Vec<&str> = waiting.iter().map(|b| b.member.as_str()).collect();
            lines.push(format!(
                "{} {}: {}",
                class.name,
                clock(booking::starts_at(class)),
                names.join(", ")
            ));
        }
        lines
    });
    waitlist
}

/// Each coach with classes this week (not called off), by name: how many, and the hours they teach.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn coach_hours(gym: &Mvu<Gym, Msg>) -> Memo<Vec<String>> {
    let classes = gym.select(|gym| gym.classes.clone());
    let coach_hours = Memo::new(move |_| {
        let classes = classes.get();
        let mut taught: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
        for class in classes.iter() {
            if class.cancelled {
                continue;
            }
            let (count, minutes) = taught.entry(class.coach.as_str()).or_insert((0, 0));
            *count += 1;
            *minutes += class.length;
        }
        taught
            .into_iter()
            .map(|(coach, (count, minutes))| {
                let classes = if count == 1 { "class" } else { "classes" };
                format!("{coach}: {count} {classes}, {}", hours(minutes))
            })
            .collect::<Vec<_>>()
    });
    coach_hours
}

/// The desk's lists with a mistake.
mod slipped {
    use std::collections::BTreeMap;

    use ranvier::{Memo, Mvu, node};

    use super::super::model::{Gym, MINUTES_PER_DAY, Msg, clock};
    use super::{hours, places};

    /// The classes that start in the next 24 hours.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn upcoming(gym: &Mvu<Gym, Msg>) -> Memo<Vec<String>> {
        let now = gym.select(|gym| gym.now);
        let classes = gym.select(|gym| gym.classes.clone());
        let bookings = gym.select(|gym| gym.bookings.clone());
        let upcoming = Memo::new(move |_| {
            let now = now.get();
            let classes = classes.get();
            let bookings = bookings.get();
            let until = now + MINUTES_PER_DAY;
            let mut soon: Vec<(u32, String)> = Vec::new();
            for class in classes.iter().filter(|class| !class.cancelled) {
                // BUG(upcoming_day)
                let at = class.start;
                if at < now || at >= until {
                    continue;
                }
                let held = bookings
                    .iter()
                    .filter(|b| b.class == class.id && b.holds_place())
                    .count() as u32;
                let left = class.capacity.saturating_sub(held);
                soon.push((
                    at,
                    format!(
                        "{} {} with {}: {}",
                        clock(at),
                        class.name,
                        class.coach,
                        places(left)
                    ),
                ));
            }
            soon.sort();
            soon.into_iter().map(|(_, line)| line).collect::<Vec<_>>()
        });
        upcoming
    }

    /// Each coach's classes and hours this week.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn coach_hours(gym: &Mvu<Gym, Msg>) -> Memo<Vec<String>> {
        let classes = gym.select(|gym| gym.classes.clone());
        let coach_hours = Memo::new(move |_| {
            let classes = classes.get();
            let mut taught: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
            for class in classes.iter() {
                if class.cancelled {
                    continue;
                }
                let (count, minutes) = taught.entry(class.coach.as_str()).or_insert((0, 0));
                *count += 1;
                // BUG(coach_hours_overwrite)
                *minutes = class.length;
            }
            taught
                .into_iter()
                .map(|(coach, (count, minutes))| {
                    let classes = if count == 1 { "class" } else { "classes" };
                    format!("{coach}: {count} {classes}, {}", hours(minutes))
                })
                .collect::<Vec<_>>()
        });
        coach_hours
    }
}
