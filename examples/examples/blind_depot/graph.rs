//! The depot's graph: the `#[expose]`d desk, the `#[node]` builder, and the lists the desk reads (orders, demand per
//! part, the pick list, the write-offs).

use super::model::{Depot, Msg, OPENING_STOCK, OrderStatus, stamp};
use super::picking;
use super::services;
use super::stock::{self, Stock};
use super::update::update;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::cell::Cell;
use std::collections::BTreeMap;

/// Which mistake the depot runs with (`None`: the correct depot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    None,
    RelocateLost,
    HoldBoundary,
    ReturnNoAllocate,
    ExpiredBackorder,
    ReleaseOrdered,
    WaveAgain,
    DemandTally,
    WriteOffFilter,
    HeadroomSwapped,
    WalkOrder,
    QuoteGrams,
    DueFromToday,
}

thread_local! {
    /// The mistake of the depot on this graph thread.
    static SLIP: Cell<Slip> = const { Cell::new(Slip::None) };
}

/// The mistake of the depot on this thread.
pub fn slip() -> Slip {
    SLIP.with(Cell::get)
}

/// The depot as the desk (and an agent) sees it.
#[expose]
pub struct DepotDesk {
    /// The depot's model and update: its messages are what an agent may send.
    #[expose(messages)]
    pub depot: Mvu<Depot, Msg>,
    /// The depot's clock, `Mon 08:00`.
    #[expose]
    #[node]
    pub clock: Memo<String>,
    /// The parts, one row per sku, each with its shelf label.
    #[expose]
    #[node]
    pub stock: Stock,
    /// Every shelf's label, in walking order.
    #[expose]
    #[node]
    pub shelves: Memo<Vec<String>>,
    /// The parts down to their reorder point.
    #[expose]
    #[node]
    pub low_stock: Memo<Vec<String>>,
    /// How many bins are empty.
    #[expose]
    #[node]
    pub empty_bins: Memo<usize>,
    /// Every order and where it stands.
    #[expose]
    #[node]
    pub orders: Memo<Vec<String>>,
    /// Per part: units held for live orders and units they still wait for.
    #[expose]
    #[node]
    pub demand: Memo<Vec<String>>,
    /// What is left to pick in the latest wave.
    #[expose]
    #[node]
    pub pick_list: Memo<Vec<String>>,
    /// Damaged returns written off, per part, with their cost.
    #[expose]
    #[node]
    pub write_offs: Memo<Vec<String>>,
    /// The carrier's price for each shipment.
    #[expose]
    #[node]
    pub quotes: AsyncMemo<Vec<String>>,
    /// When each open reorder should arrive.
    #[expose]
    #[node]
    pub arrivals: AsyncMemo<Vec<String>>,
}

