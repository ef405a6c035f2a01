//! The gym's `update`: what each message does to the gym, and the charges, promotions and notices it sends on (as
//! commands).

use super::billing::{self, CloseCharges};
use super::booking;
use super::model::{Booking, Class, Gym, Member, Msg, Plan, Posting, Status, clock};

/// Why nobody can check in to a class now (see [`booking::check_in_refusal`]).
pub type Refusal = fn(&Class, u32) -> Option<String>;

/// Who is next on a class's waiting list (see [`booking::next_in_line`]).
pub type NextInLine = fn(&[Booking], u32) -> Option<u32>;

/// The next gym, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, gym: &Gym) -> (Gym, Vec<Msg>) {
    let mut next = gym.clone();
    let commands = match msg {
        Msg::AddClass {
            id,
            name,
            coach,
            day,
            start,
            length,
            capacity,
            studio,
        } => add_class(
            &mut next,
            Class {
                id,
                name,
                coach,
                day,
                start,
                length,
                capacity,
                studio,
                cancelled: false,
                closed: false,
            },
        ),
        Msg::Join { member, plan } => join(&mut next, member, &plan),
        Msg::Book { member, class } => book(&mut next, &member, class),
        Msg::Cancel { member, class } => cancel(&mut next, &member, class),
        Msg::Promote { class } => promote(&mut next, class, booking::next_in_line),
        Msg::CheckIn { member, class } => {
            check_in(&mut next, &member, class, booking::check_in_refusal)
        }
        Msg::Advance { minutes } => advance(&mut next, minutes, billing::close_charges),
        Msg::CancelClass { class } => cancel_class(&mut next, class),
        Msg::Post {
            member,
            what,
            cents,
        } => {
            next.ledger.push(Posting {
                member,
                what,
                cents,
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

/// A class goes on the timetable (once per number).
#[ranvier::trace_fn]
pub fn add_class(gym: &mut Gym, class: Class) -> Vec<Msg> {
    if gym.class(class.id).is_some() {
        return notify(format!("class {} is already on the timetable", class.id));
    }
    gym.classes.push(class);
    Vec::new()
}

/// A member joins, on a plan the gym sells.
#[ranvier::trace_fn]
pub fn join(gym: &mut Gym, name: String, plan: &str) -> Vec<Msg> {
    let Some(plan) = Plan::parse(plan) else {
        return notify(format!("{name}: no plan {plan:?}"));
    };
    if gym.member(&name).is_some() {
        return notify(format!("{name} is already a member"));
    }
    gym.members.push(Member {
        name: name.clone(),
        plan,
    });
    notify(format!("{name} joined"))
}

/// Books a member into a class that has not started: a place while there is one (a basic member pays the drop-in
/// fee, as a command), the waiting list once it is full.
#[ranvier::trace_fn]
pub fn book(gym: &mut Gym, member: &str, id: u32) -> Vec<Msg> {
    let now = gym.now;
    if gym.member(member).is_none() {
        return notify(format!("{member} is not a member"));
    }
    let Some(class) = gym.class(id).cloned() else {
        return notify(format!("no class {id}"));
    };
    if class.cancelled || booking::starts_at(&class) <= now {
        return notify(format!("{member}: {} can no longer be booked", class.name));
    }
    if gym
        .bookings
        .iter()
        .any(|b| b.class == id && b.member == member && b.active())
    {
        return notify(format!("{member} is already booked for {}", class.name));
    }
    let held = gym
        .bookings
        .iter()
        .filter(|b| b.class == id && b.holds_place())
        .count() as u32;
    let status = if held < class.capacity {
        Status::Booked
    } else {
        Status::Waitlisted
    };
    let number = gym.next_booking;
    gym.next_booking += 1;
    gym.bookings.push(Booking {
        id: number,
        member: member.to_owned(),
        class: id,
        status,
        touched: now,
    });
    let mut commands = Vec::new();
    let fee = billing::drop_in(gym.plan(member), &gym.fees);
    if status == Status::Booked && fee > 0 {
        commands.push(Msg::Post {
            member: member.to_owned(),
            what: format!("drop-in, {}", class.name),
            cents: fee,
        });
    }
    let text = match status {
        Status::Booked => format!("{member} booked for {}", class.name),
        _ => format!("{member} is waiting for {}", class.name),
    };
    commands.push(Msg::Notify { text });
    commands
}

/// A member gives up a booking: a place given up late is charged, and the place goes to the first member waiting (a
/// `Promote` command).
#[ranvier::trace_fn]
pub fn cancel(gym: &mut Gym, member: &str, id: u32) -> Vec<Msg> {
    let now = gym.now;
    let fees = gym.fees.clone();
    let Some(class) = gym.class(id).cloned() else {
        return notify(format!("no class {id}"));
    };
    let Some(booking) = gym
        .bookings
        .iter_mut()
        .find(|b| b.class == id && b.member == member && b.active())
    else {
        return notify(format!("{member} is not booked for {}", class.name));
    };
    let had_place = booking.status == Status::Booked;
    booking.status = Status::Cancelled;
    booking.touched = now;
    let mut commands = Vec::new();
    if had_place {
        if booking::is_late(&class, now, fees.late_window) {
            commands.push(Msg::Post {
                member: member.to_owned(),
                what: format!("late cancellation, {}", class.name),
                cents: fees.late_cancel,
            });
        }
        commands.push(Msg::Promote { class: id });
    }
    commands.push(Msg::Notify {
        text: format!("{member} gave up {}", class.name),
    });
    commands
}

/// The member `next` chooses from a class's waiting list gets the place (a basic member pays the drop-in fee).
#[ranvier::trace_fn]
pub fn promote(gym: &mut Gym, id: u32, next: NextInLine) -> Vec<Msg> {
    let now = gym.now;
    let fees = gym.fees.clone();
    let Some(class) = gym.class(id).cloned() else {
        return Vec::new();
    };
    let Some(number) = next(&gym.bookings, id) else {
        return Vec::new();
    };
    let Some(booking) = gym.bookings.iter_mut().find(|b| b.id == number) else {
        return Vec::new();
    };
    booking.status = Status::Booked;
    booking.touched = now;
    let member = booking.member.clone();
    let mut commands = Vec::new();
    let fee = billing::drop_in(gym.plan(&member), &fees);
    if fee > 0 {
        commands.push(Msg::Post {
            member: member.clone(),
            what: format!("drop-in, {}", class.name),
            cents: fee,
        });
    }
    commands.push(Msg::Notify {
        text: format!("{member} moved up for {}", class.name),
    });
    commands
}

/// A member with a place arrives, when `refusal` lets them.
#[ranvier::trace_fn]
pub fn check_in(gym: &mut Gym, member: &str, id: u32, refusal: Refusal) -> Vec<Msg> {
    let now = gym.now;
    let Some(class) = gym.class(id).cloned() else {
        return notify(format!("no class {id}"));
    };
    if let Some(why) = refusal(&class, now) {
        return notify(format!("{member}: {why}"));
    }
    let Some(booking) = gym
        .bookings
        .iter_mut()
        .find(|b| b.class == id && b.member == member && b.status == Status::Booked)
    else {
        return notify(format!("{member} has no place in {}", class.name));
    };
    booking.status = Status::Attended;
    booking.touched = now;
    Vec::new()
}

/// The clock moves on; each class that has ended is closed: `close` says what is charged (as commands), places not
/// used become no-shows and the waiting list is dropped.
#[ranvier::trace_fn]
pub fn advance(gym: &mut Gym, minutes: u32, close: CloseCharges) -> Vec<Msg> {
    gym.now += minutes;
    let now = gym.now;
    let mut commands = Vec::new();
    for class in gym.classes.iter_mut() {
        if class.closed || class.cancelled || booking::ends_at(class) > now {
            continue;
        }
        class.closed = true;
        let of_class: Vec<Booking> = gym
            .bookings
            .iter()
            .filter(|b| b.class == class.id)
            .cloned()
            .collect();
        commands.extend(close(&class.name, &of_class, &gym.fees));
        for booking in gym.bookings.iter_mut().filter(|b| b.class == class.id) {
            booking.status = match booking.status {
                Status::Booked => Status::NoShow,
                Status::Waitlisted => Status::Cancelled,
                other => other,
            };
            booking.touched = now;
        }
    }
    commands
}

/// A class is called off: every booking is cancelled and each basic member with a place is refunded the drop-in fee
/// (as commands).
#[ranvier::trace_fn]
pub fn cancel_class(gym: &mut Gym, id: u32) -> Vec<Msg> {
    let now = gym.now;
    let fees = gym.fees.clone();
    let Some(class) = gym.classes.iter_mut().find(|c| c.id == id) else {
        return notify(format!("no class {id}"));
    };
    if class.cancelled || class.closed {
        return Vec::new();
    }
    class.cancelled = true;
    let name = class.name.clone();
    let when = clock(booking::starts_at(class));
    let mut refunds = Vec::new();
    for booking in gym.bookings.iter_mut().filter(|b| b.class == id) {
        if booking.status == Status::Booked {
            refunds.push(booking.member.clone());
        }
        if booking.active() {
            booking.status = Status::Cancelled;
            booking.touched = now;
        }
    }
    let mut commands = Vec::new();
    for member in refunds {
        let fee = billing::drop_in(gym.plan(&member), &fees);
        if fee > 0 {
            commands.push(Msg::Post {
                member,
                what: format!("refund, {name}"),
                cents: -fee,
            });
        }
    }
    commands.push(Msg::Notify {
        text: format!(
            "{name} on {when} is called off (refunds {})",
            commands.len()
        ),
    });
    commands
}

/// `update` with a mistake in one of its messages.
pub mod slipped {
    use super::super::billing;
    use super::super::booking;
    use super::super::model::{Booking, Gym, Msg, Status};
    use super::{advance, check_in, notify, promote, update};

    /// `update`, booking with the first booking rule.
    #[ranvier::trace_fn]
    pub fn update_book(msg: Msg, gym: &Gym) -> (Gym, Vec<Msg>) {
        match msg {
            Msg::Book { member, class } => {
                let mut next = gym.clone();
                let commands = book(&mut next, &member, class);
                (next, commands)
            }
            other => update(other, gym),
        }
    }

    /// `update`, with the first cancellation.
    #[ranvier::trace_fn]
    pub fn update_cancel(msg: Msg, gym: &Gym) -> (Gym, Vec<Msg>) {
        match msg {
            Msg::Cancel { member, class } => {
                let mut next = gym.clone();
                let commands = cancel(&mut next, &member, class);
                (next, commands)
            }
            other => update(other, gym),
        }
    }

    /// `update`, moving members up with the first waiting-list rule.
    #[ranvier::trace_fn]
    pub fn update_promote(msg: Msg, gym: &Gym) -> (Gym, Vec<Msg>) {
        match msg {
            Msg::Promote { class } => {
                let mut next = gym.clone();
                let commands = promote(&mut next, class, booking::slipped::next_in_line);
                (next, commands)
            }
            other => update(other, gym),
        }
    }

    /// `update`, checking in with the first check-in rule.
    #[ranvier::trace_fn]
    pub fn update_check_in(msg: Msg, gym: &Gym) -> (Gym, Vec<Msg>) {
        match msg {
            Msg::CheckIn { member, class } => {
                let mut next = gym.clone();
                let commands = check_in(
                    &mut next,
                    &member,
                    class,
                    booking::slipped::check_in_refusal,
                );
                (next, commands)
            }
            other => update(other, gym),
        }
    }

    /// `update`, closing classes with the first charges.
    #[ranvier::trace_fn]
    pub fn update_close(msg: Msg, gym: &Gym) -> (Gym, Vec<Msg>) {
        match msg {
            Msg::Advance { minutes } => {
                let mut next = gym.clone();
                let commands = advance(&mut next, minutes, billing::slipped::close_charges);
                (next, commands)
            }
            other => update(other, gym),
        }
    }

    #[ranvier::trace_fn]
    fn book(gym: &mut Gym, member: &str, id: u32) -> Vec<Msg> {
        let now = gym.now;
        if gym.member(member).is_none() {
            return notify(format!("{member} is not a member"));
        }
        let Some(class) = gym.class(id).cloned() else {
            return notify(format!("no class {id}"));
        };
        if class.cancelled || booking::starts_at(&class) <= now {
            return notify(format!("{member}: {} can no longer be booked", class.name));
        }
        if gym
            .bookings
            .iter()
            .any(|b| b.class == id && b.member == member && b.active())
        {
            return notify(format!("{member} is already booked for {}", class.name));
        }
        let held = gym
            .bookings
            .iter()
            .filter(|b| b.class == id && b.holds_place())
            .count() as u32;
        // BUG(book_capacity)
        let status = if held <= class.capacity {
            Status::Booked
        } else {
            Status::Waitlisted
        };
        let number = gym.next_booking;
        gym.next_booking += 1;
        gym.bookings.push(Booking {
            id: number,
            member: member.to_owned(),
            class: id,
            status,
            touched: now,
        });
        let mut commands = Vec::new();
        let fee = billing::drop_in(gym.plan(member), &gym.fees);
        if status == Status::Booked && fee > 0 {
            commands.push(Msg::Post {
                member: member.to_owned(),
                what: format!("drop-in, {}", class.name),
                cents: fee,
            });
        }
        let text = match status {
            Status::Booked => format!("{member} booked for {}", class.name),
            _ => format!("{member} is waiting for {}", class.name),
        };
        commands.push(Msg::Notify { text });
        commands
    }

    #[ranvier::trace_fn]
    fn cancel(gym: &mut Gym, member: &str, id: u32) -> Vec<Msg> {
        let now = gym.now;
        let fees = gym.fees.clone();
        let Some(class) = gym.class(id).cloned() else {
            return notify(format!("no class {id}"));
        };
        let Some(booking) = gym
            .bookings
            .iter_mut()
            .find(|b| b.class == id && b.member == member && b.active())
        else {
            return notify(format!("{member} is not booked for {}", class.name));
        };
        let had_place = booking.status == Status::Booked;
        booking.status = Status::Cancelled;
        booking.touched = now;
        let mut commands = Vec::new();
        // BUG(cancel_no_promote)
        if had_place && booking::is_late(&class, now, fees.late_window) {
            commands.push(Msg::Post {
                member: member.to_owned(),
                what: format!("late cancellation, {}", class.name),
                cents: fees.late_cancel,
            });
        }
        commands.push(Msg::Notify {
            text: format!("{member} gave up {}", class.name),
        });
        commands
    }
}
