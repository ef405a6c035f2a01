//! Generates `impl ranvier::Expose`: one registration call per field, in field order.

use super::parse::App;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub fn expand(app: &App) -> TokenStream {
    let item = &app.item;
    let ident = &item.ident;
    let (impl_generics, ty_generics, where_clause) = item.generics.split_for_impl();
    let mut registrations = Vec::new();

    for field in &app.fields {
        let ty = &field.ty;
        let member = &field.member;
        // Spanned on the field type, with the type named in the turbofish: "cannot be exposed", "not
        // serializable", "not a message source" and "not a node" all point at the user's field.
        if let Some((name, _)) = &field.value {
            registrations.push(quote_spanned! {ty.span()=>
                ::ranvier::__private::expose_value::<#ty>(__exposure, #name, &self.#member)?;
            });
            match field.redact {
                Some((true, _)) => registrations.push(quote! { __exposure.redact(#name)?; }),
                Some((false, _)) => registrations.push(quote! { __exposure.reveal(#name)?; }),
                None => {}
            }
        }
        if field.messages.is_some() {
            registrations.push(quote_spanned! {ty.span()=>
                ::ranvier::__private::expose_messages::<#ty>(__exposure, &self.#member)?;
            });
            // a fork copies the model when it is `Send` (method resolution picks the registration)
            registrations.push(quote! {
                {
                    #[allow(unused_imports)]
                    use ::ranvier::__private::{ForkModelNotSend as _, ForkModelSend as _};
                    (&::ranvier::__private::ForkProbe(&self.#member)).fork_model(__exposure);
                }
            });
        }
        if let Some((name, _)) = &field.node {
            registrations.push(quote_spanned! {ty.span()=>
                ::ranvier::__private::expose_node::<#ty>(__exposure, #name, &self.#member)?;
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
                    ::ranvier::__private::crate_root(::ranvier::__private::env!("CARGO_MANIFEST_DIR"));
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
