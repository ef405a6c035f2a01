//! The program's source as `syn` parses it: each file once, cached, reduced to the spans a diagnosis quotes (function
//! bodies and the lines that decide their value, the closures passed at call sites, `match` arms with the variants
//! they match, constants, impls, `mod` and `use` items), and the crate's module tree, so a body, an `update` arm, a
//! helper or an `impl PartialEq` is found in whichever file of the crate it lives.
//!
//! Parsing is for traced builds: nothing in an untraced build calls into this module, so its code (and `syn`'s) is
//! left out of the binary. A file that cannot be read or parsed is remembered as missing; callers then fall back to
//! what the trace alone records (the call sites).

use super::names;

mod ends;
mod given;
mod mods;
mod value;
pub(crate) use given::{fns_in_field, fns_named, is_value};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// A range of lines, 1-based, both ends included.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    /// The first line.
    pub first: u32,
    /// The last line.
    pub last: u32,
}

impl Lines {
    fn of(span: proc_macro2::Span) -> Lines {
        Lines {
            first: u32::try_from(span.start().line).unwrap_or(u32::MAX),
            last: u32::try_from(span.end().line).unwrap_or(u32::MAX),
        }
    }

    /// Whether `line` lies inside.
    pub fn contains(self, line: u32) -> bool {
        (self.first..=self.last).contains(&line)
    }

    /// Whether `other` lies inside.
    pub fn holds(self, other: Lines) -> bool {
        self.contains(other.first) && self.contains(other.last)
    }
}

/// A function: free, in an `impl` or a trait.
#[derive(Clone, Debug)]
pub(crate) struct FnDef {
    /// Its name.
    pub name: String,
    /// The inline modules around it in its file.
    pub module: Vec<String>,
    /// The `Self` type of the `impl` it is in (its last path segment).
    pub self_ty: Option<String>,
    /// The trait that `impl` implements (its last path segment).
    pub trait_name: Option<String>,
    /// From its signature to its closing brace.
    pub whole: Lines,
    /// The few lines that decide its value (`value.rs`): the tail expression followed through `if`, `match`, the
    /// closures a tail call is given and the statements that made the names it returns, and its `return`s.
    pub value: Vec<Lines>,
    /// Its parameters' names, in order (`self` left out; a pattern that is not a name is `_`).
    pub params: Vec<String>,
    /// What its signature says it returns.
    pub returns: Returns,
}

/// What a fn's signature says it returns: nothing (no `->`, or `-> ()`), a value, or never (`-> !`). A `->` inside
/// a parameter's type (`points: fn(u32) -> u32`) or a `where` clause is not the fn's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Returns {
    /// No `->`, or `-> ()`.
    Nothing,
    /// `-> T` for any other `T`.
    Value,
    /// `-> !`.
    Never,
}

impl Returns {
    fn of(output: &syn::ReturnType) -> Self {
        match output {
            syn::ReturnType::Default => Returns::Nothing,
            syn::ReturnType::Type(_, ty) => match &**ty {
                syn::Type::Never(_) => Returns::Never,
                syn::Type::Tuple(t) if t.elems.is_empty() => Returns::Nothing,
                _ => Returns::Value,
            },
        }
    }
}

/// A path an expression may evaluate to, with the line it is written on: a fn given as a value (`climate::band` in
/// `band: climate::band`, each branch's in `if slip { slipped::band } else { band }`).
#[derive(Clone, Debug)]
pub(crate) struct FnValue {
    /// The line of the path.
    pub line: u32,
    /// The path's segments.
    pub path: Vec<String>,
}

/// A call (`Memo::new(...)`, `till.select(...)`) and the closure it was given.
#[derive(Clone, Debug)]
pub(crate) struct Call {
    /// Where a `#[track_caller]` location points: the callee path's first token, or the method's name (1-based).
    pub line: u32,
    /// Its column, 1-based.
    pub column: u32,
    /// The whole call.
    pub whole: Lines,
    /// The callee's whole path, for a call of a path (`helpers::total` → `["helpers", "total"]`).
    pub path: Vec<String>,
    /// The first closure among its arguments (directly, or as the tail of a block argument).
    pub closure: Option<Closure>,
    /// The closures among its arguments after the first (a fold's inverse, a comparer).
    pub more_closures: Vec<Closure>,
    /// The arguments that are paths (`till.select(amount)` → `[["amount"]]`): functions it may be given.
    pub fn_args: Vec<Vec<String>>,
    /// The method's name, for a method call (`order.total()` → `total`).
    pub method: Option<String>,
    /// The field a call through a field holding a fn names (`(rules.band)(crop)` → `band`).
    pub field: Option<String>,
    /// The paths each argument may evaluate to ([`FnValue`]), argument by argument (none for most).
    pub arg_values: Vec<Vec<FnValue>>,
    /// The name each argument is given by, argument by argument ([`arg_name`]: `expires` for `expires`,
    /// `&expires` or `batch.expires.clone()`); `None` for any other expression.
    pub arg_names: Vec<Option<String>>,
}

/// A closure.
#[derive(Clone, Debug)]
pub(crate) struct Closure {
    /// Its first parameter's name, when it is a plain identifier (`prev`, `_` included).
    pub param: Option<String>,
    /// Its body.
    pub body: Lines,
    /// The lines that produce its value (as [`FnDef::value`]).
    pub value: Vec<Lines>,
}

/// One arm of a `match`.
#[derive(Clone, Debug)]
pub(crate) struct Arm {
    /// The last segments of the paths its pattern names (`Msg::SetQuantity { .. }` → `SetQuantity`).
    pub variants: Vec<String>,
    /// The line of its `=>`.
    pub arrow: u32,
    /// Its body.
    pub body: Lines,
    /// The function it is in (an index into [`Index::fns`]).
    pub in_fn: Option<usize>,
    /// What its `match` matches on, when that is a name (`match wet {` → `wet`), with the `match`'s line.
    pub scrutinee: Option<(String, u32)>,
    /// The line of its `match`'s `match` token: the arms of one `match` share it.
    pub of_match: u32,
    /// Whether its pattern is `_` with no guard: it takes whatever the arms above it did not.
    pub wildcard: bool,
    /// Whether its pattern holds a range (`1..=3`, `..18`).
    pub range: bool,
}

/// A `const` or `static`.
#[derive(Clone, Debug)]
pub(crate) struct ConstDef {
    /// Its name.
    pub name: String,
    /// The inline modules around it in its file.
    pub module: Vec<String>,
    /// Its lines.
    pub whole: Lines,
}

/// A `struct` or `enum`, and whether it derives `PartialEq`.
#[derive(Clone, Debug)]
pub(crate) struct TypeDef {
    /// Its name.
    pub name: String,
    /// The line of the `#[derive(...)]` naming `PartialEq`, if one does.
    pub derive_eq_line: Option<u32>,
}

/// A method chain written over several lines: the lines its links start on, in order, each with whether the link
/// decides the chain's value. A link decides when it is a call given arguments (`.filter(|s| ..)`, `.take(3)`) or one
/// that picks, counts, orders or folds (`.rev()`, `.sum()`, `.max()`); a field, `.get()`, `.iter()`, `.clone()`,
/// `.collect()`, `.await` and `?` only carry the value along, as does a receiver that is a bare name.
#[derive(Clone, Debug)]
pub(crate) struct Chain {
    /// Its links' lines with whether a link starting on the line decides (several links on one line: any of them).
    pub links: Vec<(u32, bool)>,
}

impl Chain {
    /// Whether a link of the chain starts on `line`.
    pub fn starts(&self, line: u32) -> bool {
        self.links.iter().any(|&(at, _)| at == line)
    }
}

