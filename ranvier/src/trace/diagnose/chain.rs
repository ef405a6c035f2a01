//! Method chains written over several lines. A line that continues a chain (`.map_or("U", |b| b.1)`) is the tail
//! of a statement that starts above it: the chain's line that hands a closure the choice
//! (`.find(|(from, _)| percent > *from)`) decided what the tail was given, so a quoted tail brings it. And a finding
//! that quotes one link of a chain quotes the chain's links that decide: the binding it starts from (`let taken:
//! Vec<u32> = sales`, where the wrong list may be read), the link itself, and the link that gives the chain's value
//! (`.partition(..)`, `.all(..)`, after the finding's other lines); a link that only carries the value along
//! (`.get()`, `.iter()`) is not quoted in the node's own body.

use super::{SourceLine, code_part, is_code, numbered, source};
use std::collections::HashSet;

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

/// Whether line `at` of a chain decides its value: a link that does (`Chain::links`), or the line the chain starts
/// from when it binds, assigns or returns (`let taken: Vec<u32> = sales`).
fn decides(chain: &source::Chain, text: &str, at: u32, link_decides: bool) -> bool {
    let code = code_part(text).trim();
    link_decides
        || (chain.links.first().is_some_and(|&(first, _)| first == at)
            && (code.starts_with("let ")
                || code.starts_with("return ")
                || [" = ", "+= ", "-= "].iter().any(|op| code.contains(op))))
}

/// `lines`, each line that starts a link of a method chain written over several lines standing for the whole chain:
/// its links that decide (`let taken = sales` it starts from, `.filter(|s| s.till == till)`, `.sum()`) are quoted in
/// its place, and a link that only carries the value along (`.get()`, `.iter()`, a bare name) is not. A reader sees
/// what the chain kept and computed, not only where it read.
pub(super) fn whole_chains(lines: Vec<SourceLine>) -> Vec<SourceLine> {
    let mut out: Vec<SourceLine> = Vec::with_capacity(lines.len());
    let mut quoted: HashSet<(&'static str, u32)> = HashSet::new();
    // the links that give each chain's value, quoted after the lines given
    let mut tails: Vec<SourceLine> = Vec::new();
    for line in lines {
        let (file, at) = (line.site.file, line.site.line);
        let index = (!line.text.is_empty()).then(|| source::index(file)).flatten();
        let Some((index, chain)) = index.as_ref().and_then(|i| Some((i, i.chains.iter().find(|c| c.starts(at))?)))
        else {
            if quoted.insert((file, at)) {
                out.push(line);
            }
            continue;
        };
        let numbered_at = |l: u32| numbered(file, &index.lines, (l as usize).saturating_sub(1));
        let first = chain.links[0].0;
        let binds = index
            .lines
            .get((first as usize).saturating_sub(1))
            .is_some_and(|text| decides(chain, text, first, false));
        let last = chain
            .links
            .iter()
            .rev()
            .find(|&&(l, d)| d && l != first)
            .map(|&(l, _)| l);
        let own = chain.links.iter().any(|&(l, d)| l == at && d);
        if binds && quoted.insert((file, first)) {
            out.push(if first == at { line.clone() } else { numbered_at(first) });
        }
        if (own || (!binds && last.is_none())) && quoted.insert((file, at)) {
            out.push(line);
        }
        tails.extend(last.map(numbered_at));
    }
    for tail in tails {
        if quoted.insert((tail.site.file, tail.site.line)) {
            out.push(tail);
        }
    }
    out
}

/// Whether `line` only carries a chain's value along (`.get()`, `.iter()`, a bare name starting a chain written over
/// several lines): its text says nothing the chain's other lines do not.
pub(super) fn only_carries(line: &SourceLine) -> bool {
    let Some(index) = source::index(line.site.file) else {
        return false;
    };
    let at = line.site.line;
    index.chains.iter().any(|chain| {
        chain.links.iter().any(|&(link, d)| {
            link == at && !decides(chain, &line.text, at, d)
        })
    })
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

    #[test]
    fn a_chain_starting_from_a_binding_decides_there() {
        let chain = source::Chain {
            links: vec![(2, false), (3, false), (4, true)],
        };
        assert!(decides(&chain, "    let taken: Vec<u32> = sales", 2, false));
        assert!(decides(&chain, "    total += sales", 2, false));
        assert!(!decides(&chain, "    sales", 2, false));
        assert!(!decides(&chain, "        .iter()", 3, false));
        assert!(decides(&chain, "        .filter(|s| s.card)", 4, true));
    }
}
