//! `update`: the roastery after a message, and the follow-up messages (commands) it sends; Elmish, with its helpers.

use super::model::{
    Bag, Batch, MAX_BATCH_G, Msg, Order, Roast, RoastedLot, Roastery, Rules, SACK_G, Subscription,
};
use super::pricing;

/// The roastery after `msg`, and the commands to run next. A message naming what the roastery does not know (a roast,
/// a bag, an order) changes nothing.
#[ranvier::trace_fn]
pub fn update(msg: Msg, model: &Roastery, rules: &Rules) -> (Roastery, Vec<Msg>) {
    let mut next = model.clone();
    match msg {
        Msg::BuySacks { origin, sacks } => {
            add_green(&mut next, &origin, sacks * SACK_G);
            (next, Vec::new())
        }
        Msg::Schedule {
            origin,
            roast,
            kg,
            day,
        } => {
            let Some(roast) = Roast::parse(&roast) else {
                return (next, Vec::new());
            };
            let day = day.max(next.day);
            schedule_batches(&mut next, &origin, roast, kg * 1_000, day);
            (next, Vec::new())
        }
        Msg::PlaceOrder {
            customer,
            origin,
            bag,
            qty,
            zone,
        } => {
            let Some(bag) = Bag::parse(&bag) else {
                return (next, Vec::new());
            };
            place_order(&mut next, &customer, &origin, bag, qty, &zone, false);
            (next, Vec::new())
        }
        Msg::Ship { id } => {
            ship(&mut next, id);
            (next, Vec::new())
        }
        Msg::Subscribe {
            customer,
            origin,
            bag,
            every_weeks,
        } => {
            let (Some(bag), 1 | 2 | 4) = (Bag::parse(&bag), every_weeks) else {
                return (next, Vec::new());
            };
            let next_day = next.day + 7;
            next.subscriptions.push(Subscription {
                customer,
                origin,
                bag,
                every_weeks,
                next_day,
            });
            (next, Vec::new())
        }
        Msg::Advance { days } => {
            next.day += days;
            (next, vec![Msg::RoastDue, Msg::PlaceSubscriptions])
        }
        Msg::RoastDue => {
            roast_due(&mut next, rules.roasted_grams);
            (next, Vec::new())
        }
        Msg::PlaceSubscriptions => {
            (rules.place_subscriptions)(&mut next);
            (next, Vec::new())
        }
    }
}

/// Puts `grams` of green `origin` in the store (a new lot for a new origin, its reorder point a sack).
#[ranvier::trace_fn]
pub fn add_green(model: &mut Roastery, origin: &str, grams: u32) {
    match model.green.iter_mut().find(|lot| lot.origin == origin) {
        Some(lot) => lot.grams += grams,
        None => model.green.push(super::model::GreenLot {
            origin: origin.to_owned(),
            grams,
            reorder_g: SACK_G,
        }),
    }
}

/// Schedules `green_g` grams of `origin` on `day`, in batches of at most [`MAX_BATCH_G`].
#[ranvier::trace_fn]
pub fn schedule_batches(model: &mut Roastery, origin: &str, roast: Roast, green_g: u32, day: u32) {
    let mut left = green_g;
    while left > 0 {
        let batch_g = left.min(MAX_BATCH_G);
        let id = model.take_id();
        model.batches.push(Batch {
            id,
            origin: origin.to_owned(),
            roast,
            green_g: batch_g,
            day,
            done: false,
        });
        left -= batch_g;
    }
}

/// Places an order, wholesale when the rule says it is.
#[ranvier::trace_fn]
pub fn place_order(
    model: &mut Roastery,
    customer: &str,
    origin: &str,
    bag: Bag,
    qty: u32,
    zone: &str,
    subscription: bool,
) {
    let id = model.take_id();
    let wholesale = pricing::is_wholesale(bag, qty);
    model.orders.push(Order {
        id,
        customer: customer.to_owned(),
        origin: origin.to_owned(),
        bag,
        qty,
        wholesale,
        subscription,
        zone: zone.to_owned(),
        placed: model.day,
        shipped: false,
    });
}

/// Ships order `id` when the shelf holds its coffee: the roasted stock goes down by its weight.
#[ranvier::trace_fn]
pub fn ship(model: &mut Roastery, id: u32) {
    let Some(order) = model.orders.iter().find(|o| o.id == id && !o.shipped) else {
        return;
    };
    let (origin, grams) = (order.origin.clone(), order.grams());
    if model.roasted_g(&origin) < grams {
        return;
    }
    if let Some(lot) = model.roasted.iter_mut().find(|lot| lot.origin == origin) {
        lot.grams -= grams;
    }
    if let Some(order) = model.orders.iter_mut().find(|o| o.id == id) {
        order.shipped = true;
    }
}

