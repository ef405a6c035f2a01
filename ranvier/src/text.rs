//! Text helpers every layer shares: cutting a text to a length, writing a JSON string, and the text of a panic.

use std::any::Any;
use std::borrow::Cow;
use std::fmt::Write as _;

/// What a client reads in place of a redacted value or argument (see `exposure::redact`).
pub(crate) const REDACTED: &str = "‹redacted›";

/// `text` in at most `max` characters: itself when it fits, else its first `max - 1` characters and `…`.
pub(crate) fn clip(text: &str, max: usize) -> Cow<'_, str> {
    if text.char_indices().nth(max).is_none() {
        return Cow::Borrowed(text);
    }
    let cut = text
        .char_indices()
        .nth(max.saturating_sub(1))
        .map_or(0, |(at, _)| at);
    Cow::Owned(format!("{}…", &text[..cut]))
}

/// `value`'s `Debug` text cut at `max` bytes (at a character boundary) and ending with `…` when cut. Formatting stops
/// there: a value of a hundred thousand items costs what its first `max` bytes cost.
///
/// For instance `debug_within(&vec![1, 2, 3], 5)` is `[1, 2…`.
pub(crate) fn debug_within(value: &dyn std::fmt::Debug, max: usize) -> String {
    struct Within {
        out: String,
        max: usize,
        cut: bool,
    }
    impl std::fmt::Write for Within {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let room = self.max - self.out.len();
            if s.len() <= room {
                self.out.push_str(s);
                return Ok(());
            }
            let mut end = room;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.out.push_str(&s[..end]);
            self.cut = true;
            Err(std::fmt::Error)
        }
    }
    let mut within = Within {
        out: String::new(),
        max,
        cut: false,
    };
    let _ = write!(within, "{value:?}");
    if within.cut {
        within.out.push('…');
    }
    within.out
}

/// Appends `text` to `out` as a JSON string exactly as serde_json writes it: quoted, with the quote, the backslash
/// and the control characters below U+0020 escaped, and every other character as it is (the trace's dump, which
/// needs no JSON library and must not change its bytes). Text a client sent and another reads goes through
/// `crate::escape` instead, which also escapes line separators and invisible characters.
pub(crate) fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The text of a panic payload: the `&str` or `String` it was raised with, else "a non-text panic payload".
pub(crate) fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a non-text panic payload".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_within_stops_formatting_at_max_bytes() {
        assert_eq!(debug_within(&vec![1, 2, 3], 5), "[1, 2…");
        assert_eq!(debug_within(&vec![1, 2, 3], 9), "[1, 2, 3]");
        assert_eq!(debug_within(&"é", 2), "\"…", "cut at a character boundary");
        let big: Vec<u64> = (0..100_000).collect();
        let text = debug_within(&big, 256);
        assert_eq!(text.len(), 256 + '…'.len_utf8());
        assert!(text.starts_with("[0, 1, 2, "));
    }

    #[test]
    fn clip_keeps_a_text_that_fits_and_cuts_one_that_does_not_to_max_characters() {
        assert_eq!(clip("abc", 3), "abc");
        assert!(matches!(clip("abc", 3), Cow::Borrowed(_)));
        assert_eq!(clip("abcd", 3), "ab…");
        assert_eq!(clip("ééééé", 4), "ééé…");
        assert_eq!(clip("ééééé", 4).chars().count(), 4);
        assert_eq!(clip("", 0), "");
        assert_eq!(clip("a", 0), "…");
    }

    #[test]
    fn json_strings_are_escaped_as_serde_json_escapes_them() {
        // Quote, backslash and the control characters below U+0020 are escaped; DEL, U+2028 and the rest are not.
        let text = "a\"b\\c\nd\re\tf\u{8}\u{c}\u{0}\u{1f} \u{7f}\u{2028}é/";
        let expected = "\"a\\\"b\\\\c\\nd\\re\\tf\\b\\f\\u0000\\u001f \u{7f}\u{2028}é/\"";
        let mut out = String::new();
        push_json_string(&mut out, text);
        assert_eq!(out, expected);
    }

    #[cfg(feature = "exposure")]
    #[test]
    fn json_strings_match_serde_json_for_every_character_below_u_0100_and_a_few_above() {
        let mut text: String = (0u32..0x100).filter_map(char::from_u32).collect();
        text.push_str("\u{2028}\u{2029}\u{feff}\u{10ffff}");
        let mut out = String::new();
        push_json_string(&mut out, &text);
        assert_eq!(out, serde_json::to_string(&text).unwrap());
    }

    #[test]
    fn panic_text_reads_str_and_string_payloads() {
        let payloads: [Box<dyn Any + Send>; 3] = [
            Box::new("plain"),
            Box::new(String::from("formatted 1")),
            Box::new(7_u8),
        ];
        let texts = payloads.map(|payload| panic_text(&*payload));
        assert_eq!(texts, ["plain", "formatted 1", "a non-text panic payload"]);
    }
}
