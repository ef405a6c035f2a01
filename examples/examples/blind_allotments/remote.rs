//! Two services over the network, faked with a timer: the rainfall forecast, and the bank's feed of what members paid.

use std::time::Duration;

use super::model::OPENING;

/// How long each service takes to answer: `BLIND_ALLOTMENTS_REMOTE_MS` milliseconds, 20 by default.
pub fn latency() -> Duration {
    let ms = std::env::var("BLIND_ALLOTMENTS_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// The forecast's rainfall from 1 March, day by day, in tenths of a millimetre.
const RAINFALL: [u32; 14] = [0, 42, 3, 120, 0, 15, 8, 0, 60, 11, 0, 0, 25, 5];

/// The rainfall forecast for day `day` (days since 1 January), in tenths of a millimetre.
///
/// # Errors
///
/// A day the service has no forecast for (it forecasts the first fortnight of March).
pub async fn rainfall(day: u32) -> Result<u32, String> {
    tokio::time::sleep(latency()).await;
    day.checked_sub(OPENING)
        .and_then(|at| RAINFALL.get(at as usize))
        .copied()
        .ok_or_else(|| format!("no forecast for day {day}"))
}

/// What member `member` has paid the society this year, in pence.
///
/// # Errors
///
/// A member the bank's feed has no payments from yet.
pub async fn paid(member: &str) -> Result<i64, String> {
    tokio::time::sleep(latency()).await;
    match member {
        "Ana" => Ok(10_000),
        "Ben" => Ok(5_000),
        "Cy" => Ok(1_680),
        "Dee" => Ok(5_000),
        "Eve" => Ok(5_000),
        other => Err(format!("no payments from {other} yet")),
    }
}
