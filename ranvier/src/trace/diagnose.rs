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
//! | `ran:` | what `#[node]` and `#[trace_fn]` recorded: the branches the explained node's latest run took, the `#[trace_fn]` fns it called and the values shadowing `let`s bound; or what a message's `update` ran (then it replaces `update:` for that message) | each branch's line (an `else` by its `if`, `→ false`), a `let`'s line with its value, the lines that decide a fn's value (in `update`, that change state) |
//! | `settled:` | the explained node is (or reads) an async memo: the value its future settled | the future's lines that produce it, failures turned into defaults first |
//! | `refused:` | a keyed collection upstream holds a duplicate-key error: its source's list has two items with one key, so it kept the rows it had | its key fn |
//!
//! Ranks favour what explains the node's latest staleness directly (the cutoff that stopped the latest change, the
//! node's own untracked reads), then nearness in the cone. Every finding names a `file:line` from the call sites
//! the traced build records, so no source file is needed to name it; the line's text is added when the source can be
//! read.
//!
//! This file holds the search's frame (`diagnose`: the cone walk, the ranking, the node's own lines) and the small
//! line tests every part shares; each kind of finding is looked for in a module of its own: `written` (`written:`,
//! `disposed:`, `batch:`, `captured:`), `cutoff` (`cutoff:`, `kept:`, `comparer:`, `select:`), `update` (`update:`
//! and what a message ran) with `arm` (an arm's lines from the source), `reached` (the helpers an arm calls when
//! nothing was recorded), `command` (what a command carried) and `defaults` (fields only a `Default` set),
//! `initial` (`initial:`), `steady` (`steady:`), `wrote` (`wrote:`), `settled` (`settled:`), `rows` (a collection's
//! row memos), `ran` (what `#[node]` and `#[trace_fn]` recorded), `by_value` (fns called through a value), `helpers`
//! (the helpers a body calls), `body` (the node's own body), `message_lines`, `template`, `closure`, `chain` and
//! `view` (smaller facts of a message's or a body's lines).

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

mod arm;
mod body;
mod by_value;
mod changed;
mod chain;
mod closure;
mod command;
mod cutoff;
mod defaulted;
mod defaults;
mod helpers;
mod initial;
mod loops;
mod made_with;
mod message_lines;
mod ran;
mod reached;
mod rows;
mod settled;
mod smell;
mod steady;
mod template;
mod update;
mod view;
mod written;
mod wrote;

use self::arm::*;
use self::body::*;
use self::cutoff::*;
use self::defaults::*;
use self::helpers::*;
use self::initial::*;
use self::made_with::*;
use self::message_lines::*;
use self::ran::*;
use self::rows::*;
use self::settled::*;
use self::steady::*;
use self::update::*;
use self::written::*;
use self::wrote::*;
pub(super) use self::update::variant_of;

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

/// Whether `line` gives a value of fixed words (`return vec!["nothing to prepare".to_owned()];`, a branch's tail
/// `"closed".to_owned()`) none of which `value` (the node's value as `Debug` prints it) holds: that line did not
/// make the value.
fn gives_text_not_in(line: &str, value: &str) -> bool {
    let code = code_part(line).trim();
    let gives = code.starts_with("return ") || !code.ends_with(';') && !code.ends_with('{') && !code.ends_with(',');
    if !gives || code.contains("format!(") || code.contains('{') {
        return false;
    }
    // the string literals: between pairs of quotes
    let texts: Vec<&str> = code.split('"').skip(1).step_by(2).filter(|t| !t.is_empty() && !t.contains('\\')).collect();
    !texts.is_empty() && texts.iter().all(|t| !value.contains(t))
}

