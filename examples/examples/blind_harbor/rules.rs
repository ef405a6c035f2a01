//! The quay's rules: which ship fits which berth, and which hours count as night work.

use super::model::{Berth, Vessel};

/// Water to keep under the keel, in decimetres.
pub const UNDER_KEEL_DM: u32 = 10;

/// Whether `vessel` fits `berth`: no longer than the berth, and with its under-keel clearance at chart datum.
#[ranvier::trace_fn]
pub fn fits(berth: &Berth, vessel: &Vessel) -> bool {
    let long_enough = vessel.length_m <= berth.length_m;
    let deep_enough = vessel.draft_dm + UNDER_KEEL_DM <= berth.depth_dm;
    long_enough && deep_enough
}

/// Whether the port hour `hour` is a night hour (22:00 to 06:00), when the quay charges its night surcharge.
#[ranvier::trace_fn]
pub fn is_night(hour: u32) -> bool {
    let clock = hour % 24;
    !(6..22).contains(&clock)
}

/// The rules as first written.
pub mod slipped {
    use super::super::model::{Berth, Vessel};
    use super::UNDER_KEEL_DM;

    /// Whether `vessel` fits `berth`.
    #[ranvier::trace_fn]
    pub fn fits(berth: &Berth, vessel: &Vessel) -> bool {
        let long_enough = vessel.length_m <= berth.length_m;
        // BUG(fits_field)
        let deep_enough = vessel.draft_dm + UNDER_KEEL_DM <= berth.length_m;
        long_enough && deep_enough
    }
}
