//! Two services over the network, faked with a timer: a weather forecast, and the payroll's coach rates.

use std::time::Duration;

/// How long each service takes to answer: `BLIND_GYM_REMOTE_MS` milliseconds, 20 by default.
pub fn latency() -> Duration {
    let ms = std::env::var("BLIND_GYM_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// The rain forecast for day `day` of this week (0 is Monday), in millimetres.
///
/// # Errors
///
/// A day the service has no forecast for yet (it forecasts Monday to Wednesday).
pub async fn forecast(day: u32) -> Result<u32, String> {
    tokio::time::sleep(latency()).await;
    match day {
        0 => Ok(0),
        1 => Ok(8),
        2 => Ok(1),
        other => Err(format!("no forecast for day {other} yet")),
    }
}

/// What coach `coach` is paid an hour, in cents.
///
/// # Errors
///
/// A coach the payroll does not pay (a guest coach).
pub async fn hourly_rate(coach: &str) -> Result<i64, String> {
    tokio::time::sleep(latency()).await;
    match coach {
        "Ana" => Ok(2_500),
        "Ben" => Ok(3_000),
        other => Err(format!("{other} is not on the payroll")),
    }
}
