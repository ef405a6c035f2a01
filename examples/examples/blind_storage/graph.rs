//! The app: what an agent may see and send, and the builder that wires the graph (with one mistake in place, when a
//! slip is chosen).

use super::model::{Msg, Policy, Rules, Unit, Warehouse};
use super::services::AuctionEstimate;
use super::units::{RowFactory, Units};
use super::{arrears, model, moveins, pricing, services, units, update};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

/// Which mistake the app is built with (`None`: the correct app).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slip {
    None,
    InsurerCents,
    AuctionGross,
    RowWeeklyPlan,
    ChaseByPaid,
    PaymentAssign,
    VanInverted,
    PremiumFloor,
    LockoutBoundary,
    AuctionMissing,
    LongStayBoundary,
    VacantCover,
    LateFeePounds,
}

/// What an agent may see: the warehouse (and its messages), the units, and what the desk and the manager read.
#[expose]
pub struct StorageApp {
    #[expose(messages, value)]
    pub warehouse: Mvu<Warehouse, Msg>,
    #[expose]
    #[node]
    pub units: Units,
    #[expose]
    #[node]
    pub vacant: Memo<usize>,
    #[expose]
    #[node]
    pub lockouts: Memo<usize>,
    #[expose]
    #[node]
    pub by_balance: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub billing_due: Memo<u64>,
    #[expose]
    #[node]
    pub insured_cover: Memo<u64>,
    #[expose]
    #[node]
    pub takings: Memo<u64>,
    #[expose]
    #[node]
    pub van_today: Memo<u32>,
    #[expose]
    #[node]
    pub arrears: Memo<arrears::ArrearsReport>,
    #[expose]
    #[node]
    pub quote: Memo<moveins::Quote>,
    #[expose]
    #[node]
    pub block_premium: AsyncMemo<u64>,
    #[expose]
    #[node]
    pub auction: AsyncMemo<AuctionEstimate>,
}

/// Builds the storage warehouse's graph, with `slip`'s mistake in place.
#[node]
pub fn storage_app(slip: Slip) -> StorageApp {
    let rules = Rules {
        premium: if slip == Slip::PremiumFloor {
            pricing::slipped::insurance_premium
        } else {
            pricing::insurance_premium
        },
        stage: if slip == Slip::LockoutBoundary {
            arrears::slipped::stage
        } else {
            arrears::stage
        },
        cover: if slip == Slip::VacantCover {
            model::slipped::cover_cents
        } else {
            Unit::cover_cents
        },
        pay: if slip == Slip::PaymentAssign {
            update::slipped::apply_payment
        } else {
            update::apply_payment
        },
        move_in: if slip == Slip::VanInverted {
            update::slipped::move_in
        } else {
            update::move_in
        },
    };
    let policy = if slip == Slip::LateFeePounds {
        model::slipped::default()
    } else {
        Policy::default()
    };
    let warehouse = Mvu::with_commands(
        (Warehouse::opening(policy), Vec::new()),
        move |msg, warehouse: &Warehouse| update::update(msg, warehouse, &rules),
    );
    let policy = warehouse.select(|w| w.policy.clone());
    let make_row: RowFactory = if slip == Slip::RowWeeklyPlan {
        units::slipped::next_charge
    } else {
        units::next_charge
    };
    let units = units::units(&warehouse, &policy, rules, make_row);
    let vacant = units.filter(|unit| unit.rental.is_none()).count();
    let lockouts = units.count_by(|unit| unit.rental.as_ref().is_some_and(|r| r.locked));
    let by_balance = if slip == Slip::ChaseByPaid {
        units::slipped::by_balance(&units)
    } else {
        units::by_balance(&units)
    };
    let billing_due = units::billing_due(&units);
    let insured_cover = units.sum_by(move |unit| (rules.cover)(unit));
    let takings = warehouse.select(|w| {
        let current: u64 = w
            .units
            .iter()
            .filter_map(|u| u.rental.as_ref())
            .map(|r| r.paid_cents)
            .sum();
        w.past_takings_cents + current
    });
    let van_today = moveins::van_today(&warehouse);
    let arrears = if slip == Slip::AuctionMissing {
        arrears::slipped::arrears(&warehouse, rules.stage)
    } else {
        arrears::arrears(&warehouse, rules.stage)
    };
    let quote = if slip == Slip::LongStayBoundary {
        moveins::slipped::quote(&warehouse, rules.premium)
    } else {
        moveins::quote(&warehouse, rules.premium)
    };
    let block_premium = if slip == Slip::InsurerCents {
        services::slipped::block_premium(&insured_cover)
    } else {
        services::block_premium(&insured_cover)
    };
    let lots = services::lots(&warehouse, rules.stage);
    let auction = if slip == Slip::AuctionGross {
        services::slipped::auction(&lots, &policy)
    } else {
        services::auction(&lots, &policy)
    };
    StorageApp {
        warehouse,
        units,
        vacant,
        lockouts,
        by_balance,
        billing_due,
        insured_cover,
        takings,
        van_today,
        arrears,
        quote,
        block_premium,
        auction,
    }
}
