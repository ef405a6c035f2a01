//! Lines that read as a slip whatever the app does: a loop that overwrites, turn after turn, a place it should add up;
//! a call that gives two arguments each by the name (or most of the words of the name) of the other's parameter; a
//! `match` arm that repeats the body of an arm above it; a value clamped the wrong way by a bound whose name says which
//! way it goes; a place written twice in a row, the second write undoing the first; a share divided before it is
//! scaled, in whole numbers. Such a line makes the value it is in the wrong way in every run that reaches it, so an
//! answer quotes it before the lines that only read or decide.

use super::*;
use super::loops::indent;

/// The lines (0-based) within `whole` (lines of `file`, 1-based) that read as a slip: [`overwritten_in_loop`],
/// [`swapped_arguments`], [`repeated_arms`] and [`clamped_the_wrong_way`], in line order.
pub(super) fn smells(file: &str, index: &source::Index, whole: source::Lines) -> Vec<usize> {
    let mut out = overwritten_in_loop(&index.lines, whole);
    out.extend(swapped_arguments(file, index, whole));
    out.extend(repeated_arms(index, whole));
    out.extend(clamped_the_wrong_way(&index.lines, whole));
    out.extend(left_counted_from_the_end(file, index, whole));
    out.extend(written_twice(&index.lines, whole));
    out.extend(divided_before_scaled(&index.lines, whole));
    out.extend(kept_across_items(&index.lines, whole));
    out.sort_unstable();
    out.dedup();
    out
}

/// The lines (0-based) within `whole` of the arms of a `match` whose one-line body repeats, word for word, the body
/// of an arm above them in the same `match` (`ChargeKind::Boarding => tab.care += charge.cents,` below
/// `ChargeKind::Consult | ChargeKind::Vaccine => tab.care += charge.cents,`): an arm copied and not changed. Bodies
/// that read no name (`"Eve" => Ok(5_000),`) are data, not code, and are not one.
pub(super) fn repeated_arms(index: &source::Index, whole: source::Lines) -> Vec<usize> {
    let lines = &index.lines;
    let first = whole.first as usize - 1;
    // (the line opening the arm's `match`, the arm's body) of the arms seen so far
    let mut seen: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    let mut arms: Vec<&source::Arm> = index
        .arms
        .iter()
        .filter(|a| whole.contains(a.arrow) && a.body.first == a.arrow && a.body.last == a.arrow)
        .collect();
    arms.sort_by_key(|a| a.arrow);
    for arm in arms {
        let at = arm.arrow as usize - 1;
        let code = code_part(&lines[at]);
        let Some((_, body)) = code.split_once("=>") else { continue };
        let body = body.trim().trim_end_matches(',').trim().to_owned();
        if body.is_empty() || !super::reads_a_name(&body) {
            continue;
        }
        let Some(opener) = super::body::enclosing(lines, first, at).find(|&l| code_part(&lines[l]).contains("match "))
        else {
            continue;
        };
        if seen.iter().any(|(o, b)| *o == opener && *b == body) {
            out.push(at);
        } else {
            seen.push((opener, body));
        }
    }
    out
}

/// The lines (0-based) within `whole` that clamp a value the wrong way by a bound whose name says which way it goes:
/// `.max(..)` of a cap, a ceiling, a limit or a most (`hours.max(rates.day_cap_hours)` raises the hours to at least
/// the cap, where `.min` keeps them under it), and `.min(..)` of a floor or a least.
pub(super) fn clamped_the_wrong_way(lines: &[String], whole: source::Lines) -> Vec<usize> {
    const UPPER: &[&str] = &["cap", "ceiling", "limit", "most"];
    const LOWER: &[&str] = &["floor", "least"];
    let first = whole.first as usize - 1;
    let last = (whole.last as usize).min(lines.len());
    (first..last)
        .filter(|&i| {
            let code = code_part(&lines[i]);
            [(".max(", UPPER), (".min(", LOWER)].iter().any(|(call, bounds)| {
                code.match_indices(call).any(|(at, _)| {
                    // the argument, up to the parenthesis that closes the call
                    let rest = &code[at + call.len()..];
                    let end = closing_paren(rest).unwrap_or(rest.len());
                    // its words, `_` and `.` parting them (`rates.day_cap_hours` → `day`, `cap`, `hours`)
                    rest[..end]
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|word| bounds.contains(&word.to_ascii_lowercase().as_str()))
                })
            })
        })
        .collect()
}

