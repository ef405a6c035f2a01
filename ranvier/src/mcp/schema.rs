//! The tool definitions: input and output schemas, descriptions and annotations.
//!
//! Every schema here is valid for strict clients: the root is an object schema and no subschema is a boolean (the
//! TypeScript SDK rejects a whole tool list over one `true`), so message schemas from the app are cleaned first.

use std::sync::Arc;

use rmcp::model::{JsonObject, MetaObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use super::text;
use crate::exposure::schema::strict;

/// The tool names, in the order `tools/list` returns them.
pub(crate) const SNAPSHOT: &str = "snapshot";
/// See [`SNAPSHOT`].
pub(crate) const DISPATCH: &str = "dispatch";
/// See [`SNAPSHOT`].
pub(crate) const WAIT_VERSION: &str = "wait_version";
/// See [`SNAPSHOT`].
pub(crate) const DIFF: &str = "diff";
/// See [`SNAPSHOT`].
pub(crate) const ERRORS: &str = "errors";
use super::forks::{DROP_FORK, FORK};

/// What the tool definitions are built from.
pub(crate) struct ToolInputs<'a> {
    /// The exposed value names, in registration order.
    pub names: &'a [String],
    /// Each exposed message with its shape and argument schema, in registration order.
    pub messages: &'a [(String, Option<String>, Option<Value>)],
    /// Marks `dispatch` with `_meta["anthropic/alwaysLoad"] = true`.
    pub always_load: bool,
    /// The app can be forked: `dispatch` takes `dryRun`, and with `kept_forks` `fork` and `conversation`.
    pub forks: bool,
    /// Forks may be kept (at most one or more live at once): lists `fork` and `drop_fork`, and `fork` and
    /// `conversation` on `dispatch`, `snapshot` and `diff`.
    pub kept_forks: bool,
}

/// The tools the adapter lists: `snapshot`, `dispatch` (only when messages are exposed, and marked always-load
/// when asked), `wait_version`, `diff` and `errors`.
pub(crate) fn tools(inputs: &ToolInputs<'_>) -> Vec<Tool> {
    let output = Arc::new(object(state_output_schema(inputs.names)));
    let mut tools = vec![
        Tool::new(
            SNAPSHOT,
            text::SNAPSHOT_DESCRIPTION,
            Arc::new(object(with_fork(
                snapshot_input_schema(),
                inputs.forks && inputs.kept_forks,
            ))),
        )
        .with_title("Read the app's state")
        .with_raw_output_schema(output.clone())
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false)),
    ];
    if !inputs.messages.is_empty() {
        let shapes: Vec<(String, Option<String>)> = inputs
            .messages
            .iter()
            .map(|(name, shape, _)| (name.clone(), shape.clone()))
            .collect();
        let mut dispatch = Tool::new(
            DISPATCH,
            text::dispatch_description(&shapes),
            Arc::new(object(dispatch_with_forks(
                dispatch_input_schema(inputs.messages),
                inputs.forks,
                inputs.kept_forks,
            ))),
        )
        .with_title("Dispatch messages to the app")
        .with_annotations(
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(false)
                .open_world(false),
        );
        if inputs.always_load {
            dispatch = dispatch.with_meta(always_load_meta());
        }
        tools.push(dispatch);
    }
    tools.push(
        Tool::new(
            WAIT_VERSION,
            text::WAIT_VERSION_DESCRIPTION,
            Arc::new(object(wait_version_input_schema())),
        )
        .with_title("Wait for a state version")
        .with_raw_output_schema(output)
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false)),
    );
    tools.push(
        Tool::new(
            DIFF,
            text::DIFF_DESCRIPTION,
            Arc::new(object(diff_schema(inputs.forks && inputs.kept_forks))),
        )
        .with_title("Compare two state versions")
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false)),
    );
    tools.push(
        Tool::new(
            ERRORS,
            text::ERRORS_DESCRIPTION,
            Arc::new(object(errors_input_schema())),
        )
        .with_title("Read the app's errors")
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false)),
    );
    if inputs.forks && inputs.kept_forks {
        tools.push(
            Tool::new(
                FORK,
                text::FORK_DESCRIPTION,
                Arc::new(object(fork_input_schema())),
            )
            .with_title("Fork the app to try messages")
            .with_annotations(
                ToolAnnotations::new()
                    .read_only(false)
                    .destructive(false)
                    .idempotent(false)
                    .open_world(false),
            ),
        );
        tools.push(
            Tool::new(
                DROP_FORK,
                text::DROP_FORK_DESCRIPTION,
                Arc::new(object(drop_fork_input_schema())),
            )
            .with_title("Drop a fork")
            .with_annotations(
                ToolAnnotations::new()
                    .read_only(false)
                    .destructive(false)
                    .idempotent(true)
                    .open_world(false),
            ),
        );
    }
    tools
}

