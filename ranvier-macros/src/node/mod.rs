//! `#[node]` on a fn: every `let name = <expr>;` whose value is a node is labelled `name`.
//!
//! On a field of an `#[expose]` struct, `#[node]` is read by `#[expose]` instead (see `crate::expose`); reaching
//! this entry point means it was put on something else, which `validate` reports.

mod expand;
mod parse;
mod validate;

use crate::ctxt::{Ctxt, with_errors};
use proc_macro2::TokenStream;

pub fn attribute(args: TokenStream, item: TokenStream) -> TokenStream {
    let ctxt = Ctxt::new();
    let parsed = parse::NodeInput::parse(&ctxt, args, item.clone());
    if let Some(parsed) = &parsed {
        parsed.validate(&ctxt);
    }
    match (ctxt.check(), parsed) {
        (Ok(()), Some(parse::NodeInput::Fn(function))) => expand::expand(function),
        (Err(err), _) => with_errors(item, err),
        (Ok(()), _) => unreachable!("parse and validate report an error for anything but a fn"),
    }
}