/// The fn of the crate a call of `file` reaches: a method by its name, a path resolved from where it is called, or,
/// through a field holding a fn (`(helpers.refund)(notice, deposit)`), the fns the crate puts in that field when they
/// all take the same parameters.
fn callee(file: &str, call: &source::Call) -> Option<source::Found> {
    match (&call.method, &call.field, call.path.as_slice()) {
        (Some(name), _, _) => source::resolve_method(file, name),
        (None, Some(field), _) => {
            let mut given = source::fns_in_field(file, field, &[]).into_iter();
            let first = given.next()?;
            given.all(|f| f.def().params == first.def().params).then_some(first)
        }
        (None, None, []) => None,
        (None, None, path) => source::resolve_fn(file, call.line, path),
    }
}

/// The lines (0-based) of the calls within `whole` (lines of `file`, 1-based) of a fn of the crate that give two
/// arguments each by the name of the other's parameter: `set_score(fixture, away, home)` for `fn set_score(fixture:
/// &mut Fixture, home: u8, away: u8)`, `Batch::new(medicine, lot, expires, quantity)` for `fn new(.., quantity: u32,
/// expires: u32)`. Names that only match one way (`promote(&mut next, class, pick)` for `fn promote(gym: &mut Gym,
/// id: u32, next: ..)`) are not a swap, unless the argument names one end of a pair and its parameter the other
/// (`move_seats(office, to, ..)` for `fn move_seats(office, from, to, ..)`: [`PAIRS`]).
pub(super) fn swapped_arguments(file: &str, index: &source::Index, whole: source::Lines) -> Vec<usize> {
    let mut out = Vec::new();
    for call in index.calls.iter().filter(|c| whole.holds(c.whole) && c.arg_names.len() >= 2) {
        let Some(callee) = callee(file, call) else { continue };
        let params = &callee.def().params;
        if params.len() != call.arg_names.len() {
            continue;
        }
        let named = |i: usize| call.arg_names[i].as_deref();
        let swapped = (0..params.len()).any(|i| {
            (i + 1..params.len()).any(|j| {
                params[i] != params[j]
                    && params[i] != "_"
                    && params[j] != "_"
                    && named(i) == Some(params[j].as_str())
                    && named(j) == Some(params[i].as_str())
            })
        });
        // an argument named for one end of a pair passed for the other end (`move_seats(office, to, ..)` for `fn
        // move_seats(office, from, to, ..)`)
        let crossed = (0..params.len()).any(|i| named(i).is_some_and(|name| crossed_pair(name, &params[i])));
        // two arguments whose names each share more words with the other's parameter than with their own
        // (`teaching_weeks(half_term, weeks)` for `fn teaching_weeks(term_weeks: u32, half_term_week: u32)`)
        let likened = (0..params.len()).any(|i| {
            (i + 1..params.len()).any(|j| {
                let (Some(a), Some(b)) = (named(i), named(j)) else { return false };
                let (pi, pj) = (params[i].as_str(), params[j].as_str());
                a != pi && b != pj && likeness(a, pj) > likeness(a, pi) && likeness(b, pi) > likeness(b, pj)
            })
        });
        if swapped || crossed || likened {
            out.push(call.line as usize - 1);
        }
    }
    out
}

/// How alike two snake-case names are: the words they share over the words of both, a plural `s` aside (`weeks`
/// and `term_weeks`: 1 of 2). 0 when they share none.
fn likeness(a: &str, b: &str) -> f64 {
    let words = |name: &str| -> HashSet<String> {
        name.split('_')
            .filter(|w| !w.is_empty())
            .map(|w| w.strip_suffix('s').filter(|w| w.len() > 2).unwrap_or(w).to_owned())
            .collect()
    };
    let (a, b) = (words(a), words(b));
    let shared = a.intersection(&b).count();
    let all = a.union(&b).count();
    if all == 0 { 0.0 } else { shared as f64 / all as f64 }
}

