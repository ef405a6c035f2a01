//! What a message's lines say beyond what ran: an `update` that refused a message, a `let` only a notice's `format!`
//! reads, a struct literal's field set from an argument of another name.

use super::*;

/// The rank of the finding of the message [`refused_message`] found: before the explained node's body.
pub(super) const REFUSED_RANK: u32 = 700;

/// The latest message a client or the program dispatched (not a command) to a model in the cone, other than those
/// in `known`, that its `update` refused: a branch that ran returned from a fn at once (`if let Some(why) = refuse(..)
/// { return notify(why); }`), not with a literal (`return 0;` in a rule computes its value). What it would have
/// added is missing from the value, and the rule that refused it is a suspect.
pub(super) fn refused_message(ctx: &Ctx<'_>, in_cone: &HashSet<NodeId>, known: &[(u64, u32)]) -> Option<u64> {
    let mut out: Option<u64> = None;
    for &model in in_cone {
        if !ctx.rec(model).is_some_and(|r| r.is_model) {
            continue;
        }
        for seq in ctx.tracer.messages_to(model) {
            if known.iter().any(|(m, _)| *m == seq)
                || out.is_some_and(|o| o > seq)
                || ctx.tracer.kept_message(seq).is_none_or(|m| m.cause != 0)
            {
                continue;
            }
            let refused = ctx.tracer.ran_for_message(seq).iter().any(|r| {
                r.value.is_none()
                    && source::index(r.file)
                        .and_then(|index| exit_of(&index, r.line))
                        .is_some_and(|(_, exit)| exit.starts_with("return") && !returns_a_literal(&exit))
            });
            if refused {
                out = Some(seq);
            }
        }
    }
    out
}

/// Whether `exit` (`return 0;`) returns a literal: a number, `true` or `false`, a text. A fn that returns early with
/// one computed its value there (`if floor == 0 && lift { return 0; }` in a price rule): it refused nothing, where
/// `return;`, `return next;` or `return refuse(why);` leave a message's work undone.
fn returns_a_literal(exit: &str) -> bool {
    let value = exit.trim_start_matches("return").trim().trim_end_matches(';').trim();
    // a number: `0`, `-1`, `1_000`, `2.5`, `0_u64` (not a name: `inf` parses as a float but is a local)
    let number = value.strip_prefix('-').unwrap_or(value);
    value == "true"
        || value == "false"
        || (value.len() >= 2 && value.starts_with('"') && value.ends_with('"'))
        || (number.starts_with(|c: char| c.is_ascii_digit())
            && number.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'))
}

/// Whether fn `def`'s value is a `format!` alone (each line that makes its value starts with `format!(`).
pub(super) fn only_formats(index: &source::Index, def: &source::FnDef) -> bool {
    !def.value.is_empty()
        && def.value.iter().all(|v| {
            index
                .lines
                .get(v.first as usize - 1)
                .is_some_and(|l| code_part(l).trim_start().starts_with("format!("))
        })
}

/// In the fns `ran` entered: a value a `let` that ran bound (`let fee = if .. { .. } else { 0 };`) that the fn
/// reads only inside `format!` texts (a notice's), in a fn that sends a value of its own in a field the cone reads
/// (`cents: goods,`): the value was worked out and told, never sent, so the command that should carry it is missing.
/// The statement that builds the commands sent (`let commands = vec![`), then the `let`.
pub(super) fn told_only(ran: &[crate::trace::log::Ran], read: &HashSet<String>) -> Vec<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    for found in entered_fns(ran) {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let lines = &index.lines;
        let body = def.whole.first + 1..def.whole.last;
        let not_run = |at: u32| not_taken(index, def.whole, file, &recorded, at);
        // the first line that sends a field the cone reads, and the statement it is in (the nearest line above that
        // starts a `let` or a `push`)
        let Some(sent) = body.clone().find(|&l| {
            let code = code_part(&lines[l as usize - 1]);
            code.contains(':') && names_read_field(code, read) && !not_run(l)
        }) else {
            continue;
        };
        let statement = (def.whole.first + 1..=sent).rev().find(|&l| {
            let code = code_part(&lines[l as usize - 1]).trim_start();
            code.starts_with("let ") || code.contains(".push(")
        });
        let Some(statement) = statement else { continue };
        for l in body.clone().filter(|l| *l < statement) {
            let code = code_part(&lines[l as usize - 1]).trim_start();
            let Some(name) = code
                .strip_prefix("let ")
                .and_then(|rest| rest.split(['=', ':']).next())
                .map(str::trim)
                .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
            else {
                continue;
            };
            // a value worked out (a choice, a sum, a number), not a name or a text looked up (`desk.title(&isbn)`)
            let statement_text: String = (l..statement)
                .map(|i| code_part(&lines[i as usize - 1]))
                .collect::<Vec<_>>()
                .join(" ");
            let value = statement_text.split_once('=').map_or("", |(_, v)| v);
            let value = value.split(';').next().unwrap_or_default();
            let worked_out = value.contains("if ")
                || [" + ", " - ", " * ", " / "].iter().any(|op| value.contains(op))
                || idents(value).any(|(_, w)| w.starts_with(|c: char| c.is_ascii_digit()));
            if not_run(l) || !worked_out {
                continue;
            }
            let uses: Vec<u32> = (l + 1..def.whole.last)
                .filter(|u| idents(code_part(&lines[*u as usize - 1])).any(|(_, w)| w == name))
                .collect();
            if !uses.is_empty() && uses.iter().all(|u| inside_format(lines, l, *u)) {
                return [statement, l]
                    .into_iter()
                    .map(|at| numbered(file, lines, at as usize - 1))
                    .collect();
            }
        }
    }
    Vec::new()
}

