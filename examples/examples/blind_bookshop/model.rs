//! The bookshop's model: the catalogue (new books and second-hand books on consignment), the orders, the sales, the
//! loyalty cards and the till, and the messages that change them.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Days a customer has to bring a book back.
pub const RETURN_DAYS: u32 = 14;
/// Days in the shop's month (its payouts run to the month's end).
pub const MONTH_DAYS: u32 = 30;

/// How a book came to the shop.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// From a publisher: sold at the list price, bought at the trade discount (a percentage off the list price).
    New { list: u32, discount: u32 },
    /// Second-hand, on consignment: sold at the asking price, the seller paid a share after the handling fee.
    Used { asking: u32, consignor: String },
}

/// A title the shop stocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    /// The shop's short code.
    pub code: String,
    pub title: String,
    pub kind: Kind,
    /// Copies on the shelf.
    pub stock: u32,
    /// Reorder when the shelf is down to this many.
    pub reorder_point: u32,
    /// Copies a reorder asks for.
    pub reorder_qty: u32,
    /// One copy's weight, in grams.
    pub grams: u32,
    /// The day it is published (0: already out).
    pub published: u32,
}

impl Book {
    /// The shelf price of one copy, in pence.
    pub fn price(&self) -> u32 {
        match &self.kind {
            Kind::New { list, .. } => *list,
            Kind::Used { asking, .. } => *asking,
        }
    }

    /// Whether the book is out on `today` (it can be sold from its publication day).
    pub fn is_published(&self, today: u32) -> bool {
        today >= self.published
    }

    /// Whether it is a second-hand book.
    pub fn is_used(&self) -> bool {
        matches!(self.kind, Kind::Used { .. })
    }
}

/// Where an order stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Status {
    /// Waiting for stock or for publication day.
    Waiting,
    /// On the shelf behind the till, for the customer.
    Ready,
    /// Collected (or posted) and paid for.
    Collected,
}

/// A customer order: from the shelf, a special order (not in stock) or a preorder (not yet published).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Order {
    pub no: u32,
    pub customer: String,
    pub code: String,
    pub title: String,
    pub qty: u32,
    /// One copy's price, in pence.
    pub unit: u32,
    /// Sent by post.
    pub mail: bool,
    /// Ordered in from the distributor or the publisher (it takes a deposit).
    pub special: bool,
    /// The deposit paid, in pence.
    pub deposit: u32,
    /// The parcel's books' weight, in grams.
    pub grams: u32,
    /// The day it is due: the day placed, or publication day.
    pub due: u32,
    pub status: Status,
}

/// A sale at the till.
#[derive(Clone, Debug, PartialEq)]
pub struct Sale {
    pub no: u32,
    pub day: u32,
    pub code: String,
    pub qty: u32,
    /// What one copy was sold for, in pence.
    pub unit: u32,
    pub customer: String,
    pub returned: bool,
}

/// A customer's loyalty card: a stamp per £10 spent, a free book at ten stamps.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    pub customer: String,
    pub stamps: u32,
    pub free_books: u32,
}

/// A line of the till roll, in pence (a refund is negative).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub day: u32,
    pub pence: i64,
    pub what: String,
}

/// The shop.
#[derive(Clone, Debug, PartialEq)]
pub struct Shop {
    pub today: u32,
    pub books: Vec<Book>,
    /// The book club's pick of the month (a book's code).
    pub club_pick: String,
    pub orders: Vec<Order>,
    pub sales: Vec<Sale>,
    pub cards: Vec<Card>,
    pub till: Vec<Entry>,
    pub notices: Vec<String>,
}

fn new_book(
    code: &str,
    title: &str,
    list: u32,
    discount: u32,
    stock: (u32, u32, u32),
    grams: u32,
) -> Book {
    Book {
        code: code.to_owned(),
        title: title.to_owned(),
        kind: Kind::New { list, discount },
        stock: stock.0,
        reorder_point: stock.1,
        reorder_qty: stock.2,
        grams,
        published: 0,
    }
}

fn used_book(code: &str, title: &str, asking: u32, consignor: &str, grams: u32) -> Book {
    Book {
        code: code.to_owned(),
        title: title.to_owned(),
        kind: Kind::Used {
            asking,
            consignor: consignor.to_owned(),
        },
        stock: 1,
        reorder_point: 0,
        reorder_qty: 0,
        grams,
        published: 0,
    }
}

impl Default for Shop {
    /// The shop on the first day of the month, a Monday.
    fn default() -> Self {
        let mut novel = new_book(
            "lighthouse",
            "The Lighthouse Year",
            1899,
            45,
            (0, 0, 10),
            600,
        );
        novel.published = 3;
        Shop {
            today: 1,
            books: vec![
                new_book("hobbit", "The Hobbit", 1299, 40, (6, 3, 6), 320),
                new_book("atlas", "Road Atlas", 2500, 35, (2, 2, 4), 1400),
                new_book("dune", "Dune", 1099, 40, (4, 2, 5), 450),
                novel,
                used_book("farm", "Animal Farm (1951)", 800, "Mr Hale", 250),
                used_book("poems", "Collected Poems", 1500, "Mrs Ward", 500),
            ],
            club_pick: "hobbit".to_owned(),
            orders: Vec::new(),
            sales: Vec::new(),
            cards: Vec::new(),
            till: Vec::new(),
            notices: Vec::new(),
        }
    }
}

impl Shop {
    /// The book with `code`.
    pub fn book(&self, code: &str) -> Option<&Book> {
        self.books.iter().find(|b| b.code == code)
    }

    /// The book with `code`, to change.
    pub fn book_mut(&mut self, code: &str) -> Option<&mut Book> {
        self.books.iter_mut().find(|b| b.code == code)
    }
}

/// What the shop's staff and its website send.
#[derive(Clone, Debug, PartialEq, Messages)]
pub enum Msg {
    /// Sells `qty` copies of `code` at the till; `customer` ("" for none) gets stamps, a club `member` the club
    /// discount on the month's pick.
    Sell {
        code: String,
        qty: u32,
        customer: String,
        member: bool,
    },
    /// Stamps `customer`'s card for `pence` spent (a command of `sell`).
    Stamp { customer: String, pence: u32 },
    /// Takes back the books of sale `sale` and refunds them, within 14 days.
    Return { sale: u32 },
    /// Orders `qty` copies of `code` for `customer`, collected or sent by post (`mail`).
    Order {
        customer: String,
        code: String,
        qty: u32,
        mail: bool,
    },
    /// Marks order `order` ready to collect (a command).
    Ready { order: u32 },
    /// `customer` collects order `order` (or it is posted) and pays the balance.
    Collect { order: u32 },
    /// `qty` copies of `code` arrive from the distributor.
    Receive { code: String, qty: u32 },
    /// The shop closes for `days` days and opens on the next.
    Advance { days: u32 },
}

/// `pence` as pounds: `£12.99`, `-£1.30`.
pub fn pounds(pence: i64) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    let pence = pence.unsigned_abs();
    format!("{sign}£{}.{:02}", pence / 100, pence % 100)
}

/// The weekday of `day` (day 1 is a Monday).
pub fn weekday_name(day: u32) -> &'static str {
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][((day.max(1) - 1) % 7) as usize]
}

pub mod slipped {
    use super::Book;

    /// Whether the book is out on `today` (it can be sold from its publication day).
    pub fn is_published(book: &Book, today: u32) -> bool {
        // BUG(publication_day)
        today > book.published
    }
}
