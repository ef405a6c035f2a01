//! The lift gates' rules: who goes through, and when the wind stops or lets a lift run.

use super::model::{Lift, LiftState, Pass, hours};
use std::fmt;

/// Below its limit by this much, a lift stopped for the wind may run again, km/h.
pub const CALM_MARGIN: u32 = 10;

/// Why a gate stays shut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denial {
    OutsideHours,
    ResortClosed,
    LiftStopped,
    NotYet { first_day: u32 },
    Expired,
}

impl fmt::Display for Denial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Denial::OutsideHours => f.write_str("outside opening hours"),
            Denial::ResortClosed => f.write_str("the resort is closed today"),
            Denial::LiftStopped => f.write_str("the lift is stopped"),
            Denial::NotYet { first_day } => write!(f, "not valid before day {first_day}"),
            Denial::Expired => f.write_str("expired"),
        }
    }
}

/// Whether the gate of `lift` lets `pass` through on `day` at `minute`.
///
/// # Errors
///
/// The first reason the gate finds to stay shut.
pub fn admit(
    pass: &Pass,
    lift: &Lift,
    closed_days: &[u32],
    day: u32,
    minute: u32,
) -> Result<(), Denial> {
    if !(hours::OPENS..hours::CLOSES).contains(&minute) {
        return Err(Denial::OutsideHours);
    }
    if closed_days.contains(&day) {
        return Err(Denial::ResortClosed);
    }
    if lift.state != LiftState::Open {
        return Err(Denial::LiftStopped);
    }
    if day < pass.first_day {
        return Err(Denial::NotYet {
            first_day: pass.first_day,
        });
    }
    if day >= pass.first_day + pass.days {
        return Err(Denial::Expired);
    }
    Ok(())
}

/// Whether a gust of `kmh` stops `lift`.
pub fn too_windy(lift: &Lift, kmh: u32) -> bool {
    kmh >= lift.wind_limit
}

/// Whether a gust of `kmh` is calm enough for `lift` to run again.
pub fn calm_enough(lift: &Lift, kmh: u32) -> bool {
    kmh + CALM_MARGIN <= lift.wind_limit
}

/// The gates' rules with a mistake each.
pub mod slipped {
    use super::super::model::{Lift, LiftState, Pass, hours};
    use super::Denial;

    /// [`super::admit`], with a mistake.
    ///
    /// # Errors
    ///
    /// As [`super::admit`].
    pub fn admit(
        pass: &Pass,
        lift: &Lift,
        closed_days: &[u32],
        day: u32,
        minute: u32,
    ) -> Result<(), Denial> {
        if !(hours::OPENS..hours::CLOSES).contains(&minute) {
            return Err(Denial::OutsideHours);
        }
        if closed_days.contains(&day) {
            return Err(Denial::ResortClosed);
        }
        if lift.state != LiftState::Open {
            return Err(Denial::LiftStopped);
        }
        // BUG(admit_before_start)
        if day >= pass.first_day + pass.days {
            return Err(Denial::Expired);
        }
        Ok(())
    }
}
