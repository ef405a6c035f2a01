//! What a loop added up was decided by what it went over. A line of the explained node's body that accumulates
//! (`adults += booking.adults;`, `lines.push(..)`) inside a `for` loop made the value from each item the loop was
//! given: the `if` that chose which items count, the `for` line, and the `let` that bound the list it iterates
//! (`let aboard = day.bookings.iter().filter(|b| b.sailing == sailing.id);`) decided the sum as much as the `+=`,
//! and so did the loop's other lines that add to the same place (`State::Booked | State::Exchanged { .. } =>
//! tally.tickets += booking.paid,` beside the arm quoted). The other way round, a `for` line quoted without any of
//! its loop's additions brings them: what the loop made of each item.

use super::{
    NodeRecord, SourceLine, body, code_part, follow_each, lets_binding, numbered, one_name_let, source, starts_with_word,
};
use std::collections::HashSet;

/// A line's indentation, in bytes.
pub(super) fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The `for` line (0-based) of the innermost loop around line `at` (0-based), looked for from line `first` on: the
/// nearest code line above it that is less indented and opens a `for`, with no code line between them indented as
/// little as that `for`.
pub(super) fn enclosing_for(lines: &[String], first: usize, at: usize) -> Option<usize> {
    let mut least = indent(&lines[at]);
    for l in (first..at).rev() {
        let text = &lines[l];
        if !super::is_code(text) || indent(text) >= least {
            continue;
        }
        if code_part(text).trim_start().starts_with("for ") {
            return Some(l);
        }
        least = indent(text);
    }
    None
}

/// How many of the body's first lines are looked at.
const LOOP_LINES: usize = 4;

/// How many other lines adding to the same place a loop's accumulation brings.
const SAME_PLACE_LINES: usize = 2;

/// The place `code` adds to (`tally.tickets` in `State::Booked => tally.tickets += booking.paid,`), for a
/// compound assignment.
fn target(code: &str) -> Option<&str> {
    compound(code).map(|(place, _)| place)
}

/// The place a compound assignment adds to and what it adds (`tally.tickets` and `booking.paid,` in `State::Booked
/// => tally.tickets += booking.paid,`).
fn compound(code: &str) -> Option<(&str, &str)> {
    let (place, added) = ["+= ", "-= ", "*= "].iter().find_map(|op| code.split_once(op))?;
    let place = place.rsplit("=>").next()?.trim();
    (!place.is_empty()).then_some((place, added))
}

/// Whether `code` adds an item's part to a total or a list made before the loop.
fn accumulates(code: &str) -> bool {
    ["+= ", "-= ", "*= ", ".push(", ".push_str(", ".insert(", ".extend("].iter().any(|op| code.contains(op))
}

