//! A changed value in a step line: a scalar as `old→new`, a structured value (an object or array on both sides) as
//! the paths that changed inside it, `todos.items[0].done false→true`, at most [`PATHS_MAX`] of them, so a step
//! line costs an agent the change and not the whole value (the state line after the steps, the `snapshot` tool and
//! `ranvier://state/{name}` hold it whole).
//!
//! An array of rows that each carry a `"key"` (what an exposed [`Collection`](crate::collection::Collection)
//! publishes: `[{"key": "apple", "qty": 3, ...}, ...]`) is compared by key, not by position, so a step line names
//! the rows that changed: `lines[apple].qty 3→5`, `lines +[kiwi]`, `lines -[pear]`, and `lines reordered` when only
//! the order moved. A key that is not a plain name is quoted and escaped (keys can be text a client sent).

use std::fmt::Write as _;

use serde_json::Value;

use crate::exposure::rows::{KEY, Positions, row_keys};

/// The most changed paths a step line lists for one value; the rest are counted.
pub(crate) const PATHS_MAX: usize = 6;

/// The longest text of one side of a changed path; longer ones end with `…`.
const SIDE_MAX_CHARS: usize = 80;

/// A side that is absent: an added or removed key or element.
const ABSENT: &str = "(none)";

/// Writes `name`'s change: `name old→new` for scalars (`shown` renders each side), or its changed paths.
pub(crate) fn write_change(
    out: &mut String,
    name: &str,
    old: &Value,
    new: &Value,
    shown: impl Fn(&Value) -> String,
) {
    let (old_inner, new_inner) = (annotated(old), annotated(new));
    if old_inner.is_some() || new_inner.is_some() {
        // An edit state or a boundary's fallback or recovered value: the value inside, its note after it.
        let (old_value, old_note) = old_inner.unwrap_or((old, String::new()));
        let (new_value, new_note) = new_inner.unwrap_or((new, String::new()));
        if structured(old_value) && structured(new_value) && old_value != new_value {
            write_change(out, name, old_value, new_value, shown);
            out.push_str(&new_note);
        } else {
            let _ = write!(
                out,
                "{name} {}{old_note}→{}{new_note}",
                shown(old_value),
                shown(new_value)
            );
        }
        return;
    }
    if !(structured(old) && structured(new)) || is_pending(old) || is_pending(new) {
        let _ = write!(out, "{name} {}→{}", shown(old), shown(new));
        return;
    }
    let mut paths = Vec::new();
    collect(name.to_owned(), Some(old), Some(new), &mut paths);
    if paths.is_empty() {
        // equal as JSON values (the snapshot's encoding differed only in key order, say): say what changed whole
        let _ = write!(out, "{name} {}→{}", shown(old), shown(new));
        return;
    }
    for (index, (path, old, new)) in paths.iter().take(PATHS_MAX).enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        match (old, new) {
            (Some(Side::Row), _) => {
                let _ = write!(out, "{path}");
            }
            (old, new) => {
                let _ = write!(out, "{path} {}→{}", side(*old), side(*new));
            }
        }
    }
    if paths.len() > PATHS_MAX {
        let _ = write!(out, ", … {} more in {name}", paths.len() - PATHS_MAX);
    }
}

fn structured(value: &Value) -> bool {
    matches!(value, Value::Object(_) | Value::Array(_))
}

/// The encoding of a pending async value, which step lines print as `(pending)`.
fn is_pending(value: &Value) -> bool {
    matches!(value, Value::Object(map) if map.get("pending") == Some(&Value::Bool(true))
        && map.keys().all(|key| key == "pending" || key == "last"))
}

/// One side of a changed path: a value (absent: `None`), or [`Side::Row`] for a keyed row's whole-row entry
/// (`lines +[kiwi]`, `lines -[pear]`, `lines reordered`), whose path says it all.
#[derive(Clone, Copy)]
enum Side<'a> {
    Value(&'a Value),
    Row,
}

/// A changed path and its two sides (`None`: absent).
type Changed<'a> = (String, Option<Side<'a>>, Option<Side<'a>>);

/// A row key in a path: `apple`, `7`, or quoted and escaped (`["a b"]`) when it is not plain text.
pub(crate) fn key_text(key: &Value) -> String {
    match key {
        Value::String(text)
            if !text.is_empty()
                && text
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '@')) =>
        {
            text.clone()
        }
        Value::String(text) => crate::escape::quote(text),
        other => crate::escape::json(other),
    }
}

