//! The depot's types: stock items in their bins, customer orders and their lines, picking waves, shipments,
//! returns and reorders; the messages; and the depot's standing rules (`policy`).

use super::graph::{Slip, slip};
use ranvier::Messages;
use ranvier::serde::Serialize;

/// The depot's standing rules.
pub mod policy {
    /// Minutes in a day.
    pub const DAY: u32 = 24 * 60;
    /// The depot opens on Monday at 08:00 (minutes into the week).
    pub const OPENS_AT: u32 = 8 * 60;
    /// An unpaid order keeps its reservations this long after it was placed (minutes).
    pub const HOLD_MINUTES: u32 = 4 * 60;
    /// At most this many orders go into one picking wave.
    pub const WAVE_ORDERS: usize = 3;
    /// The heaviest parcel the carrier takes, in grams (goods only).
    pub const PARCEL_GRAMS: u32 = 20_000;
    /// Box and filling per parcel, in grams.
    pub const PACKING_GRAMS: u32 = 300;
}

/// The day names, Monday first.
const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// `Mon 08:00` for `minutes` into the week.
pub fn stamp(minutes: u32) -> String {
    let day = day_name(minutes / policy::DAY);
    let in_day = minutes % policy::DAY;
    format!("{day} {:02}:{:02}", in_day / 60, in_day % 60)
}

/// The name of day `day` (0 is the Monday the depot opened).
pub fn day_name(day: u32) -> &'static str {
    DAYS[(day % 7) as usize]
}

/// A part on the shelves (a row of the `stock` value).
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct StockItem {
    /// The part number (the row's key).
    #[serde(skip)]
    pub sku: String,
    /// What it is.
    pub name: String,
    /// Where it lies: aisle, rack and level, `B-04-2`.
    pub bin: String,
    /// Units on the shelf.
    pub on_hand: u32,
    /// Units on the shelf promised to orders.
    pub reserved: u32,
    /// Reorder once the free units fall to this.
    pub reorder_point: u32,
    /// How many to reorder.
    pub reorder_qty: u32,
    /// Who supplies it.
    pub supplier: String,
    /// Weight of one unit, in grams.
    pub grams: u32,
    /// What one unit cost us, in cents.
    pub cost: u32,
    /// When the item last moved (minutes into the week).
    pub touched_at: u32,
}

impl StockItem {
    /// Units on the shelf no order has a claim on.
    pub fn free(&self) -> u32 {
        self.on_hand.saturating_sub(self.reserved)
    }
}

/// Two records of a part are the same when everything but the time it last moved is: a reservation, a pick or a
/// receipt always changes a figure too, so the stamp alone never needs a row redrawn.
impl PartialEq for StockItem {
    fn eq(&self, other: &Self) -> bool {
        if slip() == Slip::RelocateLost {
            return slipped::same_item(self, other);
        }
        self.sku == other.sku
            && self.name == other.name
            && self.bin == other.bin
            && self.on_hand == other.on_hand
            && self.reserved == other.reserved
            && self.reorder_point == other.reorder_point
            && self.reorder_qty == other.reorder_qty
            && self.supplier == other.supplier
            && self.grams == other.grams
            && self.cost == other.cost
    }
}

mod slipped {
    use super::StockItem;

    pub fn same_item(a: &StockItem, b: &StockItem) -> bool {
        // BUG(relocate_lost)
        a.sku == b.sku
            && a.name == b.name
            && a.on_hand == b.on_hand
            && a.reserved == b.reserved
            && a.reorder_point == b.reorder_point
            && a.reorder_qty == b.reorder_qty
            && a.supplier == b.supplier
            && a.grams == b.grams
            && a.cost == b.cost
    }
}

/// Where an order stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderStatus {
    /// Taking lines; reserved against stock, waiting for payment or for stock.
    Open,
    /// Paid, fully reserved, and in picking wave `wave`.
    Released { wave: u32 },
    /// Picked and gone, as shipment `shipment`.
    Shipped { shipment: u32 },
    /// Not paid in time: its reservations went back on the shelf.
    Expired,
}

/// One line of an order.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderLine {
    pub sku: String,
    /// Units ordered.
    pub qty: u32,
    /// Units held on the shelf for this line, not yet picked.
    pub reserved: u32,
    /// Units picked into the tote.
    pub picked: u32,
}

