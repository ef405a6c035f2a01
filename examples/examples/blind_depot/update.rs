//! The depot's `update`: one arm per message, the helpers that do the work, and the commands (follow-up messages)
//! they send. A message that names no order, part or line it can act on changes nothing.

use super::graph::{Slip, slip};
use super::model::{
    Depot, Msg, Order, OrderLine, OrderStatus, Reorder, Return, Shipment, StockItem, Wave, policy,
};
use super::picking;
use super::reserve;

/// The depot after `msg`, and the messages to dispatch next.
pub fn update(msg: Msg, depot: &Depot) -> (Depot, Vec<Msg>) {
    let mut next = depot.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Shelve {
            sku,
            name,
            bin,
            on_hand,
            reorder_point,
            reorder_qty,
            supplier,
            grams,
            cost,
        } => {
            if next.item(&sku).is_none() {
                next.items.push(StockItem {
                    sku,
                    name,
                    bin,
                    on_hand,
                    reserved: 0,
                    reorder_point,
                    reorder_qty,
                    supplier,
                    grams,
                    cost,
                    touched_at: next.now,
                });
            }
        }
        Msg::PlaceOrder {
            order,
            customer,
            zone,
        } => {
            if next.order(order).is_none() {
                let placed = Order::new(order, customer, zone, next.now);
                next.orders.push(placed);
            }
        }
        Msg::AddLine { order, sku, qty } => commands = add_line(&mut next, order, &sku, qty),
        Msg::Pay { order } => {
            if let Some(order) = next.order_mut(order)
                && order.status == OrderStatus::Open
            {
                order.paid = true;
            }
        }
        Msg::Advance { minutes } => {
            next.now += minutes;
            commands = lapsed(&next);
        }
        Msg::Expire { order } => {
            if let Some(o) = next.order_mut(order) {
                o.status = OrderStatus::Expired;
            }
            commands = reserve::release(&mut next, order)
                .into_iter()
                .map(|sku| Msg::Allocate { sku })
                .collect();
        }
        Msg::ReleaseWave => release_wave(&mut next),
        Msg::Pick { order, sku, qty } => pick(&mut next, order, &sku, qty),
        Msg::Ship { order } => ship(&mut next, order),
        Msg::ReturnGoods {
            order,
            sku,
            qty,
            damaged,
        } => commands = take_back(&mut next, order, sku, qty, damaged),
        Msg::Receive { sku, qty } => {
            for reorder in next.reorders.iter_mut().filter(|r| r.sku == sku) {
                reorder.received = true;
            }
            commands.extend(restock(&mut next, &sku, qty));
        }
        Msg::Relocate { sku, bin } => {
            let now = next.now;
            if let Some(item) = next.item_mut(&sku) {
                item.bin = bin;
                item.touched_at = now;
            }
        }
        Msg::Allocate { sku } => {
            reserve::fill_backorders(&mut next, &sku);
        }
        Msg::Reorder { sku } => {
            if !next.reorder_open(&sku)
                && let Some(item) = next.item(&sku)
            {
                let reorder = Reorder {
                    sku: item.sku.clone(),
                    qty: item.reorder_qty,
                    supplier: item.supplier.clone(),
                    raised_at: next.now,
                    received: false,
                };
                next.reorders.push(reorder);
            }
        }
    }
    (next, commands)
}

/// Adds `qty` of `sku` to open order `id`, reserving what is free; a reorder when the part is down to its point.
fn add_line(depot: &mut Depot, id: u32, sku: &str, qty: u32) -> Vec<Msg> {
    let now = depot.now;
    let open = depot
        .order(id)
        .is_some_and(|order| order.status == OrderStatus::Open);
    let Some(item) = depot.item_mut(sku).filter(|_| open && qty > 0) else {
        return Vec::new();
    };
    let grant = reserve::grant(item, qty);
    item.reserved += grant.reserved;
    item.touched_at = now;
    let reorder = reserve::needs_reorder(item);
    if let Some(order) = depot.order_mut(id) {
        match order.line_mut(sku) {
            Some(line) => {
                line.qty += qty;
                line.reserved += grant.reserved;
            }
            None => order.lines.push(OrderLine {
                sku: sku.to_owned(),
                qty,
                reserved: grant.reserved,
                picked: 0,
            }),
        }
    }
    if reorder && !depot.reorder_open(sku) {
        vec![Msg::Reorder {
            sku: sku.to_owned(),
        }]
    } else {
        Vec::new()
    }
}

