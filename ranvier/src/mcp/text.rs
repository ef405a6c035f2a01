//! Every text an agent reads from the MCP adapter: step lines, state lines, documents, rejections, descriptions.
//!
//! Keeping them in one module makes the formats easy to find, test and keep consistent. Nothing here touches the
//! graph or rmcp; every function takes plain data and returns a `String`.

mod diff;

use std::fmt::Write as _;

use serde_json::Value;

use crate::exposure::approval::interrupt_line;
use crate::exposure::{Interrupt, Snapshot, Step};

/// The URI of the whole-state resource.
pub(crate) const STATE_URI: &str = "ranvier://state";
/// The prefix of a one-value resource; the value's name follows it.
pub(crate) const VALUE_URI_PREFIX: &str = "ranvier://state/";
/// The URI template of the one-value resources.
pub(crate) const VALUE_URI_TEMPLATE: &str = "ranvier://state/{name}";

/// The URI of the errors resource.
pub(crate) const ERRORS_URI: &str = "ranvier://errors";

/// The default `timeoutMs` of `wait_version`.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 5_000;
/// The largest `timeoutMs` of `wait_version`; larger values are clamped to it.
pub(crate) const MAX_TIMEOUT_MS: u64 = 60_000;

/// JSON in its compact form, as every format here prints values and arguments.
///
/// Strings inside are escaped to stay on one line, control characters included (see `crate::escape`): arguments
/// a client sent are echoed to other clients in step lines.
pub(crate) fn compact(value: &Value) -> String {
    crate::escape::json(value)
}

/// `text` as a JSON string: quoted, with quotes, backslashes and control characters escaped, so a name a client
/// sent cannot break the sentence it is echoed in.
pub(crate) fn quoted(text: &str) -> String {
    crate::escape::quote(text)
}

/// The URI of the one-value resource for `name`.
pub(crate) fn value_uri(name: &str) -> String {
    format!("{VALUE_URI_PREFIX}{name}")
}

/// One dispatch step: `2 set_discount {"percent":10} → v3: discount 0→10, total 500→450`.
///
/// `changes` holds each changed value as `(name, old, new)`, in registration order; with none the line ends
/// `→ v3: no exposed value changed`. A structured value (an object or array before and after) lists the paths that
/// changed inside it instead, capped: `2 done {"index":0} → v2: todos.items[0].done false→true, left 1→0`.
pub(crate) fn step_line(
    position: usize,
    name: &str,
    args: &Value,
    version: u64,
    changes: &[(String, Value, Value)],
) -> String {
    let mut line = format!("{position} {name} {} → v{version}: ", compact(args));
    if changes.is_empty() {
        line.push_str("no exposed value changed");
    }
    write_changes(&mut line, changes);
    line
}

/// The changes of a step line, `, `-separated: `name old→new` or, for a structured value, its changed paths.
fn write_changes(out: &mut String, changes: &[(String, Value, Value)]) {
    for (index, (changed, old, new)) in changes.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        diff::write_change(out, changed, old, new, |value| shown(value, false));
    }
}

/// A value in a step or state line: compact JSON, except an edit state or a boundary's fallback or recovered value,
/// which read as the value with a note (`"ab" (dirty)`, `0 (waiting)`, `-1 (caught: "why")`, see
/// `diff::annotated`), and a pending async value (`{"pending": true}`, with or
/// without `"last"`, the encoding of [`AsyncState`](crate::AsyncState)), which reads `(pending)` in a step line
/// (`shipping 400→(pending)`, `(pending)→450`) and `(pending, last 400)` in a state line.
fn shown(value: &Value, with_last: bool) -> String {
    if let Some((inner, note)) = diff::annotated(value) {
        return format!("{}{note}", shown(inner, with_last));
    }
    if let Value::Object(map) = value
        && map.get("pending") == Some(&Value::Bool(true))
        && map.keys().all(|key| key == "pending" || key == "last")
    {
        return match map.get("last") {
            Some(last) if with_last => format!("(pending, last {})", compact(last)),
            _ => "(pending)".to_owned(),
        };
    }
    compact(value)
}

/// A dispatch that waited for its flights (`settle`): its text, then `settled → v5: shipping (pending)→450` (or
/// `settled: no exposed value changed`), or, when the bound ran out, what is still pending.
pub(crate) fn settled_text(
    dispatched: &str,
    version: u64,
    changes: &[(String, Value, Value)],
    timeout: std::time::Duration,
    pending: &[String],
) -> String {
    let mut text = dispatched.to_owned();
    if pending.is_empty() {
        let _ = write!(text, "\nsettled → v{version}: ");
    } else {
        let _ = write!(
            text,
            "\nnot settled after {} ms: {} flight(s) still pending:",
            timeout.as_millis(),
            pending.len()
        );
        for line in pending {
            let _ = write!(text, "\n  {line}");
        }
        let _ = write!(text, "\nmeanwhile → v{version}: ");
    }
    if changes.is_empty() {
        text.push_str("no exposed value changed");
    }
    write_changes(&mut text, changes);
    text
}

/// `settle` was not a boolean.
pub(crate) fn bad_settle(value: &Value) -> String {
    format!(
        "`settle` must be true or false (wait for the flights the messages start), got {}",
        compact(value)
    )
}

