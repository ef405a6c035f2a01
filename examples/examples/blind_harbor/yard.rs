//! The container yard: one row per box in the yard (a keyed collection over the port's containers), each with its
//! running storage and power fee, and the views the yard office reads: the weight on the stacks, the reefers, the
//! fees due, and the gate order of the boxes with a truck booked.

use std::collections::HashMap;
use std::rc::Rc;

use ranvier::collection::{Collection, Filter, Row};
use ranvier::serde::Serialize;
use ranvier::{Memo, Mvu, node};

use super::graph::Slip;
use super::model::{Container, Msg, Port, Tariff};

/// A box as the yard office sees it.
#[derive(Clone, Debug, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct YardBox {
    /// The container number.
    pub id: String,
    /// The ship that landed it.
    pub vessel: String,
    /// Kilograms.
    pub weight_kg: u32,
    /// A refrigerated box.
    pub reefer: bool,
    /// The hour it was landed.
    pub landed: u32,
    /// The hour it was plugged in.
    pub plugged: Option<u32>,
    /// The hour of its truck slot.
    pub slot: Option<u32>,
    /// The text on the yard's screen, made from the above.
    #[serde(skip)]
    pub label: String,
}

impl YardBox {
    /// The yard's view of `container`.
    pub fn of(container: &Container) -> YardBox {
        let kind = if container.reefer { "reefer" } else { "dry" };
        YardBox {
            id: container.id.clone(),
            vessel: container.vessel.clone(),
            weight_kg: container.weight_kg,
            reefer: container.reefer,
            landed: container.landed,
            plugged: container.plugged,
            slot: container.slot,
            label: format!("{} ({kind}, {} kg)", container.id, container.weight_kg),
        }
    }
}

impl PartialEq for YardBox {
    /// Two views of a box are equal when what they say about it is (the label is made from it).
    fn eq(&self, other: &YardBox) -> bool {
        self.id == other.id
            && self.vessel == other.vessel
            && self.weight_kg == other.weight_kg
            && self.reefer == other.reefer
            && self.landed == other.landed
            && self.plugged == other.plugged
            && self.slot == other.slot
    }
}

/// The yard's nodes.
pub struct Yard {
    /// One row per box, with its fee.
    pub yard: Collection<String, YardBox, Memo<u64>>,
    /// Kilograms on the stacks.
    pub yard_weight: Memo<u64>,
    /// Reefers in the yard.
    pub reefers: Memo<usize>,
    /// Storage and power fees run up so far, in cents.
    pub storage_due: Memo<u64>,
    /// The boxes with a truck booked, in slot order, as `"hour H: ID"`.
    pub gate_order: Memo<Vec<String>>,
}

/// Builds the yard over `port`'s containers, the port's clock and tariff, as `slip` says.
#[node]
pub fn yard(port: &Mvu<Port, Msg>, hour: &Memo<u32>, tariff: &Memo<Tariff>, slip: Slip) -> Yard {
    let boxes = match slip {
        Slip::BoxComparer => slipped::boxes(port),
        _ => boxes(port),
    };
    let (h, t) = (hour.clone(), tariff.clone());
    let yard = match slip {
        Slip::YardKey => slipped::by_vessel(&boxes, hour, tariff),
        Slip::PlugCapture => Collection::keyed(
            boxes.clone(),
            |b: &YardBox| b.id.clone(),
            move |row| slipped::fee(row, &h, &t),
        ),
        _ => Collection::keyed(
            boxes.clone(),
            |b: &YardBox| b.id.clone(),
            move |row| fee(row, &h, &t),
        ),
    };
    let yard_weight = yard.sum_by(|b| u64::from(b.weight_kg));
    let reefers = yard.filter(|b| b.reefer).count();
    let storage_due = {
        let yard = yard.clone();
        Memo::new(move |_| yard.rows().iter().map(Memo::get).sum::<u64>())
    };
    let booked = yard.filter(|b| b.slot.is_some());
    let by_slot = yard.sort_by(|b| b.slot.unwrap_or(u32::MAX));
    let gate_order = gate_order(&yard, &booked, &by_slot);
    Yard {
        yard,
        yard_weight,
        reefers,
        storage_due,
        gate_order,
    }
}

/// The boxes in the yard, in the order landed.
fn boxes(port: &Mvu<Port, Msg>) -> Memo<Vec<YardBox>> {
    port.select(|p| p.containers.iter().map(YardBox::of).collect::<Vec<_>>())
}

