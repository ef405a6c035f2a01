//! The shop's graph: the `#[expose]` app an agent sees, and the `#[node]` builder that makes it from the shop's
//! `Mvu`, the rules, the orders' collection and the services.

use super::loyalty;
use super::model::{Msg, Order, Shop, pounds, weekday_name};
use super::orders::{self, Orders, RowFactory};
use super::pricing;
use super::remote::{Courier, Distributor};
use super::services;
use super::stock;
use super::update::{self, Helpers};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::rc::Rc;

/// Which version of the shop to build: the correct one, or one with a single mistake (the blind test's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    ClubPrice,
    ConsignorShare,
    StampsFor,
    CardStamps,
    Refund,
    PublicationDay,
    OrderRow,
    ReadyFilter,
    RestockFeed,
    CourierQuote,
    WeekTakings,
    Payouts,
}

/// What an agent sees of the shop.
#[expose]
pub struct Bookshop {
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
    /// The orders ready to collect.
    #[expose]
    #[node]
    pub ready_to_collect: Memo<Vec<String>>,
    /// How many orders are ready to collect.
    #[expose]
    #[node]
    pub ready_count: Memo<usize>,
    /// The open orders by due day.
    #[expose]
    #[node]
    pub due_sheet: Memo<Vec<String>>,
    /// How many parcels are still to post.
    #[expose]
    #[node]
    pub to_post: Memo<usize>,
    /// The shelves, and what to reorder.
    #[expose]
    #[node]
    pub stock_sheet: Memo<Vec<String>>,
    /// Today's till sheet.
    #[expose]
    #[node]
    pub till_sheet: Memo<Vec<String>>,
    /// This week's takings, day by day.
    #[expose]
    #[node]
    pub week_takings: Memo<Vec<String>>,
    /// The consignors' payouts at the month's end.
    #[expose]
    #[node]
    pub payouts: Memo<Vec<String>>,
    /// The loyalty cards.
    #[expose]
    #[node]
    pub cards: Memo<Vec<String>>,
    /// What the shop has noted.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The reorders priced at the distributor's.
    #[expose]
    #[node]
    pub restock: AsyncMemo<Vec<String>>,
    /// The courier's quotes for the parcels to post.
    #[expose]
    #[node]
    pub courier_quotes: AsyncMemo<Vec<String>>,
}

impl Slip {
    /// `update`'s helpers for this version.
    fn helpers(self) -> Helpers {
        let correct = Helpers::default();
        match self {
            Slip::ClubPrice => Helpers {
                unit_price: pricing::slipped::unit_price,
                ..correct
            },
            Slip::StampsFor => Helpers {
                stamps_for: loyalty::slipped::stamps_for,
                ..correct
            },
            Slip::CardStamps => Helpers {
                card_stamps: update::slipped::card_stamps,
                ..correct
            },
            Slip::Refund => Helpers {
                take_return: update::slipped::take_return,
                ..correct
            },
            Slip::PublicationDay => Helpers {
                published: super::model::slipped::is_published,
                ..correct
            },
            _ => correct,
        }
    }
}

/// This week's takings from the till roll, day by day (days with nothing taken left out), and the week's total.
#[node]
pub fn week_takings(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
    let week_takings = shop.select(|shop| {
        let monday = shop.today - (shop.today - 1) % 7;
        let mut lines = Vec::new();
        let mut week = 0;
        let mut deposits = 0;
        for day in monday..monday + 7 {
            let mut taken = 0;
            let mut entries = 0;
            for entry in shop.till.iter().filter(|e| e.day == day) {
                taken += entry.pence;
                entries += 1;
                if entry.what.starts_with("deposit") {
                    deposits += entry.pence;
                }
            }
            if entries == 0 {
                continue;
            }
            week += taken;
            let s = if entries == 1 { "entry" } else { "entries" };
            lines.push(format!(
                "{} day {day}: {} ({entries} {s})",
                weekday_name(day),
                pounds(taken)
            ));
        }
        lines.push(format!(
            "week: {}, deposits {}",
            pounds(week),
            pounds(deposits)
        ));
        lines
    });
    week_takings
}

