//! The garage's `update`: one arm per message. The workshop's steps are in `workshop`, the invoice in `pricing`,
//! reached through [`Rules`]; a fit that leaves a part low orders more, a finished job raises its invoice and a
//! delivery puts waiting jobs back to work, as commands (messages dispatched after the one that sent them).

use super::calendar;
use super::model::{Booking, Car, Customer, Garage, Invoice, Msg, Order, Plate, Settings, Status};
use super::workshop::{self, Request, Taken};

/// Books a checked request, as [`workshop::place_booking`].
pub type PlaceBooking = fn(&mut Garage, &Request) -> Result<u32, String>;
/// Takes parts from the shelf for a job, as [`workshop::take_parts`].
pub type TakeParts = fn(&mut Garage, u32, &str, u32) -> Result<Taken, String>;
/// Fits parts on a job and says what to order, as [`fit`].
pub type Fit = fn(&mut Garage, TakeParts, u32, String, u32) -> Vec<Msg>;
/// Prices a job, as [`pricing::invoice`](super::pricing::invoice).
pub type Price = fn(&Booking, &Customer, &Settings) -> Invoice;

/// The rules `update` works by.
#[derive(Clone, Copy)]
pub struct Rules {
    /// Finds a booking its bay.
    pub book: PlaceBooking,
    /// Takes parts from the shelf.
    pub take: TakeParts,
    /// Fits parts and orders what runs low.
    pub fit: Fit,
    /// Prices a finished job.
    pub price: Price,
}

/// The garage after `msg`, and the messages to dispatch next.
#[ranvier::trace_fn]
pub fn update(msg: Msg, garage: &Garage, rules: &Rules) -> (Garage, Vec<Msg>) {
    let mut next = garage.clone();
    let mut commands = Vec::new();
    let done = match msg {
        Msg::AddCustomer { name, phone, trade } => add_customer(&mut next, name, phone, trade),
        Msg::AddCar {
            plate,
            owner,
            make,
            mot_due,
        } => add_car(&mut next, &plate, owner, make, &mot_due),
        Msg::Book {
            plate,
            date,
            start,
            hours,
            work,
        } => workshop::request(&next, &plate, &date, start, hours, &work)
            .and_then(|request| (rules.book)(&mut next, &request))
            .map(|_| ()),
        Msg::Assign { booking, mechanic } => workshop::assign(&mut next, booking, &mechanic),
        Msg::StartJob { booking } => workshop::start_job(&mut next, booking),
        Msg::LogLabour {
            booking,
            minutes,
            note,
        } => workshop::log_labour(&mut next, booking, minutes, note),
        Msg::FitPart { booking, code, qty } => {
            commands = (rules.fit)(&mut next, rules.take, booking, code, qty);
            Ok(())
        }
        Msg::FinishJob { booking } => finish_job(&mut next, booking).map(|sent| commands = sent),
        Msg::RaiseInvoice { booking } => raise_invoice(&mut next, booking, rules.price),
        Msg::Collect { booking } => collect(&mut next, booking),
        Msg::Reorder { code } => reorder(&mut next, &code),
        Msg::Receive { code } => receive(&mut next, &code).map(|sent| commands = sent),
        Msg::NextDay => {
            next.today += 1;
            Ok(())
        }
    };
    if let Err(why) = done {
        next.notice(why);
    }
    (next, commands)
}

/// A new customer, unless the name is taken.
#[ranvier::trace_fn]
fn add_customer(
    garage: &mut Garage,
    name: String,
    phone: String,
    trade: bool,
) -> Result<(), String> {
    if garage.customer(&name).is_some() {
        return Err(format!("{name} is already a customer"));
    }
    garage.customers.push(Customer {
        name,
        phone,
        trade,
        visits: 0,
    });
    Ok(())
}

/// A customer's car, with the day its MOT runs out.
#[ranvier::trace_fn]
fn add_car(
    garage: &mut Garage,
    plate: &str,
    owner: String,
    make: String,
    mot_due: &str,
) -> Result<(), String> {
    let plate = Plate::new(plate);
    if garage.car(&plate).is_some() {
        return Err(format!("{plate} is already on file"));
    }
    if garage.customer(&owner).is_none() {
        return Err(format!("{owner} is not a customer"));
    }
    let mot_due = calendar::parse(mot_due).ok_or_else(|| format!("{mot_due:?} is not a date"))?;
    garage.cars.push(Car {
        plate,
        owner,
        make,
        mot_due,
    });
    Ok(())
}

/// Fits `qty` of `code` on booking `booking`'s job with `take`, and orders the part when the shelf runs low or short.
#[ranvier::trace_fn]
pub fn fit(garage: &mut Garage, take: TakeParts, booking: u32, code: String, qty: u32) -> Vec<Msg> {
    match take(garage, booking, &code, qty) {
        Ok(Taken::Fitted { on_job, left }) => {
            let low = garage.part(&code).is_some_and(|part| part.is_low());
            if low {
                garage.notice(format!(
                    "{code} is low: {left} left after #{booking} ({on_job} on the job)"
                ));
                vec![Msg::Reorder { code }]
            } else {
                Vec::new()
            }
        }
        Ok(Taken::Short { missing }) => {
            garage.notice(format!("#{booking} waits for {code}: {missing} short"));
            vec![Msg::Reorder { code }]
        }
        Err(why) => {
            garage.notice(why);
            Vec::new()
        }
    }
}

