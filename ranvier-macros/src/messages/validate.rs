//! Checks that need the whole IR: shapes of variants, names, ranges. Each rule is one function with the reason.

use super::parse::{Enum, Field, Style, Variant};
use crate::ctxt::Ctxt;
use crate::names::invalid_name_reason;
use std::collections::HashMap;

impl Enum<'_> {
    pub fn validate(&self, cx: &Ctxt) {
        check_generics(cx, self);
        check_message_names(cx, self);
        for variant in &self.variants {
            check_style(cx, variant);
            check_property_names(cx, variant);
            check_confirm(cx, variant);
            for field in &variant.fields {
                check_range(cx, field);
                check_redact(cx, variant, field);
            }
        }
    }
}

/// A `Messages` type is `'static` and its schemas are per type: generic message enums would need bounds on every
/// parameter for serde and schemars, which the derive cannot guess.
fn check_generics(cx: &Ctxt, input: &Enum) {
    let generics = &input.original.generics;
    if !generics.params.is_empty() {
        cx.error_spanned_by(
            generics,
            "#[derive(Messages)] does not support generic enums; use a concrete message type",
        );
    }
}

/// Wire names are what a client types: the exposed-name character set, and one variant per name (the reverse
/// direction, `to_wire`, must be unambiguous too, so skipped messages count).
fn check_message_names(cx: &Ctxt, input: &Enum) {
    let mut seen: HashMap<&str, &Variant> = HashMap::new();
    for variant in &input.variants {
        if let Some(reason) = invalid_name_reason(&variant.name) {
            cx.syn_error(syn::Error::new(
                variant.name_span,
                format!("invalid message name: {reason}"),
            ));
        }
        if let Some(first) = seen.get(variant.name.as_str()) {
            cx.syn_error(syn::Error::new(
                variant.name_span,
                format!(
                    "duplicate message name `{}`: variant `{}` already uses it",
                    variant.name, first.ident
                ),
            ));
        } else {
            seen.insert(&variant.name, variant);
        }
    }
}

/// The three ways a message carries arguments; anything else has no obvious JSON form.
fn check_style(cx: &Ctxt, variant: &Variant) {
    match variant.style {
        Style::Unsupported => cx.error_spanned_by(
            &variant.original.fields,
            format!(
                "unsupported message variant `{}` with {} unnamed fields: a message is a unit variant (no \
                 arguments), a struct variant (an object of its fields) or a tuple variant with exactly one field \
                 (that field's object)",
                variant.ident,
                variant.fields.len()
            ),
        ),
        Style::Newtype => {
            for field in &variant.fields {
                if let Some(rename) = &field.rename {
                    cx.error_spanned_by(
                        rename,
                        "`rename` applies to fields of struct variants; a single-field tuple variant takes its \
                         field's object as is",
                    );
                }
                if let Some(range) = &field.range {
                    cx.syn_error(syn::Error::new(
                        range.span,
                        "`range` applies to number fields of struct variants; a single-field tuple variant takes \
                         its field's object as is",
                    ));
                }
            }
        }
        Style::Unit | Style::Struct => {}
    }
}

/// Two fields renamed to one property would make the decoder ambiguous.
fn check_property_names(cx: &Ctxt, variant: &Variant) {
    if !matches!(variant.style, Style::Struct) {
        return;
    }
    let mut seen: HashMap<&str, &Field> = HashMap::new();
    for field in &variant.fields {
        let Some(name) = field.name.as_deref() else {
            continue;
        };
        if name.is_empty() {
            cx.syn_error(syn::Error::new(
                field.name_span,
                "a property name cannot be empty",
            ));
        } else if seen.insert(name, field).is_some() {
            cx.syn_error(syn::Error::new(
                field.name_span,
                format!("duplicate property `{name}` in message `{}`", variant.name),
            ));
        }
    }
}

/// The placeholders of a prompt template, `{name}` → `name` (`{{` and `}}` are literal braces), or the reason
/// the template is malformed.
fn placeholders(template: &str) -> Result<Vec<&str>, String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        let tail = &rest[at..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            rest = &tail[2..];
        } else if tail.starts_with('}') {
            return Err("a `}` closes no `{`; write `}}` for a literal brace".into());
        } else {
            let Some(end) = tail.find('}') else {
                return Err("a `{` is not closed; write `{{` for a literal brace".into());
            };
            names.push(&tail[1..end]);
            rest = &tail[end + 1..];
        }
    }
    Ok(names)
}

/// An approval prompt fills `{property}` from the message's arguments: each must name one, and a skipped message
/// is never dispatched, so it cannot need approval.
fn check_confirm(cx: &Ctxt, variant: &Variant) {
    let Some(template) = &variant.confirm else {
        return;
    };
    if variant.skip {
        cx.error_spanned_by(
            template,
            "`confirm` on a skipped message: it is never dispatched, so nothing would ask for approval",
        );
        return;
    }
    let value = template.value();
    if value.trim().is_empty() {
        cx.error_spanned_by(
            template,
            "`confirm` needs a prompt, such as \"Refund {amount}?\"",
        );
        return;
    }
    let names = match placeholders(&value) {
        Ok(names) => names,
        Err(reason) => {
            cx.error_spanned_by(template, format!("malformed `confirm` prompt: {reason}"));
            return;
        }
    };
    let properties: Vec<&str> = match variant.style {
        Style::Struct => variant
            .fields
            .iter()
            .filter_map(|f| f.name.as_deref())
            .collect(),
        Style::Unit => Vec::new(),
        // a single-field tuple variant's properties are its field type's, unknown here
        Style::Newtype | Style::Unsupported => return,
    };
    for name in names {
        if !properties.contains(&name) {
            let known = if properties.is_empty() {
                format!("message `{}` takes no arguments", variant.name)
            } else {
                let list: Vec<String> = properties.iter().map(|p| format!("`{{{p}}}`")).collect();
                format!("message `{}` has {}", variant.name, list.join(", "))
            };
            cx.error_spanned_by(
                template,
                format!("`confirm` prompt names `{{{name}}}`, which is not an argument: {known}"),
            );
        }
    }
}

/// A range needs at least one bound, and `min ≤ max`.
fn check_range(cx: &Ctxt, field: &Field) {
    let Some(range) = &field.range else { return };
    match (range.min, range.max) {
        (None, None) => cx.syn_error(syn::Error::new(
            range.span,
            "`range` needs `min`, `max` or both",
        )),
        (Some(min), Some(max)) if min > max => cx.syn_error(syn::Error::new(
            range.span,
            format!("empty range: `min` ({min}) is greater than `max` ({max})"),
        )),
        _ => {}
    }
}

/// `redact` names a property of the arguments: a newtype variant's field is the whole arguments object, which has no
/// name of its own to redact.
fn check_redact(cx: &Ctxt, variant: &Variant, field: &Field) {
    if let (Some((_, span)), Style::Newtype) = (field.redact, &variant.style) {
        cx.syn_error(syn::Error::new(
            span,
            format!(
                "`redact` applies to a named field of a struct variant; `{}` carries its arguments as one value: \
                 make it a struct variant (`{} {{ field: Type }}`) and put #[message(redact)] on the field",
                variant.ident, variant.ident
            ),
        ));
    }
}
