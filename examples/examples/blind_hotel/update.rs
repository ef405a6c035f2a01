//! The front desk's `update`: what each message does to the hotel, and the charges and notices it sends on (as
//! commands).

use super::folio::{self, NightCharge};
use super::model::{Hotel, Msg, Posting, Room, Status, Stay, money};
use super::rules;

/// Which room a stay gets (see [`rules::pick_room`]).
pub type PickRoom = fn(&[Room], &str) -> Option<u32>;

/// The next hotel, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, hotel: &Hotel) -> (Hotel, Vec<Msg>) {
    let mut next = hotel.clone();
    let commands = match msg {
        Msg::OpenRoom {
            number,
            kind,
            beds,
            rate,
        } => open_room(&mut next, number, kind, beds, rate),
        Msg::Reserve {
            guest,
            kind,
            arrival,
            nights,
            adults,
            children,
            breakfast,
            currency,
        } => reserve(
            &mut next,
            guest,
            kind,
            (arrival, nights),
            (adults, children),
            breakfast,
            currency,
        ),
        Msg::CheckIn { stay } => check_in(&mut next, stay, rules::pick_room),
        Msg::NightAudit => night_audit(&mut next, folio::night_charge),
        Msg::CheckOut { stay, late } => check_out(&mut next, stay, late),
        Msg::Minibar { stay, cents } => match next.stay(stay) {
            Some(s) if s.in_house() => vec![Msg::Post {
                stay,
                what: "minibar".to_owned(),
                cents,
            }],
            _ => notify(format!("stay {stay} is not in the hotel")),
        },
        Msg::Cleaned { room } => cleaned(&mut next, room),
        Msg::OutOfOrder { room, out } => match next.room_mut(room) {
            Some(r) => {
                r.out_of_order = out;
                Vec::new()
            }
            None => notify(format!("no room {room}")),
        },
        Msg::Post { stay, what, cents } => {
            next.folio.push(Posting { stay, what, cents });
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

/// A room opens for sale, clean (once per number).
#[ranvier::trace_fn]
pub fn open_room(hotel: &mut Hotel, number: u32, kind: String, beds: u32, rate: u64) -> Vec<Msg> {
    if hotel.rooms.iter().any(|r| r.number == number) {
        return notify(format!("room {number} is already open"));
    }
    hotel.rooms.push(Room {
        number,
        kind,
        floor: number / 100,
        beds,
        rate,
        status: Status::Vacant,
        out_of_order: false,
    });
    Vec::new()
}

/// A reservation, if the hotel has rooms of its kind and it does not start in the past.
#[ranvier::trace_fn]
pub fn reserve(
    hotel: &mut Hotel,
    guest: String,
    kind: String,
    (arrival, nights): (u32, u32),
    (adults, children): (u32, u32),
    breakfast: bool,
    currency: String,
) -> Vec<Msg> {
    if !hotel.rooms.iter().any(|r| r.kind == kind) {
        return notify(format!("{guest}: the hotel has no {kind} rooms"));
    }
    if arrival < hotel.day {
        return notify(format!("{guest}: day {arrival} is past"));
    }
    let id = hotel.next_stay;
    hotel.next_stay += 1;
    hotel.stays.push(Stay {
        id,
        guest: guest.clone(),
        kind,
        arrival,
        nights,
        adults,
        children,
        breakfast,
        currency,
        room: None,
        checked_in: false,
        checked_out: false,
        touched: hotel.day,
    });
    notify(format!("stay {id} reserved for {guest}"))
}

/// Checks a stay in: it gets the room `pick` chooses, which is then occupied.
#[ranvier::trace_fn]
pub fn check_in(hotel: &mut Hotel, id: u32, pick: PickRoom) -> Vec<Msg> {
    let day = hotel.day;
    let Some(stay) = hotel.stay(id) else {
        return notify(format!("no stay {id}"));
    };
    if let Some(why) = rules::refuse_check_in(stay, day) {
        return notify(why);
    }
    let Some(number) = pick(&hotel.rooms, &stay.kind) else {
        return notify(format!("{}: no clean {} room free", stay.guest, stay.kind));
    };
    if let Some(room) = hotel.room_mut(number) {
        room.status = Status::Occupied;
    }
    let Some(stay) = hotel.stays.iter_mut().find(|s| s.id == id) else {
        return Vec::new();
    };
    stay.room = Some(number);
    stay.checked_in = true;
    stay.touched = day;
    notify(format!("{} checked in to {number}", stay.guest))
}

/// The night audit: tonight's night is charged to every stay in the hotel (as commands), then the day moves on.
#[ranvier::trace_fn]
pub fn night_audit(hotel: &mut Hotel, charge: NightCharge) -> Vec<Msg> {
    let day = hotel.day;
    let mut commands = Vec::new();
    for stay in hotel
        .stays
        .iter()
        .filter(|s| s.checked_in && !s.checked_out)
    {
        let Some(number) = stay.room else {
            continue;
        };
        let rate = hotel
            .rooms
            .iter()
            .find(|r| r.number == number)
            .map_or(0, |r| r.rate);
        commands.push(Msg::Post {
            stay: stay.id,
            what: format!("night of day {day}"),
            cents: charge(&hotel.rates, rate, stay, day),
        });
    }
    hotel.day += 1;
    commands
}

/// Checks a stay out: the city tax (and a late check-out's fee) are charged, and its room needs cleaning.
#[ranvier::trace_fn]
pub fn check_out(hotel: &mut Hotel, id: u32, late: bool) -> Vec<Msg> {
    let day = hotel.day;
    let rates = hotel.rates.clone();
    let Some(stay) = hotel.stays.iter_mut().find(|s| s.id == id && s.in_house()) else {
        return notify(format!("stay {id} is not in the hotel"));
    };
    stay.checked_out = true;
    stay.touched = day;
    let stay = stay.clone();
    let tax = folio::city_tax(&rates, &stay);
    if let Some(room) = stay.room.and_then(|number| hotel.room_mut(number)) {
        room.status = Status::Dirty;
    }
    let mut commands = vec![Msg::Post {
        stay: id,
        what: "city tax".to_owned(),
        cents: tax,
    }];
    if late {
        commands.push(Msg::Post {
            stay: id,
            what: "late check-out".to_owned(),
            cents: rates.late_fee,
        });
    }
    commands.push(Msg::Notify {
        text: format!("{} checked out (tax {})", stay.guest, money(tax)),
    });
    commands
}

/// Housekeeping cleaned a room: a dirty room is vacant again.
#[ranvier::trace_fn]
pub fn cleaned(hotel: &mut Hotel, number: u32) -> Vec<Msg> {
    let Some(room) = hotel.room_mut(number) else {
        return notify(format!("no room {number}"));
    };
    if room.status == Status::Dirty {
        room.status = Status::Vacant;
    }
    Vec::new()
}

/// `update` with a mistake in one of its messages.
pub mod slipped {
    use super::super::folio::{self, NightCharge};
    use super::super::model::{Hotel, Msg, Status, money};
    use super::super::rules;
    use super::{check_in, night_audit, notify, update};

    /// `update`, checking in with the first room choice.
    #[ranvier::trace_fn]
    pub fn update_pick(msg: Msg, hotel: &Hotel) -> (Hotel, Vec<Msg>) {
        match msg {
            Msg::CheckIn { stay } => {
                let mut next = hotel.clone();
                let commands = check_in(&mut next, stay, rules::slipped::pick_room);
                (next, commands)
            }
            other => update(other, hotel),
        }
    }

    /// `update`, auditing with the first weekend rule.
    #[ranvier::trace_fn]
    pub fn update_weekend(msg: Msg, hotel: &Hotel) -> (Hotel, Vec<Msg>) {
        match msg {
            Msg::NightAudit => {
                let mut next = hotel.clone();
                let commands = night_audit(&mut next, folio::slipped::night_charge_weekend);
                (next, commands)
            }
            other => update(other, hotel),
        }
    }

    /// `update`, with the first night audit.
    #[ranvier::trace_fn]
    pub fn update_audit(msg: Msg, hotel: &Hotel) -> (Hotel, Vec<Msg>) {
        match msg {
            Msg::NightAudit => {
                let mut next = hotel.clone();
                let commands = audit(&mut next, folio::night_charge);
                (next, commands)
            }
            other => update(other, hotel),
        }
    }

    /// `update`, with the first check-out.
    #[ranvier::trace_fn]
    pub fn update_check_out(msg: Msg, hotel: &Hotel) -> (Hotel, Vec<Msg>) {
        match msg {
            Msg::CheckOut { stay, late } => {
                let mut next = hotel.clone();
                let commands = check_out(&mut next, stay, late);
                (next, commands)
            }
            other => update(other, hotel),
        }
    }

    #[ranvier::trace_fn]
    fn audit(hotel: &mut Hotel, charge: NightCharge) -> Vec<Msg> {
        let day = hotel.day;
        let mut commands = Vec::new();
        // BUG(audit_checked_out)
        for stay in hotel.stays.iter().filter(|s| s.checked_in) {
            let Some(number) = stay.room else {
                continue;
            };
            let rate = hotel
                .rooms
                .iter()
                .find(|r| r.number == number)
                .map_or(0, |r| r.rate);
            commands.push(Msg::Post {
                stay: stay.id,
                what: format!("night of day {day}"),
                cents: charge(&hotel.rates, rate, stay, day),
            });
        }
        hotel.day += 1;
        commands
    }

    #[ranvier::trace_fn]
    fn check_out(hotel: &mut Hotel, id: u32, late: bool) -> Vec<Msg> {
        let day = hotel.day;
        let rates = hotel.rates.clone();
        let Some(stay) = hotel.stays.iter_mut().find(|s| s.id == id && s.in_house()) else {
            return notify(format!("stay {id} is not in the hotel"));
        };
        stay.checked_out = true;
        stay.touched = day;
        let stay = stay.clone();
        let tax = folio::city_tax(&rates, &stay);
        if let Some(room) = stay.room.and_then(|number| hotel.room_mut(number)) {
            room.status = Status::Dirty;
        }
        let mut commands = Vec::new();
        if late {
            commands.push(Msg::Post {
                stay: id,
                what: "late check-out".to_owned(),
                cents: rates.late_fee,
            });
            // BUG(checkout_tax)
            commands.push(Msg::Post {
                stay: id,
                what: "city tax".to_owned(),
                cents: tax,
            });
        }
        commands.push(Msg::Notify {
            text: format!("{} checked out (tax {})", stay.guest, money(tax)),
        });
        commands
    }
}
