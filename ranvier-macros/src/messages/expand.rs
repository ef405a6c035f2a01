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

/// One `__private::Field { … }` table entry; `arg` names the field type's `__private::Arg` const.
fn field_entry(field: &Field, arg: &syn::Ident) -> TokenStream {
    let name = field.name.as_deref().unwrap_or_default();
    let description = option_str(field.doc.as_deref());
    let min = option_f64(field.range.as_ref().and_then(|r| r.min));
    let max = option_f64(field.range.as_ref().and_then(|r| r.max));
    quote! {
        ::ranvier::__private::Field {
            name: #name,
            description: #description,
            schema: #arg.schema,
            optional: #arg.optional,
            min: #min,
            max: #max,
        }
    }
}

/// `const __ADD_ITEM_QUANTITY: Arg<u32> = arg::<u32>();`: the one place the generated code names a field type's
/// `MessageArg` bound. The table, the decoder and `to_wire` reach the type's functions through this const, so a type
/// without the serde/schemars derives gives one error, spanned on the user's field type.
fn arg_const(field: &Field, ident: &syn::Ident) -> TokenStream {
    let ty = field.ty;
    let arg_ty = quote_spanned!(ty.span()=> ::ranvier::__private::Arg<#ty>);
    let arg = quote_spanned!(ty.span()=> ::ranvier::__private::arg::<#ty>());
    quote! {
        const #ident: #arg_ty = #arg;
    }
}

/// The names of the generated consts, unique within one expansion (a clash gets a numeric suffix).
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
}

impl Names {
    fn unique(&mut self, base: &str, index: usize) -> syn::Ident {
        let base = base.trim_start_matches("R#").to_owned();
        let mut name = format!("__{base}");
        if !self.taken.insert(name.clone()) {
            name = format!("__{base}_{index}");
            let mut n = 0;
            while !self.taken.insert(name.clone()) {
                n += 1;
                name = format!("__{base}_{index}_{n}");
            }
        }
        format_ident!("{}", name)
    }
}

fn screaming(ident: &syn::Ident) -> String {
    RenameRule::ScreamingSnake.apply_to_variant(&ident.to_string())
}

/// Names of the per-message argument tables, `__ADD_ITEM_ARGS`, and of each field's `Arg` const,
/// `__ADD_ITEM_QUANTITY` (`__SET_ARG` for a newtype variant's field), unique even for odd variant names.
fn const_idents(names: &mut Names, variants: &[Variant]) -> Vec<(syn::Ident, Vec<syn::Ident>)> {
    variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let variant = screaming(v.ident);
            let table = names.unique(&format!("{variant}_ARGS"), i);
            let args = v
                .fields
                .iter()
                .enumerate()
                .map(|(j, f)| {
                    let field = match &f.original.ident {
                        Some(ident) => {
                            screaming(&format_ident!("{}", syn::ext::IdentExt::unraw(ident)))
                        }
                        None => "ARG".to_owned(),
                    };
                    names.unique(&format!("{variant}_{field}"), j)
                })
                .collect();
            (table, args)
        })
        .collect()
}

pub fn expand(input: &Enum) -> TokenStream {
    let ident = input.ident;
    let message_ident = format_ident!("__{}_MESSAGES", screaming(ident));
    let mut names = Names::default();
    names.taken.insert(message_ident.to_string());
    let consts = const_idents(&mut names, &input.variants);

    let mut table_items = Vec::new();
    let mut messages = Vec::new();
    let mut decoders = Vec::new();
    let mut wire_arms = Vec::new();
    let mut confirms = Vec::new();

    for (variant, (table, arg_consts)) in input.variants.iter().zip(&consts) {
        let variant_ident = variant.ident;
        for (field, arg) in variant.fields.iter().zip(arg_consts) {
            table_items.push(arg_const(field, arg));
        }
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
                let arg = &arg_consts[0];
                (
                    quote!(::ranvier::__private::Args::Newtype(#arg.schema)),
                    quote!(::ranvier::__private::newtype(__args, &#arg).map(Self::#variant_ident)),
                    quote! {
                        Self::#variant_ident(__0) => ::ranvier::__private::wire(#name, #arg.encode(__0))
                    },
                )
            }
            Style::Struct => {
                let entries = variant
                    .fields
                    .iter()
                    .zip(arg_consts)
                    .map(|(field, arg)| field_entry(field, arg));
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
                let gets =
                    variant
                        .fields
                        .iter()
                        .zip(arg_consts)
                        .enumerate()
                        .map(|(i, (field, arg))| {
                            let ty = field.ty;
                            if field.range.is_some() {
                                // the `Ranged` bound, named here with the type, says when `range` is on a field
                                // that is no number
                                quote_spanned!(ty.span()=> __object.get_ranged::<#ty>(#i, &#arg)?)
                            } else {
                                quote!(__object.get(#i, &#arg)?)
                            }
                        });
                let props = variant.fields.iter().zip(arg_consts).zip(&bindings).map(
                    |((field, arg), binding)| {
                        let property = field.name.as_deref().unwrap_or_default();
                        quote!((#property, #arg.encode(#binding)))
                    },
                );
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
    let redactions: Vec<TokenStream> = input
        .variants
        .iter()
        .filter(|variant| !variant.skip)
        .filter_map(|variant| {
            let fields: Vec<TokenStream> = variant
                .fields
                .iter()
                .filter_map(|field| {
                    let (on, _) = field.redact?;
                    let name = field.name.as_deref()?;
                    Some(quote!((::ranvier::__private::String::from(#name), #on)))
                })
                .collect();
            if fields.is_empty() {
                return None;
            }
            let name = &variant.name;
            Some(quote! {
                (::ranvier::__private::String::from(#name), ::ranvier::__private::Vec::from([#(#fields),*]))
            })
        })
        .collect();
    let redactions_fn = if redactions.is_empty() {
        quote!()
    } else {
        quote! {
            fn redactions() -> ::ranvier::__private::Vec<(
                ::ranvier::__private::String,
                ::ranvier::__private::Vec<(::ranvier::__private::String, bool)>,
            )> {
                ::ranvier::__private::Vec::from([#(#redactions),*])
            }
        }
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

                #redactions_fn
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
