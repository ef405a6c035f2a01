//! The desk's `update`: what each message does to the desk, and the notices a return sends on (as commands).

use super::model::{Book, Desk, Hold, LOAN_DAYS, Loan, Member, Msg};
use super::rules;

/// The next desk, and the messages to send after it (the notices of a return).
#[ranvier::trace_fn]
pub fn update(msg: Msg, desk: &Desk) -> (Desk, Vec<Msg>) {
    let mut next = desk.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::AddBook {
            isbn,
            title,
            copies,
        } => match next.books.iter_mut().find(|b| b.isbn == isbn) {
            Some(book) => book.copies += copies,
            None => next.books.push(Book {
                isbn,
                title,
                copies,
            }),
        },
        Msg::Join { card, kind } => {
            if next.member(&card).is_none() {
                next.members.push(Member {
                    card,
                    kind,
                    paid: 0,
                });
            }
        }
        Msg::Lend { card, isbn } => lend(&mut next, card, isbn),
        Msg::Return { loan } => commands = give_back(&mut next, loan),
        Msg::Renew { loan } => renew(&mut next, loan, rules::can_renew),
        Msg::Advance { days } => next.today += days,
        Msg::Pay { card, cents } => {
            if let Some(member) = next.members.iter_mut().find(|m| m.card == card) {
                member.paid += cents;
            }
        }
        Msg::SetRate { cents } => next.fine_per_day = cents,
        Msg::Notify { card, text } => next.notices.push(format!("{card}: {text}")),
    }
    (next, commands)
}

/// Lends `isbn` to `card` if a copy is on the shelf, or puts `card` on hold for it.
#[ranvier::trace_fn]
fn lend(desk: &mut Desk, card: String, isbn: String) {
    let Some(book) = desk.book(&isbn) else {
        return;
    };
    if !rules::may_borrow(desk, &card) {
        desk.notices.push(format!("{card}: loan limit reached"));
        return;
    }
    if desk.out(&isbn) >= book.copies {
        desk.holds.push(Hold { card, isbn });
        return;
    }
    desk.loans.push(Loan {
        id: desk.next_loan,
        isbn,
        card,
        out_day: desk.today,
        due_day: desk.today + LOAN_DAYS,
        renewals: 0,
        returned: None,
    });
    desk.next_loan += 1;
}

/// Takes loan `id` back today: a late return tells the borrower, and the first member holding the book is told it
/// is ready for pickup.
#[ranvier::trace_fn]
fn give_back(desk: &mut Desk, id: u32) -> Vec<Msg> {
    let today = desk.today;
    let Some(loan) = desk
        .loans
        .iter_mut()
        .find(|l| l.id == id && l.returned.is_none())
    else {
        return Vec::new();
    };
    loan.returned = Some(today);
    let (isbn, card, late) = (loan.isbn.clone(), loan.card.clone(), today > loan.due_day);
    let title = desk.title(&isbn);
    let mut commands = Vec::new();
    if late {
        let text = format!("returned late: {title}");
        commands.push(Msg::Notify { card, text });
    }
    if let Some(at) = desk.holds.iter().position(|h| h.isbn == isbn) {
        let hold = desk.holds.remove(at);
        let text = format!("ready for pickup: {title}");
        commands.push(Msg::Notify {
            card: hold.card,
            text,
        });
    }
    commands
}

/// Renews loan `id` by a loan period when `allowed` says it may be; tells the borrower when it may not.
#[ranvier::trace_fn]
fn renew(desk: &mut Desk, id: u32, allowed: fn(&Desk, &Loan) -> bool) {
    let Some(at) = desk.loans.iter().position(|l| l.id == id) else {
        return;
    };
    if !allowed(desk, &desk.loans[at]) {
        let card = desk.loans[at].card.clone();
        desk.notices.push(format!("{card}: renewal refused"));
        return;
    }
    let loan = &mut desk.loans[at];
    loan.renewals += 1;
    loan.due_day += LOAN_DAYS;
}

/// `update` as first written: each takes one message its own way and hands the rest to [`update`].
pub mod slipped {
    use super::super::model::{Desk, Msg};
    use super::super::rules;
    use super::{renew, update};

    /// `update`, with the first `Return`.
    #[ranvier::trace_fn]
    pub fn update_return_day(msg: Msg, desk: &Desk) -> (Desk, Vec<Msg>) {
        match msg {
            Msg::Return { loan } => {
                let mut next = desk.clone();
                let commands = give_back_on_due_day(&mut next, loan);
                (next, commands)
            }
            other => update(other, desk),
        }
    }

    #[ranvier::trace_fn]
    fn give_back_on_due_day(desk: &mut Desk, id: u32) -> Vec<Msg> {
        let today = desk.today;
        let Some(loan) = desk
            .loans
            .iter_mut()
            .find(|l| l.id == id && l.returned.is_none())
        else {
            return Vec::new();
        };
        // BUG(return_day)
        loan.returned = Some(loan.due_day);
        let (isbn, card, late) = (loan.isbn.clone(), loan.card.clone(), today > loan.due_day);
        let title = desk.title(&isbn);
        let mut commands = Vec::new();
        if late {
            let text = format!("returned late: {title}");
            commands.push(Msg::Notify { card, text });
        }
        if let Some(at) = desk.holds.iter().position(|h| h.isbn == isbn) {
            let hold = desk.holds.remove(at);
            let text = format!("ready for pickup: {title}");
            commands.push(Msg::Notify {
                card: hold.card,
                text,
            });
        }
        commands
    }

    /// `update`, with the first notices of a return.
    #[ranvier::trace_fn]
    pub fn update_pickup(msg: Msg, desk: &Desk) -> (Desk, Vec<Msg>) {
        match msg {
            Msg::Return { loan } => {
                let mut next = desk.clone();
                let commands = give_back_one_notice(&mut next, loan);
                (next, commands)
            }
            other => update(other, desk),
        }
    }

    #[ranvier::trace_fn]
    fn give_back_one_notice(desk: &mut Desk, id: u32) -> Vec<Msg> {
        let today = desk.today;
        let Some(loan) = desk
            .loans
            .iter_mut()
            .find(|l| l.id == id && l.returned.is_none())
        else {
            return Vec::new();
        };
        loan.returned = Some(today);
        let (isbn, card, late) = (loan.isbn.clone(), loan.card.clone(), today > loan.due_day);
        let title = desk.title(&isbn);
        let mut commands = Vec::new();
        if late {
            let text = format!("returned late: {title}");
            commands.push(Msg::Notify { card, text });
        // BUG(pickup_notice)
        } else if let Some(at) = desk.holds.iter().position(|h| h.isbn == isbn) {
            let hold = desk.holds.remove(at);
            let text = format!("ready for pickup: {title}");
            commands.push(Msg::Notify {
                card: hold.card,
                text,
            });
        }
        commands
    }

    /// `update`, with the first renewal rule.
    #[ranvier::trace_fn]
    pub fn update_renew_limit(msg: Msg, desk: &Desk) -> (Desk, Vec<Msg>) {
        match msg {
            Msg::Renew { loan } => {
                let mut next = desk.clone();
                renew(&mut next, loan, rules::slipped::can_renew);
                (next, Vec::new())
            }
            other => update(other, desk),
        }
    }
}
