//! The desk's derived values: open and overdue loans, fines, what falls due soon, who is at their limit, the next
//! reminder, the notices of books ready for pickup, and two answers of the county catalogue about the book on the
//! desk's screen (its shelf mark and the holds on it).

use std::any::Any;

use ranvier::exposure::{ExposeError, Exposure};
use ranvier::serde::Serialize;
use ranvier::{AnyNode, AsyncMemo, Memo, Mvu, node};

use super::catalog;
use super::fees;
use super::model::{Desk, Loan, Msg, Reminder};
use super::rules;

/// Which version of the desk's code runs: the correct one, or one with a mistake it was first written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// All correct.
    None,
    /// A return is dated on its due day.
    ReturnDay,
    /// A late return sends no pickup notice.
    PickupNotice,
    /// A loan may be renewed once too often.
    RenewLimit,
    /// A child has an adult's loan limit.
    LimitArm,
    /// Overdue loans listed by the day they went out.
    OverdueOrder,
    /// The grace period is taken off twice.
    DoubleGrace,
    /// A child's rate is rounded down.
    ChildRounding,
    /// What falls due soon reads the day untracked.
    DueSoonPeek,
    /// The reminder's equality ignores the due day.
    ReminderEq,
    /// A shelf mark the catalogue cannot give becomes "".
    ShelfDefault,
    /// Local holds are read after the catalogue answered.
    HoldsAfterAwait,
}

/// Handles the graph thread keeps alive.
pub type Keep = Vec<Box<dyn Any>>;

/// Registers `node`'s value under `name`, and the node, for the trace tools.
fn expose<N: AnyNode + Clone + 'static, T: Serialize + 'static>(
    x: &mut Exposure,
    name: &str,
    node: &N,
    read: fn(&N) -> T,
) -> Result<(), ExposeError> {
    let n = node.clone();
    x.value(name, move || read(&n))?;
    x.node(name, node)?;
    Ok(())
}

/// Builds the desk's graph over `desk` as `slip` says, and registers its values.
///
/// # Errors
///
/// A name registered twice.
#[node]
pub fn desk_graph(
    desk: &Mvu<Desk, Msg>,
    slip: Slip,
    x: &mut Exposure,
) -> Result<Keep, ExposeError> {
    let today = desk.select(|d| d.today);
    let open = desk.select(|d| {
        d.loans
            .iter()
            .filter(|l| l.returned.is_none())
            .cloned()
            .collect::<Vec<Loan>>()
    });
    let open_loans = open.clone();
    let overdue = match slip {
        Slip::OverdueOrder => slipped::overdue(desk),
        _ => overdue(desk),
    };
    let fines_due = match slip {
        Slip::DoubleGrace => slipped::fines_due_with_grace(desk),
        Slip::ChildRounding => slipped::fines_due_at(desk, fees::slipped::daily_rate),
        _ => fines_due(desk),
    };
    let due_soon = match slip {
        Slip::DueSoonPeek => slipped::due_soon(&open, &today),
        _ => due_soon(&open, &today),
    };
    let at_limit = match slip {
        Slip::LimitArm => at_limit(desk, rules::slipped::loan_limit),
        _ => at_limit(desk, rules::loan_limit),
    };
    let pickups = desk.select(|d| {
        d.notices
            .iter()
            .filter(|n| n.contains("ready for pickup"))
            .cloned()
            .collect::<Vec<String>>()
    });
    // the book on the desk's screen: the last one lent, or the catalogue's first
    let focus = desk.select(|d| {
        d.loans
            .last()
            .map(|l| &l.isbn)
            .or_else(|| d.books.first().map(|b| &b.isbn))
            .cloned()
            .unwrap_or_default()
    });
    let shelf = match slip {
        Slip::ShelfDefault => slipped::shelf(&focus),
        _ => shelf(&focus),
    }
    .labelled("shelf");
    let county_holds = match slip {
        Slip::HoldsAfterAwait => slipped::holds(desk, &focus),
        _ => holds(desk, &focus),
    }
    .labelled("county_holds");

    expose(x, "today", &today, Memo::get)?;
    expose(x, "open_loans", &open_loans, |m| m.with(Vec::len))?;
    expose(x, "overdue", &overdue, Memo::get)?;
    expose(x, "fines_due", &fines_due, Memo::get)?;
    expose(x, "due_soon", &due_soon, Memo::get)?;
    expose(x, "at_limit", &at_limit, Memo::get)?;
    expose(x, "pickups", &pickups, Memo::get)?;
    expose(x, "shelf", &shelf, AsyncMemo::get)?;
    expose(x, "county_holds", &county_holds, AsyncMemo::get)?;
    let mut keep: Keep = vec![
        Box::new(today),
        Box::new(open_loans),
        Box::new(overdue),
        Box::new(fines_due),
        Box::new(due_soon),
        Box::new(at_limit),
        Box::new(pickups),
        Box::new(focus.clone()),
        Box::new(shelf),
        Box::new(county_holds),
    ];
    if slip == Slip::ReminderEq {
        let next_reminder = slipped::next_reminder(desk);
        expose(x, "next_reminder", &next_reminder, Memo::get)?;
        keep.push(Box::new(next_reminder));
    } else {
        let next_reminder = next_reminder(desk);
        expose(x, "next_reminder", &next_reminder, Memo::get)?;
        keep.push(Box::new(next_reminder));
    }
    Ok(keep)
}

