//! Where two `Debug` texts of one value differ, structurally: `Quote { cents: 450, service: Standard }` against
//! `Quote { cents: 450, service: Express }` differ in `.service`. A diagnosis uses it when a memo kept a value its
//! equality called equal to the one it computed, though the two print differently: the fields that differ are the
//! ones that equality ignored.
//!
//! The texts are parsed as `{:?}` prints them: structs (`Name { a: 1 }`), tuple structs and tuples (`Name(1, 2)`,
//! `(1, 2)`), lists (`[1, 2]`), maps and sets (`{"a": 1}`, `{1, 2}`), strings and characters with their escapes, and
//! anything else as an atom (`12`, `-1.5`, `None`, `Express`). A text that does not parse (a value cut short in the
//! trace, a hand-written `Debug`) is compared as a whole.

use std::collections::HashSet;

/// A parsed `Debug` text.
#[derive(Clone, Debug, PartialEq)]
enum Value<'a> {
    /// `Name { a: 1, b: 2 }` (`..` at the end of a non-exhaustive struct is dropped).
    Struct(&'a str, Vec<(&'a str, Value<'a>)>),
    /// `Name(1, 2)`, or `(1, 2)` with no name.
    Tuple(Option<&'a str>, Vec<Value<'a>>),
    /// `[1, 2]`.
    List(Vec<Value<'a>>),
    /// `{k: v, ..}`, or a set `{a, b}` (its values with no key).
    Map(Vec<(Option<Value<'a>>, Value<'a>)>),
    /// Anything else, as printed: `12`, `"text"`, `None`, `Express`.
    Atom(&'a str),
}

/// One place where the two texts differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Difference {
    /// Where: `.service`, `.lines[2].qty`, `` (the whole value).
    pub path: String,
    /// The first text's part there (cut to [`PART_MAX`] characters).
    pub before: String,
    /// The second text's part there.
    pub after: String,
    /// The names of the structs the path goes through, outermost first (`["Quote"]` for `.service` of a
    /// `Quote`): the types whose equality decided.
    pub types: Vec<String>,
}

/// The longest part of a value a [`Difference`] quotes.
const PART_MAX: usize = 40;
/// How deep the parser follows nested values.
const DEPTH_MAX: usize = 64;

/// Where `before` and `after` (two `Debug` texts) differ, at most `max` places, outermost type first; empty when
/// they are equal. Texts that do not parse are one difference of the whole value.
pub(crate) fn differences(before: &str, after: &str, max: usize) -> Vec<Difference> {
    if before == after {
        return Vec::new();
    }
    let mut out = Vec::new();
    // texts the trace cut short (`…` at the end) are cut to the same length and closed after their last whole item
    let closed = closed_alike(before, after);
    let (before, after) = closed.as_ref().map_or((before, after), |(a, b)| (a.as_str(), b.as_str()));
    match (parse(before), parse(after)) {
        (Some(a), Some(b)) => diff(
            &a,
            &b,
            &mut String::new(),
            &mut Vec::new(),
            &mut out,
            max.max(1),
        ),
        _ => out.push(Difference {
            path: String::new(),
            before: clip(before),
            after: clip(after),
            types: Vec::new(),
        }),
    }
    out
}

/// The field names a [`Difference`]'s path goes through (`.lots[2].status.state` → `lots`, `status`, `state`): not
/// its indexes or map keys.
pub(crate) fn path_fields(path: &str) -> impl Iterator<Item = &str> {
    path.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}

/// The fields of the structs in a `Debug` text, outside its lists and maps, whose value is a plain atom (`period: 0`,
/// `name: "desk"`, `kind: Express`), as `(struct, field, atom)` in the order printed; empty when the text does not
/// parse. The values a model was made with, not the rows it holds.
pub(crate) fn struct_field_atoms(text: &str) -> Vec<(String, String, String)> {
    fn walk(v: &Value<'_>, out: &mut Vec<(String, String, String)>) {
        match v {
            Value::Struct(of, fields) => {
                for (name, value) in fields {
                    match value {
                        Value::Atom(a) => out.push(((*of).to_owned(), (*name).to_owned(), (*a).to_owned())),
                        other => walk(other, out),
                    }
                }
            }
            Value::Tuple(_, items) => items.iter().for_each(|i| walk(i, out)),
            Value::Atom(_) | Value::List(_) | Value::Map(_) => {}
        }
    }
    let mut out = Vec::new();
    if let Some(v) = parse(text) {
        walk(&v, &mut out);
    }
    out
}

/// The names of the struct fields inside the lists and maps of a `Debug` text (a row's `day` in `letters: [Letter
/// { day: 1, .. }]`): names a field outside them shares with the rows it holds.
pub(crate) fn row_field_names(text: &str) -> HashSet<String> {
    fn walk(v: &Value<'_>, in_rows: bool, out: &mut HashSet<String>) {
        match v {
            Value::Struct(_, fields) => {
                for (name, value) in fields {
                    if in_rows {
                        out.insert((*name).to_owned());
                    }
                    walk(value, in_rows, out);
                }
            }
            Value::Tuple(_, items) => items.iter().for_each(|i| walk(i, in_rows, out)),
            Value::List(items) => items.iter().for_each(|i| walk(i, true, out)),
            Value::Map(entries) => entries.iter().for_each(|(k, v)| {
                if let Some(k) = k {
                    walk(k, true, out);
                }
                walk(v, true, out);
            }),
            Value::Atom(_) => {}
        }
    }
    let mut out = HashSet::new();
    if let Some(v) = parse(text) {
        walk(&v, false, &mut out);
    }
    out
}

fn clip(text: &str) -> String {
    crate::text::clip(text, PART_MAX).into_owned()
}

fn diff(
    a: &Value<'_>,
    b: &Value<'_>,
    path: &mut String,
    types: &mut Vec<String>,
    out: &mut Vec<Difference>,
    max: usize,
) {
    if out.len() >= max || a == b {
        return;
    }
    let len = path.len();
    match (a, b) {
        (Value::Struct(na, fa), Value::Struct(nb, fb)) if na == nb => {
            types.push((*na).to_owned());
            for (name, va) in fa {
                path.push('.');
                path.push_str(name);
                match fb.iter().find(|(n, _)| n == name) {
                    Some((_, vb)) => diff(va, vb, path, types, out, max),
                    None => leaf(&print(va), "(no field)", path, types, out, max),
                }
                path.truncate(len);
            }
            for (name, vb) in fb.iter().filter(|(n, _)| !fa.iter().any(|(m, _)| m == n)) {
                path.push('.');
                path.push_str(name);
                leaf("(no field)", &print(vb), path, types, out, max);
                path.truncate(len);
            }
            types.pop();
        }
        (Value::Tuple(na, xa), Value::Tuple(nb, xb)) if na == nb && xa.len() == xb.len() => {
            if let Some(name) = na {
                types.push((*name).to_owned());
            }
            for (i, (va, vb)) in xa.iter().zip(xb).enumerate() {
                path.push_str(&format!(".{i}"));
                diff(va, vb, path, types, out, max);
                path.truncate(len);
            }
            if na.is_some() {
                types.pop();
            }
        }
        (Value::List(xa), Value::List(xb)) if xa.len() == xb.len() => {
            for (i, (va, vb)) in xa.iter().zip(xb).enumerate() {
                path.push_str(&format!("[{i}]"));
                diff(va, vb, path, types, out, max);
                path.truncate(len);
            }
        }
        (Value::List(xa), Value::List(xb)) => leaf(
            &format!("{} items", xa.len()),
            &format!("{} items", xb.len()),
            path,
            types,
            out,
            max,
        ),
        (Value::Map(xa), Value::Map(xb)) if xa.iter().all(|(k, _)| k.is_some()) => {
            for (key, va) in xa {
                let key = key.as_ref().map(print).unwrap_or_default();
                path.push_str(&format!("[{key}]"));
                match xb.iter().find(|(k, _)| k.as_ref().map(print).as_deref() == Some(&key)) {
                    Some((_, vb)) => diff(va, vb, path, types, out, max),
                    None => leaf(&print(va), "(no entry)", path, types, out, max),
                }
                path.truncate(len);
            }
            for (key, vb) in xb {
                let key = key.as_ref().map(print).unwrap_or_default();
                if xa.iter().any(|(k, _)| k.as_ref().map(print).as_deref() == Some(&key)) {
                    continue;
                }
                path.push_str(&format!("[{key}]"));
                leaf("(no entry)", &print(vb), path, types, out, max);
                path.truncate(len);
            }
        }
        _ => leaf(&print(a), &print(b), path, types, out, max),
    }
}

fn leaf(
    before: &str,
    after: &str,
    path: &str,
    types: &[String],
    out: &mut Vec<Difference>,
    max: usize,
) {
    if out.len() < max {
        out.push(Difference {
            path: path.to_owned(),
            before: clip(before),
            after: clip(after),
            types: types.to_vec(),
        });
    }
}

/// A parsed value printed back as `{:?}` prints it.
fn print(v: &Value<'_>) -> String {
    fn list<'v, 'a: 'v>(items: impl Iterator<Item = &'v Value<'a>>) -> String {
        items.map(print).collect::<Vec<_>>().join(", ")
    }
    match v {
        Value::Atom(a) => (*a).to_owned(),
        Value::Struct(name, fields) => {
            let fields: Vec<String> = fields.iter().map(|(n, v)| format!("{n}: {}", print(v))).collect();
            format!("{name} {{ {} }}", fields.join(", "))
        }
        Value::Tuple(name, items) => format!("{}({})", name.unwrap_or(""), list(items.iter())),
        Value::List(items) => format!("[{}]", list(items.iter())),
        Value::Map(entries) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| match k {
                    Some(k) => format!("{}: {}", print(k), print(v)),
                    None => print(v),
                })
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// Two texts both cut short by the trace (ending in `…`), cut to the same length and each closed after its last
/// whole item (`[A { a: 1, b: 2 }, A { a: 3, b` → `[A { a: 1, b: 2 }, A { a: 3 }]`), so the parts they both hold
/// can be compared; `None` when either is whole or cannot be closed.
fn closed_alike(before: &str, after: &str) -> Option<(String, String)> {
    let a = before.strip_suffix('…')?;
    let b = after.strip_suffix('…')?;
    let at = a.len().min(b.len());
    let cut = |text: &str| {
        let mut at = at;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        close(&text[..at])
    };
    Some((cut(a)?, cut(b)?))
}

/// A `Debug` text cut anywhere, cut back to its last `,` outside quotes and closed with the brackets still open.
fn close(text: &str) -> Option<String> {
    let mut open: Vec<char> = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    // the last `,` outside quotes, with the brackets open there
    let mut last_comma: Option<(usize, Vec<char>)> = None;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' | '(' | '{' => open.push(c),
            ']' | ')' | '}' => {
                open.pop()?;
            }
            ',' => last_comma = Some((i, open.clone())),
            _ => {}
        }
    }
    let (at, opened) = last_comma?;
    let mut out = text[..at].to_owned();
    for c in opened.iter().rev() {
        out.push_str(match c {
            '[' => "]",
            '(' => ")",
            _ => " }",
        });
    }
    Some(out)
}

/// Parses a whole `Debug` text; `None` when it does not parse to its end.
fn parse(text: &str) -> Option<Value<'_>> {
    let mut p = Parser { text, at: 0 };
    let v = p.value(0)?;
    p.space();
    (p.at == text.len()).then_some(v)
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn space(&mut self) {
        let trimmed = self.rest().trim_start();
        self.at = self.text.len() - trimmed.len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.space();
        if self.peek() == Some(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value<'a>> {
        if depth > DEPTH_MAX {
            return None;
        }
        self.space();
        match self.peek()? {
            '"' | '\'' => self.quoted(),
            '[' => {
                self.at += 1;
                Some(Value::List(self.items(']', depth)?))
            }
            '(' => {
                self.at += 1;
                Some(Value::Tuple(None, self.items(')', depth)?))
            }
            '{' => {
                self.at += 1;
                self.map(depth)
            }
            _ => {
                let atom = self.atom()?;
                let starts_like_a_name = atom.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
                if !starts_like_a_name {
                    return Some(Value::Atom(atom));
                }
                // `Name(..)` has no space before its parenthesis; `Name { .. }` has one before its brace
                if self.peek() == Some('(') {
                    self.at += 1;
                    return Some(Value::Tuple(Some(atom), self.items(')', depth)?));
                }
                let mark = self.at;
                if self.eat('{') {
                    return self.fields(atom, depth);
                }
                self.at = mark;
                Some(Value::Atom(atom))
            }
        }
    }

    /// A string or character literal, escapes included.
    fn quoted(&mut self) -> Option<Value<'a>> {
        let start = self.at;
        let quote = self.peek()?;
        let mut chars = self.rest().char_indices().skip(1);
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                c if c == quote => {
                    self.at = start + i + c.len_utf8();
                    return Some(Value::Atom(&self.text[start..self.at]));
                }
                _ => {}
            }
        }
        None
    }

    /// A run of characters up to a delimiter or a space: a number, a name, a path (`a::B`).
    fn atom(&mut self) -> Option<&'a str> {
        let rest = self.rest();
        let end = rest
            .char_indices()
            .find(|(i, c)| {
                c.is_whitespace()
                    || matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '"')
                    || (*c == ':' && !rest[i + 1..].starts_with(':') && !rest[..*i].ends_with(':'))
            })
            .map_or(rest.len(), |(i, _)| i);
        if end == 0 {
            return None;
        }
        self.at += end;
        Some(&rest[..end])
    }

    /// Comma-separated values up to `close` (a trailing comma allowed).
    fn items(&mut self, close: char, depth: usize) -> Option<Vec<Value<'a>>> {
        let mut out = Vec::new();
        loop {
            if self.eat(close) {
                return Some(out);
            }
            out.push(self.value(depth + 1)?);
            if !self.eat(',') {
                return self.eat(close).then_some(out);
            }
        }
    }

    /// `name: value` fields up to `}`, after `Name {`.
    fn fields(&mut self, name: &'a str, depth: usize) -> Option<Value<'a>> {
        let mut out = Vec::new();
        loop {
            if self.eat('}') {
                return Some(Value::Struct(name, out));
            }
            self.space();
            if self.rest().starts_with("..") {
                self.at += 2;
                continue;
            }
            let field = self.atom()?;
            if !self.eat(':') {
                return None;
            }
            out.push((field, self.value(depth + 1)?));
            if !self.eat(',') {
                return self.eat('}').then_some(Value::Struct(name, out));
            }
        }
    }

    /// A map's entries (`k: v`) or a set's values up to `}`, after `{`.
    fn map(&mut self, depth: usize) -> Option<Value<'a>> {
        let mut out = Vec::new();
        loop {
            if self.eat('}') {
                return Some(Value::Map(out));
            }
            let first = self.value(depth + 1)?;
            if self.eat(':') {
                out.push((Some(first), self.value(depth + 1)?));
            } else {
                out.push((None, first));
            }
            if !self.eat(',') {
                return self.eat('}').then_some(Value::Map(out));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_s_own_fields_are_told_from_its_rows_fields() {
        let text = r#"Desk { today: 3, rules: Rules { block_at: 10, mode: Strict }, owed: [Owed { who: "ada", today: 2 }], next: Some(4) }"#;
        let atoms = struct_field_atoms(text);
        let named: Vec<(&str, &str, &str)> = atoms.iter().map(|(s, f, v)| (s.as_str(), f.as_str(), v.as_str())).collect();
        assert_eq!(named, [("Desk", "today", "3"), ("Rules", "block_at", "10"), ("Rules", "mode", "Strict")]);
        let rows = row_field_names(text);
        assert!(rows.contains("who") && rows.contains("today") && !rows.contains("block_at"), "{rows:?}");
        assert!(struct_field_atoms("Desk { cut…").is_empty());
    }

    #[test]
    fn texts_cut_short_are_compared_by_what_both_hold() {
        let before = r#"[Listed(Show { id: "m1", sold: 0, open: true }), Listed(Show { id: "m2", sold: 0, op…"#;
        let after = r#"[Listed(Show { id: "m1", sold: 2, open: true }), Listed(Show { id: "m2", sold: 0, op…"#;
        let found = differences(before, after, 3);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, "[0].0.sold");
        assert_eq!((found[0].before.as_str(), found[0].after.as_str()), ("0", "2"));
        assert_eq!(found[0].types, ["Listed", "Show"]);
        // a comma inside a string does not cut there; a text with no comma cannot be closed
        assert_eq!(close(r#"[A { s: "a, b", n: 1 }, A { s: "c"#).as_deref(), Some(r#"[A { s: "a, b", n: 1 }]"#));
        assert_eq!(close("[Abc"), None);
    }

    fn one(before: &str, after: &str) -> Vec<(String, String, String)> {
        differences(before, after, 5)
            .into_iter()
            .map(|d| (d.path, d.before, d.after))
            .collect()
    }

    #[test]
    fn a_field_of_a_struct() {
        let found = differences(
            "Quote { cents: 450, service: Standard, note: \"a, b }\" }",
            "Quote { cents: 450, service: Express, note: \"a, b }\" }",
            5,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, ".service");
        assert_eq!((found[0].before.as_str(), found[0].after.as_str()), ("Standard", "Express"));
        assert_eq!(found[0].types, ["Quote"]);
    }

    #[test]
    fn nested_lists_tuples_and_maps() {
        assert_eq!(
            one(
                "Some(Till { lines: [Item { sku: \"pen\", qty: 1 }], tags: {\"a\": (1, 'x')} })",
                "Some(Till { lines: [Item { sku: \"pen\", qty: 3 }], tags: {\"a\": (1, 'y')} })"
            ),
            [
                (".0.lines[0].qty".to_owned(), "1".to_owned(), "3".to_owned()),
                (".0.tags[\"a\"].1".to_owned(), "'x'".to_owned(), "'y'".to_owned())
            ]
        );
        assert_eq!(
            one("[1, 2]", "[1, 2, 3]"),
            [(String::new(), "2 items".to_owned(), "3 items".to_owned())]
        );
        assert_eq!(
            differences("A { b: B { c: -1.5 } }", "A { b: B { c: 2e3 } }", 5)[0].types,
            ["A", "B"]
        );
    }

    #[test]
    fn equal_texts_have_no_difference_and_the_output_is_capped() {
        assert!(differences("A { x: 1 }", "A { x: 1 }", 5).is_empty());
        let many = differences("[1, 2, 3, 4]", "[5, 6, 7, 8]", 2);
        assert_eq!(many.len(), 2);
        assert_eq!(many[1].path, "[1]");
    }

    #[test]
    fn a_text_that_does_not_parse_is_one_difference() {
        // a value the trace cut short ends with `…`
        assert_eq!(
            one("Quote { cents: 1, servi…", "Quote { cents: 2 }"),
            [(
                String::new(),
                "Quote { cents: 1, servi…".to_owned(),
                "Quote { cents: 2 }".to_owned()
            )]
        );
        assert_eq!(one("a::B", "a::C"), [(String::new(), "a::B".to_owned(), "a::C".to_owned())]);
    }
}