/// Methods that carry a value along a chain without deciding it, when given no arguments (or just `..`).
const CARRIERS: [&str; 20] = [
    "get", "with", "iter", "iter_mut", "into_iter", "clone", "cloned", "copied", "collect", "to_owned",
    "to_string", "to_vec", "as_str", "as_ref", "as_slice", "borrow", "values", "keys", "items", "drain",
];

/// The links of the chain `top` ends, outermost first: each link's line, whether it decides, and its end (where the
/// walk finds it again as an expression of its own).
fn chain_links(top: &syn::Expr) -> Vec<(u32, bool, proc_macro2::LineColumn)> {
    let mut links = Vec::new();
    let mut at = top;
    loop {
        let end = ends::last(at).end();
        at = match at {
            syn::Expr::MethodCall(m) => {
                let carries = CARRIERS.contains(&m.method.to_string().as_str())
                    && m.args.iter().all(|a| matches!(a, syn::Expr::Range(r) if r.start.is_none() && r.end.is_none()));
                links.push((Lines::of(m.method.span()).first, !carries, end));
                &m.receiver
            }
            syn::Expr::Field(f) => {
                links.push((Lines::of(f.member.span()).first, false, end));
                &f.base
            }
            syn::Expr::Await(a) => {
                links.push((Lines::of(a.await_token.span()).first, false, end));
                &a.base
            }
            syn::Expr::Try(t) => {
                links.push((Lines::of(t.question_token.span()).first, false, end));
                &t.expr
            }
            base => {
                // a receiver over several lines (`Memo::new(move |_| { .. })`) is no link of a short chain
                let lines = ends::lines(base);
                if lines.first != lines.last {
                    return Vec::new();
                }
                links.push((lines.first, !matches!(base, syn::Expr::Path(_)), end));
                break;
            }
        };
    }
    links.reverse();
    links
}

/// A `mod name;` declaration (one with a body is walked, not listed).
#[derive(Clone, Debug)]
struct ModDecl {
    name: String,
    /// The inline modules it is declared in.
    parents: Vec<String>,
    /// Its `#[path = "..."]`.
    path: Option<String>,
}

/// One parsed file, reduced to what a diagnosis asks of it.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// The file's lines.
    pub lines: Arc<[String]>,
    /// Every function.
    pub fns: Vec<FnDef>,
    /// Every call of a path or a method.
    pub calls: Vec<Call>,
    /// Every `match` arm.
    pub arms: Vec<Arm>,
    /// Every `if`: the line of its `if` token (where `#[trace_fn]` and `#[node]` record that its block ran) and its
    /// block.
    pub ifs: Vec<(u32, Lines)>,
    /// Every `for` and `while` loop: the line of its `for` or `while` token (where the records say it was reached and
    /// whether its body ran) and its body.
    pub loops: Vec<(u32, Lines)>,
    /// Every `else` block (not an `else if`), a `let .. else`'s too: the line of its `else` token (where the records
    /// say it ran) and its block.
    pub elses: Vec<(u32, Lines)>,
    /// Every `const` and `static`.
    pub consts: Vec<ConstDef>,
    /// The names `use` items bring in, with the path each stands for.
    pub uses: Vec<(String, Vec<String>)>,
    /// Every `struct` and `enum`.
    pub types: Vec<TypeDef>,
    /// Every `async` block: its lines, and the lines that produce its value (as [`FnDef::value`]).
    pub asyncs: Vec<(Lines, Vec<Lines>)>,
    /// The values struct literals and assignments give named fields (`Rules { band: climate::band, .. }`,
    /// `rules.band = slipped::band`): the field and each path the value may be.
    pub field_values: Vec<(String, FnValue)>,
    /// Every method chain written over several lines (`sales` / `.iter()` / `.filter(..)` / `.sum()`).
    pub chains: Vec<Chain>,
    /// The `let`s binding a name to a value that may be a path (`let fee = if .. { a::fee } else { b::fee };`): the
    /// name, the `let`'s line and the paths.
    pub lets: Vec<(String, u32, Vec<FnValue>)>,
    mods: Vec<ModDecl>,
}

impl Index {
    /// Parses `text`; `None` when it is not Rust `syn` can parse.
    pub fn parse(text: &str) -> Option<Index> {
        let file = syn::parse_file(text).ok()?;
        let mut walker = Walker::default();
        walker.visit_file(&file);
        let mut index = walker.index;
        index.lines = text.lines().map(str::to_owned).collect();
        Some(index)
    }

    /// The call whose `#[track_caller]` location is `line`:`column`: the one starting exactly there, else the
    /// narrowest call on that line holding the column.
    pub fn call_at(&self, line: u32, column: u32) -> Option<&Call> {
        self.calls
            .iter()
            .find(|c| c.line == line && c.column == column)
            .or_else(|| {
                self.calls
                    .iter()
                    .filter(|c| c.line == line && c.column <= column)
                    .min_by_key(|c| (c.whole.last - c.whole.first, column - c.column))
            })
    }

}

impl Index {
    /// The innermost fn holding `line`.
    pub fn fn_at(&self, line: u32) -> Option<&FnDef> {
        self.fns
            .iter()
            .filter(|f| f.whole.contains(line))
            .min_by_key(|f| f.whole.last - f.whole.first)
    }

    /// The inline modules around `line` (as far as the functions holding it tell).
    pub fn module_at(&self, line: u32) -> Vec<String> {
        self.fn_at(line).map(|f| f.module.clone()).unwrap_or_default()
    }
}

/// Walks a file, recording spans.
#[derive(Default)]
struct Walker {
    index: Index,
    modules: Vec<String>,
    impl_of: Option<(Option<String>, Option<String>)>,
    current_fn: Option<usize>,
    /// The name the `match` whose arms are being visited matches on, with its line.
    scrutinee: Option<(String, u32)>,
    /// The line of the `match` whose arms are being visited.
    match_line: u32,
    /// Where each link of the chains recorded so far ends: a link is not a chain of its own.
    in_chains: HashSet<(usize, usize)>,
}

fn last_segment(path: &syn::Path) -> Option<String> {
    path.segments.last().map(|s| s.ident.to_string())
}

fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => last_segment(&p.path),
        syn::Type::Reference(r) => type_name(&r.elem),
        _ => None,
    }
}

/// From the line of `start` to the end of `whole`: an item without the doc comments and attributes above it.
fn from_line_of(start: proc_macro2::Span, whole: proc_macro2::Span) -> Lines {
    Lines {
        first: Lines::of(start).first,
        last: Lines::of(whole).last,
    }
}

/// A function's lines from its signature (`pub fn`, not its doc comment) to its closing brace.
fn from_sig(sig: &syn::Signature, whole: proc_macro2::Span) -> Lines {
    from_line_of(sig.fn_token.span(), whole)
}

fn closure_of(expr: &syn::Expr) -> Option<&syn::ExprClosure> {
    match expr {
        syn::Expr::Closure(c) => Some(c),
        syn::Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) => closure_of(tail),
            _ => None,
        },
        syn::Expr::Paren(p) => closure_of(&p.expr),
        _ => None,
    }
}

fn closure(c: &syn::ExprClosure) -> Closure {
    let param = c.inputs.first().and_then(|p| match p {
        syn::Pat::Ident(i) => Some(i.ident.to_string()),
        syn::Pat::Type(t) => match &*t.pat {
            syn::Pat::Ident(i) => Some(i.ident.to_string()),
            syn::Pat::Wild(_) => Some("_".to_owned()),
            _ => None,
        },
        syn::Pat::Wild(_) => Some("_".to_owned()),
        _ => None,
    });
    let value = match &*c.body {
        syn::Expr::Block(b) => value::of_block(&b.block),
        other => value::of_expr(other),
    };
    Closure {
        param,
        body: ends::lines(&c.body),
        value,
    }
}