/// The name and the value of a `let` of one name written on one line (`let amount = f64::from(stay.deposit);`,
/// `let mut today: u32 = k.today;` → `today`, `k.today`); `None` for a pattern, or a statement over several lines.
fn one_name_let(line: &str) -> Option<(&str, &str)> {
    let code = code_part(line).trim();
    let (name, value) = code.strip_prefix("let ")?.strip_suffix(';')?.split_once(" = ")?;
    let name = name.trim_start_matches("mut ").split(':').next()?.trim();
    let one_name = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    one_name.then_some((name, value))
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
    equal_models(ctx, why_not, &cone, &mut found);
    kept_itself(ctx, me, &mut found);
    update_arms(ctx, me, &cone, &in_cone, &mut found);
    steady_sources(ctx, me, &mut found);
    branches_taken(ctx, me, &mut found);
    row_memos(ctx, me, &mut found);
    message_writes(ctx, me, &in_cone, &mut found);
    initial_values(ctx, &cone, &mut found);
    initial_model_parts(ctx, &cone, &mut found);
    model_constants(ctx, me, &cone, &mut found);
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
    body.extend(helper_lines(me, &body, &ran, &ctx.tracer.built_branches()));
    body.retain(|l| !shown.contains(&(l.site.file, l.site.line)));
    template_first(ctx, me, &shown, &mut body);
    changed_first(ctx, me, &shown, &mut body);
    smell_first(me, &shown, &mut body);
    closures_called(me, &shown, &mut body);
    loops::loop_sources(me, &mut body);
    // an accumulator's `let` quoted: the loop that added to it
    loops::accumulator_loops(me, &mut body);
    // a struct literal it builds from locals: the `let`s that computed its fields
    literal_field_lets(me, &mut body);
    // the views it reads that moved chose its rows: their creation lines first
    let views: Vec<SourceLine> = view::moved_views(ctx, me)
        .into_iter()
        .filter(|v| !shown.contains(&(v.site.file, v.site.line)))
        .collect();
    body.retain(|l| !views.iter().any(|v| v.site.file == l.site.file && v.site.line == l.site.line));
    body.splice(0..0, views);
    body.retain(|l| !chain::only_carries(l));
    // a `for` line quoted without what its loop adds up: those additions, and the `let`s of what they add
    body = loops::added_lets(loops::for_accumulations(std::mem::take(&mut body)));
    // a loop whose body never ran: its lines did not, and its `for` line says so, first
    // a loop over a range whose ends the body computed: it and their `let`s, first
    loops::range_lets(me, &mut body);
    loops::not_entered(&ctx.tracer.loops_of(id), &mut body);
    // a default the run took made what the lines after it computed on: its line first
    defaulted::defaults_first(&ctx.tracer.defaults_of(id), &mut body);
    // a line that read a constant the model was made with: the line that set it, right after
    body_constants(ctx, &cone, &found, &mut body);
    // a line that gives a fixed text the value does not hold did not make it
    if let Some(value) = ctx.value(me.id) {
        body.retain(|l| !gives_text_not_in(&l.text, &value));
    }
    // a line of a chain written over several lines stands for the chain's links that decide
    let mut followed: HashSet<(&'static str, u32)> = HashSet::new();
    for f in &mut found {
        let mut more: Vec<SourceLine> = f.at.iter().cloned().collect();
        more.append(&mut f.more);
        f.more = loops::added_lets(loops::for_accumulations(match_lets_just_above(if_actions(block_exits(arm::scrutinee_lets(chain::whole_chains(more)))))));
        // a line that gave a local alone: the `let`s that computed it (quoted here, not again in the body)
        let before: HashSet<(&'static str, u32)> = f.more.iter().map(|l| (l.site.file, l.site.line)).collect();
        f.more = arm::returned_lets(std::mem::take(&mut f.more));
        followed.extend(f.more.iter().map(|l| (l.site.file, l.site.line)).filter(|s| !before.contains(s)));
        // in a future, a struct literal it settles with: the `let` that computed a field
        if f.kind == FindingKind::Settled {
            f.more = settled_literal_lets(std::mem::take(&mut f.more));
        }
        if let Some(at) = &f.at {
            f.more.retain(|l| l.site.file != at.site.file || l.site.line != at.site.line);
        }
    }
    body.retain(|l| !followed.contains(&(l.site.file, l.site.line)));
    (found, body)
}

/// The lines of the explained node's body that decided the text of its value ([`template::lines`]: the lets a
/// template's arguments came from, the guard of its arm), first; not for an async memo, whose `settled:` finding
/// quotes them.
fn template_first(ctx: &Ctx<'_>, me: &NodeRecord, shown: &HashSet<(&'static str, u32)>, body: &mut Vec<SourceLine>) {
    let Some(value) = ctx.value(me.id) else { return };
    lines_first(me, shown, body, |quoted| template::lines_and_loop(me, &value, quoted, true));
}

/// The lines of the explained node's body that wrote what its latest run changed in its value
/// ([`changed::lines`]: `paid.items += sale.items;` for a text whose item count moved), first, as
/// [`template_first`]'s; not for an async memo.
fn changed_first(ctx: &Ctx<'_>, me: &NodeRecord, shown: &HashSet<(&'static str, u32)>, body: &mut Vec<SourceLine>) {
    if me.kind != NodeKind::Memo {
        return;
    }
    let Some((value, before)) = changed::latest_change(ctx, me) else { return };
    lines_first(me, shown, body, |quoted| changed::lines(me, &value, &before, quoted));
}

