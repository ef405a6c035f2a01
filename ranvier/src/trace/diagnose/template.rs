//! The text that made the value: an explained node whose value holds text (`"7A: 2 on the roll, average 37%"`) made
//! it with a template of its body (`format!("{form}: {size} on the roll, average {mean}%")`). The templates whose
//! fixed parts the value's text holds, in order, are those that ran; what decided the text is then the `let`s that
//! bound their arguments (`let mean = total / size;`) and the guard of the `match` arm they stand in, or of the arm
//! before it that did not match (`Ok(rain) if rain < LIMIT =>` above `Ok(rain) => format!("no watering")`). Source-side
//! only: the trace records nothing more for it, so a future (where nothing ran is recorded) is read the same way.

use super::{NodeRecord, code_part, deciding_lines, shadows_with_value, source};

/// How many lines [`lines`] returns at most.
const TEMPLATE_LINES: usize = 3;

/// The fewest letters and digits a template's fixed parts hold for a match to say anything (`"{}: {}"` matches any
/// text with a colon).
const TEMPLATE_MIN_WORD: usize = 4;

/// The fewest fixed characters but spaces a template of no letters holds to be looked at (`"{}: {}% {}"`), and then
/// only for a string no template with letters could have made.
const TEMPLATE_MIN_MARKS: usize = 2;

/// The lines (0-based, in `r`'s file) that decided the text of `value`, `r`'s value: for each template of `r`'s
/// creation call that made a string of `value`, the guard of its `match` arm (or of the arm just before, which did
/// not match), then the lines of the `let`s that bound its arguments. At most [`TEMPLATE_LINES`], the first template
/// first; not a `let` whose first line is among `quoted` (0-based).
pub(super) fn lines(r: &NodeRecord, value: &str, quoted: &[usize]) -> Vec<usize> {
    lines_and_loop(r, value, quoted, false)
}

/// [`lines`]; with `with_loop`, then the filter of the loop around the first such template in a loop that filters
/// ([`filtering_loop`]): it chose which items made a text. (Not for a future's value, whose few lines the `let`s
/// its requests were made with fill.)
pub(super) fn lines_and_loop(r: &NodeRecord, value: &str, quoted: &[usize], with_loop: bool) -> Vec<usize> {
    let file = r.site.file();
    let Some(index) = source::index(file) else { return Vec::new() };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return Vec::new();
    };
    let texts = debug_strings(value);
    if texts.is_empty() {
        return Vec::new();
    }
    let lines = &index.lines;
    let first = call.whole.first as usize - 1;
    let last = (call.whole.last as usize).min(lines.len());
    // every template of the call, and the strings of the value each could have made: one whose fixed parts say
    // little (`"{pupil}: {subject} {percent}% {grade}"`) only for a string no other template could have made
    let mut templates: Vec<(usize, usize, Vec<Piece>, bool)> = Vec::new();
    for i in first..last {
        for (start, template) in literals(code_part(&lines[i])) {
            let pieces = pieces(&template);
            if strength(&pieces) >= TEMPLATE_MIN_MARKS {
                let part = appends(lines, i, start) || grown_later(lines, i, start, last);
                templates.push((i, start, pieces, part));
            }
        }
    }
    let fits_as = |p: &[Piece], t: &str, part: bool| if part { fits_inside(p, t) } else { fits(p, t) };
    let strong = |p: &[Piece], t: &str, part: bool| strength(p) >= TEMPLATE_MIN_WORD && fits_as(p, t, part);
    let made = |p: &[Piece], part: bool| {
        texts.iter().any(|t| {
            fits_as(p, t, part)
                && (strength(p) >= TEMPLATE_MIN_WORD || !templates.iter().any(|(_, _, q, qp)| strong(q, t, *qp)))
        })
    };
    let mut out: Vec<usize> = Vec::new();
    let mut loops: Vec<usize> = Vec::new();
    for (i, start, pieces, part) in &templates {
        let (i, start) = (*i, *start);
        {
            if !made(pieces, *part) {
                continue;
            }
            let mut here = Vec::new();
            here.extend(guard(&index, call.whole, i));
            // the `if` the template stands in was entered by its condition: the `let`s of the names it reads (`if
            // clash {` after `let clash = bookings.iter().filter(..).any(..);`) decided which text was made
            for l in condition_lets(&index, call.whole, i).into_iter().filter(|l| !quoted.contains(l)) {
                here.extend(let_deciding_lines(lines, l));
            }
            // the arm was chosen by what its `match` matches on: a local's `let` decided which arm made the text
            if let Some((name, at)) = arm_of(&index, call.whole, i).and_then(|a| a.scrutinee.as_ref())
                && let Some(l) = let_of(lines, first, *at as usize - 1, name).filter(|l| !quoted.contains(l))
            {
                here.extend(let_deciding_lines(lines, l));
            }
            // the loop around it whose filter chose the items that made a text each: after the rest, one more
            if let Some(l) = filtering_loop(lines, first, i).filter(|l| !quoted.contains(l) && !loops.contains(l)) {
                loops.push(l);
            }
            let mut names: Vec<String> = pieces.iter().filter_map(|p| p.name()).collect();
            for name in arg_names(lines, i, start + template_len(&lines[i], start)) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            for name in &names {
                // a `let` the answer quotes already is left where it is
                if let Some(l) = let_of(lines, first, i, name).filter(|l| !quoted.contains(l)) {
                    here.extend(let_deciding_lines(lines, l));
                }
            }
            for l in here {
                if !out.contains(&l) && l != i {
                    out.push(l);
                }
            }
        }
    }
    out.truncate(TEMPLATE_LINES);
    if let Some(l) = loops.into_iter().find(|l| with_loop && !out.contains(l)) {
        out.push(l);
    }
    out
}