/// `settleMs` was not a whole number of milliseconds.
pub(crate) fn bad_settle_ms(value: &Value) -> String {
    format!(
        "`settleMs` must be a whole number of milliseconds (0 to {MAX_TIMEOUT_MS}), got {}",
        compact(value)
    )
}

/// The most row keys the state line names for one collection; the rest are counted.
const STATE_KEYS_MAX: usize = 8;

/// The line every `dispatch` answer ends with: each exposed value at one version, in the order given, `v3: count=2,
/// subtotal=500, discount=10, total=450, lines=[apple, pear]`. A collection (an array of rows that each carry a
/// `"key"`) shows its keys, at most eight of them and then how many more: its rows are in the snapshot, and the step
/// lines name the rows that changed. Shell tools (`ranvier-mcp`) print the same line.
///
/// # Examples
///
/// ```
/// use serde_json::json;
///
/// let values = [
///     ("total".to_owned(), json!(450)),
///     ("lines".to_owned(), json!([{"key": "apple", "qty": 3}, {"key": "pear", "qty": 1}])),
/// ];
/// assert_eq!(ranvier::mcp::state_line(3, &values), "v3: total=450, lines=[apple, pear]");
/// ```
pub fn state_line(version: u64, values: &[(String, Value)]) -> String {
    let mut line = format!("v{version}:");
    for (index, (name, value)) in values.iter().enumerate() {
        line.push_str(if index == 0 { " " } else { ", " });
        match value
            .as_array()
            .and_then(|rows| crate::exposure::rows::row_keys(rows))
        {
            Some(keys) if !keys.is_empty() => {
                let _ = write!(line, "{name}=[");
                for (at, key) in keys.iter().take(STATE_KEYS_MAX).enumerate() {
                    line.push_str(if at == 0 { "" } else { ", " });
                    line.push_str(&diff::key_text(key));
                }
                if keys.len() > STATE_KEYS_MAX {
                    let _ = write!(line, ", +{} more", keys.len() - STATE_KEYS_MAX);
                }
                line.push(']');
            }
            _ => {
                let _ = write!(line, "{name}={}", shown(value, true));
            }
        }
    }
    line
}

/// The `ranvier://state` document, `{"version": n, "values": {name: value}}`, as a JSON value.
pub(crate) fn state_document(version: u64, values: &[(String, Value)]) -> Value {
    let values = values
        .iter()
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    serde_json::json!({ "version": version, "values": Value::Object(values) })
}

/// The `ranvier://state` document as compact text, its values in registration order.
pub(crate) fn state_document_text(version: u64, values: &[(String, Value)]) -> String {
    let mut text = format!("{{\"version\":{version},\"values\":{{");
    for (index, (name, value)) in values.iter().enumerate() {
        if index > 0 {
            text.push(',');
        }
        let _ = write!(
            text,
            "{}:{}",
            compact(&Value::from(name.as_str())),
            compact(value)
        );
    }
    text.push_str("}}");
    text
}

/// The `ranvier://state/{name}` document, `{"version": n, "value": v}`, as compact text.
pub(crate) fn value_document_text(version: u64, value: &Value) -> String {
    format!("{{\"version\":{version},\"value\":{}}}", compact(value))
}

/// The known message names, as a rejection lists them (the exposure's wording, so both read the same).
fn known(names: &[String]) -> String {
    crate::exposure::known_messages(names)
}

/// The call has neither `message` nor `messages`.
pub(crate) fn missing_message(names: &[String]) -> String {
    format!(
        "missing \"message\": pass {{\"message\": name, \"args\": {{...}}}} or {{\"messages\": [{{\"message\": name, \
         \"args\": {{...}}}}, ...]}}; {}",
        known(names)
    )
}

/// `message` is present but not a string.
pub(crate) fn non_string_message(got: &Value, names: &[String]) -> String {
    format!(
        "\"message\" must be a string naming a message, got {}; {}",
        compact(got),
        known(names)
    )
}

/// The call has both `message` and `messages`.
pub(crate) fn both_message_forms() -> String {
    "pass either \"message\" (with \"args\") or \"messages\", not both".to_owned()
}

/// A message object has a property other than `message` and `args`.
pub(crate) fn unknown_message_property(name: &str) -> String {
    format!(
        "unknown property {}; a message is {{\"message\": name, \"args\": {{...}}}}",
        quoted(name)
    )
}

/// A call with `messages` has another property.
pub(crate) fn unknown_sequence_property(name: &str) -> String {
    format!(
        "unknown property {} beside \"messages\"; pass {{\"messages\": [{{\"message\": name, \"args\": \
         {{...}}}}, ...]}} alone (each entry carries its own \"args\")",
        quoted(name)
    )
}

/// `messages` is not a non-empty array.
pub(crate) fn bad_messages(got: &Value) -> String {
    format!(
        "\"messages\" must be a non-empty array of {{\"message\": name, \"args\": {{...}}}}, got {}",
        compact(got)
    )
}

/// An entry of `messages` is not an object.
pub(crate) fn bad_entry(got: &Value) -> String {
    format!(
        "each entry of \"messages\" must be an object {{\"message\": name, \"args\": {{...}}}}, got {}",
        compact(got)
    )
}

