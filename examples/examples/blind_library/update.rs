//! The desk's `update`: one arm per message, the two lending helpers, and the commands an arm sends (a returned copy
//! goes to whoever waits for its title, a copy off the van to the hold shelf).

use super::model::{Branch, Cents, Copy, Day, Desk, Hold, Loan, Msg, Returned, Tier, Where, money};
use super::policy::{self, limits};

/// The rules and helpers `update` calls, chosen when the desk opens.
#[derive(Clone, Copy)]
pub struct Rules {
    /// Lends a copy to a member.
    pub lend: fn(&Rules, &mut Desk, &str, &str),
    /// Takes a copy back; returns the commands it sends.
    pub give_back: fn(&Rules, &mut Desk, &str) -> Vec<Msg>,
    /// Whether a member may take a copy.
    pub may_take: fn(&Where, &str) -> Result<(), String>,
    /// A loan's new due day, renewed.
    pub renewal: fn(&Loan, Tier, Day, usize) -> Result<Day, String>,
    /// The fine for a loan so many days late.
    pub fine_for: fn(Tier, u32) -> Cents,
}

/// What the desk sends when it opens: its catalogue and its copies.
pub fn opening() -> Vec<Msg> {
    let titles = [
        (1, "Dune"),
        (2, "Emma"),
        (3, "Ulysses"),
        (4, "Matilda"),
        (5, "Beloved"),
    ];
    let copies = [
        ("C101", 1, Branch::Central),
        ("C102", 2, Branch::Central),
        ("C103", 4, Branch::Central),
        ("C104", 5, Branch::Central),
        ("H201", 1, Branch::Harbour),
        ("H202", 3, Branch::Harbour),
        ("N301", 4, Branch::Northside),
        ("N302", 2, Branch::Northside),
    ];
    let mut opening: Vec<Msg> = titles
        .into_iter()
        .map(|(title, name)| Msg::Catalogue {
            title,
            name: name.to_owned(),
        })
        .collect();
    opening.extend(
        copies
            .into_iter()
            .map(|(barcode, title, branch)| Msg::Shelve {
                barcode: barcode.to_owned(),
                title,
                branch,
            }),
    );
    opening
}

/// The desk after `msg`, and the messages to send next.
pub fn update(rules: &Rules, msg: Msg, desk: &Desk) -> (Desk, Vec<Msg>) {
    let mut next = desk.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Catalogue { title, name } => {
            if next.titles.iter().all(|t| t.id != title) {
                next.titles.push(super::model::Title { id: title, name });
            }
        }
        Msg::Shelve {
            barcode,
            title,
            branch,
        } => next.copies.push(Copy {
            barcode,
            title,
            branch,
            status: Where::Shelf,
        }),
        Msg::Join { member, tier } => match next.member(&member) {
            Some(_) => next.notice(format!("{member} is already a member")),
            None => next.members.push(super::model::Member {
                name: member,
                tier,
                owed: 0,
            }),
        },
        Msg::Borrow { member, barcode } => (rules.lend)(rules, &mut next, &member, &barcode),
        Msg::Return { barcode } => commands = (rules.give_back)(rules, &mut next, &barcode),
        Msg::Renew { barcode } => renew(rules, &mut next, &barcode),
        Msg::PlaceHold {
            member,
            title,
            pickup,
        } => {
            let hold = Hold {
                title,
                member,
                pickup,
                placed: next.today,
            };
            if next.member(&hold.member).is_none() {
                next.notice(format!("{} is not a member", hold.member));
            } else if !next.holds.contains(&hold) {
                next.holds.push(hold);
            }
        }
        Msg::FillHold { barcode } => fill_hold(&mut next, &barcode),
        Msg::Transfer { barcode, to } => {
            let arrives = next.today + limits::TRANSIT_DAYS;
            if let Some(copy) = next.copies.iter_mut().find(|c| c.barcode == barcode) {
                copy.status = Where::Transit { to, arrives };
                next.transfers += 1;
            }
        }
        Msg::Arrived { barcode } => {
            let Some(copy) = next.copies.iter_mut().find(|c| c.barcode == barcode) else {
                return (next, commands);
            };
            if let Where::Transit { to, .. } = copy.status {
                copy.branch = to;
                copy.status = Where::Shelf;
                let (title, branch) = (copy.title, copy.branch);
                if policy::first_hold(&next.holds, title).is_some_and(|h| h.pickup == branch) {
                    commands.push(Msg::FillHold { barcode });
                }
            }
        }
        Msg::Pay { member, cents } => {
            if let Some(m) = next.members.iter_mut().find(|m| m.name == member) {
                m.owed -= cents.min(m.owed);
            }
        }
        Msg::TakeSeat { member } => {
            if next.seats.iter().flatten().any(|m| *m == member) {
                next.notice(format!("{member} already has a seat"));
            } else if let Some(seat) = next.seats.iter_mut().find(|s| s.is_none()) {
                *seat = Some(member);
            } else {
                next.notice(format!("the reading room is full: {member} waits"));
            }
        }
        Msg::LeaveSeat { member } => {
            for seat in &mut next.seats {
                if seat.as_deref() == Some(member.as_str()) {
                    *seat = None;
                }
            }
        }
        Msg::Advance { days } => {
            next.today += days;
            let today = next.today;
            commands.extend(
                next.copies
                    .iter()
                    .filter(
                        |c| matches!(c.status, Where::Transit { arrives, .. } if arrives <= today),
                    )
                    .map(|c| Msg::Arrived {
                        barcode: c.barcode.clone(),
                    }),
            );
        }
    }
    (next, commands)
}