/// The line (0-based) of the filter of the innermost `for` loop around line `at` (0-based) of a call starting at
/// line `first` (0-based), found by indentation, when its items are filtered (`for b in list.iter().filter(|b| ..)
/// {`, the `.filter(` on a line of its own in a chain over several lines): the filter chose which items made a text.
fn filtering_loop(lines: &[String], first: usize, at: usize) -> Option<usize> {
    let l = super::loops::enclosing_for(lines, first, at)?;
    // the loop's head runs to the line that opens its block
    (l..at)
        .take_while(|h| *h == l || !code_part(&lines[*h - 1]).trim_end().ends_with('{'))
        .find(|h| code_part(&lines[*h]).contains(".filter("))
}

/// The lines (0-based, in `r`'s file) of `r`'s creation call holding a template with words
/// ([`TEMPLATE_MIN_WORD`]) that made none of the strings of `value`, when it holds strings: lines that did not make
/// it.
pub(super) fn unfit(r: &NodeRecord, value: &str) -> Vec<usize> {
    let file = r.site.file();
    let Some(index) = source::index(file) else { return Vec::new() };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return Vec::new();
    };
    let texts = debug_strings(value);
    if texts.is_empty() {
        return Vec::new();
    }
    let lines = &index.lines;
    let first = call.whole.first as usize - 1;
    let last = (call.whole.last as usize).min(lines.len());
    (first..last)
        .filter(|&i| {
            let found = literals(code_part(&lines[i]));
            !found.is_empty()
                && found.iter().all(|(_, t)| {
                    let p = pieces(t);
                    strength(&p) >= TEMPLATE_MIN_WORD && !texts.iter().any(|t| fits(&p, t))
                })
        })
        .collect()
}

/// The strings a value's `Debug` text holds (`["a", "b"]` → `a`, `b`), unescaped.
pub(super) fn debug_strings(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some(other) => s.push(other),
                    None => break,
                },
                _ => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

/// The string literals of a line of code, each with the byte offset of its opening quote, unescaped (a char literal
/// `'"'` is skipped).
fn literals(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\'' && i + 2 < bytes.len() && bytes[i + 2] == b'\'' {
            i += 3;
            continue;
        }
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i;
        let mut s = String::new();
        let mut j = i + 1;
        let mut closed = false;
        let rest = &code[j..];
        let mut it = rest.char_indices();
        while let Some((k, c)) = it.next() {
            match c {
                '"' => {
                    j = i + 1 + k + 1;
                    closed = true;
                    break;
                }
                '\\' => match it.next() {
                    Some((_, 'n')) => s.push('\n'),
                    Some((_, 't')) => s.push('\t'),
                    Some((_, other)) => s.push(other),
                    None => break,
                },
                _ => s.push(c),
            }
        }
        if !closed {
            break;
        }
        out.push((start, s));
        i = j;
    }
    out
}

/// The length in bytes of the literal opening at `start` in `line`'s code, quotes included.
fn template_len(line: &str, start: usize) -> usize {
    let code = code_part(line);
    let mut escaped = false;
    for (k, c) in code[start + 1..].char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return k + 2,
            _ => escaped = false,
        }
    }
    code.len() - start
}

