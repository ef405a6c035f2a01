//! Text helpers every layer shares: cutting a text to a length, and the text of a panic.

use std::any::Any;
use std::borrow::Cow;

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
