//! A view the explained node reads (`plots.filter(|row| row.tenant.is_some())`, `rows.sort_by(|r| ..)`): which rows
//! it holds, and in what order, is decided by its closure on its creation line, which no body line of the node
//! quotes. A view that moved since it was made changed the node's rows there.

use super::{Ctx, NodeRecord, SourceLine, names};
use crate::graph::record::log::SiteRef;

/// The calls that make a view of a collection with a closure: its creation line decides its rows.
const VIEW_CALLS: &[&str] = &[".filter(", ".filter_map(", ".sort_by(", ".sort_by_key("];

/// The creation lines of the views `me` reads that moved since they were made, in the order read.
pub(super) fn moved_views(ctx: &Ctx<'_>, me: &NodeRecord) -> Vec<SourceLine> {
    let mut out = Vec::new();
    for s in &me.sources {
        let Some(r) = ctx.rec(*s) else { continue };
        if r.last_moved <= r.created {
            continue;
        }
        let site: SiteRef = r.site;
        let Some(text) = names::line_text(site.file(), site.line()) else {
            continue;
        };
        let code = super::code_part(&text);
        if code.contains('|') && VIEW_CALLS.iter().any(|c| code.contains(c)) {
            out.push(SourceLine::at(site));
        }
    }
    out
}

