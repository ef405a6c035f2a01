//! Two services over the network, faked with a timer: the card terminal's deposit holds, and the weather service's
//! forecast for the day.

use std::time::Duration;

/// How long each service takes to answer: `BLIND_BIKES_REMOTE_MS` milliseconds, 20 by default.
pub fn latency() -> Duration {
    let ms = std::env::var("BLIND_BIKES_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// What the card terminal holds as a deposit for a bike.
#[derive(Clone, Debug, PartialEq)]
pub struct HoldQuote {
    /// The kind of bike.
    pub kind: String,
    /// The hold, in cents.
    pub cents: u64,
}

/// The card terminal's deposit for a bike of `kind`.
///
/// # Errors
///
/// A kind the terminal has no deposit for.
pub async fn hold_quote(kind: &str) -> Result<HoldQuote, String> {
    tokio::time::sleep(latency()).await;
    let cents = match kind {
        "ebike" => 20_000,
        "city" => 5_000,
        "kids" => 2_000,
        other => return Err(format!("the terminal has no deposit for {other:?} bikes")),
    };
    Ok(HoldQuote {
        kind: kind.to_owned(),
        cents,
    })
}

/// The chance of rain in each hour of today, percent, by hour of the day (index 0 is 00:00-01:00).
///
/// # Errors
///
/// Never, here; a real service would.
pub async fn rain_forecast() -> Result<Vec<u8>, String> {
    tokio::time::sleep(latency()).await;
    let mut hours = vec![5_u8; 24];
    hours[11] = 70;
    hours[12] = 40;
    hours[16] = 80;
    hours[17] = 60;
    Ok(hours)
}
