//! Where a signal's value came from: a memo's, effect's or the program's write (`written:`), a disposed source
//! (`disposed:`), several moves in one batch (`batch:`) and a value the program captured before making a node
//! (`captured:`).

use super::*;

pub(super) fn disposed_sources(
    ctx: &Ctx<'_>,
    r: &NodeRecord,
    own: bool,
    depth: u32,
    found: &mut Vec<Finding>,
) {
    for source in &r.sources {
        let Some(s) = ctx.rec(*source) else { continue };
        if s.disposed == 0 {
            continue;
        }
        let mut text = format!("{} was disposed #{}", ctx.name(*source), s.disposed);
        if let Some(v) = short_value(ctx, *source) {
            let _ = write!(text, " and keeps its last value {v}");
        }
        let _ = write!(text, "; {} still reads it", ctx.name(r.id));
        let rank = if own { 960 } else { 850 + near(depth) };
        let at = s.disposed_at.map(line).or_else(|| Some(line(s.site)));
        found.push(Finding::new(FindingKind::Disposed, rank, text, at));
    }
}

pub(super) fn written(ctx: &Ctx<'_>, r: &NodeRecord, own: bool, depth: u32, found: &mut Vec<Finding>) {
    let Some((by, site)) = r.moved_by else { return };
    let mut text = ctx.name(r.id).to_string();
    if let Some(v) = short_value(ctx, r.id) {
        let _ = write!(text, " = {v}");
    }
    let mut more = Vec::new();
    let rank = match by {
        Writer::Message(_) => return,
        Writer::Computation(w) => {
            let _ = write!(text, " by {} #{}", ctx.name(w), r.last_moved);
            if let Some(writer) = ctx.rec(w) {
                more = lines_above(writer, site, WRITE_CONTEXT_LINES);
                // what it wrote came from its sources (a collection's rows from its list): the `#[trace_fn]` fns
                // their latest runs entered made it, by the lines that make their value
                for source in &writer.sources {
                    let ran = ctx.tracer.branches_of(*source);
                    if ran.iter().any(|x| x.value.is_none()) {
                        more.extend(ran_lines(&ran, false, WRITER_SOURCE_LINES));
                    }
                    if more.len() >= WRITE_CONTEXT_LINES + WRITER_SOURCE_LINES {
                        break;
                    }
                }
            }
            // a row a keyed collection wrote holds what its list gave it: the collection made nothing wrong there,
            // so the row ranks below the findings of the nodes that computed from it
            let by_collection = ctx.rec(w).is_some_and(super::rows::made_by_keyed);
            if own {
                940
            } else if by_collection {
                COLLECTION_ROW_RANK + near(depth)
            } else {
                700 + near(depth)
            }
        }
        Writer::Program => {
            let _ = write!(text, " by the program #{}", r.last_moved);
            if own { 930 } else { 500 + near(depth) }
        }
    };
    let mut finding = Finding::new(FindingKind::Written, rank, text, Some(line(site)));
    finding.more = more;
    found.push(finding);
}

/// The rank of a `written:` finding of a row a keyed collection wrote, before [`near`]: below an explained async
/// memo's own `settled:` (700) and a `written:` finding of a computation's (700 and more).
const COLLECTION_ROW_RANK: u32 = 600;

/// How many lines of what a writer's sources ran a `written:` finding quotes.
pub(super) const WRITER_SOURCE_LINES: usize = 2;

/// How many lines of a writer's body above its write a `written:` finding quotes.
pub(super) const WRITE_CONTEXT_LINES: usize = 2;

