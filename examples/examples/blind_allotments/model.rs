//! The allotment society's model: the plots and their tenants, the members, the waiting list, the shed's tool loans,
//! the produce show's entries, the ledger and the secretary's letters, the society's rates, the calendar, and the
//! messages the secretary takes.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The society's year opens on 1 March (the calendar counts days from 1 January, day 0).
pub const OPENING: u32 = 59;

/// The first day of each month, counted from 1 January (not a leap year).
pub const MONTH_STARTS: [u32; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/// The months' short names.
pub const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// One member of the society.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Member {
    /// The member's name.
    pub name: String,
    /// Pays the concession rate (a pensioner, a student).
    pub concession: bool,
}

/// One plot on the site.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Plot {
    /// The plot's number.
    pub id: u32,
    /// Its size, in square metres.
    pub size: u32,
    /// Who rents it (none: vacant).
    pub tenant: Option<String>,
    /// Warnings after poor inspections since the last good one.
    pub warnings: u32,
    /// Under notice to quit: the day the tenant must be gone by.
    pub notice_until: Option<u32>,
}

/// Someone on the waiting list for a plot.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Application {
    /// The application's number, from 1 in the order received.
    pub number: u32,
    /// The applicant (a member).
    pub name: String,
    /// The day they applied.
    pub applied: u32,
}

/// How a plot was found at an inspection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Grade {
    /// Cultivated and tidy.
    Good,
    /// Could be better; no warning.
    Fair,
    /// Neglected: a warning.
    Poor,
}

impl Grade {
    /// The grade named `name` ("good", "fair" or "poor").
    pub fn parse(name: &str) -> Option<Grade> {
        match name {
            "good" => Some(Grade::Good),
            "fair" => Some(Grade::Fair),
            "poor" => Some(Grade::Poor),
            _ => None,
        }
    }
}

/// A tool lent from the shed.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Loan {
    /// The tool.
    pub tool: String,
    /// Who borrowed it.
    pub member: String,
    /// The day it went out.
    pub out: u32,
    /// The day it is due back.
    pub due: u32,
    /// Back in the shed.
    pub returned: bool,
    /// The shed keeper's note (bookkeeping only).
    pub note: String,
}

/// Two loans are the same when the tool, the member, the days and whether it is back are; the shed keeper's note
/// does not count.
impl PartialEq for Loan {
    fn eq(&self, other: &Self) -> bool {
        self.tool == other.tool
            && self.member == other.member
            && self.out == other.out
            && self.due == other.due
            && self.returned == other.returned
    }
}

/// One entry in the produce show.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Entry {
    /// The entry's number, from 1 in the order entered.
    pub id: u32,
    /// Who entered.
    pub member: String,
    /// The class: "marrow", "onions", ...
    pub class: String,
    /// Each judge's points.
    pub points: Vec<u32>,
}

/// A line of the ledger: something charged to a member.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Posting {
    /// The member.
    pub member: String,
    /// What for.
    pub what: String,
    /// Pence.
    pub pence: i64,
}

/// The society's rates and rules.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Rates {
    /// A year's rent per square metre, in pence.
    pub rent_per_m2: i64,
    /// What the concession rate takes off the rent, in percent.
    pub concession_off: i64,
    /// How long a tool may be borrowed, in days.
    pub loan_days: u32,
    /// The fine per day a tool is late, in pence.
    pub fine_per_day: i64,
    /// How long a notice to quit runs, in days.
    pub notice_days: u32,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            rent_per_m2: 40,
            concession_off: 30,
            loan_days: 7,
            fine_per_day: 50,
            notice_days: 28,
        }
    }
}

/// The society: the model its messages change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Society {
    /// The calendar: days since 1 January.
    pub today: u32,
    /// The members, in the order joined.
    pub members: Vec<Member>,
    /// The plots, by number.
    pub plots: Vec<Plot>,
    /// The waiting list, in the order received.
    pub waiting: Vec<Application>,
    /// The number the next application gets.
    pub next_application: u32,
    /// The shed's loans, in the order made.
    pub loans: Vec<Loan>,
    /// The show's entries, in the order entered.
    pub entries: Vec<Entry>,
    /// Everything charged.
    pub ledger: Vec<Posting>,
    /// The secretary's letters, in the order sent.
    pub letters: Vec<String>,
    /// The rates.
    pub rates: Rates,
}

