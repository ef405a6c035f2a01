//! Arrivals: two answers from the services over the network, as async memos. Whether the next ship in clears the
//! approach channel on the tide at the hour it comes in, and what customs said about the ship that made fast last.

use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Mvu, node};

use super::graph::Slip;
use super::model::{Msg, Port};
use super::remote::{self, Clearance};
use super::rules;

/// The approach channel's depth at chart datum, in decimetres.
pub const CHANNEL_DM: u32 = 120;

/// Whether a ship clears the approach channel.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct TideCheck {
    /// The ship.
    pub call_sign: String,
    /// The hour it comes in.
    pub hour: u32,
    /// The tide then, in centimetres above datum.
    pub tide_cm: u32,
    /// Whether its draft and the under-keel clearance fit in the channel then.
    pub clears: bool,
}

/// The async memos of arrivals.
pub struct Arrivals {
    /// The next ship in and the tide it comes in on.
    pub tide: AsyncMemo<Option<TideCheck>>,
    /// Customs' answer for the ship that made fast last.
    pub customs: AsyncMemo<Option<Clearance>>,
}

/// Builds the arrivals' async memos over `port`, as `slip` says.
#[node]
pub fn arrivals(port: &Mvu<Port, Msg>, slip: Slip) -> Arrivals {
    let tide = match slip {
        Slip::TideNow => slipped::tide(port),
        _ => tide(port),
    };
    let customs = match slip {
        Slip::CustomsCached => slipped::customs(port),
        _ => customs(port),
    };
    Arrivals { tide, customs }
}

/// The next ship expected with a berth (the earliest, then by call sign), its draft and the port's hour.
fn next_in(p: &Port) -> Option<(String, u32, u32, u32)> {
    let vessel = p
        .vessels
        .iter()
        .filter(|v| v.berth.is_some() && v.arrived.is_none())
        .min_by(|a, b| (a.eta, &a.call_sign).cmp(&(b.eta, &b.call_sign)))?;
    Some((
        vessel.call_sign.clone(),
        vessel.eta,
        vessel.draft_dm,
        p.hour,
    ))
}

/// The tide the next ship comes in on: at its ETA, or now for a ship already late.
fn tide(port: &Mvu<Port, Msg>) -> AsyncMemo<Option<TideCheck>> {
    let port = port.clone();
    AsyncMemo::try_new(move |_| {
        let next = port.with_model(next_in);
        async move {
            let Some((call_sign, eta, draft_dm, now)) = next else {
                return Ok(None);
            };
            // a late ship comes in as soon as it can
            let at = eta.max(now);
            let tide_cm = remote::tide_cm(at).await?;
            let water_dm = CHANNEL_DM + tide_cm / 10;
            let clears = draft_dm + rules::UNDER_KEEL_DM <= water_dm;
            Ok::<_, String>(Some(TideCheck {
                call_sign,
                hour: at,
                tide_cm,
                clears,
            }))
        }
    })
}

/// Customs' answer for the ship that made fast last; a ship customs already answered for keeps its answer (the
/// office charges per query).
fn customs(port: &Mvu<Port, Msg>) -> AsyncMemo<Option<Clearance>> {
    let port = port.clone();
    AsyncMemo::try_new(move |prev: Option<&Option<Clearance>>| {
        let last = port.with_model(|p| {
            p.vessels
                .iter()
                .filter(|v| v.arrived.is_some())
                .max_by_key(|v| v.arrived)
                .map(|v| v.call_sign.clone())
        });
        let known = prev
            .cloned()
            .flatten()
            .filter(|c| Some(&c.call_sign) == last.as_ref());
        async move {
            let Some(call_sign) = last else {
                return Ok(None);
            };
            if let Some(known) = known {
                return Ok(Some(known));
            }
            let clearance = remote::clearance(call_sign).await?;
            Ok::<_, String>(Some(clearance))
        }
    })
}

/// The async memos as first written.
mod slipped {
    use ranvier::{AsyncMemo, Mvu};

    use super::super::model::{Msg, Port};
    use super::super::remote::{self, Clearance};
    use super::super::rules;
    use super::{CHANNEL_DM, TideCheck, next_in};

    /// The tide the next ship comes in on.
    pub fn tide(port: &Mvu<Port, Msg>) -> AsyncMemo<Option<TideCheck>> {
        let port = port.clone();
        AsyncMemo::try_new(move |_| {
            let next = port.with_model(next_in);
            async move {
                let Some((call_sign, eta, draft_dm, now)) = next else {
                    return Ok(None);
                };
                // a late ship comes in as soon as it can
                let at = eta.max(now);
                // BUG(tide_now)
                let tide_cm = remote::tide_cm(now).await?;
                let water_dm = CHANNEL_DM + tide_cm / 10;
                let clears = draft_dm + rules::UNDER_KEEL_DM <= water_dm;
                Ok::<_, String>(Some(TideCheck {
                    call_sign,
                    hour: at,
                    tide_cm,
                    clears,
                }))
            }
        })
    }

    /// Customs' answer for the ship that made fast last.
    pub fn customs(port: &Mvu<Port, Msg>) -> AsyncMemo<Option<Clearance>> {
        let port = port.clone();
        AsyncMemo::try_new(move |prev: Option<&Option<Clearance>>| {
            let last = port.with_model(|p| {
                p.vessels
                    .iter()
                    .filter(|v| v.arrived.is_some())
                    .max_by_key(|v| v.arrived)
                    .map(|v| v.call_sign.clone())
            });
            // BUG(customs_cached)
            let known = prev.cloned().flatten();
            async move {
                let Some(call_sign) = last else {
                    return Ok(None);
                };
                if let Some(known) = known {
                    return Ok(Some(known));
                }
                let clearance = remote::clearance(call_sign).await?;
                Ok::<_, String>(Some(clearance))
            }
        })
    }
}
