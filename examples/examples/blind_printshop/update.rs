//! The print shop's `update`: the counter takes orders and proofs, the press room books and runs jobs, the bench
//! finishes them and the door sends them off. `approve` books the job on a press (a `Schedule` command), and a run
//! of flat sheets goes straight on as finished (a `Finish` command).

use super::model::{Colour, Finish, Job, Msg, Paper, Shop, Size, Stage};
use super::presses;

/// Proof rounds a customer may send back before the next one is charged.
pub const FREE_PROOFS: u32 = 2;
/// A proof round past the free ones, in pence.
pub const PROOF_FEE: u32 = 1_200;

/// The rules `update` calls through fn values: the quote, the sheets a booking takes, what a proof sent back costs
/// and a press run.
#[derive(Clone, Copy)]
pub struct Rules {
    /// The quote for a job on a press, in pence.
    pub quote: fn(&Job, &super::model::Press) -> u32,
    /// Press sheets a job takes on a sheet size.
    pub sheets_for: fn(&Job, super::model::Sheet) -> u32,
    /// A proof comes back.
    pub reject_proof: fn(&mut Job),
    /// A press prints the first job in its queue; the commands that follow.
    pub print_next: fn(&mut Shop, &str) -> Result<Vec<Msg>, String>,
}

/// The shop after `msg`, and the messages to send next. A message naming no job, or a job that is not where the
/// message expects it, is refused and changes nothing.
#[ranvier::trace_fn]
pub fn update(msg: Msg, shop: &Shop, rules: &Rules) -> (Shop, Vec<Msg>) {
    let mut next = shop.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Order {
            customer,
            paper,
            size,
            colour,
            quantity,
            finish,
            courier,
            due,
        } => {
            let mut job = Job {
                id: next.next_id,
                customer,
                paper: Paper::parse(&paper).unwrap_or_else(|e| refuse(e)),
                size: Size::parse(&size).unwrap_or_else(|e| refuse(e)),
                colour: Colour::parse(&colour).unwrap_or_else(|e| refuse(e)),
                quantity,
                finish: Finish::parse(&finish).unwrap_or_else(|e| refuse(e)),
                courier,
                due,
                stage: Stage::Quoted,
                proofs: 0,
                quote: 0,
                extras: 0,
                press: None,
                sheets: 0,
            };
            let Some(press) = presses::choose(&next.presses, &job) else {
                refuse(format!("no press takes {}", job.describe()))
            };
            job.quote = (rules.quote)(&job, press);
            next.next_id += 1;
            next.jobs.push(job);
        }
        Msg::SendProof { job } => at_stage(&mut next, job, Stage::Quoted).stage = Stage::Proof,
        Msg::Approve { job } => {
            at_stage(&mut next, job, Stage::Proof).stage = Stage::Approved;
            commands.push(Msg::Schedule { job });
        }
        Msg::Reject { job } => (rules.reject_proof)(at_stage(&mut next, job, Stage::Proof)),
        Msg::Schedule { job } => book(&mut next, job, rules),
        Msg::Run { press } => {
            commands = (rules.print_next)(&mut next, &press).unwrap_or_else(|e| refuse(e));
        }
        Msg::Finish { job } => at_stage(&mut next, job, Stage::Printed).stage = Stage::Finished,
        Msg::Dispatch { job } => {
            let job = at_stage(&mut next, job, Stage::Finished);
            job.stage = Stage::Dispatched;
            let price = job.price();
            next.invoiced += price;
        }
        Msg::Restock {
            paper,
            sheet,
            sheets,
        } => {
            let paper = Paper::parse(&paper).unwrap_or_else(|e| refuse(e));
            let sheet = super::model::Sheet::parse(&sheet).unwrap_or_else(|e| refuse(e));
            match next.shelf_mut(paper, sheet) {
                Some(shelf) => shelf.sheets += sheets,
                None => refuse(format!(
                    "the shop keeps no {} in {}",
                    paper.name(),
                    sheet.name()
                )),
            }
        }
    }
    (next, commands)
}

/// The job `id`, which must be at `stage`.
#[ranvier::trace_fn]
fn at_stage(shop: &mut Shop, id: u32, stage: Stage) -> &mut Job {
    match shop.job_mut(id) {
        Some(job) if job.stage == stage => job,
        Some(job) => refuse(format!("J{id} is {:?}, not {stage:?}", job.stage)),
        None => refuse(format!("no job J{id}")),
    }
}

