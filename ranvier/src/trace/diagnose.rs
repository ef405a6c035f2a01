//! Diagnosis: the findings `explain` reports first, each with the line to fix.
//!
//! A wrong value is rarely wrong where it is read. This module searches the explained node's whole upstream cone —
//! its sources, theirs, what they read untracked, and the memos and effects that wrote the signals in it, with
//! their own reads — for the facts the trace records that make a value wrong or stale, and ranks them:
//!
//! | finding | the fact | the line |
//! |---|---|---|
//! | `unread:` | a memo or effect read a node untracked (`peek`, `with_untracked`, `untrack`) that moved after | the read |
//! | `future read:` | an async memo's future read a node (untracked: futures run outside the memo's run) that moved after | the read |
//! | `disposed:` | a node reads a disposed node, which keeps its last value | the disposal |
//! | `written:` | a signal's value came from a memo's or effect's write, or from the program's | the write |
//! | `captured:` | the program read a value just before making a memo or effect that does not read it, and it moved | the read |
//! | `batch:` | a signal moved more than once inside one batch, so its readers saw only the last value | the batch |
//! | `cutoff:` | a memo re-ran and kept its value (a comparer, a cap, a previous value), so the change stopped there | the memo, its comparer or previous-value lines |
//! | `not re-run since:` | nothing read the memo since its sources moved | the memo |
//! | `kept:` | the memo itself re-ran and returned its previous value | the lines returning it |
//! | `select:` | a select over the model re-ran on the latest message and kept its value while the model moved | the select |
//! | `comparer:` | a node made with a comparer lies upstream: where a later change may stop | the node |
//! | `update:` | the latest message moved (or did not move) a model upstream | the arm of `update` that handled it |
//! | `wrote:` | a signal did not follow the latest message, which wrote signals outside its cone (effects, commands) | each write |
//! | `initial:` | a signal upstream was never written: it holds the value it was made with | its creation |
//! | `steady:` | a source kept its value on the latest message while another source moved | its body |
//! | `ran:` | what `#[node]` and `#[trace_fn]` recorded: the branches the explained node's latest run took, the `#[trace_fn]` fns it called and the values shadowing `let`s bound; or what a message's `update` ran (then it replaces `update:` for that message) | each branch's line, a `let`'s line with its value, the lines that decide a fn's value (in `update`, that change state) |
//! | `settled:` | the explained node is (or reads) an async memo: the value its future settled | the future's lines that produce it, failures turned into defaults first |
//! | `refused:` | a keyed collection upstream holds a duplicate-key error: its source's list has two items with one key, so it kept the rows it had | its key fn |
//!
//! Ranks favour what explains the node's latest staleness directly (the cutoff that stopped the latest change, the
//! node's own untracked reads), then nearness in the cone. Every finding names a `file:line` from the call sites
//! the traced build records, so no source file is needed to name it; the line's text is added when the source can be
//! read.

use super::log::{EventKind, NodeRecord, Writer};
use super::names;
use super::query::{
    Comparer, Ctx, Cutoff, Explain, Finding, FindingKind, Site, SourceLine, SourceRef, TraceError, WhyNot,
    WhyRoot, cone_hops, view,
};
use super::source;
use crate::graph::{AnyNode, NodeId, NodeKind};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use super::log::SiteRef;
use std::sync::Arc;

mod by_value;
mod chain;
mod closure;
mod command;
mod reached;
mod template;
mod view;

/// How far back (in events) the batch search looks from a write.
const BATCH_LOOKBACK: u64 = 4_096;
/// How many lines above a memo's creation a captured read may stand.
const CAPTURE_LINES: u32 = 30;
/// The rank of a select unrelated by name to the message it kept its value on.
const SELECT_UNRELATED_RANK: u32 = 350;

/// What a `ran:` finding of a message says when no arm of `update` was found for it: its update ran (the label says
/// as much, so the short form leaves it out).
pub(super) const UPDATE_RAN: &str = ": its update ran";

/// What `explain` says: the node's line, the cause chain of its last run, why it has not re-run since, what it read
/// untracked that moved, and the cutoffs (or comparers) upstream.
///
/// # Errors
///
/// [`TraceError::UnknownNode`] when the node is not in this thread's graph, [`TraceError::Dropped`] when it was
/// dropped and its record is no longer kept, [`TraceError::NotTraced`] in an untraced build.
pub fn explain(node: impl AnyNode) -> Result<Explain, TraceError> {
    view(|c| c.explain(node.node_id()))?
}

