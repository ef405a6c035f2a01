//! The services the warehouse asks and waits for, simulated: the insurer's rate for the block policy, and the
//! auction house's valuation of a unit's contents.

use super::model::Size;
use std::time::Duration;

/// The insurer's weekly rate per £1,000 of cover on the block policy, cheaper for more cover.
pub async fn insurer_rate(cover_cents: u64) -> u64 {
    ranvier::tokio::time::sleep(Duration::from_millis(30)).await;
    match cover_cents {
        0..=5_000_000 => 60,
        5_000_001..=25_000_000 => 52,
        _ => 45,
    }
}

/// What the auction house expects a unit's contents of `size` to fetch.
pub async fn appraise(size: Size) -> u64 {
    ranvier::tokio::time::sleep(Duration::from_millis(20)).await;
    match size {
        Size::Locker => 8_000,
        Size::Small => 15_000,
        Size::Medium => 30_000,
        Size::Large => 50_000,
    }
}
