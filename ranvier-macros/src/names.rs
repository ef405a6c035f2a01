//! Rules shared by every macro: exposed names, doc comments, "did you mean" suggestions.

/// The characters an exposed name may use: `[A-Za-z0-9_.~-]`.
pub fn invalid_name_reason(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a name cannot be empty".to_owned());
    }
    let bad: Vec<char> = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || "_.~-".contains(*c)))
        .collect();
    if bad.is_empty() {
        None
    } else {
        let shown: Vec<String> = bad.iter().map(|c| format!("{c:?}")).collect();
        Some(format!(
            "`{name}` has {}: names use only the characters [A-Za-z0-9_.~-]",
            shown.join(", ")
        ))
    }
}

/// The doc comment on an item, lines joined with `\n`, one leading space stripped per line.
pub fn doc(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            let line = s.value();
            lines.push(
                line.strip_prefix(' ')
                    .unwrap_or(&line)
                    .trim_end()
                    .to_owned(),
            );
        }
    }
    let text = lines.join("\n").trim().to_owned();
    if text.is_empty() { None } else { Some(text) }
}

/// "; did you mean `x`?" when `unknown` is one or two edits from a known word.
pub fn suggestion(unknown: &str, known: &[&str]) -> String {
    let best = known.iter().map(|k| (distance(unknown, k), *k)).min();
    match best {
        Some((d, k)) if d <= 2 || (d <= 3 && unknown.len() > 6) => format!("; did you mean `{k}`?"),
        _ => {
            let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!("; expected one of {}", list.join(", "))
        }
    }
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_use_the_documented_characters() {
        assert_eq!(invalid_name_reason("cart.total~v2-x_y"), None);
        assert!(invalid_name_reason("").is_some());
        let reason = invalid_name_reason("a b/c").unwrap();
        assert!(reason.contains("' ', '/'"), "{reason}");
    }

    #[test]
    fn suggests_close_words_and_lists_the_rest() {
        assert_eq!(
            suggestion("renam", &["rename", "skip"]),
            "; did you mean `rename`?"
        );
        assert_eq!(
            suggestion("zzz", &["rename", "skip"]),
            "; expected one of `rename`, `skip`"
        );
    }
}
