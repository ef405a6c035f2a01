//! The app: what an agent sees of the laundry, and the graph that derives it.

use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::floor::{self, Floor, StatusRow};
use super::machines::{self, clock_time};
use super::model::{self, Laundry, Machine, Msg, Order, Stage};
use super::pricing::{self, money, prices};
use super::services;
use super::update::{self, Rules};

/// Which mistake the laundry is built with (`None`: the correct laundry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    FitsFullDrum,
    DryPerKilo,
    LoadSwapped,
    FaultIgnored,
    FinishNoFill,
    FullSkipsIron,
    TakingsQuoted,
    CardsSpentOverwrite,
    MinutesLeft,
    FreeInverted,
    CourierAfterNow,
    LoyaltyNotMember,
}

/// What an agent may see of the shop.
#[expose]
pub struct LaundryDesk {
    #[expose(messages)]
    pub laundry: Mvu<Laundry, Msg>,
    #[expose]
    #[node]
    pub clock: Memo<String>,
    #[expose]
    #[node]
    pub orders: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub waiting: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub ironing: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub ready: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub free_machines: Memo<usize>,
    #[expose]
    #[node]
    pub out_of_order: Memo<usize>,
    #[expose]
    #[node]
    pub takings: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub cards: Memo<Vec<String>>,
    #[expose]
    #[node]
    pub deliveries: AsyncMemo<Vec<String>>,
    #[expose]
    #[node]
    pub loyalty: AsyncMemo<Vec<String>>,
    pub machines: Floor,
}

fn rules(slip: Slip) -> Rules {
    Rules {
        quote: match slip {
            Slip::DryPerKilo => pricing::slipped::quote,
            _ => pricing::quote,
        },
        fits: match slip {
            Slip::FitsFullDrum => machines::slipped::fits,
            _ => machines::fits,
        },
        next_stage: match slip {
            Slip::FullSkipsIron => model::slipped::next_stage,
            _ => Order::next_stage,
        },
        free_machine: match slip {
            Slip::FaultIgnored => update::slipped::free_machine,
            _ => update::free_machine,
        },
        fill: match slip {
            Slip::LoadSwapped => update::slipped::fill,
            _ => update::fill,
        },
        finish: match slip {
            Slip::FinishNoFill => update::slipped::finish,
            _ => update::finish,
        },
    }
}

/// The bags in `stage`, one line each.
fn in_stage(orders: &Memo<Vec<Order>>, stage: Stage) -> Memo<Vec<String>> {
    let orders = orders.clone();
    Memo::new(move |_| {
        orders
            .get()
            .iter()
            .filter(|order| order.stage == stage)
            .map(|order| {
                format!(
                    "{}, {} kg",
                    order.label(),
                    pricing::billed_kilos(order.grams)
                )
            })
            .collect()
    })
}

#[derive(Default)]
struct Till {
    bags: u32,
    kilos: u32,
    card: u32,
    cash: u32,
    discounts: u32,
}

/// The day's takings: bags and kilos collected, card and cash, what the loyalty card gave away.
pub fn takings(orders: &Memo<Vec<Order>>) -> Memo<Vec<String>> {
    let orders = orders.clone();
    Memo::new(move |_| {
        let orders = orders.get();
        let mut till = Till::default();
        for order in orders
            .iter()
            .filter(|order| order.stage == Stage::Collected)
        {
            let method = order.paid_by.as_deref().unwrap_or("cash");
            if method == "card" {
                till.card += order.charged;
            } else {
                till.cash += order.charged;
            }
            till.bags += 1;
            till.kilos += pricing::billed_kilos(order.grams);
            if order.charged < order.quoted {
                till.discounts += order.quoted - order.charged;
            }
        }
        vec![
            format!("{} bags, {} kg", till.bags, till.kilos),
            format!("card {}", money(till.card)),
            format!("cash {}", money(till.cash)),
            format!("loyalty discounts {}", money(till.discounts)),
            format!("total {}", money(till.card + till.cash)),
        ]
    })
}

struct Card {
    customer: String,
    visits: u32,
    spent: u32,
}

/// The shop's loyalty cards: each customer's visits, the stamps on the card now and what they spent, best first.
pub fn cards(orders: &Memo<Vec<Order>>) -> Memo<Vec<String>> {
    let orders = orders.clone();
    Memo::new(move |_| {
        let orders = orders.get();
        let mut cards: Vec<Card> = Vec::new();
        for order in orders
            .iter()
            .filter(|order| order.stage == Stage::Collected)
        {
            let at = match cards
                .iter()
                .position(|card| card.customer == order.customer)
            {
                Some(at) => at,
                None => {
                    cards.push(Card {
                        customer: order.customer.clone(),
                        visits: 0,
                        spent: 0,
                    });
                    cards.len() - 1
                }
            };
            let card = &mut cards[at];
            card.visits += 1;
            card.spent += order.charged;
        }
        cards.sort_by(|a, b| {
            b.spent
                .cmp(&a.spent)
                .then_with(|| a.customer.cmp(&b.customer))
        });
        cards
            .iter()
            .map(|card| {
                let stamps = card.visits % prices::CARD;
                format!(
                    "{}: {} visits, {stamps} stamps, spent {}",
                    card.customer,
                    card.visits,
                    money(card.spent)
                )
            })
            .collect()
    })
}

