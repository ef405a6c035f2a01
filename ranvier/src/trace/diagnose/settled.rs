//! Async memos: the value a future settled and the lines of the future that produce it (`settled:`), failures
//! turned into defaults first.

use super::message_lines::literal_field_lines;
use super::*;

/// How many lines of an async memo's future a `settled:` finding quotes.
pub(super) const FUTURE_LINES: usize = 4;

/// How many lines of the crate fns a future's quoted lines call a `settled:` finding adds.
const FUTURE_CALLED_LINES: usize = 2;

/// When `r` is an async memo (its creation call holds an `async` block) that has settled a value: the value, and
/// the lines of its future that produce it: those that turn a failure into a value first (`unwrap_or`, `.ok()`,
/// `Err(..)` arms), then the lines that produce the block's value.
pub(super) fn settled(ctx: &Ctx<'_>, r: &NodeRecord, own: bool, found: &mut Vec<Finding>) {
    if r.kind != NodeKind::Memo || r.runs == 0 {
        return;
    }
    let file = r.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return;
    };
    // the outermost async block inside the memo's call: its future
    let Some((block, value)) = index
        .asyncs
        .iter()
        .filter(|(lines, _)| call.whole.holds(*lines))
        .min_by_key(|(lines, _)| lines.first)
    else {
        return;
    };
    let lines = &index.lines;
    let defaults = |i: usize| {
        let code = source::code_of(&lines[i]);
        ["unwrap_or", ".ok()", "Err(", ".ok_or", "Default::default", ".unwrap_or_default"]
            .iter()
            .any(|p| code.contains(p))
    };
    let inside = block.first as usize..block.last as usize - 1;
    let mut picked: Vec<usize> = inside.clone().filter(|i| is_code(&lines[*i]) && defaults(*i)).collect();
    // a line that makes `None` did not make a `Some` value, nor one that makes `Some` a `None`
    let settled_value = ctx.value(r.id).unwrap_or_default();
    let cannot_have_made = |i: usize| {
        let code = code_part(&lines[i]);
        let mentions_none = mentions(code, "None");
        if settled_value.starts_with("Some(") {
            mentions_none && !code.contains("Some(")
        } else if settled_value == "None" {
            code.contains("Some(") && !mentions_none
        } else {
            // a fixed text (`return Ok("nothing on sale".to_owned())`) that the settled text does not hold
            fixed_text(code).is_some_and(|text| !settled_value.contains(text))
        }
    };
    let mut values: Vec<usize> = value
        .iter()
        .flat_map(|v| deciding_lines(lines, v))
        .filter(|i| inside.contains(i) && is_code(&lines[*i]) && !cannot_have_made(*i))
        .collect();
    // first the value lines that compare or hand a closure the choice (`.filter(|r| ..)`, `if a >= b`), nearest
    // the end first, then the line that makes the value last: they decide; the requests and `let`s come after
    let mut last_values: Vec<usize> = values.iter().rev().copied().filter(|i| decides(&lines[*i])).take(2).collect();
    last_values.sort_unstable();
    last_values.extend(values.iter().max().filter(|i| !last_values.contains(i)));
    values.retain(|i| !last_values.contains(i));
    for i in &last_values {
        if !picked.contains(i) {
            picked.push(*i);
        }
    }
    // a `let mut` the value lines read and the future then assigns (`cents += grams * per_kg / 100;` in a loop):
    // the value was made by those assignments more than by the `let`
    for i in assigned_after_let(lines, block.first, &last_values, inside.clone()) {
        if !picked.contains(&i) {
            picked.push(i);
        }
        // and the `let`s inside the future that bound what such an assignment adds (`let sacks = short / SACK;`
        // before `total += sacks * per_kg;`): each term was made there
        let Some((_, added)) = code_part(&lines[i]).split_once('=') else { continue };
        let Ok(at) = u32::try_from(i + 1) else { continue };
        for bound in lets_binding(lines, block.first, at, added) {
            let bound = bound as usize - 1;
            if inside.contains(&bound) && !picked.contains(&bound) {
                picked.push(bound);
            }
        }
    }
    // a value captured before the block (`let known = prev.cloned();`) that the future returns or tests: its binding
    let outside = call.whole.first as usize - 1..block.first as usize - 1;
    for i in outside.filter(|i| is_code(&lines[*i])) {
        let code = source::code_of(&lines[i]).trim();
        let Some(pattern) = code.strip_prefix("let ").and_then(|r| r.split('=').next()) else {
            continue;
        };
        let name = pattern.trim().trim_start_matches("mut ").trim();
        // returned as it is, or tested to decide what is returned
        let returned = inside.clone().any(|v| {
            let text = source::code_of(&lines[v]);
            ["return", "if let", "match "].iter().any(|w| text.contains(w)) && mentions(text, name)
        });
        if returned && !picked.contains(&i) {
            picked.push(i);
        }
    }
    // the requests the future awaited: what it asked for (the argument) decides what it settled
    for i in inside.clone() {
        let code = source::code_of(&lines[i]);
        if is_code(&lines[i]) && code.contains(".await") && !picked.contains(&i) {
            picked.push(i);
        }
    }
    // the `let` inside the future nearest above a value line that bound what it reads (`let hour = now / 60;`
    // before `forecast.get(hour as usize)`): the value was made there as much as where it is returned
    let bound = last_values.iter().chain(&values).find_map(|&i| {
        let code = code_part(&lines[i]).trim_start();
        if code.starts_with("let ") {
            return None;
        }
        let at = u32::try_from(i + 1).ok()?;
        lets_binding(lines, block.first, at, code)
            .into_iter()
            .map(|l| l as usize - 1)
            .find(|l| inside.contains(l) && !picked.contains(l))
    });
    picked.extend(bound);
    for i in values {
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    if picked.is_empty() {
        picked = inside.clone().filter(|i| is_code(&lines[*i])).collect();
    }
    if own {
        // a line whose template made none of the settled strings did not make the value (`Err(_) => "no forecast
        // yet"` when every string says otherwise); the lines that decided the settled text come first
        let unfit = template::unfit(r, &settled_value);
        picked.retain(|i| !unfit.contains(i));
        let made = template::lines(r, &settled_value, &[]);
        picked.retain(|i| !made.contains(i));
        picked.splice(0..0, made);
    }
    // a line of the future that reads as a slip whatever it was given (`courier.quote(boxes, zone)` for `fn
    // quote(&self, zone, boxes)`: [`smell::smells`]) made the value wrong in every run that reached it: first
    let smelly: Vec<usize> = smell::smells(file, &index, *block)
        .into_iter()
        .filter(|i| inside.contains(i))
        .collect();
    picked.retain(|i| !smelly.contains(i));
    picked.splice(0..0, smelly.iter().copied());
    picked.truncate(FUTURE_LINES);
    picked.sort_by_key(|i| (!smelly.contains(i), *i));
    let mut text = ctx.name(r.id).to_string();
    if let Some(v) = short_value(ctx, r.id) {
        let _ = write!(text, " = {v}");
    }
    text.push_str(": the value its future settled, from");
    let mut quoted = picked.into_iter().map(|i| numbered(file, lines, i));
    let Some(at) = quoted.next() else { return };
    let mut rank = if own { STRONG_SETTLED } else { 460 };
    // the explained node's own future turned a failed request into a value (`fetch(..).await.unwrap_or(0)`): what it
    // settled on a failure is the first suspect, before a message whose `update` shows a slip of its own
    let mut more: Vec<SourceLine> = quoted.collect();
    // the crate fns its quoted lines call (each fn a local bound above may hold), by the line that decides their
    // value: a rule the future calls computes what it settled (`let band = duty_band(abv);`)
    let built = ctx.tracer.built_branches();
    let mut called: Vec<SourceLine> = Vec::new();
    for l in std::iter::once(&at).chain(&more) {
        for c in index.calls.iter().filter(|c| c.line == l.site.line && c.method.is_none() && !c.path.is_empty()) {
            let fns: Vec<source::Found> = match c.path.as_slice() {
                [name] => super::by_value::let_bound_fns(&index, file, c.line, name, &built)
                    .unwrap_or_else(|| source::resolve_fn(file, c.line, &c.path).into_iter().collect()),
                path => source::resolve_fn(file, c.line, path).into_iter().collect(),
            };
            for f in fns {
                let lines = &f.index.lines;
                let Some(i) = f.def().value.iter().flat_map(|v| deciding_lines(lines, v)).next() else { continue };
                let line = numbered(f.file, lines, i);
                if called.len() < FUTURE_CALLED_LINES && !called.iter().any(|c| c.site == line.site) {
                    called.push(line);
                }
            }
        }
    }
    more.extend(called);
    if own && std::iter::once(&at).chain(&more).any(|l| defaults_a_failure(&l.text)) {
        rank = rank.max(SLIP_RANK + 1);
    }
    let mut finding = Finding::new(FindingKind::Settled, rank, text, Some(at));
    finding.more = more;
    found.push(finding);
}

