//! The warehouse: its units, the rentals on them, the van's diary, the house rules, and the messages the desk sends.

use ranvier::Messages;
use ranvier::schemars::JsonSchema;
use ranvier::serde::{Deserialize, Serialize};

/// The least cover a rental carries, whatever the tenant declares: £1,000.
pub const MIN_COVER_CENTS: u64 = 100_000;

/// The sizes of unit the warehouse lets.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Size {
    /// A 15 sq ft locker.
    Locker,
    /// 35 sq ft: a box room.
    Small,
    /// 75 sq ft: a one-bedroom flat.
    Medium,
    /// 150 sq ft: a family house.
    Large,
}

/// How a tenant is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Plan {
    /// Billed every 7 days at the weekly rate.
    Weekly,
    /// Billed every 30 days at the monthly rate (with the monthly discount).
    Monthly,
}

impl Plan {
    /// The days between two bills.
    pub fn days(self) -> u32 {
        match self {
            Plan::Weekly => 7,
            Plan::Monthly => 30,
        }
    }
}

/// A move-in offer, off the first bill only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
#[schemars(crate = "ranvier::schemars")]
pub enum Offer {
    /// The first week's rent free (a week off the first month on a monthly plan).
    FreeWeek,
    /// Half off the first month (monthly plans only).
    HalfFirstMonth,
}

/// A tenant's name, as the desk typed it: "ada shaw " and "Ada Shaw" are the same tenant.
#[derive(Debug, Clone, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Tenant(pub String);

impl Tenant {
    /// The tenant named `name`.
    pub fn new(name: &str) -> Tenant {
        Tenant(name.trim().to_owned())
    }
}

impl PartialEq for Tenant {
    fn eq(&self, other: &Tenant) -> bool {
        self.0.trim().eq_ignore_ascii_case(other.0.trim())
    }
}

/// A tenant's rental of one unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Rental {
    pub tenant: Tenant,
    pub plan: Plan,
    /// What the tenant declared the goods are worth, the insurance cover asked for.
    pub declared_cents: u64,
    pub offer: Option<Offer>,
    /// Whether the van was hired for the move-in.
    pub van: bool,
    /// The day the tenant moved in.
    pub started_day: u32,
    /// How many bills have been raised.
    pub periods_billed: u32,
    /// What the tenant owes now.
    pub balance_cents: u64,
    /// Everything the tenant has paid on this rental.
    pub paid_cents: u64,
    /// Every late fee charged on this rental.
    pub late_fees_cents: u64,
    /// Whether this spell of arrears has had its late fee.
    pub late_fee_charged: bool,
    /// The first day of the unpaid balance, while there is one.
    pub overdue_since: Option<u32>,
    /// Locked out of the unit until the balance is paid.
    pub locked: bool,
}

impl Rental {
    /// A new rental from `day`, nothing billed yet.
    pub fn start(request: &MoveInRequest, day: u32) -> Rental {
        Rental {
            tenant: request.tenant.clone(),
            plan: request.plan,
            declared_cents: request.declared_cents,
            offer: request.offer,
            van: request.van,
            started_day: day,
            periods_billed: 0,
            balance_cents: 0,
            paid_cents: 0,
            late_fees_cents: 0,
            late_fee_charged: false,
            overdue_since: None,
            locked: false,
        }
    }

    /// How many bills should have been raised by `today` (one on the first day of each period).
    pub fn periods_due(&self, today: u32) -> u32 {
        today.saturating_sub(self.started_day) / self.plan.days() + 1
    }

    /// How many days the balance has been unpaid on `today` (0 when nothing is owed).
    pub fn days_overdue(&self, today: u32) -> u32 {
        match self.overdue_since {
            Some(since) if self.balance_cents > 0 => today.saturating_sub(since),
            _ => 0,
        }
    }
}

/// One unit of the warehouse.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Unit {
    pub id: String,
    pub size: Size,
    pub rental: Option<Rental>,
}

impl Unit {
    /// The insurance cover on the unit: what its tenant declared, at least the minimum; nothing on an empty unit.
    #[ranvier::trace_fn]
    pub fn cover_cents(&self) -> u64 {
        match &self.rental {
            Some(rental) => rental.declared_cents.max(MIN_COVER_CENTS),
            None => 0,
        }
    }
}

/// A van booking for a move-in.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct VanBooking {
    pub unit: String,
    pub day: u32,
}

/// A prospective tenant's enquiry, which the quote prices.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Enquiry {
    pub size: Size,
    pub plan: Plan,
    pub weeks: u32,
    pub declared_cents: u64,
    pub offer: Option<Offer>,
    pub van: bool,
}

/// The house rules: arrears, fees, discounts and the van.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Policy {
    /// Days a balance may stay unpaid before the late fee.
    pub grace_days: u32,
    /// The late fee, or `late_fee_percent` of the balance if that is more.
    pub late_fee_cents: u64,
    pub late_fee_percent: u64,
    /// Days unpaid before the tenant is locked out.
    pub lockout_days: u32,
    /// Days unpaid before the unit's contents go to auction.
    pub auction_days: u32,
    /// What the auction house keeps of a lot's price.
    pub auction_commission_percent: u64,
    /// Off the monthly rate, against four-and-a-third weekly rates.
    pub monthly_discount_percent: u64,
    /// A stay of this many weeks or more is quoted `long_stay_percent` off the rent.
    pub long_stay_weeks: u32,
    pub long_stay_percent: u64,
    /// Move-ins the van can do in a day.
    pub van_slots_per_day: u32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            grace_days: 5,
            late_fee_cents: 1_500,
            late_fee_percent: 10,
            lockout_days: 14,
            auction_days: 90,
            auction_commission_percent: 20,
            monthly_discount_percent: 10,
            long_stay_weeks: 26,
            long_stay_percent: 5,
            van_slots_per_day: 4,
        }
    }
}

