//! The florist's model: the flowers it buys by the bunch, the buckets of stems in the cold room, the bouquets'
//! recipes, the customers' orders and subscriptions, what was taken at the till and what wilted, with the messages
//! the shop sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The day the app opens on: Monday of the shop's third week (day 1 was a Monday).
pub const OPENING_DAY: u32 = 15;

/// `£p.pp` of an amount in pence.
pub fn pence(amount: u32) -> String {
    format!("£{}.{:02}", amount / 100, amount % 100)
}

/// `Mon` .. `Sun` of a day (day 1 was a Monday).
pub fn weekday_name(day: u32) -> &'static str {
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][weekday(day) as usize]
}

/// 0 for Monday .. 6 for Sunday.
pub fn weekday(day: u32) -> u32 {
    (day - 1) % 7
}

/// A flower the shop buys from the wholesaler.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Flower {
    pub name: String,
    /// Stems in a bunch.
    pub bunch: u32,
    /// What a bunch cost at the last market, in pence.
    pub bunch_cost: u32,
    /// Days a stem keeps in the cold room.
    pub life: u32,
    /// The stems the shop likes to have on hand.
    pub par: u32,
}

impl Flower {
    fn new(name: &str, bunch: u32, bunch_cost: u32, life: u32, par: u32) -> Flower {
        Flower {
            name: name.to_owned(),
            bunch,
            bunch_cost,
            life,
            par,
        }
    }
}

/// A bucket of stems of one flower, bought on one day.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Batch {
    pub flower: String,
    pub stems: u32,
    /// The day it was bought.
    pub bought: u32,
    /// Days its stems keep.
    pub life: u32,
}

impl Batch {
    /// Whether the batch has wilted by `today`: a stem bought on day 10 that keeps 5 days is sold until day 14.
    pub fn is_wilted(&self, today: u32) -> bool {
        today >= self.bought + self.life
    }

    /// The last day its stems can be sold.
    pub fn use_by(&self) -> u32 {
        self.bought + self.life - 1
    }
}

/// A bouquet as the florists make it: stems of each flower, and the labour.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    pub name: String,
    pub stems: Vec<(String, u32)>,
    /// The florist's time, in pence.
    pub labour: u32,
}

impl Recipe {
    fn new(name: &str, stems: &[(&str, u32)], labour: u32) -> Recipe {
        Recipe {
            name: name.to_owned(),
            stems: stems.iter().map(|(f, n)| ((*f).to_owned(), *n)).collect(),
            labour,
        }
    }
}

/// What an order is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum OrderKind {
    Bouquet,
    Wedding,
    Funeral,
}

impl OrderKind {
    pub fn parse(text: &str) -> Option<OrderKind> {
        match text {
            "bouquet" => Some(OrderKind::Bouquet),
            "wedding" => Some(OrderKind::Wedding),
            "funeral" => Some(OrderKind::Funeral),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OrderKind::Bouquet => "bouquet",
            OrderKind::Wedding => "wedding",
            OrderKind::Funeral => "funeral",
        }
    }

    /// The van's boxes one piece of this kind takes.
    pub fn boxes(self) -> u32 {
        match self {
            OrderKind::Bouquet => 1,
            OrderKind::Funeral => 2,
            OrderKind::Wedding => 4,
        }
    }
}

/// A customer's order, priced when it was placed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Order {
    pub no: u32,
    pub customer: String,
    pub kind: OrderKind,
    pub recipe: String,
    pub qty: u32,
    /// The delivery day.
    pub day: u32,
    pub zone: u32,
    /// One bouquet's price, in pence.
    pub unit_price: u32,
    /// The delivery charge, in pence.
    pub delivery: u32,
    /// Taken when the order was placed, in pence.
    pub deposit: u32,
    pub made: bool,
    pub delivered: bool,
}

impl Order {
    /// The bouquets' price, without delivery.
    pub fn goods(&self) -> u32 {
        self.qty * self.unit_price
    }

    /// What the customer pays in all.
    pub fn total(&self) -> u32 {
        self.goods() + self.delivery
    }
}

/// A weekly bouquet: one drop every week on its weekday.
#[derive(Clone, Debug, PartialEq)]
pub struct Subscription {
    pub no: u32,
    pub customer: String,
    pub recipe: String,
    /// 0 for Monday .. 6 for Sunday.
    pub weekday: u32,
    pub zone: u32,
}

/// Money taken at the till.
#[derive(Clone, Debug, PartialEq)]
pub struct Taking {
    pub day: u32,
    pub order: u32,
    pub pence: u32,
    /// Whether it was a deposit (the rest is paid on delivery).
    pub deposit: bool,
}

/// Stems thrown away.
#[derive(Clone, Debug, PartialEq)]
pub struct Waste {
    pub day: u32,
    pub flower: String,
    pub stems: u32,
}

/// The shop.
#[derive(Clone, Debug, PartialEq)]
pub struct Shop {
    pub today: u32,
    pub catalogue: Vec<Flower>,
    pub recipes: Vec<Recipe>,
    pub batches: Vec<Batch>,
    pub orders: Vec<Order>,
    pub subscriptions: Vec<Subscription>,
    pub takings: Vec<Taking>,
    pub waste: Vec<Waste>,
    pub notices: Vec<String>,
}

