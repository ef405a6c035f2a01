//! The desk's graph: the `Mvu` of the port, what an agent may see of it (`#[expose]`), and the memos of the quay —
//! the ships waiting, the berth board, the berth suggested for the next ship, the dues run up alongside and billed.
//! The yard's nodes are built in `yard.rs`, the async memos of arrivals in `arrivals.rs`.

use ranvier::collection::Collection;
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};

use super::arrivals::{self, Arrivals, TideCheck};
use super::model::{self, Berth, Msg, Port, Vessel};
use super::remote::Clearance;
use super::rules;
use super::tariff;
use super::update;
use super::yard::{self, Yard, YardBox};

/// Which version of the desk's code runs: the correct one, or one with a mistake it was first written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// All correct.
    None,
    /// `assign` gives the berth to the first ship waiting, not the one named.
    AssignFirst,
    /// A departure's bill is never sent.
    BillDropped,
    /// The tariff's storage and power rates are swapped.
    TariffDefault,
    /// A ship's draft is checked against the berth's length.
    FitsField,
    /// The minimum charge caps the hours instead.
    MinCharge,
    /// Night hours count the hour of the end too.
    NightRange,
    /// The board shows a ship that has left.
    BoardDeparted,
    /// The yard keys its rows by ship.
    YardKey,
    /// A box's fee reads the box once, when its row is made.
    PlugCapture,
    /// The boxes' comparer looks at their numbers only.
    BoxComparer,
    /// The tide is asked for now, not the hour the ship comes in.
    TideNow,
    /// Customs' last answer is kept for the next ship.
    CustomsCached,
}

/// What an agent may see of the desk.
#[expose]
pub struct HarbourApp {
    /// The port and its messages.
    #[expose(messages)]
    pub port: Mvu<Port, Msg>,
    /// The port's clock.
    #[expose]
    #[node]
    pub hour: Memo<u32>,
    /// Ships expected, earliest first.
    #[expose]
    #[node]
    pub waiting: Memo<Vec<String>>,
    /// Each berth and who is at it.
    #[expose]
    #[node]
    pub board: Memo<Vec<String>>,
    /// The berth for the next ship still without one.
    #[expose]
    #[node]
    pub suggested: Memo<Option<String>>,
    /// Dues run up by the ships alongside, in cents.
    #[expose]
    #[node]
    pub dues_now: Memo<u64>,
    /// Dues billed so far, in cents.
    #[expose]
    #[node]
    pub invoiced: Memo<u64>,
    /// Notices sent.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// The boxes in the yard.
    #[expose]
    #[node]
    pub yard: Collection<String, YardBox, Memo<u64>>,
    /// Kilograms on the stacks.
    #[expose]
    #[node]
    pub yard_weight: Memo<u64>,
    /// Reefers in the yard.
    #[expose]
    #[node]
    pub reefers: Memo<usize>,
    /// Storage and power run up in the yard, in cents.
    #[expose]
    #[node]
    pub storage_due: Memo<u64>,
    /// The boxes with a truck booked, in slot order.
    #[expose]
    #[node]
    pub gate_order: Memo<Vec<String>>,
    /// The next ship in and its tide.
    #[expose]
    #[node]
    pub tide: AsyncMemo<Option<TideCheck>>,
    /// Customs' answer for the ship that made fast last.
    #[expose]
    #[node]
    pub customs: AsyncMemo<Option<Clearance>>,
}

/// Builds the desk as `slip` says: the port opens with its quay (initial commands), then its memos.
#[node]
pub fn harbour(slip: Slip) -> HarbourApp {
    let update = match slip {
        Slip::AssignFirst => update::slipped::update_assign,
        Slip::BillDropped => update::slipped::update_depart,
        _ => update::update,
    };
    let opening = match slip {
        Slip::TariffDefault => Port {
            tariff: model::slipped::FirstTariff::default().0,
            ..Port::default()
        },
        _ => Port::default(),
    };
    let port = Mvu::with_commands((opening, model::opening_quay()), update);
    let hour = port.select(|p| p.hour);
    let tariff = port.select(|p| p.tariff.clone());
    let waiting = waiting(&port);
    let board = match slip {
        Slip::BoardDeparted => slipped::board(&port),
        _ => board(&port),
    };
    let suggested = match slip {
        Slip::FitsField => suggested(&port, rules::slipped::fits),
        _ => suggested(&port, rules::fits),
    };
    let dues_now = match slip {
        Slip::MinCharge => dues_now(&port, tariff::slipped::dues_min),
        Slip::NightRange => dues_now(&port, tariff::slipped::dues_nights),
        _ => dues_now(&port, tariff::dues),
    };
    let invoiced = port.select(|p| p.invoices.iter().map(|i| i.cents).sum::<u64>());
    let notices = port.select(|p| p.notices.clone());
    let Yard {
        yard,
        yard_weight,
        reefers,
        storage_due,
        gate_order,
    } = yard::yard(&port, &hour, &tariff, slip);
    let Arrivals { tide, customs } = arrivals::arrivals(&port, slip);
    HarbourApp {
        port,
        hour,
        waiting,
        board,
        suggested,
        dues_now,
        invoiced,
        notices,
        yard,
        yard_weight,
        reefers,
        storage_due,
        gate_order,
        tide,
        customs,
    }
}

