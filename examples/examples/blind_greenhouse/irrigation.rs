//! Irrigation rules: which scheduled runs fall due while the clock moves, when a schedule runs next, and how long a
//! dry zone's valve opens to bring its soil back into the band.

use super::climate::Band;
use super::model::{DAY, Schedule};

/// The longest a dry reading opens a valve for, in minutes.
pub const MAX_TOP_UP_MINUTES: u32 = 60;

/// Litres a square metre takes to raise its soil moisture by two points.
const LITRES_PER_TWO_POINTS_M2: u32 = 1;

/// A scheduled run that fell due.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The zone watered.
    pub zone: String,
    /// When it fell due (clock minute).
    pub at: u32,
    /// For how long.
    pub minutes: u32,
}

/// The runs of the enabled `schedules` that fall due after `from` and by `to`, in time order.
pub fn due_runs(schedules: &[Schedule], from: u32, to: u32) -> Vec<Run> {
    let mut runs: Vec<Run> = schedules
        .iter()
        .filter(|schedule| schedule.enabled)
        .flat_map(|schedule| {
            (from / DAY..=to / DAY)
                .map(move |day| day * DAY + schedule.start)
                .filter(move |&at| from < at && at <= to)
                .map(move |at| Run {
                    zone: schedule.zone.clone(),
                    at,
                    minutes: schedule.minutes,
                })
        })
        .collect();
    runs.sort_by_key(|run| run.at);
    runs
}

/// When `schedule` runs next after `now`.
pub fn next_run(schedule: &Schedule, now: u32) -> u32 {
    let today = now - now % DAY + schedule.start;
    if today > now { today } else { today + DAY }
}

/// How long to open the valve of a zone of `area_m2` whose soil reads `soil`, to bring it to the middle of `band`
/// at `flow_l_per_min`; `None` when the soil is not below the band.
pub fn top_up_minutes(band: &Band, soil: u32, area_m2: u32, flow_l_per_min: u32) -> Option<u32> {
    if soil >= band.soil_min || flow_l_per_min == 0 {
        return None;
    }
    let target = (band.soil_min + band.soil_max) / 2;
    let litres = (target - soil) * area_m2 * LITRES_PER_TWO_POINTS_M2 / 2;
    Some(litres.div_ceil(flow_l_per_min).min(MAX_TOP_UP_MINUTES))
}

/// The versions of this module's code with a mistake in them.
pub mod slipped {
    use super::super::model::{DAY, Schedule};
    use super::Run;

    /// [`due_runs`](super::due_runs) with a mistake.
    pub fn due_runs(schedules: &[Schedule], from: u32, to: u32) -> Vec<Run> {
        let mut runs: Vec<Run> = schedules
            .iter()
            .filter(|schedule| schedule.enabled)
            .flat_map(|schedule| {
                (from / DAY..=to / DAY)
                    .map(move |day| day * DAY + schedule.start)
                    // BUG(run_at_end)
                    .filter(move |&at| from < at && at < to)
                    .map(move |at| Run {
                        zone: schedule.zone.clone(),
                        at,
                        minutes: schedule.minutes,
                    })
            })
            .collect();
        runs.sort_by_key(|run| run.at);
        runs
    }
}
