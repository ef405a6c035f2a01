//! The shop's `update`: one arm per message, the helpers the longer arms call, and the commands they send (a new
//! day's round of the buckets and its subscription drops).

use super::delivery;
use super::model::{Batch, Msg, Order, OrderKind, Shop, Subscription, Taking, Waste, weekday};
use super::pricing;
use super::stock;

/// Whether a batch has wilted by a day.
pub type Wilted = fn(&Batch, u32) -> bool;

/// The helpers `update` calls through fn values, so that the shop can be started with another version of one.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub wilted: Wilted,
    pub wastage: fn(&mut Shop, Wilted),
    pub deliver: fn(&mut Shop, u32),
    pub deposit: fn(OrderKind, u32) -> u32,
    pub zone_fee: fn(u32, u32) -> u32,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            wilted: Batch::is_wilted,
            wastage,
            deliver,
            deposit: pricing::deposit,
            zone_fee: delivery::zone_fee,
        }
    }
}

/// The commands the shop opens with: the morning's round of the buckets.
pub fn opening() -> Vec<Msg> {
    vec![Msg::Wastage]
}

/// An order as the customer places it.
#[derive(Clone, Debug)]
pub struct Placed {
    pub customer: String,
    pub recipe: String,
    pub qty: u32,
    pub day: u32,
    pub zone: u32,
    pub kind: OrderKind,
    /// Whether it is a subscription's drop (10% off).
    pub subscribed: bool,
}

/// The shop after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, shop: &Shop, helpers: &Helpers) -> (Shop, Vec<Msg>) {
    let mut next = shop.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Advance { days } => {
            next.today += days;
            commands.push(Msg::Wastage);
            for subscription in &next.subscriptions {
                if subscription.weekday == weekday(next.today) {
                    commands.push(Msg::Drop {
                        subscription: subscription.no,
                    });
                }
            }
        }
        Msg::Buy { flower, bunches } => buy(&mut next, &flower, bunches),
        Msg::Order {
            customer,
            recipe,
            qty,
            day,
            zone,
            kind,
        } => match OrderKind::parse(&kind) {
            Some(kind) => {
                let placed = Placed {
                    customer,
                    recipe,
                    qty,
                    day,
                    zone,
                    kind,
                    subscribed: false,
                };
                place(&mut next, placed, helpers);
            }
            None => next.note(format!("no kind of order {kind:?}")),
        },
        Msg::Subscribe {
            customer,
            recipe,
            weekday,
            zone,
        } => {
            if next.recipe(&recipe).is_some() {
                let no = next.subscriptions.len() as u32 + 1;
                next.subscriptions.push(Subscription {
                    no,
                    customer,
                    recipe,
                    weekday,
                    zone,
                });
            } else {
                next.note(format!("no recipe {recipe}"));
            }
        }
        Msg::Drop { subscription } => {
            match next.subscriptions.iter().find(|s| s.no == subscription) {
                Some(found) => {
                    let placed = Placed {
                        customer: found.customer.clone(),
                        recipe: found.recipe.clone(),
                        qty: 1,
                        day: next.today,
                        zone: found.zone,
                        kind: OrderKind::Bouquet,
                        subscribed: true,
                    };
                    place(&mut next, placed, helpers);
                }
                None => next.note(format!("no subscription {subscription}")),
            }
        }
        Msg::Make { order } => make_up(&mut next, order),
        Msg::Deliver { order } => (helpers.deliver)(&mut next, order),
        Msg::Wastage => (helpers.wastage)(&mut next, helpers.wilted),
    }
    (next, commands)
}

/// Bunches of a flower bought at the wholesaler's today go into a new bucket.
#[ranvier::trace_fn]
fn buy(shop: &mut Shop, flower: &str, bunches: u32) {
    let today = shop.today;
    let Some(found) = shop.flower(flower) else {
        shop.note(format!("the wholesaler has no {flower}"));
        return;
    };
    let batch = Batch {
        flower: flower.to_owned(),
        stems: bunches * found.bunch,
        bought: today,
        life: found.life,
    };
    shop.batches.push(batch);
}

