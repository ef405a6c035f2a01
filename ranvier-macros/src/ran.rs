//! The records of what ran that `#[node]` (in its closures) and `#[trace_fn]` (in the whole fn) put into a body.
//!
//! Each branch — a `match` arm, an `if` block, an `else` block (a `let .. else`'s too) — starts with `if
//! ::ranvier::__private::TRACED { branch_ran(file!(), line!()) }` at the line of its `=>`, `if` or `else`; a `let`
//! that shadows a name bound before it in the fn (`let days = days * 2;`) is followed by a record of the value it
//! bound (`let_bound`, its `Debug` text when its type has one); a `for` or `while` loop is wrapped in a block that
//! first makes a `LoopRuns` guard, which the loop's body marks entered and whose drop records, at the loop's line,
//! whether the body ran; an `unwrap_or` (`unwrap_or_default`, `unwrap_or_else`) is called on its receiver's value
//! bound once, after a record (`default_taken`) when that value is `None` or an `Err`. Traced builds record which
//! branches a run (or an `update`) took, what its shadowing `let`s bound and which defaults it took, and `explain`
//! quotes them (`ran:`). In an untraced build the
//! test is a constant `false` and the calls are compiled out. Async blocks and nested items are left alone: futures
//! run outside the memo's run, and an item is instrumented by its own attribute.

use proc_macro2::Span;
use quote::quote_spanned;
use std::collections::HashSet;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};

/// Puts the records into a body: everywhere (`everywhere`, for `#[trace_fn]`), or inside its closures only (for
/// `#[node]`, whose own statements build the graph once).
pub struct Instrument {
    /// Whether the code visited now gets records.
    in_scope: bool,
    /// Whether branches get records outside closures too (`#[node]`: which branches its builder took, so a fn value
    /// it chose is known), though `let`s do not.
    branches_everywhere: bool,
    /// The names bound so far in the fn (parameters, `let`s, closure parameters): a `let` of one of them shadows it.
    bound: HashSet<String>,
}

impl Instrument {
    /// Records everywhere (`everywhere`) or inside closures only; `params` are the fn's parameters.
    pub fn new<'a>(everywhere: bool, params: impl IntoIterator<Item = &'a syn::Pat>) -> Self {
        let mut bound = HashSet::new();
        for pat in params {
            names_of(pat, &mut bound);
        }
        Instrument {
            in_scope: everywhere,
            branches_everywhere: everywhere,
            bound,
        }
    }

    /// Records the branches of the whole body, not only inside its closures (for `#[node]`'s builder).
    pub fn with_branches_everywhere(mut self) -> Self {
        self.branches_everywhere = true;
        self
    }
}

