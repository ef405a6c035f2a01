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

/// The lines (0-based, in `r`'s file) of `r`'s creation call that assign to what changed between `before` and
/// `value`: the places a template's changed placeholders read, or the fields the `Debug` texts differ in. A place
/// spelled as the placeholder's argument spells it (`paid.items`) before one that only ends in the same field
/// (`sum.tax` for `t.tax`). At most [`CHANGED_LINES`], in source order within each; none in `quoted`.
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
    let mut exact = Vec::new();
    let mut by_field = Vec::new();
    for i in first..last {
        if quoted.contains(&i) {
            continue;
        }
        let Some(place) = written_place(code_part(&lines[i])) else { continue };
        if paths.contains(&place) {
            exact.push(i);
        } else if paths
            .iter()
            .any(|p| p.len() >= 2 && place.len() >= 2 && p.last() == place.last())
        {
            by_field.push(i);
        }
    }
    exact.extend(by_field);
    exact.truncate(CHANGED_LINES);
    exact
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
    let end = match (super::assignment_at(code), super::mutating_call_at(code)) {
        (Some(a), Some(m)) => a.min(m),
        (Some(a), None) => a,
        (None, Some(m)) => m,
        (None, None) => return None,
    };
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
    fn fields_changed_in_debug_text() {
        let before = "[Settlement { sold: 1, commission: 10, fees: 3 }]";
        let after = "[Settlement { sold: 2, commission: 30, fees: 3 }]";
        assert_eq!(changed_fields(after, before), vec!["sold".to_owned(), "commission".to_owned()]);
        assert!(changed_fields(after, after).is_empty());
    }
}
