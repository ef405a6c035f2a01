//! The customer orders as a keyed collection: each order's line in a row memo, the order book, and the views the
//! counter uses (the orders ready to collect, the orders by due day, the parcels to post).

use super::model::{Order, Status, pounds};
use super::pricing;
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The orders, keyed by number, each row holding its line.
pub type Orders = Collection<u32, Order, Memo<String>>;
/// What makes an order's row.
pub type RowFactory = fn(&Row<u32, Order>) -> Memo<String>;

/// An order's line in the order book: the books, the postage for a mail order, the deposit and what is left to pay.
#[node]
pub fn order_row(row: &Row<u32, Order>) -> Memo<String> {
    let row = row.clone();
    let line = Memo::new(move |_| {
        row.with(|order| {
            let goods = order.unit * order.qty;
            let postage = if order.mail {
                pricing::postage(order.grams + pricing::PACKING_GRAMS)
            } else {
                0
            };
            let status = match order.status {
                Status::Waiting => format!("waiting, due day {}", order.due),
                Status::Ready => "ready".to_owned(),
                Status::Collected => "collected".to_owned(),
            };
            format!(
                "order {}, {}: {} × {}, {}{}, deposit {}, to pay {}, {status}",
                order.no,
                order.customer,
                order.qty,
                order.title,
                pounds(i64::from(goods)),
                if postage > 0 {
                    format!(" + postage {}", pounds(i64::from(postage)))
                } else {
                    String::new()
                },
                pounds(i64::from(order.deposit)),
                pounds(i64::from(goods + postage) - i64::from(order.deposit)),
            )
        })
    });
    line
}

/// The orders' collection over the model's list, rows made by `row`.
#[node]
pub fn orders(list: &Memo<Vec<Order>>, row: RowFactory) -> Orders {
    let orders = Collection::keyed(list.clone(), |o: &Order| o.no, move |r| row(r));
    orders
}

/// The order book: each order's line, in order number.
#[node]
pub fn order_book(orders: &Orders, list: &Memo<Vec<Order>>) -> Memo<Vec<String>> {
    let (orders, list) = (orders.clone(), list.clone());
    let order_book = Memo::new(move |_| {
        list.get()
            .iter()
            .filter_map(|o| orders.row(&o.no).map(|line| line.get()))
            .collect()
    });
    order_book
}

/// The orders ready to collect.
pub fn ready(orders: &Orders) -> Filter<u32> {
    orders.filter(|o| o.status == Status::Ready)
}

/// The orders still open, by due day.
pub fn by_due(orders: &Orders) -> Memo<Rc<[u32]>> {
    orders.sort_by(|o| (o.status == Status::Collected, o.due))
}

/// How many parcels are still to post.
pub fn to_post(orders: &Orders) -> Memo<usize> {
    orders.count_by(|o| o.mail && o.status != Status::Collected)
}

/// The lines of the orders `keys` names, `order 2 for Ms Eve: The Hobbit`.
#[node]
pub fn order_list(list: &Memo<Vec<Order>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, keys) = (list.clone(), keys.clone());
    let lines = Memo::new(move |_| {
        let list = list.get();
        keys.get()
            .iter()
            .filter_map(|no| list.iter().find(|o| o.no == *no))
            .map(|o| format!("order {} for {}: {}", o.no, o.customer, o.title))
            .collect()
    });
    lines
}

/// The open orders by due day: `day 3: order 2 for Ms Eve, The Lighthouse Year (waiting)`.
#[node]
pub fn due_sheet(list: &Memo<Vec<Order>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, keys) = (list.clone(), keys.clone());
    let due_sheet = Memo::new(move |_| {
        let list = list.get();
        keys.get()
            .iter()
            .filter_map(|no| list.iter().find(|o| o.no == *no))
            .filter(|o| o.status != Status::Collected)
            .map(|o| {
                format!(
                    "day {}: order {} for {}, {} ({:?})",
                    o.due, o.no, o.customer, o.title, o.status
                )
            })
            .collect()
    });
    due_sheet
}

pub mod slipped {
    use super::*;

    #[node]
    pub fn order_row(row: &Row<u32, Order>) -> Memo<String> {
        let row = row.clone();
        let line = Memo::new(move |_| {
            row.with(|order| {
                let goods = order.unit * order.qty;
                // BUG(order_row)
                let postage = if order.special {
                    pricing::postage(order.grams + pricing::PACKING_GRAMS)
                } else {
                    0
                };
                let status = match order.status {
                    Status::Waiting => format!("waiting, due day {}", order.due),
                    Status::Ready => "ready".to_owned(),
                    Status::Collected => "collected".to_owned(),
                };
                format!(
                    "order {}, {}: {} × {}, {}{}, deposit {}, to pay {}, {status}",
                    order.no,
                    order.customer,
                    order.qty,
                    order.title,
                    pounds(i64::from(goods)),
                    if postage > 0 {
                        format!(" + postage {}", pounds(i64::from(postage)))
                    } else {
                        String::new()
                    },
                    pounds(i64::from(order.deposit)),
                    pounds(i64::from(goods + postage) - i64::from(order.deposit)),
                )
            })
        });
        line
    }

    pub fn ready(orders: &Orders) -> Filter<u32> {
        // BUG(ready_filter)
        orders.filter(|o| o.status != Status::Waiting)
    }
}
