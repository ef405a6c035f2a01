//! The compact answers of `graph` and `node`, assembled from the trace's node lines within their size limits, and
//! the clipping every traced answer goes through. These run on the graph thread.

use std::fmt::Write as _;

use crate::graph::NodeId;
use crate::trace::{self, Counts, Ctx, NodeInfo, Relation};

/// How many sources a node line names before `… n more`.
const LINE_SOURCES_MAX: usize = 12;
/// The longest single line of an answer, in characters; longer lines end with `…`.
const LINE_MAX_CHARS: usize = 600;

/// `text` cut to `max` characters, ending with `…`.
fn clip_line(text: &str, max: usize) -> String {
    crate::text::clip(text, max).into_owned()
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// `text` within `max` characters: each line cut to [`LINE_MAX_CHARS`], then whole lines kept from the start while
/// they fit, with a last line saying how many were left out.
pub(crate) fn clip_lines(text: &str, max: usize) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| clip_line(line, LINE_MAX_CHARS))
        .collect();
    let mut out = String::new();
    for (index, line) in lines.iter().enumerate() {
        let rest = lines.len() - index;
        let note = format!("\n… {rest} more lines (over {max} characters)");
        let separator = usize::from(!out.is_empty());
        let needs = separator + chars(line) + if rest > 1 { chars(&note) } else { 0 };
        if chars(&out) + needs > max {
            out.push_str(&note);
            return out;
        }
        if separator == 1 {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

/// `text` within `max` characters keeping its end (the latest steps and the state line), with a first line saying
/// how many earlier lines were left out.
pub(crate) fn clip_head(text: &str, max: usize) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| clip_line(line, LINE_MAX_CHARS))
        .collect();
    let mut kept: Vec<&str> = Vec::new();
    let mut used = 0;
    for (index, line) in lines.iter().enumerate().rev() {
        let note = 40;
        if used + chars(line) + 1 + if index > 0 { note } else { 0 } > max && !kept.is_empty() {
            let mut out = format!("… {} earlier lines", index + 1);
            for line in kept.iter().rev() {
                out.push('\n');
                out.push_str(line);
            }
            return out;
        }
        used += chars(line) + 1;
        kept.push(line);
    }
    kept.reverse();
    kept.join("\n")
}

/// The dispatch text `steps` (one line per message, then the state line) cut to the steps that changed an exposed
/// value named in `names` (the exposed nodes of the explained node's cone) and the last step, with a line saying
/// how many were left out. With no such names, every step is kept.
pub(crate) fn steps_in_cone(steps: &str, names: &[String]) -> String {
    if names.is_empty() {
        return steps.to_owned();
    }
    let lines: Vec<&str> = steps.lines().collect();
    // the step lines start with their position; the state line (`v3: ...`) and a stop's lines are kept
    let last_step = lines.iter().rposition(|line| is_step(line));
    let moved_cone = |line: &str| {
        line.split_once(": ").is_some_and(|(_, changes)| {
            names.iter().any(|name| {
                changes.starts_with(&format!("{name} ")) || changes.contains(&format!(", {name} "))
            })
        })
    };
    let mut out = Vec::new();
    let mut left_out = 0;
    for (index, line) in lines.iter().enumerate() {
        if is_step(line) && Some(index) != last_step && !moved_cone(line) {
            left_out += 1;
            continue;
        }
        out.push((*line).to_owned());
    }
    if left_out > 0 {
        out.insert(0, format!("… {left_out} steps that moved nothing upstream"));
    }
    out.join("\n")
}

