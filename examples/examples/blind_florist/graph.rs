//! The shop's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the shop's
//! `Mvu`, the rules, the orders' collection and the services.

use super::delivery;
use super::model::{Flower, Msg, Order, Shop, pence, weekday_name};
use super::orders::{self, Orders, RowFactory};
use super::pricing;
use super::remote::{Courier, Wholesaler};
use super::services;
use super::stock;
use super::update::{self, Helpers};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the shop to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    RestockCost,
    CourierQuote,
    RowTotal,
    RoundOrder,
    DeliverBalance,
    WastageTotal,
    FuneralDeposit,
    FreeDelivery,
    BunchesToOrder,
    WeekTakings,
    VanLoad,
    WiltedDay,
}

/// What an agent sees of the shop.
#[expose]
pub struct FloristShop {
    #[expose(messages)]
    pub shop: Mvu<Shop, Msg>,
    /// The day, with its weekday.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The orders, each with its line in the order book.
    #[expose]
    #[node]
    pub orders: Orders,
    /// The order book: each order's line, in order number.
    #[expose]
    #[node]
    pub order_book: Memo<Vec<String>>,
    /// The orders still to deliver, by day and zone.
    #[expose]
    #[node]
    pub delivery_sheet: Memo<Vec<String>>,
    /// The weddings and funerals still to go out.
    #[expose]
    #[node]
    pub events: Memo<Vec<String>>,
    /// How many orders are still to deliver.
    #[expose]
    #[node]
    pub to_deliver: Memo<usize>,
    /// Today's sheet: the orders to make today and the stems they take.
    #[expose]
    #[node]
    pub day_sheet: Memo<Vec<String>>,
    /// The cold room's stock, flower by flower, and what to buy.
    #[expose]
    #[node]
    pub stock_sheet: Memo<Vec<String>>,
    /// Today's van round.
    #[expose]
    #[node]
    pub van_load: Memo<Vec<String>>,
    /// The stems thrown away, and what they cost.
    #[expose]
    #[node]
    pub waste: Memo<Vec<String>>,
    /// This week's takings, day by day.
    #[expose]
    #[node]
    pub week_takings: Memo<Vec<String>>,
    /// The weekly bouquets.
    #[expose]
    #[node]
    pub subscriptions: Memo<Vec<String>>,
    /// What the shop has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Restocking to par at the wholesaler's prices today.
    #[expose]
    #[node]
    pub restock_cost: AsyncMemo<Vec<String>>,
    /// The courier's quotes for the orders beyond the van's zones.
    #[expose]
    #[node]
    pub courier_quotes: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::WiltedDay => Helpers {
                wilted: super::model::slipped::is_wilted,
                ..correct
            },
            Slip::WastageTotal => Helpers {
                wastage: update::slipped::wastage,
                ..correct
            },
            Slip::DeliverBalance => Helpers {
                deliver: update::slipped::deliver,
                ..correct
            },
            Slip::FuneralDeposit => Helpers {
                deposit: pricing::slipped::deposit,
                ..correct
            },
            Slip::FreeDelivery => Helpers {
                zone_fee: delivery::slipped::zone_fee,
                ..correct
            },
            _ => correct,
        }
    }
}

/// Builds the shop with `slip`.
#[node]
pub fn florist_shop(slip: Slip) -> FloristShop {
    let helpers = slip.helpers();
    let shop = Mvu::with_commands(
        (Shop::default(), update::opening()),
        move |msg, shop: &Shop| update::update(msg, shop, &helpers),
    );
    let today = shop.select(|shop| format!("{} day {}", weekday_name(shop.today), shop.today));

    let order_list = shop.select(|shop| shop.orders.clone());
    let row: RowFactory = match slip {
        Slip::RowTotal => orders::slipped::order_row,
        _ => orders::order_row,
    };
    let collection = orders::orders(&order_list, row);
    let order_book = orders::order_book(&collection, &order_list);
    let by_delivery = match slip {
        Slip::RoundOrder => orders::slipped::by_delivery(&collection),
        _ => orders::by_delivery(&collection),
    };
    let delivery_sheet = orders::delivery_sheet(&order_list, &by_delivery);
    let events = orders::event_list(&order_list, &orders::events(&collection).keys());
    let to_deliver = orders::to_deliver(&collection);

    let day_sheet = day_sheet(&shop);
    let to_order: fn(u32, u32, u32) -> u32 = match slip {
        Slip::BunchesToOrder => stock::slipped::bunches_to_order,
        _ => stock::bunches_to_order,
    };
    let stock_sheet = stock::stock_sheet(&shop, to_order);
    let van_load = match slip {
        Slip::VanLoad => delivery::slipped::van_load(&shop),
        _ => delivery::van_load(&shop),
    };
    let waste = waste(&shop);
    let week_takings = match slip {
        Slip::WeekTakings => slipped::week_takings(&shop),
        _ => week_takings(&shop),
    };
    let subscriptions = shop.select(|shop| {
        shop.subscriptions
            .iter()
            .map(|s| {
                format!(
                    "subscription {}, {}: a {} every {}, zone {}",
                    s.no,
                    s.customer,
                    s.recipe,
                    weekday_name(s.weekday + 1),
                    s.zone
                )
            })
            .collect()
    });
    let notices = shop.select(|shop| shop.notices.clone());

    let levels: Memo<Vec<(Flower, u32)>> = shop.select(|shop| shop.stock_levels());
    let feed = Rc::new(Wholesaler::default());
    let courier = Rc::new(Courier::default());
    let restock_cost = match slip {
        Slip::RestockCost => services::slipped::restock_cost(&levels, to_order, feed),
        _ => services::restock_cost(&levels, to_order, feed),
    };
    let courier_quotes = match slip {
        Slip::CourierQuote => services::slipped::courier_quotes(&order_list, courier),
        _ => services::courier_quotes(&order_list, courier),
    };

    FloristShop {
        shop,
        today,
        orders: collection,
        order_book,
        delivery_sheet,
        events,
        to_deliver,
        day_sheet,
        stock_sheet,
        van_load,
        waste,
        week_takings,
        subscriptions,
        notices,
        restock_cost,
        courier_quotes,
    }
}

