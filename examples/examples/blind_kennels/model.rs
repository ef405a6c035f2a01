//! The kennels' model: the pens, the pets their owners have registered, the stays booked, the walks planned and the
//! money taken, with the messages the front desk sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// `£p.pp` of an amount in pence.
pub fn pounds(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// A pen's size; cats board in cattery units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Size {
    Small,
    Medium,
    Large,
    Cattery,
}

impl Size {
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
            Size::Cattery => "cattery",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Species {
    Dog,
    Cat,
}

/// A pen (or cattery unit).
#[derive(Clone, Debug, PartialEq)]
pub struct Pen {
    pub id: u32,
    pub size: Size,
}

/// A pet its owner has registered with the kennels.
#[derive(Clone, Debug, PartialEq)]
pub struct Pet {
    pub name: String,
    pub owner: String,
    pub species: Species,
    /// The pen size it needs.
    pub size: Size,
    /// Its food, and the grams of one meal.
    pub food: String,
    pub grams: u32,
    /// Meals a day, when the owner asked for other than the usual two.
    pub meals: Option<u32>,
    pub medication: Option<String>,
    /// Vaccinations in date until this day of the year.
    pub vaccinated_until: u32,
}

/// Meals a day when the owner says nothing.
pub const USUAL_MEALS: u32 = 2;

impl Pet {
    #[allow(clippy::too_many_arguments)]
    fn registered(
        name: &str,
        owner: &str,
        species: Species,
        size: Size,
        food: &str,
        grams: u32,
        meals: Option<u32>,
        vaccinated_until: u32,
    ) -> Pet {
        Pet {
            name: name.to_owned(),
            owner: owner.to_owned(),
            species,
            size,
            food: food.to_owned(),
            grams,
            meals,
            medication: None,
            vaccinated_until,
        }
    }

    /// How many meals the kitchen makes it a day.
    pub fn meals_per_day(&self) -> u32 {
        self.meals.unwrap_or(USUAL_MEALS)
    }
}

/// Where a stay is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum Status {
    Booked,
    CheckedIn,
    CheckedOut,
    Cancelled,
}

/// Something extra booked on a stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum Addon {
    Grooming,
    ExtraWalk,
}

impl Addon {
    pub fn parse(text: &str) -> Option<Addon> {
        match text {
            "grooming" => Some(Addon::Grooming),
            "extra_walk" => Some(Addon::ExtraWalk),
            _ => None,
        }
    }
}

/// A stay: one owner's pets sharing one pen from the arrival day to the departure day (nights in between).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Stay {
    #[serde(skip)]
    pub id: u32,
    pub owner: String,
    pub pets: Vec<String>,
    pub pen: u32,
    pub size: Size,
    pub arrive: u32,
    pub depart: u32,
    pub booked_on: u32,
    /// Pence taken when booked.
    pub deposit: u32,
    pub addons: Vec<Addon>,
    pub status: Status,
}

impl Stay {
    pub fn nights(&self) -> u32 {
        self.depart - self.arrive
    }

    /// Still to come or in the kennels: the pen is taken for its nights.
    pub fn holds_pen(&self) -> bool {
        matches!(self.status, Status::Booked | Status::CheckedIn)
    }

    /// `stay 2 (Smith: Rex, Bella)`.
    pub fn title(&self) -> String {
        format!(
            "stay {} ({}: {})",
            self.id,
            self.owner,
            self.pets.join(", ")
        )
    }
}

/// A walk on the rota: a dog, and the time it goes out.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    pub stay: u32,
    pub dog: String,
    pub at: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayKind {
    Deposit,
    Balance,
    Refund,
}

/// Money taken or given back.
#[derive(Clone, Debug, PartialEq)]
pub struct Payment {
    pub day: u32,
    pub stay: u32,
    pub kind: PayKind,
    pub pence: u32,
}

/// The whole kennels.
#[derive(Clone, Debug, PartialEq)]
pub struct Kennels {
    /// Day of the year.
    pub today: u32,
    pub pens: Vec<Pen>,
    pub pets: Vec<Pet>,
    pub stays: Vec<Stay>,
    pub walks: Vec<Walk>,
    pub staff: Vec<String>,
    pub payments: Vec<Payment>,
    pub notices: Vec<String>,
}

