//! The lending rules: how many books a member may hold at once and when a loan may be renewed.

use super::model::{Desk, Kind, Loan};

/// Renewals a loan may have.
pub const MAX_RENEWALS: u32 = 2;

/// How many open loans a member of `kind` may have.
#[ranvier::trace_fn]
pub fn loan_limit(kind: Kind) -> usize {
    match kind {
        Kind::Adult => 6,
        Kind::Child => 3,
        Kind::Staff => 12,
    }
}

/// Whether `loan` may be renewed on `desk`: not returned, renewed fewer than [`MAX_RENEWALS`] times, and nobody holds
/// its book.
#[ranvier::trace_fn]
pub fn can_renew(desk: &Desk, loan: &Loan) -> bool {
    let held = desk.holds.iter().any(|h| h.isbn == loan.isbn);
    loan.returned.is_none() && loan.renewals < MAX_RENEWALS && !held
}

/// Whether `card` may borrow one more book.
#[ranvier::trace_fn]
pub fn may_borrow(desk: &Desk, card: &str) -> bool {
    let Some(member) = desk.member(card) else {
        return false;
    };
    let open = desk
        .loans
        .iter()
        .filter(|l| l.card == card && l.returned.is_none())
        .count();
    open < loan_limit(member.kind)
}

/// The rules as first written.
pub mod slipped {
    use super::super::model::{Desk, Kind, Loan};

    use super::MAX_RENEWALS;

    /// How many open loans a member of `kind` may have.
    #[ranvier::trace_fn]
    pub fn loan_limit(kind: Kind) -> usize {
        match kind {
            // BUG(limit_arm)
            Kind::Adult | Kind::Child => 6,
            Kind::Staff => 12,
        }
    }

    /// Whether `loan` may be renewed on `desk`.
    #[ranvier::trace_fn]
    pub fn can_renew(desk: &Desk, loan: &Loan) -> bool {
        let held = desk.holds.iter().any(|h| h.isbn == loan.isbn);
        // BUG(renew_limit)
        loan.returned.is_none() && loan.renewals <= MAX_RENEWALS && !held
    }
}
