//! Where a change stopped: memos that re-ran and kept their value by a comparer, a `PartialEq` or their previous
//! value (`cutoff:`, `kept:`, `comparer:`), an equal write upstream, and selects that kept their value (`select:`).

use super::*;

/// Upstream memos that re-ran and kept their value: since the node's last run (what stopped the latest change)
/// and, with none, before it; with neither, the nodes made with a comparer.
pub(super) fn cutoffs(
    ctx: &Ctx<'_>,
    id: NodeId,
    me: &NodeRecord,
    why_not: Option<&WhyNot>,
    in_cone: &HashSet<NodeId>,
    found: &mut Vec<Finding>,
) {
    let since = match me.kind {
        NodeKind::Signal => me.last_write,
        _ => me.last_run_start,
    };
    // a cutoff stopped the latest change only if the node has not re-run since that message started
    let message = ctx.tracer.last_message();
    let stale = message == 0 || me.last_run_start < message;
    let stopping = match why_not.filter(|_| stale) {
        Some(WhyNot::StoppedAtCutoff { cutoff, .. }) => Some(cutoff.seq),
        Some(WhyNot::CheckedClean {
            cutoff: Some(cutoff),
            ..
        }) => Some(cutoff.seq),
        _ => None,
    };
    let recent = ctx.cutoffs_in(id, in_cone, since, u64::MAX);
    let earlier = if recent.is_empty() {
        let mut earlier = ctx.cutoffs_in(id, in_cone, 0, since.max(1));
        earlier.truncate(2);
        earlier
    } else {
        Vec::new()
    };
    let none = recent.is_empty() && earlier.is_empty();
    for (kind, list) in [
        (FindingKind::Cutoff, recent),
        (FindingKind::EarlierCutoff, earlier),
    ] {
        for (i, c) in list.into_iter().enumerate() {
            let Some(r) = ctx.rec(c.node.id) else {
                continue;
            };
            let mut rank: u32 = match kind {
                FindingKind::Cutoff if stopping == Some(c.seq) => 990,
                // in the latest change but not where it stopped (the node re-ran since): a source of the node's
                // own that kept its value while the node did not move since is why it did not follow that change
                FindingKind::Cutoff if me.sources.contains(&c.node.id) && me.last_moved < c.seq => 800,
                FindingKind::Cutoff => 600,
                // before the node's last run: it ran since, so this is seldom why it is wrong now, unless the node
                // reads it directly (a source of its own swallowed a change), the more so when the node has not
                // moved since: the change it should have followed stopped there
                _ if me.sources.contains(&c.node.id) && me.last_moved < c.seq => 800,
                _ if me.sources.contains(&c.node.id) => 470,
                _ => 380,
            };
            rank = rank.saturating_sub(i as u32);
            if r.custom_comparer {
                rank += 5;
            }
            // the records of the memo's latest run, when the cutoff was in that run
            let ran = if c.seq >= r.last_run_start {
                ctx.tracer.branches_of(r.id)
            } else {
                Vec::new()
            };
            found.push(cutoff_finding(kind, rank, &c, r, &ran));
        }
    }
    if none {
        for (n, _) in ctx.upstream_in(id, in_cone) {
            let Some(r) = ctx.rec(n) else { continue };
            if !r.custom_comparer {
                continue;
            }
            let Some(info) = ctx.info(n) else { continue };
            found.push(Finding::new(
                FindingKind::Comparer,
                300,
                info.line_within(12),
                Some(line(r.site)),
            ));
        }
    }
}

pub(super) fn cutoff_finding(
    kind: FindingKind,
    rank: u32,
    c: &Cutoff,
    r: &NodeRecord,
    ran: &[crate::trace::log::Ran],
) -> Finding {
    let mut finding = Finding::new(
        kind,
        rank,
        c.to_string(),
        Some(SourceLine {
            site: c.site,
            text: c.line.clone().unwrap_or_default(),
        }),
    );
    let equal = equality(r, c.seq, &c.value);
    finding.more = previous_value_lines(r);
    if finding.more.is_empty() {
        // what the memo computes: a body that keeps a value it should pass on is often a line that reads nothing
        finding.more = body_lines(r, false, true, ran)
            .into_iter()
            .take(if equal.is_some() { 1 } else { CUTOFF_BODY_LINES })
            .collect();
    }
    // the `#[trace_fn]` fns its latest run called (a predicate a view was given: `pupils.filter(keep)`): their
    // lines decided what it kept, where the memo's own line only names them
    if !entered_fns(ran).is_empty() {
        for l in ran_lines(ran, false, CUTOFF_BODY_LINES) {
            if !finding.more.iter().any(|m| m.site == l.site) && finding.at.as_ref().is_none_or(|a| a.site != l.site) {
                finding.more.push(l);
            }
        }
    }
    if let Some((text, lines)) = equal {
        finding.text.push_str(&text);
        // the equality that said "equal" decided the cutoff: its lines first
        finding.more.splice(0..0, lines);
    }
    finding
}

