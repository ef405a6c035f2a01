//! Derive and attribute macros for [ranvier](https://docs.rs/ranvier): registration at compile time.
//!
//! Use them through the `ranvier` crate (`ranvier::Messages`, `ranvier::expose`, `ranvier::node`,
//! `ranvier::trace_fn`); the generated
//! code refers to `::ranvier::__private` and nothing else.
//!
//! Each macro lives in its own module, split in three stages: `parse` (syn AST → IR, attribute errors collected,
//! never early-returned), `validate` (rules that need the whole IR), `expand` (code generation). All errors of a
//! stage are reported together with `syn::Error::combine`; a failing macro still emits the item (and a stub impl)
//! so follow-on errors stay quiet.

mod case;
mod ctxt;
mod expose;
mod messages;
mod names;
mod node;
mod ran;
mod switch;
mod trace_fn;

use proc_macro::TokenStream;

/// Implements `ranvier::Messages` for an app's message enum: one message per variant.
///
/// ## Usage
///
/// | attribute | on | effect |
/// |---|---|---|
/// | `#[message(rename_all = "camelCase")]` | enum | renames every message's arguments (fields) |
/// | `#[message(rename = "add")]` | variant | the message's wire name (default: the variant in snake_case) |
/// | `#[message(rename_all = "…")]` | variant | renames this message's arguments |
/// | `#[message(skip)]` | variant | not exposed (no decoder, shape or schema); still has a wire form |
/// | `#[message(confirm = "Refund {amount}?")]` | variant | needs a person's approval; `{property}` names an argument |
/// | `#[message(rename = "qty")]` | field | the argument's property name |
/// | `#[message(range(min = 1, max = 100))]` | number field | bounds checked by the decoder, in the schema |
///
/// A unit variant takes no arguments, a struct variant an object of its fields, a single-field tuple variant its
/// field's own object. Field types implement `serde::Serialize`, `serde::Deserialize` and
/// `schemars::JsonSchema`; doc comments become schema descriptions.
#[proc_macro_derive(Messages, attributes(message))]
pub fn derive_messages(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    messages::derive(&input).into()
}

/// On the app struct: implements `ranvier::Expose`, registering its marked fields with an `Exposure`.
///
/// ## Usage
///
/// | field attribute | field type | registers |
/// |---|---|---|
/// | `#[expose]` | `Signal<T>`, `Memo<T>`, `Mvu<Model, Msg>` with `T`/`Model: Serialize` | the value, named after the field |
/// | `#[expose(name = "cart.total")]` | same | the value under that name |
/// | `#[expose(messages)]` | `Mvu<Model, Msg>` with `Msg: Messages` | the messages (add `value` to expose the model too) |
/// | `#[node]` | `Signal`, `Memo`, `Effect` | the node for the trace tools, labelled with the field name |
///
/// Names use `[A-Za-z0-9_.~-]` and are unique within their kind; both are checked at compile time.
#[proc_macro_attribute]
pub fn expose(args: TokenStream, item: TokenStream) -> TokenStream {
    expose::attribute(args.into(), item.into()).into()
}

/// On a fn that builds nodes: each `let name = …;` holding a `Signal`, `Memo` or `Effect` is labelled `name`.
///
/// Other bindings pass through untouched (the choice is made by the type checker, not by the macro). Closures,
/// async blocks and nested items are not rewritten, nor is a binding of a clone (`let source = sum.clone();`,
/// `Rc::clone(&x)`): a clone is the same node and keeps its name.
///
/// On a fn, `#[node]` only names nodes (in the trace's text); on a field of an `#[expose]` struct it also registers
/// the field's node with the exposure under the field's name, which is what lets an agent ask `explain` and `node`
/// about it (see [`macro@expose`]).
#[proc_macro_attribute]
pub fn node(args: TokenStream, item: TokenStream) -> TokenStream {
    node::attribute(args.into(), item.into()).into()
}

/// On an `update` fn or a helper: traced builds record that it ran, which branches it took (`match` arms, `if` and
/// `else` blocks, a `let .. else`'s `else`), the value each shadowing `let` bound (`Debug` text, bounded) and each
/// `unwrap_or` (`unwrap_or_default`, `unwrap_or_else`) that gave its default, so `explain` quotes what ran (`ran:`)
/// even when the call went through a fn pointer or another module.
///
/// The records go to the memo or effect whose run called the fn, or to the message whose `update` called it. An
/// untraced build holds none of this code. Put it on every helper of a module (or none): it marks code worth
/// explaining, not code suspected of a mistake. It takes no arguments and goes on fns only (not `const fn`).
#[proc_macro_attribute]
pub fn trace_fn(args: TokenStream, item: TokenStream) -> TokenStream {
    trace_fn::attribute(args.into(), item.into()).into()
}
