//! The box office's `update`: what each message does to the box office, and the charges, refunds and notices it
//! sends on (as commands).

use super::model::{Booking, BoxOffice, Entry, Msg, Showing, clock, money};
use super::pricing::{self, TicketPrice};
use super::rules;

/// Whether a showing has room for more seats (see [`rules::has_room`]).
pub type HasRoom = fn(&Showing, u32) -> bool;

/// The next box office, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, office: &BoxOffice) -> (BoxOffice, Vec<Msg>) {
    let mut next = office.clone();
    let commands = match msg {
        Msg::Schedule {
            showing,
            film,
            screen,
            start,
            seats,
            three_d,
        } => schedule(&mut next, showing, film, screen, start, seats, three_d),
        Msg::Book {
            showing,
            customer,
            adults,
            children,
            member,
        } => book(
            &mut next,
            &showing,
            customer,
            (adults, children),
            member,
            rules::has_room,
            pricing::ticket_price,
        ),
        Msg::Cancel { booking } => cancel(&mut next, booking),
        Msg::Exchange { booking, to } => exchange(&mut next, booking, &to),
        Msg::Advance { minutes } => advance(&mut next, minutes),
        Msg::Charge { booking, cents } => {
            next.ledger.push(Entry {
                booking,
                cents: cents as i64,
            });
            Vec::new()
        }
        Msg::Refund { booking, cents } => {
            next.ledger.push(Entry {
                booking,
                cents: -(cents as i64),
            });
            Vec::new()
        }
        Msg::Notify { text } => {
            next.notices.push(text);
            Vec::new()
        }
    };
    (next, commands)
}

/// One notice, as the only command.
#[ranvier::trace_fn]
pub fn notify(text: String) -> Vec<Msg> {
    vec![Msg::Notify { text }]
}

/// A showing goes on today's schedule (once per code).
#[ranvier::trace_fn]
pub fn schedule(
    office: &mut BoxOffice,
    id: String,
    film: String,
    screen: String,
    start: u32,
    seats: u32,
    three_d: bool,
) -> Vec<Msg> {
    if office.showing(&id).is_some() {
        return notify(format!("{id} is already on the schedule"));
    }
    let now = office.minute;
    office.showings.push(Showing {
        id,
        film,
        screen,
        start,
        seats,
        sold: 0,
        three_d,
        open: start > now,
        touched: now,
    });
    Vec::new()
}

/// Sells `adults` and `children` tickets for `showing`, if it is on sale and has room; the charge and, when the last
/// seat goes, a notice follow.
#[ranvier::trace_fn]
pub fn book(
    office: &mut BoxOffice,
    showing: &str,
    customer: String,
    (adults, children): (u32, u32),
    member: bool,
    has_room: HasRoom,
    price: TicketPrice,
) -> Vec<Msg> {
    let now = office.minute;
    let id = office.next_booking;
    let prices = office.prices.clone();
    let seats = adults + children;
    if seats == 0 {
        return notify(format!("{customer}: no tickets asked for"));
    }
    let Some(show) = office.showing_mut(showing) else {
        return notify(format!("{customer}: no showing {showing}"));
    };
    if !show.open {
        return notify(format!("{customer}: {showing} is no longer on sale"));
    }
    if !has_room(show, seats) {
        let left = rules::seats_left(show);
        return notify(format!("{customer}: only {left} seats left for {showing}"));
    }
    show.sold += seats;
    show.touched = now;
    let cents = price(&prices, show, adults, children, member);
    let sold_out = show.sold == show.seats;
    office.next_booking += 1;
    office.bookings.push(Booking {
        id,
        showing: showing.to_owned(),
        customer,
        adults,
        children,
        member,
        cents,
        cancelled: false,
    });
    let mut commands = vec![Msg::Charge { booking: id, cents }];
    if sold_out {
        commands.push(Msg::Notify {
            text: format!("{showing} is sold out"),
        });
    }
    commands
}

