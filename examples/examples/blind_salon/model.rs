//! The salon's model: its stylists, bookings, retail shelf, gift vouchers, loyalty cards and till, and the messages
//! that change them. Money is in pence; days are numbered from 1 (a Monday), hours run 0–23.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The salon opens at 9 and takes its last appointment at 17, Monday to Saturday.
pub const OPENS: u32 = 9;
/// The last hour an appointment may start.
pub const LAST_START: u32 = 17;

/// A service on the price list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Service {
    Cut,
    Colour,
    BlowDry,
}

impl Service {
    /// The service a message names (`cut`, `colour`, `blow-dry`).
    pub fn parse(name: &str) -> Option<Service> {
        match name {
            "cut" => Some(Service::Cut),
            "colour" => Some(Service::Colour),
            "blow-dry" | "blowdry" => Some(Service::BlowDry),
            _ => None,
        }
    }

    /// Its name on the price list.
    pub fn name(self) -> &'static str {
        match self {
            Service::Cut => "cut",
            Service::Colour => "colour",
            Service::BlowDry => "blow-dry",
        }
    }
}

/// The client's hair length, which the price depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Length {
    Short,
    Medium,
    Long,
}

impl Length {
    /// The length a message names (`short`, `medium`, `long`).
    pub fn parse(name: &str) -> Option<Length> {
        match name {
            "short" => Some(Length::Short),
            "medium" => Some(Length::Medium),
            "long" => Some(Length::Long),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Length::Short => "short",
            Length::Medium => "medium",
            Length::Long => "long",
        }
    }
}

/// A stylist's level, which the price and the commission rate depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Level {
    Junior,
    Senior,
    Director,
}

impl Level {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Junior => "junior",
            Level::Senior => "senior",
            Level::Director => "director",
        }
    }
}

/// One of the salon's stylists.
#[derive(Clone, Debug, PartialEq)]
pub struct Stylist {
    pub name: String,
    pub level: Level,
}

/// Where a booking stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Status {
    Booked,
    Done,
    Cancelled,
    NoShow,
}

/// An appointment: the price is fixed when it is booked, and a deposit taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Booking {
    pub no: u32,
    pub client: String,
    pub stylist: String,
    pub service: Service,
    pub length: Length,
    pub day: u32,
    pub hour: u32,
    pub price: u32,
    pub deposit: u32,
    pub status: Status,
    /// Whether the deposit went back to the client (a cancellation 24 hours ahead or more).
    pub refunded: bool,
}

/// A product on the retail shelf.
#[derive(Clone, Debug, PartialEq)]
pub struct Product {
    pub name: String,
    pub stock: u32,
    /// At or below this, it is time to reorder.
    pub reorder_point: u32,
    /// How many to order.
    pub reorder_qty: u32,
    /// The shelf price, VAT included.
    pub price: u32,
}

/// A gift voucher: what is left on it, and its last valid day.
#[derive(Clone, Debug, PartialEq)]
pub struct Voucher {
    pub code: String,
    pub value: u32,
    pub balance: u32,
    pub expires: u32,
}

impl Voucher {
    /// Whether the voucher can still pay for something on `today`: money left, and not past its last day.
    #[ranvier::trace_fn]
    pub fn usable(&self, today: u32) -> bool {
        self.balance > 0 && today <= self.expires
    }
}

/// What a line of the till was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaleKind {
    Deposit,
    Service,
    Retail,
    NoShowFee,
    Voucher,
    Refund,
}

/// A line of the till: `gross` is what changed hands, VAT included (a refund is money paid out).
#[derive(Clone, Debug, PartialEq)]
pub struct Sale {
    pub day: u32,
    pub kind: SaleKind,
    pub stylist: String,
    pub gross: u32,
}

/// A day's tips paid to one stylist.
#[derive(Clone, Debug, PartialEq)]
pub struct TipShare {
    pub day: u32,
    pub stylist: String,
    pub pence: u32,
}

/// The salon.
#[derive(Clone, Debug, PartialEq)]
pub struct Salon {
    pub today: u32,
    pub hour: u32,
    pub stylists: Vec<Stylist>,
    pub bookings: Vec<Booking>,
    pub products: Vec<Product>,
    pub vouchers: Vec<Voucher>,
    /// Each client's loyalty points.
    pub loyalty: Vec<(String, u32)>,
    pub sales: Vec<Sale>,
    /// The tips in the jar today, split at closing.
    pub tips_today: u32,
    pub tip_shares: Vec<TipShare>,
    pub notices: Vec<String>,
    pub next_no: u32,
}

