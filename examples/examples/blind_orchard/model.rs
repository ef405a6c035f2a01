//! The orchard's model: the blocks of trees, the pickers and their shifts, the bins picked, the cold-store rooms, the
//! customers' orders and the sales, with the messages the farm office sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The first day of the week the app opens on (day of the year).
pub const WEEK_STARTS: u32 = 250;

/// `£p.pp` of an amount in pence.
pub fn pounds(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// A fruit variety's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Variety {
    Apple,
    Pear,
    Plum,
}

impl Variety {
    /// `apples`, `pears`, `plums`.
    pub fn plural(self) -> &'static str {
        match self {
            Variety::Apple => "apples",
            Variety::Pear => "pears",
            Variety::Plum => "plums",
        }
    }
}

/// A bin's grade after the grading line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    ClassOne,
    ClassTwo,
    Juice,
}

impl Grade {
    pub fn name(self) -> &'static str {
        match self {
            Grade::ClassOne => "class I",
            Grade::ClassTwo => "class II",
            Grade::Juice => "juice",
        }
    }

    pub fn parse(text: &str) -> Option<Grade> {
        match text {
            "class I" | "class1" | "one" => Some(Grade::ClassOne),
            "class II" | "class2" | "two" => Some(Grade::ClassTwo),
            "juice" => Some(Grade::Juice),
            _ => None,
        }
    }
}

/// Weather that marks a block's fruit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Damage {
    Frost,
    Hail,
}

/// A block of trees of one variety, with its picking window.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Block {
    pub id: u32,
    pub name: String,
    pub variety: Variety,
    pub trees: u32,
    pub rows: u32,
    /// First day of the picking window.
    pub opens: u32,
    /// Last day of the picking window.
    pub closes: u32,
    pub bins: u32,
    pub picked_kg: u32,
    pub damage: Option<Damage>,
}

impl Block {
    fn planted(
        id: u32,
        name: &str,
        variety: Variety,
        trees: u32,
        rows: u32,
        window: (u32, u32),
    ) -> Block {
        Block {
            id,
            name: name.to_owned(),
            variety,
            trees,
            rows,
            opens: window.0,
            closes: window.1,
            bins: 0,
            picked_kg: 0,
            damage: None,
        }
    }

    /// Whether `day` falls in the block's picking window (both ends included).
    pub fn in_window(&self, day: u32) -> bool {
        self.opens <= day && day <= self.closes
    }
}

/// A picker on the farm this week.
#[derive(Clone, Debug, PartialEq)]
pub struct Shift {
    pub picker: String,
    pub day: u32,
    pub hours: u32,
}

/// A bin of fruit, weighed and graded.
#[derive(Clone, Debug, PartialEq)]
pub struct Bin {
    pub no: u32,
    pub block: u32,
    pub variety: Variety,
    pub picker: String,
    pub day: u32,
    pub kg: u32,
    pub size_mm: u32,
    pub defects: u32,
    pub grade: Grade,
    pub room: Option<u8>,
    pub packed: bool,
}

/// A cold-store room.
#[derive(Clone, Debug, PartialEq)]
pub struct Room {
    pub no: u8,
    pub capacity: usize,
    pub temp: f64,
}

/// Who buys the fruit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Customer {
    Supermarket,
    FarmShop,
    JuicePress,
}

impl Customer {
    pub fn parse(text: &str) -> Option<Customer> {
        match text {
            "supermarket" => Some(Customer::Supermarket),
            "farm shop" | "farm_shop" => Some(Customer::FarmShop),
            "juice press" | "juice_press" => Some(Customer::JuicePress),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Customer::Supermarket => "supermarket",
            Customer::FarmShop => "farm shop",
            Customer::JuicePress => "juice press",
        }
    }
}

/// A customer's order for a grade of fruit.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    pub no: u32,
    pub customer: Customer,
    pub grade: Grade,
    pub kg: u32,
    pub packed: bool,
}

/// An invoiced order.
#[derive(Clone, Debug, PartialEq)]
pub struct Sale {
    pub order: u32,
    pub customer: Customer,
    pub grade: Grade,
    pub kg: u32,
    pub trays: u32,
    pub pence: u32,
}

/// The farm this week.
#[derive(Clone, Debug, PartialEq)]
pub struct Orchard {
    pub today: u32,
    pub blocks: Vec<Block>,
    pub pickers: Vec<String>,
    pub shifts: Vec<Shift>,
    pub bins: Vec<Bin>,
    pub rooms: Vec<Room>,
    pub orders: Vec<Order>,
    pub sales: Vec<Sale>,
    pub notices: Vec<String>,
}

impl Default for Orchard {
    fn default() -> Self {
        Orchard {
            today: WEEK_STARTS,
            blocks: vec![
                Block::planted(1, "Cox", Variety::Apple, 240, 12, (248, 262)),
                Block::planted(2, "Bramley", Variety::Apple, 180, 9, (244, 270)),
                Block::planted(3, "Conference", Variety::Pear, 150, 10, (245, 258)),
                Block::planted(4, "Victoria", Variety::Plum, 90, 6, (240, 252)),
            ],
            pickers: ["Ana", "Ben", "Cas", "Dov"]
                .iter()
                .map(|p| (*p).to_owned())
                .collect(),
            shifts: Vec::new(),
            bins: Vec::new(),
            rooms: vec![
                Room {
                    no: 1,
                    capacity: 4,
                    temp: 0.0,
                },
                Room {
                    no: 2,
                    capacity: 6,
                    temp: 0.0,
                },
            ],
            orders: Vec::new(),
            sales: Vec::new(),
            notices: Vec::new(),
        }
    }
}

impl Orchard {
    pub fn block_mut(&mut self, id: u32) -> Option<&mut Block> {
        self.blocks.iter_mut().find(|b| b.id == id)
    }

    pub fn note(&mut self, notice: impl Into<String>) {
        let notice = format!("day {}: {}", self.today, notice.into());
        self.notices.push(notice);
    }

    /// The bins in `room` not yet packed.
    pub fn in_room(&self, room: u8) -> usize {
        self.bins
            .iter()
            .filter(|b| b.room == Some(room) && !b.packed)
            .count()
    }
}

/// What the farm office sends.
#[derive(Debug, Clone, Messages)]
pub enum Msg {
    /// The calendar moves on by a number of days.
    Advance {
        #[message(range(min = 1, max = 30))]
        days: u32,
    },
    /// A picker's hours on the farm today.
    Shift {
        picker: String,
        #[message(range(min = 1, max = 12))]
        hours: u32,
    },
    /// A bin picked in a block: its weight, the fruit's mean size and the share of fruit with defects (percent).
    Pick {
        picker: String,
        block: u32,
        #[message(range(min = 1, max = 450))]
        kg: u32,
        size_mm: u32,
        #[message(range(min = 0, max = 100))]
        defects: u32,
    },
    /// A bin goes into the cold store.
    Store { bin: u32 },
    /// A cold-store room's temperature (°C).
    SetTemp { room: u8, temp: f64 },
    /// Frost or hail over a block.
    Weather { block: u32, event: String },
    /// A customer (`supermarket`, `farm shop`, `juice press`) orders kilograms of a grade (`class I`, `class II`,
    /// `juice`).
    Order {
        customer: String,
        grade: String,
        kg: u32,
    },
    /// A packing run for an order, from the bins in store.
    Pack { order: u32 },
    /// An order packed is invoiced.
    Invoice { order: u32 },
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::Block;

    /// [`Block::in_window`].
    pub fn in_window(block: &Block, day: u32) -> bool {
        // BUG(closing_day)
        block.opens <= day && day < block.closes
    }
}