/// The `expire` commands for the unpaid orders whose hold ran out by now.
fn lapsed(depot: &Depot) -> Vec<Msg> {
    depot
        .orders
        .iter()
        .filter(|order| order.status == OrderStatus::Open && !order.paid)
        .filter(|order| {
            if slip() == Slip::HoldBoundary {
                // BUG(hold_boundary)
                depot.now > order.hold_until()
            } else {
                depot.now >= order.hold_until()
            }
        })
        .map(|order| Msg::Expire { order: order.id })
        .collect()
}

/// A new wave of the orders ready for picking, oldest first.
fn release_wave(depot: &mut Depot) {
    let mut ready: Vec<&Order> = depot
        .orders
        .iter()
        .filter(|order| picking::ready(order))
        .collect();
    ready.sort_by_key(|order| (order.placed_at, order.id));
    let chosen: Vec<u32> = ready
        .iter()
        .take(policy::WAVE_ORDERS)
        .map(|order| order.id)
        .collect();
    if chosen.is_empty() {
        return;
    }
    let wave = depot.waves.len() as u32 + 1;
    for order in depot
        .orders
        .iter_mut()
        .filter(|order| chosen.contains(&order.id))
    {
        order.status = OrderStatus::Released { wave };
    }
    depot.waves.push(Wave {
        id: wave,
        orders: chosen,
        released_at: depot.now,
    });
}

/// The picker took `qty` of `sku` for order `id`: as many as the line holds come off the shelf.
fn pick(depot: &mut Depot, id: u32, sku: &str, qty: u32) {
    let now = depot.now;
    let Some(order) = depot.order_mut(id) else {
        return;
    };
    if !matches!(order.status, OrderStatus::Released { .. }) {
        return;
    }
    let Some(line) = order.line_mut(sku) else {
        return;
    };
    let taken = qty.min(line.reserved);
    line.reserved -= taken;
    line.picked += taken;
    if let Some(item) = depot.item_mut(sku) {
        item.on_hand -= taken;
        item.reserved -= taken;
        item.touched_at = now;
    }
}

/// Packs order `id` once every unit is picked: its weight, the parcels it takes, and the shipment.
fn ship(depot: &mut Depot, id: u32) {
    let Some(order) = depot.order(id) else {
        return;
    };
    let picked = order.lines.iter().all(|line| line.picked == line.qty);
    if !matches!(order.status, OrderStatus::Released { .. }) || !picked {
        return;
    }
    let goods: u32 = order
        .lines
        .iter()
        .filter_map(|line| depot.item(&line.sku).map(|item| item.grams * line.picked))
        .sum();
    let parcels = goods.div_ceil(policy::PARCEL_GRAMS).max(1);
    let shipment = Shipment {
        id: depot.shipments.len() as u32 + 1,
        order: id,
        zone: order.zone.clone(),
        grams: goods + parcels * policy::PACKING_GRAMS,
        parcels,
    };
    if let Some(order) = depot.order_mut(id) {
        order.status = OrderStatus::Shipped {
            shipment: shipment.id,
        };
    }
    depot.shipments.push(shipment);
}

/// Goods back from a shipped order: recorded, and put back on the shelf unless damaged.
fn take_back(depot: &mut Depot, id: u32, sku: String, qty: u32, damaged: bool) -> Vec<Msg> {
    let sent = depot
        .order(id)
        .filter(|order| matches!(order.status, OrderStatus::Shipped { .. }))
        .and_then(|order| order.lines.iter().find(|line| line.sku == sku))
        .map_or(0, |line| line.picked);
    let returned: u32 = depot
        .returns
        .iter()
        .filter(|r| r.order == id && r.sku == sku)
        .map(|r| r.qty)
        .sum();
    let qty = qty.min(sent.saturating_sub(returned));
    if qty == 0 {
        return Vec::new();
    }
    depot.returns.push(Return {
        order: id,
        sku: sku.clone(),
        qty,
        damaged,
    });
    let mut commands = Vec::new();
    if !damaged {
        if slip() == Slip::ReturnNoAllocate {
            // BUG(return_no_allocate)
            restock(depot, &sku, qty);
        } else {
            commands.extend(restock(depot, &sku, qty));
        }
    }
    commands
}

/// `qty` units of `sku` back on the shelf; an `allocate` when an order is waiting for the part.
fn restock(depot: &mut Depot, sku: &str, qty: u32) -> Option<Msg> {
    let now = depot.now;
    let item = depot.item_mut(sku)?;
    item.on_hand += qty;
    item.touched_at = now;
    let waiting = depot
        .orders
        .iter()
        .filter(|order| order.is_live())
        .flat_map(|order| &order.lines)
        .any(|line| line.sku == sku && line.short() > 0);
    waiting.then(|| Msg::Allocate {
        sku: sku.to_owned(),
    })
}
