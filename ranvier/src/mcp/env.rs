//! The environment variables that set [`McpAdapterOptions`](super::McpAdapterOptions) without code, so any app
//! built on the adapter (the cart sample among them) switches on the raw trace tools, `alwaysLoad`, a fixed sender
//! name or another answer policy from the shell or a client's config.

use super::{Answerers, McpAdapterOptions, ProtocolEra};

/// `legacy`, `modern` or `both` (the default): the protocol eras served.
pub const PROTOCOL_ENV: &str = "RANVIER_MCP_PROTOCOL";
/// `1` lists the raw trace tools (`trace_state`, `trace_lookup`, `why`, `why_not`, `waiting_on`) in a traced build.
pub const RAW_TRACE_TOOLS_ENV: &str = "RANVIER_MCP_RAW_TRACE_TOOLS";
/// `1` marks `dispatch` and `explain` with `_meta["anthropic/alwaysLoad"]: true`.
pub const ALWAYS_LOAD_ENV: &str = "RANVIER_MCP_ALWAYS_LOAD";
/// The name recorded as the sender of every MCP client's messages and answers (not empty).
pub const SENDER_ENV: &str = "RANVIER_MCP_SENDER";
/// `own` (the default) or `any`: which sessions may answer an interrupt ([`Answerers`]).
pub const ANSWERERS_ENV: &str = "RANVIER_MCP_ANSWERERS";

/// An environment variable of the adapter holds a value it does not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{var} must be {expected}, got {}", crate::escape::quote(.value))]
pub struct EnvError {
    /// The variable.
    pub var: &'static str,
    /// What it holds.
    pub value: String,
    /// What it takes.
    pub expected: &'static str,
}

/// Reads the adapter's variables into `options` (an unset or empty variable leaves its option as it is).
pub(super) fn apply(mut options: McpAdapterOptions) -> Result<McpAdapterOptions, EnvError> {
    apply_with(&mut options, |var| std::env::var(var).ok())?;
    Ok(options)
}

/// [`apply`] reading variables through `get` (tests pass a map).
pub(super) fn apply_with(
    options: &mut McpAdapterOptions,
    get: impl Fn(&str) -> Option<String>,
) -> Result<(), EnvError> {
    let get = |var: &str| get(var).filter(|value| !value.is_empty());
    let error = |var, value: String, expected| EnvError {
        var,
        value,
        expected,
    };
    if let Some(value) = get(PROTOCOL_ENV) {
        options.protocol = match value.as_str() {
            "legacy" => ProtocolEra::Legacy,
            "modern" => ProtocolEra::Modern,
            "both" => ProtocolEra::Both,
            _ => return Err(error(PROTOCOL_ENV, value, "legacy, modern or both")),
        };
    }
    for (var, option) in [
        (RAW_TRACE_TOOLS_ENV, &mut options.raw_trace_tools),
        (ALWAYS_LOAD_ENV, &mut options.always_load),
    ] {
        if let Some(value) = get(var) {
            *option = match value.as_str() {
                "1" | "true" | "yes" | "on" => true,
                "0" | "false" | "no" | "off" => false,
                _ => return Err(error(var, value, "1 or 0 (or true/false, yes/no, on/off)")),
            };
        }
    }
    if let Some(value) = get(SENDER_ENV) {
        options.sender = Some(value);
    }
    if let Some(value) = get(ANSWERERS_ENV) {
        options.answerers = match value.as_str() {
            "own" | "own-session" => Answerers::OwnSession,
            "any" | "any-session" => Answerers::AnySession,
            _ => return Err(error(ANSWERERS_ENV, value, "own or any")),
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(vars: &[(&str, &str)]) -> Result<McpAdapterOptions, EnvError> {
        let mut options = McpAdapterOptions::new("app", "0");
        apply_with(&mut options, |var| {
            vars.iter()
                .find(|(name, _)| *name == var)
                .map(|(_, value)| (*value).to_owned())
        })?;
        Ok(options)
    }

    #[test]
    fn each_variable_sets_its_option() {
        let options = read(&[
            (PROTOCOL_ENV, "legacy"),
            (RAW_TRACE_TOOLS_ENV, "1"),
            (ALWAYS_LOAD_ENV, "true"),
            (SENDER_ENV, "ci-agent"),
            (ANSWERERS_ENV, "any"),
        ])
        .unwrap();
        assert_eq!(options.protocol, ProtocolEra::Legacy);
        assert!(options.raw_trace_tools && options.always_load);
        assert_eq!(options.sender.as_deref(), Some("ci-agent"));
        assert_eq!(options.answerers, Answerers::AnySession);
        let untouched = read(&[(ALWAYS_LOAD_ENV, "")]).unwrap();
        assert!(!untouched.always_load && untouched.sender.is_none());
    }

    #[test]
    fn a_bad_value_names_the_variable_and_what_it_takes() {
        let error = read(&[(ALWAYS_LOAD_ENV, "maybe\n")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "RANVIER_MCP_ALWAYS_LOAD must be 1 or 0 (or true/false, yes/no, on/off), got \"maybe\\n\""
        );
        assert_eq!(
            read(&[(ANSWERERS_ENV, "all")]).unwrap_err().to_string(),
            "RANVIER_MCP_ANSWERERS must be own or any, got \"all\""
        );
    }
}
