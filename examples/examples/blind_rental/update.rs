//! The desk's `update`: one arm per message, the helpers the longer arms call, and the commands they send (a car
//! collected takes its deposit, a car returned is charged and its deposit settled).

use super::damage;
use super::fleet::{self, ServiceDue};
use super::model::{
    BRANCHES, Booking, Class, DamageReport, Extra, FULL, Invoice, Msg, Office, Paid, Payment,
    Status,
};
use super::tariffs;

/// The days a booking is charged for.
pub type HireDays = fn(&Booking) -> u32;

/// The helpers and rules `update` calls through fn values, so that the office can be started with another version
/// of one.
#[derive(Clone, Copy)]
pub struct Helpers {
    pub hire_days: HireDays,
    pub service_due: ServiceDue,
    pub pick_up: fn(&mut Office, u32, ServiceDue) -> Vec<Msg>,
    pub return_car: fn(&mut Office, u32, u32, u32) -> Vec<Msg>,
    pub late_fee: fn(&Booking, u32, u32) -> u32,
    pub excess: fn(Class, bool) -> u32,
}

impl Default for Helpers {
    fn default() -> Self {
        Helpers {
            hire_days: Booking::hire_days,
            service_due: fleet::service_due,
            pick_up,
            return_car,
            late_fee: tariffs::late_fee,
            excess: damage::excess,
        }
    }
}

/// The commands the office starts with: the desk opens.
pub fn opening() -> Vec<Msg> {
    vec![Msg::Open]
}

/// The office after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, office: &Office, helpers: &Helpers) -> (Office, Vec<Msg>) {
    let mut next = office.clone();
    let mut commands = Vec::new();
    match msg {
        Msg::Open => {
            let branches = BRANCHES.join(" and ");
            next.note(format!("{branches} open"));
        }
        Msg::Advance { days } => next.today += days,
        Msg::Book {
            customer,
            class,
            pickup,
            return_day,
            from,
            to,
        } => book(
            &mut next,
            customer,
            &class,
            (pickup, return_day),
            (from, to),
        ),
        Msg::AddExtra { booking, extra } => match (next.booking_mut(booking), Extra::parse(&extra))
        {
            (Some(found), Some(extra)) if found.status == Status::Booked => {
                if !found.has(extra) {
                    found.extras.push(extra);
                }
            }
            (Some(_), Some(_)) => next.note(format!("booking {booking} has been collected")),
            _ => next.note(format!("no extra {extra:?} for booking {booking}")),
        },
        Msg::PickUp { booking } => {
            commands = (helpers.pick_up)(&mut next, booking, helpers.service_due)
        }
        Msg::Deposit { booking } => deposit(&mut next, booking),
        Msg::Damage {
            booking,
            part,
            cost,
        } => match next.booking(booking).and_then(|b| b.car.clone()) {
            Some(reg) => next.damages.push(DamageReport {
                booking,
                reg,
                part,
                cost,
            }),
            None => next.note(format!("booking {booking} has no car")),
        },
        Msg::Return { booking, km, fuel } => {
            commands = (helpers.return_car)(&mut next, booking, km, fuel);
        }
        Msg::Settle { booking } => settle(&mut next, booking, helpers),
    }
    (next, commands)
}

/// Takes a booking, for a class the office hires, between its branches, due back after it is collected.
#[ranvier::trace_fn]
fn book(
    office: &mut Office,
    customer: String,
    class: &str,
    days: (u32, u32),
    route: (String, String),
) {
    let (pickup_day, return_day) = days;
    let (from, to) = route;
    let Some(class) = Class::parse(class) else {
        office.note(format!("no class {class:?}"));
        return;
    };
    if return_day < pickup_day || pickup_day < office.today {
        office.note(format!(
            "{customer}: no hire from day {pickup_day} to day {return_day}"
        ));
        return;
    }
    if ![&from, &to].iter().all(|b| BRANCHES.contains(&b.as_str())) {
        office.note(format!("no branch for {from} to {to}"));
        return;
    }
    office.customer_mut(&customer);
    let no = office.bookings.len() as u32 + 1;
    office.bookings.push(Booking {
        no,
        customer,
        class,
        pickup_day,
        return_day,
        from,
        to,
        extras: Vec::new(),
        status: Status::Booked,
        car: None,
        deposit: 0,
        km_out: 0,
        km_in: None,
        fuel_in: None,
        returned_day: None,
        invoice: None,
    });
}