/// Prices an order, takes its deposit and puts it in the book; an order for a day gone or of no recipe is refused.
#[ranvier::trace_fn]
pub fn place(shop: &mut Shop, placed: Placed, helpers: &Helpers) {
    if placed.day < shop.today {
        shop.note(format!("day {} has gone", placed.day));
        return;
    }
    let Some(recipe) = shop.recipe(&placed.recipe) else {
        shop.note(format!("no recipe {}", placed.recipe));
        return;
    };
    let mut unit_price = pricing::unit_price(recipe, &shop.catalogue);
    if placed.subscribed {
        unit_price = pricing::subscription_price(unit_price);
    }
    let goods = placed.qty * unit_price;
    let delivery = (helpers.zone_fee)(placed.zone, goods);
    let deposit = (helpers.deposit)(placed.kind, goods + delivery);
    let no = shop.orders.len() as u32 + 1;
    if deposit > 0 {
        let day = shop.today;
        shop.takings.push(Taking {
            day,
            order: no,
            pence: deposit,
            deposit: true,
        });
    }
    shop.orders.push(Order {
        no,
        customer: placed.customer,
        kind: placed.kind,
        recipe: placed.recipe,
        qty: placed.qty,
        day: placed.day,
        zone: placed.zone,
        unit_price,
        delivery,
        deposit,
        made: false,
        delivered: false,
    });
}

/// Makes up an order from the cold room, the oldest stems first; an order short of a flower waits.
#[ranvier::trace_fn]
fn make_up(shop: &mut Shop, no: u32) {
    let today = shop.today;
    let Some(order) = shop.orders.iter().find(|o| o.no == no && !o.made).cloned() else {
        shop.note(format!("no order {no} to make"));
        return;
    };
    let Some(recipe) = shop.recipe(&order.recipe).cloned() else {
        shop.note(format!("no recipe {}", order.recipe));
        return;
    };
    for (flower, stems) in &recipe.stems {
        let needed = stems * order.qty;
        let fresh = stock::fresh(&shop.batches, flower, today);
        if fresh < needed {
            shop.note(format!(
                "order {no} waits: {needed} {flower} wanted, {fresh} fresh"
            ));
            return;
        }
    }
    for (flower, stems) in &recipe.stems {
        stock::take(&mut shop.batches, flower, stems * order.qty, today);
    }
    shop.batches.retain(|b| b.stems > 0);
    if let Some(made) = shop.orders.iter_mut().find(|o| o.no == no) {
        made.made = true;
    }
}

/// Delivers a made order and takes what is left to pay.
#[ranvier::trace_fn]
pub fn deliver(shop: &mut Shop, no: u32) {
    let today = shop.today;
    let Some(order) = shop.orders.iter_mut().find(|o| o.no == no) else {
        shop.note(format!("no order {no}"));
        return;
    };
    if !order.made || order.delivered {
        let why = format!("order {no} is not ready to go out");
        shop.note(why);
        return;
    }
    order.delivered = true;
    let balance = order.total() - order.deposit;
    shop.takings.push(Taking {
        day: today,
        order: no,
        pence: balance,
        deposit: false,
    });
}

/// Throws away the wilted stems, flower by flower, and records them.
#[ranvier::trace_fn]
pub fn wastage(shop: &mut Shop, wilted: Wilted) {
    let today = shop.today;
    let mut thrown = Vec::new();
    for flower in &shop.catalogue {
        let mut stems = 0;
        for batch in shop.batches.iter().filter(|b| b.flower == flower.name) {
            if wilted(batch, today) {
                stems += batch.stems;
            }
        }
        if stems > 0 {
            thrown.push(Waste {
                day: today,
                flower: flower.name.clone(),
                stems,
            });
        }
    }
    shop.batches.retain(|b| !wilted(b, today));
    shop.waste.extend(thrown);
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::{Shop, Taking, Waste, Wilted};

    /// Delivers a made order and takes what is left to pay.
    #[ranvier::trace_fn]
    pub fn deliver(shop: &mut Shop, no: u32) {
        let today = shop.today;
        let Some(order) = shop.orders.iter_mut().find(|o| o.no == no) else {
            shop.note(format!("no order {no}"));
            return;
        };
        if !order.made || order.delivered {
            let why = format!("order {no} is not ready to go out");
            shop.note(why);
            return;
        }
        order.delivered = true;
        // BUG(deliver_balance)
        let balance = order.total();
        shop.takings.push(Taking {
            day: today,
            order: no,
            pence: balance,
            deposit: false,
        });
    }

    /// Throws away the wilted stems, flower by flower, and records them.
    #[ranvier::trace_fn]
    pub fn wastage(shop: &mut Shop, wilted: Wilted) {
        let today = shop.today;
        let mut thrown = Vec::new();
        // BUG(wastage_total)
        let mut stems = 0;
        for flower in &shop.catalogue {
            for batch in shop.batches.iter().filter(|b| b.flower == flower.name) {
                if wilted(batch, today) {
                    stems += batch.stems;
                }
            }
            if stems > 0 {
                thrown.push(Waste {
                    day: today,
                    flower: flower.name.clone(),
                    stems,
                });
            }
        }
        shop.batches.retain(|b| !wilted(b, today));
        shop.waste.extend(thrown);
    }
}
