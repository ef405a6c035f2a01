//! What `#[node]` was put on.

use crate::ctxt::Ctxt;
use proc_macro2::TokenStream;

pub enum NodeInput {
    /// A fn (free fn or method) whose `let` bindings get labelled.
    Fn(Box<syn::ItemFn>),
    /// Any other item; the tokens point at its keyword and name for the error.
    Other {
        what: &'static str,
        span_of: TokenStream,
    },
}

impl NodeInput {
    pub fn parse(cx: &Ctxt, args: TokenStream, item: TokenStream) -> Option<Self> {
        if !args.is_empty() {
            cx.error_spanned_by(
                &args,
                "#[node] takes no arguments: each binding is labelled with its own name",
            );
        }
        if let Ok(function) = syn::parse2::<syn::ItemFn>(item.clone()) {
            return Some(NodeInput::Fn(Box::new(function)));
        }
        match syn::parse2::<syn::Item>(item) {
            Ok(other) => Some(describe(other)),
            Err(err) => {
                cx.syn_error(err);
                None
            }
        }
    }
}

fn describe(item: syn::Item) -> NodeInput {
    use quote::quote;
    let (what, span_of) = match &item {
        syn::Item::Struct(i) => ("a struct", {
            let (k, n) = (&i.struct_token, &i.ident);
            quote!(#k #n)
        }),
        syn::Item::Enum(i) => ("an enum", {
            let (k, n) = (&i.enum_token, &i.ident);
            quote!(#k #n)
        }),
        syn::Item::Const(i) => ("a const", {
            let (k, n) = (&i.const_token, &i.ident);
            quote!(#k #n)
        }),
        syn::Item::Static(i) => ("a static", {
            let (k, n) = (&i.static_token, &i.ident);
            quote!(#k #n)
        }),
        syn::Item::Impl(i) => ("an impl block", {
            let k = &i.impl_token;
            quote!(#k)
        }),
        syn::Item::Mod(i) => ("a module", {
            let (k, n) = (&i.mod_token, &i.ident);
            quote!(#k #n)
        }),
        syn::Item::Trait(i) => ("a trait", {
            let (k, n) = (&i.trait_token, &i.ident);
            quote!(#k #n)
        }),
        syn::Item::Type(i) => ("a type alias", {
            let (k, n) = (&i.type_token, &i.ident);
            quote!(#k #n)
        }),
        other => ("this item", quote!(#other)),
    };
    NodeInput::Other { what, span_of }
}
