//! What the society asks services over the network, as async memos: who waters the communal beds on the coming
//! week's dry days (a rainfall forecast), and who is behind with payments (the bank's feed).

use std::collections::BTreeMap;

use ranvier::{AsyncMemo, Mvu, node};

use super::fees;
use super::graph::Slip;
use super::model::{Msg, Society, date, money};
use super::remote;

/// Rain, in millimetres, below which a day is dry and the communal beds need watering.
pub const DRY_LIMIT_MM: u32 = 2;

/// Days on the water rota.
pub const ROTA_DAYS: u32 = 7;

/// Today, and the tenants in the order of the plots (each tenant once): who takes turns on the rota.
fn rota_tenants(society: &Society) -> (u32, Vec<String>) {
    let mut tenants: Vec<String> = Vec::new();
    for plot in &society.plots {
        if let Some(tenant) = &plot.tenant
            && !tenants.contains(tenant)
        {
            tenants.push(tenant.clone());
        }
    }
    (society.today, tenants)
}

/// What each member has been charged, by member.
fn charged(society: &Society) -> Vec<(String, i64)> {
    let mut charged: BTreeMap<String, i64> = BTreeMap::new();
    for posting in &society.ledger {
        *charged.entry(posting.member.clone()).or_default() += posting.pence;
    }
    charged.into_iter().collect()
}

/// Rain as `4.2 mm`, from tenths of a millimetre.
fn mm(tenths: u32) -> String {
    format!("{}.{} mm", tenths / 10, tenths % 10)
}

/// The services' memos.
pub struct Services {
    /// Who waters on the coming week's dry days.
    pub water_rota: AsyncMemo<Vec<String>>,
    /// Who is behind with payments.
    pub arrears: AsyncMemo<Vec<String>>,
}

/// The services' memos, as `slip` says.
#[node]
pub fn services(society: &Mvu<Society, Msg>, slip: Slip) -> Services {
    let water_rota = match slip {
        Slip::RainUnit => slipped::water_rota(society),
        _ => water_rota(society),
    };
    let arrears = match slip {
        Slip::ArrearsSwapped => slipped::arrears(society),
        _ => arrears(society),
    };
    Services {
        water_rota,
        arrears,
    }
}

/// The coming week, day by day from today: on a dry day the next tenant in turn waters the communal beds, a wet day
/// needs nobody, and a day the forecast does not reach yet is left open.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn water_rota(society: &Mvu<Society, Msg>) -> AsyncMemo<Vec<String>> {
    let tenants = society.select(rota_tenants);
    let water_rota = AsyncMemo::try_new(move |_| {
        let (today, tenants) = tenants.get();
        async move {
            let mut lines = Vec::new();
            let mut turn = 0;
            for day in today..today + ROTA_DAYS {
                let line = match remote::rainfall(day).await {
                    Ok(rain) if rain < DRY_LIMIT_MM * 10 && !tenants.is_empty() => {
                        let who = &tenants[turn % tenants.len()];
                        turn += 1;
                        format!("{}: {who} waters ({})", date(day), mm(rain))
                    }
                    Ok(rain) => format!("{}: no watering ({})", date(day), mm(rain)),
                    Err(_) => format!("{}: no forecast yet", date(day)),
                };
                lines.push(line);
            }
            Ok::<_, String>(lines)
        }
    });
    water_rota
}

/// The members behind with payments: what each was charged, less what the bank's feed shows they paid (nothing
/// when the feed has no payments from them yet).
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn arrears(society: &Mvu<Society, Msg>) -> AsyncMemo<Vec<String>> {
    let charged = society.select(charged);
    let arrears = AsyncMemo::try_new(move |_| {
        let charged = charged.get();
        async move {
            let mut lines = Vec::new();
            for (member, charged) in charged {
                let paid = remote::paid(&member).await.unwrap_or(0);
                let owed = fees::arrears(charged, paid);
                if owed > 0 {
                    lines.push(format!("{member} owes {}", money(owed)));
                }
            }
            Ok::<_, String>(lines)
        }
    });
    arrears
}

/// The services' memos with a mistake.
mod slipped {
    use ranvier::{AsyncMemo, Mvu, node};

    use super::super::fees;
    use super::super::model::{Msg, Society, date, money};
    use super::super::remote;
    use super::{DRY_LIMIT_MM, ROTA_DAYS, charged, mm, rota_tenants};

    /// Who waters on the coming week's dry days.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn water_rota(society: &Mvu<Society, Msg>) -> AsyncMemo<Vec<String>> {
        let tenants = society.select(rota_tenants);
        let water_rota = AsyncMemo::try_new(move |_| {
            let (today, tenants) = tenants.get();
            async move {
                let mut lines = Vec::new();
                let mut turn = 0;
                for day in today..today + ROTA_DAYS {
                    let line = match remote::rainfall(day).await {
                        // BUG(rain_unit)
                        Ok(rain) if rain < DRY_LIMIT_MM && !tenants.is_empty() => {
                            let who = &tenants[turn % tenants.len()];
                            turn += 1;
                            format!("{}: {who} waters ({})", date(day), mm(rain))
                        }
                        Ok(rain) => format!("{}: no watering ({})", date(day), mm(rain)),
                        Err(_) => format!("{}: no forecast yet", date(day)),
                    };
                    lines.push(line);
                }
                Ok::<_, String>(lines)
            }
        });
        water_rota
    }

    /// Who is behind with payments.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn arrears(society: &Mvu<Society, Msg>) -> AsyncMemo<Vec<String>> {
        let charged = society.select(charged);
        let arrears = AsyncMemo::try_new(move |_| {
            let charged = charged.get();
            async move {
                let mut lines = Vec::new();
                for (member, charged) in charged {
                    let paid = remote::paid(&member).await.unwrap_or(0);
                    // BUG(arrears_swapped)
                    let owed = fees::arrears(paid, charged);
                    if owed > 0 {
                        lines.push(format!("{member} owes {}", money(owed)));
                    }
                }
                Ok::<_, String>(lines)
            }
        });
        arrears
    }
}
