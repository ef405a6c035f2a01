//! The brewery's model: recipes, ingredient lots, batches and their gravity readings, the cellar of filled kegs and
//! bottles, wholesale orders and customers' keg deposits; and the messages that change it.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// Sizes and money, in the units the model keeps.
pub mod units {
    /// A keg holds 30 litres.
    pub const KEG_LITRES: u32 = 30;
    /// A bottle holds 330 ml.
    pub const BOTTLE_ML: u32 = 330;
    /// The deposit on a keg, in pence.
    pub const KEG_DEPOSIT: u32 = 3_000;
    /// Recipes give their ingredients for this many litres.
    pub const RECIPE_LITRES: u32 = 100;
    /// The tanks, in the brewhouse's order: mash tun, kettle, fermenters, conditioning tanks.
    pub const TANKS: [&str; 6] = ["MT", "KT", "FV1", "FV2", "CT1", "CT2"];
}

const DAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// `day` (from 0, the Monday the brewery opened) as the brewery says it: `Thu wk2`.
pub fn day_name(day: u32) -> String {
    format!("{} wk{}", DAY_NAMES[(day % 7) as usize], week_of(day))
}

/// The week (from 1) `day` falls in.
pub fn week_of(day: u32) -> u32 {
    day / 7 + 1
}

/// Grams as kilograms with one decimal: `12.5 kg`.
pub fn kilos(grams: u32) -> String {
    format!("{}.{} kg", grams / 1000, grams % 1000 / 100)
}

/// Pence as pounds: `276.00`.
pub fn pounds(pence: i64) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", pence.abs() / 100, pence.abs() % 100)
}

/// One ingredient of a recipe, by weight for [`units::RECIPE_LITRES`].
#[derive(Clone, Debug, PartialEq)]
pub struct Ingredient {
    /// Its name, as the lots of it are received.
    pub name: String,
    /// Grams per recipe.
    pub grams: u32,
}

/// A beer the brewery makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    /// Its name: the beer's name.
    pub name: String,
    /// Malts, hops and yeast.
    pub ingredients: Vec<Ingredient>,
    /// Days in a fermenter.
    pub ferment_days: u32,
    /// Days in a conditioning tank.
    pub condition_days: u32,
}

impl Recipe {
    fn new(name: &str, ferment_days: u32, condition_days: u32, grist: &[(&str, u32)]) -> Recipe {
        Recipe {
            name: name.to_owned(),
            ingredients: grist
                .iter()
                .map(|&(name, grams)| Ingredient {
                    name: name.to_owned(),
                    grams,
                })
                .collect(),
            ferment_days,
            condition_days,
        }
    }
}

/// A lot of an ingredient, as it was delivered.
#[derive(Clone, Debug, PartialEq)]
pub struct Lot {
    /// The supplier's lot number.
    pub id: String,
    /// What it is.
    pub ingredient: String,
    /// Grams left.
    pub grams: u32,
    /// The last day it may be used.
    pub best_before: u32,
}

/// Where a batch is in its brewing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Stage {
    /// In the mash tun.
    Mash,
    /// In the kettle.
    Boil,
    /// In a fermenter.
    Fermenting,
    /// In a conditioning tank.
    Conditioning,
    /// Conditioned, waiting in its tank to be packaged.
    Bright,
    /// In kegs and bottles.
    Packaged,
}

impl Stage {
    /// What the batch is doing, for the boards.
    pub fn doing(self) -> &'static str {
        match self {
            Stage::Mash => "mashing",
            Stage::Boil => "boiling",
            Stage::Fermenting => "fermenting",
            Stage::Conditioning => "conditioning",
            Stage::Bright => "bright",
            Stage::Packaged => "packaged",
        }
    }
}

/// A gravity reading, in thousandths: 1048 is 1.048.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Reading {
    /// The day it was taken.
    pub day: u32,
    /// The specific gravity, in thousandths.
    pub gravity: u32,
}

