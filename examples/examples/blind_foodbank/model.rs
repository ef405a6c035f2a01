//! The food bank's types and messages.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// What a donation is, on the shelves and in a parcel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Category {
    /// Tinned food.
    Tins,
    /// Pasta, rice and the like.
    Pasta,
    /// Fruit and vegetables.
    Fresh,
    /// Milk, cheese, yoghurt.
    Dairy,
}

impl Category {
    /// Every category, in shelf order.
    pub const ALL: [Category; 4] = [
        Category::Tins,
        Category::Pasta,
        Category::Fresh,
        Category::Dairy,
    ];

    /// The category a volunteer typed, if there is one.
    pub fn parse(text: &str) -> Option<Category> {
        Category::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text.trim()))
    }

    /// Its name on the shelf labels.
    pub fn name(self) -> &'static str {
        match self {
            Category::Tins => "tins",
            Category::Pasta => "pasta",
            Category::Fresh => "fresh",
            Category::Dairy => "dairy",
        }
    }
}

/// Grams as the volunteers read them: `2.4 kg`.
pub fn kg(grams: u32) -> String {
    format!("{}.{} kg", grams / 1000, grams % 1000 / 100)
}

/// A donation on the shelves (what is left of it).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Donation {
    /// Its number, from 1.
    pub id: u32,
    /// Who gave it.
    pub donor: String,
    /// What it is.
    pub category: Category,
    /// What is left, in grams.
    pub grams: u32,
    /// The day it was logged.
    pub received: u32,
    /// Its best-before day.
    pub best_before: u32,
}

/// A household registered with the food bank.
#[derive(Clone, Debug, PartialEq)]
pub struct Household {
    /// Its name.
    pub name: String,
    /// How many people live there.
    pub people: u32,
    /// The part of town it lives in.
    pub zone: String,
    /// Whether it cannot collect and gets its parcel delivered.
    pub delivery: bool,
}

/// A parcel packed for a household.
#[derive(Clone, Debug, PartialEq)]
pub struct Parcel {
    /// The household.
    pub household: String,
    /// The day it was packed.
    pub day: u32,
    /// The people it feeds.
    pub people: u32,
    /// What went in, by category, in grams.
    pub lines: Vec<(Category, u32)>,
}

impl Parcel {
    /// Its weight, in grams.
    pub fn grams(&self) -> u32 {
        self.lines.iter().map(|&(_, g)| g).sum()
    }
}

/// A parcel to take to a household.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    /// The household.
    pub household: String,
    /// Its zone.
    pub zone: String,
    /// The day the van takes it.
    pub day: u32,
}

/// A volunteer's shift at a packing table; times as `hhmm` (`930` is 09:30).
#[derive(Clone, Debug, PartialEq)]
pub struct Shift {
    /// The volunteer.
    pub volunteer: String,
    /// The packing table, from 1.
    pub table: u32,
    /// The day.
    pub day: u32,
    /// From, `hhmm`.
    pub from: u32,
    /// To, `hhmm`.
    pub to: u32,
}

/// What came in on a day, for the week's report.
#[derive(Clone, Debug, PartialEq)]
pub struct Intake {
    /// The day.
    pub day: u32,
    /// Grams.
    pub grams: u32,
}

/// The food bank.
#[derive(Clone, Debug, PartialEq)]
pub struct Pantry {
    /// The day, from 1 (a Monday).
    pub today: u32,
    /// The next donation's number.
    pub next_id: u32,
    /// The shelves.
    pub donations: Vec<Donation>,
    /// Every donation's weight as it came in.
    pub intake: Vec<Intake>,
    /// The households.
    pub households: Vec<Household>,
    /// Parcels packed.
    pub parcels: Vec<Parcel>,
    /// Parcels to deliver.
    pub deliveries: Vec<Delivery>,
    /// Shifts.
    pub shifts: Vec<Shift>,
    /// Food thrown away past its best-before day: (day, grams).
    pub wasted: Vec<(u32, u32)>,
}

impl Default for Pantry {
    fn default() -> Self {
        Pantry {
            today: 1,
            next_id: 1,
            donations: Vec::new(),
            intake: Vec::new(),
            households: Vec::new(),
            parcels: Vec::new(),
            deliveries: Vec::new(),
            shifts: Vec::new(),
            wasted: Vec::new(),
        }
    }
}

impl Pantry {
    /// The household called `name`.
    pub fn household(&self, name: &str) -> Option<&Household> {
        self.households.iter().find(|h| h.name == name)
    }
}

/// The week a day falls in, from 1.
pub fn week_of(day: u32) -> u32 {
    (day.max(1) - 1) / 7 + 1
}

/// The food bank's messages.
#[derive(Clone, Debug, PartialEq, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// Logs a donation.
    Donate {
        /// Who gave it.
        donor: String,
        /// tins, pasta, fresh or dairy.
        category: String,
        /// Its weight.
        #[message(range(min = 1))]
        grams: u32,
        /// Its best-before day.
        best_before: u32,
    },
    /// Registers a household.
    Register {
        /// Its name.
        household: String,
        /// How many live there.
        #[message(range(min = 1))]
        people: u32,
        /// Its part of town.
        zone: String,
        /// Whether it gets its parcel delivered.
        delivery: bool,
    },
    /// Packs today's parcel for a household, from the food that goes off first.
    Pack {
        /// The household.
        household: String,
    },
    /// Books the van for a parcel (a command of `pack`).
    #[message(skip)]
    BookDelivery {
        /// The household.
        household: String,
    },
    /// A volunteer's shift today at a packing table.
    Shift {
        /// The volunteer.
        volunteer: String,
        /// The table.
        #[message(range(min = 1, max = 3))]
        table: u32,
        /// From, hhmm.
        from: u32,
        /// To, hhmm.
        to: u32,
    },
    /// Closes the day: what went past its best-before day is thrown away.
    NextDay,
}