/// A part of a template: fixed text, or a placeholder (`{}`, `{mean}`, `{:.1}`).
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    Hole(String),
}

impl Piece {
    /// The name a placeholder names (`{mean:.1}` → `mean`).
    fn name(&self) -> Option<String> {
        match self {
            Piece::Hole(h) => {
                let name = h.split(':').next().unwrap_or_default().trim();
                name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_').then(|| name.to_owned())
            }
            Piece::Text(_) => None,
        }
    }
}

/// A template's parts: its fixed texts (`{{` and `}}` as braces) and placeholders.
fn pieces(template: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                if !text.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut text)));
                }
                let mut hole = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    hole.push(c);
                }
                out.push(Piece::Hole(hole));
            }
            _ => text.push(c),
        }
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    out
}

/// How much a template's fixed parts tell: their letters and digits, or (when they hold none) their other
/// characters but spaces, as a negative-free count of marks. A template is strong from [`TEMPLATE_MIN_WORD`] letters
/// and digits; one with [`TEMPLATE_MIN_MARKS`] marks of any kind but no letters is weak.
fn strength(pieces: &[Piece]) -> usize {
    let count = |keep: fn(&char) -> bool| -> usize {
        pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.chars().filter(keep).count(),
                Piece::Hole(_) => 0,
            })
            .sum()
    };
    let words = count(|c| c.is_alphanumeric());
    if words > 0 { words.max(TEMPLATE_MIN_MARKS) } else { count(|c| !c.is_whitespace()) }
}

/// Whether the template whose literal starts at byte `start` of line `at` (0-based) is appended to a text made
/// before it (`line.push_str(&format!(", {kg} kg"))`, `write!(line, ..)`, `text += &format!(..)`): it makes a part
/// of the value, not the whole.
fn appends(lines: &[String], at: usize, start: usize) -> bool {
    let code = code_part(&lines[at]);
    let before = &code[..start.min(code.len())];
    let before = if before.trim().is_empty() || before.trim_end().ends_with("format!(") && !before.contains("push_str(")
    {
        // `format!(` alone on its line or the literal alone: the call opens on the line above
        let above = at.checked_sub(1).map_or("", |l| code_part(&lines[l]));
        format!("{above}{before}")
    } else {
        before.to_owned()
    };
    ["push_str(", "write!(", "writeln!(", "+= &format!(", "+= format!("].iter().any(|w| before.contains(w))
}

/// Whether the template whose literal starts at byte `start` of line `at` (0-based) makes the first text of a
/// `let mut` that lines after it, up to `last` (0-based, exclusive), append to (`let mut line = format!("#{} {}",
/// ..);` then `line.push_str(", booked")`): it makes the start of the value, not the whole.
fn grown_later(lines: &[String], at: usize, start: usize, last: usize) -> bool {
    let code = code_part(&lines[at]);
    let before = code[..start.min(code.len())].trim();
    let head = if before.is_empty() {
        at.checked_sub(1).map_or("", |l| code_part(&lines[l]).trim())
    } else {
        before
    };
    let Some(name) = head
        .strip_prefix("let mut ")
        .and_then(|rest| rest.strip_suffix("format!("))
        .and_then(|rest| rest.trim_end().strip_suffix('='))
        .map(str::trim)
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
    else {
        return false;
    };
    let grows = [format!("{name}.push_str("), format!("write!({name},"), format!("writeln!({name},"), format!("{name} += ")];
    (at + 1..last.min(lines.len())).any(|l| grows.iter().any(|g| code_part(&lines[l]).contains(g.as_str())))
}

/// Whether `text` holds the fixed parts of a template, in order, anywhere: a template appended to a text made before
/// it ([`appends`]).
fn fits_inside(pieces: &[Piece], text: &str) -> bool {
    let mut at = 0;
    let mut any = false;
    for p in pieces {
        let Piece::Text(t) = p else { continue };
        match text[at..].find(t.as_str()) {
            Some(found) => at += found + t.len(),
            None => return false,
        }
        any = true;
    }
    any
}

