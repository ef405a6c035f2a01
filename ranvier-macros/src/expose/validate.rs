//! Names are checked here, at compile time, with the error on the offending name: the exposed-name character
//! set and uniqueness within each kind (values, nodes). Whether a field can be read, encoded, dispatched to or
//! labelled is a type question, checked by the generated code with the field type's span.

use super::parse::App;
use crate::ctxt::Ctxt;
use crate::names::invalid_name_reason;
use proc_macro2::Span;
use std::collections::HashMap;

impl App {
    pub fn validate(&self, cx: &Ctxt) {
        check_kind(
            cx,
            "value",
            self.fields.iter().filter_map(|f| f.value.as_ref()),
        );
        check_kind(
            cx,
            "node",
            self.fields.iter().filter_map(|f| f.node.as_ref()),
        );
        check_one_message_source(cx, self);
    }
}

fn check_kind<'a>(cx: &Ctxt, kind: &str, names: impl Iterator<Item = &'a (String, Span)>) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for (name, span) in names {
        if let Some(reason) = invalid_name_reason(name) {
            cx.syn_error(syn::Error::new(
                *span,
                format!("invalid {kind} name: {reason}"),
            ));
        } else if seen.insert(name, *span).is_some() {
            cx.syn_error(syn::Error::new(
                *span,
                format!("duplicate {kind} name `{name}`: another field already uses it"),
            ));
        }
    }
}

/// Message names must be unique across sources; two `Mvu`s would each register a full set, and the exposure's
/// run-time check would reject the second whenever their enums share a name. One source keeps `dispatch` simple.
fn check_one_message_source(cx: &Ctxt, app: &App) {
    let mut sources = app.fields.iter().filter_map(|f| f.messages);
    let _first = sources.next();
    for extra in sources {
        cx.syn_error(syn::Error::new(
            extra,
            "only one field can be the message source (#[expose(messages)])",
        ));
    }
}
