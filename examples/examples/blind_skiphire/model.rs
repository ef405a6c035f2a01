//! The yard's model: the day, the skips booked and out on hire, the customers on account, and the messages.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The three sizes of skip the yard hires out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum Size {
    /// 2 yards: a bathroom refit.
    Mini,
    /// 4 yards: a kitchen.
    Midi,
    /// 8 yards: the builder's skip.
    Builders,
}

impl Size {
    /// The size a message names (`mini`, `midi`, `builders`).
    pub fn parse(name: &str) -> Option<Size> {
        match name.trim().to_ascii_lowercase().as_str() {
            "mini" => Some(Size::Mini),
            "midi" => Some(Size::Midi),
            "builders" | "builder's" | "builder" => Some(Size::Builders),
            _ => None,
        }
    }
}

/// One skip hire: booked for a day, placed, then collected and weighed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Hire {
    /// The skip's ticket, `S1`, `S2`, ...
    pub id: String,
    /// Who hired it.
    pub customer: String,
    /// Its size.
    pub size: Size,
    /// The day it is (or was) placed.
    pub placed_on: u32,
    /// Whether it stands on the road (a council permit is needed).
    pub on_road: bool,
    /// Whether it holds hazardous waste.
    pub hazardous: bool,
    /// The driver whose round lifts it, once assigned.
    pub driver: Option<String>,
    /// The day it was collected.
    pub collected_on: Option<u32>,
    /// Its load at collection, in tenths of a tonne (the driver's reading).
    pub tenths: u32,
    /// What it was billed at collection, in pence.
    pub billed: u64,
}

/// A customer on account: billed monthly, up to a credit limit.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Account {
    /// The customer's name.
    pub customer: String,
    /// The credit limit, in pence.
    pub limit: u64,
    /// What they owe, in pence.
    pub owed: u64,
}

/// The yard.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Yard {
    /// Today (the first day is 1).
    pub day: u32,
    /// The next ticket number.
    pub next_id: u32,
    /// Every hire, in booking order.
    pub hires: Vec<Hire>,
    /// The customers on account.
    pub accounts: Vec<Account>,
    /// Cash taken from customers not on account, in pence.
    pub cash_taken: u64,
}

impl Default for Yard {
    fn default() -> Self {
        Yard {
            day: 1,
            next_id: 1,
            hires: Vec::new(),
            accounts: vec![
                Account {
                    customer: "Acme Builders".to_owned(),
                    limit: 60_000,
                    owed: 0,
                },
                Account {
                    customer: "Hill Farm".to_owned(),
                    limit: 25_000,
                    owed: 0,
                },
            ],
            cash_taken: 0,
        }
    }
}

impl Yard {
    /// The skips out on hire today: placed on or before today, not yet collected.
    pub fn open_hires(&self) -> Vec<Hire> {
        self.hires
            .iter()
            .filter(|hire| hire.collected_on.is_none() && hire.placed_on <= self.day)
            .cloned()
            .collect()
    }

    /// The account of `customer`, if they have one.
    pub fn account(&self, customer: &str) -> Option<&Account> {
        self.accounts.iter().find(|a| a.customer == customer)
    }

    /// The hire with ticket `id`.
    pub fn hire_mut(&mut self, id: &str) -> Option<&mut Hire> {
        self.hires.iter_mut().find(|hire| hire.id == id)
    }
}

/// What the office sends.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Books a skip of `size` (`mini`, `midi`, `builders`) for `customer`, placed on day `on_day`.
    Book {
        /// Who hires it.
        customer: String,
        /// `mini`, `midi` or `builders`.
        size: String,
        /// The day it is placed (today or later).
        on_day: u32,
        /// Whether it stands on the road.
        on_road: bool,
        /// Whether it takes hazardous waste.
        hazardous: bool,
    },
    /// Puts skip `id` on `driver`'s collection round.
    Assign {
        /// The ticket.
        id: String,
        /// The driver.
        driver: String,
    },
    /// Collects skip `id`, its load read at `tenths` of a tonne.
    Collect {
        /// The ticket.
        id: String,
        /// The load, in tenths of a tonne.
        tenths: u32,
    },
    /// Bills `customer` `cents` (sent by `collect`).
    Bill {
        /// The customer.
        customer: String,
        /// The amount, in pence.
        cents: u64,
    },
    /// Takes a payment of `cents` from `customer`.
    Pay {
        /// The customer.
        customer: String,
        /// The amount, in pence.
        cents: u64,
    },
    /// Moves the day counter on by `days`.
    Advance {
        /// How many days.
        days: u32,
    },
}

pub mod slipped {
    use super::{Account, Hire, Yard};

    pub fn open_hires(yard: &Yard) -> Vec<Hire> {
        yard.hires
            .iter()
            // BUG(open_today_excluded)
            .filter(|hire| hire.collected_on.is_none() && hire.placed_on < yard.day)
            .cloned()
            .collect()
    }

    pub fn default_yard() -> Yard {
        Yard {
            day: 1,
            next_id: 1,
            hires: Vec::new(),
            accounts: vec![
                Account {
                    customer: "Acme Builders".to_owned(),
                    // BUG(default_limit)
                    limit: 6_000,
                    owed: 0,
                },
                Account {
                    customer: "Hill Farm".to_owned(),
                    limit: 25_000,
                    owed: 0,
                },
            ],
            cash_taken: 0,
        }
    }
}
