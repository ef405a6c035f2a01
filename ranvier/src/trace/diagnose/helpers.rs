//! The helpers a node's body calls, wherever in the crate they are defined: the lines that make their values, and
//! the `#[trace_fn]` fns a run entered.

use super::*;

/// How many lines of the helpers a node's body calls an explanation quotes, in all.
pub(super) const HELPER_LINES_MAX: usize = 6;
/// How many lines of one helper's body.
pub(super) const HELPER_LINES_EACH: usize = 4;

/// The lines of the functions the node's creation call calls or is given (`till.select(amount)`), one level, then
/// the functions those call, wherever in the crate they are defined (resolved through its module tree and `use`
/// items), and of the constants they name: a value computed by a helper is wrong in the helper.
///
/// `ran` are the records of the node's latest run: a `#[trace_fn]` fn the crate defines that the run did not enter
/// did not run (the body called another fn of that name, or one given as a value), so it is not quoted, and the
/// `#[trace_fn]` fns the run entered are quoted whether or not their call could be resolved from the source.
pub(super) fn helper_lines(
    r: &NodeRecord,
    body: &[SourceLine],
    ran: &[crate::trace::log::Ran],
    built: &[crate::trace::log::Ran],
) -> Vec<SourceLine> {
    let entered = entered_fns(ran);
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    let file = r.site.file();
    let Some(index) = source::index(file) else {
        return Vec::new();
    };
    let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
        return Vec::new();
    };
    // (file, parsed file, the lines whose calls and constants are followed)
    let mut frontier: Vec<(&'static str, Arc<source::Index>, source::Lines)> =
        vec![(file, index.clone(), call.whole)];
    let mut out: Vec<SourceLine> = Vec::new();
    let mut seen_fns: HashSet<(&'static str, usize)> = HashSet::new();
    let mut seen_consts: HashSet<String> = HashSet::new();
    // the constants named on `lines` of `file`, quoted (at most HELPER_LINES_MAX lines in all)
    let mut quote_constants =
        |file: &'static str, index: &source::Index, lines: &[usize], out: &mut Vec<SourceLine>| {
            for i in lines {
                let code = source::code_of(&index.lines[*i]);
                for name in constants(code) {
                    if out.len() >= HELPER_LINES_MAX || !seen_consts.insert(name.clone()) {
                        continue;
                    }
                    let at_line = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    if let Some((at_file, at_index, at)) =
                        source::resolve_const(file, at_line, &name)
                    {
                        out.push(numbered(at_file, &at_index.lines, at.first as usize - 1));
                    }
                }
            }
        };
    let own_lines: Vec<usize> = (call.whole.first as usize - 1..call.whole.last as usize).collect();
    for level in 0..2 {
        let mut next = Vec::new();
        for (file, index, span) in &frontier {
            let called = index
                .calls
                .iter()
                .filter(|c| span.holds(c.whole) && !c.path.is_empty())
                .map(|c| (c.line, c.path.clone()))
                // a function given as an argument (`till.select(amount)`): to the node's own call only, where the
                // argument is the body (elsewhere a path argument is mostly a value: `.min(subtotal)`)
                .chain(
                    index
                        .calls
                        .iter()
                        .filter(|c| c.whole == *span)
                        .flat_map(|c| c.fn_args.iter().map(|a| (c.line, a.clone()))),
                )
                .filter(|(_, path)| {
                    path.last().is_some_and(|n| {
                        n.chars().next().is_some_and(|c| c.is_lowercase() || c == '_')
                    })
                });
            // and the methods of the crate's own types it calls (`rental.due()`)
            let methods = index
                .calls
                .iter()
                .filter(|c| span.holds(c.whole))
                .filter_map(|c| source::resolve_method(file, c.method.as_deref()?));
            let resolved: Vec<source::Found> = called
                .flat_map(|(at_line, path)| {
                    // a local the body bound to a fn (`let compare = if .. { a::f } else { b::f };`): the fns it names
                    if let [name] = path.as_slice()
                        && let Some(bound) = by_value::let_bound_fns(index, file, at_line, name, ran)
                    {
                        return bound;
                    }
                    // a parameter holding a fn (`fee(lot)` with `fee: fn(&Lot) -> u64`): the fns its callers give it
                    if let [name] = path.as_slice()
                        && source::is_value(index, at_line, name)
                    {
                        return source::fns_named(file, at_line, name, built);
                    }
                    source::resolve_fn(file, at_line, &path).into_iter().collect()
                })
                // a call through a field holding a fn (`(rules.band)(crop)`): the fns put in that field
                .chain(
                    index
                        .calls
                        .iter()
                        .filter(|c| span.holds(c.whole))
                        .filter_map(|c| c.field.as_deref())
                        .flat_map(|field| source::fns_in_field(file, field, built)),
                )
                .chain(methods)
                // a traced fn the run did not enter did not run
                .filter(|f| entered.is_empty() || !is_traced_fn(f) || entered.iter().any(|e| same_fn(e, f)))
                .collect();
            // the fns the run entered, after those its body calls, at the first level (the node's own call)
            let ran_now = if level == 0 { entered.clone() } else { Vec::new() };
            for found in resolved.into_iter().chain(ran_now) {
                if out.len() >= HELPER_LINES_MAX {
                    break;
                }
                if !seen_fns.insert((found.file, found.at)) {
                    continue;
                }
                let def = found.def();
                let lines = &found.index.lines;
                // the body, after the signature (whose parameters may stand on lines of their own)
                let body = (def.whole.first as usize - 1..def.whole.last as usize)
                    .find(|&i| code_part(&lines[i]).trim_end().ends_with('{'))
                    .map_or(def.whole.first as usize, |i| i + 1);
                let code: Vec<usize> = (body..def.whole.last as usize - 1)
                    .filter(|i| is_code(&lines[*i]))
                    .collect();
                // a traced fn the run entered recorded the branches it took: a line in a branch it did not take
                // did not run
                let ran_here = is_traced_fn(&found) && entered.iter().any(|e| same_fn(e, &found));
                let not_run = |i: usize| {
                    let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
                    ran_here && not_taken(&found.index, def.whole, found.file, &recorded, at)
                };
                // a `use` inside the body names what the lines below use, and a handle cloned into its own name
                // (`let row = row.clone();`) moves it into a closure: neither computes anything
                let code: Vec<usize> = code
                    .into_iter()
                    .filter(|i| {
                        !not_run(*i)
                            && !lines[*i].trim_start().starts_with("use ")
                            && !super::is_plain_clone_line(&lines[*i])
                    })
                    .collect();
                // a helper longer than what is quoted of it is quoted by the lines that produce its value and
                // compute
                let long = code.len() > HELPER_LINES_EACH;
                let mut values: HashSet<usize> =
                    def.value.iter().map(|v| v.first as usize - 1).collect();
                // and the arms of a `match` on a parameter: the table the value was chosen from
                values.extend(param_arms(&found));
                // a value spread over a chain's lines (`self.lines` `.iter()` `.map(..)` `.sum()`) by the lines that
                // decide it
                let chained: HashSet<usize> = def
                    .value
                    .iter()
                    .filter(|v| v.last > v.first)
                    .flat_map(|v| {
                        let keep = deciding_lines(lines, v);
                        (v.first as usize - 1..v.last as usize).filter(move |i| !keep.contains(i))
                    })
                    .collect();
                let code: Vec<usize> = code.into_iter().filter(|i| !chained.contains(i)).collect();
                let mut quoted = Vec::new();
                // a line that reads as a slip whatever the app (`let left = days_between(due, today);`) first
                let smelly: Vec<usize> = super::smell::smells(found.file, &found.index, def.whole)
                    .into_iter()
                    .filter(|i| code.contains(i))
                    .collect();
                for i in smelly.iter().copied().chain(code.into_iter().filter(|i| !smelly.contains(i))) {
                    if long && !values.contains(&i) && !computes(&lines[i]) && !smelly.contains(&i) {
                        continue;
                    }
                    if out.len() >= HELPER_LINES_MAX || quoted.len() >= HELPER_LINES_EACH {
                        break;
                    }
                    out.push(numbered(found.file, lines, i));
                    quoted.push(i);
                }
                quote_constants(found.file, &found.index, &quoted, &mut out);
                next.push((found.file, found.index.clone(), def.whole));
            }
        }
        frontier = next;
    }
    // the constants the body names itself, after the helpers' lines: a helper computes more than a constant states
    quote_constants(file, &index, &own_lines, &mut out);
    let own: HashSet<(&str, u32)> = body.iter().map(|l| (l.site.file, l.site.line)).collect();
    out.retain(|l| {
        let in_call = l.site.file == file && call.whole.contains(l.site.line);
        !in_call && !own.contains(&(l.site.file, l.site.line))
    });
    out.dedup_by_key(|l| (l.site.file, l.site.line));
    out
}