/// Cancels a booking: its seats go back on sale, and it is refunded when cancelled early enough.
#[ranvier::trace_fn]
pub fn cancel(office: &mut BoxOffice, id: u32) -> Vec<Msg> {
    let now = office.minute;
    let prices = office.prices.clone();
    let Some(booking) = office
        .bookings
        .iter_mut()
        .find(|b| b.id == id && !b.cancelled)
    else {
        return notify(format!("no booking {id} to cancel"));
    };
    booking.cancelled = true;
    let booking = booking.clone();
    let Some(show) = office.showing_mut(&booking.showing) else {
        return notify(format!("booking {id}: no showing {}", booking.showing));
    };
    show.sold -= booking.seats();
    show.touched = now;
    let refund = rules::refund_for(&prices, &booking, show.start, now);
    if refund > 0 {
        return vec![
            Msg::Refund {
                booking: id,
                cents: refund,
            },
            Msg::Notify {
                text: format!("booking {id} cancelled: {} refunded", money(refund)),
            },
        ];
    }
    notify(format!("booking {id} cancelled, too late for a refund"))
}

/// Moves a booking to the showing `to`, the same seats, if that showing is on sale and has room.
#[ranvier::trace_fn]
pub fn exchange(office: &mut BoxOffice, id: u32, to: &str) -> Vec<Msg> {
    let now = office.minute;
    let Some(at) = office
        .bookings
        .iter()
        .position(|b| b.id == id && !b.cancelled)
    else {
        return notify(format!("no booking {id} to move"));
    };
    let seats = office.bookings[at].seats();
    let Some(target) = office.showing(to) else {
        return notify(format!("booking {id}: no showing {to}"));
    };
    if !target.open || !rules::has_room(target, seats) {
        return notify(format!("booking {id}: {to} cannot take {seats} seats"));
    }
    let booking = &mut office.bookings[at];
    let from = booking.showing.clone();
    booking.showing = to.to_owned();
    if let Some(show) = office.showing_mut(to) {
        show.sold += seats;
        show.touched = now;
    }
    if let Some(show) = office.showing_mut(&from) {
        show.sold -= seats;
        show.touched = now;
    }
    notify(format!("booking {id} moved from {from} to {to}"))
}

/// The clock moves on; every showing that has started closes its sales.
#[ranvier::trace_fn]
pub fn advance(office: &mut BoxOffice, minutes: u32) -> Vec<Msg> {
    office.minute += minutes;
    let now = office.minute;
    let mut commands = Vec::new();
    for show in office.showings.iter_mut().filter(|s| s.open) {
        if show.start <= now {
            show.open = false;
            show.touched = now;
            commands.push(Msg::Notify {
                text: format!(
                    "sales closed for {} ({} at {})",
                    show.id,
                    show.film,
                    clock(show.start)
                ),
            });
        }
    }
    commands
}

/// `update` with a mistake in one of its messages.
pub mod slipped {
    use super::super::model::{BoxOffice, Msg, clock, money};
    use super::super::pricing::{self, TicketPrice};
    use super::super::rules;
    use super::{HasRoom, book, notify, update};

    /// `update`, booking with `has_room` and `price`.
    #[ranvier::trace_fn]
    fn update_book(
        msg: Msg,
        office: &BoxOffice,
        has_room: HasRoom,
        price: TicketPrice,
    ) -> (BoxOffice, Vec<Msg>) {
        match msg {
            Msg::Book {
                showing,
                customer,
                adults,
                children,
                member,
            } => {
                let mut next = office.clone();
                let commands = book(
                    &mut next,
                    &showing,
                    customer,
                    (adults, children),
                    member,
                    has_room,
                    price,
                );
                (next, commands)
            }
            other => update(other, office),
        }
    }

    /// `update`, with the first room check.
    #[ranvier::trace_fn]
    pub fn update_room(msg: Msg, office: &BoxOffice) -> (BoxOffice, Vec<Msg>) {
        update_book(msg, office, rules::slipped::has_room, pricing::ticket_price)
    }

    /// `update`, with the first discount by time of day.
    #[ranvier::trace_fn]
    pub fn update_band(msg: Msg, office: &BoxOffice) -> (BoxOffice, Vec<Msg>) {
        update_book(
            msg,
            office,
            rules::has_room,
            pricing::slipped::ticket_price_band,
        )
    }

