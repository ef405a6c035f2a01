//! Secrets an agent must not see: values and message arguments kept out of everything a client reads.
//!
//! A redacted value is published as the marker [`REDACTED`] (`"‹redacted›"`) in place of its encoding, so it never
//! reaches a snapshot, a step line, the history, a diff, a resource or the live page (they are all made from the
//! published snapshots). A redacted message argument is replaced by the marker in what is recorded and echoed about
//! the message (the journal and its file, step lines, the errors list, the trace's record of the message, hence
//! `explain`); the message's decoder still gets the real arguments.
//!
//! What is redacted:
//!
//! - by default, every value and every message argument (at any depth of the arguments) whose name looks like a
//!   secret: it contains `password`, `passwd`, `secret`, `token`, `api_key`, `apikey`, `private_key` or
//!   `credential`, in any case ([`is_secret_name`]);
//! - a value marked with [`Exposure::redact`](super::Exposure::redact) (`#[expose(redact)]`), and a message argument
//!   marked with [`Exposure::redact_args`](super::Exposure::redact_args) (`#[message(redact)]` on a field of a
//!   `#[derive(Messages)]` variant);
//! - not a value or argument opted out with [`Exposure::reveal`](super::Exposure::reveal) /
//!   [`Exposure::reveal_args`](super::Exposure::reveal_args) (`#[expose(redact = false)]`,
//!   `#[message(redact = false)]`).
//!
//! In a traced build, the texts the trace tools answer (`explain`, `graph`, `node` and the raw ones) are also
//! scrubbed of every redacted string the exposure has seen (strings of at least [`SCRUB_MIN_CHARS`] characters,
//! the newest [`SCRUB_KEPT`]): a secret that reached the trace some other way (the `Debug` text of a model that
//! holds it, say) is replaced by the marker there too, and so is the value written after a redacted name
//! (`password: "Qz9"` in a `Debug` text, `"pin":42` in JSON), however short. A message that waits for a person's
//! approval is shown with its arguments redacted: its interrupt's `args`, the messages waiting behind it, and the
//! prompt built from them; only a yes runs the arguments as sent. A redacted node (a `#[node]` field that is also a redacted
//! value) is recorded in the trace with the marker in place of its value.
//!
//! # Examples
//!
//! ```
//! use ranvier::exposure::{Exposure, REDACTED};
//! use ranvier::host::GraphHost;
//! use ranvier::Signal;
//!
//! let host = GraphHost::start(|| {
//!     let mut exposure = Exposure::new();
//!     exposure.value("api_token", || "tk-123".to_owned())?; // redacted by its name
//!     exposure.value("pin", || 1234)?.redact("pin")?; // redacted on request
//!     exposure.value("token_count", || 3)?.reveal("token_count")?; // not a secret after all
//!     exposure.start()
//! })?;
//! let exposure = host.invoke(|handle| handle.clone()).wait()?;
//! let snapshot = exposure.snapshot();
//! assert_eq!(snapshot.get("api_token"), Some(&serde_json::json!(REDACTED)));
//! assert_eq!(snapshot.get("pin"), Some(&serde_json::json!(REDACTED)));
//! assert_eq!(snapshot.get("token_count"), Some(&serde_json::json!(3)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

/// What a client reads in place of a redacted value or argument.
pub const REDACTED: &str = crate::text::REDACTED;

/// The shortest redacted string the trace tools' answers are scrubbed of, in characters (a shorter one would
/// blank unrelated text).
pub const SCRUB_MIN_CHARS: usize = 4;

/// How many distinct redacted strings are kept for scrubbing (the newest).
pub const SCRUB_KEPT: usize = 256;

const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "private_key",
    "credential",
];

/// Whether `name` looks like the name of a secret: it contains `password`, `passwd`, `secret`, `token`,
/// `api_key`, `apikey`, `private_key` or `credential`, in any case (`apiToken`, `DB_PASSWORD`, `client_secret`).
pub fn is_secret_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    SECRET_WORDS.iter().any(|word| lower.contains(word))
        || (lower.contains("api") && lower.contains("key"))
}

/// The registered choices, before [`start`](super::Exposure::start).
#[derive(Default, Debug)]
pub(super) struct Choices {
    /// Values redacted on request.
    pub(super) values: HashSet<String>,
    /// Values opted out of the default.
    pub(super) revealed: HashSet<String>,
    /// Per message: arguments redacted on request, and opted out of the default.
    pub(super) args: HashMap<String, (HashSet<String>, HashSet<String>)>,
}

impl Choices {
    /// Whether the value `name` is redacted.
    pub(super) fn value(&self, name: &str) -> bool {
        self.values.contains(name) || (is_secret_name(name) && !self.revealed.contains(name))
    }
}