/// Each step line of `steps` with only the changes of values named in `cone` (the explained node's cone), then `…`
/// when others were left out: the short form's steps say what moved upstream, not the whole snapshot again. `all`
/// names every exposed value, to tell where one change ends and the next begins (a value's text may hold `, `). When
/// the cone is known, a step none of whose changes is in it keeps only its head (`3 order → v6: …`: it is there as
/// the latest step, and what it moved outside the cone says nothing about the explained value), and a
/// `settled`/`meanwhile` line none of whose changes is in it is left out; with no cone, every line is kept whole.
pub(crate) fn changes_in_cone(steps: &str, cone: &[String], all: &[String]) -> String {
    let name_at = |changes: &str, i: usize| -> Option<String> {
        all.iter()
            .chain(cone)
            .filter(|name| {
                changes[i..].starts_with(name.as_str())
                    && matches!(
                        changes[i + name.len()..].chars().next(),
                        Some(' ' | '[' | '.')
                    )
            })
            .max_by_key(|name| name.len())
            .cloned()
    };
    let mut out: Vec<String> = Vec::new();
    for line in steps.lines() {
        // a step line, or the line saying what the flights the steps set off changed when they settled
        let changes_line =
            is_step(line) || line.starts_with("settled → v") || line.starts_with("meanwhile → v");
        let split = line
            .find(" → v")
            .and_then(|arrow| line[arrow..].find(": ").map(|colon| arrow + colon + 2));
        let (true, Some(at)) = (changes_line, split) else {
            out.push(line.to_owned());
            continue;
        };
        let (head, changes) = line.split_at(at);
        // where each change starts: the start, or after `, `, at an exposed value's name
        let mut starts: Vec<(usize, Option<String>)> = Vec::new();
        for (i, _) in changes.char_indices() {
            if i == 0 || changes[..i].ends_with(", ") {
                if let Some(name) = name_at(changes, i) {
                    starts.push((i, Some(name)));
                } else if i == 0 {
                    starts.push((0, None));
                }
            }
        }
        let entries: Vec<(&str, bool)> = starts
            .iter()
            .enumerate()
            .map(|(k, (i, name))| {
                let end = starts
                    .get(k + 1)
                    .map_or(changes.len(), |(next, _)| next - 2);
                let base = name
                    .as_deref()
                    .map(|n| n.split(['[', '.']).next().unwrap_or(n).to_owned());
                let kept = base.is_none_or(|b| {
                    cone.iter()
                        .any(|c| *c == b || c.as_str() == name.as_deref().unwrap_or(""))
                });
                (&changes[*i..end], kept)
            })
            .collect();
        let kept: Vec<&str> = entries
            .iter()
            .filter(|(_, k)| *k)
            .map(|(e, _)| *e)
            .collect();
        if kept.is_empty() && !cone.is_empty() {
            if !is_step(line) {
                continue;
            }
            // the step is kept for its place (the latest), not for what it moved outside the cone
            out.push(format!("{head}…"));
            continue;
        }
        let outside = !kept.is_empty() && kept.len() < entries.len();
        let shown: Vec<&str> = if kept.is_empty() {
            entries.iter().map(|(entry, _)| *entry).collect()
        } else {
            kept
        };
        out.push(brief_changes(head, &shown, outside));
    }
    out.join("\n")
}

/// The longest step line of the short form once it holds one change: later changes that would pass it are counted.
const STEP_BRIEF_MAX_CHARS: usize = 160;

/// The longest step line of the short form holding one change; a longer change is cut, ending with `…`.
const STEP_ONE_CHANGE_MAX_CHARS: usize = 240;

/// A step line's `head` (`3 order → v6: `) and the `changes` it keeps, as many as fit in [`STEP_BRIEF_MAX_CHARS`]
/// (the first always), then `+2 more` for those left out and `…` when changes outside the cone were dropped before:
/// the short form says what moved, the full form (`detail: "full"`) lists every change.
fn brief_changes(head: &str, changes: &[&str], outside: bool) -> String {
    let mut line = head.to_owned();
    let mut shown = 0;
    for change in changes {
        if shown > 0 {
            if chars(&line) + 2 + chars(change) > STEP_BRIEF_MAX_CHARS {
                break;
            }
            line.push_str(", ");
        }
        line.push_str(change);
        shown += 1;
    }
    // one change longer than the line (a whole list that settled) is cut: the full form has it
    if chars(&line) > STEP_ONE_CHANGE_MAX_CHARS {
        line = clip_line(&line, STEP_ONE_CHANGE_MAX_CHARS);
    }
    if shown < changes.len() {
        let _ = write!(line, ", +{} more", changes.len() - shown);
    }
    if outside {
        line.push_str(", …");
    }
    line
}

