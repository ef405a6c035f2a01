//! Code generation: static tables describing each message, and a `Messages` impl that hands them to the
//! runtime helpers in `ranvier::__private` (decoding, schemas and shapes are ordinary library code).

use super::parse::{Enum, Field, Style, Variant};
use crate::case::RenameRule;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use std::collections::HashSet;
use syn::spanned::Spanned;

fn option_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(text) => quote!(::ranvier::__private::Some(#text)),
        None => quote!(::ranvier::__private::None),
    }
}

fn option_f64(value: Option<f64>) -> TokenStream {
    match value {
        Some(value) => {
            let lit = Literal::f64_suffixed(value);
            quote!(::ranvier::__private::Some(#lit))
        }
        None => quote!(::ranvier::__private::None),
    }
}

/// One `__private::Field { … }` table entry. Type-dependent paths carry the field type's span, so a missing
/// `Deserialize`/`JsonSchema` impl is reported on the user's field.
fn field_entry(field: &Field) -> TokenStream {
    let ty = field.ty;
    let name = field.name.as_deref().unwrap_or_default();
    let description = option_str(field.doc.as_deref());
    let min = option_f64(field.range.as_ref().and_then(|r| r.min));
    let max = option_f64(field.range.as_ref().and_then(|r| r.max));
    let schema = quote_spanned!(ty.span()=> ::ranvier::__private::schema_of::<#ty>);
    let optional = quote_spanned!(ty.span()=> ::ranvier::__private::accepts_null::<#ty>);
    quote! {
        ::ranvier::__private::Field {
            name: #name,
            description: #description,
            schema: #schema,
            optional: #optional,
            min: #min,
            max: #max,
        }
    }
}

/// Names of the per-message argument tables: `__ADD_ITEM_ARGS`, unique even for odd variant names.
fn table_idents(variants: &[Variant]) -> Vec<syn::Ident> {
    let mut taken = HashSet::new();
    variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let base = RenameRule::ScreamingSnake.apply_to_variant(&v.ident.to_string());
            let base = base.trim_start_matches("R#").to_owned();
            let name = if taken.insert(base.clone()) {
                base
            } else {
                format!("{base}_{i}")
            };
            format_ident!("__{}_ARGS", name)
        })
        .collect()
}

pub fn expand(input: &Enum) -> TokenStream {
    let ident = input.ident;
    let tables = table_idents(&input.variants);

    let mut table_items = Vec::new();
    let mut messages = Vec::new();
    let mut decoders = Vec::new();
    let mut wire_arms = Vec::new();
    let mut confirms = Vec::new();

    for (variant, table) in input.variants.iter().zip(&tables) {
        let variant_ident = variant.ident;
        let name = &variant.name;
        let description = option_str(variant.doc.as_deref());

        let (args, decode, arm) = match variant.style {
            Style::Unit => (
                quote!(::ranvier::__private::Args::Unit),
                quote! {{
                    ::ranvier::__private::object(__args, &[])?;
                    ::ranvier::__private::Ok(Self::#variant_ident)
                }},
                quote! {
                    Self::#variant_ident => ::ranvier::__private::wire(#name, ::ranvier::__private::args_object([]))
                },
            ),
            Style::Newtype => {
                let ty = variant.fields[0].ty;
                let schema = quote_spanned!(ty.span()=> ::ranvier::__private::schema_of::<#ty>);
                let newtype = quote_spanned!(ty.span()=> ::ranvier::__private::newtype::<#ty>);
                let to_json = quote_spanned!(ty.span()=> ::ranvier::__private::to_json::<#ty>);
                (
                    quote!(::ranvier::__private::Args::Newtype(#schema)),
                    quote!(#newtype(__args).map(Self::#variant_ident)),
                    quote! {
                        Self::#variant_ident(__0) => ::ranvier::__private::wire(#name, #to_json(__0))
                    },
                )
            }
            Style::Struct => {
                let entries = variant.fields.iter().map(field_entry);
                table_items.push(quote! {
                    const #table: &[::ranvier::__private::Field] = &[#(#entries),*];
                });
                let members: Vec<&syn::Ident> = variant
                    .fields
                    .iter()
                    .map(|f| f.original.ident.as_ref().expect("named field"))
                    .collect();
                let bindings: Vec<syn::Ident> = (0..members.len())
                    .map(|i| format_ident!("__{}", i))
                    .collect();
                let gets = variant.fields.iter().enumerate().map(|(i, field)| {
                    let ty = field.ty;
                    if field.range.is_some() {
                        quote_spanned!(ty.span()=> __object.get_ranged::<#ty>(#i)?)
                    } else {
                        quote_spanned!(ty.span()=> __object.get::<#ty>(#i)?)
                    }
                });
                let props = variant
                    .fields
                    .iter()
                    .zip(&bindings)
                    .map(|(field, binding)| {
                        let ty = field.ty;
                        let property = field.name.as_deref().unwrap_or_default();
                        let to_json =
                            quote_spanned!(ty.span()=> ::ranvier::__private::to_json::<#ty>);
                        quote!((#property, #to_json(#binding)))
                    });
                (
                    quote!(::ranvier::__private::Args::Fields(#table)),
                    quote! {{
                        let __object = ::ranvier::__private::object(__args, #table)?;
                        ::ranvier::__private::Ok(Self::#variant_ident { #(#members: #gets),* })
                    }},
                    quote! {
                        Self::#variant_ident { #(#members: #bindings),* } => ::ranvier::__private::wire(
                            #name,
                            ::ranvier::__private::args_object([#(#props),*]),
                        )
                    },
                )
            }
            Style::Unsupported => unreachable!("validate rejects unsupported variants"),
        };

        wire_arms.push(arm);
        if let (false, Some(template)) = (variant.skip, &variant.confirm) {
            confirms.push(quote! {
                (::ranvier::__private::String::from(#name), ::ranvier::__private::String::from(#template))
            });
        }
        if !variant.skip {
            messages.push(quote! {
                ::ranvier::__private::Message { name: #name, description: #description, args: #args }
            });
            decoders.push(quote! {
                ::ranvier::__private::decoder(#name, |__args| #decode)
            });
        }
    }

    let to_wire_body = if wire_arms.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#wire_arms,)* })
    };
    let confirms_fn = if confirms.is_empty() {
        quote!()
    } else {
        quote! {
            fn confirms() -> ::ranvier::__private::Vec<(::ranvier::__private::String, ::ranvier::__private::String)> {
                ::ranvier::__private::Vec::from([#(#confirms),*])
            }
        }
    };
    let message_ident = format_ident!(
        "__{}_MESSAGES",
        RenameRule::ScreamingSnake.apply_to_variant(&ident.to_string())
    );

    quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, clippy::absolute_paths)]
        const _: () = {
            #(#table_items)*

            const #message_ident: &[::ranvier::__private::Message] = &[#(#messages),*];

            #[automatically_derived]
            impl ::ranvier::Messages for #ident {
                fn decoders() -> ::ranvier::__private::Vec<(
                    ::ranvier::__private::String,
                    ::ranvier::__private::Decoder<Self>,
                )> {
                    ::ranvier::__private::Vec::from([#(#decoders),*])
                }

                fn shapes() -> ::ranvier::__private::Vec<(::ranvier::__private::String, ::ranvier::__private::String)> {
                    ::ranvier::__private::shapes(#message_ident)
                }

                fn schemas() -> ::ranvier::__private::Vec<(::ranvier::__private::String, ::ranvier::__private::Json)> {
                    ::ranvier::__private::schemas(#message_ident)
                }

                fn to_wire(&self) -> (::ranvier::__private::String, ::ranvier::__private::Json) {
                    #to_wire_body
                }

                #confirms_fn
            }
        };
    }
}

/// The errors plus a stub impl, so code using the enum as `Messages` reports nothing further (as thiserror does).
pub fn fallback(input: &syn::DeriveInput, err: syn::Error) -> TokenStream {
    let errors = err.into_compile_error();
    if !input.generics.params.is_empty() {
        return errors;
    }
    let ident = &input.ident;
    quote! {
        #errors
        #[allow(unused_qualifications, clippy::absolute_paths)]
        const _: () = {
            #[automatically_derived]
            impl ::ranvier::Messages for #ident {
                fn decoders() -> ::ranvier::__private::Vec<(
                    ::ranvier::__private::String,
                    ::ranvier::__private::Decoder<Self>,
                )> {
                    ::ranvier::__private::unreachable!()
                }
                fn shapes() -> ::ranvier::__private::Vec<(::ranvier::__private::String, ::ranvier::__private::String)> {
                    ::ranvier::__private::unreachable!()
                }
                fn schemas() -> ::ranvier::__private::Vec<(::ranvier::__private::String, ::ranvier::__private::Json)> {
                    ::ranvier::__private::unreachable!()
                }
                fn to_wire(&self) -> (::ranvier::__private::String, ::ranvier::__private::Json) {
                    ::ranvier::__private::unreachable!()
                }
            }
        };
    }
}
