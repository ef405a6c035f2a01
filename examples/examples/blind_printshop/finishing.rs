//! The bench's rules: what cutting, folding and stitching cost and take, and what a finished job weighs packed.

use super::model::{Finish, Job};

/// The guillotine, per started thousand copies, in pence.
pub const TRIM_PENCE_PER_THOUSAND: u32 = 500;
/// The folder, per copy, in pence.
pub const FOLD_PENCE: u32 = 2;
/// The stitcher, per copy, in pence.
pub const BIND_PENCE: u32 = 25;
/// A carton and its packing, in grams.
pub const CARTON_GRAMS: u64 = 400;

/// What finishing `quantity` copies costs, in pence.
#[ranvier::trace_fn]
pub fn cost(finish: Finish, quantity: u32) -> u32 {
    match finish {
        Finish::Flat => 0,
        Finish::Trim => TRIM_PENCE_PER_THOUSAND * quantity.div_ceil(1_000),
        Finish::Fold => FOLD_PENCE * quantity,
        Finish::Bind => BIND_PENCE * quantity,
    }
}

/// Minutes on the bench for `quantity` copies: the guillotine takes ten minutes to set and five a thousand, the
/// folder does a hundred a minute, the stitcher ten.
#[ranvier::trace_fn]
pub fn minutes(finish: Finish, quantity: u32) -> u32 {
    match finish {
        Finish::Flat => 0,
        Finish::Trim => 10 + 5 * quantity.div_ceil(1_000),
        Finish::Fold => quantity.div_ceil(100),
        Finish::Bind => quantity.div_ceil(10),
    }
}

/// What the finished job weighs in its cartons, in grams.
#[ranvier::trace_fn]
pub fn parcel_grams(job: &Job, cartons: u32) -> u32 {
    let (w, h) = job.size.mm();
    let square_mm = u64::from(w) * u64::from(h);
    let paper = square_mm * job.paper.gsm() * u64::from(job.quantity) / 1_000_000;
    let packed = paper + CARTON_GRAMS * u64::from(cartons.max(1));
    u32::try_from(packed).unwrap_or(u32::MAX)
}

/// Copies of this file's rules with one mistake each, selected by `graph::Slip`.
pub mod slipped {
    use super::*;

    /// Minutes on the bench for `quantity` copies: the guillotine takes ten minutes to set and five a thousand, the
    /// folder does a hundred a minute, the stitcher ten.
    #[ranvier::trace_fn]
    pub fn minutes(finish: Finish, quantity: u32) -> u32 {
        match finish {
            Finish::Flat => 0,
            Finish::Trim => 10 + 5 * quantity.div_ceil(1_000),
            // BUG(bind_minutes)
            Finish::Fold | Finish::Bind => quantity.div_ceil(100),
        }
    }
}
