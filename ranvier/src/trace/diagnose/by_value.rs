//! Fns called through a value. A fn given as an argument (`promote(&mut gym, id, booking::next_in_line)`) or chosen
//! into a local (`let on_roll = attendance::days_on_roll;`) is called by the parameter's or local's name
//! (`next(&gym.bookings, id)`), so following calls by name through the source never reaches its body, and the
//! lines that follow the callers quote everything but it. A `#[trace_fn]` fn records that it ran, though: an entered
//! fn that no code which ran calls by name, in a run that called something that is not a fn of the crate, was called
//! through that value. Its lines come first among what ran, as a helper whose value fed what is explained.
//!
//! A fn chosen into a local by the body itself (`let compare = if head_to_head { by_meetings } else { by_goals };`
//! then `records.sort_by(|a, b| compare(a, b))`) is found in the source: the call reaches the fns that `let` names,
//! and of those the one in the branch the run recorded taking, not a fn of the crate that happens to share the
//! local's name.

use super::{code_part, entered_fns, idents, source};
use crate::trace::log::Ran;
use std::collections::HashSet;

/// The `#[trace_fn]` fns `ran` entered that were called through a value: those no body that ran (the entered fns',
/// and `caller`'s, the explained node's creation call) calls by name, when one of those bodies calls a name that is
/// no fn of the crate (a parameter or a local holding a fn). None when no body calls such a name: an entered fn
/// nobody calls by name was then called from code that records nothing.
pub(super) fn called_by_value(ran: &[Ran], caller: Option<(&'static str, source::Lines)>) -> HashSet<String> {
    let entered = entered_fns(ran);
    if entered.is_empty() {
        return HashSet::new();
    }
    // every body that ran: (file, parsed file, its lines, which entered fn it is)
    let mut bodies: Vec<(&'static str, std::sync::Arc<source::Index>, source::Lines, Option<usize>)> = entered
        .iter()
        .enumerate()
        .map(|(n, f)| (f.file, f.index.clone(), f.def().whole, Some(n)))
        .collect();
    if let Some((file, lines)) = caller
        && let Some(index) = source::index(file)
    {
        bodies.push((file, index, lines, None));
    }
    // a call of a single name that resolves to no fn of the crate: a fn value
    let calls_a_value = bodies.iter().any(|(file, index, lines, _)| {
        index.calls.iter().any(|c| {
            lines.holds(c.whole)
                && c.path.len() == 1
                && c.path[0].starts_with(|ch: char| ch.is_ascii_lowercase() || ch == '_')
                && source::resolve_fn(file, c.line, &c.path).is_none()
                && bound_above(index, c.line, &c.path[0])
        })
    });
    if !calls_a_value {
        return HashSet::new();
    }
    let fns = entered
        .iter()
        .enumerate()
        .filter(|(n, f)| {
            let name = &f.def().name;
            !bodies.iter().any(|(_, index, lines, of)| {
                *of != Some(*n)
                    && index
                        .calls
                        .iter()
                        .any(|c| lines.holds(c.whole) && c.path.last() == Some(name))
            })
        })
        .map(|(_, f)| f.def().name.clone())
        .collect::<HashSet<String>>();
    // and the entered fns those call by name (`night_charge` calling `is_weekend`): they made part of its value
    let called: Vec<String> = entered
        .iter()
        .filter(|f| fns.contains(&f.def().name))
        .flat_map(|f| {
            let whole = f.def().whole;
            f.index
                .calls
                .iter()
                .filter(move |c| whole.holds(c.whole))
                .filter_map(|c| c.path.last().cloned())
        })
        .filter(|name| entered.iter().any(|e| &e.def().name == name))
        .collect();
    let mut fns = fns;
    fns.extend(called);
    fns
}

/// Whether `name` is bound in the fn holding line `at` before it: as a parameter (`next: NextInLine`) or by a `let`
/// (`let on_roll = ..;`), so that a call of it calls a value (not a fn of another crate brought in by `use`).
fn bound_above(index: &source::Index, at: u32, name: &str) -> bool {
    let Some(def) = index
        .fns
        .iter()
        .filter(|f| f.whole.contains(at))
        .min_by_key(|f| f.whole.last - f.whole.first)
    else {
        return false;
    };
    (def.whole.first..at).any(|l| {
        let code = code_part(&index.lines[l as usize - 1]);
        idents(code).any(|(start, word)| {
            let before = code[..start].trim_end();
            let after = code[start + word.len()..].trim_start();
            word == name
                && ((after.starts_with(':') && !after.starts_with("::"))
                    || before.ends_with("let")
                    || before.ends_with("let mut"))
        })
    })
}

/// How many lines of a `let` statement [`let_bound_fns`] reads.
const LET_LINES: u32 = 8;

/// The fns of the crate a call of `name` on line `at` of `file` reaches when `name` is a local bound by a `let`
/// above it in the same fn (`let compare = if .. { standings::by_points } else { standings::by_goals };`): the paths
/// the `let` names that resolve to fns, and of them those right after a line `ran` recorded (the branch the run took),
/// when any is. `None` when `name` is no such local.
pub(super) fn let_bound_fns(index: &source::Index, file: &str, at: u32, name: &str, ran: &[Ran]) -> Option<Vec<source::Found>> {
    let def = index
        .fns
        .iter()
        .filter(|f| f.whole.contains(at))
        .min_by_key(|f| f.whole.last - f.whole.first)?;
    let first = (def.whole.first..at).rev().find(|&l| {
        let code = code_part(&index.lines[l as usize - 1]).trim_start();
        let rest = code.strip_prefix("let ").map(|r| r.trim_start_matches("mut ").trim_start());
        rest.is_some_and(|r| {
            r.strip_prefix(name)
                .is_some_and(|after| after.trim_start().starts_with(['=', ':']) && !after.trim_start().starts_with("=="))
        })
    })?;
    let last = (first..at.min(first + LET_LINES))
        .find(|&l| code_part(&index.lines[l as usize - 1]).trim_end().ends_with(';'))
        .unwrap_or(first);
    let recorded: Vec<u32> = ran.iter().filter(|r| r.file == file).map(|r| r.line).collect();
    let mut all: Vec<(u32, source::Found)> = Vec::new();
    for l in first..=last {
        let code = code_part(&index.lines[l as usize - 1]);
        for path in paths_in(code) {
            if let Some(found) = source::resolve_fn(file, l, &path)
                && !all.iter().any(|(_, f)| f.file == found.file && f.at == found.at)
            {
                all.push((l, found));
            }
        }
    }
    let taken: Vec<source::Found> =
        all.iter().filter(|(l, _)| recorded.contains(&(l - 1))).map(|(_, f)| f.clone()).collect();
    Some(if taken.is_empty() { all.into_iter().map(|(_, f)| f).collect() } else { taken })
}

/// The paths of two segments or more a line names (`standings::slipped::compare`), each as its segments: fns it may
/// name.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut words = idents(code).peekable();
    while let Some((start, word)) = words.next() {
        let mut path = vec![word.to_owned()];
        let mut end = start + word.len();
        while code[end..].starts_with("::") {
            match words.next() {
                Some((next, w)) if next == end + 2 => {
                    path.push(w.to_owned());
                    end = next + w.len();
                }
                _ => break,
            }
        }
        let callable = path.last().is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'));
        if path.len() > 1 && callable && !code[end..].trim_start().starts_with('(') {
            out.push(path);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_named_as_values_not_called() {
        assert_eq!(
            paths_in("let compare = if slip { standings::slipped::compare } else { standings::compare(a) };"),
            vec![vec!["standings".to_owned(), "slipped".to_owned(), "compare".to_owned()]]
        );
        assert!(paths_in("let x = Slip::Table;").is_empty());
    }

    #[test]
    fn a_name_bound_as_a_parameter_or_a_let_is_a_value() {
        let index = source::Index::parse(
            "fn promote(gym: &mut Gym, next: NextInLine) {\n    let number = next(&gym.bookings);\n    let pick = \
             choose;\n    pick(number);\n    drop(number);\n}\n",
        )
        .expect("parses");
        assert!(bound_above(&index, 2, "next"));
        assert!(bound_above(&index, 4, "pick"));
        assert!(!bound_above(&index, 5, "drop"));
        assert!(!bound_above(&index, 2, "pick"));
    }
}
