//! The press room's rules: how many copies fit on a press sheet, how many sheets a job takes, which press takes it,
//! and how long a run lasts.

use super::model::{Job, Paper, Press, PressKind, Sheet};

/// Bleed around each copy, in millimetres a side, trimmed off on the guillotine.
pub const BLEED_MM: u32 = 3;

/// Spare sheets for make-ready and spoils, as a percentage of the run.
pub const OVERS_PERCENT: u32 = 5;

/// From this many copies a job goes on the offset press (card stays digital: the offset feeder jams on board).
pub const OFFSET_FROM: u32 = 2_000;

/// Copies of `copy` (millimetres, trimmed; bleed is added) that fit on a sheet of `sheet` (millimetres), whichever
/// way round they go.
#[ranvier::trace_fn]
pub fn up(sheet: (u32, u32), copy: (u32, u32)) -> u32 {
    let (long, short) = sheet;
    let (w, h) = (copy.0 + 2 * BLEED_MM, copy.1 + 2 * BLEED_MM);
    let upright = (long / w) * (short / h);
    let turned = (long / h) * (short / w);
    upright.max(turned)
}

/// Press sheets of `sheet` the job takes, overs included.
#[ranvier::trace_fn]
pub fn sheets_for(job: &Job, sheet: Sheet) -> u32 {
    let up = up(sheet.mm(), job.size.mm()).max(1);
    let run = job.quantity.div_ceil(up);
    run + (run * OVERS_PERCENT).div_ceil(100)
}

/// The press that takes `job`: digital for short runs and for card, offset for long runs.
#[ranvier::trace_fn]
pub fn choose<'a>(presses: &'a [Press], job: &Job) -> Option<&'a Press> {
    let kind = if job.quantity >= OFFSET_FROM && job.paper != Paper::Card {
        PressKind::Offset
    } else {
        PressKind::Digital
    };
    presses.iter().find(|press| press.kind == kind)
}

/// Minutes a press running `per_hour` sheets an hour takes for `sheets` (started minutes count).
#[ranvier::trace_fn]
pub fn run_minutes(sheets: u32, per_hour: u32) -> u32 {
    (sheets * 60).div_ceil(per_hour.max(1))
}

/// Copies of this file's rules with one mistake each, selected by `graph::Slip`.
pub mod slipped {
    use super::*;

    /// Press sheets of `sheet` the job takes, overs included.
    #[ranvier::trace_fn]
    pub fn sheets_for(job: &Job, sheet: Sheet) -> u32 {
        // BUG(imposition_args)
        let up = up(job.size.mm(), sheet.mm()).max(1);
        let run = job.quantity.div_ceil(up);
        run + (run * OVERS_PERCENT).div_ceil(100)
    }
}
