//! The lending desk's model: the members and their cards, the catalogue and where each copy is, the loans, the holds
//! queues, the reading room, and the messages the desk takes.

use ranvier::Messages;
use ranvier::serde::{Deserialize, Serialize};
use std::fmt;

/// A day of the library's calendar, from 0 (the Monday the desk opened).
pub type Day = u32;

/// Money, in cents.
pub type Cents = u32;

/// The seats in the reading room.
pub const SEATS: usize = 4;

/// A member's card.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ranvier::schemars::JsonSchema,
)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
#[schemars(crate = "ranvier::schemars")]
pub enum Tier {
    /// Under 16: fewer loans, shorter periods, lower fines.
    Child,
    /// The ordinary card.
    Adult,
    /// The paid card: more loans, longer periods.
    Premium,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::Child => "child",
            Tier::Adult => "adult",
            Tier::Premium => "premium",
        })
    }
}

/// The library's branches.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    ranvier::schemars::JsonSchema,
)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
#[schemars(crate = "ranvier::schemars")]
pub enum Branch {
    /// The central library.
    Central,
    /// The harbour branch.
    Harbour,
    /// The northside branch.
    Northside,
}

impl fmt::Display for Branch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A member of the library.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Their name (members are known by name at this desk).
    pub name: String,
    /// Their card.
    pub tier: Tier,
    /// Fines charged and not paid yet.
    pub owed: Cents,
}

/// A title in the catalogue.
#[derive(Clone, Debug, PartialEq)]
pub struct Title {
    /// Its catalogue number.
    pub id: u32,
    /// Its name.
    pub name: String,
}

/// Where a copy is.
#[derive(Clone, Debug, PartialEq)]
pub enum Where {
    /// On the shelf at its branch.
    Shelf,
    /// Out on loan.
    Loan,
    /// On the hold shelf at its branch, kept for a member.
    HoldShelf {
        /// Who it is kept for.
        member: String,
    },
    /// On the van to another branch.
    Transit {
        /// Where it goes.
        to: Branch,
        /// The day it gets there.
        arrives: Day,
    },
}

/// One copy of a title.
#[derive(Clone, Debug, PartialEq)]
pub struct Copy {
    /// Its barcode.
    pub barcode: String,
    /// Its title's catalogue number.
    pub title: u32,
    /// The branch it is at (or left from, in transit).
    pub branch: Branch,
    /// Where it is.
    pub status: Where,
}

/// A loan not returned yet.
#[derive(Clone, Debug, PartialEq)]
pub struct Loan {
    /// The copy.
    pub barcode: String,
    /// Its title's catalogue number.
    pub title: u32,
    /// Who has it.
    pub member: String,
    /// The day it went out.
    pub out: Day,
    /// The day it is due back.
    pub due: Day,
    /// How many times it was renewed.
    pub renewals: u32,
}

/// A member waiting for a title.
#[derive(Clone, Debug)]
pub struct Hold {
    /// The title's catalogue number.
    pub title: u32,
    /// Who waits.
    pub member: String,
    /// Where they collect it.
    pub pickup: Branch,
    /// The day they asked.
    pub placed: Day,
}

/// One member's hold on one title: asking twice is the same hold, whenever it was asked.
impl PartialEq for Hold {
    fn eq(&self, other: &Self) -> bool {
        self.title == other.title && self.member == other.member
    }
}

/// A loan that came back.
#[derive(Clone, Debug, PartialEq)]
pub struct Returned {
    /// The copy.
    pub barcode: String,
    /// The branch it was lent from.
    pub branch: Branch,
    /// Who had it.
    pub member: String,
    /// The day it went out.
    pub out: Day,
    /// The day it came back.
    pub back: Day,
    /// Days past its due day.
    pub days_late: u32,
    /// The fine charged.
    pub fine: Cents,
}

/// The desk: everything the library knows.
#[derive(Clone, Debug, PartialEq)]
pub struct Desk {
    /// Today.
    pub today: Day,
    /// Members, in the order they joined.
    pub members: Vec<Member>,
    /// The catalogue.
    pub titles: Vec<Title>,
    /// Every copy.
    pub copies: Vec<Copy>,
    /// The loans out, in the order they went out.
    pub loans: Vec<Loan>,
    /// The holds, in the order they were placed.
    pub holds: Vec<Hold>,
    /// The loans that came back.
    pub returned: Vec<Returned>,
    /// A member who owes this much or more borrows nothing until they pay.
    pub block_at: Cents,
    /// The reading room's seats: who sits in each.
    pub seats: Vec<Option<String>>,
    /// Copies sent between branches.
    pub transfers: u32,
    /// What the desk told its members, oldest first.
    pub notices: Vec<String>,
}

impl Default for Desk {
    fn default() -> Self {
        Desk {
            today: 0,
            members: Vec::new(),
            titles: Vec::new(),
            copies: Vec::new(),
            loans: Vec::new(),
            holds: Vec::new(),
            returned: Vec::new(),
            block_at: 1_000,
            seats: vec![None; SEATS],
            transfers: 0,
            notices: Vec::new(),
        }
    }
}

