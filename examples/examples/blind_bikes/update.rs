//! The counter's `update`: what each message does to the shop, and the charges, notices and workshop trips it sends
//! on (as commands).

use super::model::{Bike, BikeState, Charge, Msg, Rental, Shop, clock};
use super::pricing::{self, LateFee, RideCharge};
use super::rules;

/// Whether a bike may go out (see [`rules::can_rent`]).
pub type CanRent = fn(&Bike) -> Result<(), String>;

/// The next shop, and the messages to send after it.
#[ranvier::trace_fn]
pub fn update(msg: Msg, shop: &Shop) -> (Shop, Vec<Msg>) {
    let mut next = shop.clone();
    let commands = match msg {
        Msg::Stock { bike, kind, km } => stock(&mut next, bike, kind, km),
        Msg::Rent {
            bike,
            customer,
            member,
            hours,
        } => rent(&mut next, bike, customer, member, hours, rules::can_rent),
        Msg::ReturnBike { rental, km } => return_bike(
            &mut next,
            rental,
            km,
            pricing::ride_charge,
            pricing::late_fee,
        ),
        Msg::Extend { rental, hours } => extend(&mut next, rental, hours),
        Msg::Damage { bike } => damage(&mut next, &bike),
        Msg::Repair { bike } => repair(&mut next, &bike),
        Msg::Advance { minutes } => {
            next.minute += minutes;
            Vec::new()
        }
        Msg::Charge {
            rental,
            what,
            cents,
        } => {
            next.ledger.push(Charge {
                rental,
                what,
                cents,
            });
            Vec::new()
        }
        Msg::Notify { text } => {
            next.notices.push(text);
            Vec::new()
        }
        Msg::ToService { bike } => to_service(&mut next, &bike),
    };
    (next, commands)
}

/// One notice, as the only command.
#[ranvier::trace_fn]
pub fn notify(text: String) -> Vec<Msg> {
    vec![Msg::Notify { text }]
}

/// A bike joins the fleet (once per number).
#[ranvier::trace_fn]
pub fn stock(shop: &mut Shop, id: String, kind: String, km: u32) -> Vec<Msg> {
    if shop.bike(&id).is_some() {
        return notify(format!("{id} is already on the floor"));
    }
    shop.bikes.push(Bike {
        id,
        kind,
        km,
        km_today: 0,
        state: BikeState::Ready,
    });
    Vec::new()
}

/// Hands `bike` to `customer`, if it may go out.
#[ranvier::trace_fn]
pub fn rent(
    shop: &mut Shop,
    bike: String,
    customer: String,
    member: bool,
    hours: u32,
    can_rent: CanRent,
) -> Vec<Msg> {
    let start = shop.minute;
    let id = shop.next_rental;
    let Some(chosen) = shop.bike_mut(&bike) else {
        return notify(format!("no bike {bike}"));
    };
    if let Err(why) = can_rent(chosen) {
        return notify(format!("{customer} cannot take {bike}: {why}"));
    }
    chosen.state = BikeState::Out;
    shop.next_rental += 1;
    shop.rentals.push(Rental {
        id,
        bike,
        customer,
        member,
        start,
        hours,
        returned: None,
    });
    Vec::new()
}

/// Takes a bike back: its kilometres, the charges for the ride and for coming back late, and the workshop if it is
/// due for its service.
#[ranvier::trace_fn]
pub fn return_bike(
    shop: &mut Shop,
    id: u32,
    km: u32,
    ride_charge: RideCharge,
    late_fee: LateFee,
) -> Vec<Msg> {
    let now = shop.minute;
    let rates = shop.rates.clone();
    let Some(rental) = shop.rentals.iter_mut().find(|r| r.id == id && r.is_open()) else {
        return notify(format!("rental {id} is not out"));
    };
    rental.returned = Some(now);
    let rental = rental.clone();
    let Some(bike) = shop.bike_mut(&rental.bike) else {
        return notify(format!("rental {id}: no bike {}", rental.bike));
    };
    bike.km += km;
    bike.km_today += km;
    bike.state = BikeState::Ready;
    let ride = ride_charge(&rates, &bike.kind, now - rental.start, rental.member);
    let mut commands = vec![Msg::Charge {
        rental: id,
        what: "ride".to_owned(),
        cents: ride,
    }];
    let fee = late_fee(&rates, rules::minutes_late(&rental, now));
    if fee > 0 {
        commands.push(Msg::Charge {
            rental: id,
            what: "late".to_owned(),
            cents: fee,
        });
    }
    if rules::needs_service(bike) {
        commands.push(Msg::ToService {
            bike: bike.id.clone(),
        });
    }
    commands
}

/// The customer keeps the bike `hours` hours more.
#[ranvier::trace_fn]
pub fn extend(shop: &mut Shop, id: u32, hours: u32) -> Vec<Msg> {
    let Some(rental) = shop.rentals.iter_mut().find(|r| r.id == id && r.is_open()) else {
        return notify(format!("rental {id} is not out"));
    };
    rental.hours += hours;
    notify(format!(
        "{} keeps {} until {}",
        rental.customer,
        rental.bike,
        clock(rental.due())
    ))
}

/// A bike on the floor found damaged.
#[ranvier::trace_fn]
pub fn damage(shop: &mut Shop, id: &str) -> Vec<Msg> {
    let Some(bike) = shop.bike_mut(id) else {
        return notify(format!("no bike {id}"));
    };
    if bike.state == BikeState::Out {
        return notify(format!("{id} is out: check it when it comes back"));
    }
    bike.state = BikeState::Damaged;
    notify(format!("{id} is off the floor until repaired"))
}

