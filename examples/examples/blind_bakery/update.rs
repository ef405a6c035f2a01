//! The bakery's `update`: what each message does to the bakery, and the invoices and notices it sends on (as
//! commands).

use super::model::{Bakery, Batch, Invoice, Msg, Order, Product, Settings, money};
use super::pricing;
use super::recipes;

/// Why an order cannot be taken (see [`recipes::refuse_order`]).
pub type RefuseOrder = fn(&Product, u32, u32) -> Option<String>;

/// What a delivery's goods cost (see [`pricing::goods_total`]).
pub type GoodsTotal = fn(&[Product], &[(String, u32)], &Settings) -> u64;

/// The next bakery, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, bakery: &Bakery) -> (Bakery, Vec<Msg>) {
    let mut next = bakery.clone();
    let commands = match msg {
        Msg::AddProduct(product) => add_product(&mut next, product),
        Msg::Order {
            customer,
            product,
            pieces,
            day,
        } => place_order(
            &mut next,
            customer,
            product,
            (pieces, day),
            recipes::refuse_order,
        ),
        Msg::Cancel { order } => cancel(&mut next, order),
        Msg::Bake { product, trays } => bake(&mut next, &product, trays),
        Msg::Deliver { customer } => deliver(&mut next, &customer, pricing::goods_total),
        Msg::CloseDay => {
            next.day += 1;
            notify(format!("day {} begins", next.day))
        }
        Msg::Invoice {
            customer,
            what,
            cents,
        } => {
            next.invoices.push(Invoice {
                customer,
                what,
                cents,
            });
            Vec::new()
        }
        Msg::Notify { text } => {
            next.notices.push(text);
            Vec::new()
        }
    };
    (next, commands)
}

/// One notice, as the only command.
#[ranvier::trace_fn]
pub fn notify(text: String) -> Vec<Msg> {
    vec![Msg::Notify { text }]
}

/// A product joins the range (once per code).
#[ranvier::trace_fn]
pub fn add_product(bakery: &mut Bakery, product: Product) -> Vec<Msg> {
    if bakery.product(&product.code).is_some() {
        return notify(format!("{} is already in the range", product.code));
    }
    bakery.products.push(product);
    Vec::new()
}

/// An order, if the bakery makes the product and `refuse` lets it through.
#[ranvier::trace_fn]
pub fn place_order(
    bakery: &mut Bakery,
    customer: String,
    code: String,
    (pieces, day): (u32, u32),
    refuse: RefuseOrder,
) -> Vec<Msg> {
    let Some(product) = bakery.product(&code) else {
        return notify(format!("{customer}: no product {code}"));
    };
    if let Some(why) = refuse(product, bakery.day, day) {
        return notify(format!("{customer}: {why}"));
    }
    let id = bakery.next_order;
    bakery.next_order += 1;
    bakery.orders.push(Order {
        id,
        customer: customer.clone(),
        product: code,
        pieces,
        day,
        delivered: false,
        cancelled: false,
    });
    notify(format!("order {id} placed for {customer}"))
}

/// Cancels an order that is not delivered.
#[ranvier::trace_fn]
pub fn cancel(bakery: &mut Bakery, id: u32) -> Vec<Msg> {
    let Some(order) = bakery.orders.iter_mut().find(|o| o.id == id) else {
        return notify(format!("no order {id}"));
    };
    if order.delivered {
        return notify(format!("order {id} is delivered"));
    }
    order.cancelled = true;
    notify(format!("order {id} cancelled"))
}

/// `trays` trays of `code` came out of the oven today.
#[ranvier::trace_fn]
pub fn bake(bakery: &mut Bakery, code: &str, trays: u32) -> Vec<Msg> {
    let Some(product) = bakery.product(code) else {
        return notify(format!("no product {code}"));
    };
    let pieces = trays * product.per_tray;
    bakery.batches.push(Batch {
        product: code.to_owned(),
        pieces,
        day: bakery.day,
    });
    Vec::new()
}

