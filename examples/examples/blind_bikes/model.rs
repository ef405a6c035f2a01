//! The shop's model: the bikes on the floor, the day's rentals, the ledger and the notices, the rates, and the
//! messages the counter takes.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The shop opens at 09:00; the clock counts minutes from then.
pub const OPENING: u32 = 9 * 60;

/// Where a bike is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum BikeState {
    /// On the floor, ready to go out.
    Ready,
    /// Out with a customer.
    Out,
    /// Found damaged: off the floor until repaired.
    Damaged,
    /// In the workshop for its service.
    InService,
}

/// One bike of the fleet.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Bike {
    /// The number painted on the frame ("b1", "e2").
    pub id: String,
    /// `city`, `ebike` or `kids`.
    pub kind: String,
    /// Kilometres ridden since its last service.
    pub km: u32,
    /// Kilometres ridden today.
    pub km_today: u32,
    /// Where it is.
    pub state: BikeState,
}

/// One rental.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Rental {
    /// The rental's number, from 1 in the order made.
    pub id: u32,
    /// The bike.
    pub bike: String,
    /// Who has it.
    pub customer: String,
    /// A club member (the member price).
    pub member: bool,
    /// When it went out, in minutes after opening.
    pub start: u32,
    /// How many hours the customer said they would keep it.
    pub hours: u32,
    /// When it came back.
    pub returned: Option<u32>,
}

impl Rental {
    /// When the bike is due back, in minutes after opening.
    pub fn due(&self) -> u32 {
        self.start + self.hours * 60
    }

    /// Still out.
    pub fn is_open(&self) -> bool {
        self.returned.is_none()
    }
}

/// A line of the ledger.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Charge {
    /// The rental charged.
    pub rental: u32,
    /// `ride` or `late`.
    pub what: String,
    /// How much, in cents.
    pub cents: u64,
}

/// The price list.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Rates {
    /// A city bike, per started hour, in cents.
    pub city: u64,
    /// A kids' bike, per started hour.
    pub kids: u64,
    /// An e-bike, per started hour.
    pub ebike: u64,
    /// No ride is charged more hours than this (the day price).
    pub day_cap_hours: u64,
    /// Minutes a bike may come back late without a fee.
    pub grace: u32,
    /// The late fee per started 15 minutes past the due time, once past the grace.
    pub late_per_15: u64,
    /// What club members save on the ride, percent.
    pub member_percent: u64,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            city: 800,
            kids: 500,
            ebike: 1_500,
            day_cap_hours: 6,
            grace: 15,
            late_per_15: 300,
            member_percent: 10,
        }
    }
}

/// The shop: the model the counter's messages change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Shop {
    /// Minutes since opening.
    pub minute: u32,
    /// The fleet, in the order it was stocked.
    pub bikes: Vec<Bike>,
    /// Today's rentals, in the order made.
    pub rentals: Vec<Rental>,
    /// The number the next rental gets.
    pub next_rental: u32,
    /// What was charged today.
    pub ledger: Vec<Charge>,
    /// What the counter was told.
    pub notices: Vec<String>,
    /// The price list.
    pub rates: Rates,
}

impl Default for Shop {
    fn default() -> Self {
        Shop {
            minute: 0,
            bikes: Vec::new(),
            rentals: Vec::new(),
            next_rental: 1,
            ledger: Vec::new(),
            notices: Vec::new(),
            rates: Rates::default(),
        }
    }
}

impl Shop {
    /// The bike numbered `id`.
    pub fn bike(&self, id: &str) -> Option<&Bike> {
        self.bikes.iter().find(|b| b.id == id)
    }

    /// The bike numbered `id`, to change.
    pub fn bike_mut(&mut self, id: &str) -> Option<&mut Bike> {
        self.bikes.iter_mut().find(|b| b.id == id)
    }

    /// The rentals still out.
    pub fn open_rentals(&self) -> Vec<Rental> {
        self.rentals
            .iter()
            .filter(|r| r.is_open())
            .cloned()
            .collect()
    }
}

/// `minute` (after opening) as a time of day, `09:30`.
pub fn clock(minute: u32) -> String {
    let at = OPENING + minute;
    format!("{:02}:{:02}", at / 60, at % 60)
}

/// What the counter takes.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Hands `bike` to `customer` for `hours` hours, paid when it comes back; a club member gets the member price.
    Rent {
        /// The bike's number.
        bike: String,
        /// Who takes it.
        customer: String,
        /// A club member.
        member: bool,
        /// How many hours they mean to keep it.
        #[message(range(min = 1, max = 12))]
        hours: u32,
    },
    /// Takes back the bike of `rental`, ridden `km` kilometres: charges the ride, and a late fee past the grace.
    ReturnBike {
        /// The rental's number.
        rental: u32,
        /// Kilometres ridden.
        km: u32,
    },
    /// The customer of `rental` phoned: they keep the bike `hours` hours more.
    Extend {
        /// The rental's number.
        rental: u32,
        /// How many hours more.
        #[message(range(min = 1, max = 12))]
        hours: u32,
    },
    /// A bike on the floor was found damaged: it stays off the floor until repaired.
    Damage {
        /// The bike's number.
        bike: String,
    },
    /// A bike is back from the workshop, repaired and serviced: its kilometres since service start again.
    Repair {
        /// The bike's number.
        bike: String,
    },
    /// The clock moves on `minutes` minutes.
    Advance {
        /// Minutes.
        minutes: u32,
    },
    /// A bike joins the fleet (sent by the shop itself when it opens).
    #[message(skip)]
    Stock {
        /// The bike's number.
        bike: String,
        /// Its kind.
        kind: String,
        /// Kilometres since its last service.
        km: u32,
    },
    /// Charges a rental (sent by the counter itself).
    #[message(skip)]
    Charge {
        /// The rental.
        rental: u32,
        /// What for.
        what: String,
        /// Cents.
        cents: u64,
    },
    /// Tells the counter `text` (sent by the counter itself).
    #[message(skip)]
    Notify {
        /// What to tell.
        text: String,
    },
    /// Sends a bike to the workshop for its service (sent by the counter itself).
    #[message(skip)]
    ToService {
        /// The bike's number.
        bike: String,
    },
}

/// The shop as it opens, with a mistake in its `Default`.
pub mod slipped {
    use super::{Rates, Shop};

    /// The shop with the price list below.
    pub struct OpeningShop(pub Shop);

    impl Default for OpeningShop {
        fn default() -> Self {
            OpeningShop(Shop {
                rates: OpeningRates::default().0,
                ..Shop::default()
            })
        }
    }

    /// The price list, written out again.
    pub struct OpeningRates(pub Rates);

    impl Default for OpeningRates {
        fn default() -> Self {
            OpeningRates(Rates {
                city: 800,
                // BUG(kids_rate)
                kids: 800,
                ebike: 1_500,
                day_cap_hours: 6,
                grace: 15,
                late_per_15: 300,
                member_percent: 10,
            })
        }
    }
}