/// The host or graph is gone, so nothing can be dispatched or read.
pub(crate) use crate::exposure::host_gone;

/// A sequence stopped at `position` (1-based) of `total` messages (when known); `steps` are the lines of the
/// messages that stay dispatched, `state` the state line after them.
pub(crate) fn sequence_stopped(
    position: usize,
    total: Option<usize>,
    reason: &str,
    steps: &[String],
    state: &str,
) -> String {
    let mut text = String::new();
    for step in steps {
        text.push_str(step);
        text.push('\n');
    }
    let _ = write!(text, "stopped at message {position}");
    if let Some(total) = total {
        let _ = write!(text, " of {total}");
    }
    let _ = write!(text, ": {reason}");
    if position > 1 {
        let _ = write!(
            text,
            "\nmessages 1 to {} stay dispatched; later messages were not dispatched",
            position - 1
        );
    } else {
        text.push_str("\nno message was dispatched");
    }
    text.push('\n');
    text.push_str(state);
    text
}

/// The whole text of a successful `dispatch`: one line per step, then the state line.
pub(crate) fn dispatch_result(steps: &[String], state: &str) -> String {
    let mut text = String::new();
    for step in steps {
        text.push_str(step);
        text.push('\n');
    }
    text.push_str(state);
    text
}

/// `version` is missing or not a non-negative integer.
pub(crate) fn bad_version(got: Option<&Value>) -> String {
    match got {
        None => {
            "missing \"version\": pass the version to wait for, a non-negative integer".to_owned()
        }
        Some(got) => format!(
            "\"version\" must be a non-negative integer, got {}",
            compact(got)
        ),
    }
}

/// `wait_version` got a property it does not take.
pub(crate) fn unknown_wait_property(name: &str) -> String {
    format!(
        "unknown property {}; wait_version takes \"version\" (a non-negative integer) and \"timeoutMs\" (0 to \
         {MAX_TIMEOUT_MS}, default {DEFAULT_TIMEOUT_MS})",
        quoted(name)
    )
}

/// `timeoutMs` is negative.
pub(crate) fn negative_timeout(got: &Value) -> String {
    format!(
        "\"timeoutMs\" must not be negative, got {}; pass 0 to {MAX_TIMEOUT_MS} (default {DEFAULT_TIMEOUT_MS})",
        compact(got)
    )
}

/// `timeoutMs` is not an integer.
pub(crate) fn bad_timeout(got: &Value) -> String {
    format!(
        "\"timeoutMs\" must be an integer number of milliseconds, got {}; pass 0 to {MAX_TIMEOUT_MS} (default \
         {DEFAULT_TIMEOUT_MS})",
        compact(got)
    )
}

/// `snapshot` or `diff` got a property it does not take.
pub(crate) fn unknown_history_property(tool: &str, name: &str, takes: &str) -> String {
    format!("unknown property {}; {tool} takes {takes}", quoted(name))
}

/// A version argument of `snapshot` or `diff` that is not a non-negative integer.
pub(crate) fn bad_version_argument(property: &str, got: &Value) -> String {
    format!(
        "{} must be a non-negative integer (a state version), got {}",
        quoted(property),
        compact(got)
    )
}

/// `diff`: what changed from `from` to `to`, in step-line form, then how many earlier messages are left out and the
/// newest messages that made the versions in between (`messages` holds `(version, name, args, sender)`).
pub(crate) fn diff_text(
    from: u64,
    to: u64,
    changes: &[(String, Value, Value)],
    earlier: usize,
    messages: &[(u64, String, Value, String)],
) -> String {
    let mut text = format!("v{from}→v{to}: ");
    if changes.is_empty() {
        text.push_str("no exposed value changed");
    }
    write_changes(&mut text, changes);
    let text = crate::text::clip(&text, DIFF_CHARS_MAX);
    let mut text = text.into_owned();
    if earlier > 0 {
        let _ = write!(text, "\n… {earlier} earlier messages");
    }
    for (version, name, args, sender) in messages {
        let _ = write!(
            text,
            "\nv{version} {name} {} by {}",
            compact(args),
            quoted(sender)
        );
    }
    text
}

/// The changes between two states in the words of a step line (`total 450→900, count 2→4`), or `no exposed value
/// differs`, clipped to [`DIFF_CHARS_MAX`] characters.
pub(crate) fn changes_text(changes: &[(String, Value, Value)]) -> String {
    if changes.is_empty() {
        return "no exposed value differs".to_owned();
    }
    let mut text = String::new();
    write_changes(&mut text, changes);
    crate::text::clip(&text, DIFF_CHARS_MAX).into_owned()
}

/// The `fork` tool's description.
pub(crate) const FORK_DESCRIPTION: &str = "Make a sandbox copy of the running app at its current state, to try \
messages before sending them to the live app. Answers the fork's id: dispatch {fork: id, ...} runs messages there \
(same step lines), snapshot {fork: id} reads it, diff {fork: id} compares it with the live app, drop_fork drops \
it. Nothing done on a fork reaches the live app, its journal, its approvals or its subscribers. conversation: \
\"...\" keeps one fork per conversation. For a single try, dispatch {dryRun: true, ...} forks, runs, answers and \
drops in one call.";