/// Whether `line` awaits a request and turns its failure into a value (`.await.unwrap_or(0)`,
/// `.await.unwrap_or_default()`, `.await.ok()`): a silent default where the request failed.
pub(super) fn defaults_a_failure(line: &str) -> bool {
    let code = code_part(line);
    code.split(".await").skip(1).any(|after| {
        [".unwrap_or(", ".unwrap_or_default()", ".unwrap_or_else(", ".ok()"]
            .iter()
            .any(|d| after.trim_start().starts_with(d))
    })
}

/// How many assignments of a `let mut` [`assigned_after_let`] returns.
pub(super) const ASSIGNED_LINES: usize = 2;

/// The lines in `inside` (0-based) that assign (`x = ..`, `x += ..`, `x -= ..`, ..) a name the lines `values` read
/// that a `let mut` inside the block (from line `from`) bound: an accumulator (`let mut cents = 0;` then `cents +=
/// grams * per_kg / 100;` in a loop) is made by its assignments, not by its `let`. The last ones first, at most
/// [`ASSIGNED_LINES`].
pub(super) fn assigned_after_let(
    lines: &[String],
    from: u32,
    values: &[usize],
    inside: std::ops::Range<usize>,
) -> Vec<usize> {
    let mut out = Vec::new();
    for &v in values {
        let code = literal_code(lines, v);
        let Ok(at) = u32::try_from(v + 1) else { continue };
        for bound in lets_binding(lines, from, at, &code) {
            let bound = bound as usize - 1;
            let pattern = code_part(&lines[bound]).trim_start();
            let Some(name) = pattern
                .strip_prefix("let mut ")
                .and_then(|rest| rest.split(['=', ':', ' ']).next())
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            let assigns = |i: &usize| {
                let code = code_part(&lines[*i]).trim_start();
                code.strip_prefix(name).is_some_and(|rest| {
                    let rest = rest.trim_start();
                    ["=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>="]
                        .iter()
                        .any(|op| rest.starts_with(op) && !rest[op.len()..].starts_with(['=', '>']))
                })
            };
            let mut found: Vec<usize> = (bound + 1..v).filter(|i| inside.contains(i) && assigns(i)).collect();
            found.reverse();
            for i in found {
                if out.len() < ASSIGNED_LINES && !out.contains(&i) {
                    out.push(i);
                }
            }
        }
    }
    out
}

