//! The box office's `update`: one arm per message, the helpers the longer arms call, and the commands they send (a
//! lapsed hold's release, returned seats offered to the waiting list).

use super::limits;
use super::model::{
    BarOrder, Booking, Concession, Hold, Msg, Office, Performance, Section, State, Waiter, pounds,
};
use super::tariff;

/// The rules and helpers `update` calls through fn values, so that the box office can be started with another
/// version of one.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub is_peak: fn(&Performance) -> bool,
    pub concession_price: fn(u32, Option<Concession>, bool) -> u32,
    pub hold_expired: fn(&Hold, u32) -> bool,
    pub confirm: fn(&mut Office, &Helpers, u32, Option<String>),
    pub exchange: fn(&mut Office, &Helpers, u32, u32),
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            is_peak: Performance::is_peak,
            concession_price: tariff::concession_price,
            hold_expired: limits::hold_expired,
            confirm,
            exchange,
        }
    }
}

/// What the box office starts the week with: the Friends of the Theatre's box for the first night.
pub fn opening() -> Vec<Msg> {
    vec![Msg::Book {
        customer: "Friends of the Theatre".into(),
        perf: 1,
        section: "boxes".into(),
        seats: 4,
        concession: None,
    }]
}

/// The box office after `msg`, and the messages to dispatch next.
pub fn update(msg: Msg, office: &Office, helpers: &Helpers) -> (Office, Vec<Msg>) {
    let mut next = office.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Book {
            customer,
            perf,
            section,
            seats,
            concession,
        } => {
            let concession = match parse_concession(concession.as_deref()) {
                Ok(concession) => concession,
                Err(why) => {
                    next.note(why);
                    return (next, commands);
                }
            };
            match Section::parse(&section) {
                Some(section) => book(
                    &mut next, helpers, customer, perf, section, seats, concession,
                ),
                None => next.note(format!("no {section} in this theatre")),
            }
        }
        Msg::Hold {
            customer,
            perf,
            section,
            seats,
        } => match Section::parse(&section) {
            Some(section) => hold(&mut next, customer, perf, section, seats),
            None => next.note(format!("no {section} in this theatre")),
        },
        Msg::Release { hold } => release(&mut next, hold),
        Msg::Confirm { hold, concession } => {
            (helpers.confirm)(&mut next, helpers, hold, concession)
        }
        Msg::Wait {
            customer,
            perf,
            seats,
        } => {
            let title = next.title_of(perf);
            match next.performance_mut(perf) {
                Some(p) if p.is_sold_out() => {
                    p.waiting.push(Waiter {
                        customer: customer.clone(),
                        seats,
                    });
                    next.note(format!("{customer} waits for {seats} seats at {title}"));
                }
                Some(_) => next.note(format!("{title} has seats: {customer} can book")),
                None => next.note(format!("no performance {perf}")),
            }
        }
        Msg::ReturnSeats { booking } => commands = return_seats(&mut next, booking),
        Msg::OfferReturn { perf } => offer_return(&mut next, helpers, perf),
        Msg::Exchange { booking, to } => (helpers.exchange)(&mut next, helpers, booking, to),
        Msg::IntervalOrder { perf, item, qty } => interval_order(&mut next, perf, item, qty),
        Msg::Advance { minutes } => {
            next.now += minutes;
            let now = next.now;
            commands = next
                .holds
                .iter()
                .filter(|hold| (helpers.hold_expired)(hold, now))
                .map(|hold| Msg::Release { hold: hold.id })
                .collect();
        }
    }
    (next, commands)
}

fn parse_concession(text: Option<&str>) -> Result<Option<Concession>, String> {
    match text {
        None | Some("") | Some("none") => Ok(None),
        Some(text) => Concession::parse(text)
            .map(Some)
            .ok_or_else(|| format!("no {text} concession")),
    }
}

/// What `seats` seats in `section` of `perf` cost with `concession`, all told.
fn price(
    helpers: &Helpers,
    perf: &Performance,
    section: Section,
    concession: Option<Concession>,
    seats: u32,
) -> u32 {
    let peak = (helpers.is_peak)(perf);
    let full = tariff::seat_price(perf, section, peak);
    let each = (helpers.concession_price)(full, concession, peak);
    tariff::booking_total(each, seats)
}

/// Sells `seats` in `section` of performance `id` to `customer`, if they are free.
fn book(
    office: &mut Office,
    helpers: &Helpers,
    customer: String,
    id: u32,
    section: Section,
    seats: u32,
    concession: Option<Concession>,
) {
    let now = office.now;
    let Some(perf) = office.performance(id) else {
        office.note(format!("no performance {id}"));
        return;
    };
    if let Err(why) = limits::check_seats(perf, section, seats, now) {
        office.note(format!("{customer} not booked: {why}"));
        return;
    }
    let paid = price(helpers, perf, section, concession, seats);
    if let Some(perf) = office.performance_mut(id) {
        perf.sold[section.index()] += seats;
    }
    let no = office.bookings.len() as u32 + 1;
    office.bookings.push(Booking {
        no,
        customer,
        perf: id,
        section,
        seats,
        concession,
        paid,
        fee: tariff::BOOKING_FEE,
        state: State::Booked,
    });
}

