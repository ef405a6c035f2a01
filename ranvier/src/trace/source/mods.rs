//! A file's `mod name;` declarations, read from its tokens, for the crate's module tree.
//!
//! Finding a crate's files means reading the declarations of every file the tree reaches, and of every other target
//! root tried before the one that holds the asked-for file (a blind set's `main.rs` is found after the examples
//! before it in name order). Parsing each file into items for that (`Index::parse`) cost most of a first `explain`
//! in a debug build. A file whose text has no word `mod` declares none; the others are split into tokens (strings and
//! comments are the tokenizer's, not a scan of the text) and walked for `mod name;` and `mod name { .. }`, with the
//! `#[path = ".."]` before a declaration: what [`super::Index::parse`] records as its `mods`, which a test checks
//! over this crate's own files.

use super::ModDecl;
use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Whether `text` holds `word` as a whole word (not inside a longer identifier).
pub(crate) fn mentions(text: &[String], word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.iter().any(|line| {
        line.match_indices(word).any(|(at, _)| {
            !line[..at].chars().next_back().is_some_and(ident)
                && !line[at + word.len()..].chars().next().is_some_and(ident)
        })
    })
}

/// Whether a line of `text` holds `keyword` and then `name`, words with only spaces between (`fn total`,
/// `struct Till`): how rustfmt writes an item's name, which a search for the item can ask before parsing the file.
/// (A comment between the two, `fn /* .. */ total`, is legal Rust and is not seen: a file written so is parsed only
/// when something else asks for it.)
pub(crate) fn names_item(text: &[String], keyword: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.iter().any(|line| {
        line.match_indices(keyword).any(|(at, _)| {
            if line[..at].chars().next_back().is_some_and(ident) {
                return false;
            }
            let rest = &line[at + keyword.len()..];
            let after = rest.trim_start_matches([' ', '\t']);
            after.len() < rest.len()
                && after.starts_with(name)
                && !after[name.len()..].chars().next().is_some_and(ident)
        })
    })
}

/// The `mod name;` declarations of the file whose lines are `text`; `None` when it does not split into tokens.
pub(crate) fn declared(text: &[String]) -> Option<Vec<ModDecl>> {
    // a declaration is written `mod name;` (rustfmt's form): a file without such a line has none, whatever inline
    // `mod tests { .. }` it holds
    let declares = text.iter().any(|line| {
        line.match_indices("mod").any(|(at, _)| {
            let word = !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            let after = &line[at + 3..];
            let rest = after.trim_start_matches([' ', '\t']);
            let name = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '#')).unwrap_or(rest.len());
            word && rest.len() < after.len() && name > 0 && rest[name..].trim_start().starts_with(';')
        })
    });
    if !declares {
        return Some(Vec::new());
    }
    let tokens: TokenStream = text.join("\n").parse().ok()?;
    let mut out = Vec::new();
    walk(tokens, &mut Vec::new(), &mut out);
    Some(out)
}

