//! The roastery's model: green coffee by origin, roast batches, roasted stock, orders and subscriptions, the day
//! counter, and the messages that change them.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// A sack of green coffee, in grams.
pub const SACK_G: u32 = 60_000;

/// The most green coffee the roaster takes in one batch, in grams.
pub const MAX_BATCH_G: u32 = 12_000;

/// How dark a batch is roasted: the darker, the more weight it loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Roast {
    /// A light roast (loses about 15%).
    Light,
    /// A medium roast.
    Medium,
    /// A dark roast (loses about 20%).
    Dark,
}

impl Roast {
    /// The roast a message names (`light`, `medium`, `dark`).
    pub fn parse(name: &str) -> Option<Roast> {
        match name.trim().to_ascii_lowercase().as_str() {
            "light" => Some(Roast::Light),
            "medium" => Some(Roast::Medium),
            "dark" => Some(Roast::Dark),
            _ => None,
        }
    }
}

/// A retail bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Bag {
    /// A 250 g bag.
    #[serde(rename = "250g")]
    Quarter,
    /// A 1 kg bag.
    #[serde(rename = "1kg")]
    Kilo,
}

impl Bag {
    /// The bag a message names (`250g`, `1kg`).
    pub fn parse(name: &str) -> Option<Bag> {
        match name.trim() {
            "250g" | "250" => Some(Bag::Quarter),
            "1kg" | "1000g" | "1000" => Some(Bag::Kilo),
            _ => None,
        }
    }

    /// What the bag holds, in grams.
    pub fn grams(self) -> u32 {
        match self {
            Bag::Quarter => 250,
            Bag::Kilo => 1_000,
        }
    }
}

/// Green coffee of one origin in the store.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct GreenLot {
    /// Where it comes from.
    pub origin: String,
    /// How much is in the store, in grams.
    pub grams: u32,
    /// Below this (in grams, after the scheduled batches) it is bought again.
    pub reorder_g: u32,
}

/// A roast batch on the schedule.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Batch {
    /// Its number.
    pub id: u32,
    /// The green coffee it roasts.
    pub origin: String,
    /// How dark.
    pub roast: Roast,
    /// Green coffee in, in grams (at most [`MAX_BATCH_G`]).
    pub green_g: u32,
    /// The day it is roasted.
    pub day: u32,
    /// Roasted already.
    pub done: bool,
}

impl Batch {
    /// How long the roaster is busy with the batch, in minutes: warming up, a minute per kilo, and the longer
    /// development of the darker roasts.
    pub fn minutes(&self) -> u32 {
        let base = 12 + self.green_g.div_ceil(1_000);
        match self.roast {
            Roast::Light => base,
            Roast::Medium => base + 2,
            Roast::Dark => base + 4,
        }
    }

    /// `origin #id`, as the schedule lists it.
    pub fn label(&self) -> String {
        format!("{} #{}", self.origin, self.id)
    }
}

/// Roasted coffee of one origin, ready to bag.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct RoastedLot {
    /// Where the green coffee came from.
    pub origin: String,
    /// Roasted weight, in grams.
    pub grams: u32,
}

/// A customer's order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Order {
    /// Its number.
    pub id: u32,
    /// Who ordered.
    pub customer: String,
    /// The coffee.
    pub origin: String,
    /// The bag size.
    pub bag: Bag,
    /// How many bags.
    pub qty: u32,
    /// Priced on the wholesale tiers.
    pub wholesale: bool,
    /// Placed by a subscription.
    pub subscription: bool,
    /// Where it goes: `domestic`, `europe` or `world`.
    pub zone: String,
    /// The day it was placed.
    pub placed: u32,
    /// Shipped already.
    pub shipped: bool,
}

impl Order {
    /// The coffee in the order, in grams.
    pub fn grams(&self) -> u32 {
        self.bag.grams() * self.qty
    }
}

/// A subscription: the same bag, shipped every one, two or four weeks.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Subscription {
    /// Who subscribed.
    pub customer: String,
    /// The coffee.
    pub origin: String,
    /// The bag.
    pub bag: Bag,
    /// Weeks between two deliveries.
    pub every_weeks: u32,
    /// The day of the next delivery.
    pub next_day: u32,
}

/// The roastery.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Roastery {
    /// Today (day 0 is the opening).
    pub day: u32,
    /// Green coffee by origin.
    pub green: Vec<GreenLot>,
    /// Roasted coffee by origin.
    pub roasted: Vec<RoastedLot>,
    /// Every batch scheduled, roasted or not.
    pub batches: Vec<Batch>,
    /// Every order, shipped or not.
    pub orders: Vec<Order>,
    /// The subscriptions.
    pub subscriptions: Vec<Subscription>,
    /// The next batch or order number.
    pub next_id: u32,
}

fn lot(origin: &str, sacks: u32, reorder_kg: u32) -> GreenLot {
    GreenLot {
        origin: origin.to_owned(),
        grams: sacks * SACK_G,
        reorder_g: reorder_kg * 1_000,
    }
}

impl Default for Roastery {
    /// The store on opening day: a sack or two of the house origins, nothing roasted, nothing ordered.
    fn default() -> Self {
        Roastery {
            day: 0,
            green: vec![
                lot("ethiopia", 1, 30),
                lot("colombia", 2, 45),
                lot("brazil", 1, 20),
            ],
            roasted: Vec::new(),
            batches: Vec::new(),
            orders: Vec::new(),
            subscriptions: Vec::new(),
            next_id: 1,
        }
    }
}