/// Whether line `at` lies inside the arguments of a `format!` opened on it or on a line after `from` (its
/// parentheses not closed before `at`'s end).
pub(super) fn inside_format(lines: &[String], from: u32, at: u32) -> bool {
    for open in (from + 1..=at).rev() {
        let code = code_part(&lines[open as usize - 1]);
        let Some(start) = code.find("format!(") else { continue };
        // the parentheses from the `format!(` to the end of line `at`
        let mut depth = 0_i32;
        for l in open..=at {
            let text = code_part(&lines[l as usize - 1]);
            let text = if l == open { &text[start..] } else { text };
            for c in text.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 && l < at {
                break;
            }
        }
        // still open at the end of `at`, or closed on `at` itself after the name (a one-line `format!`)
        return depth > 0 || open == at;
    }
    false
}

/// The rank of the finding of a message [`literal_fields`] quoted a field of: before the explained node's body.
pub(super) const RENAMED_RANK: u32 = 700;

/// The names of a message's arguments, from its arguments' text (`{"product":"BAG","trays":2}`, or the `Debug`
/// text `Bake { product: "BAG", trays: 2 }`): each name followed by `":` or `:`.
pub(super) fn arg_names(args: &str) -> Vec<String> {
    idents(args)
        .filter(|(at, word)| {
            let after = &args[at + word.len()..];
            (after.starts_with("\":") && args[..*at].ends_with('"')) || (after.starts_with(": ") && !args[..*at].ends_with('"'))
        })
        .map(|(_, word)| word.to_owned())
        .collect()
}

