//! The gym's model: the classes on the timetable, the members and their bookings, the ledger and the notices, the
//! fees, and the messages the front desk takes.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Minutes in a day.
pub const MINUTES_PER_DAY: u32 = 24 * 60;

/// The gym opens its week on Monday at 06:00 (the clock counts minutes from Monday 00:00).
pub const OPENING: u32 = 6 * 60;

/// A member's plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Plan {
    /// Pays a drop-in fee for each class booked.
    Basic,
    /// Classes included.
    Premium,
}

impl Plan {
    /// The plan named `name` ("basic" or "premium").
    pub fn parse(name: &str) -> Option<Plan> {
        match name {
            "basic" => Some(Plan::Basic),
            "premium" => Some(Plan::Premium),
            _ => None,
        }
    }
}

/// One member.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Member {
    /// The member's name.
    pub name: String,
    /// The plan.
    pub plan: Plan,
}

/// One class on the week's timetable.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Class {
    /// The class's number.
    pub id: u32,
    /// "Spin", "Yoga", ...
    pub name: String,
    /// Who teaches it.
    pub coach: String,
    /// The day of the week (0 is Monday).
    pub day: u32,
    /// When it starts, in minutes after midnight.
    pub start: u32,
    /// How long it lasts, in minutes.
    pub length: u32,
    /// Places.
    pub capacity: u32,
    /// Where: a studio ("A", "B") or "park" (outdoors).
    pub studio: String,
    /// Called off (the coach is ill).
    pub cancelled: bool,
    /// Over, and its no-shows charged.
    pub closed: bool,
}

/// Where a booking stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Status {
    /// Has a place.
    Booked,
    /// Waits for a place.
    Waitlisted,
    /// Came to the class (checked in).
    Attended,
    /// Had a place and did not come.
    NoShow,
    /// Cancelled by the member, or the class was called off.
    Cancelled,
}

/// One booking of a member for a class.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Booking {
    /// The booking's number, from 1 in the order made.
    pub id: u32,
    /// The member.
    pub member: String,
    /// The class.
    pub class: u32,
    /// Where it stands.
    pub status: Status,
    /// When the desk last wrote to it, on the gym's clock (bookkeeping only).
    pub touched: u32,
}

/// Two bookings are the same when the member, the class and where it stands are; when the desk last wrote to it does
/// not count.
impl PartialEq for Booking {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.member == other.member
            && self.class == other.class
            && self.status == other.status
    }
}

impl Booking {
    /// Holds one of the class's places (booked, or came).
    pub fn holds_place(&self) -> bool {
        matches!(self.status, Status::Booked | Status::Attended)
    }

    /// Still open: booked or waiting.
    pub fn active(&self) -> bool {
        matches!(self.status, Status::Booked | Status::Waitlisted)
    }
}

/// A line of the ledger: something charged to a member (a refund is negative).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Posting {
    /// The member.
    pub member: String,
    /// What for.
    pub what: String,
    /// Cents.
    pub cents: i64,
}

/// The gym's fees.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Fees {
    /// A basic member's fee per class booked, in cents.
    pub drop_in: i64,
    /// Charged for a place not used, in cents.
    pub no_show: i64,
    /// Charged for a place given up late, in cents.
    pub late_cancel: i64,
    /// A place given up less than this many minutes before the class starts is late.
    pub late_window: u32,
}

impl Default for Fees {
    fn default() -> Self {
        Fees {
            drop_in: 800,
            no_show: 500,
            late_cancel: 300,
            late_window: 12 * 60,
        }
    }
}

/// The gym: the model its messages change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Gym {
    /// The clock: minutes since Monday 00:00.
    pub now: u32,
    /// The timetable, in the order added.
    pub classes: Vec<Class>,
    /// The members, in the order joined.
    pub members: Vec<Member>,
    /// The bookings, in the order made.
    pub bookings: Vec<Booking>,
    /// The number the next booking gets.
    pub next_booking: u32,
    /// Everything charged.
    pub ledger: Vec<Posting>,
    /// What the desk was told.
    pub notices: Vec<String>,
    /// The fees.
    pub fees: Fees,
}

