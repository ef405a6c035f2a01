//! The car-hire office's model: the fleet, the customers and their loyalty, the bookings from pick-up to return, the
//! damage reports and the payments, with the messages the desk sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The first day of the week the office opens on (day of the year).
pub const WEEK_STARTS: u32 = 100;

/// The branches cars are picked up from and returned to.
pub const BRANCHES: [&str; 2] = ["York", "Leeds"];

/// A full tank, in eighths.
pub const FULL: u32 = 8;

/// `£p.pp` of an amount in pence.
pub fn pounds(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// `£p.pp` or `-£p.pp` of a signed amount in pence.
pub fn signed_pounds(pence: i64) -> String {
    let text = pounds(u32::try_from(pence.unsigned_abs()).unwrap_or(u32::MAX));
    if pence < 0 { format!("-{text}") } else { text }
}

/// A car's hire class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Class {
    Economy,
    Compact,
    Estate,
    Van,
}

impl Class {
    /// `economy`, `compact`, `estate`, `van`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Economy => "economy",
            Class::Compact => "compact",
            Class::Estate => "estate",
            Class::Van => "van",
        }
    }

    pub fn parse(text: &str) -> Option<Class> {
        match text.trim().to_lowercase().as_str() {
            "economy" => Some(Class::Economy),
            "compact" => Some(Class::Compact),
            "estate" => Some(Class::Estate),
            "van" => Some(Class::Van),
            _ => None,
        }
    }

    /// The tank, in litres.
    pub fn tank(self) -> u32 {
        match self {
            Class::Economy => 40,
            Class::Compact => 48,
            Class::Estate => 64,
            Class::Van => 80,
        }
    }
}

/// What a car runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Fuel {
    Petrol,
    Diesel,
}

impl Fuel {
    pub fn name(self) -> &'static str {
        match self {
            Fuel::Petrol => "petrol",
            Fuel::Diesel => "diesel",
        }
    }
}

/// A car in the fleet.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Car {
    pub reg: String,
    pub class: Class,
    pub fuel: Fuel,
    pub odometer: u32,
    /// The odometer at the last service.
    pub serviced_km: u32,
    /// The branch the car stands at (or will be returned to).
    pub branch: String,
    /// The booking the car is out on.
    pub on_hire: Option<u32>,
}

/// Something added to a hire, charged by the day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Extra {
    Satnav,
    ChildSeat,
    SecondDriver,
    /// Brings the damage excess down to nothing.
    FullCover,
}

impl Extra {
    pub fn parse(text: &str) -> Option<Extra> {
        match text.trim().to_lowercase().replace(['-', '_'], " ").as_str() {
            "satnav" | "sat nav" | "gps" => Some(Extra::Satnav),
            "child seat" => Some(Extra::ChildSeat),
            "extra driver" => Some(Extra::SecondDriver),
            "full cover" => Some(Extra::FullCover),
            _ => None,
        }
    }
}

/// Where a booking stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Status {
    Booked,
    Out,
    Returned,
}

/// What a returned hire came to.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Invoice {
    pub days: u32,
    pub hire: u32,
    pub extras: u32,
    pub mileage: u32,
    pub fuel: u32,
    pub late: u32,
    pub one_way: u32,
    pub discount: u32,
    pub total: u32,
    /// What the deposit kept back for damage.
    pub kept: u32,
    pub refund: u32,
}

/// A booking, from the desk to the car's return.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Booking {
    pub no: u32,
    pub customer: String,
    pub class: Class,
    pub pickup_day: u32,
    pub return_day: u32,
    pub from: String,
    pub to: String,
    pub extras: Vec<Extra>,
    pub status: Status,
    pub car: Option<String>,
    pub deposit: u32,
    pub km_out: u32,
    pub km_in: Option<u32>,
    pub fuel_in: Option<u32>,
    pub returned_day: Option<u32>,
    pub invoice: Option<Invoice>,
}

impl Booking {
    /// The days charged: from pick-up to the day due back, and a same-day hire counts as one.
    pub fn hire_days(&self) -> u32 {
        self.return_day.saturating_sub(self.pickup_day).max(1)
    }

    /// Whether the booking has `extra`.
    pub fn has(&self, extra: Extra) -> bool {
        self.extras.contains(&extra)
    }

    /// The eighths of a tank the car came back short.
    pub fn fuel_short(&self) -> u32 {
        self.fuel_in.map_or(0, |fuel| FULL.saturating_sub(fuel))
    }
}

/// A customer, with the hires they have finished.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Customer {
    pub name: String,
    pub rentals: u32,
}

/// Damage found on a car during a hire.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct DamageReport {
    pub booking: u32,
    pub reg: String,
    pub part: String,
    pub cost: u32,
}

/// What a payment was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Paid {
    Deposit,
    Hire,
    Refund,
}

/// Money taken or given back at the desk.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Payment {
    pub day: u32,
    pub booking: u32,
    pub kind: Paid,
    pub pence: u32,
}