/// The `drop_fork` tool's description.
pub(crate) const DROP_FORK_DESCRIPTION: &str = "Drop a fork made by the fork tool (or a conversation's fork). \
Forks are also dropped when idle for a while and when the session that made them ends.";

/// How many characters of changes a `diff` answer holds.
pub(crate) const DIFF_CHARS_MAX: usize = 2_000;

/// How many of the messages between two versions a `diff` answer lists (the newest).
pub(crate) const DIFF_MESSAGES_MAX: usize = 10;

/// `wait_version` timed out.
pub(crate) fn wait_timeout(version: u64, timeout_ms: u64, current: u64) -> String {
    format!(
        "timed out after {timeout_ms} ms waiting for version {version}; the current version is {current}. Call \
         wait_version again to keep waiting, or dispatch a message that changes an exposed value"
    )
}

/// A tool name the adapter does not serve.
pub(crate) fn unknown_tool(name: &str, tools: &[&str]) -> String {
    format!("unknown tool {}; tools: {}", quoted(name), tools.join(", "))
}

/// A resource URI the adapter does not serve.
pub(crate) fn unknown_resource(uri: &str, names: &[String]) -> String {
    format!(
        "unknown resource {}; {}",
        quoted(uri),
        resources_list(names)
    )
}

/// The resources the adapter serves, as a rejection lists them.
pub(crate) fn resources_list(names: &[String]) -> String {
    format!(
        "resources: {STATE_URI} and {VALUE_URI_TEMPLATE} with name one of: {}",
        names.join(", ")
    )
}

/// The params of a request of `method` do not read: `reason` names what is wrong, `expected` the shape.
pub(crate) fn bad_params(method: &str, reason: &str, expected: &str) -> String {
    format!("invalid params of {method}: {reason}; expected {expected}")
}

/// A notification was sent as a request (with an `id`).
pub(crate) fn notification_with_id(method: &str) -> String {
    format!(
        "\"{method}\" is a notification: send it without an \"id\" (a request with an id expects an answer)"
    )
}

/// How many characters of a value a client sent a line error echoes, `…` included when it is cut.
const ECHO_MAX_CHARS: usize = 40;

/// A value a client sent, in compact JSON (a string quoted and escaped), cut to [`ECHO_MAX_CHARS`] characters (a
/// string's before it is quoted).
pub(crate) fn glimpse(value: &Value) -> String {
    match value {
        Value::String(text) => quoted(&crate::text::clip(text, ECHO_MAX_CHARS)),
        other => crate::text::clip(&compact(other), ECHO_MAX_CHARS).into_owned(),
    }
}

/// The `message` of a stdio line that does not read as JSON (-32700), from serde's `reason`.
pub(crate) fn not_json(reason: &str) -> String {
    if reason.starts_with("recursion limit exceeded") {
        format!("Parse error: JSON nested too deep: {reason}")
    } else if reason.starts_with("number out of range") {
        format!("Parse error: a number past the range of f64: {reason}")
    } else {
        format!("Parse error: not JSON: {reason}")
    }
}

/// The `message` of a stdio line that is not UTF-8 (-32700): `at` is the offset of the first bad byte in the line.
pub(crate) fn invalid_utf8(at: usize) -> String {
    format!("Parse error: invalid UTF-8 at byte {at}")
}

/// The `message` of a stdio line of `bytes` bytes, past the `limit` (-32700).
pub(crate) fn line_too_long(bytes: usize, limit: usize) -> String {
    format!("Parse error: line of {bytes} bytes is past the {limit}-byte limit")
}

/// The `message` of a stdio line that is JSON but not one JSON-RPC message (-32600); `reason` is one of the texts
/// below, or serde's.
pub(crate) fn not_a_message(reason: &str) -> String {
    format!("Invalid request: {reason}")
}

/// A JSON array: a JSON-RPC batch, which MCP does not take.
pub(crate) const BATCH: &str = "a batch (JSON array) is not supported; send one message per line";

/// JSON that is neither an object nor an array.
pub(crate) fn not_an_object(got: &Value) -> String {
    format!("a message must be a JSON object, got {}", glimpse(got))
}

/// An `id` that is neither a string nor an integer.
pub(crate) fn bad_id(got: &Value) -> String {
    format!(
        "an id must be a string or a number (an integer), got {}",
        glimpse(got)
    )
}

/// No `jsonrpc` member.
pub(crate) const MISSING_JSONRPC: &str = "missing \"jsonrpc\": \"2.0\"";

/// A `jsonrpc` member other than `"2.0"`.
pub(crate) fn bad_jsonrpc(got: &Value) -> String {
    format!("\"jsonrpc\" must be \"2.0\", got {}", glimpse(got))
}

/// A `method` that is not a string.
pub(crate) fn bad_method(got: &Value) -> String {
    format!("\"method\" must be a string, got {}", glimpse(got))
}

/// `params` that are not an object.
pub(crate) fn bad_message_params(got: &Value) -> String {
    format!("\"params\" must be an object, got {}", glimpse(got))
}