/// The work on booking `id` is done: its invoice is raised next.
#[ranvier::trace_fn]
fn finish_job(garage: &mut Garage, id: u32) -> Result<Vec<Msg>, String> {
    let booking = garage
        .booking_mut(id)
        .ok_or_else(|| format!("no booking #{id}"))?;
    match booking.status {
        Status::InBay => {
            booking.status = Status::Done;
            Ok(vec![Msg::RaiseInvoice { booking: id }])
        }
        Status::WaitingParts => Err(format!("#{id} still waits for parts")),
        other => Err(format!("#{id} is not in a bay ({other:?})")),
    }
}

/// Raises the invoice of booking `id` with `price`, once.
#[ranvier::trace_fn]
fn raise_invoice(garage: &mut Garage, id: u32, price: Price) -> Result<(), String> {
    if garage.invoices.iter().any(|invoice| invoice.booking == id) {
        return Err(format!("#{id} is already invoiced"));
    }
    let booking = garage
        .booking(id)
        .ok_or_else(|| format!("no booking #{id}"))?;
    let owner = garage
        .car(&booking.plate)
        .map(|car| car.owner.clone())
        .unwrap_or_default();
    let customer = garage
        .customer(&owner)
        .ok_or_else(|| format!("nobody owns {}", booking.plate))?;
    let invoice = price(booking, customer, &garage.settings);
    garage.invoices.push(invoice);
    Ok(())
}

/// The customer pays for booking `id` and takes the car: one more visit on their account.
#[ranvier::trace_fn]
fn collect(garage: &mut Garage, id: u32) -> Result<(), String> {
    let booking = garage
        .booking_mut(id)
        .ok_or_else(|| format!("no booking #{id}"))?;
    if booking.status != Status::Done {
        return Err(format!("#{id} is not ready"));
    }
    booking.status = Status::Collected;
    let plate = booking.plate.clone();
    let owner = garage.car(&plate).map(|car| car.owner.clone());
    if let Some(customer) = garage
        .customers
        .iter_mut()
        .find(|c| Some(&c.name) == owner.as_ref())
    {
        customer.visits += 1;
    }
    Ok(())
}

/// Orders part `code` from its supplier, enough to fill the shelf, unless some is already on its way.
#[ranvier::trace_fn]
fn reorder(garage: &mut Garage, code: &str) -> Result<(), String> {
    let today = garage.today;
    let part = garage
        .parts
        .iter_mut()
        .find(|p| p.code == code)
        .ok_or_else(|| format!("no part {code} in the store"))?;
    if part.on_order > 0 {
        return Err(format!("{code}: {} already on order", part.on_order));
    }
    let qty = part.shortfall();
    if qty == 0 {
        return Ok(());
    }
    part.on_order = qty;
    let order = Order {
        code: code.to_owned(),
        qty,
        supplier: part.supplier.clone(),
        placed: today,
    };
    garage.orders.push(order);
    Ok(())
}

/// The delivery of part `code` arrives: it goes on the shelf, and the jobs waiting for it fit it (commands).
#[ranvier::trace_fn]
fn receive(garage: &mut Garage, code: &str) -> Result<Vec<Msg>, String> {
    let at = garage
        .orders
        .iter()
        .position(|order| order.code == code)
        .ok_or_else(|| format!("nothing on order for {code}"))?;
    let order = garage.orders.remove(at);
    if let Some(part) = garage.parts.iter_mut().find(|p| p.code == code) {
        part.stock += order.qty;
        part.on_order = part.on_order.saturating_sub(order.qty);
    }
    let mut fits = Vec::new();
    for booking in &mut garage.bookings {
        let Some(at) = booking.job.awaiting.iter().position(|(c, _)| c == code) else {
            continue;
        };
        let (code, qty) = booking.job.awaiting.remove(at);
        if booking.job.awaiting.is_empty() {
            booking.status = Status::InBay;
        }
        fits.push(Msg::FitPart {
            booking: booking.id,
            code,
            qty,
        });
    }
    Ok(fits)
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::{Garage, Msg, TakeParts, Taken};

    /// Fits `qty` of `code` on booking `booking`'s job with `take`, and orders the part when the shelf runs low or
    /// short.
    #[ranvier::trace_fn]
    pub fn fit(
        garage: &mut Garage,
        take: TakeParts,
        booking: u32,
        code: String,
        qty: u32,
    ) -> Vec<Msg> {
        match take(garage, booking, &code, qty) {
            Ok(Taken::Fitted { on_job, left }) => {
                let low = garage.part(&code).is_some_and(|part| part.is_low());
                if low {
                    garage.notice(format!(
                        "{code} is low: {left} left after #{booking} ({on_job} on the job)"
                    ));
                    vec![Msg::Reorder { code }]
                } else {
                    Vec::new()
                }
            }
            Ok(Taken::Short { missing }) => {
                garage.notice(format!("#{booking} waits for {code}: {missing} short"));
                // BUG(short_no_reorder)
                Vec::new()
            }
            Err(why) => {
                garage.notice(why);
                Vec::new()
            }
        }
    }
}