/// The declarations in `tokens`, inside the inline modules `parents`. Brace groups are walked too (a function's
/// body may hold an inline module), but not a macro's (`m! { .. }`, `macro_rules! m { .. }`), which `syn` leaves as
/// tokens.
fn walk(tokens: TokenStream, parents: &mut Vec<String>, out: &mut Vec<ModDecl>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let is_punct = |i: usize, c: char| matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
    // the `#[path]` of the item being read, until the item ends
    let mut path: Option<String> = None;
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let inner = is_punct(i + 1, '!');
                let at = if inner { i + 2 } else { i + 1 };
                if let Some(TokenTree::Group(g)) = trees.get(at)
                    && g.delimiter() == Delimiter::Bracket
                {
                    if !inner && let Some(value) = path_value(g.stream()) {
                        path = Some(value);
                    }
                    i = at + 1;
                    continue;
                }
            }
            TokenTree::Ident(word) if word == "mod" => {
                if let Some(TokenTree::Ident(name)) = trees.get(i + 1) {
                    match trees.get(i + 2) {
                        Some(TokenTree::Punct(p)) if p.as_char() == ';' => {
                            out.push(ModDecl {
                                name: name.to_string(),
                                parents: parents.clone(),
                                path: path.take(),
                            });
                            i += 3;
                            continue;
                        }
                        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                            parents.push(name.to_string());
                            walk(g.stream(), parents, out);
                            parents.pop();
                            path = None;
                            i += 3;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            TokenTree::Punct(p) if p.as_char() == ';' => path = None,
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                path = None;
                let macro_body = (1..=2).any(|back| i >= back && is_punct(i - back, '!'));
                if !macro_body {
                    walk(g.stream(), parents, out);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// The string of `path = ".."`, the tokens of an attribute.
fn path_value(tokens: TokenStream) -> Option<String> {
    match syn::parse2::<syn::Meta>(tokens).ok()? {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s), ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    fn summary(mods: &[ModDecl]) -> Vec<(String, Vec<String>, Option<String>)> {
        mods.iter()
            .map(|m| (m.name.clone(), m.parents.clone(), m.path.clone()))
            .collect()
    }

    #[test]
    fn declarations_with_paths_and_inline_parents() {
        let text = lines(
            "//! mod in_a_doc;\n#![allow(unused)]\n#[path = \"x/y.rs\"]\nmod y;\nconst S: &str = \"mod in_a_string;\";\n\
             pub(crate) mod inner {\n    #[cfg(test)]\n    pub mod deep;\n    fn f() {}\n}\n\
             #[path = \"unused.rs\"]\nfn g() { mod in_fn { mod z; } }\nmacro_rules! m { () => { mod made; } }\n\
             m! { mod also_made; }\nmod last;\n",
        );
        assert_eq!(
            summary(&declared(&text).unwrap()),
            [
                ("y".to_owned(), vec![], Some("x/y.rs".to_owned())),
                ("deep".to_owned(), vec!["inner".to_owned()], None),
                ("z".to_owned(), vec!["in_fn".to_owned()], None),
                ("last".to_owned(), vec![], None),
            ]
        );
    }

    #[test]
    fn an_item_is_named_by_its_keyword_and_its_name() {
        let text = lines("pub fn  total(x: u8) {}\nlet f = fn_total;\nstruct Tills;\nenum\tTill { A }");
        assert!(names_item(&text, "fn", "total"));
        assert!(names_item(&text, "enum", "Till"));
        assert!(!names_item(&text, "struct", "Till"));
        assert!(!names_item(&text, "fn", "tot"));
        assert!(!names_item(&lines("fn_total(); total()"), "fn", "total"));
    }

    #[test]
    fn a_file_without_a_declaration_line_has_none_and_a_longer_word_is_not_it() {
        assert!(mentions(&lines("fn f() {}\nmod a;"), "mod"));
        assert!(!mentions(&lines("let modulo = 3; // model"), "mod"));
        assert!(declared(&lines("fn f() { let model = 1; }")).unwrap().is_empty());
        assert!(declared(&lines("#[cfg(test)]\nmod tests {\n    fn t() {}\n}")).unwrap().is_empty());
        let one = |text: &str| declared(&lines(text)).unwrap().len();
        assert_eq!(one("#[path = \"a.rs\"] pub(crate) mod a ;"), 1);
        assert_eq!(one("mod tests {\n    mod r#type;\n}"), 1);
        assert_eq!(one("remod a;"), 0);
    }

    #[test]
    fn the_same_as_the_parsed_index_over_this_crate_s_sources_and_the_examples() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut stack = vec![root.join("src"), root.join("../examples")];
        let mut with_mods = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let parsed = super::super::Index::parse(&text).unwrap();
                    let read = declared(&lines(&text)).unwrap();
                    assert_eq!(summary(&read), summary(&parsed.mods), "{}", path.display());
                    with_mods += usize::from(!read.is_empty());
                }
            }
        }
        assert!(with_mods > 40, "{with_mods} files declare modules");
    }
}
