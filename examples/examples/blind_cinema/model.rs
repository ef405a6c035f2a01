//! The box office's model: the day's showings, the bookings, the ledger and the notices, the prices, and the
//! messages the box office takes.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The box office opens at 10:00; the clock counts minutes of the day.
pub const OPENING: u32 = 10 * 60;

/// One showing of a film in a screen.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Showing {
    /// The showing's code on the schedule ("m1").
    pub id: String,
    /// The film.
    pub film: String,
    /// The screen ("s1").
    pub screen: String,
    /// When it starts, in minutes of the day.
    pub start: u32,
    /// Seats in the screen.
    pub seats: u32,
    /// Seats sold.
    pub sold: u32,
    /// Shown in 3D (a surcharge per seat).
    pub three_d: bool,
    /// Still on sale (sales close when it starts).
    pub open: bool,
    /// When the box office last changed it, in minutes of the day (bookkeeping only).
    pub touched: u32,
}

/// Two showings are the same when their schedule and their sales are; when one was last touched does not count.
impl PartialEq for Showing {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.film == other.film
            && self.screen == other.screen
            && self.start == other.start
            && self.seats == other.seats
            && self.sold == other.sold
            && self.three_d == other.three_d
            && self.open == other.open
    }
}

/// One booking.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Booking {
    /// The booking's number, from 1 in the order made.
    pub id: u32,
    /// The showing.
    pub showing: String,
    /// Who booked.
    pub customer: String,
    /// Adult tickets.
    pub adults: u32,
    /// Child tickets.
    pub children: u32,
    /// A member of the cinema club.
    pub member: bool,
    /// What was paid, in cents.
    pub cents: u64,
    /// Cancelled.
    pub cancelled: bool,
}

impl Booking {
    /// Seats taken.
    pub fn seats(&self) -> u32 {
        self.adults + self.children
    }
}

/// A line of the ledger: money in (a sale) or out (a refund).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Entry {
    /// The booking.
    pub booking: u32,
    /// Cents, negative for a refund.
    pub cents: i64,
}

/// The price list.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Prices {
    /// An adult ticket, in cents.
    pub adult: u64,
    /// A child ticket.
    pub child: u64,
    /// The 3D surcharge, per seat.
    pub three_d: u64,
    /// Off a showing starting before noon, percent.
    pub early_percent: u64,
    /// Off a showing starting before 17:00, percent.
    pub matinee_percent: u64,
    /// Off for club members, percent (after the time-of-day discount).
    pub member_percent: u64,
    /// A booking cancelled at least this many minutes before the showing is refunded.
    pub refund_minutes: u32,
}

impl Default for Prices {
    fn default() -> Self {
        Prices {
            adult: 1_200,
            child: 800,
            three_d: 300,
            early_percent: 30,
            matinee_percent: 20,
            member_percent: 10,
            refund_minutes: 60,
        }
    }
}

/// The box office: the model its messages change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct BoxOffice {
    /// The time, in minutes of the day.
    pub minute: u32,
    /// Today's showings, in the order scheduled.
    pub showings: Vec<Showing>,
    /// Today's bookings, in the order made.
    pub bookings: Vec<Booking>,
    /// The number the next booking gets.
    pub next_booking: u32,
    /// Money in and out today.
    pub ledger: Vec<Entry>,
    /// What the box office was told.
    pub notices: Vec<String>,
    /// The price list.
    pub prices: Prices,
}

impl Default for BoxOffice {
    fn default() -> Self {
        BoxOffice {
            minute: OPENING,
            showings: Vec::new(),
            bookings: Vec::new(),
            next_booking: 1,
            ledger: Vec::new(),
            notices: Vec::new(),
            prices: Prices::default(),
        }
    }
}

impl BoxOffice {
    /// The showing `id`.
    pub fn showing(&self, id: &str) -> Option<&Showing> {
        self.showings.iter().find(|s| s.id == id)
    }

    /// The showing `id`, to change.
    pub fn showing_mut(&mut self, id: &str) -> Option<&mut Showing> {
        self.showings.iter_mut().find(|s| s.id == id)
    }
}

/// A minute of the day as `14:30`.
pub fn clock(minute: u32) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// Cents as `12.50`.
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// What the box office takes.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Sells seats for `showing`: `adults` adult and `children` child tickets, the club price for a member.
    Book {
        /// The showing's code.
        showing: String,
        /// Who books.
        customer: String,
        /// Adult tickets.
        #[message(range(min = 0, max = 60))]
        adults: u32,
        /// Child tickets.
        #[message(range(min = 0, max = 60))]
        children: u32,
        /// A club member.
        member: bool,
    },
    /// Cancels `booking`: its seats go back on sale, and it is refunded when cancelled early enough.
    Cancel {
        /// The booking's number.
        booking: u32,
    },
    /// Moves `booking` to the showing `to`, the same seats.
    Exchange {
        /// The booking's number.
        booking: u32,
        /// The showing's code.
        to: String,
    },
    /// The clock moves on `minutes` minutes; showings that started close their sales.
    Advance {
        /// Minutes.
        minutes: u32,
    },
    /// A showing on today's schedule (sent by the box office itself when it opens).
    #[message(skip)]
    Schedule {
        /// The showing's code.
        showing: String,
        /// The film.
        film: String,
        /// The screen.
        screen: String,
        /// When it starts, minutes of the day.
        start: u32,
        /// Seats in the screen.
        seats: u32,
        /// In 3D.
        three_d: bool,
    },
    /// Money taken for a booking (sent by the box office itself).
    #[message(skip)]
    Charge {
        /// The booking.
        booking: u32,
        /// Cents.
        cents: u64,
    },
    /// Money given back for a booking (sent by the box office itself).
    #[message(skip)]
    Refund {
        /// The booking.
        booking: u32,
        /// Cents.
        cents: u64,
    },
    /// Tells the box office `text` (sent by the box office itself).
    #[message(skip)]
    Notify {
        /// What to tell.
        text: String,
    },
}

/// The model with a mistake.
pub mod slipped {
    use super::Showing;

    /// A showing as the board lists it, compared by its own `PartialEq`.
    #[derive(Clone, Debug)]
    pub struct Listed(pub Showing);

    /// Two listed showings are the same when the board would show the same.
    impl PartialEq for Listed {
        fn eq(&self, other: &Self) -> bool {
            let (a, b) = (&self.0, &other.0);
            // BUG(showing_eq)
            a.id == b.id
                && a.film == b.film
                && a.screen == b.screen
                && a.start == b.start
                && a.open == b.open
        }
    }
}