/// Whether `code` only names a value, borrowed or read (`aboard`, `&bookings`, `classes.iter()`, `staff.get()`): it
/// says nothing of which items.
fn only_a_name(code: &str) -> bool {
    let mut name = code.trim().trim_start_matches('&');
    while let Some(rest) = [".iter()", ".iter_mut()", ".into_iter()", ".get()", ".clone()", ".borrow()"]
        .iter()
        .find_map(|carrier| name.strip_suffix(carrier))
    {
        name = rest;
    }
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// `body` (the explained node's lines) with, after each of its first [`LOOP_LINES`] lines that accumulates inside a
/// `for` loop of the node's body, the `if` that guards it inside the loop, the `for` line (unless it only names a
/// local list whose `let` is quoted) and the `let` that bound the list the loop iterates, once per loop; and the
/// loop's other lines that add to the same place. No line is quoted twice.
pub(super) fn loop_sources(me: &NodeRecord, body: &mut Vec<SourceLine>) {
    let file = me.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return;
    };
    let lines = &index.lines;
    let first = call.whole.first as usize - 1;
    let mut loops: HashSet<usize> = HashSet::new();
    let mut i = 0;
    while i < body.len().min(LOOP_LINES) {
        let at = body[i].site.line;
        i += 1;
        if body[i - 1].site.file != file || !call.whole.contains(at) {
            continue;
        }
        if !accumulates(code_part(&lines[at as usize - 1])) {
            continue;
        }
        let mut guard = None;
        let mut header = None;
        for l in body::enclosing(lines, first, at as usize - 1) {
            let code = code_part(&lines[l]).trim_start().trim_start_matches('}').trim_start();
            if starts_with_word(code, &["for"]) {
                header = Some((l, code));
                break;
            }
            if starts_with_word(code, &["while", "loop"]) || code.contains("|") {
                break;
            }
            if guard.is_none() && (starts_with_word(code, &["if"]) || code.starts_with("else if ")) {
                guard = Some(l);
            }
        }
        let Some((for_line, code)) = header else { continue };
        let first_of_loop = loops.insert(for_line);
        let iterable = code.split_once(" in ").map_or("", |(_, rest)| rest.trim_end_matches('{').trim());
        let bound = lets_binding(lines, call.whole.first, u32::try_from(for_line + 1).unwrap_or(u32::MAX), iterable)
            .first()
            .map(|&l| l as usize - 1);
        // `for booking in aboard {` says nothing its `let` does not, nor a `let` that only reads a node
        // (`let classes = classes.get();`) more than the node line's reads
        let bare = only_a_name(iterable);
        let read = bound.is_some_and(|l| {
            let code = code_part(&lines[l]);
            code.split_once('=').is_some_and(|(_, value)| only_a_name(value.trim().trim_end_matches(';')))
        });
        let mut more: Vec<usize> = Vec::new();
        if first_of_loop {
            more.extend(guard);
        }
        // the loop's other lines that add to the same place (`tally.tickets += booking.paid` in another arm): the
        // sum is made by each of them
        if let Some(place) = target(code_part(&lines[at as usize - 1])) {
            let depth = indent(&lines[for_line]);
            let others = (for_line + 1..lines.len())
                .take_while(|&l| lines[l].trim().is_empty() || indent(&lines[l]) > depth)
                .filter(|&l| l + 1 != at as usize && target(code_part(&lines[l])) == Some(place))
                .take(SAME_PLACE_LINES);
            more.extend(others);
        }
        if first_of_loop && !bare {
            more.push(for_line);
        }
        more.extend(bound.filter(|_| first_of_loop && !read));
        let quoted: HashSet<(&'static str, u32)> = body.iter().map(|l| (l.site.file, l.site.line)).collect();
        let mut at_insert = i;
        for l in more {
            if !quoted.contains(&(file, u32::try_from(l + 1).unwrap_or(u32::MAX))) {
                body.insert(at_insert, numbered(file, lines, l));
                at_insert += 1;
            }
        }
        i = at_insert;
    }
}

/// `lines` with, after each `for` line whose loop adds to a place on lines of its own body (`boarding +=
/// rate(stay.size, tariffs::season(night));`) of which none is quoted, those lines (at most [`SAME_PLACE_LINES`]):
/// the `for` line says what the loop went over, the additions what it made of each item.
pub(super) fn for_accumulations(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    follow_each(lines, additions)
}

/// `lines` with, after each line that adds to a place (`total += fee;`), the `let` nearest above it in its fn that
/// bound a name it adds by a condition (`let fee = if i > 1 {`, `let rate = match band {`) or by arithmetic (`let fee
/// = (amount * rate_bps).div_ceil(1_000) + fixed;`), unless an earlier line quotes it: the condition chose, or the
/// arithmetic made, what was added. A `let` quoted further down moves up.
pub(super) fn added_lets(mut lines: Vec<SourceLine>) -> Vec<SourceLine> {
    let mut i = 0;
    while i < lines.len() {
        let (file, at) = (lines[i].site.file, lines[i].site.line);
        i += 1;
        let Some(bound) = let_of_added(file, at) else { continue };
        match lines.iter().position(|l| l.site.file == file && l.site.line == bound) {
            Some(p) if p < i => continue,
            Some(p) => {
                let moved = lines.remove(p);
                lines.insert(i, moved);
            }
            None => {
                let Some(index) = source::index(file) else { continue };
                lines.insert(i, numbered(file, &index.lines, bound as usize - 1));
            }
        }
        i += 1;
    }
    lines
}

/// When line `at` of `file` adds to a place (`total += fee;`): the line of the first `let` above it in its fn (of
/// those binding the names it adds, nearest first) whose value is an `if`, a `match` or arithmetic.
fn let_of_added(file: &'static str, at: u32) -> Option<u32> {
    let index = source::index(file)?;
    let (_, added) = compound(code_part(index.lines.get(at as usize - 1)?))?;
    let def = index.fn_at(at)?;
    lets_binding(&index.lines, def.whole.first, at, added).into_iter().find(|bound| {
        // a `let` that chose the value by a condition (`let fee = if i > 1 {`, `= match band {`)
        let Some(rhs) = code_part(&index.lines[*bound as usize - 1]).split_once(" = ").map(|(_, rhs)| rhs.trim_start()) else {
            return false;
        };
        // or that computed it (`let fee = (amount * rate_bps).div_ceil(1_000) + fixed;`)
        starts_with_word(rhs, &["if", "match"]) || super::has_arithmetic(rhs)
    })
}

/// The lines of its own body that add to a place, when `line` is a `for` line and none of them is in `quoted` (to
/// which they are added), at most [`SAME_PLACE_LINES`].
fn additions(line: &SourceLine, quoted: &mut HashSet<(&'static str, u32)>) -> Vec<SourceLine> {
    let file = line.site.file;
    let Some(index) = source::index(file) else { return Vec::new() };
    let src = &index.lines;
    let Some(header) = (line.site.line as usize).checked_sub(1).filter(|h| *h < src.len()) else {
        return Vec::new();
    };
    let code = code_part(&src[header]).trim_start();
    if !starts_with_word(code, &["for"]) || !code.trim_end().ends_with('{') {
        return Vec::new();
    }
    let depth = indent(&src[header]);
    let body: Vec<usize> = (header + 1..src.len())
        .take_while(|&l| src[l].trim().is_empty() || indent(&src[l]) > depth)
        .collect();
    let step = body.iter().map(|&l| indent(&src[l])).filter(|&n| n > depth).min();
    let own: Vec<usize> = body
        .into_iter()
        .filter(|&l| Some(indent(&src[l])) == step && target(code_part(&src[l])).is_some())
        .collect();
    let at = |l: usize| u32::try_from(l + 1).unwrap_or(u32::MAX);
    if own.iter().any(|&l| quoted.contains(&(file, at(l)))) {
        return Vec::new();
    }
    own.into_iter()
        .take(SAME_PLACE_LINES)
        .filter(|&l| quoted.insert((file, at(l))))
        .map(|l| numbered(file, src, l))
        .collect()
}

/// The name `line` binds as an accumulator (`bins` in `let mut bins = 0;`, `pickers` in `let mut pickers: Vec<&str>
/// = Vec::new();`).
fn accumulator(line: &str) -> Option<&str> {
    code_part(line).trim_start().starts_with("let mut ").then(|| one_name_let(line).map(|(name, _)| name)).flatten()
}

/// Whether `code` adds to `name` (`bins += 1;`, `pickers.push(..)`).
fn adds_to(code: &str, name: &str) -> bool {
    let code = code.trim_start();
    code.strip_prefix(name).is_some_and(|rest| {
        let rest = rest.trim_start();
        ["+=", "-=", "*=", ".push(", ".push_str(", ".insert(", ".extend("].iter().any(|op| rest.starts_with(op))
    })
}

/// `body` with, after each of its first [`LOOP_LINES`] lines that binds an accumulator in the explained node's body
/// (`let mut bins = 0;`), the `for` line of the first loop below it that adds to it, once per loop: the `let` gave
/// the start, what the loop went over gave the rest. [`for_accumulations`] then brings what the loop added.
pub(super) fn accumulator_loops(me: &NodeRecord, body: &mut Vec<SourceLine>) {
    let file = me.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return;
    };
    let lines = &index.lines;
    let last = (call.whole.last as usize).min(lines.len());
    let mut quoted: HashSet<(&'static str, u32)> = body.iter().map(|l| (l.site.file, l.site.line)).collect();
    let mut i = 0;
    while i < body.len().min(LOOP_LINES) {
        let at = body[i].site.line as usize;
        i += 1;
        if body[i - 1].site.file != file || !call.whole.contains(at as u32) || at == 0 || at > lines.len() {
            continue;
        }
        let Some(name) = accumulator(&lines[at - 1]) else { continue };
        let depth = indent(&lines[at - 1]);
        // the first line below it, in its block, that adds to it, and the `for` around that line
        let Some(adds) = (at..last)
            .take_while(|&l| lines[l].trim().is_empty() || indent(&lines[l]) >= depth)
            .find(|&l| adds_to(code_part(&lines[l]), name))
        else {
            continue;
        };
        let Some(header) = body::enclosing(lines, at - 1, adds)
            .take_while(|&l| indent(&lines[l]) >= depth)
            .find(|&l| starts_with_word(code_part(&lines[l]).trim_start(), &["for"]))
        else {
            continue;
        };
        if quoted.insert((file, u32::try_from(header + 1).unwrap_or(u32::MAX))) {
            body.insert(i, numbered(file, lines, header));
            i += 1;
        }
    }
}

/// `body` (the explained node's lines) with each `for` line of its own body that goes over a range whose ends a
/// `let` computed (`for day in monday..=today {` after `let monday = today - today % 7;`; not a `let mut`, nor one
/// that only reads a node) first, followed by those `let`s: the range chose which items the loop made its value of.
pub(super) fn range_lets(me: &NodeRecord, body: &mut Vec<SourceLine>) {
    let file = me.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return;
    };
    let lines = &index.lines;
    let mut moved: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let at = body[i].site.line;
        i += 1;
        if body[i - 1].site.file != file || !call.whole.contains(at) || moved.contains(&at) {
            continue;
        }
        let code = code_part(&lines[at as usize - 1]).trim_start();
        let Some(range) = code
            .strip_prefix("for ")
            .and_then(|rest| rest.split_once(" in "))
            .map(|(_, range)| range.trim_end().trim_end_matches('{').trim())
            .filter(|range| is_range(range))
        else {
            continue;
        };
        let mut lets: Vec<SourceLine> = Vec::new();
        for l in lets_binding(lines, call.whole.first, at, range) {
            let bound = code_part(&lines[l as usize - 1]);
            let value = bound.split_once('=').map_or("", |(_, v)| v.trim().trim_end_matches(';'));
            if bound.trim_start().starts_with("let mut ") || only_a_name(value) {
                continue;
            }
            lets.push(numbered(file, lines, l as usize - 1));
        }
        if lets.is_empty() {
            continue;
        }
        // the range's line and its ends first, moved there when quoted already
        moved.push(at);
        let head = body.remove(i - 1);
        body.retain(|q| !lets.iter().any(|l| l.site == q.site));
        let n = lets.len();
        body.splice(0..0, std::iter::once(head).chain(lets));
        i = n + 1;
    }
}

