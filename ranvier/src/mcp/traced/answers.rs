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

/// The short form of the steps `explain` dispatched before it explained: `dispatched: 3 messages → v7` (`version`,
/// the one they left), then the lines that say what did not settle (`not settled after 500 ms: ..` and the flights
/// still pending), which nothing else in the answer says. Empty for no steps.
pub(crate) fn dispatch_summary(steps: &str, version: u64) -> String {
    let count = steps.lines().filter(|line| is_step(line)).count();
    if count == 0 {
        return String::new();
    }
    let messages = if count == 1 { "message" } else { "messages" };
    let mut out = format!("dispatched: {count} {messages} → v{version}");
    // from `not settled after ..` to the `meanwhile → v..` line that ends what is still pending
    let mut pending = false;
    for line in steps.lines() {
        if line.starts_with("not settled after ") {
            pending = true;
        } else if line.starts_with("meanwhile → v") {
            pending = false;
        }
        if pending {
            out.push('\n');
            out.push_str(line);
        }
    }
    out
}

/// Whether a line of dispatched steps is a step (`3 book … → v6: …`, starting with its position).
fn is_step(line: &str) -> bool {
    line.split_once(' ')
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
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
    fn the_short_form_counts_the_steps_and_keeps_what_did_not_settle() {
        let steps = "1 add {\"n\":1} → v1: total 0→1\n2 add {\"n\":2} → v2: total 1→3\nv2: total=3";
        assert_eq!(dispatch_summary(steps, 2), "dispatched: 2 messages → v2");
        // an argument that reads like a version says nothing of the version
        let settled = "1 order {\"note\":\" → v9:\"} → v4: quote 0→(pending)\nsettled → v5: quote (pending)→450";
        assert_eq!(dispatch_summary(settled, 5), "dispatched: 1 message → v5");
        let waiting = "1 order → v4: quote 0→(pending)\nnot settled after 30 ms: 1 flight(s) still pending:\n  quote#3 \
                       since #40\nmeanwhile → v4: no exposed value changed";
        assert_eq!(
            dispatch_summary(waiting, 4),
            "dispatched: 1 message → v4\nnot settled after 30 ms: 1 flight(s) still pending:\n  quote#3 since #40"
        );
        assert_eq!(dispatch_summary("", 1), "");
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
