//! The pool's model: the day's lessons, the lane bookings, the tickets sold at the desk, the members, the lifeguards,
//! the water readings and the café's sales, with the messages the desk sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The pool opens at 06:00 (minutes since midnight).
pub const OPENS: u32 = 6 * 60;
/// The pool has six lanes, numbered from 1.
pub const LANES: u8 = 6;
/// A casual swim lasts an hour: a bather is counted in the water for this long after being admitted.
pub const SESSION_MINUTES: u32 = 60;

/// `HH:MM` of `minutes` since midnight.
pub fn clock(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// Minutes since midnight of `HH:MM`, if it is a time of day.
pub fn parse_clock(text: &str) -> Option<u32> {
    let (hours, minutes) = text.trim().split_once(':')?;
    let hours: u32 = hours.parse().ok()?;
    let minutes: u32 = minutes.parse().ok()?;
    (hours < 24 && minutes < 60).then_some(hours * 60 + minutes)
}

/// `£p.pp` of an amount in pence.
pub fn pounds(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// A swimming lesson's level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Level {
    Ducklings,
    Beginners,
    Improvers,
    Advanced,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Ducklings => "Ducklings",
            Level::Beginners => "Beginners",
            Level::Improvers => "Improvers",
            Level::Advanced => "Advanced",
        }
    }
}

/// A lesson on today's timetable, with the children enrolled and those waiting for a place.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Lesson {
    #[serde(skip)]
    pub id: u32,
    pub level: Level,
    /// Minutes since midnight.
    pub start: u32,
    pub minutes: u32,
    pub teacher: String,
    pub capacity: usize,
    pub enrolled: Vec<String>,
    pub waiting: Vec<String>,
}

impl Lesson {
    fn planned(
        id: u32,
        level: Level,
        start: &str,
        minutes: u32,
        teacher: &str,
        capacity: usize,
    ) -> Lesson {
        Lesson {
            id,
            level,
            start: parse_clock(start).expect("a time of day"),
            minutes,
            teacher: teacher.to_owned(),
            capacity,
            enrolled: Vec::new(),
            waiting: Vec::new(),
        }
    }

    pub fn is_full(&self) -> bool {
        self.enrolled.len() >= self.capacity
    }

    /// `16:00 Beginners (Dan)`.
    pub fn title(&self) -> String {
        format!(
            "{} {} ({})",
            clock(self.start),
            self.level.name(),
            self.teacher
        )
    }
}

/// A lane booked by a club, from `from` until `until` (minutes since midnight, by the half hour).
#[derive(Clone, Debug, PartialEq)]
pub struct LaneBooking {
    pub club: String,
    pub lane: u8,
    pub from: u32,
    pub until: u32,
}

impl LaneBooking {
    /// Whether the club has the lane at `minute`.
    pub fn covers(&self, minute: u32) -> bool {
        self.from <= minute && minute < self.until
    }

    /// Whether this booking takes `lane` for some of `from..until`.
    pub fn overlaps(&self, lane: u8, from: u32, until: u32) -> bool {
        self.lane == lane && self.from < until && from < self.until
    }

    pub fn half_hours(&self) -> u32 {
        (self.until - self.from) / 30
    }
}

/// What a ticket is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Adult,
    Child,
    Senior,
    Student,
    /// A member's swim, free with the membership.
    Member,
}

impl Kind {
    pub fn parse(text: &str) -> Option<Kind> {
        Some(match text {
            "adult" => Kind::Adult,
            "child" => Kind::Child,
            "senior" => Kind::Senior,
            "student" => Kind::Student,
            "member" => Kind::Member,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Adult => "adult",
            Kind::Child => "child",
            Kind::Senior => "senior",
            Kind::Student => "student",
            Kind::Member => "member",
        }
    }

    /// A concession, sold on a leisure card the council's registry vouches for.
    pub fn is_concession(self) -> bool {
        matches!(self, Kind::Senior | Kind::Student)
    }
}

/// Tickets sold together at the desk.
#[derive(Clone, Debug, PartialEq)]
pub struct Ticket {
    pub no: u32,
    pub who: String,
    pub kind: Kind,
    pub count: u32,
    pub card: Option<String>,
    /// Pence, for all `count`.
    pub paid: u32,
    pub at: u32,
}

/// A member, who swims free on their card.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub card: String,
    pub name: String,
    pub plan: String,
    pub fee: u32,
}

/// A lifeguard's qualification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qual {
    Pool,
    DeepWater,
    FirstAid,
}

/// A lifeguard on today's rota.
#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    pub name: String,
    pub quals: Vec<Qual>,
    /// On duty since (or back from a break since), minutes since midnight.
    pub on_since: Option<u32>,
    /// On a break until.
    pub break_until: Option<u32>,
}

impl Guard {
    fn rostered(name: &str, quals: &[Qual]) -> Guard {
        Guard {
            name: name.to_owned(),
            quals: quals.to_vec(),
            on_since: None,
            break_until: None,
        }
    }

    pub fn on_duty(&self) -> bool {
        self.on_since.is_some()
    }

    pub fn on_break(&self, now: u32) -> bool {
        self.break_until.is_some_and(|until| now < until)
    }

    pub fn has(&self, qual: Qual) -> bool {
        self.quals.contains(&qual)
    }
}