/// Books the approved job `id` on the press that takes it, with the sheets it needs.
#[ranvier::trace_fn]
fn book(shop: &mut Shop, id: u32, rules: &Rules) {
    let job = at_stage(shop, id, Stage::Approved).clone();
    let Some(press) = presses::choose(&shop.presses, &job) else {
        refuse(format!("no press takes J{id}"))
    };
    let (name, sheet) = (press.name.clone(), press.sheet);
    let sheets = (rules.sheets_for)(&job, sheet);
    if let Some(press) = shop.presses.iter_mut().find(|p| p.name == name) {
        press.queue.push(id);
    }
    let job = at_stage(shop, id, Stage::Approved);
    job.press = Some(name);
    job.sheets = sheets;
    job.stage = Stage::Queued;
}

/// A proof comes back: the job is quoted again, and a round past the free ones is charged.
#[ranvier::trace_fn]
pub fn reject_proof(job: &mut Job) {
    job.proofs += 1;
    job.stage = Stage::Quoted;
    if job.proofs > FREE_PROOFS {
        job.extras += PROOF_FEE;
    }
}

/// `press` prints the first job in its queue: the sheets come off the shelf and the clock moves on by the set-up and
/// the run. Flat sheets need no bench, so they are finished at once (a `Finish` command).
///
/// # Errors
///
/// No such press, nothing queued on it, or too little paper on the shelf.
#[ranvier::trace_fn]
pub fn print_next(shop: &mut Shop, press: &str) -> Result<Vec<Msg>, String> {
    let at = shop
        .presses
        .iter()
        .position(|p| p.name == press)
        .ok_or_else(|| format!("no press {press:?}"))?;
    let Some(&id) = shop.presses[at].queue.first() else {
        return Err(format!("nothing is queued on {press}"));
    };
    let job = shop.job(id).cloned().ok_or(format!("no job J{id}"))?;
    let (sheet, setup, per_hour) = {
        let p = &shop.presses[at];
        (p.sheet, p.setup_minutes, p.sheets_per_hour)
    };
    let shelf = shop
        .shelf_mut(job.paper, sheet)
        .filter(|shelf| shelf.sheets >= job.sheets)
        .ok_or_else(|| format!("too little {} {} for J{id}", job.paper.name(), sheet.name()))?;
    shelf.sheets -= job.sheets;
    shop.presses[at].queue.remove(0);
    shop.clock += setup + presses::run_minutes(job.sheets, per_hour);
    if let Some(printed) = shop.job_mut(id) {
        printed.stage = Stage::Printed;
    }
    let mut follow = Vec::new();
    if job.finish == Finish::Flat {
        follow.push(Msg::Finish { job: id });
    }
    Ok(follow)
}

/// Refuses the message being applied: the dispatcher answers `reason` and the shop is unchanged (it unwinds without
/// the panic hook, so nothing is printed).
fn refuse(reason: String) -> ! {
    std::panic::resume_unwind(Box::new(reason))
}

/// Copies of this file's helpers with one mistake each, selected by `graph::Slip`.
pub mod slipped {
    use super::*;

    /// A proof comes back: the job is quoted again, and a round past the free ones is charged.
    #[ranvier::trace_fn]
    pub fn reject_proof(job: &mut Job) {
        job.proofs += 1;
        job.stage = Stage::Quoted;
        // BUG(proof_rounds)
        if job.proofs >= FREE_PROOFS {
            job.extras += PROOF_FEE;
        }
    }

    /// `press` prints the first job in its queue: the sheets come off the shelf and the clock moves on by the set-up
    /// and the run. Flat sheets need no bench, so they are finished at once (a `Finish` command).
    ///
    /// # Errors
    ///
    /// No such press, nothing queued on it, or too little paper on the shelf.
    #[ranvier::trace_fn]
    pub fn print_next(shop: &mut Shop, press: &str) -> Result<Vec<Msg>, String> {
        let at = shop
            .presses
            .iter()
            .position(|p| p.name == press)
            .ok_or_else(|| format!("no press {press:?}"))?;
        let Some(&id) = shop.presses[at].queue.first() else {
            return Err(format!("nothing is queued on {press}"));
        };
        let job = shop.job(id).cloned().ok_or(format!("no job J{id}"))?;
        let (sheet, setup, per_hour) = {
            let p = &shop.presses[at];
            (p.sheet, p.setup_minutes, p.sheets_per_hour)
        };
        let shelf = shop
            .shelf_mut(job.paper, sheet)
            .filter(|shelf| shelf.sheets >= job.sheets)
            .ok_or_else(|| format!("too little {} {} for J{id}", job.paper.name(), sheet.name()))?;
        shelf.sheets -= job.sheets;
        shop.presses[at].queue.remove(0);
        shop.clock += setup + presses::run_minutes(job.sheets, per_hour);
        if let Some(printed) = shop.job_mut(id) {
            printed.stage = Stage::Printed;
        }
        let mut follow = Vec::new();
        if job.finish == Finish::Flat {
            follow.push(Msg::Finish { job: id });
        }
        // BUG(flat_finish_dropped)
        Ok(Vec::new())
    }
}