/// Roasts every batch of a day that has passed whose green coffee is in the store; the rest wait.
#[ranvier::trace_fn]
pub fn roast_due(model: &mut Roastery, roasted_grams: fn(u32, Roast) -> u32) {
    let today = model.day;
    for at in 0..model.batches.len() {
        let batch = model.batches[at].clone();
        if batch.done || batch.day >= today {
            continue;
        }
        let Some(lot) = model
            .green
            .iter_mut()
            .find(|lot| lot.origin == batch.origin)
        else {
            continue;
        };
        if lot.grams < batch.green_g {
            continue;
        }
        lot.grams -= batch.green_g;
        let out = roasted_grams(batch.green_g, batch.roast);
        match model
            .roasted
            .iter_mut()
            .find(|lot| lot.origin == batch.origin)
        {
            Some(lot) => lot.grams += out,
            None => model.roasted.push(RoastedLot {
                origin: batch.origin.clone(),
                grams: out,
            }),
        }
        model.batches[at].done = true;
    }
}

/// Places an order for every subscription due today or earlier, and moves its next delivery on.
#[ranvier::trace_fn]
pub fn place_subscriptions(model: &mut Roastery) {
    let today = model.day;
    let mut due = Vec::new();
    for sub in &mut model.subscriptions {
        while sub.next_day <= today {
            due.push((sub.customer.clone(), sub.origin.clone(), sub.bag));
            sub.next_day += sub.every_weeks * 7;
        }
    }
    for (customer, origin, bag) in due {
        place_order(model, &customer, &origin, bag, 1, "domestic", true);
    }
}

/// The copies with a mistake (see `graph.rs`).
pub mod slipped {
    use super::super::model::{Bag, Msg, Roast, Roastery, Rules, SACK_G, Subscription};
    use super::{add_green, place_order, roast_due, schedule_batches, ship};

    /// [`super::update`], with a mistake.
    #[ranvier::trace_fn]
    pub fn update(msg: Msg, model: &Roastery, rules: &Rules) -> (Roastery, Vec<Msg>) {
        let mut next = model.clone();
        match msg {
            Msg::BuySacks { origin, sacks } => {
                add_green(&mut next, &origin, sacks * SACK_G);
                (next, Vec::new())
            }
            Msg::Schedule {
                origin,
                roast,
                kg,
                day,
            } => {
                let Some(roast) = Roast::parse(&roast) else {
                    return (next, Vec::new());
                };
                let day = day.max(next.day);
                schedule_batches(&mut next, &origin, roast, kg * 1_000, day);
                (next, Vec::new())
            }
            Msg::PlaceOrder {
                customer,
                origin,
                bag,
                qty,
                zone,
            } => {
                let Some(bag) = Bag::parse(&bag) else {
                    return (next, Vec::new());
                };
                place_order(&mut next, &customer, &origin, bag, qty, &zone, false);
                (next, Vec::new())
            }
            Msg::Ship { id } => {
                ship(&mut next, id);
                (next, Vec::new())
            }
            Msg::Subscribe {
                customer,
                origin,
                bag,
                every_weeks,
            } => {
                let (Some(bag), 1 | 2 | 4) = (Bag::parse(&bag), every_weeks) else {
                    return (next, Vec::new());
                };
                let next_day = next.day + 7;
                next.subscriptions.push(Subscription {
                    customer,
                    origin,
                    bag,
                    every_weeks,
                    next_day,
                });
                (next, Vec::new())
            }
            Msg::Advance { days } => {
                // BUG(advance_days)
                next.day = days;
                (next, vec![Msg::RoastDue, Msg::PlaceSubscriptions])
            }
            Msg::RoastDue => {
                roast_due(&mut next, rules.roasted_grams);
                (next, Vec::new())
            }
            Msg::PlaceSubscriptions => {
                (rules.place_subscriptions)(&mut next);
                (next, Vec::new())
            }
        }
    }

    /// [`super::place_subscriptions`], with a mistake.
    #[ranvier::trace_fn]
    pub fn place_subscriptions(model: &mut Roastery) {
        let today = model.day;
        let mut due = Vec::new();
        for sub in &mut model.subscriptions {
            // BUG(subscription_due_day)
            while sub.next_day < today {
                due.push((sub.customer.clone(), sub.origin.clone(), sub.bag));
                sub.next_day += sub.every_weeks * 7;
            }
        }
        for (customer, origin, bag) in due {
            place_order(model, &customer, &origin, bag, 1, "domestic", true);
        }
    }
}
