//! The front desk's model: the rooms, the stays, the folio and the notices, the rates, and the messages the desk
//! takes.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The desk opens on day 4. Day 0 is a Monday, so day 4 is a Friday; a day's night is the night that follows it.
pub const OPENING_DAY: u32 = 4;

/// The currency the hotel charges in.
pub const HOME_CURRENCY: &str = "EUR";

/// Where a room stands for housekeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Status {
    /// Clean and free.
    Vacant,
    /// A guest is in it.
    Occupied,
    /// A guest left it; it needs cleaning before it is sold again.
    Dirty,
}

/// One room.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Room {
    /// The room's number (its floor is the first digit).
    pub number: u32,
    /// "single", "double" or "suite".
    pub kind: String,
    /// The floor.
    pub floor: u32,
    /// Beds to make.
    pub beds: u32,
    /// The rate per night, in cents.
    pub rate: u64,
    /// Where it stands.
    pub status: Status,
    /// Taken out of service by maintenance.
    pub out_of_order: bool,
}

/// One stay: a reservation, then a guest in a room.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Stay {
    /// The stay's number, from 1 in the order reserved.
    pub id: u32,
    /// The guest's name.
    pub guest: String,
    /// The kind of room reserved.
    pub kind: String,
    /// The day the guest arrives.
    pub arrival: u32,
    /// Nights reserved.
    pub nights: u32,
    /// Adults.
    pub adults: u32,
    /// Children.
    pub children: u32,
    /// Breakfast included.
    pub breakfast: bool,
    /// The currency the guest pays in at home.
    pub currency: String,
    /// The room, once checked in.
    pub room: Option<u32>,
    /// Checked in.
    pub checked_in: bool,
    /// Checked out.
    pub checked_out: bool,
    /// When the desk last wrote to it, as a day (bookkeeping only).
    pub touched: u32,
}

/// Two stays are the same when the guest and the stay are; when the desk last wrote to them does not count.
impl PartialEq for Stay {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.guest == other.guest
            && self.kind == other.kind
            && self.arrival == other.arrival
            && self.nights == other.nights
            && self.adults == other.adults
            && self.children == other.children
            && self.breakfast == other.breakfast
            && self.currency == other.currency
            && self.room == other.room
            && self.checked_in == other.checked_in
            && self.checked_out == other.checked_out
    }
}

impl Stay {
    /// Guests in the room.
    pub fn guests(&self) -> u32 {
        self.adults + self.children
    }

    /// In the hotel now.
    pub fn in_house(&self) -> bool {
        self.checked_in && !self.checked_out
    }
}

/// A line of the folio: something charged to a stay.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Posting {
    /// The stay.
    pub stay: u32,
    /// What for.
    pub what: String,
    /// Cents.
    pub cents: u64,
}

/// The rates besides each room's own.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Rates {
    /// Added to a room's rate for a Friday or Saturday night, in cents.
    pub weekend_surcharge: u64,
    /// Breakfast, per guest and night, in cents.
    pub breakfast: u64,
    /// The city's tax, per adult and night, in cents (children pay none).
    pub city_tax: u64,
    /// A late check-out, in cents.
    pub late_fee: u64,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            weekend_surcharge: 2_000,
            breakfast: 1_500,
            city_tax: 250,
            late_fee: 3_000,
        }
    }
}

/// The front desk: the model its messages change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Hotel {
    /// Today.
    pub day: u32,
    /// The rooms, in the order opened.
    pub rooms: Vec<Room>,
    /// The stays, in the order reserved.
    pub stays: Vec<Stay>,
    /// The number the next stay gets.
    pub next_stay: u32,
    /// Everything charged.
    pub folio: Vec<Posting>,
    /// What the desk was told.
    pub notices: Vec<String>,
    /// The rates.
    pub rates: Rates,
}

impl Default for Hotel {
    fn default() -> Self {
        Hotel {
            day: OPENING_DAY,
            rooms: Vec::new(),
            stays: Vec::new(),
            next_stay: 1,
            folio: Vec::new(),
            notices: Vec::new(),
            rates: Rates::default(),
        }
    }
}

impl Hotel {
    /// The stay `id`.
    pub fn stay(&self, id: u32) -> Option<&Stay> {
        self.stays.iter().find(|s| s.id == id)
    }

    /// The room `number`, to change.
    pub fn room_mut(&mut self, number: u32) -> Option<&mut Room> {
        self.rooms.iter_mut().find(|r| r.number == number)
    }

    /// What stay `id` was charged.
    pub fn bill(&self, id: u32) -> u64 {
        self.folio
            .iter()
            .filter(|p| p.stay == id)
            .map(|p| p.cents)
            .sum()
    }
}

/// A day as `Fri 4`.
pub fn weekday(day: u32) -> String {
    const NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    format!("{} {day}", NAMES[(day % 7) as usize])
}

/// Cents as `12.50`.
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// What the front desk takes.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Reserves a room of `kind` ("single", "double", "suite") for `nights` nights from day `arrival`.
    Reserve {
        /// The guest's name.
        guest: String,
        /// The kind of room.
        kind: String,
        /// The day the guest arrives.
        arrival: u32,
        /// Nights.
        #[message(range(min = 1, max = 30))]
        nights: u32,
        /// Adults.
        #[message(range(min = 1, max = 4))]
        adults: u32,
        /// Children.
        #[message(range(min = 0, max = 4))]
        children: u32,
        /// Breakfast included.
        breakfast: bool,
        /// The currency the guest pays in at home ("EUR", "USD", "GBP").
        currency: String,
    },
    /// Checks in stay `stay`: a clean room of its kind is given.
    CheckIn {
        /// The stay's number.
        stay: u32,
    },
    /// The night audit: each guest in the hotel is charged tonight's night, and the day moves on.
    NightAudit,
    /// Checks out stay `stay`: the city tax is charged (and a late check-out), and the room goes to housekeeping.
    CheckOut {
        /// The stay's number.
        stay: u32,
        /// Leaving after noon.
        late: bool,
    },
    /// Charges the minibar to stay `stay`.
    Minibar {
        /// The stay's number.
        stay: u32,
        /// Cents.
        #[message(range(min = 1, max = 100000))]
        cents: u64,
    },
    /// Housekeeping has cleaned room `room`.
    Cleaned {
        /// The room's number.
        room: u32,
    },
    /// Maintenance takes room `room` out of service, or gives it back.
    OutOfOrder {
        /// The room's number.
        room: u32,
        /// Out of service.
        out: bool,
    },
    /// A room opens for sale (sent by the desk itself when it opens).
    #[message(skip)]
    OpenRoom {
        /// The room's number.
        number: u32,
        /// Its kind.
        kind: String,
        /// Beds.
        beds: u32,
        /// The rate per night, cents.
        rate: u64,
    },
    /// Something charged to a stay (sent by the desk itself).
    #[message(skip)]
    Post {
        /// The stay.
        stay: u32,
        /// What for.
        what: String,
        /// Cents.
        cents: u64,
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
    use super::Rates;

    /// The rates as the desk's first tariff sheet had them.
    #[derive(Clone, Debug)]
    pub struct Tariff(pub Rates);

    impl Default for Tariff {
        fn default() -> Self {
            Tariff(Rates {
                weekend_surcharge: 2_000,
                // BUG(breakfast_unit)
                breakfast: 15,
                city_tax: 250,
                late_fee: 3_000,
            })
        }
    }
}
