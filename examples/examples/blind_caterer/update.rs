//! `update`: what each message does to the book, and the payment helper. A deposit payment that brings the deposit
//! up to what the quote needs sends `confirm` as a command.

use super::events::PerHead;
use super::menus;
use super::model::{Book, Dietary, Event, Msg, Payment, Shift, Status, Tasting};

/// The rules `update` prices and takes payments by.
#[derive(Clone, Copy)]
pub struct Policy {
    /// The price per head.
    pub per_head: PerHead,
    /// The deposit a quote needs, given the deposit percent.
    pub required_deposit: fn(u64, u32) -> u64,
    /// Takes a payment towards an event's deposit; false when the event takes none.
    pub take_payment: fn(&mut Event, u64) -> bool,
}

impl Policy {
    /// The house rules.
    pub const HOUSE: Policy = Policy {
        per_head: menus::per_head,
        required_deposit: menus::required_deposit,
        take_payment,
    };
}

/// Takes `amount` cents towards `event`'s deposit: a cancelled event takes nothing; an enquiry's date is held from
/// its first payment.
#[ranvier::trace_fn]
pub fn take_payment(event: &mut Event, amount: u64) -> bool {
    if event.status == Status::Cancelled {
        return false;
    }
    event.deposit_paid += amount;
    if event.status == Status::Enquiry {
        event.status = Status::Held;
    }
    true
}

/// The next book, and the messages to send after it. A message naming no event changes nothing.
#[ranvier::trace_fn]
pub fn update(msg: Msg, book: &Book, policy: &Policy) -> (Book, Vec<Msg>) {
    let mut next = book.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Enquire {
            id,
            client,
            day,
            guests,
            tier,
            outdoor,
        } => {
            let taken = next.events.iter().any(|event| event.id == id);
            if !taken && day >= next.today {
                next.events
                    .push(Event::enquiry(id, client, day, guests, tier, outdoor));
            }
        }
        Msg::SetGuests { id, guests } => {
            if let Some(event) = next.event_mut(&id) {
                event.guests = guests;
            }
        }
        Msg::SetDietary {
            id,
            vegetarian,
            vegan,
            gluten_free,
        } => {
            if let Some(event) = next.event_mut(&id) {
                event.dietary = Dietary {
                    vegetarian,
                    vegan,
                    gluten_free,
                };
            }
        }
        Msg::BookTasting { id, day } => {
            let today = next.today;
            if let Some(event) = next.event_mut(&id) {
                if event.tasting != Tasting::Held && day >= today && day < event.day {
                    event.tasting = Tasting::Booked { day };
                }
            }
        }
        Msg::HoldTasting { id } => {
            if let Some(event) = next.event_mut(&id) {
                if let Tasting::Booked { .. } = event.tasting {
                    event.tasting = Tasting::Held;
                }
            }
        }
        Msg::PayDeposit { id, amount } => {
            let terms = next.terms.clone();
            let Some(event) = next.event_mut(&id) else {
                return (next, commands);
            };
            if !(policy.take_payment)(event, amount) {
                return (next, commands);
            }
            let quote = menus::event_quote(event, &terms, policy.per_head);
            let required = (policy.required_deposit)(quote, terms.deposit_percent);
            if event.status == Status::Held && event.deposit_paid >= required {
                commands.push(Msg::Confirm { id: id.clone() });
            }
            next.payments.push(Payment { event: id, amount });
        }
        Msg::Confirm { id } => {
            if let Some(event) = next.event_mut(&id) {
                if event.status != Status::Cancelled {
                    event.status = Status::Confirmed;
                }
            }
        }
        Msg::Cancel { id } => {
            if let Some(event) = next.event_mut(&id) {
                event.status = Status::Cancelled;
            }
        }
        Msg::Roster {
            id,
            name,
            role,
            hours,
        } => {
            if let Some(event) = next.event_mut(&id) {
                event.shifts.retain(|shift| shift.name != name);
                event.shifts.push(Shift { name, role, hours });
            }
        }
        Msg::AdvanceDays { days } => next.today += days,
    }
    (next, commands)
}

pub mod slipped {
    use super::{Book, Dietary, Event, Msg, Payment, Policy, Shift, Status, Tasting, menus};

    #[ranvier::trace_fn]
    pub fn take_payment(event: &mut Event, amount: u64) -> bool {
        if event.status == Status::Cancelled {
            return false;
        }
        // BUG(payment_overwrites)
        event.deposit_paid = amount;
        if event.status == Status::Enquiry {
            event.status = Status::Held;
        }
        true
    }

    #[ranvier::trace_fn]
    pub fn update(msg: Msg, book: &Book, policy: &Policy) -> (Book, Vec<Msg>) {
        let mut next = book.clone();
        let mut commands = Vec::new();
        match msg {
            Msg::Enquire {
                id,
                client,
                day,
                guests,
                tier,
                outdoor,
            } => {
                let taken = next.events.iter().any(|event| event.id == id);
                if !taken && day >= next.today {
                    next.events
                        .push(Event::enquiry(id, client, day, guests, tier, outdoor));
                }
            }
            Msg::SetGuests { id, guests } => {
                if let Some(event) = next.event_mut(&id) {
                    event.guests = guests;
                }
            }
            Msg::SetDietary {
                id,
                vegetarian,
                vegan,
                gluten_free,
            } => {
                if let Some(event) = next.event_mut(&id) {
                    event.dietary = Dietary {
                        vegetarian,
                        vegan,
                        gluten_free,
                    };
                }
            }
            Msg::BookTasting { id, day } => {
                let today = next.today;
                if let Some(event) = next.event_mut(&id) {
                    if event.tasting != Tasting::Held && day >= today && day < event.day {
                        event.tasting = Tasting::Booked { day };
                    }
                }
            }
            Msg::HoldTasting { id } => {
                if let Some(event) = next.event_mut(&id) {
                    if let Tasting::Booked { .. } = event.tasting {
                        event.tasting = Tasting::Held;
                    }
                }
            }
            Msg::PayDeposit { id, amount } => {
                let terms = next.terms.clone();
                let Some(event) = next.event_mut(&id) else {
                    return (next, commands);
                };
                if !(policy.take_payment)(event, amount) {
                    return (next, commands);
                }
                let quote = menus::event_quote(event, &terms, policy.per_head);
                let required = (policy.required_deposit)(quote, terms.deposit_percent);
                // BUG(confirm_at_deposit)
                if event.status == Status::Held && event.deposit_paid > required {
                    commands.push(Msg::Confirm { id: id.clone() });
                }
                next.payments.push(Payment { event: id, amount });
            }
            Msg::Confirm { id } => {
                if let Some(event) = next.event_mut(&id) {
                    if event.status != Status::Cancelled {
                        event.status = Status::Confirmed;
                    }
                }
            }
            Msg::Cancel { id } => {
                if let Some(event) = next.event_mut(&id) {
                    event.status = Status::Cancelled;
                }
            }
            Msg::Roster {
                id,
                name,
                role,
                hours,
            } => {
                if let Some(event) = next.event_mut(&id) {
                    event.shifts.retain(|shift| shift.name != name);
                    event.shifts.push(Shift { name, role, hours });
                }
            }
            Msg::AdvanceDays { days } => next.today += days,
        }
        (next, commands)
    }
}