/// The most differing places an equality note names.
pub(super) const DIFFERENCES_MAX: usize = 3;
/// How many lines of a hand-written `eq` an equality note quotes.
pub(super) const EQ_LINES_MAX: usize = 3;

/// When memo `r`'s cutoff `seq` kept a value (`kept`, its `Debug` text) that prints differently from the one it
/// computed and dropped: `; computed <path> = <new> (kept <old>), equal by ...`, and the lines of the equality that
/// called the two equal: its comparer (the memo's line, already named), a hand-written `impl PartialEq` found in
/// the crate (its `eq` body), or the `#[derive(PartialEq)]` of the type.
pub(super) fn equality(r: &NodeRecord, seq: u64, kept: &str) -> Option<(String, Vec<SourceLine>)> {
    let (_, computed) = r.cutoff_computed.as_ref().filter(|(s, _)| *s == seq)?;
    let found = crate::trace::debug_diff::differences(kept, computed, DIFFERENCES_MAX);
    if found.is_empty() {
        return None;
    }
    let mut text = String::from("; computed ");
    differences_text(&found, &mut text);
    if r.custom_comparer {
        text.push_str(", equal by its comparer");
        return Some((text, comparer_lines(r)));
    }
    let lines = equal_by(r.site.file(), r.cutoff_type, &found, &mut text);
    Some((text, lines))
}

/// The `PartialEq` that called two values equal where `found` says they differ: the first hand-written `eq` among
/// the types the differing places go through (outermost first), else the innermost type's derive. Appends `, equal
/// by ...` to `text`, and returns its lines. `file` is where to look from; `full` the values' type name, if known.
pub(super) fn equal_by(
    file: &str,
    full: Option<&str>,
    found: &[crate::trace::debug_diff::Difference],
    text: &mut String,
) -> Vec<SourceLine> {
    // the types the differing places go through, outermost first: the first with a hand-written `eq` decided
    let mut types: Vec<&str> = Vec::new();
    for d in found {
        for t in &d.types {
            if !types.contains(&t.as_str()) {
                types.push(t);
            }
        }
    }
    for ty in &types {
        let Some(eq) = source::impl_fn_of(file, ty, full, "PartialEq", "eq") else {
            continue;
        };
        let _ = write!(text, ", equal by the hand-written PartialEq for {ty}");
        let def = eq.def();
        let lines = &eq.index.lines;
        // the lines that produce its value first, then the rest of its body
        let mut picked: Vec<usize> = def.value.iter().map(|v| v.first as usize - 1).collect();
        picked.extend((def.whole.first as usize..def.whole.last as usize - 1).filter(|i| is_code(&lines[*i])));
        let mut seen = HashSet::new();
        picked.retain(|i| seen.insert(*i));
        picked.truncate(EQ_LINES_MAX);
        picked.sort_unstable();
        let mut out: Vec<SourceLine> = picked.into_iter().map(|i| numbered(eq.file, lines, i)).collect();
        // an `eq` that hands the comparison to a fn of the crate (`same_item(self, other)`): that fn's value
        for call in eq.index.calls.iter().filter(|c| def.whole.holds(c.whole) && !c.path.is_empty()) {
            let Some(helper) = source::resolve_fn(eq.file, call.line, &call.path) else { continue };
            let helper_def = helper.def();
            if helper_def.whole == def.whole {
                continue;
            }
            for v in helper_def.value.iter().take(EQ_LINES_MAX) {
                out.push(numbered(helper.file, &helper.index.lines, v.first as usize - 1));
            }
        }
        return out;
    }
    // no hand-written one: the innermost type's derive
    let derived = types.iter().rev().find_map(|ty| {
        let (at_file, index, at) = source::type_named(file, ty)?;
        let line = index.types[at].derive_eq_line?;
        Some((ty, numbered(at_file, &index.lines, line as usize - 1)))
    });
    match derived {
        Some((ty, line)) => {
            let _ = write!(text, ", equal by the derived PartialEq of {ty}");
            vec![line]
        }
        None => Vec::new(),
    }
}

/// Appends the places two values differ at, each with both values: `bin = "C-02-1" (kept "A-02-1"), ...`.
pub(super) fn differences_text(found: &[crate::trace::debug_diff::Difference], text: &mut String) {
    for (i, d) in found.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let path = if d.path.is_empty() { "value" } else { d.path.trim_start_matches('.') };
        let _ = write!(text, "{path} = {} (kept {})", short_text(&d.after), short_text(&d.before));
    }
}