/// Lends the copy `barcode` to `member`, unless the copy is not theirs to take, they owe too much, or their card
/// has as many loans out as it allows (the desk says why).
pub fn lend(rules: &Rules, desk: &mut Desk, member: &str, barcode: &str) {
    let Some(who) = desk.member(member).cloned() else {
        desk.notice(format!("{member} is not a member"));
        return;
    };
    let Some(at) = desk.copies.iter().position(|c| c.barcode == barcode) else {
        desk.notice(format!("no copy {barcode}"));
        return;
    };
    if let Err(why) = (rules.may_take)(&desk.copies[at].status, member) {
        desk.notice(format!("{barcode} cannot go to {member}: {why}"));
        return;
    }
    if who.owed >= desk.block_at {
        desk.notice(format!("{member} owes {}: pay first", money(who.owed)));
        return;
    }
    let out = desk.loans.iter().filter(|l| l.member == member).count() as u32;
    if out >= who.tier.max_loans() {
        desk.notice(format!(
            "{member} has {out} loans, all a {} card allows",
            who.tier
        ));
        return;
    }
    let copy = &mut desk.copies[at];
    copy.status = Where::Loan;
    let loan = Loan {
        barcode: barcode.to_owned(),
        title: copy.title,
        member: member.to_owned(),
        out: desk.today,
        due: desk.today + who.tier.loan_days(),
        renewals: 0,
    };
    desk.loans.push(loan);
}

/// Takes the copy `barcode` back: fines its borrower if it is late, and sends it to the first member waiting for its
/// title (to the hold shelf here, or on the van to their branch).
pub fn give_back(rules: &Rules, desk: &mut Desk, barcode: &str) -> Vec<Msg> {
    let mut commands = Vec::new();
    let Some(at) = desk.loans.iter().position(|l| l.barcode == barcode) else {
        desk.notice(format!("{barcode} is not out on loan"));
        return commands;
    };
    let loan = desk.loans.remove(at);
    let tier = desk.member(&loan.member).map_or(Tier::Adult, |m| m.tier);
    let days_late = desk.today.saturating_sub(loan.due);
    let fine = (rules.fine_for)(tier, days_late);
    if fine > 0 {
        if let Some(m) = desk.members.iter_mut().find(|m| m.name == loan.member) {
            m.owed += fine;
        }
        desk.notice(format!(
            "{}: {barcode} came back {days_late} days late, fined {}",
            loan.member,
            money(fine)
        ));
    }
    let Some(copy) = desk.copies.iter_mut().find(|c| c.barcode == barcode) else {
        return commands;
    };
    copy.status = Where::Shelf;
    let branch = copy.branch;
    desk.returned.push(Returned {
        barcode: barcode.to_owned(),
        branch,
        member: loan.member,
        out: loan.out,
        back: desk.today,
        days_late,
        fine,
    });
    if let Some(hold) = policy::first_hold(&desk.holds, loan.title) {
        if hold.pickup == branch {
            commands.push(Msg::FillHold {
                barcode: barcode.to_owned(),
            });
        } else {
            commands.push(Msg::Transfer {
                barcode: barcode.to_owned(),
                to: hold.pickup,
            });
        }
    }
    commands
}

/// Renews the loan of `barcode` if the rules allow it (the desk says why not).
fn renew(rules: &Rules, desk: &mut Desk, barcode: &str) {
    let Some(loan) = desk.loans.iter().find(|l| l.barcode == barcode) else {
        desk.notice(format!("{barcode} is not out on loan"));
        return;
    };
    let tier = desk.member(&loan.member).map_or(Tier::Adult, |m| m.tier);
    let (waiting, _) = policy::waiting_for(&desk.holds, loan.title);
    match (rules.renewal)(loan, tier, desk.today, waiting) {
        Ok(due) => {
            if let Some(loan) = desk.loans.iter_mut().find(|l| l.barcode == barcode) {
                loan.due = due;
                loan.renewals += 1;
            }
        }
        Err(why) => desk.notice(format!("{barcode} not renewed: {why}")),
    }
}