/// A call's arguments.
type Args = syn::punctuated::Punctuated<syn::Expr, syn::token::Comma>;

fn call(start: proc_macro2::Span, whole: Lines, path: Vec<String>, args: &Args) -> Call {
    let at = start.start();
    Call {
        method: None,
        line: u32::try_from(at.line).unwrap_or(u32::MAX),
        column: u32::try_from(at.column + 1).unwrap_or(u32::MAX),
        whole,
        path,
        closure: args.iter().find_map(closure_of).map(closure),
        more_closures: args.iter().filter_map(closure_of).skip(1).map(closure).collect(),
        fn_args: args
            .iter()
            .filter_map(|a| match a {
                syn::Expr::Path(p) => Some(p.path.segments.iter().map(|s| s.ident.to_string()).collect()),
                _ => None,
            })
            .collect(),
        field: None,
        arg_values: args.iter().map(fn_values).collect(),
        arg_names: args.iter().map(arg_name).collect(),
    }
}

/// The name an argument is given by: a local or parameter (`expires`), a field (`next.today` → `today`), either
/// borrowed, in parentheses or copied (`&lot`, `name.clone()`); `None` for any other expression.
fn arg_name(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let name = p.path.segments[0].ident.to_string();
            name.starts_with(|c: char| c.is_lowercase() || c == '_').then_some(name)
        }
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(name) => Some(name.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        syn::Expr::Reference(r) => arg_name(&r.expr),
        syn::Expr::Paren(p) => arg_name(&p.expr),
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && ["clone", "to_owned", "to_string", "into", "as_str", "copied", "cloned", "as_ref"]
                    .contains(&m.method.to_string().as_str()) =>
        {
            arg_name(&m.receiver)
        }
        _ => None,
    }
}

/// The paths `expr` may evaluate to: itself when it is a path, each branch's value through `if`, `match` and blocks
/// (and through `&`, parentheses and casts).
fn fn_values(expr: &syn::Expr) -> Vec<FnValue> {
    fn walk(expr: &syn::Expr, out: &mut Vec<FnValue>) {
        match expr {
            syn::Expr::Path(p) => out.push(FnValue {
                line: Lines::of(p.span()).first,
                path: p.path.segments.iter().map(|s| s.ident.to_string()).collect(),
            }),
            syn::Expr::If(i) => {
                tail(&i.then_branch, out);
                if let Some((_, otherwise)) = &i.else_branch {
                    walk(otherwise, out);
                }
            }
            syn::Expr::Match(m) => {
                for arm in &m.arms {
                    walk(&arm.body, out);
                }
            }
            syn::Expr::Block(b) => tail(&b.block, out),
            syn::Expr::Paren(p) => walk(&p.expr, out),
            syn::Expr::Group(g) => walk(&g.expr, out),
            syn::Expr::Reference(r) => walk(&r.expr, out),
            syn::Expr::Cast(c) => walk(&c.expr, out),
            _ => {}
        }
    }
    fn tail(block: &syn::Block, out: &mut Vec<FnValue>) {
        if let Some(syn::Stmt::Expr(last, None)) = block.stmts.last() {
            walk(last, out);
        }
    }
    let mut out = Vec::new();
    walk(expr, &mut out);
    out
}

/// The names of a fn's parameters, in order, `self` left out.
fn params_of(sig: &syn::Signature) -> Vec<String> {
    sig.inputs
        .iter()
        .filter_map(|input| match input {
            syn::FnArg::Receiver(_) => None,
            syn::FnArg::Typed(t) => Some(match &*t.pat {
                syn::Pat::Ident(i) => i.ident.to_string(),
                _ => "_".to_owned(),
            }),
        })
        .collect()
}

impl Walker {
    fn function(&mut self, sig: &syn::Signature, whole: Lines, block: &syn::Block) -> usize {
        let (self_ty, trait_name) = self.impl_of.clone().unwrap_or((None, None));
        self.index.fns.push(FnDef {
            name: sig.ident.to_string(),
            module: self.modules.clone(),
            self_ty,
            trait_name,
            whole,
            value: value::of_block(block),
            params: params_of(sig),
            returns: Returns::of(&sig.output),
        });
        self.index.fns.len() - 1
    }

    fn type_def(&mut self, ident: &syn::Ident, attrs: &[syn::Attribute]) {
        let mut derive_eq_line = None;
        for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
            let Ok(paths) = attr.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            ) else {
                continue;
            };
            for path in paths {
                if last_segment(&path).as_deref() == Some("PartialEq") {
                    derive_eq_line.get_or_insert(Lines::of(path.span()).first);
                }
            }
        }
        self.index.types.push(TypeDef {
            name: ident.to_string(),
            derive_eq_line,
        });
    }

    fn within_fn(&mut self, at: usize, f: impl FnOnce(&mut Self)) {
        let outer = self.current_fn.replace(at);
        f(self);
        self.current_fn = outer;
    }
}

