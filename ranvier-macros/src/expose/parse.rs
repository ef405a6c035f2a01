//! The app struct and what each field asks for.

use crate::ctxt::Ctxt;
use crate::names::suggestion;
use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;

/// The struct `#[expose]` is on.
pub struct App {
    /// The struct with our field attributes removed, ready to re-emit.
    pub item: syn::ItemStruct,
    pub fields: Vec<ExposedField>,
}

/// One field carrying `#[expose]` and/or `#[node]`.
pub struct ExposedField {
    pub member: syn::Member,
    pub ty: syn::Type,
    /// `#[expose]` / `#[expose(name = "…")]` / `#[expose(value)]`: the value's name and where it came from.
    pub value: Option<(String, Span)>,
    /// `#[expose(messages)]`: where it was written.
    pub messages: Option<Span>,
    /// `#[node]`: the node's name (the field name) and where it came from.
    pub node: Option<(String, Span)>,
    /// `#[expose(redact)]` (`true`) or `#[expose(redact = false)]`: redact the value, or show it although its name
    /// looks like a secret's; where it was written.
    pub redact: Option<(bool, Span)>,
}

const EXPOSE_FIELD_ATTRS: &[&str] = &["name", "messages", "value", "redact"];

impl App {
    pub fn parse(cx: &Ctxt, args: TokenStream, item: TokenStream) -> Option<Self> {
        if !args.is_empty() {
            cx.error_spanned_by(
                &args,
                "#[expose] on the struct takes no arguments; put `#[expose(...)]` on the fields to expose",
            );
        }
        let mut item = match syn::parse2::<syn::Item>(item) {
            Ok(syn::Item::Struct(item)) => item,
            Ok(other) => {
                cx.error_spanned_by(
                    &other,
                    "#[expose] applies to the app struct (or, inside it, to the fields to expose)",
                );
                return None;
            }
            Err(err) => {
                cx.syn_error(err);
                return None;
            }
        };
        let mut fields = Vec::new();
        for (index, field) in item.fields.iter_mut().enumerate() {
            let member = match &field.ident {
                Some(ident) => syn::Member::Named(ident.clone()),
                None => syn::Member::Unnamed(syn::Index {
                    index: index as u32,
                    span: field.ty.span(),
                }),
            };
            let parsed = parse_field(cx, field, member);
            field
                .attrs
                .retain(|a| !a.path().is_ident("expose") && !a.path().is_ident("node"));
            fields.extend(parsed);
        }
        Some(App { item, fields })
    }
}

fn parse_field(cx: &Ctxt, field: &syn::Field, member: syn::Member) -> Option<ExposedField> {
    let field_name = field.ident.as_ref().map(|i| {
        let s = i.to_string();
        s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
    });
    let name_span = field
        .ident
        .as_ref()
        .map_or_else(|| field.ty.span(), |i| i.span());
    let mut value = None;
    let mut messages = None;
    let mut node = None;
    let mut redact: Option<(bool, Span)> = None;
    let mut seen_expose = false;

    for attr in &field.attrs {
        if attr.path().is_ident("node") {
            if node.is_some() {
                cx.error_spanned_by(attr, "duplicate #[node] on this field");
            }
            if !matches!(attr.meta, syn::Meta::Path(_)) {
                cx.error_spanned_by(
                    &attr.meta,
                    "#[node] on a field takes no arguments: the node is named after the field",
                );
            }
            node = Some((field_name.clone(), attr.span()));
        } else if attr.path().is_ident("expose") {
            if seen_expose {
                cx.error_spanned_by(
                    attr,
                    "duplicate #[expose] on this field; put every option in one #[expose(...)]",
                );
                continue;
            }
            seen_expose = true;
            if let syn::Meta::Path(path) = &attr.meta {
                // #[expose]
                value = Some((None, path.span()));
                continue;
            }
            let mut name: Option<syn::LitStr> = None;
            let mut want_value = None;
            let result = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("name") {
                    // #[expose(name = "cart.total")]
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    if name.replace(lit).is_some() {
                        cx.error_spanned_by(&meta.path, "duplicate expose attribute `name`");
                    }
                } else if meta.path.is_ident("messages") {
                    // #[expose(messages)]
                    if messages.replace(meta.path.span()).is_some() {
                        cx.error_spanned_by(&meta.path, "duplicate expose attribute `messages`");
                    }
                } else if meta.path.is_ident("redact") {
                    // #[expose(redact)], #[expose(redact = false)]
                    let on = crate::switch::parse(cx, &meta, "redact")?;
                    if redact.replace((on, meta.path.span())).is_some() {
                        cx.error_spanned_by(&meta.path, "duplicate expose attribute `redact`");
                    }
                } else if meta.path.is_ident("value") {
                    // #[expose(value)], beside `messages`: expose the model too
                    if want_value.replace(meta.path.span()).is_some() {
                        cx.error_spanned_by(&meta.path, "duplicate expose attribute `value`");
                    }
                } else {
                    let unknown = meta
                        .path
                        .get_ident()
                        .map(ToString::to_string)
                        .unwrap_or_default();
                    cx.error_spanned_by(
                        &meta.path,
                        format!(
                            "unknown expose field attribute `{unknown}`{}",
                            suggestion(&unknown, EXPOSE_FIELD_ATTRS)
                        ),
                    );
                    if meta.input.peek(syn::Token![=]) {
                        let _: syn::Expr = meta.value()?.parse()?;
                    }
                }
                Ok(())
            });
            if let Err(err) = result {
                cx.syn_error(err);
            }
            match (&name, want_value, messages) {
                (Some(lit), _, _) => value = Some((Some(lit.clone()), lit.span())),
                (None, Some(span), _) => value = Some((None, span)),
                (None, None, Some(_)) => {
                    if let Some((_, span)) = redact {
                        cx.syn_error(syn::Error::new(
                            span,
                            "`redact` applies to an exposed value, and this field only gives the messages: add \
                             `value` to expose the model too, or redact the message fields with `#[message(redact)]`",
                        ));
                    }
                }
                (None, None, None) => value = Some((None, attr.span())),
            }
        }
    }

    if value.is_none() && messages.is_none() && node.is_none() {
        return None;
    }
    let resolve = |explicit: Option<syn::LitStr>, span: Span| -> Option<(String, Span)> {
        match (explicit, &field_name) {
            (Some(lit), _) => Some((lit.value(), lit.span())),
            (None, Some(name)) => Some((name.clone(), name_span)),
            (None, None) => {
                cx.syn_error(syn::Error::new(
                    span,
                    "a tuple struct field needs a name: #[expose(name = \"...\")]",
                ));
                None
            }
        }
    };
    let value = value.and_then(|(explicit, span)| resolve(explicit, span));
    let node = match node {
        Some((Some(name), _)) => Some((name, name_span)),
        Some((None, span)) => {
            cx.syn_error(syn::Error::new(
                span,
                "#[node] needs a named field: the node is named after the field",
            ));
            None
        }
        None => None,
    };
    Some(ExposedField {
        member,
        ty: field.ty.clone(),
        value,
        messages,
        node,
        redact,
    })
}
