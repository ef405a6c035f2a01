//! What a run ran, as `#[node]` and `#[trace_fn]` recorded it: the branches taken, the fns entered and the values
//! shadowing `let`s bound, turned into the lines that decided a value (`ran:`); and, where nothing was recorded, which
//! branches the source shows could not have run.

use super::*;

/// How many lines a `ran:` finding (or the records of an `update`) quotes.
pub(super) const RAN_LINES: usize = 4;

/// How many lines of a `#[trace_fn]` fn that ran are quoted for it (the lines that decide its value, or in an
/// `update` the lines that change state).
pub(super) const RAN_FN_LINES: usize = 2;

/// A `#[trace_fn]` fn that ran: its file's index, its definition and its file.
pub(super) type Entered = (Arc<source::Index>, source::FnDef, &'static str);

/// The lines that say what ran, from the records `#[node]` and `#[trace_fn]` made (`ran`, in the order made): a
/// branch's line; a shadowing `let`'s line with the value it bound (`→ 14`); for a fn entered, the lines of its
/// body that decide its value (in an `update`, `writes`: first the lines that change state), not its signature,
/// which only says it ran. At most `max` lines, none twice.
pub(super) fn ran_lines(ran: &[crate::trace::log::Ran], writes: bool, max: usize) -> Vec<SourceLine> {
    ran_lines_ordered(ran, writes, false, &HashSet::new(), max)
}

/// The names of the fns whose values flow, in the fns `ran` entered, into a line that names a field in `read`
/// (`cents: ride,` with `read` holding `cents`): the calls on such lines and on the `let`s that bound the names they
/// use (`let ride = ride_charge(..)` → `ride_charge`). The helpers that made what the cone reads, by the source.
pub(super) fn fns_feeding(ran: &[crate::trace::log::Ran], read: &HashSet<String>) -> HashSet<String> {
    let mut out = HashSet::new();
    for found in entered_fns(ran) {
        let def = found.def();
        feeding_in(found.file, &found.index.lines, def.whole.first, def.whole.last, read, &mut out);
    }
    out
}

/// [`fns_feeding`] over lines `first..last` (1-based, the first a `fn` line or an arm's pattern) of `file`: adds to
/// `out` the names of the fns called on the lines that name a field in `read` and on the `let`s that bound what
/// those use, a call through a field holding a fn (`quoted: (rules.quote)(grams, service),`) by the names of the
/// fns put in that field.
fn feeding_in(
    file: &str,
    lines: &[String],
    first: u32,
    last: u32,
    read: &HashSet<String>,
    out: &mut HashSet<String>,
) {
    let mut slice: Vec<u32> = Vec::new();
    for l in first + 1..last {
        let code = code_part(&lines[l as usize - 1]);
        if names_read_field(code, read) {
            slice.push(l);
            // the lets that bound the names the line uses
            for bound in lets_binding(lines, first, l, code) {
                if !slice.contains(&bound) {
                    slice.push(bound);
                }
            }
        }
    }
    for l in slice {
        let code = code_part(&lines[l as usize - 1]);
        for (at, word) in idents(code) {
            let after = &code[at + word.len()..];
            if after.starts_with('(') {
                out.insert(word.to_owned());
            } else if after.starts_with(")(") {
                out.extend(source::fns_in_field(file, word, &[]).iter().map(|f| f.def().name.clone()));
            }
        }
    }
}

/// Whether `code` names a field in `read`: `x.cents`, `cents: ride`, or the shorthand `Charge { booking, cents }`.
pub(super) fn names_read_field(code: &str, read: &HashSet<String>) -> bool {
    idents(code).any(|(at, word)| {
        let (before, after) = (code[..at].trim_end(), code[at + word.len()..].trim_start());
        let shorthand = (before.is_empty() || before.ends_with([',', '{']))
            && (after.is_empty() || after.starts_with([',', '}']));
        read.contains(word) && (before.ends_with('.') || after.starts_with(':') || shorthand)
    })
}

/// How many values left unsent in a branch that did not run [`unsent_values`] quotes.
pub(super) const UNSENT_VALUES: usize = 2;

/// In the fns `ran` entered: the lines that would have sent a value a helper computed in the run, but sit in a branch
/// that did not run (`if late { .. commands.push(Msg::Post { cents: tax, .. }) }`, with `let tax =
/// folio::city_tax(..);` run above it): the value was computed and never sent, because it was put in the wrong
/// branch or its branch was wrongly not taken. Only a line naming a field in `read` (what the cone reads) counts,
/// and only a value bound by a `let` that ran and calls a fn of the app (not a method or a constructor:
/// `hotel.rates.clone()` and `Vec::new()` computed nothing). Each as the branch's line and the first line of the
/// statement holding the value, at most [`UNSENT_VALUES`].
pub(super) fn unsent_values(ran: &[crate::trace::log::Ran], read: &HashSet<String>) -> Vec<SourceLine> {
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
pub(super) fn unwritten_arm(ran: &[crate::trace::log::Ran], read: &HashSet<String>, variants: &HashSet<String>) -> Option<SourceLine> {
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

/// In the fns `ran` entered, the first `if` with no `else` inside a `for` loop, picking an item by a field equal to a
/// parameter ([`picks_by_parameter`]), that did not run in any turn of the loop, whose block writes a field named in
/// `read` (what the cone reads), as its `if` line (`if bin.no == block {` above `bin.grade = downgraded(..)`): no
/// item was the one the call named, so the message's value missed every write the block would have made. The
/// comparison is a suspect (the wrong field compared).
pub(super) fn unwritten_if(ran: &[crate::trace::log::Ran], read: &HashSet<String>) -> Option<SourceLine> {
    looped_ifs_that_never_ran(ran).into_iter().find_map(|(found, at, block)| {
        let (lines, def) = (&found.index.lines, found.def());
        let writes_read = (block.first..=block.last).any(|l| {
            let text = &lines[l as usize - 1];
            is_code(text) && writes_line(text) && names_read_field(code_part(text), read)
        });
        (picks_by_parameter(code_part(&lines[at as usize - 1]), &def.params) && writes_read)
            .then(|| numbered(found.file, lines, at as usize - 1))
    })
}

/// In the fns `ran` entered, the first `if` with no `else` inside a `for` loop whose condition calls a fn the helper
/// was given as a parameter (`if wilted(batch, today) {` in `fn wastage(shop: &mut Shop, wilted: Wilted)`), that held
/// for no item: its `if` line, then the line deciding the value of each fn of the crate the parameter may hold (the
/// callers' arguments followed, `given.rs`). The predicate said no to every item, so whatever the block would have
/// done was not done; the predicate is the suspect.
pub(super) fn unchosen_by_predicate(ran: &[crate::trace::log::Ran]) -> Vec<SourceLine> {
    for (found, at, _) in looped_ifs_that_never_ran(ran) {
        let (lines, def, file) = (&found.index.lines, found.def(), found.file);
        let Some(predicate) = called_parameter(code_part(&lines[at as usize - 1]), &def.params) else {
            continue;
        };
        let out = with_fns_held(file, lines, at, predicate, ran);
        if out.len() > 1 {
            return out;
        }
    }
    Vec::new()
}

/// Line `at` of `file` (which calls the fn parameter `predicate`), then the line deciding the value of each fn of
/// the crate the parameter may hold (the callers' arguments followed, `given.rs`), each once.
fn with_fns_held(
    file: &'static str,
    lines: &[String],
    at: u32,
    predicate: &str,
    ran: &[crate::trace::log::Ran],
) -> Vec<SourceLine> {
    let mut out = vec![numbered(file, lines, at as usize - 1)];
    for held in source::fns_named(file, at, predicate, ran) {
        let hl = &held.index.lines;
        if let Some(i) = held.def().value.iter().flat_map(|v| deciding_lines(hl, v)).next() {
            let line = numbered(held.file, hl, i);
            if !out.iter().any(|l| l.site == line.site) {
                out.push(line);
            }
        }
    }
    out
}

/// In the fns `ran` entered that build commands (`.map(|o| Msg::Ready { .. })`), the first `.filter(..)` whose
/// closure calls a fn the helper was given as a parameter (`published(b, shop.today)` in `fn published_today(shop:
/// &Shop, published: fn(&Book, u32) -> bool)`): that line, then the line deciding the value of each fn of the crate
/// the parameter may hold (the callers' arguments followed, `given.rs`). For a message that sent no command: the
/// predicate let no item through, and is the suspect.
pub(super) fn filtered_out_by_predicate(ran: &[crate::trace::log::Ran]) -> Vec<SourceLine> {
    for found in entered_fns(ran) {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let lines = &index.lines;
        if !(def.whole.first..def.whole.last).any(|l| builds_variant(code_part(&lines[l as usize - 1]))) {
            continue;
        }
        let filters = index.calls.iter().filter(|c| {
            def.whole.holds(c.whole) && c.method.as_deref() == Some("filter") && c.closure.is_some()
        });
        for call in filters {
            let Some(body) = call.closure.as_ref().map(|c| c.body) else { continue };
            let calls_parameter = (body.first..=body.last).find_map(|l| {
                let code = code_part(&lines[l as usize - 1]);
                let name = def.params.iter().find(|p| {
                    idents(code).any(|(i, word)| word == p.as_str() && code[i + word.len()..].starts_with('('))
                })?;
                Some((l, name))
            });
            let Some((at, predicate)) = calls_parameter else { continue };
            let out = with_fns_held(file, lines, at, predicate, ran);
            if out.len() > 1 {
                return out;
            }
        }
    }
    Vec::new()
}

/// The `if`s with no `else` inside a `for` loop of the fns `ran` entered whose block ran in no turn of the loop
/// though the `if` was reached (no enclosing arm or `if` left untaken): each with its fn, its `if` line and its block.
fn looped_ifs_that_never_ran(ran: &[crate::trace::log::Ran]) -> Vec<(source::Found, u32, source::Lines)> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    let mut out = Vec::new();
    for found in entered_fns(ran) {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let lines = &index.lines;
        for &(at, block) in index.ifs.iter().filter(|(at, _)| def.whole.contains(*at) && *at > def.whole.first) {
            let has_else = index.elses.iter().any(|(e, _)| *e == block.last)
                || code_part(&lines[block.last as usize - 1]).contains("else");
            if !(recorded.contains(&(file, at))
                || has_else
                || not_taken(index, def.whole, file, &recorded, at)
                || super::loops::enclosing_for(lines, def.whole.first as usize - 1, at as usize - 1).is_none())
            {
                out.push((found.clone(), at, block));
            }
        }
    }
    out
}

/// The parameter of the fn an `if` calls as its whole condition (`wilted` in `if wilted(batch, today) {`, `if
/// !(rules.keep)(x) {` is not one: a field, not a parameter).
fn called_parameter<'a>(code: &str, params: &'a [String]) -> Option<&'a str> {
    let condition = code.trim().strip_prefix("if ")?.trim_end().strip_suffix('{')?.trim();
    let condition = condition.strip_prefix('!').unwrap_or(condition);
    let (name, rest) = condition.split_once('(')?;
    // the call's closing parenthesis ends the condition
    let mut depth = 1;
    let closes = rest.char_indices().find_map(|(i, c)| {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        (depth == 0).then_some(i)
    });
    let whole = closes == Some(rest.len() - 1);
    params.iter().find(|p| *p != "_" && p.as_str() == name.trim()).filter(|_| whole).map(String::as_str)
}