impl Desk {
    /// The member called `name`.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }

    /// The name of title `id` (its number, for a title not in the catalogue).
    pub fn title_name(&self, id: u32) -> String {
        self.titles
            .iter()
            .find(|t| t.id == id)
            .map_or_else(|| format!("#{id}"), |t| t.name.clone())
    }

    /// The copy with `barcode`.
    pub fn copy(&self, barcode: &str) -> Option<&Copy> {
        self.copies.iter().find(|c| c.barcode == barcode)
    }

    /// Tells the members something.
    pub fn notice(&mut self, text: impl Into<String>) {
        self.notices.push(text.into());
    }

    /// The loans as the desk's list shows them, one line per loan.
    pub fn loan_lines(&self) -> Vec<LoanLine> {
        self.loans
            .iter()
            .map(|loan| LoanLine {
                barcode: loan.barcode.clone(),
                title: self.title_name(loan.title),
                member: loan.member.clone(),
                tier: self.member(&loan.member).map_or(Tier::Adult, |m| m.tier),
                out: loan.out,
                due: loan.due,
                renewals: loan.renewals,
                days_late: self.today.saturating_sub(loan.due),
            })
            .collect()
    }
}

/// A loan as the desk's list shows it (a row of the `loans` value).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct LoanLine {
    /// The copy (the row's key).
    #[serde(skip)]
    pub barcode: String,
    /// The title's name.
    pub title: String,
    /// Who has it.
    pub member: String,
    /// Their card.
    pub tier: Tier,
    /// The day it went out.
    pub out: Day,
    /// The day it is due back.
    pub due: Day,
    /// How many times it was renewed.
    pub renewals: u32,
    /// Days past its due day, today.
    pub days_late: u32,
}

/// What the desk takes.
#[derive(Clone, Debug, PartialEq, Messages)]
pub enum Msg {
    /// Adds a title to the catalogue (sent when the desk opens).
    Catalogue {
        /// Its catalogue number.
        title: u32,
        /// Its name.
        name: String,
    },
    /// Puts a new copy of `title` on the shelf at `branch` (sent when the desk opens).
    Shelve {
        /// The copy's barcode.
        barcode: String,
        /// Its title's catalogue number.
        title: u32,
        /// Where it is kept.
        branch: Branch,
    },
    /// A new member joins with a card of `tier`.
    Join {
        /// Their name.
        member: String,
        /// Their card.
        tier: Tier,
    },
    /// `member` borrows the copy `barcode`.
    Borrow {
        /// Who borrows.
        member: String,
        /// The copy.
        barcode: String,
    },
    /// The copy `barcode` comes back: a fine if it is late, and it goes to whoever waits for its title.
    Return {
        /// The copy.
        barcode: String,
    },
    /// The loan of `barcode` is renewed for another period.
    Renew {
        /// The copy.
        barcode: String,
    },
    /// `member` waits for `title`, to collect it at `pickup`.
    PlaceHold {
        /// Who waits.
        member: String,
        /// The title's catalogue number.
        title: u32,
        /// Where they collect it.
        pickup: Branch,
    },
    /// The copy `barcode` goes on the hold shelf for the first member waiting for its title (a command).
    FillHold {
        /// The copy.
        barcode: String,
    },
    /// The copy `barcode` goes on the van to `to`.
    Transfer {
        /// The copy.
        barcode: String,
        /// Where it goes.
        to: Branch,
    },
    /// The copy `barcode` came off the van (a command).
    Arrived {
        /// The copy.
        barcode: String,
    },
    /// `member` pays `cents` of what they owe.
    Pay {
        /// Who pays.
        member: String,
        /// How much, in cents.
        cents: Cents,
    },
    /// `member` takes a seat in the reading room.
    TakeSeat {
        /// Who sits.
        member: String,
    },
    /// `member` leaves the reading room.
    LeaveSeat {
        /// Who leaves.
        member: String,
    },
    /// The days go by.
    Advance {
        /// How many.
        days: u32,
    },
}

/// The weekday and week of `day` ("Mon wk1" is the day the desk opened).
pub fn day_label(day: Day) -> String {
    const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    format!("{} wk{}", WEEKDAYS[(day % 7) as usize], day / 7 + 1)
}

/// `cents` as euros and cents.
pub fn money(cents: Cents) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Other versions of this file's code, chosen by `graph::Slip`.
pub mod slipped {
    use super::{Desk, SEATS};

    /// A new desk.
    pub fn opening_desk() -> Desk {
        Desk {
            today: 0,
            members: Vec::new(),
            titles: Vec::new(),
            copies: Vec::new(),
            loans: Vec::new(),
            holds: Vec::new(),
            returned: Vec::new(),
            // BUG(block_at_euros)
            block_at: 10,
            seats: vec![None; SEATS],
            transfers: 0,
            notices: Vec::new(),
        }
    }
}
