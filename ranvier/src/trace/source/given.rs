//! Fns given as values, followed through the source: a call of a parameter (`fee(lot)` in a fn that takes
//! `fee: fn(&Lot) -> u64`), of a local (`let fee = if .. { a::fee } else { b::fee }; fee(lot)`) or of a field
//! holding a fn (`(rules.band)(crop, stage)`) calls whichever fn the value holds, which no path at the call names.
//! The fns it may hold are those the source gives it: the arguments the fn's callers pass for the parameter, the
//! paths the `let` binds, the paths struct literals and assignments put in the field (`Rules { band: climate::band,
//! .. }`, `rules.band = slipped::band`), each followed again when it is itself a parameter or a local.
//!
//! Which of them a run called is not known here (a `#[trace_fn]` fn records it when it runs), but which branch the
//! code that chose the value took often is: `#[node]` records its builder's branches (`built`). A value written in a
//! branch of a fn that has such records is kept only when that branch ran, and goes first; the others are returned
//! in the order the crate's files and their lines give them. A record is a line: two branches on one line (`if a {
//! f } else { g }`) cannot be told apart.

use super::{Found, Index, crate_files, index, Needs, index_if, resolve_fn};
use crate::trace::log::Ran;

/// How many fns a value is followed to at most.
const GIVEN_MAX: usize = 4;

/// How many times a value is followed from a parameter or a local to where it came from.
const GIVEN_DEPTH: usize = 3;

/// The fns a call of `name` on line `at` of `file` may reach when `name` is a parameter or a local of the fn holding
/// that line (empty when it is neither, or nothing the source gives it is a fn of the crate).
pub(crate) fn fns_named(file: &str, at: u32, name: &str, built: &[Ran]) -> Vec<Found> {
    let mut out = Vec::new();
    named(file, at, name, GIVEN_DEPTH, built, &mut out);
    taken_first(out)
}

/// The fns a call through field `field` (`(rules.band)(..)`) may reach: those the crate's struct literals and
/// assignments put in a field of that name.
pub(crate) fn fns_in_field(file: &str, field: &str, built: &[Ran]) -> Vec<Found> {
    let mut out = Vec::new();
    in_field(file, field, GIVEN_DEPTH, built, &mut out);
    taken_first(out)
}

/// [`fns_in_field`], following the values at most `depth` times.
fn in_field(file: &str, field: &str, depth: usize, built: &[Ran], out: &mut Vec<Given>) {
    for f in crate_files(file).iter() {
        let Some(idx) = index_if(f.file, Needs::Word(field)) else { continue };
        for (name, value) in &idx.field_values {
            if name == field {
                given(f.file, &idx, value, depth, built, out);
            }
        }
    }
}

/// A fn a value may hold, and whether the branch it is written in is known to have run (`Some(true)`).
type Given = (Found, Option<bool>);

/// The fns, those whose branch ran first.
fn taken_first(mut out: Vec<Given>) -> Vec<Found> {
    out.sort_by_key(|(_, taken)| *taken != Some(true));
    out.into_iter().map(|(found, _)| found).collect()
}

/// Whether the branch line `at` of `file` is written in ran, when the records say: the innermost `match` arm, `if`
/// block or `else` block holding it, in a fn with records made outside any run (`built`); `None` when it is in no
/// branch or its fn has no such records.
fn branch_ran(file: &str, idx: &Index, at: u32, built: &[Ran]) -> Option<bool> {
    let f = innermost(idx, at)?;
    let whole = idx.fns[f].whole;
    let recorded = |line: u32| built.iter().any(|r| r.file == file && r.line == line);
    if !built.iter().any(|r| r.file == file && whole.contains(r.line)) {
        return None;
    }
    let arms = idx
        .arms
        .iter()
        .filter(|a| a.arrow <= at && at <= a.body.last.max(a.arrow))
        .map(|a| (a.arrow, a.arrow));
    let ifs = idx.ifs.iter().chain(&idx.elses).filter(|(_, block)| block.contains(at)).map(|(l, b)| (*l, b.first));
    let (line, _) = arms.chain(ifs).filter(|(l, _)| whole.contains(*l)).max_by_key(|(_, start)| *start)?;
    Some(recorded(line))
}

/// Whether `name` is a parameter of the fn holding line `at`, or a local a `let` above `at` in it binds to a path.
pub(crate) fn is_value(idx: &Index, at: u32, name: &str) -> bool {
    innermost(idx, at).is_some_and(|f| {
        let def = &idx.fns[f];
        def.params.iter().any(|p| p == name) || bound_let(idx, def.whole, at, name).is_some()
    })
}

fn innermost(idx: &Index, at: u32) -> Option<usize> {
    idx.fns
        .iter()
        .enumerate()
        .filter(|(_, f)| f.whole.contains(at))
        .min_by_key(|(_, f)| f.whole.last - f.whole.first)
        .map(|(i, _)| i)
}

/// The latest `let` binding `name` in `within` above line `at`.
fn bound_let(idx: &Index, within: super::Lines, at: u32, name: &str) -> Option<usize> {
    idx.lets
        .iter()
        .enumerate()
        .filter(|(_, (n, line, _))| n == name && within.contains(*line) && *line < at)
        .max_by_key(|(_, (_, line, _))| *line)
        .map(|(i, _)| i)
}