/// Whether a template with `pieces` could have made `text`: its fixed parts in order, the first at the start and the
/// last at the end when no placeholder stands there.
fn fits(pieces: &[Piece], text: &str) -> bool {
    let mut at = 0;
    let n = pieces.len();
    for (k, p) in pieces.iter().enumerate() {
        let Piece::Text(t) = p else { continue };
        if k == 0 {
            if !text.starts_with(t.as_str()) {
                return false;
            }
            at = t.len();
        } else if k == n - 1 {
            if !(text.len() >= at + t.len() && text.ends_with(t.as_str())) {
                return false;
            }
            at = text.len();
        } else {
            match text[at..].find(t.as_str()) {
                Some(found) => at += found + t.len(),
                None => return false,
            }
        }
    }
    // a template of fixed text alone is the whole text
    !(n == 1 && matches!(&pieces[0], Piece::Text(t) if t != text))
}

/// The names the arguments after a template read (`format!("..", loan.tool, money(fine))` → `loan`, `fine`): the
/// text from `from` on line `at` (0-based) to the parenthesis that closes the call, at most a few lines.
fn arg_names(lines: &[String], at: usize, from: usize) -> Vec<String> {
    super::read_names(&args_text(lines, at, from))
}

/// The most lines [`args_text`] reads: a template's arguments one to a line, as rustfmt writes a long call.
const ARGS_LINES: usize = 12;

/// The text of the arguments after a template (from `from` on line `at`, 0-based, to the parenthesis that closes
/// the call, at most [`ARGS_LINES`] lines), strings blanked.
fn args_text(lines: &[String], at: usize, from: usize) -> String {
    let mut text = String::new();
    let mut depth = 0i32;
    'lines: for (n, line) in lines.iter().enumerate().skip(at).take(ARGS_LINES) {
        let code = code_part(line);
        let code = if n == at { code.get(from..).unwrap_or_default() } else { code };
        // a char literal of a quote opens no string
        let code = code.replace("'\"'", "' '");
        let mut in_str = false;
        let mut escaped = false;
        for c in code.chars() {
            if in_str {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => in_str = false,
                    _ => escaped = false,
                }
                continue;
            }
            match c {
                '"' => in_str = true,
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => {
                    depth -= 1;
                    if depth < 0 {
                        break 'lines;
                    }
                }
                ';' if depth == 0 => break 'lines,
                _ => {}
            }
            text.push(if in_str { ' ' } else { c });
        }
        text.push(' ');
    }
    text
}

/// Whether a template with words on the line `code` could have made one of `texts`.
pub(super) fn makes_any(code: &str, texts: &[String]) -> bool {
    literals(code).iter().any(|(_, t)| {
        let p = pieces(t);
        strength(&p) >= TEMPLATE_MIN_WORD && texts.iter().any(|t| fits(&p, t))
    })
}

/// The places read by the arguments of the placeholders that changed: for each string of `value` that `before` does
/// not hold, made by a template with words on lines `first..last` (0-based), the placeholders whose text differs
/// from that of the string of `before` the same template made and that agrees with it most (none when `before` holds
/// no such string); each argument as the places it reads (`money(t.tax)` → `[t, tax]`).
pub(super) fn changed_args(lines: &[String], first: usize, last: usize, value: &str, before: &str) -> Vec<Vec<String>> {
    let texts = debug_strings(value);
    let old = debug_strings(before);
    let new: Vec<&String> = texts.iter().filter(|t| !old.contains(t)).collect();
    if new.is_empty() {
        return Vec::new();
    }
    let gone: Vec<&String> = old.iter().filter(|t| !texts.contains(t)).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for i in first..last {
        for (start, template) in literals(code_part(&lines[i])) {
            let pieces = pieces(&template);
            if strength(&pieces) < TEMPLATE_MIN_WORD {
                continue;
            }
            let mut changed: Vec<usize> = Vec::new();
            for t in &new {
                let Some(now) = holes(&pieces, t) else { continue };
                // a text the template made with no earlier one to compare says nothing of which part moved
                let Some(then) = gone
                    .iter()
                    .filter_map(|g| holes(&pieces, g))
                    .max_by_key(|h| h.iter().zip(&now).filter(|(a, b)| a == b).count())
                else {
                    continue;
                };
                for (k, hole) in now.iter().enumerate() {
                    if then.get(k) != Some(hole) && !changed.contains(&k) {
                        changed.push(k);
                    }
                }
            }
            if changed.is_empty() {
                continue;
            }
            let args = split_args(&args_text(lines, i, start + template_len(&lines[i], start)));
            let mut positional = args.iter().filter(|a| named_arg(a).is_none());
            let holes: Vec<&Piece> = pieces.iter().filter(|p| matches!(p, Piece::Hole(_))).collect();
            let mut exprs: Vec<String> = Vec::new();
            for hole in &holes {
                let Piece::Hole(h) = hole else { continue };
                let spec = h.split(':').next().unwrap_or_default().trim();
                let expr = if spec.is_empty() {
                    positional.next().cloned()
                } else if let Ok(n) = spec.parse::<usize>() {
                    args.get(n).cloned()
                } else {
                    Some(
                        args.iter()
                            .find_map(|a| named_arg(a).filter(|(name, _)| *name == spec).map(|(_, e)| e.to_owned()))
                            .unwrap_or_else(|| spec.to_owned()),
                    )
                };
                exprs.push(expr.unwrap_or_default());
            }
            for k in changed {
                for place in places_read(exprs.get(k).map_or("", String::as_str)) {
                    if !out.contains(&place) {
                        out.push(place);
                    }
                }
            }
        }
    }
    out
}