impl Default for Society {
    fn default() -> Self {
        Society {
            today: OPENING,
            members: Vec::new(),
            plots: Vec::new(),
            waiting: Vec::new(),
            next_application: 1,
            loans: Vec::new(),
            entries: Vec::new(),
            ledger: Vec::new(),
            letters: Vec::new(),
            rates: Rates::default(),
        }
    }
}

impl Society {
    /// The member `name`.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }

    /// Whether member `name` pays the concession rate.
    pub fn concession(&self, name: &str) -> bool {
        self.member(name).is_some_and(|m| m.concession)
    }

    /// The plot `id`.
    pub fn plot(&self, id: u32) -> Option<&Plot> {
        self.plots.iter().find(|p| p.id == id)
    }
}

/// The month of `day` (1 is January).
pub fn month_of(day: u32) -> u32 {
    let day = day % 365;
    MONTH_STARTS.iter().filter(|&&start| start <= day).count() as u32
}

/// A day as `3 Mar`.
pub fn date(day: u32) -> String {
    let month = month_of(day);
    let of_month = day % 365 - MONTH_STARTS[month as usize - 1] + 1;
    format!("{of_month} {}", MONTHS[month as usize - 1])
}

/// Pence as `12.50`.
pub fn money(pence: i64) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    let pence = pence.unsigned_abs();
    format!("{sign}{}.{:02}", pence / 100, pence % 100)
}

/// What the society's secretary takes.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Someone joins the society (at the concession rate or not).
    Join {
        /// The member's name.
        member: String,
        /// Pays the concession rate.
        concession: bool,
    },
    /// A member goes on the waiting list for a plot.
    Apply {
        /// The member.
        member: String,
    },
    /// The secretary lets vacant plot `plot` to the first on the waiting list (also sent by the society itself when
    /// a plot falls vacant).
    Let {
        /// The plot's number.
        plot: u32,
    },
    /// The tenant of plot `plot` gives it up; it is let again.
    GiveUp {
        /// The plot's number.
        plot: u32,
    },
    /// The committee inspects plot `plot`: "good", "fair" or "poor" (two poor ones in a row bring a notice to quit).
    Inspect {
        /// The plot's number.
        plot: u32,
        /// "good", "fair" or "poor".
        grade: String,
    },
    /// `member` borrows `tool` from the shed.
    Borrow {
        /// The member.
        member: String,
        /// The tool.
        tool: String,
    },
    /// `member` brings `tool` back (late returns are fined).
    Return {
        /// The member.
        member: String,
        /// The tool.
        tool: String,
    },
    /// `member` enters the produce show in `class`.
    Enter {
        /// The member.
        member: String,
        /// The class ("marrow", "onions", ...).
        class: String,
    },
    /// A judge gives entry `entry` `points`.
    Judge {
        /// The entry's number.
        entry: u32,
        /// Points, 0 to 10.
        #[message(range(min = 0, max = 10))]
        points: u32,
    },
    /// The calendar moves on `days`; notices to quit that ran out vacate their plots.
    Advance {
        /// Days.
        #[message(range(min = 1, max = 365))]
        days: u32,
    },
    /// A plot on the site (sent by the society itself when the secretary opens the books).
    #[message(skip)]
    AddPlot {
        /// The plot's number.
        id: u32,
        /// Its size, in square metres.
        size: u32,
        /// Its tenant, if let.
        tenant: Option<String>,
    },
    /// Something charged to a member (sent by the society itself).
    #[message(skip)]
    Post {
        /// The member.
        member: String,
        /// What for.
        what: String,
        /// Pence.
        pence: i64,
    },
    /// A letter from the secretary to `to` (sent by the society itself).
    #[message(skip)]
    Letter {
        /// The addressee.
        to: String,
        /// What it says.
        text: String,
    },
}

/// The model with a mistake.
pub mod slipped {
    use super::Rates;

    /// The rates as the committee's first rule book had them.
    #[derive(Clone, Debug)]
    pub struct RuleBook(pub Rates);

    impl Default for RuleBook {
        fn default() -> Self {
            RuleBook(Rates {
                rent_per_m2: 40,
                concession_off: 30,
                loan_days: 7,
                fine_per_day: 50,
                // BUG(notice_period)
                notice_days: 4,
            })
        }
    }
}