/// The explained node has not re-run because the latest write upstream was equal to the value held (`why_not`):
/// when the written value prints differently from the one kept (an `update` that changed a field its model's
/// `PartialEq` leaves out), which places differ, and the `PartialEq` that called them equal, as for a cutoff.
pub(super) fn equal_write(ctx: &Ctx<'_>, why_not: Option<&WhyNot>, found: &mut Vec<Finding>) {
    let Some(WhyNot::EqualWrite { write, .. }) = why_not else { return };
    let Some(r) = ctx.rec(write.node.id) else { return };
    let Some(kept) = ctx.value(write.node.id) else { return };
    let differences = crate::trace::debug_diff::differences(&kept, &write.value, DIFFERENCES_MAX);
    if differences.is_empty() {
        return;
    }
    let mut text = format!("equal write: {} kept its value #{}; wrote ", write.node, write.seq);
    differences_text(&differences, &mut text);
    let mut lines = equal_by(r.site.file(), None, &differences, &mut text).into_iter();
    let Some(first) = lines.next() else { return };
    let mut finding = Finding::new(FindingKind::Cutoff, 985, text, Some(first));
    finding.more = lines.collect();
    found.push(finding);
}

/// The rank of [`equal_models`]' finding: above the cutoffs it explains (a view of the model that kept its value
/// because the change was lost) and what the message's `update` ran.
pub(super) const EQUAL_MODEL_RANK: u32 = 998;

/// Models in the cone an `update` returned a new model for that their `PartialEq` called equal to the old one,
/// though the two print differently: the message left the model as it was, and the change it made was lost there
/// (a hand-written `eq` that leaves out a field). For each such model, its latest such message: the places that
/// differ, and the `PartialEq` that said "equal" ([`equal_by`]); not when that was the latest write upstream, which
/// [`equal_write`] reports.
pub(super) fn equal_models(ctx: &Ctx<'_>, why_not: Option<&WhyNot>, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
    for &(n, _) in cone {
        // the latest upstream write was that equal model: [`equal_write`] says it
        if matches!(why_not, Some(WhyNot::EqualWrite { write, .. }) if write.node.id == n) {
            continue;
        }
        let Some(r) = ctx.rec(n) else { continue };
        let Some((seq, before, after)) = ctx.tracer.equal_models_of(n).into_iter().next() else {
            continue;
        };
        let differences = crate::trace::debug_diff::differences(&before, &after, DIFFERENCES_MAX);
        if differences.is_empty() {
            continue;
        }
        let name = ctx.tracer.kept_message(seq).map_or_else(|| "?".into(), |m| m.name);
        let mut text = format!("equal model: {name} #{seq} left {} as it was, wrote ", ctx.name(n));
        differences_text(&differences, &mut text);
        let mut lines = equal_by(r.site.file(), None, &differences, &mut text).into_iter();
        let Some(first) = lines.next() else { continue };
        let mut finding = Finding::new(FindingKind::Cutoff, EQUAL_MODEL_RANK, text, Some(first));
        finding.more = lines.collect();
        found.push(finding);
    }
}

/// The lines of memo `r`'s comparer, when the source can be read: the last closure its call was given (the
/// comparer of `Memo::with_comparer(compute, |a, b| ..)`), then the lines that produce the value of each fn of the
/// crate it calls (`same_boxes(a, b)`), or of a fn given by its path (`Memo::with_comparer(compute, same_boxes)`):
/// where two values that print differently were called equal.
pub(super) fn comparer_lines(r: &NodeRecord) -> Vec<SourceLine> {
    let file = r.site.file();
    let Some(index) = source::index(file) else {
        return Vec::new();
    };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return Vec::new();
    };
    let mut out: Vec<SourceLine> = Vec::new();
    let mut called: Vec<(u32, Vec<String>)> = Vec::new();
    match call.more_closures.last() {
        Some(comparer) => {
            out.push(numbered(file, &index.lines, comparer.body.first as usize - 1));
            called.extend(
                index
                    .calls
                    .iter()
                    .filter(|c| comparer.body.holds(c.whole) && !c.path.is_empty())
                    .map(|c| (c.line, c.path.clone())),
            );
        }
        // a comparer given by its path: the last path argument
        None => called.extend(call.fn_args.last().map(|path| (call.line, path.clone()))),
    }
    for (at, path) in called {
        let Some(found) = source::resolve_fn(file, at, &path) else { continue };
        let def = found.def();
        let lines = &found.index.lines;
        for value in def.value.iter().take(EQ_LINES_MAX) {
            let line = numbered(found.file, lines, value.first as usize - 1);
            if !out.iter().any(|l| l.site == line.site) {
                out.push(line);
            }
        }
    }
    out.truncate(EQ_LINES_MAX);
    out
}

/// How many lines of an upstream memo's body a `cutoff:` finding quotes.
pub(super) const CUTOFF_BODY_LINES: usize = 3;

