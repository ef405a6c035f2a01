//! What wrote the part of the value that changed: the explained node's latest run moved its value from the one
//! before (`"paid: 0 item(s) on 0 prescription(s)"` → `"paid: 2 item(s) on 0 prescription(s)"`), and the parts that
//! differ name the places its body wrote them through. For a text, the placeholders of the template that made it
//! whose text differs (`{}` ← `paid.items`); for any other value, the fields its `Debug` text changed
//! (`commission`). The body's lines that assign to those places (`paid.items += sale.items;`) are what decided the
//! new value, where a wrong accumulator, operand or variable is; the reads the answer quotes do not show them.
//! Source-side only: the trace records the two values, nothing more.

use super::template;
use super::{Ctx, NodeRecord, code_part, source};
use crate::trace::log::EventKind;

/// How many lines [`lines`] returns at most.
const CHANGED_LINES: usize = 3;

/// How many events before its latest move [`latest_change`] looks back for the explained node's run before.
const LOOK_BACK: u64 = 200_000;

/// The value `r`'s latest move gave it and the value it held before, as the trace recorded them (the run or write
/// that moved it before that one), when the trace still holds both.
pub(super) fn latest_change(ctx: &Ctx<'_>, r: &NodeRecord) -> Option<(String, String)> {
    let moved_to = |seq: u64| -> Option<String> {
        match ctx.event(seq)?.kind {
            EventKind::RunEnd {
                node,
                moved: true,
                value: Some(value),
                ..
            }
            | EventKind::Write {
                node,
                moved: true,
                value,
                ..
            } if node == r.id => Some(value.to_string()),
            _ => None,
        }
    };
    let last = r.last_moved;
    let now = moved_to(last)?;
    let stop = last.saturating_sub(LOOK_BACK).max(ctx.oldest).max(r.created);
    let mut seq = last;
    while seq > stop {
        seq -= 1;
        if let Some(before) = moved_to(seq) {
            return Some((now, before));
        }
    }
    None
}

/// The lines (0-based, in `r`'s file) of `r`'s creation call that made what changed between `before` and `value`:
/// the places a template's changed placeholders read, or the fields the `Debug` texts differ in, followed one step
/// back through the struct literals that set those fields (`reserved,` → the local `reserved`). First the
/// assignments to a place spelled as the placeholder's argument spells it (`paid.items += ..`), then, for a local,
/// its `let` and the assignments to it, then the `let` of what the loop around such an assignment walks (`for job in
/// queued {` → `let queued = ..`: which items it counted), then assignments to a place that only ends in the same
/// field (`sum.tax` for `t.tax`). At most [`CHANGED_LINES`]; none in `quoted`.
pub(super) fn lines(r: &NodeRecord, value: &str, before: &str, quoted: &[usize]) -> Vec<usize> {
    let file = r.site.file();
    let Some(index) = source::index(file) else { return Vec::new() };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return Vec::new();
    };
    let lines = &index.lines;
    let first = call.whole.first as usize - 1;
    let last = (call.whole.last as usize).min(lines.len());
    let mut paths = template::changed_args(lines, first, last, value, before);
    if paths.is_empty() {
        paths = changed_fields(value, before).into_iter().map(|f| vec![String::new(), f]).collect();
    }
    if paths.is_empty() {
        return Vec::new();
    }
    // a changed field a struct literal of the body sets from locals (`reserved,`, `free: left - held,`): those too
    let fields: Vec<&String> = paths.iter().filter(|p| p.len() >= 2).filter_map(|p| p.last()).collect();
    let mut more: Vec<Vec<String>> = Vec::new();
    for line in &lines[first..last] {
        let code = code_part(line).trim();
        let Some((field, expr)) = literal_init(code) else { continue };
        if fields.iter().any(|f| *f == field) {
            more.extend(template::places_read(expr).into_iter().filter(|p| p.len() == 1));
        }
    }
    for p in more {
        if !paths.contains(&p) {
            paths.push(p);
        }
    }
    let locals: Vec<&str> = paths.iter().filter(|p| p.len() == 1).map(|p| p[0].as_str()).collect();
    let mut exact = Vec::new();
    let mut local = Vec::new();
    let mut walked = Vec::new();
    let mut by_field = Vec::new();
    for i in first..last {
        let Some(place) = written_place(code_part(&lines[i])) else { continue };
        let (is_exact, is_local) = (paths.contains(&place) && place.len() >= 2, place.len() == 1 && locals.contains(&place[0].as_str()));
        if is_exact || is_local {
            // the loop around it, and what it walks
            if let Some(l) = loop_walked(lines, first, i) {
                walked.push(l);
            }
        }
        if is_exact {
            exact.push(i);
        } else if is_local {
            if let Some(l) = template::let_of(lines, first, i, &place[0]) {
                local.push(l);
            }
            local.push(i);
        } else if paths
            .iter()
            .any(|p| p.len() >= 2 && place.len() >= 2 && p.last() == place.last())
        {
            by_field.push(i);
        }
    }
    let mut out: Vec<usize> = Vec::new();
    for i in exact.into_iter().chain(local).chain(walked).chain(by_field) {
        if !quoted.contains(&i) && !out.contains(&i) {
            out.push(i);
        }
    }
    out.truncate(CHANGED_LINES);
    out
}

