//! The bakery's model: the products, the orders, the batches baked, the invoices and the notices, the settings, and
//! the messages the bakery takes.

use ranvier::Messages;
use ranvier::schemars::JsonSchema;
use ranvier::serde::{Deserialize, Serialize};

/// The bakery opens on day 1. Day 0 is a Monday, so day 1 is a Tuesday.
pub const OPENING_DAY: u32 = 1;

/// One product the bakery bakes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde")]
#[schemars(crate = "ranvier::schemars")]
pub struct Product {
    /// A short code: "BAG", "CRO", ...
    pub code: String,
    /// Its name on the invoice.
    pub name: String,
    /// Cents a piece.
    pub price: u64,
    /// Pieces on one tray.
    pub per_tray: u32,
    /// Minutes in the oven.
    pub bake_minutes: u32,
    /// The oven's temperature, °C.
    pub temperature: u32,
    /// Flour in one piece, grams.
    pub flour_grams: u32,
    /// The dough of one piece (flour, water, salt, yeast or starter), grams.
    pub dough_grams: u32,
    /// The flour it is made of: "wheat" or "rye".
    pub flour: String,
    /// Days' notice an order needs (a sourdough's starter is fed the day before).
    pub lead_days: u32,
}

/// One order: a customer's pieces of a product, for a day.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Order {
    /// The order's number, from 1 in the order placed.
    pub id: u32,
    /// Who ordered.
    pub customer: String,
    /// The product's code.
    pub product: String,
    /// Pieces.
    pub pieces: u32,
    /// The day it is delivered.
    pub day: u32,
    /// Delivered.
    pub delivered: bool,
    /// Cancelled.
    pub cancelled: bool,
}

impl Order {
    /// Still to bake and deliver on `day`.
    pub fn due_on(&self, day: u32) -> bool {
        self.day == day && !self.cancelled
    }
}

/// One batch out of the oven.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Batch {
    /// The product's code.
    pub product: String,
    /// Pieces baked.
    pub pieces: u32,
    /// The day it was baked.
    pub day: u32,
}

/// A line of an invoice: something a customer is charged.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Invoice {
    /// Who pays.
    pub customer: String,
    /// What for.
    pub what: String,
    /// Cents.
    pub cents: u64,
}

/// What the bakery charges besides the pieces.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Settings {
    /// Pieces of one product on one delivery from which the volume discount applies.
    pub volume_threshold: u32,
    /// The volume discount, percent.
    pub volume_discount: u64,
    /// The delivery fee, in cents.
    pub delivery_fee: u64,
    /// Deliveries of goods worth this much (cents) or more go free.
    pub free_delivery_from: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            volume_threshold: 50,
            volume_discount: 10,
            delivery_fee: 500,
            free_delivery_from: 3_000,
        }
    }
}

/// The bakery: the model its messages change.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Bakery {
    /// Today.
    pub day: u32,
    /// The products, in the order added.
    pub products: Vec<Product>,
    /// The orders, in the order placed.
    pub orders: Vec<Order>,
    /// The number the next order gets.
    pub next_order: u32,
    /// The batches baked.
    pub batches: Vec<Batch>,
    /// Everything invoiced.
    pub invoices: Vec<Invoice>,
    /// What the bakery was told.
    pub notices: Vec<String>,
    /// The charges.
    pub settings: Settings,
}

impl Default for Bakery {
    fn default() -> Self {
        Bakery {
            day: OPENING_DAY,
            products: Vec::new(),
            orders: Vec::new(),
            next_order: 1,
            batches: Vec::new(),
            invoices: Vec::new(),
            notices: Vec::new(),
            settings: Settings::default(),
        }
    }
}

impl Bakery {
    /// The product `code`.
    pub fn product(&self, code: &str) -> Option<&Product> {
        self.products.iter().find(|p| p.code == code)
    }

    /// Pieces of `code` ordered for `day` (cancelled orders left out).
    pub fn ordered(&self, code: &str, day: u32) -> u32 {
        self.orders
            .iter()
            .filter(|o| o.product == code && o.due_on(day))
            .map(|o| o.pieces)
            .sum()
    }

    /// Pieces of `code` baked on `day`.
    pub fn baked(&self, code: &str, day: u32) -> u32 {
        self.batches
            .iter()
            .filter(|b| b.product == code && b.day == day)
            .map(|b| b.pieces)
            .sum()
    }
}

/// A day as `Tue 1`.
pub fn weekday(day: u32) -> String {
    const NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    format!("{} {day}", NAMES[(day % 7) as usize])
}

/// Cents as `12.50`.
pub fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// What the bakery takes.
#[derive(Debug, Messages)]
pub enum Msg {
    /// A customer orders `pieces` of product `product` (its code: "BAG", "CRO", "SOU", "RYE", "BUN") for day `day`.
    Order {
        /// Who orders.
        customer: String,
        /// The product's code.
        product: String,
        /// Pieces.
        #[message(range(min = 1, max = 1000))]
        pieces: u32,
        /// The day it is delivered.
        day: u32,
    },
    /// Cancels order `order`, if it is not delivered.
    Cancel {
        /// The order's number.
        order: u32,
    },
    /// `trays` trays of product `product` came out of the oven.
    Bake {
        /// The product's code.
        product: String,
        /// Trays.
        #[message(range(min = 1, max = 40))]
        trays: u32,
    },
    /// Today's orders of `customer` are delivered and invoiced (the goods, and the delivery fee for a small one).
    Deliver {
        /// Who gets them.
        customer: String,
    },
    /// The day is over: the next one begins.
    CloseDay,
    /// A product is added to the range (sent by the bakery itself when it opens).
    #[message(skip)]
    AddProduct(Product),
    /// Something invoiced to a customer (sent by the bakery itself).
    #[message(skip)]
    Invoice {
        /// Who pays.
        customer: String,
        /// What for.
        what: String,
        /// Cents.
        cents: u64,
    },
    /// Tells the bakery `text` (sent by the bakery itself).
    #[message(skip)]
    Notify {
        /// What to tell.
        text: String,
    },
}

/// The model with a mistake.
pub mod slipped {
    use super::Settings;

    /// The charges as the bakery's first price list had them.
    #[derive(Clone, Debug)]
    pub struct PriceList(pub Settings);

    impl Default for PriceList {
        fn default() -> Self {
            PriceList(Settings {
                volume_threshold: 50,
                volume_discount: 10,
                delivery_fee: 500,
                // BUG(fee_default)
                free_delivery_from: 30,
            })
        }
    }
}
