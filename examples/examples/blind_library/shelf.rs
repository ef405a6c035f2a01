//! The loans list: a keyed collection of the loans out, one row per copy with its status line, and the views the
//! desk reads off it (the overdue loans, the loans by due day, how many were renewed).

use super::fines::GRACE_DAYS;
use super::model::{Cents, LoanLine, Tier, day_label, money};
use ranvier::Memo;
use ranvier::collection::{Collection, Filter, Row};

/// The loans out, keyed by barcode; each row's status line is its `status` field.
pub type Loans = Collection<String, LoanLine, (&'static str, Memo<String>)>;

/// A loan row's status line: when it is due and the renewals left, or how late it is and what it has cost so far.
pub fn loan_row(
    row: &Row<String, LoanLine>,
    fine_for: fn(Tier, u32) -> Cents,
) -> (&'static str, Memo<String>) {
    let row = row.clone();
    let status = Memo::new(move |_| {
        let line = row.get();
        let left = line.tier.max_renewals().saturating_sub(line.renewals);
        let renewals = match left {
            0 => "no renewals left".to_owned(),
            1 => "1 renewal left".to_owned(),
            n => format!("{n} renewals left"),
        };
        if line.days_late == 0 {
            return format!("due {}, {renewals}", day_label(line.due));
        }
        let so_far = fine_for(line.tier, line.days_late);
        if so_far == 0 {
            let grace = GRACE_DAYS - line.days_late.min(GRACE_DAYS);
            format!("{} days late, {grace} days' grace left", line.days_late)
        } else {
            format!(
                "{} days late, {} in fines so far",
                line.days_late,
                money(so_far)
            )
        }
    })
    .labelled("status");
    ("status", status)
}

/// The loans past their due day.
pub fn overdue(loans: &Loans) -> Filter<String> {
    loans.filter(|line| line.days_late > 0)
}

/// The overdue loans, one line each, in the order they went out.
pub fn overdue_lines(
    keys: Memo<std::rc::Rc<[String]>>,
    lines: Memo<Vec<LoanLine>>,
) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let keys = keys.get();
        lines.with(|lines| {
            keys.iter()
                .filter_map(|key| lines.iter().find(|l| &l.barcode == key))
                .map(|l| {
                    format!(
                        "{} {} ({}): {} days late",
                        l.barcode, l.title, l.member, l.days_late
                    )
                })
                .collect()
        })
    })
}

/// The loans by due day, one line each: `<due day>: <barcode> <title> (<member>)`.
pub fn due_lines(
    order: Memo<std::rc::Rc<[String]>>,
    lines: Memo<Vec<LoanLine>>,
) -> Memo<Vec<String>> {
    Memo::new(move |_| {
        let order = order.get();
        let lines = lines.get();
        let mut shown = Vec::with_capacity(order.len());
        for key in order.iter() {
            if let Some(line) = lines.iter().find(|l| &l.barcode == key) {
                shown.push(format!(
                    "{}: {} {} ({})",
                    day_label(line.due),
                    line.barcode,
                    line.title,
                    line.member
                ));
            }
        }
        shown
    })
}

/// Other versions of this file's code, chosen by `graph::Slip`.
pub mod slipped {
    use super::super::fines::GRACE_DAYS;
    use super::super::model::{Cents, LoanLine, Tier, day_label, money};
    use super::Loans;
    use ranvier::Memo;
    use ranvier::collection::{Filter, Row};

    /// A loan row's status line: when it is due and the renewals left, or how late it is and what it has cost so
    /// far.
    pub fn loan_row(
        row: &Row<String, LoanLine>,
        fine_for: fn(Tier, u32) -> Cents,
    ) -> (&'static str, Memo<String>) {
        let row = row.clone();
        let status = Memo::new(move |_| {
            let line = row.get();
            let left = line.tier.max_renewals().saturating_sub(line.renewals);
            let renewals = match left {
                0 => "no renewals left".to_owned(),
                1 => "1 renewal left".to_owned(),
                n => format!("{n} renewals left"),
            };
            if line.days_late == 0 {
                // BUG(status_due_out_day)
                return format!("due {}, {renewals}", day_label(line.out));
            }
            let so_far = fine_for(line.tier, line.days_late);
            if so_far == 0 {
                let grace = GRACE_DAYS - line.days_late.min(GRACE_DAYS);
                format!("{} days late, {grace} days' grace left", line.days_late)
            } else {
                format!(
                    "{} days late, {} in fines so far",
                    line.days_late,
                    money(so_far)
                )
            }
        })
        .labelled("status");
        ("status", status)
    }

    /// The loans past their due day.
    pub fn overdue(loans: &Loans) -> Filter<String> {
        // BUG(overdue_filter_inverted)
        loans.filter(|line| line.days_late == 0)
    }
}
