//! The floor's rules: cycle lengths, what fits where, and how a clock time reads.

use super::model::{Kind, Machine};

impl Kind {
    /// A whole cycle, in minutes.
    pub fn cycle_minutes(self) -> u32 {
        match self {
            Kind::Washer => 45,
            Kind::Dryer => 60,
        }
    }

    pub fn from_form(name: &str) -> Kind {
        if name.eq_ignore_ascii_case("dryer") {
            Kind::Dryer
        } else {
            Kind::Washer
        }
    }

    pub fn doing(self) -> &'static str {
        match self {
            Kind::Washer => "washing",
            Kind::Dryer => "drying",
        }
    }
}

/// Whether a bag of `grams` goes into `machine` (a drum loaded to its rated capacity is fine).
pub fn fits(machine: &Machine, grams: u32) -> bool {
    grams <= machine.capacity_grams
}

/// Minutes since midnight as "09:45".
pub fn clock_time(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60 % 24, minutes % 60)
}

pub mod slipped {
    use super::super::model::Machine;

    pub fn fits(machine: &Machine, grams: u32) -> bool {
        // BUG(fits_full_drum)
        grams < machine.capacity_grams
    }
}
