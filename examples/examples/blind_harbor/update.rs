//! The desk's `update`: what each message does to the port, and the bills and notices it sends on (as commands).

use super::model::{Berth, Container, Invoice, Msg, Port, Vessel};
use super::rules;
use super::tariff;

/// The next port, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, port: &Port) -> (Port, Vec<Msg>) {
    let mut next = port.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::AddBerth {
            id,
            length_m,
            depth_dm,
        } => {
            if next.berth(&id).is_none() {
                next.berths.push(Berth {
                    id,
                    length_m,
                    depth_dm,
                });
            }
        }
        Msg::Announce {
            call_sign,
            name,
            length_m,
            draft_dm,
            eta,
        } => {
            if next.vessel(&call_sign).is_none() {
                next.vessels.push(Vessel {
                    call_sign,
                    name,
                    length_m,
                    draft_dm,
                    eta,
                    berth: None,
                    arrived: None,
                    departed: None,
                });
            }
        }
        Msg::Assign { call_sign, berth } => commands = assign(&mut next, &call_sign, &berth),
        Msg::Arrive { call_sign } => commands = arrive(&mut next, &call_sign),
        Msg::Depart { call_sign } => commands = depart(&mut next, &call_sign),
        Msg::Land {
            container,
            call_sign,
            weight_kg,
            reefer,
        } => commands = land(&mut next, container, call_sign, weight_kg, reefer),
        Msg::Plug { container } => {
            let hour = next.hour;
            let reefer = next
                .containers
                .iter_mut()
                .find(|c| c.id == container && c.reefer && c.plugged.is_none());
            if let Some(c) = reefer {
                c.plugged = Some(hour);
            }
        }
        Msg::Book { container, hour } => {
            if let Some(c) = next.containers.iter_mut().find(|c| c.id == container) {
                c.slot = Some(hour);
            }
        }
        Msg::GateOut { container } => next.containers.retain(|c| c.id != container),
        Msg::Advance { hours } => next.hour += hours,
        Msg::Bill { call_sign, cents } => {
            next.invoices.push(Invoice {
                number: next.next_invoice,
                call_sign,
                cents,
            });
            next.next_invoice += 1;
        }
        Msg::Notify { text } => next.notices.push(text),
    }
    (next, commands)
}

/// A notice to send.
#[ranvier::trace_fn]
fn notify(text: String) -> Vec<Msg> {
    vec![Msg::Notify { text }]
}

/// Gives `berth` to the ship `call_sign`, if the berth is free and the ship fits it.
#[ranvier::trace_fn]
fn assign(port: &mut Port, call_sign: &str, berth: &str) -> Vec<Msg> {
    let Some(quay) = port.berth(berth).cloned() else {
        return notify(format!("{call_sign}: there is no berth {berth}"));
    };
    if port.berth_taken(berth) {
        return notify(format!("{call_sign}: {berth} is taken"));
    }
    let Some(vessel) = port
        .vessels
        .iter_mut()
        .find(|v| v.call_sign == call_sign && v.arrived.is_none())
    else {
        return notify(format!("{call_sign}: not expected"));
    };
    if !rules::fits(&quay, vessel) {
        return notify(format!("{call_sign}: does not fit {berth}"));
    }
    vessel.berth = Some(berth.to_owned());
    Vec::new()
}

/// The ship `call_sign` made fast at its berth now.
#[ranvier::trace_fn]
fn arrive(port: &mut Port, call_sign: &str) -> Vec<Msg> {
    let hour = port.hour;
    match port
        .vessels
        .iter_mut()
        .find(|v| v.call_sign == call_sign && v.arrived.is_none())
    {
        Some(vessel) if vessel.berth.is_some() => {
            vessel.arrived = Some(hour);
            Vec::new()
        }
        Some(_) => notify(format!("{call_sign}: has no berth yet")),
        None => notify(format!("{call_sign}: not expected")),
    }
}

/// The ship `call_sign` left now: it is billed its dues, and the first ship still waiting for a berth is told the
/// berth is free.
#[ranvier::trace_fn]
fn depart(port: &mut Port, call_sign: &str) -> Vec<Msg> {
    let hour = port.hour;
    let tariff = port.tariff.clone();
    let Some(vessel) = port
        .vessels
        .iter_mut()
        .find(|v| v.call_sign == call_sign && v.alongside())
    else {
        return notify(format!("{call_sign}: not alongside"));
    };
    vessel.departed = Some(hour);
    let from = vessel.arrived.unwrap_or(hour);
    let cents = tariff::dues(vessel.length_m, from, hour, &tariff);
    let berth = vessel.berth.clone().unwrap_or_default();
    let mut commands = vec![Msg::Bill {
        call_sign: call_sign.to_owned(),
        cents,
    }];
    let waiting = port
        .vessels
        .iter()
        .filter(|v| v.berth.is_none())
        .min_by_key(|v| v.eta);
    if let Some(next) = waiting {
        commands.push(Msg::Notify {
            text: format!("{}: {berth} is free", next.call_sign),
        });
    }
    commands
}

/// Lands `container` from the ship `call_sign`, which must be alongside.
#[ranvier::trace_fn]
fn land(port: &mut Port, id: String, call_sign: String, weight_kg: u32, reefer: bool) -> Vec<Msg> {
    if !port.vessel(&call_sign).is_some_and(Vessel::alongside) {
        return notify(format!("{id}: {call_sign} is not alongside"));
    }
    if port.containers.iter().any(|c| c.id == id) {
        return notify(format!("{id}: already in the yard"));
    }
    port.containers.push(Container {
        id,
        vessel: call_sign,
        weight_kg,
        reefer,
        landed: port.hour,
        plugged: None,
        slot: None,
    });
    Vec::new()
}

/// `update` as first written: each takes one message its own way and hands the rest to [`update`].
pub mod slipped {
    use super::super::model::{Msg, Port};
    use super::super::rules;
    use super::{depart, notify, update};

    /// `update`, with the first `Assign`.
    #[ranvier::trace_fn]
    pub fn update_assign(msg: Msg, port: &Port) -> (Port, Vec<Msg>) {
        match msg {
            Msg::Assign { call_sign, berth } => {
                let mut next = port.clone();
                let commands = assign_next(&mut next, &call_sign, &berth);
                (next, commands)
            }
            other => update(other, port),
        }
    }

    #[ranvier::trace_fn]
    fn assign_next(port: &mut Port, call_sign: &str, berth: &str) -> Vec<Msg> {
        let Some(quay) = port.berth(berth).cloned() else {
            return notify(format!("{call_sign}: there is no berth {berth}"));
        };
        if port.berth_taken(berth) {
            return notify(format!("{call_sign}: {berth} is taken"));
        }
        let Some(vessel) = port
            .vessels
            .iter_mut()
            // BUG(assign_first)
            .find(|v| v.berth.is_none() && v.arrived.is_none())
        else {
            return notify(format!("{call_sign}: not expected"));
        };
        if !rules::fits(&quay, vessel) {
            return notify(format!("{call_sign}: does not fit {berth}"));
        }
        vessel.berth = Some(berth.to_owned());
        Vec::new()
    }

    /// `update`, with the first `Depart`.
    #[ranvier::trace_fn]
    pub fn update_depart(msg: Msg, port: &Port) -> (Port, Vec<Msg>) {
        match msg {
            Msg::Depart { call_sign } => {
                let mut next = port.clone();
                // BUG(bill_dropped)
                depart(&mut next, &call_sign);
                (next, Vec::new())
            }
            other => update(other, port),
        }
    }
}