/// Today's sheet: the orders due today not made yet, the stems of each flower they take, and whether the cold room
/// has them.
fn day_sheet(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    let shop = shop.clone();
    Memo::new(move |_| {
        let shop = shop.model();
        let due: Vec<&Order> = shop
            .orders
            .iter()
            .filter(|o| o.day == shop.today && !o.made)
            .collect();
        let mut lines = Vec::new();
        let mut wanted: Vec<(String, u32)> = Vec::new();
        for order in &due {
            lines.push(format!(
                "make order {}: {} × {} for {}",
                order.no, order.qty, order.recipe, order.customer
            ));
            let Some(recipe) = shop.recipe(&order.recipe) else {
                continue;
            };
            for (flower, stems) in &recipe.stems {
                match wanted.iter_mut().find(|(f, _)| f == flower) {
                    Some((_, n)) => *n += stems * order.qty,
                    None => wanted.push((flower.clone(), stems * order.qty)),
                }
            }
        }
        for (flower, stems) in wanted {
            let fresh = stock::fresh(&shop.batches, &flower, shop.today);
            let enough = if fresh >= stems { "enough" } else { "short" };
            lines.push(format!("{flower}: {stems} stems, {fresh} fresh: {enough}"));
        }
        if due.is_empty() {
            lines.push("nothing to make today".to_owned());
        }
        lines
    })
}

/// The stems thrown away, day by day, and what they had cost.
fn waste(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    shop.select(|shop| {
        let mut lines = Vec::new();
        let mut cost = 0;
        for waste in &shop.waste {
            if let Some(flower) = shop.flower(&waste.flower) {
                cost += pricing::stem_cost(flower, waste.stems);
            }
            lines.push(format!(
                "day {}: {} {} stems wilted",
                waste.day, waste.stems, waste.flower
            ));
        }
        lines.push(format!("wasted: {} at cost", pence(cost)));
        lines
    })
}

/// This week's takings (Monday to today), day by day, with the deposits among them.
fn week_takings(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    let shop = shop.clone();
    Memo::new(move |_| {
        let shop = shop.model();
        let today = shop.today;
        let monday = today - (today - 1) % 7;
        let mut lines = Vec::new();
        let mut week = 0;
        let mut deposits = 0;
        for day in monday..=today {
            let mut taken = 0;
            let mut payments = 0;
            for taking in shop.takings.iter().filter(|t| t.day == day) {
                taken += taking.pence;
                payments += 1;
                if taking.deposit {
                    deposits += taking.pence;
                }
            }
            if payments == 0 {
                continue;
            }
            week += taken;
            let count = if payments == 1 {
                "1 payment".to_owned()
            } else {
                format!("{payments} payments")
            };
            lines.push(format!(
                "{} day {day}: {} ({count})",
                weekday_name(day),
                pence(taken)
            ));
        }
        lines.push(format!(
            "week: {}, deposits {}",
            pence(week),
            pence(deposits)
        ));
        lines
    })
}

/// Copies of the graph's memos with one mistake each, for the blind test.
pub mod slipped {
    use super::{Memo, Msg, Mvu, Shop, pence, weekday_name};

    /// This week's takings (Monday to today), day by day, with the deposits among them.
    pub fn week_takings(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
        let shop = shop.clone();
        Memo::new(move |_| {
            let shop = shop.model();
            let today = shop.today;
            // BUG(week_takings)
            let monday = today - today % 7;
            let mut lines = Vec::new();
            let mut week = 0;
            let mut deposits = 0;
            for day in monday..=today {
                let mut taken = 0;
                let mut payments = 0;
                for taking in shop.takings.iter().filter(|t| t.day == day) {
                    taken += taking.pence;
                    payments += 1;
                    if taking.deposit {
                        deposits += taking.pence;
                    }
                }
                if payments == 0 {
                    continue;
                }
                week += taken;
                let count = if payments == 1 {
                    "1 payment".to_owned()
                } else {
                    format!("{payments} payments")
                };
                lines.push(format!(
                    "{} day {day}: {} ({count})",
                    weekday_name(day),
                    pence(taken)
                ));
            }
            lines.push(format!(
                "week: {}, deposits {}",
                pence(week),
                pence(deposits)
            ));
            lines
        })
    }
}