/// Words that name the two ends of one thing: an argument named for one end (`to`, `end_day`) given for a parameter
/// named for the other (`from`, `start_day`) is the other end.
const PAIRS: [(&str, &str); 14] = [
    ("from", "to"),
    ("start", "end"),
    ("home", "away"),
    ("min", "max"),
    ("old", "new"),
    ("before", "after"),
    ("first", "last"),
    ("src", "dst"),
    ("source", "target"),
    ("low", "high"),
    ("lo", "hi"),
    ("buyer", "seller"),
    ("since", "until"),
    ("width", "height"),
];

/// Whether `arg` names one end of a pair where `param` names the other (`to` for `from`, `end_day` for `start_day`).
fn crossed_pair(arg: &str, param: &str) -> bool {
    let words: Vec<&str> = arg.split('_').collect();
    words.iter().enumerate().any(|(at, word)| {
        PAIRS.iter().any(|&(a, b)| {
            let other = if *word == a {
                b
            } else if *word == b {
                a
            } else {
                return false;
            };
            let mut renamed = words.clone();
            renamed[at] = other;
            renamed.join("_") == param
        })
    })
}

/// The lines (0-based) within `whole` of a `let` naming what is left (`left`, `days_left`, `ahead`, `remaining`,
/// `to_go`) bound to a call of a crate fn whose first two parameters run from one point to another (`from`, `to`;
/// `start`, `end`; `since`, `until`) that gives the present (`today`, `now`) as the second: `let left =
/// days_between(due, today);` for `fn days_between(from: Day, to: Day)` counts the time since `due`, not the time
/// left until it.
pub(super) fn left_counted_from_the_end(file: &str, index: &source::Index, whole: source::Lines) -> Vec<usize> {
    const LEFT: &[&str] = &["left", "ahead", "remaining", "to_go"];
    const FROM: &[&str] = &["from", "start", "since", "begin", "earlier"];
    const TO: &[&str] = &["to", "end", "until", "later"];
    const NOW: &[&str] = &["today", "now"];
    let mut out = Vec::new();
    for call in index.calls.iter().filter(|c| whole.holds(c.whole) && c.arg_names.len() >= 2) {
        let at = call.line as usize - 1;
        let Some(name) = code_part(&index.lines[at])
            .trim_start()
            .strip_prefix("let ")
            .and_then(|rest| rest.split_once('='))
            .map(|(name, _)| name.trim().trim_start_matches("mut ").trim())
        else {
            continue;
        };
        let names_what_is_left = LEFT.contains(&name) || name.split('_').any(|w| w == "left");
        let present_second = call.arg_names[1].as_deref().is_some_and(|a| NOW.contains(&a))
            && !call.arg_names[0].as_deref().is_some_and(|a| NOW.contains(&a));
        if !names_what_is_left || !present_second {
            continue;
        }
        // a fn called by its path (a method's first parameter is its receiver)
        let Some(callee) = call.method.is_none().then(|| callee(file, call)).flatten() else { continue };
        let params = &callee.def().params;
        if params.len() >= 2 && FROM.contains(&params[0].as_str()) && TO.contains(&params[1].as_str()) {
            out.push(at);
        }
    }
    out
}