impl Default for Salon {
    /// The salon on its first morning: three stylists and a stocked shelf.
    fn default() -> Self {
        let stylist = |name: &str, level| Stylist {
            name: name.to_owned(),
            level,
        };
        let product = |name: &str, stock, reorder_point, reorder_qty, price| Product {
            name: name.to_owned(),
            stock,
            reorder_point,
            reorder_qty,
            price,
        };
        Salon {
            today: 1,
            hour: OPENS,
            stylists: vec![
                stylist("Kim", Level::Senior),
                stylist("Sam", Level::Junior),
                stylist("Ros", Level::Director),
            ],
            bookings: Vec::new(),
            products: vec![
                product("shampoo", 10, 4, 12, 1450),
                product("conditioner", 8, 4, 12, 1600),
                product("serum", 3, 2, 6, 2400),
                product("spray", 6, 3, 10, 1200),
            ],
            vouchers: Vec::new(),
            loyalty: Vec::new(),
            sales: Vec::new(),
            tips_today: 0,
            tip_shares: Vec::new(),
            notices: Vec::new(),
            next_no: 1,
        }
    }
}

impl Salon {
    /// The stylist called `name`.
    pub fn stylist(&self, name: &str) -> Option<&Stylist> {
        self.stylists.iter().find(|s| s.name == name)
    }

    /// Day `day`'s lines of the till.
    pub fn sales_on(&self, day: u32) -> impl Iterator<Item = &Sale> {
        self.sales.iter().filter(move |s| s.day == day)
    }
}

/// What the front desk (or an agent) may do.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Books `client` with `stylist` for a `service` (`cut`, `colour`, `blow-dry`) on hair of `length` (`short`,
    /// `medium`, `long`) on `day` at `hour`; the deposit is taken now.
    Book {
        client: String,
        stylist: String,
        service: String,
        length: String,
        day: u32,
        hour: u32,
    },
    /// Cancels booking `booking`: free up to 24 hours before, otherwise the deposit is kept.
    Cancel { booking: u32 },
    /// The appointment `booking` is done and paid, with what is left on gift voucher `voucher` first if given.
    Finish {
        booking: u32,
        voucher: Option<String>,
    },
    /// The client of `booking` did not come: the no-show fee is charged.
    NoShow { booking: u32 },
    /// Sells `qty` of `product`, the sale credited to `stylist`.
    Sell {
        product: String,
        qty: u32,
        stylist: String,
    },
    /// A tip of `pence` into today's jar.
    Tip { pence: u32 },
    /// Sells a gift voucher `code` worth `pounds`, valid for a year.
    SellVoucher { code: String, pounds: u32 },
    /// Sets the clock to `hour` today.
    At { hour: u32 },
    /// Closes today (the tips are split) and opens `days` days later.
    Advance { days: u32 },
    /// Adds the points `pence` earns to `client`'s card.
    #[message(skip)]
    Award { client: String, pence: u32 },
    /// Checks whether `product` needs reordering.
    #[message(skip)]
    CheckStock { product: String },
}

/// `pence` as pounds: `£12.50`.
pub fn pounds(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// A signed sum of pence as pounds: `-£3.00` when money went out.
pub fn signed(pence: i64) -> String {
    let pounds = pounds(u32::try_from(pence.unsigned_abs()).unwrap_or(u32::MAX));
    if pence < 0 {
        format!("-{pounds}")
    } else {
        pounds
    }
}

/// The weekday of `day`, from 0 (Monday) to 6 (Sunday).
pub fn weekday(day: u32) -> u32 {
    (day + 6) % 7
}

/// The short name of `day`'s weekday.
pub fn weekday_name(day: u32) -> &'static str {
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][weekday(day) as usize]
}

/// The Monday of `day`'s week.
pub fn monday_of(day: u32) -> u32 {
    day - weekday(day)
}

pub mod slipped {
    use super::Voucher;

    /// [`Voucher::usable`], with the mistake.
    #[ranvier::trace_fn]
    pub fn usable(voucher: &Voucher, today: u32) -> bool {
        // BUG(voucher_expiry)
        voucher.balance > 0 && today < voucher.expires
    }
}
