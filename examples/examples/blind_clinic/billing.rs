//! Billing: what a visit costs (the doctor's fee and overtime past the booked length) and the patient's share of
//! it under their insurance plan.

/// Overtime is charged per started block of this many minutes.
pub const OVERTIME_BLOCK_MINUTES: u32 = 5;

/// What a visit booked for `booked` minutes, in the room from minute `called` to minute `finished`, costs: the
/// doctor's `fee_cents`, and each started block of overtime past the booked length at `block_cents`.
#[ranvier::trace_fn]
pub fn visit_cost(
    fee_cents: u64,
    booked: u32,
    called: u32,
    finished: u32,
    block_cents: u64,
) -> u64 {
    let took = finished.saturating_sub(called);
    let over = took.saturating_sub(booked);
    let blocks = over.div_ceil(OVERTIME_BLOCK_MINUTES);
    fee_cents + u64::from(blocks) * block_cents
}

/// The percent of a visit's fee the patient pays under `plan` (the rest is billed to the insurer); no plan, or one
/// the clinic does not know, pays it all.
#[ranvier::trace_fn]
pub fn patient_share_percent(plan: &str) -> u64 {
    match plan {
        "basic" => 30,
        "plus" => 10,
        "gold" => 0,
        _ => 100,
    }
}

/// The patient's co-payment on a fee of `fee_cents` under `plan`, in cents, rounded to the nearest cent.
#[ranvier::trace_fn]
pub fn copay(fee_cents: u64, plan: &str) -> u64 {
    let percent = patient_share_percent(plan);
    (fee_cents * percent + 50) / 100
}

/// Billing as first written.
pub mod slipped {
    use super::{OVERTIME_BLOCK_MINUTES, patient_share_percent};

    /// What a visit costs.
    #[ranvier::trace_fn]
    pub fn visit_cost(
        fee_cents: u64,
        booked: u32,
        called: u32,
        finished: u32,
        block_cents: u64,
    ) -> u64 {
        let took = finished.saturating_sub(called);
        let over = took.saturating_sub(booked);
        // BUG(overtime_blocks)
        let blocks = over / OVERTIME_BLOCK_MINUTES;
        fee_cents + u64::from(blocks) * block_cents
    }

    /// The patient's co-payment.
    #[ranvier::trace_fn]
    pub fn copay(fee_cents: u64, plan: &str) -> u64 {
        let percent = patient_share_percent(plan);
        // BUG(copay_order)
        fee_cents * (percent / 100)
    }
}