/// Builds the shop with `slip`.
#[node]
pub fn bookshop(slip: Slip) -> Bookshop {
    let helpers = slip.helpers();
    let shop = Mvu::with_commands(
        (Shop::default(), update::opening()),
        move |msg, shop: &Shop| update::update(msg, shop, &helpers),
    );
    let today = shop.select(|shop| format!("{} day {}", weekday_name(shop.today), shop.today));

    let order_list: Memo<Vec<Order>> = shop.select(|shop| shop.orders.clone());
    let row: RowFactory = match slip {
        Slip::OrderRow => orders::slipped::order_row,
        _ => orders::order_row,
    };
    let collection = orders::orders(&order_list, row);
    let order_book = orders::order_book(&collection, &order_list);
    let ready = match slip {
        Slip::ReadyFilter => orders::slipped::ready(&collection),
        _ => orders::ready(&collection),
    };
    let ready_to_collect = orders::order_list(&order_list, &ready.keys());
    let ready_count = ready.count();
    let due_sheet = orders::due_sheet(&order_list, &orders::by_due(&collection));
    let to_post = orders::to_post(&collection);

    let stock_sheet = stock::stock_sheet(&shop);
    let share: fn(u32, u32) -> u32 = match slip {
        Slip::ConsignorShare => pricing::slipped::consignor_share,
        _ => pricing::consignor_share,
    };
    let payouts = match slip {
        Slip::Payouts => stock::slipped::payouts(&shop, share),
        _ => stock::payouts(&shop, share),
    };
    let till_sheet = shop.select(|shop| {
        let mut lines: Vec<String> = shop
            .till
            .iter()
            .filter(|e| e.day == shop.today)
            .map(|e| format!("{}: {}", e.what, pounds(e.pence)))
            .collect();
        let total: i64 = shop
            .till
            .iter()
            .filter(|e| e.day == shop.today)
            .map(|e| e.pence)
            .sum();
        lines.push(format!("till on day {}: {}", shop.today, pounds(total)));
        lines
    });
    let week_takings = match slip {
        Slip::WeekTakings => slipped::week_takings(&shop),
        _ => week_takings(&shop),
    };
    let cards = shop.select(|shop| {
        shop.cards
            .iter()
            .map(|c| loyalty::card_line(&c.customer, c.stamps, c.free_books))
            .collect()
    });
    let notices = shop.select(|shop| shop.notices.clone());

    let reorders = stock::reorders(&shop);
    let feed = Rc::new(Distributor::default());
    let courier = Rc::new(Courier);
    let restock = match slip {
        Slip::RestockFeed => services::slipped::restock(&reorders, feed),
        _ => services::restock(&reorders, feed),
    };
    let courier_quotes = match slip {
        Slip::CourierQuote => services::slipped::courier_quotes(&order_list, courier),
        _ => services::courier_quotes(&order_list, courier),
    };

    Bookshop {
        shop,
        today,
        orders: collection,
        order_book,
        ready_to_collect,
        ready_count,
        due_sheet,
        to_post,
        stock_sheet,
        till_sheet,
        week_takings,
        payouts,
        cards,
        notices,
        restock,
        courier_quotes,
    }
}

pub mod slipped {
    use super::*;

    #[node]
    pub fn week_takings(shop: &Mvu<Shop, Msg>) -> Memo<Vec<String>> {
        let week_takings = shop.select(|shop| {
            let monday = shop.today - (shop.today - 1) % 7;
            let mut lines = Vec::new();
            let mut week = 0;
            let mut deposits = 0;
            // BUG(week_takings)
            let mut taken = 0;
            for day in monday..monday + 7 {
                let mut entries = 0;
                for entry in shop.till.iter().filter(|e| e.day == day) {
                    taken += entry.pence;
                    entries += 1;
                    if entry.what.starts_with("deposit") {
                        deposits += entry.pence;
                    }
                }
                if entries == 0 {
                    continue;
                }
                week += taken;
                let s = if entries == 1 { "entry" } else { "entries" };
                lines.push(format!(
                    "{} day {day}: {} ({entries} {s})",
                    weekday_name(day),
                    pounds(taken)
                ));
            }
            lines.push(format!(
                "week: {}, deposits {}",
                pounds(week),
                pounds(deposits)
            ));
            lines
        });
        week_takings
    }
}