impl OrderLine {
    /// Units the shelf could not give yet (back-ordered).
    pub fn short(&self) -> u32 {
        self.qty.saturating_sub(self.reserved + self.picked)
    }
}

/// A customer's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    pub id: u32,
    pub customer: String,
    /// The carrier's zone it ships to (`N1`, `S2`, `EU`).
    pub zone: String,
    /// When it was placed (minutes into the week).
    pub placed_at: u32,
    pub paid: bool,
    pub status: OrderStatus,
    pub lines: Vec<OrderLine>,
}

impl Order {
    /// A new order, open and empty.
    pub fn new(id: u32, customer: String, zone: String, now: u32) -> Self {
        Order {
            id,
            customer,
            zone,
            placed_at: now,
            paid: false,
            status: OrderStatus::Open,
            lines: Vec::new(),
        }
    }

    /// Still in the depot's hands: open or being picked.
    pub fn is_live(&self) -> bool {
        matches!(
            self.status,
            OrderStatus::Open | OrderStatus::Released { .. }
        )
    }

    /// The line for `sku`, if the order has one.
    pub fn line_mut(&mut self, sku: &str) -> Option<&mut OrderLine> {
        self.lines.iter_mut().find(|line| line.sku == sku)
    }

    /// Units ordered, over every line.
    pub fn units(&self) -> u32 {
        self.lines.iter().map(|line| line.qty).sum()
    }

    /// Units held for it or already picked.
    pub fn covered(&self) -> u32 {
        self.lines
            .iter()
            .map(|line| line.reserved + line.picked)
            .sum()
    }

    /// When its reservations lapse if it is still unpaid.
    pub fn hold_until(&self) -> u32 {
        self.placed_at + policy::HOLD_MINUTES
    }
}

/// A picking wave: the orders a picker walks the aisles for in one go.
#[derive(Clone, Debug, PartialEq)]
pub struct Wave {
    pub id: u32,
    pub orders: Vec<u32>,
    pub released_at: u32,
}

/// A box (or boxes) handed to the carrier.
#[derive(Clone, Debug, PartialEq)]
pub struct Shipment {
    pub id: u32,
    pub order: u32,
    pub zone: String,
    /// Goods and packing, in grams.
    pub grams: u32,
    pub parcels: u32,
}

/// Goods a customer sent back.
#[derive(Clone, Debug, PartialEq)]
pub struct Return {
    pub order: u32,
    pub sku: String,
    pub qty: u32,
    /// Damaged goods are written off; the rest go back on the shelf.
    pub damaged: bool,
}

/// A reorder sent to a supplier.
#[derive(Clone, Debug, PartialEq)]
pub struct Reorder {
    pub sku: String,
    pub qty: u32,
    pub supplier: String,
    /// When it was raised (minutes into the week).
    pub raised_at: u32,
    pub received: bool,
}

/// The depot: its clock, its stock and everything moving through it.
#[derive(Clone, Debug, PartialEq)]
pub struct Depot {
    /// Minutes into the week.
    pub now: u32,
    pub items: Vec<StockItem>,
    pub orders: Vec<Order>,
    pub waves: Vec<Wave>,
    pub shipments: Vec<Shipment>,
    pub returns: Vec<Return>,
    pub reorders: Vec<Reorder>,
}

impl Default for Depot {
    fn default() -> Self {
        Depot {
            now: policy::OPENS_AT,
            items: Vec::new(),
            orders: Vec::new(),
            waves: Vec::new(),
            shipments: Vec::new(),
            returns: Vec::new(),
            reorders: Vec::new(),
        }
    }
}

impl Depot {
    pub fn item(&self, sku: &str) -> Option<&StockItem> {
        self.items.iter().find(|item| item.sku == sku)
    }

    pub fn item_mut(&mut self, sku: &str) -> Option<&mut StockItem> {
        self.items.iter_mut().find(|item| item.sku == sku)
    }

    pub fn order(&self, id: u32) -> Option<&Order> {
        self.orders.iter().find(|order| order.id == id)
    }

    pub fn order_mut(&mut self, id: u32) -> Option<&mut Order> {
        self.orders.iter_mut().find(|order| order.id == id)
    }

