//! The garage's model: the customers and their cars, the diary of bookings into the service bays (each with its job:
//! labour and parts), the parts store and what is on order, the mechanics, the invoices, and the messages the front
//! desk sends.

use ranvier::Messages;
use ranvier::serde::Serialize;
use std::fmt;

/// A day, counted from Thursday 1 January 2026 (day 0); `calendar` reads and writes them as dates.
pub type Day = u32;

/// Money, in pence.
pub type Pence = u64;

/// How the garage works and what it charges.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Service bays, numbered from 1.
    pub bays: u8,
    /// The hour the doors open.
    pub opens: u32,
    /// The hour the last job must be out of its bay.
    pub closes: u32,
    /// Labour, per hour, in pence.
    pub labour_rate: Pence,
    /// VAT on invoices, in percent.
    pub vat_percent: u64,
    /// How far ahead the MOT list looks, in days.
    pub mot_window: u32,
    /// Visits after which a customer gets the regulars' labour discount.
    pub loyal_after: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            bays: 3,
            opens: 8,
            closes: 18,
            labour_rate: 7_200,
            vat_percent: 20,
            mot_window: 30,
            loyal_after: 3,
        }
    }
}

/// A registration plate. Plates are written with or without the space and in either case, so two plates are the
/// same when their letters and digits are.
#[derive(Clone, Debug)]
pub struct Plate(pub String);

impl Plate {
    /// The plate as the DVLA prints it: capitals, and the space before the last three characters.
    pub fn new(text: &str) -> Plate {
        let mut plate: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if plate.len() > 3 {
            plate.insert(plate.len() - 3, ' ');
        }
        Plate(plate)
    }

    /// The plate's letters and digits, without the space.
    fn bare(&self) -> impl Iterator<Item = char> + '_ {
        self.0
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_uppercase())
    }
}

impl PartialEq for Plate {
    fn eq(&self, other: &Self) -> bool {
        self.bare().eq(other.bare())
    }
}

impl fmt::Display for Plate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The kinds of work the garage books, and the skills its mechanics have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// The yearly MOT test.
    Mot,
    /// A service: oil, filters, the checks.
    Service,
    /// Tyres and tracking.
    Tyres,
    /// Electrics and diagnostics.
    Electrics,
    /// Body repairs.
    Bodywork,
}

impl Work {
    /// Reads the work a booking asks for.
    pub fn parse(text: &str) -> Option<Work> {
        match text.trim().to_ascii_lowercase().as_str() {
            "mot" => Some(Work::Mot),
            "service" | "servicing" => Some(Work::Service),
            "tyres" | "tyre" => Some(Work::Tyres),
            "electrics" | "electrical" => Some(Work::Electrics),
            "bodywork" | "body" => Some(Work::Bodywork),
            _ => None,
        }
    }

    /// How the board writes it.
    pub fn name(self) -> &'static str {
        match self {
            Work::Mot => "MOT",
            Work::Service => "service",
            Work::Tyres => "tyres",
            Work::Electrics => "electrics",
            Work::Bodywork => "bodywork",
        }
    }
}

/// A customer of the garage.
#[derive(Clone, Debug, PartialEq)]
pub struct Customer {
    /// Their name, as the desk knows them.
    pub name: String,
    /// A number to ring when the car is ready.
    pub phone: String,
    /// A motor trader's account: parts at the trade discount.
    pub trade: bool,
    /// Cars collected so far.
    pub visits: u32,
}

/// A customer's car.
#[derive(Clone, Debug, PartialEq)]
pub struct Car {
    /// Its registration.
    pub plate: Plate,
    /// The customer it belongs to.
    pub owner: String,
    /// Make and model.
    pub make: String,
    /// The day its MOT certificate runs out.
    pub mot_due: Day,
}

/// A mechanic of the garage.
#[derive(Clone, Debug, PartialEq)]
pub struct Mechanic {
    /// Their name.
    pub name: String,
    /// The work they are trained for.
    pub skills: Vec<Work>,
    /// Hours they work in a day.
    pub hours: u32,
}

/// Where a booking has got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// In the diary.
    Booked,
    /// The car is in its bay, being worked on.
    InBay,
    /// Work stopped until parts arrive.
    WaitingParts,
    /// The work is done; the car waits for its owner.
    Done,
    /// Paid and driven away.
    Collected,
}