/// The texts of `text`'s placeholders when a template with `pieces` made it (read as [`fits`] reads it), in order;
/// two placeholders side by side give the first all the text between fixed parts.
fn holes(pieces: &[Piece], text: &str) -> Option<Vec<String>> {
    if !fits(pieces, text) {
        return None;
    }
    let n = pieces.len();
    let mut out = Vec::new();
    let mut at = 0;
    let mut open: Option<usize> = None;
    for (k, p) in pieces.iter().enumerate() {
        match p {
            Piece::Hole(_) => {
                if open.is_some() {
                    out.push(String::new());
                } else {
                    open = Some(at);
                }
            }
            Piece::Text(t) => {
                let found = if k == 0 {
                    0
                } else if k == n - 1 {
                    text.len().checked_sub(t.len())?
                } else {
                    at + text.get(at..)?.find(t.as_str())?
                };
                if let Some(from) = open.take() {
                    out.push(text.get(from..found)?.to_owned());
                }
                at = found + t.len();
            }
        }
    }
    if let Some(from) = open {
        out.push(text.get(from..)?.to_owned());
    }
    Some(out)
}

/// A call's arguments (`, a, money(b, c))` → `a`, `money(b, c)`), split at the commas outside brackets.
fn split_args(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut arg = String::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut arg));
                continue;
            }
            _ => {}
        }
        if depth >= 0 {
            arg.push(c);
        }
    }
    out.push(arg);
    out.into_iter().map(|a| a.trim().to_owned()).filter(|a| !a.is_empty()).collect()
}

/// A named argument's name and expression (`mean = total / n` → `mean`, `total / n`).
fn named_arg(arg: &str) -> Option<(&str, &str)> {
    let (name, expr) = arg.split_once('=')?;
    let name = name.trim();
    (!expr.starts_with(['=', '>']) && !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| (name, expr.trim()))
}

/// The places an expression reads, as names (`money(t.tax) + d.items.len()` → `[t, tax]`, `[d, items]`): chains of
/// lower-case names joined by `.`, up to a method call; not a fn called, a path with `::`, a keyword or a tuple
/// field.
pub(super) fn places_read(expr: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    let word_at = |i: usize| -> Option<(String, usize)> {
        let mut j = i;
        while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
            j += 1;
        }
        (j > i).then(|| (chars[i..j].iter().collect(), j))
    };
    while i < chars.len() {
        let starts = (chars[i].is_alphabetic() || chars[i] == '_')
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == '.'))
            && !(i >= 1 && chars[i - 1] == ':');
        if !starts {
            i += 1;
            continue;
        }
        let Some((first, mut j)) = word_at(i) else { break };
        let mut chain = vec![first];
        while j + 1 < chars.len() && chars[j] == '.' {
            let Some((next, k)) = word_at(j + 1) else { break };
            if chars.get(k) == Some(&'(') || next.starts_with(|c: char| c.is_ascii_digit()) {
                break;
            }
            chain.push(next);
            j = k;
        }
        let called = chars.get(j) == Some(&'(') || chars.get(j) == Some(&'!') || chars.get(j) == Some(&':');
        let lower = chain[0].starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
        const KEYWORDS: &[&str] = &["if", "else", "as", "match", "true", "false", "self", "move", "mut", "ref"];
        // a fn called, or a keyword, is not a place
        let not_place = chain.len() == 1 && (called || KEYWORDS.contains(&chain[0].as_str()));
        if lower && !not_place && !out.contains(&chain) {
            out.push(chain);
        }
        i = j.max(i + 1);
    }
    out
}