/// The laundry with `slip`'s mistake (none for [`Slip::None`]).
#[node]
pub fn laundry_desk(slip: Slip) -> LaundryDesk {
    let rules = rules(slip);
    let laundry = Mvu::with_commands((Laundry::default(), update::opening()), move |msg, shop| {
        update::update(&rules, msg, shop)
    });
    let minutes = laundry.select(|shop| shop.clock);
    let clock = laundry.select(|shop| clock_time(shop.clock));
    let all_orders = laundry.select(|shop| shop.orders.clone());
    let orders = laundry.select(|shop| {
        shop.orders
            .iter()
            .map(|order| {
                format!(
                    "{} {} kg {:?}: {}, {:?}",
                    order.label(),
                    pricing::billed_kilos(order.grams),
                    order.service,
                    money(order.quoted),
                    order.stage
                )
            })
            .collect::<Vec<_>>()
    });
    let waiting = laundry.select(|shop| {
        shop.orders
            .iter()
            .filter(|order| matches!(order.stage, Stage::WaitingWash | Stage::WaitingDry))
            .map(|order| format!("{}: {:?}", order.label(), order.stage))
            .collect::<Vec<_>>()
    });
    let ironing = in_stage(&all_orders, Stage::Ironing);
    let ready = in_stage(&all_orders, Stage::Ready);
    let machine_list = laundry.select(|shop| shop.machines.clone());
    let status: StatusRow = match slip {
        Slip::MinutesLeft => floor::slipped::status,
        _ => floor::status,
    };
    let machines = floor::floor(machine_list, &minutes, status);
    let board = floor::board(&machines);
    let free_machines = match slip {
        Slip::FreeInverted => floor::slipped::free_count(&machines),
        _ => floor::free_count(&machines),
    };
    let out_of_order = machines.count_by(|machine: &Machine| machine.faulted);
    let takings = match slip {
        Slip::TakingsQuoted => slipped::takings(&all_orders),
        _ => takings(&all_orders),
    };
    let cards = match slip {
        Slip::CardsSpentOverwrite => slipped::cards(&all_orders),
        _ => cards(&all_orders),
    };
    let ready_bags = laundry.select(|shop| {
        shop.orders
            .iter()
            .filter(|order| order.stage == Stage::Ready)
            .cloned()
            .collect::<Vec<_>>()
    });
    let deliveries = match slip {
        Slip::CourierAfterNow => services::slipped::deliveries(&ready_bags, &minutes),
        _ => services::deliveries(&ready_bags, &minutes),
    };
    let customers = laundry.select(|shop| {
        let mut names: Vec<String> = shop
            .orders
            .iter()
            .map(|order| order.customer.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    });
    let loyalty = match slip {
        Slip::LoyaltyNotMember => services::slipped::loyalty(&customers),
        _ => services::loyalty(&customers),
    };
    LaundryDesk {
        laundry,
        clock,
        orders,
        waiting,
        ironing,
        ready,
        board,
        free_machines,
        out_of_order,
        takings,
        cards,
        deliveries,
        loyalty,
        machines,
    }
}

pub mod slipped {
    use ranvier::Memo;

    use super::super::model::{Order, Stage};
    use super::super::pricing::{self, money, prices};
    use super::{Card, Till};

    pub fn takings(orders: &Memo<Vec<Order>>) -> Memo<Vec<String>> {
        let orders = orders.clone();
        Memo::new(move |_| {
            let orders = orders.get();
            let mut till = Till::default();
            for order in orders
                .iter()
                .filter(|order| order.stage == Stage::Collected)
            {
                let method = order.paid_by.as_deref().unwrap_or("cash");
                if method == "card" {
                    // BUG(takings_quoted)
                    till.card += order.quoted;
                } else {
                    till.cash += order.charged;
                }
                till.bags += 1;
                till.kilos += pricing::billed_kilos(order.grams);
                if order.charged < order.quoted {
                    till.discounts += order.quoted - order.charged;
                }
            }
            vec![
                format!("{} bags, {} kg", till.bags, till.kilos),
                format!("card {}", money(till.card)),
                format!("cash {}", money(till.cash)),
                format!("loyalty discounts {}", money(till.discounts)),
                format!("total {}", money(till.card + till.cash)),
            ]
        })
    }

    pub fn cards(orders: &Memo<Vec<Order>>) -> Memo<Vec<String>> {
        let orders = orders.clone();
        Memo::new(move |_| {
            let orders = orders.get();
            let mut cards: Vec<Card> = Vec::new();
            for order in orders
                .iter()
                .filter(|order| order.stage == Stage::Collected)
            {
                let at = match cards
                    .iter()
                    .position(|card| card.customer == order.customer)
                {
                    Some(at) => at,
                    None => {
                        cards.push(Card {
                            customer: order.customer.clone(),
                            visits: 0,
                            spent: 0,
                        });
                        cards.len() - 1
                    }
                };
                let card = &mut cards[at];
                card.visits += 1;
                // BUG(cards_spent_overwrite)
                card.spent = order.charged;
            }
            cards.sort_by(|a, b| {
                b.spent
                    .cmp(&a.spent)
                    .then_with(|| a.customer.cmp(&b.customer))
            });
            cards
                .iter()
                .map(|card| {
                    let stamps = card.visits % prices::CARD;
                    format!(
                        "{}: {} visits, {stamps} stamps, spent {}",
                        card.customer,
                        card.visits,
                        money(card.spent)
                    )
                })
                .collect()
        })
    }
}
