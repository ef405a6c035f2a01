//! The box office's model: the week's performances with their seats sold and held, the bookings, the holds, the
//! waiting lists, the bar's interval orders, and the messages the box office sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Minutes in a day.
pub const DAY: u32 = 24 * 60;
/// The box office opens on Monday at 10:00 (minutes since Monday 00:00).
pub const OPENS: u32 = 10 * 60;
/// Days of the week, Monday first.
pub const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
pub const FRIDAY: u32 = 4;
pub const SATURDAY: u32 = 5;
/// A performance that starts before this (minutes since midnight) is a matinee.
pub const EVENING: u32 = 17 * 60;

/// `Tue 19:30` of a minute of the week.
pub fn clock(minute: u32) -> String {
    let day = (minute / DAY) as usize % DAYS.len();
    let time = minute % DAY;
    format!("{} {:02}:{:02}", DAYS[day], time / 60, time % 60)
}

/// `19:30` of minutes since midnight.
pub fn time_of_day(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// `£p.pp` of an amount in pence.
pub fn pounds(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// Where a seat is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    Stalls,
    Circle,
    Boxes,
}

impl Section {
    pub const ALL: [Section; 3] = [Section::Stalls, Section::Circle, Section::Boxes];

    pub fn parse(text: &str) -> Option<Section> {
        match text.trim().to_ascii_lowercase().as_str() {
            "stalls" => Some(Section::Stalls),
            "circle" => Some(Section::Circle),
            "boxes" | "box" => Some(Section::Boxes),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Section::Stalls => "stalls",
            Section::Circle => "circle",
            Section::Boxes => "boxes",
        }
    }

    /// Its place in the per-section counts.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Seats in the section: a small house, 40 in the stalls, 24 in the circle, two boxes of four.
    pub fn capacity(self) -> u32 {
        match self {
            Section::Stalls => 40,
            Section::Circle => 24,
            Section::Boxes => 8,
        }
    }
}

/// A reduced price, shown at the door with proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Concession {
    Child,
    Student,
    Senior,
}

impl Concession {
    pub fn parse(text: &str) -> Option<Concession> {
        match text.trim().to_ascii_lowercase().as_str() {
            "child" => Some(Concession::Child),
            "student" => Some(Concession::Student),
            "senior" => Some(Concession::Senior),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Concession::Child => "child",
            Concession::Student => "student",
            Concession::Senior => "senior",
        }
    }
}

/// Someone waiting for seats at a sold-out performance.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Waiter {
    pub customer: String,
    pub seats: u32,
}

/// One performance of a show this week, with its seats sold and held per section (stalls, circle, boxes).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Performance {
    #[serde(skip)]
    pub id: u32,
    pub show: String,
    /// 0 is Monday.
    pub day: u32,
    /// Curtain up, minutes since midnight.
    pub at: u32,
    pub sold: [u32; 3],
    pub held: [u32; 3],
    pub waiting: Vec<Waiter>,
}

impl Performance {
    fn planned(id: u32, show: &str, day: u32, at: &str) -> Performance {
        let (hours, minutes) = at.split_once(':').expect("HH:MM");
        Performance {
            id,
            show: show.to_owned(),
            day,
            at: hours.parse::<u32>().expect("hours") * 60
                + minutes.parse::<u32>().expect("minutes"),
            sold: [0; 3],
            held: [0; 3],
            waiting: Vec::new(),
        }
    }

    /// Curtain up, in minutes of the week.
    pub fn starts(&self) -> u32 {
        self.day * DAY + self.at
    }

    pub fn is_matinee(&self) -> bool {
        self.at < EVENING
    }

    /// Friday and Saturday evenings are peak: a higher price, and no concessions.
    pub fn is_peak(&self) -> bool {
        (self.day == FRIDAY || self.day == SATURDAY) && !self.is_matinee()
    }

    /// Seats in `section` neither sold nor held.
    pub fn free(&self, section: Section) -> u32 {
        let i = section.index();
        section
            .capacity()
            .saturating_sub(self.sold[i] + self.held[i])
    }

    pub fn free_total(&self) -> u32 {
        Section::ALL.iter().map(|&s| self.free(s)).sum()
    }

    pub fn sold_total(&self) -> u32 {
        self.sold.iter().sum()
    }

    pub fn held_total(&self) -> u32 {
        self.held.iter().sum()
    }

    pub fn is_sold_out(&self) -> bool {
        self.free_total() == 0
    }

    /// `Tue 19:30 Private Lives`.
    pub fn title(&self) -> String {
        format!("{} {}", clock(self.starts()), self.show)
    }
}

/// What became of a booking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Booked,
    /// Returned to the box office; `refund` pence paid back.
    Returned {
        refund: u32,
    },
    /// Exchanged for another performance: the seats and the money went to booking `to`.
    Exchanged {
        to: u32,
    },
}