    /// `update`, with the first club discount.
    #[ranvier::trace_fn]
    pub fn update_member(msg: Msg, office: &BoxOffice) -> (BoxOffice, Vec<Msg>) {
        update_book(
            msg,
            office,
            rules::has_room,
            pricing::slipped::ticket_price_member,
        )
    }

    /// `update`, with the first `Cancel`.
    #[ranvier::trace_fn]
    pub fn update_cancel(msg: Msg, office: &BoxOffice) -> (BoxOffice, Vec<Msg>) {
        match msg {
            Msg::Cancel { booking } => {
                let mut next = office.clone();
                let commands = cancel(&mut next, booking);
                (next, commands)
            }
            other => update(other, office),
        }
    }

    /// `update`, with the first `Exchange`.
    #[ranvier::trace_fn]
    pub fn update_exchange(msg: Msg, office: &BoxOffice) -> (BoxOffice, Vec<Msg>) {
        match msg {
            Msg::Exchange { booking, to } => {
                let mut next = office.clone();
                let commands = exchange(&mut next, booking, &to);
                (next, commands)
            }
            other => update(other, office),
        }
    }

    /// `update`, with the first `Advance`.
    #[ranvier::trace_fn]
    pub fn update_advance(msg: Msg, office: &BoxOffice) -> (BoxOffice, Vec<Msg>) {
        match msg {
            Msg::Advance { minutes } => {
                let mut next = office.clone();
                let commands = advance(&mut next, minutes);
                (next, commands)
            }
            other => update(other, office),
        }
    }

    #[ranvier::trace_fn]
    fn cancel(office: &mut BoxOffice, id: u32) -> Vec<Msg> {
        let now = office.minute;
        let prices = office.prices.clone();
        let Some(booking) = office
            .bookings
            .iter_mut()
            .find(|b| b.id == id && !b.cancelled)
        else {
            return notify(format!("no booking {id} to cancel"));
        };
        booking.cancelled = true;
        let booking = booking.clone();
        let Some(show) = office.showing_mut(&booking.showing) else {
            return notify(format!("booking {id}: no showing {}", booking.showing));
        };
        show.sold -= booking.seats();
        show.touched = now;
        let refund = rules::refund_for(&prices, &booking, show.start, now);
        if refund > 0 {
            // BUG(cancel_refund)
            return notify(format!(
                "booking {id} cancelled: {} refunded",
                money(refund)
            ));
        }
        notify(format!("booking {id} cancelled, too late for a refund"))
    }

    #[ranvier::trace_fn]
    fn exchange(office: &mut BoxOffice, id: u32, to: &str) -> Vec<Msg> {
        let now = office.minute;
        let Some(at) = office
            .bookings
            .iter()
            .position(|b| b.id == id && !b.cancelled)
        else {
            return notify(format!("no booking {id} to move"));
        };
        let seats = office.bookings[at].seats();
        let Some(target) = office.showing(to) else {
            return notify(format!("booking {id}: no showing {to}"));
        };
        if !target.open || !rules::has_room(target, seats) {
            return notify(format!("booking {id}: {to} cannot take {seats} seats"));
        }
        let booking = &mut office.bookings[at];
        booking.showing = to.to_owned();
        // BUG(exchange_order)
        let from = booking.showing.clone();
        if let Some(show) = office.showing_mut(to) {
            show.sold += seats;
            show.touched = now;
        }
        if let Some(show) = office.showing_mut(&from) {
            show.sold -= seats;
            show.touched = now;
        }
        notify(format!("booking {id} moved from {from} to {to}"))
    }

    #[ranvier::trace_fn]
    fn advance(office: &mut BoxOffice, minutes: u32) -> Vec<Msg> {
        // BUG(close_stale)
        let now = office.minute;
        office.minute += minutes;
        let mut commands = Vec::new();
        for show in office.showings.iter_mut().filter(|s| s.open) {
            if show.start <= now {
                show.open = false;
                show.touched = now;
                commands.push(Msg::Notify {
                    text: format!(
                        "sales closed for {} ({} at {})",
                        show.id,
                        show.film,
                        clock(show.start)
                    ),
                });
            }
        }
        commands
    }
}