/// The code of line `v` (0-based), and when it opens a struct literal (`FuelBill {`), of its field lines
/// ([`literal_field_lines`]): the names a value made of a literal reads are on those lines.
fn literal_code(lines: &[String], v: usize) -> String {
    let mut code = code_part(&lines[v]).to_owned();
    for (i, _, _) in literal_field_lines(lines, u32::try_from(v + 1).unwrap_or(u32::MAX), false) {
        code.push(' ');
        code.push_str(code_part(&lines[i]));
    }
    code
}

/// Whether a line decides among values: it hands a closure the choice (`.filter(|r| ..)`, `.min_by_key(|s| ..)`) or
/// compares (`if a >= b`).
pub(super) fn decides(line: &str) -> bool {
    code_part(line).contains('|') || compares(line)
}

/// Whether a line compares two values (`.filter(|line| line.have >= line.need)`).
pub(super) fn compares(line: &str) -> bool {
    let code = code_part(line);
    [" < ", " > ", " <= ", " >= ", " == ", " != "].iter().any(|op| code.contains(op))
}

/// The text of the one string literal a line makes a value of, when it is fixed (no `format!`, no `{`): `"closed"`
/// in `return Ok("closed".to_owned());`.
pub(super) fn fixed_text(code: &str) -> Option<&str> {
    let code = code.trim();
    let tests = ["if ", "else if ", "while ", "match "].iter().any(|w| code.starts_with(w))
        || [" < ", " > ", " <= ", " >= ", "==", "!", "&&", "||"].iter().any(|op| code.contains(op));
    if tests || code.matches('"').count() != 2 {
        return None;
    }
    let (before, rest) = code.split_once('"')?;
    let (text, after) = rest.split_once('"')?;
    // the literal is the value made: returned, wrapped or bound, not an argument (`map.get("k")`)
    let before = before.trim_end();
    let made_here = before.is_empty()
        || ["Ok(", "Some(", "String::from(", "return", "=>", "="].iter().any(|b| before.ends_with(b));
    let made = [".to_owned()", ".to_string()", ".into()", ")", ";", ","].iter().any(|a| after.starts_with(a))
        || after.is_empty();
    (made_here && made && !text.contains(['{', '\\'])).then_some(text)
}