impl<'ast> Visit<'ast> for Walker {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let name = m.ident.to_string();
        if m.content.is_none() {
            let path = m.attrs.iter().find_map(|a| {
                if !a.path().is_ident("path") {
                    return None;
                }
                match &a.meta {
                    syn::Meta::NameValue(nv) => match &nv.value {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(s),
                            ..
                        }) => Some(s.value()),
                        _ => None,
                    },
                    _ => None,
                }
            });
            self.index.mods.push(ModDecl {
                name,
                parents: self.modules.clone(),
                path,
            });
            return;
        }
        self.modules.push(name);
        visit::visit_item_mod(self, m);
        self.modules.pop();
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        fn walk(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
            match tree {
                syn::UseTree::Path(p) => {
                    prefix.push(p.ident.to_string());
                    walk(&p.tree, prefix, out);
                    prefix.pop();
                }
                syn::UseTree::Name(n) => {
                    let mut path = prefix.clone();
                    path.push(n.ident.to_string());
                    out.push((n.ident.to_string(), path));
                }
                syn::UseTree::Rename(r) => {
                    let mut path = prefix.clone();
                    path.push(r.ident.to_string());
                    out.push((r.rename.to_string(), path));
                }
                syn::UseTree::Group(g) => {
                    for t in &g.items {
                        walk(t, prefix, out);
                    }
                }
                _ => {}
            }
        }
        walk(&u.tree, &mut Vec::new(), &mut self.index.uses);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let outer = self.impl_of.replace((
            type_name(&i.self_ty),
            i.trait_.as_ref().and_then(|(p, _)| last_segment(p)),
        ));
        visit::visit_item_impl(self, i);
        self.impl_of = outer;
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let outer_impl = self.impl_of.take();
        let at = self.function(&f.sig, from_sig(&f.sig, f.span()), &f.block);
        self.within_fn(at, |w| visit::visit_item_fn(w, f));
        self.impl_of = outer_impl;
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let at = self.function(&f.sig, from_sig(&f.sig, f.span()), &f.block);
        self.within_fn(at, |w| visit::visit_impl_item_fn(w, f));
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            let at = self.function(&f.sig, from_sig(&f.sig, f.span()), block);
            self.within_fn(at, |w| visit::visit_trait_item_fn(w, f));
        }
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.type_def(&s.ident, &s.attrs);
        visit::visit_item_struct(self, s);
    }

    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        self.type_def(&e.ident, &e.attrs);
        visit::visit_item_enum(self, e);
    }

    fn visit_expr_async(&mut self, a: &'ast syn::ExprAsync) {
        self.index
            .asyncs
            .push((Lines::of(a.span()), value::of_future(&a.block)));
        visit::visit_expr_async(self, a);
    }

    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        self.index.consts.push(ConstDef {
            name: c.ident.to_string(),
            module: self.modules.clone(),
            whole: from_line_of(c.ident.span(), c.span()),
        });
        visit::visit_item_const(self, c);
    }

    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        self.index.consts.push(ConstDef {
            name: s.ident.to_string(),
            module: self.modules.clone(),
            whole: from_line_of(s.ident.span(), s.span()),
        });
        visit::visit_item_static(self, s);
    }

    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        if matches!(e, syn::Expr::MethodCall(_) | syn::Expr::Field(_) | syn::Expr::Await(_) | syn::Expr::Try(_))
            && !self.in_chains.contains(&{
                let end = ends::last(e).end();
                (end.line, end.column)
            })
        {
            let links = chain_links(e);
            let mut lines: Vec<(u32, bool)> = Vec::new();
            for &(line, decides, end) in &links {
                self.in_chains.insert((end.line, end.column));
                match lines.last_mut() {
                    Some(last) if last.0 == line => last.1 |= decides,
                    _ => lines.push((line, decides)),
                }
            }
            if lines.len() > 1 {
                self.index.chains.push(Chain { links: lines });
            }
        }
        visit::visit_expr(self, e);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let path = match &*c.func {
            syn::Expr::Path(p) => p.path.segments.iter().map(|s| s.ident.to_string()).collect(),
            _ => Vec::new(),
        };
        // the ends, not `c.span()`: that prints the call, and the walk reaches every call inside it too (ends.rs)
        let whole = if c.attrs.is_empty() {
            Lines {
                first: Lines::of(ends::first(&c.func)).first,
                last: Lines::of(c.paren_token.span.close()).last,
            }
        } else {
            Lines::of(c.span())
        };
        let mut found = call(ends::first(&c.func), whole, path, &c.args);
        // a call through a field holding a fn: `(rules.band)(crop, stage)`
        let mut func = &*c.func;
        while let syn::Expr::Paren(p) = func {
            func = &p.expr;
        }
        if let syn::Expr::Field(f) = func
            && let syn::Member::Named(name) = &f.member
        {
            found.field = Some(name.to_string());
        }
        self.index.calls.push(found);
        visit::visit_expr_call(self, c);
    }

    fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
        let mut found = call(
            c.method.span(),
            Lines {
                first: Lines::of(c.method.span()).first,
                last: Lines::of(c.paren_token.span.close()).last,
            },
            Vec::new(),
            &c.args,
        );
        found.method = Some(c.method.to_string());
        self.index.calls.push(found);
        visit::visit_expr_method_call(self, c);
    }

    fn visit_arm(&mut self, a: &'ast syn::Arm) {
        struct Paths(Vec<String>);
        impl<'ast> Visit<'ast> for Paths {
            fn visit_path(&mut self, p: &'ast syn::Path) {
                if let Some(last) = last_segment(p) {
                    self.0.push(last);
                }
            }
        }
        struct Ranges(bool);
        impl<'ast> Visit<'ast> for Ranges {
            fn visit_pat(&mut self, p: &'ast syn::Pat) {
                self.0 |= matches!(p, syn::Pat::Range(_));
                visit::visit_pat(self, p);
            }
        }
        let mut paths = Paths(Vec::new());
        paths.visit_pat(&a.pat);
        let mut ranges = Ranges(false);
        ranges.visit_pat(&a.pat);
        let body = ends::lines(&a.body);
        self.index.arms.push(Arm {
            variants: paths.0,
            arrow: Lines::of(a.fat_arrow_token.span()).first,
            body,
            in_fn: self.current_fn,
            scrutinee: self.scrutinee.clone(),
            of_match: self.match_line,
            wildcard: matches!(a.pat, syn::Pat::Wild(_)),
            range: ranges.0,
        });
        // a `match` inside the arm matches on its own
        let outer = self.scrutinee.take();
        visit::visit_arm(self, a);
        self.scrutinee = outer;
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        let name = match &*m.expr {
            syn::Expr::Path(p) if p.path.segments.len() == 1 => Some(p.path.segments[0].ident.to_string()),
            _ => None,
        };
        let line = Lines::of(m.match_token.span()).first;
        let outer = std::mem::replace(&mut self.scrutinee, name.map(|n| (n, line)));
        let outer_line = std::mem::replace(&mut self.match_line, line);
        for arm in &m.arms {
            self.visit_arm(arm);
        }
        self.scrutinee = outer;
        self.match_line = outer_line;
    }

    fn visit_expr_struct(&mut self, e: &'ast syn::ExprStruct) {
        for field in &e.fields {
            if let syn::Member::Named(name) = &field.member {
                for value in fn_values(&field.expr) {
                    self.index.field_values.push((name.to_string(), value));
                }
            }
        }
        visit::visit_expr_struct(self, e);
    }

    fn visit_expr_assign(&mut self, e: &'ast syn::ExprAssign) {
        if let syn::Expr::Field(f) = &*e.left
            && let syn::Member::Named(name) = &f.member
        {
            for value in fn_values(&e.right) {
                self.index.field_values.push((name.to_string(), value));
            }
        }
        visit::visit_expr_assign(self, e);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let name = match &l.pat {
            syn::Pat::Ident(i) => Some(i.ident.to_string()),
            syn::Pat::Type(t) => match &*t.pat {
                syn::Pat::Ident(i) => Some(i.ident.to_string()),
                _ => None,
            },
            _ => None,
        };
        if let Some(init) = &l.init
            && let Some((else_token, diverge)) = &init.diverge
            && let syn::Expr::Block(block) = &**diverge
        {
            self.index
                .elses
                .push((Lines::of(else_token.span()).first, ends::block(&block.block)));
        }
        if let (Some(name), Some(init)) = (name, &l.init) {
            let values = fn_values(&init.expr);
            if !values.is_empty() {
                self.index.lets.push((name, Lines::of(l.let_token.span()).first, values));
            }
        }
        visit::visit_local(self, l);
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        self.index.ifs.push((Lines::of(e.if_token.span()).first, ends::block(&e.then_branch)));
        if let Some((else_token, otherwise)) = &e.else_branch
            && let syn::Expr::Block(block) = &**otherwise
        {
            self.index
                .elses
                .push((Lines::of(else_token.span()).first, ends::block(&block.block)));
        }
        visit::visit_expr_if(self, e);
    }

    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.index.loops.push((Lines::of(e.for_token.span()).first, ends::block(&e.body)));
        visit::visit_expr_for_loop(self, e);
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.index.loops.push((Lines::of(e.while_token.span()).first, ends::block(&e.body)));
        visit::visit_expr_while(self, e);
    }
}

/// The parsed files, by site path; a file that cannot be read or parsed is `None`.
static INDEXES: Mutex<Option<HashMap<String, Option<Arc<Index>>>>> = Mutex::new(None);

/// `file` (a site path, as [`names::file_lines`] reads it) parsed, cached for the process's life.
pub(crate) fn index(file: &str) -> Option<Arc<Index>> {
    if let Some(parsed) = cached(file) {
        return parsed;
    }
    // parsed outside the lock: another thread parsing the same file meanwhile costs time, not correctness
    let parsed = names::file_lines(file)
        .and_then(|lines| Index::parse(&lines.join("\n")))
        .map(Arc::new);
    INDEXES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(file.to_owned(), parsed.clone());
    parsed
}

/// `file`'s entry in the cache: `None` when it was never parsed, `Some(None)` when it could not be.
fn cached(file: &str) -> Option<Option<Arc<Index>>> {
    INDEXES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .and_then(|m| m.get(file).cloned())
}

