//! What an `update` arm reaches through its calls, from the source alone. An app whose `update` and helpers carry no
//! `#[trace_fn]` records nothing of what a message ran, so its answer had only the arm's own lines
//! (`Msg::AddLine { .. } => commands = add_line(&mut next, order, &sku, qty),`), and the helper that did the work was
//! never read. The fns the arm calls (by path, and methods of the app's own types), and those they call, stand in
//! for the records: each is taken as entered, with no branch known, and quoted as a fn that ran in an `update` is.

use super::source;
use crate::trace::log::Ran;

/// How many fns [`reached`] follows at most.
const REACHED_FNS: usize = 6;

/// How many calls deep [`reached`] follows.
const REACHED_DEPTH: usize = 2;

/// The fns the lines `span` of `file` call, and those they call ([`REACHED_DEPTH`] levels, at most [`REACHED_FNS`]),
/// as records of fns entered, in the order reached: what a `#[trace_fn]` on each would have recorded, without the
/// branches. The fn holding `span` (the `update` itself, called again by a catch-all arm) is not among them.
pub(super) fn reached(file: &'static str, span: source::Lines, built: &[Ran]) -> Vec<Reached> {
    let Some(index) = source::index(file) else {
        return Vec::new();
    };
    // (file, parsed file, lines followed, whether every call that led there could reach one fn only)
    let mut frontier = vec![(file, index, span, true)];
    let mut out: Vec<(source::Found, (&'static str, u32), bool)> = Vec::new();
    for _ in 0..REACHED_DEPTH {
        let mut next = Vec::new();
        for (file, index, span, sure) in &frontier {
            for call in index.calls.iter().filter(|c| span.holds(c.whole)) {
                let found: Vec<source::Found> = match (&call.method, &call.field, call.path.as_slice()) {
                    (Some(name), _, _) => source::resolve_method(file, name).into_iter().collect(),
                    // a fn held in a field (`(rules.on_advance)(..)`), a parameter or a local: the fns given it
                    (None, Some(field), _) => source::fns_in_field(file, field, built),
                    (None, None, [name]) if source::is_value(index, call.line, name) => {
                        source::fns_named(file, call.line, name, built)
                    }
                    (None, None, []) => Vec::new(),
                    (None, None, path) => source::resolve_fn(file, call.line, path).into_iter().collect(),
                };
                // a call that reaches one fn only, outside any branch of the lines followed (an `if`, an `else`
                // or a `match` arm inside them may not have run)
                let in_branch = index.ifs.iter().chain(&index.elses).any(|(_, block)| {
                    span.holds(*block) && *block != *span && block.contains(call.line)
                }) || index.arms.iter().any(|a| {
                    span.holds(a.body) && a.body != *span && a.body.contains(call.line) && a.arrow != span.first
                });
                let only = found.len() == 1 && !in_branch;
                for found in found {
                let whole = found.def().whole;
                // a fn that never returns (`fn refuse(why: String) -> !`) ends the message; it made no value
                if found.never_returns() {
                    continue;
                }
                let holds_span = found.file == *file && whole.holds(*span) && frontier[0].2 == *span;
                let seen = out.iter().any(|(o, _, _)| o.file == found.file && o.at == found.at);
                if holds_span || seen || out.len() >= REACHED_FNS {
                    continue;
                }
                next.push((found.file, found.index.clone(), whole, *sure && only));
                out.push((found, (*file, call.whole.first), *sure && only));
                }
            }
        }
        frontier = next;
    }
    out.into_iter()
        .map(|(f, called_at, sure)| Reached {
            ran: Ran {
                file: f.file,
                line: f.def().whole.first,
                value: None,
                entered: None,
                defaulted: false,
            },
            whole: f.def().whole,
            called_at,
            sure,
        })
        .collect()
}

/// A fn an arm reached: as the record of a fn entered, its lines, and the line of the call that reached it.
pub(super) struct Reached {
    /// The record a `#[trace_fn]` on it would have made on entry.
    pub ran: Ran,
    /// Its lines.
    pub whole: source::Lines,
    /// The file and line of the call that reached it (in the arm, or in a fn reached before it).
    pub called_at: (&'static str, u32),
    /// Whether each call on the way could reach this fn only: not one of the fns a field or a parameter may hold
    /// (`(rules.fill)(..)` with two fns put in `fill`), of which the run called one.
    pub sure: bool,
}

impl Reached {
    /// The line of the call that reached the fn holding `line` of `file`, among `reached`: a value a fn wrote or
    /// returned was made as much by the arguments its caller gave it (`set_score(fixture, away, home);`).
    pub(super) fn call_of(reached: &[Reached], file: &str, line: u32) -> Option<(&'static str, u32)> {
        reached
            .iter()
            .find(|r| r.ran.file == file && r.whole.contains(line))
            .map(|r| r.called_at)
    }
}

/// Whether line `at` of `file` ends the message there: it panics, or calls a fn that never returns (`refuse(..)`
/// with `fn refuse(why: String) -> !`). With no record of the branches, such a line is known not to have run in a
/// message `update` accepted.
pub(super) fn diverges(file: &str, index: &source::Index, at: u32) -> bool {
    let code = super::code_part(&index.lines[at as usize - 1]);
    ["panic!(", "unreachable!(", "todo!(", "unimplemented!("].iter().any(|m| code.contains(m))
        || index.calls.iter().any(|c| {
            c.whole.first == at
                && !c.path.is_empty()
                && source::resolve_fn(file, c.line, &c.path).is_some_and(|f| f.never_returns())
        })
}
