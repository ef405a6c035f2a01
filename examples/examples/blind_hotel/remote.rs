//! Two services over the network, faked with a timer: an exchange-rate service, and the hotel group's loyalty
//! programme.

use std::time::Duration;

/// How long each service takes to answer: `BLIND_HOTEL_REMOTE_MS` milliseconds, 20 by default.
pub fn latency() -> Duration {
    let ms = std::env::var("BLIND_HOTEL_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// Units of `currency` one euro buys, in ten-thousandths.
fn per_euro(currency: &str) -> Result<u64, String> {
    match currency {
        "EUR" => Ok(10_000),
        "USD" => Ok(10_800),
        "GBP" => Ok(8_500),
        "CHF" => Ok(9_400),
        other => Err(format!("no rate for {other:?}")),
    }
}

/// `cents` of currency `from` in currency `to`, rounded down.
///
/// # Errors
///
/// A currency the service has no rate for.
pub async fn convert(cents: u64, from: &str, to: &str) -> Result<u64, String> {
    tokio::time::sleep(latency()).await;
    Ok(cents * per_euro(to)? / per_euro(from)?)
}

/// The loyalty tier of `guest`: "silver", "gold" or "platinum".
///
/// # Errors
///
/// A guest who is not a member.
pub async fn tier(guest: &str) -> Result<String, String> {
    tokio::time::sleep(latency()).await;
    let tier = match guest {
        "Ada" => "gold",
        "Ben" => "silver",
        "Cleo" => "platinum",
        "Dev" => "silver",
        other => return Err(format!("{other} is not a member")),
    };
    Ok(tier.to_owned())
}