/// What a started exposure redacts, and the redacted strings it has seen (for scrubbing).
pub(super) struct Redaction {
    args: HashMap<String, (HashSet<String>, HashSet<String>)>,
    seen: Mutex<Seen>,
}

#[derive(Default)]
struct Seen {
    order: VecDeque<String>,
    set: HashSet<String>,
}

impl Redaction {
    pub(super) fn new(choices: &Choices) -> Redaction {
        Redaction {
            args: choices.args.clone(),
            seen: Mutex::default(),
        }
    }

    /// Whether the property `key` of message `message`'s arguments is redacted.
    fn arg(&self, message: &str, key: &str) -> bool {
        match self.args.get(message) {
            Some((redacted, revealed)) => {
                redacted.contains(key) || (is_secret_name(key) && !revealed.contains(key))
            }
            None => is_secret_name(key),
        }
    }

    /// `args` of message `message` with every redacted property (at any depth) replaced by the marker; the
    /// replaced strings are noted for scrubbing. Borrowed when nothing is redacted.
    pub(super) fn args<'a>(&self, message: &str, args: &'a Value) -> Cow<'a, Value> {
        if !self.has_redacted(message, args) {
            return Cow::Borrowed(args);
        }
        let mut masked = args.clone();
        self.mask(message, &mut masked);
        Cow::Owned(masked)
    }

    fn has_redacted(&self, message: &str, value: &Value) -> bool {
        match value {
            Value::Object(map) => map
                .iter()
                .any(|(key, value)| self.arg(message, key) || self.has_redacted(message, value)),
            Value::Array(items) => items.iter().any(|item| self.has_redacted(message, item)),
            _ => false,
        }
    }

    fn mask(&self, message: &str, value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if self.arg(message, key) {
                        self.note(value);
                        *value = Value::String(REDACTED.to_owned());
                    } else {
                        self.mask(message, value);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.mask(message, item)),
            _ => {}
        }
    }

    /// Notes every string (and number) in `value` long enough to scrub.
    pub(super) fn note(&self, value: &Value) {
        match value {
            Value::String(text) => self.note_text(text),
            Value::Number(n) => self.note_text(&n.to_string()),
            Value::Array(items) => items.iter().for_each(|item| self.note(item)),
            Value::Object(map) => map.values().for_each(|item| self.note(item)),
            _ => {}
        }
    }

    fn note_text(&self, text: &str) {
        if text.chars().count() < SCRUB_MIN_CHARS || text == REDACTED {
            return;
        }
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.set.contains(text) {
            return;
        }
        if seen.order.len() >= SCRUB_KEPT
            && let Some(oldest) = seen.order.pop_front()
        {
            seen.set.remove(&oldest);
        }
        seen.order.push_back(text.to_owned());
        seen.set.insert(text.to_owned());
    }

    /// `text` with every noted redacted string replaced by the marker (each also as JSON and `Debug` escape it),
    /// and every value written after a redacted name replaced too ([`scrub_named`]: a secret too short to be
    /// noted, say `pin: 42` in a model's `Debug` text).
    pub(crate) fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = match scrub_named(text, |name| self.named(name)) {
            Some(named) => Cow::Owned(named),
            None => Cow::Borrowed(text),
        };
        if seen.order.is_empty() {
            return out;
        }
        // longest first, so a secret inside a longer one does not leave the rest of it
        let mut secrets: Vec<&String> = seen.order.iter().collect();
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        for secret in secrets {
            let escaped = serde_json::to_string(secret.as_str()).unwrap_or_default();
            let escaped = &escaped[1..escaped.len().saturating_sub(1).max(1)];
            let debug = format!("{secret:?}");
            let debug = &debug[1..debug.len().saturating_sub(1).max(1)];
            for form in [secret.as_str(), escaped, debug] {
                if !form.is_empty() && out.contains(form) {
                    out = Cow::Owned(out.replace(form, REDACTED));
                }
            }
        }
        out
    }

    /// Whether a field called `name` holds a secret wherever it appears: its name looks like one, or some message
    /// has an argument of that name redacted on request (and no message reveals it).
    fn named(&self, name: &str) -> bool {
        let revealed = self
            .args
            .values()
            .any(|(_, revealed)| revealed.contains(name));
        !revealed
            && (is_secret_name(name)
                || self
                    .args
                    .values()
                    .any(|(redacted, _)| redacted.contains(name)))
    }
}

