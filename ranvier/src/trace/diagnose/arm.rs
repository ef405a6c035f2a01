//! The lines of an `update` arm, from the source: those that change state, the commands it chooses, the binding and
//! loop that chose the place written, and results it drops.

use super::*;

/// How many lines of the helpers an `update` arm calls an `update:` finding quotes when nothing recorded what the
/// message ran ([`reached::reached`]).
pub(super) const REACHED_LINES: usize = 2;

/// How many code lines of an `update` arm an `update:` finding quotes.
pub(super) const ARM_LINES: usize = 5;

/// Whether a line of an `update` arm changes state: an assignment (`=`, `+=`, ...) or a call that changes a
/// collection (`push`, `retain`, `insert`, `remove`, ...).
pub(super) fn changes_state(code: &str) -> bool {
    let assigns = assignment_at(code).is_some();
    let mutates = mutating_call_at(code).is_some();
    (assigns && !code.trim_start().starts_with("let ")) || mutates
}

/// The calls that change what their receiver holds, as a line spells them.
pub(super) const MUTATING_CALLS: [&str; 11] = [
    ".push(",
    ".retain(",
    ".insert(",
    ".remove(",
    ".clear(",
    ".pop(",
    ".extend(",
    ".truncate(",
    ".sort",
    ".dedup",
    ".swap",
];

/// Where `code`'s first assignment (`=`, `+=`, …, not `==`, `<=`, `=>`) is.
pub(super) fn assignment_at(code: &str) -> Option<usize> {
    code.match_indices('=')
        .find(|(i, _)| {
            let before = code[..*i].chars().next_back();
            let after = code[i + 1..].chars().next();
            !matches!(before, Some('=' | '!' | '<' | '>')) && !matches!(after, Some('=' | '>'))
        })
        .map(|(i, _)| i)
}

/// Where the place `code` writes ends: its first assignment or mutating call, whichever comes first.
pub(super) fn write_end(code: &str) -> Option<usize> {
    match (assignment_at(code), mutating_call_at(code)) {
        (Some(a), Some(m)) => Some(a.min(m)),
        (a, m) => a.or(m),
    }
}

/// Where `code`'s first call of one of [`MUTATING_CALLS`] is (its `.`).
pub(super) fn mutating_call_at(code: &str) -> Option<usize> {
    MUTATING_CALLS.iter().filter_map(|c| code.find(c)).min()
}

/// Whether an `update`'s line changes state: it assigns or mutates ([`changes_state`]), or hands state to a
/// helper by `&mut` (`depart(&mut next, id);`, which writes it there).
pub(super) fn writes_line(text: &str) -> bool {
    let code = source::code_of(text);
    changes_state(code) || code.contains("(&mut ") || code.contains(", &mut ")
}

/// The lines (1-based) of `def` in `file` that call a fn of the crate returning a value as a statement of their
/// own, dropping the value (`depart(&mut next, id);`): a result a caller forgot.
pub(super) fn dropped_results(index: &source::Index, def: &source::FnDef, file: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for c in index.calls.iter().filter(|c| def.whole.holds(c.whole) && !c.path.is_empty()) {
        if c.whole.first != c.whole.last {
            continue;
        }
        let code = source::code_of(&index.lines[c.whole.first as usize - 1]).trim();
        let name = c.path.join("::");
        if !(code.starts_with(&format!("{name}(")) && code.ends_with(");")) {
            continue;
        }
        let Some(found) = source::resolve_fn(file, c.line, &c.path) else {
            continue;
        };
        // the signature returns a value (a `->` in a parameter's type, `points: fn(u32) -> u32`, is not the fn's);
        // a fn that never returns (`-> !`) returned nothing to drop
        if found.def().returns == source::Returns::Value && !out.contains(&c.whole.first) {
            out.push(c.whole.first);
        }
    }
    out
}

