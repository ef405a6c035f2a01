//! The terminal's model: today's timetable of sailings between Oban, Craignure and Lismore, the bookings on them
//! (confirmed or on standby), the bookings cancelled with their refunds, the clock and the desk's notices, with the
//! messages the booking desk sends.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The terminal opens at 06:00 (minutes since midnight).
pub const OPENS: u32 = 6 * 60;
/// Today, as a day of the year: 19 July.
pub const TODAY: u32 = 200;
/// The space left between two vehicles in a lane, in centimetres.
pub const GAP_CM: u32 = 50;
/// The first booking reference of the day.
pub const FIRST_REFERENCE: u32 = 1001;

/// `HH:MM` of `minutes` since midnight.
pub fn clock(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60 % 24, minutes % 60)
}

/// `£p.pp` of an amount in pence.
pub fn pounds(pence: u32) -> String {
    format!("£{}.{:02}", pence / 100, pence % 100)
}

/// `12.5 m` of a length in centimetres (to the decimetre below).
pub fn metres(cm: u32) -> String {
    format!("{}.{} m", cm / 100, cm % 100 / 10)
}

/// A port the ferries call at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Port {
    Oban,
    Craignure,
    Lismore,
}

impl Port {
    pub fn name(self) -> &'static str {
        match self {
            Port::Oban => "Oban",
            Port::Craignure => "Craignure",
            Port::Lismore => "Lismore",
        }
    }
}

/// A sailing on today's timetable.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Sailing {
    pub id: u32,
    pub from: Port,
    pub to: Port,
    /// The timetabled departure, minutes since midnight.
    pub departs: u32,
    /// How long the crossing takes, in minutes.
    pub crossing: u32,
    /// The passenger certificate: how many may sail.
    pub seats: u32,
    /// The car deck, in lane metres.
    pub deck_m: u32,
    /// Minutes late, for the weather.
    pub delay: u32,
    pub cancelled: bool,
}

impl Sailing {
    fn planned(id: u32, from: Port, to: Port, departs: u32, seats: u32, deck_m: u32) -> Sailing {
        let crossing = if to == Port::Lismore || from == Port::Lismore {
            50
        } else {
            46
        };
        Sailing {
            id,
            from,
            to,
            departs,
            crossing,
            seats,
            deck_m,
            delay: 0,
            cancelled: false,
        }
    }

    /// When it actually leaves: the timetable's time and the delay.
    pub fn departs_at(&self) -> u32 {
        self.departs + self.delay
    }

    /// `Oban→Craignure`.
    pub fn route(&self) -> String {
        format!("{}→{}", self.from.name(), self.to.name())
    }

    /// `07:00 Oban→Craignure`, by the timetable's time.
    pub fn title(&self) -> String {
        format!("{} {}", clock(self.departs), self.route())
    }

    /// Whether `other` crosses between the same ports the same way.
    pub fn same_route(&self, other: &Sailing) -> bool {
        self.from == other.from && self.to == other.to
    }
}

/// What a vehicle on the car deck is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum VehicleKind {
    Car,
    Van,
    Motorcycle,
}

impl VehicleKind {
    pub fn parse(text: &str) -> Option<VehicleKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "car" => Some(VehicleKind::Car),
            "van" => Some(VehicleKind::Van),
            "motorcycle" | "motorbike" => Some(VehicleKind::Motorcycle),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            VehicleKind::Car => "car",
            VehicleKind::Van => "van",
            VehicleKind::Motorcycle => "motorcycle",
        }
    }

    /// The length assumed when the booking does not give one, in centimetres.
    pub fn usual_cm(self) -> u32 {
        match self {
            VehicleKind::Car => 450,
            VehicleKind::Van => 600,
            VehicleKind::Motorcycle => 220,
        }
    }
}

/// A vehicle booked onto the car deck.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Vehicle {
    pub kind: VehicleKind,
    pub length_cm: u32,
}

/// A booking: a party on one sailing, on foot or with a vehicle, confirmed or on standby.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Booking {
    pub reference: u32,
    pub sailing: u32,
    pub name: String,
    pub adults: u32,
    pub children: u32,
    pub seniors: u32,
    pub vehicle: Option<Vehicle>,
    pub cabin: bool,
    /// What the party paid for the crossing, in pence (the port fee apart).
    pub fare: u32,
    /// The harbour's fee the party paid on top, in pence.
    pub port_fee: u32,
    pub checked_in: bool,
    pub standby: bool,
}

impl Booking {
    pub fn passengers(&self) -> u32 {
        self.adults + self.children + self.seniors
    }

    /// The lane space the booking takes on the car deck: its vehicle and the gap behind it; nothing on foot.
    pub fn lane_cm(&self) -> u32 {
        match &self.vehicle {
            Some(vehicle) => vehicle.length_cm + GAP_CM,
            None => 0,
        }
    }

