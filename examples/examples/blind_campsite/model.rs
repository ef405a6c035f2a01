//! The campsite's model: its pitches, bookings, shop stock, till and ledger, the messages that change them, and the
//! small methods the rest of the app asks of them.

use std::fmt;

use ranvier::Messages;
use ranvier::serde::Serialize;

/// What a pitch is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub enum Kind {
    /// Grass, for a tent.
    Tent,
    /// A grass pitch big enough for a caravan or a motorhome.
    Caravan,
    /// A gravel pitch with an electric hook-up (metered).
    Hardstanding,
}

impl Kind {
    /// The order the warden cleans in: hardstandings first (their guests come with hook-ups), tents last.
    pub fn cleaning_rank(self) -> u8 {
        match self {
            Kind::Hardstanding => 0,
            Kind::Caravan => 1,
            Kind::Tent => 2,
        }
    }
}

/// The price band a night falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Season {
    /// Spring and autumn.
    Low,
    /// Early summer and September.
    High,
    /// The school holidays.
    Peak,
}

impl Season {
    /// The season's name on the board.
    pub fn name(self) -> &'static str {
        match self {
            Season::Low => "low",
            Season::High => "high",
            Season::Peak => "peak",
        }
    }
}

/// The party staying on a pitch tonight.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Party {
    /// Their booking.
    pub booking: u32,
    /// The name the booking is under.
    pub name: String,
    /// Adults (12 and over).
    pub adults: u32,
    /// Children.
    pub children: u32,
    /// Dogs.
    pub dogs: u32,
    /// The day they leave.
    pub leaves: u32,
}

/// Whether two pitches are the same to the warden ([`Pitch::same_as`]).
pub type SameAs = fn(&Pitch, &Pitch) -> bool;

/// One pitch of the field (a row of the `pitches` collection, keyed by `id`).
#[derive(Clone, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Pitch {
    /// `T1`, `C2`, `H3`...
    #[serde(skip)]
    pub id: String,
    /// What it is for.
    pub kind: Kind,
    /// Whether it has an electric hook-up.
    pub hookup: bool,
    /// Most people it takes.
    pub max_guests: u32,
    /// Who is on it tonight.
    pub party: Option<Party>,
    /// Left by its last party and not cleaned since.
    pub to_clean: bool,
    /// The day it was last cleaned (a record for the office).
    pub cleaned_on: Option<u32>,
    /// How it compares with another pitch: [`Pitch::same_as`] (the blind test starts a campsite with another version
    /// of it).
    #[serde(skip)]
    pub same: SameAs,
}

/// A pitch compares by its `same`.
impl PartialEq for Pitch {
    fn eq(&self, other: &Self) -> bool {
        (self.same)(self, other)
    }
}

/// `Debug` as derived, without `same` (a fn's address).
impl fmt::Debug for Pitch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pitch")
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("hookup", &self.hookup)
            .field("max_guests", &self.max_guests)
            .field("party", &self.party)
            .field("to_clean", &self.to_clean)
            .field("cleaned_on", &self.cleaned_on)
            .finish()
    }
}

impl Pitch {
    fn new(id: &str, kind: Kind, max_guests: u32, same: SameAs) -> Pitch {
        Pitch {
            id: id.to_owned(),
            kind,
            hookup: kind == Kind::Hardstanding,
            max_guests,
            party: None,
            to_clean: false,
            cleaned_on: None,
            same,
        }
    }

    /// Pitches differ by what the warden sees: the day one was last cleaned is a record, not a change of the pitch.
    pub fn same_as(&self, other: &Pitch) -> bool {
        self.id == other.id
            && self.kind == other.kind
            && self.hookup == other.hookup
            && self.max_guests == other.max_guests
            && self.party == other.party
            && self.to_clean == other.to_clean
    }
}

/// Where a booking stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stay {
    /// Paid, not arrived yet.
    Booked,
    /// On site.
    Arrived,
    /// Gone.
    Departed,
    /// Called off before arriving.
    Cancelled,
}