/// The locals of `def` that it fills and never reads after (`let mut follow = Vec::new();`, then
/// `follow.push(Msg::Finish { job: id });` or `pack(&mut next, &mut follow)`, then `Ok(Vec::new())`): for each, the
/// lines (1-based) that fill it, and the line of the value the fn returned instead. What was built there was dropped:
/// a command not sent, a row not kept.
pub(super) fn dropped_locals(index: &source::Index, def: &source::FnDef) -> Vec<(Vec<u32>, u32)> {
    const FILLS: [&str; 3] = [".push(", ".extend(", ".insert("];
    let lines = &index.lines;
    let mut out = Vec::new();
    let last = def.whole.last.min(u32::try_from(lines.len()).unwrap_or(u32::MAX));
    for l in def.whole.first..=last {
        let code = source::code_of(&lines[l as usize - 1]).trim();
        let Some(rest) = code.strip_prefix("let mut ") else { continue };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() || !rest[name.len()..].trim_start().starts_with(['=', ':']) {
            continue;
        }
        let mut fills = Vec::new();
        let mut read = false;
        for m in l + 1..=last {
            let code = source::code_of(&lines[m as usize - 1]).trim_start();
            if !super::body::mentions(code, &name) {
                continue;
            }
            let pushed = FILLS.iter().any(|f| code.starts_with(&format!("{name}{f}"))) && !code[name.len()..].contains(&name);
            // lent to a call that fills it (`pack(&mut next, &mut commands)`), and named nowhere else on the line
            let lent = format!("&mut {name}");
            let lent_only = code.matches(lent.as_str()).count() == 1
                && !super::body::mentions(&code.replacen(&lent, "", 1), &name);
            if pushed || lent_only {
                fills.push(m);
            } else {
                read = true;
                break;
            }
        }
        // the fn's last statement, its value (the line above its closing brace)
        let returned = (l + 1..last).rev().find(|m| is_code(&lines[*m as usize - 1]) && source::code_of(&lines[*m as usize - 1]).trim() != "}");
        if let (false, false, Some(value)) = (read, fills.is_empty(), returned) {
            out.push((fills, value));
        }
    }
    out
}

/// How many lines a `let` statement is followed for the line that chose what it binds.
pub(super) const BINDING_LINES: usize = 8;

/// For the write on line index `at` (`vessel.berth = ..`, `row.push(..)`), of a fn whose lines start at index
/// `from`: in the latest `let` before it that bound the written place's root (`vessel`), the line that chose the
/// place (a closure given to a lookup: `.find(|v| ..)`); none for a binding that looks nothing up.
pub(super) fn binding_of_written(lines: &[String], from: usize, at: usize) -> Option<usize> {
    let code = source::code_of(&lines[at]).trim();
    let root: String = code
        .trim_start_matches('*')
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if root.is_empty() || root == "self" {
        return None;
    }
    let binds = |text: &str| {
        let text = source::code_of(text);
        let Some(rest) = text.trim_start().strip_prefix("let ") else {
            return false;
        };
        let pattern = rest.split('=').next().unwrap_or_default();
        mentions(pattern, &root)
    };
    let start = (from..at).rev().find(|i| binds(&lines[*i]))?;
    let end = (start..at.min(start + BINDING_LINES))
        .find(|i| {
            let text = source::code_of(&lines[*i]);
            text.trim_end().ends_with(';') || text.contains("else {")
        })
        .unwrap_or(start);
    // a plain binding (`let mut next = desk.clone();`) chose nothing: only a lookup's predicate is quoted
    (start..=end).find(|i| is_code(&lines[*i]) && source::code_of(&lines[*i]).contains('|'))
}

/// For the write on line index `at`, of a fn whose lines start at index `from`: the header of the innermost `for`
/// loop around it when the header filters or looks up what it walks (a closure: `for stay in
/// stays.iter().filter(|s| s.checked_in) {`): it chose which items, and how many times, the write ran. None for a
/// write outside a loop or in a loop over everything (`for stay in &stays {`), which chose nothing.
pub(super) fn loop_of_written(lines: &[String], from: usize, at: usize) -> Option<usize> {
    // up from the write, the first line that opens a block the write is inside (more `{` than `}` seen so far)
    let mut depth = 0_i32;
    for i in (from..at).rev() {
        let code = code_part(&lines[i]);
        for c in code.chars().rev() {
            match c {
                '}' => depth += 1,
                '{' => depth -= 1,
                _ => {}
            }
        }
        if depth < 0 {
            let head = code.trim_start();
            if head.starts_with("for ") && head.contains('|') {
                return Some(i);
            }
            // an enclosing block that is not such a loop: look further out
            depth = 0;
        }
    }
    None
}

/// How far below an `Mvu`'s creation its inline `update`'s arms are looked for first.
pub(super) const NEAR_ARM_LINES: u32 = 40;