/// Ships expected and not yet alongside, earliest first (then by call sign), with their berth and how late they are.
fn waiting(port: &Mvu<Port, Msg>) -> Memo<Vec<String>> {
    let port = port.clone();
    Memo::new(move |_| {
        port.with_model(|p| {
            let mut expected: Vec<&Vessel> =
                p.vessels.iter().filter(|v| v.arrived.is_none()).collect();
            expected.sort_by(|a, b| {
                a.eta
                    .cmp(&b.eta)
                    .then_with(|| a.call_sign.cmp(&b.call_sign))
            });
            let mut lines = Vec::with_capacity(expected.len());
            for vessel in expected {
                let berth = match &vessel.berth {
                    Some(berth) => format!("berth {berth}"),
                    None => "no berth".to_owned(),
                };
                let late = if vessel.eta < p.hour {
                    format!(", {} h late", p.hour - vessel.eta)
                } else {
                    String::new()
                };
                lines.push(format!(
                    "{} {} (eta {}{late}, {berth})",
                    vessel.call_sign, vessel.name, vessel.eta
                ));
            }
            lines
        })
    })
}

/// Each berth along the quay: the ship alongside and since when, the ship given it and on its way, or free.
fn board(port: &Mvu<Port, Msg>) -> Memo<Vec<String>> {
    let port = port.clone();
    Memo::new(move |_| {
        port.with_model(|p| {
            let mut lines = Vec::with_capacity(p.berths.len());
            for berth in &p.berths {
                let at_berth = |v: &&Vessel| v.berth.as_deref() == Some(berth.id.as_str());
                let alongside = p.vessels.iter().filter(at_berth).find(|v| v.alongside());
                let expected = p
                    .vessels
                    .iter()
                    .filter(at_berth)
                    .find(|v| v.arrived.is_none());
                let line = match (alongside, expected) {
                    (Some(v), _) => {
                        let since = v.arrived.unwrap_or(p.hour);
                        let hours = p.hour - since;
                        format!(
                            "{}: {} since hour {since} ({hours} h)",
                            berth.id, v.call_sign
                        )
                    }
                    (None, Some(v)) => format!("{}: expecting {}", berth.id, v.call_sign),
                    (None, None) => format!("{}: free", berth.id),
                };
                lines.push(line);
            }
            lines
        })
    })
}

/// The berth for the next ship without one (the earliest expected): the shortest free berth it fits, so the long
/// berths stay free for long ships.
fn suggested(port: &Mvu<Port, Msg>, fits: fn(&Berth, &Vessel) -> bool) -> Memo<Option<String>> {
    let port = port.clone();
    Memo::new(move |_| {
        port.with_model(|p| {
            let next = p
                .vessels
                .iter()
                .filter(|v| v.berth.is_none() && v.arrived.is_none())
                .min_by(|a, b| (a.eta, &a.call_sign).cmp(&(b.eta, &b.call_sign)))?;
            let berth = p
                .berths
                .iter()
                .filter(|b| !p.berth_taken(&b.id))
                .filter(|b| fits(b, next))
                .min_by_key(|b| b.length_m)?;
            Some(format!("{} → {}", next.call_sign, berth.id))
        })
    })
}

/// Dues run up so far by every ship alongside, as `dues` prices a stay.
fn dues_now(port: &Mvu<Port, Msg>, dues: fn(u32, u32, u32, &model::Tariff) -> u64) -> Memo<u64> {
    let port = port.clone();
    Memo::new(move |_| {
        port.with_model(|p| {
            let mut total = 0_u64;
            for vessel in &p.vessels {
                if !vessel.alongside() {
                    continue;
                }
                let Some(from) = vessel.arrived else {
                    continue;
                };
                let owed = dues(vessel.length_m, from, p.hour, &p.tariff);
                total = total.saturating_add(owed);
            }
            total
        })
    })
}

/// The quay's memos as first written.
mod slipped {
    use ranvier::{Memo, Mvu};

    use super::super::model::{Msg, Port, Vessel};

    /// Each berth along the quay.
    pub fn board(port: &Mvu<Port, Msg>) -> Memo<Vec<String>> {
        let port = port.clone();
        Memo::new(move |_| {
            port.with_model(|p| {
                let mut lines = Vec::with_capacity(p.berths.len());
                for berth in &p.berths {
                    let at_berth = |v: &&Vessel| v.berth.as_deref() == Some(berth.id.as_str());
                    let alongside = p
                        .vessels
                        .iter()
                        .filter(at_berth)
                        // BUG(board_departed)
                        .find(|v| v.arrived.is_some());
                    let expected = p
                        .vessels
                        .iter()
                        .filter(at_berth)
                        .find(|v| v.arrived.is_none());
                    let line = match (alongside, expected) {
                        (Some(v), _) => {
                            let since = v.arrived.unwrap_or(p.hour);
                            let hours = p.hour - since;
                            format!(
                                "{}: {} since hour {since} ({hours} h)",
                                berth.id, v.call_sign
                            )
                        }
                        (None, Some(v)) => format!("{}: expecting {}", berth.id, v.call_sign),
                        (None, None) => format!("{}: free", berth.id),
                    };
                    lines.push(line);
                }
                lines
            })
        })
    }
}
