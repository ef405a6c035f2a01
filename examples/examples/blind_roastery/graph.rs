//! The app an agent sees (`#[expose]`) and the builder that makes its graph, with the correct fns or, for a chosen
//! [`Slip`], the copy of one fn that holds a mistake.

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::model::{self, Batch, DaySchedule, Msg, Reorder, RoastedLot, Roastery, Rules};
use super::orders::{self, Orders};
use super::{pricing, roasting, services, stock, update};

/// Which copy with a mistake the app is built with (`None`: the correct app).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct app.
    None,
    /// `services::slipped::reorder_cost`.
    ReorderWholeSacks,
    /// `services::slipped::courier_quote`.
    CourierSwappedArgs,
    /// `orders::slipped::order_rows`.
    SubscriptionDiscountField,
    /// `orders::slipped::open_orders`.
    OpenOrdersFilter,
    /// `update::slipped::update`.
    AdvanceDays,
    /// `update::slipped::place_subscriptions`.
    SubscriptionDueDay,
    /// `roasting::slipped::roasted_grams`.
    RoastedWeight,
    /// `pricing::slipped::wholesale_kilo_cents` (through `pricing::slipped::order_price`).
    WholesaleTier,
    /// `stock::slipped::reorder_list`.
    ReorderStopsEarly,
    /// `roasting::slipped::day_schedule`.
    ScheduleExactLot,
    /// `model::slipped::batch_minutes`.
    DarkRoastMinutes,
    /// `model::slipped::opening`.
    OpeningReorderPoint,
}

/// What an agent may see: the roastery (and its messages), the day, the roasted stock, the roaster's plan, what to
/// buy again and what it costs, the orders with their prices and views, and the courier's quote.
#[expose]
pub struct SetApp {
    /// The roastery's model and its messages.
    #[expose(messages, value)]
    pub roastery: Mvu<Roastery, Msg>,
    /// Today.
    #[expose]
    #[node]
    pub day: Memo<u32>,
    /// Roasted coffee on the shelf.
    #[expose]
    #[node]
    pub roasted: Memo<Vec<RoastedLot>>,
    /// Today's plan at the roaster.
    #[expose]
    #[node]
    pub schedule: Memo<DaySchedule>,
    /// The origins to buy again.
    #[expose]
    #[node]
    pub reorder: Memo<Vec<Reorder>>,
    /// What buying them again costs, in cents.
    #[expose]
    #[node]
    pub reorder_cost: AsyncMemo<u32>,
    /// The orders, each with its price.
    #[expose]
    #[node]
    pub orders: Orders,
    /// The open orders' numbers.
    #[expose]
    #[node]
    pub open_orders: Memo<Vec<u32>>,
    /// How many orders are wholesale.
    #[expose]
    #[node]
    pub wholesale_orders: Memo<usize>,
    /// The order numbers, heaviest first.
    #[expose]
    #[node]
    pub packing: Memo<Vec<u32>>,
    /// The courier's quote for the open orders, in cents.
    #[expose]
    #[node]
    pub courier: AsyncMemo<u32>,
}

/// Builds the roastery's graph, with the copy of one fn that `slip` names.
#[node]
pub fn set_app(slip: Slip) -> SetApp {
    let rules = Rules {
        minutes: if slip == Slip::DarkRoastMinutes {
            model::slipped::batch_minutes
        } else {
            Batch::minutes
        },
        roasted_grams: if slip == Slip::RoastedWeight {
            roasting::slipped::roasted_grams
        } else {
            roasting::roasted_grams
        },
        order_price: if slip == Slip::WholesaleTier {
            pricing::slipped::order_price
        } else {
            pricing::order_price
        },
        place_subscriptions: if slip == Slip::SubscriptionDueDay {
            update::slipped::place_subscriptions
        } else {
            update::place_subscriptions
        },
    };
    let apply: fn(Msg, &Roastery, &Rules) -> (Roastery, Vec<Msg>) = if slip == Slip::AdvanceDays {
        update::slipped::update
    } else {
        update::update
    };
    let opening = if slip == Slip::OpeningReorderPoint {
        model::slipped::opening()
    } else {
        Roastery::default()
    };
    let roastery = Mvu::with_commands((opening, Vec::new()), move |msg, model| {
        apply(msg, model, &rules)
    });
    let day = roastery.select(|r| r.day);
    let roasted = roastery.select(|r| r.roasted.clone());
    let schedule = if slip == Slip::ScheduleExactLot {
        roasting::slipped::day_schedule(&roastery, rules)
    } else {
        roasting::day_schedule(&roastery, rules)
    };
    let reorder = if slip == Slip::ReorderStopsEarly {
        stock::slipped::reorder_list(&roastery)
    } else {
        stock::reorder_list(&roastery)
    };
    let reorder_cost = if slip == Slip::ReorderWholeSacks {
        services::slipped::reorder_cost(&reorder)
    } else {
        services::reorder_cost(&reorder)
    };
    let orders = if slip == Slip::SubscriptionDiscountField {
        orders::slipped::order_rows(&roastery, rules)
    } else {
        orders::order_rows(&roastery, rules)
    };
    let open_orders = if slip == Slip::OpenOrdersFilter {
        orders::slipped::open_orders(&orders)
    } else {
        orders::open_orders(&orders)
    };
    let wholesale_orders = orders::wholesale_count(&orders);
    let packing = orders::packing_order(&orders);
    let courier = if slip == Slip::CourierSwappedArgs {
        services::slipped::courier_quote(&roastery)
    } else {
        services::courier_quote(&roastery)
    };
    SetApp {
        roastery,
        day,
        roasted,
        schedule,
        reorder,
        reorder_cost,
        orders,
        open_orders,
        wholesale_orders,
        packing,
        courier,
    }
}