/// `12.30` for 1230 cents.
fn money(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Units held and units short of one part, over the live orders.
#[derive(Default)]
struct Tally {
    reserved: u32,
    short: u32,
    orders: Vec<u32>,
}

/// Builds the depot with `slip`, its opening stock shelved (the initial commands); `#[node]` names each node after
/// its `let`.
#[node]
pub fn depot_desk(slip: Slip) -> DepotDesk {
    SLIP.with(|s| s.set(slip));
    let opening: Vec<Msg> = OPENING_STOCK.into_iter().map(Msg::shelve).collect();
    let depot = Mvu::with_commands((Depot::default(), opening), update);
    let clock = depot.select(|depot| stamp(depot.now));
    let stock = stock::stock(&depot);
    let walk = stock::walk(&stock);
    let shelves = stock::shelves(&stock, &walk);
    let low_stock = stock::low_stock(&stock);
    let empty_bins = stock::empty_bins(&stock);
    let orders = Memo::new({
        let depot = depot.clone();
        move |_| {
            depot.with_model(|depot| {
                depot
                    .orders
                    .iter()
                    .map(|order| {
                        let who = format!("#{} {} ({})", order.id, order.customer, order.zone);
                        let state = match order.status {
                            OrderStatus::Expired => "expired".to_owned(),
                            OrderStatus::Shipped { shipment } => format!("shipped as S{shipment}"),
                            OrderStatus::Released { wave } => {
                                let picked: u32 = order.lines.iter().map(|l| l.picked).sum();
                                format!("in wave {wave}, {picked} of {} picked", order.units())
                            }
                            OrderStatus::Open => {
                                let short = order.units() - order.covered();
                                let mut state =
                                    format!("{} of {} reserved", order.covered(), order.units());
                                if short > 0 {
                                    state.push_str(&format!(", {short} short"));
                                }
                                if order.paid {
                                    state.push_str(", paid");
                                } else {
                                    state.push_str(&format!(
                                        ", unpaid until {}",
                                        stamp(order.hold_until())
                                    ));
                                }
                                state
                            }
                        };
                        format!("{who}: {state}")
                    })
                    .collect()
            })
        }
    });
    let live_lines = depot.select(|depot| {
        depot
            .orders
            .iter()
            .filter(|order| order.is_live())
            .map(|order| (order.id, order.lines.clone()))
            .collect::<Vec<_>>()
    });
    let demand = Memo::new({
        let live_lines = live_lines.clone();
        move |_| {
            let mut by_sku: BTreeMap<String, Tally> = BTreeMap::new();
            for (order, lines) in live_lines.get() {
                for line in lines {
                    if line.reserved == 0 && line.short() == 0 {
                        continue;
                    }
                    let tally = by_sku.entry(line.sku.clone()).or_default();
                    tally.reserved += line.reserved;
                    if slip == Slip::DemandTally {
                        // BUG(demand_tally)
                        tally.reserved += line.short();
                    } else {
                        tally.short += line.short();
                    }
                    if !tally.orders.contains(&order) {
                        tally.orders.push(order);
                    }
                }
            }
            by_sku
                .into_iter()
                .map(|(sku, tally)| {
                    let orders: Vec<String> =
                        tally.orders.iter().map(|id| format!("#{id}")).collect();
                    format!(
                        "{sku}: {} reserved, {} short ({})",
                        tally.reserved,
                        tally.short,
                        orders.join(", ")
                    )
                })
                .collect()
        }
    });
    let pick_list = Memo::new({
        let depot = depot.clone();
        move |_| {
            depot.with_model(|depot| {
                let Some(wave) = depot.waves.last() else {
                    return Vec::new();
                };
                let orders: Vec<String> = wave.orders.iter().map(|id| format!("#{id}")).collect();
                let stops = picking::stops(depot, wave.id);
                let mut list = vec![format!(
                    "wave {} ({}), released {}",
                    wave.id,
                    orders.join(", "),
                    stamp(wave.released_at)
                )];
                if stops.is_empty() {
                    list.push("all picked".to_owned());
                }
                list.extend(stops.iter().map(picking::Stop::line));
                list
            })
        }
    });
    let returns = depot.select(|depot| depot.returns.clone());
    let write_offs = Memo::new({
        let (returns, depot) = (returns.clone(), depot.clone());
        move |_| {
            let items = depot.with_model(|depot| depot.items.clone());
            let mut per_sku: BTreeMap<&str, (u32, u64)> = BTreeMap::new();
            let written_off: Vec<_> = if slip == Slip::WriteOffFilter {
                // BUG(write_off_filter)
                returns.get().into_iter().filter(|r| !r.damaged).collect()
            } else {
                returns.get().into_iter().filter(|r| r.damaged).collect()
            };
            for ret in &written_off {
                let Some(item) = items.iter().find(|item| item.sku == ret.sku) else {
                    continue;
                };
                let entry = per_sku.entry(item.sku.as_str()).or_default();
                entry.0 += ret.qty;
                entry.1 += u64::from(ret.qty) * u64::from(item.cost);
            }
            let total: u64 = per_sku.values().map(|(_, cents)| cents).sum();
            let mut lines: Vec<String> = per_sku
                .into_iter()
                .map(|(sku, (units, cents))| {
                    let name = items
                        .iter()
                        .find(|i| i.sku == sku)
                        .map_or("", |i| i.name.as_str());
                    format!("{sku} {name}: {units} written off, {}", money(cents))
                })
                .collect();
            if !lines.is_empty() {
                lines.push(format!("total {}", money(total)));
            }
            lines
        }
    });
    let quotes = services::quotes(&depot);
    let arrivals = services::arrivals(&depot);
    DepotDesk {
        depot,
        clock,
        stock,
        shelves,
        low_stock,
        empty_bins,
        orders,
        demand,
        pick_list,
        write_offs,
        quotes,
        arrivals,
    }
}
