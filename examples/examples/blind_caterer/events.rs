//! The events as a keyed collection: one row per booking reference, each with its balance due (the rest of the bill
//! of a confirmed event, once it falls due), and the views over them: the running order, the confirmed count, the
//! tastings booked, and the balance due over every event.

use super::menus;
use super::model::{Event, Status, Tasting, Terms, Tier};
use ranvier::collection::{Collection, Row};
use ranvier::{Memo, node};
use std::rc::Rc;

/// The events, keyed by reference, each with its balance due.
pub type Events = Collection<String, Event, (&'static str, Memo<u64>)>;

/// How a head is priced.
pub type PerHead = fn(Tier, u32) -> u64;

/// The row of one event: its balance due, in cents. The rest of a confirmed event's quote falls due
/// `terms.balance_days` before the day; before that, and for events not confirmed, nothing is due.
#[node]
pub fn event_row(
    row: &Row<String, Event>,
    terms: &Memo<Terms>,
    today: &Memo<u32>,
    per_head: PerHead,
) -> (&'static str, Memo<u64>) {
    let (row, terms, today) = (row.clone(), terms.clone(), today.clone());
    let balance = Memo::new(move |_| {
        let terms = terms.get();
        let today = today.get();
        row.with(|event| {
            if event.status != Status::Confirmed {
                return 0;
            }
            let days_left = event.day.saturating_sub(today);
            if days_left > terms.balance_days {
                return 0;
            }
            let quote = menus::event_quote(event, &terms, per_head);
            quote.saturating_sub(event.deposit_paid)
        })
    });
    ("balance", balance)
}

/// The references in the order the events come, soonest first.
#[node]
pub fn running_order(events: &Events) -> Memo<Rc<[String]>> {
    let running_order = events.sort_by(|event| event.day);
    running_order
}

/// How many events are confirmed.
#[node]
pub fn confirmed(events: &Events) -> Memo<usize> {
    let confirmed = events
        .filter(|event| event.status == Status::Confirmed)
        .count();
    confirmed
}

/// How many tastings are booked and not yet held.
#[node]
pub fn tastings_due(events: &Events) -> Memo<usize> {
    let tastings_due = events.count_by(|event| matches!(event.tasting, Tasting::Booked { .. }));
    tastings_due
}

/// The balance due over every event, in cents.
#[node]
pub fn balance_due(events: &Events) -> Memo<u64> {
    let events = events.clone();
    let balance_due =
        Memo::new(move |_| events.rows().iter().map(|(_, balance)| balance.get()).sum());
    balance_due
}

pub mod slipped {
    use super::{Event, Events, PerHead, Status, Terms, menus};
    use ranvier::collection::Row;
    use ranvier::{Memo, node};
    use std::rc::Rc;

    #[node]
    pub fn event_row(
        row: &Row<String, Event>,
        terms: &Memo<Terms>,
        today: &Memo<u32>,
        per_head: PerHead,
    ) -> (&'static str, Memo<u64>) {
        let (row, terms, today) = (row.clone(), terms.clone(), today.clone());
        let balance = Memo::new(move |_| {
            let terms = terms.get();
            let today = today.get();
            row.with(|event| {
                if event.status != Status::Confirmed {
                    return 0;
                }
                let days_left = event.day.saturating_sub(today);
                // BUG(balance_due_day)
                if days_left >= terms.balance_days {
                    return 0;
                }
                let quote = menus::event_quote(event, &terms, per_head);
                quote.saturating_sub(event.deposit_paid)
            })
        });
        ("balance", balance)
    }

    #[node]
    pub fn running_order(events: &Events) -> Memo<Rc<[String]>> {
        // BUG(running_order_key)
        let running_order = events.sort_by(|event| event.guests);
        running_order
    }
}