    /// `2 adults, 1 child, car 4.3 m, cabin`.
    pub fn party(&self) -> String {
        let mut parts = Vec::new();
        for (n, one, many) in [
            (self.adults, "adult", "adults"),
            (self.children, "child", "children"),
            (self.seniors, "senior", "seniors"),
        ] {
            match n {
                0 => {}
                1 => parts.push(format!("1 {one}")),
                n => parts.push(format!("{n} {many}")),
            }
        }
        if let Some(vehicle) = &self.vehicle {
            parts.push(format!(
                "{} {}",
                vehicle.kind.name(),
                metres(vehicle.length_cm)
            ));
        }
        if self.cabin {
            parts.push("cabin".to_owned());
        }
        parts.join(", ")
    }
}

/// A booking the party cancelled, and what they were refunded.
#[derive(Clone, Debug, PartialEq)]
pub struct Cancellation {
    pub booking: Booking,
    pub refund: u32,
}

/// One sailing with its bookings: a row of the departures.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Voyage {
    pub sailing: Sailing,
    pub bookings: Vec<Booking>,
}

/// The terminal's day.
#[derive(Clone, Debug, PartialEq)]
pub struct Ferry {
    /// Minutes since midnight.
    pub now: u32,
    /// Day of the year.
    pub today: u32,
    pub sailings: Vec<Sailing>,
    pub bookings: Vec<Booking>,
    pub cancelled: Vec<Cancellation>,
    pub next_reference: u32,
    pub notices: Vec<String>,
}

impl Default for Ferry {
    fn default() -> Self {
        use Port::{Craignure, Lismore, Oban};
        let at = |h: u32, m: u32| h * 60 + m;
        Ferry {
            now: OPENS,
            today: TODAY,
            sailings: vec![
                Sailing::planned(1, Oban, Craignure, at(7, 0), 120, 60),
                Sailing::planned(2, Craignure, Oban, at(8, 30), 120, 60),
                Sailing::planned(3, Oban, Lismore, at(9, 15), 40, 20),
                Sailing::planned(4, Oban, Craignure, at(10, 0), 120, 60),
                Sailing::planned(5, Craignure, Oban, at(11, 30), 120, 60),
                Sailing::planned(6, Oban, Lismore, at(13, 15), 40, 20),
            ],
            bookings: Vec::new(),
            cancelled: Vec::new(),
            next_reference: FIRST_REFERENCE,
            notices: Vec::new(),
        }
    }
}

impl Ferry {
    /// Notes `text` at the terminal's time.
    pub fn note(&mut self, text: String) {
        self.notices.push(format!("{} {text}", clock(self.now)));
    }

    pub fn sailing(&self, id: u32) -> Option<&Sailing> {
        self.sailings.iter().find(|sailing| sailing.id == id)
    }

    pub fn sailing_mut(&mut self, id: u32) -> Option<&mut Sailing> {
        self.sailings.iter_mut().find(|sailing| sailing.id == id)
    }

    pub fn booking_mut(&mut self, reference: u32) -> Option<&mut Booking> {
        self.bookings
            .iter_mut()
            .find(|booking| booking.reference == reference)
    }

    /// Each sailing with its bookings, in the timetable's order.
    pub fn voyages(&self) -> Vec<Voyage> {
        self.sailings
            .iter()
            .map(|sailing| Voyage {
                sailing: sailing.clone(),
                bookings: self
                    .bookings
                    .iter()
                    .filter(|booking| booking.sailing == sailing.id)
                    .cloned()
                    .collect(),
            })
            .collect()
    }
}

/// What the booking desk (or an agent) sends.
#[derive(Debug, Clone, Messages)]
pub enum Msg {
    /// Books a party on `sailing`: on foot, or with a `vehicle` (`car`, `van` or `motorcycle`) `length_cm` long; a
    /// party that does not fit goes on the sailing's standby list.
    Book {
        name: String,
        sailing: u32,
        #[message(range(min = 0, max = 60))]
        adults: u32,
        #[message(range(min = 0, max = 60))]
        children: u32,
        #[message(range(min = 0, max = 60))]
        seniors: u32,
        vehicle: Option<String>,
        #[message(range(min = 150, max = 1200))]
        length_cm: Option<u32>,
        cabin: bool,
    },
    /// Checks in booking `reference`, while its check-in is open.
    CheckIn { reference: u32 },
    /// The party cancels booking `reference`; its place goes to the standby list.
    Cancel { reference: u32 },
    /// Confirms the standby bookings of `sailing` that fit now, first come first served.
    Promote { sailing: u32 },
    /// Delays `sailing` by a further `minutes` for the weather; too long a delay cancels it.
    Delay {
        sailing: u32,
        #[message(range(min = 1, max = 240))]
        minutes: u32,
    },
    /// Cancels `sailing`; its bookings move to the next sailing on the same route.
    CancelSailing { sailing: u32, reason: String },
    /// Moves the terminal's clock on.
    Advance {
        #[message(range(min = 1, max = 720))]
        minutes: u32,
    },
}

/// Copies of the model's methods with one mistake each, for the blind test.
pub mod slipped {
    use super::{Booking, GAP_CM};

    /// [`Booking::lane_cm`].
    pub fn lane_cm(booking: &Booking) -> u32 {
        match &booking.vehicle {
            Some(vehicle) => vehicle.length_cm + GAP_CM,
            // BUG(foot_gap)
            None => GAP_CM,
        }
    }
}
