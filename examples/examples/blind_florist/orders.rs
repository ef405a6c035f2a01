//! The orders as a keyed collection: one row per order with its line for the order book, and the views the shop
//! reads (the delivery sheet, by day and zone; the weddings and funerals still to go out; how many orders are still
//! to deliver).

use super::model::{Order, OrderKind, pence};
use ranvier::collection::{Collection, Filter, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The orders, keyed by number; each row has its line in the order book.
pub type Orders = Collection<u32, Order, (&'static str, Memo<String>)>;

/// What a row factory makes.
pub type RowFactory = fn(&Row<u32, Order>) -> (&'static str, Memo<String>);

/// The collection over the shop's orders, each row made by `row`.
pub fn orders(list: &Memo<Vec<Order>>, row: RowFactory) -> Orders {
    Collection::keyed(list.clone(), |order: &Order| order.no, row)
}

/// An order's line: `order 2, Mrs Lee: 2 × posy (bouquet) for day 16, zone 2, £52.00; made`.
#[node]
pub fn order_row(row: &Row<u32, Order>) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let line = Memo::new(move |_| {
        row.with(|order| {
            let total = order.qty * order.unit_price + order.delivery;
            let mut line = format!(
                "order {}, {}: {} × {} ({}) for day {}, zone {}, {}",
                order.no,
                order.customer,
                order.qty,
                order.recipe,
                order.kind.name(),
                order.day,
                order.zone,
                pence(total)
            );
            if order.delivery == 0 {
                line.push_str(" with free delivery");
            }
            if order.deposit > 0 {
                line.push_str(&format!(", {} paid", pence(order.deposit)));
            }
            if order.delivered {
                line.push_str("; delivered");
            } else if order.made {
                line.push_str("; made");
            }
            line
        })
    });
    ("line", line)
}

/// The orders by delivery day, then zone, then number: the delivery sheet's order.
pub fn by_delivery(orders: &Orders) -> Memo<Rc<[u32]>> {
    orders.sort_by(|order| (order.day, order.zone, order.no))
}

/// The weddings and funerals not delivered yet.
pub fn events(orders: &Orders) -> Filter<u32> {
    orders.filter(|order| order.kind != OrderKind::Bouquet && !order.delivered)
}

/// How many orders are still to deliver.
pub fn to_deliver(orders: &Orders) -> Memo<usize> {
    orders.count_by(|order| !order.delivered)
}

/// The rows' lines, in order number.
pub fn order_book(orders: &Orders, list: &Memo<Vec<Order>>) -> Memo<Vec<String>> {
    let (orders, list) = (orders.clone(), list.clone());
    Memo::new(move |_| {
        let numbers: Vec<u32> = list.with(|list| list.iter().map(|o| o.no).collect());
        numbers
            .iter()
            .filter_map(|no| orders.row(no))
            .map(|(_, line)| line.get())
            .collect()
    })
}

/// `day D, zone Z: order N for C` for the orders `order` names, in that order.
pub fn delivery_sheet(list: &Memo<Vec<Order>>, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, order) = (list.clone(), order.clone());
    Memo::new(move |_| {
        let order = order.get();
        list.with(|list| {
            order
                .iter()
                .filter_map(|no| list.iter().find(|o| o.no == *no))
                .filter(|o| !o.delivered)
                .map(|o| {
                    format!(
                        "day {}, zone {}: order {} for {}",
                        o.day, o.zone, o.no, o.customer
                    )
                })
                .collect()
        })
    })
}

/// `order N: wedding for C on day D` for the orders `keys` names, in order number.
pub fn event_list(list: &Memo<Vec<Order>>, keys: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (list, keys) = (list.clone(), keys.clone());
    Memo::new(move |_| {
        let keys = keys.get();
        list.with(|list| {
            list.iter()
                .filter(|o| keys.contains(&o.no))
                .map(|o| {
                    format!(
                        "order {}: {} for {} on day {}",
                        o.no,
                        o.kind.name(),
                        o.customer,
                        o.day
                    )
                })
                .collect()
        })
    })
}

/// Copies of the collection's code with one mistake each, for the blind test.
pub mod slipped {
    use super::{Memo, Order, Orders, Rc, Row, node, pence};

    /// An order's line: `order 2, Mrs Lee: 2 × posy (bouquet) for day 16, zone 2, £52.00; made`.
    #[node]
    pub fn order_row(row: &Row<u32, Order>) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let line = Memo::new(move |_| {
            row.with(|order| {
                // BUG(row_total)
                let total = order.unit_price + order.delivery;
                let mut line = format!(
                    "order {}, {}: {} × {} ({}) for day {}, zone {}, {}",
                    order.no,
                    order.customer,
                    order.qty,
                    order.recipe,
                    order.kind.name(),
                    order.day,
                    order.zone,
                    pence(total)
                );
                if order.delivery == 0 {
                    line.push_str(" with free delivery");
                }
                if order.deposit > 0 {
                    line.push_str(&format!(", {} paid", pence(order.deposit)));
                }
                if order.delivered {
                    line.push_str("; delivered");
                } else if order.made {
                    line.push_str("; made");
                }
                line
            })
        });
        ("line", line)
    }

    /// The orders by delivery day, then zone, then number: the delivery sheet's order.
    pub fn by_delivery(orders: &Orders) -> Memo<Rc<[u32]>> {
        // BUG(round_order)
        orders.sort_by(|order| (order.zone, order.day, order.no))
    }
}
