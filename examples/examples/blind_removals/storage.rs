//! The storage units rented by the week (a minimum term, a late fee past a week's grace) and the store room's packing
//! materials.

use super::model::{Firm, Material, Msg, pounds};
use ranvier::{Memo, Mvu, node};

/// The shortest rental, in weeks.
pub const MIN_TERM_WEEKS: u32 = 4;
/// Days the rent may be late without a fee.
pub const GRACE_DAYS: u32 = 7;
/// The late fee, and what it grows by each day past the grace.
pub const LATE_FEE: u64 = 1_500;
pub const LATE_FEE_DAILY: u64 = 200;

/// The late-fee rule: (paid until, today) to pence.
pub type LateFeeRule = fn(u32, u32) -> u64;

/// A unit's weekly rent.
#[ranvier::trace_fn]
pub fn weekly_rent(large: bool) -> u64 {
    if large { 3_500 } else { 2_000 }
}

/// The weeks a first payment covers: what the customer asked for, at least the minimum term.
#[ranvier::trace_fn]
pub fn first_term(weeks: u32) -> u32 {
    weeks.max(MIN_TERM_WEEKS)
}

/// The late fee on rent paid until `paid_until`, on `today`: nothing within the grace, then a fee that grows daily.
#[ranvier::trace_fn]
pub fn late_fee(paid_until: u32, today: u32) -> u64 {
    let days_late = today.saturating_sub(paid_until);
    if days_late <= GRACE_DAYS {
        return 0;
    }
    LATE_FEE + u64::from(days_late - GRACE_DAYS) * LATE_FEE_DAILY
}

/// The units: who rents each, what it costs, how far the rent is paid, and what is owed late.
#[node]
pub fn storage_sheet(firm: &Mvu<Firm, Msg>, late_fee: LateFeeRule) -> Memo<Vec<String>> {
    let storage_sheet = firm.select(move |firm| {
        let mut lines = Vec::new();
        let mut weekly = 0;
        let mut fees = 0;
        for unit in &firm.units {
            let rent = weekly_rent(unit.large);
            weekly += rent;
            let size = if unit.large { "large" } else { "small" };
            let fee = late_fee(unit.paid_until, firm.today);
            fees += fee;
            let standing = if firm.today <= unit.paid_until {
                format!("paid to day {}", unit.paid_until)
            } else if fee == 0 {
                format!("paid to day {}, in the grace days", unit.paid_until)
            } else {
                format!("paid to day {}, late fee {}", unit.paid_until, pounds(fee))
            };
            lines.push(format!(
                "unit {}, {}: {size} at {} a week since day {}, {standing}",
                unit.no,
                unit.customer,
                pounds(rent),
                unit.start
            ));
        }
        lines.push(format!(
            "storage: {} units, {} a week, {} in late fees",
            firm.units.len(),
            pounds(weekly),
            pounds(fees)
        ));
        lines
    });
    storage_sheet
}

/// The store room: each material's stock, its reorder point, and what is on order.
#[node]
pub fn materials_sheet(
    firm: &Mvu<Firm, Msg>,
    needs_reorder: fn(&Material) -> bool,
) -> Memo<Vec<String>> {
    let materials_sheet = firm.select(move |firm| {
        firm.materials
            .iter()
            .map(|m| {
                let mut line = format!(
                    "{}: {} in stock (reorder at {})",
                    m.name, m.stock, m.reorder_point
                );
                if m.on_order > 0 {
                    line.push_str(&format!(", {} on order", m.on_order));
                } else if needs_reorder(m) {
                    line.push_str(", to reorder");
                }
                line
            })
            .collect()
    });
    materials_sheet
}

pub mod slipped {
    use super::{GRACE_DAYS, LATE_FEE, LATE_FEE_DAILY};

    /// The late fee on rent paid until `paid_until`, on `today`: nothing within the grace, then a fee that grows
    /// daily.
    #[ranvier::trace_fn]
    pub fn late_fee(paid_until: u32, today: u32) -> u64 {
        let days_late = today.saturating_sub(paid_until);
        // BUG(late_grace)
        if days_late < GRACE_DAYS {
            return 0;
        }
        LATE_FEE + u64::from(days_late - GRACE_DAYS) * LATE_FEE_DAILY
    }
}
