//! The derive's IR, read from the syn AST. Attribute parsers report into the [`Ctxt`] and never stop early, so
//! the user sees every bad attribute at once.

use crate::case::{RULE_NAMES, RenameRule};
use crate::ctxt::Ctxt;
use crate::names::{doc, suggestion};
use proc_macro2::Span;
use syn::spanned::Spanned;

/// The message enum.
pub struct Enum<'a> {
    pub original: &'a syn::DeriveInput,
    pub ident: &'a syn::Ident,
    pub variants: Vec<Variant<'a>>,
}

/// How a variant carries its arguments.
pub enum Style {
    /// `Clear`: no arguments.
    Unit,
    /// `AddItem { sku: String }`: an object of its fields.
    Struct,
    /// `SetDiscount(Discount)`: its field's own object.
    Newtype,
    /// Anything else; `validate` reports it.
    Unsupported,
}

/// One message.
pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    pub ident: &'a syn::Ident,
    pub style: Style,
    /// The wire name, after `rename` or the snake_case default.
    pub name: String,
    /// Where the name came from: the `rename` literal, else the variant ident.
    pub name_span: Span,
    pub skip: bool,
    /// `#[message(confirm = "Refund {amount}?")]`: the approval prompt template.
    pub confirm: Option<syn::LitStr>,
    pub doc: Option<String>,
    pub fields: Vec<Field<'a>>,
}

/// One argument.
pub struct Field<'a> {
    pub original: &'a syn::Field,
    pub ty: &'a syn::Type,
    /// The property name, after `rename`/`rename_all`; `None` for the tuple field of a newtype variant.
    pub name: Option<String>,
    pub name_span: Span,
    /// `rename` given on the field (only meaningful for struct variants).
    pub rename: Option<syn::LitStr>,
    pub range: Option<Range>,
    /// `#[message(redact)]` (`true`) or `#[message(redact = false)]`, and where it was written.
    pub redact: Option<(bool, Span)>,
    pub doc: Option<String>,
}

/// `#[message(range(min = …, max = …))]`.
pub struct Range {
    pub span: Span,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

const CONTAINER_ATTRS: &[&str] = &["rename_all"];
const VARIANT_ATTRS: &[&str] = &["rename", "rename_all", "skip", "confirm"];
const FIELD_ATTRS: &[&str] = &["rename", "range", "redact"];

/// A once-only attribute slot: a second `set` reports "duplicate message attribute".
struct Once<'c, T> {
    cx: &'c Ctxt,
    name: &'static str,
    value: Option<T>,
}

impl<'c, T> Once<'c, T> {
    fn new(cx: &'c Ctxt, name: &'static str) -> Self {
        Once {
            cx,
            name,
            value: None,
        }
    }

    fn set(&mut self, path: &syn::Path, value: T) {
        if self.value.is_some() {
            self.cx
                .error_spanned_by(path, format!("duplicate message attribute `{}`", self.name));
        } else {
            self.value = Some(value);
        }
    }
}

fn unknown(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
    level: &str,
    known: &[&str],
) -> syn::Result<()> {
    let name = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| "?".into());
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown message {level} attribute `{name}`{}",
            suggestion(&name, known)
        ),
    );
    // Skip the rest of this item (`= value` or `(...)`) so the next attribute still parses.
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|inner| {
            if inner.input.peek(syn::Token![=]) {
                let _: syn::Expr = inner.value()?.parse()?;
            }
            Ok(())
        });
    }
    Ok(())
}

fn rename_rule(cx: &Ctxt, meta: &syn::meta::ParseNestedMeta) -> syn::Result<Option<RenameRule>> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    let rule = RenameRule::from_str(&lit.value());
    if rule.is_none() {
        let list: Vec<String> = RULE_NAMES.iter().map(|n| format!("\"{n}\"")).collect();
        cx.error_spanned_by(
            &lit,
            format!(
                "unknown rename rule `{}`; expected one of {}",
                lit.value(),
                list.join(", ")
            ),
        );
    }
    Ok(rule)
}

/// Runs `f` over every `#[message(...)]` item of `attrs`, reporting parse errors into the context.
fn each_message_attr(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    mut f: impl FnMut(&syn::meta::ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("message")) {
        if let Err(err) = attr.parse_nested_meta(|meta| f(&meta)) {
            cx.syn_error(err);
        }
    }
}

impl<'a> Enum<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Self> {
        let syn::Data::Enum(data) = &input.data else {
            let keyword = match &input.data {
                syn::Data::Struct(s) => s.struct_token.span,
                syn::Data::Union(u) => u.union_token.span,
                syn::Data::Enum(_) => unreachable!(),
            };
            cx.syn_error(syn::Error::new(
                keyword,
                "#[derive(Messages)] applies to an enum: each variant is one message",
            ));
            return None;
        };

        // #[message(rename_all = "camelCase")]: the argument (field) names of every message.
        let mut rename_all = Once::new(cx, "rename_all");
        each_message_attr(cx, &input.attrs, |meta| {
            if meta.path.is_ident("rename_all") {
                if let Some(rule) = rename_rule(cx, meta)? {
                    rename_all.set(&meta.path, rule);
                }
                Ok(())
            } else {
                unknown(cx, meta, "enum", CONTAINER_ATTRS)
            }
        });
        let rename_all = rename_all.value;

        let variants = data
            .variants
            .iter()
            .map(|v| Variant::from_ast(cx, v, rename_all))
            .collect();
        Some(Enum {
            original: input,
            ident: &input.ident,
            variants,
        })
    }
}