/// Time a mechanic spent on a job.
#[derive(Clone, Debug, PartialEq)]
pub struct LabourLine {
    /// Who did it.
    pub mechanic: String,
    /// The day it was done.
    pub day: Day,
    /// How long, in minutes.
    pub minutes: u32,
    /// What was done.
    pub note: String,
}

/// Parts fitted on a job.
#[derive(Clone, Debug, PartialEq)]
pub struct PartLine {
    /// The part's code in the store.
    pub code: String,
    /// How many.
    pub qty: u32,
    /// The shelf price of one, when it was fitted.
    pub price: Pence,
}

/// The work done for a booking.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Job {
    /// The mechanic the job is given to.
    pub mechanic: Option<String>,
    /// The labour so far.
    pub labour: Vec<LabourLine>,
    /// The parts fitted so far.
    pub parts: Vec<PartLine>,
    /// Parts the job waits for: code and quantity.
    pub awaiting: Vec<(String, u32)>,
}

impl Job {
    /// Minutes of labour on the job, all days.
    pub fn minutes(&self) -> u32 {
        self.labour.iter().map(|line| line.minutes).sum()
    }
}

/// A car booked into a bay.
#[derive(Clone, Debug, PartialEq)]
pub struct Booking {
    /// The booking's number, from 1.
    pub id: u32,
    /// The car.
    pub plate: Plate,
    /// The day.
    pub day: Day,
    /// The hour it goes into the bay.
    pub start: u32,
    /// Hours it holds the bay.
    pub hours: u32,
    /// The bay, from 1.
    pub bay: u8,
    /// The work booked.
    pub work: Work,
    /// Where it has got to.
    pub status: Status,
    /// The job.
    pub job: Job,
}

/// A part the store keeps (a row of the `stock` value).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Part {
    /// Its code (the row's key).
    #[serde(skip)]
    pub code: String,
    /// What it is.
    pub name: String,
    /// The shelf bin it lives in.
    pub bin: String,
    /// On the shelf.
    pub stock: u32,
    /// Ordered and not yet delivered.
    pub on_order: u32,
    /// At or below this (with what is on order), it is reordered.
    pub reorder_level: u32,
    /// What a full shelf holds.
    pub max_stock: u32,
    /// The shelf price of one, in pence.
    pub price: Pence,
    /// Who supplies it.
    pub supplier: String,
}

impl Part {
    /// Whether the shelf, with what is on order, is at or below the reorder level.
    pub fn is_low(&self) -> bool {
        self.stock + self.on_order <= self.reorder_level
    }

    /// What to order to fill the shelf, counting what is already on its way.
    pub fn shortfall(&self) -> u32 {
        self.max_stock
            .saturating_sub(self.stock)
            .saturating_sub(self.on_order)
    }
}

/// A part ordered from its supplier.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// The part.
    pub code: String,
    /// How many.
    pub qty: u32,
    /// From whom.
    pub supplier: String,
    /// The day it was ordered.
    pub placed: Day,
}

/// An invoice for a finished job; amounts in pence.
#[derive(Clone, Debug, PartialEq)]
pub struct Invoice {
    /// The booking it bills.
    pub booking: u32,
    /// Who pays.
    pub customer: String,
    /// The car.
    pub plate: Plate,
    /// Labour.
    pub labour: Pence,
    /// Parts.
    pub parts: Pence,
    /// Discounts taken off.
    pub discount: Pence,
    /// VAT.
    pub vat: Pence,
    /// What the customer pays.
    pub total: Pence,
}

/// The whole garage.
#[derive(Clone, Debug, PartialEq)]
pub struct Garage {
    /// Today.
    pub today: Day,
    /// How it works.
    pub settings: Settings,
    /// Its customers, in the order they came.
    pub customers: Vec<Customer>,
    /// Their cars.
    pub cars: Vec<Car>,
    /// Its mechanics.
    pub mechanics: Vec<Mechanic>,
    /// The diary.
    pub bookings: Vec<Booking>,
    /// The parts store.
    pub parts: Vec<Part>,
    /// Parts on order.
    pub orders: Vec<Order>,
    /// Invoices raised.
    pub invoices: Vec<Invoice>,
    /// What the desk should know, newest last.
    pub notices: Vec<String>,
    /// The number the next booking gets.
    pub next_booking: u32,
}

