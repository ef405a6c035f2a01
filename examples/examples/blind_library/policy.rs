//! The lending rules: what each card allows, who may take a copy, when a loan may be renewed, and who is next for a
//! title.

use super::model::{Branch, Day, Hold, Loan, Tier, Where};

/// The rules' numbers.
pub mod limits {
    /// Days a copy spends on the van between two branches.
    pub const TRANSIT_DAYS: u32 = 2;
    /// A loan may be renewed from this many days before it is due.
    pub const RENEW_WINDOW: u32 = 7;
}

impl Tier {
    /// How many loans the card may have out at once.
    pub fn max_loans(self) -> u32 {
        match self {
            Tier::Child => 3,
            Tier::Adult => 6,
            Tier::Premium => 10,
        }
    }

    /// How long a loan lasts, in days.
    pub fn loan_days(self) -> u32 {
        match self {
            Tier::Child => 14,
            Tier::Adult => 21,
            Tier::Premium => 28,
        }
    }

    /// How many times a loan may be renewed.
    pub fn max_renewals(self) -> u32 {
        match self {
            Tier::Child => 1,
            Tier::Adult => 2,
            Tier::Premium => 3,
        }
    }
}

/// Days from `from` to `to` (none when `to` is not after `from`).
pub fn days_between(from: Day, to: Day) -> u32 {
    to.saturating_sub(from)
}

/// Whether `member` may take a copy that is `status`: one on the shelf, or kept on the hold shelf for them.
///
/// # Errors
///
/// Why not, for the desk's notice.
pub fn may_take(status: &Where, member: &str) -> Result<(), String> {
    match status {
        Where::Shelf => Ok(()),
        Where::HoldShelf { member: kept_for } if kept_for == member => Ok(()),
        Where::HoldShelf { member: kept_for } => Err(format!("kept for {kept_for}")),
        Where::Loan => Err("already out on loan".to_owned()),
        Where::Transit { to, .. } => Err(format!("on the van to {to}")),
    }
}

/// The new due day of `loan` (a `tier` card) renewed on `today` while `waiting` members wait for its title.
///
/// # Errors
///
/// Why it cannot be renewed: someone waits, it was renewed as often as the card allows, or it is not due soon.
pub fn renewal(loan: &Loan, tier: Tier, today: Day, waiting: usize) -> Result<Day, String> {
    if waiting > 0 {
        return Err(format!("{waiting} waiting for it"));
    }
    if loan.renewals >= tier.max_renewals() {
        return Err(format!("renewed {} times already", loan.renewals));
    }
    let ahead = days_between(today, loan.due);
    if ahead > limits::RENEW_WINDOW {
        return Err(format!("due in {ahead} days, too early to renew"));
    }
    Ok(loan.due.max(today) + tier.loan_days())
}

/// The first hold on `title`, if anyone waits for it.
pub fn first_hold(holds: &[Hold], title: u32) -> Option<&Hold> {
    holds.iter().find(|h| h.title == title)
}

/// How many wait for `title`, and at which branches.
pub fn waiting_for(holds: &[Hold], title: u32) -> (usize, Vec<Branch>) {
    let mut branches: Vec<Branch> = holds
        .iter()
        .filter(|h| h.title == title)
        .map(|h| h.pickup)
        .collect();
    let count = branches.len();
    branches.sort();
    branches.dedup();
    (count, branches)
}

/// Other versions of this file's code, chosen by `graph::Slip`.
pub mod slipped {
    use super::super::model::{Day, Loan, Tier, Where};
    use super::{days_between, limits};

    /// Whether `member` may take a copy that is `status`: one on the shelf, or kept on the hold shelf for them.
    ///
    /// # Errors
    ///
    /// Why not, for the desk's notice.
    pub fn may_take(status: &Where, member: &str) -> Result<(), String> {
        match status {
            Where::Shelf => Ok(()),
            Where::HoldShelf { member: kept_for } if kept_for == member => Ok(()),
            // BUG(hold_shelf_taken)
            Where::HoldShelf { .. } => Ok(()),
            Where::Loan => Err("already out on loan".to_owned()),
            Where::Transit { to, .. } => Err(format!("on the van to {to}")),
        }
    }

    /// The new due day of `loan` (a `tier` card) renewed on `today` while `waiting` members wait for its title.
    ///
    /// # Errors
    ///
    /// Why it cannot be renewed: someone waits, it was renewed as often as the card allows, or it is not due soon.
    pub fn renewal(loan: &Loan, tier: Tier, today: Day, waiting: usize) -> Result<Day, String> {
        if waiting > 0 {
            return Err(format!("{waiting} waiting for it"));
        }
        if loan.renewals >= tier.max_renewals() {
            return Err(format!("renewed {} times already", loan.renewals));
        }
        // BUG(renew_window_swapped)
        let ahead = days_between(loan.due, today);
        if ahead > limits::RENEW_WINDOW {
            return Err(format!("due in {ahead} days, too early to renew"));
        }
        Ok(loan.due.max(today) + tier.loan_days())
    }
}