/// The `fork` property: a fork's id.
fn fork_property() -> Value {
    json!({
        "type": "string",
        "description": "A fork's id (the fork tool answers one): read or act on that fork instead of the live app."
    })
}

/// The `conversation` property: a conversation's id, with one fork each.
fn conversation_property() -> Value {
    json!({
        "type": "string",
        "minLength": 1,
        "maxLength": 128,
        "description": "A conversation's id: the conversation's fork (made on first use) instead of the live app."
    })
}

/// `schema` with the `fork` and `conversation` properties, when forks are kept.
fn with_fork(mut schema: Value, kept_forks: bool) -> Value {
    if kept_forks && let Some(properties) = schema["properties"].as_object_mut() {
        properties.insert("fork".into(), fork_property());
        properties.insert("conversation".into(), conversation_property());
    }
    schema
}

/// `dispatch`'s schema with `dryRun` (the app can be forked) and `fork` and `conversation` (forks are kept).
fn dispatch_with_forks(mut schema: Value, forks: bool, kept_forks: bool) -> Value {
    if !forks {
        return schema;
    }
    if let Some(properties) = schema["properties"].as_object_mut() {
        properties.insert(
            "dryRun".into(),
            json!({
                "type": "boolean",
                "description": "Try the messages on a fork of the app made for this call, answer the same step lines, then drop the fork: the live app is unchanged (default false)."
            }),
        );
    }
    with_fork(schema, kept_forks)
}

/// `diff`'s schema: `from` is required unless forks are kept (then `{fork}` compares a fork with the live app).
fn diff_schema(kept_forks: bool) -> Value {
    let mut schema = diff_input_schema();
    if kept_forks {
        if let Some(object) = schema.as_object_mut() {
            object.remove("required");
        }
        schema = with_fork(schema, true);
        schema["properties"]["fork"]["description"] = Value::from(
            "A fork's id: compare that fork now with the live app now, value by value (instead of from and to).",
        );
    }
    schema
}

/// The input schema of `fork`.
pub(crate) fn fork_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": { "conversation": conversation_property() }
    })
}

/// The input schema of `drop_fork`.
pub(crate) fn drop_fork_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": { "fork": fork_property(), "conversation": conversation_property() }
    })
}

