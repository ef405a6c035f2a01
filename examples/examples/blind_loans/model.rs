//! The loans desk's model: books, members, loans and holds, the messages the desk takes, and the reminder a member
//! is sent about their next due loan.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Days a loan runs before it is due, and what a renewal adds.
pub const LOAN_DAYS: u32 = 14;

/// A title on the shelves.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    /// The book's ISBN.
    pub isbn: String,
    /// Its title.
    pub title: String,
    /// How many copies the branch owns.
    pub copies: u32,
}

/// Who may borrow, and on what terms.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    ranvier::serde::Deserialize,
    ranvier::schemars::JsonSchema,
)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
#[schemars(crate = "ranvier::schemars")]
pub enum Kind {
    /// A grown-up.
    Adult,
    /// Under 16: a lower fine rate and a lower loan limit.
    Child,
    /// Library staff: no fines, a higher limit.
    Staff,
}

/// A library card.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The card number.
    pub card: String,
    /// The member's terms.
    pub kind: Kind,
    /// Fines paid so far, in cents.
    pub paid: u64,
}

/// One loan of one copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Loan {
    /// The loan's number, from 1.
    pub id: u32,
    /// The book lent.
    pub isbn: String,
    /// The borrower's card.
    pub card: String,
    /// The day it went out.
    pub out_day: u32,
    /// The day it is due back.
    pub due_day: u32,
    /// Renewals so far.
    pub renewals: u32,
    /// The day it came back, once it did.
    pub returned: Option<u32>,
}

/// A member waiting for a copy of a book.
#[derive(Clone, Debug, PartialEq)]
pub struct Hold {
    /// Who waits.
    pub card: String,
    /// For which book.
    pub isbn: String,
}

/// The whole desk.
#[derive(Clone, Debug, PartialEq)]
pub struct Desk {
    /// The day number (the desk opens on day 1).
    pub today: u32,
    /// The base fine per day late, in cents.
    pub fine_per_day: u64,
    /// The catalogue of this branch.
    pub books: Vec<Book>,
    /// Every card.
    pub members: Vec<Member>,
    /// Every loan, open or returned, in the order lent.
    pub loans: Vec<Loan>,
    /// Holds, first come first served.
    pub holds: Vec<Hold>,
    /// Notices sent to members ("card: text"), oldest first.
    pub notices: Vec<String>,
    /// The number the next loan gets.
    pub next_loan: u32,
}

impl Default for Desk {
    fn default() -> Desk {
        Desk {
            today: 1,
            fine_per_day: 25,
            books: Vec::new(),
            members: Vec::new(),
            loans: Vec::new(),
            holds: Vec::new(),
            notices: Vec::new(),
            next_loan: 1,
        }
    }
}

impl Desk {
    /// The member holding `card`.
    pub fn member(&self, card: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.card == card)
    }

    /// The book with `isbn`.
    pub fn book(&self, isbn: &str) -> Option<&Book> {
        self.books.iter().find(|b| b.isbn == isbn)
    }

    /// The title of `isbn`, or the ISBN itself for a book not in the catalogue.
    pub fn title(&self, isbn: &str) -> String {
        self.book(isbn)
            .map_or_else(|| isbn.to_owned(), |b| b.title.clone())
    }

    /// Copies of `isbn` out on loan now.
    pub fn out(&self, isbn: &str) -> u32 {
        let open = self
            .loans
            .iter()
            .filter(|l| l.isbn == isbn && l.returned.is_none());
        u32::try_from(open.count()).unwrap_or(u32::MAX)
    }
}

/// The branch's shelves when the desk opens: one copy each of its three titles.
pub fn opening_stock() -> Vec<Msg> {
    [
        ("9780141439518", "Pride and Prejudice"),
        ("9780261102217", "The Hobbit"),
        ("9780441172719", "Dune"),
    ]
    .into_iter()
    .map(|(isbn, title)| Msg::AddBook {
        isbn: isbn.to_owned(),
        title: title.to_owned(),
        copies: 1,
    })
    .collect()
}

/// What the desk takes.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Adds `copies` copies of a title to the shelves.
    AddBook {
        /// The ISBN.
        isbn: String,
        /// The title.
        title: String,
        /// Copies, at least 1.
        #[message(range(min = 1))]
        copies: u32,
    },
    /// Issues a card.
    Join {
        /// The card number.
        card: String,
        /// The member's terms.
        kind: Kind,
    },
    /// Lends a copy of `isbn` to `card`; with no copy on the shelf, the member is put on hold instead.
    Lend {
        /// The borrower.
        card: String,
        /// The book.
        isbn: String,
    },
    /// Takes back loan `loan`.
    Return {
        /// The loan's number.
        loan: u32,
    },
    /// Renews loan `loan` by another loan period (at most twice).
    Renew {
        /// The loan's number.
        loan: u32,
    },
    /// Moves the clock on by `days`.
    Advance {
        /// Days, at least 1.
        #[message(range(min = 1))]
        days: u32,
    },
    /// Takes a payment towards `card`'s fines.
    Pay {
        /// The card.
        card: String,
        /// Cents.
        cents: u64,
    },
    /// Sets the base fine per day late.
    SetRate {
        /// Cents per day.
        cents: u64,
    },
    /// Tells `card` that `text` (sent by the desk itself after a return).
    #[message(skip)]
    Notify {
        /// The card.
        card: String,
        /// What to tell.
        text: String,
    },
}

/// A member's next due loan, as the reminder service shows it.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Reminder {
    /// The card.
    pub card: String,
    /// The title.
    pub title: String,
    /// The day it is due.
    pub due_day: u32,
    /// The text sent, built from the above (not compared: it is derived).
    #[serde(skip)]
    pub text: String,
}

impl PartialEq for Reminder {
    fn eq(&self, other: &Reminder) -> bool {
        self.card == other.card && self.title == other.title && self.due_day == other.due_day
    }
}

/// The reminder as the first version of the reminder service compared it.
pub mod slipped {
    use ranvier::serde::Serialize;

    /// A member's next due loan.
    #[derive(Clone, Debug, Serialize)]
    #[serde(crate = "ranvier::serde")]
    pub struct Reminder {
        /// The card.
        pub card: String,
        /// The title.
        pub title: String,
        /// The day it is due.
        pub due_day: u32,
        /// The text sent.
        #[serde(skip)]
        pub text: String,
    }

    impl PartialEq for Reminder {
        fn eq(&self, other: &Reminder) -> bool {
            // BUG(reminder_eq)
            self.card == other.card && self.title == other.title
        }
    }
}
