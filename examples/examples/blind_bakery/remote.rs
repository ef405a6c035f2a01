//! Two services over the network, faked with a timer: the mill's price list, and a route planner for the van.

use std::time::Duration;

/// How long each service takes to answer: `BLIND_BAKERY_REMOTE_MS` milliseconds, 20 by default.
pub fn latency() -> Duration {
    let ms = std::env::var("BLIND_BAKERY_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// The mill's price of one kilogram of `flour`, in cents.
///
/// # Errors
///
/// A flour the mill does not sell.
pub async fn flour_price(flour: &str) -> Result<u64, String> {
    tokio::time::sleep(latency()).await;
    match flour {
        "wheat" => Ok(95),
        "rye" => Ok(120),
        "spelt" => Ok(180),
        other => Err(format!("the mill sells no {other:?} flour")),
    }
}

/// Minutes the van drives from the bakery to `customer`.
///
/// # Errors
///
/// A customer whose address the route planner does not know.
pub async fn drive_minutes(customer: &str) -> Result<u32, String> {
    tokio::time::sleep(latency()).await;
    match customer {
        "Cafe Nord" => Ok(12),
        "Hotel Ost" => Ok(25),
        "Kiosk Sud" => Ok(8),
        "School West" => Ok(17),
        other => Err(format!("no address for {other:?}")),
    }
}
