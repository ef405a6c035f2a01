//! The services the shop calls over the network, simulated: the courier's price by weight, and the paper mill's lead
//! time for a paper in a sheet size. Each answers after a short delay, as a remote call does.

use super::model::{Paper, Sheet};
use std::time::Duration;

/// How long a call takes.
const LATENCY: Duration = Duration::from_millis(15);

/// The courier's weight bands: up to so many grams, so many pence.
const BANDS: [(u32, u32); 4] = [(2_000, 650), (5_000, 895), (10_000, 1_250), (20_000, 1_800)];

/// The courier's price for a parcel of `grams`, next-day, in pence.
///
/// # Errors
///
/// Over 20 kg the courier takes no parcel: it goes on a pallet.
pub async fn courier_price(grams: u32) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    BANDS
        .iter()
        .find(|(limit, _)| grams <= *limit)
        .map(|&(_, pence)| pence)
        .ok_or_else(|| "over 20 kg: book a pallet".to_owned())
}

/// Working days the mill takes to deliver `paper` in `sheet`.
///
/// # Errors
///
/// The mill makes no board: card comes from a merchant.
pub async fn mill_lead_days(paper: Paper, sheet: Sheet) -> Result<u32, String> {
    tokio::time::sleep(LATENCY).await;
    match (paper, sheet) {
        (Paper::Silk, Sheet::Sra3) => Ok(2),
        (Paper::Uncoated, Sheet::Sra3) => Ok(3),
        (Paper::Silk | Paper::Uncoated, Sheet::B2) => Ok(5),
        (Paper::Card, _) => Err(format!(
            "the mill does not list {}: ask the merchant",
            paper.name()
        )),
    }
}