/// The rows of two keyed arrays that differ, by key: changed members under `path[key]`, then `path +[key]` for a
/// new row, `path -[key]` for a removed one, and `path reordered` when the rows both hold are in another order.
fn collect_rows<'a>(
    path: &str,
    (a, old_keys): (&'a [Value], Vec<&'a Value>),
    (b, new_keys): (&'a [Value], Vec<&'a Value>),
    out: &mut Vec<Changed<'a>>,
) {
    let (old_at, new_at) = (Positions::of(&old_keys), Positions::of(&new_keys));
    let mut kept = Vec::new();
    for (row, key) in a.iter().zip(&old_keys) {
        match new_at.get(key) {
            Some(at) => {
                kept.push(at);
                let row_path = format!("{path}[{}]", key_text(key));
                match (row, &b[at]) {
                    (Value::Object(before), Value::Object(after)) => {
                        for (member_key, value) in before.iter().filter(|(k, _)| *k != KEY) {
                            collect(
                                member(&row_path, member_key),
                                Some(value),
                                after.get(member_key),
                                out,
                            );
                        }
                        for (member_key, value) in
                            after.iter().filter(|(k, _)| !before.contains_key(*k))
                        {
                            collect(member(&row_path, member_key), None, Some(value), out);
                        }
                    }
                    (before, after) => collect(row_path, Some(before), Some(after), out),
                }
            }
            None => out.push((
                format!("{path} -[{}]", key_text(key)),
                Some(Side::Row),
                None,
            )),
        }
    }
    for key in new_keys.iter().filter(|key| old_at.get(key).is_none()) {
        out.push((
            format!("{path} +[{}]", key_text(key)),
            Some(Side::Row),
            None,
        ));
    }
    if kept.windows(2).any(|pair| pair[0] > pair[1]) {
        out.push((format!("{path} reordered"), Some(Side::Row), None));
    }
}

/// A value with a note beside it, as an exposed node kind encodes it: an edit state `{"value": v, "dirty": b}` (noted
/// ` (dirty)` when dirty), a boundary's fallback `{"value": v, "waiting": true}` (` (waiting)`) or recovered value
/// `{"value": v, "caught": "why"}` (` (caught: "why")`, the text escaped). Returns the value and its note.
pub(crate) fn annotated(value: &Value) -> Option<(&Value, String)> {
    let Value::Object(map) = value else {
        return None;
    };
    if map.len() != 2 {
        return None;
    }
    let inner = map.get("value")?;
    let note = match (map.get("dirty"), map.get("waiting"), map.get("caught")) {
        (Some(Value::Bool(dirty)), _, _) => {
            if *dirty {
                " (dirty)".to_owned()
            } else {
                String::new()
            }
        }
        (_, Some(Value::Bool(true)), _) => " (waiting)".to_owned(),
        (_, _, Some(Value::String(why))) => format!(" (caught: {})", crate::escape::quote(why)),
        _ => return None,
    };
    Some((inner, note))
}

/// Every leaf that differs between `old` and `new` under `path`, in document order (old's keys, then new's).
fn collect<'a>(
    path: String,
    old: Option<&'a Value>,
    new: Option<&'a Value>,
    out: &mut Vec<Changed<'a>>,
) {
    if let (Some(Value::Array(a)), Some(Value::Array(b))) = (old, new)
        && (!a.is_empty() || !b.is_empty())
        && let (Some(old_keys), Some(new_keys)) = (row_keys(a), row_keys(b))
    {
        collect_rows(&path, (a, old_keys), (b, new_keys), out);
        return;
    }
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            for (key, before) in a {
                collect(member(&path, key), Some(before), b.get(key), out);
            }
            for (key, after) in b.iter().filter(|(key, _)| !a.contains_key(*key)) {
                collect(member(&path, key), None, Some(after), out);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for index in 0..a.len().max(b.len()) {
                collect(format!("{path}[{index}]"), a.get(index), b.get(index), out);
            }
        }
        (old, new) if old != new => out.push((path, old.map(Side::Value), new.map(Side::Value))),
        _ => {}
    }
}

/// `path.key`, or `path["key"]` (quoted and escaped: keys can be text a client sent) when `key` is not a plain name.
fn member(path: &str, key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        format!("{path}.{key}")
    } else {
        format!("{path}[{}]", crate::escape::quote(key))
    }
}