/// A water test at the poolside.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub at: u32,
    /// Free chlorine, mg/l.
    pub chlorine: f64,
    pub ph: f64,
    /// °C.
    pub temp: f64,
}

/// A sale at one of the café's tills.
#[derive(Clone, Debug, PartialEq)]
pub struct Sale {
    pub till: u8,
    pub item: String,
    pub pence: u32,
    pub card: bool,
}

/// Why and since when the pool is closed.
#[derive(Clone, Debug, PartialEq)]
pub struct Closure {
    pub since: u32,
    pub reason: String,
}

/// The whole pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    /// Minutes since midnight.
    pub now: u32,
    /// Day of the year.
    pub today: u32,
    pub lanes: Vec<LaneBooking>,
    pub lessons: Vec<Lesson>,
    pub tickets: Vec<Ticket>,
    pub members: Vec<Member>,
    pub guards: Vec<Guard>,
    pub readings: Vec<Reading>,
    pub sales: Vec<Sale>,
    pub closed: Option<Closure>,
    pub notices: Vec<String>,
}

/// The pool as the doors open: today's timetable and rota, nothing sold yet.
impl Default for Pool {
    fn default() -> Self {
        use Qual::{DeepWater, FirstAid};
        Pool {
            now: OPENS,
            today: 341,
            lanes: Vec::new(),
            lessons: vec![
                Lesson::planned(1, Level::Ducklings, "09:30", 30, "Cat", 6),
                Lesson::planned(2, Level::Beginners, "16:00", 45, "Dan", 4),
                Lesson::planned(3, Level::Improvers, "16:45", 45, "Dan", 6),
                Lesson::planned(4, Level::Advanced, "17:30", 45, "Cat", 8),
                Lesson::planned(5, Level::Beginners, "10:15", 30, "Cat", 4),
            ],
            tickets: Vec::new(),
            members: Vec::new(),
            guards: vec![
                Guard::rostered("Ana", &[Qual::Pool, DeepWater, FirstAid]),
                Guard::rostered("Ben", &[Qual::Pool, FirstAid]),
                Guard::rostered("Cy", &[Qual::Pool, DeepWater]),
                Guard::rostered("Dee", &[Qual::Pool]),
            ],
            readings: Vec::new(),
            sales: Vec::new(),
            closed: None,
            notices: Vec::new(),
        }
    }
}

impl Pool {
    pub fn lesson_mut(&mut self, id: u32) -> Option<&mut Lesson> {
        self.lessons.iter_mut().find(|lesson| lesson.id == id)
    }

    pub fn guard_mut(&mut self, name: &str) -> Option<&mut Guard> {
        self.guards.iter_mut().find(|guard| guard.name == name)
    }

    pub fn note(&mut self, notice: impl Into<String>) {
        let line = format!("{} {}", clock(self.now), notice.into());
        self.notices.push(line);
    }
}

/// How many bathers are in the water at `now`: those admitted within the last session.
pub fn bathers(tickets: &[Ticket], now: u32) -> u32 {
    tickets
        .iter()
        .filter(|ticket| ticket.at + SESSION_MINUTES > now)
        .map(|ticket| ticket.count)
        .sum()
}

/// What the desk sends.
#[derive(Debug, Clone, Messages)]
pub enum Msg {
    /// Sells `count` tickets of a kind (`adult`, `child`, `senior`, `student`, `member`); concessions need a leisure
    /// card, a member's swim the member's card.
    Admit {
        who: String,
        ticket: String,
        #[message(range(min = 1, max = 40))]
        count: u32,
        card: Option<String>,
    },
    /// Sells a membership (`adult` or `junior`) on `card`.
    Join {
        card: String,
        name: String,
        plan: String,
    },
    /// Books `lane` for a club from `from` (`HH:MM`) for a number of half hours.
    BookLane {
        club: String,
        #[message(range(min = 1, max = 6))]
        lane: u8,
        from: String,
        #[message(range(min = 1, max = 8))]
        half_hours: u32,
    },
    /// Enrols a child in a lesson, or puts them on its waiting list when it is full.
    Enrol { child: String, lesson: u32 },
    /// Takes a child out of a lesson or its waiting list.
    Withdraw { child: String, lesson: u32 },
    /// Gives the first child waiting the place that came free.
    Promote { lesson: u32 },
    /// A poolside water test: free chlorine (mg/l), pH and temperature (°C).
    Reading { chlorine: f64, ph: f64, temp: f64 },
    /// Closes the pool.
    Close { reason: String },
    /// Opens the pool again.
    Reopen,
    /// A lifeguard comes on duty.
    OnDuty { guard: String },
    /// A lifeguard goes off duty.
    OffDuty { guard: String },
    /// A lifeguard goes on a break.
    Break { guard: String },
    /// The clock moves on.
    Advance {
        #[message(range(min = 1, max = 720))]
        minutes: u32,
    },
    /// A sale at the café.
    Sell {
        #[message(range(min = 1, max = 3))]
        till: u8,
        item: String,
        pence: u32,
        card: bool,
    },
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::LaneBooking;

    /// [`LaneBooking::covers`].
    pub fn covers(booking: &LaneBooking, minute: u32) -> bool {
        // BUG(lane_board)
        booking.from <= minute || minute < booking.until
    }
}