/// Hands over the free car of the booked class at the branch with the fewest kilometres, leaving out cars due for
/// their service, and asks for the deposit.
#[ranvier::trace_fn]
pub fn pick_up(office: &mut Office, no: u32, service_due: ServiceDue) -> Vec<Msg> {
    let today = office.today;
    let Some(booking) = office.booking(no).cloned() else {
        office.note(format!("no booking {no}"));
        return Vec::new();
    };
    if booking.status != Status::Booked || booking.pickup_day != today {
        office.note(format!("booking {no} is not collected today"));
        return Vec::new();
    }
    let chosen = office
        .cars
        .iter()
        .filter(|c| c.class == booking.class && c.branch == booking.from)
        .filter(|c| c.on_hire.is_none() && !service_due(c))
        .min_by_key(|c| c.odometer)
        .map(|c| (c.reg.clone(), c.odometer));
    let Some((reg, km)) = chosen else {
        office.note(format!(
            "no {} free at {}",
            booking.class.name(),
            booking.from
        ));
        return Vec::new();
    };
    if let Some(car) = office.car_mut(&reg) {
        car.on_hire = Some(no);
    }
    if let Some(booking) = office.booking_mut(no) {
        booking.status = Status::Out;
        booking.car = Some(reg);
        booking.km_out = km;
    }
    vec![Msg::Deposit { booking: no }]
}

/// Takes the deposit for a booking's class.
#[ranvier::trace_fn]
fn deposit(office: &mut Office, no: u32) {
    let day = office.today;
    let Some(booking) = office.booking_mut(no) else {
        return;
    };
    let pence = tariffs::deposit(booking.class);
    booking.deposit = pence;
    office.payments.push(Payment {
        day,
        booking: no,
        kind: Paid::Deposit,
        pence,
    });
}

/// Takes a car back today at the booking's return branch, with its odometer and fuel, and asks for the hire to be
/// settled.
#[ranvier::trace_fn]
pub fn return_car(office: &mut Office, no: u32, km: u32, fuel: u32) -> Vec<Msg> {
    let today = office.today;
    let Some(booking) = office.booking_mut(no) else {
        return Vec::new();
    };
    if booking.status != Status::Out || km < booking.km_out {
        let why = format!("booking {no} cannot be returned at {km} km");
        office.note(why);
        return Vec::new();
    }
    booking.status = Status::Returned;
    booking.km_in = Some(km);
    booking.fuel_in = Some(fuel.min(FULL));
    booking.returned_day = Some(today);
    let branch = booking.to.clone();
    let reg = booking.car.clone().unwrap_or_default();
    if let Some(car) = office.car_mut(&reg) {
        car.odometer = km;
        car.branch = branch;
        car.on_hire = None;
    }
    vec![Msg::Settle { booking: no }]
}

