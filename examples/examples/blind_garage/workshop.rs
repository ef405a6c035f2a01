//! The workshop floor, as `update` drives it: reading a booking request, finding it a bay, giving the job to a
//! mechanic, the car going into its bay, labour, and parts taken from the store for a job.

use super::calendar;
use super::model::{Booking, Day, Garage, Job, LabourLine, PartLine, Plate, Status, Work};

/// A booking as the desk asked for it, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The car, known to the garage.
    pub plate: Plate,
    /// The day.
    pub day: Day,
    /// The hour it goes in.
    pub start: u32,
    /// Hours in the bay.
    pub hours: u32,
    /// The work.
    pub work: Work,
}

/// What taking parts for a job did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// Taken from the shelf: how many of the part the job has now, and how many are left on the shelf.
    Fitted {
        /// Of this part on the job, all fits together.
        on_job: u32,
        /// Left on the shelf.
        left: u32,
    },
    /// The shelf is short: the job waits for the part.
    Short {
        /// How many the shelf is short of.
        missing: u32,
    },
}

/// Reads a booking request: a known car, a date from today on, and work the garage does.
///
/// # Errors
///
/// What is wrong with it, for the desk.
#[ranvier::trace_fn]
pub fn request(
    garage: &Garage,
    plate: &str,
    date: &str,
    start: u32,
    hours: u32,
    work: &str,
) -> Result<Request, String> {
    let plate = Plate::new(plate);
    if garage.car(&plate).is_none() {
        return Err(format!("{plate} is not a car we know"));
    }
    let day = calendar::parse(date).ok_or_else(|| format!("{date:?} is not a date"))?;
    if day < garage.today {
        return Err(format!("{} has gone", calendar::format(day)));
    }
    let work = Work::parse(work).ok_or_else(|| format!("we do not do {work:?}"))?;
    Ok(Request {
        plate,
        day,
        start,
        hours,
        work,
    })
}

/// Books `request` into the lowest-numbered bay free for its hours, and returns the booking's number.
///
/// # Errors
///
/// Hours outside opening hours, or no bay free.
#[ranvier::trace_fn]
pub fn place_booking(garage: &mut Garage, request: &Request) -> Result<u32, String> {
    let (day, start, hours) = (request.day, request.start, request.hours);
    let end = start + hours;
    if start < garage.settings.opens || end > garage.settings.closes {
        return Err(format!(
            "{}: {start:02}:00 to {end:02}:00 is outside opening hours",
            request.plate
        ));
    }
    let taken = |bay: u8| {
        garage
            .bookings
            .iter()
            .filter(|b| b.bay == bay && b.day == day)
            .any(|b| b.start < end && start < b.start + b.hours)
    };
    let Some(bay) = (1..=garage.settings.bays).find(|&bay| !taken(bay)) else {
        return Err(format!(
            "no bay free on {} from {start:02}:00 for {hours} h",
            calendar::format(day)
        ));
    };
    let id = garage.next_booking;
    garage.next_booking += 1;
    garage.bookings.push(Booking {
        id,
        plate: request.plate.clone(),
        day,
        start,
        hours,
        bay,
        work: request.work,
        status: Status::Booked,
        job: Job::default(),
    });
    Ok(id)
}

/// Gives booking `id`'s job to `mechanic`, who must be trained for its work.
///
/// # Errors
///
/// An unknown booking or mechanic, or one without the skill.
#[ranvier::trace_fn]
pub fn assign(garage: &mut Garage, id: u32, mechanic: &str) -> Result<(), String> {
    let skilled = garage
        .mechanics
        .iter()
        .find(|m| m.name == mechanic)
        .map(|m| m.skills.clone())
        .ok_or_else(|| format!("no mechanic {mechanic}"))?;
    let booking = garage
        .booking_mut(id)
        .ok_or_else(|| format!("no booking #{id}"))?;
    if !skilled.contains(&booking.work) {
        return Err(format!(
            "{mechanic} does not do {} work",
            booking.work.name()
        ));
    }
    booking.job.mechanic = Some(mechanic.to_owned());
    Ok(())
}

/// Booking `id`'s car goes into its bay: booked for today, with a mechanic.
///
/// # Errors
///
/// A booking that is not today's, not waiting, or has nobody to work on it.
#[ranvier::trace_fn]
pub fn start_job(garage: &mut Garage, id: u32) -> Result<(), String> {
    let today = garage.today;
    let booking = garage
        .booking_mut(id)
        .ok_or_else(|| format!("no booking #{id}"))?;
    if booking.day != today {
        return Err(format!(
            "#{id} is booked for {}",
            calendar::format(booking.day)
        ));
    }
    if booking.status != Status::Booked {
        return Err(format!("#{id} has already started"));
    }
    if booking.job.mechanic.is_none() {
        return Err(format!("#{id} has no mechanic"));
    }
    booking.status = Status::InBay;
    Ok(())
}

