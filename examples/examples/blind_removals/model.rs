//! The firm's model: quotes, booked jobs, crews and their vans, packing materials, storage units, and the messages
//! that change them. Money is in pence; days are numbered from 1 (day 1 is a Monday).

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The day the firm opens its books on (a Wednesday).
pub const FIRST_DAY: u32 = 10;

/// Bank holidays, as day numbers.
pub const BANK_HOLIDAYS: [u32; 2] = [22, 29];

/// A van and what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Van {
    /// A 3.5 t panel van.
    Small,
    /// A Luton box van.
    Luton,
    /// A 7.5 t lorry.
    Large,
}

impl Van {
    /// What the van holds, in cubic metres.
    pub fn capacity_m3(self) -> u32 {
        match self {
            Van::Small => 10,
            Van::Luton => 20,
            Van::Large => 35,
        }
    }

    /// The van's name on the sheets.
    pub fn name(self) -> &'static str {
        match self {
            Van::Small => "small van",
            Van::Luton => "Luton",
            Van::Large => "7.5 t lorry",
        }
    }
}

/// A request for a price: what to move, how far, and on which day.
#[derive(Clone, Debug, PartialEq)]
pub struct Quote {
    pub no: u32,
    pub customer: String,
    /// The inventory: (item, how many).
    pub items: Vec<(String, u32)>,
    /// The postcode areas moved from and to.
    pub from: String,
    pub to: String,
    /// The customer's estimate of the distance.
    pub miles: u32,
    /// The floor moved from (0 is the ground floor), and whether the building has a lift.
    pub floor: u32,
    pub lift: bool,
    pub day: u32,
    /// The value the customer declares for the insurance, in pounds.
    pub declared: u64,
}

/// Where a job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Status {
    Booked,
    Done,
    Cancelled,
}

/// A booked move (a row of the `jobs` collection).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Job {
    #[serde(skip)]
    pub no: u32,
    pub quote: u32,
    pub customer: String,
    pub day: u32,
    pub crew: String,
    pub m3: u32,
    /// The quoted price, in pence.
    pub quoted: u64,
    /// The deposit paid on booking.
    pub deposit: u64,
    pub status: Status,
    /// The cancellation fee, once cancelled.
    pub fee: u64,
    /// The day it was invoiced.
    pub invoiced: Option<u32>,
}

/// A crew: its movers, its van, and the hours it worked today.
#[derive(Clone, Debug, PartialEq)]
pub struct Crew {
    pub name: String,
    pub movers: u32,
    pub van: Van,
    /// Each mover's rate, pence an hour.
    pub rate: u64,
    pub hours_today: u32,
}

/// A packing material in the store room.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: String,
    pub stock: u32,
    /// At or below this the store reorders.
    pub reorder_point: u32,
    pub reorder_qty: u32,
    pub on_order: u32,
    /// Pence a unit.
    pub price: u64,
}

impl Material {
    /// Whether the stock has fallen to the reorder point.
    #[ranvier::trace_fn]
    pub fn needs_reorder(&self) -> bool {
        self.stock <= self.reorder_point
    }
}

/// A storage unit rented by the week.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    pub no: u32,
    pub customer: String,
    pub large: bool,
    pub start: u32,
    /// The last day the rent paid covers.
    pub paid_until: u32,
}

/// The firm.
#[derive(Clone, Debug, PartialEq)]
pub struct Firm {
    pub today: u32,
    pub quotes: Vec<Quote>,
    pub jobs: Vec<Job>,
    pub crews: Vec<Crew>,
    pub materials: Vec<Material>,
    pub units: Vec<Unit>,
    pub notices: Vec<String>,
}

impl Default for Firm {
    fn default() -> Self {
        let crew = |name: &str, movers, van| Crew {
            name: name.to_owned(),
            movers,
            van,
            rate: 1_400,
            hours_today: 0,
        };
        let material = |name: &str, stock, reorder_point, reorder_qty, price| Material {
            name: name.to_owned(),
            stock,
            reorder_point,
            reorder_qty,
            on_order: 0,
            price,
        };
        Firm {
            today: FIRST_DAY,
            quotes: Vec::new(),
            jobs: Vec::new(),
            crews: vec![
                crew("A", 2, Van::Small),
                crew("B", 3, Van::Luton),
                crew("C", 4, Van::Large),
            ],
            materials: vec![
                material("boxes", 120, 40, 100, 150),
                material("tape", 30, 10, 24, 220),
                material("wrap", 12, 4, 10, 1_800),
            ],
            units: Vec::new(),
            notices: Vec::new(),
        }
    }
}

impl Firm {
    /// The job numbered `no`.
    pub fn job_mut(&mut self, no: u32) -> Option<&mut Job> {
        self.jobs.iter_mut().find(|job| job.no == no)
    }

    /// The material named `name`.
    pub fn material_mut(&mut self, name: &str) -> Option<&mut Material> {
        self.materials.iter_mut().find(|m| m.name == name)
    }
}

/// What the office sends.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Prices a move: `items` is the inventory as `sofa:1 bed:2 box:20`; `declared` is in pounds.
    Quote {
        customer: String,
        items: String,
        from: String,
        to: String,
        miles: u32,
        floor: u32,
        lift: bool,
        day: u32,
        declared: u64,
    },
    /// Books quote `quote`: takes the deposit and gives the move a crew.
    Book { quote: u32 },
    /// Cancels job `job`, charging the fee its notice calls for.
    Cancel { job: u32 },
    /// Job `job` is done: the crew worked `hours`, and the packing materials are used.
    Complete { job: u32, hours: u32 },
    /// Invoices job `job`.
    Invoice { job: u32 },
    /// A delivery of `qty` of `material`.
    Receive { material: String, qty: u32 },
    /// Orders `material` from the supplier.
    Reorder { material: String },
    /// Rents a storage unit to `customer` for `weeks` (at least the minimum term).
    Rent {
        customer: String,
        weeks: u32,
        large: bool,
    },
    /// Unit `unit`'s rent for `weeks` more.
    PayStorage { unit: u32, weeks: u32 },
    /// Moves the calendar on by `days`.
    Advance { days: u32 },
}

/// 0 for Monday to 6 for Sunday.
pub fn weekday(day: u32) -> u32 {
    (day - 1) % 7
}

/// The weekday's short name.
pub fn weekday_name(day: u32) -> &'static str {
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][weekday(day) as usize]
}

/// Pence as pounds: `£12.05`.
pub fn pounds(pence: u64) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

pub mod slipped {
    use super::Material;

    /// Whether the stock has fallen to the reorder point.
    #[ranvier::trace_fn]
    pub fn needs_reorder(material: &Material) -> bool {
        // BUG(reorder_point)
        material.stock < material.reorder_point
    }
}