/// The lines (0-based) within `whole` (a fn's or a closure's lines, 1-based) that assign a place with a plain `=`,
/// as a statement of a loop's own body, from a value that does not name that place, when one of these holds:
/// - the same loop body adds to a place with the same root, or one its `let` bound beside it, with a compound
///   assignment (`sum.periods += 1;` `sum.tax = slip.tax;`; `let (count, minutes) = ..;` `*count += 1;`
///   `*minutes = class.length;`), or
/// - the place is a local the fn set to zero above the loop (`let mut taken = 0;` then `taken = take;`), or
/// - the place is in a map's entry the loop body took (`let entry = foods.entry(food).or_default();` then `entry.0 =
///   grams;`): the entry is kept from turn to turn, so the turns with the same key add up there.
///
/// Each turn then throws away what the turns before it made: the place holds the last turn's value, not the sum.
/// An assignment inside a branch of the loop body (`if x > best { best = x; }`) keeps a chosen value, as finding a
/// maximum does, and is not one.
///
/// # Examples
///
/// ```text
/// for slip in slips {          // the loop
///     sum.gross += slip.gross; // adds to `sum`
///     sum.tax = slip.tax;      // overwrites a field of `sum`: quoted
/// }
/// ```
pub(super) fn overwritten_in_loop(lines: &[String], whole: source::Lines) -> Vec<usize> {
    let first = whole.first as usize - 1;
    let last = (whole.last as usize).min(lines.len());
    let mut out = Vec::new();
    for header in first..last {
        let code = code_part(&lines[header]).trim();
        if !(code.starts_with("for ") || code.starts_with("while ") || code == "loop {") {
            continue;
        }
        // the loop's block opens on its header's line or on the first line after it that ends with `{` at the
        // header's indentation (a header rustfmt split over lines)
        let level = indent(&lines[header]);
        let Some(opens) = (header..last).find(|&i| {
            code_part(&lines[i]).trim_end().ends_with('{') && (i == header || indent(&lines[i]) == level)
        }) else {
            continue;
        };
        // the body's own statements: the lines one level in, up to the line that closes the block
        let close = (opens + 1..last)
            .find(|&i| !lines[i].trim().is_empty() && indent(&lines[i]) <= level)
            .unwrap_or(last);
        let step = (opens + 1..close)
            .map(|i| indent(&lines[i]))
            .filter(|&n| n > level)
            .min();
        let Some(step) = step else { continue };
        let own: Vec<usize> = (opens + 1..close)
            .filter(|&i| is_code(&lines[i]) && indent(&lines[i]) == step)
            .collect();
        let added: Vec<&str> = own.iter().filter_map(|&i| compound_root(&lines[i])).collect();
        let bound_together: Vec<Vec<String>> = own.iter().filter_map(|&i| tuple_let(&lines[i])).collect();
        for &i in &own {
            let Some((place, root, value)) = plain_assignment(&lines[i]) else {
                continue;
            };
            if mentions(value, place.trim_start_matches('*')) {
                continue;
            }
            let beside = added.iter().any(|r| {
                *r == root || bound_together.iter().any(|names| names.iter().any(|n| n == root) && names.iter().any(|n| n == r))
            });
            let zeroed = place == root && set_to_zero_above(lines, first, header, root);
            // a map's entry, kept from turn to turn (`let entry = foods.entry(food).or_default();`), is added up
            let entry = place != root && own.iter().any(|&j| entry_let(&lines[j]) == Some(root));
            if beside || zeroed || entry {
                out.push(i);
            }
        }
    }
    out
}

/// The lines (0-based) within `whole` of a `let mut` that starts a total (`let mut stems = 0;`) above a `for` loop
/// whose body adds to it in a loop of its own and then reads it for the item (`if stems > 0 { thrown.push(..) }`):
/// each item's total goes on from the items before it, where it was meant to start again inside the outer loop. A
/// total the outer body starts again (`stems = 0;`) before its inner loop, or reads only after the outer loop, is
/// not one.
pub(super) fn kept_across_items(lines: &[String], whole: source::Lines) -> Vec<usize> {
    let first = whole.first as usize - 1;
    let last = (whole.last as usize).min(lines.len());
    let opens_loop = |i: usize| {
        let code = code_part(&lines[i]).trim();
        (code.starts_with("for ") || code.starts_with("while ")) && code.ends_with('{')
    };
    // the line closing the block opened at `header`'s end
    let close_of = |header: usize| {
        (header + 1..last)
            .find(|&i| !lines[i].trim().is_empty() && indent(&lines[i]) <= indent(&lines[header]))
            .unwrap_or(last)
    };
    let mut out = Vec::new();
    for outer in (first..last).filter(|&i| opens_loop(i) && code_part(&lines[i]).trim().starts_with("for ")) {
        let level = indent(&lines[outer]);
        let close = close_of(outer);
        for inner in (outer + 1..close).filter(|&i| opens_loop(i)) {
            let inner_close = close_of(inner);
            for name in (inner + 1..inner_close).filter_map(|i| compound_root(&lines[i])) {
                let plain = (inner + 1..inner_close).any(|i| {
                    let code = code_part(&lines[i]).trim();
                    [" += ", " -= "].iter().any(|op| code.starts_with(&format!("{name}{op}")))
                });
                // started above the outer loop, at its level or outside it
                let started = (first..outer).rev().find(|&i| {
                    indent(&lines[i]) <= level && {
                        let code = code_part(&lines[i]).trim();
                        code.strip_prefix("let mut ")
                            .and_then(|r| r.strip_prefix(name))
                            .is_some_and(|r| r.starts_with([' ', ':', '=']))
                    }
                });
                let Some(started) = started else { continue };
                let again = (outer + 1..inner).any(|i| {
                    let code = code_part(&lines[i]).trim();
                    code.starts_with(&format!("{name} = ")) || code.strip_prefix("let mut ").or_else(|| code.strip_prefix("let ")).and_then(|r| r.strip_prefix(name)).is_some_and(|r| r.starts_with([' ', ':', '=']))
                });
                let read_for_the_item = (inner_close + 1..close).any(|i| body::mentions(code_part(&lines[i]), name));
                if plain && !again && read_for_the_item && !out.contains(&started) {
                    out.push(started);
                }
            }
        }
    }
    out
}

