//! The services the office calls over the network, faked: the electricity supplier's unit rate and the card
//! processor's terms. Each answers after a short delay (`BLIND_CAMPSITE_REMOTE_MS`, 20 ms by default).

use std::time::Duration;

/// What the card processor charges: a share of each payment and a fixed fee per payment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardTerms {
    /// The share, in basis points (175 is 1.75%).
    pub basis_points: u64,
    /// The fixed fee per payment, in pence.
    pub per_payment: u64,
}

/// How long a service takes to answer.
fn delay() -> Duration {
    let ms = std::env::var("BLIND_CAMPSITE_REMOTE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .unwrap_or(20);
    Duration::from_millis(ms)
}

/// The supplier's rate for a unit of electricity on `day`, in tenths of a penny.
///
/// # Errors
///
/// The supplier's answer for a day it has no tariff for.
pub async fn unit_rate(day: u32) -> Result<u64, String> {
    ranvier::tokio::time::sleep(delay()).await;
    match day {
        1..=366 => Ok(345),
        _ => Err(format!("the supplier has no tariff for day {day}")),
    }
}

/// The card processor's terms for this site.
///
/// # Errors
///
/// Never, here; a real processor can be down.
pub async fn card_terms() -> Result<CardTerms, String> {
    ranvier::tokio::time::sleep(delay()).await;
    Ok(CardTerms {
        basis_points: 175,
        per_payment: 20,
    })
}
