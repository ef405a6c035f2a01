//! The desk as an agent sees it: the `#[expose]` app, and the `#[node]` fn that builds its graph (the desk's lists,
//! the members' cards and the week's figures, the loans list, and the network's answers).

use super::fines;
use super::model::{self, Branch, Cents, Desk, Loan, Msg, SEATS, Where, day_label, money};
use super::policy;
use super::services;
use super::shelf::{self, Loans};
use super::update::{self, Rules};
use ranvier::collection::{Collection, Row};
use ranvier::{AsyncMemo, Memo, Mvu, expose, node};
use std::collections::BTreeMap;

/// Which version of the desk runs: the correct one, or one with a single mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The correct desk.
    None,
    /// A mistake: see `SLIPS` in `main.rs`.
    BlockAtEuros,
    /// A mistake: see `SLIPS` in `main.rs`.
    LoanLimitOffByOne,
    /// A mistake: see `SLIPS` in `main.rs`.
    ReturnHoldNotFilled,
    /// A mistake: see `SLIPS` in `main.rs`.
    FineCapMax,
    /// A mistake: see `SLIPS` in `main.rs`.
    RenewWindowSwapped,
    /// A mistake: see `SLIPS` in `main.rs`.
    HoldShelfTaken,
    /// A mistake: see `SLIPS` in `main.rs`.
    CardsAllLoans,
    /// A mistake: see `SLIPS` in `main.rs`.
    WeekLateDays,
    /// A mistake: see `SLIPS` in `main.rs`.
    StatusDueOutDay,
    /// A mistake: see `SLIPS` in `main.rs`.
    OverdueFilterInverted,
    /// A mistake: see `SLIPS` in `main.rs`.
    RegionalMostCopies,
    /// A mistake: see `SLIPS` in `main.rs`.
    RemindersReadInFuture,
}

/// The lending desk, as an agent sees it.
#[expose]
pub struct LibraryDesk {
    /// The desk's model and update: its messages are what an agent may send.
    #[expose(messages)]
    pub desk: Mvu<Desk, Msg>,
    /// Today.
    #[expose]
    #[node]
    pub today: Memo<String>,
    /// The loans out, one row per copy, each with its status line.
    #[expose]
    #[node]
    pub loans: Loans,
    /// The loans past their due day.
    #[expose]
    #[node]
    pub overdue: Memo<Vec<String>>,
    /// The loans by due day.
    #[expose]
    #[node]
    pub due_list: Memo<Vec<String>>,
    /// How many loans out were renewed.
    #[expose]
    #[node]
    pub renewed: Memo<usize>,
    /// Who waits for what, title by title, first in line first.
    #[expose]
    #[node]
    pub holds: Memo<Vec<String>>,
    /// The copies on the hold shelves, and whom they are kept for.
    #[expose]
    #[node]
    pub hold_shelf: Memo<Vec<String>>,
    /// What members owe.
    #[expose]
    #[node]
    pub balances: Memo<Vec<String>>,
    /// Each member's card: loans, holds, what they owe.
    #[expose]
    #[node]
    pub cards: Memo<Vec<String>>,
    /// The reading room's seats.
    #[expose]
    #[node]
    pub seats: Memo<Vec<String>>,
    /// The week's figures.
    #[expose]
    #[node]
    pub week: Memo<Vec<String>>,
    /// What the desk told its members.
    #[expose]
    #[node]
    pub notices: Memo<Vec<String>>,
    /// Where to borrow the titles short of copies (the regional catalogue).
    #[expose]
    #[node]
    pub regional: AsyncMemo<Vec<String>>,
    /// The reminders sent for late loans (the reminder service).
    #[expose]
    #[node]
    pub reminders: AsyncMemo<Vec<String>>,
}

/// The desk's rules, in the version `slip` names.
fn rules(slip: Slip) -> Rules {
    Rules {
        lend: if slip == Slip::LoanLimitOffByOne {
            update::slipped::lend
        } else {
            update::lend
        },
        give_back: if slip == Slip::ReturnHoldNotFilled {
            update::slipped::give_back
        } else {
            update::give_back
        },
        may_take: if slip == Slip::HoldShelfTaken {
            policy::slipped::may_take
        } else {
            policy::may_take
        },
        renewal: if slip == Slip::RenewWindowSwapped {
            policy::slipped::renewal
        } else {
            policy::renewal
        },
        fine_for: if slip == Slip::FineCapMax {
            fines::slipped::fine_for
        } else {
            fines::fine_for
        },
    }
}