/// Holds `seats` in `section` of performance `id` for `customer`.
fn hold(office: &mut Office, customer: String, id: u32, section: Section, seats: u32) {
    let now = office.now;
    let Some(perf) = office.performance_mut(id) else {
        office.note(format!("no performance {id}"));
        return;
    };
    if let Err(why) = limits::check_seats(perf, section, seats, now) {
        office.note(format!("no hold for {customer}: {why}"));
        return;
    }
    perf.held[section.index()] += seats;
    let hold = office.next_hold;
    office.next_hold += 1;
    office.holds.push(Hold {
        id: hold,
        customer,
        perf: id,
        section,
        seats,
        placed: now,
    });
}

/// Lets hold `id`'s seats go back on sale.
fn release(office: &mut Office, id: u32) {
    let Some(at) = office.holds.iter().position(|hold| hold.id == id) else {
        return;
    };
    let hold = office.holds.remove(at);
    if let Some(perf) = office.performance_mut(hold.perf) {
        let held = &mut perf.held[hold.section.index()];
        *held = held.saturating_sub(hold.seats);
    }
    office.note(format!("hold {id} for {} released", hold.customer));
}

/// Turns hold `id` into a booking: the seats go from held to sold.
pub fn confirm(office: &mut Office, helpers: &Helpers, id: u32, concession: Option<String>) {
    let concession = match parse_concession(concession.as_deref()) {
        Ok(concession) => concession,
        Err(why) => return office.note(why),
    };
    let Some(at) = office.holds.iter().position(|hold| hold.id == id) else {
        return office.note(format!("no hold {id}: it may have lapsed"));
    };
    let hold = office.holds.remove(at);
    let Some(perf) = office.performance_mut(hold.perf) else {
        return;
    };
    let section = hold.section.index();
    perf.held[section] = perf.held[section].saturating_sub(hold.seats);
    perf.sold[section] += hold.seats;
    let perf = perf.clone();
    let paid = price(helpers, &perf, hold.section, concession, hold.seats);
    let no = office.bookings.len() as u32 + 1;
    office.bookings.push(Booking {
        no,
        customer: hold.customer,
        perf: hold.perf,
        section: hold.section,
        seats: hold.seats,
        concession,
        paid,
        fee: tariff::BOOKING_FEE,
        state: State::Booked,
    });
}

/// Takes booking `no` back: refunded less the return fee, its seats back on sale, offered first to who waits.
fn return_seats(office: &mut Office, no: u32) -> Vec<Msg> {
    let now = office.now;
    let Some(booking) = office.bookings.iter().find(|b| b.no == no).cloned() else {
        office.note(format!("no booking {no}"));
        return Vec::new();
    };
    if booking.state != State::Booked {
        office.note(format!("booking {no} was already returned or exchanged"));
        return Vec::new();
    }
    let Some(perf) = office.performance_mut(booking.perf) else {
        return Vec::new();
    };
    if let Err(why) = limits::may_return(perf, now) {
        office.note(format!("booking {no} not returned: {why}"));
        return Vec::new();
    }
    let sold = &mut perf.sold[booking.section.index()];
    *sold = sold.saturating_sub(booking.seats);
    let waiting = !perf.waiting.is_empty();
    let refund = booking
        .paid
        .saturating_sub(tariff::RETURN_FEE * booking.seats);
    if let Some(returned) = office.booking_mut(no) {
        returned.state = State::Returned { refund };
    }
    office.note(format!(
        "booking {no} returned, {} refunded",
        pounds(refund)
    ));
    if waiting {
        vec![Msg::OfferReturn { perf: booking.perf }]
    } else {
        Vec::new()
    }
}

/// Books the seats free at performance `id` for the first customer waiting whose party fits in one section.
fn offer_return(office: &mut Office, helpers: &Helpers, id: u32) {
    let Some(perf) = office.performance(id) else {
        return;
    };
    let offer = perf.waiting.iter().enumerate().find_map(|(at, waiter)| {
        Section::ALL
            .into_iter()
            .find(|&section| perf.free(section) >= waiter.seats)
            .map(|section| (at, section))
    });
    let Some((at, section)) = offer else {
        return;
    };
    let waiter = office
        .performance_mut(id)
        .map(|perf| perf.waiting.remove(at))
        .expect("the performance");
    office.note(format!(
        "returned seats offered to {} from the waiting list",
        waiter.customer
    ));
    book(
        office,
        helpers,
        waiter.customer,
        id,
        section,
        waiter.seats,
        None,
    );
}

/// Moves `seats` sold in `section` from performance `from` to performance `to`.
fn move_seats(office: &mut Office, from: u32, to: u32, section: Section, seats: u32) {
    if let Some(perf) = office.performance_mut(from) {
        let sold = &mut perf.sold[section.index()];
        *sold = sold.saturating_sub(seats);
    }
    if let Some(perf) = office.performance_mut(to) {
        perf.sold[section.index()] += seats;
    }
}

