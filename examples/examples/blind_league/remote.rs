//! The two services the league asks over the network, simulated: the council's pitch bookings, and the groundsman's
//! pitch inspections. Each answers after a short delay, as a remote call would.

use std::fmt;
use std::time::Duration;

/// How long a call takes.
const LATENCY: Duration = Duration::from_millis(15);

/// A booked slot on a pitch.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// The day of the weekend.
    pub day: &'static str,
    /// The kick-off time.
    pub kickoff: &'static str,
}

/// The slot the council gives the league unless asked for another: Saturday at 14:00.
impl Default for Slot {
    fn default() -> Self {
        Slot {
            day: "Sat",
            kickoff: "14:00",
        }
    }
}

/// Why the booking service has no slot.
#[derive(Clone, Debug, PartialEq)]
pub enum BookingError {
    /// Nobody booked the pitch for that matchday.
    NotBooked,
    /// The service knows no such pitch.
    UnknownPitch,
}

impl fmt::Display for BookingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookingError::NotBooked => f.write_str("no pitch booked"),
            BookingError::UnknownPitch => f.write_str("unknown pitch"),
        }
    }
}

/// The council's bookings: (pitch, matchday, slot).
const BOOKINGS: [(&str, u32, Slot); 6] = [
    (
        "Mill Lane",
        1,
        Slot {
            day: "Sat",
            kickoff: "14:00",
        },
    ),
    (
        "Station Park",
        2,
        Slot {
            day: "Sat",
            kickoff: "15:00",
        },
    ),
    (
        "Mill Lane",
        3,
        Slot {
            day: "Sun",
            kickoff: "10:30",
        },
    ),
    (
        "Station Park",
        3,
        Slot {
            day: "Sat",
            kickoff: "14:00",
        },
    ),
    (
        "Station Park",
        4,
        Slot {
            day: "Sat",
            kickoff: "15:00",
        },
    ),
    (
        "Canal Side",
        4,
        Slot {
            day: "Sun",
            kickoff: "11:00",
        },
    ),
];

const PITCHES: [&str; 4] = ["Mill Lane", "Station Park", "Heath Road", "Canal Side"];

/// The slot booked on `pitch` for `matchday`.
///
/// # Errors
///
/// [`BookingError::NotBooked`] when nobody booked it, [`BookingError::UnknownPitch`] for a pitch the council does
/// not let.
pub async fn booking(pitch: &str, matchday: u32) -> Result<Slot, BookingError> {
    tokio::time::sleep(LATENCY).await;
    if !PITCHES.contains(&pitch) {
        return Err(BookingError::UnknownPitch);
    }
    BOOKINGS
        .iter()
        .find(|(p, day, _)| *p == pitch && *day == matchday)
        .map(|(_, _, slot)| slot.clone())
        .ok_or(BookingError::NotBooked)
}

/// What the groundsman found.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    /// Rain over the two days before, in millimetres.
    pub rain_mm: u32,
    /// Whether the ground is frozen.
    pub frozen: bool,
}

/// The groundsman's reports: (ground, matchday, rain in mm, frozen).
const REPORTS: [(&str, u32, u32, bool); 8] = [
    ("Mill Lane", 1, 3, false),
    ("Heath Road", 1, 6, false),
    ("Station Park", 2, 24, false),
    ("Canal Side", 2, 2, false),
    ("Mill Lane", 3, 0, true),
    ("Station Park", 3, 5, false),
    ("Station Park", 4, 11, false),
    ("Canal Side", 4, 1, false),
];

/// The inspection of `ground` before `matchday` (a ground nobody inspected reads dry).
pub async fn inspect(ground: &str, matchday: u32) -> Inspection {
    tokio::time::sleep(LATENCY).await;
    REPORTS
        .iter()
        .find(|(g, day, _, _)| *g == ground && *day == matchday)
        .map_or(
            Inspection {
                rain_mm: 0,
                frozen: false,
            },
            |&(_, _, rain_mm, frozen)| Inspection { rain_mm, frozen },
        )
}