/// What a search of the crate asks of a file's text before parsing it: files without it cannot hold what is looked
/// for, and are skipped unparsed (a crate's common names, `new`, are in most of its files; its `fn new`s are not).
#[derive(Clone, Copy)]
pub(crate) enum Needs<'a> {
    /// The word anywhere (`mods::mentions`): a variant in a pattern, a field, a called name, a const.
    Word(&'a str),
    /// The keyword and then the name (`mods::names_item`): `fn total`, `struct Till`, `enum Till`.
    Item(&'a [&'a str], &'a str),
}

/// `file` parsed, when it is parsed already or its text has what `needs` says.
pub(crate) fn index_if(file: &str, needs: Needs<'_>) -> Option<Arc<Index>> {
    if let Some(parsed) = cached(file) {
        return parsed;
    }
    let text = names::file_lines(file)?;
    let has = match needs {
        Needs::Word(word) => mods::mentions(&text, word),
        Needs::Item(keywords, name) => keywords.iter().any(|k| mods::names_item(&text, k, name)),
    };
    if has { index(file) } else { None }
}

/// One file of a crate: its site path (interned, so findings can name it) and its module path from the crate root.
#[derive(Clone, Debug)]
pub(crate) struct CrateFile {
    /// The path, spelled as the site path it was reached from spells its directories.
    pub file: &'static str,
    /// `["a", "b"]` for `crate::a::b`.
    pub module: Vec<String>,
}

/// The crates found so far, by the site path of a file in them.
static CRATES: Mutex<Option<HashMap<String, Arc<[CrateFile]>>>> = Mutex::new(None);
/// Paths interned for findings.
static INTERNED: Mutex<Option<HashMap<String, &'static str>>> = Mutex::new(None);

fn intern(path: &str) -> &'static str {
    let mut guard = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    let map = guard.get_or_insert_with(HashMap::new);
    if let Some(s) = map.get(path) {
        return s;
    }
    let leaked: &'static str = Box::leak(path.to_owned().into_boxed_str());
    map.insert(path.to_owned(), leaked);
    leaked
}

/// The most files one crate's module tree is followed into.
const CRATE_FILES_MAX: usize = 512;

/// Every file of the crate `file` belongs to, by its module tree (`mod`, `#[path]`), `file` first; just `file` when
/// no crate root that reaches it is found. The root is looked for beside the nearest `Cargo.toml` above `file`:
/// `src/lib.rs`, `src/main.rs`, then the files of `src/bin`, `examples`, `tests` and `benches` (the first whose tree
/// holds `file`).
pub(crate) fn crate_files(file: &str) -> Arc<[CrateFile]> {
    {
        let guard = CRATES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = guard.as_ref().and_then(|m| m.get(file)) {
            return found.clone();
        }
    }
    let found: Arc<[CrateFile]> = find_crate(file).into();
    CRATES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(file.to_owned(), found.clone());
    found
}

fn find_crate(file: &str) -> Vec<CrateFile> {
    let alone = || {
        vec![CrateFile {
            file: intern(file),
            module: Vec::new(),
        }]
    };
    let Some(target) = names::resolve(file).and_then(|p| p.canonicalize().ok()) else {
        return alone();
    };
    let mut dir = Path::new(file).parent();
    let manifest = loop {
        let Some(d) = dir else { return alone() };
        if names::resolve(&d.join("Cargo.toml").to_string_lossy()).is_some() {
            break d.to_path_buf();
        }
        dir = d.parent();
    };
    // the file itself is tried first only when it is a target's root (nothing else declares it)
    let mut roots: Vec<PathBuf> = Vec::new();
    roots.push(manifest.join("src/lib.rs"));
    roots.push(manifest.join("src/main.rs"));
    for sub in ["src/bin", "examples", "tests", "benches"] {
        let listed = names::resolve(&manifest.join(sub).to_string_lossy())
            .and_then(|d| std::fs::read_dir(d).ok());
        let mut entries: Vec<PathBuf> = listed
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|e| {
                let path = e.path();
                let name = path.file_name()?.to_string_lossy().into_owned();
                if path.is_dir() {
                    Some(manifest.join(sub).join(name).join("main.rs"))
                } else {
                    name.ends_with(".rs").then(|| manifest.join(sub).join(name))
                }
            })
            .collect();
        entries.sort();
        roots.extend(entries);
    }
    for root in roots {
        let root = root.to_string_lossy().into_owned();
        if names::resolve(&root).is_none() {
            continue;
        }
        let files = module_tree(&root);
        let holds = files.iter().any(|f| {
            names::resolve(f.file)
                .and_then(|p| p.canonicalize().ok())
                .is_some_and(|p| p == target)
        });
        if holds {
            // the asked-for spelling first, so the file a node was made in is searched first
            let mut files = files;
            if let Some(at) = files.iter().position(|f| {
                names::resolve(f.file).and_then(|p| p.canonicalize().ok()).as_ref() == Some(&target)
            }) {
                let mut own = files.remove(at);
                own.file = intern(file);
                files.insert(0, own);
            }
            return files;
        }
    }
    alone()
}

/// The `mod name;` declarations of `file`: from its index when it is parsed already, else from its tokens
/// (`mods.rs`), so finding a crate parses none of its files.
fn declared_mods(file: &str) -> Option<Vec<ModDecl>> {
    match cached(file) {
        Some(Some(index)) => Some(index.mods.clone()),
        _ => mods::declared(&names::file_lines(file)?),
    }
}

/// The files of the module tree rooted at `root`, root first.
fn module_tree(root: &str) -> Vec<CrateFile> {
    let mut out = vec![CrateFile {
        file: intern(root),
        module: Vec::new(),
    }];
    let mut next = 0;
    while next < out.len() && out.len() < CRATE_FILES_MAX {
        let CrateFile { file, module } = out[next].clone();
        next += 1;
        let Some(declared) = declared_mods(file) else { continue };
        let path = Path::new(file);
        let dir = path.parent().unwrap_or(Path::new(""));
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        // `mod.rs`, `lib.rs`, `main.rs` and crate roots own their directory; `foo.rs` owns `foo/`
        let owns_dir = next == 1
            || matches!(stem.as_deref(), Some("mod" | "lib" | "main"));
        for m in &declared {
            let base = if owns_dir {
                dir.to_path_buf()
            } else {
                dir.join(stem.clone().unwrap_or_default())
            };
            let candidates: Vec<PathBuf> = match &m.path {
                // `#[path]` is relative to the declaring file's directory (inside inline modules, to theirs)
                Some(p) => vec![m.parents.iter().fold(dir.to_path_buf(), |d, p| d.join(p)).join(p)],
                None => {
                    let base = m.parents.iter().fold(base, |d, p| d.join(p));
                    vec![
                        base.join(format!("{}.rs", m.name)),
                        base.join(&m.name).join("mod.rs"),
                    ]
                }
            };
            let Some(found) = candidates
                .into_iter()
                .map(|c| c.to_string_lossy().into_owned())
                .find(|c| names::resolve(c).is_some())
            else {
                continue;
            };
            if out.iter().any(|f| f.file == found) {
                continue;
            }
            let mut module = module.clone();
            module.extend(m.parents.iter().cloned());
            module.push(m.name.clone());
            out.push(CrateFile {
                file: intern(&found),
                module,
            });
        }
    }
    out
}

/// A function found in a crate: its file and definition.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// The file it is in.
    pub file: &'static str,
    /// The parsed file.
    pub index: Arc<Index>,
    /// Which of `index.fns`.
    pub at: usize,
}

impl Found {
    /// The definition.
    pub fn def(&self) -> &FnDef {
        &self.index.fns[self.at]
    }
    /// Whether it never returns (`fn refuse(why: String) -> !`).
    pub fn never_returns(&self) -> bool {
        self.def().returns == Returns::Never
    }
}