/// Puts the copy `barcode` on the hold shelf for the first member waiting for its title at its branch.
fn fill_hold(desk: &mut Desk, barcode: &str) {
    let Some(copy) = desk.copy(barcode) else {
        return;
    };
    if copy.status != Where::Shelf {
        return;
    }
    let (title, branch) = (copy.title, copy.branch);
    let Some(at) = desk
        .holds
        .iter()
        .position(|h| h.title == title && h.pickup == branch)
    else {
        return;
    };
    let hold = desk.holds.remove(at);
    let name = desk.title_name(title);
    if let Some(copy) = desk.copies.iter_mut().find(|c| c.barcode == barcode) {
        copy.status = Where::HoldShelf {
            member: hold.member.clone(),
        };
    }
    desk.notice(format!(
        "{}: {name} is waiting for you at {branch}",
        hold.member
    ));
}

/// Other versions of this file's code, chosen by `graph::Slip`.
pub mod slipped {
    use super::super::model::{Desk, Loan, Msg, Returned, Tier, Where, money};
    use super::super::policy;
    use super::Rules;

    /// Lends the copy `barcode` to `member`, unless the copy is not theirs to take, they owe too much, or their card
    /// has as many loans out as it allows (the desk says why).
    pub fn lend(rules: &Rules, desk: &mut Desk, member: &str, barcode: &str) {
        let Some(who) = desk.member(member).cloned() else {
            desk.notice(format!("{member} is not a member"));
            return;
        };
        let Some(at) = desk.copies.iter().position(|c| c.barcode == barcode) else {
            desk.notice(format!("no copy {barcode}"));
            return;
        };
        if let Err(why) = (rules.may_take)(&desk.copies[at].status, member) {
            desk.notice(format!("{barcode} cannot go to {member}: {why}"));
            return;
        }
        if who.owed >= desk.block_at {
            desk.notice(format!("{member} owes {}: pay first", money(who.owed)));
            return;
        }
        let out = desk.loans.iter().filter(|l| l.member == member).count() as u32;
        // BUG(loan_limit_off_by_one)
        if out > who.tier.max_loans() {
            desk.notice(format!(
                "{member} has {out} loans, all a {} card allows",
                who.tier
            ));
            return;
        }
        let copy = &mut desk.copies[at];
        copy.status = Where::Loan;
        let loan = Loan {
            barcode: barcode.to_owned(),
            title: copy.title,
            member: member.to_owned(),
            out: desk.today,
            due: desk.today + who.tier.loan_days(),
            renewals: 0,
        };
        desk.loans.push(loan);
    }

    /// Takes the copy `barcode` back: fines its borrower if it is late, and sends it to the first member waiting for
    /// its title (to the hold shelf here, or on the van to their branch).
    pub fn give_back(rules: &Rules, desk: &mut Desk, barcode: &str) -> Vec<Msg> {
        let mut commands = Vec::new();
        let Some(at) = desk.loans.iter().position(|l| l.barcode == barcode) else {
            desk.notice(format!("{barcode} is not out on loan"));
            return commands;
        };
        let loan = desk.loans.remove(at);
        let tier = desk.member(&loan.member).map_or(Tier::Adult, |m| m.tier);
        let days_late = desk.today.saturating_sub(loan.due);
        let fine = (rules.fine_for)(tier, days_late);
        if fine > 0 {
            if let Some(m) = desk.members.iter_mut().find(|m| m.name == loan.member) {
                m.owed += fine;
            }
            desk.notice(format!(
                "{}: {barcode} came back {days_late} days late, fined {}",
                loan.member,
                money(fine)
            ));
        }
        let Some(copy) = desk.copies.iter_mut().find(|c| c.barcode == barcode) else {
            return commands;
        };
        copy.status = Where::Shelf;
        let branch = copy.branch;
        desk.returned.push(Returned {
            barcode: barcode.to_owned(),
            branch,
            member: loan.member,
            out: loan.out,
            back: desk.today,
            days_late,
            fine,
        });
        if let Some(hold) = policy::first_hold(&desk.holds, loan.title) {
            // BUG(return_hold_not_filled)
            if hold.pickup != branch {
                commands.push(Msg::Transfer {
                    barcode: barcode.to_owned(),
                    to: hold.pickup,
                });
            }
        }
        commands
    }
}
