//! JSON Schema as the exposure describes it: the one-line shape of a schema (`{sku: string, quantity: integer ≥ 1}`),
//! what a value must be to match it, in words, and the one cleaner that makes a schema acceptable to strict clients.
//!
//! `#[derive(Messages)]` builds its shapes, decode errors and schemas with these: the description of a derived message
//! ([`Message`], its [`Args`] and [`Field`]s, the static tables its generated code holds, which the generated code
//! names through `crate::__private`'s re-exports) and its schema and shape are at the end of this file; and the MCP adapter
//! cleans every message schema it lists with [`strict`], so a schema reads and validates the same wherever it is
//! shown.

use std::fmt::Write as _;

use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};

/// The part of `schema` that is not `null`: `integer` for `integer | null`, the one other option of an `anyOf`.
pub(crate) fn without_null(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types[0].clone();
            schema["type"] = only;
        }
    } else if let Some(Value::Array(options)) = schema.get("anyOf").cloned() {
        let rest: Vec<Value> = options
            .into_iter()
            .filter(|o| o.get("type") != Some(&Value::from("null")))
            .collect();
        if rest.len() == 1 {
            return rest[0].clone();
        }
        schema["anyOf"] = Value::Array(rest);
    }
    schema
}

fn type_word(t: &str) -> &str {
    match t {
        "string" | "integer" | "number" | "boolean" | "null" | "object" | "array" => t,
        _ => "any",
    }
}

