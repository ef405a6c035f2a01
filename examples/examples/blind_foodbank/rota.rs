//! The packing tables' rota: shift lengths and who is on while the doors are open.

use super::model::Shift;

/// The doors open, `hhmm`.
pub const OPEN: u32 = 1000;
/// The doors close, `hhmm`.
pub const CLOSE: u32 = 1300;
/// The packing tables.
pub const TABLES: u32 = 3;

/// Minutes since midnight of an `hhmm` time.
pub fn minutes(hhmm: u32) -> u32 {
    hhmm / 100 * 60 + hhmm % 100
}

/// How long a shift is, in minutes.
pub fn shift_minutes(shift: &Shift) -> u32 {
    minutes(shift.to).saturating_sub(minutes(shift.from))
}

/// Whether the spans `a` and `b` (from, to) share a moment.
pub fn overlaps(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// `minutes` as `2h30`.
pub fn hours(minutes: u32) -> String {
    format!("{}h{:02}", minutes / 60, minutes % 60)
}

/// The rota's rules as first written.
pub mod slipped {
    use super::Shift;

    /// [`super::shift_minutes`].
    pub fn shift_minutes(shift: &Shift) -> u32 {
        // BUG(shift_length)
        shift.to.saturating_sub(shift.from)
    }

    /// [`super::overlaps`].
    pub fn overlaps(a: (u32, u32), b: (u32, u32)) -> bool {
        // BUG(open_overlap)
        a.0 < b.1 || b.0 < a.1
    }
}