/// Whether a line of dispatched steps is a step (`3 book … → v6: …`, starting with its position).
fn is_step(line: &str) -> bool {
    line.split_once(' ')
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// `steps` with at most `max` step lines, the latest: the earlier ones are counted in the first line
/// (`… 3 earlier steps`, or added to the count of a `… N steps that moved nothing upstream` line there). A short
/// answer says which messages moved the node lately; the full form lists them all.
pub(crate) fn latest_steps(steps: &str, max: usize) -> String {
    let lines: Vec<&str> = steps.lines().collect();
    let count = lines.iter().filter(|l| is_step(l)).count();
    if count <= max {
        return steps.to_owned();
    }
    let mut dropped = count - max;
    let mut idle = 0;
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        if let Some(n) = line
            .strip_prefix("… ")
            .and_then(|rest| rest.strip_suffix(" steps that moved nothing upstream"))
            .and_then(|n| n.parse::<usize>().ok())
        {
            idle = n;
            continue;
        }
        if dropped > 0 && is_step(line) {
            dropped -= 1;
            continue;
        }
        out.push(line.to_owned());
    }
    let earlier = count - max + idle;
    let steps_word = if earlier == 1 { "step" } else { "steps" };
    let head = if idle > 0 {
        format!("… {earlier} earlier {steps_word} ({idle} moved nothing upstream)")
    } else {
        format!("… {earlier} earlier {steps_word}")
    };
    out.insert(0, head);
    out.join("\n")
}