/// The one-line shape of a type's schema: `string`, `integer | null`, `{a: string}`, `string[]`, `"x" | "y"`.
pub(crate) fn shape_of(schema: &Value) -> String {
    let Some(object) = schema.as_object() else {
        return if schema == &Value::Bool(false) {
            "never".into()
        } else {
            "any".into()
        };
    };
    if let Some(Value::Array(values)) = object.get("enum") {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
    }
    if let Some(value) = object.get("const") {
        return value.to_string();
    }
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = object.get(key) {
            return options.iter().map(shape_of).collect::<Vec<_>>().join(" | ");
        }
    }
    match object.get("type") {
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .map(type_word)
            .collect::<Vec<_>>()
            .join(" | "),
        Some(Value::String(t)) if t == "array" => match object.get("items") {
            Some(items) => {
                let inner = shape_of(items);
                if inner.contains(' ') && !inner.starts_with('{') {
                    format!("({inner})[]")
                } else {
                    format!("{inner}[]")
                }
            }
            None => "any[]".into(),
        },
        Some(Value::String(t)) if t == "object" => {
            let required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            match object.get("properties").and_then(Value::as_object) {
                Some(properties) if !properties.is_empty() => {
                    let parts: Vec<String> = properties
                        .iter()
                        .map(|(name, property)| {
                            if required.contains(&name.as_str()) {
                                format!("{name}: {}", shape_of(property))
                            } else {
                                format!("{name}?: {}", shape_of(&without_null(property)))
                            }
                        })
                        .collect();
                    format!("{{{}}}", parts.join(", "))
                }
                _ => match object.get("additionalProperties") {
                    Some(values @ Value::Object(_)) => {
                        format!("{{[key: string]: {}}}", shape_of(values))
                    }
                    _ => "{}".into(),
                },
            }
        }
        Some(Value::String(t)) => type_word(t).to_owned(),
        _ => "any".into(),
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// What a value must be to match `schema`, in words: "an integer ≥ 1", "a string or null", "one of \"a\", \"b\"".
pub(crate) fn describe(schema: &Value) -> String {
    let Some(object) = schema.as_object() else {
        return "any value".into();
    };
    if let Some(Value::Array(values)) = object.get("enum") {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        return format!("one of {}", values.join(", "));
    }
    if let Some(value) = object.get("const") {
        return value.to_string();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = object.get(key) {
            return options
                .iter()
                .map(describe)
                .collect::<Vec<_>>()
                .join(" or ");
        }
    }
    let mut text = match object.get("type") {
        Some(Value::String(t)) if t == "null" => "null".to_owned(),
        Some(Value::String(t)) if t == "object" => format!("an object {}", shape_of(schema)),
        Some(Value::String(t)) if t == "array" => format!("an array {}", shape_of(schema)),
        Some(Value::String(t)) => format!("{} {}", article(t), type_word(t)),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .map(|t| {
                if t == "null" {
                    "null".to_owned()
                } else {
                    format!("{} {}", article(t), type_word(t))
                }
            })
            .collect::<Vec<_>>()
            .join(" or "),
        _ => match object.get("$ref").and_then(Value::as_str) {
            Some(reference) => format!("a `{}`", reference.rsplit('/').next().unwrap_or(reference)),
            None => "any value".into(),
        },
    };
    let bounds = [
        ("minimum", "≥"),
        ("exclusiveMinimum", ">"),
        ("maximum", "≤"),
        ("exclusiveMaximum", "<"),
    ];
    if let (Some(min), Some(max)) = (
        object.get("minimum").filter(|b| b.is_number()),
        object.get("maximum").filter(|b| b.is_number()),
    ) {
        let _ = write!(text, " between {min} and {max}");
        return text;
    }
    let mut first = true;
    for (key, sign) in bounds {
        if let Some(bound) = object.get(key).filter(|b| b.is_number()) {
            let _ = write!(text, "{} {sign} {bound}", if first { "" } else { " and" });
            first = false;
        }
    }
    text
}

/// Keywords whose value is one subschema.
const SUBSCHEMA: [&str; 11] = [
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];
/// Keywords whose value is an array of subschemas.
const SUBSCHEMA_LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const SUBSCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// Makes `schema` acceptable to strict clients, which reject boolean subschemas (the TypeScript SDK refuses a whole
/// tool list over one `true`): every `true` becomes `{}` and every `false` `{"not": {}}`, both with the same
/// meaning. `additionalProperties: false` stays, as the spelling strict clients ask for.
pub(crate) fn strict(schema: &mut Value) {
    let object = match schema {
        Value::Bool(true) => {
            *schema = Value::Object(Map::new());
            return;
        }
        Value::Bool(false) => {
            *schema = serde_json::json!({"not": {}});
            return;
        }
        Value::Object(object) => object,
        _ => return,
    };
    for (key, value) in object.iter_mut() {
        let key = key.as_str();
        if key == "additionalProperties" && *value == Value::Bool(false) {
            continue;
        }
        if SUBSCHEMA.contains(&key) {
            strict(value);
        } else if SUBSCHEMA_LISTS.contains(&key) {
            match value {
                Value::Array(list) => list.iter_mut().for_each(strict),
                other => strict(other),
            }
        } else if SUBSCHEMA_MAPS.contains(&key)
            && let Value::Object(map) = value
        {
            map.values_mut().for_each(strict);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// The schemas and shapes of derived messages: the tables `#[derive(Messages)]` writes (named by the generated code
// through `crate::__private`'s re-exports)
// ---------------------------------------------------------------------------------------------------------------

/// Builds the schema of one field type; a fn pointer so the tables below can be `const`.
pub type SchemaFn = fn(&mut SchemaGenerator) -> schemars::Schema;

/// One argument of a struct-like message, as the derive saw it.
pub struct Field {
    /// The property name on the wire (after `rename`/`rename_all`).
    pub name: &'static str,
    /// The field's doc comment.
    pub description: Option<&'static str>,
    /// The field type's schema.
    pub schema: SchemaFn,
    /// Whether the property may be left out (its type accepts `null`).
    pub optional: fn() -> bool,
    /// `#[message(range(min = …))]`.
    pub min: Option<f64>,
    /// `#[message(range(max = …))]`.
    pub max: Option<f64>,
}

/// The arguments a message takes.
pub enum Args {
    /// A unit variant: no arguments (`{}` or `null`).
    Unit,
    /// A struct variant: an object of these properties.
    Fields(&'static [Field]),
    /// A single-field tuple variant: the field's own object.
    Newtype(SchemaFn),
}

/// One exposed message, as the derive saw it.
pub struct Message {
    /// The wire name.
    pub name: &'static str,
    /// The variant's doc comment.
    pub description: Option<&'static str>,
    /// Its arguments.
    pub args: Args,
}

/// The shapes of `messages`, for `Messages::shapes`.
pub fn shapes(messages: &[Message]) -> Vec<(String, String)> {
    messages
        .iter()
        .map(|m| (m.name.to_owned(), m.shape()))
        .collect()
}

/// The schemas of `messages`, for `Messages::schemas`.
pub fn schemas(messages: &[Message]) -> Vec<(String, Value)> {
    messages
        .iter()
        .map(|m| (m.name.to_owned(), m.schema()))
        .collect()
}

pub(crate) fn generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator()
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

pub(crate) fn field_schema(field: &Field, generator: &mut SchemaGenerator) -> Value {
    let mut schema = (field.schema)(generator).to_value();
    if let Value::Object(object) = &mut schema {
        if let Some(min) = field.min {
            let tighter = object
                .get("minimum")
                .and_then(Value::as_f64)
                .is_none_or(|old| old < min);
            if tighter {
                object.insert("minimum".into(), number(min));
            }
        }
        if let Some(max) = field.max {
            let tighter = object
                .get("maximum")
                .and_then(Value::as_f64)
                .is_none_or(|old| old > max);
            if tighter {
                object.insert("maximum".into(), number(max));
            }
        }
        if let Some(description) = field.description {
            object
                .entry("description")
                .or_insert_with(|| description.into());
        }
    }
    schema
}

impl Message {
    /// The JSON Schema of this message's arguments: an object schema, strict-client friendly.
    pub fn schema(&self) -> Value {
        let mut generator = generator();
        let mut schema = match &self.args {
            Args::Unit => {
                serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false})
            }
            Args::Fields(fields) => {
                let mut properties = Map::new();
                let mut required = Vec::new();
                for field in fields.iter() {
                    properties.insert(field.name.into(), field_schema(field, &mut generator));
                    if !(field.optional)() {
                        required.push(Value::from(field.name));
                    }
                }
                serde_json::json!({
                    "type": "object",
                    "properties": properties,
                    "required": required,
                    "additionalProperties": false,
                })
            }
            Args::Newtype(schema) => schema(&mut generator).to_value(),
        };
        if let Value::Object(object) = &mut schema {
            if let Some(description) = self.description {
                object
                    .entry("description")
                    .or_insert_with(|| description.into());
            }
            let definitions = generator.take_definitions(true);
            if !definitions.is_empty() {
                object.insert("$defs".into(), Value::Object(definitions));
            }
        }
        strict(&mut schema);
        schema
    }

    /// The one-line shape of this message's arguments, properties in declaration order.
    pub fn shape(&self) -> String {
        match &self.args {
            Args::Unit => "{}".into(),
            Args::Fields(fields) => {
                let mut generator = generator();
                let parts: Vec<String> = fields
                    .iter()
                    .map(|field| {
                        let schema = field_schema(field, &mut generator);
                        if (field.optional)() {
                            let shape = shape_of(&without_null(&schema));
                            format!("{}?: {shape}{}", field.name, range_suffix(field))
                        } else {
                            format!(
                                "{}: {}{}",
                                field.name,
                                shape_of(&schema),
                                range_suffix(field)
                            )
                        }
                    })
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
            Args::Newtype(schema) => shape_of(&schema(&mut generator()).to_value()),
        }
    }
}

/// The bounds of a field's `range(min, max)` as its shape shows them: ` 0..=100`, ` ≥ 1`, ` ≤ 100` (empty without).
fn range_suffix(field: &Field) -> String {
    let show = |x: f64| number(x).to_string();
    match (field.min, field.max) {
        (Some(min), Some(max)) => format!(" {}..={}", show(min), show(max)),
        (Some(min), None) => format!(" ≥ {}", show(min)),
        (None, Some(max)) => format!(" ≤ {}", show(max)),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strict_replaces_boolean_subschemas_everywhere_but_additional_properties_false() {
        let mut schema = json!({
            "type": "object",
            "properties": {"state": true, "never": false, "list": {"type": "array", "items": true}},
            "anyOf": [true, {"$defs": {"x": true}}],
            "additionalItems": false,
            "not": {"additionalProperties": true},
            "additionalProperties": false
        });
        strict(&mut schema);
        assert_eq!(schema["properties"]["state"], json!({}));
        assert_eq!(schema["properties"]["never"], json!({"not": {}}));
        assert_eq!(schema["properties"]["list"]["items"], json!({}));
        assert_eq!(schema["anyOf"][0], json!({}));
        assert_eq!(schema["anyOf"][1]["$defs"]["x"], json!({}));
        assert_eq!(schema["additionalItems"], json!({"not": {}}));
        assert_eq!(schema["not"]["additionalProperties"], json!({}));
        assert_eq!(schema["additionalProperties"], json!(false));
        let once = schema.clone();
        strict(&mut schema);
        assert_eq!(schema, once, "cleaning a clean schema changes nothing");
    }

    #[test]
    fn a_boolean_root_becomes_an_object_schema() {
        let (mut yes, mut no) = (json!(true), json!(false));
        strict(&mut yes);
        strict(&mut no);
        assert_eq!((yes, no), (json!({}), json!({"not": {}})));
    }

    #[test]
    fn shapes_and_descriptions() {
        let quantity = json!({"type": "integer", "minimum": 1});
        assert_eq!(shape_of(&quantity), "integer");
        assert_eq!(describe(&quantity), "an integer ≥ 1");
        let maybe = json!({"type": ["string", "null"]});
        assert_eq!(shape_of(&maybe), "string | null");
        assert_eq!(shape_of(&without_null(&maybe)), "string");
        assert_eq!(describe(&json!({"enum": ["a", "b"]})), r#"one of "a", "b""#);
        assert_eq!(
            shape_of(&json!({"type": "array", "items": {"type": "boolean"}})),
            "boolean[]"
        );
    }
}