/// The name a `let` binds to a map's entry kept between calls (`let entry = foods.entry(food).or_default();`,
/// `.or_insert(..)`, `.or_insert_with(..)`).
fn entry_let(line: &str) -> Option<&str> {
    let code = code_part(line).trim();
    let (name, rhs) = code.strip_prefix("let ")?.split_once(" = ")?;
    let kept = rhs.contains(".entry(") && [".or_default()", ".or_insert(", ".or_insert_with("].iter().any(|k| rhs.contains(k));
    let name = name.trim_start_matches("mut ").trim();
    (kept && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some(name)
}

/// The lines (0-based) within `whole` whose write undoes or throws away the write of the statement just above to
/// the same place: the other way (`perf.held[s] += seats;` under `perf.held[s] = perf.held[s].saturating_sub(seats);`),
/// or a plain `=` that does not read it (`total = fee;` under `total = price;`). One of the two is not the place
/// meant. Two additions in a row add up parts, and a clamp (`total = total.min(CAP);`) reads what it clamps: not one.
pub(super) fn written_twice(lines: &[String], whole: source::Lines) -> Vec<usize> {
    let first = whole.first as usize - 1;
    let last = (whole.last as usize).min(lines.len());
    let mut out = Vec::new();
    let mut above: Option<(usize, Write)> = None;
    for (i, line) in lines.iter().enumerate().take(last).skip(first) {
        if !is_code(line) {
            continue;
        }
        let here = write_of(line);
        if let (Some((depth, before)), Some(now)) = (&above, &here)
            && *depth == indent(line)
            && before.place == now.place
        {
            // a plain `=` that does not read the place throws the write above away; a write the other way undoes it
            let thrown = now.way == Way::Set;
            let undone = matches!((before.way, now.way), (Way::Down, Way::Up) | (Way::Up, Way::Down));
            if thrown || undone {
                out.push(i);
            }
        }
        above = here.map(|w| (indent(line), w));
    }
    out
}

/// The lines (0-based) within `whole` that divide by a value and then multiply by a whole-number literal: `booked /
/// capacity * 100`. Rust accepts an integer literal after `*` only when the product is of an integer type, so the
/// division before it is an integer one and cuts off the fraction first: every share below one becomes 0 %. Scaling
/// first (`booked * 100 / capacity`) keeps it. A division by a literal (`hhmm / 100 * 60`, whole hours) is a unit's
/// conversion, meant to cut, and is not one.
///
/// # Examples
///
/// ```text
/// let full = class.booked / class.capacity * 100; // quoted: 0 for any class not full
/// let minutes = hhmm / 100 * 60 + hhmm % 100;     // not quoted: a divisor that is a literal
/// ```
pub(super) fn divided_before_scaled(lines: &[String], whole: source::Lines) -> Vec<usize> {
    let first = whole.first as usize - 1;
    let last = (whole.last as usize).min(lines.len());
    (first..last)
        .filter(|&i| {
            let code = code_part(&lines[i]);
            code.match_indices(" / ").any(|(at, _)| {
                let rest = &code[at + 3..];
                // the divisor: a path of names, fields and calls (`class.capacity`, `seats.len()`) or a bracket, not a
                // literal
                let mut divisor_len = 0;
                loop {
                    let tail = &rest[divisor_len..];
                    let word = tail
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                        .unwrap_or(tail.len());
                    divisor_len += word;
                    match rest[divisor_len..].strip_prefix('(').map(closing_paren) {
                        Some(Some(end)) => divisor_len += end + 2,
                        _ => break,
                    }
                }
                let named = divisor_len > 0 && !rest.starts_with(|c: char| c.is_ascii_digit());
                // then `* <whole number>`: digits (with `_` or a suffix), not a float (`100.0`, `1e2`, `100f64`)
                let scaled = rest[divisor_len..].strip_prefix(" * ").is_some_and(|after| {
                    let digits = after
                        .find(|c: char| !(c.is_ascii_digit() || c == '_'))
                        .unwrap_or(after.len());
                    digits > 0 && !after[digits..].starts_with(['.', 'e', 'E', 'f'])
                });
                named && scaled
            })
        })
        .collect()
}

/// Which way a statement moves the place it writes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Way {
    /// `+=`, or `=` of the place plus something.
    Up,
    /// `-=`, or `=` of the place less something (`saturating_sub`).
    Down,
    /// `=` of a value that does not read the place.
    Set,
    /// Any other write (`*=`, `= place.min(..)`).
    Other,
}