fn always_load_meta() -> MetaObject {
    let mut meta = MetaObject::new();
    meta.insert("anthropic/alwaysLoad".into(), Value::Bool(true));
    meta
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// The output schema of `snapshot` and `wait_version`: the `ranvier://state` document.
pub(crate) fn state_output_schema(names: &[String]) -> Value {
    let properties: Map<String, Value> =
        names.iter().map(|name| (name.clone(), json!({}))).collect();
    json!({
        "type": "object",
        "properties": {
            "version": {
                "type": "integer",
                "minimum": 0,
                "description": "The state's version; each publication that changes a value adds one."
            },
            "values": {
                "type": "object",
                "description": "Every exposed value by name.",
                "properties": properties,
                "required": names,
            }
        },
        "required": ["version", "values"]
    })
}

/// The input schema of `dispatch`: `message` enumerates the names, `args` carries each message's schema.
pub(crate) fn dispatch_input_schema(messages: &[(String, Option<String>, Option<Value>)]) -> Value {
    let names: Vec<&str> = messages.iter().map(|(name, _, _)| name.as_str()).collect();
    let message = json!({"type": "string", "enum": names, "description": "The message's name."});
    let variants: Vec<Value> = messages
        .iter()
        .map(|(name, shape, schema)| {
            let mut variant = match schema {
                Some(schema) => {
                    let mut schema = schema.clone();
                    strict(&mut schema);
                    object(schema)
                }
                None => object(json!({"type": "object"})),
            };
            variant.insert("title".into(), Value::from(name.as_str()));
            let description = match shape {
                Some(shape) => format!("The arguments of {name}: {shape}"),
                None => format!("The arguments of {name}."),
            };
            variant
                .entry("description")
                .or_insert(Value::from(description));
            Value::Object(variant)
        })
        .collect();
    let args = json!({
        "description": "The message's arguments, a JSON object whose shape depends on the message (default {}).",
        "anyOf": variants,
    });
    json!({
        "type": "object",
        "properties": {
            "message": message,
            "args": args,
            "settle": {
                "type": "boolean",
                "description": "Wait until the async values the messages set off (flights) have settled, then answer \
                                with what they changed (default false; bounded by settleMs)."
            },
            "settleMs": {
                "type": "integer",
                "minimum": 0,
                "maximum": text::MAX_TIMEOUT_MS,
                "description": "With settle: how long to wait, in milliseconds (default 5000, at most 60000); the \
                                answer says what is still pending when it runs out. Implies settle."
            },
            "messages": {
                "type": "array",
                "minItems": 1,
                "description": "Several messages to dispatch in order, instead of `message` and `args`.",
                "items": {
                    "type": "object",
                    "properties": { "message": message, "args": args },
                    "required": ["message"]
                }
            }
        }
    })
}

/// The input schema of `snapshot`.
pub(crate) fn snapshot_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "version": {
                "type": "integer",
                "minimum": 0,
                "description": "An earlier version to read (default: the current one); the history keeps the newest ones."
            }
        }
    })
}

/// The input schema of `diff`.
pub(crate) fn diff_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "from": {
                "type": "integer",
                "minimum": 0,
                "description": "The older version."
            },
            "to": {
                "type": "integer",
                "minimum": 0,
                "description": "The newer version (default: the current one)."
            }
        },
        "required": ["from"]
    })
}

/// The input schema of `errors`.
pub(crate) fn errors_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "after": {
                "type": "integer",
                "minimum": 0,
                "description": "List only the errors numbered after this one (default: all kept)."
            }
        }
    })
}