/// The line indexes (0-based) an `update:` finding quotes of an arm of an `update` that returns commands
/// (`Mvu::with_commands`): its `=>` line, then the lines of its body that build commands (that name a variant of
/// the message type the arm matches, or make a `vec!`), then those [`arm_lines`] picks, at most [`ARM_LINES`].
pub(super) fn command_lines(index: &source::Index, arm: &source::Arm) -> Vec<usize> {
    let lines = &index.lines;
    let arrow = arm.arrow as usize - 1;
    // the message type, as the arm's pattern spells it: `Msg` in `Msg::Book =>`
    let pattern = lines[arrow].split("=>").next().unwrap_or_default();
    let message_type = arm.variants.iter().find_map(|v| {
        let at = pattern.find(&format!("::{v}"))?;
        let before = &pattern[..at];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        Some(before[start..].to_owned()).filter(|t| !t.is_empty())
    });
    let builds = |i: usize| {
        let code = source::code_of(&lines[i]);
        code.contains("vec!") || message_type.as_ref().is_some_and(|t| code.contains(&format!("{t}::")))
    };
    let mut out = vec![arrow];
    out.extend(
        (arm.arrow as usize..arm.body.last as usize)
            .filter(|i| is_code(&lines[*i]) && builds(*i))
            .take(ARM_LINES - 1),
    );
    for i in arm_lines(index, arm) {
        if out.len() >= ARM_LINES {
            break;
        }
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out[1..].sort_unstable();
    out
}

/// The line indexes (0-based) an `update:` finding quotes of `arm`: its `=>` line, then the code lines of its body
/// below it (at most [`ARM_LINES`] in all); a long body by the lines that change state.
pub(super) fn arm_lines(index: &source::Index, arm: &source::Arm) -> Vec<usize> {
    let arrow = arm.arrow as usize - 1;
    let code_of = |i: usize| {
        source::code_of(&index.lines[i]).to_owned()
    };
    // a field written by its name alone (`sku,` in `Item { sku, qty }`) says nothing the line above does not
    let shorthand = |t: &str| {
        t.trim().strip_suffix(',').is_some_and(|t| {
            !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
    };
    let mut body: Vec<usize> = (arm.arrow as usize..arm.body.last as usize)
        .filter(|i| is_code(&index.lines[*i]) && !shorthand(&index.lines[*i]))
        .collect();
    if body.len() >= ARM_LINES {
        let changes: Vec<usize> = body
            .iter()
            .copied()
            .filter(|i| changes_state(&code_of(*i)))
            .collect();
        if !changes.is_empty() {
            body = changes;
        }
    }
    let mut out = vec![arrow];
    out.extend(body.into_iter().take(ARM_LINES - 1));
    out
}

/// `lines` with, after each line of a `match` arm whose `match` tests a local (`0 => line.push_str(": full"),` in
/// `match seats_left {`), the `let` that bound that local (`let seats_left = passengers.saturating_sub(seats);`):
/// it chose the arm. Once per `match`; a line quoted already is not quoted again.
pub(super) fn scrutinee_lets(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    let mut out: Vec<SourceLine> = Vec::with_capacity(lines.len());
    let mut matches_seen: HashSet<(&'static str, u32)> = HashSet::new();
    let quoted: HashSet<(&'static str, u32)> = lines.iter().map(|l| (l.site.file, l.site.line)).collect();
    for line in lines {
        let file = line.site.file;
        let at = line.site.line;
        let bound = source::index(file).and_then(|index| {
            let arm = index.arms.iter().find(|a| a.arrow == at)?;
            let (name, opens) = arm.scrutinee.as_ref()?;
            if !matches_seen.insert((file, *opens)) {
                return None;
            }
            let def = index.fn_at(*opens)?;
            let l = lets_binding(&index.lines, def.whole.first, *opens, name).into_iter().next()?;
            (!quoted.contains(&(file, l))).then(|| numbered(file, &index.lines, l as usize - 1))
        });
        out.push(line);
        out.extend(bound);
    }
    out
}

/// `lines` with, after each line whose value is a local alone (a `match` arm's `Plan::Weekly => weekly,`, a tail
/// `weekly`), the `let` that bound it (`let weekly = thousands * PER_THOUSAND;`) and the `let`s above it that computed
/// what that one read (`let thousands = cover / 100_000;`): the value the line gave was made there. At most
/// [`RETURNED_LETS`] lines each; a line quoted already is not quoted again.
pub(super) fn returned_lets(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    follow_each(lines, |line, quoted| {
        let mut out = Vec::new();
        let (file, at) = (line.site.file, line.site.line);
        let Some(index) = source::index(file) else { return out };
        let Some(code) = index.lines.get(at as usize - 1) else { return out };
        let code = code_part(code).trim();
        let value = code.split_once("=>").map_or(code, |(_, v)| v.trim()).trim_end_matches(',');
        let alone = !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !alone || !value.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
            return out;
        }
        let Some(def) = index.fn_at(at) else { return out };
        let mut next = lets_binding(&index.lines, def.whole.first, at, value);
        while let Some(l) = next.pop() {
            if out.len() >= RETURNED_LETS {
                break;
            }
            let Some((_, rhs)) = one_name_let(&index.lines[l as usize - 1]) else { continue };
            if !(has_arithmetic(rhs) || rhs.contains('(')) || !quoted.insert((file, l)) {
                continue;
            }
            out.push(numbered(file, &index.lines, l as usize - 1));
            next = lets_binding(&index.lines, def.whole.first, l, rhs);
            next.reverse();
        }
        out
    })
}

/// How many `let`s [`returned_lets`] follows a line with at most.
const RETURNED_LETS: usize = 2;
