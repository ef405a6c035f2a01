//! `#[derive(Messages)]`: parse the enum into an IR, validate it, then expand to a `ranvier::Messages` impl.

mod expand;
mod parse;
mod validate;

use crate::ctxt::Ctxt;
use proc_macro2::TokenStream;

pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    let ctxt = Ctxt::new();
    let parsed = parse::Enum::from_ast(&ctxt, input);
    if let Some(parsed) = &parsed {
        parsed.validate(&ctxt);
    }
    match (ctxt.check(), parsed) {
        (Ok(()), Some(parsed)) => expand::expand(&parsed),
        (Err(err), _) => expand::fallback(input, err),
        (Ok(()), None) => unreachable!("from_ast reports an error whenever it returns None"),
    }
}