/// None of `method`, `result` and `error`.
pub(crate) const NO_KIND: &str = "a message needs a \"method\" (a request or a notification), or a \"result\" or an \"error\" (a response)";

/// More than one of `method`, `result` and `error`.
pub(crate) const TWO_KINDS: &str =
    "a message holds only one of \"method\", \"result\" and \"error\"";

/// A response without an `id`.
pub(crate) const RESPONSE_WITHOUT_ID: &str =
    "a response needs the \"id\" of the request it answers";

/// An `error` that is not an error object.
pub(crate) fn bad_error_member(got: &Value) -> String {
    format!(
        "\"error\" must be an object with an integer \"code\" and a string \"message\", got {}",
        glimpse(got)
    )
}

/// A message of the right shape whose content does not read: `kind` is `request`, `notification`, `response` or
/// `error response`, `method` its method if it has one, `reason` serde's.
pub(crate) fn unreadable_message(kind: &str, method: Option<&str>, reason: &str) -> String {
    match method {
        Some(method) => format!(
            "{kind} {} does not read: {reason}",
            glimpse(&Value::from(method))
        ),
        None => format!("{kind} does not read: {reason}"),
    }
}

/// Why a message that names `key` twice in the object at `place` (a path, its keys escaped) is refused.
pub(crate) fn duplicate_key(key: &str, place: &str) -> String {
    let place = if place.chars().count() > 4 * ECHO_MAX_CHARS {
        format!(
            "{}…",
            place.chars().take(4 * ECHO_MAX_CHARS).collect::<String>()
        )
    } else {
        place.to_owned()
    };
    format!(
        "duplicate key {} in {place}; each key of a JSON object may appear once",
        glimpse(&Value::from(key))
    )
}

/// Why a request whose id is the id of a request still in flight is refused.
pub(crate) fn id_in_flight(id: &Value) -> String {
    format!(
        "id {} is in use by a request still in flight; give each request its own id",
        glimpse(id)
    )
}

/// `resume` got a property it does not take.
pub(crate) fn unknown_resume_property(name: &str) -> String {
    format!(
        "unknown property {}; resume takes {{\"id\": \"i1\", \"approve\": true or false, \"reason\": \"...\"}}",
        glimpse(&Value::from(name))
    )
}

/// An elicitation answer about interrupt `id` that does not read, and why: nothing was recorded.
pub(crate) fn unread_elicited_answer(id: &str, reason: &str) -> String {
    format!(
        "the answer to interrupt {} does not read: {reason}; nothing was recorded and the interrupt stays open: \
         ask the user again, then call resume {{\"id\": {}, \"approve\": true or false}}",
        glimpse(&Value::from(id)),
        glimpse(&Value::from(id))
    )
}

/// Why a second `initialize` on one session is refused.
pub(crate) const ALREADY_INITIALIZED: &str = "Invalid request: the session is already initialized; send `initialize` once, as the session's first request (open a new session to start over)";

/// The answer to a request the client cancelled (rmcp does not send it; the handler stops with it).
pub(crate) const CANCELLED: &str = "the request was cancelled";

/// The description of `snapshot`.
pub(crate) const SNAPSHOT_DESCRIPTION: &str = "Read every exposed value of the running app at its current version, \
or at an earlier `version` the history still keeps. Returns the ranvier://state document {\"version\": n, \
\"values\": {name: value}}.";

/// The description of `diff`.
pub(crate) const DIFF_DESCRIPTION: &str = "What changed between two versions of the state, value by value \
(`total 500→450`, `cart.lines[1].qty 1→2`), and the messages that made the versions in between. `to` defaults to \
the current version; the history keeps the newest versions, and an answer for one that has left it names the oldest \
kept.";

/// The description of `errors`.
pub(crate) const ERRORS_DESCRIPTION: &str = "The errors the app kept, newest last, one line each: a memo or effect \
whose body panicked, a flight that failed, a message `update` refused or panicked on. Each names the node (and in a \
debug build the line that made it), the message that led to it and who sent it, the version, and the panic text: \
`#3 v2 memo_panicked total (cart.rs:203) during add_item from \"agent\": attempt to divide by zero`. `after` lists \
only the errors numbered after it. The resource ranvier://errors holds the same list.";

/// The `errors` answer: a count line, then one line per error.
pub(crate) fn errors_text(
    records: &[crate::exposure::ErrorRecord],
    dropped: u64,
    after: u64,
) -> String {
    let mut text = match (records.len(), after) {
        (0, 0) => "no errors".to_owned(),
        (0, after) => format!("no errors after #{after}"),
        (1, _) => "1 error".to_owned(),
        (n, _) => format!("{n} errors"),
    };
    if dropped > 0 {
        let _ = write!(text, " ({dropped} older dropped)");
    }
    for record in records {
        text.push('\n');
        text.push_str(&crate::exposure::error_line(record));
    }
    text
}

/// The `ranvier://errors` document: `{"errors": [...], "dropped": n}`.
pub(crate) fn errors_document(records: &[crate::exposure::ErrorRecord], dropped: u64) -> Value {
    serde_json::json!({ "errors": records, "dropped": dropped })
}