/// Today's orders of `customer`, delivered: the goods (priced by `total`) are invoiced, and the delivery fee when
/// they come to less than the free delivery's threshold.
#[ranvier::trace_fn]
pub fn deliver(bakery: &mut Bakery, customer: &str, total: GoodsTotal) -> Vec<Msg> {
    let day = bakery.day;
    let mut lines: Vec<(String, u32)> = Vec::new();
    for order in bakery
        .orders
        .iter_mut()
        .filter(|o| o.customer == customer && o.due_on(day) && !o.delivered)
    {
        order.delivered = true;
        match lines.iter_mut().find(|(code, _)| *code == order.product) {
            Some((_, pieces)) => *pieces += order.pieces,
            None => lines.push((order.product.clone(), order.pieces)),
        }
    }
    if lines.is_empty() {
        return notify(format!("nothing to deliver to {customer} today"));
    }
    let settings = &bakery.settings;
    let goods = total(&bakery.products, &lines, settings);
    let mut commands = vec![Msg::Invoice {
        customer: customer.to_owned(),
        what: format!("goods of day {day}"),
        cents: goods,
    }];
    let fee = if goods < settings.free_delivery_from {
        settings.delivery_fee
    } else {
        0
    };
    if fee > 0 {
        commands.push(Msg::Invoice {
            customer: customer.to_owned(),
            what: "delivery".to_owned(),
            cents: fee,
        });
    }
    commands.push(Msg::Notify {
        text: format!(
            "delivered to {customer}: {} (delivery {})",
            money(goods),
            money(fee)
        ),
    });
    commands
}

/// `update` with a mistake in one of its messages.
pub mod slipped {
    use super::super::model::{Bakery, Batch, Msg, money};
    use super::super::{pricing, recipes};
    use super::{GoodsTotal, deliver, notify, place_order, update};

    /// `update`, taking orders with the first notice rule.
    #[ranvier::trace_fn]
    pub fn update_lead(msg: Msg, bakery: &Bakery) -> (Bakery, Vec<Msg>) {
        match msg {
            Msg::Order {
                customer,
                product,
                pieces,
                day,
            } => {
                let mut next = bakery.clone();
                let commands = place_order(
                    &mut next,
                    customer,
                    product,
                    (pieces, day),
                    recipes::slipped::refuse_order,
                );
                (next, commands)
            }
            other => update(other, bakery),
        }
    }

    /// `update`, delivering with the first price list.
    #[ranvier::trace_fn]
    pub fn update_discount(msg: Msg, bakery: &Bakery) -> (Bakery, Vec<Msg>) {
        match msg {
            Msg::Deliver { customer } => {
                let mut next = bakery.clone();
                let commands = deliver(&mut next, &customer, pricing::slipped::goods_total);
                (next, commands)
            }
            other => update(other, bakery),
        }
    }

    /// `update`, with the first bake.
    #[ranvier::trace_fn]
    pub fn update_bake(msg: Msg, bakery: &Bakery) -> (Bakery, Vec<Msg>) {
        match msg {
            Msg::Bake { product, trays } => {
                let mut next = bakery.clone();
                let commands = bake(&mut next, &product, trays);
                (next, commands)
            }
            other => update(other, bakery),
        }
    }

    /// `update`, with the first delivery.
    #[ranvier::trace_fn]
    pub fn update_deliver(msg: Msg, bakery: &Bakery) -> (Bakery, Vec<Msg>) {
        match msg {
            Msg::Deliver { customer } => {
                let mut next = bakery.clone();
                let commands = deliver_goods(&mut next, &customer, pricing::goods_total);
                (next, commands)
            }
            other => update(other, bakery),
        }
    }

    #[ranvier::trace_fn]
    fn bake(bakery: &mut Bakery, code: &str, trays: u32) -> Vec<Msg> {
        if bakery.product(code).is_none() {
            return notify(format!("no product {code}"));
        }
        bakery.batches.push(Batch {
            product: code.to_owned(),
            // BUG(bake_trays)
            pieces: trays,
            day: bakery.day,
        });
        Vec::new()
    }

    #[ranvier::trace_fn]
    fn deliver_goods(bakery: &mut Bakery, customer: &str, total: GoodsTotal) -> Vec<Msg> {
        let day = bakery.day;
        let mut lines: Vec<(String, u32)> = Vec::new();
        for order in bakery
            .orders
            .iter_mut()
            .filter(|o| o.customer == customer && o.due_on(day) && !o.delivered)
        {
            order.delivered = true;
            match lines.iter_mut().find(|(code, _)| *code == order.product) {
                Some((_, pieces)) => *pieces += order.pieces,
                None => lines.push((order.product.clone(), order.pieces)),
            }
        }
        if lines.is_empty() {
            return notify(format!("nothing to deliver to {customer} today"));
        }
        let settings = &bakery.settings;
        let goods = total(&bakery.products, &lines, settings);
        let fee = if goods < settings.free_delivery_from {
            settings.delivery_fee
        } else {
            0
        };
        // BUG(delivery_fee)
        let commands = vec![
            Msg::Invoice {
                customer: customer.to_owned(),
                what: format!("goods of day {day}"),
                cents: goods,
            },
            Msg::Notify {
                text: format!(
                    "delivered to {customer}: {} (delivery {})",
                    money(goods),
                    money(fee)
                ),
            },
        ];
        commands
    }
}
