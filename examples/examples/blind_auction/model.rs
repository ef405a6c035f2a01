//! The sale: its lots, the registered bidders, the absentee book, the clock, and the messages the rostrum and the
//! front desk send.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The house's fixed terms.
pub mod terms {
    /// The sale starts at 10:00 (minutes after midnight).
    pub const OPENS_AT: u32 = 10 * 60;
    /// The first paddle number handed out at the desk.
    pub const FIRST_PADDLE: u32 = 101;
    /// A bid on a timed lot this many minutes (or fewer) before it closes moves its close this far past the bid.
    pub const SOFT_CLOSE_MINUTES: u32 = 2;
}

/// A bid on a lot, in whole euros.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Bid {
    /// The bidder's paddle.
    pub paddle: u32,
    /// The amount, in euros.
    pub amount: u64,
    /// Placed by the auctioneer from the absentee book.
    pub absentee: bool,
}

/// Where a lot stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", tag = "state", rename_all = "camelCase")]
pub enum LotStatus {
    /// A live lot the auctioneer has not opened yet.
    Upcoming,
    /// Taking bids.
    Open,
    /// Knocked down (or closed) to `paddle` at `hammer` euros.
    Sold {
        /// The buyer.
        paddle: u32,
        /// The hammer price, in euros.
        hammer: u64,
    },
    /// Bought in: no bid reached the reserve.
    Passed,
    /// Taken out of the sale by its consignor.
    Withdrawn,
}

/// One lot of the sale.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Lot {
    /// The lot number, from 1 in catalogue order.
    pub number: u32,
    /// What it is.
    pub title: String,
    /// Who consigned it.
    #[serde(skip)]
    pub consignor: String,
    /// The lowest price the consignor accepts, in euros (confidential).
    #[serde(skip)]
    pub reserve: u64,
    /// The low estimate, in euros.
    pub low: u64,
    /// The high estimate, in euros.
    pub high: u64,
    /// For a timed lot, when it closes (minutes after midnight); `None` for a lot sold from the rostrum.
    pub closes_at: Option<u32>,
    /// Its packed weight, in grams.
    #[serde(skip)]
    pub grams: u64,
    /// The leading bid.
    pub top_bid: Option<Bid>,
    /// How many bids it took.
    pub bids: u32,
    /// Where it stands.
    pub status: LotStatus,
}

impl Lot {
    /// The lot's asking price before any bid: half its low estimate.
    pub fn opening(&self) -> u64 {
        self.low / 2
    }

    /// The hammer price and buyer, once sold.
    pub fn sold(&self) -> Option<(u32, u64)> {
        match self.status {
            LotStatus::Sold { paddle, hammer } => Some((paddle, hammer)),
            _ => None,
        }
    }

    /// Whether the lot is still taking bids.
    pub fn is_open(&self) -> bool {
        self.status == LotStatus::Open
    }

    /// The leading amount, 0 without bids.
    pub fn top_amount(&self) -> u64 {
        self.top_bid.map_or(0, |bid| bid.amount)
    }
}

/// A registered bidder.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Bidder {
    /// The paddle number the desk handed out.
    pub paddle: u32,
    /// Their name.
    pub name: String,
    /// Their country (ISO code): VAT and shipping depend on it.
    pub country: String,
    /// The most they may have committed at once (won and leading), in euros.
    pub credit_limit: u64,
    /// The card on file.
    #[serde(skip)]
    pub card: String,
}

/// A commission bid left with the auctioneer: bid for `paddle` on `lot` up to `max`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct AbsenteeBid {
    /// The lot.
    pub lot: u32,
    /// The bidder.
    pub paddle: u32,
    /// The most they will pay, in euros.
    pub max: u64,
    /// The order bids were left in (the earlier wins a tie).
    pub left: u32,
}

/// The whole sale day.
#[derive(Clone, Debug, PartialEq)]
pub struct Sale {
    /// The lots, in catalogue order.
    pub lots: Vec<Lot>,
    /// The registered bidders, in paddle order.
    pub bidders: Vec<Bidder>,
    /// The absentee book.
    pub book: Vec<AbsenteeBid>,
    /// The time, in minutes after midnight.
    pub clock: u32,
    /// The next paddle number to hand out.
    pub next_paddle: u32,
    /// What the clerk wrote down: refusals, extensions, lots knocked down.
    pub notices: Vec<String>,
}

impl Default for Sale {
    fn default() -> Self {
        Sale {
            lots: Vec::new(),
            bidders: Vec::new(),
            book: Vec::new(),
            clock: terms::OPENS_AT,
            next_paddle: terms::FIRST_PADDLE,
            notices: Vec::new(),
        }
    }
}