/// The description of `wait_version`.
pub(crate) const WAIT_VERSION_DESCRIPTION: &str = "Wait until the app publishes `version` or later, then return that \
state document {\"version\": n, \"values\": {...}}. Use it to wait for changes the app makes on its own (timers, IO, \
a user). `timeoutMs` defaults to 5000 and is at most 60000; a timeout is an error naming the current version.";

/// The description of `dispatch`, listing the shape of each message.
pub(crate) fn dispatch_description(messages: &[(String, Option<String>)]) -> String {
    let mut text = String::from(
        "Dispatch one message to the running app ({\"message\": name, \"args\": {...}}), or several in order \
         ({\"messages\": [{\"message\": name, \"args\": {...}}, ...]}), each after the previous one's effects. \
         Returns one line per message, `position name args → vN: value old→new, ...`, then every exposed value at \
         the final version. A rejected message stops the sequence; the ones before it stay dispatched.\nMessages:",
    );
    for (name, shape) in messages {
        let _ = write!(text, "\n- {name}");
        if let Some(shape) = shape {
            let _ = write!(text, " {shape}");
        }
    }
    text
}

/// The server instructions, which tell a model how to use the tools; `traced` adds the diagnosis tools.
pub(crate) fn instructions(has_messages: bool, names: &[String], traced: bool) -> String {
    let mut text = format!(
        "This server exposes the live state of a running application: named values ({}) that change as the app \
         runs. Call `snapshot` to read every value with its version.",
        if names.is_empty() {
            "none yet".to_owned()
        } else {
            names.join(", ")
        }
    );
    if has_messages {
        text.push_str(
            " Call `dispatch` to send the app one of its messages, or a sequence of them; the result lists, per \
             message, the values it changed, then every value at the final version, so you need no snapshot after \
             it. An error result names what was wrong and the expected arguments.",
        );
    }
    text.push_str(
        " Call `wait_version` with a version above the current one to wait for the app to change on its own. The \
         resources ranvier://state and ranvier://state/{name} hold the same documents and can be subscribed to.",
    );
    if traced {
        text.push_str(if has_messages {
            " To diagnose a wrong value, call `explain {node, messages}` first: it dispatches the messages that \
             reproduce the problem, then names the node's creation line, the cause chain, and the line at fault \
             (`unread:`, `cutoff:`, `comparer:` or why it has not re-run), each with its source line; then fix the \
             named line."
        } else {
            " To diagnose a wrong value, call `explain {node}` first: it names the node's creation line, the cause \
             chain, and the line at fault (`unread:`, `cutoff:`, `comparer:` or why it has not re-run), each with its \
             source line; then fix the named line."
        });
        text.push_str(
            " `graph` lists the exposed nodes and what the last message moved; `node` shows one node's sources and \
             observers.",
        );
    }
    text
}

/// The lines of `steps`, as `dispatch` prints them.
pub(crate) fn step_lines(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .map(|step| {
            step_line(
                step.position,
                &step.name,
                &step.args,
                step.version,
                &step.changes,
            )
        })
        .collect()
}

/// The text of a dispatch that paused at `interrupt`: the steps that ran, where it paused and why, the interrupt,
/// the messages not run, how to answer, the other open interrupts, and the state.
pub(crate) fn paused_text(
    steps: &[String],
    interrupt: &Interrupt,
    total: Option<usize>,
    open: &[Interrupt],
    snapshot: &Snapshot,
) -> String {
    let mut out = String::new();
    for step in steps {
        out.push_str(step);
        out.push('\n');
    }
    out.push_str(&format!("paused at message {}", interrupt.position));
    if let Some(total) = total {
        out.push_str(&format!(" of {total}"));
    }
    out.push_str(&format!(
        ": {} needs a person's approval and did not run\ninterrupt {}",
        interrupt.message,
        interrupt_line(interrupt)
    ));
    if !interrupt.not_run.is_empty() {
        out.push_str("\nnot run yet (they run after an approval):");
        for (offset, (name, args)) in interrupt.not_run.iter().enumerate() {
            out.push_str(&format!(
                " {} {name} {}{}",
                interrupt.position + offset + 1,
                compact(args),
                if offset + 1 < interrupt.not_run.len() {
                    ";"
                } else {
                    ""
                }
            ));
        }
    }
    let id = quoted(&interrupt.id);
    out.push_str(&format!(
        "\nAsk the user: {} Then call resume with {{\"id\": {id}, \"approve\": true}} to run it, or {{\"id\": \
         {id}, \"approve\": false, \"reason\": \"...\"}} to drop it.",
        quoted(&interrupt.prompt),
    ));
    let others: Vec<&Interrupt> = open.iter().filter(|o| o.id != interrupt.id).collect();
    if !others.is_empty() {
        out.push_str("\nalso open:");
        for other in others {
            out.push_str(&format!("\n- {}", interrupt_line(other)));
        }
    }
    out.push('\n');
    out.push_str(&state_line(snapshot.version, &snapshot.values));
    out
}

