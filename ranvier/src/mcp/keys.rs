//! Duplicate keys in JSON text: the first object, anywhere in a message, that names a key twice.
//!
//! JSON parsers disagree about `{"message":"set_discount","message":"clear"}` (RFC 8259 leaves it to them): serde
//! keeps the last value of a map and refuses a struct's field given twice, so rmcp refuses a message whose envelope
//! repeats `id` while the tool arguments it hands on as a map silently lose the first `message`. The transports scan
//! every message they read with [`first_duplicate`] and refuse one that repeats a key anywhere, naming the key and
//! where it is, so what a client meant is never guessed.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// A key found twice in one object, and the object's place in the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Duplicate {
    /// The key, as decoded (escapes resolved).
    pub(crate) key: String,
    /// The path from the message to the object, outermost first; empty for the message itself.
    pub(crate) path: Vec<Segment>,
}

/// One step of a [`Duplicate`]'s path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    /// A property.
    Key(String),
    /// An array element.
    Index(usize),
}

impl Duplicate {
    /// Where the object is, as `params.arguments`, `params.arguments.messages[2]`, `params["a b"]`, or
    /// `the message` for the message itself.
    pub(crate) fn place(&self) -> String {
        if self.path.is_empty() {
            return "the message".to_owned();
        }
        let mut out = String::new();
        for segment in &self.path {
            match segment {
                Segment::Key(key) if is_plain(key) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                Segment::Key(key) => {
                    out.push('[');
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(']');
                }
                Segment::Index(index) => out.push_str(&format!("[{index}]")),
            }
        }
        out
    }
}

fn is_plain(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The first key an object of `json` names twice, in document order; `None` when every object's keys are distinct,
/// or when `json` is not JSON (the caller reads it first).
pub(crate) fn first_duplicate(json: &[u8]) -> Option<Duplicate> {
    let found = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    // the error only stops the walk; what was found is in `found`
    let _ = Scan { found: &found }.deserialize(&mut deserializer);
    found.into_inner().map(|mut duplicate: Duplicate| {
        duplicate.path.reverse();
        duplicate
    })
}

/// Walks one value; on a duplicate, records it and stops with an error, each enclosing level adding its step to the
/// path on the way out (innermost first, reversed at the end), so a clean walk allocates only the keys it compares.
struct Scan<'a> {
    found: &'a RefCell<Option<Duplicate>>,
}

impl<'de> DeserializeSeed<'de> for Scan<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Scan<'_> {
    fn step_out(&self, segment: Segment) {
        if let Some(found) = self.found.borrow_mut().as_mut() {
            found.path.push(segment);
        }
    }
}

impl<'de> Visitor<'de> for Scan<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        loop {
            match seq.next_element_seed(Scan { found: self.found }) {
                Ok(Some(())) => index += 1,
                Ok(None) => return Ok(()),
                Err(error) => {
                    self.step_out(Segment::Index(index));
                    return Err(error);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if keys.contains(&key) {
                *self.found.borrow_mut() = Some(Duplicate {
                    key,
                    path: Vec::new(),
                });
                return Err(de::Error::custom("duplicate key"));
            }
            if let Err(error) = map.next_value_seed(Scan { found: self.found }) {
                self.step_out(Segment::Key(key));
                return Err(error);
            }
            keys.insert(key);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(json: &str) -> Option<(String, String)> {
        first_duplicate(json.as_bytes()).map(|d| (d.key.clone(), d.place()))
    }

    #[test]
    fn finds_the_first_repeated_key_and_where_it_is() {
        assert_eq!(
            place(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#),
            Some(("id".into(), "the message".into()))
        );
        assert_eq!(
            place(
                r#"{"params":{"name":"dispatch","arguments":{"message":"set_discount","message":"clear"}}}"#
            ),
            Some(("message".into(), "params.arguments".into()))
        );
        assert_eq!(
            place(r#"{"a":[{"x":1},{"y":[0,{"z":1,"\u007a":2}]}]}"#),
            Some(("z".into(), "a[1].y[1]".into())),
            "escapes are resolved before comparing"
        );
        assert_eq!(
            place(r#"{"a b":{"k":1,"k":1}}"#),
            Some(("k".into(), r#"["a b"]"#.into()))
        );
    }

    #[test]
    fn distinct_keys_and_non_json_find_nothing() {
        assert_eq!(place(r#"{"a":{"a":{"a":[{"a":1},{"a":2}]}}}"#), None);
        assert_eq!(place(r#"[1,"x",null,true,1.5,-0]"#), None);
        assert_eq!(place("not json"), None);
    }
}