/// Open loans past their due day, oldest due first (then by loan number), as `"title (card, due day N)"`.
fn overdue(desk: &Mvu<Desk, Msg>) -> Memo<Vec<String>> {
    let desk = desk.clone();
    Memo::new(move |_| {
        desk.with_model(|d| {
            let mut late: Vec<&Loan> = d
                .loans
                .iter()
                .filter(|l| l.returned.is_none())
                .filter(|l| l.due_day < d.today)
                .collect();
            late.sort_by_key(|l| (l.due_day, l.id));
            let mut lines = Vec::with_capacity(late.len());
            for loan in late {
                let title = d.title(&loan.isbn);
                let days = d.today - loan.due_day;
                lines.push(format!(
                    "{title} ({}, due day {}, {days} days late)",
                    loan.card, loan.due_day
                ));
            }
            lines
        })
    })
}

/// Fines owed over every card: each loan's days late (after the grace period) at the borrower's daily rate, less
/// what the borrower paid (never below zero per card).
fn fines_due(desk: &Mvu<Desk, Msg>) -> Memo<u64> {
    let desk = desk.clone();
    Memo::new(move |_| {
        desk.with_model(|d| {
            let mut owed_total = 0_u64;
            for member in &d.members {
                let rate = fees::daily_rate(member.kind, d.fine_per_day);
                let mut owed = 0_u64;
                for loan in d.loans.iter().filter(|l| l.card == member.card) {
                    let days = fees::days_late(loan, d.today);
                    if days == 0 {
                        continue;
                    }
                    owed += u64::from(days) * rate;
                }
                let unpaid = owed.saturating_sub(member.paid);
                owed_total += unpaid;
            }
            owed_total
        })
    })
}

/// Open loans due from today to three days on.
fn due_soon(open: &Memo<Vec<Loan>>, today: &Memo<u32>) -> Memo<usize> {
    let (open, today) = (open.clone(), today.clone());
    Memo::new(move |_| {
        let today = today.get();
        let horizon = today + 3;
        open.with(|loans| {
            loans
                .iter()
                .filter(|l| l.due_day >= today && l.due_day <= horizon)
                .count()
        })
    })
}

/// Cards with as many open loans as `limit` allows their kind, in card order.
fn at_limit(desk: &Mvu<Desk, Msg>, limit: fn(super::model::Kind) -> usize) -> Memo<Vec<String>> {
    let desk = desk.clone();
    Memo::new(move |_| {
        desk.with_model(|d| {
            let mut full = Vec::new();
            for member in &d.members {
                let open = d
                    .loans
                    .iter()
                    .filter(|l| l.card == member.card && l.returned.is_none())
                    .count();
                if open >= limit(member.kind) {
                    full.push(member.card.clone());
                }
            }
            full.sort();
            full
        })
    })
}

/// The open loan due first (the earliest lent of equals), as the reminder sent to its borrower.
fn next_reminder(desk: &Mvu<Desk, Msg>) -> Memo<Option<Reminder>> {
    let desk = desk.clone();
    Memo::new(move |_| {
        desk.with_model(|d| {
            let loan = d
                .loans
                .iter()
                .filter(|l| l.returned.is_none())
                .min_by_key(|l| (l.due_day, l.id))?;
            let title = d.title(&loan.isbn);
            Some(Reminder {
                text: format!("{title} is due on day {}", loan.due_day),
                card: loan.card.clone(),
                title,
                due_day: loan.due_day,
            })
        })
    })
}

/// The shelf mark of the book in `focus`, from the county catalogue (failed when it does not know the book).
fn shelf(focus: &Memo<String>) -> AsyncMemo<String> {
    let focus = focus.clone();
    AsyncMemo::try_new(move |_| {
        let isbn = focus.get();
        async move {
            if isbn.is_empty() {
                return Ok(String::new());
            }
            catalog::shelf_mark(isbn).await
        }
    })
}

/// Holds on the book in `focus`: the county's other branches' and this desk's.
fn holds(desk: &Mvu<Desk, Msg>, focus: &Memo<String>) -> AsyncMemo<usize> {
    let (desk, focus) = (desk.clone(), focus.clone());
    AsyncMemo::try_new(move |_| {
        let isbn = focus.get();
        let here = desk.with_model(|d| d.holds.iter().filter(|h| h.isbn == isbn).count());
        async move {
            if isbn.is_empty() {
                return Ok(0);
            }
            let county = catalog::county_holds(isbn).await?;
            Ok::<_, String>(county + here)
        }
    })
}

/// The derived values as first written.
mod slipped {
    use ranvier::{AsyncMemo, Memo, Mvu};

