//! A line that continues a method chain (`.map_or("U", |b| b.1)`) is the tail of a statement that starts above it:
//! the chain's line that hands a closure the choice (`.find(|(from, _)| percent > *from)`) decided what the tail
//! was given, so a quoted tail brings it.

use super::{code_part, is_code};

/// How many lines above a chain's tail [`closure_above`] looks.
const CHAIN_LINES: usize = 8;

/// When line `at` (0-based) continues a method chain (its code starts with `.`): the nearest line above it in the
/// same chain that passes a closure (`.find(|x| ..)`, `.filter(|x| ..)`), comments skipped.
pub(super) fn closure_above(lines: &[String], at: usize) -> Option<usize> {
    let continues = |i: usize| code_part(&lines[i]).trim_start().starts_with('.');
    if !continues(at) {
        return None;
    }
    let mut i = at;
    for _ in 0..CHAIN_LINES {
        i = i.checked_sub(1)?;
        if !is_code(&lines[i]) {
            continue;
        }
        // the chain's receiver (`BANDS`) ends it
        if !continues(i) {
            return None;
        }
        if code_part(&lines[i]).contains('|') {
            return Some(i);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chains_tail_brings_the_closure_that_chose() {
        let lines: Vec<String> = [
            "BANDS",
            "    .iter()",
            "    // a comment",
            "    .find(|(from, _)| percent > *from)",
            "    .map_or(\"U\", |b| b.1)",
            "let x = y.map(|v| v + 1);",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(closure_above(&lines, 4), Some(3));
        assert_eq!(closure_above(&lines, 3), None);
        assert_eq!(closure_above(&lines, 5), None);
    }
}
