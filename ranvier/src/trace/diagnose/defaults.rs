//! Fields the model was made with and no code writes: the `Default` lines that set a constant a quoted line reads.

use super::*;

/// How many lines of hand-written `Default`s one message's lines quote ([`default_only_fields`]).
pub(super) const DEFAULT_FIELD_LINES: usize = 2;

/// The fields `code` reads as `.name` (not a method `.name(`, a path `.name::`, a tuple index `.0` or a range `..`).
pub(super) fn field_reads(code: &str) -> Vec<&str> {
    idents(code)
        .filter(|(at, word)| {
            let before = &code[..*at];
            let after = &code[at + word.len()..];
            before.ends_with('.')
                && !before.ends_with("..")
                && !word.starts_with(|c: char| c.is_ascii_digit())
                && !after.starts_with('(')
                && !after.starts_with("::")
        })
        .map(|(_, word)| word)
        .collect()
}

/// Whether `code` writes the field `name`: assigns it (`x.name = ..`, `x.name += ..`), mutates it (`x.name.push(..)`)
/// or lends it mutably (`&mut x.name`).
pub(super) fn writes_field(code: &str, name: &str) -> bool {
    idents(code).any(|(at, word)| {
        if word != name || !code[..at].ends_with('.') {
            return false;
        }
        let after = code[at + word.len()..].trim_start();
        let assigns = assignment_at(after) == Some(after.find('=').unwrap_or(usize::MAX))
            && after.split('=').next().is_some_and(|op| op.len() <= 2 && op.chars().all(|c| "+-*/%|&^<>".contains(c)));
        let mutates = after.starts_with('.') && mutating_call_at(after) == Some(0);
        assigns || mutates || code[..at].contains("&mut ")
    })
}

/// Whether a struct literal's line sets its field to a constant (`late_window: 12 * 60,`, `name: "desk",`,
/// `cap: MAX_SEATS,`): no call, no other value.
pub(super) fn constant_value(code: &str) -> bool {
    let Some((_, value)) = code.split_once(':') else {
        return false;
    };
    let value = value.trim().trim_end_matches(',').trim();
    !value.is_empty()
        && !value.contains('(')
        && idents(value).all(|(_, word)| {
            word.starts_with(|c: char| c.is_ascii_digit())
                || word.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                || matches!(word, "true" | "false")
                || value.starts_with('"')
        })
}

/// Whether a struct literal's line sets its field to a place as it is (`cents: fees.no_show,`), computing nothing.
pub(super) fn sent_as_is(code: &str) -> bool {
    code.split_once(':').is_some_and(|(_, value)| {
        let value = value.trim().trim_end_matches(',').trim();
        !value.is_empty() && value.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    })
}