fn named(file: &str, at: u32, name: &str, depth: usize, built: &[Ran], out: &mut Vec<Given>) {
    let Some(idx) = index(file) else { return };
    let Some(f) = innermost(&idx, at) else { return };
    let def = &idx.fns[f];
    if let Some(l) = bound_let(&idx, def.whole, at, name) {
        for value in &idx.lets[l].2 {
            given(file, &idx, value, depth, built, out);
        }
        return;
    }
    let Some(position) = def.params.iter().position(|p| p == name) else { return };
    // the callers of the fn holding `at`, by its name: the argument each passes in that place
    for caller in crate_files(file).iter() {
        let Some(cidx) = index_if(caller.file, Needs::Word(&def.name)) else { continue };
        for call in &cidx.calls {
            // a call through a field holding the fn (`(helpers.wastage)(&mut next, helpers.wilted)`) names it
            // by the field, and reaches it when the crate puts it in a field of that name
            let through_field = call.path.is_empty() && call.field.as_deref() == Some(def.name.as_str());
            let names_it = match &call.method {
                Some(method) => *method == def.name && def.self_ty.is_some(),
                None => call.path.last() == Some(&def.name) || through_field,
            };
            if !names_it {
                continue;
            }
            let resolves = call.method.is_some()
                || if through_field {
                    let mut held = Vec::new();
                    in_field(caller.file, &def.name, depth.saturating_sub(1), built, &mut held);
                    held.iter().any(|(r, _)| r.file == file && r.at == f)
                } else {
                    resolve_fn(caller.file, call.line, &call.path).is_some_and(|r| r.file == file && r.at == f)
                };
            if !resolves {
                continue;
            }
            // a call in a branch the records say did not run passed nothing
            let taken = branch_ran(caller.file, &cidx, call.line, built);
            if taken == Some(false) {
                continue;
            }
            let before = out.len();
            let values = call.arg_values.get(position).filter(|v| !v.is_empty());
            for value in values.into_iter().flatten() {
                given(caller.file, &cidx, value, depth, built, out);
            }
            // an argument read from a field (`helpers.wilted`): the fns the crate puts in a field of that name
            if values.is_none()
                && depth > 0
                && let Some(Some(field)) = call.arg_names.get(position)
            {
                in_field(caller.file, field, depth - 1, built, out);
            }
            for g in &mut out[before..] {
                g.1 = g.1.or(taken);
            }
        }
    }
}

/// Follows `value`, written in `file`: a path to a fn of the crate, or a parameter or local to where it came from.
fn given(file: &str, idx: &Index, value: &super::FnValue, depth: usize, built: &[Ran], out: &mut Vec<Given>) {
    if out.len() >= GIVEN_MAX {
        return;
    }
    let taken = branch_ran(file, idx, value.line, built);
    if taken == Some(false) {
        return;
    }
    if let [name] = value.path.as_slice()
        && is_value(idx, value.line, name)
    {
        if depth > 0 {
            let before = out.len();
            named(file, value.line, name, depth - 1, built, out);
            for g in &mut out[before..] {
                g.1 = g.1.or(taken);
            }
        }
        return;
    }
    let callable = value
        .path
        .last()
        .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'));
    if !callable {
        return;
    }
    if let Some(found) = resolve_fn(file, value.line, &value.path)
        && !out.iter().any(|(o, _)| o.file == found.file && o.at == found.at)
    {
        out.push((found, taken));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_a_local_and_a_field_are_followed_to_the_fns_given_them() {
        let idx = Index::parse(
            "struct Rules { band: fn(u8) -> u8 }\n\
             fn low(x: u8) -> u8 { x }\n\
             fn high(x: u8) -> u8 { x + 1 }\n\
             fn rules(slip: bool) -> Rules {\n    let mut rules = Rules { band: low };\n    if slip { rules.band = high; }\n    rules\n}\n\
             fn apply(band: fn(u8) -> u8, x: u8) -> u8 { band(x) }\n\
             fn main() {\n    let pick = if true { low } else { high };\n    apply(pick, 1);\n    (rules(false).band)(2);\n}\n",
        )
        .expect("parses");
        // the parameter `band` of `apply` (line 9), the local `pick` (line 11), the field `band`
        assert!(is_value(&idx, 9, "band"));
        assert!(is_value(&idx, 12, "pick"));
        assert!(!is_value(&idx, 12, "low"));
        let lets: Vec<&str> = idx.lets.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(lets, ["pick"]);
        let fields: Vec<(&str, &str)> = idx
            .field_values
            .iter()
            .map(|(f, v)| (f.as_str(), v.path[0].as_str()))
            .collect();
        assert_eq!(fields, [("band", "low"), ("band", "high")]);
        let through_field = idx.calls.iter().find(|c| c.field.is_some()).expect("the field call");
        assert_eq!(through_field.field.as_deref(), Some("band"));
        let apply = idx.calls.iter().find(|c| c.path == ["apply"]).expect("the call of apply");
        assert_eq!(apply.arg_values[0][0].path, ["pick"]);
        assert_eq!(idx.fns.iter().find(|f| f.name == "apply").expect("apply").params, ["band", "x"]);
    }
}
