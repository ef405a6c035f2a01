//! `ranvier-mcp supervise --script FILE`: `supervise` driven from a shell. It starts `ranvier-mcp supervise APP` as
//! an MCP server, connects to it as a client, and sends one tool call per line of FILE (`-` reads the terminal, a
//! line at a time, so a person can rebuild the app between two calls and watch the next one reload it).
//!
//! A line is `{"tool": "dispatch", "arguments": {...}}` (`arguments` may be left out); blank lines and lines
//! starting with `#` are skipped. Each call prints `> ` and the line, then the result's text. A tool error is
//! printed and the script goes on; the exit code is then 1. A line that cannot be read stops the script there,
//! naming the line and what a line holds.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::model::JsonObject;
use serde_json::Value;
use tokio::io::AsyncBufReadExt as _;

use crate::Failure;
use crate::app::{self, Era, Launch};
use crate::call::call_tool;
use crate::text;

/// What a script line holds, for the error that names a bad one.
const LINE_FORM: &str = r#"one JSON object per line: {"tool": "dispatch", "arguments": {"message": "...", "args": {...}}}"#;

/// How `supervise --script` runs.
pub struct Options {
    /// The script: a file, or `-` for stdin.
    pub script: PathBuf,
    /// The app's binary, as `supervise` takes it.
    pub app: PathBuf,
    /// Arguments passed to the app.
    pub app_args: Vec<String>,
    /// Seconds the app (and a new build) has to answer the handshake.
    pub startup_timeout: Duration,
    /// Seconds one call has to answer.
    pub timeout: Duration,
}

/// Runs the script; `Ok` with nothing left to print when every call succeeded, [`Failure::Tool`] when one answered
/// an error, [`Failure::Usage`] for a line that cannot be read or a supervisor that cannot start.
pub async fn run(options: Options) -> Result<String, Failure> {
    let lines = Lines::open(&options.script).await?;
    let me = std::env::current_exe().map_err(|e| {
        Failure::Usage(format!(
            "cannot find ranvier-mcp's own binary: {}",
            app::io_reason(&e)
        ))
    })?;
    let mut args = vec![
        "supervise".to_owned(),
        "--startup-timeout".to_owned(),
        options.startup_timeout.as_secs_f64().to_string(),
        options.app.display().to_string(),
    ];
    if !options.app_args.is_empty() {
        args.push("--".to_owned());
        args.extend(options.app_args.iter().cloned());
    }
    let launch = Launch {
        binary: me,
        args,
        era: Era::Auto,
        startup_timeout: options.startup_timeout + Duration::from_secs(2),
        show_stderr: true,
    };
    let session = app::connect(&launch).await?;
    let outcome = drive(&session, lines, options.timeout).await;
    session.stop().await;
    match outcome {
        Ok(0) => Ok(String::new()),
        Ok(errors) => Err(Failure::Tool(format!("{errors} call(s) answered an error"))),
        Err(failure) => Err(failure),
    }
}

/// Sends each line's call and prints its answer; the number of calls that answered an error.
async fn drive(
    session: &app::Session,
    mut lines: Lines,
    timeout: Duration,
) -> Result<usize, Failure> {
    let mut errors = 0;
    let mut number = 0;
    while let Some(line) = lines.next().await? {
        number += 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (tool, arguments) = parse(trimmed).map_err(|reason| {
            Failure::Usage(format!(
                "{} line {number}: {reason}; expected {LINE_FORM}",
                lines.name
            ))
        })?;
        println!("> {trimmed}");
        let result = call_tool(session, &tool, arguments, timeout).await?;
        println!("{}", text::result_text(&result));
        let _ = std::io::stdout().flush();
        if result.get("isError").and_then(Value::as_bool) == Some(true) {
            errors += 1;
        }
    }
    Ok(errors)
}

/// A script line's tool and arguments, or why it cannot be read.
fn parse(line: &str) -> Result<(String, Option<JsonObject>), String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    let Value::Object(mut object) = value else {
        return Err("not a JSON object".to_owned());
    };
    if let Some(key) = object
        .keys()
        .find(|key| *key != "tool" && *key != "arguments")
    {
        return Err(format!("unknown property {}", serde_json::json!(key)));
    }
    let tool = match object.remove("tool") {
        Some(Value::String(tool)) if !tool.is_empty() => tool,
        Some(other) => return Err(format!("`tool` must be a tool's name, got {other}")),
        None => return Err("missing property `tool`".to_owned()),
    };
    match object.remove("arguments") {
        None | Some(Value::Null) => Ok((tool, None)),
        Some(Value::Object(arguments)) => Ok((tool, Some(arguments))),
        Some(other) => Err(format!("`arguments` must be an object, got {other}")),
    }
}

/// The script's lines: a file's, read at once, or stdin's, read as they come.
struct Lines {
    /// The script as the error messages name it.
    name: String,
    source: Source,
}

enum Source {
    File(std::vec::IntoIter<String>),
    Stdin(tokio::io::Lines<tokio::io::BufReader<tokio::io::Stdin>>),
}

impl Lines {
    async fn open(path: &Path) -> Result<Self, Failure> {
        if path == Path::new("-") {
            let stdin = tokio::io::BufReader::new(tokio::io::stdin());
            return Ok(Lines {
                name: "stdin".to_owned(),
                source: Source::Stdin(stdin.lines()),
            });
        }
        let text = tokio::fs::read_to_string(path).await.map_err(|e| {
            Failure::Usage(format!(
                "cannot read the script {}: {}",
                path.display(),
                app::io_reason(&e)
            ))
        })?;
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        Ok(Lines {
            name: path.display().to_string(),
            source: Source::File(lines.into_iter()),
        })
    }

    async fn next(&mut self) -> Result<Option<String>, Failure> {
        match &mut self.source {
            Source::File(lines) => Ok(lines.next()),
            Source::Stdin(lines) => lines
                .next_line()
                .await
                .map_err(|e| Failure::Usage(format!("cannot read stdin: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn lines_name_what_is_wrong() {
        assert_eq!(
            parse(r#"{"tool": "snapshot"}"#),
            Ok(("snapshot".to_owned(), None))
        );
        assert!(
            parse(r#"{"tool": "dispatch", "arguments": {"message": "clear"}}"#)
                .unwrap()
                .1
                .is_some()
        );
        assert_eq!(
            parse("dispatch").unwrap_err().split(" (").next(),
            Some("not JSON")
        );
        assert_eq!(parse("[1]").unwrap_err(), "not a JSON object");
        assert_eq!(parse("{}").unwrap_err(), "missing property `tool`");
        assert_eq!(
            parse(r#"{"tool": 1}"#).unwrap_err(),
            "`tool` must be a tool's name, got 1"
        );
        assert_eq!(
            parse(r#"{"tool": "x", "args": {}}"#).unwrap_err(),
            "unknown property \"args\""
        );
        assert_eq!(
            parse(r#"{"tool": "x", "arguments": [1]}"#).unwrap_err(),
            "`arguments` must be an object, got [1]"
        );
    }
}