/// Builds the desk's graph, in the version `slip` names.
#[node]
pub fn library_desk(slip: Slip) -> LibraryDesk {
    let rules = rules(slip);
    let opened = if slip == Slip::BlockAtEuros {
        model::slipped::opening_desk()
    } else {
        Desk::default()
    };
    let desk = Mvu::with_commands((opened, update::opening()), move |msg, desk: &Desk| {
        update::update(&rules, msg, desk)
    });
    let today = desk.select(|desk| day_label(desk.today));
    let lines = desk.select(Desk::loan_lines);
    type LoanRow = fn(
        &Row<String, model::LoanLine>,
        fn(model::Tier, u32) -> Cents,
    ) -> (&'static str, Memo<String>);
    let loan_row: LoanRow = if slip == Slip::StatusDueOutDay {
        shelf::slipped::loan_row
    } else {
        shelf::loan_row
    };
    let fine_for = rules.fine_for;
    let loans: Loans = Collection::keyed(
        lines.clone(),
        |line: &model::LoanLine| line.barcode.clone(),
        move |row| loan_row(row, fine_for),
    );
    let late = if slip == Slip::OverdueFilterInverted {
        shelf::slipped::overdue(&loans)
    } else {
        shelf::overdue(&loans)
    };
    let overdue = shelf::overdue_lines(late.keys(), lines.clone());
    let due_order = loans.sort_by(|line| line.due);
    let due_list = shelf::due_lines(due_order, lines.clone());
    let renewed = loans.count_by(|line| line.renewals > 0);
    let holds = desk.select(hold_queues);
    let hold_shelf = desk.select(|desk| {
        desk.copies
            .iter()
            .filter_map(|copy| match &copy.status {
                Where::HoldShelf { member } => Some(format!(
                    "{} {} for {member} at {}",
                    copy.barcode,
                    desk.title_name(copy.title),
                    copy.branch
                )),
                _ => None,
            })
            .collect::<Vec<_>>()
    });
    let balances = desk.select(|desk| {
        desk.members
            .iter()
            .filter(|m| m.owed > 0)
            .map(|m| format!("{}: {}", m.name, money(m.owed)))
            .collect::<Vec<_>>()
    });
    let cards = desk.select(if slip == Slip::CardsAllLoans {
        slipped::cards
    } else {
        cards
    });
    let seats = desk.select(|desk| {
        desk.seats
            .iter()
            .enumerate()
            .map(|(at, seat)| match seat {
                Some(member) => format!("seat {}: {member}", at + 1),
                None => format!("seat {}: free", at + 1),
            })
            .collect::<Vec<_>>()
    });
    let week = desk.select(if slip == Slip::WeekLateDays {
        slipped::week
    } else {
        week
    });
    let notices = desk.select(|desk| desk.notices.clone());
    let short = desk.select(services::short_titles);
    let regional = if slip == Slip::RegionalMostCopies {
        services::slipped::regional(&short)
    } else {
        services::regional(&short)
    };
    let reminders = if slip == Slip::RemindersReadInFuture {
        services::slipped::reminders(&lines)
    } else {
        services::reminders(&lines)
    };
    LibraryDesk {
        desk,
        today,
        loans,
        overdue,
        due_list,
        renewed,
        holds,
        hold_shelf,
        balances,
        cards,
        seats,
        week,
        notices,
        regional,
        reminders,
    }
}

/// Who waits for each title, first in line first: `<title>: <member> at <branch>, ...`.
fn hold_queues(desk: &Desk) -> Vec<String> {
    let mut queues: Vec<(u32, Vec<String>)> = Vec::new();
    for hold in &desk.holds {
        let who = format!("{} at {}", hold.member, hold.pickup);
        match queues.iter_mut().find(|(title, _)| *title == hold.title) {
            Some((_, queue)) => queue.push(who),
            None => queues.push((hold.title, vec![who])),
        }
    }
    queues
        .into_iter()
        .map(|(title, queue)| format!("{}: {}", desk.title_name(title), queue.join(", ")))
        .collect()
}

/// Each member's card, in the order they joined: loans out of the card's limit, the next due day, holds, and what
/// they owe (blocked when it is too much).
fn cards(desk: &Desk) -> Vec<String> {
    let mut cards = Vec::with_capacity(desk.members.len());
    for member in &desk.members {
        let mine: Vec<&Loan> = desk
            .loans
            .iter()
            .filter(|loan| loan.member == member.name)
            .collect();
        let waiting = desk
            .holds
            .iter()
            .filter(|h| h.member == member.name)
            .count();
        let limit = member.tier.max_loans();
        let mut card = format!(
            "{} ({}): {} of {limit} loans",
            member.name,
            member.tier,
            mine.len()
        );
        if let Some(due) = mine.iter().map(|loan| loan.due).min() {
            card += &format!(", next due {}", day_label(due));
        }
        if waiting > 0 {
            card += &format!(", {waiting} on hold");
        }
        if member.owed >= desk.block_at {
            card += &format!(", blocked: owes {}", money(member.owed));
        } else if member.owed > 0 {
            card += &format!(", owes {}", money(member.owed));
        }
        cards.push(card);
    }
    cards
}

/// The figures of a week so far.
#[derive(Default)]
struct WeekFigures {
    lent: u32,
    returned: u32,
    late: u32,
    fined: Cents,
}

/// The week's figures, from its Monday to today: loans, returns (and how many late), fines charged, the busiest
/// branch, the van's transfers so far and the reading room now.
fn week(desk: &Desk) -> Vec<String> {
    let start = desk.today - desk.today % 7;
    let mut figures = WeekFigures::default();
    let mut by_branch: BTreeMap<Branch, u32> = BTreeMap::new();
    for loan in desk.loans.iter().filter(|loan| loan.out >= start) {
        figures.lent += 1;
        if let Some(copy) = desk.copy(&loan.barcode) {
            *by_branch.entry(copy.branch).or_default() += 1;
        }
    }
    for back in &desk.returned {
        if back.out >= start {
            figures.lent += 1;
            *by_branch.entry(back.branch).or_default() += 1;
        }
        if back.back < start {
            continue;
        }
        figures.returned += 1;
        if back.days_late > 0 {
            figures.late += 1;
        }
        figures.fined += back.fine;
    }
    let busiest = by_branch.iter().max_by_key(|(_, lent)| **lent).map_or_else(
        || "none".to_owned(),
        |(branch, lent)| format!("{branch} ({lent} lent)"),
    );
    let seated = desk.seats.iter().flatten().count();
    vec![
        format!("week {} from {}", start / 7 + 1, day_label(start)),
        format!(
            "lent {}, returned {} ({} late)",
            figures.lent, figures.returned, figures.late
        ),
        format!("fines charged {}", money(figures.fined)),
        format!("busiest branch: {busiest}"),
        format!("transfers so far: {}", desk.transfers),
        format!("reading room: {seated} of {SEATS} seats taken"),
    ]
}

/// Other versions of this file's code, chosen by `Slip`.
pub mod slipped {
    use super::super::model::{Branch, Desk, Loan, SEATS, day_label, money};
    use super::WeekFigures;
    use std::collections::BTreeMap;

    /// Each member's card, in the order they joined: loans out of the card's limit, the next due day, holds, and
    /// what they owe (blocked when it is too much).
    pub fn cards(desk: &Desk) -> Vec<String> {
        let mut cards = Vec::with_capacity(desk.members.len());
        for member in &desk.members {
            let mine: Vec<&Loan> = desk
                .loans
                .iter()
                .filter(|loan| loan.member == member.name)
                .collect();
            let waiting = desk
                .holds
                .iter()
                .filter(|h| h.member == member.name)
                .count();
            let limit = member.tier.max_loans();
            let mut card = format!(
                "{} ({}): {} of {limit} loans",
                member.name,
                member.tier,
                // BUG(cards_all_loans)
                desk.loans.len()
            );
            if let Some(due) = mine.iter().map(|loan| loan.due).min() {
                card += &format!(", next due {}", day_label(due));
            }
            if waiting > 0 {
                card += &format!(", {waiting} on hold");
            }
            if member.owed >= desk.block_at {
                card += &format!(", blocked: owes {}", money(member.owed));
            } else if member.owed > 0 {
                card += &format!(", owes {}", money(member.owed));
            }
            cards.push(card);
        }
        cards
    }

    /// The week's figures, from its Monday to today: loans, returns (and how many late), fines charged, the busiest
    /// branch, the van's transfers so far and the reading room now.
    pub fn week(desk: &Desk) -> Vec<String> {
        let start = desk.today - desk.today % 7;
        let mut figures = WeekFigures::default();
        let mut by_branch: BTreeMap<Branch, u32> = BTreeMap::new();
        for loan in desk.loans.iter().filter(|loan| loan.out >= start) {
            figures.lent += 1;
            if let Some(copy) = desk.copy(&loan.barcode) {
                *by_branch.entry(copy.branch).or_default() += 1;
            }
        }
        for back in &desk.returned {
            if back.out >= start {
                figures.lent += 1;
                *by_branch.entry(back.branch).or_default() += 1;
            }
            if back.back < start {
                continue;
            }
            figures.returned += 1;
            if back.days_late > 0 {
                // BUG(week_late_days)
                figures.late += back.days_late;
            }
            figures.fined += back.fine;
        }
        let busiest = by_branch.iter().max_by_key(|(_, lent)| **lent).map_or_else(
            || "none".to_owned(),
            |(branch, lent)| format!("{branch} ({lent} lent)"),
        );
        let seated = desk.seats.iter().flatten().count();
        vec![
            format!("week {} from {}", start / 7 + 1, day_label(start)),
            format!(
                "lent {}, returned {} ({} late)",
                figures.lent, figures.returned, figures.late
            ),
            format!("fines charged {}", money(figures.fined)),
            format!("busiest branch: {busiest}"),
            format!("transfers so far: {}", desk.transfers),
            format!("reading room: {seated} of {SEATS} seats taken"),
        ]
    }
}
