//! The simulated services: a green-coffee market price feed and a courier's rate card, each answering after a short
//! delay on tokio's timer.

use std::time::Duration;

/// How long a service takes to answer.
pub const LATENCY: Duration = Duration::from_millis(20);

/// The market price of green coffee from `origin`, in cents a kilo.
///
/// # Errors
///
/// The feed's answer for an origin it does not quote.
pub async fn market_price(origin: &str) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    match origin {
        "ethiopia" => Ok(780),
        "colombia" => Ok(650),
        "brazil" => Ok(520),
        "kenya" => Ok(910),
        "guatemala" => Ok(700),
        other => Err(format!("the market feed does not quote {other:?}")),
    }
}

/// The courier's price for `parcels` parcels to `zone` weighing `grams` in all, in cents: a charge per parcel and
/// one for the weight band of the whole consignment.
///
/// # Errors
///
/// The courier's answer for a zone it does not serve.
pub async fn courier_rate(zone: &str, grams: u32, parcels: u32) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    let (per_parcel, per_band) = match zone {
        "domestic" => (350, 400),
        "europe" => (900, 1_100),
        "world" => (1_800, 2_600),
        other => return Err(format!("the courier does not serve {other:?}")),
    };
    let band = match grams {
        0..=1_000 => 1,
        1_001..=5_000 => 2,
        5_001..=20_000 => 4,
        _ => 8,
    };
    Ok(parcels * per_parcel + band * per_band)
}