impl Default for Shop {
    fn default() -> Self {
        let catalogue = vec![
            Flower::new("rose", 20, 1_200, 7, 50),
            Flower::new("tulip", 10, 450, 5, 30),
            Flower::new("lily", 5, 750, 8, 20),
            Flower::new("gypsophila", 10, 500, 6, 20),
            Flower::new("eucalyptus", 10, 300, 10, 20),
        ];
        let bought = |flower: &str, stems: u32, day: u32| {
            let life = catalogue
                .iter()
                .find(|f| f.name == flower)
                .map_or(7, |f| f.life);
            Batch {
                flower: flower.to_owned(),
                stems,
                bought: day,
                life,
            }
        };
        let batches = vec![
            bought("rose", 40, 12),
            bought("tulip", 20, 11),
            bought("lily", 10, 14),
            bought("gypsophila", 20, 13),
            bought("eucalyptus", 10, 10),
        ];
        Shop {
            today: OPENING_DAY,
            recipes: vec![
                Recipe::new(
                    "posy",
                    &[("tulip", 5), ("gypsophila", 3), ("eucalyptus", 2)],
                    400,
                ),
                Recipe::new(
                    "classic",
                    &[("rose", 12), ("gypsophila", 5), ("eucalyptus", 3)],
                    600,
                ),
                Recipe::new(
                    "spray",
                    &[("lily", 10), ("rose", 5), ("eucalyptus", 5)],
                    1_500,
                ),
                Recipe::new(
                    "bridal",
                    &[("rose", 20), ("lily", 5), ("gypsophila", 10)],
                    4_000,
                ),
            ],
            catalogue,
            batches,
            orders: Vec::new(),
            subscriptions: vec![Subscription {
                no: 1,
                customer: "Mr Khan".to_owned(),
                recipe: "posy".to_owned(),
                weekday: 2,
                zone: 1,
            }],
            takings: vec![
                Taking {
                    day: 13,
                    order: 0,
                    pence: 4_200,
                    deposit: false,
                },
                Taking {
                    day: 14,
                    order: 0,
                    pence: 8_500,
                    deposit: false,
                },
            ],
            waste: Vec::new(),
            notices: Vec::new(),
        }
    }
}

impl Shop {
    pub fn flower(&self, name: &str) -> Option<&Flower> {
        self.catalogue.iter().find(|f| f.name == name)
    }

    pub fn recipe(&self, name: &str) -> Option<&Recipe> {
        self.recipes.iter().find(|r| r.name == name)
    }

    pub fn note(&mut self, notice: impl Into<String>) {
        let notice = format!("day {}: {}", self.today, notice.into());
        self.notices.push(notice);
    }

    /// Each flower with its stems on hand that have not wilted.
    pub fn stock_levels(&self) -> Vec<(Flower, u32)> {
        self.catalogue
            .iter()
            .map(|flower| {
                let stems = self
                    .batches
                    .iter()
                    .filter(|b| b.flower == flower.name && !b.is_wilted(self.today))
                    .map(|b| b.stems)
                    .sum();
                (flower.clone(), stems)
            })
            .collect()
    }
}

/// What the shop sends.
#[derive(Debug, Clone, Messages)]
pub enum Msg {
    /// The calendar moves on by a number of days.
    Advance {
        #[message(range(min = 1, max = 14))]
        days: u32,
    },
    /// Bunches of a flower bought at the wholesaler's today.
    Buy {
        flower: String,
        #[message(range(min = 1, max = 20))]
        bunches: u32,
    },
    /// A customer orders bouquets of a recipe (`posy`, `classic`, `spray`, `bridal`) for a delivery day and zone
    /// (1 to 3); `kind` is `bouquet`, `wedding` or `funeral`.
    Order {
        customer: String,
        recipe: String,
        #[message(range(min = 1, max = 20))]
        qty: u32,
        day: u32,
        #[message(range(min = 1, max = 3))]
        zone: u32,
        kind: String,
    },
    /// A weekly bouquet, delivered every week on `weekday` (0 Monday .. 6 Sunday).
    Subscribe {
        customer: String,
        recipe: String,
        #[message(range(min = 0, max = 6))]
        weekday: u32,
        #[message(range(min = 1, max = 3))]
        zone: u32,
    },
    /// A subscription's drop for today becomes an order.
    Drop { subscription: u32 },
    /// An order is made up from the stems in the cold room.
    Make { order: u32 },
    /// An order is delivered, and the rest paid.
    Deliver { order: u32 },
    /// The morning's round of the buckets: wilted stems are thrown away.
    Wastage,
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::Batch;

    /// Whether the batch has wilted by `today`: a stem bought on day 10 that keeps 5 days is sold until day 14.
    pub fn is_wilted(batch: &Batch, today: u32) -> bool {
        // BUG(wilted_day)
        today > batch.bought + batch.life
    }
}