/// A booking of a pitch, paid in full when made.
#[derive(Clone, Debug, PartialEq)]
pub struct Booking {
    /// Its number, from 1.
    pub id: u32,
    /// The pitch booked.
    pub pitch: String,
    /// The name it is under.
    pub name: String,
    /// The day it was made.
    pub booked_on: u32,
    /// The day they arrive.
    pub arrive: u32,
    /// How many nights.
    pub nights: u32,
    /// Adults.
    pub adults: u32,
    /// Children.
    pub children: u32,
    /// Dogs.
    pub dogs: u32,
    /// Where it stands.
    pub status: Stay,
    /// What was paid for the stay, in pence.
    pub paid: u64,
    /// The hook-up meter at arrival.
    pub meter_in: Option<u32>,
    /// The hook-up meter at departure.
    pub meter_out: Option<u32>,
    /// The late checkout fee charged, in pence.
    pub late_fee: u64,
    /// What was refunded on cancelling, in pence.
    pub refund: u64,
}

impl Booking {
    /// The day they leave.
    pub fn leaves(&self) -> u32 {
        self.arrive + self.nights
    }

    /// Everyone in the party.
    pub fn guests(&self) -> u32 {
        self.adults + self.children
    }

    /// Whether the booking holds its pitch on the night starting `day`.
    pub fn holds(&self, day: u32) -> bool {
        matches!(self.status, Stay::Booked | Stay::Arrived)
            && self.arrive <= day
            && day < self.leaves()
    }
}

/// Units of electricity between two readings of a meter.
pub fn units_between(first: u32, last: u32) -> u32 {
    last.saturating_sub(first)
}

/// A line of the shop's stock.
#[derive(Clone, Debug, PartialEq)]
pub struct Stock {
    /// What it is (`shower token`, `milk`...).
    pub item: String,
    /// How many are left.
    pub left: u32,
}

/// A sale rung up at the shop's till.
#[derive(Clone, Debug, PartialEq)]
pub struct Sale {
    /// The day of the sale.
    pub day: u32,
    /// What was sold.
    pub item: String,
    /// How many.
    pub qty: u32,
    /// What it came to, in pence.
    pub amount: u64,
}

/// What money came in (or went out) for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// A stay paid at booking.
    Pitch,
    /// The shop's till, banked at the end of the day.
    Shop,
    /// A late checkout.
    LateFee,
    /// Money paid back on a cancellation.
    Refund,
}

/// A line of the ledger: every payment taken or made, by card.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The day.
    pub day: u32,
    /// What for.
    pub what: Takes,
    /// How much, in pence (a refund is paid out).
    pub amount: u64,
}

/// The campsite: the model of its `Mvu`.
#[derive(Clone, Debug, PartialEq)]
pub struct Campsite {
    /// Today, as a day of the year (1 is the 1st of January).
    pub today: u32,
    /// The number the next booking gets.
    pub next_booking: u32,
    /// The field, in the order of the site map.
    pub pitches: Vec<Pitch>,
    /// Every booking, in the order made.
    pub bookings: Vec<Booking>,
    /// The shop's stock.
    pub stock: Vec<Stock>,
    /// Today's sales, not banked yet.
    pub till: Vec<Sale>,
    /// Every payment banked.
    pub ledger: Vec<Entry>,
}

impl Campsite {
    /// The site on the 13th of July: eight empty pitches (compared by `same`) and a stocked shop.
    pub fn opening(same: SameAs) -> Self {
        Campsite {
            today: 194,
            next_booking: 1,
            pitches: vec![
                Pitch::new("T1", Kind::Tent, 4, same),
                Pitch::new("T2", Kind::Tent, 4, same),
                Pitch::new("T3", Kind::Tent, 6, same),
                Pitch::new("C1", Kind::Caravan, 6, same),
                Pitch::new("C2", Kind::Caravan, 6, same),
                Pitch::new("H1", Kind::Hardstanding, 6, same),
                Pitch::new("H2", Kind::Hardstanding, 6, same),
                Pitch::new("H3", Kind::Hardstanding, 8, same),
            ],
            bookings: Vec::new(),
            stock: [
                ("shower token", 40),
                ("milk", 12),
                ("firewood", 10),
                ("gas", 4),
                ("ice", 20),
            ]
            .into_iter()
            .map(|(item, left)| Stock {
                item: item.to_owned(),
                left,
            })
            .collect(),
            till: Vec::new(),
            ledger: Vec::new(),
        }
    }