/// `lines` (the explained node's body) with what the records of its latest run say of its loops: a loop reached whose
/// body never ran (`for day in monday..today {` with `today` the Monday) made nothing of any item, so the lines inside
/// it did not run and are left out; and when it went over a range (`monday..today`, not a list, which is empty often
/// enough for no fault) or was a `while` (`while next < today {`), its head goes first, marked `→ ran no time`: a
/// range that came out empty, or a condition false at once, is where the value went wrong, or at least why it holds
/// what it started with.
pub(super) fn not_entered(loops: &[crate::trace::log::Ran], lines: &mut Vec<SourceLine>) {
    let mut heads: Vec<SourceLine> = Vec::new();
    for r in loops.iter().filter(|r| r.entered == Some(false)) {
        let Some(index) = source::index(r.file) else { continue };
        let Some((_, block)) = index.loops.iter().find(|(head, _)| *head == r.line) else { continue };
        lines.retain(|l| l.site.file != r.file || l.site.line < block.first || l.site.line > block.last || l.site.line == r.line);
        // an inner loop that did not run inside one that did not either: the outer says it
        if heads.iter().any(|h| h.site.file == r.file && index.loops.iter().any(|(head, b)| *head == h.site.line && b.contains(r.line))) {
            continue;
        }
        heads.retain(|h| h.site.file != r.file || !block.contains(h.site.line));
        // a `while` whose condition was false at once decided as much as an empty range
        let a_while = code_part(&index.lines[r.line as usize - 1]).trim_start().starts_with("while ");
        if !a_while && !over_a_range(&index.lines, r.line as usize - 1, block.first as usize - 1) {
            continue;
        }
        let mut head = numbered(r.file, &index.lines, r.line as usize - 1);
        head.text.push_str(" → ran no time");
        heads.push(head);
    }
    lines.retain(|l| !heads.iter().any(|h| h.site == l.site));
    lines.splice(0..0, heads);
}

/// Whether the loop whose head runs from line `head` to line `open` (0-based, its body's `{`) goes over a range
/// (`for day in monday..today {`, `for i in 0..=n {`): a `..` outside a string in its head.
fn over_a_range(lines: &[String], head: usize, open: usize) -> bool {
    (head..=open.max(head)).any(|l| {
        let code = code_part(&lines[l]);
        is_range(code.rsplit_once('{').map_or(code, |(before, _)| before))
    })
}

/// Whether the code of a loop's head reads as a range: a `..` outside a string (`monday..=today`, `0..n`).
fn is_range(code: &str) -> bool {
    code.contains("..") && !code.contains('"')
}
