//! What the shop asks the services over the network, as async memos: the deposit held for the latest rental, and
//! which bikes out will be caught in the rain before they are due back.

use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Mvu, node};

use super::graph::Slip;
use super::model::{Msg, OPENING, Rental, Shop};
use super::remote;

/// From this chance of rain, percent, the counter phones the rider.
pub const RAIN_LIKELY: u8 = 60;

/// The deposit the card terminal holds for a rental.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Deposit {
    /// Who left it.
    pub customer: String,
    /// For which bike.
    pub bike: String,
    /// How much, in cents.
    pub cents: u64,
}

/// The rental made last that is still out, with its bike's kind.
fn latest_out(shop: &Shop) -> Option<(Rental, String)> {
    let rental = shop
        .rentals
        .iter()
        .filter(|r| r.is_open())
        .max_by_key(|r| r.id)?;
    let kind = shop.bike(&rental.bike).map(|b| b.kind.clone())?;
    Some((rental.clone(), kind))
}

/// The services' memos.
pub struct Services {
    /// The deposit held for the latest rental out.
    pub deposit: AsyncMemo<Option<Deposit>>,
    /// The riders to phone about rain.
    pub rain_alerts: AsyncMemo<Vec<String>>,
}

/// The services' memos, as `slip` says.
#[node]
pub fn services(shop: &Mvu<Shop, Msg>, slip: Slip) -> Services {
    let deposit = match slip {
        Slip::MemberHalf => slipped::deposit(shop),
        _ => deposit(shop),
    };
    let rain_alerts = match slip {
        Slip::RainHour => slipped::rain_alerts(shop),
        _ => rain_alerts(shop),
    };
    Services {
        deposit,
        rain_alerts,
    }
}

/// The deposit for the latest rental out: the terminal's hold for its kind of bike, half of it for club members.
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn deposit(shop: &Mvu<Shop, Msg>) -> AsyncMemo<Option<Deposit>> {
    let latest = shop.select(latest_out);
    let deposit = AsyncMemo::try_new(move |_| {
        let latest = latest.get();
        async move {
            let Some((rental, kind)) = latest else {
                return Ok(None);
            };
            let quote = remote::hold_quote(&kind).await?;
            // club members leave half the deposit
            let cents = if rental.member {
                quote.cents / 2
            } else {
                quote.cents
            };
            Ok::<_, String>(Some(Deposit {
                customer: rental.customer,
                bike: rental.bike,
                cents,
            }))
        }
    });
    deposit
}

/// The riders out who will be caught in the rain before they are due back: for each, the first hour from now until
/// its due time whose chance of rain is at least [`RAIN_LIKELY`].
#[node]
#[allow(clippy::let_and_return)] // the `let` names the memo for the trace
pub fn rain_alerts(shop: &Mvu<Shop, Msg>) -> AsyncMemo<Vec<String>> {
    let out = shop.select(Shop::open_rentals);
    let minute = shop.select(|shop| shop.minute);
    let rain_alerts = AsyncMemo::try_new(move |_| {
        let (out, now) = (out.get(), minute.get());
        async move {
            if out.is_empty() {
                return Ok(Vec::new());
            }
            let forecast = remote::rain_forecast().await?;
            let mut alerts = Vec::new();
            for rental in &out {
                let due = rental.due().max(now);
                let (from, to) = ((OPENING + now) / 60, (OPENING + due).div_ceil(60));
                let wet = (from..to)
                    .find(|&hour| forecast.get(hour as usize).copied().unwrap_or(0) >= RAIN_LIKELY);
                if let Some(hour) = wet {
                    alerts.push(format!(
                        "{} {}: rain likely at {hour:02}:00",
                        rental.bike, rental.customer
                    ));
                }
            }
            Ok::<_, String>(alerts)
        }
    });
    rain_alerts
}

/// The services' memos with a mistake.
mod slipped {
    use ranvier::{AsyncMemo, Mvu, node};

    use super::super::model::{Msg, Shop};
    use super::super::remote;
    use super::{Deposit, RAIN_LIKELY, latest_out};

    /// The deposit for the latest rental out.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn deposit(shop: &Mvu<Shop, Msg>) -> AsyncMemo<Option<Deposit>> {
        let latest = shop.select(latest_out);
        let deposit = AsyncMemo::try_new(move |_| {
            let latest = latest.get();
            async move {
                let Some((rental, kind)) = latest else {
                    return Ok(None);
                };
                let quote = remote::hold_quote(&kind).await?;
                // club members leave half the deposit
                // BUG(member_half)
                let cents = if rental.member {
                    quote.cents
                } else {
                    quote.cents / 2
                };
                Ok::<_, String>(Some(Deposit {
                    customer: rental.customer,
                    bike: rental.bike,
                    cents,
                }))
            }
        });
        deposit
    }

    /// The riders out who will be caught in the rain before they are due back.
    #[node]
    #[allow(clippy::let_and_return)] // the `let` names the memo for the trace
    pub fn rain_alerts(shop: &Mvu<Shop, Msg>) -> AsyncMemo<Vec<String>> {
        let out = shop.select(Shop::open_rentals);
        let minute = shop.select(|shop| shop.minute);
        let rain_alerts = AsyncMemo::try_new(move |_| {
            let (out, now) = (out.get(), minute.get());
            async move {
                if out.is_empty() {
                    return Ok(Vec::new());
                }
                let forecast = remote::rain_forecast().await?;
                let mut alerts = Vec::new();
                for rental in &out {
                    let due = rental.due().max(now);
                    // BUG(rain_hour)
                    let (from, to) = (now / 60, due.div_ceil(60));
                    let wet = (from..to).find(|&hour| {
                        forecast.get(hour as usize).copied().unwrap_or(0) >= RAIN_LIKELY
                    });
                    if let Some(hour) = wet {
                        alerts.push(format!(
                            "{} {}: rain likely at {hour:02}:00",
                            rental.bike, rental.customer
                        ));
                    }
                }
                Ok::<_, String>(alerts)
            }
        });
        rain_alerts
    }
}
