//! The farm office's `update`: one arm per message, the helpers the longer arms call, and the commands they send (a
//! bin picked goes to the cold store, an order packed is invoiced).

use super::grading;
use super::model::{Bin, Block, Customer, Damage, Grade, Msg, Orchard, Order, Sale, Shift};
use super::storage;
use super::tariffs::{self, TRAY_KG};

/// Whether a block is picked on a day.
pub type InWindow = fn(&Block, u32) -> bool;

/// The helpers `update` calls through fn values, so that the farm can be started with another version of one.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub in_window: InWindow,
    pub pick: fn(&mut Orchard, Picked, InWindow) -> Vec<Msg>,
    pub weather: fn(&mut Orchard, u32, Damage),
    pub price: fn(Customer, Grade, u32) -> Option<u32>,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            in_window: Block::in_window,
            pick,
            weather,
            price: tariffs::price,
        }
    }
}

/// The commands the office starts the day with: each cold-store room's thermostat reading.
pub fn opening() -> Vec<Msg> {
    vec![
        Msg::SetTemp { room: 1, temp: 1.0 },
        Msg::SetTemp { room: 2, temp: 3.0 },
    ]
}

/// A bin as the picker brings it to the weighbridge.
#[derive(Clone, Debug)]
pub struct Picked {
    pub picker: String,
    pub block: u32,
    pub kg: u32,
    pub size_mm: u32,
    pub defects: u32,
}

/// The farm after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, farm: &Orchard, helpers: &Helpers) -> (Orchard, Vec<Msg>) {
    let mut next = farm.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Advance { days } => next.today += days,
        Msg::Shift { picker, hours } => {
            if next.pickers.contains(&picker) {
                let day = next.today;
                next.shifts.push(Shift { picker, day, hours });
            } else {
                next.note(format!("{picker} is not on the farm's books"));
            }
        }
        Msg::Pick {
            picker,
            block,
            kg,
            size_mm,
            defects,
        } => {
            let picked = Picked {
                picker,
                block,
                kg,
                size_mm,
                defects,
            };
            commands = (helpers.pick)(&mut next, picked, helpers.in_window);
        }
        Msg::Store { bin } => store(&mut next, bin),
        Msg::SetTemp { room, temp } => match next.rooms.iter_mut().find(|r| r.no == room) {
            Some(found) => found.temp = temp,
            None => next.note(format!("no room {room}")),
        },
        Msg::Weather { block, event } => match event.as_str() {
            "frost" => (helpers.weather)(&mut next, block, Damage::Frost),
            "hail" => (helpers.weather)(&mut next, block, Damage::Hail),
            other => next.note(format!("no weather {other:?}")),
        },
        Msg::Order {
            customer,
            grade,
            kg,
        } => match (Customer::parse(&customer), Grade::parse(&grade)) {
            (Some(customer), Some(grade)) => {
                let no = next.orders.len() as u32 + 1;
                next.orders.push(Order {
                    no,
                    customer,
                    grade,
                    kg,
                    packed: false,
                });
            }
            _ => next.note(format!("no order for {customer} of {grade}")),
        },
        Msg::Pack { order } => commands = pack(&mut next, order),
        Msg::Invoice { order } => invoice(&mut next, order, helpers.price),
    }
    (next, commands)
}

/// Weighs and grades a bin picked in a block in its window, and sends it to the cold store.
#[ranvier::trace_fn]
pub fn pick(farm: &mut Orchard, picked: Picked, in_window: InWindow) -> Vec<Msg> {
    let today = farm.today;
    let no = farm.bins.len() as u32 + 1;
    let Some(block) = farm.block_mut(picked.block) else {
        farm.note(format!("no block {}", picked.block));
        return Vec::new();
    };
    if !in_window(block, today) {
        let why = format!("{} is not being picked today", block.name);
        farm.note(why);
        return Vec::new();
    }
    let grade = grading::grade(block.variety, picked.size_mm, picked.defects, block.damage);
    block.bins += 1;
    block.picked_kg += picked.kg;
    let variety = block.variety;
    farm.bins.push(Bin {
        no,
        block: picked.block,
        variety,
        picker: picked.picker,
        day: today,
        kg: picked.kg,
        size_mm: picked.size_mm,
        defects: picked.defects,
        grade,
        room: None,
        packed: false,
    });
    vec![Msg::Store { bin: no }]
}

/// Puts bin `no` in the first cold-store room with space.
#[ranvier::trace_fn]
fn store(farm: &mut Orchard, no: u32) {
    let holding: Vec<usize> = farm.rooms.iter().map(|r| farm.in_room(r.no)).collect();
    let room = storage::room_for(&farm.rooms, &holding);
    match (room, farm.bins.iter_mut().find(|b| b.no == no)) {
        (Some(room), Some(bin)) => bin.room = Some(room),
        (None, Some(_)) => farm.note(format!("bin {no} waits outside: the cold store is full")),
        (_, None) => farm.note(format!("no bin {no}")),
    }
}