/// The lines of the one-line arms of the `match`es on a parameter of `found` (`Size::Large => 2_600,` in `match size
/// {`): the table its value is chosen from.
fn param_arms(found: &source::Found) -> Vec<usize> {
    let def = found.def();
    found
        .index
        .arms
        .iter()
        .filter(|a| a.in_fn == Some(found.at) && a.body.first == a.arrow && a.body.last == a.arrow)
        .filter(|a| a.scrutinee.as_ref().is_some_and(|(name, _)| def.params.contains(name)))
        .map(|a| a.arrow as usize - 1)
        .collect()
}

/// The `#[trace_fn]` fns the records `ran` say were entered (a record at a fn's `fn` line, with no value), in the
/// order first entered.
pub(super) fn entered_fns(ran: &[crate::trace::log::Ran]) -> Vec<source::Found> {
    let mut out: Vec<source::Found> = Vec::new();
    for r in ran.iter().filter(|r| r.value.is_none()) {
        let Some(index) = source::index(r.file) else { continue };
        let Some(at) = index.fns.iter().position(|f| f.whole.first == r.line) else {
            continue;
        };
        let found = source::Found {
            file: r.file,
            index,
            at,
        };
        if !out.iter().any(|e| same_fn(e, &found)) {
            out.push(found);
        }
    }
    out
}

