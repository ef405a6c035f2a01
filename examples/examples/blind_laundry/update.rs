//! `update`: what each message does to the shop, and the follow-up messages it sends.

use super::model::{Kind, Laundry, Machine, Msg, Order, Service, Stage};
use super::pricing;

/// The rules `update` works by, chosen when the app is built.
#[derive(Clone, Copy)]
pub struct Rules {
    pub quote: fn(u32, Service) -> u32,
    pub fits: fn(&Machine, u32) -> bool,
    pub next_stage: fn(&Order) -> Stage,
    pub free_machine: fn(&Rules, &Laundry, Kind, u32) -> Option<u32>,
    pub fill: fn(&Rules, &mut Laundry),
    pub finish: fn(&Rules, &mut Laundry, u32) -> Vec<Msg>,
}

/// The machines the shop opens with, as the first messages of the day.
pub fn opening() -> Vec<Msg> {
    [
        ("W1", "washer", 7),
        ("W2", "washer", 7),
        ("W3", "washer", 10),
        ("D1", "dryer", 10),
        ("D2", "dryer", 10),
    ]
    .into_iter()
    .map(|(name, kind, kilos)| Msg::Install {
        name: name.to_owned(),
        kind: kind.to_owned(),
        kilos,
    })
    .collect()
}

pub fn update(rules: &Rules, msg: Msg, laundry: &Laundry) -> (Laundry, Vec<Msg>) {
    let mut next = laundry.clone();
    let commands = match msg {
        Msg::Install { name, kind, kilos } => {
            let id = u32::try_from(next.machines.len()).unwrap_or(u32::MAX) + 1;
            next.machines.push(Machine {
                id,
                name,
                kind: Kind::from_form(&kind),
                capacity_grams: kilos * 1000,
                order: None,
                started: 0,
                until: 0,
                faulted: false,
                cycles: 0,
            });
            Vec::new()
        }
        Msg::DropOff {
            customer,
            grams,
            service,
            postcode,
        } => {
            let service = Service::from_form(&service);
            let id = next.orders.last().map_or(1, |order| order.id + 1);
            next.orders.push(Order {
                id,
                customer,
                grams,
                service,
                postcode,
                stage: Stage::WaitingWash,
                machine: None,
                quoted: (rules.quote)(grams, service),
                charged: 0,
                paid_by: None,
                ready_at: None,
            });
            vec![Msg::Fill]
        }
        Msg::Advance { minutes } => {
            next.clock += minutes;
            let now = next.clock;
            next.machines
                .iter()
                .filter(|machine| machine.order.is_some() && machine.until <= now)
                .map(|machine| Msg::Finish {
                    machine: machine.id,
                })
                .collect()
        }
        Msg::Finish { machine } => (rules.finish)(rules, &mut next, machine),
        Msg::Fill => {
            (rules.fill)(rules, &mut next);
            Vec::new()
        }
        Msg::Fault { machine } => fault(&mut next, machine),
        Msg::Ironed { order } => {
            let now = next.clock;
            if let Some(order) = next
                .order_mut(order)
                .filter(|order| order.stage == Stage::Ironing)
            {
                order.stage = Stage::Ready;
                order.ready_at = Some(now);
            }
            Vec::new()
        }
        Msg::Collect { order, method } => {
            collect(&mut next, order, method);
            Vec::new()
        }
    };
    (next, commands)
}

/// The smallest free machine of `kind` a bag of `grams` fits in.
pub fn free_machine(rules: &Rules, laundry: &Laundry, kind: Kind, grams: u32) -> Option<u32> {
    laundry
        .machines
        .iter()
        .filter(|machine| machine.kind == kind && machine.order.is_none() && !machine.faulted)
        .filter(|machine| (rules.fits)(machine, grams))
        .min_by_key(|machine| (machine.capacity_grams, machine.id))
        .map(|machine| machine.id)
}

/// Every order waiting for a washer or a dryer goes into one, first come first served.
pub fn fill(rules: &Rules, next: &mut Laundry) {
    let waiting: Vec<(u32, u32, Kind)> = next
        .orders
        .iter()
        .filter_map(|order| match order.stage {
            Stage::WaitingWash => Some((order.id, order.grams, Kind::Washer)),
            Stage::WaitingDry => Some((order.id, order.grams, Kind::Dryer)),
            _ => None,
        })
        .collect();
    for (order, grams, kind) in waiting {
        if let Some(machine) = (rules.free_machine)(rules, next, kind, grams) {
            load(next, order, machine);
        }
    }
}

