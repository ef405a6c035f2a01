//! A signal that did not follow the latest message: the writes that message made outside its cone (`wrote:`).

use super::*;

/// The most events after the latest message a `wrote:` search reads.
pub(super) const WRITES_LOOKAHEAD: u64 = 4_096;
/// The most writes a `wrote:` finding lists.
pub(super) const WRITES_MAX: usize = 4;

/// When the explained node is a signal that did not follow the latest message: the signals outside its cone that the
/// message's effects, commands or program wrote (a write to the wrong place shows there), each with its line. The model's own
/// write is the `update:` finding's.
pub(super) fn message_writes(
    ctx: &Ctx<'_>,
    me: &NodeRecord,
    in_cone: &HashSet<NodeId>,
    found: &mut Vec<Finding>,
) {
    let message = ctx.tracer.last_message();
    // a memo that did not follow is explained by its sources; a signal only by who writes it
    if me.kind != NodeKind::Signal || me.is_model || message == 0 || me.last_moved > message {
        return;
    }
    let Some(EventKind::Message { name, .. }) = ctx.event(message).map(|e| e.kind) else {
        return;
    };
    let end = ctx.tracer.clock().min(message + WRITES_LOOKAHEAD);
    let mut writes: Vec<(NodeId, Writer, Option<SiteRef>)> = Vec::new();
    for seq in message + 1..=end {
        let Some(EventKind::Write {
            node,
            by,
            moved: true,
            ..
        }) = ctx.event(seq).map(|e| e.kind)
        else {
            continue;
        };
        if in_cone.contains(&node) || matches!(by, Writer::Message(_)) {
            continue;
        }
        if writes.iter().any(|(n, _, _)| *n == node) {
            continue;
        }
        // the trace keeps the site of a signal's latest move: when the message made it, it is this message's
        let site = ctx
            .rec(node)
            .and_then(|r| r.moved_by.filter(|_| r.last_moved > message && r.last_moved <= end))
            .map(|(_, site)| site);
        writes.push((node, by, site));
        if writes.len() >= WRITES_MAX {
            break;
        }
    }
    if writes.is_empty() {
        return;
    }
    let mut text = format!(
        "{} did not move on message {name} #{message}, which wrote ",
        ctx.name(me.id)
    );
    for (i, (node, by, _)) in writes.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let _ = write!(text, "{}", ctx.name(*node));
        if let Writer::Computation(w) = by {
            let _ = write!(text, " (by {})", ctx.name(*w));
        }
    }
    let mut sites = writes.iter().filter_map(|(_, _, site)| site.map(line));
    let at = sites.next();
    let mut finding = Finding::new(FindingKind::Wrote, 420, text, at);
    finding.more = sites.collect();
    found.push(finding);
}