/// A box's fee so far: storage for every hour past the free hours, and power for every hour a reefer was plugged in.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
fn fee(row: &Row<String, YardBox>, hour: &Memo<u32>, tariff: &Memo<Tariff>) -> Memo<u64> {
    let (row, hour, tariff) = (row.clone(), hour.clone(), tariff.clone());
    let fee = Memo::new(move |_| {
        let now = hour.get();
        let tariff = tariff.get();
        row.with(|b| {
            let stay = now.saturating_sub(b.landed);
            let charged = stay.saturating_sub(tariff.free_storage_hours);
            let storage = u64::from(charged) * tariff.storage_cents_per_hour;
            let power = match (b.reefer, b.plugged) {
                (true, Some(from)) => {
                    u64::from(now.saturating_sub(from)) * tariff.reefer_cents_per_hour
                }
                _ => 0,
            };
            storage + power
        })
    });
    fee
}

/// The boxes `booked` for a truck, in the slot order `by_slot`, as the gate clerk's list.
fn gate_order(
    yard: &Collection<String, YardBox, Memo<u64>>,
    booked: &Filter<String>,
    by_slot: &Memo<Rc<[String]>>,
) -> Memo<Vec<String>> {
    let (yard, booked, by_slot) = (yard.clone(), booked.keys(), by_slot.clone());
    Memo::new(move |_| {
        let booked = booked.get();
        let order = by_slot.get();
        let mut slots = HashMap::new();
        yard.for_each(|id, b, _| {
            if let Some(slot) = b.slot {
                slots.insert(id.clone(), slot);
            }
        });
        let mut lines = Vec::with_capacity(booked.len());
        for id in order.iter().filter(|id| booked.contains(id)) {
            let Some(slot) = slots.get(id) else {
                continue;
            };
            lines.push(format!("hour {slot}: {id}"));
        }
        lines
    })
}

/// The yard as first written.
mod slipped {
    use ranvier::collection::{Collection, Row};
    use ranvier::{Memo, Mvu, node};

    use super::super::model::{Msg, Port, Tariff};
    use super::{YardBox, fee as fee_of};

    /// The boxes in the yard; the collection follows them by key, so they only need to wake it when a box comes or
    /// goes.
    pub fn boxes(port: &Mvu<Port, Msg>) -> Memo<Vec<YardBox>> {
        let port = port.clone();
        Memo::with_comparer(
            move |_| port.with_model(|p| p.containers.iter().map(YardBox::of).collect()),
            |a: &Vec<YardBox>, b: &Vec<YardBox>| same_boxes(a, b),
        )
    }

    /// Whether two lists hold the same boxes, in the same order.
    fn same_boxes(a: &[YardBox], b: &[YardBox]) -> bool {
        // BUG(box_comparer)
        a.iter().map(|x| &x.id).eq(b.iter().map(|x| &x.id))
    }

    /// The yard's rows, one per box.
    pub fn by_vessel(
        boxes: &Memo<Vec<YardBox>>,
        hour: &Memo<u32>,
        tariff: &Memo<Tariff>,
    ) -> Collection<String, YardBox, Memo<u64>> {
        let (hour, tariff) = (hour.clone(), tariff.clone());
        Collection::keyed(
            boxes.clone(),
            // BUG(yard_key)
            |b: &YardBox| b.vessel.clone(),
            move |row| fee_of(row, &hour, &tariff),
        )
    }

    /// A box's fee so far.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn fee(row: &Row<String, YardBox>, hour: &Memo<u32>, tariff: &Memo<Tariff>) -> Memo<u64> {
        let (hour, tariff) = (hour.clone(), tariff.clone());
        // BUG(plug_capture)
        let b = row.get();
        let fee = Memo::new(move |_| {
            let now = hour.get();
            let tariff = tariff.get();
            let stay = now.saturating_sub(b.landed);
            let charged = stay.saturating_sub(tariff.free_storage_hours);
            let storage = u64::from(charged) * tariff.storage_cents_per_hour;
            let power = match (b.reefer, b.plugged) {
                (true, Some(from)) => {
                    u64::from(now.saturating_sub(from)) * tariff.reefer_cents_per_hour
                }
                _ => 0,
            };
            storage + power
        });
        fee
    }
}