/// `minutes` of labour on booking `id`'s job, today, by its mechanic.
///
/// # Errors
///
/// A booking whose car is not in its bay.
#[ranvier::trace_fn]
pub fn log_labour(garage: &mut Garage, id: u32, minutes: u32, note: String) -> Result<(), String> {
    let day = garage.today;
    let booking = garage
        .booking_mut(id)
        .ok_or_else(|| format!("no booking #{id}"))?;
    match (booking.status, booking.job.mechanic.clone()) {
        (Status::InBay | Status::WaitingParts, Some(mechanic)) => {
            booking.job.labour.push(LabourLine {
                mechanic,
                day,
                minutes,
                note,
            });
            Ok(())
        }
        (status, _) => Err(format!("#{id} is not being worked on ({status:?})")),
    }
}

/// Takes `qty` of part `code` from the shelf for booking `id`'s job; a shelf with fewer stops the job until the part
/// comes, and takes nothing.
///
/// # Errors
///
/// An unknown booking or part, or a car not in its bay.
#[ranvier::trace_fn]
pub fn take_parts(garage: &mut Garage, id: u32, code: &str, qty: u32) -> Result<Taken, String> {
    let Garage {
        bookings, parts, ..
    } = garage;
    let booking = bookings
        .iter_mut()
        .find(|b| b.id == id)
        .ok_or_else(|| format!("no booking #{id}"))?;
    if !matches!(booking.status, Status::InBay | Status::WaitingParts) {
        return Err(format!("#{id} is not in a bay"));
    }
    let part = parts
        .iter_mut()
        .find(|p| p.code == code)
        .ok_or_else(|| format!("no part {code} in the store"))?;
    if part.stock < qty {
        booking.status = Status::WaitingParts;
        booking.job.awaiting.push((code.to_owned(), qty));
        return Ok(Taken::Short {
            missing: qty - part.stock,
        });
    }
    let on_job = match booking.job.parts.iter_mut().find(|line| line.code == code) {
        Some(line) => {
            line.qty += qty;
            line.qty
        }
        None => {
            booking.job.parts.push(PartLine {
                code: code.to_owned(),
                qty,
                price: part.price,
            });
            qty
        }
    };
    part.stock -= qty;
    Ok(Taken::Fitted {
        on_job,
        left: part.stock,
    })
}

/// Versions with a mistake, for the blind test.
pub mod slipped {
    use super::{Booking, Garage, Job, PartLine, Request, Status, Taken, calendar};

    /// Books `request` into the lowest-numbered bay free for its hours, and returns the booking's number.
    ///
    /// # Errors
    ///
    /// Hours outside opening hours, or no bay free.
    #[ranvier::trace_fn]
    pub fn place_booking(garage: &mut Garage, request: &Request) -> Result<u32, String> {
        let (day, start, hours) = (request.day, request.start, request.hours);
        let end = start + hours;
        if start < garage.settings.opens || end > garage.settings.closes {
            return Err(format!(
                "{}: {start:02}:00 to {end:02}:00 is outside opening hours",
                request.plate
            ));
        }
        let taken = |bay: u8| {
            garage
                .bookings
                .iter()
                .filter(|b| b.bay == bay && b.day == day)
                // BUG(bay_adjacent)
                .any(|b| b.start < end && start <= b.start + b.hours)
        };
        let Some(bay) = (1..=garage.settings.bays).find(|&bay| !taken(bay)) else {
            return Err(format!(
                "no bay free on {} from {start:02}:00 for {hours} h",
                calendar::format(day)
            ));
        };
        let id = garage.next_booking;
        garage.next_booking += 1;
        garage.bookings.push(Booking {
            id,
            plate: request.plate.clone(),
            day,
            start,
            hours,
            bay,
            work: request.work,
            status: Status::Booked,
            job: Job::default(),
        });
        Ok(id)
    }

    /// Takes `qty` of part `code` from the shelf for booking `id`'s job; a shelf with fewer stops the job until the
    /// part comes, and takes nothing.
    ///
    /// # Errors
    ///
    /// An unknown booking or part, or a car not in its bay.
    #[ranvier::trace_fn]
    pub fn take_parts(garage: &mut Garage, id: u32, code: &str, qty: u32) -> Result<Taken, String> {
        let Garage {
            bookings, parts, ..
        } = garage;
        let booking = bookings
            .iter_mut()
            .find(|b| b.id == id)
            .ok_or_else(|| format!("no booking #{id}"))?;
        if !matches!(booking.status, Status::InBay | Status::WaitingParts) {
            return Err(format!("#{id} is not in a bay"));
        }
        let part = parts
            .iter_mut()
            .find(|p| p.code == code)
            .ok_or_else(|| format!("no part {code} in the store"))?;
        if part.stock < qty {
            booking.status = Status::WaitingParts;
            booking.job.awaiting.push((code.to_owned(), qty));
            return Ok(Taken::Short {
                missing: qty - part.stock,
            });
        }
        let on_job = match booking.job.parts.iter_mut().find(|line| line.code == code) {
            Some(line) => {
                line.qty += qty;
                line.qty
            }
            None => {
                booking.job.parts.push(PartLine {
                    code: code.to_owned(),
                    qty,
                    price: part.price,
                });
                qty
            }
        };
        // BUG(fit_merged_qty)
        part.stock -= on_job;
        Ok(Taken::Fitted {
            on_job,
            left: part.stock,
        })
    }
}
