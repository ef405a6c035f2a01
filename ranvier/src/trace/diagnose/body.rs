//! The explained node's own body: the lines that compute its value and read its sources, and the lines of a
//! previous-value body.

use super::*;

/// The lines of a memo's body that use its previous-value parameter (`|prev| ...`), when the source can be parsed
/// and the parameter is named: where the memo may hand its old value back.
pub(super) fn previous_value_lines(r: &NodeRecord) -> Vec<SourceLine> {
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
pub(super) fn mentions(code: &str, name: &str) -> bool {
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
pub(super) fn body_lines(r: &NodeRecord, clones: bool, lets: bool, ran: &[crate::trace::log::Ran]) -> Vec<SourceLine> {
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
                // a chain whose first line only names a value it starts from that is no source (`Category::ALL`
                // above `.iter()`, `.map(..)`, `.filter(|line| line.have >= line.need)`): the line of it that
                // compares decides what it keeps, else the first that passes a closure (a source's handle, `order`
                // above `.get()`, says which source it walks)
                let reads = r.read_sites.iter().any(|(_, s)| s.file() == file && value.contains(s.line()));
                let deciding = if reads { Vec::new() } else { deciding_lines(lines, value) };
                let first = deciding.iter().find(|i| compares(&lines[**i])).or(deciding.first());
                picked.push(first.map_or(value.first, |i| u32::try_from(i + 1).unwrap_or(u32::MAX)));
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
pub(super) fn same_code(lines: &[String], a: source::Lines, b: source::Lines) -> bool {
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
pub(super) const OTHER_CLOSURE_VALUE_LINES: usize = 2;

/// How many of the lines producing a long body's value are quoted.
pub(super) const VALUE_LINES_MAX: usize = 3;

/// A body this short is quoted whole (when the source can be read); a longer one by the lines that read sources.
pub(super) const SHORT_BODY_LINES: usize = 8;

pub(super) fn read_site_lines(r: &NodeRecord) -> Vec<SourceLine> {
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

/// The `let`s (0-based lines, from line `from` on) that computed with arithmetic the fields the struct literal opening
/// on line `open` (1-based: `loads.push(Load {`) sets from locals (`busy,`, `rooms: rooms,`), in the literal's order.
pub(super) fn computed_fields(lines: &[String], from: usize, open: u32) -> impl Iterator<Item = usize> + '_ {
    super::message_lines::literal_field_lines(lines, open, true)
        .into_iter()
        .filter_map(move |(_, _, value)| template::let_of(lines, from, open as usize - 1, &value?))
        .filter(|&l| has_arithmetic(code_part(&lines[l])))
}

/// How many `let`s of a struct literal's fields [`literal_field_lets`] brings, and how many `let`s those read.
const LITERAL_FIELD_LETS: usize = 2;

/// `body` (the explained node's lines) with, after the first of its own lines that opens a struct literal set from
/// locals (`loads.push(Load {` with `busy,`), the `let`s that computed such fields with arithmetic (`let busy =
/// minutes + gaps * CHANGEOVER;`), then the `let`s that bound what those read (`let gaps = lessons;`): the literal
/// says what was made, those lines with what.
pub(super) fn literal_field_lets(me: &NodeRecord, body: &mut Vec<SourceLine>) {
    let file = me.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return;
    };
    let lines = &index.lines;
    let from = call.whole.first as usize - 1;
    let line_of = |l: usize| u32::try_from(l + 1).unwrap_or(u32::MAX);
    for (n, quoted) in body.iter().enumerate() {
        let at = quoted.site.line;
        if quoted.site.file != file || !call.whole.contains(at) {
            continue;
        }
        let computed: Vec<u32> = computed_fields(lines, from, at)
            .map(line_of)
            .take(LITERAL_FIELD_LETS)
            .collect();
        if computed.is_empty() {
            continue;
        }
        let mut read: Vec<u32> = Vec::new();
        for l in &computed {
            let rhs = code_part(&lines[*l as usize - 1]).split_once('=').map_or("", |(_, rhs)| rhs);
            for bound in lets_binding(lines, call.whole.first, *l, rhs) {
                if !computed.contains(&bound) && !read.contains(&bound) {
                    read.push(bound);
                }
            }
        }
        let add = computed.into_iter().chain(read.into_iter().take(LITERAL_FIELD_LETS));
        let new: Vec<SourceLine> = add
            .filter(|a| !body.iter().any(|q| q.site.file == file && q.site.line == *a))
            .map(|a| numbered(file, lines, a as usize - 1))
            .collect();
        body.splice(n + 1..n + 1, new);
        return;
    }
}

/// `lines` with, after each line that opens a struct literal setting a field from a local (`blocks.push(RoomBlock
/// {` with `rooms,`), the `let` in its fn that computed the first such field with arithmetic (`let rooms = sharing /
/// 2 + singles;`), unless quoted already: the literal says what was made, that line with what.
pub(super) fn settled_literal_lets(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    follow_each(lines, |line, quoted| {
        let file = line.site.file;
        let index = source::index(file)?;
        let def = index.fn_at(line.site.line)?;
        let l = computed_fields(&index.lines, def.whole.first as usize - 1, line.site.line).next()?;
        quoted
            .insert((file, u32::try_from(l + 1).unwrap_or(u32::MAX)))
            .then(|| numbered(file, &index.lines, l))
    })
}

/// The lines (0-based) above line `at` within `first..`, innermost first, that open the blocks around it as its
/// indentation shows: each non-blank line indented less than the one before it (an arm's pattern, then its `match`).
pub(super) fn enclosing(lines: &[String], first: usize, at: usize) -> impl Iterator<Item = usize> + '_ {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut level = indent(&lines[at]);
    (first..at).rev().filter(move |&l| {
        let line = &lines[l];
        let outer = !line.trim().is_empty() && indent(line) < level;
        if outer {
            level = indent(line);
        }
        outer
    })
}