/// `text` with the value after each redacted name replaced by the marker, or `None` when there is none. A name is
/// a run of word characters for which `redacted` holds; it counts when a `:` or `=` follows it (after a closing
/// quote for a JSON key, and one space at most) and then a quoted string (`"…"`, or `\"…\"` inside a JSON
/// string) or a number. So `password: "abc"` (`Debug`), `"pin":42` (JSON) and `token=abc123` are scrubbed;
/// `password: String` (source code) is left as it is.
///
/// ```text
/// Account { user: "ada", password: "Qz9", pin: 42 }  →  Account { user: "ada", password: ‹redacted›, pin: ‹redacted› }
/// ```
pub(crate) fn scrub_named(text: &str, redacted: impl Fn(&str) -> bool) -> Option<String> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `text` already in `out`
    let mut at = 0;
    while at < bytes.len() {
        if !word(bytes[at]) || (at > 0 && word(bytes[at - 1])) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && word(bytes[at]) {
            at += 1;
        }
        let name = &text[start..at];
        let Some(value) = value_after(bytes, at) else {
            continue;
        };
        if !redacted(name) || text[value.clone()].contains(REDACTED) {
            continue;
        }
        let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
        out.push_str(&text[copied..value.start]);
        out.push_str(REDACTED);
        copied = value.end;
        at = value.end;
    }
    out.map(|mut out| {
        out.push_str(&text[copied..]);
        out
    })
}

/// The byte range of the value written after a name ending at `at`: see [`scrub_named`].
fn value_after(bytes: &[u8], mut at: usize) -> Option<std::ops::Range<usize>> {
    // a JSON key's closing quote, escaped or not
    if bytes[at..].starts_with(b"\\\"") {
        at += 2;
    } else if bytes.get(at) == Some(&b'"') {
        at += 1;
    }
    if !matches!(bytes.get(at), Some(b':' | b'=')) {
        return None;
    }
    at += 1;
    if bytes.get(at) == Some(&b' ') {
        at += 1;
    }
    let start = at;
    if bytes[at..].starts_with(b"\\\"") {
        // `\"…\"`: a quoted string inside a JSON string; ends at the next `\"` that is not an escaped quote of the
        // inner string (`\\\"`: JSON's `\\` for the backslash, then the quote)
        let mut end = at + 2;
        while end < bytes.len() && !bytes[end..].starts_with(b"\\\"") {
            end += if bytes[end..].starts_with(b"\\\\") {
                // the inner escape's backslash, then the JSON unit it escapes
                2 + if bytes.get(end + 2) == Some(&b'\\') {
                    2
                } else {
                    1
                }
            } else {
                1
            };
        }
        return (end < bytes.len()).then_some(start..end + 2);
    }
    if bytes.get(at) == Some(&b'"') {
        let mut end = at + 1;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        return (end < bytes.len()).then_some(start..end + 1);
    }
    let mut end = at;
    if bytes.get(end) == Some(&b'-') {
        end += 1;
    }
    let digits = end;
    while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
        end += 1;
    }
    (end > digits && bytes[digits].is_ascii_digit()).then_some(start..end)
}

/// The JSON a redacted value is published as.
pub(super) fn marker() -> Value {
    Value::String(REDACTED.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scrub(text: &str) -> String {
        scrub_named(text, is_secret_name).unwrap_or_else(|| text.to_owned())
    }

    #[test]
    fn a_value_after_a_secret_name_is_scrubbed_however_short() {
        assert_eq!(
            scrub(r#"Account { user: "ada", password: "Qz9", api_token: 42, note: "x" }"#),
            r#"Account { user: "ada", password: ‹redacted›, api_token: ‹redacted›, note: "x" }"#
        );
        // JSON, JSON holding a Debug text, step lines, escapes inside the string
        assert_eq!(
            scrub(r#"{"password":"a\"b","n":1}"#),
            r#"{"password":‹redacted›,"n":1}"#
        );
        assert_eq!(
            scrub(r#"{"text":"Account { password: \"Qz9\" }"}"#),
            r#"{"text":"Account { password: ‹redacted› }"}"#
        );
        assert_eq!(scrub("set token=-12.5 now"), "set token=‹redacted› now");
        // a Debug text inside JSON whose secret holds a quote: the whole of it goes, not up to that quote
        assert_eq!(
            scrub(r#"{"text":"Account { password: \"a\\\"bc\", pin: 1 }"}"#),
            r#"{"text":"Account { password: ‹redacted›, pin: 1 }"}"#
        );
    }

    #[test]
    fn other_text_after_a_secret_name_is_left_as_it_is() {
        for text in [
            "password: String,",
            "password#3 Memo app.rs:80 = ‹redacted›",
            "reads [password#3:96]",
            "next.password = password;",
            "password: ‹redacted›",
            r#"user: "password: ""#,
            r#"password: "unterminated"#,
            "password:",
        ] {
            assert_eq!(scrub_named(text, is_secret_name), None, "{text}");
        }
    }
}
