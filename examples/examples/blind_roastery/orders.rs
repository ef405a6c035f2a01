//! The orders as a keyed collection: a row per order with its price, and the views the packing bench reads.

use std::rc::Rc;

use ranvier::collection::Collection;
use ranvier::{Memo, Mvu, node};

use super::model::{Msg, Order, Roastery, Rules};

/// Subscriptions get this many percent off.
pub const SUBSCRIPTION_DISCOUNT: u32 = 10;

/// The orders, one row each keyed by number, each row with its price (cents) as a memo.
pub type Orders = Collection<u32, Order, (&'static str, Memo<u32>)>;

/// The orders' rows: each row's `price` is the order's price on `rules`, less the subscription discount.
#[node]
pub fn order_rows(roastery: &Mvu<Roastery, Msg>, rules: Rules) -> Orders {
    let list = roastery.select(|r| r.orders.clone());
    let orders = Collection::keyed(
        list,
        |order: &Order| order.id,
        move |row| {
            let row = row.clone();
            let price = Memo::new(move |_| {
                row.with(|order| {
                    let price = (rules.order_price)(order.bag, order.qty, order.wholesale);
                    if order.subscription {
                        price - price * SUBSCRIPTION_DISCOUNT / 100
                    } else {
                        price
                    }
                })
            });
            ("price", price)
        },
    )
    .labelled("orders");
    orders
}

/// The numbers of the orders not shipped yet, in the order they were placed.
#[node]
pub fn open_orders(orders: &Orders) -> Memo<Vec<u32>> {
    let open = orders.filter(|order| !order.shipped);
    let open_keys = open.keys();
    let open_orders = Memo::new(move |_| open_keys.get().to_vec());
    open_orders
}

/// How many orders are wholesale.
#[node]
pub fn wholesale_count(orders: &Orders) -> Memo<usize> {
    let wholesale = orders.count_by(|order| order.wholesale);
    wholesale
}

/// The order numbers, heaviest first (ties by number): the packing bench works down this list.
#[node]
pub fn packing_order(orders: &Orders) -> Memo<Vec<u32>> {
    let heaviest: Memo<Rc<[u32]>> = orders.sort_by(|order| std::cmp::Reverse(order.grams()));
    let packing = Memo::new(move |_| heaviest.get().to_vec());
    packing
}

/// The copies with a mistake (see `graph.rs`).
pub mod slipped {
    use ranvier::collection::Collection;
    use ranvier::{Memo, Mvu, node};

    use super::super::model::{Msg, Order, Roastery, Rules};
    use super::{Orders, SUBSCRIPTION_DISCOUNT};

    /// [`super::order_rows`], with a mistake.
    #[node]
    pub fn order_rows(roastery: &Mvu<Roastery, Msg>, rules: Rules) -> Orders {
        let list = roastery.select(|r| r.orders.clone());
        let orders = Collection::keyed(
            list,
            |order: &Order| order.id,
            move |row| {
                let row = row.clone();
                let price = Memo::new(move |_| {
                    row.with(|order| {
                        let price = (rules.order_price)(order.bag, order.qty, order.wholesale);
                        // BUG(subscription_discount_field)
                        if order.wholesale {
                            price - price * SUBSCRIPTION_DISCOUNT / 100
                        } else {
                            price
                        }
                    })
                });
                ("price", price)
            },
        )
        .labelled("orders");
        orders
    }

    /// [`super::open_orders`], with a mistake.
    #[node]
    pub fn open_orders(orders: &Orders) -> Memo<Vec<u32>> {
        // BUG(open_orders_filter)
        let open = orders.filter(|order| order.shipped);
        let open_keys = open.keys();
        let open_orders = Memo::new(move |_| open_keys.get().to_vec());
        open_orders
    }
}
