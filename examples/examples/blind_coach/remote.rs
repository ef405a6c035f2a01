//! The simulated services: a fuel supplier's price per litre and a hotel's room blocks, each answering after a
//! short delay.

use std::time::Duration;

/// How long a service takes to answer.
pub const LATENCY: Duration = Duration::from_millis(20);

/// Rooms the hotel can hold for one group, a night.
pub const HOTEL_ROOMS: u32 = 30;

/// The supplier's diesel price on `day`, in pence per litre.
pub async fn diesel_price(day: u32) -> u64 {
    tokio::time::sleep(LATENCY).await;
    150 + u64::from(day % 7) * 4
}

/// The hotel holds up to `rooms` rooms for `nights` nights for tour `code`: the rooms it confirms.
pub async fn hold_rooms(code: String, rooms: u32, nights: u32) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    if nights == 0 {
        return Err(format!("{code}: a block needs at least one night"));
    }
    Ok(rooms.min(HOTEL_ROOMS))
}