impl Sale {
    /// The lot numbered `number`.
    pub fn lot(&self, number: u32) -> Option<&Lot> {
        self.lots.iter().find(|lot| lot.number == number)
    }

    /// The lot numbered `number`, to change.
    pub fn lot_mut(&mut self, number: u32) -> Option<&mut Lot> {
        self.lots.iter_mut().find(|lot| lot.number == number)
    }

    /// The bidder holding `paddle`.
    pub fn bidder(&self, paddle: u32) -> Option<&Bidder> {
        self.bidders.iter().find(|bidder| bidder.paddle == paddle)
    }

    /// Writes a line in the clerk's book, stamped with the time.
    pub fn note(&mut self, text: impl AsRef<str>) {
        let line = format!("{} {}", clock_text(self.clock), text.as_ref());
        self.notices.push(line);
    }
}

/// A buyer's invoice: the lots they won, the hammer prices, the premium and the VAT on it, in cents.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Invoice {
    /// The buyer's paddle.
    pub paddle: u32,
    /// The buyer's name.
    pub buyer: String,
    /// Where the buyer lives.
    pub country: String,
    /// The card on file.
    #[serde(skip)]
    pub card: String,
    /// The lots won, in catalogue order.
    pub lots: Vec<u32>,
    /// Their packed weight, in grams.
    #[serde(skip)]
    pub grams: u64,
    /// The hammer prices.
    pub hammer: u64,
    /// The buyer's premium.
    pub premium: u64,
    /// VAT on the premium.
    pub vat: u64,
    /// What the buyer owes.
    pub total: u64,
}

impl Invoice {
    /// An empty invoice for `bidder`.
    pub fn for_bidder(bidder: &Bidder) -> Self {
        Invoice {
            paddle: bidder.paddle,
            buyer: bidder.name.clone(),
            country: bidder.country.clone(),
            card: bidder.card.clone(),
            lots: Vec::new(),
            grams: 0,
            hammer: 0,
            premium: 0,
            vat: 0,
            total: 0,
        }
    }
}

/// What a consignor is owed: their lots sold, the hammer prices, less commission and fees, in cents.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Settlement {
    /// The consignor.
    pub consignor: String,
    /// Lots sold.
    pub sold: u32,
    /// Their hammer prices.
    pub hammer: u64,
    /// The seller's commission.
    pub commission: u64,
    /// Fees for lots bought in or withdrawn.
    pub fees: u64,
    /// What the house pays (negative: what the consignor owes).
    pub net: i64,
}

/// What the rostrum and the desk send.
#[derive(Clone, Debug, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Enters a lot in the sale (the catalogue is consigned when the sale opens).
    Consign {
        /// What it is.
        title: String,
        /// Who consigns it.
        consignor: String,
        /// The reserve, in euros.
        reserve: u64,
        /// The low estimate, in euros.
        low: u64,
        /// The high estimate, in euros.
        high: u64,
        /// For a timed lot, when it closes (minutes after midnight).
        closes_at: Option<u32>,
        /// Its packed weight, in grams.
        grams: u64,
    },
    /// Registers a bidder: they get the next paddle.
    Register {
        /// Their name.
        name: String,
        /// Their country (ISO code).
        country: String,
        /// Their credit limit, in euros.
        credit_limit: u64,
        /// The card on file.
        card: String,
    },
    /// Leaves an absentee bid with the auctioneer.
    LeaveBid {
        /// The bidder.
        paddle: u32,
        /// The lot.
        lot: u32,
        /// The most they will pay, in euros.
        max: u64,
    },
    /// The auctioneer opens a live lot.
    Open {
        /// The lot.
        lot: u32,
    },
    /// A bid from the room, the phones or online.
    Bid {
        /// The bidder.
        paddle: u32,
        /// The lot.
        lot: u32,
        /// The amount, in euros.
        amount: u64,
    },
    /// The hammer falls on a live lot.
    Hammer {
        /// The lot.
        lot: u32,
    },
    /// The consignor takes a lot out of the sale.
    Withdraw {
        /// The lot.
        lot: u32,
    },
    /// The clock moves on.
    Tick {
        /// Minutes.
        minutes: u32,
    },
    /// The auctioneer bids from the book (a command after a lot opens or takes a bid).
    #[message(skip)]
    ExecuteBook {
        /// The lot.
        lot: u32,
    },
    /// A timed lot's time is up (a command of `tick`).
    #[message(skip)]
    Close {
        /// The lot.
        lot: u32,
    },
}

/// `10:05` for 605.
pub fn clock_text(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// Whole euros with thousands separated: `2,500`.
pub fn euros(amount: u64) -> String {
    let digits = amount.to_string();
    let mut out = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Cents as euros and cents: `2,500.00`.
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", euros(cents / 100), cents % 100)
}