    /// The pitch `id`.
    pub fn pitch(&self, id: &str) -> Option<&Pitch> {
        self.pitches.iter().find(|pitch| pitch.id == id)
    }

    /// The pitch `id`, to change.
    pub fn pitch_mut(&mut self, id: &str) -> Option<&mut Pitch> {
        self.pitches.iter_mut().find(|pitch| pitch.id == id)
    }

    /// Booking number `id`, to change.
    pub fn booking_mut(&mut self, id: u32) -> Option<&mut Booking> {
        self.bookings.iter_mut().find(|booking| booking.id == id)
    }

    /// The stock line of `item`, to change.
    pub fn stock_mut(&mut self, item: &str) -> Option<&mut Stock> {
        self.stock.iter_mut().find(|stock| stock.item == item)
    }
}

/// Pence as the office writes money: `£4.83`, or `50p` under a pound.
pub fn money(pence: u64) -> String {
    if pence < 100 && pence > 0 {
        format!("{pence}p")
    } else {
        format!("£{}.{:02}", pence / 100, pence % 100)
    }
}

/// A net amount of pence as money, `-£5.00` when more went out than came in.
pub fn signed(pence: i64) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    format!("{sign}{}", money(pence.unsigned_abs()))
}

/// What an agent may send the campsite.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Books `pitch` for `nights` nights from day `arrive` (a day of the year), paid in full now.
    Book {
        /// The pitch: `T1`–`T3` (tents), `C1`, `C2` (caravans), `H1`–`H3` (hardstanding with hook-up).
        pitch: String,
        /// The name the booking is under.
        name: String,
        /// The day they arrive, today or later.
        #[message(range(min = 1, max = 366))]
        arrive: u32,
        /// How many nights.
        #[message(range(min = 1, max = 28))]
        nights: u32,
        /// Adults (12 and over).
        #[message(range(min = 1, max = 8))]
        adults: u32,
        /// Children.
        #[message(range(min = 0, max = 8))]
        children: u32,
        /// Dogs.
        #[message(range(min = 0, max = 2))]
        dogs: u32,
    },
    /// Booking `booking` has arrived (today is its arrival day); `meter` is the hook-up meter's reading, for a
    /// hardstanding.
    Arrive {
        /// The booking's number.
        booking: u32,
        /// The hook-up meter, in units.
        meter: Option<u32>,
    },
    /// Booking `booking` has left; `meter` is the hook-up meter's reading, `late` a checkout after 11:00.
    Depart {
        /// The booking's number.
        booking: u32,
        /// The hook-up meter, in units.
        meter: Option<u32>,
        /// Left after 11:00 (a late checkout fee).
        late: Option<bool>,
    },
    /// Cancels booking `booking` before arrival, refunding by the notice given.
    Cancel {
        /// The booking's number.
        booking: u32,
    },
    /// The warden has cleaned `pitch`.
    Cleaned {
        /// The pitch.
        pitch: String,
    },
    /// The shop sells `qty` of `item` (`shower token`, `milk`, `firewood`, `gas`, `ice`).
    Sell {
        /// What.
        item: String,
        /// How many.
        #[message(range(min = 1))]
        qty: u32,
    },
    /// A delivery of `qty` of `item` for the shop.
    Restock {
        /// What.
        item: String,
        /// How many.
        #[message(range(min = 1))]
        qty: u32,
    },
    /// The night passes: tomorrow is today, and the till is banked.
    NextDay,
    /// A pitch its party left waits for the warden (sent by `depart`).
    #[message(skip)]
    MarkToClean {
        /// The pitch.
        pitch: String,
    },
    /// Banks the till's sales into the ledger (sent by `next_day`).
    #[message(skip)]
    CloseTill,
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::Pitch;

    /// [`Pitch::same_as`].
    pub fn same_as(pitch: &Pitch, other: &Pitch) -> bool {
        // BUG(pitch_eq)
        pitch.id == other.id
            && pitch.kind == other.kind
            && pitch.hookup == other.hookup
            && pitch.max_guests == other.max_guests
            && pitch.party == other.party
    }
}