/// The input schema of `wait_version`.
pub(crate) fn wait_version_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "version": {
                "type": "integer",
                "minimum": 0,
                "description": "The version to wait for; returns at once when the state is already at or past it."
            },
            "timeoutMs": {
                "type": "integer",
                "minimum": 0,
                "maximum": text::MAX_TIMEOUT_MS,
                "default": text::DEFAULT_TIMEOUT_MS,
                "description": "How long to wait, in milliseconds (default 5000, at most 60000)."
            }
        },
        "required": ["version"]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_subschemas_are_objects(value: &Value, path: &str) {
        // walks every value: a boolean under a schema keyword would show up as a non-object schema
        if let Value::Object(map) = value {
            for key in ["properties", "$defs", "patternProperties"] {
                if let Some(Value::Object(props)) = map.get(key) {
                    for (name, sub) in props {
                        assert!(sub.is_object(), "{path}.{key}.{name} is {sub}");
                        all_subschemas_are_objects(sub, &format!("{path}.{key}.{name}"));
                    }
                }
            }
            for key in ["items", "not", "if", "then", "else", "additionalProperties"] {
                if let Some(sub) = map.get(key) {
                    assert!(
                        sub.is_object()
                            || (key == "additionalProperties" && sub == &Value::Bool(false)),
                        "{path}.{key} is {sub}"
                    );
                    all_subschemas_are_objects(sub, &format!("{path}.{key}"));
                }
            }
            for key in ["anyOf", "oneOf", "allOf"] {
                if let Some(Value::Array(items)) = map.get(key) {
                    for (i, sub) in items.iter().enumerate() {
                        assert!(sub.is_object(), "{path}.{key}[{i}] is {sub}");
                        all_subschemas_are_objects(sub, &format!("{path}.{key}[{i}]"));
                    }
                }
            }
        }
    }

    fn messages() -> Vec<(String, Option<String>, Option<Value>)> {
        vec![
            (
                "set_discount".into(),
                Some("{percent: integer 0..=100}".into()),
                Some(
                    json!({"type": "object", "properties": {"percent": {"type": "integer"}, "extra": true}}),
                ),
            ),
            ("clear".into(), None, None),
        ]
    }

    #[test]
    fn dispatch_schema_enumerates_names_and_carries_each_argument_schema() {
        let schema = dispatch_input_schema(&messages());
        assert_eq!(schema["type"], "object");
        assert_eq!(
            schema["properties"]["message"]["enum"],
            json!(["set_discount", "clear"])
        );
        let variants = schema["properties"]["args"]["anyOf"].as_array().unwrap();
        assert_eq!(variants[0]["title"], "set_discount");
        assert_eq!(
            variants[0]["properties"]["percent"],
            json!({"type": "integer"})
        );
        assert_eq!(variants[0]["properties"]["extra"], json!({}));
        assert_eq!(variants[1]["title"], "clear");
        assert_eq!(
            schema["properties"]["messages"]["items"]["properties"]["message"]["enum"][1],
            "clear"
        );
        all_subschemas_are_objects(&schema, "$");
    }

    #[test]
    fn tools_are_listed_with_annotations_and_dispatch_only_with_messages() {
        let names = vec!["count".to_owned(), "total".to_owned()];
        let with = tools(&ToolInputs {
            names: &names,
            messages: &messages(),
            always_load: false,
            forks: false,
            kept_forks: false,
        });
        let listed: Vec<&str> = with.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(listed, [SNAPSHOT, DISPATCH, WAIT_VERSION, DIFF, ERRORS]);
        let annotations = |i: usize| with[i].annotations.clone().unwrap();
        assert_eq!(annotations(0).read_only_hint, Some(true));
        assert_eq!(annotations(1).read_only_hint, Some(false));
        assert_eq!(annotations(1).idempotent_hint, Some(false));
        assert_eq!(annotations(2).read_only_hint, Some(true));
        assert_eq!(annotations(3).read_only_hint, Some(true));
        assert_eq!(
            annotations(4).read_only_hint,
            Some(true),
            "errors only reads"
        );
        assert!(with[1].output_schema.is_none());
        assert!(with[0].output_schema.is_some() && with[2].output_schema.is_some());
        assert!(
            with[1]
                .description
                .as_deref()
                .unwrap()
                .contains("- set_discount {percent: integer 0..=100}")
        );
        for tool in &with {
            all_subschemas_are_objects(
                &Value::Object((*tool.input_schema).clone()),
                tool.name.as_ref(),
            );
            if let Some(output) = &tool.output_schema {
                all_subschemas_are_objects(&Value::Object((**output).clone()), tool.name.as_ref());
            }
            assert!(tool.meta.is_none());
        }
        let without = tools(&ToolInputs {
            names: &names,
            messages: &[],
            always_load: true,
            forks: false,
            kept_forks: false,
        });
        let listed: Vec<&str> = without.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(listed, [SNAPSHOT, WAIT_VERSION, DIFF, ERRORS]);
        assert!(without.iter().all(|tool| tool.meta.is_none()));
        let loaded = tools(&ToolInputs {
            names: &names,
            messages: &messages(),
            always_load: true,
            forks: false,
            kept_forks: false,
        });
        let marked: Vec<&str> = loaded
            .iter()
            .filter(|tool| {
                tool.meta
                    .as_ref()
                    .and_then(|meta| meta.get("anthropic/alwaysLoad"))
                    == Some(&Value::Bool(true))
            })
            .map(|tool| tool.name.as_ref())
            .collect();
        assert_eq!(marked, [DISPATCH]);
    }

    #[test]
    fn state_output_schema_requires_every_name() {
        let schema = state_output_schema(&["a".to_owned()]);
        assert_eq!(schema["properties"]["values"]["required"], json!(["a"]));
        assert_eq!(schema["required"], json!(["version", "values"]));
    }
}