/// The names a pattern binds.
fn names_of(pat: &syn::Pat, out: &mut HashSet<String>) {
    struct Names<'a>(&'a mut HashSet<String>);
    impl syn::visit::Visit<'_> for Names<'_> {
        fn visit_pat_ident(&mut self, p: &syn::PatIdent) {
            self.0.insert(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    syn::visit::Visit::visit_pat(&mut Names(out), pat);
}

/// `if TRACED { branch_ran(file!(), line!()) }`, at `span`'s line.
pub fn record(span: Span) -> syn::Stmt {
    syn::Stmt::Expr(
        syn::Expr::Verbatim(quote_spanned! {span=>
            if ::ranvier::__private::TRACED {
                ::ranvier::__private::branch_ran(::core::file!(), ::core::line!());
            }
        }),
        None,
    )
}

/// `if TRACED { let_bound(file!(), line!(), <ident's Debug text if any>) }`, at `span`'s line.
fn let_record(span: Span, ident: &syn::Ident) -> syn::Stmt {
    syn::Stmt::Expr(
        syn::Expr::Verbatim(quote_spanned! {span=>
            if ::ranvier::__private::TRACED {
                #[allow(unused_imports)]
                use ::ranvier::__private::{BoundDebug as _, BoundOther as _};
                ::ranvier::__private::let_bound(
                    ::core::file!(),
                    ::core::line!(),
                    (&&::ranvier::__private::Bound(&#ident)).value(),
                );
            }
        }),
        None,
    )
}

/// The name a `let` binds when it binds one plain name (`x`, `mut x`, `x: T`) to a value, with no `else`.
fn plain_binding(local: &syn::Local) -> Option<&syn::Ident> {
    let init = local.init.as_ref()?;
    if init.diverge.is_some() || matches!(*init.expr, syn::Expr::Closure(_) | syn::Expr::Async(_)) {
        return None;
    }
    let pat = match &local.pat {
        syn::Pat::Type(t) => &*t.pat,
        other => other,
    };
    match pat {
        syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => Some(&p.ident),
        _ => None,
    }
}

/// Whether a method call is an `unwrap_or(d)`, `unwrap_or_default()` or `unwrap_or_else(f)`: where a value
/// becomes its default when it is `None` or an `Err`.
fn gives_a_default(call: &syn::ExprMethodCall) -> bool {
    let arguments = call.args.len();
    call.turbofish.is_none()
        && match call.method.to_string().as_str() {
            "unwrap_or" | "unwrap_or_else" => arguments == 1,
            "unwrap_or_default" => arguments == 0,
            _ => false,
        }
}

/// `match <receiver> { v => { if TRACED { <record when v gives the default> } v.unwrap_or(..) } }`: the call as it
/// was, on its receiver's value bound once (a name the user's code cannot see), after a record, at the method's line,
/// when that value is `None` or an `Err` (`__private::Or` tells, on the concrete type).
fn defaulted_record(call: &syn::ExprMethodCall) -> syn::Expr {
    let span = call.method.span();
    let value = syn::Ident::new("__ranvier_or", Span::mixed_site().located_at(span));
    let mut again = call.clone();
    *again.receiver = syn::Expr::Verbatim(quote::quote! { #value });
    let receiver = &call.receiver;
    let attrs = &call.attrs;
    let record = quote_spanned! {span=>
        if ::ranvier::__private::TRACED {
            #[allow(unused_imports)]
            use ::ranvier::__private::{OrEmpty as _, OrOther as _};
            if (&&::ranvier::__private::Or(&#value)).defaulted() {
                ::ranvier::__private::default_taken(::core::file!(), ::core::line!());
            }
        }
    };
    syn::Expr::Verbatim(quote::quote! {
        #(#attrs)*
        match #receiver {
            #value => {
                #record
                #again
            }
        }
    })
}

impl VisitMut for Instrument {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        let mut out = Vec::with_capacity(block.stmts.len());
        for mut stmt in std::mem::take(&mut block.stmts) {
            let shadowing = match &stmt {
                syn::Stmt::Local(local) if self.in_scope => plain_binding(local)
                    .filter(|ident| self.bound.contains(&ident.to_string()))
                    .map(|ident| (local.let_token.span, ident.clone())),
                _ => None,
            };
            self.visit_stmt_mut(&mut stmt);
            if let syn::Stmt::Local(local) = &stmt {
                names_of(&local.pat, &mut self.bound);
            }
            out.push(stmt);
            if let Some((span, ident)) = shadowing {
                out.push(let_record(span, &ident));
            }
        }
        block.stmts = out;
    }

    fn visit_expr_closure_mut(&mut self, closure: &mut syn::ExprClosure) {
        for input in &closure.inputs {
            names_of(input, &mut self.bound);
        }
        let outer = std::mem::replace(&mut self.in_scope, true);
        visit_mut::visit_expr_closure_mut(self, closure);
        self.in_scope = outer;
    }

    fn visit_expr_if_mut(&mut self, e: &mut syn::ExprIf) {
        visit_mut::visit_expr_if_mut(self, e);
        if !(self.in_scope || self.branches_everywhere) {
            return;
        }
        e.then_branch.stmts.insert(0, record(e.if_token.span));
        if let Some((else_token, other)) = &mut e.else_branch
            && let syn::Expr::Block(block) = &mut **other
        {
            block.block.stmts.insert(0, record(else_token.span));
        }
    }

    fn visit_local_mut(&mut self, local: &mut syn::Local) {
        visit_mut::visit_local_mut(self, local);
        if !(self.in_scope || self.branches_everywhere) {
            return;
        }
        // a `let .. else { .. }`'s `else` is a branch too: the pattern did not match (`else { break; }` left the loop)
        if let Some(init) = &mut local.init
            && let Some((else_token, diverge)) = &mut init.diverge
            && let syn::Expr::Block(block) = &mut **diverge
        {
            block.block.stmts.insert(0, record(else_token.span));
        }
    }

    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        visit_mut::visit_arm_mut(self, arm);
        if !(self.in_scope || self.branches_everywhere) {
            return;
        }
        // at the `=>`: the arm's line, as diagnosis names arms (a span inside the pattern would make lints read the
        // generated `line!()` literal as the pattern's text)
        let at = record(arm.fat_arrow_token.spans[0]);
        let body = &arm.body;
        *arm.body = syn::Expr::Verbatim(quote_spanned! {body.span()=> { #at #body } });
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        visit_mut::visit_expr_mut(self, e);
        if !self.in_scope {
            return;
        }
        if let syn::Expr::MethodCall(call) = e
            && gives_a_default(call)
        {
            *e = defaulted_record(call);
            return;
        }
        let (span, body) = match e {
            syn::Expr::ForLoop(f) => (f.for_token.span, &mut f.body),
            syn::Expr::While(w) => (w.while_token.span, &mut w.body),
            _ => return,
        };
        // a name the user's code cannot see (mixed-site hygiene), at the loop's line
        let guard = syn::Ident::new("__ranvier_loop", Span::mixed_site().located_at(span));
        body.stmts.insert(
            0,
            syn::Stmt::Expr(
                syn::Expr::Verbatim(quote_spanned! {span=> #guard.entered() }),
                Some(Default::default()),
            ),
        );
        let looped = std::mem::replace(e, syn::Expr::Verbatim(proc_macro2::TokenStream::new()));
        *e = syn::Expr::Verbatim(quote_spanned! {span=>
            {
                let #guard = ::ranvier::__private::LoopRuns::new(::core::file!(), ::core::line!());
                #looped
            }
        });
    }

    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