/// A statement's write: the place (`perf.held[s]`, `total`) and which way it moves it.
struct Write {
    place: String,
    way: Way,
}

fn write_of(line: &str) -> Option<Write> {
    let code = code_part(line).trim().strip_suffix(';')?;
    let (place, way) = if let Some((place, _)) = code.split_once(" += ") {
        (place, Way::Up)
    } else if let Some((place, _)) = code.split_once(" -= ") {
        (place, Way::Down)
    } else if let Some((place, _)) = code.split_once(" *= ") {
        (place, Way::Other)
    } else {
        let (place, value) = code.split_once(" = ")?;
        let place = place.trim();
        let way = if !value.contains(place) {
            Way::Set
        } else if value.contains(".saturating_sub(") || value.contains(" - ") {
            Way::Down
        } else if value.contains(".saturating_add(") || value.contains(" + ") {
            Way::Up
        } else {
            Way::Other
        };
        (place, way)
    };
    let place = place.trim();
    let starts = place.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
    let plain = place.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '*'));
    (starts && plain).then(|| Write {
        place: place.to_owned(),
        way,
    })
}

/// The place a line assigns with a plain `=` (`sum.tax`, `*minutes`, `taken`), its root (`sum`, `minutes`, `taken`)
/// and the value, when the line is such a statement (not a `let`, not a comparison).
fn plain_assignment(line: &str) -> Option<(&str, &str, &str)> {
    let code = code_part(line).trim();
    let code = code.strip_suffix(';')?;
    let (place, value) = code.split_once(" = ")?;
    let place = place.trim();
    let root = place_root(place)?;
    Some((place, root, value.trim()))
}

/// The root of the place a line adds to with a compound assignment (`sum.gross += slip.gross;` → `sum`, `*count +=
/// 1;` → `count`).
fn compound_root(line: &str) -> Option<&str> {
    let code = code_part(line).trim();
    let (place, _) = [" += ", " -= ", " *= "].iter().find_map(|op| code.split_once(op))?;
    place_root(place.trim())
}

/// `sum` for `sum.tax`, `minutes` for `*minutes`, `taken` for `taken`: a place a statement may assign, else `None`.
fn place_root(place: &str) -> Option<&str> {
    let bare = place.strip_prefix('*').unwrap_or(place);
    let root = bare.split('.').next()?;
    let name = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    let starts = root.chars().next().is_some_and(|c| c.is_lowercase() || c == '_');
    (starts && bare.split('.').all(name) && root != "self").then_some(root)
}

