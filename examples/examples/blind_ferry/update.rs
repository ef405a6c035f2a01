//! The booking desk's `update`: one arm per message, the helpers the longer arms call, and the commands they send (a
//! standby list promoted when a place is given up, a sailing cancelled when the weather has delayed it too long).

use super::limits;
use super::model::{
    Booking, Cancellation, Ferry, Msg, Sailing, Vehicle, VehicleKind, clock, pounds,
};
use super::rules;
use super::tariffs::{self, Season};

/// The rules and helpers `update` calls through fn values, so that the terminal can be started with another version
/// of one.
#[derive(Clone, Copy)]
pub struct Desk {
    pub vehicle_fare: fn(Option<&Vehicle>, Season) -> u32,
    pub deck_fits: fn(u32, u32, u32) -> bool,
    pub lane_cm: fn(&Booking) -> u32,
    pub check_in_closes: fn(&Sailing, Option<VehicleKind>) -> u32,
    pub cancel: fn(&mut Ferry, u32) -> Vec<Msg>,
    pub delay: fn(&mut Ferry, u32, u32) -> Vec<Msg>,
}

impl Default for Desk {
    fn default() -> Self {
        Desk {
            vehicle_fare: tariffs::vehicle_fare,
            deck_fits: limits::deck_fits,
            lane_cm: Booking::lane_cm,
            check_in_closes: rules::check_in_closes,
            cancel,
            delay,
        }
    }
}

/// A party asking for a booking, as the `book` message gives it.
struct Request {
    name: String,
    sailing: u32,
    adults: u32,
    children: u32,
    seniors: u32,
    vehicle: Option<String>,
    length_cm: Option<u32>,
    cabin: bool,
}

/// The terminal after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, ferry: &Ferry, desk: &Desk) -> (Ferry, Vec<Msg>) {
    let mut next = ferry.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Book {
            name,
            sailing,
            adults,
            children,
            seniors,
            vehicle,
            length_cm,
            cabin,
        } => {
            let request = Request {
                name,
                sailing,
                adults,
                children,
                seniors,
                vehicle,
                length_cm,
                cabin,
            };
            book(&mut next, desk, request);
        }
        Msg::CheckIn { reference } => check_in(&mut next, desk, reference),
        Msg::Cancel { reference } => commands = (desk.cancel)(&mut next, reference),
        Msg::Promote { sailing } => promote(&mut next, desk, sailing),
        Msg::Delay { sailing, minutes } => commands = (desk.delay)(&mut next, sailing, minutes),
        Msg::CancelSailing { sailing, reason } => cancel_sailing(&mut next, desk, sailing, &reason),
        Msg::Advance { minutes } => next.now += minutes,
    }
    (next, commands)
}

/// Books the party: priced by the tariff, confirmed when it fits, else on the sailing's standby list.
fn book(ferry: &mut Ferry, desk: &Desk, request: Request) {
    let name = request.name;
    let Some(sailing) = ferry.sailing(request.sailing).cloned() else {
        ferry.note(format!("{name}: no sailing {}", request.sailing));
        return;
    };
    if sailing.cancelled {
        ferry.note(format!("{name}: the {} is cancelled", sailing.title()));
        return;
    }
    if ferry.now >= sailing.departs_at() {
        ferry.note(format!("{name}: the {} has sailed", sailing.title()));
        return;
    }
    if request.adults + request.seniors == 0 {
        ferry.note(format!("{name}: children travel with an adult"));
        return;
    }
    let vehicle = match request.vehicle.as_deref().map(VehicleKind::parse) {
        None => None,
        Some(Some(kind)) => Some(Vehicle {
            kind,
            length_cm: request.length_cm.unwrap_or(kind.usual_cm()),
        }),
        Some(None) => {
            ferry.note(format!("{name}: no deck space for that vehicle"));
            return;
        }
    };
    let season = tariffs::season(ferry.today);
    let cabin = if request.cabin { tariffs::CABIN } else { 0 };
    let fare = tariffs::passenger_fare(season, request.adults, request.children, request.seniors)
        + (desk.vehicle_fare)(vehicle.as_ref(), season)
        + cabin;
    let mut booking = Booking {
        reference: ferry.next_reference,
        sailing: sailing.id,
        name,
        adults: request.adults,
        children: request.children,
        seniors: request.seniors,
        vehicle,
        cabin: request.cabin,
        fare,
        port_fee: 0,
        checked_in: false,
        standby: false,
    };
    booking.port_fee = tariffs::port_fee(booking.passengers());
    booking.standby = !fits(ferry, desk, &sailing, &booking);
    if booking.standby {
        ferry.note(format!(
            "{} {}: the {} is full, on standby",
            booking.reference,
            booking.name,
            sailing.title()
        ));
    }
    ferry.next_reference += 1;
    ferry.bookings.push(booking);
}

/// Whether `booking` fits on `sailing` beside the bookings confirmed on it.
fn fits(ferry: &Ferry, desk: &Desk, sailing: &Sailing, booking: &Booking) -> bool {
    let mut aboard = 0;
    let mut used_cm = 0;
    for other in ferry.bookings.iter().filter(|other| {
        other.sailing == sailing.id && !other.standby && other.reference != booking.reference
    }) {
        aboard += other.passengers();
        used_cm += (desk.lane_cm)(other);
    }
    limits::seats_fit(aboard, booking.passengers(), sailing.seats)
        && (desk.deck_fits)(used_cm, (desk.lane_cm)(booking), sailing.deck_m)
}

