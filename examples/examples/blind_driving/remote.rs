//! The services the school asks over the network, simulated: the test centre's free practical-test slots and the
//! fuel card's price per litre. Each answers after `BLIND_DRIVING_REMOTE_MS` milliseconds (20 by default).

use std::time::Duration;

/// How long a simulated service takes to answer.
fn delay() -> Duration {
    let ms = std::env::var("BLIND_DRIVING_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// The test centre's free practical slots from `from_day` on: the days it has a slot, the earliest first, at most
/// `wanted` of them. The centre tests on every fourth day (days 3, 7, 11, ...).
///
/// # Errors
///
/// When asked for no slots.
pub async fn free_slots(from_day: u32, wanted: usize) -> Result<Vec<u32>, String> {
    tokio::time::sleep(delay()).await;
    if wanted == 0 {
        return Err("the test centre was asked for no slots".to_owned());
    }
    Ok((from_day..)
        .filter(|day| day % 4 == 3)
        .take(wanted)
        .collect())
}

/// The fuel card's price on `day`, in pence per litre.
pub async fn fuel_price(day: u32) -> u64 {
    tokio::time::sleep(delay()).await;
    142 + u64::from(day % 7)
}
