//! What the pool learns over the network, as async memos: the card takings each till settled with the terminal
//! provider, and the concession tickets whose leisure card the registry does not vouch for.

use super::model::{Sale, Ticket, pounds};
use super::remote::{Registry, Terminal};
use ranvier::{AsyncMemo, Memo};
use std::collections::BTreeSet;
use std::rc::Rc;

fn payments(n: usize) -> String {
    if n == 1 {
        "1 card payment".to_owned()
    } else {
        format!("{n} card payments")
    }
}

/// Each till's card payments, as the terminal provider settles them.
pub fn card_takings(sales: &Memo<Vec<Sale>>, terminal: Rc<Terminal>) -> AsyncMemo<Vec<String>> {
    let sales = sales.clone();
    AsyncMemo::new(move |_| {
        let sales = sales.get();
        let card: Vec<Sale> = sales.iter().filter(|sale| sale.card).cloned().collect();
        let tills: BTreeSet<u8> = card.iter().map(|sale| sale.till).collect();
        let terminal = terminal.clone();
        async move {
            let mut lines = Vec::new();
            for till in tills {
                let taken: Vec<u32> = card
                    .iter()
                    .filter(|sale| sale.till == till)
                    .map(|sale| sale.pence)
                    .collect();
                match terminal.settle(till, taken).await {
                    Ok(settled) => lines.push(format!(
                        "till {till}: {}, {} less {} fees",
                        payments(settled.payments),
                        pounds(settled.gross),
                        pounds(settled.fees)
                    )),
                    Err(why) => lines.push(format!("till {till}: not settled, {why}")),
                }
            }
            lines
        }
    })
}

/// The concession tickets sold on a card the registry does not vouch for today.
pub fn concession_checks(
    tickets: &Memo<Vec<Ticket>>,
    today: &Memo<u32>,
    registry: Rc<Registry>,
) -> AsyncMemo<Vec<String>> {
    let (tickets, today) = (tickets.clone(), today.clone());
    AsyncMemo::new(move |_| {
        let today = today.get();
        let concessions: Vec<Ticket> = tickets.with(|tickets| {
            tickets
                .iter()
                .filter(|ticket| ticket.kind.is_concession())
                .cloned()
                .collect()
        });
        let registry = registry.clone();
        async move {
            let mut doubts = Vec::new();
            for ticket in &concessions {
                let card = ticket.card.clone().unwrap_or_default();
                let found = registry.lookup(&card).await;
                let checked = found.and_then(|holder| holder.check(ticket.kind, today));
                if let Err(why) = checked {
                    let (no, who) = (ticket.no, &ticket.who);
                    doubts.push(format!(
                        "ticket {no} ({who}, {}): {why}",
                        ticket.kind.name()
                    ));
                }
            }
            if doubts.is_empty() {
                doubts.push(format!(
                    "{} concession tickets, every card good",
                    concessions.len()
                ));
            }
            doubts
        }
    })
}

/// Copies of the services' memos with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Sale, Ticket, pounds};
    use super::super::remote::{Registry, Terminal};
    use super::payments;
    use ranvier::{AsyncMemo, Memo};
    use std::collections::BTreeSet;
    use std::rc::Rc;

    /// [`super::card_takings`].
    pub fn card_takings(sales: &Memo<Vec<Sale>>, terminal: Rc<Terminal>) -> AsyncMemo<Vec<String>> {
        let sales = sales.clone();
        AsyncMemo::new(move |_| {
            let sales = sales.get();
            let card: Vec<Sale> = sales.iter().filter(|sale| sale.card).cloned().collect();
            let tills: BTreeSet<u8> = card.iter().map(|sale| sale.till).collect();
            let terminal = terminal.clone();
            async move {
                let mut lines = Vec::new();
                for till in tills {
                    // BUG(card_payments)
                    let taken: Vec<u32> = sales
                        .iter()
                        .filter(|sale| sale.till == till)
                        .map(|sale| sale.pence)
                        .collect();
                    match terminal.settle(till, taken).await {
                        Ok(settled) => lines.push(format!(
                            "till {till}: {}, {} less {} fees",
                            payments(settled.payments),
                            pounds(settled.gross),
                            pounds(settled.fees)
                        )),
                        Err(why) => lines.push(format!("till {till}: not settled, {why}")),
                    }
                }
                lines
            }
        })
    }

    /// [`super::concession_checks`].
    pub fn concession_checks(
        tickets: &Memo<Vec<Ticket>>,
        today: &Memo<u32>,
        registry: Rc<Registry>,
    ) -> AsyncMemo<Vec<String>> {
        let (tickets, today) = (tickets.clone(), today.clone());
        AsyncMemo::new(move |_| {
            let today = today.get();
            let concessions: Vec<Ticket> = tickets.with(|tickets| {
                tickets
                    .iter()
                    .filter(|ticket| ticket.kind.is_concession())
                    .cloned()
                    .collect()
            });
            let registry = registry.clone();
            async move {
                let mut doubts = Vec::new();
                for ticket in &concessions {
                    let card = ticket.card.clone().unwrap_or_default();
                    let found = registry.lookup(&card).await;
                    // BUG(unlisted_card)
                    let checked = found.map_or(Ok(()), |holder| holder.check(ticket.kind, today));
                    if let Err(why) = checked {
                        let (no, who) = (ticket.no, &ticket.who);
                        doubts.push(format!(
                            "ticket {no} ({who}, {}): {why}",
                            ticket.kind.name()
                        ));
                    }
                }
                if doubts.is_empty() {
                    doubts.push(format!(
                        "{} concession tickets, every card good",
                        concessions.len()
                    ));
                }
                doubts
            }
        })
    }
}