/// A brew, from the mash tun to the cellar.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Batch {
    /// Its number (the row's key).
    #[serde(skip)]
    pub id: u32,
    /// The recipe brewed.
    pub beer: String,
    /// Litres brewed.
    pub litres: u32,
    /// The day it was brewed.
    pub brewed_on: u32,
    /// Where it is.
    pub stage: Stage,
    /// The day it came to its stage.
    pub stage_since: u32,
    /// The tank it is in (empty once packaged).
    pub tank: String,
    /// Gravity readings, oldest first: the first is the original gravity.
    pub readings: Vec<Reading>,
    /// Ingredients the stores could not give in full: the name and the grams missing.
    #[serde(skip)]
    pub short: Vec<(String, u32)>,
    /// The day it was packaged.
    pub packaged_on: Option<u32>,
    /// Kegs filled.
    pub kegs: u32,
    /// Bottles filled.
    pub bottles: u32,
}

impl Default for Batch {
    fn default() -> Self {
        Batch {
            id: 0,
            beer: String::new(),
            litres: 0,
            brewed_on: 0,
            stage: Stage::Mash,
            stage_since: 0,
            tank: String::new(),
            readings: Vec::new(),
            short: Vec::new(),
            packaged_on: None,
            kegs: 0,
            bottles: 0,
        }
    }
}

impl Batch {
    /// `Pale Ale #1`.
    pub fn label(&self) -> String {
        format!("{} #{}", self.beer, self.id)
    }

    /// Its strength in tenths of a percent, from its first and last readings (none before two).
    pub fn abv(&self) -> Option<u32> {
        match (self.readings.first(), self.readings.last()) {
            (Some(og), Some(fg)) if self.readings.len() > 1 => {
                Some(super::brewing::abv(og.gravity, fg.gravity))
            }
            _ => None,
        }
    }

    /// Whether it is in the tank `name`.
    pub fn in_tank(&self, name: &str) -> bool {
        self.tank == name
    }
}

/// What the cellar holds of one beer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cellar {
    /// The beer.
    pub beer: String,
    /// Full kegs.
    pub kegs: u32,
    /// Full bottles.
    pub bottles: u32,
}

/// A wholesale order.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// Its number.
    pub id: u32,
    /// Who ordered.
    pub customer: String,
    /// The beer.
    pub beer: String,
    /// Kegs ordered.
    pub kegs: u32,
    /// Bottles ordered.
    pub bottles: u32,
    /// The day it was taken.
    pub taken_on: u32,
    /// The day it went out.
    pub shipped_on: Option<u32>,
}

/// A customer's keg account.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Account {
    /// The customer.
    pub customer: String,
    /// Our kegs they hold.
    pub kegs_out: u32,
    /// Deposits they paid and we hold, in pence.
    pub deposits: u32,
}

/// The brewery.
#[derive(Clone, Debug, PartialEq)]
pub struct Brewery {
    /// Today, from 0 (the Monday it opened).
    pub day: u32,
    /// What it brews.
    pub recipes: Vec<Recipe>,
    /// Ingredient lots in store.
    pub lots: Vec<Lot>,
    /// Every batch, in brewing order.
    pub batches: Vec<Batch>,
    /// Filled kegs and bottles, by beer.
    pub cellar: Vec<Cellar>,
    /// Wholesale orders, in the order taken.
    pub orders: Vec<Order>,
    /// Keg accounts, by customer.
    pub accounts: Vec<Account>,
}

