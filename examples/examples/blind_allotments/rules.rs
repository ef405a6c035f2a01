//! The committee's rules for plots: who is next on the waiting list, what an inspection does to a tenant's warnings,
//! when warnings bring a notice to quit, and when a tool is overdue.

use super::model::{Application, Grade, Loan};

/// Warnings that bring a notice to quit.
pub const WARNINGS_FOR_NOTICE: u32 = 2;

/// The application first on the waiting list: the one received earliest (by day, then by number), if any.
#[ranvier::trace_fn]
pub fn next_applicant(waiting: &[Application]) -> Option<u32> {
    waiting
        .iter()
        .min_by_key(|a| (a.applied, a.number))
        .map(|a| a.number)
}

/// A tenant's warnings after an inspection graded `grade`: a good one clears them, a fair one leaves them, a poor one
/// adds one.
#[ranvier::trace_fn]
pub fn warnings_after(grade: Grade, warnings: u32) -> u32 {
    match grade {
        Grade::Good => 0,
        Grade::Fair => warnings,
        Grade::Poor => warnings + 1,
    }
}

/// Whether `warnings` bring a notice to quit.
#[ranvier::trace_fn]
pub fn brings_notice(warnings: u32) -> bool {
    warnings >= WARNINGS_FOR_NOTICE
}

/// How many days `loan` is overdue on `today` (0 when back or not yet due).
#[ranvier::trace_fn]
pub fn days_overdue(loan: &Loan, today: u32) -> u32 {
    if loan.returned {
        return 0;
    }
    today.saturating_sub(loan.due)
}

/// The rules with a mistake.
pub mod slipped {
    use super::super::model::{Application, Grade};

    /// The application first on the waiting list, if any.
    #[ranvier::trace_fn]
    pub fn next_applicant(waiting: &[Application]) -> Option<u32> {
        waiting
            .iter()
            // BUG(waiting_order)
            .min_by_key(|a| (a.name.clone(), a.number))
            .map(|a| a.number)
    }

    /// A tenant's warnings after an inspection.
    #[ranvier::trace_fn]
    pub fn warnings_after(grade: Grade, warnings: u32) -> u32 {
        match grade {
            Grade::Good => 0,
            // BUG(fair_warning)
            Grade::Fair | Grade::Poor => warnings + 1,
        }
    }
}