/// The reason a dispatch was refused while `interrupt` is open, in the words of the one who reads it: with the id
/// and how to answer for a caller `shown` it, without the id for any other.
pub(crate) fn pending_text(name: &str, interrupt: &Interrupt, shown: bool) -> String {
    let what = format!(
        "{} {} — {}",
        interrupt.message,
        compact(&interrupt.args),
        quoted(&interrupt.prompt)
    );
    let expires = interrupt.remaining().as_secs_f64().ceil() as u64;
    if shown {
        let id = quoted(&interrupt.id);
        format!(
            "{} was refused: the app waits for a person's answer to interrupt {id} ({what}, asked by {}, expires in \
             {expires} s); nothing ran. Ask the user: {} Then call resume with {{\"id\": {id}, \"approve\": true or \
             false}}, and dispatch again",
            quoted(name),
            quoted(&interrupt.sender),
            quoted(&interrupt.prompt),
        )
    } else {
        format!(
            "{} was refused: the app waits for a person's answer to an interrupt ({what}, expires in {expires} s); \
             nothing ran. The session that opened it (with the id its dispatch gave) or the app can answer it: \
             dispatch again once it is answered or has expired",
            quoted(name),
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn values() -> Vec<(String, Value)> {
        vec![
            ("count".into(), json!(2)),
            ("subtotal".into(), json!(500)),
            ("discount".into(), json!(10)),
            ("total".into(), json!(450)),
        ]
    }

    #[test]
    fn step_line_lists_changes_in_the_given_order() {
        let changes = vec![
            ("discount".to_owned(), json!(0), json!(10)),
            ("total".to_owned(), json!(500), json!(450)),
        ];
        assert_eq!(
            step_line(2, "set_discount", &json!({"percent": 10}), 3, &changes),
            r#"2 set_discount {"percent":10} → v3: discount 0→10, total 500→450"#
        );
    }

    #[test]
    fn pending_async_values_read_as_pending_in_step_and_state_lines() {
        let changes = vec![(
            "shipping".to_owned(),
            json!(400),
            json!({"pending": true, "last": 400}),
        )];
        assert_eq!(
            step_line(1, "set_weight", &json!({"grams": 900}), 2, &changes),
            r#"1 set_weight {"grams":900} → v2: shipping 400→(pending)"#
        );
        let changes = vec![(
            "shipping".to_owned(),
            json!({"pending": true, "last": 400}),
            json!(450),
        )];
        assert_eq!(
            step_line(1, "settle", &json!({}), 3, &changes),
            r#"1 settle {} → v3: shipping (pending)→450"#
        );
        let values = vec![
            ("shipping".to_owned(), json!({"pending": true, "last": 400})),
            ("quote".to_owned(), json!({"pending": true})),
            ("other".to_owned(), json!({"pending": "soon"})),
        ];
        assert_eq!(
            state_line(2, &values),
            r#"v2: shipping=(pending, last 400), quote=(pending), other={"pending":"soon"}"#
        );
    }

    #[test]
    fn step_line_without_changes_says_so() {
        assert_eq!(
            step_line(1, "remove_item", &json!({"sku": "zz"}), 3, &[]),
            r#"1 remove_item {"sku":"zz"} → v3: no exposed value changed"#
        );
    }

    #[test]
    fn step_line_prints_strings_as_compact_json_and_structures_as_changed_paths() {
        let changes = vec![
            ("tags".to_owned(), json!(["a"]), json!(["a", "b"])),
            ("label".to_owned(), json!(null), json!("é")),
            (
                "todos".to_owned(),
                json!({"items": [{"done": false}]}),
                json!({"items": [{"done": true}]}),
            ),
        ];
        assert_eq!(
            step_line(1, "tag", &json!({}), 9, &changes),
            r#"1 tag {} → v9: tags[1] (none)→"b", label null→"é", todos.items[0].done false→true"#
        );
    }

    #[test]
    fn step_line_shows_an_edit_state_as_its_value_and_dirty_flag() {
        let changes = vec![
            (
                "name".to_owned(),
                json!({"value": "a", "dirty": false}),
                json!({"value": "ab", "dirty": true}),
            ),
            (
                "form".to_owned(),
                json!({"value": {"age": 3, "city": "x"}, "dirty": true}),
                json!({"value": {"age": 4, "city": "x"}, "dirty": true}),
            ),
            (
                "draft".to_owned(),
                json!({"value": "ab", "dirty": true}),
                json!({"value": "ab", "dirty": false}),
            ),
        ];
        assert_eq!(
            step_line(1, "type", &json!({}), 2, &changes),
            r#"1 type {} → v2: name "a"→"ab" (dirty), form.age 3→4 (dirty), draft "ab" (dirty)→"ab""#
        );
    }

    #[test]
    fn step_and_state_lines_show_a_boundary_fallback_and_recovered_value_with_the_reason_escaped() {
        let changes = vec![
            (
                "total".to_owned(),
                json!(450),
                json!({"value": 0, "waiting": true}),
            ),
            (
                "card".to_owned(),
                json!({"value": 0, "waiting": true}),
                json!({"value": -1, "caught": "bad \"id\"\nline"}),
            ),
        ];
        assert_eq!(
            step_line(1, "load", &json!({}), 3, &changes),
            r#"1 load {} → v3: total 450→0 (waiting), card 0 (waiting)→-1 (caught: "bad \"id\"\nline")"#
        );
        let values = vec![("card".to_owned(), json!({"value": -1, "caught": "x"}))];
        assert_eq!(state_line(3, &values), r#"v3: card=-1 (caught: "x")"#);
    }

    #[test]
    fn a_plain_object_with_a_value_key_is_not_taken_for_an_annotated_value() {
        let changes = vec![(
            "row".to_owned(),
            json!({"value": 1, "dirty": "no"}),
            json!({"value": 2, "dirty": "no"}),
        )];
        assert_eq!(
            step_line(1, "set", &json!({}), 2, &changes),
            r#"1 set {} → v2: row.value 1→2"#
        );
    }

    #[test]
    fn state_line_lists_every_value_in_order() {
        assert_eq!(
            state_line(3, &values()),
            "v3: count=2, subtotal=500, discount=10, total=450"
        );
        assert_eq!(state_line(0, &[]), "v0:");
    }

    #[test]
    fn the_state_line_names_a_collections_keys_not_its_rows() {
        let rows = |n: usize| {
            Value::Array(
                (0..n)
                    .map(|i| json!({"key": format!("k{i}"), "qty": i}))
                    .collect(),
            )
        };
        let odd = json!([{"key": "a b", "qty": 1}, {"key": 7, "qty": 2}]);
        let values = vec![
            ("lines".to_owned(), rows(2)),
            ("many".to_owned(), rows(10)),
            ("odd".to_owned(), odd),
            ("empty".to_owned(), json!([])),
            // not a collection: a key twice, so its rows cannot be named by key
            ("twice".to_owned(), json!([{"key": 1}, {"key": 1}])),
        ];
        assert_eq!(
            state_line(2, &values),
            r#"v2: lines=[k0, k1], many=[k0, k1, k2, k3, k4, k5, k6, k7, +2 more], odd=["a b", 7], empty=[], twice=[{"key":1},{"key":1}]"#
        );
    }

    #[test]
    fn state_document_text_keeps_registration_order_and_parses_to_the_document() {
        let text = state_document_text(3, &values());
        assert_eq!(
            text,
            r#"{"version":3,"values":{"count":2,"subtotal":500,"discount":10,"total":450}}"#
        );
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed, state_document(3, &values()));
    }

    #[test]
    fn state_document_text_escapes_names() {
        let text = state_document_text(1, &[("a\"b".into(), json!(1))]);
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed["values"]["a\"b"], json!(1));
    }

    #[test]
    fn value_document_text_is_version_and_value() {
        assert_eq!(
            value_document_text(4, &json!({"a": [1]})),
            r#"{"version":4,"value":{"a":[1]}}"#
        );
    }

    #[test]
    fn dispatch_result_ends_with_the_state_line() {
        let text = dispatch_result(
            &["1 clear {} → v2: no exposed value changed".into()],
            "v2: count=0",
        );
        assert_eq!(
            text,
            "1 clear {} → v2: no exposed value changed\nv2: count=0"
        );
    }

    #[test]
    fn argument_errors_name_the_known_messages() {
        let names = vec!["add_item".to_owned(), "clear".to_owned()];
        assert!(missing_message(&names).starts_with("missing \"message\""));
        assert!(missing_message(&names).ends_with("known messages: add_item, clear"));
        assert_eq!(
            non_string_message(&json!(7), &names),
            "\"message\" must be a string naming a message, got 7; known messages: add_item, clear"
        );
        assert!(missing_message(&[]).ends_with("; this app exposes no messages"));
    }

    #[test]
    fn a_stopped_sequence_lists_earlier_steps_then_the_reason_then_the_state() {
        let text = sequence_stopped(
            2,
            Some(3),
            "unknown message \"x\"",
            &["1 clear {} → v1: count 1→0".into()],
            "v1: count=0",
        );
        assert_eq!(
            text,
            "1 clear {} → v1: count 1→0\nstopped at message 2 of 3: unknown message \"x\"\nmessages 1 to 1 stay \
             dispatched; later messages were not dispatched\nv1: count=0"
        );
        let first = sequence_stopped(1, Some(2), "r", &[], "v0:");
        assert_eq!(
            sequence_stopped(1, None, "r", &[], "v0:"),
            "stopped at message 1: r\nno message was dispatched\nv0:"
        );
        assert_eq!(
            first,
            "stopped at message 1 of 2: r\nno message was dispatched\nv0:"
        );
    }

    #[test]
    fn wait_version_rejections() {
        assert_eq!(
            bad_version(Some(&json!("7"))),
            "\"version\" must be a non-negative integer, got \"7\""
        );
        assert!(bad_version(None).starts_with("missing \"version\""));
        assert!(
            negative_timeout(&json!(-1)).starts_with("\"timeoutMs\" must not be negative, got -1")
        );
        assert!(bad_timeout(&json!(1.5)).contains("got 1.5"));
        assert!(
            wait_timeout(7, 100, 3).starts_with(
                "timed out after 100 ms waiting for version 7; the current version is 3"
            )
        );
    }

    #[test]
    fn dispatch_description_lists_every_shape() {
        let text = dispatch_description(&[
            ("add_item".into(), Some("{sku: string}".into())),
            ("clear".into(), None),
        ]);
        assert!(
            text.ends_with("Messages:\n- add_item {sku: string}\n- clear"),
            "{text}"
        );
    }
}