/// The kennels on day 100: seven pens, the regulars' pets on file, three walkers on the rota, nothing booked.
impl Default for Kennels {
    fn default() -> Self {
        use Size::{Cattery, Large, Medium, Small};
        use Species::{Cat, Dog};
        let mut biscuit = Pet::registered(
            "Biscuit",
            "Patel",
            Dog,
            Small,
            "puppy mix",
            120,
            Some(3),
            200,
        );
        biscuit.medication = Some("eye drops".into());
        Kennels {
            today: 100,
            pens: vec![
                Pen { id: 1, size: Small },
                Pen { id: 2, size: Small },
                Pen {
                    id: 3,
                    size: Medium,
                },
                Pen {
                    id: 4,
                    size: Medium,
                },
                Pen { id: 5, size: Large },
                Pen {
                    id: 6,
                    size: Cattery,
                },
                Pen {
                    id: 7,
                    size: Cattery,
                },
            ],
            pets: vec![
                Pet::registered("Rex", "Smith", Dog, Large, "kibble", 300, None, 130),
                Pet::registered("Bella", "Smith", Dog, Medium, "kibble", 200, None, 104),
                biscuit,
                Pet::registered(
                    "Tom",
                    "Okafor",
                    Cat,
                    Cattery,
                    "wet cat food",
                    80,
                    Some(3),
                    150,
                ),
                Pet::registered(
                    "Tibbles",
                    "Okafor",
                    Cat,
                    Cattery,
                    "wet cat food",
                    70,
                    None,
                    150,
                ),
                Pet::registered("Max", "Jones", Dog, Medium, "kibble", 250, None, 90),
                Pet::registered("Luna", "Jones", Dog, Medium, "grain free", 220, None, 140),
            ],
            stays: Vec::new(),
            walks: Vec::new(),
            staff: vec!["Kim".into(), "Lee".into(), "Sam".into()],
            payments: Vec::new(),
            notices: Vec::new(),
        }
    }
}

impl Kennels {
    pub fn pet(&self, name: &str) -> Option<&Pet> {
        self.pets.iter().find(|pet| pet.name == name)
    }

    pub fn pen(&self, id: u32) -> Option<&Pen> {
        self.pens.iter().find(|pen| pen.id == id)
    }

    pub fn stay(&self, id: u32) -> Option<&Stay> {
        self.stays.iter().find(|stay| stay.id == id)
    }

    pub fn stay_mut(&mut self, id: u32) -> Option<&mut Stay> {
        self.stays.iter_mut().find(|stay| stay.id == id)
    }

    pub fn note(&mut self, notice: impl Into<String>) {
        let line = format!("day {}: {}", self.today, notice.into());
        self.notices.push(line);
    }
}

/// What the front desk sends.
#[derive(Debug, Clone, Messages)]
pub enum Msg {
    /// Books `pets` (names on file, one owner's) into `pen` from day `arrive` for `nights`; a deposit is taken.
    Book {
        owner: String,
        pets: Vec<String>,
        pen: u32,
        arrive: u32,
        #[message(range(min = 1, max = 60))]
        nights: u32,
    },
    /// The pets of a stay arrive; their vaccinations must be in date until they go home.
    CheckIn { stay: u32 },
    /// The pets go home and the balance is paid.
    CheckOut { stay: u32 },
    /// The owner cancels; the deposit is refunded by the days' notice given.
    Cancel { stay: u32 },
    /// Gives `pence` of a stay's deposit back.
    Refund { stay: u32, pence: u32 },
    /// Puts a stay's dogs on the walk rota.
    PlanWalks { stay: u32 },
    /// Books an add-on (`grooming`, `extra_walk`) on a stay.
    AddOn { stay: u32, addon: String },
    /// The vet has vaccinated `pet`: in date until day `until`.
    Vaccinate { pet: String, until: u32 },
    /// The calendar moves on.
    Advance {
        #[message(range(min = 1, max = 30))]
        days: u32,
    },
}

/// Copies of the model's code with one mistake each, for the blind test.
pub mod slipped {
    use super::Pet;

    /// [`Pet::meals_per_day`].
    pub fn meals_per_day(pet: &Pet) -> u32 {
        // BUG(meals_default)
        pet.meals.unwrap_or_default()
    }
}
