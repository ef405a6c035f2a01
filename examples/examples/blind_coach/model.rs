//! The model: the operator's day, its tours with their bookings, waiting lists and pickup points, and its drivers;
//! and the messages an agent may send.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// One party's booking: how many of each age band, and how many want a room of their own.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Booking {
    pub id: u32,
    pub lead: String,
    pub children: u32,
    pub adults: u32,
    pub seniors: u32,
    pub singles: u32,
    pub paid: u64,
}

impl Booking {
    /// Everyone in the party: the seats it takes.
    #[ranvier::trace_fn]
    pub fn passengers(&self) -> u32 {
        self.children + self.adults + self.seniors
    }
}

/// A stop on the route, `minute` minutes after the coach leaves the depot.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Pickup {
    pub stop: String,
    pub minute: u32,
}

/// A tour: a coach of `seats` seats leaving on day `depart_day` for `days` days.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Tour {
    pub code: String,
    pub name: String,
    pub days: u32,
    pub depart_day: u32,
    pub seats: u32,
    pub adult_fare: u64,
    pub km: u32,
    pub booked: Vec<Booking>,
    pub waiting: Vec<Booking>,
    pub pickups: Vec<Pickup>,
}

impl Tour {
    /// Seats taken by the confirmed bookings.
    pub fn seats_taken(&self) -> u32 {
        self.booked.iter().map(Booking::passengers).sum()
    }

    /// Seats still free.
    pub fn seats_free(&self) -> u32 {
        self.seats.saturating_sub(self.seats_taken())
    }
}

/// A day's driving: `hours` at the wheel on day `day`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Shift {
    pub day: u32,
    pub hours: u32,
}

/// A driver, with a daily limit of their own when their contract sets one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Driver {
    pub name: String,
    pub limit: Option<u32>,
    pub shifts: Vec<Shift>,
}

/// The whole model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Coach {
    pub day: u32,
    pub next_id: u32,
    pub refunded: u64,
    pub tours: Vec<Tour>,
    pub drivers: Vec<Driver>,
}

impl Default for Coach {
    fn default() -> Self {
        Coach {
            day: 1,
            next_id: 1,
            refunded: 0,
            tours: Vec::new(),
            drivers: vec![
                Driver {
                    name: "Ann".to_owned(),
                    limit: None,
                    shifts: Vec::new(),
                },
                Driver {
                    name: "Bob".to_owned(),
                    limit: Some(8),
                    shifts: Vec::new(),
                },
            ],
        }
    }
}

/// What an agent may send.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Adds a tour.
    AddTour {
        code: String,
        name: String,
        days: u32,
        depart_day: u32,
        seats: u32,
        adult_fare: u64,
        km: u32,
    },
    /// Adds a pickup point `minute` minutes into the route of tour `code`.
    AddPickup {
        code: String,
        stop: String,
        minute: u32,
    },
    /// Books a party on tour `code`; a party that does not fit waits.
    Book {
        code: String,
        lead: String,
        children: u32,
        adults: u32,
        seniors: u32,
        singles: u32,
    },
    /// Cancels booking `id` on tour `code`, with its refund.
    Cancel { code: String, id: u32 },
    /// Moves waiting parties that now fit onto tour `code`.
    #[message(skip)]
    Promote { code: String },
    /// Logs `hours` of driving for driver `name` today.
    Drive { name: String, hours: u32 },
    /// Moves the day counter on by `days`.
    Advance { days: u32 },
}

pub mod slipped {
    use super::{Coach, Driver};

    /// `Coach::default`, as first written.
    pub fn default_coach() -> Coach {
        Coach {
            // BUG(default_day)
            day: 0,
            next_id: 1,
            refunded: 0,
            tours: Vec::new(),
            drivers: vec![
                Driver {
                    name: "Ann".to_owned(),
                    limit: None,
                    shifts: Vec::new(),
                },
                Driver {
                    name: "Bob".to_owned(),
                    limit: Some(8),
                    shifts: Vec::new(),
                },
            ],
        }
    }

    /// `Booking::passengers`, as first written.
    #[ranvier::trace_fn]
    pub fn passengers(booking: &super::Booking) -> u32 {
        // BUG(party_size)
        booking.children + booking.adults + booking.adults
    }
}