/// Charges a returned hire (days, extras, kilometres, fuel, lateness, one way, less the loyalty discount), keeps what
/// the damage costs from the deposit and gives the rest back.
#[ranvier::trace_fn]
fn settle(office: &mut Office, no: u32, helpers: &Helpers) {
    let today = office.today;
    let Some(booking) = office.booking(no).cloned() else {
        return;
    };
    let rate = tariffs::day_rate(booking.class);
    let days = (helpers.hire_days)(&booking);
    let mut invoice = Invoice {
        days,
        hire: days * rate,
        ..Invoice::default()
    };
    invoice.extras = booking
        .extras
        .iter()
        .map(|e| tariffs::extra_rate(*e) * days)
        .sum();
    let driven = booking.km_in.unwrap_or(booking.km_out) - booking.km_out;
    invoice.mileage = tariffs::mileage(driven, days);
    invoice.fuel = booking.fuel_short() * tariffs::REFUEL_AN_EIGHTH;
    invoice.late = (helpers.late_fee)(&booking, booking.returned_day.unwrap_or(today), rate);
    invoice.one_way = tariffs::one_way(&booking.from, &booking.to);
    let rentals = office.customer_mut(&booking.customer).rentals;
    invoice.discount = invoice.hire * tariffs::loyalty_percent(rentals) / 100;
    invoice.total = invoice.hire
        + invoice.extras
        + invoice.mileage
        + invoice.fuel
        + invoice.late
        + invoice.one_way
        - invoice.discount;
    let damages: Vec<&DamageReport> = office.damages.iter().filter(|d| d.booking == no).collect();
    let excess = (helpers.excess)(booking.class, booking.has(Extra::FullCover));
    invoice.kept = damage::kept(booking.deposit, &damages, excess);
    invoice.refund = booking.deposit - invoice.kept;
    office.payments.push(Payment {
        day: today,
        booking: no,
        kind: Paid::Hire,
        pence: invoice.total,
    });
    office.payments.push(Payment {
        day: today,
        booking: no,
        kind: Paid::Refund,
        pence: invoice.refund,
    });
    office.customer_mut(&booking.customer).rentals += 1;
    if let Some(booking) = office.booking_mut(no) {
        booking.invoice = Some(invoice);
    }
}

/// Copies of `update`'s helpers with one mistake each, for the blind test.
pub mod slipped {
    use super::super::fleet::ServiceDue;
    use super::super::model::{FULL, Msg, Office, Status};

    /// Hands over the free car of the booked class at the branch with the fewest kilometres, leaving out cars due
    /// for their service, and asks for the deposit.
    #[ranvier::trace_fn]
    pub fn pick_up(office: &mut Office, no: u32, service_due: ServiceDue) -> Vec<Msg> {
        let today = office.today;
        let Some(booking) = office.booking(no).cloned() else {
            office.note(format!("no booking {no}"));
            return Vec::new();
        };
        if booking.status != Status::Booked || booking.pickup_day != today {
            office.note(format!("booking {no} is not collected today"));
            return Vec::new();
        }
        let chosen = office
            .cars
            .iter()
            .filter(|c| c.class == booking.class && c.branch == booking.from)
            .filter(|c| c.on_hire.is_none() && !service_due(c))
            // BUG(free_car)
            .max_by_key(|c| c.odometer)
            .map(|c| (c.reg.clone(), c.odometer));
        let Some((reg, km)) = chosen else {
            office.note(format!(
                "no {} free at {}",
                booking.class.name(),
                booking.from
            ));
            return Vec::new();
        };
        if let Some(car) = office.car_mut(&reg) {
            car.on_hire = Some(no);
        }
        if let Some(booking) = office.booking_mut(no) {
            booking.status = Status::Out;
            booking.car = Some(reg);
            booking.km_out = km;
        }
        vec![Msg::Deposit { booking: no }]
    }

    /// Takes a car back today at the booking's return branch, with its odometer and fuel, and asks for the hire to
    /// be settled.
    #[ranvier::trace_fn]
    pub fn return_car(office: &mut Office, no: u32, km: u32, fuel: u32) -> Vec<Msg> {
        let today = office.today;
        let Some(booking) = office.booking_mut(no) else {
            return Vec::new();
        };
        if booking.status != Status::Out || km < booking.km_out {
            let why = format!("booking {no} cannot be returned at {km} km");
            office.note(why);
            return Vec::new();
        }
        booking.status = Status::Returned;
        booking.km_in = Some(km);
        booking.fuel_in = Some(fuel.min(FULL));
        booking.returned_day = Some(today);
        // BUG(return_branch)
        let branch = booking.from.clone();
        let reg = booking.car.clone().unwrap_or_default();
        if let Some(car) = office.car_mut(&reg) {
            car.odometer = km;
            car.branch = branch;
            car.on_hire = None;
        }
        vec![Msg::Settle { booking: no }]
    }
}
