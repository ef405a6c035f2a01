//! `#[trace_fn]` on a fn (an `update`, a helper): traced builds record that it ran, which branches it took and what
//! its shadowing `let`s bound, in the memo or effect run, or the `update`, that called it.
//!
//! The records are `crate::ran`'s, put everywhere in the body (closures included), with one more at its start: the
//! line of its `fn`, so a call through a fn pointer or a trait object is resolved when it runs. An untraced build
//! compiles them all out. Anything but a fn, or arguments, is an error naming what it applies to.

use crate::ctxt::{Ctxt, with_errors};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::visit_mut::VisitMut;

pub fn attribute(args: TokenStream, item: TokenStream) -> TokenStream {
    let ctxt = Ctxt::new();
    if !args.is_empty() {
        ctxt.error_spanned_by(
            &args,
            "#[trace_fn] takes no arguments: it records every branch of the fn it is on",
        );
    }
    let function = match syn::parse2::<syn::ItemFn>(item.clone()) {
        Ok(function) => Some(function),
        Err(_) => {
            let what = match syn::parse2::<syn::Item>(item.clone()) {
                Ok(syn::Item::Struct(_)) => "a struct",
                Ok(syn::Item::Enum(_)) => "an enum",
                Ok(syn::Item::Impl(_)) => "an impl block (put it on each fn of the impl)",
                Ok(syn::Item::Mod(_)) => "a module (put it on each fn of the module)",
                Ok(syn::Item::Const(_) | syn::Item::Static(_)) => "a const or static",
                _ => "this item",
            };
            ctxt.error_spanned_by(
                &item,
                format!("#[trace_fn] cannot be used on {what}: it applies to a fn (an `update` or a helper)"),
            );
            None
        }
    };
    if let Some(function) = &function
        && let Some(constness) = &function.sig.constness
    {
        ctxt.error_spanned_by(
            constness,
            "#[trace_fn] cannot be used on a `const fn`: its records are calls at run time",
        );
    }
    match (ctxt.check(), function) {
        (Ok(()), Some(function)) => expand(function),
        (Err(err), _) => with_errors(item, err),
        (Ok(()), None) => unreachable!("an item that is not a fn is reported"),
    }
}

fn expand(mut function: syn::ItemFn) -> TokenStream {
    let params = function.sig.inputs.iter().filter_map(|input| match input {
        syn::FnArg::Typed(t) => Some(&*t.pat),
        syn::FnArg::Receiver(_) => None,
    });
    crate::ran::Instrument::new(true, params).visit_block_mut(&mut function.block);
    function
        .block
        .stmts
        .insert(0, crate::ran::record(function.sig.fn_token.span));
    let root: syn::Stmt = syn::parse_quote! {
        ::ranvier::__private::crate_root(::ranvier::__private::env!("CARGO_MANIFEST_DIR"));
    };
    function.block.stmts.insert(0, root);
    function.into_token_stream()
}