/// A bike back from the workshop.
#[ranvier::trace_fn]
pub fn repair(shop: &mut Shop, id: &str) -> Vec<Msg> {
    let Some(bike) = shop.bike_mut(id) else {
        return notify(format!("no bike {id}"));
    };
    match bike.state {
        BikeState::Damaged | BikeState::InService => {
            bike.state = BikeState::Ready;
            bike.km = 0;
            Vec::new()
        }
        BikeState::Ready | BikeState::Out => notify(format!("{id} was not in the workshop")),
    }
}

/// A bike goes to the workshop for its service.
#[ranvier::trace_fn]
pub fn to_service(shop: &mut Shop, id: &str) -> Vec<Msg> {
    let Some(bike) = shop.bike_mut(id) else {
        return notify(format!("no bike {id}"));
    };
    if bike.state != BikeState::Ready {
        return Vec::new();
    }
    bike.state = BikeState::InService;
    notify(format!("{id} to the workshop after {} km", bike.km))
}

/// `update` with a mistake in one of its messages.
pub mod slipped {
    use super::super::model::{BikeState, Msg, Shop};
    use super::super::pricing::{self, LateFee, RideCharge};
    use super::super::rules;
    use super::{notify, rent, return_bike, update};

    /// `update`, with the first day price.
    #[ranvier::trace_fn]
    pub fn update_day_cap(msg: Msg, shop: &Shop) -> (Shop, Vec<Msg>) {
        match msg {
            Msg::ReturnBike { rental, km } => {
                let mut next = shop.clone();
                let commands = return_bike(
                    &mut next,
                    rental,
                    km,
                    pricing::slipped::ride_charge,
                    pricing::late_fee,
                );
                (next, commands)
            }
            other => update(other, shop),
        }
    }

    /// `update`, with the first late fee.
    #[ranvier::trace_fn]
    pub fn update_late_fee(msg: Msg, shop: &Shop) -> (Shop, Vec<Msg>) {
        match msg {
            Msg::ReturnBike { rental, km } => {
                let mut next = shop.clone();
                let commands = return_bike(
                    &mut next,
                    rental,
                    km,
                    pricing::ride_charge,
                    pricing::slipped::late_fee,
                );
                (next, commands)
            }
            other => update(other, shop),
        }
    }

    /// `update`, with the first rental rule.
    #[ranvier::trace_fn]
    pub fn update_rent(msg: Msg, shop: &Shop) -> (Shop, Vec<Msg>) {
        match msg {
            Msg::Rent {
                bike,
                customer,
                member,
                hours,
            } => {
                let mut next = shop.clone();
                let commands = rent(
                    &mut next,
                    bike,
                    customer,
                    member,
                    hours,
                    rules::slipped::can_rent,
                );
                (next, commands)
            }
            other => update(other, shop),
        }
    }

    /// `update`, with the first `ReturnBike`.
    #[ranvier::trace_fn]
    pub fn update_return(msg: Msg, shop: &Shop) -> (Shop, Vec<Msg>) {
        match msg {
            Msg::ReturnBike { rental, km } => {
                let mut next = shop.clone();
                let commands = take_back(
                    &mut next,
                    rental,
                    km,
                    pricing::ride_charge,
                    pricing::late_fee,
                );
                (next, commands)
            }
            other => update(other, shop),
        }
    }

    /// `update`, with the first `Extend`.
    #[ranvier::trace_fn]
    pub fn update_extend(msg: Msg, shop: &Shop) -> (Shop, Vec<Msg>) {
        match msg {
            Msg::Extend { rental, hours } => {
                let mut next = shop.clone();
                let commands = extend(&mut next, rental, hours);
                (next, commands)
            }
            other => update(other, shop),
        }
    }

    #[ranvier::trace_fn]
    fn take_back(
        shop: &mut Shop,
        id: u32,
        km: u32,
        ride_charge: RideCharge,
        late_fee: LateFee,
    ) -> Vec<Msg> {
        let now = shop.minute;
        let rates = shop.rates.clone();
        let Some(rental) = shop.rentals.iter_mut().find(|r| r.id == id && r.is_open()) else {
            return notify(format!("rental {id} is not out"));
        };
        rental.returned = Some(now);
        let rental = rental.clone();
        let Some(bike) = shop.bike_mut(&rental.bike) else {
            return notify(format!("rental {id}: no bike {}", rental.bike));
        };
        // BUG(service_after)
        let due_for_service = rules::needs_service(bike);
        bike.km += km;
        bike.km_today += km;
        bike.state = BikeState::Ready;
        let ride = ride_charge(&rates, &bike.kind, now - rental.start, rental.member);
        let mut commands = vec![Msg::Charge {
            rental: id,
            what: "ride".to_owned(),
            cents: ride,
        }];
        let fee = late_fee(&rates, rules::minutes_late(&rental, now));
        if fee > 0 {
            commands.push(Msg::Charge {
                rental: id,
                what: "late".to_owned(),
                cents: fee,
            });
        }
        if due_for_service {
            commands.push(Msg::ToService {
                bike: bike.id.clone(),
            });
        }
        commands
    }

    #[ranvier::trace_fn]
    fn extend(shop: &mut Shop, id: u32, hours: u32) -> Vec<Msg> {
        let Some(rental) = shop.rentals.iter_mut().find(|r| r.id == id && r.is_open()) else {
            return notify(format!("rental {id} is not out"));
        };
        // BUG(extend_hours)
        rental.hours = hours;
        notify(format!(
            "{} keeps {} until {}",
            rental.customer,
            rental.bike,
            super::clock(rental.due())
        ))
    }
}
