//! The error sink every stage writes into, so the user sees all bad attributes at once.

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::cell::RefCell;
use std::fmt::Display;

/// Collects errors; [`Ctxt::check`] folds them into one `syn::Error` with `combine`.
///
/// Dropping a `Ctxt` without calling `check` is a bug in this crate and panics (at expansion time, never in the
/// user's program), like serde_derive's context.
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Reports `msg` spanning the tokens of `obj`.
    pub fn error_spanned_by(&self, obj: impl ToTokens, msg: impl Display) {
        self.syn_error(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// Reports a ready-made error.
    pub fn syn_error(&self, err: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(err);
    }

    /// All errors reported so far, combined, or `Ok`.
    pub fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

/// The original item followed by the errors, so a failing attribute macro still defines the item (IDEs and
/// follow-on errors stay sane).
pub fn with_errors(item: TokenStream, err: syn::Error) -> TokenStream {
    let mut tokens = item;
    tokens.extend(err.into_compile_error());
    tokens
}