/// The model: the day, the rules, the units and the van's diary.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Warehouse {
    /// Today, counted from the day the warehouse opened (day 1).
    pub day: u32,
    pub policy: Policy,
    pub units: Vec<Unit>,
    pub van: Vec<VanBooking>,
    pub enquiry: Option<Enquiry>,
    /// What tenants who have left (or been sold up) paid.
    pub past_takings_cents: u64,
    /// Arrears the auction did not cover.
    pub written_off_cents: u64,
    /// What the desk should know: refusals, lock-outs.
    pub notices: Vec<String>,
}

impl Warehouse {
    /// The warehouse on its first day: two units of each size, all empty.
    pub fn opening(policy: Policy) -> Warehouse {
        let sizes = [
            ("A", Size::Locker),
            ("B", Size::Small),
            ("C", Size::Medium),
            ("D", Size::Large),
        ];
        let units = sizes
            .iter()
            .flat_map(|&(row, size)| {
                (1..=2).map(move |n| Unit {
                    id: format!("{row}{n}"),
                    size,
                    rental: None,
                })
            })
            .collect();
        Warehouse {
            day: 1,
            policy,
            units,
            van: Vec::new(),
            enquiry: None,
            past_takings_cents: 0,
            written_off_cents: 0,
            notices: Vec::new(),
        }
    }

    /// The rental on unit `id`, if it is let.
    pub fn rental_mut(&mut self, id: &str) -> Option<&mut Rental> {
        self.units
            .iter_mut()
            .find(|unit| unit.id == id)
            .and_then(|unit| unit.rental.as_mut())
    }
}

/// How far a balance has gone unpaid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "snake_case")]
pub enum Stage {
    /// Nothing owed, or billed today.
    Current,
    /// Owed, within the grace days.
    Grace,
    /// Past the grace days: the late fee is due.
    Late,
    /// Locked out of the unit.
    LockedOut,
    /// Unpaid so long the contents go to auction.
    Auction,
}

/// A move-in, as `move_in` takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveInRequest {
    pub unit: String,
    pub tenant: Tenant,
    pub plan: Plan,
    pub declared_cents: u64,
    pub offer: Option<Offer>,
    pub van: bool,
}

/// What the desk may send.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Lets `unit` to `tenant` from today, raises the first bill, and books the van if `van`.
    MoveIn {
        unit: String,
        tenant: String,
        plan: Plan,
        /// What the goods are worth, in pounds: the insurance cover (at least £1,000).
        declared_value: u64,
        offer: Option<Offer>,
        van: bool,
    },
    /// Takes a payment of `amount` cents on `unit`'s balance (more than the balance is handed back).
    Pay {
        unit: String,
        #[message(range(min = 1))]
        amount: u64,
    },
    /// Moves the calendar on `days` days: bills fall due, late fees are charged, tenants are locked out.
    PassDays {
        #[message(range(min = 1, max = 365))]
        days: u32,
    },
    /// Books the van for `unit` on the first day with a free slot.
    BookVan { unit: String },
    /// Ends the rental on `unit` (its balance must be paid).
    MoveOut { unit: String },
    /// Clears `unit` after its auction: the `proceeds` (cents) go against the arrears, the rest is written off.
    SellOff { unit: String, proceeds: u64 },
    /// Prices a stay: `weeks` weeks in a unit of `size`.
    Enquire {
        size: Size,
        plan: Plan,
        #[message(range(min = 1, max = 520))]
        weeks: u32,
        /// In pounds.
        declared_value: u64,
        offer: Option<Offer>,
        van: bool,
    },
    /// Raises the next bill on `unit` (sent by move-ins and the calendar).
    #[message(skip)]
    Charge { unit: String },
}

/// The rules and handlers the app goes through (`graph.rs` picks them).
#[derive(Clone, Copy)]
pub struct Rules {
    /// A period's insurance premium for a declared value.
    pub premium: fn(u64, Plan) -> u64,
    /// How far a balance unpaid for some days has gone.
    pub stage: fn(u32, &Policy) -> Stage,
    /// The cover on a unit.
    pub cover: fn(&Unit) -> u64,
    /// Takes a payment on a rental; returns what was taken.
    pub pay: fn(&mut Rental, u64) -> u64,
    /// Lets a unit; returns the commands that follow.
    pub move_in: fn(&mut Warehouse, MoveInRequest) -> Vec<Msg>,
}

pub mod slipped {
    use super::{MIN_COVER_CENTS, Policy, Unit};

    #[ranvier::trace_fn]
    pub fn cover_cents(unit: &Unit) -> u64 {
        match &unit.rental {
            Some(rental) => rental.declared_cents.max(MIN_COVER_CENTS),
            // BUG(vacant_cover)
            None => MIN_COVER_CENTS,
        }
    }

    pub fn default() -> Policy {
        Policy {
            grace_days: 5,
            // BUG(late_fee_pounds)
            late_fee_cents: 15,
            late_fee_percent: 10,
            lockout_days: 14,
            auction_days: 90,
            auction_commission_percent: 20,
            monthly_discount_percent: 10,
            long_stay_weeks: 26,
            long_stay_percent: 5,
            van_slots_per_day: 4,
        }
    }
}
