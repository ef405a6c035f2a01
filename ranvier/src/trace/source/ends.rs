//! Where an expression begins and ends, read from the tokens at its two ends.
//!
//! `syn`'s `Spanned::span` prints the whole expression back to tokens to find its first and last; called on the
//! expressions of a walk, each nested one is printed again for every expression around it, which made indexing a file
//! cost its size times its depth (a thousand-line test file took a tenth of a second in a debug build, and a crate of
//! ninety such files a second, for one `explain`). These read the delimiter, keyword or name at each end instead, and
//! fall back to `span()` for the shapes they do not know (one with outer attributes, a qualified path), so they always
//! agree with it: a test checks both over every expression of this crate's own sources.

use super::Lines;
use proc_macro2::Span;
use syn::spanned::Spanned;

/// The lines `e` spans, as `Lines::of(e.span())` gives them.
pub(crate) fn lines(e: &syn::Expr) -> Lines {
    Lines {
        first: Lines::of(first(e)).first,
        last: Lines::of(last(e)).last,
    }
}

/// The lines a block spans, brace to brace.
pub(crate) fn block(b: &syn::Block) -> Lines {
    Lines {
        first: Lines::of(b.brace_token.span.open()).first,
        last: Lines::of(b.brace_token.span.close()).last,
    }
}

/// A span starting where `e` starts.
pub(crate) fn first(e: &syn::Expr) -> Span {
    use syn::Expr;
    let found = match e {
        Expr::Array(a) if a.attrs.is_empty() => Some(a.bracket_token.span.open()),
        Expr::Assign(a) if a.attrs.is_empty() => Some(first(&a.left)),
        Expr::Async(a) if a.attrs.is_empty() => Some(a.async_token.span),
        Expr::Await(a) if a.attrs.is_empty() => Some(first(&a.base)),
        Expr::Binary(b) if b.attrs.is_empty() => Some(first(&b.left)),
        Expr::Block(b) if b.attrs.is_empty() && b.label.is_none() => Some(b.block.brace_token.span.open()),
        Expr::Break(b) if b.attrs.is_empty() => Some(b.break_token.span),
        Expr::Call(c) if c.attrs.is_empty() => Some(first(&c.func)),
        Expr::Cast(c) if c.attrs.is_empty() => Some(first(&c.expr)),
        Expr::Closure(c)
            if c.attrs.is_empty() && c.lifetimes.is_none() && c.constness.is_none() && c.asyncness.is_none() =>
        {
            Some(c.capture.map_or(c.inputs_begin.span, |m| m.span))
        }
        Expr::Continue(c) if c.attrs.is_empty() => Some(c.continue_token.span),
        Expr::Field(f) if f.attrs.is_empty() => Some(first(&f.base)),
        Expr::ForLoop(f) if f.attrs.is_empty() && f.label.is_none() => Some(f.for_token.span),
        Expr::If(i) if i.attrs.is_empty() => Some(i.if_token.span),
        Expr::Index(i) if i.attrs.is_empty() => Some(first(&i.expr)),
        Expr::Let(l) if l.attrs.is_empty() => Some(l.let_token.span),
        Expr::Lit(l) if l.attrs.is_empty() => Some(l.lit.span()),
        Expr::Loop(l) if l.attrs.is_empty() && l.label.is_none() => Some(l.loop_token.span),
        Expr::Macro(m) if m.attrs.is_empty() => path_first(&m.mac.path),
        Expr::Match(m) if m.attrs.is_empty() => Some(m.match_token.span),
        Expr::MethodCall(m) if m.attrs.is_empty() => Some(first(&m.receiver)),
        Expr::Paren(p) if p.attrs.is_empty() => Some(p.paren_token.span.open()),
        Expr::Path(p) if p.attrs.is_empty() && p.qself.is_none() => path_first(&p.path),
        Expr::Range(r) if r.attrs.is_empty() => r.start.as_deref().map(first),
        Expr::Reference(r) if r.attrs.is_empty() => Some(r.and_token.span),
        Expr::Return(r) if r.attrs.is_empty() => Some(r.return_token.span),
        Expr::Struct(s) if s.attrs.is_empty() && s.qself.is_none() => path_first(&s.path),
        Expr::Try(t) if t.attrs.is_empty() => Some(first(&t.expr)),
        Expr::Tuple(t) if t.attrs.is_empty() => Some(t.paren_token.span.open()),
        Expr::Unary(u) if u.attrs.is_empty() => match u.op {
            syn::UnOp::Deref(t) => Some(t.span),
            syn::UnOp::Not(t) => Some(t.span),
            syn::UnOp::Neg(t) => Some(t.span),
            _ => None,
        },
        Expr::Unsafe(u) if u.attrs.is_empty() => Some(u.unsafe_token.span),
        Expr::While(w) if w.attrs.is_empty() && w.label.is_none() => Some(w.while_token.span),
        _ => None,
    };
    found.unwrap_or_else(|| e.span())
}