/// The names a `let` binds by a tuple pattern (`let (count, minutes) = ..;` → `count`, `minutes`).
fn tuple_let(line: &str) -> Option<Vec<String>> {
    let code = code_part(line).trim();
    let pattern = code.strip_prefix("let ")?.split_once(" = ")?.0.trim();
    let inner = pattern.strip_prefix("mut ").unwrap_or(pattern).strip_prefix('(')?.strip_suffix(')')?;
    Some(
        inner
            .split(',')
            .map(|n| n.trim().trim_start_matches('&').trim_start_matches("mut ").trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect(),
    )
}

/// Whether a line of `first..header` (0-based) is `let mut <name> = 0;` (any zero literal, typed or not).
fn set_to_zero_above(lines: &[String], first: usize, header: usize, name: &str) -> bool {
    (first..header).any(|i| {
        let code = code_part(&lines[i]).trim();
        let Some(rest) = code.strip_prefix("let mut ").and_then(|r| r.strip_prefix(name)) else {
            return false;
        };
        let rest = rest.trim_start();
        let rest = match rest.strip_prefix(':') {
            Some(typed) => typed.split_once('=').map_or("", |(_, v)| v),
            None => rest.strip_prefix('=').unwrap_or(""),
        };
        let value = rest.trim().trim_end_matches(';').trim();
        // `0`, `0.0`, `0u32`, `0_u64`, `0.0_f64`
        let suffix = value.strip_prefix("0.0").or_else(|| value.strip_prefix('0'));
        suffix.is_some_and(|s| {
            let s = s.trim_start_matches('_');
            s.is_empty() || (s.len() > 1 && s.starts_with(['u', 'i', 'f']) && s[1..].chars().all(|c| c.is_alphanumeric()))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    fn all(lines: &[String]) -> source::Lines {
        source::Lines {
            first: 1,
            last: u32::try_from(lines.len()).unwrap(),
        }
    }

    #[test]
    fn names_are_alike_by_the_words_they_share() {
        assert!((likeness("weeks", "term_weeks") - 0.5).abs() < 1e-9);
        assert!((likeness("half_term", "half_term_week") - 2.0 / 3.0).abs() < 1e-9);
        assert!(likeness("half_term", "half_term_week") > likeness("half_term", "term_weeks"));
        assert!(likeness("free_night", "free_nights") > likeness("free_night", "stay_nights"));
        assert_eq!(likeness("rate", "stay_nights"), 0.0);
        assert_eq!(likeness("", ""), 0.0);
    }

    #[test]
    fn a_total_started_above_the_outer_loop_and_read_per_item_is_found() {
        let l = lines(
            "fn f() {\n    let mut stems = 0;\n    for flower in flowers {\n        for batch in batches {\n            \
             stems += batch.stems;\n        }\n        if stems > 0 {\n            out.push(stems);\n        }\n    }\n}",
        );
        assert_eq!(kept_across_items(&l, all(&l)), [1]);
        // started again for each item, or read only after the outer loop: a total of all the items
        let reset = lines(
            "fn f() {\n    let mut stems = 0;\n    for flower in flowers {\n        stems = 0;\n        for batch in batches {\n            \
             stems += batch.stems;\n        }\n        out.push(stems);\n    }\n}",
        );
        assert!(kept_across_items(&reset, all(&reset)).is_empty());
        let grand = lines(
            "fn f() -> u32 {\n    let mut stems = 0;\n    for flower in flowers {\n        for batch in batches {\n            \
             stems += batch.stems;\n        }\n    }\n    stems\n}",
        );
        assert!(kept_across_items(&grand, all(&grand)).is_empty());
    }

    #[test]
    fn an_overwrite_beside_additions_to_the_same_root_is_found() {
        let l = lines(
            "fn f() {\n    for slip in slips {\n        sum.gross += slip.gross;\n        sum.tax = slip.tax;\n    }\n}",
        );
        assert_eq!(overwritten_in_loop(&l, all(&l)), vec![3]);
    }

    #[test]
    fn an_overwrite_of_a_place_a_tuple_let_bound_beside_a_counter_is_found() {
        let l = lines(
            "fn f() {\n    for class in classes {\n        let (count, minutes) = taught.entry(k).or_insert((0, 0));\n        *count += 1;\n        *minutes = class.length;\n    }\n}",
        );
        assert_eq!(overwritten_in_loop(&l, all(&l)), vec![4]);
    }

    #[test]
    fn an_overwrite_of_a_local_set_to_zero_is_found_and_a_chosen_maximum_is_not() {
        let l = lines(
            "fn f() -> u32 {\n    let mut taken = 0;\n    let mut best: u32 = 0;\n    for i in order {\n        let take = grams.min(i);\n        taken = take;\n        if i > best {\n            best = i;\n        }\n    }\n    taken + best\n}",
        );
        assert_eq!(overwritten_in_loop(&l, all(&l)), vec![5]);
    }

    #[test]
    fn a_max_of_a_cap_and_a_min_of_a_floor_are_clamps_the_wrong_way() {
        let l = lines(
            "fn f() {\n    let billed = hours.max(rates.day_cap_hours);\n    let fine = (days * rate).max(tier.fine_cap());\n    let kept = hours.min(rates.day_cap_hours);\n    let paid = cents.min(FLOOR_CENTS);\n    let most = a.max(b);\n}",
        );
        assert_eq!(clamped_the_wrong_way(&l, all(&l)), vec![1, 2, 4]);
    }

    #[test]
    fn an_overwrite_of_a_map_entry_kept_between_turns_is_found() {
        let l = lines(
            "fn f() {\n    for pet in pets {\n        let entry = foods.entry(pet.food).or_default();\n        entry.0 = grams;\n        entry.1.push(name);\n        let fresh = Tally::default();\n        fresh.0 = grams;\n    }\n}",
        );
        assert_eq!(overwritten_in_loop(&l, all(&l)), vec![3]);
    }

    #[test]
    fn a_state_carried_between_turns_is_not_an_overwrite() {
        // `prev` is not zeroed and nothing adds to its root: each turn hands its value to the next
        let l = lines(
            "fn f() {\n    let mut prev = first;\n    for x in xs {\n        total += x - prev;\n        prev = x;\n    }\n}",
        );
        assert!(overwritten_in_loop(&l, all(&l)).is_empty());
    }

    #[test]
    fn a_place_written_twice_in_a_row() {
        let l: Vec<String> = [
            "fn confirm(perf: &mut Perf, s: usize, seats: u32) {",
            "    perf.held[s] = perf.held[s].saturating_sub(seats);",
            "    // the seats are sold now",
            "    perf.held[s] += seats;",
            "    total += fee;",
            "    total = total.min(CAP);",
            "    total += tip;",
            "    total += tax;",
            "    count -= 1;",
            "    count = 0;",
            "}",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        // two additions in a row add up parts; a clamp reads what it clamps
        assert_eq!(written_twice(&l, all(&l)), vec![3, 9]);
    }

    #[test]
    fn a_share_divided_before_it_is_scaled_in_whole_numbers() {
        let l: Vec<String> = [
            "fn f() {",
            "    let full = class.booked / class.capacity * 100;",
            "    let minutes = hhmm / 100 * 60 + hhmm % 100;",
            "    let used = taken / seats.len() * 1_000u32;",
            "    let ratio = done / (left + done) * 100;",
            "    let share = sold as f64 / seats as f64 * 100.0;",
            "    let kept = booked * 100 / capacity;",
            "    let scaled = booked / capacity * rate;",
            "}",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        // a literal divisor converts a unit; a float literal or a name after `*` is no whole-number scale
        assert_eq!(divided_before_scaled(&l, all(&l)), vec![1, 3, 4]);
    }

    #[test]
    fn an_argument_named_for_the_other_end() {
        assert!(crossed_pair("to", "from"));
        assert!(crossed_pair("end_day", "start_day"));
        assert!(!crossed_pair("to", "to"));
        assert!(!crossed_pair("next", "gym"));
        assert!(!crossed_pair("total", "from"));
    }
}
