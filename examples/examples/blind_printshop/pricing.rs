//! The counter's price list: paper, clicks and make-ready by press, and the quote for a job.

use super::finishing;
use super::model::{Colour, Job, Paper, Press, PressKind, Sheet};
use super::presses;

/// The least the shop quotes, in pence.
pub const MINIMUM_PENCE: u32 = 1_500;

/// One press sheet of `paper`, in pence.
#[ranvier::trace_fn]
pub fn paper_pence(paper: Paper, sheet: Sheet) -> u32 {
    match (paper, sheet) {
        (Paper::Silk, Sheet::Sra3) => 6,
        (Paper::Uncoated, Sheet::Sra3) => 4,
        (Paper::Card, Sheet::Sra3) => 15,
        (Paper::Silk, Sheet::B2) => 14,
        (Paper::Uncoated, Sheet::B2) => 10,
        (Paper::Card, Sheet::B2) => 36,
    }
}

/// Toner or ink for one sheet, in pence.
#[ranvier::trace_fn]
pub fn click_pence(kind: PressKind, colour: Colour) -> u32 {
    match (kind, colour) {
        (PressKind::Digital, Colour::Mono) => 2,
        (PressKind::Digital, Colour::Colour) => 9,
        (PressKind::Offset, Colour::Mono) => 1,
        (PressKind::Offset, Colour::Colour) => 2,
    }
}

/// Setting the press up, in pence: a digital press only needs the file ripped, an offset press a plate a colour.
#[ranvier::trace_fn]
pub fn make_ready_pence(kind: PressKind, colour: Colour) -> u32 {
    match kind {
        PressKind::Digital => 1_000,
        PressKind::Offset if colour == Colour::Mono => 2_400,
        PressKind::Offset => 9_600,
    }
}

/// The quote for `job` on `press`, in pence: make-ready, paper and clicks per sheet, then the bench.
#[ranvier::trace_fn]
pub fn quote(job: &Job, press: &Press) -> u32 {
    let sheets = presses::sheets_for(job, press.sheet);
    let make_ready = make_ready_pence(press.kind, job.colour);
    let paper = paper_pence(job.paper, press.sheet);
    let click = click_pence(press.kind, job.colour);
    let printing = sheets * (paper + click);
    let bench = finishing::cost(job.finish, job.quantity);
    (make_ready + printing + bench).max(MINIMUM_PENCE)
}

/// Copies of this file's rules with one mistake each, selected by `graph::Slip`.
pub mod slipped {
    use super::*;

    /// The quote for `job` on `press`, in pence: make-ready, paper and clicks per sheet, then the bench.
    #[ranvier::trace_fn]
    pub fn quote(job: &Job, press: &Press) -> u32 {
        let sheets = presses::sheets_for(job, press.sheet);
        let make_ready = make_ready_pence(press.kind, job.colour);
        let paper = paper_pence(job.paper, press.sheet);
        let click = click_pence(press.kind, job.colour);
        // BUG(click_per_sheet)
        let printing = sheets * paper + click;
        let bench = finishing::cost(job.finish, job.quantity);
        (make_ready + printing + bench).max(MINIMUM_PENCE)
    }
}
