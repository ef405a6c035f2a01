//! Reading a switch in a nested attribute: `name` alone or `name = true` turns it on, `name = false` off (as
//! `#[expose(redact = false)]` and `#[message(redact)]` are written).

use crate::ctxt::Ctxt;
use syn::meta::ParseNestedMeta;

/// Reads the switch `meta` names: `true` for `name` or `name = true`, `false` for `name = false`. A value other than
/// a bool is reported to `cx` (naming the forms expected) and read as on.
pub fn parse(cx: &Ctxt, meta: &ParseNestedMeta, name: &str) -> syn::Result<bool> {
    if !meta.input.peek(syn::Token![=]) {
        return Ok(true);
    }
    match meta.value()?.parse::<syn::Lit>()? {
        syn::Lit::Bool(lit) => Ok(lit.value),
        other => {
            cx.error_spanned_by(
                &other,
                format!("expected `{name}`, `{name} = true` or `{name} = false`"),
            );
            Ok(true)
        }
    }
}