/// The nearest `let` (0-based line) in `from..at` that binds `name`, when no closure parameter, `for` pattern or
/// `match` arm between it and `at` binds the name again, and it does more than read a handle (`let x = x.get();`).
pub(super) fn let_of(lines: &[String], from: usize, at: usize, name: &str) -> Option<usize> {
    let binds = |pattern: &str| {
        pattern
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == name)
    };
    for l in (from..at).rev() {
        let code = code_part(&lines[l]).trim_start().trim_start_matches('}').trim_start();
        if let Some(pattern) = code.strip_prefix("let ") {
            let pattern = pattern.split(['=', ':']).next().unwrap_or_default();
            if binds(pattern) {
                return (!shadows_with_value(&lines[l])).then_some(l);
            }
        }
        // bound again on the way: a closure's parameters, a `for` pattern, an arm's pattern
        let closure = code.split_once('|').and_then(|(_, rest)| rest.split_once('|')).map(|(params, _)| params);
        let looped = code.strip_prefix("for ").and_then(|rest| rest.split_once(" in ")).map(|(p, _)| p);
        let arm = code.split_once("=>").map(|(p, _)| p).filter(|_| !code.contains("let "));
        if closure.is_some_and(binds) || looped.is_some_and(binds) || arm.is_some_and(binds) {
            return None;
        }
    }
    None
}

/// The innermost `match` arm of `call` that line `at` (0-based) stands in.
fn arm_of(index: &source::Index, call: source::Lines, at: usize) -> Option<&source::Arm> {
    let line = u32::try_from(at + 1).ok()?;
    index
        .arms
        .iter()
        .filter(|a| call.contains(a.arrow) && call.contains(a.body.last))
        .filter(|a| a.arrow <= line && line <= a.body.last.max(a.arrow))
        .max_by_key(|a| a.arrow)
}

/// The lines (0-based) that decide the value of the `let` starting on line `l` (0-based): [`deciding_lines`] of it.
fn let_deciding_lines(lines: &[String], l: usize) -> Vec<usize> {
    let at = u32::try_from(l + 1).unwrap_or(u32::MAX);
    deciding_lines(lines, &source::Lines { first: at, last: at })
}

/// The `let`s (0-based lines) of the names the condition of the innermost `if` around line `at` (0-based) reads,
/// within `call`: `let clash = ..` for a template inside `if clash {`; not a `let mut`.
fn condition_lets(index: &source::Index, call: source::Lines, at: usize) -> Vec<usize> {
    let line = u32::try_from(at + 1).unwrap_or(u32::MAX);
    let Some((head, _)) = index
        .ifs
        .iter()
        .filter(|(head, block)| call.contains(*head) && *head < line && block.contains(line))
        .max_by_key(|(head, _)| *head)
    else {
        return Vec::new();
    };
    let code = code_part(&index.lines[*head as usize - 1]);
    let Some(condition) = code.split_once("if ").map(|(_, c)| c.rsplit_once('{').map_or(c, |(c, _)| c)) else {
        return Vec::new();
    };
    let first = call.first as usize - 1;
    // a `let mut` (`let mut doubts = Vec::new();`) is only where the name starts: what changed it after decided
    super::read_names(condition)
        .iter()
        .filter_map(|name| let_of(&index.lines, first, *head as usize - 1, name))
        .filter(|l| !code_part(&index.lines[*l]).trim_start().starts_with("let mut "))
        .collect()
}

