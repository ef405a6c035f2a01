//! The macros' cases that must compile, and run: each `tests/pass/*.rs` is a module of this one binary (trybuild
//! would build them as a project of their own, with its own code-generated copy of every dependency).

#[path = "pass/expose.rs"]
mod expose;
#[path = "pass/messages.rs"]
mod messages;
// `let doubled = …; doubled` is the point: `#[node]` labels the node by its binding
#[allow(clippy::let_and_return)]
#[path = "pass/node.rs"]
mod node;
#[path = "pass/trace_fn.rs"]
mod trace_fn;

#[test]
fn expose_derives_for_every_field_kind() {
    expose::run();
}

#[test]
fn messages_decode_shape_and_encode() {
    messages::run();
}

#[test]
fn node_labels_a_fn_and_a_method() {
    node::run();
}

#[test]
fn trace_fn_keeps_a_fns_behaviour() {
    trace_fn::run();
}