/// Whether `code` is an `if` that picks an item by comparing one of its fields with a parameter of the fn (`if
/// bin.block == block {`, `if *id == show {`): the item the call was given. When no item passed it, the comparison
/// is the suspect (the wrong field).
fn picks_by_parameter(code: &str, params: &[String]) -> bool {
    let Some(condition) = code.trim().strip_prefix("if ").and_then(|c| c.trim_end().strip_suffix('{')) else {
        return false;
    };
    let Some((left, right)) = condition.split_once(" == ") else {
        return false;
    };
    let is_param = |side: &str| params.iter().any(|p| p != "_" && side.trim().trim_start_matches('*') == p);
    let is_field = |side: &str| {
        let side = side.trim();
        side.split_once('.').is_some_and(|(item, field)| {
            [item, field].iter().all(|w| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_'))
        })
    };
    !right.contains(" == ") && ((is_param(left) && is_field(right)) || (is_field(left) && is_param(right)))
}

/// Whether the line at `file:line` is a `match` arm whose body is empty (`Status::NoShow => {}`, `_ => (),`).
fn empty_arm(file: &'static str, line: u32) -> bool {
    source::index(file).is_some_and(|index| index.lines.get(line as usize - 1).is_some_and(|text| empty_arm_code(text)))
}

/// Whether `text` is a `match` arm with an empty body and no guard (a guard, `Some(top) if top <= total => {}`,
/// decided to do nothing: such an arm stays where it ran).
fn empty_arm_code(text: &str) -> bool {
    let code = code_part(text).trim_end().trim_end_matches(',');
    (code.ends_with("=> {}") || code.ends_with("=> ()")) && !code.contains(" if ")
}

/// The identifiers of `code` with where each starts.
pub(super) fn idents(code: &str) -> impl Iterator<Item = (usize, &str)> {
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
pub(super) const ARITHMETIC: [&str; 5] = [" + ", " - ", " * ", " / ", " % "];

/// Whether `text` computes with an arithmetic operator ([`ARITHMETIC`]).
pub(super) fn has_arithmetic(text: &str) -> bool {
    ARITHMETIC.iter().any(|op| text.contains(op))
}

/// The local names an expression reads, in order, each once: not a field or method (`.name`), a path segment
/// (`a::b`), a fn or macro called (`f(`, `m!`), a keyword, or a capitalised name.
pub(super) fn read_names(expr: &str) -> Vec<String> {
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
pub(super) fn ran_lines_ordered(
    ran: &[crate::trace::log::Ran],
    writes: bool,
    choices_first: bool,
    feeding: &HashSet<String>,
    max: usize,
) -> Vec<SourceLine> {
    ran_lines_of(ran, writes, choices_first, feeding, max, false)
}

/// [`ran_lines_ordered`]; with `unknown_branches`, `ran` holds only fns taken as entered ([`reached::reached`]),
/// with no record of their branches: no line is left out as one in a branch that did not run.
pub(super) fn ran_lines_of(
    ran: &[crate::trace::log::Ran],
    writes: bool,
    choices_first: bool,
    feeding: &HashSet<String>,
    max: usize,
    unknown_branches: bool,
) -> Vec<SourceLine> {
    // the records, grouped by the fn entered before them (a group of its own for those made before any): the fn
    // entered last is the innermost helper, whose lines say more than its callers' (which the answer quotes
    // anyway), so the groups go latest first
    let mut groups: Vec<(Option<Entered>, Vec<&crate::trace::log::Ran>)> = vec![(None, Vec::new())];
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
    // a fn that ran and read as a slip (`taken = take;` after `let mut taken = 0;`, `set_score(fixture, away,
    // home)`): first
    for (index, def, file) in inside.iter().filter_map(|(d, _)| d.as_ref()) {
        let not_run = |at: u32| did_not_run(unknown_branches, index, def.whole, file, &recorded, at);
        for i in super::smell::smells(file, index, def.whole) {
            let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if !not_run(at) {
                push(&mut out, file, at, index.lines[i].trim().to_owned());
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
            let not_run = |at: u32| did_not_run(unknown_branches, index, def.whole, file, &recorded, at);
            for at in dropped_results(index, def, file).into_iter().filter(|at| !not_run(*at)) {
                let text = index.lines[at as usize - 1].trim().to_owned();
                push(&mut out, file, at, text);
            }
        }
        // a fn that ran and filled a local it then dropped (`follow.push(Msg::Finish { .. })` and `Ok(Vec::new())`)
        // lost what it built there: the fill and the value it returned instead, first
        for (index, def, file) in inside.iter().filter_map(|(d, _)| d.as_ref()) {
            let not_run = |at: u32| did_not_run(unknown_branches, index, def.whole, file, &recorded, at);
            for (fills, value) in dropped_locals(index, def) {
                // the first fill that ran, and the value returned, when it ran
                if let Some(fill) = fills.into_iter().find(|at| !not_run(*at))
                    && !not_run(value)
                {
                    for at in [fill, value] {
                        let text = index.lines[at as usize - 1].trim().to_owned();
                        push(&mut out, file, at, text);
                    }
                }
            }
        }
    }
    // the helpers whose values flow into what the cone reads (`feeding`) first, then the others; latest first within
    let feeds = |e: &Option<Entered>| e.as_ref().is_some_and(|(_, def, _)| feeding.contains(&def.name));
    let mut ordered: Vec<&(Option<Entered>, Vec<&crate::trace::log::Ran>)> = inside
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
        // a `match` arm that ran and did nothing (`Status::Attended | Status::Cancelled => {}`) after the records
        // beside it: in a loop it may have run first, but the arm that did something made the value
        let (empty, rest): (Vec<&crate::trace::log::Ran>, Vec<_>) =
            records.iter().copied().partition(|r| r.value.is_none() && empty_arm(r.file, r.line));
        let records: Vec<&crate::trace::log::Ran> = rest.into_iter().chain(empty).collect();
        let records = &records;
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
                // an `else` that ran: the condition that sent the run there decided, quoted in its place as false
                if r.value.is_none()
                    && let Some(index) = source::index(r.file)
                    && let Some(head) = if_of_else(&index, r.line)
                {
                    push(out, r.file, head, format!("{} → false", index.lines[head as usize - 1].trim()));
                } else {
                    push(out, r.file, r.line, text);
                }
                // a `_` arm that ran took a value the range arms above it let through (`1..=2 => 10,` for a 3): they
                // decided as much, nearest first
                if r.value.is_none()
                    && let Some(index) = source::index(r.file)
                {
                    for at in ranges_passed(&index, r.file, r.line, &recorded) {
                        push(out, r.file, at, index.lines[at as usize - 1].trim().to_owned());
                    }
                }
                // a branch that left the loop or the fn at once (`if left == 0 { break; }`): where it went decided
                if r.value.is_none()
                    && let Some((at, exit)) = source::index(r.file).and_then(|index| exit_of(&index, r.line))
                {
                    push(out, r.file, at, exit);
                }
                // in an `update` that sent commands, a branch whose statement builds a message (`vec![Msg::PlanWalks {
                // stay: stay.id }]`) chose what was sent and with what: before the `let`s of its condition
                if choices_first
                    && r.value.is_none()
                    && let Some(index) = source::index(r.file)
                    && let Some(at) = branch_action(&index, r.file, r.line, &recorded)
                    && builds_variant_with_fields(&index.lines[at as usize - 1])
                {
                    push(out, r.file, at, index.lines[at as usize - 1].trim().to_owned());
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
                // and in no fn entered (a node's own body), within the fn holding it, a `let` over several lines
                // whose first only names what it starts from, by the line of it that decides (`.filter(|scan|
                // scan.day == today)` of `let rides = r.scans.iter()...count();`; a one-line `let` is the body's)
                if r.value.is_none()
                    && entered.is_none()
                    && let Some(index) = source::index(r.file)
                    && let Some(def) = index.fn_at(r.line)
                {
                    for at in lets_read_by(&index.lines, def, r.line) {
                        if let Some(i) = let_deciding_line(&index.lines, at) {
                            let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
                            push(out, r.file, line, index.lines[i].trim().to_owned());
                        }
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

/// How many range arms above a `_` arm that ran [`ranges_passed`] gives.
const RANGES_PASSED: usize = 2;

/// When line `at` of `file` is the `=>` of a `_` arm (no guard) with no branch recorded inside it: the `=>` lines of
/// the arms above it in its `match` whose patterns hold a range, nearest first (at most [`RANGES_PASSED`]): the value
/// that reached `_` fell outside them. (A branch recorded inside the arm says where the run went from there.)
fn ranges_passed(index: &source::Index, file: &str, at: u32, recorded: &HashSet<(&str, u32)>) -> Vec<u32> {
    let Some(wild) = index.arms.iter().find(|a| a.arrow == at && a.wildcard) else { return Vec::new() };
    if recorded.iter().any(|(f, l)| *f == file && *l != at && wild.body.contains(*l)) {
        return Vec::new();
    }
    let mut above: Vec<u32> = index
        .arms
        .iter()
        .filter(|a| a.of_match == wild.of_match && a.in_fn == wild.in_fn && a.range && a.arrow < at)
        .map(|a| a.arrow)
        .collect();
    above.sort_unstable_by(|a, b| b.cmp(a));
    above.truncate(RANGES_PASSED);
    above
}

/// The `if` (or `else if`) line whose `else` block is recorded at `at` (the `else` token's line): the block of
/// that `if` ends on the `else`'s line. `None` for a `let .. else` and for a line that is no `else`.
fn if_of_else(index: &source::Index, at: u32) -> Option<u32> {
    if !index.elses.iter().any(|(line, _)| *line == at) {
        return None;
    }
    index
        .ifs
        .iter()
        .filter(|(line, block)| block.last == at && *line < at)
        .map(|(line, _)| *line)
        .max()
}

/// How a finding on the explained node names the value it kept, which the node line shows: the value when it is
/// shorter than saying so (`3`), else `its value`.
pub(super) fn kept_text(value: &str) -> String {
    const ITS_VALUE: &str = "its value";
    let short = short_text(value);
    if short.chars().count() <= ITS_VALUE.len() {
        short
    } else {
        ITS_VALUE.to_owned()
    }
}

/// Whether a line shadows a handle with its value and does nothing else (`let stays = stays.get();`).
pub(super) fn shadows_with_value(line: &str) -> bool {
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
pub(super) fn copies_a_parameter(file: &str, at: u32, text: &str) -> bool {
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
    let Some(def) = index.fn_at(at)
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
pub(super) const READ_AFTER_WRITE_LINES: usize = 2;

/// The pairs of lines of the fn spanning `whole` where an assignment to a field (`booking.showing = to.to_owned();`)
/// is followed within [`READ_AFTER_WRITE_LINES`] code lines by a `let` that reads that field
/// (`let from = booking.showing.clone();`): the `let` binds the value just written, not the one before it.
pub(super) fn read_after_write(lines: &[String], whole: source::Lines) -> Vec<(u32, u32)> {
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
pub(super) fn only_wraps(line: &str) -> bool {
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
pub(super) fn guard_not_taken(
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
pub(super) fn exit_of(index: &source::Index, at: u32) -> Option<(u32, String)> {
    let (_, block) = index.ifs.iter().find(|(line, _)| *line == at)?;
    let first = (block.first + 1..block.last).find(|l| is_code(&index.lines[*l as usize - 1]))?;
    let code = code_part(&index.lines[first as usize - 1]).trim();
    let leaves = ["break", "continue", "return"];
    if starts_with_word(code, &leaves) {
        return Some((first, code.to_owned()));
    }
    // a block that does something, then leaves (`lesson.enrolled.remove(at); return Vec::new();`): where it went
    let last = last_leaves(index, *block, &leaves)?;
    Some((last, code_part(&index.lines[last as usize - 1]).trim().to_owned()))
}

/// Whether line `at` of a fn `within` did not run: with the branches recorded, it lies in one not taken
/// ([`not_taken`]); with none known (`unknown_branches`, a fn [`reached::reached`] took as entered), it ends the
/// message ([`reached::diverges`]).
pub(super) fn did_not_run(
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
pub(super) fn branch_action(index: &source::Index, file: &str, at: u32, recorded: &HashSet<(&str, u32)>) -> Option<u32> {
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
pub(super) fn branch_block(index: &source::Index, at: u32) -> Option<source::Lines> {
    index
        .ifs
        .iter()
        .find(|(line, _)| *line == at)
        .map(|(_, block)| *block)
        .or_else(|| index.arms.iter().find(|a| a.arrow == at).map(|a| a.body))
}

/// `lines` with, after each line inside a block (an `if`'s, an `else`'s, a `match` arm's) that ends by leaving
/// (`break;`, `continue;`, `return ..;`), that leaving statement: a loop that stops at the first failure
/// (`Err(why) => { lines.push(..); break; }`) made its value as much by the `break` as by the push. Once per block; a
/// line quoted already is not quoted again.
pub(super) fn block_exits(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    follow_each(lines, |line, quoted| {
        let (file, at) = (line.site.file, line.site.line);
        let index = source::index(file)?;
        // the `else` block the line opens (a `let .. else`'s `else {` on a line of its own: quoted, it ran), or the
        // innermost block holding the line, below its opening line
        let code = code_part(&index.lines[at as usize - 1]).trim_start();
        let opens_else = code.starts_with("else") || code.starts_with("} else");
        let opened = index
            .elses
            .iter()
            .find(|(l, b)| opens_else && *l == at && b.first <= at && at < b.last)
            .map(|(_, b)| *b);
        let block = opened.or_else(|| {
            index
                .ifs
                .iter()
                .chain(&index.elses)
                .map(|(_, b)| *b)
                .chain(index.arms.iter().filter(|a| a.body.first < a.body.last).map(|a| a.body))
                .filter(|b| b.first < at && at < b.last)
                .min_by_key(|b| b.last - b.first)
        })?;
        let leaves = last_leaves(&index, block, &["break", "continue", "return"])?;
        (leaves > at && quoted.insert((file, leaves))).then(|| numbered(file, &index.lines, leaves as usize - 1))
    })
}

/// `lines` with, after each line, the lines `follow` gives for it (given the lines quoted so far, which it adds the
/// lines it gives to, so that none is quoted twice): the post-passes that bring, after a quoted line, the lines that
/// complete it.
pub(super) fn follow_each<I: IntoIterator<Item = SourceLine>>(
    lines: Vec<SourceLine>,
    mut follow: impl FnMut(&SourceLine, &mut HashSet<(&'static str, u32)>) -> I,
) -> Vec<SourceLine> {
    let mut out: Vec<SourceLine> = Vec::with_capacity(lines.len());
    let mut quoted: HashSet<(&'static str, u32)> = lines.iter().map(|l| (l.site.file, l.site.line)).collect();
    for line in lines {
        let next = follow(&line, &mut quoted);
        out.push(line);
        out.extend(next);
    }
    out
}

/// `lines` with, after each `if` line whose block holds no quoted line, the block's first statement
/// ([`branch_action`]) when it makes the value ([`makes_value`]): what the branch did when it ran (`if until >=
/// stay.depart {` → `break;`, `if service.dried() {` → `cents += kilos * prices::DRY_PER_KILO;`). The condition alone
/// says when the branch runs, not what it does to the value. Once per line; a line quoted already is not quoted again.
pub(super) fn if_actions(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    let none = HashSet::new();
    follow_each(lines, |line, quoted| {
        let (file, at) = (line.site.file, line.site.line);
        let index = source::index(file)?;
        let (_, block) = index.ifs.iter().find(|(l, _)| *l == at)?;
        // in a fn whose branches are recorded (`#[trace_fn]`, `#[node]`), an `if` quoted alone did not take its
        // block; a block with a line quoted already shows what it did
        if index.fn_at(at).is_some_and(|def| records_branches(&index.lines, def.whole.first))
            || quoted.iter().any(|(f, l)| *f == file && *l != at && block.contains(*l))
        {
            return None;
        }
        let action = branch_action(&index, file, at, &none)?;
        (makes_value(&index.lines[action as usize - 1]) && quoted.insert((file, action)))
            .then(|| numbered(file, &index.lines, action as usize - 1))
    })
}

/// Whether `line` builds an enum variant with fields (`Msg::PlanWalks { stay: stay.id }`, `Msg::Refund(back)`): a
/// path whose last segment is capitalised, then its fields.
fn builds_variant_with_fields(line: &str) -> bool {
    let code = code_part(line);
    code.match_indices("::").any(|(at, _)| {
        let rest = &code[at + 2..];
        let name = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        rest.starts_with(|c: char| c.is_ascii_uppercase()) && rest[name..].trim_start().starts_with(['{', '('])
    })
}

/// Whether the fn whose signature is on line `first` (1-based) carries an attribute that records its branches in
/// traced builds (`#[ranvier::trace_fn]`, `#[node]`): its attributes are the lines just above it.
fn records_branches(lines: &[String], first: u32) -> bool {
    lines[..(first as usize).saturating_sub(1).min(lines.len())]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("#[") || l.starts_with("///") || l.starts_with("//"))
        .any(|l| l.starts_with("#[") && (l.contains("trace_fn") || l.contains("node]") || l.contains("node(")))
}

/// `lines` with, after each `match` line whose tested expression reads a local bound by the statement just above it
/// (`let amount = f64::from(stay.deposit);` above `match processor.hold(&stay.owner, amount).await {`), that `let`:
/// the value the arms chose on was made there, for this `match` ([`super::arm::scrutinee_lets`] finds the `let` of a
/// `match` that tests a local alone). A one-line `let` of one name, which computes ([`has_arithmetic`] or a call);
/// once.
pub(super) fn match_lets_just_above(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    follow_each(lines, |line, quoted| {
        let (file, at) = (line.site.file, line.site.line);
        let index = source::index(file)?;
        let here = code_part(index.lines.get((at as usize).checked_sub(1)?)?).trim_start();
        if !here.starts_with("match ") {
            return None;
        }
        let above = (1..at).rev().find(|l| is_code(&index.lines[*l as usize - 1]))?;
        let (name, rhs) = one_name_let(&index.lines[above as usize - 1])?;
        let computes = has_arithmetic(rhs) || rhs.contains('(');
        let reads = idents(here).any(|(_, w)| w == name);
        (computes && reads && quoted.insert((file, above))).then(|| numbered(file, &index.lines, above as usize - 1))
    })
}

/// Whether a branch's statement makes a value or moves the run: it writes a place (`cents += kilos * rate;`), leaves
/// a loop (`break;`, `continue;`), is the branch's value (`today + days`), returns a value made of no text, or builds
/// a message. A line that only words a refusal or a notice (`return Err(format!(..))`, `kennels.note(why);`) does not.
pub(super) fn makes_value(line: &str) -> bool {
    let code = code_part(line).trim();
    if code.contains("format!(") || code.contains("Err(") || code.contains('"') {
        return false;
    }
    let words = |w: &str| code == w || code.starts_with(&format!("{w};")) || code.starts_with(&format!("{w} "));
    let assigns = ARITHMETIC_ASSIGN.iter().any(|op| code.contains(op))
        || code.split_once(" = ").is_some_and(|(place, _)| !place.contains('(') && !place.starts_with("let "));
    let tail = !code.ends_with(';') && !code.ends_with('{') && !code.ends_with('(') && !code.ends_with(',');
    let returns = code.starts_with("return ") && code != "return;";
    assigns || words("break") || words("continue") || tail || returns || builds_variant(code)
}

/// The compound assignments.
const ARITHMETIC_ASSIGN: [&str; 5] = [" += ", " -= ", " *= ", " /= ", " %= "];

/// Whether another branch is recorded inside the block of the branch at line `at`.
pub(super) fn holds_a_branch(index: &source::Index, file: &str, at: u32, recorded: &HashSet<(&str, u32)>) -> bool {
    branch_block(index, at).is_some_and(|block| (at + 1..=block.last).any(|l| recorded.contains(&(file, l))))
}

/// The line of the `else if` chained after the `if` block at line `at` (its `} else if` line closes that block)
/// when it did not run (no record in `recorded`) and its block builds a variant of an enum (`Msg::Notify { .. }`):
/// a command the branch that ran at `at` shut out.
pub(super) fn else_if_shut_out(index: &source::Index, at: u32, file: &str, recorded: &HashSet<(&str, u32)>) -> Option<u32> {
    let (_, block) = index.ifs.iter().find(|(line, _)| *line == at)?;
    let (next, next_block) = index.ifs.iter().find(|(line, _)| *line == block.last)?;
    let code = code_part(&index.lines[*next as usize - 1]).trim_start();
    if !code.trim_start_matches('}').trim_start().starts_with("else if") || recorded.contains(&(file, *next)) {
        return None;
    }
    (next_block.first..=next_block.last)
        .any(|l| builds_variant(code_part(&index.lines[l as usize - 1])))
        .then_some(*next)
}

/// In the fns `ran` entered (by `#[trace_fn]`'s records), an `if` whose block did not run, whose condition reads
/// one of the message's arguments `args`, and which would have sent a command of a variant `sent` does not hold (`if
/// !request.van {` → `commands.push(Msg::BookVan { .. });`): the condition that kept the command from being sent,
/// and the statement; the first such block only.
pub(super) fn commands_not_chosen(ran: &[crate::trace::log::Ran], sent: &[String], args: &[String]) -> Vec<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    let plain = |name: &str| name.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect::<String>();
    let sent: HashSet<String> = sent.iter().map(|s| plain(s)).collect();
    for found in entered_fns(ran) {
        let (file, index) = (found.file, &found.index);
        let whole = found.def().whole;
        for (line, block) in index.ifs.iter().filter(|(l, b)| whole.contains(*l) && whole.holds(*b)) {
            let condition = code_part(&index.lines[*line as usize - 1]);
            if recorded.contains(&(file, *line)) || !idents(condition).any(|(_, w)| args.iter().any(|a| a == w)) {
                continue;
            }
            let inner = |l: u32| index.ifs.iter().any(|(i, b)| i > line && b.contains(l) && block.holds(*b));
            let sends = (block.first + 1..block.last).find_map(|l| {
                let code = code_part(&index.lines[l as usize - 1]);
                if inner(l) || !(code.contains("push(") || code.contains("vec![")) {
                    return None;
                }
                let variant = idents(code).find_map(|(i, word)| {
                    let rest = code[i + word.len()..].strip_prefix("::")?;
                    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                    (word.starts_with(|c: char| c.is_ascii_uppercase()) && rest.starts_with(|c: char| c.is_ascii_uppercase()))
                        .then(|| rest[..end].to_owned())
                })?;
                (!sent.contains(&plain(&variant))).then_some(l)
            });
            if let Some(at) = sends {
                return [*line, at].into_iter().map(|l| numbered(file, &index.lines, l as usize - 1)).collect();
            }
        }
    }
    Vec::new()
}

/// The lines (1-based) in the fns `ran` entered whose branch ran (an `if` block or a `match` arm recorded) and gives
/// an empty list as its value (`Vec::new()`, `vec![]`), in a fn that builds a variant of an enum elsewhere
/// (`vec![Msg::Reorder { code }]`): an `update` that sent no command chose nothing there, where one may be missing.
pub(super) fn empty_commands_chosen(ran: &[crate::trace::log::Ran]) -> Vec<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    let is_empty_list = |code: &str| {
        let code = code.trim().trim_start_matches("return").trim().trim_end_matches([';', ',']).trim();
        code == "Vec::new()" || code == "vec![]"
    };
    let mut out = Vec::new();
    for found in entered_fns(ran) {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let builds_commands = (def.whole.first..def.whole.last).any(|l| {
            let code = code_part(&index.lines[l as usize - 1]);
            builds_variant(code) && (code.contains("vec![") || code.contains("push("))
        });
        if !builds_commands {
            continue;
        }
        for r in ran.iter().filter(|r| r.value.is_none() && r.file == file && def.whole.contains(r.line)) {
            let else_block = || index.elses.iter().find(|(line, _)| *line == r.line).map(|(_, block)| *block);
            let Some(block) = branch_block(index, r.line).or_else(else_block) else { continue };
            if (block.first..=block.last).any(|l| l != r.line && recorded.contains(&(file, l))) {
                continue;
            }
            let last = (block.first..block.last.max(block.first + 1))
                .rev()
                .find(|l| is_code(&index.lines[*l as usize - 1]) && code_part(&index.lines[*l as usize - 1]).trim() != "}");
            if let Some(last) = last.filter(|l| is_empty_list(code_part(&index.lines[*l as usize - 1]))) {
                out.push(numbered(file, &index.lines, last as usize - 1));
            }
        }
    }
    out
}

/// How many commands left unsent [`unsent_commands`] quotes.
pub(super) const UNSENT_COMMANDS: usize = 1;

/// In the fns (`file`, its index, the fn's lines) an `update` that sent no command reached, none of them recorded:
/// the statements that would have sent one (`commands.push(Msg::ChargeDeposit { .. })`, `vec![Msg::Fill]`) from
/// inside a branch, each after the condition that kept the run out of it (the `if`; for an `else`, its `if`, which
/// held). No command was sent, so no such statement ran. At most [`UNSENT_COMMANDS`], the first in each fn's order.
pub(super) fn unsent_commands<'a>(
    fns: impl IntoIterator<Item = (&'static str, &'a source::Index, source::Lines)>,
) -> Vec<SourceLine> {
    let sends = |code: &str| builds_variant(code) && (code.contains("push(") || code.contains("vec!["));
    let mut out: Vec<SourceLine> = Vec::new();
    let mut found = 0;
    for (file, index, whole) in fns {
        let mut blocks: Vec<(u32, u32, source::Lines)> = Vec::new();
        for (line, block) in &index.ifs {
            blocks.push((*line, *line, *block));
        }
        for (line, block) in &index.elses {
            if let Some(head) = if_of_else(index, *line) {
                blocks.push((*line, head, *block));
            }
        }
        blocks.retain(|(line, _, block)| whole.contains(*line) && whole.holds(*block));
        blocks.sort_by_key(|(line, _, _)| *line);
        for (line, head, block) in blocks {
            if found >= UNSENT_COMMANDS {
                return out;
            }
            // the block's own statement that sends, not one of a branch inside it
            let inner = |l: u32| index.ifs.iter().chain(&index.elses).any(|(i, b)| *i > line && b.contains(l) && block.holds(*b));
            let Some(at) = (block.first + 1..block.last)
                .find(|l| !inner(*l) && sends(code_part(&index.lines[*l as usize - 1])))
            else {
                continue;
            };
            for l in [head, at] {
                let text = index.lines[l as usize - 1].trim().to_owned();
                if !out.iter().any(|o| o.site.file == file && o.site.line == l) {
                    out.push(SourceLine {
                        site: Site { file, line: l, column: 1 },
                        text,
                    });
                }
            }
            found += 1;
        }
    }
    out
}

/// Whether a line of `block` returns from the fn (`return x;`, `return;`).
pub(super) fn block_returns(index: &source::Index, block: source::Lines) -> bool {
    (block.first..=block.last).any(|l| {
        let code = code_part(index.lines.get(l as usize - 1).map_or("", String::as_str));
        code.contains("return ") || code.contains("return;")
    })
}

/// Whether line `at` of `file` sits in a branch, within `within`, whose run was not recorded: a `match` arm with no
/// record at its `=>`, an `if` block with none at its `if` (`#[trace_fn]` and `#[node]` record each branch that
/// runs, so with `recorded` from a run that entered `within`, such a line did not run).
pub(super) fn not_taken(
    index: &source::Index,
    within: source::Lines,
    file: &str,
    recorded: &HashSet<(&str, u32)>,
    at: u32,
) -> bool {
    index.arms.iter().any(|a| {
        within.contains(a.arrow) && a.arrow <= at && at <= a.body.last && !recorded.contains(&(file, a.arrow))
    }) || index.ifs.iter().chain(&index.elses).any(|(line, block)| {
        within.contains(*line) && block.first <= at && at <= block.last && *line < at && !recorded.contains(&(file, *line))
    }) || after_a_return(index, within, file, recorded, at)
}

/// Whether line `at` of the fn `within` comes after the block of an `if` that ran (recorded) and ends by returning
/// (`if let Some(at) = .. { lesson.enrolled.remove(at); return Vec::new(); }`): the fn left there, and the lines
/// after did not run. Not for an `if` inside a closure, whose `return` leaves the closure only.
fn after_a_return(index: &source::Index, within: source::Lines, file: &str, recorded: &HashSet<(&str, u32)>, at: u32) -> bool {
    index.ifs.iter().any(|(line, block)| {
        within.contains(*line)
            && block.last < at
            && at <= within.last
            && recorded.contains(&(file, *line))
            && last_leaves(index, *block, &["return"]).is_some()
            && !index
                .calls
                .iter()
                .filter_map(|c| c.closure.as_ref())
                .any(|c| within.holds(c.body) && c.body.holds(*block) && c.body != *block)
    })
}

/// The last statement of `block` when it leaves (one of `words`: `return`, `break`, `continue`): its first line.
fn last_leaves(index: &source::Index, block: source::Lines, words: &[&str]) -> Option<u32> {
    let last = (block.first + 1..block.last).rev().find(|l| is_code(&index.lines[*l as usize - 1]))?;
    // the statement's first line: a `return` written over several lines starts above its last
    let start = (block.first + 1..=last)
        .rev()
        .find(|l| starts_with_word(code_part(&index.lines[*l as usize - 1]).trim(), words))?;
    // nothing but the statement's own lines after it (no `;` ends a line before the last)
    let ends_before = (start..last).any(|l| code_part(&index.lines[l as usize - 1]).trim_end().ends_with(';'));
    (!ends_before).then_some(start)
}

/// Whether `code` starts with one of `words` as a whole word (`return Vec::new();`, `break;`, not `returned`).
pub(super) fn starts_with_word(code: &str, words: &[&str]) -> bool {
    words
        .iter()
        .any(|w| code.strip_prefix(w).is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')))
}

/// Whether `code` names a variant of an enum by its path, both capitalised (`Msg::Notify { .. }`): a value of an
/// enum it builds.
fn builds_variant(code: &str) -> bool {
    idents(code).any(|(i, word)| {
        word.starts_with(|c: char| c.is_ascii_uppercase())
            && code[i + word.len()..]
                .strip_prefix("::")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    })
}

/// The `let`s of `def` above line `at` that bind a name the condition on line `at` reads (`if notice < fees.late {`
/// → `let notice = …;` and `let fees = …;`), nearest first, at most two: the values that chose the branch were
/// computed there. None when line `at` is not an `if`, `else if`, `match` or `while`.
pub(super) fn lets_read_by(lines: &[String], def: &source::FnDef, at: u32) -> Vec<u32> {
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
pub(super) fn lets_binding(lines: &[String], from: u32, at: u32, code: &str) -> Vec<u32> {
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
pub(super) fn computes_on_call(code: &str, name: &str) -> bool {
    let Some(rhs) = code.split_once('=').map(|(_, r)| r) else {
        return false;
    };
    outside_call(rhs, name).is_some_and(|outside| has_arithmetic(&outside))
}

/// Whether the branch line `code` (`if had_place && is_late(&class, now) {`) calls fn `name` in its condition and
/// combines what it returned with something else (a logical, comparison or arithmetic operator outside the call):
/// the condition, not the fn alone, chose the branch.
pub(super) fn condition_computes_on_call(code: &str, name: &str) -> bool {
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
pub(super) fn outside_call(rhs: &str, name: &str) -> Option<String> {
    let call = format!("{name}(");
    let start = rhs
        .match_indices(&call)
        .map(|(i, _)| i)
        .find(|&i| !rhs[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))?;
    // the call's closing parenthesis
    let open = start + call.len();
    let end = open + closing_paren(&rhs[open..])? + 1;
    Some(format!("{} {}", &rhs[..start], &rhs[end..]))
}

/// Where the parenthesis that closes a call is in `after_open`, the text after its opening one (`a, f(b)) + 1` → 9).
pub(super) fn closing_paren(after_open: &str) -> Option<usize> {
    let mut depth = 1;
    after_open.char_indices().find_map(|(i, c)| {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        (depth == 0).then_some(i)
    })
}

/// A line without its `//` comment.
pub(super) fn code_part(line: &str) -> &str {
    source::code_of(line)
}

/// What the explained node's latest run ran, as `#[node]` (its body's branches and shadowing `let`s) and
/// `#[trace_fn]` (the fns it called, resolved when they ran) recorded it: the lines that decided its value in the
/// run explained. Led by a fn the body called through a value (a fn parameter, a local holding a fn), the finding
/// goes before the body's lines ([`LEADING_FINDING`](crate::trace::query::LEADING_FINDING)): nothing the body
/// quotes reaches it.
pub(super) fn branches_taken(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
    let taken = ctx.tracer.branches_of(me.id);
    // a fn the body called through a value (a fn parameter, a local holding a fn) is reached by nothing the body
    // quotes: its lines first
    let call = source::index(me.site.file())
        .and_then(|index| index.call_at(me.site.line(), me.site.column()).map(|c| c.whole));
    let by_value = by_value::called_by_value(&taken, call.map(|lines| (me.site.file(), lines)));
    let mut lines = ran_lines_ordered(&taken, false, false, &by_value, RAN_LINES);
    // an `else` or an `if` block that left a `for` loop ran: the loop stopped at the first item that did not match;
    // it leads, with its `break`
    let stopped = lines.iter().enumerate().find_map(|(i, l)| Some((i, else_breaks_loop(l, &taken)?)));
    let stops = stopped.is_some();
    if let Some((i, leaves)) = stopped {
        let line = lines.remove(i);
        lines.retain(|l| l.site != leaves.site);
        lines.insert(0, line);
        lines.insert(1, leaves);
    }
    let mut lines = lines.into_iter();
    let Some(first) = lines.next() else { return };
    let text = format!("{}'s latest run #{} took", ctx.name(me.id), me.last_run_start);
    let more: Vec<SourceLine> = lines.collect();
    // a line that reads as a slip in a fn the run entered (by its records: it surely ran) goes before the body
    let entered = entered_fns(&taken);
    let smelly = entered.iter().any(|found| {
        super::smell::smells(found.file, &found.index, found.def().whole).into_iter().any(|i| {
            let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
            std::iter::once(&first).chain(&more).any(|l| l.site.file == found.file && l.site.line == at)
        })
    });
    // a fn called through a value leads (the body's lines never reach it) but does not stand for the body
    let by_value_first = entered.iter().any(|f| {
        by_value.contains(&f.def().name) && f.file == first.site.file && f.def().whole.contains(first.site.line)
    });
    // a shadowing `let` that computed with arithmetic, with the value the run bound (`let due = due + grace; → 75`):
    // what the run made of its inputs, before the body's lines
    let bound_here = |r: &crate::trace::log::Ran| r.value.is_some() && r.file == first.site.file && r.line == first.site.line;
    let computed_first = taken.iter().any(bound_here) && has_arithmetic(code_part(&first.text));
    let mut more = more;
    // a shadowing `let` that leads: the `let` it shadows, whose value it computed on, right after it
    if computed_first && let Some(shadowed) = shadowed_let(&first) {
        more.retain(|l| l.site != shadowed.site);
        more.insert(0, shadowed);
    }
    let rank = if smelly || stops {
        super::update::SMELL_RANK
    } else if by_value_first || computed_first {
        crate::trace::query::LEADING_FINDING
    } else {
        460
    };
    let mut finding = Finding::new(FindingKind::Ran, rank, text, Some(first));
    finding.more = more;
    found.push(finding);
}

/// The `let` that `line`, a `let` of one name that reads that name (`let hours = hours - overtime;`), shadows: the
/// nearest `let` of that name above it in its fn (`let hours = shift.hours.min(MIN_CALL);`).
fn shadowed_let(line: &SourceLine) -> Option<SourceLine> {
    let index = source::index(line.site.file)?;
    let (name, value) = one_name_let(index.lines.get(line.site.line as usize - 1)?)?;
    if !read_names(value).iter().any(|n| n == name) {
        return None;
    }
    let def = index.fn_at(line.site.line)?;
    (def.whole.first..line.site.line).rev().find_map(|at| {
        let code = index.lines.get(at as usize - 1)?;
        one_name_let(code)
            .filter(|(bound, _)| *bound == name)
            .map(|_| numbered(line.site.file, &index.lines, at as usize - 1))
    })
}

/// The `break` ending the block that `line` opens (an `else` of a `let .. else` or an `if`, or an `if`'s own block:
/// `if job.invoiced != Some(day) { break; }`), when the run recorded that block running inside a `for` loop: the
/// loop stopped at the first item that did (or did not) match, and no item after it was looked at (leaving one item
/// out is `continue`).
fn else_breaks_loop(line: &SourceLine, ran: &[crate::trace::log::Ran]) -> Option<SourceLine> {
    let (file, at) = (line.site.file, line.site.line);
    if !ran.iter().any(|r| r.value.is_none() && r.file == file && r.line == at) {
        return None;
    }
    let index = source::index(file)?;
    let (_, block) = index.elses.iter().chain(&index.ifs).find(|(l, _)| *l == at)?;
    let leaves = last_leaves(&index, *block, &["break"])?;
    super::loops::enclosing_for(&index.lines, 0, at as usize - 1)?;
    Some(numbered(file, &index.lines, leaves as usize - 1))
}

#[cfg(test)]
mod tests {
    use super::{called_parameter, empty_arm_code, makes_value, picks_by_parameter};

    #[test]
    fn an_if_calls_a_parameter_as_its_whole_condition() {
        let params = ["shop".to_owned(), "wilted".to_owned()];
        assert_eq!(called_parameter("        if wilted(batch, today) {", &params), Some("wilted"));
        assert_eq!(called_parameter("if !wilted(b, day(now)) {", &params), Some("wilted"));
        assert_eq!(called_parameter("if wilted(a, b) && fresh(c) {", &params), None);
        assert_eq!(called_parameter("if (rules.wilted)(a) {", &params), None);
        assert_eq!(called_parameter("if fresh(batch) {", &params), None);
    }

    #[test]
    fn an_if_picks_an_item_by_a_field_equal_to_a_parameter() {
        let params = ["farm".to_owned(), "block".to_owned()];
        for line in ["if bin.no == block {", "if block == bin.block {", "if *block == bin.block {"] {
            assert!(picks_by_parameter(line, &params), "{line}");
        }
        // against a constant or a local, two comparisons, a method call, or no `==`: not a pick by what was given
        for line in [
            "if booking.status == Status::Booked {",
            "if show.start <= now {",
            "if bin.no == block && bin.day == day {",
            "if bin.no() == block {",
            "if let Some(tenant) = plot.tenant.take() {",
            "if bin.no == today {",
        ] {
            assert!(!picks_by_parameter(line, &params), "{line}");
        }
    }

    #[test]
    fn an_arm_with_an_empty_body_and_no_guard_did_nothing() {
        for line in ["Status::Attended | Status::NoShow => {}", "_ => (),", "None => {} // nothing owed"] {
            assert!(empty_arm_code(line), "{line}");
        }
        // a guard decided to do nothing; an arm with a body did something
        for line in ["Some(&(top, _)) if top <= total => {}", "Status::Booked => charges.push(fee),", "_ => {"] {
            assert!(!empty_arm_code(line), "{line}");
        }
    }

    #[test]
    fn a_branch_statement_makes_a_value_when_it_writes_leaves_or_is_the_value() {
        for line in [
            "cents += kilos + prices::DRY_PER_KILO;",
            "plot.tenant = Some(name.clone());",
            "break;",
            "continue;",
            "today + days",
            "return 0;",
            "vec![Msg::PlanWalks { stay: stay.pen }]",
        ] {
            assert!(makes_value(line), "{line}");
        }
        // the words of a refusal or a notice, and a bare return, make no value
        for line in [
            "return Err(format!(\"{plate} is not a car we know\"));",
            "kennels.note(refusal);",
            "return notify(format!(\"no product {code}\"));",
            "return;",
            "if a == b {",
        ] {
            assert!(!makes_value(line), "{line}");
        }
    }
}
