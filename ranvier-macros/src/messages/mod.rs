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

#[cfg(test)]
mod tests {
    use quote::quote;

    fn expand(input: proc_macro2::TokenStream) -> String {
        super::derive(&syn::parse2(input).unwrap()).to_string()
    }

    #[test]
    fn expansion_is_a_wrapped_fully_qualified_impl() {
        let out = expand(quote! {
            #[message(rename_all = "camelCase")]
            enum Msg {
                AddItem { unit_price: i64, #[message(range(min = 1))] quantity: u32 },
                Clear,
            }
        });
        if std::env::var_os("RANVIER_PRINT_EXPANSION").is_some() {
            println!("{out}");
        }
        assert!(out.starts_with("# [doc (hidden)]"), "{out}");
        assert!(out.contains("const _ : () ="), "{out}");
        assert!(
            out.contains("# [automatically_derived] impl :: ranvier :: Messages for Msg"),
            "{out}"
        );
        assert!(out.contains("name : \"unitPrice\""), "{out}");
        assert!(
            out.contains("__object . get_ranged :: < u32 > (1usize , & __ADD_ITEM_QUANTITY) ?"),
            "{out}"
        );
        // each field type is named once, in its `Arg` const, so a missing derive is reported once (and a ranged
        // field's again, for its `Ranged` bound)
        assert!(
            out.contains(
                "const __ADD_ITEM_QUANTITY : :: ranvier :: __private :: Arg < u32 > = :: ranvier :: __private :: arg :: < u32 > () ;"
            ),
            "{out}"
        );
        assert_eq!(out.matches("< u32 >").count(), 3, "{out}");
        assert_eq!(out.matches("< i64 >").count(), 2, "{out}");
        assert!(
            out.contains(":: ranvier :: __private :: decoder (\"add_item\""),
            "{out}"
        );
    }

    #[test]
    fn the_arg_consts_are_unique_whatever_the_names() {
        // `AddItem { args }` would make `__ADD_ITEM_ARGS`, the table's name; `A { b_c }` and `AB { c }` both `__A_B_C`
        let out = expand(quote! {
            enum Msg {
                AddItem { args: u8 },
                A { b_c: u8 },
                AB { c: u8 },
                Set(u8),
            }
        });
        for name in [
            "const __ADD_ITEM_ARGS :",
            "const __ADD_ITEM_ARGS_0 :",
            "const __A_B_C :",
            "const __A_B_C_0 :",
            "const __SET_ARG :",
        ] {
            assert_eq!(out.matches(name).count(), 1, "{name} in {out}");
        }
    }

    #[test]
    fn errors_are_reported_together_with_a_stub_impl() {
        let out = expand(quote! {
            enum Msg {
                #[message(renam = "x")]
                One(u8, u8),
            }
        });
        assert!(out.contains("did you mean `rename`?"), "{out}");
        assert!(out.contains("unsupported message variant `One`"), "{out}");
        assert!(
            out.contains(":: ranvier :: __private :: unreachable ! ()"),
            "{out}"
        );
    }
}