    /// Whether a reorder of `sku` is on its way.
    pub fn reorder_open(&self, sku: &str) -> bool {
        self.reorders.iter().any(|r| r.sku == sku && !r.received)
    }
}

/// A part as it is first shelved: sku, name, bin, on hand, reorder point, reorder quantity, supplier, grams per unit,
/// cost in cents.
pub type Shelving = (
    &'static str,
    &'static str,
    &'static str,
    u32,
    u32,
    u32,
    &'static str,
    u32,
    u32,
);

/// The parts the depot stocks when it opens.
pub const OPENING_STOCK: [Shelving; 6] = [
    (
        "BRK-110",
        "Brake pad set",
        "A-02-1",
        12,
        4,
        20,
        "Ferro",
        900,
        2_400,
    ),
    (
        "FLT-220",
        "Oil filter",
        "A-01-3",
        30,
        10,
        40,
        "Ferro",
        350,
        650,
    ),
    (
        "SPK-330",
        "Spark plug",
        "B-04-2",
        48,
        12,
        100,
        "Ignis",
        60,
        380,
    ),
    (
        "BLT-440",
        "Timing belt",
        "B-01-1",
        3,
        2,
        10,
        "Ignis",
        400,
        3_100,
    ),
    (
        "BAT-660",
        "Battery 70Ah",
        "C-01-1",
        5,
        2,
        6,
        "Voltix",
        18_000,
        8_900,
    ),
    (
        "WPR-550",
        "Wiper blade",
        "C-03-2",
        0,
        5,
        25,
        "Klar",
        200,
        900,
    ),
];

/// The depot's messages. `shelve`, `expire`, `allocate` and `reorder` are the depot's own follow-ups (commands).
#[derive(Clone, Debug, PartialEq, Messages)]
pub enum Msg {
    /// Puts a part on the shelves (the opening stock).
    #[message(skip)]
    Shelve {
        sku: String,
        name: String,
        bin: String,
        on_hand: u32,
        reorder_point: u32,
        reorder_qty: u32,
        supplier: String,
        grams: u32,
        cost: u32,
    },
    /// Opens order `order` for `customer`, shipping to carrier zone `zone` (`N1`, `S2` or `EU`).
    PlaceOrder {
        order: u32,
        customer: String,
        zone: String,
    },
    /// Adds `qty` units of `sku` to an open order, reserving what the shelf has free; the rest is back-ordered.
    AddLine { order: u32, sku: String, qty: u32 },
    /// The customer paid for `order`.
    Pay { order: u32 },
    /// The clock moves on `minutes`; unpaid orders past their hold expire.
    Advance { minutes: u32 },
    /// Puts paid, fully reserved orders (oldest first, at most three) into a new picking wave.
    ReleaseWave,
    /// The picker took `qty` units of `sku` for `order` off the shelf.
    Pick { order: u32, sku: String, qty: u32 },
    /// Packs a fully picked order and hands it to the carrier.
    Ship { order: u32 },
    /// `qty` units of `sku` came back from `order`; damaged ones are written off.
    ReturnGoods {
        order: u32,
        sku: String,
        qty: u32,
        damaged: bool,
    },
    /// `qty` units of `sku` arrived from the supplier.
    Receive { sku: String, qty: u32 },
    /// Moves `sku` to bin `bin`.
    Relocate { sku: String, bin: String },
    /// Lets the reservations of an unpaid order go.
    #[message(skip)]
    Expire { order: u32 },
    /// Gives free units of `sku` to orders waiting for it.
    #[message(skip)]
    Allocate { sku: String },
    /// Sends the supplier a reorder for `sku`.
    #[message(skip)]
    Reorder { sku: String },
}

impl Msg {
    /// The `shelve` command for a line of [`OPENING_STOCK`].
    pub fn shelve(
        (sku, name, bin, on_hand, reorder_point, reorder_qty, supplier, grams, cost): Shelving,
    ) -> Msg {
        Msg::Shelve {
            sku: sku.to_owned(),
            name: name.to_owned(),
            bin: bin.to_owned(),
            on_hand,
            reorder_point,
            reorder_qty,
            supplier: supplier.to_owned(),
            grams,
            cost,
        }
    }
}