impl Default for Gym {
    fn default() -> Self {
        Gym {
            now: OPENING,
            classes: Vec::new(),
            members: Vec::new(),
            bookings: Vec::new(),
            next_booking: 1,
            ledger: Vec::new(),
            notices: Vec::new(),
            fees: Fees::default(),
        }
    }
}

impl Gym {
    /// The class `id`.
    pub fn class(&self, id: u32) -> Option<&Class> {
        self.classes.iter().find(|c| c.id == id)
    }

    /// The member `name`.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }

    /// The plan of member `name` (basic when unknown).
    pub fn plan(&self, name: &str) -> Plan {
        self.member(name).map_or(Plan::Basic, |m| m.plan)
    }
}

/// A time on the week's clock as `Tue 18:30`.
pub fn clock(minutes: u32) -> String {
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    let day = (minutes / MINUTES_PER_DAY) % 7;
    let of_day = minutes % MINUTES_PER_DAY;
    format!(
        "{} {:02}:{:02}",
        DAYS[day as usize],
        of_day / 60,
        of_day % 60
    )
}

/// Cents as `12.50` (or `-8.00`).
pub fn money(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

/// What the gym's front desk takes.
#[derive(Debug, Messages)]
pub enum Msg {
    /// A new member joins on `plan` ("basic" or "premium").
    Join {
        /// The member's name.
        member: String,
        /// "basic" or "premium".
        plan: String,
    },
    /// Books `member` a place in class `class` (or the waiting list when it is full).
    Book {
        /// The member.
        member: String,
        /// The class's number.
        class: u32,
    },
    /// `member` gives up their booking for class `class` (a late one is charged).
    Cancel {
        /// The member.
        member: String,
        /// The class's number.
        class: u32,
    },
    /// `member` arrives for class `class` (from half an hour before it starts until it ends).
    CheckIn {
        /// The member.
        member: String,
        /// The class's number.
        class: u32,
    },
    /// The clock moves on `minutes`; classes that ended are closed and their no-shows charged.
    Advance {
        /// Minutes.
        #[message(range(min = 1, max = 10080))]
        minutes: u32,
    },
    /// The coach is ill: class `class` is called off and basic members' drop-in fees refunded.
    CancelClass {
        /// The class's number.
        class: u32,
    },
    /// A class goes on the timetable (sent by the desk itself when it opens).
    #[message(skip)]
    AddClass {
        /// The class's number.
        id: u32,
        /// Its name.
        name: String,
        /// Its coach.
        coach: String,
        /// The day of the week.
        day: u32,
        /// Its start, in minutes after midnight.
        start: u32,
        /// Its length, in minutes.
        length: u32,
        /// Places.
        capacity: u32,
        /// Where.
        studio: String,
    },
    /// The first member waiting for class `class` gets a place (sent by the desk itself).
    #[message(skip)]
    Promote {
        /// The class's number.
        class: u32,
    },
    /// Something charged to a member (sent by the desk itself).
    #[message(skip)]
    Post {
        /// The member.
        member: String,
        /// What for.
        what: String,
        /// Cents.
        cents: i64,
    },
    /// Tells the desk `text` (sent by the desk itself).
    #[message(skip)]
    Notify {
        /// What to tell.
        text: String,
    },
}

/// The model with a mistake.
pub mod slipped {
    use super::Fees;

    /// The fees as the gym's first price list had them.
    #[derive(Clone, Debug)]
    pub struct PriceList(pub Fees);

    impl Default for PriceList {
        fn default() -> Self {
            PriceList(Fees {
                drop_in: 800,
                no_show: 500,
                late_cancel: 300,
                // BUG(fees_window)
                late_window: 12,
            })
        }
    }
}