/// The lines of the explained node's own body that read as a slip whatever the app ([`smell::smells`]: `sum.tax =
/// slip.tax;` in a loop that adds up `sum`'s other fields, `set_score(fixture, away, home)`), at the very front of
/// `body`: they made the value wrong in every run that reached them. Not for an async memo's call.
fn smell_first(me: &NodeRecord, shown: &HashSet<(&'static str, u32)>, body: &mut Vec<SourceLine>) {
    let file = me.site.file();
    let Some((index, whole)) = own_call(me) else { return };
    let smelly: Vec<SourceLine> = smell::smells(file, &index, whole)
        .into_iter()
        .map(|i| numbered(file, &index.lines, i))
        .filter(|l| !shown.contains(&(file, l.site.line)))
        .collect();
    body.retain(|l| !smelly.iter().any(|s| s.site == l.site));
    body.splice(0..0, smelly);
}

/// The parsed file of the explained node's creation call and that call's lines, unless the call holds an `async`
/// block (an async memo's future, whose `settled:` finding quotes its lines).
fn own_call(me: &NodeRecord) -> Option<(Arc<source::Index>, source::Lines)> {
    let index = source::index(me.site.file())?;
    let whole = index.call_at(me.site.line(), me.site.column())?.whole;
    let holds_future = index.asyncs.iter().any(|(lines, _)| whole.holds(*lines));
    (!holds_future).then_some((index, whole))
}

/// Puts the lines `pick` chooses in the explained node's own file (0-based; given those `body` quotes there) at the
/// front of `body`, after its first lines that decide which values and in what order (a sort key, a condition),
/// leaving out those quoted already; not for an async memo's call.
fn lines_first(
    me: &NodeRecord,
    shown: &HashSet<(&'static str, u32)>,
    body: &mut Vec<SourceLine>,
    pick: impl FnOnce(&[usize]) -> Vec<usize>,
) {
    let file = me.site.file();
    let Some((index, _)) = own_call(me) else { return };
    let at = |i: usize| u32::try_from(i + 1).unwrap_or(u32::MAX);
    let quoted: Vec<usize> = body
        .iter()
        .filter(|l| l.site.file == file)
        .map(|l| l.site.line as usize - 1)
        .collect();
    let mut picked = pick(&quoted);
    picked.retain(|i| !shown.contains(&(file, at(*i))) && !quoted.contains(i));
    let lines: Vec<SourceLine> = picked.into_iter().map(|i| numbered(file, &index.lines, i)).collect();
    let after = body.iter().take_while(|l| decides(&l.text)).count();
    body.splice(after..after, lines);
}

/// Whether `code` reads a local or a parameter: a lowercase name that is not a field or method (after `.`), a path
/// segment or a keyword (`BTreeMap::new()` reads none, `p.vessels.iter()` reads `p`).
fn reads_a_name(code: &str) -> bool {
    idents(code).any(|(at, word)| {
        let (before, after) = (&code[..at], &code[at + word.len()..]);
        word.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && !before.ends_with('.')
            && !before.ends_with("::")
            && !after.starts_with("::")
            && !["mut", "ref", "as", "true", "false", "if", "else", "match"].contains(&word)
    })
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
    let first = call.whole.first as usize - 1;
    let mut matches_seen: HashSet<usize> = HashSet::new();
    let mut i = 0;
    while i < body.len().min(CONDITION_LETS_LINES) {
        let at = body[i].site.line;
        if body[i].site.file != file || !call.whole.contains(at) {
            i += 1;
            continue;
        }
        let code = code_part(&lines[at as usize - 1]).trim_start().trim_start_matches('}').trim_start();
        let tested = ["if ", "else if ", "while ", "match "].iter().find_map(|k| code.strip_prefix(k));
        // a line in an arm of a `match` the body does not quote: the arm was chosen by what the `match` tests
        // (`let line = match (alongside, expected) {`), once per `match`
        let (condition, from, arm) = match tested {
            Some(condition) => (condition, at, false),
            None => {
                let Some(opener) = body::enclosing(lines, first, at as usize - 1).find(|&l| {
                    let c = code_part(&lines[l]);
                    c.contains("match ") && c.trim_end().ends_with('{')
                }) else {
                    i += 1;
                    continue;
                };
                let quoted = body.iter().any(|b| b.site.file == file && b.site.line as usize == opener + 1);
                if quoted || !matches_seen.insert(opener) {
                    i += 1;
                    continue;
                }
                let c = code_part(&lines[opener]);
                let scrutinee = c.split_once("match ").map_or("", |(_, rest)| rest);
                (scrutinee, u32::try_from(opener + 1).unwrap_or(u32::MAX), true)
            }
        };
        // the first name's `let` not quoted yet: a statement of one line whole; for an arm's `match`, a longer one by
        // the line of it that decides (its first line names only what it starts from: `let alongside = p` above
        // `.find(|v| ..)`)
        let bound = lets_binding(lines, call.whole.first, from, condition)
            .into_iter()
            .filter(|l| !shadows_with_value(&lines[*l as usize - 1]))
            .find(|l| !body.iter().any(|b| b.site.file == file && b.site.line == *l))
            .and_then(|l| {
                let code = code_part(&lines[l as usize - 1]);
                if code.trim_end().ends_with(';') {
                    // a `let` that reads nothing (`let mut leaders = BTreeMap::new();`) decided nothing
                    let value = code.split_once('=').map_or("", |(_, v)| v);
                    return reads_a_name(value).then_some(l as usize - 1);
                }
                let_deciding_line(lines, l).filter(|_| arm)
            })
            .filter(|d| !body.iter().any(|b| b.site.file == file && b.site.line as usize == d + 1));
        if let Some(l) = bound {
            body.insert(i + 1, numbered(file, lines, l));
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
    let name_only = |text: &str| text.trim().chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ':');
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

/// The line (0-based) that decides a `let` over several lines starting at line `at` (1-based) whose first line only
/// names what it starts from (`.filter(|scan| ..)` of `let rides = r.scans` `.iter()` ..); `None` when its first line
/// is the one that decides.
fn let_deciding_line(lines: &[String], at: u32) -> Option<usize> {
    let statement = source::Lines { first: at, last: at };
    deciding_lines(lines, &statement).into_iter().next().filter(|d| *d != at as usize - 1)
}

/// The longest value text a finding quotes.
const FINDING_VALUE_MAX: usize = 40;

fn near(depth: u32) -> u32 {
    90u32.saturating_sub(depth.min(9) * 10)
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
pub(super) fn is_plain_clone_line(text: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_fixed_words_the_value_does_not_hold_did_not_make_it() {
        let value = r#"["kibble: 400g a day (Rex 2×300g)"]"#;
        assert!(gives_text_not_in(r#"return vec!["nothing to prepare".to_owned()];"#, value));
        assert!(gives_text_not_in(r#""closed".to_owned()"#, value));
        // words the value holds, a text made from values, or no words at all: it may have
        assert!(!gives_text_not_in(r#"return vec!["kibble".to_owned()];"#, value));
        assert!(!gives_text_not_in(r#"format!("{food}: {grams}g a day")"#, value));
        assert!(!gives_text_not_in("return 0;", value));
        assert!(!gives_text_not_in(r#"lines.push("closed".to_owned());"#, value));
    }

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
