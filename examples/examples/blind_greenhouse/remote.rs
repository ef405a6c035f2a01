//! The services the controller calls over the network, simulated: the weather service's forecast for the site, and
//! the water utility's prices and weekly quota. Each call takes a few milliseconds, as a round trip would.

use std::fmt;
use std::time::Duration;

/// A tariff band of the water utility.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TariffBand {
    /// 07:00–11:00 and 17:00–21:00.
    Peak,
    /// 11:00–17:00.
    Shoulder,
    /// The night.
    OffPeak,
}

/// Tomorrow's weather at a site.
#[derive(Clone, Debug, PartialEq)]
pub struct Forecast {
    /// The day forecast (0 is Monday of the first week).
    pub day: u32,
    /// Lowest temperature, in tenths of a degree Celsius (the service's unit: 35 is 3.5 °C).
    pub low_dc: i32,
    /// Highest temperature, in tenths of a degree Celsius.
    pub high_dc: i32,
}

/// The water a utility account may draw in a week.
#[derive(Clone, Debug, PartialEq)]
pub struct Quota {
    /// Cubic metres.
    pub m3: u32,
}

/// Why a call failed.
#[derive(Clone, Debug, PartialEq)]
pub enum RemoteError {
    /// The utility sets no price for this band on this account.
    NotPriced(TariffBand),
    /// The service does not know the account or the site.
    Unknown(String),
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::NotPriced(band) => write!(f, "no price for the {band:?} band"),
            RemoteError::Unknown(what) => write!(f, "unknown {what:?}"),
        }
    }
}

/// The lows and highs of the site's week, tenths of a degree.
const WEEK: [(i32, i32); 7] = [
    (52, 148),
    (60, 171),
    (21, 120),
    (85, 190),
    (-12, 90),
    (30, 110),
    (44, 133),
];

async fn round_trip() {
    tokio::time::sleep(Duration::from_millis(5)).await;
}

/// The forecast for `day` at `site`.
///
/// # Errors
///
/// An unknown site.
pub async fn forecast(site: &str, day: u32) -> Result<Forecast, RemoteError> {
    round_trip().await;
    if site != "westland-3" {
        return Err(RemoteError::Unknown(site.to_owned()));
    }
    let (low_dc, high_dc) = WEEK[(day % 7) as usize];
    Ok(Forecast {
        day,
        low_dc,
        high_dc,
    })
}

/// The price of a cubic metre in `band` for `account`, in cents.
///
/// # Errors
///
/// An unknown account, or a band the account's tariff does not price (it has no shoulder band).
pub async fn price(account: &str, band: TariffBand) -> Result<u32, RemoteError> {
    round_trip().await;
    if account != "WL-0042" {
        return Err(RemoteError::Unknown(account.to_owned()));
    }
    match band {
        TariffBand::Peak => Ok(310),
        TariffBand::OffPeak => Ok(140),
        TariffBand::Shoulder => Err(RemoteError::NotPriced(band)),
    }
}

/// The account's weekly quota.
///
/// # Errors
///
/// An unknown account.
pub async fn weekly_quota(account: &str) -> Result<Quota, RemoteError> {
    round_trip().await;
    if account == "WL-0042" {
        Ok(Quota { m3: 40 })
    } else {
        Err(RemoteError::Unknown(account.to_owned()))
    }
}
