//! Defaults a run took: the `unwrap_or`s (`unwrap_or_default`, `unwrap_or_else`) whose value was `None` or an `Err`
//! in the run or `update` explained, as `#[node]` and `#[trace_fn]` recorded them. A value made of a default is made
//! by the line that gives it (`let last = patient.last_checkup.unwrap_or(0);`), whatever the lines after do with it.

use super::*;

/// How many lines of defaults taken lead the lines of one run or `update`.
pub(super) const DEFAULTS_TAKEN: usize = 2;

/// `lines` with the lines of the defaults the records `defaults` say were taken first (at most
/// [`DEFAULTS_TAKEN`], in the order first taken), each marked `→ took the default`.
pub(super) fn defaults_first(defaults: &[crate::trace::log::Ran], lines: &mut Vec<SourceLine>) {
    let taken: Vec<SourceLine> = defaults
        .iter()
        .filter(|r| r.defaulted)
        .filter_map(|r| {
            let index = source::index(r.file)?;
            let mut line = numbered(r.file, &index.lines, (r.line as usize).checked_sub(1)?);
            line.text.push_str(" → took the default");
            Some(line)
        })
        .take(DEFAULTS_TAKEN)
        .collect();
    lines.retain(|l| !taken.iter().any(|t| t.site == l.site));
    lines.splice(0..0, taken);
}