impl Garage {
    /// The garage opening on `today`, with its staff and its store.
    pub fn open(
        today: Day,
        settings: Settings,
        mechanics: Vec<Mechanic>,
        parts: Vec<Part>,
    ) -> Garage {
        Garage {
            today,
            settings,
            customers: Vec::new(),
            cars: Vec::new(),
            mechanics,
            bookings: Vec::new(),
            parts,
            orders: Vec::new(),
            invoices: Vec::new(),
            notices: Vec::new(),
            next_booking: 1,
        }
    }

    /// The booking numbered `id`.
    pub fn booking(&self, id: u32) -> Option<&Booking> {
        self.bookings.iter().find(|b| b.id == id)
    }

    /// The booking numbered `id`, to change.
    pub fn booking_mut(&mut self, id: u32) -> Option<&mut Booking> {
        self.bookings.iter_mut().find(|b| b.id == id)
    }

    /// The customer called `name`.
    pub fn customer(&self, name: &str) -> Option<&Customer> {
        self.customers.iter().find(|c| c.name == name)
    }

    /// The car with `plate`.
    pub fn car(&self, plate: &Plate) -> Option<&Car> {
        self.cars.iter().find(|c| &c.plate == plate)
    }

    /// The part with `code`.
    pub fn part(&self, code: &str) -> Option<&Part> {
        self.parts.iter().find(|p| p.code == code)
    }

    /// Tells the desk something.
    pub fn notice(&mut self, text: impl Into<String>) {
        self.notices.push(text.into());
    }
}

/// What the front desk sends.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// A new customer; `trade` for a motor trader's account.
    AddCustomer {
        /// Their name.
        name: String,
        /// Their phone number.
        phone: String,
        /// A trade account.
        trade: bool,
    },
    /// A customer's car.
    AddCar {
        /// Its registration.
        plate: String,
        /// The customer it belongs to.
        owner: String,
        /// Make and model.
        make: String,
        /// When its MOT runs out, `YYYY-MM-DD`.
        mot_due: String,
    },
    /// Books a car into the first bay free on `date` (`YYYY-MM-DD`) from the hour `start` for `hours`.
    Book {
        /// The car.
        plate: String,
        /// The day, `YYYY-MM-DD`.
        date: String,
        /// The hour it goes in.
        #[message(range(min = 0, max = 23))]
        start: u32,
        /// Hours in the bay.
        #[message(range(min = 1, max = 10))]
        hours: u32,
        /// `mot`, `service`, `tyres`, `electrics` or `bodywork`.
        work: String,
    },
    /// Gives a booking's job to a mechanic trained for its work.
    Assign {
        /// The booking.
        booking: u32,
        /// The mechanic.
        mechanic: String,
    },
    /// The car goes into its bay.
    StartJob {
        /// The booking.
        booking: u32,
    },
    /// Labour on a job, by its mechanic, today.
    LogLabour {
        /// The booking.
        booking: u32,
        /// Minutes.
        #[message(range(min = 1))]
        minutes: u32,
        /// What was done.
        note: String,
    },
    /// Fits parts from the store on a job; a part short on the shelf stops the job until it comes.
    FitPart {
        /// The booking.
        booking: u32,
        /// The part's code.
        code: String,
        /// How many.
        #[message(range(min = 1))]
        qty: u32,
    },
    /// The work is done: the invoice follows.
    FinishJob {
        /// The booking.
        booking: u32,
    },
    /// Raises the invoice of a finished job (sent by `finish_job`).
    RaiseInvoice {
        /// The booking.
        booking: u32,
    },
    /// The customer pays and takes the car.
    Collect {
        /// The booking.
        booking: u32,
    },
    /// Orders a part from its supplier, enough to fill the shelf (sent when a job leaves it low).
    Reorder {
        /// The part's code.
        code: String,
    },
    /// The supplier's delivery of a part arrives.
    Receive {
        /// The part's code.
        code: String,
    },
    /// Closes the day; the diary moves to the next.
    NextDay,
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::Settings;

    /// The garage's settings (written as `Settings::default`).
    pub fn settings() -> Settings {
        Settings {
            bays: 3,
            opens: 8,
            closes: 18,
            // BUG(labour_rate_unit)
            labour_rate: 72,
            vat_percent: 20,
            mot_window: 30,
            loyal_after: 3,
        }
    }
}