/// Marks `block` with `damage`, and downgrades the bins of it still in store.
#[ranvier::trace_fn]
pub fn weather(farm: &mut Orchard, block: u32, damage: Damage) {
    let Some(hit) = farm.block_mut(block) else {
        farm.note(format!("no block {block}"));
        return;
    };
    hit.damage = Some(damage);
    let name = hit.name.clone();
    let mut downgraded = 0;
    for bin in farm.bins.iter_mut().filter(|b| !b.packed) {
        if bin.block == block {
            bin.grade = grading::downgraded(bin.grade, damage);
            downgraded += 1;
        }
    }
    farm.note(format!(
        "{damage:?} over {name}: {downgraded} bins downgraded"
    ));
}

/// A packing run for `order`: the oldest bins of its grade in store, until its weight is made; a packed order is
/// invoiced.
#[ranvier::trace_fn]
fn pack(farm: &mut Orchard, no: u32) -> Vec<Msg> {
    let Some(order) = farm
        .orders
        .iter()
        .find(|o| o.no == no && !o.packed)
        .cloned()
    else {
        farm.note(format!("no order {no} to pack"));
        return Vec::new();
    };
    let mut chosen = Vec::new();
    let mut kg = 0;
    for bin in &farm.bins {
        if kg >= order.kg {
            break;
        }
        if bin.room.is_some() && !bin.packed && bin.grade == order.grade {
            chosen.push(bin.no);
            kg += bin.kg;
        }
    }
    if kg < order.kg {
        farm.note(format!(
            "order {no}: only {kg} kg of {} in store",
            order.grade.name()
        ));
        return Vec::new();
    }
    for bin in farm.bins.iter_mut().filter(|b| chosen.contains(&b.no)) {
        bin.packed = true;
    }
    if let Some(packed) = farm.orders.iter_mut().find(|o| o.no == no) {
        packed.packed = true;
    }
    vec![Msg::Invoice { order: no }]
}

/// Invoices a packed order at the customer's price.
#[ranvier::trace_fn]
fn invoice(farm: &mut Orchard, no: u32, price: fn(Customer, Grade, u32) -> Option<u32>) {
    let Some(order) = farm.orders.iter().find(|o| o.no == no && o.packed).cloned() else {
        return;
    };
    match price(order.customer, order.grade, order.kg) {
        Some(pence) => farm.sales.push(Sale {
            order: no,
            customer: order.customer,
            grade: order.grade,
            kg: order.kg,
            trays: order.kg.div_ceil(TRAY_KG),
            pence,
        }),
        None => farm.note(format!(
            "order {no}: the {} does not buy {}",
            order.customer.name(),
            order.grade.name()
        )),
    }
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::grading;
    use super::super::model::{Bin, Damage, Msg, Orchard};
    use super::{InWindow, Picked};

    /// [`super::pick`].
    #[ranvier::trace_fn]
    pub fn pick(farm: &mut Orchard, picked: Picked, in_window: InWindow) -> Vec<Msg> {
        let today = farm.today;
        let no = farm.bins.len() as u32 + 1;
        let Some(block) = farm.block_mut(picked.block) else {
            farm.note(format!("no block {}", picked.block));
            return Vec::new();
        };
        if !in_window(block, today) {
            let why = format!("{} is not being picked today", block.name);
            farm.note(why);
            return Vec::new();
        }
        // BUG(bin_grade)
        let grade = grading::grade(block.variety, picked.defects, picked.size_mm, block.damage);
        block.bins += 1;
        block.picked_kg += picked.kg;
        let variety = block.variety;
        farm.bins.push(Bin {
            no,
            block: picked.block,
            variety,
            picker: picked.picker,
            day: today,
            kg: picked.kg,
            size_mm: picked.size_mm,
            defects: picked.defects,
            grade,
            room: None,
            packed: false,
        });
        vec![Msg::Store { bin: no }]
    }

    /// [`super::weather`].
    #[ranvier::trace_fn]
    pub fn weather(farm: &mut Orchard, block: u32, damage: Damage) {
        let Some(hit) = farm.block_mut(block) else {
            farm.note(format!("no block {block}"));
            return;
        };
        hit.damage = Some(damage);
        let name = hit.name.clone();
        let mut downgraded = 0;
        for bin in farm.bins.iter_mut().filter(|b| !b.packed) {
            // BUG(hail_downgrade)
            if bin.no == block {
                bin.grade = grading::downgraded(bin.grade, damage);
                downgraded += 1;
            }
        }
        farm.note(format!(
            "{damage:?} over {name}: {downgraded} bins downgraded"
        ));
    }
}