/// Whether two found fns are the same definition.
pub(super) fn same_fn(a: &source::Found, b: &source::Found) -> bool {
    a.file == b.file && a.at == b.at
}

/// Whether a fn carries `#[trace_fn]` (among the attribute lines right above its `fn` line), so that a run that
/// called it has a record of it.
pub(super) fn is_traced_fn(f: &source::Found) -> bool {
    let lines = &f.index.lines;
    let mut i = f.def().whole.first as usize - 1;
    while i > 0 {
        i -= 1;
        let text = lines[i].trim();
        if text.starts_with("#[") && text.contains("trace_fn") {
            return true;
        }
        if !(text.starts_with("#[") || text.starts_with("///") || text.starts_with("//")) {
            return false;
        }
    }
    false
}

/// The constants `code` names: identifiers in capitals (`HAPPY_HOUR_OFF`), not followed by `(` or `{`.
pub(super) fn constants(code: &str) -> Vec<String> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| {
            w.len() >= 2
                && w.chars().any(|c| c.is_ascii_uppercase())
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
        .map(str::to_owned)
        .collect()
}

/// Whether a line of code computes something: arithmetic, a comparison, a logical operator, a range.
pub(super) fn computes(code: &str) -> bool {
    let code = code.replace("->", "").replace("=>", "");
    [
        "+", "-", "*", "/", "%", "<", ">", "==", "!=", "&&", "||", "..", "!",
    ]
    .iter()
    .any(|op| code.contains(op))
}