/// Checks in booking `reference`, unless its check-in has closed.
fn check_in(ferry: &mut Ferry, desk: &Desk, reference: u32) {
    let now = ferry.now;
    let Some(booking) = ferry
        .bookings
        .iter()
        .find(|booking| booking.reference == reference)
        .cloned()
    else {
        ferry.note(format!("no booking {reference}"));
        return;
    };
    let Some(sailing) = ferry.sailing(booking.sailing).cloned() else {
        return;
    };
    let closes = (desk.check_in_closes)(&sailing, booking.vehicle.as_ref().map(|v| v.kind));
    if now > closes {
        ferry.note(format!(
            "{reference} {}: check-in for the {} closed at {}",
            booking.name,
            sailing.title(),
            clock(closes)
        ));
        return;
    }
    if let Some(booking) = ferry.booking_mut(reference) {
        booking.checked_in = true;
    }
}

/// The party cancels booking `reference`: refunded, and its place offered to the sailing's standby list.
pub fn cancel(ferry: &mut Ferry, reference: u32) -> Vec<Msg> {
    let Some(at) = ferry
        .bookings
        .iter()
        .position(|booking| booking.reference == reference)
    else {
        ferry.note(format!("no booking {reference}"));
        return Vec::new();
    };
    let booking = ferry.bookings.remove(at);
    let refund = tariffs::refund(booking.fare);
    ferry.note(format!(
        "{reference} {} cancelled, {} refunded",
        booking.name,
        pounds(refund)
    ));
    let promote = Msg::Promote {
        sailing: booking.sailing,
    };
    let gave_up_a_place = !booking.standby;
    ferry.cancelled.push(Cancellation { booking, refund });
    if gave_up_a_place {
        vec![promote]
    } else {
        Vec::new()
    }
}

/// Confirms the standby bookings of sailing `id` that fit now, in the order they were made.
fn promote(ferry: &mut Ferry, desk: &Desk, id: u32) {
    let Some(sailing) = ferry.sailing(id).cloned() else {
        return;
    };
    let waiting: Vec<Booking> = ferry
        .bookings
        .iter()
        .filter(|booking| booking.sailing == id && booking.standby)
        .cloned()
        .collect();
    for booking in waiting {
        if fits(ferry, desk, &sailing, &booking) {
            if let Some(confirmed) = ferry.booking_mut(booking.reference) {
                confirmed.standby = false;
            }
            ferry.note(format!(
                "{} {}: confirmed on the {} from standby",
                booking.reference,
                booking.name,
                sailing.title()
            ));
        }
    }
}

/// Delays sailing `id` by a further `minutes`; a sailing too late is cancelled (a `CancelSailing` command).
pub fn delay(ferry: &mut Ferry, id: u32, minutes: u32) -> Vec<Msg> {
    let Some(sailing) = ferry.sailing_mut(id) else {
        ferry.note(format!("no sailing {id}"));
        return Vec::new();
    };
    sailing.delay += minutes;
    let (title, late, leaves) = (sailing.title(), sailing.delay, sailing.departs_at());
    if rules::too_late(late) {
        return vec![Msg::CancelSailing {
            sailing: id,
            reason: format!("the weather, {late} minutes late"),
        }];
    }
    ferry.note(format!("{title} delayed to {}: weather", clock(leaves)));
    Vec::new()
}

/// Cancels sailing `id`: its bookings move to the next sailing on the route, to be checked in again, those that fit
/// confirmed in the order they were made.
fn cancel_sailing(ferry: &mut Ferry, desk: &Desk, id: u32, reason: &str) {
    let Some(sailing) = ferry.sailing_mut(id) else {
        return;
    };
    sailing.cancelled = true;
    let title = sailing.title();
    let Some(to) = rules::next_sailing(&ferry.sailings, id) else {
        ferry.note(format!(
            "{title} cancelled ({reason}); no later sailing today"
        ));
        return;
    };
    for booking in ferry.bookings.iter_mut().filter(|b| b.sailing == id) {
        booking.sailing = to;
        booking.checked_in = false;
        booking.standby = true;
    }
    let next = ferry.sailing(to).map(Sailing::title).unwrap_or_default();
    ferry.note(format!(
        "{title} cancelled ({reason}); bookings moved to the {next}"
    ));
    promote(ferry, desk, to);
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::{Cancellation, Ferry, Msg, clock, pounds};
    use super::super::rules;
    use super::super::tariffs;

    /// [`super::cancel`].
    pub fn cancel(ferry: &mut Ferry, reference: u32) -> Vec<Msg> {
        let Some(at) = ferry
            .bookings
            .iter()
            .position(|booking| booking.reference == reference)
        else {
            ferry.note(format!("no booking {reference}"));
            return Vec::new();
        };
        let booking = ferry.bookings.remove(at);
        let refund = tariffs::refund(booking.fare);
        ferry.note(format!(
            "{reference} {} cancelled, {} refunded",
            booking.name,
            pounds(refund)
        ));
        let promote = Msg::Promote {
            // BUG(promote_sailing)
            sailing: booking.reference,
        };
        let gave_up_a_place = !booking.standby;
        ferry.cancelled.push(Cancellation { booking, refund });
        if gave_up_a_place {
            vec![promote]
        } else {
            Vec::new()
        }
    }

    /// [`super::delay`].
    pub fn delay(ferry: &mut Ferry, id: u32, minutes: u32) -> Vec<Msg> {
        let Some(sailing) = ferry.sailing_mut(id) else {
            ferry.note(format!("no sailing {id}"));
            return Vec::new();
        };
        // BUG(delay_adds)
        sailing.delay = minutes;
        let (title, late, leaves) = (sailing.title(), sailing.delay, sailing.departs_at());
        if rules::too_late(late) {
            return vec![Msg::CancelSailing {
                sailing: id,
                reason: format!("the weather, {late} minutes late"),
            }];
        }
        ferry.note(format!("{title} delayed to {}: weather", clock(leaves)));
        Vec::new()
    }
}