/// The function a call of `path` (`total`, `helpers::total`, `Till::default`) made in `file` most likely reaches:
/// among the crate's functions of that name (free functions first, unless the path names a type), the one whose
/// module the call at `line` is made in (for an unqualified name), else the one whose module the path or a `use` of
/// the calling file names, else one in the calling file, else the first.
pub(crate) fn resolve_fn(file: &str, line: u32, path: &[String]) -> Option<Found> {
    let name = path.last()?;
    let qualifier = path.len().checked_sub(2).map(|i| &path[i]);
    let files = crate_files(file);
    let own = index(file);
    // the inline module the call is made in: a name it defines is the one an unqualified call reaches
    let caller_module = own.as_ref().map(|i| i.module_at(line)).unwrap_or_default();
    // the module the calling file's `use` brings the name from
    let imported: Option<Vec<String>> = own.as_ref().and_then(|i| {
        let first = path.first()?;
        i.uses
            .iter()
            .find(|(alias, _)| alias == first)
            .map(|(_, full)| {
                let mut full = full.clone();
                full.extend(path.iter().skip(1).cloned());
                full
            })
    });
    let mut best: Option<(u32, Found)> = None;
    for (n, f) in files.iter().enumerate() {
        let Some(index) = index_if(f.file, Needs::Item(&["fn"], name)) else { continue };
        for (at, def) in index.fns.iter().enumerate() {
            if &def.name != name {
                continue;
            }
            let mut module = f.module.clone();
            module.extend(def.module.iter().cloned());
            let mut score = 0;
            let qualified_by_type = qualifier.is_some_and(|q| q.chars().next().is_some_and(char::is_uppercase));
            let type_named = qualifier.is_some_and(|q| {
                qualified_by_type && (def.self_ty.as_ref() == Some(q) || def.trait_name.as_ref() == Some(q))
            });
            // `Memo::new` is not another type's `new`
            if qualified_by_type && !type_named {
                continue;
            }
            if type_named {
                score += 8;
            } else if def.self_ty.is_none() {
                score += 4;
            }
            let ends_with = |full: &[String]| {
                full.len() > 1 && module.ends_with(&full[..full.len() - 1])
            };
            if imported.as_deref().is_some_and(ends_with) || ends_with(path) {
                score += 6;
            }
            if n == 0 {
                score += 2;
                if path.len() == 1 && def.module == caller_module {
                    score += 10;
                }
            }
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((
                    score,
                    Found {
                        file: f.file,
                        index: index.clone(),
                        at,
                    },
                ));
            }
        }
    }
    best.map(|(_, found)| found)
}

/// The names of methods that the standard library's collections, iterators, strings, `Option` and `Result` have: a
/// call of one (`rows.len()`) is not taken for a method of the crate's own that shares its name, since without types
/// the call is likelier theirs.
const STD_METHODS: &[&str] = &[
    "all", "and_then", "any", "as_ref", "as_str", "chain", "clone", "cloned", "collect", "contains", "contains_key",
    "copied", "count", "entry", "enumerate", "extend", "filter", "filter_map", "find", "first", "flat_map", "fold",
    "get", "get_mut", "insert", "into_iter", "is_empty", "is_none", "is_some", "iter", "iter_mut", "join", "keys",
    "last", "len", "map", "map_or", "max", "max_by_key", "min", "min_by_key", "next", "ok", "or_insert", "position",
    "push", "remove", "retain", "rev", "skip", "sort", "sort_by", "sort_by_key", "split", "sum", "take", "to_owned",
    "to_string", "trim", "unwrap", "unwrap_or", "unwrap_or_default", "unwrap_or_else", "values", "zip",
];

/// The method of the crate's own a call of method `name` made in `file` reaches: the one fn of that name in an
/// inherent `impl` (not a trait's) anywhere in the crate. `None` when no type or more than one defines it, or when
/// `name` is one of [`STD_METHODS`]: without types the receiver cannot be told apart.
pub(crate) fn resolve_method(file: &str, name: &str) -> Option<Found> {
    if STD_METHODS.contains(&name) {
        return None;
    }
    let mut found: Option<Found> = None;
    for f in crate_files(file).iter() {
        let Some(index) = index_if(f.file, Needs::Item(&["fn"], name)) else { continue };
        for (at, def) in index.fns.iter().enumerate() {
            if def.name == name && def.self_ty.is_some() && def.trait_name.is_none() {
                if found.as_ref().is_some_and(|other| other.def().self_ty != def.self_ty) {
                    return None;
                }
                found.get_or_insert(Found {
                    file: f.file,
                    index: index.clone(),
                    at,
                });
            }
        }
    }
    found
}

/// Lines of a parsed file: the file, its index, the lines.
pub(crate) type Place = (&'static str, Arc<Index>, Lines);

/// Where a `const` or `static` named `name`, used at `line` of `file`, is defined: in the inline module of `file`
/// that line is in, else elsewhere in `file`, else anywhere in its crate.
pub(crate) fn resolve_const(file: &str, line: u32, name: &str) -> Option<Place> {
    let module = index(file).map(|i| i.module_at(line)).unwrap_or_default();
    let mut best: Option<(u32, Place)> = None;
    for (n, f) in crate_files(file).iter().enumerate() {
        let Some(index) = index_if(f.file, Needs::Word(name)) else { continue };
        for c in index.consts.iter().filter(|c| c.name == name) {
            let score = match (n, c.module == module) {
                (0, true) => 2,
                (0, false) => 1,
                _ => 0,
            };
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, (f.file, index.clone(), c.whole)));
            }
        }
    }
    best.map(|(_, found)| found)
}

/// The method `method` of a hand-written `impl trait_name for type_name` in `file`'s crate (`impl PartialEq for
/// Quote { fn eq .. }`), those in `file` first.
pub(crate) fn impl_fn(file: &str, type_name: &str, trait_name: &str, method: &str) -> Option<Found> {
    impl_fn_of(file, type_name, None, trait_name, method)
}

/// [`impl_fn`] for the type `full` names (`std::any::type_name`'s `app::model::slipped::Reminder`, or a type
/// holding it): of several types named `type_name` in the crate, the one whose module path `full` ends with.
pub(crate) fn impl_fn_of(
    file: &str,
    type_name: &str,
    full: Option<&str>,
    trait_name: &str,
    method: &str,
) -> Option<Found> {
    // the module path `full` gives the type (`model::slipped` of `app::model::slipped::Reminder`), innermost last
    let path: Vec<&str> = full
        .and_then(|full| {
            full.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .find(|p| p.rsplit("::").next() == Some(type_name))
        })
        .map(|p| p.split("::").collect::<Vec<_>>())
        .map(|mut segments| {
            segments.pop();
            segments
        })
        .unwrap_or_default();
    let mut best: Option<(usize, Found)> = None;
    for f in crate_files(file).iter() {
        let Some(index) = index_if(f.file, Needs::Item(&["fn"], method)) else { continue };
        for (at, d) in index.fns.iter().enumerate() {
            if !(d.name == method
                && d.self_ty.as_deref() == Some(type_name)
                && d.trait_name.as_deref() == Some(trait_name))
            {
                continue;
            }
            // how many of the innermost module names the impl's place shares with `full`'s path
            let place: Vec<&str> = f.module.iter().chain(&d.module).map(String::as_str).collect();
            let shared = place.iter().rev().zip(path.iter().rev()).take_while(|(a, b)| a == b).count();
            let matches_all = shared == place.len();
            let score = if matches_all { shared + 1 } else { 0 };
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((
                    score,
                    Found {
                        file: f.file,
                        index: index.clone(),
                        at,
                    },
                ));
            }
            if path.is_empty() {
                return best.map(|(_, found)| found);
            }
        }
    }
    best.map(|(_, found)| found)
}