/// Exchanges booking `no` for the same seats at performance `to` of the same show: a fee per seat, and the
/// difference when the new seats cost more (none back when they cost less).
pub fn exchange(office: &mut Office, helpers: &Helpers, no: u32, to: u32) {
    let now = office.now;
    let Some(old) = office.bookings.iter().find(|b| b.no == no).cloned() else {
        return office.note(format!("no booking {no}"));
    };
    if old.state != State::Booked {
        return office.note(format!("booking {no} was already returned or exchanged"));
    }
    let (Some(from_perf), Some(to_perf)) = (office.performance(old.perf), office.performance(to))
    else {
        return office.note(format!("no performance {to}"));
    };
    if from_perf.show != to_perf.show || old.perf == to {
        return office.note(format!(
            "booking {no} is for {}: it can only move to another performance of it",
            from_perf.show
        ));
    }
    if let Err(why) = limits::check_seats(to_perf, old.section, old.seats, now) {
        return office.note(format!("booking {no} not exchanged: {why}"));
    }
    let new_price = price(helpers, to_perf, old.section, old.concession, old.seats);
    let difference = new_price.saturating_sub(old.paid);
    move_seats(office, old.perf, to, old.section, old.seats);
    let new_no = office.bookings.len() as u32 + 1;
    if let Some(exchanged) = office.booking_mut(no) {
        exchanged.state = State::Exchanged { to: new_no };
    }
    office.bookings.push(Booking {
        no: new_no,
        perf: to,
        paid: old.paid + difference,
        fee: tariff::EXCHANGE_FEE * old.seats,
        state: State::Booked,
        ..old
    });
}

/// Takes an order for the interval of performance `id`.
fn interval_order(office: &mut Office, id: u32, item: String, qty: u32) {
    let now = office.now;
    let Some(perf) = office.performance(id) else {
        return office.note(format!("no performance {id}"));
    };
    if !limits::bar_open(perf, now) {
        let title = perf.title();
        return office.note(format!("the bar has closed its orders for {title}"));
    }
    let Some(each) = tariff::bar_price(&item) else {
        return office.note(format!("the bar has no {item}"));
    };
    office.bar.push(BarOrder {
        perf: id,
        item,
        qty,
        pence: each * qty,
    });
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::limits;
    use super::super::model::{Booking, Office, State};
    use super::super::tariff;
    use super::{Helpers, move_seats, parse_concession, price};

    /// [`super::confirm`].
    pub fn confirm(office: &mut Office, helpers: &Helpers, id: u32, concession: Option<String>) {
        let concession = match parse_concession(concession.as_deref()) {
            Ok(concession) => concession,
            Err(why) => return office.note(why),
        };
        let Some(at) = office.holds.iter().position(|hold| hold.id == id) else {
            return office.note(format!("no hold {id}: it may have lapsed"));
        };
        let hold = office.holds.remove(at);
        let Some(perf) = office.performance_mut(hold.perf) else {
            return;
        };
        let section = hold.section.index();
        perf.held[section] = perf.held[section].saturating_sub(hold.seats);
        // BUG(confirm_hold)
        perf.held[section] += hold.seats;
        let perf = perf.clone();
        let paid = price(helpers, &perf, hold.section, concession, hold.seats);
        let no = office.bookings.len() as u32 + 1;
        office.bookings.push(Booking {
            no,
            customer: hold.customer,
            perf: hold.perf,
            section: hold.section,
            seats: hold.seats,
            concession,
            paid,
            fee: tariff::BOOKING_FEE,
            state: State::Booked,
        });
    }

    /// [`super::exchange`].
    pub fn exchange(office: &mut Office, helpers: &Helpers, no: u32, to: u32) {
        let now = office.now;
        let Some(old) = office.bookings.iter().find(|b| b.no == no).cloned() else {
            return office.note(format!("no booking {no}"));
        };
        if old.state != State::Booked {
            return office.note(format!("booking {no} was already returned or exchanged"));
        }
        let (Some(from_perf), Some(to_perf)) =
            (office.performance(old.perf), office.performance(to))
        else {
            return office.note(format!("no performance {to}"));
        };
        if from_perf.show != to_perf.show || old.perf == to {
            return office.note(format!(
                "booking {no} is for {}: it can only move to another performance of it",
                from_perf.show
            ));
        }
        if let Err(why) = limits::check_seats(to_perf, old.section, old.seats, now) {
            return office.note(format!("booking {no} not exchanged: {why}"));
        }
        let new_price = price(helpers, to_perf, old.section, old.concession, old.seats);
        let difference = new_price.saturating_sub(old.paid);
        // BUG(exchange_seats)
        move_seats(office, to, old.perf, old.section, old.seats);
        let new_no = office.bookings.len() as u32 + 1;
        if let Some(exchanged) = office.booking_mut(no) {
            exchanged.state = State::Exchanged { to: new_no };
        }
        office.bookings.push(Booking {
            no: new_no,
            perf: to,
            paid: old.paid + difference,
            fee: tariff::EXCHANGE_FEE * old.seats,
            state: State::Booked,
            ..old
        });
    }
}