impl Default for Brewery {
    fn default() -> Self {
        Brewery {
            day: 0,
            recipes: vec![
                Recipe::new(
                    "Pale Ale",
                    7,
                    5,
                    &[
                        ("Maris Otter", 20_000),
                        ("Crystal", 1_500),
                        ("Cascade", 400),
                        ("US-05", 50),
                    ],
                ),
                Recipe::new(
                    "Stout",
                    6,
                    10,
                    &[
                        ("Maris Otter", 18_000),
                        ("Roasted Barley", 2_500),
                        ("Fuggles", 300),
                        ("S-04", 50),
                    ],
                ),
                Recipe::new(
                    "Session Mild",
                    5,
                    4,
                    &[
                        ("Maris Otter", 12_000),
                        ("Crystal", 1_000),
                        ("Fuggles", 200),
                        ("S-04", 50),
                    ],
                ),
            ],
            lots: Vec::new(),
            batches: Vec::new(),
            cellar: Vec::new(),
            orders: Vec::new(),
            accounts: Vec::new(),
        }
    }
}

impl Brewery {
    /// The recipe of `beer`.
    pub fn recipe(&self, beer: &str) -> Option<&Recipe> {
        self.recipes.iter().find(|r| r.name == beer)
    }

    /// The batch numbered `id`.
    pub fn batch_mut(&mut self, id: u32) -> Result<&mut Batch, String> {
        self.batches
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or_else(|| format!("no batch #{id}"))
    }

    /// The batch in the tank `name`, if any.
    pub fn in_tank(&self, name: &str) -> Option<&Batch> {
        self.batches.iter().find(|b| b.in_tank(name))
    }
}

/// What the brewery's staff (and its own `update`) may send.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Takes a delivered lot into store.
    Receive {
        /// The supplier's lot number.
        lot: String,
        /// What it is (`Maris Otter`, `Cascade`, ...).
        ingredient: String,
        /// Its weight, in grams.
        #[message(range(min = 1))]
        grams: u32,
        /// How many days from today it keeps.
        days: u32,
    },
    /// Brews a batch of `recipe`: it goes into the mash tun, and its ingredients are drawn from store.
    Brew {
        /// The recipe's name.
        recipe: String,
        /// Litres to brew.
        #[message(range(min = 10, max = 1000))]
        litres: u32,
    },
    /// Draws an ingredient for a batch from store, the lot that expires first first (sent by `brew`).
    #[message(skip)]
    Draw {
        /// The batch.
        batch: u32,
        /// The ingredient.
        ingredient: String,
        /// Grams wanted.
        grams: u32,
    },
    /// Moves the clock on by `days`; batches move on to their next tank as their stages end.
    Advance {
        /// Days.
        #[message(range(min = 1, max = 60))]
        days: u32,
    },
    /// Records a gravity reading of a batch (the first is its original gravity).
    Gravity {
        /// The batch.
        batch: u32,
        /// The gravity in thousandths: 1048 for 1.048.
        #[message(range(min = 990, max = 1150))]
        reading: u32,
    },
    /// Packages a bright batch: `kegs` kegs, and the rest into bottles.
    Package {
        /// The batch.
        batch: u32,
        /// Kegs to fill.
        kegs: u32,
    },
    /// Takes a wholesale order.
    Order {
        /// The customer.
        customer: String,
        /// The beer.
        beer: String,
        /// Kegs.
        kegs: u32,
        /// Bottles.
        bottles: u32,
    },
    /// Ships an order from the cellar.
    Ship {
        /// The order's number.
        order: u32,
    },
    /// Charges a customer the deposit on kegs they took.
    ChargeDeposit {
        /// The customer.
        customer: String,
        /// Kegs.
        kegs: u32,
    },
    /// A customer brings empty kegs back: their deposits are refunded.
    ReturnKegs {
        /// The customer.
        customer: String,
        /// Kegs.
        kegs: u32,
    },
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::{Batch, Stage};

    /// [`Batch::default`] with a mistake.
    pub fn batch() -> Batch {
        Batch {
            id: 0,
            beer: String::new(),
            litres: 0,
            brewed_on: 0,
            // BUG(batch_stage)
            stage: Stage::Boil,
            stage_since: 0,
            tank: String::new(),
            readings: Vec::new(),
            short: Vec::new(),
            packaged_on: None,
            kegs: 0,
            bottles: 0,
        }
    }
}
