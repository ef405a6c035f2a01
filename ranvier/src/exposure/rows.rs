//! Keyed rows in published values: an exposed [`Collection`](crate::collection::Collection) publishes an array of
//! rows that each carry a `"key"`, and a change to such a value is told by the rows that changed, not the whole list.
//!
//! [`row_keys`] recognises such an array (every element an object with a string or numeric `"key"`, no key twice);
//! [`changed_rows`] shrinks a change of one to the rows that came, went or changed, which is what the journal file
//! keeps: the step line rendered from the shrunk change is the one rendered from the whole lists.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// The member of a row that holds its key.
pub(crate) const KEY: &str = "key";

/// The keys of `rows` when it is an array of keyed rows: every element an object whose `"key"` is a string or a
/// number, no key twice (one hash per row). `None` otherwise (then it is compared by position).
pub(crate) fn row_keys(rows: &[Value]) -> Option<Vec<&Value>> {
    let mut keys = Vec::with_capacity(rows.len());
    let mut seen = HashSet::with_capacity(rows.len());
    for row in rows {
        let key = row.as_object()?.get(KEY)?;
        if !seen.insert(tagged(key)?) {
            return None;
        }
        keys.push(key);
    }
    Some(keys)
}

/// Where each of `keys` is: one hash per key, so looking rows up by key costs O(1), not a scan of the list.
pub(crate) struct Positions<'a>(HashMap<(bool, Cow<'a, str>), usize>);

impl<'a> Positions<'a> {
    /// The positions of `keys` (keys as [`row_keys`] gives them).
    pub(crate) fn of(keys: &[&'a Value]) -> Self {
        Positions(
            keys.iter()
                .enumerate()
                .filter_map(|(at, key)| Some((tagged(key)?, at)))
                .collect(),
        )
    }

    /// The position of `key`, if the keys hold it.
    pub(crate) fn get(&self, key: &Value) -> Option<usize> {
        self.0.get(&tagged(key)?).copied()
    }
}

/// A key's text tagged by its kind (`"7"` and `7` are different keys), or `None` for a key that is neither.
fn tagged(key: &Value) -> Option<(bool, Cow<'_, str>)> {
    match key {
        Value::String(text) => Some((true, Cow::Borrowed(text.as_str()))),
        Value::Number(number) => Some((false, Cow::Owned(number.to_string()))),
        _ => None,
    }
}

/// The change from `old` to `new`, two lists of keyed rows (what an exposed collection publishes), as the rows that
/// matter: `old`'s rows that went or changed and `new`'s rows that came or changed, each in its list's order. `None`
/// when either side is not a list of keyed rows, or when the keys both sides hold are in another order (a reorder is
/// told by the whole lists). The journal file keeps a collection's change this way; `ranvier-mcp compare` shows two
/// builds' differing collections this way.
///
/// # Examples
///
/// ```
/// use serde_json::json;
///
/// let old = json!([{"key": "apple", "qty": 3}, {"key": "pear", "qty": 1}]);
/// let new = json!([{"key": "apple", "qty": 5}, {"key": "pear", "qty": 1}, {"key": "kiwi", "qty": 2}]);
/// assert_eq!(
///     ranvier::exposure::changed_rows(&old, &new),
///     Some((json!([{"key": "apple", "qty": 3}]), json!([{"key": "apple", "qty": 5}, {"key": "kiwi", "qty": 2}])))
/// );
/// ```
pub fn changed_rows(old: &Value, new: &Value) -> Option<(Value, Value)> {
    let (old_rows, new_rows) = (old.as_array()?, new.as_array()?);
    let (old_keys, new_keys) = (row_keys(old_rows)?, row_keys(new_rows)?);
    let old_at = Positions::of(&old_keys);
    let mut kept_old = vec![false; old_rows.len()];
    let mut last_at = None;
    let mut new_side = Vec::new();
    for (row, key) in new_rows.iter().zip(&new_keys) {
        match old_at.get(key) {
            Some(at) => {
                if last_at.is_some_and(|last| at < last) {
                    return None;
                }
                last_at = Some(at);
                if old_rows[at] == *row {
                    kept_old[at] = true;
                } else {
                    new_side.push(row.clone());
                }
            }
            None => new_side.push(row.clone()),
        }
    }
    let old_side = old_rows
        .iter()
        .zip(kept_old)
        .filter(|(_, kept)| !kept)
        .map(|(row, _)| row.clone())
        .collect();
    Some((Value::Array(old_side), Value::Array(new_side)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_change_keeps_the_rows_that_came_went_or_changed() {
        let row = |key: &str, qty: i64| json!({"key": key, "qty": qty});
        let old = json!([row("a", 1), row("b", 2), row("c", 3), row("d", 4)]);
        let new = json!([row("a", 1), row("b", 5), row("d", 4), row("e", 1)]);
        assert_eq!(
            changed_rows(&old, &new),
            Some((
                json!([row("b", 2), row("c", 3)]),
                json!([row("b", 5), row("e", 1)])
            ))
        );
        // unchanged: nothing on either side
        assert_eq!(changed_rows(&old, &old), Some((json!([]), json!([]))));
        // the kept keys in another order: the whole lists tell it
        let moved = json!([row("b", 2), row("a", 1), row("c", 3), row("d", 4)]);
        assert_eq!(changed_rows(&old, &moved), None);
        // not keyed rows, or a key twice
        assert_eq!(changed_rows(&json!([1, 2]), &json!([1])), None);
        assert_eq!(changed_rows(&old, &json!([row("a", 1), row("a", 2)])), None);
        assert_eq!(changed_rows(&json!(1), &json!(2)), None);
    }
}