impl<'a> Variant<'a> {
    fn from_ast(cx: &Ctxt, variant: &'a syn::Variant, container_rule: Option<RenameRule>) -> Self {
        let mut rename = Once::new(cx, "rename");
        let mut rename_all = Once::new(cx, "rename_all");
        let mut skip = Once::new(cx, "skip");
        let mut confirm = Once::new(cx, "confirm");
        each_message_attr(cx, &variant.attrs, |meta| {
            if meta.path.is_ident("rename") {
                // #[message(rename = "add")]
                let lit: syn::LitStr = meta.value()?.parse()?;
                rename.set(&meta.path, lit);
            } else if meta.path.is_ident("rename_all") {
                // #[message(rename_all = "camelCase")]: this message's argument names
                if let Some(rule) = rename_rule(cx, meta)? {
                    rename_all.set(&meta.path, rule);
                }
            } else if meta.path.is_ident("skip") {
                // #[message(skip)]
                skip.set(&meta.path, ());
            } else if meta.path.is_ident("confirm") {
                // #[message(confirm = "Refund {amount}?")]
                let lit: syn::LitStr = meta.value()?.parse()?;
                confirm.set(&meta.path, lit);
            } else {
                unknown(cx, meta, "variant", VARIANT_ATTRS)?;
            }
            Ok(())
        });

        let (name, name_span) = match &rename.value {
            Some(lit) => (lit.value(), lit.span()),
            None => (
                RenameRule::Snake.apply_to_variant(&variant.ident.to_string()),
                variant.ident.span(),
            ),
        };
        let style = match &variant.fields {
            syn::Fields::Unit => Style::Unit,
            syn::Fields::Named(_) => Style::Struct,
            syn::Fields::Unnamed(f) if f.unnamed.len() == 1 => Style::Newtype,
            syn::Fields::Unnamed(_) => Style::Unsupported,
        };
        let field_rule = rename_all.value.or(container_rule);
        let fields = variant
            .fields
            .iter()
            .map(|f| Field::from_ast(cx, f, field_rule))
            .collect();
        Variant {
            original: variant,
            ident: &variant.ident,
            style,
            name,
            name_span,
            skip: skip.value.is_some(),
            confirm: confirm.value,
            doc: doc(&variant.attrs),
            fields,
        }
    }
}

fn number(input: syn::parse::ParseStream) -> syn::Result<f64> {
    let negative = input.parse::<Option<syn::Token![-]>>()?.is_some();
    let lookahead = input.lookahead1();
    let value = if lookahead.peek(syn::LitInt) {
        input.parse::<syn::LitInt>()?.base10_parse::<i128>()? as f64
    } else if lookahead.peek(syn::LitFloat) {
        input.parse::<syn::LitFloat>()?.base10_parse::<f64>()?
    } else {
        return Err(lookahead.error());
    };
    Ok(if negative { -value } else { value })
}

impl<'a> Field<'a> {
    fn from_ast(cx: &Ctxt, field: &'a syn::Field, rule: Option<RenameRule>) -> Self {
        let mut rename = Once::new(cx, "rename");
        let mut range = Once::new(cx, "range");
        let mut redact = Once::new(cx, "redact");
        each_message_attr(cx, &field.attrs, |meta| {
            if meta.path.is_ident("redact") {
                // #[message(redact)], #[message(redact = false)]
                let on = crate::switch::parse(cx, meta, "redact")?;
                redact.set(&meta.path, (on, meta.path.span()));
            } else if meta.path.is_ident("rename") {
                // #[message(rename = "qty")]
                let lit: syn::LitStr = meta.value()?.parse()?;
                rename.set(&meta.path, lit);
            } else if meta.path.is_ident("range") {
                // #[message(range(min = 1, max = 100))]
                let mut bounds = Range {
                    span: meta.path.span(),
                    min: None,
                    max: None,
                };
                let mut min = Once::new(cx, "min");
                let mut max = Once::new(cx, "max");
                let empty = {
                    let fork = meta.input.fork();
                    let content;
                    syn::parenthesized!(content in fork);
                    content.is_empty()
                };
                if empty {
                    // `range()`: consume the parens; validate says what is missing.
                    let _content;
                    syn::parenthesized!(_content in meta.input);
                    range.set(&meta.path, bounds);
                    return Ok(());
                }
                meta.parse_nested_meta(|bound| {
                    if bound.path.is_ident("min") {
                        min.set(&bound.path, number(bound.value()?)?);
                    } else if bound.path.is_ident("max") {
                        max.set(&bound.path, number(bound.value()?)?);
                    } else {
                        unknown(cx, &bound, "range", &["min", "max"])?;
                    }
                    Ok(())
                })?;
                bounds.min = min.value;
                bounds.max = max.value;
                range.set(&meta.path, bounds);
            } else {
                unknown(cx, meta, "field", FIELD_ATTRS)?;
            }
            Ok(())
        });

        let (name, name_span) = match (&rename.value, &field.ident) {
            (Some(lit), _) => (Some(lit.value()), lit.span()),
            (None, Some(ident)) => {
                let raw = ident.to_string();
                let raw = raw.strip_prefix("r#").unwrap_or(&raw);
                (
                    Some(rule.map_or_else(|| raw.to_owned(), |r| r.apply_to_field(raw))),
                    ident.span(),
                )
            }
            (None, None) => (None, field.ty.span()),
        };
        Field {
            original: field,
            ty: &field.ty,
            name,
            name_span,
            rename: rename.value,
            range: range.value,
            redact: redact.value,
            doc: doc(&field.attrs),
        }
    }
}