/// Starts a cycle of `machine` with `order` in it.
fn load(next: &mut Laundry, order: u32, machine: u32) {
    let now = next.clock;
    let Some(drum) = next.machine_mut(machine) else {
        return;
    };
    drum.order = Some(order);
    drum.started = now;
    drum.until = now + drum.kind.cycle_minutes();
    let stage = match drum.kind {
        Kind::Washer => Stage::Washing,
        Kind::Dryer => Stage::Drying,
    };
    if let Some(order) = next.order_mut(order) {
        order.stage = stage;
        order.machine = Some(machine);
    }
}

/// A cycle ended: the order moves on and the machine is free again.
pub fn finish(rules: &Rules, next: &mut Laundry, machine: u32) -> Vec<Msg> {
    let Some(drum) = next.machine_mut(machine) else {
        return Vec::new();
    };
    let Some(order) = drum.order.take() else {
        return Vec::new();
    };
    drum.cycles += 1;
    let ended = drum.until;
    let mut commands = Vec::new();
    if let Some(order) = next.order_mut(order) {
        order.stage = (rules.next_stage)(order);
        order.machine = None;
        if order.stage == Stage::Ready {
            order.ready_at = Some(ended);
        }
    }
    commands.push(Msg::Fill);
    commands
}

fn fault(next: &mut Laundry, machine: u32) -> Vec<Msg> {
    let Some(drum) = next.machine_mut(machine) else {
        return Vec::new();
    };
    drum.faulted = true;
    let kind = drum.kind;
    let stranded = drum.order.take();
    if let Some(order) = stranded.and_then(|id| next.order_mut(id)) {
        order.machine = None;
        order.stage = match kind {
            Kind::Washer => Stage::WaitingWash,
            Kind::Dryer => Stage::WaitingDry,
        };
    }
    vec![Msg::Fill]
}

fn collect(next: &mut Laundry, id: u32, method: String) {
    let customer = next
        .orders
        .iter()
        .find(|order| order.id == id && order.stage == Stage::Ready)
        .map(|order| order.customer.clone());
    let Some(customer) = customer else {
        return;
    };
    let stamps = next.collected_by(&customer);
    if let Some(order) = next.order_mut(id) {
        order.charged = pricing::charge(order.quoted, stamps);
        order.paid_by = Some(method);
        order.stage = Stage::Collected;
    }
}

pub mod slipped {
    use super::super::model::{Kind, Laundry, Msg, Stage};
    use super::{Rules, load};

    pub fn free_machine(rules: &Rules, laundry: &Laundry, kind: Kind, grams: u32) -> Option<u32> {
        laundry
            .machines
            .iter()
            // BUG(fault_ignored)
            .filter(|machine| machine.kind == kind && machine.order.is_none())
            .filter(|machine| (rules.fits)(machine, grams))
            .min_by_key(|machine| (machine.capacity_grams, machine.id))
            .map(|machine| machine.id)
    }

    pub fn fill(rules: &Rules, next: &mut Laundry) {
        let waiting: Vec<(u32, u32, Kind)> = next
            .orders
            .iter()
            .filter_map(|order| match order.stage {
                Stage::WaitingWash => Some((order.id, order.grams, Kind::Washer)),
                Stage::WaitingDry => Some((order.id, order.grams, Kind::Dryer)),
                _ => None,
            })
            .collect();
        for (order, grams, kind) in waiting {
            if let Some(machine) = (rules.free_machine)(rules, next, kind, grams) {
                // BUG(load_swapped)
                load(next, machine, order);
            }
        }
    }

    pub fn finish(rules: &Rules, next: &mut Laundry, machine: u32) -> Vec<Msg> {
        let Some(drum) = next.machine_mut(machine) else {
            return Vec::new();
        };
        let Some(order) = drum.order.take() else {
            return Vec::new();
        };
        drum.cycles += 1;
        let ended = drum.until;
        let mut commands = Vec::new();
        if let Some(order) = next.order_mut(order) {
            order.stage = (rules.next_stage)(order);
            order.machine = None;
            if order.stage == Stage::Ready {
                order.ready_at = Some(ended);
            } else {
                // BUG(finish_no_fill)
                commands.push(Msg::Fill);
            }
        }
        commands
    }
}