/// A select over the model (a memo reading the model alone) that re-ran on the latest message and kept its value
/// while the model moved: right by design when it selects the part the message did not touch, a mistake when it
/// selects the wrong part. Ranked below real cutoffs, higher when its name shares a word with the message.
pub(super) fn selects(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], strongest: u32, found: &mut Vec<Finding>) {
    let message = ctx.tracer.last_message();
    let Some(EventKind::Message { name, target, .. }) = ctx.event(message).map(|e| e.kind) else {
        return;
    };
    let Some(model) = ctx.rec(target) else { return };
    if model.last_moved <= message {
        return;
    }
    // the message's name only: its arguments' names (`percent`, `id`) are shared by too many nodes to mean much
    let message_words: HashSet<String> = words(&name).collect();
    for &(n, depth) in cone {
        let Some(r) = ctx.rec(n) else { continue };
        if r.kind != NodeKind::Memo || !ctx.reads_model_alone(r) {
            continue;
        }
        let Some((seq, value)) = &r.last_cutoff else {
            continue;
        };
        if *seq <= message || r.last_run_end != *seq {
            continue;
        }
        let select_name = ctx.base_name(n);
        let related = words(&select_name).any(|w| message_words.contains(&w));
        // A select the message has no word in common with kept its value by design, most likely: worth naming only
        // when nothing stronger was found.
        if !related && strongest >= SELECT_UNRELATED_RANK {
            continue;
        }
        let rank = if related { 700 } else { SELECT_UNRELATED_RANK } + near(depth) / 10;
        let text = format!(
            "{} re-ran on message {name} #{message} and kept {value} while {} moved",
            ctx.name(n),
            ctx.name(target)
        );
        found.push(Finding::new(
            FindingKind::Select,
            rank,
            text,
            Some(line(r.site)),
        ));
    }
}

/// A memo upstream (a select of the model, most often) that still holds a value its equality kept although the
/// value it computed then printed differently: a hand-written `eq` that leaves a field out hides every later change
/// of that field from the nodes below. Found by the latest such cutoff since the memo last moved (a later run that
/// kept an equal value, on a command the message sent, does not hide it).
pub(super) fn kept_by_equality(ctx: &Ctx<'_>, id: NodeId, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
    for &(n, depth) in cone {
        let Some(r) = ctx.rec(n) else { continue };
        if n == id || r.kind != NodeKind::Memo {
            continue;
        }
        let (Some((seq, _)), Some(kept)) = (&r.cutoff_computed, &r.value) else {
            continue;
        };
        if *seq <= r.last_moved {
            continue;
        }
        let Some((equal, lines)) = equality(r, *seq, kept) else {
            continue;
        };
        // a cutoff finding said it already (the same equality, of the same run)
        if found.iter().any(|f| f.text.starts_with(&ctx.name(n).to_string()) && f.text.ends_with(&equal)) {
            continue;
        }
        let mut finding = Finding::new(
            FindingKind::Kept,
            880 + near(depth) / 10,
            format!("{} re-ran #{seq} and kept its value{equal}", ctx.name(n)),
            lines.first().cloned().or_else(|| Some(line(r.site))),
        );
        finding.more = lines.into_iter().skip(1).collect();
        found.push(finding);
    }
}

/// Lower-case words of at least three letters in `text` (`set_discount` → `set`, `discount`).
pub(super) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .flat_map(split_camel)
        .filter(|w| w.len() >= 3)
}

pub(super) fn split_camel(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in word.chars() {
        if c.is_uppercase() && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The explained memo's own latest run kept its value: with a previous-value parameter, the lines returning it.
pub(super) fn kept_itself(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
    if me.kind != NodeKind::Memo || me.runs < 2 {
        return;
    }
    let Some((seq, value)) = &me.last_cutoff else {
        return;
    };
    if *seq != me.last_run_end {
        return;
    }
    let equal = equality(me, *seq, value);
    // a select that kept its value is reported as a `select:` finding, unless it kept a value that prints unlike
    // the one it computed: then the equality that called them equal is the lead, whatever the node reads
    if ctx.reads_model_alone(me) && equal.is_none() {
        return;
    }
    let mut more = previous_value_lines(me).into_iter();
    let at = more.next();
    // a value kept by an equality that ignored what differs is as strong a lead as a previous value handed back
    let rank = if at.is_none() && equal.is_none() { 450 } else { 880 };
    let mut finding = Finding::new(
        FindingKind::Kept,
        rank,
        format!("{} re-ran #{seq} and kept {}", ctx.name(me.id), kept_text(value)),
        at.or_else(|| Some(line(me.site))),
    );
    finding.more = more.collect();
    if let Some((text, lines)) = equal {
        finding.text.push_str(&text);
        finding.more.splice(0..0, lines);
    }
    found.push(finding);
}