/// Up to `n` code lines of `writer`'s body just above `site` (the lines that computed what it wrote).
pub(super) fn lines_above(writer: &NodeRecord, site: SiteRef, n: usize) -> Vec<SourceLine> {
    if site.file() != writer.site.file() || site.line() <= writer.site.line() {
        return Vec::new();
    }
    let Some(lines) = names::file_lines(site.file()) else {
        return Vec::new();
    };
    let first = writer.site.line() as usize; // the line after the writer's creation line, 0-based
    let mut out: Vec<SourceLine> = (first..(site.line() as usize - 1))
        .rev()
        .filter(|i| is_code(&lines[*i]) && !is_clone_line(&lines[*i]))
        .take(n)
        .map(|i| numbered(site.file(), &lines, i))
        .collect();
    out.reverse();
    out
}
/// A signal that moved more than once inside the batch of its latest move: its readers saw only the last value.
pub(super) fn batched(ctx: &Ctx<'_>, r: &NodeRecord, depth: u32, found: &mut Vec<Finding>) {
    if r.is_model || r.last_moved == 0 {
        return;
    }
    let mut moves = 0;
    let mut seq = r.last_moved;
    let floor = r.last_moved.saturating_sub(BATCH_LOOKBACK).max(ctx.oldest);
    let enter = loop {
        let Some(event) = ctx.event(seq) else { return };
        match event.kind {
            EventKind::Write {
                node, moved: true, ..
            } if node == r.id => moves += 1,
            EventKind::BatchEnter { depth: 1 } => break seq,
            EventKind::BatchExit { depth: 0 } | EventKind::FlushStart { .. } => return,
            _ => {}
        }
        if seq <= floor {
            return;
        }
        seq -= 1;
    };
    if moves < 2 {
        return;
    }
    let text = format!(
        "{} moved {moves} times in one batch #{enter}, so its readers saw only the last value{}",
        ctx.name(r.id),
        short_value(ctx, r.id)
            .map(|v| format!(" {v}"))
            .unwrap_or_default()
    );
    let at = ctx.tracer.batch_site(enter).map(line);
    found.push(Finding::new(
        FindingKind::Batch,
        900 + near(depth),
        text,
        at,
    ));
}

/// Values the program read a few lines above where it made `r` and that moved since, which `r` does not read: a
/// closure that captured a copy of a value instead of reading its node.
pub(super) fn captured(
    ctx: &Ctx<'_>,
    r: &NodeRecord,
    in_cone: &HashSet<NodeId>,
    depth: u32,
    found: &mut Vec<Finding>,
) {
    // the cheap tests first: the few nodes the program read, then the read's line, then the node's sources
    for p in ctx.program_readers() {
        if p.id == r.id {
            continue;
        }
        // read by the node through others, the copy may still go stale: a weaker sign
        let rank = if in_cone.contains(&p.id) { 700 } else { 800 } + near(depth);
        for (when, site) in &p.program_reads {
            let above = r.site.line().checked_sub(site.line());
            if site.file() != r.site.file()
                || *when >= r.created
                || p.last_moved <= *when
                || above.is_none_or(|lines| lines > CAPTURE_LINES)
            {
                continue;
            }
            // a node that reads it too may still use the copy: the name the read's `let` bound, in its closure
            let copy = if r.sources.contains(&p.id) {
                match copy_used(r, site.line()) {
                    Some(name) => Some(name),
                    None => continue,
                }
            } else {
                None
            };
            let mut text = ctx.name(p.id).to_string();
            if let Some(v) = short_value(ctx, p.id) {
                let _ = write!(text, " = {v}");
            }
            let _ = match copy {
                Some(name) => write!(
                    text,
                    " moved #{} after the program read it into `{name}`, which {} uses as it was read",
                    p.last_moved,
                    ctx.name(r.id)
                ),
                None => write!(
                    text,
                    " moved #{} after the program read it to make {}, which does not read it",
                    p.last_moved,
                    ctx.name(r.id)
                ),
            };
            found.push(Finding::new(
                FindingKind::Captured,
                rank,
                text,
                Some(line(*site)),
            ));
        }
    }
}

/// The name a one-line `let` on line `read` of `r`'s file bound (`let today = kennels.model().today;`), when the
/// closure of the call that made `r` uses it and binds no name of its own so: the node computes with the copy, read
/// once when it was made, whatever else it reads.
fn copy_used(r: &NodeRecord, read: u32) -> Option<String> {
    let index = source::index(r.site.file())?;
    let (name, _) = one_name_let(index.lines.get((read as usize).checked_sub(1)?)?)?;
    let body = index.call_at(r.site.line(), r.site.column())?.closure.clone()?.body;
    let lines = index.lines.get(body.first as usize - 1..(body.last as usize).min(index.lines.len()))?;
    let uses = lines.iter().any(|l| idents(code_part(l)).any(|(_, w)| w == name));
    let rebinds = lines.iter().any(|l| {
        let c = code_part(l);
        c.contains(&format!("let {name} ")) || c.contains(&format!("let mut {name} ")) || c.contains(&format!("|{name}|"))
    });
    (uses && !rebinds).then(|| name.to_owned())
}