/// The office: the day, the fleet, the customers, the bookings, the damage reports, the payments and the notices.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Office {
    pub today: u32,
    pub cars: Vec<Car>,
    pub customers: Vec<Customer>,
    pub bookings: Vec<Booking>,
    pub damages: Vec<DamageReport>,
    pub payments: Vec<Payment>,
    pub notices: Vec<String>,
}

fn car(reg: &str, class: Class, fuel: Fuel, odometer: u32, serviced_km: u32, branch: &str) -> Car {
    Car {
        reg: reg.to_owned(),
        class,
        fuel,
        odometer,
        serviced_km,
        branch: branch.to_owned(),
        on_hire: None,
    }
}

impl Default for Office {
    /// The office as the week opens: seven cars at York and Leeds, three customers who have hired before.
    fn default() -> Self {
        Office {
            today: WEEK_STARTS,
            cars: vec![
                car(
                    "YK21 AAA",
                    Class::Economy,
                    Fuel::Petrol,
                    12_000,
                    10_000,
                    "York",
                ),
                car(
                    "YK21 BBB",
                    Class::Compact,
                    Fuel::Petrol,
                    31_500,
                    16_000,
                    "York",
                ),
                car("YK22 CCC", Class::Compact, Fuel::Diesel, 8_000, 0, "York"),
                car("YK22 GGG", Class::Compact, Fuel::Petrol, 14_000, 0, "York"),
                car(
                    "YK20 DDD",
                    Class::Compact,
                    Fuel::Petrol,
                    21_000,
                    12_000,
                    "Leeds",
                ),
                car(
                    "YK19 EEE",
                    Class::Estate,
                    Fuel::Diesel,
                    44_000,
                    40_000,
                    "York",
                ),
                car("YK23 FFF", Class::Van, Fuel::Diesel, 16_000, 15_000, "York"),
            ],
            customers: vec![
                Customer {
                    name: "Ada".to_owned(),
                    rentals: 4,
                },
                Customer {
                    name: "Ben".to_owned(),
                    rentals: 0,
                },
                Customer {
                    name: "Cy".to_owned(),
                    rentals: 11,
                },
            ],
            bookings: Vec::new(),
            damages: Vec::new(),
            payments: Vec::new(),
            notices: Vec::new(),
        }
    }
}

impl Office {
    /// Notes something the desk should know, with the day.
    pub fn note(&mut self, notice: impl Into<String>) {
        let notice = format!("day {}: {}", self.today, notice.into());
        self.notices.push(notice);
    }

    pub fn booking(&self, no: u32) -> Option<&Booking> {
        self.bookings.iter().find(|b| b.no == no)
    }

    pub fn booking_mut(&mut self, no: u32) -> Option<&mut Booking> {
        self.bookings.iter_mut().find(|b| b.no == no)
    }

    pub fn car(&self, reg: &str) -> Option<&Car> {
        self.cars.iter().find(|c| c.reg == reg)
    }

    pub fn car_mut(&mut self, reg: &str) -> Option<&mut Car> {
        self.cars.iter_mut().find(|c| c.reg == reg)
    }

    /// The customer named `name`, added with no hires if new.
    pub fn customer_mut(&mut self, name: &str) -> &mut Customer {
        let at = match self.customers.iter().position(|c| c.name == name) {
            Some(at) => at,
            None => {
                self.customers.push(Customer {
                    name: name.to_owned(),
                    rentals: 0,
                });
                self.customers.len() - 1
            }
        };
        &mut self.customers[at]
    }
}

/// What the desk (and the office's own commands) may send.
#[derive(Debug, Clone, Messages)]
pub enum Msg {
    /// The desk opens for the day (sent by the office itself).
    Open,
    /// The calendar moves on by a number of days.
    Advance {
        #[message(range(min = 1, max = 7))]
        days: u32,
    },
    /// A customer books a class (`economy`, `compact`, `estate`, `van`) from the pick-up day to the day due back,
    /// collected at branch `from` and returned at branch `to` (`York`, `Leeds`).
    Book {
        customer: String,
        class: String,
        pickup: u32,
        return_day: u32,
        from: String,
        to: String,
    },
    /// Adds an extra to a booking: `satnav`, `child seat`, `extra driver`, `full cover`.
    AddExtra { booking: u32, extra: String },
    /// The customer collects the car: the desk hands over a car of the class booked, full.
    PickUp { booking: u32 },
    /// The deposit is taken for a booking (sent after a pick-up).
    Deposit { booking: u32 },
    /// Damage found on a booking's car, with what the repair costs (pence).
    Damage {
        booking: u32,
        part: String,
        cost: u32,
    },
    /// The car comes back today: its odometer and its fuel gauge in eighths.
    Return {
        booking: u32,
        km: u32,
        #[message(range(min = 0, max = 8))]
        fuel: u32,
    },
    /// The hire is charged and the deposit settled (sent after a return).
    Settle { booking: u32 },
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::Booking;

    /// The days charged: from pick-up to the day due back, and a same-day hire counts as one.
    pub fn hire_days(booking: &Booking) -> u32 {
        // BUG(hire_days)
        booking.return_day.saturating_sub(booking.pickup_day)
    }
}
