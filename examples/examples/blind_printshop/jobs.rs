//! The job board: the jobs as a keyed collection (one row per docket, each with the cartons it packs into), and the
//! views the counter reads off it: the proofs out, the colour jobs, and the jobs in the order they are due.

use super::model::{Colour, DAYS, Job, Stage};
use ranvier::Memo;
use ranvier::collection::{Collection, Row};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::rc::Rc;

/// A carton holds a stack this deep, in microns.
pub const CARTON_DEPTH_UM: u32 = 250_000;

/// The board: one row per docket, with its cartons (`jobs[3]/cartons`).
pub type Board = Collection<u32, Job, (&'static str, Memo<u32>)>;

/// What makes a row's nodes.
pub type RowFactory = fn(&Row<u32, Job>) -> (&'static str, Memo<u32>);

/// A row's cartons: how many stacks of the job's copies fill the cartons it goes out in.
#[ranvier::node]
pub fn job_row(row: &Row<u32, Job>) -> (&'static str, Memo<u32>) {
    let row = row.clone();
    let cartons = Memo::new(move |_| {
        row.with(|job| {
            let stack = CARTON_DEPTH_UM / job.paper.microns();
            let per_carton = stack * job.size.stacks_per_box();
            job.quantity.div_ceil(per_carton.max(1))
        })
    });
    ("cartons", cartons)
}

/// Proofs with customers.
pub fn proofs_out(board: &Board) -> Memo<usize> {
    board.filter(|job| job.stage == Stage::Proof).count()
}

/// Open colour jobs.
pub fn in_colour(board: &Board) -> Memo<usize> {
    board.count_by(|job| job.is_open() && job.colour == Colour::Colour)
}

/// Dockets by the day they are due, the biggest job of a day first.
pub fn due_order(board: &Board) -> Memo<Rc<[u32]>> {
    board.sort_by(|job| (job.due, Reverse(job.quantity)))
}

/// The open jobs in `order`: `Wed J2 Bo: 3000 A4 silk 150, colour, folded (queued)`.
pub fn due_list(board: &Board, order: &Memo<Rc<[u32]>>) -> Memo<Vec<String>> {
    let (board, order) = (board.clone(), order.clone());
    Memo::new(move |_| {
        let order = order.get();
        let jobs: HashMap<u32, Job> = board.items().into_iter().map(|job| (job.id, job)).collect();
        order
            .iter()
            .filter_map(|id| jobs.get(id))
            .filter(|job| job.is_open())
            .map(|job| {
                let day = DAYS[(job.due as usize).saturating_sub(1) % DAYS.len()];
                format!(
                    "{day} {}: {} ({:?})",
                    job.docket(),
                    job.describe(),
                    job.stage
                )
            })
            .collect()
    })
}

/// Copies of this file's code with one mistake each, selected by `graph::Slip`.
pub mod slipped {
    use super::*;

    /// A row's cartons: how many stacks of the job's copies fill the cartons it goes out in.
    #[ranvier::node]
    pub fn job_row(row: &Row<u32, Job>) -> (&'static str, Memo<u32>) {
        let row = row.clone();
        let cartons = Memo::new(move |_| {
            row.with(|job| {
                let stack = CARTON_DEPTH_UM / job.paper.microns();
                let per_carton = stack * job.size.stacks_per_box();
                // BUG(carton_count)
                job.quantity / per_carton.max(1)
            })
        });
        ("cartons", cartons)
    }

    /// Dockets by the day they are due, the biggest job of a day first.
    pub fn due_order(board: &Board) -> Memo<Rc<[u32]>> {
        // BUG(due_order)
        board.sort_by(|job| (job.due, job.quantity))
    }
}
