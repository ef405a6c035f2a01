//! Generates `impl ranvier::Expose`: one registration call per field, in field order, preceded by type checks
//! spanned on each field's type so "cannot be exposed"/"not serializable" errors point at the user's field.

use super::parse::App;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub fn expand(app: &App) -> TokenStream {
    let item = &app.item;
    let ident = &item.ident;
    let (impl_generics, ty_generics, where_clause) = item.generics.split_for_impl();
    let mut checks = Vec::new();
    let mut registrations = Vec::new();

    for field in &app.fields {
        let ty = &field.ty;
        let member = &field.member;
        if let Some((name, _)) = &field.value {
            checks.push(quote_spanned!(ty.span()=> ::ranvier::__private::assert_exposable::<#ty>();));
            registrations.push(quote! {
                ::ranvier::__private::expose_value(__exposure, #name, &self.#member)?;
            });
        }
        if field.messages.is_some() {
            checks.push(quote_spanned!(ty.span()=> ::ranvier::__private::assert_message_source::<#ty>();));
            registrations.push(quote! {
                ::ranvier::__private::MessageSource::register(&self.#member, __exposure)?;
            });
        }
        if let Some((name, _)) = &field.node {
            checks.push(quote_spanned!(ty.span()=> ::ranvier::__private::assert_node::<#ty>();));
            registrations.push(quote! {
                ::ranvier::__private::expose_node(__exposure, #name, &self.#member)?;
            });
        }
    }

    quote! {
        #item

        #[doc(hidden)]
        #[allow(unused_qualifications, clippy::absolute_paths)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics ::ranvier::Expose for #ident #ty_generics #where_clause {
                fn expose(
                    &self,
                    __exposure: &mut ::ranvier::__private::Exposure,
                ) -> ::ranvier::__private::Result<(), ::ranvier::__private::ExposeError> {
                    #(#checks)*
                    #(#registrations)*
                    ::ranvier::__private::Ok(())
                }
            }
        };
    }
}

/// The struct (field attributes removed) and a stub impl, so the errors above stand alone.
pub fn fallback(app: &App) -> TokenStream {
    let item = &app.item;
    let ident = &item.ident;
    let (impl_generics, ty_generics, where_clause) = item.generics.split_for_impl();
    quote! {
        #item

        #[allow(unused_qualifications, clippy::absolute_paths)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics ::ranvier::Expose for #ident #ty_generics #where_clause {
                fn expose(
                    &self,
                    _: &mut ::ranvier::__private::Exposure,
                ) -> ::ranvier::__private::Result<(), ::ranvier::__private::ExposeError> {
                    ::ranvier::__private::unreachable!()
                }
            }
        };
    }
}