/// The guard that chose the `match` arm line `at` (0-based) stands in, within `call`: the arm's own guard
/// (`Ok(seen) if sent >= seen =>`), or the guard of the arm just before it, which did not match.
fn guard(index: &source::Index, call: source::Lines, at: usize) -> Option<usize> {
    let in_call = |a: &&source::Arm| call.contains(a.arrow) && call.contains(a.body.last);
    let arm = arm_of(index, call, at)?;
    let guarded = |arrow: u32| {
        let code = code_part(&index.lines[arrow as usize - 1]);
        code.split_once("=>").is_some_and(|(pattern, _)| pattern.contains(" if "))
    };
    if guarded(arm.arrow) {
        return Some(arm.arrow as usize - 1);
    }
    // the arm just before: it ends right above this one's pattern
    let before = index
        .arms
        .iter()
        .filter(in_call)
        .filter(|a| a.body.last.max(a.arrow) < arm.arrow)
        .max_by_key(|a| a.body.last.max(a.arrow))?;
    let end = before.body.last.max(before.arrow);
    let between = (end + 1..arm.arrow).all(|l| {
        let code = code_part(&index.lines[l as usize - 1]).trim();
        code.chars().all(|c| matches!(c, '}' | ',' | ')'))
    });
    (between && guarded(before.arrow)).then(|| before.arrow as usize - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_appended_to_a_text_fits_inside_it() {
        let lines: Vec<String> = [
            "line.push_str(&format!(",
            "    \", {per_tree:.1} kg a tree\"",
            "));",
            "let line = format!(\"{n} bins\");",
            "write!(out, \"{n} left\").ok();",
        ]
        .iter()
        .map(|l| (*l).to_owned())
        .collect();
        let start = |l: usize| lines[l].find('"').unwrap();
        assert!(appends(&lines, 1, start(1)));
        assert!(!appends(&lines, 3, start(3)));
        assert!(appends(&lines, 4, start(4)));
        let part = pieces(", {per_tree:.1} kg a tree");
        let text = "Cox, 240 trees: 1 bin, 360 kg, 30.0 kg a tree";
        assert!(fits_inside(&part, text));
        assert!(!fits(&part, text));
        assert!(!fits_inside(&pieces(", {} kg a row"), text));
    }

    #[test]
    fn holes_read_the_placeholders_text_and_args_the_places() {
        let p = pieces("paid: {} item(s) on {} prescription(s), {}");
        assert_eq!(
            holes(&p, "paid: 2 item(s) on 0 prescription(s), £0.00"),
            Some(vec!["2".into(), "0".into(), "£0.00".into()])
        );
        assert_eq!(holes(&p, "total: 2"), None);
        assert_eq!(split_args(", a.b, money(c, d), e = f.g)"), vec!["a.b", "money(c, d)", "e = f.g"]);
        assert_eq!(named_arg("e = f.g"), Some(("e", "f.g")));
        assert_eq!(named_arg("a == b"), None);
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            places_read("money(t.tax) + d.items.len() + total"),
            vec![names(&["t", "tax"]), names(&["d", "items"]), names(&["total"])]
        );
        assert_eq!(places_read("Tally::default() + f(x)"), vec![names(&["x"])]);
        let lines: Vec<String> = [
            "let mut out = vec![format!(",
            "    \"paid: {} item(s) on {} prescription(s), {}\",",
            "    paid.items, paid.count, pounds(paid.pence)",
            ")];",
        ]
        .iter()
        .map(|l| (*l).to_owned())
        .collect();
        assert_eq!(
            changed_args(
                &lines,
                0,
                4,
                r#"["paid: 2 item(s) on 0 prescription(s), £0.00"]"#,
                r#"["paid: 0 item(s) on 0 prescription(s), £0.00"]"#
            ),
            vec![names(&["paid", "items"])]
        );
    }

    #[test]
    fn a_template_fits_the_text_it_made() {
        let p = pieces("{form}: {size} on the roll, average {mean}%");
        assert!(fits(&p, "7A: 2 on the roll, average 37%"));
        assert!(!fits(&p, "7B: 1 on the roll, no marks yet"));
        let read = pieces("{to} ({pupil}), day {sent}: read");
        assert!(!fits(&read, "mrs.ames (Ada), day 3: not read (last in on day 4)"));
        assert!(fits(&read, "mr.diaz (Dev), day 3: read"));
        assert!(strength(&pieces("{}: {}")) < TEMPLATE_MIN_MARKS);
        assert!(strength(&pieces("{}: {}% {}")) < TEMPLATE_MIN_WORD);
        assert_eq!(p[2].name().as_deref(), Some("size"));
    }

    #[test]
    fn strings_of_a_value_and_literals_of_a_line() {
        assert_eq!(debug_strings(r#"["a \"b\"", "c"]"#), vec!["a \"b\"".to_owned(), "c".to_owned()]);
        let code = r#"format!("{} ({}): {over} days late", loan.tool, '"', money(fine))"#;
        let found = literals(code);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "{} ({}): {over} days late");
        let lines = vec![code.to_owned()];
        let names = arg_names(&lines, 0, found[0].0 + template_len(code, found[0].0));
        assert_eq!(names, vec!["loan".to_owned(), "fine".to_owned()]);
    }
}