/// The `struct` or `enum` named `name` in `file`'s crate (the first found, `file` first), with its file and parsed
/// file.
pub(crate) fn type_named(file: &str, name: &str) -> Option<(&'static str, Arc<Index>, usize)> {
    for f in crate_files(file).iter() {
        let Some(index) = index_if(f.file, Needs::Item(&["struct", "enum"], name)) else { continue };
        if let Some(at) = index.types.iter().position(|t| t.name == name) {
            return Some((f.file, index, at));
        }
    }
    None
}

/// The arms of `match`es in `file`'s crate whose pattern names `variant`, each with its file and parsed file; those
/// in `file` first.
pub(crate) fn arms_naming(file: &str, variant: &str) -> Vec<(&'static str, Arc<Index>, usize)> {
    let mut out = Vec::new();
    for f in crate_files(file).iter() {
        let Some(index) = index_if(f.file, Needs::Word(variant)) else { continue };
        for (i, arm) in index.arms.iter().enumerate() {
            if arm.variants.iter().any(|v| v == variant) {
                out.push((f.file, index.clone(), i));
            }
        }
    }
    out
}

/// A line of source without its `//` comment: a `//` inside a string (`"http://x"`), a raw string (`r#"a//b"#`)
/// or a char literal is code, and a lifetime (`'a`) opens no literal. Line by line: a string that began on an
/// earlier line is not known here.
pub(crate) fn code_of(line: &str) -> &str {
    let bytes = line.as_bytes();
    let ident = |at: usize| bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_';
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            // a raw string: `r"`, `r#"`, `br"` (an identifier ending in `r` is not one)
            b'r' if (i == 0 || !ident(i - 1) || (bytes[i - 1] == b'b' && (i == 1 || !ident(i - 2))))
                && matches!(bytes.get(i + 1), Some(b'"' | b'#')) =>
            {
                let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    let body = i + 2 + hashes;
                    i = line[body..].find(&close).map_or(bytes.len(), |end| body + end + close.len() - 1);
                }
            }
            // a char literal (`'/'`, `'\''`, `'é'`), not a lifetime or a label (`'a`, `'outer:`)
            b'\'' => {
                let rest = &line[i + 1..];
                let len = if let Some(escaped) = rest.strip_prefix('\\') {
                    // the escaped char is ASCII (`\'`, `\n`, `\u{..}`): the literal closes after it
                    escaped.get(1..).and_then(|after| after.find('\'')).map(|end| end + 2)
                } else {
                    rest.chars().next().map(char::len_utf8).filter(|len| rest[*len..].starts_with('\''))
                };
                if let Some(len) = len {
                    i += 1 + len;
                }
            }
            _ => {}
        }
        i += 1;
    }
    line
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_comment_is_cut_where_it_starts_not_inside_a_literal() {
        assert_eq!(code_of("let a = 1; // one"), "let a = 1; ");
        assert_eq!(code_of("let url = \"http://x\"; // the host"), "let url = \"http://x\"; ");
        assert_eq!(code_of("let q = \"a\\\"//\"; b // c"), "let q = \"a\\\"//\"; b ");
        assert_eq!(code_of("let raw = r#\"a\"//b\"#; // c"), "let raw = r#\"a\"//b\"#; ");
        assert_eq!(code_of("let raw = br\"//\"; x"), "let raw = br\"//\"; x");
        assert_eq!(code_of("let c = '/'; let d = '/'; // e"), "let c = '/'; let d = '/'; ");
        assert_eq!(code_of("let q = '\\''; // e"), "let q = '\\''; ");
        assert_eq!(code_of("let q = ['\\'', '/']; // e"), "let q = ['\\'', '/']; ");
        assert_eq!(code_of("let s = '\\u{2F}'; // e"), "let s = '\\u{2F}'; ");
        assert_eq!(code_of("fn f<'a>(x: &'a str) -> &'a str { x } // id"), "fn f<'a>(x: &'a str) -> &'a str { x } ");
        assert_eq!(code_of("let é = 'é'; // e"), "let é = 'é'; ");
        assert_eq!(code_of("let for_r = 1; // r\"x"), "let for_r = 1; ");
        assert_eq!(code_of("x / y"), "x / y");
        assert_eq!(code_of("let open = \"never closed // here"), "let open = \"never closed // here");
    }

    use super::*;

    fn parsed(text: &str) -> Index {
        Index::parse(text).expect("parses")
    }

    #[test]
    fn a_string_holding_slashes_does_not_end_a_body() {
        let index = parsed(
            "fn url() -> String {\n    let a = \"http://x\"; // }\n    let b = '}';\n    format!(\"{a}{b}\")\n}\nfn next() {}\n",
        );
        let url = &index.fns[0];
        assert_eq!(url.name, "url");
        assert_eq!(url.whole, Lines { first: 1, last: 5 });
        assert_eq!(url.value, [Lines { first: 4, last: 4 }]);
        assert_eq!(index.fns[1].whole, Lines { first: 6, last: 6 });
    }

    #[test]
    fn method_calls_keep_their_name_and_path_calls_none() {
        let index = parsed("fn f(o: Order) -> u64 {\n    o.total()\n        + helpers::fee(o.lines.len())\n}\n");
        let mut methods: Vec<(u32, Option<&str>)> =
            index.calls.iter().map(|c| (c.line, c.method.as_deref())).collect();
        methods.sort_unstable();
        assert_eq!(methods, [(2, Some("total")), (3, None), (3, Some("len"))]);
        assert!(resolve_method("f.rs", "len").is_none(), "a std method's name is never the crate's");
    }

    #[test]
    fn what_a_fn_returns_is_read_from_its_signature_not_its_parameters() {
        let index = parsed(
            "fn award(s: &mut S, points: fn(u32) -> u32) {}\nfn total() -> u32 { 1 }\nfn unit() -> () {}\nfn refuse() -> ! { panic!() }\nfn each<F: Fn() -> u8>(f: F) where F: Copy {}\n",
        );
        let returns: Vec<(&str, Returns)> = index.fns.iter().map(|f| (f.name.as_str(), f.returns)).collect();
        assert_eq!(
            returns,
            [
                ("award", Returns::Nothing),
                ("total", Returns::Value),
                ("unit", Returns::Nothing),
                ("refuse", Returns::Never),
                ("each", Returns::Nothing),
            ]
        );
    }

    #[test]
    fn items_start_at_their_keyword_not_their_doc_comment() {
        let index = parsed("/// The cap.\n#[allow(dead_code)]\npub const CAP: u8 = 1;\n/// Doubles.\npub fn double(x: u8) -> u8 {\n    x * 2\n}\n");
        assert_eq!(index.consts[0].whole, Lines { first: 3, last: 3 });
        assert_eq!(index.fns[0].whole, Lines { first: 5, last: 7 });
    }

    #[test]
    fn a_raw_string_with_braces_and_quotes_is_one_token() {
        let index = parsed(
            "fn page() -> &'static str {\n    r#\"{ \"}\" // {\n    }\"#\n}\nconst LIMIT: u64 = 3;\n",
        );
        assert_eq!(index.fns[0].whole, Lines { first: 1, last: 4 });
        assert_eq!(index.fns[0].value, [Lines { first: 2, last: 3 }]);
        assert_eq!(index.consts[0].name, "LIMIT");
        assert_eq!(index.consts[0].whole, Lines { first: 5, last: 5 });
    }

    #[test]
    fn nested_closures_give_the_call_its_own_closure() {
        let index = parsed(
            "fn build(a: A) {\n    let m = Memo::new({\n        let a = a.clone();\n        move |prev: Option<&u64>| {\n            \
             let xs = a.get().iter().map(|x| x + 1).collect::<Vec<_>>();\n            xs.len() as u64\n        }\n    });\n}\n",
        );
        let call = index.call_at(2, 13).expect("the Memo::new call");
                assert_eq!(call.whole, Lines { first: 2, last: 8 });
        let closure = call.closure.as_ref().expect("its closure");
        assert_eq!(closure.param.as_deref(), Some("prev"));
        assert_eq!(closure.body, Lines { first: 4, last: 7 });
        // the tail, and the `let` that made the name it reads
        assert_eq!(closure.value, [Lines { first: 5, last: 5 }, Lines { first: 6, last: 6 }]);
        // the inner `map(|x| x + 1)` is a call of its own, with its own closure
        let map = index.call_at(5, 40).expect("the map call");
                assert_eq!(map.closure.as_ref().and_then(|c| c.param.as_deref()), Some("x"));
    }

    #[test]
    fn a_call_given_several_closures_has_each_with_the_write_that_ends_it() {
        let index = parsed(
            "fn booked(b: B) -> Memo<u32> {\n    b.fold(\n        0,\n        |acc, s| {\n            if s.open {\n                \
             *acc += s.minutes;\n            }\n        },\n        |acc, s| {\n            *acc -= s.minutes;\n        },\n    )\n}\n",
        );
        let call = index.call_at(2, 20).expect("the fold call");
        let first = call.closure.as_ref().expect("its first closure");
        // a body of statements ends in the write that makes what it leaves; a tail `if` is followed into it
        assert_eq!(first.value, [Lines { first: 5, last: 5 }, Lines { first: 6, last: 6 }]);
        assert_eq!(call.more_closures.len(), 1);
        assert_eq!(call.more_closures[0].value, [Lines { first: 10, last: 10 }]);
    }

    #[test]
    fn macro_calls_and_match_arms() {
        let index = parsed(
            "fn update(msg: Msg, t: &T) -> T {\n    let mut next = t.clone();\n    println!(\"{}\", \"=> Msg::Clear }\");\n    \
             match msg {\n        Msg::Add { sku } | Msg::Put(sku) => {\n            next.push(sku);\n        }\n        \
             Msg::Clear => next.clear(),\n    }\n    next\n}\n",
        );
        let add: Vec<&Arm> = index.arms.iter().filter(|a| a.variants.contains(&"Add".to_owned())).collect();
        assert_eq!(add.len(), 1);
        assert!(add[0].variants.contains(&"Put".to_owned()));
        assert_eq!(add[0].arrow, 5);
        assert_eq!(add[0].body, Lines { first: 5, last: 7 });
        assert_eq!(add[0].in_fn, Some(0));
        let clear: Vec<&Arm> = index.arms.iter().filter(|a| a.variants.contains(&"Clear".to_owned())).collect();
        assert_eq!(clear.len(), 1, "the string in println! is not an arm");
        assert_eq!(clear[0].arrow, 8);
        // the tail `next` is followed back to the arms that change it
        assert_eq!(
            index.fns[0].value,
            [Lines { first: 5, last: 5 }, Lines { first: 6, last: 6 }, Lines { first: 8, last: 8 }]
        );
    }

    #[test]
    fn types_with_their_derives_and_hand_written_impls() {
        let index = parsed(
            "#[derive(Clone, Debug)]\n#[derive(std::cmp::PartialEq)]\npub struct A {\n    x: u8,\n}\nenum B { One }\n\
             impl PartialEq for B {\n    fn eq(&self, _: &Self) -> bool {\n        true\n    }\n}\n",
        );
        assert_eq!(index.types.len(), 2);
        assert_eq!(index.types[0].name, "A");
        assert_eq!(index.types[0].derive_eq_line, Some(2));
        assert_eq!(index.types[1].derive_eq_line, None);
        let eq = index.fns.iter().find(|f| f.name == "eq").expect("eq");
        assert_eq!((eq.self_ty.as_deref(), eq.trait_name.as_deref()), (Some("B"), Some("PartialEq")));
        assert_eq!(eq.value, [Lines { first: 9, last: 9 }]);
    }

    #[test]
    fn async_blocks_and_their_value() {
        let index = parsed(
            "fn f(a: A) -> M {\n    AsyncMemo::new(move |_| {\n        let x = a.get();\n        async move {\n            \
             let r = fetch(x).await;\n            r.unwrap_or(0)\n        }\n    })\n}\n",
        );
        // the tail, and the `let` that made the name it reads
        assert_eq!(
            index.asyncs,
            [(
                Lines { first: 4, last: 7 },
                vec![Lines { first: 5, last: 5 }, Lines { first: 6, last: 6 }]
            )]
        );
    }

    #[test]
    fn a_let_bound_by_an_if_brings_the_value_of_each_branch() {
        let index = parsed(
            "fn due(today: u32, raised: u32, days: u32, late: bool) -> u32 {\n    let due = if late {\n        today + \
             days\n    } else {\n        raised + days\n    };\n    due * 2\n}\n",
        );
        // the tail, and the value each branch gave the name it reads
        let value: Vec<u32> = index.fns[0].value.iter().map(|l| l.first).collect();
        assert_eq!(value, [3, 5, 7]);
    }

    #[test]
    fn modules_uses_impls_and_tail_branches() {
        let index = parsed(
            "use crate::rules::{total as sum, Tax};\n#[path = \"x/y.rs\"]\nmod y;\nmod inner {\n    pub mod deep;\n    \
             pub fn f() -> u8 { 1 }\n}\nimpl Default for Till {\n    fn default() -> Self {\n        if FLAG {\n            \
             Till { a: 1 }\n        } else {\n            Till { a: 2 }\n        }\n    }\n}\n",
        );
        assert!(index.uses.contains(&("sum".to_owned(), vec!["crate".into(), "rules".into(), "total".into()])));
        assert!(index.uses.contains(&("Tax".to_owned(), vec!["crate".into(), "rules".into(), "Tax".into()])));
        assert_eq!(index.mods.len(), 2);
        assert_eq!(index.mods[0].path.as_deref(), Some("x/y.rs"));
        assert_eq!(index.mods[1].parents, ["inner"]);
        let f = index.fns.iter().find(|f| f.name == "f").expect("f");
        assert_eq!(f.module, ["inner"]);
        let default = index.fns.iter().find(|f| f.name == "default").expect("default");
        assert_eq!(default.trait_name.as_deref(), Some("Default"));
        assert_eq!(default.self_ty.as_deref(), Some("Till"));
        assert_eq!(
            default.value,
            [
                Lines { first: 10, last: 10 },
                Lines { first: 11, last: 11 },
                Lines { first: 13, last: 13 }
            ]
        );
    }

    #[test]
    fn chains_over_several_lines_and_the_links_that_decide() {
        let index = parsed(
            "fn f(sales: &[Sale], till: u8) -> u32 {\n    let taken: u32 = sales\n        .iter()\n        \
             .filter(|s| s.till == till)\n        .map(|s| s.pence)\n        .sum();\n    let one = sales.iter().count();\n    \
             let m = Memo::new(move |_| {\n        1\n    })\n    .labelled(\"m\");\n    let d = order\n        .drain(..)\n        \
             .rev()\n        .get()\n        .await?;\n    taken\n}\n",
        );
        let links: Vec<&[(u32, bool)]> = index.chains.iter().map(|c| c.links.as_slice()).collect();
        // a bare name carries, as do `.iter()`, `.drain(..)`, `.get()`, `.await` and `?`; a call given a closure and
        // a fold decide; a chain on one line, or from a receiver over several lines, is none
        assert_eq!(
            links,
            [
                &[(2, false), (3, false), (4, true), (5, true), (6, true)][..],
                &[(12, false), (13, false), (14, true), (15, false), (16, false)][..],
            ]
        );
        assert!(index.chains[0].starts(4) && !index.chains[0].starts(7));
    }
}
