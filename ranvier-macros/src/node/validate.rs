//! `#[node]` applies to fns only (fields are handled by `#[expose]`).

use super::parse::NodeInput;
use crate::ctxt::Ctxt;

impl NodeInput {
    pub fn validate(&self, cx: &Ctxt) {
        if let NodeInput::Other { what, span_of } = self {
            cx.error_spanned_by(
                span_of,
                format!(
                    "#[node] cannot be used on {what}: it applies to a fn that builds nodes (each `let` holding a \
                     node is labelled with its binding name) or to a `Signal`/`Memo`/`Effect`/`Mvu` field of an \
                     #[expose] struct"
                ),
            );
        }
    }
}