/// Seats sold together.
#[derive(Clone, Debug, PartialEq)]
pub struct Booking {
    pub no: u32,
    pub customer: String,
    pub perf: u32,
    pub section: Section,
    pub seats: u32,
    pub concession: Option<Concession>,
    /// Pence for the tickets, all seats.
    pub paid: u32,
    /// The booking fee (or the exchange fee of a booking made by an exchange), pence.
    pub fee: u32,
    pub state: State,
}

/// Seats held for a customer while they decide; released when they lapse.
#[derive(Clone, Debug, PartialEq)]
pub struct Hold {
    pub id: u32,
    pub customer: String,
    pub perf: u32,
    pub section: Section,
    pub seats: u32,
    /// When it was placed, minutes of the week.
    pub placed: u32,
}

/// A drink or an ice cream ordered for a performance's interval.
#[derive(Clone, Debug, PartialEq)]
pub struct BarOrder {
    pub perf: u32,
    pub item: String,
    pub qty: u32,
    /// Pence for all `qty`.
    pub pence: u32,
}

/// The whole box office.
#[derive(Clone, Debug, PartialEq)]
pub struct Office {
    /// Minutes since Monday 00:00.
    pub now: u32,
    pub performances: Vec<Performance>,
    pub bookings: Vec<Booking>,
    pub holds: Vec<Hold>,
    pub next_hold: u32,
    pub bar: Vec<BarOrder>,
    pub notices: Vec<String>,
}

/// The box office on Monday morning: the week's performances as the season was planned (show by show), nothing sold.
impl Default for Office {
    fn default() -> Self {
        Office {
            now: OPENS,
            performances: vec![
                Performance::planned(1, "Hamlet", 0, "19:30"),
                Performance::planned(3, "Hamlet", 2, "14:30"),
                Performance::planned(6, "Hamlet", 4, "19:30"),
                Performance::planned(2, "Private Lives", 1, "19:30"),
                Performance::planned(5, "Private Lives", 4, "14:30"),
                Performance::planned(4, "The Pirates", 2, "19:30"),
                Performance::planned(7, "The Pirates", 5, "14:30"),
                Performance::planned(8, "The Pirates", 5, "19:30"),
            ],
            bookings: Vec::new(),
            holds: Vec::new(),
            next_hold: 1,
            bar: Vec::new(),
            notices: Vec::new(),
        }
    }
}

impl Office {
    pub fn performance(&self, id: u32) -> Option<&Performance> {
        self.performances.iter().find(|p| p.id == id)
    }

    pub fn performance_mut(&mut self, id: u32) -> Option<&mut Performance> {
        self.performances.iter_mut().find(|p| p.id == id)
    }

    pub fn booking_mut(&mut self, no: u32) -> Option<&mut Booking> {
        self.bookings.iter_mut().find(|b| b.no == no)
    }

    /// The title of performance `id`, or `performance 9` when there is none.
    pub fn title_of(&self, id: u32) -> String {
        self.performance(id)
            .map_or_else(|| format!("performance {id}"), Performance::title)
    }

    pub fn note(&mut self, notice: impl Into<String>) {
        let line = format!("{} {}", clock(self.now), notice.into());
        self.notices.push(line);
    }
}

/// What the box office sends.
#[derive(Debug, Clone, Messages)]
pub enum Msg {
    /// Sells `seats` in a section (`stalls`, `circle`, `boxes`) of performance `perf`; a concession (`child`,
    /// `student`, `senior`) applies to every seat of the booking.
    Book {
        customer: String,
        perf: u32,
        section: String,
        #[message(range(min = 1, max = 40))]
        seats: u32,
        concession: Option<String>,
    },
    /// Holds seats for a customer for a quarter of an hour.
    Hold {
        customer: String,
        perf: u32,
        section: String,
        #[message(range(min = 1, max = 40))]
        seats: u32,
    },
    /// Lets the seats of a hold go.
    Release { hold: u32 },
    /// Turns a hold into a booking.
    Confirm {
        hold: u32,
        concession: Option<String>,
    },
    /// Puts a customer on a sold-out performance's waiting list.
    Wait {
        customer: String,
        perf: u32,
        #[message(range(min = 1, max = 10))]
        seats: u32,
    },
    /// A customer returns a booking for a sold-out performance: refunded less a fee, the seats back on sale.
    ReturnSeats { booking: u32 },
    /// Offers returned seats to the first customer waiting.
    OfferReturn { perf: u32 },
    /// Moves a booking to another performance of the same show, for a fee and any difference in price.
    Exchange { booking: u32, to: u32 },
    /// An order at the bar for a performance's interval.
    IntervalOrder {
        perf: u32,
        item: String,
        #[message(range(min = 1, max = 20))]
        qty: u32,
    },
    /// The clock moves on.
    Advance {
        #[message(range(min = 1, max = 2880))]
        minutes: u32,
    },
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::{FRIDAY, Performance, SATURDAY};

    /// [`Performance::is_peak`].
    pub fn is_peak(perf: &Performance) -> bool {
        // BUG(friday_matinee)
        perf.day == FRIDAY || perf.day == SATURDAY && !perf.is_matinee()
    }
}
