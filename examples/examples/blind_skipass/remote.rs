//! The services the resort asks over the network, simulated: the valley's weather office (gusts forecast for each
//! lift's top station, by day) and the snow sensors on the runs. Each answer takes a few milliseconds.

use std::time::Duration;

/// Forecast gusts at each top station, km/h, for days 1 to 4 of the season.
const GUSTS: [(&str, [u32; 4]); 4] = [
    ("Village Gondola", [30, 35, 40, 25]),
    ("Eagle Chair", [25, 40, 60, 20]),
    ("Summit Chair", [30, 50, 70, 35]),
    ("Nursery Drag", [10, 15, 20, 10]),
];

/// Snow depth at each run's sensor, cm; a run without a working sensor is not listed.
const DEPTHS: [(&str, u32); 4] = [
    ("Meadow", 85),
    ("Gondola Trail", 120),
    ("Eagle Bowl", 140),
    ("Ridge Couloir", 95),
];

async fn latency(ms: u64) {
    tokio::time::sleep(Duration::from_millis(ms)).await;
}

/// The gust forecast at the top of `lift` on `day`, km/h.
///
/// # Errors
///
/// When the weather office has no forecast for that lift or that day.
pub async fn gust_forecast(lift: &str, day: u32) -> Result<u32, String> {
    latency(20).await;
    let (_, days) = GUSTS
        .iter()
        .find(|(name, _)| *name == lift)
        .ok_or_else(|| format!("no station at {lift}"))?;
    let at = usize::try_from(day)
        .ok()
        .and_then(|day| day.checked_sub(1))
        .ok_or("no day 0")?;
    days.get(at)
        .copied()
        .ok_or_else(|| format!("no forecast for day {day} yet"))
}

/// The snow depth at the sensor of `run`, cm.
///
/// # Errors
///
/// When the sensor does not answer.
pub async fn snow_depth(run: &str) -> Result<u32, String> {
    latency(15).await;
    DEPTHS
        .iter()
        .find(|(name, _)| *name == run)
        .map(|(_, cm)| *cm)
        .ok_or_else(|| format!("the sensor on {run} does not answer"))
}
