//! `ranvier-mcp postmortem <dump>`: the traced tools of an app that is gone, answered from a dump of its trace log
//! (the app's MCP tool `dump`, or `ranvier::trace::dump()`) as the app answered them when the dump was taken.
//!
//! Without a tool it serves MCP over stdio (register it as an MCP server, as the app itself would be); with one it
//! calls that tool once and prints the result's text, as `call` does. Read-only: `explain`, `graph`, `node`,
//! `history`, `snapshot_at` and the other traced tools, no `dispatch`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ranvier::mcp::{Postmortem, serve_postmortem_stdio};
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::{Failure, call, text};

/// How `postmortem` runs.
pub struct Options {
    /// The dump file.
    pub dump: PathBuf,
    /// The tool to call once (serve over stdio when `None`).
    pub tool: Option<String>,
    /// Its arguments.
    pub arguments: Option<JsonObject>,
    /// Print the tools instead.
    pub list: bool,
    /// Where the dumped app's sources are, when they are not where it ran.
    pub source_root: Option<PathBuf>,
}

/// Loads the dump; a file that cannot be read or is not a dump is a usage error naming what is wrong.
fn open(dump: &Path) -> Result<Postmortem, Failure> {
    Postmortem::open(dump).map_err(|e| Failure::Usage(e.to_string()))
}

pub async fn run(options: Options) -> Result<String, Failure> {
    let postmortem = open(&options.dump)?;
    if let Some(root) = &options.source_root {
        ranvier::trace::set_source_root(root.clone());
    }
    if options.list {
        let mut out = format!("post-mortem of {}\n\ntools:\n", options.dump.display());
        for tool in postmortem.tools() {
            let _ = writeln!(
                out,
                "  {}: {}",
                tool.name,
                tool.description.as_deref().unwrap_or_default()
            );
        }
        return Ok(out.trim_end().to_owned());
    }
    let Some(tool) = options.tool else {
        serve_postmortem_stdio(postmortem)
            .await
            .map_err(|e| Failure::Usage(format!("serving the post-mortem failed: {e}")))?;
        return Ok(String::new());
    };
    let result = postmortem.call(&tool, options.arguments.as_ref()).await;
    let result = serde_json::to_value(&result)
        .map_err(|e| Failure::Usage(format!("cannot read the tool result: {e}")))?;
    let text = text::result_text(&result);
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        Err(Failure::Tool(text))
    } else {
        Ok(text)
    }
}

/// The arguments of a one-shot call, read as `call` reads them.
pub fn arguments(json: Option<&str>) -> Result<Option<JsonObject>, Failure> {
    call::parse_arguments(json)
}