fn side(value: Option<Side<'_>>) -> String {
    match value {
        None | Some(Side::Row) => ABSENT.to_owned(),
        Some(Side::Value(value)) => {
            crate::text::clip(&crate::escape::json(value), SIDE_MAX_CHARS).into_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn change(old: Value, new: Value) -> String {
        let mut out = String::new();
        write_change(&mut out, "todos", &old, &new, crate::escape::json);
        out
    }

    #[test]
    fn scalars_read_old_to_new() {
        assert_eq!(change(json!(1), json!(2)), "todos 1→2");
        assert_eq!(change(json!(null), json!({"a": 1})), "todos null→{\"a\":1}");
    }

    #[test]
    fn structured_values_list_the_changed_paths() {
        let old =
            json!({"items": [{"title": "milk", "done": false}, {"title": "bread", "done": false}]});
        let new = json!({"items": [{"title": "milk", "done": true}, {"title": "bread", "done": false},
            {"title": "eggs", "done": false}], "filter": "all"});
        assert_eq!(
            change(old, new),
            "todos.items[0].done false→true, todos.items[2] (none)→{\"title\":\"eggs\",\"done\":false}, \
             todos.filter (none)→\"all\""
        );
        assert_eq!(
            change(json!({"a": [1, 2]}), json!({"a": [1]})),
            "todos.a[1] 2→(none)"
        );
        assert_eq!(change(json!([1]), json!([1])), "todos [1]→[1]");
    }

    #[test]
    fn keys_that_are_not_names_are_quoted_and_escaped() {
        let old = json!({"by sku": {"a\nb": 1}});
        let new = json!({"by sku": {"a\nb": 2}});
        assert_eq!(change(old, new), "todos[\"by sku\"][\"a\\nb\"] 1→2");
    }

    #[test]
    fn keyed_rows_are_named_by_key() {
        let row = |key: &str, qty: i64| json!({"key": key, "qty": qty, "total": qty * 120});
        let old = json!([row("apple", 3), row("pear", 1), row("fig", 2)]);
        let new = json!([row("apple", 5), row("fig", 2), row("kiwi", 1)]);
        assert_eq!(
            change(old, new),
            "todos[apple].qty 3→5, todos[apple].total 360→600, todos -[pear], todos +[kiwi]"
        );
        let moved = json!([row("fig", 2), row("apple", 3)]);
        assert_eq!(
            change(json!([row("apple", 3), row("fig", 2)]), moved),
            "todos reordered"
        );
        // from and to an empty list
        assert_eq!(change(json!([]), json!([row("kiwi", 1)])), "todos +[kiwi]");
        assert_eq!(change(json!([row("kiwi", 1)]), json!([])), "todos -[kiwi]");
    }

    #[test]
    fn a_change_shrunk_to_its_rows_reads_as_the_whole_change() {
        let row = |key: &str, qty: i64| json!({"key": key, "qty": qty, "total": qty * 120});
        let cases = [
            (
                json!([
                    row("apple", 3),
                    row("pear", 1),
                    row("fig", 2),
                    row("lime", 4)
                ]),
                json!([
                    row("apple", 5),
                    row("fig", 2),
                    row("lime", 4),
                    row("kiwi", 1)
                ]),
            ),
            (json!([]), json!([row("kiwi", 1)])),
            (
                json!([row("a", 1), row("b", 1)]),
                json!([row("a", 1), row("c", 2), row("b", 1)]),
            ),
        ];
        for (old, new) in cases {
            let (small_old, small_new) =
                crate::exposure::rows::changed_rows(&old, &new).expect("keyed rows in order");
            assert_eq!(
                change(small_old, small_new),
                change(old.clone(), new.clone()),
                "{old} → {new}"
            );
        }
    }

    #[test]
    fn row_keys_a_client_sent_are_escaped() {
        let old = json!([{"key": "a]\n\"b", "qty": 1}]);
        let new = json!([{"key": "a]\n\"b", "qty": 2}, {"key": 7, "qty": 1}]);
        assert_eq!(
            change(old, new),
            "todos[\"a]\\n\\\"b\"].qty 1→2, todos +[7]"
        );
    }

    #[test]
    fn arrays_without_unique_keys_compare_by_position() {
        let old = json!([{"key": "a", "n": 1}, {"key": "a", "n": 2}]);
        let new = json!([{"key": "a", "n": 1}, {"key": "a", "n": 3}]);
        assert_eq!(change(old, new), "todos[1].n 2→3");
        assert_eq!(
            change(json!([{"n": 1}]), json!([{"n": 2}])),
            "todos[0].n 1→2"
        );
    }

    #[test]
    fn paths_are_capped_and_sides_clipped() {
        let old = json!({"n": (0..10).collect::<Vec<_>>(), "text": ""});
        let new = json!({"n": (1..11).collect::<Vec<_>>(), "text": "x".repeat(200)});
        let text = change(old, new);
        assert!(
            text.starts_with("todos.n[0] 0→1, todos.n[1] 1→2, "),
            "{text}"
        );
        assert!(text.ends_with(", … 5 more in todos"), "{text}");
        assert_eq!(text.matches("→").count(), PATHS_MAX, "{text}");
        let text = change(json!({"text": ""}), json!({"text": "x".repeat(200)}));
        assert!(text.ends_with("…"), "{text}");
        assert!(text.chars().count() < 100, "{text}");
    }
}