/// A span ending where `e` ends.
pub(crate) fn last(e: &syn::Expr) -> Span {
    use syn::Expr;
    let found = match e {
        Expr::Array(a) => Some(a.bracket_token.span.close()),
        Expr::Assign(a) => Some(last(&a.right)),
        Expr::Async(a) => Some(a.block.brace_token.span.close()),
        Expr::Await(a) => Some(a.await_token.span),
        Expr::Binary(b) => Some(last(&b.right)),
        Expr::Block(b) => Some(b.block.brace_token.span.close()),
        Expr::Call(c) => Some(c.paren_token.span.close()),
        Expr::Closure(c) => Some(last(&c.body)),
        Expr::Field(f) => Some(f.member.span()),
        Expr::ForLoop(f) => Some(f.body.brace_token.span.close()),
        Expr::If(i) => Some(match &i.else_branch {
            Some((_, otherwise)) => last(otherwise),
            None => i.then_branch.brace_token.span.close(),
        }),
        Expr::Index(i) => Some(i.bracket_token.span.close()),
        Expr::Let(l) => Some(last(&l.expr)),
        Expr::Lit(l) => Some(l.lit.span()),
        Expr::Loop(l) => Some(l.body.brace_token.span.close()),
        Expr::Macro(m) => Some(m.mac.delimiter.span().close()),
        Expr::Match(m) => Some(m.brace_token.span.close()),
        Expr::MethodCall(m) => Some(m.paren_token.span.close()),
        Expr::Paren(p) => Some(p.paren_token.span.close()),
        Expr::Path(p) => p
            .path
            .segments
            .last()
            .filter(|s| s.arguments.is_none())
            .map(|s| s.ident.span()),
        Expr::Range(r) => r.end.as_deref().map(last),
        Expr::Reference(r) => Some(last(&r.expr)),
        Expr::Return(r) => Some(r.expr.as_deref().map_or(r.return_token.span, last)),
        Expr::Struct(s) => Some(s.brace_token.span.close()),
        Expr::Try(t) => Some(t.question_token.span),
        Expr::Tuple(t) => Some(t.paren_token.span.close()),
        Expr::Unary(u) => Some(last(&u.expr)),
        Expr::Unsafe(u) => Some(u.block.brace_token.span.close()),
        Expr::While(w) => Some(w.body.brace_token.span.close()),
        _ => None,
    };
    found.unwrap_or_else(|| e.span())
}

fn path_first(path: &syn::Path) -> Option<Span> {
    match &path.leading_colon {
        Some(colons) => Some(colons.spans[0]),
        None => path.segments.first().map(|s| s.ident.span()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::visit::{self, Visit};

    /// Compares both ends of every expression with what `span()` gives.
    struct Check {
        file: String,
        seen: usize,
    }

    impl<'ast> Visit<'ast> for Check {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            let whole = e.span();
            let (start, end) = (first(e).start(), last(e).end());
            assert_eq!(
                (start, end),
                (whole.start(), whole.end()),
                "{} at {}:{}",
                self.file,
                whole.start().line,
                whole.start().column
            );
            self.seen += 1;
            visit::visit_expr(self, e);
        }

        fn visit_block(&mut self, b: &'ast syn::Block) {
            let whole = b.span();
            assert_eq!(block(b), Lines::of(whole), "{}", self.file);
            visit::visit_block(self, b);
        }
    }

    #[test]
    fn both_ends_agree_with_span_over_this_crate_s_sources() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut stack = vec![root];
        let mut check = Check {
            file: String::new(),
            seen: 0,
        };
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let parsed = syn::parse_file(&text).unwrap();
                    check.file = path.display().to_string();
                    check.visit_file(&parsed);
                }
            }
        }
        assert!(check.seen > 50_000, "{} expressions", check.seen);
    }

    #[test]
    fn shapes_with_outer_attributes_labels_and_qualified_paths_fall_back() {
        let file: syn::File = syn::parse_str(
            "fn f() {\n let a = #[allow(unused)] {\n 1\n };\n 'outer: loop {\n break 'outer;\n }\n \
             let b = <Vec<u8> as Default>::default();\n let c = ..;\n let d = x::<u8>;\n}",
        )
        .unwrap();
        let mut check = Check {
            file: "inline".into(),
            seen: 0,
        };
        check.visit_file(&file);
        assert!(check.seen >= 8, "{} expressions", check.seen);
    }
}
