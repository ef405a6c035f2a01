//! The values that come from services over the network, as async memos: whether tomorrow night's low means heating
//! the zones (the weather service), and what the water drawn this week costs and how much of the quota is left (the
//! water utility).

use super::climate::Band;
use super::model::{Crop, DAY, Greenhouse, Msg, Stage, weekday};
use super::remote::{self, RemoteError, TariffBand};
use ranvier::serde::Serialize;
use ranvier::{AsyncMemo, Mvu};
use std::collections::BTreeMap;

/// How much warmer than outside the glass keeps a zone overnight without heating, °C.
pub const KEPT_WARMER_C: f64 = 8.0;

/// What the water drawn this week costs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "camelCase")]
pub struct Bill {
    /// Litres drawn.
    pub litres: u32,
    /// What they cost, in euros (`1.86`).
    pub cost: String,
    /// Litres of the weekly quota left (negative: over it).
    pub quota_left_l: i64,
}

/// The utility's band at clock minute `at`.
pub fn band_at(at: u32) -> TariffBand {
    match (at % DAY) / 60 {
        7..=10 | 17..=20 => TariffBand::Peak,
        11..=16 => TariffBand::Shoulder,
        _ => TariffBand::OffPeak,
    }
}

/// Tomorrow night's heating: the site's forecast low, what the glass keeps inside, and per zone whether that is
/// below what its crop wants (by `band`).
pub fn frost_watch(
    greenhouse: &Mvu<Greenhouse, Msg>,
    band: fn(Crop, Stage) -> Band,
) -> AsyncMemo<Vec<String>> {
    let site = greenhouse.with_model(|gh| gh.settings.site.clone());
    let tomorrow = greenhouse.select(|gh| gh.now / DAY + 1);
    let plantings = greenhouse.select(|gh| {
        gh.zones
            .iter()
            .map(|zone| (zone.id.clone(), zone.crop, zone.stage))
            .collect::<Vec<_>>()
    });
    AsyncMemo::try_new(move |_| {
        let (day, plantings, site) = (tomorrow.get(), plantings.get(), site.clone());
        async move {
            let forecast = remote::forecast(&site, day).await?;
            let low_c = f64::from(forecast.low_dc) / 10.0;
            let inside = low_c + KEPT_WARMER_C;
            let mut lines = vec![format!(
                "{}: low {low_c:.1} °C outside, {inside:.1} °C kept inside",
                weekday(forecast.day)
            )];
            for (zone, crop, stage) in plantings {
                let needs = band(crop, stage).min_c;
                lines.push(if inside < needs {
                    format!("{zone} {}: heat to {needs:.1} °C", crop.name())
                } else {
                    format!("{zone} {}: no heating", crop.name())
                });
            }
            Ok::<_, RemoteError>(lines)
        }
    })
}

/// This week's water bill: each draw priced by the band it was drawn in (a band the account's tariff does not price
/// is billed at the peak price), and the quota left.
pub fn water_bill(greenhouse: &Mvu<Greenhouse, Msg>) -> AsyncMemo<Bill> {
    let account = greenhouse.with_model(|gh| gh.settings.account.clone());
    let draws = greenhouse.select(|gh| gh.draws.clone());
    AsyncMemo::try_new(move |_| {
        let (draws, account) = (draws.get(), account.clone());
        async move {
            let peak = remote::price(&account, TariffBand::Peak).await?;
            let quota = remote::weekly_quota(&account).await?;
            let mut prices = BTreeMap::from([(TariffBand::Peak, peak)]);
            let (mut litres, mut milli_cents) = (0_u32, 0_u64);
            for draw in &draws {
                let band = band_at(draw.at);
                let price = match prices.get(&band) {
                    Some(&price) => price,
                    None => {
                        let price = match remote::price(&account, band).await {
                            Ok(price) => price,
                            Err(RemoteError::NotPriced(_)) => peak,
                            Err(other) => return Err(other),
                        };
                        prices.insert(band, price);
                        price
                    }
                };
                litres += draw.litres;
                milli_cents += u64::from(draw.litres) * u64::from(price);
            }
            Ok::<_, RemoteError>(Bill {
                litres,
                cost: format!("{:.2}", milli_cents as f64 / 100_000.0),
                quota_left_l: i64::from(quota.m3) * 1000 - i64::from(litres),
            })
        }
    })
}

/// The versions of this module's code with a mistake in them.
pub mod slipped {
    use super::super::climate::Band;
    use super::super::model::{Crop, DAY, Greenhouse, Msg, Stage, weekday};
    use super::super::remote::{self, RemoteError, TariffBand};
    use super::{Bill, KEPT_WARMER_C, band_at};
    use ranvier::{AsyncMemo, Mvu};
    use std::collections::BTreeMap;

    /// [`frost_watch`](super::frost_watch) with a mistake.
    pub fn frost_watch(
        greenhouse: &Mvu<Greenhouse, Msg>,
        band: fn(Crop, Stage) -> Band,
    ) -> AsyncMemo<Vec<String>> {
        let site = greenhouse.with_model(|gh| gh.settings.site.clone());
        let tomorrow = greenhouse.select(|gh| gh.now / DAY + 1);
        let plantings = greenhouse.select(|gh| {
            gh.zones
                .iter()
                .map(|zone| (zone.id.clone(), zone.crop, zone.stage))
                .collect::<Vec<_>>()
        });
        AsyncMemo::try_new(move |_| {
            let (day, plantings, site) = (tomorrow.get(), plantings.get(), site.clone());
            async move {
                let forecast = remote::forecast(&site, day).await?;
                // BUG(frost_tenths)
                let low_c = f64::from(forecast.low_dc);
                let inside = low_c + KEPT_WARMER_C;
                let mut lines = vec![format!(
                    "{}: low {low_c:.1} °C outside, {inside:.1} °C kept inside",
                    weekday(forecast.day)
                )];
                for (zone, crop, stage) in plantings {
                    let needs = band(crop, stage).min_c;
                    lines.push(if inside < needs {
                        format!("{zone} {}: heat to {needs:.1} °C", crop.name())
                    } else {
                        format!("{zone} {}: no heating", crop.name())
                    });
                }
                Ok::<_, RemoteError>(lines)
            }
        })
    }

    /// [`water_bill`](super::water_bill) with a mistake.
    pub fn water_bill(greenhouse: &Mvu<Greenhouse, Msg>) -> AsyncMemo<Bill> {
        let account = greenhouse.with_model(|gh| gh.settings.account.clone());
        let draws = greenhouse.select(|gh| gh.draws.clone());
        AsyncMemo::try_new(move |_| {
            let (draws, account) = (draws.get(), account.clone());
            async move {
                let peak = remote::price(&account, TariffBand::Peak).await?;
                let quota = remote::weekly_quota(&account).await?;
                let mut prices = BTreeMap::from([(TariffBand::Peak, peak)]);
                let (mut litres, mut milli_cents) = (0_u32, 0_u64);
                for draw in &draws {
                    let band = band_at(draw.at);
                    let price = match prices.get(&band) {
                        Some(&price) => price,
                        None => {
                            // BUG(shoulder_free)
                            let price = remote::price(&account, band).await.unwrap_or_default();
                            prices.insert(band, price);
                            price
                        }
                    };
                    litres += draw.litres;
                    milli_cents += u64::from(draw.litres) * u64::from(price);
                }
                Ok::<_, RemoteError>(Bill {
                    litres,
                    cost: format!("{:.2}", milli_cents as f64 / 100_000.0),
                    quota_left_l: i64::from(quota.m3) * 1000 - i64::from(litres),
                })
            }
        })
    }
}
