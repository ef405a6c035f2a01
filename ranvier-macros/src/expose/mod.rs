//! `#[expose]` on the app struct: fields marked `#[expose]`, `#[expose(messages)]` or `#[node]` are registered
//! with an `Exposure` by a generated `ranvier::Expose` impl.

mod expand;
mod parse;
mod validate;

use crate::ctxt::{Ctxt, with_errors};
use proc_macro2::TokenStream;

pub fn attribute(args: TokenStream, item: TokenStream) -> TokenStream {
    let ctxt = Ctxt::new();
    let parsed = parse::App::parse(&ctxt, args, item.clone());
    if let Some(app) = &parsed {
        app.validate(&ctxt);
    }
    match (ctxt.check(), parsed) {
        (Ok(()), Some(app)) => expand::expand(&app),
        (Err(err), Some(app)) => with_errors(expand::fallback(&app), err),
        (Err(err), None) => with_errors(item, err),
        (Ok(()), None) => unreachable!("parse reports an error whenever it returns None"),
    }
}
