//! Rewrites `let name = expr;` to `let name = <label if node>(expr, "name");` throughout the fn body.
//!
//! Closures, async blocks and nested items are left alone: their bindings run later (often many times) and
//! usually clone handles that already have a name. A binding of a clone (`let source = sum.clone();`) is left alone
//! too: the clone is the same node, which keeps its name.
//!
//! Inside the closures of the body (the memos' and effects' bodies), each branch and each shadowing `let` gets a
//! record of what ran (`crate::ran`): traced builds record which branches a run took and what its shadowing `let`s
//! bound, and `explain` quotes them (`ran:`); an untraced build compiles them out.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};

pub fn expand(mut function: Box<syn::ItemFn>) -> TokenStream {
    // branches first: the labeller turns initializers into verbatim tokens, which a visitor does not enter
    let params = function.sig.inputs.iter().filter_map(|input| match input {
        syn::FnArg::Typed(t) => Some(&*t.pat),
        syn::FnArg::Receiver(_) => None,
    });
    // the closures' statements and branches, and the builder's own branches (which fn value it chose)
    crate::ran::Instrument::new(false, params)
        .with_branches_everywhere()
        .visit_block_mut(&mut function.block);
    Labeller.visit_block_mut(&mut function.block);
    // where the trace finds this crate's sources, whatever directory the program runs in
    let root: syn::Stmt = syn::parse_quote! {
        ::ranvier::__private::crate_root(::ranvier::__private::env!("CARGO_MANIFEST_DIR"));
    };
    function.block.stmts.insert(0, root);
    function.into_token_stream()
}

struct Labeller;

/// Initializers that can never be a node, or whose rewriting would change meaning (a `&temp` binding extends
/// the temporary's lifetime only as the direct initializer; a closure's parameter types are inferred from later
/// use).
fn never_a_node(expr: &syn::Expr) -> bool {
    matches!(
        expr,
        syn::Expr::Reference(_)
            | syn::Expr::Lit(_)
            | syn::Expr::Array(_)
            | syn::Expr::Tuple(_)
            | syn::Expr::Range(_)
            | syn::Expr::Closure(_)
            | syn::Expr::Async(_)
            | syn::Expr::Repeat(_)
    )
}

/// `x.clone()`, `Clone::clone(&x)` or `Rc::clone(&x)` (any path ending in `clone`, one argument): a clone of a
/// handle is the same node, which keeps the name it has (`let source = sum.clone();` must not rename `sum`).
fn is_a_clone(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::MethodCall(call) => call.method == "clone" && call.args.is_empty(),
        syn::Expr::Call(call) => {
            call.args.len() == 1
                && matches!(&*call.func, syn::Expr::Path(path)
                    if path.path.segments.last().is_some_and(|s| s.ident == "clone"))
        }
        syn::Expr::Paren(inner) => is_a_clone(&inner.expr),
        _ => false,
    }
}

impl VisitMut for Labeller {
    fn visit_local_mut(&mut self, local: &mut syn::Local) {
        visit_mut::visit_local_mut(self, local);
        let (ident, ty) = match &local.pat {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => (&p.ident, None),
            syn::Pat::Type(t) => match &*t.pat {
                syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                    (&p.ident, Some(&*t.ty))
                }
                _ => return,
            },
            _ => return,
        };
        let Some(init) = &mut local.init else { return };
        if init.diverge.is_some() || never_a_node(&init.expr) || is_a_clone(&init.expr) {
            return;
        }
        let name = ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name);
        let expr = &init.expr;
        // With an annotation, name the type so inference still flows into the initializer.
        let labeller = match ty {
            Some(ty) => quote!(::ranvier::__private::Labeller::<#ty>::new),
            None => quote!(::ranvier::__private::Labeller::new),
        };
        let labelled = quote_spanned! {expr.span()=>
            {
                #[allow(unused_imports)]
                use ::ranvier::__private::{LabelNode as _, LabelOther as _};
                (&&#labeller(#expr)).label(#name)
            }
        };
        *init.expr = syn::Expr::Verbatim(labelled);
    }

    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}

    fn visit_expr_async_mut(&mut self, _: &mut syn::ExprAsync) {}

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