/// `steps` without the `… N steps that moved nothing upstream` line [`steps_in_cone`] put first: the short form's
/// steps keep their positions and the last step, so the numbers missing before it are the steps left out (a line
/// [`latest_steps`] wrote, which counts the earlier steps too, is kept).
pub(crate) fn without_idle_count(steps: &str) -> String {
    steps
        .lines()
        .filter(|line| {
            line.strip_prefix("… ")
                .and_then(|rest| rest.strip_suffix(" steps that moved nothing upstream"))
                .is_none_or(|n| n.parse::<usize>().is_err())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `steps` without a `settled → vN: no exposed value changed` line: the flights settled (or none started) and
/// changed nothing the steps do not already say.
pub(crate) fn without_quiet_settle(steps: &str) -> String {
    steps
        .lines()
        .filter(|line| {
            !(line.starts_with("settled → v") && line.ends_with(": no exposed value changed"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The step lines of `steps` without the messages' arguments (`3 book {"visit":1} → v6: …` becomes
/// `3 book → v6: …`): the short form's steps follow the messages the caller sent in the same call, so their
/// arguments would only repeat them. Other lines are kept as they are.
pub(crate) fn without_arguments(steps: &str) -> String {
    steps
        .lines()
        .map(|line| {
            let Some((n, rest)) = line.split_once(' ') else {
                return line.to_owned();
            };
            match (is_step(line), rest.split_once(' '), rest.find(" → v")) {
                (true, Some((name, _)), Some(arrow)) if name.len() < arrow => {
                    format!("{n} {name}{}", &rest[arrow..])
                }
                _ => line.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `steps` without its state line (`v3: a=1, b=2`, the last line, when it is one): what an explanation's short form
/// leaves out, since the step lines above it say what moved.
pub(crate) fn without_state_line(steps: &str) -> String {
    let is_state = |line: &str| {
        line.strip_prefix('v')
            .and_then(|rest| rest.split_once(": "))
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    // the state line ends the steps; a `settled → v…` line (what the flights changed after) may follow it
    steps
        .lines()
        .filter(|line| !is_state(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Node `id`'s info as one line of an answer shows it: [`LINE_SOURCES_MAX`] sources and observers named, with the
/// counts of all, and its path only in `full` detail.
fn shown_info(ctx: &Ctx<'_>, id: NodeId, full: bool) -> Option<(NodeInfo, Counts)> {
    ctx.info_within(id, LINE_SOURCES_MAX, full)
}

fn line(info: &NodeInfo, counts: Counts) -> String {
    clip_line(
        &info.line_of(LINE_SOURCES_MAX, counts.sources),
        LINE_MAX_CHARS,
    )
}

/// A line of the `graph` answer: its text, or a moved node's line, built only when the answer shows it.
enum GraphLine {
    Text(String),
    Moved(NodeId),
}

/// The `graph` answer: counts, the exposed nodes, the last message and what it moved, within `max` characters.
pub(crate) fn graph(exposed: &[(String, NodeId)], max: usize) -> String {
    trace::view(|ctx| graph_in(ctx, exposed, max)).unwrap_or_else(|untraced| untraced.to_string())
}

fn graph_in(ctx: &Ctx<'_>, exposed: &[(String, NodeId)], max: usize) -> String {
    let (summary, moved) = ctx.summary_ids();
    let mut head = summary.counts();
    if summary.disposed > 0 {
        let _ = write!(head, ", {} disposed", summary.disposed);
    }
    let mut lines = Vec::new();
    if exposed.is_empty() {
        lines.push(GraphLine::Text(
            "exposed: none (register nodes with Exposure::node)".to_owned(),
        ));
    } else {
        lines.push(GraphLine::Text("exposed:".to_owned()));
        for (name, id) in exposed {
            if let Some((info, counts)) = shown_info(ctx, *id, false) {
                lines.push(GraphLine::Text(if *info.node.name == **name {
                    line(&info, counts)
                } else {
                    format!("{name} = {}", line(&info, counts))
                }));
            }
        }
    }
    match &summary.last_message {
        Some(m) => {
            let args = if m.args.is_empty() {
                String::new()
            } else {
                format!(" {}", m.args)
            };
            lines.push(GraphLine::Text(clip_line(
                &format!(
                    "last message: {}{args} #{} to {}; it moved:",
                    m.name, m.seq, m.target
                ),
                LINE_MAX_CHARS,
            )));
        }
        None => lines.push(GraphLine::Text(
            "no message dispatched yet; moved:".to_owned(),
        )),
    }
    if moved.is_empty() {
        lines.push(GraphLine::Text("nothing".to_owned()));
    }
    lines.extend(moved.into_iter().map(GraphLine::Moved));
    let mut out = head;
    for (index, entry) in lines.iter().enumerate() {
        let text = match entry {
            GraphLine::Text(text) => text.clone(),
            GraphLine::Moved(id) => shown_info(ctx, *id, false)
                .map(|(info, counts)| line(&info, counts))
                .unwrap_or_default(),
        };
        let rest = lines.len() - index;
        let note = format!("\n… {rest} more lines; ask `node` about one");
        if chars(&out) + 1 + chars(&text) + if rest > 1 { chars(&note) } else { 0 } > max {
            out.push_str(&note);
            break;
        }
        out.push('\n');
        out.push_str(&text);
    }
    out
}

/// What one `node` call asks for.
pub(crate) struct NodeRequest {
    /// Hops of sources and observers, 0 to 2.
    pub around: u32,
    /// `detail: full`.
    pub full: bool,
    /// At most this many neighbours a page.
    pub limit: usize,
    /// The first neighbour of the page (0-based).
    pub cursor: usize,
    /// The longest page.
    pub max_chars: usize,
}

/// The indented source line under a node (`  file.rs:12: text`, when `source` or `full`) and, in full detail, its
/// observers, path and runs.
fn detail_lines(
    ctx: &Ctx<'_>,
    (info, counts): (&NodeInfo, Counts),
    source: bool,
    full: bool,
) -> String {
    let mut out = String::new();
    if let Some(text) = (source || full)
        .then(|| ctx.source_line(info.node.id))
        .flatten()
    {
        let _ = write!(out, "\n  {}: {}", info.site, clip_line(&text, 200));
    }
    if full {
        let observers: Vec<String> = info
            .observers
            .iter()
            .take(LINE_SOURCES_MAX)
            .map(ToString::to_string)
            .collect();
        let more = counts.observers.saturating_sub(observers.len());
        let _ = write!(
            out,
            "\n  observers [{}{}] path {} runs {}",
            observers.join(", "),
            if more > 0 {
                format!(" … {more} more")
            } else {
                String::new()
            },
            clip_line(&info.path, 200),
            info.runs
        );
        if let Some(owner) = &info.owner {
            let _ = write!(out, " owner {owner}");
        }
    }
    out
}

/// One page of `node`: the node with its source line, then its neighbours from `cursor` one line each (in full
/// detail with their source lines, observers, paths and runs), then where the page ends.
pub(crate) fn node_page(id: NodeId, request: &NodeRequest) -> Result<String, String> {
    trace::view(|ctx| node_page_in(ctx, id, request)).map_err(|e| e.to_string())?
}

fn node_page_in(ctx: &Ctx<'_>, id: NodeId, request: &NodeRequest) -> Result<String, String> {
    // the neighbours as ids: only the page's are built into lines
    let around = ctx
        .neighbours(id, request.around)
        .map_err(|e| e.to_string())?;
    let (center, center_counts) =
        shown_info(ctx, id, request.full).ok_or_else(|| ctx.missing(id).to_string())?;
    let total = around.len();
    if request.cursor > total || (request.cursor == total && total > 0) {
        return Err(format!(
            "\"cursor\" {} is past the last neighbour of {} ({total} within {} hops); start again without a cursor",
            request.cursor, center.node, request.around
        ));
    }
    let mut out = line(&center, center_counts);
    out.push_str(&detail_lines(
        ctx,
        (&center, center_counts),
        true,
        request.full,
    ));
    // a timed node: what it holds, what its timer waits to pass and when (`trace::timing`)
    if let Ok(timing) = trace::timing_in(ctx, id)
        && timing.events > 0
    {
        let _ = write!(out, "\ntiming: {timing}");
    }
    let hops = if request.around == 1 { "hop" } else { "hops" };
    if total == 0 {
        let _ = write!(
            out,
            "\nno sources or observers within {} {hops}",
            request.around
        );
        return Ok(out);
    }
    // the footer is at most this long
    let footer_room = 90;
    let mut shown = 0;
    for (hops_away, relation, node) in around.iter().skip(request.cursor) {
        if shown == request.limit {
            break;
        }
        let Some((info, counts)) = shown_info(ctx, *node, request.full) else {
            continue;
        };
        let way = match relation {
            Relation::Source => "source",
            Relation::Observer => "observer",
        };
        let entry = format!(
            "\n{way} {hops_away}: {}{}",
            line(&info, counts),
            detail_lines(ctx, (&info, counts), false, request.full)
        );
        if chars(&out) + chars(&entry) + footer_room > request.max_chars && shown > 0 {
            break;
        }
        out.push_str(&entry);
        shown += 1;
    }
    let (first, last) = (request.cursor + 1, request.cursor + shown);
    let _ = write!(
        out,
        "\nneighbours {first}-{last} of {total} within {} {hops}",
        request.around
    );
    if last < total {
        let _ = write!(out, "; next page: cursor \"{last}\"");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_a_few_sources_and_observers_and_count_them_all() {
        use crate::{Memo, Signal};
        let cells: Vec<Signal<i64>> = (0..40).map(Signal::new).collect();
        let sum = Memo::new({
            let cells = cells.clone();
            move |_| cells.iter().map(Signal::get).sum::<i64>()
        })
        .labelled("sum");
        let readers: Vec<Memo<i64>> = (0..15)
            .map(|i| {
                let cell = cells[0].clone();
                Memo::new(move |_| cell.get() + i)
            })
            .collect();
        assert_eq!(sum.get(), 780);
        for reader in &readers {
            reader.get();
        }
        if !crate::trace::TRACED {
            return;
        }
        let exposed = vec![("sum".to_owned(), sum.id())];
        let text = graph(&exposed, 4000);
        assert!(
            text.contains("sum#") && text.contains("… 28 more]"),
            "{text}"
        );
        let request = NodeRequest {
            around: 1,
            full: true,
            limit: 25,
            cursor: 0,
            max_chars: 20_000,
        };
        let page = node_page(cells[0].id(), &request).expect("a page");
        // the first cell's observers: the sum and the 15 readers, 12 of them named
        assert!(page.contains(" … 4 more] path /"), "{page}");
        assert!(
            page.contains("neighbours 1-16 of 16 within 1 hop"),
            "{page}"
        );
        let request = NodeRequest {
            full: false,
            ..request
        };
        let page = node_page(sum.id(), &request).expect("a page");
        assert!(
            page.starts_with("sum#") && page.contains("… 28 more]"),
            "{page}"
        );
        assert!(
            page.contains("neighbours 1-25 of 40 within 1 hop"),
            "{page}"
        );
        assert!(!page.contains("observers ["), "brief: {page}");
    }

    #[test]
    fn the_short_form_drops_the_state_line_only() {
        let steps = "1 add {\"n\":1} → v1: total 0→1\nv1: total=1";
        assert_eq!(without_state_line(steps), "1 add {\"n\":1} → v1: total 0→1");
        assert_eq!(
            without_state_line("1 add → v1: total 0→1"),
            "1 add → v1: total 0→1"
        );
        assert_eq!(without_state_line("v2: total=1"), "");
        assert_eq!(without_state_line("stopped\nvalue: x"), "stopped\nvalue: x");
    }

    #[test]
    fn the_short_form_drops_the_arguments_of_step_lines_only() {
        let steps = "… 2 steps that moved nothing upstream\n3 book {\"slot\":0,\"who\":\"a b\"} → v6: queue 0→1, …\n\
                     4 pay {} → v7: paid 0→1\n5 tick → v8: clock 1→2\n6 book {\"slot\":1} rejected: slot taken";
        assert_eq!(
            without_arguments(steps),
            "… 2 steps that moved nothing upstream\n3 book → v6: queue 0→1, …\n4 pay → v7: paid 0→1\n\
             5 tick → v8: clock 1→2\n6 book {\"slot\":1} rejected: slot taken"
        );
    }

    #[test]
    fn the_short_form_keeps_the_latest_steps_and_counts_the_others() {
        let steps = "… 2 steps that moved nothing upstream\n1 a → v1: x 0→1\n3 b → v3: x 1→2\n\
                     4 c → v4: x 2→3\nstopped: y";
        assert_eq!(latest_steps(steps, 3), steps);
        assert_eq!(
            latest_steps(steps, 2),
            "… 3 earlier steps (2 moved nothing upstream)\n3 b → v3: x 1→2\n4 c → v4: x 2→3\nstopped: y"
        );
        assert_eq!(
            latest_steps("1 a → v1: x 0→1\n2 b → v2: x 1→2", 1),
            "… 1 earlier step\n2 b → v2: x 1→2"
        );
    }

    #[test]
    fn the_short_form_keeps_what_settling_changed_and_drops_a_quiet_settle() {
        let steps = "1 rent → v3: alerts []→(pending), …\nv3: alerts=(pending)\nsettled → v5: alerts (pending)→[]";
        assert_eq!(
            without_state_line(steps),
            "1 rent → v3: alerts []→(pending), …\nsettled → v5: alerts (pending)→[]"
        );
        let quiet = "1 rent → v3: total 0→1\nsettled → v3: no exposed value changed";
        assert_eq!(without_quiet_settle(quiet), "1 rent → v3: total 0→1");
        assert_eq!(without_quiet_settle(steps), steps);
    }

    #[test]
    fn the_short_form_drops_a_settle_that_changed_nothing_in_the_cone() {
        let all = ["total".to_owned(), "tide".to_owned(), "customs".to_owned()];
        let cone = ["total".to_owned()];
        let steps = "1 rent → v3: total 0→1\nsettled → v5: tide (pending)→1, customs (pending)→2";
        assert_eq!(
            changes_in_cone(steps, &cone, &all),
            "1 rent → v3: total 0→1"
        );
        // a settle that changed the cone keeps its changes in it
        let steps = "1 rent → v3: total 0→1\nsettled → v5: tide (pending)→1, total (pending)→2";
        assert_eq!(
            changes_in_cone(steps, &cone, &all),
            "1 rent → v3: total 0→1\nsettled → v5: total (pending)→2, …"
        );
        // a step that moved nothing in the cone keeps its head only
        let steps = "1 rent → v3: tide 0→1, customs 1→2";
        assert_eq!(changes_in_cone(steps, &cone, &all), "1 rent → v3: …");
        // with no cone known, every line is kept
        let steps = "1 rent → v3: total 0→1\nsettled → v5: tide (pending)→1";
        assert_eq!(changes_in_cone(steps, &[], &all), steps);
    }

    #[test]
    fn the_short_form_counts_the_changes_past_a_step_line_s_length() {
        let all = ["table".to_owned(), "today".to_owned()];
        let row = |i: usize| {
            format!(
                "table[{i}] \"{i}. Rovers P1 W1 D0 L0 GF2 GA0\"→\"{i}. Athletic P1 W1 D0 L0 GF3 GA1\""
            )
        };
        let rows: Vec<String> = (0..4).map(row).collect();
        let steps = format!("2 result → v2: {}, today 1→2", rows.join(", "));
        // the cone holds the table: the first row fits, three more are counted, the day (outside) is dropped
        assert_eq!(
            changes_in_cone(&steps, &["table".to_owned()], &all),
            format!("2 result → v2: {}, +3 more, …", rows[0])
        );
        // with no cone, every change is the line's: counted the same way
        assert_eq!(
            changes_in_cone(&steps, &[], &all),
            format!("2 result → v2: {}, +4 more", rows[0])
        );
        // shorter changes: as many as fit
        let steps = "2 result → v2: today 1→2, table[0] \"a\"→\"b\", table[1] \"c\"→\"d\"";
        assert_eq!(changes_in_cone(steps, &[], &all), steps);
        // one change longer than the line is kept whole up to 240 characters, then cut
        let long = format!("2 result → v2: table[0] \"{}\"→\"b\"", "a".repeat(200));
        assert_eq!(changes_in_cone(&long, &[], &all), long);
        let longer = format!("2 result → v2: table[0] \"{}\"→\"b\"", "a".repeat(300));
        let cut = changes_in_cone(&longer, &[], &all);
        assert_eq!(cut.chars().count(), 240, "{cut}");
        assert!(
            cut.ends_with('…') && longer.starts_with(cut.trim_end_matches('…')),
            "{cut}"
        );
    }

    #[test]
    fn the_short_form_drops_the_count_the_step_numbers_say() {
        let steps = "… 2 steps that moved nothing upstream\n3 rent → v5: total 0→1";
        assert_eq!(without_idle_count(steps), "3 rent → v5: total 0→1");
        // the earlier steps latest_steps left out are counted still
        let steps = "… 4 earlier steps (2 moved nothing upstream)\n5 rent → v7: total 0→1";
        assert_eq!(without_idle_count(steps), steps);
    }

    #[test]
    fn clip_lines_keeps_whole_lines_and_says_what_it_left_out() {
        let text = (0..100)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let clipped = clip_lines(&text, 100);
        assert!(clipped.chars().count() <= 100, "{clipped}");
        assert!(clipped.starts_with("line 0\nline 1\n"));
        assert!(
            clipped.ends_with("more lines (over 100 characters)"),
            "{clipped}"
        );
        assert_eq!(clip_lines("a\nb", 100), "a\nb");
        let long = "x".repeat(5000);
        assert_eq!(clip_lines(&long, 2000).chars().count(), LINE_MAX_CHARS);
    }

    #[test]
    fn clip_head_keeps_the_end() {
        let text = (0..100)
            .map(|i| format!("step {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let clipped = clip_head(&text, 120);
        assert!(clipped.chars().count() <= 120, "{clipped}");
        assert!(clipped.starts_with("… "), "{clipped}");
        assert!(clipped.ends_with("step 98\nstep 99"));
        assert_eq!(clip_head("a\nb", 100), "a\nb");
    }
}
