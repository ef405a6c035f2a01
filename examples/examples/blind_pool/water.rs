//! The water's limits: what a poolside test must show for the pool to stay open, and how often to test.

use super::model::Reading;

/// Free chlorine, mg/l.
pub const CHLORINE: (f64, f64) = (1.0, 3.0);
pub const PH: (f64, f64) = (7.2, 7.8);
/// °C.
pub const TEMPERATURE: (f64, f64) = (26.0, 32.0);
/// The water is tested every two hours.
pub const TEST_EVERY_HOURS: u32 = 2;

/// What a test says.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Fine,
    /// Out of limits: close the pool, and why.
    Close(String),
}

fn outside(value: f64, (low, high): (f64, f64)) -> Option<&'static str> {
    if value < low {
        Some("below")
    } else if value > high {
        Some("above")
    } else {
        None
    }
}

/// The verdict on `reading`: the first figure out of its limits closes the pool.
#[ranvier::trace_fn]
pub fn verdict(reading: &Reading) -> Verdict {
    let figures = [
        ("chlorine", reading.chlorine, CHLORINE),
        ("pH", reading.ph, PH),
        ("temperature", reading.temp, TEMPERATURE),
    ];
    for (name, value, limits) in figures {
        if let Some(side) = outside(value, limits) {
            return Verdict::Close(format!("{name} {value:.1} is {side} the limits"));
        }
    }
    Verdict::Fine
}

/// Whether the next test is due at `now`, after the `last` one.
#[ranvier::trace_fn]
pub fn test_due(last: &Reading, now: u32) -> bool {
    now.saturating_sub(last.at) >= TEST_EVERY_HOURS * 60
}

/// Copies of the rules with one mistake each, for the blind test.
pub mod slipped {
    use super::super::model::Reading;
    use super::TEST_EVERY_HOURS;

    /// [`super::test_due`].
    #[ranvier::trace_fn]
    pub fn test_due(last: &Reading, now: u32) -> bool {
        // BUG(reading_due)
        now.saturating_sub(last.at) >= TEST_EVERY_HOURS
    }
}
