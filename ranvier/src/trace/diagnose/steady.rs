//! Sources that kept their value on the latest message while another source moved (`steady:`).

use super::*;

/// Sources of the explained memo that kept their value on the latest message while another of its sources moved:
/// when the value is wrong, the input that did not follow is often the one computed from the wrong thing. Quotes
/// what it reads and its body.
pub(super) fn steady_sources(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
    let message = ctx.tracer.last_message();
    if me.kind == NodeKind::Signal || message == 0 || me.sources.len() < 2 {
        return;
    }
    let moved: Vec<NodeId> = me
        .sources
        .iter()
        .copied()
        .filter(|s| ctx.rec(*s).is_some_and(|r| r.last_moved > message))
        .collect();
    let Some(&mover) = moved.first() else { return };
    for source in &me.sources {
        let Some(r) = ctx.rec(*source) else { continue };
        if r.kind != NodeKind::Memo || r.last_moved > message || ctx.reads_model_alone(r) {
            continue;
        }
        // a source reported as a cutoff already says it kept its value
        let named = ctx.name(*source).to_string();
        if found.iter().any(|f| {
            matches!(f.kind, FindingKind::Cutoff | FindingKind::EarlierCutoff)
                && f.text.starts_with(&format!("{named} "))
        }) {
            continue;
        }
        let mut text = ctx.name(*source).to_string();
        if let Some(v) = short_value(ctx, *source) {
            let _ = write!(text, " = {v}");
        }
        let _ = write!(
            text,
            " did not move on message #{message} while {} did; it reads [",
            ctx.name(mover)
        );
        for (i, s) in r.sources.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "{}", ctx.name(*s));
        }
        text.push(']');
        let mut body = body_lines(r, false, true, &ctx.tracer.branches_of(r.id))
            .into_iter()
            .take(CUTOFF_BODY_LINES);
        let at = body.next().or_else(|| Some(line(r.site)));
        let mut finding = Finding::new(FindingKind::Steady, 440, text, at);
        finding.more = body.collect();
        found.push(finding);
    }
}