/// The field lines of the struct literal line `line` (1-based) of `lines` opens (`bakery.batches.push(Batch {`, the
/// `Name {` at the end of the line, not `if .. {`; with `structs_only`, not a variant's `Msg::Post {` nor one after
/// `=>` either): each line's index (0-based), its field and the value it is set from, `None` when that is not one
/// word (`trays` for `pieces: trays,`, the field itself for the shorthand `granted,`). Empty when the line opens no
/// literal.
pub(super) fn literal_field_lines(lines: &[String], line: u32, structs_only: bool) -> Vec<(usize, String, Option<String>)> {
    let Some(open) = lines.get(line as usize - 1).map(|l| code_part(l).trim_end()) else {
        return Vec::new();
    };
    let Some(head) = open.strip_suffix('{').map(str::trim_end) else { return Vec::new() };
    let start = head.len() - head.chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').count();
    let (before, name) = (head[..start].trim_end(), &head[start..]);
    if !name.starts_with(|c: char| c.is_ascii_uppercase())
        || (structs_only && (before.ends_with("::") || before.ends_with("=>")))
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut depth = 1_i32;
    for (i, text) in lines.iter().enumerate().skip(line as usize).take(40) {
        let code = code_part(text).trim();
        if depth == 1 {
            let field: String = code.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let rest = code[field.len()..].trim_start();
            let value = match rest.strip_prefix(':').filter(|v| !v.starts_with(':')) {
                Some(value) => Some(value.trim().trim_end_matches(',').trim().to_owned()),
                None if !field.is_empty() && (rest.starts_with(',') || rest.is_empty()) => Some(field.clone()),
                None => None,
            };
            let value = value.filter(|v| !v.is_empty() && v.chars().all(|c| c.is_alphanumeric() || c == '_'));
            if !field.is_empty() {
                out.push((i, field, value));
            }
        }
        depth += i32::try_from(code.matches(['{', '(', '[']).count()).unwrap_or(0);
        depth -= i32::try_from(code.matches(['}', ')', ']']).count()).unwrap_or(0);
        if depth <= 0 {
            break;
        }
    }
    out
}

/// A quoted line that opens a struct literal written over several lines (`bakery.batches.push(Batch {`) says what
/// was made, not with which values: the first field line of such a literal that sets a field the cone reads (`read`)
/// from the message's argument of another name (`pieces: trays,` for the message's `trays`: the message calls the
/// value one thing, the field another) goes right after it: one line more at most. Whether one did.
pub(super) fn literal_fields(quoted: &mut Vec<SourceLine>, read: &HashSet<String>, args: &[String]) -> bool {
    if args.is_empty() {
        return false;
    }
    for at in 0..quoted.len() {
        let (file, line) = (quoted[at].site.file, quoted[at].site.line);
        let Some(index) = source::index(file) else { continue };
        let renamed = literal_field_lines(&index.lines, line, true).into_iter().find(|(_, field, value)| {
            value.as_ref().is_some_and(|v| v != field && args.contains(v)) && read.contains(field)
        });
        if let Some((i, _, _)) = renamed {
            quoted.insert(at + 1, numbered(file, &index.lines, i));
            return true;
        }
    }
    false
}

/// A quoted line that opens a struct or variant literal (`payroll.leave.push(LeaveRequest {`, `Msg::Charge {`) whose
/// field the cone reads (`read`) is set from a local (`granted,` or `granted: ok,`): the `let` in the same fn that
/// bound that local decided the value written, so it is quoted right after the literal's line. At most one `let` a
/// literal.
pub(super) fn literal_lets(quoted: &mut Vec<SourceLine>, read: &HashSet<String>) {
    let mut at = 0;
    while at < quoted.len() {
        let (file, line) = (quoted[at].site.file, quoted[at].site.line);
        at += 1;
        let Some(index) = source::index(file) else { continue };
        let Some(def) = index.fn_at(line)
        else {
            continue;
        };
        let from = def.whole.first as usize - 1;
        let bound = literal_field_lines(&index.lines, line, false).into_iter().find_map(|(_, field, value)| {
            let local = value.filter(|_| read.contains(&field))?;
            template::let_of(&index.lines, from, line as usize - 1, &local)
        });
        if let Some(l) = bound {
            let let_line = numbered(file, &index.lines, l);
            if !quoted.iter().any(|q| q.site == let_line.site) {
                quoted.insert(at, let_line);
                at += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::returns_a_literal;

    #[test]
    fn a_return_of_a_number_a_boolean_or_a_text_is_a_literal_and_a_name_or_a_call_is_not() {
        for exit in ["return 0;", "return -1;", "return 1_000;", "return 2.5;", "return 0_u64;", "return true;", "return \"none\";"] {
            assert!(returns_a_literal(exit), "{exit}");
        }
        for exit in ["return;", "return next;", "return inf;", "return refuse(why);", "return Vec::new();"] {
            assert!(!returns_a_literal(exit), "{exit}");
        }
    }
}
