//! What the food bank asks the services (async memos): tomorrow's delivery round, and what the regional warehouse
//! can make up of what the shelves are short of.

use super::model::{Category, kg};
use super::remote;
use super::rota::hours;
use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Memo};

/// A stop on the van's round.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// The household.
    pub household: String,
    /// Its zone.
    pub zone: String,
}

/// A category the shelves are short of for every household's next parcel.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Short {
    /// The category.
    pub category: Category,
    /// Grams missing.
    pub grams: u32,
}

/// Minutes the van stays at each stop.
pub const STOP_MINUTES: u32 = 10;

/// Tomorrow's round: when the van reaches each stop, driving from one to the next.
pub fn round(stops: Memo<Vec<Stop>>) -> AsyncMemo<Vec<String>> {
    AsyncMemo::new(move |_| {
        let stops = stops.get();
        async move {
            let mut clock = remote::VAN_LEAVES;
            let mut from = remote::DEPOT.to_owned();
            let mut lines = Vec::with_capacity(stops.len());
            for stop in &stops {
                match remote::drive_minutes(&from, &stop.zone).await {
                    Ok(minutes) => {
                        clock += minutes;
                        lines.push(format!(
                            "{} {} ({})",
                            hours(clock).replace('h', ":"),
                            stop.household,
                            stop.zone
                        ));
                        clock += STOP_MINUTES;
                        from.clone_from(&stop.zone);
                    }
                    Err(why) => lines.push(format!("{}: {why}", stop.household)),
                }
            }
            lines
        }
    })
}

/// What the regional warehouse offers towards each shortfall.
pub fn top_up(shortfall: Memo<Vec<Short>>) -> AsyncMemo<Vec<String>> {
    AsyncMemo::new(move |_| {
        let shortfall = shortfall.get();
        async move {
            let mut lines = Vec::new();
            for short in shortfall {
                let offer = remote::surplus(short.category).await;
                lines.push(offer_line(short, offer));
            }
            lines
        }
    })
}

/// What the warehouse's answer `offer` makes of `short`.
pub fn offer_line(short: Short, offer: Result<u32, String>) -> String {
    match offer {
        Ok(grams) => format!(
            "{}: {} short, {} from the warehouse",
            short.category.name(),
            kg(short.grams),
            kg(grams.min(short.grams))
        ),
        Err(why) => format!(
            "{}: {} short, warehouse: {why}",
            short.category.name(),
            kg(short.grams)
        ),
    }
}

/// The services' memos as first written.
pub mod slipped {
    use super::{AsyncMemo, Memo, STOP_MINUTES, Short, Stop, hours, offer_line, remote};

    /// [`super::round`].
    pub fn round(stops: Memo<Vec<Stop>>) -> AsyncMemo<Vec<String>> {
        AsyncMemo::new(move |_| {
            let stops = stops.get();
            async move {
                let mut clock = remote::VAN_LEAVES;
                let mut from = remote::DEPOT.to_owned();
                let mut lines = Vec::with_capacity(stops.len());
                for stop in &stops {
                    // BUG(round_legs)
                    match remote::drive_minutes(remote::DEPOT, &stop.zone).await {
                        Ok(minutes) => {
                            clock += minutes;
                            lines.push(format!(
                                "{} {} ({})",
                                hours(clock).replace('h', ":"),
                                stop.household,
                                stop.zone
                            ));
                            clock += STOP_MINUTES;
                            from.clone_from(&stop.zone);
                        }
                        Err(why) => lines.push(format!("{}: {why}", stop.household)),
                    }
                }
                lines
            }
        })
    }

    /// [`super::top_up`].
    pub fn top_up(shortfall: Memo<Vec<Short>>) -> AsyncMemo<Vec<String>> {
        AsyncMemo::new(move |_| {
            let shortfall = shortfall.get();
            async move {
                let mut lines = Vec::new();
                for short in shortfall {
                    // BUG(warehouse_silent)
                    let offer = remote::surplus(short.category).await.or(Ok(0));
                    lines.push(offer_line(short, offer));
                }
                lines
            }
        })
    }
}
