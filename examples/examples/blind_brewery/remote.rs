//! The two services the brewery calls over the network, simulated: the wholesaler's trade price list and the duty
//! office's published rates. Each answers after a short delay, as a remote call would.

use std::time::Duration;

use super::trade::{DutyRates, Price};

/// How long a service takes to answer.
const LATENCY: Duration = Duration::from_millis(15);

/// The duty office has published its rates for the first weeks only.
const PUBLISHED_WEEKS: u32 = 2;

/// The trade prices of `beer`, from the wholesaler's list.
///
/// # Errors
///
/// The service's answer for a beer its list does not carry.
pub async fn trade_price(beer: &str) -> Result<Price, String> {
    tokio::time::sleep(LATENCY).await;
    match beer {
        "Pale Ale" => Ok(Price {
            keg: 12_000,
            bottle: 150,
        }),
        "Stout" => Ok(Price {
            keg: 13_500,
            bottle: 170,
        }),
        "Session Mild" => Ok(Price {
            keg: 9_800,
            bottle: 120,
        }),
        other => Err(format!("the trade list has no price for {other}")),
    }
}

/// The duty rates in force in `week`.
///
/// # Errors
///
/// The duty office's answer for a week it has not published rates for.
pub async fn duty_rates(week: u32) -> Result<DutyRates, String> {
    tokio::time::sleep(LATENCY).await;
    if week > PUBLISHED_WEEKS {
        return Err(format!(
            "the duty office has not published rates for week {week}"
        ));
    }
    Ok(DutyRates {
        reduced: 909,
        standard: 2_101,
        high: 2_850,
    })
}