impl Roastery {
    /// Green coffee of `origin` in the store, in grams (0 for an origin never bought).
    pub fn green_g(&self, origin: &str) -> u32 {
        self.green
            .iter()
            .find(|lot| lot.origin == origin)
            .map(|lot| lot.grams)
            .unwrap_or(0)
    }

    /// Roasted coffee of `origin` on the shelf, in grams.
    pub fn roasted_g(&self, origin: &str) -> u32 {
        self.roasted
            .iter()
            .find(|lot| lot.origin == origin)
            .map_or(0, |lot| lot.grams)
    }

    /// A fresh batch or order number.
    pub fn take_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }
}

/// What the roastery's day looks like at the roaster: today's batches in order, those that wait for a later day and
/// those the store cannot feed.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct DaySchedule {
    /// The day.
    pub day: u32,
    /// The batches roasted today, as `origin #id`.
    pub batches: Vec<String>,
    /// Minutes the roaster is busy.
    pub minutes: u32,
    /// Roasted coffee out, in grams.
    pub out_g: u32,
    /// Batches due that wait for tomorrow (the roaster is full).
    pub later: Vec<String>,
    /// Batches due whose green coffee is short.
    pub short: Vec<String>,
}

impl PartialEq for DaySchedule {
    /// Two schedules are the same plan when they roast the same batches for the same output; the minutes follow from
    /// the batches, so they are not compared.
    fn eq(&self, other: &Self) -> bool {
        self.day == other.day
            && self.batches == other.batches
            && self.out_g == other.out_g
            && self.later == other.later
            && self.short == other.short
    }
}

/// Green coffee to buy for one origin.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Reorder {
    /// The origin.
    pub origin: String,
    /// How far below its reorder point the free stock is, in grams.
    pub short_g: u32,
}

/// The rule fns the app is built with: `update` and the memos call them through here.
#[derive(Clone, Copy)]
pub struct Rules {
    /// How long the roaster is busy with a batch, in minutes.
    pub minutes: fn(&Batch) -> u32,
    /// What green coffee weighs once roasted, in grams.
    pub roasted_grams: fn(u32, Roast) -> u32,
    /// What an order costs, in cents: (bag, bags, wholesale).
    pub order_price: fn(Bag, u32, bool) -> u32,
    /// Places the orders of the subscriptions due.
    pub place_subscriptions: fn(&mut Roastery),
}

/// What the roastery's staff and customers send.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Buys `sacks` 60 kg sacks of green coffee from `origin`.
    BuySacks {
        /// The origin (`ethiopia`, `colombia`, `brazil`, `kenya`, ...).
        origin: String,
        /// How many sacks.
        #[message(range(min = 1, max = 50))]
        sacks: u32,
    },
    /// Schedules `kg` of `origin` to roast `roast` (`light`, `medium` or `dark`) on `day`, split into batches of at
    /// most 12 kg.
    Schedule {
        /// The origin.
        origin: String,
        /// `light`, `medium` or `dark`.
        roast: String,
        /// Green coffee in, in kilos.
        #[message(range(min = 1, max = 200))]
        kg: u32,
        /// The day to roast it.
        day: u32,
    },
    /// Places an order for `qty` bags (`250g` or `1kg`) of `origin`, shipped to `zone`.
    PlaceOrder {
        /// Who orders.
        customer: String,
        /// The coffee.
        origin: String,
        /// `250g` or `1kg`.
        bag: String,
        /// How many bags.
        #[message(range(min = 1))]
        qty: u32,
        /// `domestic`, `europe` or `world`.
        zone: String,
    },
    /// Ships order `id` from the roasted stock.
    Ship {
        /// The order's number.
        id: u32,
    },
    /// Subscribes `customer` to a bag of `origin` every `every_weeks` weeks (1, 2 or 4), the first in a week.
    Subscribe {
        /// Who subscribes.
        customer: String,
        /// The coffee.
        origin: String,
        /// `250g` or `1kg`.
        bag: String,
        /// 1, 2 or 4.
        every_weeks: u32,
    },
    /// Moves the day counter on by `days`: the batches of the days that passed are roasted, the subscriptions due
    /// are placed.
    Advance {
        /// How many days.
        #[message(range(min = 1, max = 60))]
        days: u32,
    },
    /// Roasts the batches of the days that passed (a command of `advance`).
    #[message(skip)]
    RoastDue,
    /// Places the orders of the subscriptions due (a command of `advance`).
    #[message(skip)]
    PlaceSubscriptions,
}

/// The copies with a mistake (see `graph.rs`).
pub mod slipped {
    use super::{Batch, GreenLot, Roast, Roastery, SACK_G};

    /// [`Batch::minutes`], with a mistake.
    pub fn batch_minutes(batch: &Batch) -> u32 {
        let base = 12 + batch.green_g.div_ceil(1_000);
        match batch.roast {
            Roast::Light => base,
            // BUG(dark_roast_minutes)
            Roast::Medium | Roast::Dark => base + 2,
        }
    }

    fn lot(origin: &str, sacks: u32, reorder_kg: u32) -> GreenLot {
        GreenLot {
            origin: origin.to_owned(),
            grams: sacks * SACK_G,
            reorder_g: reorder_kg * 1_000,
        }
    }

    /// `Roastery::default`, with a mistake.
    pub fn opening() -> Roastery {
        Roastery {
            day: 0,
            green: vec![
                lot("ethiopia", 1, 30),
                // BUG(opening_reorder_point)
                lot("colombia", 2, 45_000),
                lot("brazil", 1, 20),
            ],
            roasted: Vec::new(),
            batches: Vec::new(),
            orders: Vec::new(),
            subscriptions: Vec::new(),
            next_id: 1,
        }
    }
}