impl Ctx<'_> {
    /// The answer of [`explain`] for `id`: the queries' answers about it and the diagnosis of its cone.
    pub fn explain(&self, id: NodeId) -> Result<Explain, TraceError> {
        let r = self.check(id)?;
        let info = self.info(id).ok_or_else(|| self.missing(id))?;
        let why = self.why(id)?;
        let why_not = (r.kind != NodeKind::Signal)
            .then(|| self.why_not(id))
            .transpose()?;
        let unread = self.unread(id)?;
        let since = match r.kind {
            NodeKind::Signal => r.last_write,
            _ => r.last_run_start,
        };
        let cutoffs = self.cutoffs(id, since, u64::MAX);
        let earlier_cutoffs = if cutoffs.is_empty() {
            let mut earlier = self.cutoffs(id, 0, since.max(1));
            earlier.truncate(2);
            earlier
        } else {
            Vec::new()
        };
        let comparers = if cutoffs.is_empty() && earlier_cutoffs.is_empty() {
            self.upstream(id)
                .into_iter()
                .filter(|n| self.rec(*n).is_some_and(|r| r.custom_comparer))
                .take(2)
                .filter_map(|n| {
                    let site = self.rec(n)?.site;
                    Some(Comparer {
                        info: self.info(n)?,
                        line: names::line_text(site.file(), site.line()),
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let line = names::line_text(r.site.file(), r.site.line());
        let (findings, body) = diagnose(self, id, why_not.as_ref());
        let reads = r
            .sources
            .iter()
            .filter_map(|s| {
                let source = self.rec(*s)?;
                Some(SourceRef {
                    node: self.name(*s),
                    site: Site::of(source.site),
                    disposed: source.disposed != 0,
                })
            })
            .collect();
        Ok(Explain {
            info,
            line,
            why,
            why_not,
            unread,
            cutoffs,
            earlier_cutoffs,
            comparers,
            findings,
            body,
            reads,
        })
    }
}

/// The line at `site` as a finding's line.
fn line(site: SiteRef) -> SourceLine {
    SourceLine::at(site)
}

/// Everything the diagnosis found upstream of `id`, best first, and the lines of its own body that read its sources.
pub(super) fn diagnose(
    ctx: &Ctx<'_>,
    id: NodeId,
    why_not: Option<&WhyNot>,
) -> (Vec<Finding>, Vec<SourceLine>) {
    let Some(me) = ctx.rec(id) else {
        return (Vec::new(), Vec::new());
    };
    let cone = cone_hops(ctx, id);
    let in_cone: HashSet<NodeId> = cone.iter().map(|(n, _)| *n).collect();
    let mut found = Vec::new();

    // Why it has not re-run, when that is the reason: nothing read it, or it was disposed.
    match why_not {
        Some(reason @ WhyNot::Unobserved { .. }) => found.push(Finding::new(
            FindingKind::NotReRun,
            995,
            reason.to_string(),
            Some(line(me.site)),
        )),
        Some(WhyNot::Disposed { node, seq }) => found.push(Finding::new(
            FindingKind::Disposed,
            960,
            format!("{node} was disposed #{seq} and keeps its last value"),
            Some(me.disposed_at.map_or_else(|| line(me.site), line)),
        )),
        _ => {}
    }

    for &(n, depth) in &cone {
        let Some(r) = ctx.rec(n) else { continue };
        untracked_reads(ctx, r, n == id, depth, &mut found);
        future_reads(ctx, r, n == id, depth, &mut found);
        if depth <= 1 {
            settled(ctx, r, n == id, &mut found);
        }
        disposed_sources(ctx, r, n == id, depth, &mut found);
        refused_list(ctx, r, depth, &mut found);
        if r.kind == NodeKind::Signal {
            written(ctx, r, n == id, depth, &mut found);
            batched(ctx, r, depth, &mut found);
        } else {
            captured(ctx, r, &in_cone, depth, &mut found);
        }
    }
    cutoffs(ctx, id, me, why_not, &in_cone, &mut found);
    equal_write(ctx, why_not, &mut found);
    kept_itself(ctx, me, &mut found);
    update_arms(ctx, me, &cone, &in_cone, &mut found);
    steady_sources(ctx, me, &mut found);
    branches_taken(ctx, me, &mut found);
    row_memos(ctx, me, &mut found);
    message_writes(ctx, me, &in_cone, &mut found);
    initial_values(ctx, &cone, &mut found);
    initial_model_parts(ctx, &cone, &mut found);
    kept_by_equality(ctx, id, &cone, &mut found);
    let strongest = found.iter().map(|f| f.rank).max().unwrap_or(0);
    selects(ctx, &cone, strongest, &mut found);
    captures_before_their_cutoffs(&mut found);

    // Keep the best finding per line and kind; best first, ties by the order found.
    // a finding is the same as another of its kind on the same line (or, with no line, with the same text)
    type Key = (FindingKind, Option<(&'static str, u32)>, String);
    let mut seen: HashSet<Key> = HashSet::new();
    found.sort_by_key(|f| std::cmp::Reverse(f.rank));
    found.retain(|f| {
        let key = f.at.as_ref().map(|a| (a.site.file, a.site.line));
        seen.insert((
            f.kind,
            key,
            if key.is_some() {
                String::new()
            } else {
                f.text.clone()
            },
        ))
    });
    let shown: HashSet<(&'static str, u32)> = found
        .iter()
        .flat_map(|f| f.at.iter().chain(&f.more))
        .map(|l| (l.site.file, l.site.line))
        .collect();
    // the node's own body keeps the lines that clone handles into its closure under other names (a swapped clone
    // is a mistake too); one that clones each handle into its own name says nothing
    let ran = ctx.tracer.branches_of(id);
    let mut body = body_lines(me, true, false, &ran);
    body.retain(|l| !is_plain_clone_line(&l.text));
    condition_lets(me, &mut body);
    body.extend(helper_lines(me, &body, &ran));
    body.retain(|l| !shown.contains(&(l.site.file, l.site.line)));
    template_first(ctx, me, &shown, &mut body);
    closures_called(me, &shown, &mut body);
    // the views it reads that moved chose its rows: their creation lines first
    let views: Vec<SourceLine> = view::moved_views(ctx, me)
        .into_iter()
        .filter(|v| !shown.contains(&(v.site.file, v.site.line)))
        .collect();
    body.retain(|l| !views.iter().any(|v| v.site.file == l.site.file && v.site.line == l.site.line));
    body.splice(0..0, views);
    (found, body)
}

/// The lines of the explained node's body that decided the text of its value ([`template::lines`]: the lets a
/// template's arguments came from, the guard of its arm), first; not for an async memo, whose `settled:` finding
/// quotes them.
fn template_first(ctx: &Ctx<'_>, me: &NodeRecord, shown: &HashSet<(&'static str, u32)>, body: &mut Vec<SourceLine>) {
    let Some(value) = ctx.value(me.id) else { return };
    let file = me.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return;
    };
    if index.asyncs.iter().any(|(lines, _)| call.whole.holds(*lines)) {
        return;
    }
    let at = |i: usize| u32::try_from(i + 1).unwrap_or(u32::MAX);
    let quoted: Vec<usize> = body
        .iter()
        .filter(|l| l.site.file == file)
        .map(|l| l.site.line as usize - 1)
        .collect();
    let mut made = template::lines(me, &value, &quoted);
    made.retain(|i| !shown.contains(&(file, at(*i))) && !quoted.contains(i));
    let lines: Vec<SourceLine> = made.into_iter().map(|i| numbered(file, &index.lines, i)).collect();
    // after the first lines that decide which values and in what order (a sort key, a condition)
    let after = body.iter().take_while(|l| decides(&l.text)).count();
    body.splice(after..after, lines);
}

/// A body line of the explained node that calls a closure its body bound to a name (`!handed_in(&p.name)`): the
/// closure's `let`, right after it ([`closure::closure_lets`]), when not quoted yet.
fn closures_called(me: &NodeRecord, shown: &HashSet<(&'static str, u32)>, body: &mut Vec<SourceLine>) {
    let file = me.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return;
    };
    let first = call.whole.first as usize - 1;
    let mut i = 0;
    while i < body.len() {
        let at = body[i].site.line;
        if body[i].site.file != file || !call.whole.contains(at) {
            i += 1;
            continue;
        }
        for l in closure::closure_lets(&index.lines, first, at as usize - 1) {
            let line = u32::try_from(l + 1).unwrap_or(u32::MAX);
            if !shown.contains(&(file, line)) && !body.iter().any(|b| b.site.file == file && b.site.line == line) {
                body.insert(i + 1, numbered(file, &index.lines, l));
                i += 1;
            }
        }
        i += 1;
    }
}

/// How many of the explained node's first body lines [`condition_lets`] looks at.
const CONDITION_LETS_LINES: usize = 3;

/// In the explained node's body, a condition among its first few quoted lines (`if at < now || at >= until {`)
/// with the `let` above it that bound the first name it tests (`let at = class.start;`), right after it, when not
/// quoted yet and a statement of one line: one step back from what decided to what it decided on, where a wrong
/// field or operand is. A `let` that only shadows a handle with its value (`let now = now.get();`) says nothing the
/// node's reads do not.
fn condition_lets(me: &NodeRecord, body: &mut Vec<SourceLine>) {
    let file = me.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return;
    };
    let lines = &index.lines;
    let mut i = 0;
    while i < body.len().min(CONDITION_LETS_LINES) {
        let at = body[i].site.line;
        if body[i].site.file != file || !call.whole.contains(at) {
            i += 1;
            continue;
        }
        let code = code_part(&lines[at as usize - 1]).trim_start().trim_start_matches('}').trim_start();
        let Some(condition) = ["if ", "else if ", "while ", "match "].iter().find_map(|k| code.strip_prefix(k)) else {
            i += 1;
            continue;
        };
        // the first name's `let`, when it is a statement of one line (the first line of a longer one names only
        // what it starts from)
        let bound = lets_binding(lines, call.whole.first, at, condition)
            .into_iter()
            .filter(|l| !shadows_with_value(&lines[*l as usize - 1]))
            .find(|l| !body.iter().any(|b| b.site.file == file && b.site.line == *l))
            .filter(|l| code_part(&lines[*l as usize - 1]).trim_end().ends_with(';'));
        if let Some(l) = bound {
            body.insert(i + 1, numbered(file, lines, l as usize - 1));
            i += 1;
        }
        i += 1;
    }
}

/// A memo that kept its value (a `cutoff:`) and was made with a copy of a value that moved since (a `captured:` of
/// that memo): it kept its value because it never reads the value that moved. The capture is the cause, the cutoff
/// its symptom, so the `captured:` finding goes just above the cutoff.
fn captures_before_their_cutoffs(found: &mut [Finding]) {
    let cutoffs: Vec<(String, u32)> = found
        .iter()
        .filter(|f| matches!(f.kind, FindingKind::Cutoff | FindingKind::EarlierCutoff))
        .filter_map(|f| Some((f.text.split(' ').next()?.to_owned(), f.rank)))
        .collect();
    for f in found.iter_mut().filter(|f| f.kind == FindingKind::Captured) {
        let made = cutoffs
            .iter()
            .filter(|(memo, _)| f.text.contains(&format!(" to make {memo}, ")))
            .map(|(_, rank)| *rank)
            .max();
        if let Some(rank) = made {
            f.rank = f.rank.max(rank + 1);
        }
    }
}

fn untracked_reads(ctx: &Ctx<'_>, r: &NodeRecord, own: bool, depth: u32, found: &mut Vec<Finding>) {
    for (source, read, site) in &r.untracked {
        if r.sources.contains(source) {
            continue;
        }
        let Some(s) = ctx.rec(*source) else { continue };
        // A memo nothing tracks is not brought up to date when its sources move: it went stale (marked) instead.
        let moved = s.last_moved > *read;
        let stale = s.kind == NodeKind::Memo && s.last_mark > *read;
        if !moved && !stale {
            continue;
        }
        let mut text = ctx.name(*source).to_string();
        if let Some(v) = short_value(ctx, *source) {
            let _ = write!(text, " = {v}");
        }
        if moved {
            let _ = write!(text, " moved #{}", s.last_moved);
        } else {
            let _ = write!(text, " went stale #{} (its sources moved)", s.last_mark);
        }
        if own {
            let _ = write!(text, " after an untracked read #{read}");
        } else {
            let _ = write!(
                text,
                " after an untracked read by {} #{read}",
                ctx.name(r.id)
            );
        }
        let rank = if own { 1_000 } else { 900 + near(depth) };
        found.push(Finding::new(
            FindingKind::Unread,
            rank,
            text,
            site.map(line),
        ));
    }
}

/// Reads by async memo `r`'s futures (untracked by design: a future runs outside the memo's run, so what it reads
/// does not re-run the memo) of nodes that moved after: the memo's value missed the change.
fn future_reads(ctx: &Ctx<'_>, r: &NodeRecord, own: bool, depth: u32, found: &mut Vec<Finding>) {
    if r.kind != NodeKind::Memo {
        return;
    }
    for (source, read, site) in ctx.tracer.flight_reads_of(r.id) {
        if r.sources.contains(&source) {
            continue;
        }
        let Some(s) = ctx.rec(source) else { continue };
        // a memo nothing tracks is not brought up to date when its sources move: it went stale instead
        let moved = s.last_moved > read;
        let stale = s.kind == NodeKind::Memo && s.last_mark > read;
        if !moved && !stale {
            continue;
        }
        let mut text = ctx.name(source).to_string();
        if let Some(v) = short_value(ctx, source).filter(|_| moved) {
            let _ = write!(text, " = {v}");
        }
        if moved {
            let _ = write!(text, " moved #{}", s.last_moved);
        } else {
            let _ = write!(text, " went stale #{}", s.last_mark);
        }
        let _ = write!(
            text,
            " after {}'s future read it #{read}, untracked (futures run outside the memo's run)",
            ctx.name(r.id)
        );
        let rank = if own { 1_000 } else { 900 + near(depth) };
        found.push(Finding::new(FindingKind::FutureRead, rank, text, Some(line(site))));
    }
}

/// How many hops upstream a collection that refused its list is looked for.
const REFUSED_DEPTH: u32 = 3;

/// The start of the `Debug` text of a collection's node that refused its source's list (`Collection::error`).
const DUPLICATE_KEY: &str = "Err(DuplicateKey {";

/// A keyed collection (its node `r`) whose value is the duplicate-key error: its source's list holds two items with
/// one key, so it kept the rows it had and every view over it missed the list's change. The line is its key fn (the
/// first closure its call was given), which made two items one key.
fn refused_list(ctx: &Ctx<'_>, r: &NodeRecord, depth: u32, found: &mut Vec<Finding>) {
    // a view reads its collection, a memo reads views: a few hops cover them, and the value text is made only there
    if r.kind != NodeKind::Memo || depth > REFUSED_DEPTH {
        return;
    }
    let Some(value) = ctx.tracer.value_now(r.id).filter(|v| v.starts_with(DUPLICATE_KEY)) else {
        return;
    };
    let key_fn = source::index(r.site.file()).and_then(|index| {
        let closure = index.call_at(r.site.line(), r.site.column())?.closure.clone()?;
        // the closure's first line holds its parameters and, written on one line, its body
        let at = closure.body.first;
        Some(numbered(r.site.file(), &index.lines, at as usize - 1))
    });
    // `Err(DuplicateKey { collection: "yard", key: "tern", first: 0, second: 1 })`: the key and both positions
    let field = |name: &str, end: &str| {
        let start = value.find(&format!(" {name}: "))? + name.len() + 3;
        let len = value[start..].find(end)?;
        Some(value[start..start + len].to_owned())
    };
    let text = match (field("key", ", first: "), field("first", ", second: "), field("second", " }")) {
        (Some(key), Some(first), Some(second)) => format!(
            "{}'s list has items {first} and {second} with one key, {}, so it kept the rows it had; its key fn",
            ctx.name(r.id),
            short_text(&key)
        ),
        _ => format!("{} = {}: it kept the rows it had; its key fn", ctx.name(r.id), short_text(&value)),
    };
    found.push(Finding::new(
        FindingKind::Refused,
        970 + near(depth) / 10,
        text,
        Some(key_fn.unwrap_or_else(|| line(r.site))),
    ));
}

/// How many lines a `ran:` finding (or the records of an `update`) quotes.
const RAN_LINES: usize = 4;

/// How many lines of a `#[trace_fn]` fn that ran are quoted for it (the lines that decide its value, or in an
/// `update` the lines that change state).
const RAN_FN_LINES: usize = 2;

/// A `#[trace_fn]` fn that ran: its file's index, its definition and its file.
type Entered = (Arc<source::Index>, source::FnDef, &'static str);

/// The lines that say what ran, from the records `#[node]` and `#[trace_fn]` made (`ran`, in the order made): a
/// branch's line; a shadowing `let`'s line with the value it bound (`→ 14`); for a fn entered, the lines of its
/// body that decide its value (in an `update`, `writes`: first the lines that change state), not its signature,
/// which only says it ran. At most `max` lines, none twice.
fn ran_lines(ran: &[super::log::Ran], writes: bool, max: usize) -> Vec<SourceLine> {
    ran_lines_ordered(ran, writes, false, &HashSet::new(), max)
}

/// The names of the fns whose values flow, in the fns `ran` entered, into a line that names a field in `read`
/// (`cents: ride,` with `read` holding `cents`): the calls on such lines and on the `let`s that bound the names they
/// use (`let ride = ride_charge(..)` → `ride_charge`). The helpers that made what the cone reads, by the source.
fn fns_feeding(ran: &[super::log::Ran], read: &HashSet<String>) -> HashSet<String> {
    let mut out = HashSet::new();
    for found in entered_fns(ran) {
        let def = found.def();
        let lines = &found.index.lines;
        let body = def.whole.first + 1..def.whole.last;
        let names_field = |code: &str| names_read_field(code, read);
        let mut slice: Vec<u32> = Vec::new();
        for l in body.clone() {
            let code = code_part(&lines[l as usize - 1]);
            if names_field(code) {
                slice.push(l);
                // the lets that bound the names the line uses
                for bound in lets_binding(lines, def.whole.first, l, code) {
                    if !slice.contains(&bound) {
                        slice.push(bound);
                    }
                }
            }
        }
        for l in slice {
            let code = code_part(&lines[l as usize - 1]);
            for (at, word) in idents(code) {
                if code[at + word.len()..].starts_with('(') {
                    out.insert(word.to_owned());
                }
            }
        }
    }
    out
}

/// Whether `code` names a field in `read`: `x.cents`, `cents: ride`, or the shorthand `Charge { booking, cents }`.
fn names_read_field(code: &str, read: &HashSet<String>) -> bool {
    idents(code).any(|(at, word)| {
        let (before, after) = (code[..at].trim_end(), code[at + word.len()..].trim_start());
        let shorthand = (before.is_empty() || before.ends_with([',', '{']))
            && (after.is_empty() || after.starts_with([',', '}']));
        read.contains(word) && (before.ends_with('.') || after.starts_with(':') || shorthand)
    })
}

/// How many values left unsent in a branch that did not run [`unsent_values`] quotes.
const UNSENT_VALUES: usize = 2;

/// In the fns `ran` entered: the lines that would have sent a value a helper computed in the run, but sit in a branch
/// that did not run (`if late { .. commands.push(Msg::Post { cents: tax, .. }) }`, with `let tax =
/// folio::city_tax(..);` run above it): the value was computed and never sent, because it was put in the wrong
/// branch or its branch was wrongly not taken. Only a line naming a field in `read` (what the cone reads) counts,
/// and only a value bound by a `let` that ran and calls a fn of the app (not a method or a constructor:
/// `hotel.rates.clone()` and `Vec::new()` computed nothing). Each as the branch's line and the first line of the
/// statement holding the value, at most [`UNSENT_VALUES`].
fn unsent_values(ran: &[super::log::Ran], read: &HashSet<String>) -> Vec<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    // a call of a fn of the app (`city_tax(..)`, `folio::city_tax(..)`), not a method (`rates.clone()`) or a
    // type's constructor (`Vec::new()`)
    let calls_a_fn = |code: &str| {
        idents(code).any(|(at, word)| {
            let before = &code[..at];
            let of_type = before.strip_suffix("::").is_some_and(|path| {
                path.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .is_some_and(|segment| segment.starts_with(|c: char| c.is_ascii_uppercase()))
            });
            word.starts_with(|c: char| c.is_ascii_lowercase())
                && code[at + word.len()..].starts_with('(')
                && !before.ends_with('.')
                && !of_type
        })
    };
    let mut out: Vec<SourceLine> = Vec::new();
    let mut found_values = 0;
    for found in entered_fns(ran) {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let lines = &index.lines;
        let not_run = |at: u32| not_taken(index, def.whole, file, &recorded, at);
        for l in def.whole.first + 1..def.whole.last {
            let code = code_part(&lines[l as usize - 1]);
            if found_values == UNSENT_VALUES || !names_read_field(code, read) || !not_run(l) {
                continue;
            }
            let computed = lets_binding(lines, def.whole.first, l, code).into_iter().any(|at| {
                let bound = code_part(&lines[at as usize - 1]);
                !not_run(at) && calls_a_fn(bound.split_once('=').map_or("", |(_, value)| value))
            });
            if !computed {
                continue;
            }
            // the innermost branch around it that did not run: an `if` block or a `match` arm
            let branch = index
                .ifs
                .iter()
                .filter(|(at, block)| def.whole.contains(*at) && block.contains(l) && !recorded.contains(&(file, *at)))
                .map(|(at, _)| *at)
                .chain(
                    index
                        .arms
                        .iter()
                        .filter(|a| def.whole.contains(a.arrow) && a.arrow <= l && l <= a.body.last)
                        .filter(|a| !recorded.contains(&(file, a.arrow)))
                        .map(|a| a.arrow),
                )
                .max();
            // the statement holding the value: the narrowest call around it (`commands.push(Msg::Post {`)
            let statement = index
                .calls
                .iter()
                .filter(|c| def.whole.holds(c.whole) && c.whole.contains(l))
                .min_by_key(|c| c.whole.last - c.whole.first)
                .map_or(l, |c| c.whole.first);
            for at in branch.into_iter().chain([statement]) {
                if !out.iter().any(|o| o.site.line == at && o.site.file == file) {
                    out.push(SourceLine {
                        site: Site { file, line: at, column: 1 },
                        text: lines[at as usize - 1].trim().to_owned(),
                    });
                }
            }
            found_values += 1;
        }
    }
    out
}

/// In the fns `ran` entered, other than those matching on messages (an arm naming one of `variants`, the messages'
/// variants: their other arms are other messages'): the first `match` arm that did not run, beside one that did,
/// whose body writes a field named in `read` (what the cone reads), as its `=>` line (`Stage::InRoom => {` above
/// `visit.tests.push(test);`). The message's value missed that write because the pattern did not match: the pattern
/// is a suspect (the wrong arm, a variant left out).
fn unwritten_arm(ran: &[super::log::Ran], read: &HashSet<String>, variants: &HashSet<String>) -> Option<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    for found in entered_fns(ran) {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let arms: Vec<&source::Arm> = index.arms.iter().filter(|a| def.whole.contains(a.arrow)).collect();
        if arms.iter().any(|a| a.variants.iter().any(|v| variants.contains(v))) {
            continue;
        }
        let ran_an_arm = arms.iter().any(|a| recorded.contains(&(file, a.arrow)));
        for arm in arms.iter().filter(|a| ran_an_arm && !recorded.contains(&(file, a.arrow))) {
            let writes_read = (arm.body.first..=arm.body.last).any(|l| {
                let text = &index.lines[l as usize - 1];
                is_code(text) && writes_line(text) && names_read_field(code_part(text), read)
            });
            if writes_read {
                return Some(numbered(file, &index.lines, arm.arrow as usize - 1));
            }
        }
    }
    None
}

/// The identifiers of `code` with where each starts.
fn idents(code: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = code.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        while i < bytes.len() && !word(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && word(bytes[i]) {
            i += 1;
        }
        Some((start, &code[start..i]))
    })
}

/// The arithmetic operators a line computes with, spaced as rustfmt writes them.
const ARITHMETIC: [&str; 5] = [" + ", " - ", " * ", " / ", " % "];

/// Whether `text` computes with an arithmetic operator ([`ARITHMETIC`]).
fn has_arithmetic(text: &str) -> bool {
    ARITHMETIC.iter().any(|op| text.contains(op))
}

/// The local names an expression reads, in order, each once: not a field or method (`.name`), a path segment
/// (`a::b`), a fn or macro called (`f(`, `m!`), a keyword, or a capitalised name.
fn read_names(expr: &str) -> Vec<String> {
    const KEYWORDS: &[&str] = &["if", "else", "let", "match", "mut", "ref", "in", "as", "true", "false", "self", "move"];
    let mut out: Vec<String> = Vec::new();
    for (start, name) in idents(expr) {
        let after = expr[start + name.len()..].trim_start();
        let lower = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') && name != "_";
        let member = expr[..start].ends_with('.') || expr[..start].ends_with("::");
        let called = after.starts_with('(') || after.starts_with("::") || after.starts_with('!');
        if lower && !member && !called && !KEYWORDS.contains(&name) && !out.iter().any(|o| o == name) {
            out.push(name.to_owned());
        }
    }
    out
}

/// [`ran_lines`], with `choices_first`: in an `update`, the branches that ran (and the `let`s their conditions
/// read) before what it wrote, for an `update` that sent commands: which commands it sent was decided there.
fn ran_lines_ordered(
    ran: &[super::log::Ran],
    writes: bool,
    choices_first: bool,
    feeding: &HashSet<String>,
    max: usize,
) -> Vec<SourceLine> {
    ran_lines_of(ran, writes, choices_first, feeding, max, false)
}

/// [`ran_lines_ordered`]; with `unknown_branches`, `ran` holds only fns taken as entered ([`reached::reached`]),
/// with no record of their branches: no line is left out as one in a branch that did not run.
fn ran_lines_of(
    ran: &[super::log::Ran],
    writes: bool,
    choices_first: bool,
    feeding: &HashSet<String>,
    max: usize,
    unknown_branches: bool,
) -> Vec<SourceLine> {
    // the records, grouped by the fn entered before them (a group of its own for those made before any): the fn
    // entered last is the innermost helper, whose lines say more than its callers' (which the answer quotes
    // anyway), so the groups go latest first
    let mut groups: Vec<(Option<Entered>, Vec<&super::log::Ran>)> = vec![(None, Vec::new())];
    for r in ran {
        // a fn's record is at its `fn` token's line, where its lines start
        let entered = (r.value.is_none())
            .then(|| source::index(r.file))
            .flatten()
            .and_then(|index| {
                let def = index.fns.iter().find(|f| f.whole.first == r.line)?.clone();
                Some((index, def, r.file))
            });
        match entered {
            Some(fn_def) => groups.push((Some(fn_def), Vec::new())),
            None => {
                // a record inside a fn entered before goes with it; else with the records made outside any
                let at = groups
                    .iter()
                    .rposition(|(d, _)| {
                        d.as_ref()
                            .is_some_and(|(_, def, file)| *file == r.file && def.whole.contains(r.line))
                    })
                    .unwrap_or(0);
                groups[at].1.push(r);
            }
        }
    }
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    let mut out: Vec<SourceLine> = Vec::new();
    let push = |out: &mut Vec<SourceLine>, file: &'static str, at: u32, text: String| {
        // a line of brackets and arrows alone (`} => {`, the end of a long pattern) says nothing
        let says_something = text.chars().any(|c| c.is_alphanumeric() || c == '_') && !copies_a_parameter(file, at, &text);
        if says_something && out.len() < max && !out.iter().any(|l| l.site.file == file && l.site.line == at) {
            out.push(SourceLine {
                site: Site {
                    file,
                    line: at,
                    column: 1,
                },
                text,
            });
        }
    };
    let (outside, inside) = groups.split_first().expect("the first group is always there");
    if writes && choices_first {
        // an `update` that sent commands and left a fn early from a branch that ran (`if refund > 0 { return
        // notify(..) }`): the commands it sent were chosen by that exit, and those it did not send were left out
        // there. The latest exit first: the last fn to return is nearest to what the `update` returned
        for r in ran.iter().rev().filter(|r| r.value.is_none()) {
            if let Some((at, exit)) = source::index(r.file).and_then(|index| exit_of(&index, r.line)) {
                push(&mut out, r.file, r.line, names::line_text(r.file, r.line).unwrap_or_default());
                push(&mut out, r.file, at, exit);
            }
        }
        // a branch that ran and shut out the `else if` after it, whose block would have sent a command (`if late
        // { .. } else if let Some(hold) = .. { commands.push(Msg::Notify { .. }) }`): only one of the two could
        // send, and the one left out is a suspect for the command missing
        for r in ran.iter().filter(|r| r.value.is_none()) {
            if let Some(at) = source::index(r.file).and_then(|index| else_if_shut_out(&index, r.line, r.file, &recorded))
            {
                push(&mut out, r.file, at, names::line_text(r.file, at).unwrap_or_default());
            }
        }
    }
    if writes {
        // a `let` that reads a place the line just above it assigned (`booking.showing = to;` then `let from =
        // booking.showing.clone();`) reads the new value: two statements in the wrong order, first
        for (index, def, file) in inside.iter().filter_map(|(d, _)| d.as_ref()) {
            let not_run = |at: u32| did_not_run(unknown_branches, index, def.whole, file, &recorded, at);
            for (write, read) in read_after_write(&index.lines, def.whole) {
                if !not_run(read) {
                    // the read that bound the wrong value, then the write it should have come before
                    for at in [read, write] {
                        push(&mut out, file, at, index.lines[at as usize - 1].trim().to_owned());
                    }
                }
            }
        }
        // a fn that ran and dropped what a helper returned (`depart(&mut next, id);` where `depart` returns the
        // commands to send) lost it there: those lines first
        for (index, def, file) in inside.iter().filter_map(|(d, _)| d.as_ref()) {
            for at in dropped_results(index, def, file) {
                let text = index.lines[at as usize - 1].trim().to_owned();
                push(&mut out, file, at, text);
            }
        }
    }
    // the helpers whose values flow into what the cone reads (`feeding`) first, then the others; latest first within
    let feeds = |e: &Option<Entered>| e.as_ref().is_some_and(|(_, def, _)| feeding.contains(&def.name));
    let mut ordered: Vec<&(Option<Entered>, Vec<&super::log::Ran>)> = inside
        .iter()
        .rev()
        .filter(|(e, _)| feeds(e))
        .chain(inside.iter().rev().filter(|(e, _)| !feeds(e)))
        .collect();
    // a fn whose value is only a `format!` of what it was given presents a value the others computed: after them
    ordered.sort_by_key(|(e, _)| e.as_ref().is_some_and(|(index, def, _)| only_formats(index, def)));
    // a helper called in a `let` that a branch which ran compares against (`let opens = starts_at(class) + WINDOW;`
    // then `else if now < opens`): the caller's branch and that `let` (the comparison's operands) say what decided,
    // and name the call; the helper's own lines after them
    let compared_lets: Vec<String> = inside
        .iter()
        .filter_map(|(e, records)| Some((e.as_ref()?, records)))
        .flat_map(|((index, def, file), records)| {
            records
                .iter()
                .filter(|r| r.value.is_none() && r.file == *file)
                .flat_map(|r| lets_read_by(&index.lines, def, r.line))
                .map(|at| code_part(&index.lines[at as usize - 1]).to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    // and a helper called in the condition of such a branch, which computes on its value (`if had_place &&
    // is_late(..)`)
    let compared_conditions: Vec<String> = inside
        .iter()
        .filter_map(|(e, records)| Some((e.as_ref()?, records)))
        .flat_map(|((index, _, file), records)| {
            records
                .iter()
                .filter(|r| r.value.is_none() && r.file == *file)
                .filter_map(|r| index.lines.get(r.line as usize - 1))
                .map(|l| code_part(l).to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    let called_in_compared_let = |e: &Option<Entered>| {
        e.as_ref().is_some_and(|(_, def, _)| {
            compared_lets
                .iter()
                .any(|code| computes_on_call(code, &def.name))
                || compared_conditions
                    .iter()
                    .any(|code| condition_computes_on_call(code, &def.name))
        })
    };
    // and the helpers such a helper calls (`is_late` calling `starts_at`): they made an operand of its value
    let deferred: Vec<&Entered> = inside
        .iter()
        .filter_map(|(e, _)| e.as_ref().filter(|_| called_in_compared_let(e)))
        .collect();
    let called_by_deferred = |e: &Option<Entered>| {
        e.as_ref().is_some_and(|(_, def, _)| {
            deferred.iter().any(|(index, caller, _)| {
                caller.name != def.name
                    && (caller.whole.first + 1..caller.whole.last).any(|l| {
                        let code = code_part(&index.lines[l as usize - 1]);
                        mentions(code, &def.name) && code.contains(&format!("{}(", def.name))
                    })
            })
        })
    };
    ordered.sort_by_key(|(e, _)| called_in_compared_let(e) || called_by_deferred(e));
    for (entered, records) in ordered.into_iter().chain(std::iter::once(outside)) {
        let recorded_lines = |out: &mut Vec<SourceLine>| {
            for r in records {
                // an `if` another recorded branch sits in: the inner one says where the run went (a `match` arm
                // says which pattern matched, and stays)
                if r.value.is_none()
                    && let Some(index) = source::index(r.file)
                    && index.ifs.iter().any(|(line, _)| *line == r.line)
                    && holds_a_branch(&index, r.file, r.line, &recorded)
                {
                    continue;
                }
                let mut text = names::line_text(r.file, r.line).unwrap_or_default();
                // a `let` that shadows a source's handle with its value (`let stays = stays.get();`) read it and
                // decided nothing: the node's reads already name it
                if r.value.is_some() && shadows_with_value(&text) {
                    continue;
                }
                if let Some(value) = &r.value {
                    let _ = write!(text, " → {value}");
                }
                push(out, r.file, r.line, text);
                // a branch that left the loop or the fn at once (`if left == 0 { break; }`): where it went decided
                if r.value.is_none()
                    && let Some((at, exit)) = source::index(r.file).and_then(|index| exit_of(&index, r.line))
                {
                    push(out, r.file, at, exit);
                }
                // a branch's condition: the `let`s it reads computed what chose it
                if r.value.is_none()
                    && let Some((index, def, file)) = entered
                    && *file == r.file
                {
                    for at in lets_read_by(&index.lines, def, r.line) {
                        push(out, file, at, index.lines[at as usize - 1].trim().to_owned());
                    }
                }
                // a branch with no branch recorded inside it: the statement it ran first is what it did
                if r.value.is_none()
                    && let Some(index) = source::index(r.file)
                    && let Some(at) = branch_action(&index, r.file, r.line, &recorded)
                {
                    push(out, r.file, at, index.lines[at as usize - 1].trim().to_owned());
                }
            }
        };
        let Some((index, def, file)) = entered else {
            recorded_lines(&mut out);
            continue;
        };
        // in an `update`, what the fn wrote comes before the branches that led there (unless the choices come
        // first); in a run, the branches first
        if !writes || choices_first {
            recorded_lines(&mut out);
        }
        let lines = &index.lines;
        // a line inside a `match` arm or an `if` block that did not run (no record at its `=>` or `if`) did not
        // run either
        let not_run = |at: u32| did_not_run(unknown_branches, index, def.whole, file, &recorded, at);
        let mut picked: Vec<usize> = Vec::new();
        if writes {
            for i in (def.whole.first as usize..def.whole.last as usize).filter(|i| is_code(&lines[*i])) {
                if writes_line(&lines[i]) {
                    picked.push(i);
                    // the statement that bound the place written (`let Some(v) = list.iter_mut().find(..)`): it
                    // chose which one was written
                    picked.extend(binding_of_written(lines, def.whole.first as usize, i));
                    // the loop around it that filtered what it walks chose how many times it wrote
                    picked.extend(loop_of_written(lines, def.whole.first as usize, i));
                }
            }
        }
        // a write in a branch that did not run wrote nothing: the fn is then quoted by its value, as one that wrote
        // nothing
        picked.retain(|i| !not_run(u32::try_from(i + 1).unwrap_or(u32::MAX)));
        // a fn that returned early (a recorded `if` whose block returns) never reached its tail
        let returned_early = index.ifs.iter().any(|(line, block)| {
            def.whole.contains(*line) && recorded.contains(&(*file, *line)) && block_returns(index, *block)
        });
        let tail = def.value.iter().map(|v| v.last).max();
        // in an `update`, a fn that wrote state is quoted by its writes; its value (the new state) says no more
        if picked.is_empty() {
            // in a run, the line that makes the fn's value (its tail, the last of them) first: the lines above
            // only prepare it
            let value = def
                .value
                .iter()
                .filter(|v| !(returned_early && Some(v.last) == tail))
                // a chain's lines that decide (`.filter(|r| ..)`), not its receiver alone
                .flat_map(|v| deciding_lines(lines, v).into_iter().take(1))
                // a value that only wraps what the fn was given (`vec![Msg::Notify { text }]`) computed nothing
                .filter(|i| !only_wraps(&lines[*i]));
            if writes {
                picked.extend(value);
            } else {
                picked.extend(value.rev());
            }
        }
        let mut taken = 0;
        // in a run, one line of each fn besides its records; in an `update`, more of what it wrote
        let per_fn = if writes { RAN_FN_LINES } else { 1 };
        for (n, i) in picked.iter().enumerate() {
            let i = *i;
            let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
            // a branch recorded inside the fn is quoted for itself; the signature only says the fn ran
            if taken == per_fn || at == def.whole.first || recorded.contains(&(*file, at)) || not_run(at) {
                continue;
            }
            if is_code(&lines[i]) {
                push(&mut out, file, at, lines[i].trim().to_owned());
                // the binding of a place written goes with its write
                let bound = writes && n > 0 && picked[n - 1] > i;
                if !bound {
                    taken += 1;
                }
            }
        }
        // the tail it reached (`u64::from(blocks) * rate`) with the `let` nearest above that bound what it reads
        // (`let blocks = minutes / 15 + 1;`): the value was made there as much as in the tail
        if let Some(tail) = tail.filter(|_| !returned_early && taken > 0) {
            let code = code_part(&lines[tail as usize - 1]);
            if let Some(bound) = lets_binding(lines, def.whole.first, tail, code).first() {
                push(&mut out, file, *bound, lines[*bound as usize - 1].trim().to_owned());
            }
        }
        // a guard that did not fire (`if bike.state == Out { return Err(..) }`, not taken) let the fn go on to the
        // value it made: its condition decided as much as the line that ran
        if let Some(guard) = guard_not_taken(index, def, file, &recorded).filter(|_| !unknown_branches) {
            push(&mut out, file, guard, lines[guard as usize - 1].trim().to_owned());
        }
        if writes && !choices_first {
            recorded_lines(&mut out);
        }
    }
    out
}

/// How a finding on the explained node names the value it kept, which the node line shows: the value when it is
/// shorter than saying so (`3`), else `its value`.
fn kept_text(value: &str) -> String {
    const ITS_VALUE: &str = "its value";
    let short = short_text(value);
    if short.chars().count() <= ITS_VALUE.len() {
        short
    } else {
        ITS_VALUE.to_owned()
    }
}

/// Whether a line shadows a handle with its value and does nothing else (`let stays = stays.get();`).
fn shadows_with_value(line: &str) -> bool {
    let code = code_part(line).trim();
    let Some((name, value)) = code.strip_prefix("let ").and_then(|rest| rest.split_once('=')) else {
        return false;
    };
    let name = name.trim().trim_start_matches("mut ").trim();
    let value = value.trim().trim_end_matches(';').trim_end();
    !name.is_empty() && value.strip_prefix(name).is_some_and(|rest| rest == ".get()")
}

/// Whether line `at` of `file` (its text `text`) only copies a parameter of the fn it is in into a working copy
/// (`let mut next = shop.clone();` in `fn update(msg: Msg, shop: &Shop)`): every `update` starts so, and it decides
/// nothing.
fn copies_a_parameter(file: &str, at: u32, text: &str) -> bool {
    let code = code_part(text).trim();
    let Some((_, value)) = code.strip_prefix("let ").and_then(|rest| rest.split_once('=')) else {
        return false;
    };
    let Some(copied) = value.trim().trim_end_matches(';').strip_suffix(".clone()") else {
        return false;
    };
    if copied.is_empty() || !copied.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    let Some(index) = source::index(file) else {
        return false;
    };
    let Some(def) = index.fns.iter().filter(|f| f.whole.contains(at)).min_by_key(|f| f.whole.last - f.whole.first)
    else {
        return false;
    };
    // the signature, up to the body's brace
    let signature: String = (def.whole.first..at)
        .map(|l| code_part(&index.lines[l as usize - 1]))
        .collect::<String>();
    let signature = signature.split('{').next().unwrap_or_default();
    let params = signature.split_once('(').map_or("", |(_, rest)| rest);
    idents(params).any(|(i, word)| word == copied && params[i + word.len()..].trim_start().starts_with(':'))
}

/// How many code lines below an assignment a `let` reading the place assigned is looked for.
const READ_AFTER_WRITE_LINES: usize = 2;

/// The pairs of lines of the fn spanning `whole` where an assignment to a field (`booking.showing = to.to_owned();`)
/// is followed within [`READ_AFTER_WRITE_LINES`] code lines by a `let` that reads that field
/// (`let from = booking.showing.clone();`): the `let` binds the value just written, not the one before it.
fn read_after_write(lines: &[String], whole: source::Lines) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for write in whole.first + 1..whole.last {
        let code = code_part(&lines[write as usize - 1]).trim();
        if code.starts_with("let ") {
            continue;
        }
        let Some(at) = assignment_at(code) else { continue };
        // a field of a binding (`booking.showing`), not a local alone or a compound assignment (`x += 1`)
        let place = code[..at].trim();
        let simple = place.contains('.')
            && place.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && !place.starts_with('.');
        if !simple {
            continue;
        }
        let reads_place = |code: &str| {
            code.match_indices(place).any(|(i, _)| {
                let before = code[..i].chars().next_back();
                let after = code[i + place.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        };
        let below = (write + 1..whole.last)
            .filter(|l| is_code(&lines[*l as usize - 1]))
            .take(READ_AFTER_WRITE_LINES);
        for read in below {
            let code = code_part(&lines[read as usize - 1]).trim();
            if let Some((_, value)) = code.strip_prefix("let ").and_then(|rest| rest.split_once('='))
                && reads_place(value)
            {
                out.push((write, read));
                break;
            }
        }
    }
    out
}

/// Whether a line only wraps names in a value (`vec![Msg::Notify { text }]`, `Some(Entry { id, at })`): no
/// operator, no method, no call of a fn (a capitalised constructor is not one).
fn only_wraps(line: &str) -> bool {
    let code = code_part(line).trim().replace("vec!", "");
    let builds = code.contains(['{', '[', '(']);
    let computes = code.contains(['+', '-', '*', '/', '%', '<', '>', '=', '!', '&', '|', '?', '.', '"']);
    let calls = idents(&code).any(|(at, word)| {
        word.starts_with(|c: char| c.is_lowercase()) && code[at + word.len()..].starts_with('(')
    });
    builds && !computes && !calls
}

/// The last `if` of `def` whose block returns and that did not run (no record at its `if`, in a fn a run entered and
/// recorded as `recorded`): a guard whose condition let the fn go on. None when every such `if` ran.
fn guard_not_taken(
    index: &source::Index,
    def: &source::FnDef,
    file: &str,
    recorded: &HashSet<(&str, u32)>,
) -> Option<u32> {
    index
        .ifs
        .iter()
        .filter(|(line, block)| {
            def.whole.contains(*line)
                && *line != def.whole.first
                && !recorded.contains(&(file, *line))
                && !not_taken(index, def.whole, file, recorded, *line)
                && block_returns(index, *block)
        })
        .map(|(line, _)| *line)
        .max()
}

/// The first statement of the block of the `if` at line `at` when it leaves at once (`break`, `continue`, `return`,
/// also one written over several lines, `return notify(format!(..))`): its first line and that line's text.
fn exit_of(index: &source::Index, at: u32) -> Option<(u32, String)> {
    let (_, block) = index.ifs.iter().find(|(line, _)| *line == at)?;
    let first = (block.first + 1..block.last).find(|l| is_code(&index.lines[*l as usize - 1]))?;
    let code = code_part(&index.lines[first as usize - 1]).trim();
    ["break", "continue", "return"]
        .iter()
        .any(|w| code.strip_prefix(w).is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')))
        .then(|| (first, code.to_owned()))
}

/// Whether line `at` of a fn `within` did not run: with the branches recorded, it lies in one not taken
/// ([`not_taken`]); with none known (`unknown_branches`, a fn [`reached::reached`] took as entered), it ends the
/// message ([`reached::diverges`]).
fn did_not_run(
    unknown_branches: bool,
    index: &source::Index,
    within: source::Lines,
    file: &str,
    recorded: &HashSet<(&str, u32)>,
    at: u32,
) -> bool {
    if unknown_branches {
        reached::diverges(file, index, at)
    } else {
        not_taken(index, within, file, recorded, at)
    }
}

/// The first statement inside the block of the branch recorded at line `at` (an `if` block, or a `match` arm's body
/// on lines of its own), when no other branch is recorded inside it (`if record.code == fixture.away {` →
/// `record.add(score.away, score.home);`): what the branch did. Not a `let`, a branch or a loop, nor a line inside
/// one; `None` for an arm written on its `=>` line.
fn branch_action(index: &source::Index, file: &str, at: u32, recorded: &HashSet<(&str, u32)>) -> Option<u32> {
    let block = branch_block(index, at)?;
    if holds_a_branch(index, file, at, recorded) {
        return None;
    }
    // the first statement of the block itself: not a branch or a loop, which say only where the run went (and, with
    // nothing recorded inside, did not run), nor a line inside one
    let nested = |l: u32| {
        index.ifs.iter().any(|(line, b)| *line > at && *line <= l && l <= b.last)
            || index.arms.iter().any(|a| a.arrow > at && a.arrow <= l && l <= a.body.last)
    };
    (block.first.max(at + 1)..block.last).find(|&l| {
        let code = code_part(&index.lines[l as usize - 1]).trim_start();
        // a `let` computes for what follows (the condition's `let`s are quoted for it already)
        let head = ["if ", "match ", "for ", "while ", "loop ", "}", "let "].iter().any(|k| code.starts_with(k));
        is_code(&index.lines[l as usize - 1]) && !head && !nested(l)
    })
}

/// The block of the branch at line `at`: an `if`'s block, or a `match` arm's body.
fn branch_block(index: &source::Index, at: u32) -> Option<source::Lines> {
    index
        .ifs
        .iter()
        .find(|(line, _)| *line == at)
        .map(|(_, block)| *block)
        .or_else(|| index.arms.iter().find(|a| a.arrow == at).map(|a| a.body))
}

/// Whether another branch is recorded inside the block of the branch at line `at`.
fn holds_a_branch(index: &source::Index, file: &str, at: u32, recorded: &HashSet<(&str, u32)>) -> bool {
    branch_block(index, at).is_some_and(|block| (at + 1..=block.last).any(|l| recorded.contains(&(file, l))))
}

/// The line of the `else if` chained after the `if` block at line `at` (its `} else if` line closes that block)
/// when it did not run (no record in `recorded`) and its block builds a variant of an enum (`Msg::Notify { .. }`):
/// a command the branch that ran at `at` shut out.
fn else_if_shut_out(index: &source::Index, at: u32, file: &str, recorded: &HashSet<(&str, u32)>) -> Option<u32> {
    let (_, block) = index.ifs.iter().find(|(line, _)| *line == at)?;
    let (next, next_block) = index.ifs.iter().find(|(line, _)| *line == block.last)?;
    let code = code_part(&index.lines[*next as usize - 1]).trim_start();
    if !code.trim_start_matches('}').trim_start().starts_with("else if") || recorded.contains(&(file, *next)) {
        return None;
    }
    // `Type::Variant`, both capitalised: a value of an enum the block builds
    let builds_variant = |code: &str| {
        idents(code).any(|(i, word)| {
            word.starts_with(|c: char| c.is_ascii_uppercase())
                && code[i + word.len()..]
                    .strip_prefix("::")
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
        })
    };
    (next_block.first..=next_block.last)
        .any(|l| builds_variant(code_part(&index.lines[l as usize - 1])))
        .then_some(*next)
}

/// Whether a line of `block` returns from the fn (`return x;`, `return;`).
fn block_returns(index: &source::Index, block: source::Lines) -> bool {
    (block.first..=block.last).any(|l| {
        let code = code_part(index.lines.get(l as usize - 1).map_or("", String::as_str));
        code.contains("return ") || code.contains("return;")
    })
}

/// Whether line `at` of `file` sits in a branch, within `within`, whose run was not recorded: a `match` arm with no
/// record at its `=>`, an `if` block with none at its `if` (`#[trace_fn]` and `#[node]` record each branch that
/// runs, so with `recorded` from a run that entered `within`, such a line did not run).
fn not_taken(
    index: &source::Index,
    within: source::Lines,
    file: &str,
    recorded: &HashSet<(&str, u32)>,
    at: u32,
) -> bool {
    index.arms.iter().any(|a| {
        within.contains(a.arrow) && a.arrow <= at && at <= a.body.last && !recorded.contains(&(file, a.arrow))
    }) || index.ifs.iter().any(|(line, block)| {
        within.contains(*line) && block.first <= at && at <= block.last && *line < at && !recorded.contains(&(file, *line))
    })
}

/// The `let`s of `def` above line `at` that bind a name the condition on line `at` reads (`if notice < fees.late {`
/// → `let notice = …;` and `let fees = …;`), nearest first, at most two: the values that chose the branch were
/// computed there. None when line `at` is not an `if`, `else if`, `match` or `while`.
fn lets_read_by(lines: &[String], def: &source::FnDef, at: u32) -> Vec<u32> {
    let Some(code) = lines.get(at as usize - 1).map(|l| code_part(l)) else {
        return Vec::new();
    };
    let code = code.trim_start().trim_start_matches('}').trim_start();
    let Some(condition) = ["if ", "else if ", "match ", "while "]
        .iter()
        .find_map(|k| code.strip_prefix(k))
    else {
        return Vec::new();
    };
    lets_binding(lines, def.whole.first, at, condition)
}

/// The `let`s between lines `from` and `at` (excluded) that bind a name `code` reads (not a field or method, a
/// path segment or a keyword), nearest first, at most two.
fn lets_binding(lines: &[String], from: u32, at: u32, code: &str) -> Vec<u32> {
    const KEYWORDS: &[&str] = &[
        "if", "else", "let", "match", "while", "mut", "ref", "in", "as", "true", "false", "self", "return",
    ];
    // the names the code reads: not a field or method (after `.`), not a path segment, not a keyword
    let mut names: Vec<&str> = Vec::new();
    for (start, name) in idents(code) {
        let after_dot = code[..start].ends_with('.');
        let path = code[start + name.len()..].starts_with("::") || code[..start].ends_with("::");
        let lower = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') && name != "_";
        if lower && !after_dot && !path && !KEYWORDS.contains(&name) && !names.contains(&name) {
            names.push(name);
        }
    }
    let mut out = Vec::new();
    for name in names {
        let bound = (from..at).rev().find(|&l| {
            let code = code_part(&lines[l as usize - 1]);
            let Some(pattern) = code.trim_start().strip_prefix("let ") else {
                return false;
            };
            let pattern = pattern.split(['=', ':']).next().unwrap_or_default();
            pattern
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == name)
        });
        if let Some(l) = bound
            && !out.contains(&l)
        {
            out.push(l);
        }
        if out.len() == 2 {
            break;
        }
    }
    out
}

/// Whether the `let` `code` (`let opens = starts_at(class) + WINDOW;`) calls fn `name` and computes on what it
/// returned (an arithmetic operator outside the call): the `let`, not the fn, made the value. A `let` that only
/// binds the call's value (`let fee = late_fee(..);`) is the fn's value, which its own lines make.
fn computes_on_call(code: &str, name: &str) -> bool {
    let Some(rhs) = code.split_once('=').map(|(_, r)| r) else {
        return false;
    };
    outside_call(rhs, name).is_some_and(|outside| has_arithmetic(&outside))
}

/// Whether the branch line `code` (`if had_place && is_late(&class, now) {`) calls fn `name` in its condition and
/// combines what it returned with something else (a logical, comparison or arithmetic operator outside the call):
/// the condition, not the fn alone, chose the branch.
fn condition_computes_on_call(code: &str, name: &str) -> bool {
    let code = code.trim_start().trim_start_matches('}').trim_start();
    let Some(condition) = ["if ", "else if ", "while "].iter().find_map(|k| code.strip_prefix(k)) else {
        return false;
    };
    // `if let Some(x) = f(..)` binds what `f` returned: the fn's value alone
    if condition.starts_with("let ") {
        return false;
    }
    outside_call(condition, name).is_some_and(|outside| {
        [" && ", " || ", " < ", " > ", " <= ", " >= ", " == ", " != ", " + ", " - ", " * ", " / "]
            .iter()
            .any(|op| outside.contains(op))
    })
}

/// The text of `rhs` around the first call of fn `name` in it (a path before the name stays outside), or None when
/// it does not call `name`.
fn outside_call(rhs: &str, name: &str) -> Option<String> {
    let call = format!("{name}(");
    let start = rhs
        .match_indices(&call)
        .map(|(i, _)| i)
        .find(|&i| !rhs[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))?;
    // the call's closing parenthesis
    let mut depth = 0;
    let mut end = None;
    for (i, c) in rhs[start + call.len() - 1..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(start + call.len() - 1 + i + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let end = end?;
    Some(format!("{} {}", &rhs[..start], &rhs[end..]))
}

/// A line without its `//` comment.
fn code_part(line: &str) -> &str {
    source::code_of(line)
}

/// What the explained node's latest run ran, as `#[node]` (its body's branches and shadowing `let`s) and
/// `#[trace_fn]` (the fns it called, resolved when they ran) recorded it: the lines that decided its value in the
/// run explained.
fn branches_taken(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
    let taken = ctx.tracer.branches_of(me.id);
    // a fn the body called through a value (a fn parameter, a local holding a fn) is reached by nothing the body
    // quotes: its lines first
    let call = source::index(me.site.file())
        .and_then(|index| index.call_at(me.site.line(), me.site.column()).map(|c| c.whole));
    let by_value = by_value::called_by_value(&taken, call.map(|lines| (me.site.file(), lines)));
    let mut lines = ran_lines_ordered(&taken, false, false, &by_value, RAN_LINES).into_iter();
    let Some(first) = lines.next() else { return };
    let text = format!("{}'s latest run #{} took", ctx.name(me.id), me.last_run_start);
    let mut finding = Finding::new(FindingKind::Ran, 460, text, Some(first));
    finding.more = lines.collect();
    found.push(finding);
}

/// The rank of the finding of the message [`refused_message`] found: before the explained node's body.
const REFUSED_RANK: u32 = 700;

/// The latest message a client or the program dispatched (not a command) to a model in the cone, other than those
/// in `known`, that its `update` refused: a branch that ran returned from a fn at once (`if let Some(why) = refuse(..)
/// { return notify(why); }`). What it would have added is missing from the value, and the rule that refused it is a
/// suspect.
fn refused_message(ctx: &Ctx<'_>, in_cone: &HashSet<NodeId>, known: &[(u64, u32)]) -> Option<u64> {
    let mut out: Option<u64> = None;
    for &model in in_cone {
        if !ctx.rec(model).is_some_and(|r| r.is_model) {
            continue;
        }
        for seq in ctx.tracer.messages_to(model) {
            if known.iter().any(|(m, _)| *m == seq)
                || out.is_some_and(|o| o > seq)
                || ctx.tracer.kept_message(seq).is_none_or(|m| m.cause != 0)
            {
                continue;
            }
            let refused = ctx.tracer.ran_for_message(seq).iter().any(|r| {
                r.value.is_none()
                    && source::index(r.file)
                        .and_then(|index| exit_of(&index, r.line))
                        .is_some_and(|(_, exit)| exit.starts_with("return"))
            });
            if refused {
                out = Some(seq);
            }
        }
    }
    out
}

/// Whether fn `def`'s value is a `format!` alone (each line that makes its value starts with `format!(`).
fn only_formats(index: &source::Index, def: &source::FnDef) -> bool {
    !def.value.is_empty()
        && def.value.iter().all(|v| {
            index
                .lines
                .get(v.first as usize - 1)
                .is_some_and(|l| code_part(l).trim_start().starts_with("format!("))
        })
}

/// In the fns `ran` entered: a value a `let` that ran bound (`let fee = if .. { .. } else { 0 };`) that the fn
/// reads only inside `format!` texts (a notice's), in a fn that sends a value of its own in a field the cone reads
/// (`cents: goods,`): the value was worked out and told, never sent, so the command that should carry it is missing.
/// The statement that builds the commands sent (`let commands = vec![`), then the `let`.
fn told_only(ran: &[super::log::Ran], read: &HashSet<String>) -> Vec<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    for found in entered_fns(ran) {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let lines = &index.lines;
        let body = def.whole.first + 1..def.whole.last;
        let not_run = |at: u32| not_taken(index, def.whole, file, &recorded, at);
        // the first line that sends a field the cone reads, and the statement it is in (the nearest line above that
        // starts a `let` or a `push`)
        let Some(sent) = body.clone().find(|&l| {
            let code = code_part(&lines[l as usize - 1]);
            code.contains(':') && names_read_field(code, read) && !not_run(l)
        }) else {
            continue;
        };
        let statement = (def.whole.first + 1..=sent).rev().find(|&l| {
            let code = code_part(&lines[l as usize - 1]).trim_start();
            code.starts_with("let ") || code.contains(".push(")
        });
        let Some(statement) = statement else { continue };
        for l in body.clone().filter(|l| *l < statement) {
            let code = code_part(&lines[l as usize - 1]).trim_start();
            let Some(name) = code
                .strip_prefix("let ")
                .and_then(|rest| rest.split(['=', ':']).next())
                .map(str::trim)
                .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
            else {
                continue;
            };
            // a value worked out (a choice, a sum, a number), not a name or a text looked up (`desk.title(&isbn)`)
            let statement_text: String = (l..statement)
                .map(|i| code_part(&lines[i as usize - 1]))
                .collect::<Vec<_>>()
                .join(" ");
            let value = statement_text.split_once('=').map_or("", |(_, v)| v);
            let value = value.split(';').next().unwrap_or_default();
            let worked_out = value.contains("if ")
                || [" + ", " - ", " * ", " / "].iter().any(|op| value.contains(op))
                || idents(value).any(|(_, w)| w.starts_with(|c: char| c.is_ascii_digit()));
            if not_run(l) || !worked_out {
                continue;
            }
            let uses: Vec<u32> = (l + 1..def.whole.last)
                .filter(|u| idents(code_part(&lines[*u as usize - 1])).any(|(_, w)| w == name))
                .collect();
            if !uses.is_empty() && uses.iter().all(|u| inside_format(lines, l, *u)) {
                return [statement, l]
                    .into_iter()
                    .map(|at| numbered(file, lines, at as usize - 1))
                    .collect();
            }
        }
    }
    Vec::new()
}

/// Whether line `at` lies inside the arguments of a `format!` opened on it or on a line after `from` (its
/// parentheses not closed before `at`'s end).
fn inside_format(lines: &[String], from: u32, at: u32) -> bool {
    for open in (from + 1..=at).rev() {
        let code = code_part(&lines[open as usize - 1]);
        let Some(start) = code.find("format!(") else { continue };
        // the parentheses from the `format!(` to the end of line `at`
        let mut depth = 0_i32;
        for l in open..=at {
            let text = code_part(&lines[l as usize - 1]);
            let text = if l == open { &text[start..] } else { text };
            for c in text.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 && l < at {
                break;
            }
        }
        // still open at the end of `at`, or closed on `at` itself after the name (a one-line `format!`)
        return depth > 0 || open == at;
    }
    false
}

/// The rank of the finding of a message [`literal_fields`] quoted a field of: before the explained node's body.
const RENAMED_RANK: u32 = 700;

/// The names of a message's arguments, from its arguments' text (`{"product":"BAG","trays":2}`, or the `Debug`
/// text `Bake { product: "BAG", trays: 2 }`): each name followed by `":` or `:`.
fn arg_names(args: &str) -> Vec<String> {
    idents(args)
        .filter(|(at, word)| {
            let after = &args[at + word.len()..];
            (after.starts_with("\":") && args[..*at].ends_with('"')) || (after.starts_with(": ") && !args[..*at].ends_with('"'))
        })
        .map(|(_, word)| word.to_owned())
        .collect()
}

/// A quoted line that opens a struct literal written over several lines (`bakery.batches.push(Batch {`) says what
/// was made, not with which values: the first field line of such a literal that sets a field the cone reads (`read`)
/// from the message's argument of another name (`pieces: trays,` for the message's `trays`: the message calls the
/// value one thing, the field another) goes right after it: one line more at most. Whether one did.
fn literal_fields(quoted: &mut Vec<SourceLine>, read: &HashSet<String>, args: &[String]) -> bool {
    if args.is_empty() {
        return false;
    }
    for at in 0..quoted.len() {
        let (file, line) = (quoted[at].site.file, quoted[at].site.line);
        let Some(index) = source::index(file) else { continue };
        let lines = &index.lines;
        let Some(open) = lines.get(line as usize - 1).map(|l| code_part(l).trim_end()) else {
            continue;
        };
        // `Name {` at the end of the line: a struct's literal (not `if .. {`, `=> {`, nor a variant's `Msg::Post {`)
        let Some(head) = open.strip_suffix('{').map(str::trim_end) else { continue };
        let name: String = head
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let before = head[..head.len() - name.len()].trim_end();
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) || before.ends_with("::") || before.ends_with("=>") {
            continue;
        }
        let mut depth = 1_i32;
        for i in line as usize..lines.len().min(line as usize + 40) {
            let code = code_part(&lines[i]).trim();
            if depth == 1 {
                let field: String = code.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let value = code[field.len()..].trim_start().strip_prefix(':').filter(|v| !v.starts_with(':'));
                let value = value.map(|v| v.trim().trim_end_matches(',').trim());
                if let Some(value) = value
                    && value != field
                    && read.contains(&field)
                    && args.iter().any(|a| a == value)
                {
                    quoted.insert(at + 1, numbered(file, lines, i));
                    return true;
                }
            }
            depth += i32::try_from(code.matches(['{', '(', '[']).count()).unwrap_or(0);
            depth -= i32::try_from(code.matches(['}', ')', ']']).count()).unwrap_or(0);
            if depth <= 0 {
                break;
            }
        }
    }
    false
}

/// How many value lines of a row's memo [`row_memos`] quotes.
const ROW_MEMO_LINES: usize = 3;

/// The rank of [`row_memos`]' finding: before what wrote the rows (their items are the memos' input).
const ROW_MEMO_RANK: u32 = 800;

/// Memos the explained node reads that one line made several times (a keyed collection's row memos, each row's made
/// by the same factory): the node's body shows how it combines them, not how each is computed, so the lines that
/// make the value of the one that moved latest are quoted (`left / plan.per_tray` in the factory's `Memo::new`).
fn row_memos(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
    let rows: Vec<&NodeRecord> = me
        .sources
        .iter()
        .filter_map(|s| ctx.rec(*s))
        .filter(|r| r.kind == NodeKind::Memo && r.runs > 0 && r.site != me.site && !ctx.reads_model_alone(r))
        .collect();
    // a keyed collection's row memo is one even when the collection holds one row (`pupils[Ada]/average`)
    let row_memo = |r: &NodeRecord| {
        let name = ctx.name(r.id).name;
        name.find('[').is_some_and(|open| name[open..].contains("]/"))
    };
    let Some(latest) = rows
        .iter()
        .filter(|r| row_memo(r) || rows.iter().filter(|o| o.site == r.site).count() >= 2)
        .max_by_key(|r| r.last_moved)
    else {
        return;
    };
    let file = latest.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(closure) = index
        .call_at(latest.site.line(), latest.site.column())
        .and_then(|c| c.closure.clone())
    else {
        return;
    };
    let lines = &index.lines;
    // what its latest run took, when `#[node]` recorded it (`Status::Dirty => ..`), then the lines that make its
    // value, the tail first (an early `return` only guards it)
    let ran = ctx.tracer.branches_of(latest.id);
    let mut quoted: Vec<SourceLine> = ran_lines(&ran, false, ROW_MEMO_LINES);
    let mut picked: Vec<usize> = closure
        .value
        .iter()
        .flat_map(|v| deciding_lines(lines, v))
        .filter(|i| closure.body.contains(u32::try_from(i + 1).unwrap_or(u32::MAX)) && is_code(&lines[*i]))
        .collect();
    picked.reverse();
    picked.dedup();
    for i in picked {
        let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if quoted.len() < ROW_MEMO_LINES && !quoted.iter().any(|q| q.site.file == file && q.site.line == at) {
            quoted.push(numbered(file, lines, i));
        }
    }
    let mut quoted = quoted.into_iter();
    let Some(at) = quoted.next() else { return };
    let mut text = ctx.name(latest.id).to_string();
    if let Some(v) = short_value(ctx, latest.id) {
        let _ = write!(text, " = {v}");
    }
    text.push_str(", one of the memos each row makes, from");
    let mut finding = Finding::new(FindingKind::Ran, ROW_MEMO_RANK, text, Some(at));
    finding.more = quoted.collect();
    found.push(finding);
}

/// How many lines of an async memo's future a `settled:` finding quotes.
const FUTURE_LINES: usize = 4;

/// When `r` is an async memo (its creation call holds an `async` block) that has settled a value: the value, and
/// the lines of its future that produce it: those that turn a failure into a value first (`unwrap_or`, `.ok()`,
/// `Err(..)` arms), then the lines that produce the block's value.
fn settled(ctx: &Ctx<'_>, r: &NodeRecord, own: bool, found: &mut Vec<Finding>) {
    if r.kind != NodeKind::Memo || r.runs == 0 {
        return;
    }
    let file = r.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return;
    };
    // the outermost async block inside the memo's call: its future
    let Some((block, value)) = index
        .asyncs
        .iter()
        .filter(|(lines, _)| call.whole.holds(*lines))
        .min_by_key(|(lines, _)| lines.first)
    else {
        return;
    };
    let lines = &index.lines;
    let defaults = |i: usize| {
        let code = source::code_of(&lines[i]);
        ["unwrap_or", ".ok()", "Err(", ".ok_or", "Default::default", ".unwrap_or_default"]
            .iter()
            .any(|p| code.contains(p))
    };
    let inside = block.first as usize..block.last as usize - 1;
    let mut picked: Vec<usize> = inside.clone().filter(|i| is_code(&lines[*i]) && defaults(*i)).collect();
    // a line that makes `None` did not make a `Some` value, nor one that makes `Some` a `None`
    let settled_value = ctx.value(r.id).unwrap_or_default();
    let cannot_have_made = |i: usize| {
        let code = code_part(&lines[i]);
        let mentions_none = mentions(code, "None");
        if settled_value.starts_with("Some(") {
            mentions_none && !code.contains("Some(")
        } else if settled_value == "None" {
            code.contains("Some(") && !mentions_none
        } else {
            // a fixed text (`return Ok("nothing on sale".to_owned())`) that the settled text does not hold
            fixed_text(code).is_some_and(|text| !settled_value.contains(text))
        }
    };
    let mut values: Vec<usize> = value
        .iter()
        .flat_map(|v| deciding_lines(lines, v))
        .filter(|i| inside.contains(i) && is_code(&lines[*i]) && !cannot_have_made(*i))
        .collect();
    // first the value lines that compare or hand a closure the choice (`.filter(|r| ..)`, `if a >= b`), nearest
    // the end first, then the line that makes the value last: they decide; the requests and `let`s come after
    let mut last_values: Vec<usize> = values.iter().rev().copied().filter(|i| decides(&lines[*i])).take(2).collect();
    last_values.sort_unstable();
    last_values.extend(values.iter().max().filter(|i| !last_values.contains(i)));
    values.retain(|i| !last_values.contains(i));
    for i in &last_values {
        if !picked.contains(i) {
            picked.push(*i);
        }
    }
    // a `let mut` the value lines read and the future then assigns (`cents += grams * per_kg / 100;` in a loop):
    // the value was made by those assignments more than by the `let`
    for i in assigned_after_let(lines, block.first, &last_values, inside.clone()) {
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    // a value captured before the block (`let known = prev.cloned();`) that the future returns or tests: its binding
    let outside = call.whole.first as usize - 1..block.first as usize - 1;
    for i in outside.filter(|i| is_code(&lines[*i])) {
        let code = source::code_of(&lines[i]).trim();
        let Some(pattern) = code.strip_prefix("let ").and_then(|r| r.split('=').next()) else {
            continue;
        };
        let name = pattern.trim().trim_start_matches("mut ").trim();
        // returned as it is, or tested to decide what is returned
        let returned = inside.clone().any(|v| {
            let text = source::code_of(&lines[v]);
            ["return", "if let", "match "].iter().any(|w| text.contains(w)) && mentions(text, name)
        });
        if returned && !picked.contains(&i) {
            picked.push(i);
        }
    }
    // the requests the future awaited: what it asked for (the argument) decides what it settled
    for i in inside.clone() {
        let code = source::code_of(&lines[i]);
        if is_code(&lines[i]) && code.contains(".await") && !picked.contains(&i) {
            picked.push(i);
        }
    }
    // the `let` inside the future nearest above a value line that bound what it reads (`let hour = now / 60;`
    // before `forecast.get(hour as usize)`): the value was made there as much as where it is returned
    let bound = last_values.iter().chain(&values).find_map(|&i| {
        let code = code_part(&lines[i]).trim_start();
        if code.starts_with("let ") {
            return None;
        }
        let at = u32::try_from(i + 1).ok()?;
        lets_binding(lines, block.first, at, code)
            .into_iter()
            .map(|l| l as usize - 1)
            .find(|l| inside.contains(l) && !picked.contains(l))
    });
    picked.extend(bound);
    for i in values {
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    if picked.is_empty() {
        picked = inside.filter(|i| is_code(&lines[*i])).collect();
    }
    if own {
        // a line whose template made none of the settled strings did not make the value (`Err(_) => "no forecast
        // yet"` when every string says otherwise); the lines that decided the settled text come first
        let unfit = template::unfit(r, &settled_value);
        picked.retain(|i| !unfit.contains(i));
        let made = template::lines(r, &settled_value, &[]);
        picked.retain(|i| !made.contains(i));
        picked.splice(0..0, made);
    }
    picked.truncate(FUTURE_LINES);
    picked.sort_unstable();
    let mut text = ctx.name(r.id).to_string();
    if let Some(v) = short_value(ctx, r.id) {
        let _ = write!(text, " = {v}");
    }
    text.push_str(": the value its future settled, from");
    let mut quoted = picked.into_iter().map(|i| numbered(file, lines, i));
    let Some(at) = quoted.next() else { return };
    let mut rank = if own { STRONG_SETTLED } else { 460 };
    // the explained node's own future turned a failed request into a value (`fetch(..).await.unwrap_or(0)`): what it
    // settled on a failure is the first suspect, before a message whose `update` shows a slip of its own
    let more: Vec<SourceLine> = quoted.collect();
    if own && std::iter::once(&at).chain(&more).any(|l| defaults_a_failure(&l.text)) {
        rank = rank.max(SLIP_RANK + 1);
    }
    let mut finding = Finding::new(FindingKind::Settled, rank, text, Some(at));
    finding.more = more;
    found.push(finding);
}

/// Whether `line` awaits a request and turns its failure into a value (`.await.unwrap_or(0)`,
/// `.await.unwrap_or_default()`, `.await.ok()`): a silent default where the request failed.
fn defaults_a_failure(line: &str) -> bool {
    let code = code_part(line);
    code.split(".await").skip(1).any(|after| {
        [".unwrap_or(", ".unwrap_or_default()", ".unwrap_or_else(", ".ok()"]
            .iter()
            .any(|d| after.trim_start().starts_with(d))
    })
}

/// How many assignments of a `let mut` [`assigned_after_let`] returns.
const ASSIGNED_LINES: usize = 2;

/// The lines in `inside` (0-based) that assign (`x = ..`, `x += ..`, `x -= ..`, ..) a name the lines `values` read
/// that a `let mut` inside the block (from line `from`) bound: an accumulator (`let mut cents = 0;` then `cents +=
/// grams * per_kg / 100;` in a loop) is made by its assignments, not by its `let`. The last ones first, at most
/// [`ASSIGNED_LINES`].
fn assigned_after_let(
    lines: &[String],
    from: u32,
    values: &[usize],
    inside: std::ops::Range<usize>,
) -> Vec<usize> {
    let mut out = Vec::new();
    for &v in values {
        let code = code_part(&lines[v]);
        let Ok(at) = u32::try_from(v + 1) else { continue };
        for bound in lets_binding(lines, from, at, code) {
            let bound = bound as usize - 1;
            let pattern = code_part(&lines[bound]).trim_start();
            let Some(name) = pattern
                .strip_prefix("let mut ")
                .and_then(|rest| rest.split(['=', ':', ' ']).next())
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            let assigns = |i: &usize| {
                let code = code_part(&lines[*i]).trim_start();
                code.strip_prefix(name).is_some_and(|rest| {
                    let rest = rest.trim_start();
                    ["=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>="]
                        .iter()
                        .any(|op| rest.starts_with(op) && !rest[op.len()..].starts_with(['=', '>']))
                })
            };
            let mut found: Vec<usize> = (bound + 1..v).filter(|i| inside.contains(i) && assigns(i)).collect();
            found.reverse();
            for i in found {
                if out.len() < ASSIGNED_LINES && !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    }
    out
}

/// Whether a line decides among values: it hands a closure the choice (`.filter(|r| ..)`, `.min_by_key(|s| ..)`) or
/// compares (`if a >= b`).
fn decides(line: &str) -> bool {
    let code = code_part(line);
    code.contains('|') || [" < ", " > ", " <= ", " >= ", " == ", " != "].iter().any(|op| code.contains(op))
}

/// The text of the one string literal a line makes a value of, when it is fixed (no `format!`, no `{`): `"closed"`
/// in `return Ok("closed".to_owned());`.
fn fixed_text(code: &str) -> Option<&str> {
    let code = code.trim();
    let tests = ["if ", "else if ", "while ", "match "].iter().any(|w| code.starts_with(w))
        || [" < ", " > ", " <= ", " >= ", "==", "!", "&&", "||"].iter().any(|op| code.contains(op));
    if tests || code.matches('"').count() != 2 {
        return None;
    }
    let (before, rest) = code.split_once('"')?;
    let (text, after) = rest.split_once('"')?;
    // the literal is the value made: returned, wrapped or bound, not an argument (`map.get("k")`)
    let before = before.trim_end();
    let made_here = before.is_empty()
        || ["Ok(", "Some(", "String::from(", "return", "=>", "="].iter().any(|b| before.ends_with(b));
    let made = [".to_owned()", ".to_string()", ".into()", ")", ";", ","].iter().any(|a| after.starts_with(a))
        || after.is_empty();
    (made_here && made && !text.contains(['{', '\\'])).then_some(text)
}

/// The rank of the `settled:` finding of the explained async memo itself: it goes before the body's lines.
const STRONG_SETTLED: u32 = 700;

/// A node's value as a finding quotes it: at most [`FINDING_VALUE_MAX`] characters, ending with `…` when cut.
fn short_value(ctx: &Ctx<'_>, id: NodeId) -> Option<String> {
    Some(short_text(&ctx.value(id)?))
}

/// A value's text as a finding quotes it: at most [`FINDING_VALUE_MAX`] characters, ending with `…` when cut.
fn short_text(value: &str) -> String {
    match value.char_indices().nth(FINDING_VALUE_MAX) {
        Some((i, _)) => format!("{}…", &value[..i]),
        None => value.to_owned(),
    }
}

/// The lines of a value's statement worth quoting: its first line, unless the statement spans several and its first
/// line only names what it starts from (`let flagged = results` before `.iter()`, `.filter(|r| …)`, `.map(…)`): then
/// the lines that pass a closure or compare, at most two, which decide what it makes.
fn deciding_lines(lines: &[String], statement: &source::Lines) -> Vec<usize> {
    let first = statement.first as usize - 1;
    let head = code_part(&lines[first]).trim();
    // where the statement ends: its own last line, else the first line after its head that ends it (`;`)
    let last = if statement.last > statement.first {
        (statement.last as usize).min(lines.len()) - 1
    } else if head.ends_with([';', '{', '}', ',']) {
        first
    } else {
        (first + 1..lines.len().min(first + 12))
            .find(|&i| code_part(&lines[i]).trim_end().ends_with(';'))
            .unwrap_or(first)
    };
    // the tail of a chain that starts above (`.map_or("U", |b| b.1)`): the chain's closure that chose, first
    if let Some(chose) = chain::closure_above(lines, first) {
        return vec![chose, first];
    }
    if last <= first {
        return vec![first];
    }
    let name_only = |text: &str| text.trim().chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    // `let best = candidates`, or a chain's receiver alone on its line (`rooms` above `.iter().filter(..)`)
    let bare = head.ends_with('=') || head.rsplit_once('=').is_some_and(|(_, rest)| name_only(rest)) || name_only(head);
    if !bare {
        return vec![first];
    }
    let deciding: Vec<usize> = (first + 1..=last).filter(|&i| decides(&lines[i])).take(2).collect();
    if deciding.is_empty() {
        vec![first]
    } else {
        deciding
    }
}

/// The longest value text a finding quotes.
const FINDING_VALUE_MAX: usize = 40;

fn near(depth: u32) -> u32 {
    90u32.saturating_sub(depth.min(9) * 10)
}

fn disposed_sources(
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

fn written(ctx: &Ctx<'_>, r: &NodeRecord, own: bool, depth: u32, found: &mut Vec<Finding>) {
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
            if own { 940 } else { 700 + near(depth) }
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

/// How many lines of what a writer's sources ran a `written:` finding quotes.
const WRITER_SOURCE_LINES: usize = 2;

/// How many lines of a writer's body above its write a `written:` finding quotes.
const WRITE_CONTEXT_LINES: usize = 2;

/// Up to `n` code lines of `writer`'s body just above `site` (the lines that computed what it wrote).
fn lines_above(writer: &NodeRecord, site: SiteRef, n: usize) -> Vec<SourceLine> {
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

/// Whether a line holds code worth quoting: not blank, not a comment, not a lone bracket.
fn is_code(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && !t.starts_with("//")
        && !t
            .chars()
            .all(|c| matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | ','))
}

/// Whether a line only clones handles for a closure (`let (a, b) = (a.clone(), b.clone());`).
fn is_clone_line(text: &str) -> bool {
    let t = text.trim();
    t.starts_with("let ")
        && t.contains(".clone()")
        && t.split_once('=').is_some_and(|(_, rhs)| {
            rhs.replace(".clone()", "")
                .chars()
                .all(|c| c.is_alphanumeric() || "_(), ;".contains(c))
        })
}

/// Whether a line clones each handle into a binding of its own name (`let (a, b) = (a.clone(), b.clone());`,
/// `let a = a.clone();`): boilerplate, unlike a clone into another name (`let (a, b) = (b.clone(), a.clone());`).
fn is_plain_clone_line(text: &str) -> bool {
    if !is_clone_line(text) {
        return false;
    }
    let Some((lhs, rhs)) = text.trim().trim_start_matches("let ").split_once('=') else {
        return false;
    };
    let names = |side: &str| -> Vec<String> {
        side.replace(".clone()", "")
            .split(['(', ')', ',', ';'])
            .map(|part| part.trim().trim_start_matches("mut ").trim().to_owned())
            .filter(|part| !part.is_empty())
            .collect()
    };
    let (bound, cloned) = (names(lhs), names(rhs));
    !bound.is_empty() && bound == cloned
}

/// Line index `i` (0-based) of `file` as a source line.
fn numbered(file: &'static str, lines: &[String], i: usize) -> SourceLine {
    SourceLine {
        site: Site {
            file,
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            column: 1,
        },
        text: lines[i].trim().to_owned(),
    }
}

/// A signal that moved more than once inside the batch of its latest move: its readers saw only the last value.
fn batched(ctx: &Ctx<'_>, r: &NodeRecord, depth: u32, found: &mut Vec<Finding>) {
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
fn captured(
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
        let mut reads_it = None;
        for (when, site) in &p.program_reads {
            let above = r.site.line().checked_sub(site.line());
            if site.file() != r.site.file()
                || *when >= r.created
                || p.last_moved <= *when
                || above.is_none_or(|lines| lines > CAPTURE_LINES)
                || *reads_it.get_or_insert_with(|| r.sources.contains(&p.id))
            {
                continue;
            }
            let mut text = ctx.name(p.id).to_string();
            if let Some(v) = short_value(ctx, p.id) {
                let _ = write!(text, " = {v}");
            }
            let _ = write!(
                text,
                " moved #{} after the program read it to make {}, which does not read it",
                p.last_moved,
                ctx.name(r.id)
            );
            found.push(Finding::new(
                FindingKind::Captured,
                rank,
                text,
                Some(line(*site)),
            ));
        }
    }
}

/// Upstream memos that re-ran and kept their value: since the node's last run (what stopped the latest change)
/// and, with none, before it; with neither, the nodes made with a comparer.
fn cutoffs(
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

fn cutoff_finding(
    kind: FindingKind,
    rank: u32,
    c: &Cutoff,
    r: &NodeRecord,
    ran: &[super::log::Ran],
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
    if let Some((text, lines)) = equal {
        finding.text.push_str(&text);
        // the equality that said "equal" decided the cutoff: its lines first
        finding.more.splice(0..0, lines);
    }
    finding
}

/// The most differing places an equality note names.
const DIFFERENCES_MAX: usize = 3;
/// How many lines of a hand-written `eq` an equality note quotes.
const EQ_LINES_MAX: usize = 3;

/// When memo `r`'s cutoff `seq` kept a value (`kept`, its `Debug` text) that prints differently from the one it
/// computed and dropped: `; computed <path> = <new> (kept <old>), equal by ...`, and the lines of the equality that
/// called the two equal: its comparer (the memo's line, already named), a hand-written `impl PartialEq` found in
/// the crate (its `eq` body), or the `#[derive(PartialEq)]` of the type.
fn equality(r: &NodeRecord, seq: u64, kept: &str) -> Option<(String, Vec<SourceLine>)> {
    let (_, computed) = r.cutoff_computed.as_ref().filter(|(s, _)| *s == seq)?;
    let found = super::debug_diff::differences(kept, computed, DIFFERENCES_MAX);
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
fn equal_by(
    file: &str,
    full: Option<&str>,
    found: &[super::debug_diff::Difference],
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
fn differences_text(found: &[super::debug_diff::Difference], text: &mut String) {
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
fn equal_write(ctx: &Ctx<'_>, why_not: Option<&WhyNot>, found: &mut Vec<Finding>) {
    let Some(WhyNot::EqualWrite { write, .. }) = why_not else { return };
    let Some(r) = ctx.rec(write.node.id) else { return };
    let Some(kept) = ctx.value(write.node.id) else { return };
    let differences = super::debug_diff::differences(&kept, &write.value, DIFFERENCES_MAX);
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

/// The lines of memo `r`'s comparer, when the source can be read: the last closure its call was given (the
/// comparer of `Memo::with_comparer(compute, |a, b| ..)`), then the lines that produce the value of each fn of the
/// crate it calls (`same_boxes(a, b)`), or of a fn given by its path (`Memo::with_comparer(compute, same_boxes)`):
/// where two values that print differently were called equal.
fn comparer_lines(r: &NodeRecord) -> Vec<SourceLine> {
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
const CUTOFF_BODY_LINES: usize = 3;

/// A select over the model (a memo reading the model alone) that re-ran on the latest message and kept its value
/// while the model moved: right by design when it selects the part the message did not touch, a mistake when it
/// selects the wrong part. Ranked below real cutoffs, higher when its name shares a word with the message.
fn selects(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], strongest: u32, found: &mut Vec<Finding>) {
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
fn kept_by_equality(ctx: &Ctx<'_>, id: NodeId, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
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
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .flat_map(split_camel)
        .filter(|w| w.len() >= 3)
}

fn split_camel(word: &str) -> Vec<String> {
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
fn kept_itself(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
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

/// The lines of a memo's body that use its previous-value parameter (`|prev| ...`), when the source can be parsed
/// and the parameter is named: where the memo may hand its old value back.
fn previous_value_lines(r: &NodeRecord) -> Vec<SourceLine> {
    let file = r.site.file();
    let Some(index) = source::index(file) else {
        return Vec::new();
    };
    let Some(closure) = index
        .call_at(r.site.line(), r.site.column())
        .and_then(|c| c.closure.as_ref())
    else {
        return Vec::new();
    };
    let Some(param) = closure.param.as_deref().filter(|p| *p != "_") else {
        return Vec::new();
    };
    let lines = &index.lines;
    // the lines of the body that use it, and the first code line inside a block such a line opens (`match previous
    // {` is followed by the arm that returns it)
    let body: Vec<usize> = (closure.body.first as usize - 1..closure.body.last as usize).collect();
    let mut picked: Vec<usize> = Vec::new();
    for (i, index) in body.iter().enumerate() {
        let text = &lines[*index];
        // on the line that names the parameter, what follows the parameter list
        let code = if i == 0 && text.matches('|').count() >= 2 {
            text.splitn(3, '|').nth(2).unwrap_or_default()
        } else {
            text.as_str()
        };
        let code = source::code_of(code);
        if !mentions(code, param) {
            continue;
        }
        picked.push(*index);
        if code.trim_end().ends_with('{')
            && let Some(next) = body[i + 1..].iter().find(|j| is_code(&lines[**j]))
        {
            picked.push(*next);
        }
    }
    picked.dedup();
    picked
        .into_iter()
        .take(4)
        .map(|i| numbered(file, lines, i))
        .collect()
}

/// Whether `code` uses the identifier `name` (not as part of a longer one).
fn mentions(code: &str, name: &str) -> bool {
    let code = source::code_of(code);
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The lines that compute `r`'s value, other than its creation line, in line order: its whole body when it is short
/// and the source can be parsed (with or without the lines that only clone handles), else the distinct lines where
/// it read its sources (tracked or not) and the lines that produce its value (the tail expression, each branch of a
/// tail `if` or `match`, the `return`s).
fn body_lines(r: &NodeRecord, clones: bool, lets: bool, ran: &[super::log::Ran]) -> Vec<SourceLine> {
    let file = r.site.file();
    let Some(index) = source::index(file) else {
        return read_site_lines(r);
    };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return read_site_lines(r);
    };
    let lines = &index.lines;
    let span = call.whole;
    // with the records `#[node]` made of the latest run: a line in a `match` arm it did not take did not run
    let recorded: HashSet<(&str, u32)> = ran.iter().filter(|x| x.file == file).map(|x| (x.file, x.line)).collect();
    let not_run = |at: u32| !recorded.is_empty() && not_taken(&index, span, file, &recorded, at);
    if span.last > span.first && (span.last - span.first) as usize <= SHORT_BODY_LINES {
        // a short body whole, less the lines that only open a closure (`row.with(|show| {`) and those of a
        // branch the run did not take
        return (span.first as usize..span.last as usize)
            .filter(|i| is_code(&lines[*i]) && (clones || !is_clone_line(&lines[*i])))
            .filter(|i| {
                let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
                let opens = *i + 1 != span.first as usize && code_part(&lines[*i]).trim_end().ends_with("| {");
                !opens && !not_run(at)
            })
            .map(|i| numbered(file, lines, i))
            .collect();
    }
    // the lines that decide the value first, then those that read sources, each in line order: a caller that
    // quotes the first few quotes what made the value
    let mut out: Vec<SourceLine> = Vec::new();
    if let Some(closure) = &call.closure {
        let mut picked: Vec<u32> = Vec::new();
        // the first closure's lines, then a few of each other closure the call is given (a fold's inverse)
        let values = closure.value.iter().take(VALUE_LINES_MAX).chain(
            call.more_closures
                .iter()
                .flat_map(|c| c.value.iter().take(OTHER_CLOSURE_VALUE_LINES)),
        );
        for value in values {
            let at = value.first as usize - 1;
            if value.first != r.site.line() && is_code(&lines[at]) && !not_run(value.first) {
                picked.push(value.first);
            }
        }
        // with `lets`, a value line that is an expression (`until.saturating_sub(since)`) with the `let`s that
        // bound what it reads: a wrong binding made the value there
        if lets {
            for at in picked.clone() {
                let code = code_part(&lines[at as usize - 1]).trim_start();
                if code.starts_with("let ") {
                    continue;
                }
                for bound in lets_binding(lines, span.first, at, code) {
                    if !picked.contains(&bound) {
                        picked.push(bound);
                    }
                }
            }
        }
        picked.sort_unstable();
        // a closure after the first whose code repeats the first's, line for line (a fold's inverse that does what
        // its step does): undoing with the same code as doing is a slip wherever it is written, so the repeating
        // closure's lines come first
        if let Some(again) = call.more_closures.iter().find(|c| same_code(lines, closure.body, c.body)) {
            picked.sort_by_key(|at| !again.body.contains(*at));
        }
        out.extend(picked.into_iter().map(|at| numbered(file, lines, at as usize - 1)));
    }
    // a read that only shadows the handle with its value (`let stays = stays.get();`), or a tracked read that only
    // opens a closure (`desk.with_model(|d| {`), says no more than the node's reads
    let untracked: HashSet<u32> = r.untracked.iter().filter_map(|(_, _, s)| s.map(|s| s.line())).collect();
    for read in read_site_lines(r) {
        let opens = !untracked.contains(&read.site.line) && code_part(&read.text).trim_end().ends_with("| {");
        if !out.iter().any(|l| l.site.line == read.site.line) && !shadows_with_value(&read.text) && !opens {
            out.push(read);
        }
    }
    out
}

/// Whether the bodies `a` and `b` (0-based `lines` of one file, each from its opening line to its closing one) hold
/// the same code lines, comments, blank lines and the lines that open them (with the closures' parameters) aside.
fn same_code(lines: &[String], a: source::Lines, b: source::Lines) -> bool {
    let code = |body: source::Lines| -> Vec<&str> {
        (body.first as usize..body.last.saturating_sub(1) as usize)
            .filter_map(|i| lines.get(i))
            .filter(|l| is_code(l))
            .map(|l| code_part(l).trim())
            .collect()
    };
    let (a, b) = (code(a), code(b));
    !a.is_empty() && a == b
}

/// How many lines producing the value of each closure after the first a long call is given are quoted.
const OTHER_CLOSURE_VALUE_LINES: usize = 2;

/// How many of the lines producing a long body's value are quoted.
const VALUE_LINES_MAX: usize = 3;

/// A body this short is quoted whole (when the source can be read); a longer one by the lines that read sources.
const SHORT_BODY_LINES: usize = 8;

fn read_site_lines(r: &NodeRecord) -> Vec<SourceLine> {
    let mut sites: Vec<SiteRef> = r
        .read_sites
        .iter()
        .map(|(_, s)| *s)
        .chain(r.untracked.iter().filter_map(|(_, _, s)| *s))
        .filter(|s| s.file() == r.site.file() && s.line() != r.site.line())
        .collect();
    sites.sort_by_key(|s| s.line());
    sites.dedup_by_key(|s| s.line());
    let mut by_line: HashMap<u32, SourceLine> = HashMap::new();
    for s in sites {
        by_line.entry(s.line()).or_insert_with(|| line(s));
    }
    let mut out: Vec<SourceLine> = by_line.into_values().collect();
    out.sort_by_key(|l| l.site.line);
    out
}

/// The arm of an `Mvu`'s `update` that handled the latest message, and the arms of the messages that last moved the
/// selects in the cone: where a message that moved the model wrongly (or did not move it) is handled. Found in the
/// source file the `Mvu` was made in: inside the `update` function the `Mvu` was given, when it is a named function,
/// else the arm written nearest below where the `Mvu` was made; when the source can be read. A message a memo or
/// effect dispatched also names who dispatched it, with the lines above the dispatch.
fn update_arms(
    ctx: &Ctx<'_>,
    me: &NodeRecord,
    cone: &[(NodeId, u32)],
    in_cone: &HashSet<NodeId>,
    found: &mut Vec<Finding>,
) {
    let latest = ctx.tracer.last_message();
    // each message, with the hops to the nearest select in the cone it last moved
    let mut messages: Vec<(u64, u32)> = vec![(latest, 9)];
    // the latest message was a command: the messages whose `update` sent it, outermost last (the one the program
    // or a client dispatched chose the commands that followed)
    let mut senders: Vec<u64> = Vec::new();
    let mut at = latest;
    while let Some(cause) = ctx
        .tracer
        .kept_message(at)
        .map(|m| m.cause)
        .filter(|c| *c != 0 && senders.len() < 8)
    {
        senders.push(cause);
        messages.push((cause, 9));
        at = cause;
    }
    for &(n, depth) in cone {
        let Some(r) = ctx.rec(n) else { continue };
        if depth > 3 || r.kind != NodeKind::Memo || r.last_moved == 0 || !ctx.reads_model_alone(r) {
            continue;
        }
        // the innermost message behind the move: a message a memo or effect dispatched inside another is the one
        // whose arm wrote
        let (steps, root) = ctx.chain(r.last_moved);
        let innermost = steps
            .iter()
            .find(|e| matches!(e.kind, EventKind::Message { .. }))
            .map(|e| e.seq)
            .or(match root {
                WhyRoot::Message { seq, .. } => Some(seq),
                _ => None,
            });
        if let Some(seq) = innermost {
            match messages.iter_mut().find(|(m, _)| *m == seq) {
                Some(entry) => entry.1 = entry.1.min(depth),
                None => messages.push((seq, depth)),
            }
        }
    }
    let refused = refused_message(ctx, in_cone, &messages);
    messages.extend(refused.map(|m| (m, 9)));
    // the fields the cone's code reads, found once when a message needs them
    let mut cone_fields: Option<HashSet<String>> = None;
    // the variants of the messages looked at: a `match` naming one matches on messages
    let variants: HashSet<String> = messages
        .iter()
        .filter_map(|(m, _)| match ctx.event(*m).map(|e| e.kind) {
            Some(EventKind::Message { name, .. }) => Some(variant_of(&name)),
            _ => None,
        })
        .collect();
    for (message, depth) in messages {
        let Some(EventKind::Message { name, target, .. }) = ctx.event(message).map(|e| e.kind)
        else {
            continue;
        };
        if !in_cone.contains(&target) {
            continue;
        }
        let Some(model) = ctx.rec(target) else {
            continue;
        };
        let commands = ctx.tracer.kept_message(message).and_then(|m| m.commands);
        // what `#[trace_fn]` recorded while its `update` ran, when it did: the fns that ran, resolved at run time
        // (the latest message's at most RAN_LINES lines, an earlier one's at most RAN_FN_LINES)
        let max = if message == latest {
            RAN_LINES
        } else {
            RAN_FN_LINES
        };
        // an `update` that sent commands: the branches that chose them first, with more lines
        let sent_commands = commands.is_some_and(|n| n > 0);
        let ran = ctx.tracer.ran_for_message(message);
        let read = cone_fields.get_or_insert_with(|| fields_read_within(ctx, cone, u32::MAX, CONE_FIELDS_NODES));
        let feeding = fns_feeding(&ran, read);
        let mut recorded = ran_lines_ordered(
            &ran,
            true,
            sent_commands,
            &feeding,
            if sent_commands { RAN_LINES } else { max },
        );
        // an `update` that sent commands and computed a value the cone reads that it never sent (its line in a
        // branch that did not run): those lines first
        if sent_commands {
            let mut unsent = unsent_values(&ran, read);
            if unsent.is_empty() {
                unsent = told_only(&ran, read);
            }
            if !unsent.is_empty() {
                recorded.retain(|l| !unsent.iter().any(|u| u.site == l.site));
                recorded.splice(0..0, unsent);
                recorded.truncate(RAN_LINES);
            }
        }
        // a helper's `match` arm that did not match and would have written a field the cone reads: the pattern that
        // left it out decided the value as much as the arm that ran, first
        let unwritten = unwritten_arm(&ran, read, &variants);
        // an order slip the source shows in what ran (a `let` that copied a field before the write below it, or read
        // it after; an arm that would have written what the cone reads did not match): the message goes first
        let slip = unwritten.is_some() || order_slip(&ran);
        let arm_first = usize::from(unwritten.is_some());
        if let Some(arm) = unwritten {
            recorded.retain(|l| l.site != arm.site);
            recorded.insert(0, arm);
            recorded.truncate(if sent_commands { RAN_LINES } else { max.max(RAN_FN_LINES + 1) });
        }
        // a constant the model was made with, read on a line which ran and is not quoted, that no code writes: the
        // `Default`'s line that set it, first (no quoted line shows where it went), after an arm that did not match
        let defaults = default_only_fields(&ran, model, &recorded);
        for (n, set) in defaults.into_iter().enumerate() {
            if !recorded.iter().any(|l| l.site == set.site) {
                recorded.insert((arm_first + n).min(recorded.len()), set);
            }
        }
        let renamed = ctx
            .tracer
            .kept_message(message)
            .is_some_and(|kept| literal_fields(&mut recorded, read, &arg_names(&kept.args)));
        let arm_found = if recorded.is_empty() {
            locate_arm(&name, model, commands.is_some())
        } else {
            None
        };
        if recorded.is_empty() && arm_found.is_none() {
            continue;
        }
        // a command (a message another one's `update` sent) that wrote only fields no node of the cone reads (a
        // notice, a log) did not make the value: it is left out, unless it chose commands in turn. A message a
        // client or the program dispatched is kept: one that wrote the wrong field is the mistake
        let is_command = ctx.tracer.kept_message(message).is_some_and(|m| m.cause != 0);
        if is_command && !sent_commands {
            let texts: Vec<&str> = match &arm_found {
                Some((_, lines, arm, _)) => arm.iter().map(|i| lines[*i].as_str()).collect(),
                None => recorded.iter().map(|l| l.text.as_str()).collect(),
            };
            if cone.len() <= CONE_FIELDS_NODES && writes_only_unread(&texts, read) {
                continue;
            }
        }
        // a command: the lines of its sender's `update` that bound what it carries, first
        let sender = ctx.tracer.kept_message(message).map_or(0, |m| m.cause);
        let carried = if sender == 0 || arm_found.is_some() {
            Vec::new()
        } else {
            command::argument_lines(ctx, sender, &name, read)
        };
        recorded.retain(|l| !carried.iter().any(|c| c.site == l.site));
        let carried_any = !carried.is_empty();
        recorded.splice(0..0, carried);
        // the message behind the nearest select first; the latest one breaks ties
        let rank = 400 + near(depth) / 5 + u32::from(message == latest);
        let (mut rank, what) = match (message == latest, model.last_moved > message) {
            // the latest message changed nothing: the arm that handled it is the first suspect (before the body)
            (true, false) => (700, "left as it was"),
            // the latest message moved the model but not the explained node: the change that should have reached
            // it stopped in what that message ran, before the message behind the node's last move
            (true, true) if me.last_moved < message => (rank.max(400 + near(0) / 5 + 1), "moved"),
            _ => (rank, "moved"),
        };
        // a message its `update` refused: the first suspect of a value that lacks what it would have added
        if refused == Some(message) {
            rank = REFUSED_RANK;
        }
        // a literal's field set from the message's argument of another name: a value carried over between two names
        // (trays recorded as pieces), before the explained node's body
        if renamed {
            rank = rank.max(RENAMED_RANK);
        }
        // the outermost message sent the latest one as a command and the explained node did not move since: which
        // commands its arm chose is the first suspect
        if commands.is_some() && senders.last() == Some(&message) && me.last_moved < message {
            rank = rank.max(650);
        }
        // the latest message was a command this one's update sent: its arm did what the sender chose, so the
        // branches that chose it come first
        if sent_commands && senders.last() == Some(&message) {
            rank = rank.max(402 + near(0) / 5);
        }
        if slip {
            rank = rank.max(SLIP_RANK);
        }
        let mut text = format!(
            "message {name} #{message} {what} {}{}",
            ctx.name(target),
            if arm_found.is_some() {
                ": the arm of update that handled it"
            } else {
                UPDATE_RAN
            }
        );
        if carried_any && let Some(EventKind::Message { name: by, .. }) = ctx.event(sender).map(|e| e.kind) {
            let _ = write!(text, "; sent by {by} #{sender}");
        }
        if let Some(n) = commands {
            let _ = write!(text, "; commands: {n}");
            let sent = ctx.tracer.commands_of(message);
            if !sent.is_empty() {
                text.push_str(" (");
                for (i, m) in sent.iter().take(COMMANDS_NAMED).enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(&m.name);
                }
                if sent.len() > COMMANDS_NAMED {
                    text.push_str(", …");
                }
                text.push(')');
            }
        }
        let kind = if arm_found.is_some() {
            FindingKind::Update
        } else {
            FindingKind::Ran
        };
        let mut arm: Box<dyn Iterator<Item = SourceLine>> = match arm_found {
            Some((file, lines, arm, body)) => {
                let mut quoted: Vec<SourceLine> = arm.into_iter().map(|i| numbered(file, &lines, i)).collect();
                // no record of what the message ran (no `#[trace_fn]`): the helpers the arm calls, as if entered,
                // for the latest message and those that sent it as a command
                if ran.is_empty()
                    && (message == latest || senders.contains(&message))
                    && let Some(body) = body
                {
                    let reached = reached::reached(file, body);
                    let entered: Vec<super::log::Ran> = reached.iter().map(|r| r.ran.clone()).collect();
                    let feeding = fns_feeding(&entered, read);
                    for l in ran_lines_of(&entered, true, sent_commands, &feeding, REACHED_LINES, true) {
                        // each helper's line with the call that gave it its arguments
                        let call = reached::Reached::call_of(&reached, l.site.file, l.site.line);
                        for l in std::iter::once(l).chain(call.and_then(|(file, at)| {
                            let lines = source::index(file)?.lines.clone();
                            Some(numbered(file, &lines, at as usize - 1))
                        })) {
                            if !quoted.iter().any(|q| q.site == l.site) {
                                quoted.push(l);
                            }
                        }
                    }
                }
                Box::new(quoted.into_iter())
            }
            None => Box::new(recorded.into_iter()),
        };
        let mut finding = Finding::new(kind, rank, String::new(), arm.next());
        finding.more = arm.collect();
        if let Some((by, site)) = ctx.tracer.dispatched_by(message) {
            let _ = write!(
                text,
                "; {} dispatched it at {}",
                ctx.name(by),
                Site::of(site)
            );
            if let Some(dispatcher) = ctx.rec(by) {
                finding
                    .more
                    .extend(lines_above(dispatcher, site, DISPATCH_CONTEXT_LINES));
            }
            finding.more.push(line(site));
        }
        finding.text = text;
        found.push(finding);
    }
}

/// How many lines of hand-written `Default`s one message's lines quote ([`default_only_fields`]).
const DEFAULT_FIELD_LINES: usize = 2;

/// The fields `code` reads as `.name` (not a method `.name(`, a path `.name::`, a tuple index `.0` or a range `..`).
fn field_reads(code: &str) -> Vec<&str> {
    idents(code)
        .filter(|(at, word)| {
            let before = &code[..*at];
            let after = &code[at + word.len()..];
            before.ends_with('.')
                && !before.ends_with("..")
                && !word.starts_with(|c: char| c.is_ascii_digit())
                && !after.starts_with('(')
                && !after.starts_with("::")
        })
        .map(|(_, word)| word)
        .collect()
}

/// Whether `code` writes the field `name`: assigns it (`x.name = ..`, `x.name += ..`), mutates it (`x.name.push(..)`)
/// or lends it mutably (`&mut x.name`).
fn writes_field(code: &str, name: &str) -> bool {
    idents(code).any(|(at, word)| {
        if word != name || !code[..at].ends_with('.') {
            return false;
        }
        let after = code[at + word.len()..].trim_start();
        let assigns = assignment_at(after) == Some(after.find('=').unwrap_or(usize::MAX))
            && after.split('=').next().is_some_and(|op| op.len() <= 2 && op.chars().all(|c| "+-*/%|&^<>".contains(c)));
        let mutates = after.starts_with('.') && mutating_call_at(after) == Some(0);
        assigns || mutates || code[..at].contains("&mut ")
    })
}

/// Whether a struct literal's line sets its field to a constant (`late_window: 12 * 60,`, `name: "desk",`,
/// `cap: MAX_SEATS,`): no call, no other value.
fn constant_value(code: &str) -> bool {
    let Some((_, value)) = code.split_once(':') else {
        return false;
    };
    let value = value.trim().trim_end_matches(',').trim();
    !value.is_empty()
        && !value.contains('(')
        && idents(value).all(|(_, word)| {
            word.starts_with(|c: char| c.is_ascii_digit())
                || word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                || matches!(word, "true" | "false")
                || value.starts_with('"')
        })
}

/// Whether a struct literal's line sets its field to a place as it is (`cents: fees.no_show,`), computing nothing.
fn sent_as_is(code: &str) -> bool {
    code.split_once(':').is_some_and(|(_, value)| {
        let value = value.trim().trim_end_matches(',').trim();
        !value.is_empty() && value.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    })
}

/// A `Default`'s line that sets a field to a constant: its file, its line (0-based) and the type of its literal.
type DefaultSet = (&'static str, usize, Option<String>);

/// Where `code` names `name` as a struct literal's (or pattern's) shorthand field: `Class { name, .. }`, or `name,`
/// on a line of its own.
fn shorthand_field(code: &str, name: &str) -> Option<usize> {
    idents(code)
        .find(|(at, word)| {
            let (before, after) = (code[..*at].trim_end(), code[at + word.len()..].trim_start());
            *word == name
                && (before.is_empty() || before.ends_with([',', '{']))
                && (after.starts_with([',', '}']) || (after.is_empty() && before.ends_with(',')))
        })
        .map(|(at, _)| at)
}

/// The type a struct literal makes, for its field at column `at` of line `i` (0-based): the name before the
/// brace that opens the literal (`PriceList(Fees {` → `Fees`), looked for back to line `first`; `None` when not found.
fn literal_type(lines: &[String], i: usize, first: usize, at: usize) -> Option<String> {
    let mut depth = 0_i32;
    for l in (first..=i).rev() {
        let code = code_part(&lines[l]);
        let end = if l == i { at.min(code.len()) } else { code.len() };
        let text = &code[..end];
        for (pos, c) in text.char_indices().rev() {
            match c {
                '}' => depth += 1,
                '{' if depth > 0 => depth -= 1,
                '{' => {
                    let name: String = text[..pos]
                        .trim_end()
                        .chars()
                        .rev()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    return (!name.is_empty()).then_some(name);
                }
                _ => {}
            }
        }
    }
    None
}

/// The field a struct literal's line sets (`late_window: 12,` → `late_window`), if the line is one.
fn literal_field(code: &str) -> Option<&str> {
    let code = code.trim_start();
    let name = code.split(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
    let rest = code[name.len()..].trim_start();
    (!name.is_empty() && name != "let" && rest.starts_with(':') && !rest.starts_with("::")).then_some(name)
}

/// The fields an `update` read, in the fns `ran` entered, on lines that ran and that `quoted` (the message's lines)
/// leaves out, which no code of the crate writes (no `x.f = ..`, no struct literal outside a hand-written `Default`
/// sets it) and a hand-written `Default` sets to a constant: constants the model was made with (`late_window: 12,`
/// in `impl Default for PriceList`), as the lines of those `Default`s that set them. A wrong constant there (a unit,
/// a copied value) shows in no message's writes and in no quoted line, so the line the value came from is quoted.
/// Read on a branch or arm that ran first, then on the other lines; a field a line sends as it is (`cents:
/// fees.no_show,`) is left out, since the message it went into shows its value. Of several `Default`s setting one,
/// the first reached from the fn that made `model` (its `X::default()` calls, followed into the `Default`s they
/// call); at most [`DEFAULT_FIELD_LINES`].
fn default_only_fields(ran: &[super::log::Ran], model: &NodeRecord, quoted: &[SourceLine]) -> Vec<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    // the fields read on quoted lines (the answer names them), then those on a branch or arm that ran, then on the
    // other lines that ran
    let mut read: Vec<(bool, String)> = Vec::new();
    for q in quoted {
        for f in field_reads(code_part(&q.text)) {
            if !read.iter().any(|(_, r)| r == f) {
                read.push((true, f.to_owned()));
            }
        }
    }
    for branches in [true, false] {
        for found in entered_fns(ran) {
            let (index, def, file) = (&found.index, found.def(), found.file);
            for l in def.whole.first + 1..def.whole.last {
                if recorded.contains(&(file, l)) != branches || not_taken(index, def.whole, file, &recorded, l) {
                    continue;
                }
                let code = code_part(&index.lines[l as usize - 1]);
                // a field sent as it is (`cents: fees.no_show,`): the message or command it went into shows its value
                if literal_field(code).is_some() && sent_as_is(code) {
                    continue;
                }
                for f in field_reads(code) {
                    if !read.iter().any(|(_, r)| r == f) {
                        read.push((false, f.to_owned()));
                    }
                }
            }
        }
    }
    // only those the answer does not quote are looked for
    read.retain(|(is_quoted, _)| !is_quoted);
    if read.is_empty() {
        return Vec::new();
    }
    // the crate's writes of those fields, and the lines of hand-written `Default`s that set them
    let file = model.site.file();
    let mut written: HashSet<&str> = HashSet::new();
    // a `Default`'s line setting a field to a constant, with the type of its literal; the fields (with the type) a
    // literal outside a `Default` sets
    let mut in_defaults: HashMap<&str, Vec<DefaultSet>> = HashMap::new();
    let mut literal_elsewhere: HashSet<(&str, Option<String>)> = HashSet::new();
    for f in source::crate_files(file).iter() {
        let Some(index) = source::index(f.file) else { continue };
        for def in &index.fns {
            let is_default = def.trait_name.as_deref() == Some("Default");
            // the body, after the signature (whose parameters on lines of their own look like a literal's fields)
            let Some(body) = (def.whole.first as usize - 1..def.whole.last as usize)
                .find(|&i| code_part(&index.lines[i]).trim_end().ends_with('{'))
            else {
                continue;
            };
            for i in body + 1..(def.whole.last as usize - 1) {
                let code = code_part(&index.lines[i]);
                for (_, name) in &read {
                    if !code.contains(name.as_str()) {
                        continue;
                    }
                    if writes_field(code, name) {
                        written.insert(name);
                    }
                    // set by a struct literal's shorthand outside a `Default` (`Stay { breakfast, .. }`): the type
                    // that literal makes has it written
                    if !is_default && let Some(at) = shorthand_field(code, name) {
                        literal_elsewhere.insert((name, literal_type(&index.lines, i, body, at)));
                    }
                }
                if let Some(name) = literal_field(code)
                    && let Some((_, name)) = read.iter().find(|(_, r)| r == name)
                {
                    let of = literal_type(&index.lines, i, body, code.len() - code.trim_start().len());
                    if is_default && constant_value(code) {
                        in_defaults.entry(name).or_default().push((f.file, i, of));
                    } else {
                        literal_elsewhere.insert((name, of));
                    }
                }
            }
        }
    }
    // the `Default`s the fn that made the model calls, followed into those they call, in the order called
    let mut reached: Vec<(&'static str, usize)> = Vec::new();
    if let Some(index) = source::index(file)
        && let Some(maker) = index
            .fns
            .iter()
            .filter(|f| f.whole.contains(model.site.line()))
            .min_by_key(|f| f.whole.last - f.whole.first)
    {
        let mut todo: Vec<String> = (maker.whole.first as usize..model.site.line() as usize)
            .filter_map(|i| default_called(code_part(&index.lines[i])))
            .collect();
        todo.reverse();
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(type_name) = todo.pop() {
            if !seen.insert(type_name.clone()) || seen.len() > 8 {
                continue;
            }
            let Some(found) = source::impl_fn(file, &type_name, "Default", "default") else {
                continue;
            };
            let whole = found.def().whole;
            let mut inner = Vec::new();
            for i in whole.first as usize..whole.last as usize - 1 {
                let code = code_part(&found.index.lines[i]);
                reached.push((found.file, i));
                inner.extend(default_called(code));
            }
            todo.extend(inner.into_iter().rev());
        }
    }
    let mut out: Vec<SourceLine> = Vec::new();
    for (_, name) in &read {
        if written.contains(name.as_str()) {
            continue;
        }
        // set by a literal outside a `Default`, of the type the `Default`'s literal makes (or of an unknown type)
        let Some(sets) = in_defaults.get(name.as_str()) else { continue };
        let sets: Vec<(&'static str, usize)> = sets
            .iter()
            .filter(|(_, _, of)| {
                !literal_elsewhere.contains(&(name.as_str(), of.clone())) && !literal_elsewhere.contains(&(name.as_str(), None))
            })
            .map(|(file, i, _)| (*file, *i))
            .collect();
        if sets.is_empty() {
            continue;
        }
        // the one the model's making reached first (a struct literal's own fields come before its `..X::default()`),
        // else every one
        let first_reached = sets
            .iter()
            .filter_map(|s| Some((reached.iter().position(|r| r == s)?, *s)))
            .min()
            .map(|(_, s)| s);
        let sets: Vec<(&'static str, usize)> = first_reached.map_or(sets, |s| vec![s]);
        for (file, i) in sets {
            if out.len() < DEFAULT_FIELD_LINES
                && let Some(index) = source::index(file)
            {
                out.push(numbered(file, &index.lines, i));
            }
        }
    }
    out
}

/// The rank of a message's finding whose `update` shows a slip in the order of its statements or arms: above a
/// row its collection wrote (`written:`, 700 and its nearness), below what the node itself read or wrote.
const SLIP_RANK: u32 = 790;

/// Whether a fn `ran` entered (in an `update`) holds, in lines that ran, a `let` that read a field just assigned
/// ([`read_after_write`]). (A `let` that copied a field before the line below assigned it is not one: that is how an
/// id is taken from a counter.)
fn order_slip(ran: &[super::log::Ran]) -> bool {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    entered_fns(ran).iter().any(|found| {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let ran_there = |at: u32| !not_taken(index, def.whole, file, &recorded, at);
        read_after_write(&index.lines, def.whole)
            .into_iter()
            .any(|(a, b)| ran_there(a) && ran_there(b))
    })
}

/// A cone of at most this many nodes is read for the fields it reads, to leave out messages that wrote none of them.
const CONE_FIELDS_NODES: usize = 64;

/// Whether the `update` lines `texts` write state, and every line that does writes only fields named outside `read`:
/// `next.notices.push(text)` writes `notices`, `visit.called = Some(now)` writes `called`. A line that writes
/// through a `&mut` hand-off or names no field counts as writing what is read.
fn writes_only_unread(texts: &[&str], read: &HashSet<String>) -> bool {
    let mut wrote = false;
    for text in texts {
        let code = code_part(text);
        if !writes_line(code) {
            continue;
        }
        if code.contains("&mut ") {
            return false;
        }
        // the place written: before the assignment or the mutating call
        let place = match (assignment_at(code), mutating_call_at(code)) {
            (Some(i), _) => &code[..i],
            (None, Some(i)) => &code[..i + 1],
            (None, None) => return false,
        };
        // after a match arm's `=>`, the place alone
        let place = place.rsplit("=>").next().unwrap_or(place);
        let fields: Vec<&str> = place
            .match_indices('.')
            .map(|(i, _)| {
                let rest = &place[i + 1..];
                let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
                &rest[..end]
            })
            .filter(|f| !f.is_empty() && !f.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        if fields.is_empty() || fields.iter().any(|f| read.contains(*f)) {
            return false;
        }
        wrote = true;
    }
    wrote
}

/// How many of the commands a message's `update` sent an `update:` finding names.
const COMMANDS_NAMED: usize = 4;

/// How many lines above a dispatch by a memo or effect an `update:` finding quotes.
const DISPATCH_CONTEXT_LINES: usize = 6;

/// An `update` arm: its file, the file's lines, the line indexes to quote, and its body (`None` for an `update`
/// closure without a `match`, quoted by its value).
type ArmFound = (&'static str, Arc<[String]>, Vec<usize>, Option<source::Lines>);

/// The arm of `model`'s `update` handling `message`, in whichever file of the crate it is: inside the named
/// `update` function the `Mvu` was made with (resolved through the crate's module tree), else the arm naming the
/// message's variant nearest below where the `Mvu` was made, else the first in the crate. Its file, the file's lines
/// and the arm's line indexes (0-based: the `=>` line, then the lines of its body that change state).
fn locate_arm(message: &str, model: &NodeRecord, commands: bool) -> Option<ArmFound> {
    let variant = variant_of(message);
    if variant.is_empty() {
        return None;
    }
    let home = model.site.file();
    let arms = source::arms_naming(home, &variant);
    let named = model
        .update_fn
        .filter(|name| !name.contains('{') && !name.contains('(') && !name.contains('<'));
    // `type_name` spells the crate first: `shop::rules::update`
    let in_update = named
        .and_then(|path| {
            let segments: Vec<String> = path.split("::").skip(1).map(str::to_owned).collect();
            source::resolve_fn(home, model.site.line(), &segments)
        })
        .and_then(|update| {
            arms.iter().find(|(file, index, i)| {
                *file == update.file
                    && index.arms[*i].in_fn.is_some_and(|f| {
                        f == update.at || update.def().whole.holds(index.fns[f].whole)
                    })
            })
        });
    let near = model.site.line();
    // an `update` closure written in the `Mvu::new` call: its own arms first
    let closure = source::index(home).and_then(|index| {
        let closure = index
            .call_at(model.site.line(), model.site.column())?
            .closure
            .clone()?;
        Some((index, closure))
    });
    let own = closure.as_ref().and_then(|(_, closure)| {
        arms.iter().find(|(file, index, i)| {
            *file == home && (closure.body.first..=closure.body.last).contains(&index.arms[*i].arrow)
        })
    });
    // an arm in another file only when one file holds them all: two `update`s with a variant of that name
    // elsewhere leave no way to tell whose it is
    let elsewhere = arms
        .first()
        .filter(|(first, _, _)| arms.iter().all(|(file, _, _)| file == first));
    let found = in_update
        .or(own)
        .or_else(|| {
            arms.iter().find(|(file, index, i)| {
                *file == home && (near..=near + NEAR_ARM_LINES).contains(&index.arms[*i].arrow)
            })
        })
        .or_else(|| arms.iter().find(|(file, _, _)| *file == home))
        .or(elsewhere);
    let Some((file, index, at)) = found else {
        // no arm: an `update` closure without a `match` is quoted by the lines that make its value
        let (index, closure) = closure?;
        let lines: Vec<usize> = closure
            .value
            .iter()
            .flat_map(|l| l.first as usize - 1..l.last as usize)
            .filter(|i| is_code(&index.lines[*i]))
            .take(ARM_LINES)
            .collect();
        return (!lines.is_empty()).then(|| (home, index.lines.clone(), lines, None));
    };
    let arm = &index.arms[*at];
    let picked = if commands {
        command_lines(index, arm)
    } else {
        arm_lines(index, arm)
    };
    Some((file, index.lines.clone(), picked, Some(arm.body)))
}

/// The variant a message's wire name stands for: `set_quantity` → `SetQuantity` (a name already in camel case is
/// kept).
pub(super) fn variant_of(name: &str) -> String {
    name.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// How many lines of the helpers an `update` arm calls an `update:` finding quotes when nothing recorded what the
/// message ran ([`reached::reached`]).
const REACHED_LINES: usize = 2;

/// How many code lines of an `update` arm an `update:` finding quotes.
const ARM_LINES: usize = 5;

/// Whether a line of an `update` arm changes state: an assignment (`=`, `+=`, ...) or a call that changes a
/// collection (`push`, `retain`, `insert`, `remove`, ...).
fn changes_state(code: &str) -> bool {
    let assigns = assignment_at(code).is_some();
    let mutates = mutating_call_at(code).is_some();
    (assigns && !code.trim_start().starts_with("let ")) || mutates
}

/// The calls that change what their receiver holds, as a line spells them.
const MUTATING_CALLS: [&str; 11] = [
    ".push(",
    ".retain(",
    ".insert(",
    ".remove(",
    ".clear(",
    ".pop(",
    ".extend(",
    ".truncate(",
    ".sort",
    ".dedup",
    ".swap",
];

/// Where `code`'s first assignment (`=`, `+=`, …, not `==`, `<=`, `=>`) is.
fn assignment_at(code: &str) -> Option<usize> {
    code.match_indices('=')
        .find(|(i, _)| {
            let before = code[..*i].chars().next_back();
            let after = code[i + 1..].chars().next();
            !matches!(before, Some('=' | '!' | '<' | '>')) && !matches!(after, Some('=' | '>'))
        })
        .map(|(i, _)| i)
}

/// Where `code`'s first call of one of [`MUTATING_CALLS`] is (its `.`).
fn mutating_call_at(code: &str) -> Option<usize> {
    MUTATING_CALLS.iter().filter_map(|c| code.find(c)).min()
}

/// Whether an `update`'s line changes state: it assigns or mutates ([`changes_state`]), or hands state to a
/// helper by `&mut` (`depart(&mut next, id);`, which writes it there).
fn writes_line(text: &str) -> bool {
    let code = source::code_of(text);
    changes_state(code) || code.contains("(&mut ") || code.contains(", &mut ")
}

/// The lines (1-based) of `def` in `file` that call a fn of the crate returning a value as a statement of their
/// own, dropping the value (`depart(&mut next, id);`): a result a caller forgot.
fn dropped_results(index: &source::Index, def: &source::FnDef, file: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for c in index.calls.iter().filter(|c| def.whole.holds(c.whole) && !c.path.is_empty()) {
        if c.whole.first != c.whole.last {
            continue;
        }
        let code = source::code_of(&index.lines[c.whole.first as usize - 1]).trim();
        let name = c.path.join("::");
        if !(code.starts_with(&format!("{name}(")) && code.ends_with(");")) {
            continue;
        }
        let Some(found) = source::resolve_fn(file, c.line, &c.path) else {
            continue;
        };
        // the signature returns a value; a fn that never returns (`-> !`) returned nothing to drop
        let head = found.signature();
        if head.contains("->") && !found.never_returns() && !out.contains(&c.whole.first) {
            out.push(c.whole.first);
        }
    }
    out
}

/// How many lines a `let` statement is followed for the line that chose what it binds.
const BINDING_LINES: usize = 8;

/// For the write on line index `at` (`vessel.berth = ..`, `row.push(..)`), of a fn whose lines start at index
/// `from`: in the latest `let` before it that bound the written place's root (`vessel`), the line that chose the
/// place (a closure given to a lookup: `.find(|v| ..)`); none for a binding that looks nothing up.
fn binding_of_written(lines: &[String], from: usize, at: usize) -> Option<usize> {
    let code = source::code_of(&lines[at]).trim();
    let root: String = code
        .trim_start_matches('*')
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if root.is_empty() || root == "self" {
        return None;
    }
    let binds = |text: &str| {
        let text = source::code_of(text);
        let Some(rest) = text.trim_start().strip_prefix("let ") else {
            return false;
        };
        let pattern = rest.split('=').next().unwrap_or_default();
        mentions(pattern, &root)
    };
    let start = (from..at).rev().find(|i| binds(&lines[*i]))?;
    let end = (start..at.min(start + BINDING_LINES))
        .find(|i| {
            let text = source::code_of(&lines[*i]);
            text.trim_end().ends_with(';') || text.contains("else {")
        })
        .unwrap_or(start);
    // a plain binding (`let mut next = desk.clone();`) chose nothing: only a lookup's predicate is quoted
    (start..=end).find(|i| is_code(&lines[*i]) && source::code_of(&lines[*i]).contains('|'))
}

/// For the write on line index `at`, of a fn whose lines start at index `from`: the header of the innermost `for`
/// loop around it when the header filters or looks up what it walks (a closure: `for stay in
/// stays.iter().filter(|s| s.checked_in) {`): it chose which items, and how many times, the write ran. None for a
/// write outside a loop or in a loop over everything (`for stay in &stays {`), which chose nothing.
fn loop_of_written(lines: &[String], from: usize, at: usize) -> Option<usize> {
    // up from the write, the first line that opens a block the write is inside (more `{` than `}` seen so far)
    let mut depth = 0_i32;
    for i in (from..at).rev() {
        let code = code_part(&lines[i]);
        for c in code.chars().rev() {
            match c {
                '}' => depth += 1,
                '{' => depth -= 1,
                _ => {}
            }
        }
        if depth < 0 {
            let head = code.trim_start();
            if head.starts_with("for ") && head.contains('|') {
                return Some(i);
            }
            // an enclosing block that is not such a loop: look further out
            depth = 0;
        }
    }
    None
}

/// How far below an `Mvu`'s creation its inline `update`'s arms are looked for first.
const NEAR_ARM_LINES: u32 = 40;

/// The line indexes (0-based) an `update:` finding quotes of an arm of an `update` that returns commands
/// (`Mvu::with_commands`): its `=>` line, then the lines of its body that build commands (that name a variant of
/// the message type the arm matches, or make a `vec!`), then those [`arm_lines`] picks, at most [`ARM_LINES`].
fn command_lines(index: &source::Index, arm: &source::Arm) -> Vec<usize> {
    let lines = &index.lines;
    let arrow = arm.arrow as usize - 1;
    // the message type, as the arm's pattern spells it: `Msg` in `Msg::Book =>`
    let pattern = lines[arrow].split("=>").next().unwrap_or_default();
    let message_type = arm.variants.iter().find_map(|v| {
        let at = pattern.find(&format!("::{v}"))?;
        let before = &pattern[..at];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        Some(before[start..].to_owned()).filter(|t| !t.is_empty())
    });
    let builds = |i: usize| {
        let code = source::code_of(&lines[i]);
        code.contains("vec!") || message_type.as_ref().is_some_and(|t| code.contains(&format!("{t}::")))
    };
    let mut out = vec![arrow];
    out.extend(
        (arm.arrow as usize..arm.body.last as usize)
            .filter(|i| is_code(&lines[*i]) && builds(*i))
            .take(ARM_LINES - 1),
    );
    for i in arm_lines(index, arm) {
        if out.len() >= ARM_LINES {
            break;
        }
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out[1..].sort_unstable();
    out
}

/// The line indexes (0-based) an `update:` finding quotes of `arm`: its `=>` line, then the code lines of its body
/// below it (at most [`ARM_LINES`] in all); a long body by the lines that change state.
fn arm_lines(index: &source::Index, arm: &source::Arm) -> Vec<usize> {
    let arrow = arm.arrow as usize - 1;
    let code_of = |i: usize| {
        source::code_of(&index.lines[i]).to_owned()
    };
    // a field written by its name alone (`sku,` in `Item { sku, qty }`) says nothing the line above does not
    let shorthand = |t: &str| {
        t.trim().strip_suffix(',').is_some_and(|t| {
            !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
    };
    let mut body: Vec<usize> = (arm.arrow as usize..arm.body.last as usize)
        .filter(|i| is_code(&index.lines[*i]) && !shorthand(&index.lines[*i]))
        .collect();
    if body.len() >= ARM_LINES {
        let changes: Vec<usize> = body
            .iter()
            .copied()
            .filter(|i| changes_state(&code_of(*i)))
            .collect();
        if !changes.is_empty() {
            body = changes;
        }
    }
    let mut out = vec![arrow];
    out.extend(body.into_iter().take(ARM_LINES - 1));
    out
}

/// Signals in the cone (other than models) that were never written: they hold the value they were made with.
fn initial_values(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
    for &(n, depth) in cone.iter().skip(1) {
        let Some(r) = ctx.rec(n) else { continue };
        if r.kind != NodeKind::Signal || r.is_model || r.last_write != 0 {
            continue;
        }
        let mut text = ctx.name(n).to_string();
        if let Some(v) = short_value(ctx, n) {
            let _ = write!(text, " = {v}");
        }
        text.push_str(": never written since it was made");
        found.push(Finding::new(
            FindingKind::Initial,
            200 + near(depth) / 10,
            text,
            Some(line(r.site)),
        ));
    }
}

/// How many selects of the model `initial_model_parts` looks at.
const INITIAL_SELECTS: usize = 8;

/// How many lines of a hand-written `default` fn an `initial:` finding of the model quotes.
const DEFAULT_LINES: usize = 4;

/// Selects of an `Mvu`'s model whose value has not moved since before the model's first message: no message changed
/// the part they select, so it is the initial model's. Quotes where the fn that made the `Mvu` sets that field
/// (`tariff: FirstTariff::default().0,`) and, when that calls a hand-written `Default` (`X::default()`), that
/// `default` fn's lines: a wrong constant there is where such a value comes from.
fn initial_model_parts(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
    let selects = cone.iter().skip(1).filter(|&&(n, depth)| {
        depth <= 4
            && ctx
                .rec(n)
                .is_some_and(|r| r.kind == NodeKind::Memo && r.last_moved != 0 && ctx.reads_model_alone(r))
    });
    // a few, nearest first: a cone of thousands of selects must not make the answer walk them all
    for &(n, depth) in selects.take(INITIAL_SELECTS) {
        let Some(r) = ctx.rec(n) else { continue };
        let model_id = r.sources[0];
        if ctx.tracer.first_message_to(model_id).is_none() {
            continue;
        }
        // its latest move came from no message: the part it selects is as the model was made
        let (steps, root) = ctx.chain(r.last_moved);
        if matches!(root, WhyRoot::Message { .. })
            || steps.iter().any(|e| matches!(e.kind, EventKind::Message { .. }))
        {
            continue;
        }
        let Some(model) = ctx.rec(model_id) else { continue };
        let Some(field) = selected_field(r) else { continue };
        let Some((file, index, at)) = field_set_at(model, &field) else {
            continue;
        };
        let text = format!(
            "{}: no message changed it; {} was made with this `{field}`",
            ctx.name(n),
            ctx.name(model_id)
        );
        let mut finding = Finding::new(
            FindingKind::Initial,
            430 + near(depth) / 5,
            text,
            Some(numbered(file, &index.lines, at)),
        );
        // `X::default()` with a hand-written `impl Default for X`: its lines
        let code = code_part(&index.lines[at]);
        if let Some(type_name) = default_called(code)
            && let Some(def) = source::impl_fn(file, &type_name, "Default", "default")
        {
            let lines = &def.index.lines;
            let whole = def.def().whole;
            let fields: Vec<usize> = (whole.first as usize..whole.last as usize - 1)
                .filter(|&i| is_code(&lines[i]) && code_part(&lines[i]).contains(':'))
                .collect();
            // the fields the nodes near the explained one read (`tariff.storage_cents_per_hour`) first
            let read = fields_read_near(ctx, cone);
            let is_read = |i: &usize| {
                let name = code_part(&lines[*i]).trim_start();
                let name: String = name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                !name.is_empty() && read.contains(&name)
            };
            let mut order: Vec<usize> = fields.iter().copied().filter(is_read).collect();
            order.extend(fields.iter().copied().filter(|i| !is_read(i)));
            order.truncate(DEFAULT_LINES);
            order.sort_unstable();
            finding
                .more
                .extend(order.into_iter().map(|i| numbered(def.file, lines, i)));
        }
        found.push(finding);
    }
}

/// The names read as fields (`.name`) in the bodies of the explained node and the nodes one or two hops upstream
/// (at most a few dozen nodes).
fn fields_read_near(ctx: &Ctx<'_>, cone: &[(NodeId, u32)]) -> HashSet<String> {
    fields_read_within(ctx, cone, 2, 32)
}

/// The field names the code of the nodes of `cone` at most `depth` hops away reads (`.name`, as
/// [`fields_read_near`]), over the first `max` such nodes.
fn fields_read_within(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], depth: u32, max: usize) -> HashSet<String> {
    let mut out = HashSet::new();
    for &(n, _) in cone.iter().filter(|(_, d)| *d <= depth).take(max) {
        let Some(r) = ctx.rec(n) else { continue };
        let Some(index) = source::index(r.site.file()) else { continue };
        let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
            continue;
        };
        // the call's own lines, and the body of a fn it is given (`move |row| fee(row, ..)` reaches `fee`)
        let mut spans = vec![call.whole];
        for path in &call.fn_args {
            if let Some(found) = source::resolve_fn(r.site.file(), r.site.line(), path) {
                spans.push(found.def().whole);
            }
        }
        if let Some(closure) = &call.closure {
            spans.push(closure.body);
        }
        for span in spans {
            for line in (span.first..=span.last).filter_map(|l| index.lines.get(l as usize - 1)) {
                let code = code_part(line);
                for (at, _) in code.match_indices('.') {
                    let name: String = code[at + 1..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.insert(name);
                    }
                }
            }
        }
    }
    out
}

/// The field of the model a select's closure reads (`|p| p.tariff.clone()` → `tariff`): the first `param.field`.
fn selected_field(r: &NodeRecord) -> Option<String> {
    let index = source::index(r.site.file())?;
    let closure = index.call_at(r.site.line(), r.site.column())?.closure.clone()?;
    let param = closure.param?;
    let body = (closure.body.first..=closure.body.last)
        .filter_map(|l| index.lines.get(l as usize - 1))
        .map(|l| code_part(l))
        .collect::<Vec<_>>()
        .join(" ");
    let at = body.match_indices(&format!("{param}.")).find(|(i, _)| {
        *i == 0 || !body[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
    })?;
    let field: String = body[at.0 + param.len() + 1..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!field.is_empty() && field.starts_with(|c: char| !c.is_ascii_digit())).then_some(field)
}

/// Where the fn that made `model` (an `Mvu`) sets `field` in its initial model: the nearest line above the `Mvu`'s
/// call, in that fn, that writes `field: …` in a struct literal.
fn field_set_at(model: &NodeRecord, field: &str) -> Option<(&'static str, Arc<source::Index>, usize)> {
    let file = model.site.file();
    let index = source::index(file)?;
    let line = model.site.line();
    let def = index
        .fns
        .iter()
        .filter(|f| f.whole.contains(line))
        .min_by_key(|f| f.whole.last - f.whole.first)?;
    let at = (def.whole.first as usize - 1..line as usize).rev().find(|&i| {
        let code = code_part(&index.lines[i]).trim_start();
        code.strip_prefix(field)
            .is_some_and(|rest| rest.trim_start().starts_with(':') && !rest.trim_start().starts_with("::"))
    })?;
    Some((file, index, at))
}

/// The type whose `default()` a line calls (`model::FirstTariff::default().0` → `FirstTariff`), if any.
fn default_called(code: &str) -> Option<String> {
    let at = code.find("::default()")?;
    let path = &code[..at];
    let name: String = path
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (name.starts_with(|c: char| c.is_ascii_uppercase()) && name != "Default").then_some(name)
}

/// Sources of the explained memo that kept their value on the latest message while another of its sources moved:
/// when the value is wrong, the input that did not follow is often the one computed from the wrong thing. Quotes
/// what it reads and its body.
fn steady_sources(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
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

/// The most events after the latest message a `wrote:` search reads.
const WRITES_LOOKAHEAD: u64 = 4_096;
/// The most writes a `wrote:` finding lists.
const WRITES_MAX: usize = 4;

/// When the explained node is a signal that did not follow the latest message: the signals outside its cone that the
/// message's effects, commands or program wrote (a write to the wrong place shows there), each with its line. The model's own
/// write is the `update:` finding's.
fn message_writes(
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

/// How many lines of the helpers a node's body calls an explanation quotes, in all.
const HELPER_LINES_MAX: usize = 6;
/// How many lines of one helper's body.
const HELPER_LINES_EACH: usize = 4;

/// The lines of the functions the node's creation call calls or is given (`till.select(amount)`), one level, then
/// the functions those call, wherever in the crate they are defined (resolved through its module tree and `use`
/// items), and of the constants they name: a value computed by a helper is wrong in the helper.
///
/// `ran` are the records of the node's latest run: a `#[trace_fn]` fn the crate defines that the run did not enter
/// did not run (the body called another fn of that name, or one given as a value), so it is not quoted, and the
/// `#[trace_fn]` fns the run entered are quoted whether or not their call could be resolved from the source.
fn helper_lines(r: &NodeRecord, body: &[SourceLine], ran: &[super::log::Ran]) -> Vec<SourceLine> {
    let entered = entered_fns(ran);
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    let file = r.site.file();
    let Some(index) = source::index(file) else {
        return Vec::new();
    };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return Vec::new();
    };
    // (file, parsed file, the lines whose calls and constants are followed)
    let mut frontier: Vec<(&'static str, Arc<source::Index>, source::Lines)> =
        vec![(file, index.clone(), call.whole)];
    let mut out: Vec<SourceLine> = Vec::new();
    let mut seen_fns: HashSet<(&'static str, usize)> = HashSet::new();
    let mut seen_consts: HashSet<String> = HashSet::new();
    // the constants named on `lines` of `file`, quoted (at most HELPER_LINES_MAX lines in all)
    let mut quote_constants =
        |file: &'static str, index: &source::Index, lines: &[usize], out: &mut Vec<SourceLine>| {
            for i in lines {
                let code = source::code_of(&index.lines[*i]);
                for name in constants(code) {
                    if out.len() >= HELPER_LINES_MAX || !seen_consts.insert(name.clone()) {
                        continue;
                    }
                    let at_line = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    if let Some((at_file, at_index, at)) =
                        source::resolve_const(file, at_line, &name)
                    {
                        out.push(numbered(at_file, &at_index.lines, at.first as usize - 1));
                    }
                }
            }
        };
    let own_lines: Vec<usize> = (call.whole.first as usize - 1..call.whole.last as usize).collect();
    quote_constants(file, &index, &own_lines, &mut out);
    for level in 0..2 {
        let mut next = Vec::new();
        for (file, index, span) in &frontier {
            let called = index
                .calls
                .iter()
                .filter(|c| span.holds(c.whole) && !c.path.is_empty())
                .map(|c| (c.line, c.path.clone()))
                // a function given as an argument (`till.select(amount)`): to the node's own call only, where the
                // argument is the body (elsewhere a path argument is mostly a value: `.min(subtotal)`)
                .chain(
                    index
                        .calls
                        .iter()
                        .filter(|c| c.whole == *span)
                        .flat_map(|c| c.fn_args.iter().map(|a| (c.line, a.clone()))),
                )
                .filter(|(_, path)| {
                    path.last().is_some_and(|n| {
                        n.chars().next().is_some_and(|c| c.is_lowercase() || c == '_')
                    })
                });
            // and the methods of the crate's own types it calls (`rental.due()`)
            let methods = index
                .calls
                .iter()
                .filter(|c| span.holds(c.whole))
                .filter_map(|c| source::resolve_method(file, c.method.as_deref()?));
            let resolved: Vec<source::Found> = called
                .flat_map(|(at_line, path)| {
                    // a local the body bound to a fn (`let compare = if .. { a::f } else { b::f };`): the fns it names
                    if let [name] = path.as_slice()
                        && let Some(bound) = by_value::let_bound_fns(index, file, at_line, name, ran)
                    {
                        return bound;
                    }
                    source::resolve_fn(file, at_line, &path).into_iter().collect()
                })
                .chain(methods)
                // a traced fn the run did not enter did not run
                .filter(|f| entered.is_empty() || !is_traced_fn(f) || entered.iter().any(|e| same_fn(e, f)))
                .collect();
            // the fns the run entered, after those its body calls, at the first level (the node's own call)
            let ran_now = if level == 0 { entered.clone() } else { Vec::new() };
            for found in resolved.into_iter().chain(ran_now) {
                if out.len() >= HELPER_LINES_MAX {
                    break;
                }
                if !seen_fns.insert((found.file, found.at)) {
                    continue;
                }
                let def = found.def();
                let lines = &found.index.lines;
                // the body, after the signature (whose parameters may stand on lines of their own)
                let body = (def.whole.first as usize - 1..def.whole.last as usize)
                    .find(|&i| code_part(&lines[i]).trim_end().ends_with('{'))
                    .map_or(def.whole.first as usize, |i| i + 1);
                let code: Vec<usize> = (body..def.whole.last as usize - 1)
                    .filter(|i| is_code(&lines[*i]))
                    .collect();
                // a traced fn the run entered recorded the branches it took: a line in a branch it did not take
                // did not run
                let ran_here = is_traced_fn(&found) && entered.iter().any(|e| same_fn(e, &found));
                let not_run = |i: usize| {
                    let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    ran_here && not_taken(&found.index, def.whole, found.file, &recorded, at)
                };
                // a `use` inside the body names what the lines below use; it computes nothing
                let code: Vec<usize> = code
                    .into_iter()
                    .filter(|i| !not_run(*i) && !lines[*i].trim_start().starts_with("use "))
                    .collect();
                // a helper longer than what is quoted of it is quoted by the lines that produce its value and
                // compute
                let long = code.len() > HELPER_LINES_EACH;
                let values: HashSet<usize> =
                    def.value.iter().map(|v| v.first as usize - 1).collect();
                // a value spread over a chain's lines (`self.lines` `.iter()` `.map(..)` `.sum()`) by the lines that
                // decide it
                let chained: HashSet<usize> = def
                    .value
                    .iter()
                    .filter(|v| v.last > v.first)
                    .flat_map(|v| {
                        let keep = deciding_lines(lines, v);
                        (v.first as usize - 1..v.last as usize).filter(move |i| !keep.contains(i))
                    })
                    .collect();
                let code: Vec<usize> = code.into_iter().filter(|i| !chained.contains(i)).collect();
                let mut quoted = Vec::new();
                for i in code {
                    if long && !values.contains(&i) && !computes(&lines[i]) {
                        continue;
                    }
                    if out.len() >= HELPER_LINES_MAX || quoted.len() >= HELPER_LINES_EACH {
                        break;
                    }
                    out.push(numbered(found.file, lines, i));
                    quoted.push(i);
                }
                quote_constants(found.file, &found.index, &quoted, &mut out);
                next.push((found.file, found.index.clone(), def.whole));
            }
        }
        frontier = next;
    }
    let own: HashSet<(&str, u32)> = body.iter().map(|l| (l.site.file, l.site.line)).collect();
    out.retain(|l| {
        let in_call = l.site.file == file && call.whole.contains(l.site.line);
        !in_call && !own.contains(&(l.site.file, l.site.line))
    });
    out.dedup_by_key(|l| (l.site.file, l.site.line));
    out
}

/// The `#[trace_fn]` fns the records `ran` say were entered (a record at a fn's `fn` line, with no value), in the
/// order first entered.
fn entered_fns(ran: &[super::log::Ran]) -> Vec<source::Found> {
    let mut out: Vec<source::Found> = Vec::new();
    for r in ran.iter().filter(|r| r.value.is_none()) {
        let Some(index) = source::index(r.file) else { continue };
        let Some(at) = index.fns.iter().position(|f| f.whole.first == r.line) else {
            continue;
        };
        let found = source::Found {
            file: r.file,
            index,
            at,
        };
        if !out.iter().any(|e| same_fn(e, &found)) {
            out.push(found);
        }
    }
    out
}

/// Whether two found fns are the same definition.
fn same_fn(a: &source::Found, b: &source::Found) -> bool {
    a.file == b.file && a.at == b.at
}

/// Whether a fn carries `#[trace_fn]` (among the attribute lines right above its `fn` line), so that a run that
/// called it has a record of it.
fn is_traced_fn(f: &source::Found) -> bool {
    let lines = &f.index.lines;
    let mut i = f.def().whole.first as usize - 1;
    while i > 0 {
        i -= 1;
        let text = lines[i].trim();
        if text.starts_with("#[") && text.contains("trace_fn") {
            return true;
        }
        if !(text.starts_with("#[") || text.starts_with("///") || text.starts_with("//")) {
            return false;
        }
    }
    false
}

/// The constants `code` names: identifiers in capitals (`HAPPY_HOUR_OFF`), not followed by `(` or `{`.
fn constants(code: &str) -> Vec<String> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.len() >= 2
                && w.chars().any(|c| c.is_ascii_uppercase())
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
        .map(str::to_owned)
        .collect()
}

/// Whether a line of code computes something: arithmetic, a comparison, a logical operator, a range.
fn computes(code: &str) -> bool {
    let code = code.replace("->", "").replace("=>", "");
    [
        "+", "-", "*", "/", "%", "<", ">", "==", "!=", "&&", "||", "..", "!",
    ]
    .iter()
    .any(|op| code.contains(op))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_only_wraps_names_computes_nothing() {
        assert!(only_wraps("vec![Msg::Notify { text }]"));
        assert!(only_wraps("Some(Entry { id, at }) // made here"));
        assert!(!only_wraps("vec![Msg::Notify { text: notice(id) }]"));
        assert!(!only_wraps("Some(total + fee)"));
        assert!(!only_wraps("Ok(rows.len())"));
        assert!(!only_wraps("total"));
    }

    #[test]
    fn a_fixed_text_is_one_a_line_makes_a_value_of_not_one_it_tests() {
        assert_eq!(fixed_text(r#"return Ok("nothing left on sale".to_owned());"#), Some("nothing left on sale"));
        assert_eq!(fixed_text(r#"None => "no reviews".into(),"#), Some("no reviews"));
        assert_eq!(fixed_text(r#"if certificate.as_str() >= "12A" {"#), None);
        assert_eq!(fixed_text(r#"Ok(format!("{n} left"))"#), None);
        assert_eq!(fixed_text(r#"let x = a.get("k").copied();"#), None);
    }

    #[test]
    fn a_field_of_the_initial_model_names_the_default_it_calls() {
        assert_eq!(
            default_called("tariff: model::slipped::FirstTariff::default().0,").as_deref(),
            Some("FirstTariff")
        );
        assert_eq!(default_called("fees: Fees::default(),").as_deref(), Some("Fees"));
        // `Default::default()` names no type, and a call of another fn is not a default
        assert_eq!(default_called("fees: Default::default(),"), None);
        assert_eq!(default_called("fees: fees::standard(),"), None);
    }

    #[test]
    fn a_statement_of_several_lines_is_quoted_by_the_lines_that_decide() {
        let lines: Vec<String> = [
            "let flagged = results",
            "    .iter()",
            "    // a comment",
            "    .filter(|r| r.value < r.low)",
            "    .map(|r| r.test.clone())",
            "    .collect();",
            "let total = a + b;",
            "let rows = list",
            "    .iter()",
            "    .count();",
        ]
        .iter()
        .map(|l| (*l).to_owned())
        .collect();
        let at = |n: u32| source::Lines { first: n, last: n };
        // the head only names what it starts from: the closures' lines, at most two
        assert_eq!(deciding_lines(&lines, &at(1)), vec![3, 4]);
        // a statement of one line, and one whose lines pass no closure and compare nothing
        assert_eq!(deciding_lines(&lines, &at(7)), vec![6]);
        assert_eq!(deciding_lines(&lines, &at(8)), vec![7]);
    }

    #[test]
    fn a_branch_is_quoted_with_the_lets_its_condition_reads() {
        let text = "fn cancel(c: &mut Clinic, id: u32) -> Vec<Msg> {\n    let now = c.minute;\n    \
                    let fees = c.fees.clone(); // \"x\" →\n    let (late, _) = split(now);\n    \
                    let notice = now.saturating_sub(late);\n    if notice < fees.late_cancel && rules::open(now) {\n        \
                    return charge(id);\n    }\n    match Stage::of(id) { _ => Vec::new() }\n}\n";
        let index = source::Index::parse(text).expect("parses");
        let def = &index.fns[0];
        // `notice` and `fees` (not the field, nor the path `rules::open`), nearest first, at most two
        assert_eq!(lets_read_by(&index.lines, def, 6), vec![5, 3]);
        // a line that is not a condition, and a condition that reads no `let`
        assert!(lets_read_by(&index.lines, def, 7).is_empty());
        assert!(lets_read_by(&index.lines, def, 9).is_empty());
        // a tuple pattern binds too
        let text = "fn f() {\n    let (late, early) = g();\n    while late > 0 {}\n}\n";
        let index = source::Index::parse(text).expect("parses");
        assert_eq!(lets_read_by(&index.lines, &index.fns[0], 3), vec![2]);
    }

    #[test]
    fn a_message_names_its_match_arm() {
        let index = source::Index::parse(
            "enum Msg {\n    SetQuantity { sku: String },\n}\nfn update(msg: Msg, t: &T) -> T {\n    \
             match msg {\n        Msg::SetQuantity { sku } => {\n            t.add(sku)\n        }\n        \
             Msg::Clear => T::default(),\n    }\n}",
        )
        .expect("parses");
        assert_eq!(variant_of("set_quantity"), "SetQuantity");
        assert_eq!(variant_of("Clear"), "Clear");
        let arm = |variant: &str| {
            index
                .arms
                .iter()
                .find(|a| a.variants.iter().any(|v| v == variant))
                .map(|a| arm_lines(&index, a))
        };
        assert_eq!(arm("SetQuantity"), Some(vec![5, 6]));
        assert_eq!(arm("Clear"), Some(vec![8]));
        assert_eq!(arm("Remove"), None);
    }

    #[test]
    fn a_long_arm_is_quoted_by_the_lines_that_change_state() {
        let index = source::Index::parse(
            "fn update(msg: Msg, t: &mut T) {\n    match msg {\n        Msg::Add(x) => {\n            let a = 1;\n            \
             let b = 2;\n            let c = a + b;\n            t.total = c + x;\n            t.lines.push(x);\n        }\n    }\n}",
        )
        .expect("parses");
        assert_eq!(arm_lines(&index, &index.arms[0]), [2, 6, 7]);
        let index = source::Index::parse(
            "fn update(msg: Msg, t: &mut T) {\n    match msg {\n        Msg::Add { sku, qty } => t.lines.push(Line {\n            \
             sku,\n            qty,\n            price: 0,\n        }),\n    }\n}",
        )
        .expect("parses");
        assert_eq!(arm_lines(&index, &index.arms[0]), [2, 5]);
    }

    #[test]
    fn an_arm_that_returns_commands_is_quoted_by_the_lines_that_build_them() {
        let index = source::Index::parse(
            "fn update(msg: Msg, p: &P) -> (P, Vec<Msg>) {\n    let mut next = p.clone();\n    let mut commands = vec![];\n    \
             match msg {\n        Msg::Book => {\n            next.booked = true;\n            let a = 1;\n            \
             let b = a + 1;\n            next.count = b;\n            commands.push(Msg::Print);\n        }\n    }\n    \
             (next, commands)\n}",
        )
        .expect("parses");
        // the `=>` line, the command built, then the lines that change state
        assert_eq!(command_lines(&index, &index.arms[0]), [4, 5, 8, 9]);
    }

    #[test]
    fn previous_value_parameters_and_code_lines() {
        assert!(mentions("match prev {", "prev"));
        assert!(!mentions("let previous = 1;", "prev"));
        assert!(is_code("let a = 1;"));
        assert!(!is_code("    });"));
        assert!(!is_code("// a comment"));
        assert!(is_clone_line("let (a, b) = (a.clone(), b.clone());"));
        assert!(changes_state("next.guests = table.max(1);"));
        assert!(changes_state("next.lines.push(line);"));
        assert!(changes_state("line.qty += qty,"));
        assert!(!changes_state("let guest = guest.clamp(1, next.guests);"));
        assert!(!changes_state("if a == b && c <= d {"));
        assert!(!changes_state("Some(line) => {"));
        assert!(is_clone_line("let total = total.clone();"));
        assert!(is_plain_clone_line("let total = total.clone();"));
        assert!(is_plain_clone_line("let (net, tax) = (net.clone(), tax.clone());"));
        assert!(!is_plain_clone_line("let (net, tax) = (tax.clone(), net.clone());"));
        assert!(!is_plain_clone_line("let gross = net.clone();"));
        assert!(!is_clone_line("let sum = a.clone() + b;"));
        assert_eq!(
            words("set_discount {percent: 10}").collect::<Vec<_>>(),
            ["set", "discount", "percent"]
        );
        assert_eq!(split_camel("SetDiscount"), ["set", "discount"]);
    }

    #[test]
    fn a_command_writing_only_fields_the_cone_does_not_read_is_told_apart() {
        let read: HashSet<String> = ["called", "slot", "visits"].iter().map(|s| s.to_string()).collect();
        // a notice, a log: nothing the cone reads
        assert!(writes_only_unread(&["Msg::Notify { text } => next.notices.push(text),"], &read));
        assert!(writes_only_unread(&["if late {", "next.log += 1;"], &read));
        // a field the cone reads, a `&mut` hand-off, a line naming no field, or no write at all
        assert!(!writes_only_unread(&["next.notices.push(text);", "visit.called = Some(now);"], &read));
        assert!(!writes_only_unread(&["commands = call(&mut next, visit),"], &read));
        assert!(!writes_only_unread(&["total = 3;"], &read));
        assert!(!writes_only_unread(&["if visit.slot < now {"], &read));
    }

    #[test]
    fn constants_a_line_names() {
        assert_eq!(
            constants("price * (100 - HAPPY_OFF) / PER_1000 + Some(1)"),
            ["HAPPY_OFF", "PER_1000"]
        );
    }

    #[test]
    fn a_default_constant_is_told_from_a_field_of_the_same_name_another_literal_sets() {
        // the lines of a `Default`'s literal and of a literal an `update` makes, with a shorthand field
        let lines: Vec<String> = [
            "fn default() -> Self {",
            "    PriceList(Rates {",
            "        city: 800,",
            "        breakfast: 15,",
            "    })",
            "}",
            "fn book(hotel: &mut Hotel, breakfast: bool) {",
            "    hotel.stays.push(Stay { id: 1, breakfast });",
            "    let late = Fees {",
            "        window: hotel.window(),",
            "        breakfast,",
            "    };",
            "}",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(literal_type(&lines, 3, 0, 8).as_deref(), Some("Rates"));
        let at = shorthand_field(&lines[7], "breakfast").expect("a shorthand field");
        assert_eq!(literal_type(&lines, 7, 6, at).as_deref(), Some("Stay"));
        let at = shorthand_field(&lines[10], "breakfast").expect("a shorthand field on a line of its own");
        assert_eq!(literal_type(&lines, 10, 6, at).as_deref(), Some("Fees"));
        assert_eq!(shorthand_field(&lines[7], "id"), None);
        // a constant, not a call or another value
        assert!(constant_value("        breakfast: 15,"));
        assert!(constant_value("        late_window: 12 * 60,"));
        assert!(constant_value("        cap: MAX_SEATS,"));
        assert!(!constant_value("        rates: Rates::default(),"));
        assert!(!constant_value("        window: hotel.window,"));
        // a field sent as it is computes nothing
        assert!(sent_as_is("            cents: fees.no_show,"));
        assert!(!sent_as_is("            cents: fees.no_show * 2,"));
    }
}