    use super::super::catalog;
    use super::super::fees;
    use super::super::model::{Desk, Kind, Loan, Msg, slipped::Reminder};

    /// Overdue loans, oldest first.
    pub fn overdue(desk: &Mvu<Desk, Msg>) -> Memo<Vec<String>> {
        let desk = desk.clone();
        Memo::new(move |_| {
            desk.with_model(|d| {
                let mut late: Vec<&Loan> = d
                    .loans
                    .iter()
                    .filter(|l| l.returned.is_none())
                    .filter(|l| l.due_day < d.today)
                    .collect();
                // BUG(overdue_order)
                late.sort_by_key(|l| (l.out_day, l.id));
                let mut lines = Vec::with_capacity(late.len());
                for loan in late {
                    let title = d.title(&loan.isbn);
                    let days = d.today - loan.due_day;
                    lines.push(format!(
                        "{title} ({}, due day {}, {days} days late)",
                        loan.card, loan.due_day
                    ));
                }
                lines
            })
        })
    }

    /// Fines owed, with the grace period taken off here too.
    pub fn fines_due_with_grace(desk: &Mvu<Desk, Msg>) -> Memo<u64> {
        let desk = desk.clone();
        Memo::new(move |_| {
            desk.with_model(|d| {
                let mut owed_total = 0_u64;
                for member in &d.members {
                    let rate = fees::daily_rate(member.kind, d.fine_per_day);
                    let mut owed = 0_u64;
                    for loan in d.loans.iter().filter(|l| l.card == member.card) {
                        let days = fees::days_late(loan, d.today);
                        // BUG(double_grace)
                        let days = days.saturating_sub(fees::GRACE_DAYS);
                        if days == 0 {
                            continue;
                        }
                        owed += u64::from(days) * rate;
                    }
                    let unpaid = owed.saturating_sub(member.paid);
                    owed_total += unpaid;
                }
                owed_total
            })
        })
    }

    /// Fines owed, at the daily rate `rate` gives.
    pub fn fines_due_at(desk: &Mvu<Desk, Msg>, rate_of: fn(Kind, u64) -> u64) -> Memo<u64> {
        let desk = desk.clone();
        Memo::new(move |_| {
            desk.with_model(|d| {
                let mut owed_total = 0_u64;
                for member in &d.members {
                    let rate = rate_of(member.kind, d.fine_per_day);
                    let mut owed = 0_u64;
                    for loan in d.loans.iter().filter(|l| l.card == member.card) {
                        let days = fees::days_late(loan, d.today);
                        if days == 0 {
                            continue;
                        }
                        owed += u64::from(days) * rate;
                    }
                    let unpaid = owed.saturating_sub(member.paid);
                    owed_total += unpaid;
                }
                owed_total
            })
        })
    }

    /// Open loans due from today to three days on.
    pub fn due_soon(open: &Memo<Vec<Loan>>, today: &Memo<u32>) -> Memo<usize> {
        let (open, today) = (open.clone(), today.clone());
        Memo::new(move |_| {
            // BUG(due_soon_peek)
            let today = today.peek();
            let horizon = today + 3;
            open.with(|loans| {
                loans
                    .iter()
                    .filter(|l| l.due_day >= today && l.due_day <= horizon)
                    .count()
            })
        })
    }

    /// The open loan due first, as a reminder.
    pub fn next_reminder(desk: &Mvu<Desk, Msg>) -> Memo<Option<Reminder>> {
        let desk = desk.clone();
        Memo::new(move |_| {
            desk.with_model(|d| {
                let loan = d
                    .loans
                    .iter()
                    .filter(|l| l.returned.is_none())
                    .min_by_key(|l| (l.due_day, l.id))?;
                let title = d.title(&loan.isbn);
                Some(Reminder {
                    text: format!("{title} is due on day {}", loan.due_day),
                    card: loan.card.clone(),
                    title,
                    due_day: loan.due_day,
                })
            })
        })
    }

    /// The shelf mark of the book in `focus`.
    pub fn shelf(focus: &Memo<String>) -> AsyncMemo<String> {
        let focus = focus.clone();
        AsyncMemo::new(move |_| {
            let isbn = focus.get();
            async move {
                if isbn.is_empty() {
                    return String::new();
                }
                // BUG(shelf_default)
                catalog::shelf_mark(isbn).await.unwrap_or_default()
            }
        })
    }

    /// Holds on the book in `focus`.
    pub fn holds(desk: &Mvu<Desk, Msg>, focus: &Memo<String>) -> AsyncMemo<usize> {
        let (desk, focus) = (desk.clone(), focus.clone());
        AsyncMemo::try_new(move |_| {
            let isbn = focus.get();
            let desk = desk.clone();
            async move {
                if isbn.is_empty() {
                    return Ok(0);
                }
                let county = catalog::county_holds(isbn.clone()).await?;
                // BUG(holds_after_await)
                let here = desk.with_model(|d| d.holds.iter().filter(|h| h.isbn == isbn).count());
                Ok::<_, String>(county + here)
            }
        })
    }
}
