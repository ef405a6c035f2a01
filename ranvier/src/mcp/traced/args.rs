//! Reading the traced tools' arguments; every rejection names the argument, what it got and what it expects.

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::mcp::text::compact;

/// `node`'s default and largest `limit`.
pub(crate) const NODE_LIMIT_DEFAULT: u64 = 25;
/// See [`NODE_LIMIT_DEFAULT`].
pub(crate) const NODE_LIMIT_MAX: u64 = 200;
/// `trace_state`'s default and largest `limit`.
pub(crate) const STATE_LIMIT_DEFAULT: u64 = 100;
/// See [`STATE_LIMIT_DEFAULT`].
pub(crate) const STATE_LIMIT_MAX: u64 = 500;

/// A call's arguments, checked against the names the tool takes.
pub(crate) struct Args<'a> {
    tool: &'static str,
    fields: Option<&'a JsonObject>,
}

impl<'a> Args<'a> {
    /// Rejects an argument the tool does not take.
    pub(crate) fn new(
        tool: &'static str,
        fields: Option<&'a JsonObject>,
        known: &[&str],
    ) -> Result<Self, String> {
        if let Some(unknown) = fields
            .into_iter()
            .flat_map(|f| f.keys())
            .find(|key| !known.contains(&key.as_str()))
        {
            return Err(if known.is_empty() {
                format!("{tool} takes no arguments, got \"{unknown}\"")
            } else {
                format!(
                    "{tool} has no argument \"{unknown}\"; its arguments are {}",
                    known.join(", ")
                )
            });
        }
        Ok(Args { tool, fields })
    }

    pub(crate) fn get(&self, name: &str) -> Option<&'a Value> {
        self.fields.and_then(|f| f.get(name))
    }

    /// The required `node`: a non-empty string.
    pub(crate) fn node(&self) -> Result<String, String> {
        let expected = "an exposed node name, a node name, `#id` or an identity path `/owner/name`";
        match self.get("node") {
            Some(Value::String(text)) if !text.trim().is_empty() => Ok(text.trim().to_owned()),
            Some(other) => Err(format!(
                "\"node\" must be a non-empty string naming a node ({expected}), got {}",
                compact(other)
            )),
            None => Err(format!("{} needs \"node\": {expected}", self.tool)),
        }
    }

    /// `around`: 0, 1 or 2 hops, default 1.
    pub(crate) fn around(&self) -> Result<u32, String> {
        match self.get("around") {
            None => Ok(1),
            Some(value) => match value.as_u64() {
                Some(hops @ 0..=2) => Ok(u32::try_from(hops).unwrap_or(1)),
                _ => Err(format!(
                    "\"around\" must be 0, 1 or 2 hops (default 1), got {}",
                    compact(value)
                )),
            },
        }
    }

    /// `detail`: `brief` (default) or `full`; returns whether it is full.
    pub(crate) fn full(&self) -> Result<bool, String> {
        match self.get("detail") {
            None => Ok(false),
            Some(Value::String(text)) if text == "brief" => Ok(false),
            Some(Value::String(text)) if text == "full" => Ok(true),
            Some(other) => Err(format!(
                "\"detail\" must be \"brief\" or \"full\" (default \"brief\"), got {}",
                compact(other)
            )),
        }
    }

    /// `limit`: 1 to `max`.
    pub(crate) fn limit(&self, default: u64, max: u64) -> Result<usize, String> {
        let limit = match self.get("limit") {
            None => default,
            Some(value) => match value.as_u64() {
                Some(n) if (1..=max).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "\"limit\" must be an integer from 1 to {max} (default {default}), got {}",
                        compact(value)
                    ));
                }
            },
        };
        Ok(usize::try_from(limit).unwrap_or(usize::MAX))
    }

    /// The optional `run`: a run number from 1, as `history` numbers a node's runs.
    pub(crate) fn run(&self) -> Result<Option<u32>, String> {
        match self.get("run") {
            None | Some(Value::Null) => Ok(None),
            Some(value) => match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
                Some(run) if run >= 1 => Ok(Some(run)),
                _ => Err(format!(
                    "\"run\" must be a run number from 1 (as `history` lists a node's runs), got {}",
                    compact(value)
                )),
            },
        }
    }

    /// The required `seq`: an event's sequence number, from 1.
    pub(crate) fn seq(&self) -> Result<u64, String> {
        match self.get("seq") {
            Some(value) => match value.as_u64() {
                Some(seq) if seq >= 1 => Ok(seq),
                _ => Err(format!(
                    "\"seq\" must be an event's sequence number, an integer from 1 (as `history` and `why` print \
                     them: #42 is 42), got {}",
                    compact(value)
                )),
            },
            None => Err(format!(
                "{} needs \"seq\": an event's sequence number, an integer from 1",
                self.tool
            )),
        }
    }

    /// `cursor`: the position a previous page ended with (a string of digits; a plain integer is taken too).
    pub(crate) fn cursor(&self) -> Result<usize, String> {
        let bad = |value: &Value| {
            format!(
                "\"cursor\" must be the cursor a previous page ended with, like \"25\", got {}",
                compact(value)
            )
        };
        match self.get("cursor") {
            None | Some(Value::Null) => Ok(0),
            Some(value @ Value::String(text)) => text.trim().parse().map_err(|_| bad(value)),
            Some(value) => value
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| bad(value)),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fields(value: Value) -> JsonObject {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn rejections_name_the_argument_and_what_is_expected() {
        let f = fields(json!({"node": "total", "hops": 1}));
        let err = Args::new("node", Some(&f), &["node", "around"])
            .err()
            .unwrap();
        assert_eq!(
            err,
            "node has no argument \"hops\"; its arguments are node, around"
        );
        let f = fields(json!({"node": 7, "around": 3, "detail": "all", "limit": 0, "cursor": "x"}));
        let a = Args::new(
            "node",
            Some(&f),
            &["node", "around", "detail", "limit", "cursor"],
        )
        .unwrap();
        assert!(a.node().unwrap_err().ends_with("got 7"));
        assert_eq!(
            a.around().unwrap_err(),
            "\"around\" must be 0, 1 or 2 hops (default 1), got 3"
        );
        assert!(a.full().unwrap_err().contains("\"brief\" or \"full\""));
        assert!(a.limit(25, 200).unwrap_err().contains("from 1 to 200"));
        assert!(a.cursor().unwrap_err().contains("got \"x\""));
        let none = Args::new("node", None, &["node"]).unwrap();
        assert_eq!(
            none.node().unwrap_err(),
            "node needs \"node\": an exposed node name, a node name, `#id` or an identity path `/owner/name`"
        );
        assert_eq!(none.around(), Ok(1));
        assert_eq!(none.limit(25, 200), Ok(25));
        assert_eq!(none.cursor(), Ok(0));
        let f = fields(json!({"x": 1}));
        assert_eq!(
            Args::new("graph", Some(&f), &[]).err().unwrap(),
            "graph takes no arguments, got \"x\""
        );
    }
}