/// A struct literal's field line: its field and the expression it is set from (`free: left - held,` → `free`,
/// `left - held`; the shorthand `reserved,` → `reserved`, `reserved`).
fn literal_init(code: &str) -> Option<(&str, &str)> {
    let code = code.trim_end_matches(',').trim();
    if let Some(field) = super::literal_field(code) {
        let expr = code[field.len()..].trim_start().strip_prefix(':')?.trim();
        return Some((field, expr));
    }
    // a shorthand field alone on its line
    (!code.is_empty() && code.chars().all(|c| c.is_alphanumeric() || c == '_') && code.starts_with(|c: char| c.is_ascii_lowercase()))
        .then_some((code, code))
}

/// The `let` (0-based line) of the local that the `for` loop around line `at` walks (`for job in queued {` →
/// `let queued = jobs.iter().filter(..);`), when the loop is the nearest line above `at`, within `first..`, that is
/// indented less and opens a `for` over a bare local.
fn loop_walked(lines: &[String], first: usize, at: usize) -> Option<usize> {
    for l in super::enclosing(lines, first, at) {
        let code = code_part(&lines[l]).trim();
        if let Some(rest) = code.strip_prefix("for ")
            && let Some((_, walked)) = rest.split_once(" in ")
        {
            let walked = walked.trim_end_matches('{').trim().trim_start_matches('&');
            if walked.chars().all(|c| c.is_alphanumeric() || c == '_') && !walked.is_empty() {
                return template::let_of(lines, first, l, walked);
            }
            return None;
        }
    }
    None
}

/// The last field of each place where `before` and `after` (two `Debug` texts) differ (`[0].commission` →
/// `commission`), each once; none for a change of the whole value or of an element with no field.
fn changed_fields(after: &str, before: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in crate::trace::debug_diff::differences(before, after, 16) {
        let field = d
            .path
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .find(|w| !w.is_empty())
            .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'));
        if let Some(f) = field
            && !out.iter().any(|o| o == f)
        {
            out.push(f.to_owned());
        }
    }
    out
}

/// The place a statement assigns to or changes by a mutating call, as its names (`paid.items += 1;` →
/// `[paid, items]`, `*total += x;` → `[total]`, `totals[at].1.tax = t;` → `[totals, tax]`): not a `let`, and not a
/// comparison.
pub(super) fn written_place(code: &str) -> Option<Vec<String>> {
    let code = code.trim_start().trim_start_matches('}').trim_start();
    if code.starts_with("let ") || code.starts_with("if ") || code.starts_with("while ") || code.starts_with("match ")
    {
        return None;
    }
    let end = super::write_end(code)?;
    let place = code[..end]
        .trim_end()
        .trim_end_matches(['+', '-', '*', '/', '%', '|', '&', '^', '<', '>'])
        .trim();
    // a place is names and indexes: a call, a closure, a block or a pattern before the `=` is not one
    if place.contains(['(', '|', '{', ',', ' ']) {
        return None;
    }
    let mut names = Vec::new();
    let mut depth = 0;
    let mut word = String::new();
    for c in place.trim_start_matches('*').chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            c if depth == 0 && (c.is_alphanumeric() || c == '_') => {
                word.push(c);
                continue;
            }
            _ => {}
        }
        if !word.is_empty() {
            names.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        names.push(word);
    }
    // tuple fields (`.1`) say nothing of which field
    names.retain(|n| !n.starts_with(|c: char| c.is_ascii_digit()));
    (!names.is_empty()).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(code: &str) -> Option<Vec<String>> {
        written_place(code)
    }

    #[test]
    fn places_assigned_and_changed() {
        assert_eq!(place("paid.items += sale.items;"), Some(vec!["paid".into(), "items".into()]));
        assert_eq!(place("*total += x;"), Some(vec!["total".into()]));
        assert_eq!(place("totals[at].1.tax = t;"), Some(vec!["totals".into(), "tax".into()]));
        assert_eq!(place("lines.push(format!(\"a\"));"), Some(vec!["lines".into()]));
        assert_eq!(place("let x = 1;"), None);
        assert_eq!(place("if a == b {"), None);
        assert_eq!(place("f(x).y = 2;"), None);
        assert_eq!(place("a <= b"), None);
    }

    #[test]
    fn literal_fields_and_the_loops_around_a_line() {
        assert_eq!(literal_init("free: left - held,"), Some(("free", "left - held")));
        assert_eq!(literal_init("reserved,"), Some(("reserved", "reserved")));
        assert_eq!(literal_init("let x = 1;"), None);
        let lines: Vec<String> = [
            "let queued = jobs.iter().filter(|j| j.on == press);",
            "for job in queued {",
            "    if job.big {",
            "        count += 1;",
            "    }",
            "}",
            "for job in jobs.iter() {",
            "    count += 1;",
            "}",
        ]
        .iter()
        .map(|l| (*l).to_owned())
        .collect();
        assert_eq!(loop_walked(&lines, 0, 3), Some(0));
        assert_eq!(loop_walked(&lines, 0, 7), None);
    }

    #[test]
    fn fields_changed_in_debug_text() {
        let before = "[Settlement { sold: 1, commission: 10, fees: 3 }]";
        let after = "[Settlement { sold: 2, commission: 30, fees: 3 }]";
        assert_eq!(changed_fields(after, before), vec!["sold".to_owned(), "commission".to_owned()]);
        assert!(changed_fields(after, after).is_empty());
    }
}
