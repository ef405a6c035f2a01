//! A closure a body binds to a name (`let handed_in = |pupil: &str| marks.iter().any(..);`) and calls on a later
//! line (`.filter(|p| !handed_in(&p.name))`): the call says only its name, the `let` what it tests. A quoted line
//! that calls such a closure brings the closure's line.

use super::{code_part, idents};

/// How many closures' lines [`closure_lets`] returns at most.
const CLOSURE_LETS: usize = 2;

/// For the line `at` (0-based) inside lines `from..at`: the `let`s above it, from `from`, that bind a closure the
/// line calls (`handed_in(..)`), nearest first, at most [`CLOSURE_LETS`].
pub(super) fn closure_lets(lines: &[String], from: usize, at: usize) -> Vec<usize> {
    let code = code_part(&lines[at]);
    let mut out = Vec::new();
    for (start, name) in idents(code) {
        let after = code[start + name.len()..].trim_start();
        let member = code[..start].ends_with('.') || code[..start].ends_with("::");
        if !after.starts_with('(') || member || !name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
            continue;
        }
        let bound = (from..at).rev().find(|&l| {
            let code = code_part(&lines[l]).trim_start();
            code.strip_prefix("let ").and_then(|rest| rest.split_once('=')).is_some_and(|(pattern, rhs)| {
                let pattern = pattern.trim().trim_start_matches("mut ").trim();
                let rhs = rhs.trim_start();
                pattern.split(':').next().unwrap_or_default().trim() == name
                    && (rhs.starts_with('|') || rhs.starts_with("move |") || rhs.starts_with("move|"))
            })
        });
        if let Some(l) = bound
            && !out.contains(&l)
            && out.len() < CLOSURE_LETS
        {
            out.push(l);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_calling_a_closure_brings_its_let() {
        let lines: Vec<String> = [
            "let handed_in = |pupil: &str| marks.iter().any(|m| m.pupil == pupil);",
            "let names: Vec<&str> = pupils",
            "    .iter()",
            "    .filter(|p| p.joined <= work.due && !handed_in(&p.name))",
            "    .map(|p| p.name.as_str())",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(closure_lets(&lines, 0, 3), vec![0]);
        assert!(closure_lets(&lines, 0, 4).is_empty());
    }
}
