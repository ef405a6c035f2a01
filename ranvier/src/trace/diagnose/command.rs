//! A command (a message another message's `update` sent, `Msg::Post { pence: rent, .. }`) carries what its sender
//! computed: a wrong amount in it was made by the sender's lines that bound the command's arguments (`let rent =
//! prorate(annual, months);`, `let months = 12 - month_of(today);`), which no line of the command's own arm shows.

use super::template::let_of;
use super::{Ctx, SourceLine, code_part, entered_fns, has_arithmetic, numbered, read_names, variant_of};
use std::collections::HashSet;

/// How many lines [`argument_lines`] returns at most.
const COMMAND_ARG_LINES: usize = 1;

/// How many lines a command's construction may span.
const CONSTRUCTION_LINES: usize = 12;

/// The lines of the `update` of message `sender` that bound the arguments of the command `name` it sent: where the
/// fns that ran build it (`Msg::Post { .. }`), the `let`s of the names its fields read (those fields the cone reads,
/// `read`) that compute, and the `let`s those read in turn that compute with an operator; in the source's order, at most [`COMMAND_ARG_LINES`].
pub(super) fn argument_lines(ctx: &Ctx<'_>, sender: u64, name: &str, read: &HashSet<String>) -> Vec<SourceLine> {
    let variant = variant_of(name);
    let ran = ctx.tracer.ran_for_message(sender);
    let mut out: Vec<SourceLine> = Vec::new();
    for found in entered_fns(&ran) {
        let def = found.def();
        let lines = &found.index.lines;
        let first = def.whole.first as usize - 1;
        let last = (def.whole.last as usize).min(lines.len());
        for at in first..last {
            let Some(fields) = construction(lines, at, &variant) else { continue };
            // the fields the cone reads: a command whose fields it does not read carried nothing it shows
            let chosen: Vec<&(Option<String>, String)> =
                fields.iter().filter(|(f, _)| f.as_ref().is_some_and(|f| read.contains(f))).collect();
            let mut bound: Vec<usize> = Vec::new();
            for (_, expr) in chosen {
                for n in read_names(expr) {
                    let Some(l) = let_of(lines, first, at, &n).filter(|l| computes(&lines[*l])) else {
                        continue;
                    };
                    if !bound.contains(&l) {
                        bound.push(l);
                    }
                    // one step further back: the `let`s its own value reads
                    let rhs = code_part(&lines[l]).split_once('=').map(|(_, r)| r.to_owned()).unwrap_or_default();
                    for m in read_names(&rhs) {
                        if let Some(k) = let_of(lines, first, l, &m)
                            && operates(&lines[k])
                            && !bound.contains(&k)
                        {
                            bound.push(k);
                        }
                    }
                }
            }
            bound.sort_unstable();
            for l in bound {
                if out.len() < COMMAND_ARG_LINES && !out.iter().any(|o| o.site.file == found.file && o.site.line as usize == l + 1) {
                    out.push(numbered(found.file, lines, l));
                }
            }
        }
    }
    out
}

/// Whether a `let` computes its value (an operator, or a call that makes no empty value): `let settings =
/// &bakery.settings;` and `let mut lines = Vec::new();` only name or start one.
fn computes(line: &str) -> bool {
    let Some((_, rhs)) = code_part(line).split_once('=') else {
        return false;
    };
    let rhs = rhs.trim();
    let empty = ["::new()", "::default()", "Default::default()", "::with_capacity("].iter().any(|e| rhs.contains(e));
    let operator = has_arithmetic(rhs) || rhs.contains(".min(") || rhs.contains(".max(");
    operator || (rhs.contains('(') && !empty)
}

/// Whether a `let` computes its value with an arithmetic operator (`let months = 12 - month_of(today);`).
fn operates(line: &str) -> bool {
    code_part(line)
        .split_once('=')
        .is_some_and(|(_, rhs)| has_arithmetic(rhs))
}

/// When line `at` builds `variant` (`Msg::Post {` or `Msg::Post(`): its fields, each with its name when it has one
/// (`pence: rent` → `pence`, `rent`; a shorthand `member` → `member`, `member`), from the text up to its closing
/// bracket.
fn construction(lines: &[String], at: usize, variant: &str) -> Option<Vec<(Option<String>, String)>> {
    let code = code_part(&lines[at]);
    let start = code.match_indices(variant).map(|(i, _)| i).find(|&i| {
        let before_ok = !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let after = code[i + variant.len()..].trim_start();
        before_ok && (after.starts_with('{') || after.starts_with('('))
    })?;
    let mut text = code[start + variant.len()..].trim_start().to_owned();
    for line in lines.iter().skip(at + 1).take(CONSTRUCTION_LINES) {
        text.push(' ');
        text.push_str(code_part(line));
    }
    // the fields: the top-level comma-separated parts inside the first bracket
    let mut depth = 0i32;
    let mut in_str = false;
    let mut part = String::new();
    let mut parts = Vec::new();
    for c in text.chars() {
        if in_str {
            if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '(' | '[' => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            '}' | ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    parts.push(std::mem::take(&mut part));
                    break;
                }
            }
            ',' if depth == 1 => {
                parts.push(std::mem::take(&mut part));
                continue;
            }
            _ => {}
        }
        if depth >= 1 {
            part.push(c);
        }
    }
    let fields = parts
        .into_iter()
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty() && p != "..")
        .map(|p| match p.split_once(':').filter(|(_, rest)| !rest.starts_with(':')) {
            Some((field, expr)) => (Some(field.trim().to_owned()), expr.trim().to_owned()),
            None => {
                let shorthand = p.chars().all(|c| c.is_alphanumeric() || c == '_');
                (shorthand.then(|| p.clone()), p)
            }
        })
        .collect();
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commands_fields_with_their_names() {
        let lines: Vec<String> = [
            "vec![",
            "    Msg::Post {",
            "        member: name.clone(),",
            "        what: format!(\"rent, {months} months, a, b\"),",
            "        pence: rent,",
            "    },",
            "]",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let fields = construction(&lines, 1, "Post").unwrap();
        assert_eq!(fields.len(), 3);
        assert_eq!(fields[2], (Some("pence".to_owned()), "rent".to_owned()));
        assert_eq!(read_names(&fields[0].1), vec!["name".to_owned()]);
        assert!(construction(&lines, 2, "Post").is_none());
    }
}