/// A `Default`'s line that sets a field to a constant: its file, its line (0-based) and the type of its literal.
pub(super) type DefaultSet = (&'static str, usize, Option<String>);

/// Where `code` names `name` as a struct literal's (or pattern's) shorthand field: `Class { name, .. }`, or `name,`
/// on a line of its own.
pub(super) fn shorthand_field(code: &str, name: &str) -> Option<usize> {
    idents(code)
        .find(|(at, word)| {
            let (before, after) = (code[..*at].trim_end(), code[at + word.len()..].trim_start());
            *word == name
                && (before.is_empty() || before.ends_with([',', '{']))
                && (after.starts_with([',', '}']) || (after.is_empty() && before.ends_with(',')))
        })
        .map(|(at, _)| at)
}

/// The type a struct literal makes, for its field at column `at` of line `i` (0-based): the name before the
/// brace that opens the literal (`PriceList(Fees {` → `Fees`), looked for back to line `first`; `None` when not found.
pub(super) fn literal_type(lines: &[String], i: usize, first: usize, at: usize) -> Option<String> {
    let mut depth = 0_i32;
    for l in (first..=i).rev() {
        let code = code_part(&lines[l]);
        let end = if l == i { at.min(code.len()) } else { code.len() };
        let text = &code[..end];
        for (pos, c) in text.char_indices().rev() {
            match c {
                '}' => depth += 1,
                '{' if depth > 0 => depth -= 1,
                '{' => {
                    let name: String = text[..pos]
                        .trim_end()
                        .chars()
                        .rev()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    return (!name.is_empty()).then_some(name);
                }
                _ => {}
            }
        }
    }
    None
}

/// The field a struct literal's line sets (`late_window: 12,` → `late_window`), if the line is one.
pub(super) fn literal_field(code: &str) -> Option<&str> {
    let code = code.trim_start();
    let name = code.split(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
    let rest = code[name.len()..].trim_start();
    (!name.is_empty() && name != "let" && rest.starts_with(':') && !rest.starts_with("::")).then_some(name)
}

/// The fields an `update` read, in the fns `ran` entered, on lines that ran and that `quoted` (the message's lines)
/// leaves out, which no code of the crate writes (no `x.f = ..`, no struct literal outside a hand-written `Default`
/// sets it) and a hand-written `Default` sets to a constant: constants the model was made with (`late_window: 12,`
/// in `impl Default for PriceList`), as the lines of those `Default`s that set them. A wrong constant there (a unit,
/// a copied value) shows in no message's writes and in no quoted line, so the line the value came from is quoted.
/// Read on a branch or arm that ran first, then on the other lines; a field a line sends as it is (`cents:
/// fees.no_show,`) is left out, since the message it went into shows its value. Of several `Default`s setting one,
/// the first reached from the fn that made `model` (its `X::default()` calls, followed into the `Default`s they
/// call); at most [`DEFAULT_FIELD_LINES`].
pub(super) fn default_only_fields(ran: &[crate::trace::log::Ran], model: &NodeRecord, quoted: &[SourceLine]) -> Vec<SourceLine> {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    // the fields read on quoted lines (the answer names them), then those on a branch or arm that ran, then on the
    // other lines that ran
    let mut read: Vec<(bool, String)> = Vec::new();
    for q in quoted {
        for f in field_reads(code_part(&q.text)) {
            if !read.iter().any(|(_, r)| r == f) {
                read.push((true, f.to_owned()));
            }
        }
    }
    for branches in [true, false] {
        for found in entered_fns(ran) {
            let (index, def, file) = (&found.index, found.def(), found.file);
            for l in def.whole.first + 1..def.whole.last {
                if recorded.contains(&(file, l)) != branches || not_taken(index, def.whole, file, &recorded, l) {
                    continue;
                }
                let code = code_part(&index.lines[l as usize - 1]);
                // a field sent as it is (`cents: fees.no_show,`): the message or command it went into shows its value
                if literal_field(code).is_some() && sent_as_is(code) {
                    continue;
                }
                for f in field_reads(code) {
                    if !read.iter().any(|(_, r)| r == f) {
                        read.push((false, f.to_owned()));
                    }
                }
            }
        }
    }
    // only those the answer does not quote are looked for
    read.retain(|(is_quoted, _)| !is_quoted);
    if read.is_empty() {
        return Vec::new();
    }
    // the crate's writes of those fields, and the lines of hand-written `Default`s that set them
    let file = model.site.file();
    let mut written: HashSet<&str> = HashSet::new();
    // a `Default`'s line setting a field to a constant, with the type of its literal; the fields (with the type) a
    // literal outside a `Default` sets
    let mut in_defaults: HashMap<&str, Vec<DefaultSet>> = HashMap::new();
    let mut literal_elsewhere: HashSet<(&str, Option<String>)> = HashSet::new();
    for f in source::crate_files(file).iter() {
        let Some(index) = source::index(f.file) else { continue };
        for def in &index.fns {
            let is_default = def.trait_name.as_deref() == Some("Default");
            // the body, after the signature (whose parameters on lines of their own look like a literal's fields)
            let Some(body) = (def.whole.first as usize - 1..def.whole.last as usize)
                .find(|&i| code_part(&index.lines[i]).trim_end().ends_with('{'))
            else {
                continue;
            };
            for i in body + 1..(def.whole.last as usize - 1) {
                let code = code_part(&index.lines[i]);
                for (_, name) in &read {
                    if !code.contains(name.as_str()) {
                        continue;
                    }
                    if writes_field(code, name) {
                        written.insert(name);
                    }
                    // set by a struct literal's shorthand outside a `Default` (`Stay { breakfast, .. }`): the type
                    // that literal makes has it written
                    if !is_default && let Some(at) = shorthand_field(code, name) {
                        literal_elsewhere.insert((name, literal_type(&index.lines, i, body, at)));
                    }
                }
                if let Some(name) = literal_field(code)
                    && let Some((_, name)) = read.iter().find(|(_, r)| r == name)
                {
                    let of = literal_type(&index.lines, i, body, code.len() - code.trim_start().len());
                    if is_default && constant_value(code) {
                        in_defaults.entry(name).or_default().push((f.file, i, of));
                    } else {
                        literal_elsewhere.insert((name, of));
                    }
                }
            }
        }
    }
    // the `Default`s the fn that made the model calls, followed into those they call, in the order called
    let mut reached: Vec<(&'static str, usize)> = Vec::new();
    if let Some(index) = source::index(file)
        && let Some(maker) = index
            .fns
            .iter()
            .filter(|f| f.whole.contains(model.site.line()))
            .min_by_key(|f| f.whole.last - f.whole.first)
    {
        let mut todo: Vec<String> = (maker.whole.first as usize..model.site.line() as usize)
            .filter_map(|i| default_called(code_part(&index.lines[i])))
            .collect();
        todo.reverse();
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(type_name) = todo.pop() {
            if !seen.insert(type_name.clone()) || seen.len() > 8 {
                continue;
            }
            let Some(found) = source::impl_fn(file, &type_name, "Default", "default") else {
                continue;
            };
            let whole = found.def().whole;
            let mut inner = Vec::new();
            for i in whole.first as usize..whole.last as usize - 1 {
                let code = code_part(&found.index.lines[i]);
                reached.push((found.file, i));
                inner.extend(default_called(code));
            }
            todo.extend(inner.into_iter().rev());
        }
    }
    let mut out: Vec<SourceLine> = Vec::new();
    for (_, name) in &read {
        if written.contains(name.as_str()) {
            continue;
        }
        // set by a literal outside a `Default`, of the type the `Default`'s literal makes (or of an unknown type)
        let Some(sets) = in_defaults.get(name.as_str()) else { continue };
        let sets: Vec<(&'static str, usize)> = sets
            .iter()
            .filter(|(_, _, of)| {
                !literal_elsewhere.contains(&(name.as_str(), of.clone())) && !literal_elsewhere.contains(&(name.as_str(), None))
            })
            .map(|(file, i, _)| (*file, *i))
            .collect();
        if sets.is_empty() {
            continue;
        }
        // the one the model's making reached first (a struct literal's own fields come before its `..X::default()`),
        // else every one
        let first_reached = sets
            .iter()
            .filter_map(|s| Some((reached.iter().position(|r| r == s)?, *s)))
            .min()
            .map(|(_, s)| s);
        let sets: Vec<(&'static str, usize)> = first_reached.map_or(sets, |s| vec![s]);
        for (file, i) in sets {
            if out.len() < DEFAULT_FIELD_LINES
                && let Some(index) = source::index(file)
            {
                out.push(numbered(file, &index.lines, i));
            }
        }
    }
    out
}
